//! The PGN `TimeControl` tag (PGN standard §9.6.1), as plain data.
//!
//! Forms: `?` (unknown), `-` (no time control), `N/S` (N moves in S seconds),
//! `S` (sudden death), `S+I` (with an increment of I seconds per move), `*S`
//! (sandglass / hourglass), and several periods joined by `:`, such as
//! `40/5400+30:1800+30` (the FIDE classical control: 90 minutes for 40 moves,
//! then 30 minutes, 30 seconds added per move from move 1). Times are kept in
//! milliseconds; fractional seconds (`0.5+0`) are read and written too.
//!
//! The clock model that runs these controls lives in `arbiter-laws` (Art. 6).

use std::fmt;
use std::str::FromStr;

/// One period of a time control (Art. 6.3 a / 6.3.1).
///
/// ```
/// use arbiter_pgn::{Period, TimeControl};
/// let tc = TimeControl::parse("40/5400+30:1800+30")?;
/// assert_eq!(tc.periods()[0], Period { moves: Some(40), time_ms: 5_400_000, increment_ms: 30_000 });
/// # Ok::<_, arbiter_pgn::ParseTimeControlError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Period {
    /// Moves to complete in this period; `None`: all remaining moves.
    pub moves: Option<u32>,
    /// Time allotted for the period, in milliseconds.
    pub time_ms: u64,
    /// Increment added for every move, in milliseconds (0 if none).
    pub increment_ms: u64,
}

/// A PGN `TimeControl` tag value.
///
/// ```
/// use arbiter_pgn::TimeControl;
/// assert_eq!(TimeControl::parse("180+2")?, TimeControl::fischer(3, 2));
/// assert_eq!(TimeControl::parse("-")?, TimeControl::Untimed);
/// assert_eq!(TimeControl::parse("*60")?, TimeControl::Hourglass { time_ms: 60_000 });
/// # Ok::<_, arbiter_pgn::ParseTimeControlError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `?`: not known.
    Unknown,
    /// `-`: no time control.
    Untimed,
    /// One or more periods, the last for all remaining moves unless it names a
    /// move count (then it repeats, as in the PGN standard's `40/7200:…`).
    Periods(Vec<Period>),
    /// `*S`: a sandglass of S seconds (time used is added to the opponent's).
    Hourglass {
        /// Total time in milliseconds.
        time_ms: u64,
    },
}

/// A `TimeControl` value that cannot be read.
///
/// ```
/// use arbiter_pgn::TimeControl;
/// let e = TimeControl::parse("40/90x").unwrap_err();
/// assert_eq!(e.text, "40/90x");
/// assert!(e.column > 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid TimeControl {} at character {column}: {message}", arbiter_chess::Excerpt(.text))]
pub struct ParseTimeControlError {
    /// The text given.
    pub text: String,
    /// 1-based character position of the problem.
    pub column: usize,
    /// What is wrong.
    pub message: &'static str,
}

impl TimeControl {
    /// Sudden death in `minutes` with `increment_s` seconds per move (e.g.
    /// 3+2). Times beyond `u64::MAX` milliseconds are `u64::MAX` (they
    /// overflowed).
    ///
    /// ```
    /// use arbiter_pgn::TimeControl;
    /// assert_eq!(TimeControl::fischer(3, 2).to_string(), "180+2");
    /// assert_eq!(TimeControl::fischer(u64::MAX, 1).periods()[0].time_ms, u64::MAX);
    /// ```
    pub fn fischer(minutes: u64, increment_s: u64) -> TimeControl {
        TimeControl::Periods(vec![Period {
            moves: None,
            time_ms: minutes.saturating_mul(60_000),
            increment_ms: increment_s.saturating_mul(1000),
        }])
    }

    /// The periods, empty for `?`, `-` and hourglass.
    pub fn periods(&self) -> &[Period] {
        match self {
            TimeControl::Periods(p) => p,
            _ => &[],
        }
    }

