//! Touch-move (FIDE Art. 4.3–4.5; 2014 lettering 4.3 a–c, 4.4 a–c, 4.5;
//! 2018/2023 4.3.1–4.3.3, 4.4.1–4.4.3, 4.5).
//!
//! The player having the move who deliberately touches pieces must:
//!
//! - 4.3 a / 4.3.1 own pieces: move the first touched piece that can be moved;
//! - 4.3 b / 4.3.2 opponent's pieces: capture the first touched piece that
//!   can be captured;
//! - 4.3 c / 4.3.3 one of each colour: capture the touched opponent piece
//!   with the touched own piece (own piece counts as touched first if the
//!   order is unclear); if that is illegal, move or capture the first
//!   touched piece that can be moved or captured;
//! - 4.4 a / 4.4.1 king then rook: castle on that side if legal; 4.4 c /
//!   4.4.3 if that castling is illegal, make another legal king move
//!   (castling with the other rook included); if the king has no legal move,
//!   free choice;
//! - 4.4 b / 4.4.2 rook then king: no castling with that rook on this move;
//!   4.3 a applies (the rook, touched first, must move if it can);
//! - 4.5 if none of the touched pieces can be moved or captured: any legal move.
//!
//! [`Touched`] records the touches of one turn and computes the moves they
//! allow.

use arbiter_chess::{Color, Move, Position, Role, Square};

/// What the touches of this turn oblige the player to do.
///
/// ```
/// use arbiter_chess::{Position, Square};
/// use arbiter_laws::touch::{Obligation, Touched};
/// let pos = Position::standard();
/// let mut touched = Touched::new();
/// assert_eq!(touched.obligation(&pos, "4.3", "4.4"), Obligation::Free);
/// // The b1 knight touched: it must move (4.3 a).
/// touched.touch(&pos, Square::B1)?;
/// let Obligation::OneOf(moves, article) = touched.obligation(&pos, "4.3", "4.4") else {
///     panic!("the knight can move");
/// };
/// assert_eq!(article, "4.3");
/// assert_eq!(moves.len(), 2); // Na3, Nc3
/// assert!(moves.iter().all(|m| m.from == Square::B1));
/// # Ok::<_, arbiter_laws::touch::TouchError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Obligation {
    /// No touch, or none of the touched pieces can be moved or captured (4.5).
    Free,
    /// Only these moves are allowed; the Article that says so.
    OneOf(Vec<Move>, &'static str),
}

/// The pieces touched by the player having the move, in order.
///
/// ```
/// use arbiter_chess::{Position, Square};
/// use arbiter_laws::touch::Touched;
/// let pos = Position::standard();
/// let mut touched = Touched::new();
/// touched.touch(&pos, Square::E2)?;
/// touched.touch(&pos, Square::D7)?; // an opponent's piece
/// touched.touch(&pos, Square::E2)?; // touching again changes nothing
/// assert_eq!(touched.squares(), &[Square::E2, Square::D7]);
/// touched.clear();
/// assert!(touched.is_empty());
/// # Ok::<_, arbiter_laws::touch::TouchError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Touched {
    squares: Vec<Square>,
}

/// A touch that cannot be recorded.
///
/// ```
/// use arbiter_chess::{Position, Square};
/// use arbiter_laws::touch::{TouchError, Touched};
/// let mut touched = Touched::new();
/// let err = touched.touch(&Position::standard(), Square::E4).unwrap_err();
/// assert_eq!(err, TouchError::Empty(Square::E4));
/// assert_eq!(err.to_string(), "there is no piece on e4 to touch");
/// assert!(touched.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TouchError {
    /// There is no piece on the square.
    #[error("there is no piece on {0} to touch")]
    Empty(Square),
}

impl Touched {
    /// No piece touched.
    pub fn new() -> Touched {
        Touched::default()
    }

    /// `true` if no piece has been touched.
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// The touched squares in order.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// Records a deliberate touch of the piece on `sq` by the player having
    /// the move. Touching a piece again changes nothing.
    pub fn touch(&mut self, pos: &Position, sq: Square) -> Result<(), TouchError> {
        if pos.piece_at(sq).is_none() {
            return Err(TouchError::Empty(sq));
        }
        if !self.squares.contains(&sq) {
            self.squares.push(sq);
        }
        Ok(())
    }

