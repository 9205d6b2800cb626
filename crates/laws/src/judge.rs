//! `arbiter judge`: a game as JSON lines in, one verdict per line out.
//!
//! Input: the first line `{"start": {…}}` ([`json::Start`]), then one
//! [`json::Event`] per line (see `docs/judge.md`). Output: one JSON object per input line, with
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

use crate::json::{self, Event, Start};
use crate::Game;
use arbiter_chess::Position;
use arbiter_pgn::Notation;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StartLine {
    start: Start,
}

/// Options of the judge.
///
/// ```
/// use arbiter_laws::judge::{self, Options};
/// let input = "{\"start\": {}}\n{\"t\": 1000, \"by\": \"white\", \"do\": \"move\", \"move\": \"e4\"}\n";
/// let mut out = Vec::new();
/// let options = Options { fen: true, ..Options::default() };
/// judge::run(input.as_bytes(), &mut out, options)?;
/// let out = String::from_utf8(out)?;
/// let last = out.lines().last().unwrap();
/// assert!(last.contains("\"move\":\"e4\""));
/// assert!(last.contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq"));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct Options {
    /// Add the FEN of the position after each line.
    pub fen: bool,
    /// Read the whole input before answering (a game record, not a game
    /// being played): the record's own moves then settle the dead-position
    /// check after each move wherever they reach a live position
    /// ([`Game::read_ahead`]). The verdicts are the same either way; only
    /// their cost differs. Off: each line is answered as soon as it is read.
    pub read_ahead: bool,
    /// The notation of the answers' `"move"` (default: English SAN, as PGN
    /// writes it). Moves are read in any notation either way.
    pub notation: Notation,
}

/// What a run did.
///
/// ```
/// use arbiter_laws::judge::{self, Options};
/// let input = [
///     r#"{"start": {}}"#,
///     r#"{"t": 1000, "by": "white", "do": "move", "move": "f3"}"#,
///     r#"{"t": 2000, "by": "black", "do": "move", "move": "e5"}"#,
///     r#"{"t": 3000, "by": "black", "do": "move", "move": "d5"}"#, // out of turn: rejected
///     r#"{"t": 4000, "by": "white", "do": "move", "move": "g4"}"#,
///     r#"{"t": 5000, "by": "black", "do": "move", "move": "Qh4#"}"#,
/// ]
/// .join("\n");
/// let summary = judge::run(input.as_bytes(), std::io::sink(), Options::default())?;
/// assert_eq!((summary.events, summary.rejected), (5, 1));
/// assert_eq!(summary.result.as_deref(), Some("0-1"));
/// # Ok::<_, arbiter_laws::judge::JudgeError>(())
/// ```
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
///
/// ```
/// use arbiter_laws::judge::{self, JudgeError, Options};
/// let empty = judge::run("\n# only a comment\n".as_bytes(), std::io::sink(), Options::default());
/// assert!(matches!(empty, Err(JudgeError::Empty)));
/// let bad = judge::run(r#"{"begin": {}}"#.as_bytes(), std::io::sink(), Options::default());
/// let Err(JudgeError::Start { line, .. }) = bad else { panic!("not a start line") };
/// assert_eq!(line, 1);
/// ```
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The first line is not a valid start.
    #[error("{}: {message}", place(*.line, *.column))]
    Start {
        /// 1-based line number.
        line: usize,
        /// Where on the line its JSON reader stopped, counted from 1 in
        /// bytes, if it did.
        column: Option<usize>,
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

/// The clocks in an output line.
#[derive(Serialize)]
struct ClockOut {
    white: u64,
    black: u64,
}

/// A time penalty in an output line.
#[derive(Serialize)]
struct PenaltyOut {
    player: &'static str,
    ms: u64,
    article: &'static str,
}

/// One output line, serialised straight to the output (fields in this
/// order, absent ones left out; `clock` is `null` without a clock).
#[derive(Serialize, Default)]
struct Line<'a> {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    t: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    class: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    edition: Option<&'static str>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    mv: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    claim: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    penalty: Option<PenaltyOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    clock: Option<ClockOut>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    termination: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    article: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    turn: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    offer: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fen: Option<String>,
}

