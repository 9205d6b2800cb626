//! Time management: how long to think, for every clock the Laws allow.
//!
//! UCI gives the remaining time, the increment (FIDE 2014, Art. 6.3 b: the
//! Fischer mode), the moves to the next time control (Art. 6.3 a) or a fixed
//! time per move. A delay (Bronstein or simple) has no UCI field; the match
//! runner passes it as increment, which is what it is worth to the player.
//! The engine aims at a *soft* budget, checked between iterations, and never
//! exceeds a *hard* one, checked during the search. UCI's `go movetime`
//! ("search exactly x mseconds", [`Limits::movetime_exact`]) is searched
//! whole, to the hard budget; the server's own fixed times per move are
//! budgets the search may end early.

use crate::types::Limits;
use arbiter_chess::Color;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Soft and hard budgets for one move.
///
/// ```
/// use arbiter_chess::Color;
/// use arbiter_engine::time::{budget, Budget};
/// use arbiter_engine::Limits;
/// use std::time::Duration;
///
/// let overhead = Duration::from_millis(10);
/// // `go movetime 1000`: one budget, less the overhead.
/// let fixed = Limits {
///     movetime: Some(Duration::from_secs(1)),
///     ..Limits::default()
/// };
/// let ms = Duration::from_millis(990);
/// assert_eq!(
///     budget(&fixed, Color::White, overhead),
///     Some(Budget { soft: ms, hard: ms })
/// );
///
/// // `go wtime 60000 btime 60000`: a share of the time left, never all of it.
/// let clock = Limits {
///     time: [Some(Duration::from_secs(60)); 2],
///     ..Limits::default()
/// };
/// let b = budget(&clock, Color::Black, overhead).unwrap();
/// assert!(b.soft <= b.hard && b.hard <= Duration::from_secs(30));
///
/// // `go depth 5`: no time limit.
/// let depth = Limits {
///     depth: Some(5),
///     ..Limits::default()
/// };
/// assert_eq!(budget(&depth, Color::White, overhead), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Stop after an iteration once this much time has gone.
    pub soft: Duration,
    /// Stop at once when this much time has gone.
    pub hard: Duration,
}

/// The moves a sudden-death clock keeps the communication overhead for.
pub const RESERVE_MOVES: u32 = 50;

/// The budget for the side `turn`, or `None` when nothing limits time.
///
/// With only one side's clock given (`go wtime 60000` when Black is to
/// move), the other side's clock stands in for ours.
pub fn budget(limits: &Limits, turn: Color, overhead: Duration) -> Option<Budget> {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
        return Some(Budget { soft: t, hard: t });
    }
    let (ours, theirs) = match turn {
        Color::White => (0, 1),
        Color::Black => (1, 0),
    };
    let time = limits.time[ours].or(limits.time[theirs])?;
    let inc = limits.inc[ours]
        .or(if limits.time[ours].is_none() {
            limits.inc[theirs]
        } else {
            None
        })
        .unwrap_or_default();
    let min = Duration::from_millis(1);
    let mtg = limits.movestogo.map(|m| m.clamp(1, 60));
    // The communication overhead is kept back for every move still to come
    // before the next control (sudden death: RESERVE_MOVES), not once: each
    // move costs it whatever the search does, and with no increment a clock
    // spent a share at a time would otherwise run out in a long game.
    let horizon = mtg.unwrap_or(RESERVE_MOVES);
    let left = time.saturating_sub(overhead * (horizon + 2));
    let mtg = mtg.unwrap_or(25);
    let base = left / mtg + inc * 3 / 4;
    let cap_share = if mtg == 1 { 0.8 } else { 0.5 };
    let cap = time.saturating_sub(overhead).mul_f64(cap_share);
    let soft = base.min(cap).max(min);
    let hard = (base * 4).min(cap).max(soft).max(min);
    Some(Budget { soft, hard })
}

/// The running clock of one search: start time, budget and pondering.
///
/// ```
/// use arbiter_engine::time::{Budget, Clock};
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use std::sync::Arc;
/// use std::time::Duration;
///
/// let spent = Budget {
///     soft: Duration::ZERO,
///     hard: Duration::ZERO,
/// };
/// let mut clock = Clock::new(Some(spent), None);
/// assert!(clock.is_timed());
/// assert!(clock.soft_expired(1.0) && clock.hard_expired());
///
/// // `go infinite`: never expires.
/// let mut endless = Clock::new(None, None);
/// assert!(!endless.is_timed() && !endless.hard_expired());
///
/// // `go ponder`: time does not count until `ponderhit` clears the flag.
/// let ponder = Arc::new(AtomicBool::new(true));
/// let mut pondering = Clock::new(Some(spent), Some(ponder.clone()));
/// assert!(!pondering.hard_expired());
/// ponder.store(false, Ordering::Relaxed);
/// assert!(!pondering.is_pondering());
/// assert!(pondering.hard_expired());
/// ```
pub struct Clock {
    start: Instant,
    budget: Option<Budget>,
    ponder: Option<Arc<AtomicBool>>,
    pondering: bool,
    budget_start: Option<Instant>,
}

