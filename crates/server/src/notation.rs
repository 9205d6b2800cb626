//! Move text for the wire (protocol §5) written without allocation: square
//! names, UCI and SAN into small inline buffers. The event
//! after every move lists all legal moves with their SAN, so this runs some
//! thirty times per move; `arbiter-chess` decides and spells the text
//! ([`UciMove`], [`SanPlus`] and their `Display`), written here into a
//! [`Short`] instead of a `String`.

use arbiter_chess::san::SanPlus;
use arbiter_chess::uci::UciMove;
use arbiter_chess::{Move, Position, Role, Square};
use serde::{Serialize, Serializer};
use std::fmt::{self, Write as _};

/// `"e4"` for e4: the core's file and rank letters, into an inline
/// buffer (no allocation, and no formatter: this runs for every square of
/// every legal move sent, where `write!` was a tenth of a move's cost —
/// callgrind, docs/performance.md 2026-12-03).
pub fn square_name(sq: Square) -> Short {
    let mut out = Short::EMPTY;
    out.push_square(sq);
    out
}

/// The lowercase promotion letter, `'q'`, `'r'`, `'b'` or `'n'` (the core's
/// UCI letter).
pub fn promotion_name(role: Role) -> char {
    role.char()
}

/// Longest text held: SAN such as `Qa1xb2=Q#` needs nine bytes.
const CAP: usize = 12;

/// Short ASCII text (a UCI or SAN move) held inline; serialises as a string.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Short {
    buf: [u8; CAP],
    len: u8,
}

impl Short {
    const EMPTY: Short = Short {
        buf: [0; CAP],
        len: 0,
    };

    fn push(&mut self, s: &str) {
        let end = (self.len as usize + s.len()).min(CAP);
        let n = end - self.len as usize;
        self.buf[self.len as usize..end].copy_from_slice(&s.as_bytes()[..n]);
        self.len = end as u8;
    }

    fn push_char(&mut self, c: char) {
        let mut buf = [0; 4];
        self.push(c.encode_utf8(&mut buf));
    }

    fn push_square(&mut self, sq: Square) {
        self.push_char(sq.file().char());
        self.push_char(sq.rank().char());
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Only ASCII is ever pushed.
        std::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or("")
    }
}

impl fmt::Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for Short {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Short {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Serialize for Short {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl fmt::Write for Short {
    /// Appends `s`, cut at the capacity (no move text is that long).
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push(s);
        Ok(())
    }
}

/// The UCI text of `m`, legal in `pos` (as [`Position::uci`] writes it:
/// `e1g1` for standard castling, king takes rook in Chess960): the core's
/// `Display`, written into the inline buffer.
pub fn uci(pos: &Position, m: Move) -> Short {
    let mut out = Short::EMPTY;
    // The core's squares and letter, laid out as its `Display` does, without
    // the formatter (see `square_name`); `uci_and_san_match_the_core` checks.
    match UciMove::from_move(pos, m) {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => {
            out.push_square(from);
            out.push_square(to);
            if let Some(p) = promotion {
                out.push_char(p.char());
            }
        }
        UciMove::Null => out.push("0000"),
    }
    out
}

/// The strict English SAN of `m`, legal in `pos`, with `+` or `#` (as
/// [`Position::san`] writes it): the core's `Display`, into the buffer.
pub fn san(pos: &Position, m: Move) -> Short {
    let mut out = Short::EMPTY;
    let _ = write!(out, "{}", SanPlus::from_move(pos, m));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    #[test]
    fn square_names_follow_the_core() {
        for i in 0..64 {
            let sq = Square::new(i);
            assert_eq!(square_name(sq).as_str(), sq.to_string());
        }
    }

    /// Every legal move of random games (standard and Chess960, seed 7):
    /// the same text as the core's `uci` and `san`.
    #[test]
    fn uci_and_san_match_the_core() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut checked = 0;
        for g in 0..60u32 {
            let mut pos = if g % 3 == 0 {
                Position::chess960(g * 16 % 960).unwrap()
            } else {
                Position::standard()
            };
            for _ in 0..200 {
                let moves = pos.legal_moves();
                for &m in moves.iter() {
                    assert_eq!(uci(&pos, m).as_str(), pos.uci(m));
                    assert_eq!(san(&pos, m).as_str(), pos.san(m));
                    checked += 1;
                }
                let Some(&m) = moves.as_slice().choose(&mut rng) else {
                    break;
                };
                pos.play_unchecked(m);
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
