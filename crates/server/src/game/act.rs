//! What each party may do to a game: a player's message ([`GameCore::act`]:
//! move, offer, answer, claim, resign, touch), the server's flag fall, an
//! invited player's join, the engine's move and its answer to an offer.
//! Each accepted action returns its [`Effects`]; a refused one, why.

use super::core::{Effects, GameCore, SeatSet};
use super::record::Wire;
use super::table::{Refusal, Table};
use crate::protocol::{ClientMsg, Color, Event, Mode, Status};
use crate::store::{SeatRow, WriteOp};
use arbiter_laws::Action;

/// The side acting: the side named, for a connection holding both seats
/// (`default` if none is named); else the seat's only side.
pub fn actor(seat: SeatSet, named: Option<Color>, default: Color) -> Option<Color> {
    match (seat.white, seat.black) {
        (true, true) => Some(named.unwrap_or(default)),
        (true, false) => Some(Color::White),
        (false, true) => Some(Color::Black),
        (false, false) => None,
    }
}

impl GameCore {
    /// The server as arbiter ends the game on a fallen flag at `now` (6.9),
    /// if the running player's flag has fallen.
    pub fn flag(&mut self, now: u64) -> Option<Effects> {
        if self.status != Status::Active || self.table.is_over() {
            return None;
        }
        let t = self.game_time(now)?;
        let due = self.table.next_flag_time()?;
        if t < due {
            return None;
        }
        let ev = Table::event(t, None, Table::flag_action());
        self.apply_laws(now, ev, Wire::Flag).ok()
    }

    /// Server time at which the task should check for a flag fall: the
    /// running player's flag time plus his lag grace.
    pub fn flag_deadline(&self) -> Option<u64> {
        if self.status != Status::Active || self.table.is_over() {
            return None;
        }
        let origin = self.clock_origin?;
        let due = self.table.next_flag_time()?;
        let grace = self.quota[self.table.turn().index()].flag_grace();
        Some(origin + due + grace)
    }

    /// Before a player's message: has the running player's flag fallen
    /// (for his own move, judged at the lag-credited time)? Then the flag
    /// ends the game first.
    pub fn flag_before(
        &mut self,
        seat: Option<SeatSet>,
        msg: &ClientMsg,
        now: u64,
    ) -> Option<Effects> {
        if self.status != Status::Active || self.table.is_over() {
            return None;
        }
        let due = self.table.next_flag_time()?;
        let t_now = self.game_time(now)?;
        let turn = self.table.turn();
        let own_move = matches!(msg, ClientMsg::Move { .. } | ClientMsg::Claim { .. })
            && seat.is_some_and(|s| s.holds(turn));
        let t = if own_move {
            self.credited_time(turn, t_now, false)
        } else {
            t_now
        };
        if t < due {
            return None;
        }
        let ev = Table::event(t_now, None, Table::flag_action());
        self.apply_laws(now, ev, Wire::Flag).ok()
    }

    /// The invited player takes the free seat at `now` (§3.5): the game
    /// starts and White's clock runs from now. From an `account`, the seat
    /// is the account's too (in the same writes); a rated game is joined
    /// only from an account other than its creator's (issue 15). A finished
    /// game (aborted, or over from its set-up position: a dead position,
    /// Art. 5.2 b) is `game_finished`, not a seat to take.
    pub fn join(
        &mut self,
        token_hash: String,
        name: Option<String>,
        account: Option<String>,
        now: u64,
    ) -> Result<Effects, (&'static str, &'static str)> {
        if self.settings.mode != Mode::Invite {
            return Err(("not_invitation", "this game is not an invitation"));
        }
        if self.status == Status::Finished || self.table.is_over() {
            return Err(("game_finished", "the game is over"));
        }
        let free = !self.settings.creator;
        if self.status != Status::Waiting || self.players.get(free).joined {
            return Err(("seat_taken", "the seat is taken"));
        }
        if self.settings.rated && account.is_none() {
            return Err(("login_required", "a rated game is played from an account"));
        }
        if self.settings.rated && account == self.settings.creator_account {
            return Err(("same_account", "a rated game needs two accounts"));
        }
        {
            let p = self.players.get_mut(free);
            p.joined = true;
            p.name = name;
        }
        self.status = Status::Active;
        self.clock_origin = Some(now);
        let set = SeatSet::one(free);
        self.seats.insert(token_hash.clone(), set);
        let mut writes = Vec::new();
        if let Some(user) = &account {
            writes.push(self.user_game(user, &token_hash, set));
        }
        writes.insert(
            0,
            WriteOp::InsertSeat(SeatRow {
                game_id: self.id.clone(),
                token_hash,
                colors: set.stored().to_owned(),
            }),
        );
        let mut players = self.players.clone();
        for c in Color::ALL {
            players.get_mut(c).online = false;
        }
        Ok(self.record(
            now,
            None,
            vec![Event::Join {
                color: free,
                players,
            }],
            writes,
        ))
    }