impl Clock {
    /// Starts a clock now.
    pub fn new(budget: Option<Budget>, ponder: Option<Arc<AtomicBool>>) -> Clock {
        let pondering = ponder.as_ref().is_some_and(|p| p.load(Ordering::Relaxed));
        Clock {
            start: Instant::now(),
            budget,
            ponder,
            pondering,
            budget_start: None,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// `true` while pondering: time does not count. On the first call after a
    /// `ponderhit` the budget starts from now.
    pub fn is_pondering(&mut self) -> bool {
        if self.pondering {
            let still = self
                .ponder
                .as_ref()
                .is_some_and(|p| p.load(Ordering::Relaxed));
            if !still {
                self.pondering = false;
                self.budget_start = Some(Instant::now());
            }
        }
        self.pondering
    }

    fn budget_elapsed(&self) -> Duration {
        self.budget_start.unwrap_or(self.start).elapsed()
    }

    /// `true` once the hard budget is spent.
    pub fn hard_expired(&mut self) -> bool {
        if self.is_pondering() {
            return false;
        }
        matches!(self.budget, Some(b) if self.budget_elapsed() >= b.hard)
    }

    /// `true` once `factor` × the soft budget is spent.
    pub fn soft_expired(&mut self, factor: f64) -> bool {
        if self.is_pondering() {
            return false;
        }
        matches!(self.budget, Some(b) if self.budget_elapsed() >= b.soft.mul_f64(factor))
    }

    /// `true` if a budget applies.
    pub fn is_timed(&self) -> bool {
        self.budget.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Option<Duration> {
        Some(Duration::from_millis(n))
    }

    #[test]
    fn increment_and_one_clock() {
        let l = Limits {
            time: [ms(10_000), None],
            inc: [ms(100), None],
            ..Limits::default()
        };
        let b = budget(&l, Color::White, Duration::from_millis(10)).unwrap();
        assert!(b.soft > Duration::from_millis(250) && b.soft < Duration::from_millis(600));
        assert!(b.hard >= b.soft && b.hard <= Duration::from_millis(5_000));
        // Black to move with only White's clock: still a finite budget.
        let b2 = budget(&l, Color::Black, Duration::ZERO).unwrap();
        assert!(b2.hard <= Duration::from_millis(5_000));
    }

    #[test]
    fn moves_to_go_and_movetime() {
        let l = Limits {
            time: [ms(1_000), ms(1_000)],
            movestogo: Some(1),
            ..Limits::default()
        };
        let b = budget(&l, Color::Black, Duration::from_millis(50)).unwrap();
        assert!(b.hard <= Duration::from_millis(800));
        let l2 = Limits {
            movetime: ms(300),
            ..Limits::default()
        };
        let b2 = budget(&l2, Color::White, Duration::from_millis(20)).unwrap();
        assert_eq!(b2.hard, Duration::from_millis(280));
        assert!(budget(&Limits::default(), Color::White, Duration::ZERO).is_none());
    }

    /// A sudden-death game (1 s, no increment: `--tc 1+0`) in which every
    /// move costs its soft budget and 4 ms of pipes besides lasts 120
    /// moves without the flag falling (it fell at move 61 when the overhead
    /// was kept back once).
    #[test]
    fn sudden_death_keeps_time_for_a_long_game() {
        let overhead = Duration::from_millis(10);
        let mut left = Duration::from_millis(1_000);
        for n in 1..=120 {
            let l = Limits {
                time: [Some(left), Some(left)],
                ..Limits::default()
            };
            let b = budget(&l, Color::White, overhead).unwrap();
            let spent = b.soft + Duration::from_millis(4);
            assert!(
                spent < left,
                "flag at move {n}: {left:?} left, {spent:?} spent"
            );
            left -= spent;
        }
    }

    #[test]
    fn tiny_clock_still_moves() {
        let l = Limits {
            time: [ms(5), ms(5)],
            ..Limits::default()
        };
        let b = budget(&l, Color::White, Duration::from_millis(50)).unwrap();
        assert_eq!(b.hard, Duration::from_millis(1));
    }
}