impl<'a> Line<'a> {
    /// Fills in the state of the game at `t`.
    fn state(mut self, game: &'a Game, t: u64, opts: Options) -> Self {
        self.clock = game.clock_at(t).map(|c| ClockOut {
            white: c.white,
            black: c.black,
        });
        match game.outcome() {
            Some(o) => {
                self.status = "ended";
                self.result = Some(o.result.to_string());
                self.termination = Some(o.termination.name());
                self.article = Some(o.article.as_str());
                self.reason = game.outcome_reason();
            }
            None => {
                self.status = "ongoing";
                self.turn = Some(color_name(game.turn()));
                self.offer = game.draw_offer().map(color_name);
            }
        }
        if opts.fen {
            self.fen = Some(game.position().fen());
        }
        self
    }

    fn write<W: Write>(&self, output: &mut W) -> Result<(), JudgeError> {
        serde_json::to_writer(&mut *output, self).map_err(std::io::Error::from)?;
        output.write_all(b"\n")?;
        Ok(())
    }
}

/// The move the event just played, in `notation`, written on the board it
/// was played on (the board of the player's move, or the position before).
fn written_move(
    game: &Game,
    (on_move, position, before): (Option<Position>, Position, usize),
    notation: Notation,
) -> Option<String> {
    let played = game.moves().get(before)?;
    [on_move, Some(position)]
        .into_iter()
        .flatten()
        .find(|b| b.is_legal(played.mv))
        .map(|b| notation.write(&b, played.mv))
}

/// The most a line of input may hold, in bytes (docs/judge.md): a longer
/// one is refused and read no further, so that memory stays bounded.
pub const MAX_LINE: usize = 64 * 1024;

/// How much of a refused line its error quotes, in bytes.
const QUOTED: usize = 40;

/// Reads the next line of `input` (its end-of-line included) into `bytes`,
/// at most [`MAX_LINE`] of it and its break: `Some(true)` for a whole line,
/// `Some(false)` for a longer one, cut (the rest consumed unread), `None` at
/// the end.
fn read_bounded<R: BufRead>(input: &mut R, bytes: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    bytes.clear();
    let mut whole = true;
    let mut any = false;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            return Ok(any.then_some(whole));
        }
        any = true;
        let (chunk, ended) = match memchr::memchr(b'\n', available) {
            Some(at) => (&available[..=at], true),
            None => (available, false),
        };
        let used = chunk.len();
        // Room for the line and its break ("\r\n"), which the bound leaves out.
        let room = (MAX_LINE + 2).saturating_sub(bytes.len());
        if whole && chunk.len() <= room {
            bytes.extend_from_slice(chunk);
        } else if whole {
            bytes.extend_from_slice(&chunk[..room]);
            whole = false;
        }
        input.consume(used);
        if ended {
            break;
        }
    }
    let text = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let text = text.strip_suffix(b"\r").unwrap_or(text);
    Ok(Some(whole && text.len() <= MAX_LINE))
}

/// Why a line is not an event (or not a start): what, and the column of
/// the line where its JSON reader stopped, if it did.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Misread {
    /// Counted from 1 on the line, in bytes.
    column: Option<usize>,
    message: String,
}

impl Misread {
    /// A line that cannot be read at all (too long, not UTF-8).
    fn whole(message: String) -> Misread {
        Misread {
            column: None,
            message,
        }
    }

    /// A JSON reader's error on a line's text that starts `at` bytes into
    /// the line: its column on the line, and its message without the
    /// reader's own "at line 1 column N" — the line is named once, by
    /// [`Misread::on_line`] — and with the values it quotes shortened
    /// ([`shorten_quoted`]).
    fn json(e: &serde_json::Error, at: usize) -> Misread {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = full.strip_suffix(&suffix).unwrap_or(&full);
        Misread {
            column: (e.line() > 0).then(|| e.column() + at),
            message: shorten_quoted(message),
        }
    }

    /// The error as the answer to line `n` (counted from 1) says it:
    /// `line 2, column 53: EOF while parsing an object`, or `line 2: …`.
    fn on_line(&self, n: usize) -> String {
        format!("{}: {}", place(n, self.column), self.message)
    }

    /// The error of line `n` as the start line.
    fn start_error(self, n: usize) -> JudgeError {
        JudgeError::Start {
            line: n,
            column: self.column,
            message: self.message,
        }
    }
}

/// `line 2, column 53`, or `line 2` without a column: one place, counted from 1.
fn place(line: usize, column: Option<usize>) -> String {
    match column {
        Some(c) => format!("line {line}, column {c}"),
        None => format!("line {line}"),
    }
}