    /// An engine's move (already chosen from the Laws' legal moves), made at `now`.
    pub fn engine_move(&mut self, side: Color, uci: &str, now: u64) -> Result<Effects, Refusal> {
        if self.status != Status::Active || self.table.is_over() || self.table.turn() != side {
            return Err(Refusal::new("game_not_active", "not the engine's move"));
        }
        let m = self.table.resolve(uci)?;
        let t = self.game_time(now).unwrap_or(0);
        let ev = arbiter_laws::Event::play(t, side, m);
        self.apply_laws(now, ev, Wire::Move)
    }

    /// The engine answers the draw offer made to it (Art. 9.1): accepts it
    /// (`accept`, if the Laws allow agreement now; else it declines) or
    /// declines it. `None` if no offer to it is pending any more.
    pub fn engine_answer(&mut self, side: Color, accept: bool, now: u64) -> Option<Effects> {
        if self.status != Status::Active || self.table.laws().draw_offer() != Some(!side) {
            return None;
        }
        let t = self.game_time(now).unwrap_or(0);
        if accept {
            let ev = Table::event(t, Some(side), Action::AcceptDraw);
            if let Ok(out) = self.apply_laws(now, ev, Wire::Accept) {
                return Some(out);
            }
        }
        let ev = Table::event(t, Some(side), Action::DeclineDraw);
        self.apply_laws(now, ev, Wire::Decline { by: side }).ok()
    }

