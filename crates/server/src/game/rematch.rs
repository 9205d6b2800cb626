//! The rematch (protocol §3.7): after a game, the same settings with the
//! colours swapped, both players seated in the new game with the seats they
//! held in this one. Against the engine or at one screen it is created at
//! once; in an invitation game one player offers and the game is created
//! when the opponent offers too. The offer and the new game's id are events
//! of the old game's log, so a player who reconnects sees them. Each player's
//! seat in the new game is issued to whoever shows his seat of the old game
//! ([`crate::seat::rematch_token`]): the requester's at once, the opponent's
//! when he asks (the new game's [`GameCore::seat_rematch`]).

use super::core::{Effects, GameCore, SeatSet};
use super::table::Refusal;
use crate::protocol::{Color, Event, Mode, Status};
use crate::store::WriteOp;

/// What a player's rematch request leads to.
///
/// ```
/// use arbiter_server::game::rematch::Rematch;
/// use arbiter_server::game::core::SeatSet;
/// use arbiter_server::protocol::Color;
/// let offered = Rematch::Offered;
/// let created = Rematch::Created { game: "AbCd1234".into(), seat: SeatSet::one(Color::Black) };
/// assert_ne!(offered, created);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rematch {
    /// The offer stands; the opponent has not offered (yet).
    Offered,
    /// The rematch is `game` (created now or before), where the requester
    /// holds `seat`.
    Created {
        /// The new game's id.
        game: String,
        /// The requester's colours in it.
        seat: SeatSet,
    },
}

/// A new game to create for the rematch, with the old game's event that
/// announces it.
pub struct NewGame {
    /// The rematch game.
    pub core: GameCore,
    /// Its creation writes (the game, its seats, and for an invitation the
    /// opponent's join).
    pub writes: Vec<WriteOp>,
}

impl GameCore {
    /// The rematch game already created, if any.
    pub fn rematch_game(&self) -> Option<&str> {
        self.log.iter().rev().find_map(|e| match &e.event {
            Event::Rematch { game } => Some(game.as_str()),
            _ => None,
        })
    }

    /// The player whose rematch offer stands (none once it is made).
    pub fn rematch_offer(&self) -> Option<Color> {
        if self.rematch_game().is_some() {
            return None;
        }
        match self.rematch_offers() {
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            _ => None,
        }
    }

    /// The colours that have offered a rematch.
    fn rematch_offers(&self) -> (bool, bool) {
        let mut offers = (false, false);
        for e in &self.log {
            if let Event::RematchOffer { by } = e.event {
                match by {
                    Color::White => offers.0 = true,
                    Color::Black => offers.1 = true,
                }
            }
        }
        offers
    }

