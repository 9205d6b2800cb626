//! Moves in UCI notation: `e2e4`, `e7e8q`, `0000` for a null move.
//!
//! Castling is written `e1g1` (king to its destination) in standard chess and
//! `e1h1` (king takes its rook) in Chess960, as the UCI protocol does. Reading
//! accepts both forms whenever the meaning is unambiguous.

use crate::{CastlingMode, CastlingSide, Move, Position, Role, Square};
use std::fmt;
use std::str::FromStr;

/// A move as written in UCI, not yet checked against a position.
///
/// ```
/// use arbiter_chess::{uci::UciMove, Position, Square};
/// let m = UciMove::parse("e1g1")?;
/// assert!(matches!(m, UciMove::Normal { from: Square::E1, to: Square::G1, promotion: None }));
/// assert_eq!(UciMove::from_move(&Position::standard(), Position::standard().parse_uci("g1f3")?).to_string(), "g1f3");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// A move from one square to another, with an optional promotion.
    Normal {
        /// Origin.
        from: Square,
        /// Destination (or the rook's square for Chess960 castling).
        to: Square,
        /// Promotion piece.
        promotion: Option<Role>,
    },
    /// `0000`: no move.
    Null,
}

/// Text that is not a UCI move, with the offending character position (1-based).
///
/// ```
/// use arbiter_chess::uci::UciMove;
/// let err = UciMove::parse("e2e9").unwrap_err();
/// assert_eq!(err.column, 4);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid UCI move {} at character {column}: {message}", crate::Excerpt(.text))]
pub struct ParseUciError {
    /// The text given.
    pub text: String,
    /// 1-based character position of the first problem.
    pub column: usize,
    /// What is wrong.
    pub message: &'static str,
}

/// A UCI move that is well formed but not legal in the position.
///
/// ```
/// use arbiter_chess::{uci::UciMove, Position};
/// let err = UciMove::parse("e2e5")?.to_move(&Position::standard()).unwrap_err();
/// assert_eq!(err.uci.to_string(), "e2e5");
/// # Ok::<_, arbiter_chess::uci::ParseUciError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal UCI move {uci} in {fen}")]
pub struct IllegalUciError {
    /// The move.
    pub uci: UciMove,
    /// The position, as FEN.
    pub fen: String,
}

impl UciMove {
    /// Parses `e2e4`, `e7e8q` (promotion letter in either case) or `0000`.
    pub fn parse(text: &str) -> Result<UciMove, ParseUciError> {
        let e = |column, message| ParseUciError {
            text: text.to_owned(),
            column,
            message,
        };
        if text == "0000" {
            return Ok(UciMove::Null);
        }
        let b = text.as_bytes();
        if !text.is_ascii() {
            let col = text.chars().position(|c| !c.is_ascii()).unwrap_or(0) + 1;
            return Err(e(col, "non-ASCII character"));
        }
        if b.len() < 4 {
            return Err(e(
                b.len() + 1,
                "too short; expected four or five characters such as e2e4 or e7e8q",
            ));
        }
        if b.len() > 5 {
            return Err(e(
                6,
                "too long; expected four or five characters such as e2e4 or e7e8q",
            ));
        }
        let square = |i: usize| -> Result<Square, ParseUciError> {
            if !(b'a'..=b'h').contains(&b[i]) {
                return Err(e(i + 1, "expected a file a-h"));
            }
            if !(b'1'..=b'8').contains(&b[i + 1]) {
                return Err(e(i + 2, "expected a rank 1-8"));
            }
            Square::from_ascii(&b[i..i + 2]).ok_or_else(|| e(i + 1, "expected a square"))
        };
        let from = square(0)?;
        let to = square(2)?;
        let promotion = match b.get(4) {
            None => None,
            Some(&c) => match Role::from_char(c as char) {
                Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => Some(r),
                _ => return Err(e(5, "expected a promotion piece q, r, b or n")),
            },
        };
        if from == to {
            return Err(e(3, "origin and destination are the same square"));
        }
        Ok(UciMove::Normal {
            from,
            to,
            promotion,
        })
    }

