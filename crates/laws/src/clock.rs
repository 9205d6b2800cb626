//! The chessclock (FIDE Article 6), driven by event timestamps.
//!
//! - Several periods (6.3 a / 6.3.1): a period ends when the player has
//!   completed its number of moves; the time saved is carried over to the next
//!   period (6.3 b / 6.3.2), whose time is added at once.
//! - Increment (cumulative, "Fischer"): added *before every move*, the first
//!   included (Glossary: "added from the start before each move"): a 5+3
//!   clock shows 5:03 before White's first move. The increment of a move is
//!   that of the period the move belongs to.
//! - Delay (6.3 b / 6.3.2 "time-delay mode"): simple (US) delay — the main
//!   time does not run until the delay has passed; Bronstein — the clock runs
//!   at once and the time used, up to the delay, is given back after the
//!   move. Both leave the same main time after a move; they differ in when
//!   the flag falls during a move. A delay never adds time.
//! - Flag fall (6.1, 6.8, 6.9): the moment a player's time runs out; kept
//!   once it has happened, even if the player goes on moving.
//!
//! All arithmetic is in integer milliseconds; time only moves when an event
//! with a later timestamp arrives: there is no wall clock in here.

use arbiter_chess::Color;
use arbiter_pgn::{Period, TimeControl};
use serde::{Deserialize, Serialize};

/// The kind of delay.
///
/// ```
/// use arbiter_chess::Color;
/// use arbiter_laws::{Clock, Delay, DelayKind};
/// use arbiter_pgn::TimeControl;
/// // One minute with a 5-second simple delay: the main time does not run for
/// // the first five seconds of a move.
/// let delay = Delay { kind: DelayKind::Simple, ms: 5_000 };
/// let clock = Clock::new(&TimeControl::fischer(1, 0), Some(delay), Color::White, 0)?;
/// assert_eq!(clock.remaining_at(Color::White, 4_000), 60_000);
/// assert_eq!(clock.remaining_at(Color::White, 15_000), 50_000);
/// # Ok::<_, arbiter_laws::clock::ClockError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DelayKind {
    /// Bronstein delay: the time used, up to the delay, is added back after the move.
    Bronstein,
    /// Simple (US) delay: the main time starts running only after the delay.
    Simple,
}

/// A delay per move (Art. 6.3 b / 6.3.2, "fixed extra time").
///
/// ```
/// use arbiter_chess::Color;
/// use arbiter_laws::{Clock, Delay, DelayKind};
/// use arbiter_pgn::TimeControl;
/// // Bronstein: the clock runs at once, the time used (up to the delay) comes back.
/// let delay = Delay { kind: DelayKind::Bronstein, ms: 3_000 };
/// let mut clock = Clock::new(&TimeControl::fischer(1, 0), Some(delay), Color::White, 0)?;
/// assert_eq!(clock.remaining_at(Color::White, 2_000), 58_000);
/// clock.press(Color::White, 2_000);
/// assert_eq!(clock.remaining_at(Color::White, 2_000), 60_000);
/// assert_eq!(clock.delay(), Some(delay));
/// # Ok::<_, arbiter_laws::clock::ClockError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Delay {
    /// Bronstein or simple.
    pub kind: DelayKind,
    /// The delay in milliseconds.
    pub ms: u64,
}

/// A time control that a clock cannot run.
///
/// ```
/// use arbiter_chess::Color;
/// use arbiter_laws::{clock::ClockError, Clock};
/// use arbiter_pgn::TimeControl;
/// let sandglass: TimeControl = "*180".parse()?;
/// let err = Clock::new(&sandglass, None, Color::White, 0).unwrap_err();
/// assert_eq!(err, ClockError::Hourglass(180_000));
/// let none: TimeControl = "-".parse()?;
/// assert_eq!(Clock::new(&none, None, Color::White, 0), Err(ClockError::NoPeriods));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// `?`, `-` or no periods.
    #[error("no time control")]
    NoPeriods,
    /// The sandglass (`*S`) is no time control of the FIDE Laws.
    #[error("a sandglass time control (*{0} ms) is not part of the FIDE Laws")]
    Hourglass(u64),
}

