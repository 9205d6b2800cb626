//! The match runner on `arbiter-laws`: its chessclock ([`LawsClock`]) and its
//! exact dead-position and flag-fall decisions ([`LawsAdjudicator`]), for the
//! edition chosen (2014 by default).

use super::adjudication::{Adjudicator, GameResult, Termination};
use super::clock::{FlagFall, MatchClock};
use arbiter_chess::{Color, Position};
use arbiter_laws::dead::DeadPositionDetector;
use arbiter_laws::repetition::History;
use arbiter_laws::{ChaSolver, Clock, Delay, Edition, Verdict};
use arbiter_pgn::TimeControl;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The Laws' chessclock (Art. 6) driven by the runner's measured move times:
/// the game's time is the sum of the times the engines took.
pub struct LawsClock {
    clock: Clock,
    /// Milliseconds since the start of the game.
    t: u64,
    increment_ms: [u64; 2],
    delay_ms: u64,
}

impl LawsClock {
    /// A clock for `tc` with an optional delay, White to move first.
    pub fn new(
        tc: &TimeControl,
        delay: Option<Delay>,
        first: Color,
    ) -> Result<LawsClock, arbiter_laws::clock::ClockError> {
        let clock = Clock::new(tc, delay, first, 0)?;
        let inc = tc.periods().first().map_or(0, |p| p.increment_ms);
        Ok(LawsClock {
            clock,
            t: 0,
            increment_ms: [inc, inc],
            delay_ms: delay.map_or(0, |d| d.ms),
        })
    }

    fn moves_to_go(&self, color: Color) -> Option<u32> {
        let periods = self.clock.periods();
        let p = periods.get(self.clock.period(color)).or(periods.last())?;
        let n = p.moves?;
        // Moves made in the current period: total moves minus the counts of
        // the periods completed before it (the last period may repeat).
        let mut before = 0;
        let mut made = self.clock.moves(color);
        for (i, q) in periods.iter().enumerate() {
            if i >= self.clock.period(color) {
                break;
            }
            before += q.moves.unwrap_or(0);
        }
        made = made.saturating_sub(before);
        Some(n - made % n.max(1))
    }
}

impl MatchClock for LawsClock {
    fn start_move(&mut self, _color: Color) {
        // The Laws' clock adds the increment when the previous move is
        // completed (and before the first move), so nothing to do here.
    }

    fn end_move(&mut self, color: Color, elapsed: Duration) -> Result<(), FlagFall> {
        self.t += elapsed.as_millis() as u64;
        if self.clock.flag_fell_at(color, self.t).is_some() {
            return Err(FlagFall { color });
        }
        self.clock.press(color, self.t);
        let p = self.clock.periods();
        if let Some(q) = p.get(self.clock.period(color)) {
            self.increment_ms[color.index()] = q.increment_ms;
        }
        Ok(())
    }

    fn allowance(&self, color: Color) -> Duration {
        match self.clock.flag_fell_at(color, u64::MAX) {
            Some(at) => Duration::from_millis(at.saturating_sub(self.t)),
            None => Duration::from_millis(self.clock.remaining_at(color, self.t) + self.delay_ms),
        }
    }

    fn go_params(&self, to_move: Color) -> String {
        let w = self.clock.remaining_at(Color::White, self.t);
        let b = self.clock.remaining_at(Color::Black, self.t);
        let mut s = format!(
            "wtime {w} btime {b} winc {} binc {}",
            self.increment_ms[0] + self.delay_ms,
            self.increment_ms[1] + self.delay_ms
        );
        if let Some(m) = self.moves_to_go(to_move) {
            s.push_str(&format!(" movestogo {m}"));
        }
        s
    }

    fn remaining(&self, color: Color) -> Duration {
        Duration::from_millis(self.clock.remaining_at(color, self.t))
    }
}

/// Game ends decided by `arbiter-laws`: dead positions exactly (Art. 5.2 b,
/// with its unwinnability solver), the edition's fivefold rule (9.6 a /
/// 9.6.1) and the 75-move rule, and flag falls by Art. 6.9 (a draw only if
/// the opponent cannot checkmate by any series of legal moves).
pub struct LawsAdjudicator {
    edition: Edition,
    detector: Mutex<DeadPositionDetector>,
}

