//! Moves.

use crate::{Role, Square};
use std::fmt;

/// A move: a piece goes from one square to another, perhaps promoting.
///
/// Castling is encoded as "king takes own rook": `from` is the king's square and
/// `to` the castling rook's square, in standard chess and Chess960 alike. This
/// keeps every move unambiguous whatever the variant; [`crate::uci`] converts to
/// `e1g1` for standard chess. En passant is the capturing pawn's move to the
/// en-passant square. The position knows which piece moves and what it captures
/// (see [`crate::Position::role_at`], [`crate::Position::is_capture`]).
///
/// ```
/// use arbiter_chess::{Move, Position, Role, Square};
/// let m = Move::new(Square::G1, Square::F3);
/// let mut pos = Position::standard();
/// assert!(pos.is_legal(m));
/// assert_eq!(pos.san(m), "Nf3");
/// pos.play(m)?;
/// assert_eq!(pos.role_at(Square::F3), Some(Role::Knight));
/// // A promotion names the new piece (Art. 3.7 e).
/// let p = Move::promote(Square::E7, Square::E8, Role::Queen);
/// assert_eq!(Move::from_u16(p.to_u16()), p);
/// # Ok::<_, arbiter_chess::IllegalMoveError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square the piece arrives on (for castling, the rook's square).
    pub to: Square,
    /// The piece a pawn is exchanged for on the last rank (Art. 3.7 e).
    pub promotion: Option<Role>,
}

impl Move {
    /// A move without promotion.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promotion: None,
        }
    }

    /// A promotion move.
    #[inline]
    pub const fn promote(from: Square, to: Square, role: Role) -> Move {
        Move {
            from,
            to,
            promotion: Some(role),
        }
    }

    /// Packs the move into 16 bits: 6 for `from`, 6 for `to`, 4 for the promotion.
    #[inline]
    pub const fn to_u16(self) -> u16 {
        let promo = match self.promotion {
            None => 0,
            Some(r) => r as u16,
        };
        self.from.index() as u16 | (self.to.index() as u16) << 6 | promo << 12
    }

    /// Unpacks a move packed by [`Move::to_u16`]. Promotions to pawn or king become `None`.
    #[inline]
    pub const fn from_u16(v: u16) -> Move {
        let promotion = match v >> 12 {
            1 => Some(Role::Knight),
            2 => Some(Role::Bishop),
            3 => Some(Role::Rook),
            4 => Some(Role::Queen),
            _ => None,
        };
        Move {
            from: Square::new((v & 63) as u32),
            to: Square::new(((v >> 6) & 63) as u32),
            promotion,
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl fmt::Display for Move {
    /// Writes the internal form: like UCI, with castling as king-takes-rook.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A list of moves on the stack; no position has more than 218 legal moves.
///
/// ```
/// use arbiter_chess::{MoveList, Position};
/// let moves: MoveList = Position::standard().legal_moves(); // on the stack, no allocation
/// assert_eq!(moves.len(), 20);
/// ```
pub type MoveList = arrayvec::ArrayVec<Move, 256>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_round_trip() {
        for m in [
            Move::new(Square::E2, Square::E4),
            Move::promote(Square::A7, Square::B8, Role::Knight),
            Move::promote(Square::H2, Square::H1, Role::Queen),
        ] {
            assert_eq!(Move::from_u16(m.to_u16()), m);
        }
    }
}