    /// The holder of `seat` asks for a rematch at `now`. `Ok(Ok(()))`: the
    /// game is to be created now ([`GameCore::new_rematch`]); `Ok(Err(effects))`:
    /// the offer is recorded (or `Effects` empty if it already stood).
    pub fn ask_rematch(
        &mut self,
        seat: SeatSet,
        now: u64,
    ) -> Result<Result<(), Option<Effects>>, Refusal> {
        if self.status != Status::Finished {
            return Err(Refusal::new(
                "game_not_finished",
                "a rematch is offered after the game",
            ));
        }
        if self.settings.mode != Mode::Invite {
            return Ok(Ok(()));
        }
        let opponent_joined = Color::ALL.iter().all(|&c| self.players.get(c).joined);
        if !opponent_joined {
            return Err(Refusal::new(
                "no_opponent",
                "nobody took the invitation: there is no one to play a rematch with",
            ));
        }
        let by = if seat.white {
            Color::White
        } else {
            Color::Black
        };
        let (white, black) = self.rematch_offers();
        let (mine, theirs) = match by {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        if theirs {
            return Ok(Ok(()));
        }
        if mine {
            return Ok(Err(None));
        }
        Ok(Err(Some(self.record(
            now,
            None,
            vec![Event::RematchOffer { by }],
            Vec::new(),
        ))))
    }

    /// The colours the holder of `seat` plays in the rematch.
    pub fn rematch_seat(&self, seat: SeatSet) -> SeatSet {
        if self.settings.mode == Mode::Local {
            seat
        } else {
            SeatSet {
                white: seat.black,
                black: seat.white,
            }
        }
    }

    /// The rematch game `id` at `now`, asked for by the holder of `seat`
    /// whose seat in the new game has the hash `seat_hash`: this game's
    /// settings with the creator's colour swapped (at one screen the same),
    /// the requester seated, the names kept with their players. The
    /// opponent's seat is issued when he asks ([`GameCore::seat_rematch`]).
    pub fn new_rematch(
        &self,
        id: String,
        seat: SeatSet,
        seat_hash: String,
        now: u64,
    ) -> Result<NewGame, String> {
        let mut settings = self.settings.clone();
        // A rematch is casual: the accounts behind the seats are not
        // carried over (issue 15's rated play is by invitation only).
        settings.rated = false;
        settings.creator_account = None;
        settings.event = None;
        if settings.mode != Mode::Local {
            settings.creator = !settings.creator;
        }
        let old_creator = self.settings.creator;
        let is_creator = seat.holds(old_creator);
        // A seat nobody holds stands for the absent player until he asks.
        let placeholder = || crate::seat::hash_token(&crate::seat::new_token());
        let creator_hash = if is_creator {
            seat_hash.clone()
        } else {
            placeholder()
        };
        let name = self.players.get(old_creator).name.clone();
        let mut core = GameCore::create(id, settings, name, creator_hash, now)?;
        let mut writes = core.creation_writes();
        if self.settings.mode == Mode::Invite {
            let hash = if is_creator { placeholder() } else { seat_hash };
            let name = self.players.get(!old_creator).name.clone();
            let joined = core
                .join(hash, name, None, now)
                .map_err(|(_, m)| m.to_owned())?;
            writes.extend(joined.into_parts().0);
        }
        Ok(NewGame { core, writes })
    }

    /// In a rematch game: seats the player who asked through the old game
    /// on `seat`, with the token hash `token_hash` (once; asking again
    /// changes nothing). The write to make, if any.
    pub fn seat_rematch(&mut self, token_hash: String, seat: SeatSet) -> Option<WriteOp> {
        if self.seats.contains_key(&token_hash) {
            return None;
        }
        self.seats.insert(token_hash.clone(), seat);
        Some(WriteOp::InsertSeat(crate::store::SeatRow {
            game_id: self.id.clone(),
            token_hash,
            colors: seat.stored().to_owned(),
        }))
    }

    /// Records in this game that its rematch is game `id`.
    pub fn record_rematch(&mut self, id: String, now: u64) -> Effects {
        self.record(now, None, vec![Event::Rematch { game: id }], Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::settings::CreateRequest;
    use crate::protocol::PlayerKind;

    fn game(json: &str, creator: Color) -> GameCore {
        let req: CreateRequest = serde_json::from_str(json).unwrap();
        let (settings, name) = req.validate(|| creator, || 0).unwrap();
        GameCore::create("abcdefgh".into(), settings, name, "creator".into(), 1_000).unwrap()
    }

    /// §3.7: an invitation game's rematch needs both offers; the new game
    /// has the colours swapped and both seats, and is running.
    #[test]
    fn an_invitation_rematch_swaps_colours_and_seats_both() {
        let mut core = game(
            r#"{"mode":"invite","color":"white","time_control":"300+3","name":"Anna"}"#,
            Color::White,
        );
        let refused = core.ask_rematch(SeatSet::one(Color::White), 2_000);
        assert_eq!(refused.err().map(|r| r.code), Some("game_not_finished"));
        core.join("guest".into(), Some("Boris".into()), None, 2_000)
            .unwrap();
        core.abort_by(Color::White, false, 3_000).unwrap();
        let first = core.ask_rematch(SeatSet::one(Color::White), 4_000).unwrap();
        assert!(matches!(first, Err(Some(_))), "the offer is recorded");
        let again = core.ask_rematch(SeatSet::one(Color::White), 4_100).unwrap();
        assert!(matches!(again, Err(None)), "offered once");
        let accept = core.ask_rematch(SeatSet::one(Color::Black), 5_000).unwrap();
        assert!(accept.is_ok(), "the opponent's offer accepts");
        let seat = core.rematch_seat(SeatSet::one(Color::Black));
        assert_eq!(seat, SeatSet::one(Color::White));
        let mut new = core
            .new_rematch(
                "ZZZZ0000".into(),
                SeatSet::one(Color::Black),
                "guest2".into(),
                5_000,
            )
            .unwrap();
        assert_eq!(new.core.settings.creator, Color::Black);
        assert_eq!(new.core.status, Status::Active);
        assert_eq!(
            new.core.seats.get("guest2"),
            Some(&SeatSet::one(Color::White))
        );
        assert_eq!(new.core.seats.get("creator"), None);
        // The creator asks later: seated as Black, once.
        let black = core.rematch_seat(SeatSet::one(Color::White));
        assert!(new.core.seat_rematch("creator2".into(), black).is_some());
        assert!(new.core.seat_rematch("creator2".into(), black).is_none());
        assert_eq!(
            new.core.seats.get("creator2"),
            Some(&SeatSet::one(Color::Black))
        );
        assert_eq!(new.core.players.white.name.as_deref(), Some("Boris"));
        assert_eq!(new.core.players.black.name.as_deref(), Some("Anna"));
        assert_eq!(new.core.settings.time_control, core.settings.time_control);
        core.record_rematch("ZZZZ0000".into(), 5_000);
        assert_eq!(core.rematch_game(), Some("ZZZZ0000"));
    }

    /// Against the engine the rematch is created at once, the engine on
    /// the other colour at the same level.
    #[test]
    fn an_engine_rematch_gives_the_engine_the_other_colour() {
        let mut core = game(
            r#"{"mode":"engine","engine":{"level":2},"color":"black"}"#,
            Color::Black,
        );
        core.abort_by(Color::Black, false, 2_000).unwrap();
        assert!(core
            .ask_rematch(SeatSet::one(Color::Black), 3_000)
            .unwrap()
            .is_ok());
        let new = core
            .new_rematch(
                "YYYY0000".into(),
                SeatSet::one(Color::Black),
                "me2".into(),
                3_000,
            )
            .unwrap();
        assert_eq!(new.core.settings.creator, Color::White);
        assert_eq!(new.core.players.black.kind, PlayerKind::Engine);
        assert_eq!(new.core.players.black.engine_level, Some(2));
        assert_eq!(new.core.seats.get("me2"), Some(&SeatSet::one(Color::White)));
    }

    /// An invitation nobody took has no rematch.
    #[test]
    fn no_rematch_without_an_opponent() {
        let mut core = game(r#"{"mode":"invite"}"#, Color::White);
        core.abort_by(Color::White, false, 2_000).unwrap();
        let r = core.ask_rematch(SeatSet::one(Color::White), 3_000);
        assert_eq!(r.err().map(|r| r.code), Some("no_opponent"));
    }
}