/// A two-sided chessclock.
///
/// ```
/// use arbiter_chess::Color;
/// use arbiter_laws::Clock;
/// use arbiter_pgn::TimeControl;
/// // 5 minutes + 3 seconds: the increment comes before the first move too.
/// let mut clock = Clock::new(&TimeControl::fischer(5, 3), None, Color::White, 0)?;
/// assert_eq!(clock.remaining_at(Color::White, 0), 303_000);
/// clock.press(Color::White, 10_000); // White moved after 10 s
/// assert_eq!(clock.remaining_at(Color::White, 10_000), 296_000);
/// assert_eq!(clock.running(), Some(Color::Black));
/// // Black's flag falls 303 s after his clock started (6.1).
/// assert_eq!(clock.next_flag_time(), Some(313_000));
/// assert_eq!(clock.flag_fell_at(Color::Black, 400_000), Some(313_000));
/// # Ok::<_, arbiter_laws::clock::ClockError>(())
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct Clock {
    periods: Vec<Period>,
    delay: Option<Delay>,
    /// Time left for each player, as of `since` for the running one.
    remaining: [u64; 2],
    /// Moves completed by each player.
    moves: [u32; 2],
    /// The period each player is in, and moves completed within it.
    period: [usize; 2],
    moves_in_period: [u32; 2],
    /// Extra increment for every move from now on (quickplay finish, G.4 / III.4).
    extra_increment_ms: u64,
    running: Option<Color>,
    since: u64,
    /// When each player's flag fell, if it has.
    fallen: [Option<u64>; 2],
    /// Each player's state just after the time of the last press was
    /// charged, before any period time or increment was added.
    before_press: [Option<BeforePress>; 2],
}

impl Clone for Clock {
    fn clone(&self) -> Clock {
        let mut c = Clock {
            periods: Vec::new(),
            ..*self
        };
        c.periods.clone_from(&self.periods);
        c
    }