    /// Parses a tag value.
    pub fn parse(text: &str) -> Result<TimeControl, ParseTimeControlError> {
        let err = |column: usize, message| ParseTimeControlError {
            text: text.to_owned(),
            column,
            message,
        };
        let t = text.trim();
        let offset = text.len() - text.trim_start().len();
        match t {
            "" => return Err(err(1, "empty; use ? for unknown or - for none")),
            "?" => return Ok(TimeControl::Unknown),
            "-" => return Ok(TimeControl::Untimed),
            _ => {}
        }
        if let Some(rest) = t.strip_prefix('*') {
            let time_ms =
                parse_seconds(rest).ok_or_else(|| err(offset + 2, "expected seconds after *"))?;
            return Ok(TimeControl::Hourglass { time_ms });
        }
        let mut periods = Vec::new();
        let mut col = offset;
        for part in t.split(':') {
            let period = parse_period(part).map_err(|(c, m)| err(col + c + 1, m))?;
            periods.push(period);
            col += part.len() + 1;
        }
        Ok(TimeControl::Periods(periods))
    }
}

fn parse_seconds(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    if frac.contains('.') || frac.len() > 3 || (int.is_empty() && frac.is_empty()) {
        return None;
    }
    let int: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut frac_ms: u64 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    for _ in frac.len()..3 {
        frac_ms *= 10;
    }
    int.checked_mul(1000)?.checked_add(frac_ms)
}

fn parse_period(s: &str) -> Result<Period, (usize, &'static str)> {
    let (moves, rest, rest_at) = match s.split_once('/') {
        Some((m, r)) => {
            let moves: u32 = m
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or((0, "expected a number of moves before /"))?;
            (Some(moves), r, m.len() + 1)
        }
        None => (None, s, 0),
    };
    let (time, inc, inc_at) = match rest.split_once('+') {
        Some((t, i)) => (t, Some(i), rest_at + t.len() + 1),
        None => (rest, None, 0),
    };
    let time_ms = parse_seconds(time).ok_or((rest_at, "expected a time in seconds"))?;
    let increment_ms = match inc {
        None => 0,
        Some(i) => parse_seconds(i).ok_or((inc_at, "expected an increment in seconds after +"))?,
    };
    Ok(Period {
        moves,
        time_ms,
        increment_ms,
    })
}

fn write_seconds(f: &mut fmt::Formatter<'_>, ms: u64) -> fmt::Result {
    if ms % 1000 == 0 {
        write!(f, "{}", ms / 1000)
    } else {
        let frac = format!("{:03}", ms % 1000);
        write!(f, "{}.{}", ms / 1000, frac.trim_end_matches('0'))
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write_seconds(f, self.time_ms)?;
        if self.increment_ms > 0 {
            f.write_str("+")?;
            write_seconds(f, self.increment_ms)?;
        }
        Ok(())
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unknown => f.write_str("?"),
            TimeControl::Untimed => f.write_str("-"),
            TimeControl::Hourglass { time_ms } => {
                f.write_str("*")?;
                write_seconds(f, *time_ms)
            }
            TimeControl::Periods(periods) => {
                for (i, p) in periods.iter().enumerate() {
                    if i > 0 {
                        f.write_str(":")?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;
    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        TimeControl::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_round_trips() {
        for text in [
            "?",
            "-",
            "40/9000",
            "300+2",
            "4500",
            "*60",
            "40/5400+30:1800+30",
            "40/7200:3600",
            "0.5+0.25",
            "60+0.1",
        ] {
            let tc = TimeControl::parse(text).unwrap();
            assert_eq!(tc.to_string(), text, "{text}");
        }
    }

    #[test]
    fn fide_classical() {
        let tc = TimeControl::parse("40/5400+30:1800+30").unwrap();
        assert_eq!(
            tc.periods(),
            [
                Period {
                    moves: Some(40),
                    time_ms: 5_400_000,
                    increment_ms: 30_000
                },
                Period {
                    moves: None,
                    time_ms: 1_800_000,
                    increment_ms: 30_000
                },
            ]
        );
    }

    #[test]
    fn errors_point_at_the_problem() {
        assert_eq!(TimeControl::parse("40/abc").unwrap_err().column, 4);
        assert_eq!(TimeControl::parse("300+x").unwrap_err().column, 5);
        assert_eq!(TimeControl::parse("40/5400:x").unwrap_err().column, 9);
        assert_eq!(TimeControl::parse("0/60").unwrap_err().column, 1);
        assert!(TimeControl::parse("").is_err());
        assert!(TimeControl::parse("*").is_err());
    }
}
