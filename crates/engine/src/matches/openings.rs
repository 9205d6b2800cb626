//! Opening sets: EPD/FEN lines, or PGN games whose moves (from the initial
//! position or a `FEN` tag) lead to the start position. Each opening is
//! played twice, colours swapped.

use arbiter_chess::{CastlingMode, Move, Position};
use std::fmt;

/// A start for a game pair: a position and the moves that led to it.
///
/// ```
/// use arbiter_engine::matches::openings::{read, Opening};
///
/// // An EPD line (operations after the four fields are ignored) …
/// let epd = read("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n").unwrap();
/// assert_eq!(epd.len(), 1);
/// assert!(epd[0].moves.is_empty() && !epd[0].is_chess960());
///
/// // … and the same position reached by a PGN game's moves.
/// let pgn = read("1. e4 *\n").unwrap();
/// assert_eq!(pgn[0].start, Opening::standard().start);
/// assert_eq!(pgn[0].moves.len(), 1);
/// assert_eq!(pgn[0].position().fen(), epd[0].start.fen());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position the moves start from.
    pub start: Position,
    /// Moves already played (sent to the engines, written in the PGN).
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard initial position with no moves.
    pub fn standard() -> Opening {
        Opening {
            start: Position::standard(),
            moves: Vec::new(),
        }
    }

    /// The position after the moves.
    pub fn position(&self) -> Position {
        let mut p = self.start;
        for &m in &self.moves {
            p.play_unchecked(m);
        }
        p
    }

    /// `true` if castling must be written king-takes-rook.
    pub fn is_chess960(&self) -> bool {
        self.start.castling_mode() == CastlingMode::Chess960
    }
}

/// An opening file that cannot be read.
///
/// ```
/// use arbiter_engine::matches::openings::read_epd;
///
/// let text = "# two openings\n\
///             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
///             rnbqkbnr/pppppppp w\n";
/// let err = read_epd(text).unwrap_err();
/// assert_eq!(err.line, 3);
/// assert_eq!(
///     err.to_string(),
///     "openings, line 3: expected at least four FEN fields, found 2"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct OpeningError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "openings, line {}: {}", self.line, self.message)
    }
}

/// Reads EPD or FEN lines: the first four fields (or six) are the position;
/// anything after (EPD operations) is ignored. Blank lines and lines starting
/// with `#` are skipped.
pub fn read_epd(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(OpeningError {
                line: i + 1,
                message: format!("expected at least four FEN fields, found {}", fields.len()),
            });
        }
        let counters_given = fields.len() >= 6
            && fields[4].parse::<u32>().is_ok()
            && fields[5].parse::<u32>().is_ok();
        let fen = if counters_given {
            fields[..6].join(" ")
        } else {
            format!("{} 0 1", fields[..4].join(" "))
        };
        let start = Position::from_fen_auto(&fen).map_err(|e| OpeningError {
            line: i + 1,
            message: format!("{e}"),
        })?;
        out.push(Opening {
            start,
            moves: Vec::new(),
        });
    }
    Ok(out)
}

/// Reads the main line of each game of a PGN file (with `arbiter-pgn`'s
/// reader): the start (initial position, or the `FEN` and `Variant` tags) and
/// the moves; comments and variations are ignored.
pub fn read_pgn(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for game in arbiter_pgn::Reader::new(text.as_bytes()).games() {
        let game = game.map_err(|e| OpeningError {
            line: 0,
            message: e.to_string(),
        })?;
        if let Some(e) = &game.error {
            return Err(OpeningError {
                line: e.location.line as usize,
                message: e.to_string(),
            });
        }
        out.push(Opening {
            start: game.start,
            moves: game.mainline().collect(),
        });
    }
    Ok(out)
}

/// Reads an opening file, PGN if it looks like PGN (a tag or a move number),
/// EPD otherwise.
pub fn read(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    if first.starts_with('[') || first.starts_with("1.") {
        read_pgn(text)
    } else {
        read_epd(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines() {
        let text = "# test\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\n\
                    rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n";
        let o = read(text).unwrap();
        assert_eq!(o.len(), 2);
        assert!(!o[0].is_chess960());
        let err = read("rnbqkbnr/pppppppp w\n").unwrap_err();
        assert_eq!(err.line, 1);
        let err = read("# x\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n8/8/8/8/8/8/8/8 w - -\n").unwrap_err();
        assert_eq!(err.line, 3);
    }

    #[test]
    fn pgn_games() {
        let text = r#"[Event "a"]
[Result "*"]

1. e4 {best by test} e5 2. Nf3 (2. f4 exf4) Nc6 $1 *

[Event "b"]
[FEN "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"]

2. Nf3 Nc6 3. Bb5 a6 1/2-1/2
"#;
        let o = read(text).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves.len(), 4);
        assert_eq!(o[1].moves.len(), 4);
        assert_eq!(
            o[1].position().fen(),
            "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
        );
        let err = read("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.message.contains("Ke3"), "{}", err.message);
        // Found by fuzzing: a non-ASCII move is an error, not a panic.
        assert!(read("1. e\u{36e}4 *\n").is_err());
    }
}
