//! `arbiter judge`: a game as JSON lines in, one verdict per line out.
//!
//! Input: the first line `{"start": {…}}` ([`Start`]), then one [`Event`]
//! per line. Output: one JSON object per input line, with
//!
//! - `"ok"`: `false` (with `"error"`) if the Laws reject the event, which
//!   then changes nothing;
//! - `"clock"`: `{"white": ms, "black": ms}` at the event's time (`null`
//!   without a clock);
//! - `"status"`: `"ongoing"` or `"ended"`; when ended, `"result"`,
//!   `"termination"` and `"article"` (and `"reason"` for a forfeit or an
//!   adjudication that gave one);
//! - where they apply: `"move"` (the SAN played), `"claim"` (`"correct"`,
//!   `"incorrect"`, `"pending"`, `"upheld"`, `"rejected"`, `"postponed"`),
//!   `"penalty"` (`{"player", "ms", "article"}`), `"note"`, `"offer"` (who
//!   has a draw offer standing), `"turn"`.
//!
//! Blank lines and lines starting with `#` or `//` are skipped and produce
//! no output.

use crate::{Event, Game, Start};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::io::{BufRead, Write};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StartLine {
    start: Start,
}

/// Options of the judge.
#[derive(Copy, Clone, Debug, Default)]
pub struct Options {
    /// Add the FEN of the position after each line.
    pub fen: bool,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Events read.
    pub events: usize,
    /// Events rejected (by the Laws or as unreadable).
    pub rejected: usize,
    /// The game's result, if it ended.
    pub result: Option<String>,
}

/// An input that cannot be judged at all.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The first line is not a valid start.
    #[error("line {line}: {message}")]
    Start {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// No start line.
    #[error("empty input: the first line must be {{\"start\": {{…}}}}")]
    Empty,
}

fn color_name(c: arbiter_chess::Color) -> &'static str {
    match c {
        arbiter_chess::Color::White => "white",
        arbiter_chess::Color::Black => "black",
    }
}

fn state(game: &Game, t: u64, opts: Options, out: &mut Map<String, Value>) {
    let clock = match game.clock_at(t) {
        Some(c) => json!({"white": c.white, "black": c.black}),
        None => Value::Null,
    };
    out.insert("clock".into(), clock);
    match game.outcome() {
        Some(o) => {
            out.insert("status".into(), json!("ended"));
            out.insert("result".into(), json!(o.result.to_string()));
            out.insert("termination".into(), json!(o.termination.name()));
            out.insert("article".into(), json!(o.article));
            if let Some(reason) = game.outcome_reason() {
                out.insert("reason".into(), json!(reason));
            }
        }
        None => {
            out.insert("status".into(), json!("ongoing"));
            out.insert("turn".into(), json!(color_name(game.turn())));
            if let Some(by) = game.draw_offer() {
                out.insert("offer".into(), json!(color_name(by)));
            }
        }
    }
    if opts.fen {
        out.insert("fen".into(), json!(game.position().fen()));
    }
}

/// Runs the judge over `input`, writing one line per input line to `output`.
pub fn run<R: BufRead, W: Write>(
    input: R,
    mut output: W,
    opts: Options,
) -> Result<Summary, JudgeError> {
    let mut lines = input.lines().enumerate();
    let mut game = loop {
        let Some((i, line)) = lines.next() else {
            return Err(JudgeError::Empty);
        };
        let line = line?;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
            continue;
        }
        let start: StartLine = serde_json::from_str(trimmed).map_err(|e| JudgeError::Start {
            line: i + 1,
            message: format!("expected {{\"start\": {{…}}}}: {e}"),
        })?;
        let game = Game::new(start.start).map_err(|e| JudgeError::Start {
            line: i + 1,
            message: e.to_string(),
        })?;
        let mut out = Map::new();
        out.insert("ok".into(), json!(true));
        out.insert("class".into(), json!(game.time_class().name()));
        out.insert("edition".into(), json!(game.rules().edition.year()));
        state(&game, 0, opts, &mut out);
        writeln!(output, "{}", Value::Object(out))?;
        break game;
    };
    let mut summary = Summary::default();
    let mut last_t = 0;
    for (i, line) in lines {
        let line = line?;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
            continue;
        }
        summary.events += 1;
        let mut out = Map::new();
        let event: Event = match serde_json::from_str(trimmed) {
            Ok(e) => e,
            Err(e) => {
                summary.rejected += 1;
                out.insert("ok".into(), json!(false));
                out.insert("error".into(), json!(format!("line {}: {e}", i + 1)));
                state(&game, last_t, opts, &mut out);
                writeln!(output, "{}", Value::Object(out))?;
                continue;
            }
        };
        let t = event.t;
        match game.apply(event) {
            Ok(applied) => {
                last_t = t;
                out.insert("ok".into(), json!(true));
                out.insert("t".into(), json!(t));
                if let Some(san) = applied.san {
                    out.insert("move".into(), json!(san));
                }
                if let Some(c) = applied.claim {
                    out.insert("claim".into(), json!(c));
                }
                if let Some(p) = applied.penalty {
                    out.insert(
                        "penalty".into(),
                        json!({"player": color_name(p.to), "ms": p.ms, "article": p.article}),
                    );
                }
                if let Some(n) = applied.note {
                    out.insert("note".into(), json!(n));
                }
                state(&game, t, opts, &mut out);
            }
            Err(e) => {
                summary.rejected += 1;
                out.insert("ok".into(), json!(false));
                out.insert("t".into(), json!(t));
                out.insert("error".into(), json!(format!("line {}: {e}", i + 1)));
                state(&game, t.max(last_t), opts, &mut out);
            }
        }
        writeln!(output, "{}", Value::Object(out))?;
    }
    summary.result = game.outcome().map(|o| o.result.to_string());
    Ok(summary)
}