    /// Handles a player's message from a connection holding `seat` at server
    /// time `now`. `Ok(None)`: nothing to record.
    pub fn act(
        &mut self,
        seat: Option<SeatSet>,
        msg: &ClientMsg,
        now: u64,
    ) -> Result<Option<Effects>, Refusal> {
        if matches!(msg, ClientMsg::Hello { .. } | ClientMsg::Ping { .. }) {
            return Ok(None);
        }
        let seat = seat.ok_or_else(|| Refusal::new("not_a_player", "spectators cannot act"))?;
        if let ClientMsg::Abort { color } = msg {
            // Also a waiting invitation: its creator withdraws it.
            let by = actor(seat, *color, self.table.turn())
                .filter(|&s| seat.holds(s))
                .ok_or_else(|| Refusal::new("not_a_player", "not your seat"))?;
            return self.abort_by(by, seat == SeatSet::BOTH, now).map(Some);
        }
        if self.status != Status::Active || self.table.is_over() {
            return Err(Refusal::new(
                "game_not_active",
                "the game is not in progress",
            ));
        }
        let turn = self.table.turn();
        let t_now = self.game_time(now).unwrap_or(0);
        let offer = self.table.laws().draw_offer();
        let (named, default) = match msg {
            ClientMsg::Move { .. } => (None, turn),
            ClientMsg::AcceptDraw { color } | ClientMsg::DeclineDraw { color } => {
                (*color, offer.map_or(turn, |c| !c))
            }
            ClientMsg::OfferDraw { color }
            | ClientMsg::Claim { color, .. }
            | ClientMsg::Resign { color }
            | ClientMsg::Touch { color, .. } => (*color, turn),
            ClientMsg::Hello { .. } | ClientMsg::Ping { .. } | ClientMsg::Abort { .. } => {
                return Ok(None)
            }
        };
        let by = actor(seat, named, default)
            .filter(|&s| seat.holds(s))
            .ok_or_else(|| Refusal::new("not_a_player", "not your seat"))?;
        let (action, wire, t) = match msg {
            ClientMsg::Move { uci, text } => {
                if by != turn {
                    return Err(Refusal::new("not_your_turn", "not your turn"));
                }
                let m = match (uci, text) {
                    (Some(uci), _) => self.table.resolve(uci)?,
                    (None, Some(text)) => self.table.read_typed(text)?,
                    (None, None) => return Err(Refusal::new("bad_message", "a move without text")),
                };
                (
                    Action::Move { mv: m },
                    Wire::Move,
                    self.credited_time(by, t_now, true),
                )
            }
            ClientMsg::OfferDraw { .. } => {
                if offer == Some(by) {
                    return Err(Refusal::new(
                        "bad_message",
                        "your draw offer is already pending",
                    ));
                }
                (Action::OfferDraw, Wire::Offer { by }, t_now)
            }
            ClientMsg::AcceptDraw { .. } => (Action::AcceptDraw, Wire::Accept, t_now),
            ClientMsg::DeclineDraw { .. } => (Action::DeclineDraw, Wire::Decline { by }, t_now),
            ClientMsg::Resign { .. } => (Action::Resign, Wire::Resign, t_now),
            ClientMsg::Touch { square, .. } => {
                if !self.settings.touch_move {
                    return Err(Refusal::new(
                        "touch_move_off",
                        "touch-move is off in this game",
                    ));
                }
                if by != turn {
                    return Err(Refusal::new("not_your_turn", "not your turn"));
                }
                if let Some(first) = self.table.touched() {
                    // Touching again changes nothing (protocol §4.2); the
                    // frame is answered all the same, as every frame is.
                    return Err(Refusal::new(
                        "already_touched",
                        format!(
                            "{first} is touched already: touching again changes nothing (Art. 4.3)"
                        ),
                    ));
                }
                let sq = square.parse().map_err(|_| {
                    Refusal::new("bad_message", format!("{square:?} is not a square"))
                })?;
                (
                    Action::Touch { square: sq },
                    Wire::Touch {
                        by,
                        square: square.clone(),
                    },
                    t_now,
                )
            }
            ClientMsg::Claim { claim, mv, .. } => {
                if by != turn {
                    return Err(Refusal::new(
                        "claim_not_your_move",
                        "only the player having the move may claim (Art. 9.2, 9.3)",
                    ));
                }
                // The intended move as listed (UCI) or as typed (§5.1).
                let intended = match mv {
                    Some(u) => Some(match self.table.resolve(u) {
                        Err(r) if r.code == "illegal_move" => self.table.read_typed(u)?,
                        other => other?,
                    }),
                    None => None,
                };
                let pos = *self.table.laws().position();
                let uci = intended.map(|m| pos.uci(m));
                (
                    Table::claim_action(*claim, intended),
                    Wire::Claim {
                        by,
                        claim: *claim,
                        uci,
                    },
                    t_now,
                )
            }
            ClientMsg::Hello { .. } | ClientMsg::Ping { .. } | ClientMsg::Abort { .. } => {
                return Ok(None)
            }
        };
        let ev = Table::event(t, Some(by), action);
        self.apply_laws(now, ev, wire).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::settings::CreateRequest;

    fn local_game() -> GameCore {
        let req: CreateRequest =
            serde_json::from_str(r#"{"mode":"local","time_control":"300+3"}"#).unwrap();
        let (settings, name) = req.validate(|| Color::White, || 0).unwrap();
        GameCore::create("abcdefgh".into(), settings, name, "hash".into(), 1_000).unwrap()
    }

    /// Art. 1.1 and protocol §4.2: who may act, and the effects of a move.
    #[test]
    fn a_move_is_numbered_and_refusals_say_why() {
        let mut core = local_game();
        let mv = |uci: &str| ClientMsg::Move {
            uci: Some(uci.into()),
            text: None,
        };
        let spectator = core.act(None, &mv("e2e4"), 2_000).unwrap_err();
        assert_eq!(spectator.code, "not_a_player");
        let black = core
            .act(Some(SeatSet::one(Color::Black)), &mv("e7e5"), 2_000)
            .unwrap_err();
        assert_eq!(black.code, "not_your_turn");
        let effects = core
            .act(Some(SeatSet::BOTH), &mv("e2e4"), 2_000)
            .unwrap()
            .expect("a move is recorded");
        assert!(matches!(effects.events(), [Event::Move { .. }]));
        let (writes, announce) = effects.into_parts();
        assert!(!writes.is_empty(), "the move is written before it is sent");
        assert_eq!(announce.numbered().next().map(|(seq, _)| seq), Some(1));
        assert_eq!(core.seq(), 1);
    }
}