impl LawsAdjudicator {
    /// For `edition`.
    pub fn new(edition: Edition) -> LawsAdjudicator {
        LawsAdjudicator {
            edition,
            detector: Mutex::new(DeadPositionDetector::new(Arc::new(ChaSolver))),
        }
    }

    fn history(positions: &[Position]) -> Option<History> {
        let first = positions.first()?;
        let mut h = History::new(first);
        for w in positions.windows(2) {
            let irreversible = w[1].halfmoves() == 0;
            h.push(&w[1], irreversible);
        }
        Some(h)
    }
}

impl Adjudicator for LawsAdjudicator {
    fn automatic_end(&self, history: &[Position]) -> Option<(GameResult, Termination)> {
        let pos = history.last()?;
        if !pos.has_legal_moves() {
            return Some(if pos.is_check() {
                (GameResult::win_for(!pos.turn()), Termination::Checkmate)
            } else {
                (GameResult::Draw, Termination::Stalemate)
            });
        }
        let dead = match self.detector.lock() {
            Ok(mut d) => d.is_dead(pos, None).0,
            Err(_) => false,
        };
        if dead {
            return Some((GameResult::Draw, Termination::DeadPosition));
        }
        let h = LawsAdjudicator::history(history)?;
        if h.is_fivefold(self.edition.rules().fivefold) {
            return Some((GameResult::Draw, Termination::FivefoldRepetition));
        }
        if pos.halfmoves() >= 150 {
            return Some((GameResult::Draw, Termination::SeventyFiveMoves));
        }
        None
    }

    fn claimable_draw(&self, history: &[Position]) -> Option<Termination> {
        let pos = history.last()?;
        let h = LawsAdjudicator::history(history)?;
        if h.count_current() >= 3 {
            return Some(Termination::ThreefoldRepetition);
        }
        if pos.halfmoves() >= 100 {
            return Some(Termination::FiftyMoves);
        }
        None
    }

    fn flag_fall(&self, pos: &Position, flagged: Color) -> (GameResult, Termination) {
        let verdict = match self.detector.lock() {
            Ok(mut d) => d.can_checkmate(pos, !flagged),
            Err(_) => Verdict::Unknown,
        };
        if verdict == Verdict::Unwinnable {
            (GameResult::Draw, Termination::TimeoutVsInsufficientMaterial)
        } else {
            (GameResult::win_for(!flagged), Termination::TimeForfeit)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen_auto(fen).unwrap()
    }

    #[test]
    fn flag_fall_against_a_locked_pawn_wall_is_a_draw() {
        // Only kings and blocked pawns: neither side can ever mate (5.2 b);
        // material alone would have called the flag fall a loss.
        let a = LawsAdjudicator::new(Edition::Fide2014);
        let p = pos("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1");
        assert_eq!(a.flag_fall(&p, Color::White).0, GameResult::Draw);
        assert_eq!(a.automatic_end(&[p]).unwrap().1, Termination::DeadPosition);
        // A knight against pawns can mate with help: the flag decides.
        let n = pos("4k3/4p3/8/8/8/8/8/1N2K3 w - - 0 1");
        assert_eq!(a.flag_fall(&n, Color::Black).0, GameResult::WhiteWins);
    }

    #[test]
    fn fivefold_by_edition() {
        let mut p = Position::standard();
        let mut h = vec![p];
        for _ in 0..4 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                p.play(p.parse_uci(m).unwrap()).unwrap();
                h.push(p);
            }
        }
        // The initial position now stands for the fifth time.
        let a2018 = LawsAdjudicator::new(Edition::Fide2018);
        assert_eq!(
            a2018.automatic_end(&h).unwrap().1,
            Termination::FivefoldRepetition
        );
        let a = LawsAdjudicator::new(Edition::Fide2014);
        assert_eq!(
            a.claimable_draw(&h[..9]),
            Some(Termination::ThreefoldRepetition)
        );
    }

    #[test]
    fn laws_clock_adds_the_increment_before_the_first_move() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        let mut c = LawsClock::new(&tc, None, Color::White).unwrap();
        c.start_move(Color::White);
        assert!(c
            .go_params(Color::White)
            .starts_with("wtime 10100 btime 10100 winc 100 binc 100"));
        c.end_move(Color::White, Duration::from_millis(600))
            .unwrap();
        assert_eq!(c.remaining(Color::White), Duration::from_millis(9_600));
        assert!(c
            .end_move(Color::Black, Duration::from_millis(10_101))
            .is_err());
    }
}
