//! When each move of a record was completed, from its `[%clk]` (remaining
//! time after the move) or `[%emt]` (time spent on the move) comments and the
//! `TimeControl` tag.

use super::Transcript;
use arbiter_pgn::clock::find_time;
use arbiter_pgn::{Game as Record, TimeControl};

/// The time spent on a move written `[%emt h:mm:ss]` in one of its comments.
///
/// ```
/// use arbiter_laws::audit::times::elapsed_in;
/// assert_eq!(elapsed_in(&["good move [%emt 0:01:05]".to_owned()]), Some(65_000));
/// assert_eq!(elapsed_in(&["no time here".to_owned()]), None);
/// ```
pub fn elapsed_in(comments: &[String]) -> Option<u64> {
    comments
        .iter()
        .find_map(|c| find_time(c, "[%emt").map(|(_, ms)| ms))
}

/// The moment (ms since the start, White's clock started at 0) each
/// main-line move of `record` was completed.
///
/// A move's time is what its `[%clk]` says was spent on it: the mover's
/// previous remaining time (the first period's time before his first move),
/// plus the increment and any new period's time the move earns under
/// `control`, less the remaining time after it; else its `[%emt]`; else 0.
/// Times never go backwards (a recorded clock that gained more than the
/// control gives counts as no time spent), and a move of the record was
/// completed, so it took at most the time its mover had left: a clock that
/// lost more than that (the control read otherwise than by the site that
/// wrote the record, as chess.com's daily `1/86400`, a day for each move
/// that does not carry over) counts as all the time left, never as a flag
/// fallen before the move. Time added to a clock (Lichess's "+15 s", a
/// penalty's two minutes, 7.5) is not in the control: the moves after it
/// take at most what the control alone leaves the mover, so that no flag
/// falls on the Laws' clock that the record's does not show.
///
/// ```
/// use arbiter_laws::audit::times::timestamps;
/// use arbiter_pgn::TimeControl;
/// let pgn = "1. e4 { [%clk 0:01:00] } e5 { [%clk 0:00:58] } 2. Nf3 { [%clk 0:00:55] } *";
/// let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
/// let control = TimeControl::parse("60+0").ok();
/// // White spends 0 s, Black 2 s, White 5 s.
/// assert_eq!(timestamps(&record, control.as_ref()), vec![0, 2_000, 7_000]);
/// // A day a move, written as chess.com writes it: White's four days (the
/// // first and three more earned) are not spent on his fourth move.
/// let daily = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 { [%clk 23:00:00] } *";
/// let record = arbiter_pgn::Reader::new(daily.as_bytes()).next_game()?.expect("a game");
/// let control = TimeControl::parse("1/86400").ok();
/// assert_eq!(timestamps(&record, control.as_ref())[6], 4 * 86_400_000);
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn timestamps(record: &Record, control: Option<&TimeControl>) -> Vec<u64> {
    let mut out = Vec::new();
    timestamps_into(&Transcript::from_record(record), control, &mut out);
    out
}

/// [`timestamps`] of a [`Transcript`], into `out` (cleared first).
pub(crate) fn timestamps_into(t: &Transcript, control: Option<&TimeControl>, out: &mut Vec<u64>) {
    out.clear();
    if !t.timed() {
        // No move's time recorded: every move completed at 0.
        out.resize(t.moves.len(), 0);
        return;
    }
    let periods = control.map_or(&[][..], |c| c.periods());
    let first_time = periods.first().map_or(0, |p| p.time_ms);
    let mut players = [Player::new(first_time); 2];
    let mut time = 0u64;
    out.reserve(t.moves.len());
    let mut c = t.start.turn().index();
    for (&clock, &elapsed) in t.clocks.iter().zip(&t.elapsed) {
        // (`& 1`: one player of two, no bounds check.)
        let p = &mut players[c & 1];
        let mut earned = 0u64;
        if let Some(now) = periods.get(p.period) {
            earned = now.increment_ms;
            p.in_period += 1;
            if now.moves == Some(p.in_period) {
                p.in_period = 0;
                if p.period + 1 < periods.len() {
                    p.period += 1;
                }
                earned = earned.saturating_add(periods[p.period].time_ms);
            }
        }
        let available = p.remaining.saturating_add(earned);
        let spent = match clock {
            Some(clk) => available.saturating_sub(clk),
            None => elapsed.unwrap_or(0),
        }
        // A completed move took at most what the Laws' clock left its
        // mover: no flag falls there that the record's does not show.
        .min(p.model);
        p.remaining = clock.unwrap_or_else(|| available.saturating_sub(spent));
        p.model = (p.model - spent).saturating_add(earned);
        time = time.saturating_add(spent);
        out.push(time);
        c ^= 1;
    }
}

/// A player's clock as the record's times are read.
#[derive(Copy, Clone)]
struct Player {
    /// The remaining time after his last move, as the record gives it.
    remaining: u64,
    /// The time the Laws' clock, which knows the control alone, leaves him
    /// after his last move (less than the record's when time was added:
    /// Lichess's "+15 s", a penalty's two minutes, 7.5).
    model: u64,
    /// The period he plays in.
    period: usize,
    /// The moves he made in it.
    in_period: u32,
}

impl Player {
    fn new(first_time: u64) -> Player {
        Player {
            remaining: first_time,
            model: first_time,
            period: 0,
            in_period: 0,
        }
    }
}