/// An event line read (`text`, a line's JSON, `at` bytes into the line), or
/// why it is not an event and where.
fn parse_event(text: &str, at: usize) -> Result<Event, Misread> {
    serde_json::from_str::<Event>(text).map_err(|e| Misread::json(&e, at))
}

/// Where `trimmed`, a part of `line`, starts in it, in bytes.
fn offset_in(line: &str, trimmed: &str) -> usize {
    (trimmed.as_ptr() as usize).saturating_sub(line.as_ptr() as usize)
}

/// A JSON reader's message with each value it quotes (between backticks or
/// double quotes: an unknown `"do"`, a string where a number belongs)
/// shortened as [`Excerpt`](arbiter_chess::Excerpt) shortens it, so that a
/// line of 64 KiB is not echoed whole.
fn shorten_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(512));
    let mut rest = message;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = rest[open..].chars().next().unwrap_or('"');
        out.push_str(&rest[..=open]);
        let inner = &rest[open + 1..];
        // The closing quote: the next one not escaped by a backslash.
        let mut close = None;
        let mut escaped = false;
        for (i, c) in inner.char_indices() {
            match c {
                '\\' if !escaped => escaped = true,
                c if c == quote && !escaped => {
                    close = Some(i);
                    break;
                }
                _ => escaped = false,
            }
        }
        let Some(close) = close else {
            rest = inner;
            continue;
        };
        let quoted = &inner[..close];
        let (head, whole) = arbiter_chess::Excerpt(quoted).cut();
        out.push_str(head);
        out.push(quote);
        if let Some(n) = whole {
            out.push_str(&format!("… ({n} characters)"));
        }
        rest = &inner[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Why the first line is not a start line, and where: a line that is no
/// JSON object, or has no `"start"`, is told the form of one.
fn start_line_error(e: &serde_json::Error, at: usize) -> Misread {
    let mut misread = Misread::json(e, at);
    if misread.message.contains("`start`") || e.is_syntax() || e.is_eof() {
        misread.message = format!("expected {{\"start\": {{…}}}}: {}", misread.message);
    }
    misread
}

/// The JSON text of a line, or `None` for a blank or comment line.
fn event_text(line: &str) -> Option<&str> {
    let trimmed = line.trim();
    let skip = trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//");
    (!skip).then_some(trimmed)
}

/// Runs the judge over `input`, writing one line per input line to `output`.
pub fn run<R: BufRead, W: Write>(
    input: R,
    output: W,
    opts: Options,
) -> Result<Summary, JudgeError> {
    run_game(input, output, opts).map(|(summary, _)| summary)
}

/// [`run`], also returning the game as judged (for its record,
/// [`crate::record::to_pgn`]).
///
/// ```
/// use arbiter_laws::{judge::{self, Options}, record};
/// let input = "{\"start\": {}}\n{\"t\": 1000, \"by\": \"white\", \"do\": \"resign\"}\n";
/// let (summary, game) = judge::run_game(input.as_bytes(), std::io::sink(), Options::default())?;
/// assert_eq!(summary.result.as_deref(), Some("0-1"));
/// assert!(record::to_pgn(&game).to_pgn().contains("[Result \"0-1\"]"));
/// # Ok::<_, arbiter_laws::judge::JudgeError>(())
/// ```
pub fn run_game<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    opts: Options,
) -> Result<(Summary, Game), JudgeError> {
    // One buffer for all lines; `i` counts lines from 0. A line is its text,
    // or why it has none (longer than MAX_LINE, not UTF-8): refused as a
    // line that is not an event is, and the judging goes on.
    let mut line = String::new();
    let mut bytes = Vec::new();
    let mut i = 0;
    let mut next_line =
        |line: &mut String| -> Result<Option<(usize, Option<Misread>)>, JudgeError> {
            line.clear();
            let Some(whole) = read_bounded(&mut input, &mut bytes)? else {
                return Ok(None);
            };
            i += 1;
            let unreadable = if !whole {
                let start = String::from_utf8_lossy(&bytes[..bytes.len().min(QUOTED)]);
                Some(Misread::whole(format!(
                "longer than {MAX_LINE} bytes, the most a line may have: skipped (it starts: {start}…)"
            )))
            } else {
                match std::str::from_utf8(&bytes) {
                    Ok(text) => {
                        // A byte-order mark before the first line is no part of it.
                        let text = if i == 1 {
                            text.trim_start_matches('\u{FEFF}')
                        } else {
                            text
                        };
                        line.push_str(text);
                        None
                    }
                    Err(e) => Some(Misread::whole(format!(
                        "not UTF-8 text (byte {}, 0x{:02x})",
                        e.valid_up_to() + 1,
                        bytes[e.valid_up_to()]
                    ))),
                }
            };
            Ok(Some((i - 1, unreadable)))
        };
    let mut game = loop {
        let Some((i, unreadable)) = next_line(&mut line)? else {
            return Err(JudgeError::Empty);
        };
        if let Some(misread) = unreadable {
            return Err(misread.start_error(i + 1));
        }
        let Some(trimmed) = event_text(&line) else {
            continue;
        };
        let start: StartLine = serde_json::from_str(trimmed)
            .map_err(|e| start_line_error(&e, offset_in(&line, trimmed)).start_error(i + 1))?;
        let game = start
            .start
            .to_start()
            .and_then(Game::new)
            .map_err(|e| Misread::whole(e.to_string()).start_error(i + 1))?;
        Line {
            ok: true,
            class: Some(game.time_class().name()),
            edition: Some(game.rules().edition.year()),
            ..Line::default()
        }
        .state(&game, 0, opts)
        .write(&mut output)?;
        break game;
    };
    let mut summary = Summary::default();
    let mut last_t = 0;
    // The event lines (each with its 0-based number, and the event or why it
    // is not one): when reading ahead, all of them first; an I/O error then
    // ends the run after the lines before it are answered, as it does when
    // reading line by line (a line not UTF-8 or too long is only refused).
    let mut ahead = Vec::new();
    let mut unreadable = None;
    if opts.read_ahead {
        loop {
            match next_line(&mut line) {
                Ok(Some((i, Some(unreadable)))) => ahead.push((i, Err(unreadable))),
                Ok(Some((i, None))) => {
                    if let Some(trimmed) = event_text(&line) {
                        ahead.push((i, parse_event(trimmed, offset_in(&line, trimmed))));
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    unreadable = Some(e);
                    break;
                }
            }
        }
        json::read_ahead(&mut game, ahead.iter().filter_map(|(_, e)| e.as_ref().ok()));
    }
    let mut ahead = ahead.into_iter();
    loop {
        let (i, parsed) = if opts.read_ahead {
            match ahead.next() {
                Some(next) => next,
                None => break,
            }
        } else {
            match next_line(&mut line)? {
                None => break,
                Some((i, Some(unreadable))) => (i, Err(unreadable)),
                Some((i, None)) => match event_text(&line) {
                    Some(trimmed) => (i, parse_event(trimmed, offset_in(&line, trimmed))),
                    None => continue,
                },
            }
        };
        summary.events += 1;
        let event: Event = match parsed {
            Ok(e) => e,
            Err(e) => {
                summary.rejected += 1;
                let error = e.on_line(i + 1);
                Line {
                    error: Some(&error),
                    ..Line::default()
                }
                .state(&game, last_t, opts)
                .write(&mut output)?;
                continue;
            }
        };
        let t = event.t;
        // The boards a move of this event may be played on, to write it in
        // another notation than SAN.
        let boards = (opts.notation != Notation::San).then(|| {
            let on_move = event.by.and_then(|by| game.move_board(by).ok());
            (on_move, *game.position(), game.moves().len())
        });
        match json::apply(&mut game, &event) {
            Ok(applied) => {
                last_t = t;
                let written = boards.and_then(|b| written_move(&game, b, opts.notation));
                Line {
                    ok: true,
                    t: Some(t),
                    mv: written.as_deref().or(applied.san.as_deref()),
                    claim: applied.claim.map(|c| c.name()),
                    penalty: applied.penalty.map(|p| PenaltyOut {
                        player: color_name(p.to),
                        ms: p.ms,
                        article: p.article.as_str(),
                    }),
                    note: applied.note.as_deref(),
                    ..Line::default()
                }
                .state(&game, t, opts)
                .write(&mut output)?;
            }
            Err(e) => {
                summary.rejected += 1;
                let error = format!("line {}: {e}", i + 1);
                Line {
                    t: Some(t),
                    error: Some(&error),
                    ..Line::default()
                }
                .state(&game, t.max(last_t), opts)
                .write(&mut output)?;
            }
        }
    }
    if let Some(e) = unreadable {
        return Err(e);
    }
    summary.result = game.outcome().map(|o| o.result.to_string());
    Ok((summary, game))
}
