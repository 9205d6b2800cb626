//! The game termination marker (PGN §8.2.6; FIDE Art. 5): the bottom of the
//! crate, shared by the reader, the model and the writer.

use std::fmt;

/// The game termination marker and `Result` tag (PGN §8.2.6; FIDE Art. 5).
///
/// ```
/// use arbiter_pgn::GameResult;
/// assert_eq!(GameResult::from_pgn("1/2-1/2"), Some(GameResult::Draw));
/// // As typed by hand: an en dash, a one-half sign.
/// assert_eq!(GameResult::from_pgn("1–0"), Some(GameResult::WhiteWins));
/// assert_eq!(GameResult::from_pgn("½–½"), Some(GameResult::Draw));
/// assert_eq!(GameResult::BlackWins.to_string(), "0-1");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, or the game goes on.
    #[default]
    Unknown,
}

impl GameResult {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result as PGN writes it, or as typed by hand: `½` for `1/2`,
    /// any dash (`1–0`, `0—1`, `½‑½`).
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        let text = text.trim();
        Some(match text {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return GameResult::from_handwritten(text),
        })
    }

    /// `1–0`, `½–½`, `1/2—1/2`: the results with other dashes and `½`.
    pub(crate) fn from_handwritten(text: &str) -> Option<GameResult> {
        let mut ascii = String::with_capacity(text.len());
        for c in text.chars() {
            match c {
                '–' | '—' | '‒' | '−' | '‑' | '‐' | '-' => ascii.push('-'),
                '½' => ascii.push_str("1/2"),
                '0' | '1' | '2' | '/' => ascii.push(c),
                _ => return None,
            }
        }
        match ascii.as_str() {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