    /// Forgets the touches (the move has been made).
    pub fn clear(&mut self) {
        self.squares.clear();
    }

    /// The moves the touches allow in `pos` (with `articles`: 4.3 and 4.4 as
    /// cited by the edition).
    pub fn obligation(
        &self,
        pos: &Position,
        art_43: &'static str,
        art_44: &'static str,
    ) -> Obligation {
        let us = pos.turn();
        let own: Vec<Square> = self
            .squares
            .iter()
            .copied()
            .filter(|&s| pos.board().color_at(s) == Some(us))
            .collect();
        let theirs: Vec<Square> = self
            .squares
            .iter()
            .copied()
            .filter(|&s| pos.board().color_at(s) == Some(!us))
            .collect();
        if own.is_empty() && theirs.is_empty() {
            return Obligation::Free;
        }
        let legal = pos.legal_moves();
        let only = |f: &dyn Fn(&Move) -> bool| -> Vec<Move> {
            legal.iter().copied().filter(|m| f(m)).collect()
        };

        // 4.4: king and rook of the player's own colour.
        if let (Some(&first), true) = (own.first(), own.len() >= 2) {
            let role = |s: Square| pos.role_at(s);
            let king = pos.king_of(us);
            if first == king {
                if let Some(&rook) = own[1..].iter().find(|&&s| role(s) == Some(Role::Rook)) {
                    // 4.4 a / 4.4.1: castle with that rook if legal.
                    let castle = only(&|m| m.from == king && m.to == rook && pos.is_castling(*m));
                    if !castle.is_empty() {
                        return Obligation::OneOf(castle, art_44);
                    }
                    // 4.4 c / 4.4.3: another legal king move, else free.
                    let king_moves = only(&|m| m.from == king);
                    if !king_moves.is_empty() {
                        return Obligation::OneOf(king_moves, art_44);
                    }
                    return Obligation::Free;
                }
            } else if role(first) == Some(Role::Rook) && own[1..].contains(&king) {
                // 4.4 b / 4.4.2: no castling with this rook; 4.3 a applies.
                let rook = first;
                for &s in &own {
                    let moves = only(&|m| m.from == s && !(s == king && m.to == rook));
                    if !moves.is_empty() {
                        return Obligation::OneOf(moves, art_44);
                    }
                }
                return Obligation::Free;
            }
        }

        let captures_of = |target: Square| {
            only(&|m| !pos.is_castling(*m) && captured_square(pos, *m) == Some(target))
        };
        let moves_of = |piece: Square| only(&|m| m.from == piece);

        if !own.is_empty() && !theirs.is_empty() {
            // 4.3 c / 4.3.3: capture the touched opponent piece with the touched own piece.
            let with = only(&|m| {
                m.from == own[0]
                    && !pos.is_castling(*m)
                    && captured_square(pos, *m) == Some(theirs[0])
            });
            if !with.is_empty() {
                return Obligation::OneOf(with, art_43);
            }
            // Otherwise the first touched piece that can be moved or captured.
            for &s in &self.squares {
                let moves = if pos.board().color_at(s) == Some(us) {
                    moves_of(s)
                } else {
                    captures_of(s)
                };
                if !moves.is_empty() {
                    return Obligation::OneOf(moves, art_43);
                }
            }
            return Obligation::Free;
        }
        if !own.is_empty() {
            // 4.3 a / 4.3.1.
            for &s in &own {
                let moves = moves_of(s);
                if !moves.is_empty() {
                    return Obligation::OneOf(moves, art_43);
                }
            }
            return Obligation::Free;
        }
        // 4.3 b / 4.3.2.
        for &s in &theirs {
            let moves = captures_of(s);
            if !moves.is_empty() {
                return Obligation::OneOf(moves, art_43);
            }
        }
        Obligation::Free
    }
}

