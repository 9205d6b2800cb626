//! The match clock: the runner keeps both players' time itself (FIDE 2014,
//! Art. 6) for every control the PGN `TimeControl` tag can express, plus a
//! delay.
//!
//! - Periods: a period's time is added when the previous period's moves are
//!   completed (Art. 6.3 a; the last period with a move count repeats);
//! - increment (Fischer, "cumulative mode"): added before every move, the
//!   first included, as FIDE clocks do;
//! - delay ("delay mode", Art. 6.3 b): the main time does not run until the
//!   delay has passed, and never grows.
//!
//! This is the seam where `arbiter-laws`' clock plugs in: the runner uses
//! only [`MatchClock`].

use arbiter_chess::Color;
use arbiter_pgn::{Period, TimeControl};
use std::time::Duration;

/// What the game loop needs from a clock.
pub trait MatchClock: Send {
    /// Called when `color` is about to move (adds increments).
    fn start_move(&mut self, color: Color);
    /// Called when `color` has moved after `elapsed`; `Err` on flag fall.
    fn end_move(&mut self, color: Color, elapsed: Duration) -> Result<(), FlagFall>;
    /// The time `color` may use for this move before the flag falls.
    fn allowance(&self, color: Color) -> Duration;
    /// The UCI `go` parameters for the side to move.
    fn go_params(&self, to_move: Color) -> String;
    /// The remaining main time of `color` (for `[%clk]`).
    fn remaining(&self, color: Color) -> Duration;
}

/// A flag fell (Art. 6.9).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FlagFall {
    /// Whose flag.
    pub color: Color,
}

/// The FIDE clock for a `TimeControl` and a delay.
#[derive(Clone, Debug)]
pub struct FideClock {
    periods: Vec<Period>,
    delay: Duration,
    remaining: [Duration; 2],
    moves: [u32; 2],
    period: [usize; 2],
    moves_in_period: [u32; 2],
}

/// A time control the match clock cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("time control {0:?} cannot be played: give periods such as 10+0.1 or 40/5400+30:1800+30")]
pub struct UnplayableControl(pub String);

impl FideClock {
    /// A clock for `tc` (which must have periods) with `delay` per move.
    pub fn new(tc: &TimeControl, delay: Duration) -> Result<FideClock, UnplayableControl> {
        let periods = tc.periods().to_vec();
        if periods.is_empty() {
            return Err(UnplayableControl(tc_text(tc)));
        }
        let t = Duration::from_millis(periods[0].time_ms);
        Ok(FideClock {
            periods,
            delay,
            remaining: [t, t],
            moves: [0, 0],
            period: [0, 0],
            moves_in_period: [0, 0],
        })
    }

    fn current(&self, c: usize) -> Period {
        self.periods[self.period[c].min(self.periods.len() - 1)]
    }

    /// Moves left in the current period of `color`, if it has a move count.
    pub fn moves_to_go(&self, color: Color) -> Option<u32> {
        let c = color.index();
        self.current(c)
            .moves
            .map(|m| m.saturating_sub(self.moves_in_period[c]).max(1))
    }
}

fn tc_text(tc: &TimeControl) -> String {
    tc.to_string()
}

impl MatchClock for FideClock {
    fn start_move(&mut self, color: Color) {
        let c = color.index();
        self.remaining[c] += Duration::from_millis(self.current(c).increment_ms);
    }

    fn end_move(&mut self, color: Color, elapsed: Duration) -> Result<(), FlagFall> {
        let c = color.index();
        let used = elapsed.saturating_sub(self.delay);
        if used > self.remaining[c] {
            self.remaining[c] = Duration::ZERO;
            return Err(FlagFall { color });
        }
        self.remaining[c] -= used;
        self.moves[c] += 1;
        self.moves_in_period[c] += 1;
        if let Some(n) = self.current(c).moves {
            if self.moves_in_period[c] >= n {
                // The period is complete: the next one's time is added.
                self.moves_in_period[c] = 0;
                if self.period[c] + 1 < self.periods.len() {
                    self.period[c] += 1;
                }
                self.remaining[c] += Duration::from_millis(self.current(c).time_ms);
            }
        }
        Ok(())
    }