    /// The copy of `source` in the buffers of `self` (its periods).
    fn clone_from(&mut self, source: &Clock) {
        let mut periods = std::mem::take(&mut self.periods);
        periods.clone_from(&source.periods);
        *self = Clock { periods, ..*source };
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct BeforePress {
    remaining: u64,
    moves: u32,
    period: usize,
    moves_in_period: u32,
}

impl Clock {
    /// A clock for `control` with an optional delay, the clock of `first`
    /// (the player having the move: White in a game from the initial
    /// position, 6.6) started at `t`.
    pub fn new(
        control: &TimeControl,
        delay: Option<Delay>,
        first: Color,
        t: u64,
    ) -> Result<Clock, ClockError> {
        let periods = match control {
            TimeControl::Periods(p) if !p.is_empty() => p.clone(),
            TimeControl::Hourglass { time_ms } => return Err(ClockError::Hourglass(*time_ms)),
            _ => return Err(ClockError::NoPeriods),
        };
        let p0 = periods[0];
        let start = p0.time_ms.saturating_add(p0.increment_ms);
        Ok(Clock {
            periods,
            delay,
            remaining: [start, start],
            moves: [0, 0],
            period: [0, 0],
            moves_in_period: [0, 0],
            extra_increment_ms: 0,
            running: Some(first),
            since: t,
            fallen: [None, None],
            before_press: [None, None],
        })
    }

    /// The periods of the time control.
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// The delay, if any.
    pub fn delay(&self) -> Option<Delay> {
        self.delay
    }

    /// Whose clock is running (`None` once stopped at the end of the game).
    pub fn running(&self) -> Option<Color> {
        self.running
    }

    /// Moves completed by `color`.
    pub fn moves(&self, color: Color) -> u32 {
        self.moves[color.index()]
    }

    /// The period (0-based) `color` is playing in.
    pub fn period(&self, color: Color) -> usize {
        self.period[color.index()]
    }

    /// Moves `color` has still to complete in the period it is playing in
    /// (6.3 a / 6.3.1), if that period has a move count (UCI `movestogo`).
    pub fn moves_to_go(&self, color: Color) -> Option<u32> {
        let i = color.index();
        let n = self.periods[self.period[i]].moves?;
        Some(n.saturating_sub(self.moves_in_period[i]))
    }

    /// The increment of `color`'s period (plus any extra five seconds of a
    /// quickplay finish, G.4 / III.4), in milliseconds: what is added before
    /// each of his moves in this period.
    pub fn increment_ms(&self, color: Color) -> u64 {
        self.periods[self.period[color.index()]]
            .increment_ms
            .saturating_add(self.extra_increment_ms)
    }

    fn delay_ms(&self) -> u64 {
        self.delay.map_or(0, |d| d.ms)
    }

    /// Time that may pass in the current move before the flag falls.
    fn allowance(&self, color: Color) -> u64 {
        let r = self.remaining[color.index()];
        match self.delay {
            Some(Delay {
                kind: DelayKind::Simple,
                ms,
            }) => r.saturating_add(ms),
            _ => r,
        }
    }

    /// Remaining time of `color` at `t` (≥ the time of the last event), in
    /// milliseconds, as the clock would show it; 0 once the flag has fallen.
    /// With a simple delay the main time is shown (it does not run during the delay).
    pub fn remaining_at(&self, color: Color, t: u64) -> u64 {
        let r = self.remaining[color.index()];
        if self.running != Some(color) {
            return r;
        }
        let elapsed = t.saturating_sub(self.since);
        let used = match self.delay {
            Some(Delay {
                kind: DelayKind::Simple,
                ms,
            }) => elapsed.saturating_sub(ms),
            _ => elapsed,
        };
        r.saturating_sub(used)
    }

    /// When the running player's flag falls (or fell), if a clock is running.
    pub fn next_flag_time(&self) -> Option<u64> {
        let c = self.running?;
        Some(self.fallen[c.index()].unwrap_or_else(|| self.since.saturating_add(self.allowance(c))))
    }

    /// When `color`'s flag fell, as of time `t`, if it has.
    pub fn flag_fell_at(&self, color: Color, t: u64) -> Option<u64> {
        if let Some(at) = self.fallen[color.index()] {
            return Some(at);
        }
        if self.running == Some(color) {
            let at = self.since.saturating_add(self.allowance(color));
            if t >= at {
                return Some(at);
            }
        }
        None
    }

    /// Whether `color`'s flag fell before `t`: at `t` itself a claim is
    /// still in time, as a move completed at that instant is ([`Clock::press`]
    /// charges no flag for it). The Laws' claims (9.2, 9.3, 10.2 / III.4)
    /// ask this; [`Clock::flag_fell_at`] says when the flag is down.
    ///
    /// ```
    /// use arbiter_chess::Color;
    /// use arbiter_laws::Clock;
    /// use arbiter_pgn::TimeControl;
    /// // One minute, no increment; White's clock runs from 0.
    /// let clock = Clock::new(&TimeControl::fischer(1, 0), None, Color::White, 0)?;
    /// assert_eq!(clock.flag_fell_at(Color::White, 60_000), Some(60_000));
    /// assert!(!clock.fell_before(Color::White, 60_000));
    /// assert!(clock.fell_before(Color::White, 60_001));
    /// # Ok::<_, arbiter_laws::clock::ClockError>(())
    /// ```
    pub fn fell_before(&self, color: Color, t: u64) -> bool {
        self.flag_fell_at(color, t).is_some_and(|at| at < t)
    }

    /// Charges the running player for the time from the start of the turn to
    /// `t` (with the delay rule) and records a flag fall; the clock goes on
    /// from `t`.
    fn charge(&mut self, t: u64) {
        let Some(color) = self.running else {
            return;
        };
        let i = color.index();
        let elapsed = t.saturating_sub(self.since);
        if elapsed > self.allowance(color) {
            if self.fallen[i].is_none() {
                self.fallen[i] = Some(self.since.saturating_add(self.allowance(color)));
            }
            self.remaining[i] = 0;
        } else {
            let used = elapsed.saturating_sub(self.delay_ms());
            self.remaining[i] = self.remaining[i].saturating_sub(used);
        }
        self.since = t;
    }

    /// Completes a move of `color` at `t` (the clock is pressed, 6.2 a /
    /// 6.2.1): charges the time used, starts the next period if the move
    /// count is reached, adds the increment for the next move, and starts the
    /// opponent's clock.
    pub fn press(&mut self, color: Color, t: u64) {
        let i = color.index();
        if self.running == Some(color) {
            self.charge(t);
        }
        self.before_press[i] = Some(BeforePress {
            remaining: self.remaining[i],
            moves: self.moves[i],
            period: self.period[i],
            moves_in_period: self.moves_in_period[i],
        });
        self.moves[i] += 1;
        self.moves_in_period[i] += 1;
        let p = self.periods[self.period[i]];
        if p.moves == Some(self.moves_in_period[i]) {
            // 6.3 b / 6.3.2: the next period begins; time saved carries over.
            // The last period repeats if it names a move count (PGN standard).
            if self.period[i] + 1 < self.periods.len() {
                self.period[i] += 1;
            }
            self.moves_in_period[i] = 0;
            let next = self.periods[self.period[i]];
            self.remaining[i] = self.remaining[i].saturating_add(next.time_ms);
        }
        let inc = self.periods[self.period[i]].increment_ms + self.extra_increment_ms;
        self.remaining[i] = self.remaining[i].saturating_add(inc);
        self.running = Some(!color);
        self.since = t;
    }

    /// Adds `ms` to `color`'s time (a penalty awarded to the opponent, 7.5,
    /// 9.5, G.4–G.5).
    pub fn add_time(&mut self, color: Color, ms: u64) {
        let i = color.index();
        self.remaining[i] = self.remaining[i].saturating_add(ms);
    }

    /// Takes `ms` from `color`'s time at `t` (a penalty, 12.9 c / 12.9.3);
    /// a clock brought to zero is a flag fallen at `t`.
    pub fn deduct_time(&mut self, color: Color, ms: u64, t: u64) {
        let i = color.index();
        let shown = self.remaining_at(color, t);
        self.remaining[i] = self.remaining[i].saturating_sub(ms);
        if ms >= shown && self.fallen[i].is_none() {
            self.fallen[i] = Some(t);
            self.remaining[i] = 0;
        }
    }

    /// Takes back the last press of `color` (an illegal move corrected,
    /// 7.5): the move no longer counts, its increment is removed (Arbiters'
    /// Manual), and `color`'s clock runs again from `t`; the opponent is
    /// charged for his time up to `t`.
    pub fn undo_press(&mut self, color: Color, t: u64) {
        self.charge(t);
        let i = color.index();
        if let Some(before) = self.before_press[i].take() {
            self.remaining[i] = before.remaining;
            self.moves[i] = before.moves;
            self.period[i] = before.period;
            self.moves_in_period[i] = before.moves_in_period;
        }
        self.running = Some(color);
        self.since = t;
    }

    /// Adds `ms` to the increment of every later move of both players
    /// (quickplay finish: G.4 / III.4).
    pub fn add_increment(&mut self, ms: u64) {
        self.extra_increment_ms = self.extra_increment_ms.saturating_add(ms);
    }

    /// The arbiter sets both clocks at `t` (after restoring a previous
    /// position, 7.5 a / 7.5.1: "his best judgement"), with `turn`'s clock
    /// running; a flag on a clock set above zero is up again.
    pub fn set_times(&mut self, white: u64, black: u64, turn: Color, t: u64) {
        self.charge(t);
        self.remaining = [white, black];
        for (i, ms) in [white, black].into_iter().enumerate() {
            if ms > 0 {
                self.fallen[i] = None;
            }
        }
        self.running = Some(turn);
        self.since = t;
    }

    /// Stops the clock at `t` (the game has ended).
    pub fn stop(&mut self, t: u64) {
        self.charge(t);
        self.running = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::*;

    fn clock(tc: &str) -> Clock {
        Clock::new(&TimeControl::parse(tc).unwrap(), None, White, 0).unwrap()
    }

    #[test]
    fn increment_before_the_first_move() {
        let c = clock("300+3");
        assert_eq!(c.remaining_at(White, 0), 303_000);
        assert_eq!(c.remaining_at(Black, 0), 303_000);
    }

    #[test]
    fn press_charges_and_adds_increment() {
        let mut c = clock("300+3");
        c.press(White, 10_000);
        assert_eq!(c.remaining_at(White, 10_000), 296_000);
        assert_eq!(c.remaining_at(Black, 15_000), 298_000);
        assert_eq!(c.next_flag_time(), Some(10_000 + 303_000));
    }

    #[test]
    fn period_change_after_the_40th_move() {
        let mut c = clock("40/5400+30:1800+30");
        let mut t = 0;
        for _ in 0..39 {
            t += 1000;
            c.press(White, t);
            t += 1000;
            c.press(Black, t);
        }
        let before = c.remaining_at(White, t);
        assert_eq!(before, 5_400_000 + 30_000 + 39 * 29_000);
        t += 1000;
        c.press(White, t);
        assert_eq!(c.period(White), 1);
        assert_eq!(c.remaining_at(White, t), before - 1000 + 1_800_000 + 30_000);
    }

    #[test]
    fn delays_never_add_time() {
        for kind in [DelayKind::Simple, DelayKind::Bronstein] {
            let d = Some(Delay { kind, ms: 5_000 });
            let mut c = Clock::new(&TimeControl::parse("60").unwrap(), d, White, 0).unwrap();
            c.press(White, 2_000); // within the delay: nothing charged, nothing added
            assert_eq!(c.remaining_at(White, 2_000), 60_000);
            c.press(Black, 2_000 + 8_000); // 3 s over the delay
            assert_eq!(c.remaining_at(Black, 10_000), 57_000);
        }
    }

    #[test]
    fn flag_time_differs_between_delays() {
        let simple = Clock::new(
            &TimeControl::parse("1").unwrap(),
            Some(Delay {
                kind: DelayKind::Simple,
                ms: 5_000,
            }),
            White,
            0,
        )
        .unwrap();
        let bronstein = Clock::new(
            &TimeControl::parse("1").unwrap(),
            Some(Delay {
                kind: DelayKind::Bronstein,
                ms: 5_000,
            }),
            White,
            0,
        )
        .unwrap();
        assert_eq!(simple.next_flag_time(), Some(6_000));
        assert_eq!(bronstein.next_flag_time(), Some(1_000));
    }

    #[test]
    fn moves_to_go_per_period() {
        // Art. 6.3 a / 6.3.1: two moves in the first period, then the rest.
        let mut c = clock("2/60+1:30+2");
        assert_eq!(c.moves_to_go(White), Some(2));
        assert_eq!(c.increment_ms(White), 1_000);
        c.press(White, 1_000);
        assert_eq!(c.moves_to_go(White), Some(1));
        assert_eq!(c.moves_to_go(Black), Some(2));
        c.press(Black, 2_000);
        c.press(White, 3_000);
        assert_eq!(c.moves_to_go(White), None);
        assert_eq!(c.increment_ms(White), 2_000);
        assert_eq!(c.increment_ms(Black), 1_000);
        // A last period with a move count repeats.
        let mut r = clock("1/10");
        r.press(White, 500);
        assert_eq!(r.moves_to_go(White), Some(1));
        c.add_increment(5_000);
        assert_eq!(c.increment_ms(White), 7_000);
    }

    #[test]
    fn flag_stays_fallen() {
        let mut c = clock("10");
        assert_eq!(c.flag_fell_at(White, 9_999), None);
        assert_eq!(c.flag_fell_at(White, 10_000), Some(10_000));
        c.press(White, 12_000);
        assert_eq!(c.remaining_at(White, 12_000), 0);
        assert_eq!(c.flag_fell_at(White, 50_000), Some(10_000));
    }
}