/// The square of the piece a legal move `m` captures, if it captures: its
/// arrival square, or for an en-passant capture the square of the pawn
/// taken "as though the latter had been moved only one square" (3.7 d), so
/// that a pawn capturable only en passant is capturable for 4.3 b and c.
pub fn captured_square(pos: &Position, m: Move) -> Option<Square> {
    if pos.is_en_passant(m) {
        Some(Square::from_coords(m.to.file(), m.from.rank()))
    } else if pos.is_capture(m) {
        Some(m.to)
    } else {
        None
    }
}

/// `true` if `color`'s piece stands on `sq` in `pos`.
pub fn is_own(pos: &Position, sq: Square, color: Color) -> bool {
    pos.board().color_at(sq) == Some(color)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen_auto(fen).unwrap()
    }

    fn allowed(p: &Position, touches: &[&str]) -> Option<Vec<String>> {
        let mut t = Touched::new();
        for s in touches {
            t.touch(p, s.parse().unwrap()).unwrap();
        }
        match t.obligation(p, "4.3", "4.4") {
            Obligation::Free => None,
            Obligation::OneOf(ms, _) => {
                let mut v: Vec<String> = ms.iter().map(|m| p.uci(*m)).collect();
                v.sort();
                Some(v)
            }
        }
    }

    #[test]
    fn own_piece_must_move() {
        let p = Position::standard();
        assert_eq!(allowed(&p, &["g1"]).unwrap(), ["g1f3", "g1h3"]);
        // A piece that cannot move: the next touched one that can.
        assert_eq!(allowed(&p, &["a1", "b1"]).unwrap(), ["b1a3", "b1c3"]);
        // None can move: free choice (4.5).
        assert_eq!(allowed(&p, &["a1", "d1"]), None);
    }

    #[test]
    fn king_then_rook_castles() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(allowed(&p, &["e1", "h1"]).unwrap(), ["e1g1"]);
        assert_eq!(allowed(&p, &["e1", "a1"]).unwrap(), ["e1c1"]);
        // Rook then king: the rook must move, no castling with it.
        let r = allowed(&p, &["h1", "e1"]).unwrap();
        assert!(r.iter().all(|m| m.starts_with("h1")));
    }

    #[test]
    fn king_then_rook_castling_illegal_other_king_move() {
        // The f1 square is attacked: no castling king side; queen side allowed.
        let p = pos("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");
        let r = allowed(&p, &["e1", "h1"]).unwrap();
        assert!(r.contains(&"e1c1".to_owned()));
        assert!(!r.contains(&"e1g1".to_owned()));
        assert!(r.iter().all(|m| m.starts_with("e1")));
    }

    #[test]
    fn opponent_piece_must_be_captured() {
        let p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(allowed(&p, &["d5"]).unwrap(), ["e4d5"]);
        // Touching own e4 and the d5 pawn: capture it with e4.
        assert_eq!(allowed(&p, &["e4", "d5"]).unwrap(), ["e4d5"]);
    }

    #[test]
    fn a_pawn_capturable_only_en_passant_must_be_taken_art_4_3_b_and_c() {
        // White's e5 pawn may take the d5 pawn only en passant (exd6).
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let d5 = "d5".parse().unwrap();
        let e5 = "e5".parse().unwrap();
        let mut t = Touched::new();
        t.touch(&p, d5).unwrap();
        let Obligation::OneOf(ms, _) = t.obligation(&p, "4.3", "4.4") else {
            panic!("the touched pawn can be captured en passant (4.3 b)");
        };
        let sans: Vec<String> = ms.iter().map(|&m| p.san(m)).collect();
        assert_eq!(sans, ["exd6"]);
        let mut t = Touched::new();
        t.touch(&p, e5).unwrap();
        t.touch(&p, d5).unwrap();
        let Obligation::OneOf(ms, _) = t.obligation(&p, "4.3", "4.4") else {
            panic!("own pawn then the opponent's: capture with it (4.3 c)");
        };
        let sans: Vec<String> = ms.iter().map(|&m| p.san(m)).collect();
        assert_eq!(sans, ["exd6"]);
    }
}