    fn allowance(&self, color: Color) -> Duration {
        self.remaining[color.index()] + self.delay
    }

    fn go_params(&self, to_move: Color) -> String {
        let w = self.remaining[0].as_millis();
        let b = self.remaining[1].as_millis();
        // The increment was already added for the side to move; tell both
        // sides' increments as UCI expects. A delay is worth its length per
        // move to the player, so it is passed as increment.
        let inc = |c: usize| Duration::from_millis(self.current(c).increment_ms) + self.delay;
        let mut s = format!(
            "wtime {w} btime {b} winc {} binc {}",
            inc(0).as_millis(),
            inc(1).as_millis()
        );
        if let Some(m) = self.moves_to_go(to_move) {
            s.push_str(&format!(" movestogo {m}"));
        }
        s
    }

    fn remaining(&self, color: Color) -> Duration {
        self.remaining[color.index()]
    }
}

/// `h:mm:ss.s` for `[%clk]` (tenths, rounded down).
pub fn clk(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    let (h, rest) = (tenths / 36_000, tenths % 36_000);
    let (m, rest) = (rest / 600, rest % 600);
    format!("{h}:{m:02}:{:02}.{}", rest / 10, rest % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn increment_is_added_before_the_move() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        let mut c = FideClock::new(&tc, Duration::ZERO).unwrap();
        c.start_move(Color::White);
        assert_eq!(c.remaining(Color::White), ms(10_100));
        assert!(c
            .go_params(Color::White)
            .starts_with("wtime 10100 btime 10000 winc 100 binc 100"));
        c.end_move(Color::White, ms(600)).unwrap();
        assert_eq!(c.remaining(Color::White), ms(9_500));
        assert_eq!(
            c.end_move(Color::Black, ms(10_001)),
            Err(FlagFall {
                color: Color::Black
            })
        );
    }

    #[test]
    fn periods_add_time_after_their_moves() {
        // Two moves in 1 s, then 2 s for the rest (Art. 6.3 a).
        let tc = TimeControl::parse("2/1:2").unwrap();
        let mut c = FideClock::new(&tc, Duration::ZERO).unwrap();
        assert_eq!(c.moves_to_go(Color::White), Some(2));
        c.start_move(Color::White);
        c.end_move(Color::White, ms(300)).unwrap();
        assert!(c.go_params(Color::White).ends_with("movestogo 1"));
        c.start_move(Color::White);
        c.end_move(Color::White, ms(300)).unwrap();
        assert_eq!(c.remaining(Color::White), ms(2_400));
        assert_eq!(c.moves_to_go(Color::White), None);
    }

    #[test]
    fn repeating_last_period() {
        let tc = TimeControl::parse("1/1").unwrap();
        let mut c = FideClock::new(&tc, Duration::ZERO).unwrap();
        for _ in 0..3 {
            c.start_move(Color::Black);
            c.end_move(Color::Black, ms(500)).unwrap();
        }
        assert_eq!(c.remaining(Color::Black), ms(2_500));
    }

    #[test]
    fn delay_does_not_grow_the_clock() {
        let tc = TimeControl::parse("5").unwrap();
        let mut c = FideClock::new(&tc, ms(2_000)).unwrap();
        c.start_move(Color::White);
        c.end_move(Color::White, ms(1_500)).unwrap();
        assert_eq!(c.remaining(Color::White), ms(5_000));
        c.end_move(Color::White, ms(2_500)).unwrap();
        assert_eq!(c.remaining(Color::White), ms(4_500));
        assert_eq!(c.allowance(Color::White), ms(6_500));
        assert!(c.go_params(Color::White).contains("winc 2000"));
    }

    #[test]
    fn clk_format() {
        assert_eq!(clk(ms(9_870)), "0:00:09.8");
        assert_eq!(clk(ms(3_723_400)), "1:02:03.4");
    }

    #[test]
    fn untimed_cannot_be_played() {
        assert!(FideClock::new(&TimeControl::Untimed, Duration::ZERO).is_err());
    }
}