    /// Writes `m` (legal in `pos`) in UCI: `e1g1` for standard castling,
    /// `e1h1` (king takes rook) in Chess960 mode.
    pub fn from_move(pos: &Position, m: Move) -> UciMove {
        let to = match (pos.castling_mode(), pos.castling_side(m)) {
            (CastlingMode::Standard, Some(side)) => side.king_to(pos.turn()),
            _ => m.to,
        };
        UciMove::Normal {
            from: m.from,
            to,
            promotion: m.promotion,
        }
    }

    /// The legal move this stands for in `pos`. Castling is recognised both as
    /// king-takes-rook and as the king's two-square step when nothing else fits.
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalUciError> {
        let illegal = || IllegalUciError {
            uci: *self,
            fen: pos.fen(),
        };
        let UciMove::Normal {
            from,
            to,
            promotion,
        } = *self
        else {
            return Err(illegal());
        };
        let m = Move {
            from,
            to,
            promotion,
        };
        if pos.is_legal(m) {
            return Ok(m);
        }
        // The king's own step to its castling destination (e1g1, or in Chess960
        // any king move that is only possible as castling).
        if promotion.is_none()
            && pos.board().kings().contains(from)
            && from == pos.king_of(pos.turn())
        {
            for side in CastlingSide::ALL {
                if side.king_to(pos.turn()) != to {
                    continue;
                }
                if let Some(rook) = pos.castling_rook(pos.turn(), side) {
                    let castle = Move::new(from, rook);
                    if pos.is_legal(castle) {
                        return Ok(castle);
                    }
                }
            }
        }
        Err(illegal())
    }
}

impl FromStr for UciMove {
    type Err = ParseUciError;
    fn from_str(s: &str) -> Result<UciMove, ParseUciError> {
        UciMove::parse(s)
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMove::Null => f.write_str("0000"),
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(p) = promotion {
                    write!(f, "{}", p.char())?;
                }
                Ok(())
            }
        }
    }
}

impl Position {
    /// The UCI text of `m` (legal here), per this position's castling mode.
    pub fn uci(&self, m: Move) -> String {
        UciMove::from_move(self, m).to_string()
    }

    /// Parses and resolves a UCI move.
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        Ok(UciMove::parse(text)?.to_move(self)?)
    }
}

/// A UCI move that is unreadable or illegal.
///
/// ```
/// use arbiter_chess::{Position, UciError};
/// let pos = Position::standard();
/// assert!(matches!(pos.parse_uci("e2"), Err(UciError::Parse(_))));
/// assert!(matches!(pos.parse_uci("e2e5"), Err(UciError::Illegal(_))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciError {
    /// Not UCI syntax.
    #[error(transparent)]
    Parse(#[from] ParseUciError),
    /// Not legal in the position.
    #[error(transparent)]
    Illegal(#[from] IllegalUciError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_both_forms() {
        let pos = Position::from_fen_auto("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let m = pos.parse_uci("e1g1").unwrap();
        assert_eq!(m, Move::new(Square::E1, Square::H1));
        assert_eq!(pos.parse_uci("e1h1").unwrap(), m);
        assert_eq!(pos.uci(m), "e1g1");
        let mut c960 = pos;
        c960.set_castling_mode(CastlingMode::Chess960).unwrap();
        assert_eq!(c960.uci(m), "e1h1");
        assert_eq!(
            c960.parse_uci("e1c1").unwrap(),
            Move::new(Square::E1, Square::A1)
        );
    }

    #[test]
    fn errors() {
        assert_eq!(UciMove::parse("e2e").unwrap_err().column, 4);
        assert_eq!(UciMove::parse("e2e9").unwrap_err().column, 4);
        assert_eq!(UciMove::parse("e7e8k").unwrap_err().column, 5);
        assert_eq!(UciMove::parse("i2e4").unwrap_err().column, 1);
        assert_eq!(UciMove::parse("0000").unwrap(), UciMove::Null);
        assert!(Position::standard().parse_uci("e2e5").is_err());
        assert!(Position::standard().parse_uci("0000").is_err());
    }
}
