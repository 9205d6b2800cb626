//! An event's game decided by its arbiter (issue 15): a player absent past
//! the event's default time loses (2014 6.7 a, 2018/2023 6.7.1; both
//! absent, both lose), the organiser forfeits a player, and the result an
//! event records for its board.
//!
//! Online, a player is "at the board" once connected to the game or once
//! he has moved: the server sees nothing else of him.

use super::core::{Effects, GameCore};
use super::record::Wire;
use super::table::{Refusal, Table};
use crate::protocol::{Color, Event, Status};
use arbiter_laws::{Action, Ground};

impl GameCore {
    /// The default time has passed at `now`: a player who has neither
    /// arrived (`arrived`, by colour index: connected to the game at some
    /// time since the pairing, Art. 6.7) nor moved loses by forfeit (the
    /// opponent wins); both such, the game is aborted and both lose (`--`).
    /// `None` if nobody is absent or the game is over.
    pub fn default_time_passed(&mut self, arrived: [bool; 2], now: u64) -> Option<Effects> {
        if self.status == Status::Finished || self.table.is_over() {
            return None;
        }
        let absent: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|&c| !arrived[c.index()] && !self.table.records().iter().any(|r| r.color == c))
            .collect();
        match absent.as_slice() {
            [] => None,
            [one] => self
                .forfeit(
                    *one,
                    Ground::DefaultTime,
                    "absent from the board after the default time",
                    now,
                )
                .ok(),
            _ => {
                self.status = Status::Finished;
                Some(self.record(now, None, vec![Event::Aborted { by: None }], Vec::new()))
            }
        }
    }

    /// The arbiter declares the game lost by `loser` at `now` (Art. 10.1:
    /// the opponent wins by forfeit), on `ground` (the Article the record
    /// cites: the default time of 6.7, or the event's rule), for `reason`.
    pub fn forfeit(
        &mut self,
        loser: Color,
        ground: Ground,
        reason: &str,
        now: u64,
    ) -> Result<Effects, Refusal> {
        if self.status == Status::Finished || self.table.is_over() {
            return Err(Refusal::new("game_not_active", "the game is over"));
        }
        let t = self.game_time(now).unwrap_or(0);
        let ev = Table::event(
            t,
            None,
            Action::Forfeit {
                player: loser,
                ground,
                reason: reason.to_owned(),
            },
        );
        self.apply_laws(now, ev, Wire::Resign)
    }

    /// The result code of this game's board in its event, if it belongs to
    /// one and `events` end it: the PGN result of a game played, `+-` /
    /// `-+` for a forfeit or an abort by one player (he loses), `--` for a
    /// game nobody started.
    pub(super) fn event_result(&self, events: &[Event]) -> Option<String> {
        self.settings.event.as_ref()?;
        events.iter().find_map(|e| match e {
            Event::End {
                result,
                termination,
                ..
            } => Some(
                match (termination.kind, result.as_str()) {
                    (arbiter_laws::Termination::Forfeit, "1-0") => "+-",
                    (arbiter_laws::Termination::Forfeit, "0-1") => "-+",
                    (_, r) => r,
                }
                .to_owned(),
            ),
            Event::Aborted {
                by: Some(Color::White),
            } => Some("-+".to_owned()),
            Event::Aborted {
                by: Some(Color::Black),
            } => Some("+-".to_owned()),
            Event::Aborted { by: None } => Some("--".to_owned()),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::settings::CreateRequest;
    use crate::store::tournament::Op;
    use crate::store::WriteOp;

    fn event_game() -> GameCore {
        let req: CreateRequest =
            serde_json::from_str(r#"{"mode":"invite","time_control":"60+0","color":"white"}"#)
                .unwrap();
        let (mut settings, _) = req.validate(|| Color::White, || 0).unwrap();
        settings.event = Some("evt00001".into());
        let mut core =
            GameCore::create("gameid01".into(), settings, None, "w".into(), 1_000).unwrap();
        core.join("b".into(), None, None, 1_000).unwrap();
        core
    }

    fn board_result(e: Effects) -> Option<String> {
        e.into_parts().0.into_iter().find_map(|w| match w {
            WriteOp::Tournament(Op::GameEnded { result, .. }) => Some(result),
            _ => None,
        })
    }

    /// Art. 6.7: the absent player loses (the connected one wins), both
    /// absent both lose; an abort before one's first move forfeits; the
    /// board's result goes with the game's end.
    #[test]
    fn absent_players_and_aborts_forfeit_the_board() {
        let mut g = event_game();
        assert!(g.default_time_passed([true, true], 5_000).is_none());
        let e = g.default_time_passed([true, false], 5_000).unwrap();
        assert_eq!(board_result(e).as_deref(), Some("+-"));
        assert_eq!(g.table.result(), "1-0");
        // The record cites the default time's Article of the game's edition
        // (2014 by default: 6.7 a).
        assert_eq!(g.table.termination().unwrap().article, "6.7 a");
        let mut g = event_game();
        let e = g.default_time_passed([false, false], 5_000).unwrap();
        assert_eq!(board_result(e).as_deref(), Some("--"));
        let mut g = event_game();
        let e = g.abort_by(Color::Black, false, 2_000).unwrap();
        assert_eq!(board_result(e).as_deref(), Some("+-"));
        let mut g = event_game();
        let e = g
            .forfeit(Color::White, Ground::MatchRule, "test", 2_000)
            .unwrap();
        assert_eq!(board_result(e).as_deref(), Some("-+"));
        assert_eq!(g.table.termination().unwrap().article, "match rule");
        assert!(g
            .forfeit(Color::Black, Ground::MatchRule, "again", 3_000)
            .is_err());
    }
}
