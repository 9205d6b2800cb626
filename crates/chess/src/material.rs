//! Insufficient material: positions that are dead (FIDE 2014, Art. 5.2 b;
//! 2018 and 2023, Art. 5.2.2) or in which one side cannot mate (Art. 6.9),
//! by the material on the board alone.
//!
//! A checkmate needs a piece that gives check and enough control of the
//! squares around the mated king. Two classical results of endgame theory
//! (the basis of the "insufficient material" rules of python-chess, Lichess
//! and the arbiters' practice):
//!
//! 1. A king with at most a single knight or a single bishop, and no other
//!    piece, cannot checkmate a lone king, even with the opponent's help:
//!    one minor piece and a king never cover the mated king's square and all
//!    its flight squares at once.
//! 2. If there are no pawns and every piece besides the kings is a bishop,
//!    all on squares of one colour, nobody can ever be checkmated: only a
//!    bishop can give check, so the mated king stands on that colour, and of
//!    its orthogonal neighbours (at least two, all of the other colour) no
//!    bishop attacks or occupies any, while the opposing king, never
//!    adjacent to it, cannot cover them all.
//!
//! Neither result depends on whose move it is, and both stay true after
//! every move (no piece can be added), so such positions are dead for good.
//! These are sufficient conditions, not the whole of Art. 5.2 b: a locked
//! pawn wall is dead with queens on the board. `arbiter-laws` decides dead
//! positions exactly and asks these first.

use crate::{Bitboard, Color, Position};

impl Position {
    /// Material with which no series of legal moves can ever mate, whoever
    /// has it: no pawns and at most one knight or bishop in all, or no pawns
    /// and only bishops, all on squares of one colour (results 1 and 2 of the
    /// [module documentation](crate::material)). Such positions are dead
    /// (Art. 5.2 b / 5.2.2).
    ///
    /// ```
    /// use arbiter_chess::Position;
    /// // King and bishop against king: dead.
    /// let p = Position::from_fen_auto("8/8/4k3/8/8/3K4/8/5B2 w - - 0 1")?;
    /// assert!(p.is_insufficient_material());
    /// // Bishops on squares of both colours can mate (with help).
    /// let p = Position::from_fen_auto("8/1b6/4k3/8/8/3K4/8/2B5 w - - 0 1")?;
    /// assert!(!p.is_insufficient_material());
    /// assert!(!Position::standard().is_insufficient_material());
    /// # Ok::<_, arbiter_chess::FenError>(())
    /// ```
    #[inline]
    pub fn is_insufficient_material(&self) -> bool {
        let b = self.board();
        if (b.pawns() | b.rooks() | b.queens()).any() {
            return false;
        }
        let minors = b.knights() | b.bishops();
        if minors.count() <= 1 {
            return true;
        }
        b.knights().is_empty()
            && (b.bishops().is_subset(Bitboard::LIGHT) || b.bishops().is_subset(Bitboard::DARK))
    }

    /// `true` if `color` can certainly not checkmate, by material alone: a
    /// lone king (a king never gives check), a king with one knight against a
    /// lone king (result 1), or a king with bishops all on one colour against
    /// a lone king (result 2). The one-sided question of Art. 6.9 (a flag
    /// fall) and 2023 Art. 5.1.2 (a resignation).
    ///
    /// ```
    /// use arbiter_chess::{Color, Position};
    /// // King and knight against king and pawn: the knight can mate (with
    /// // help), the pawn can promote.
    /// let p = Position::from_fen_auto("8/8/4k3/8/8/3K4/6p1/6N1 w - - 0 1")?;
    /// assert!(!p.cannot_mate_by_material(Color::White));
    /// // King and knight against a lone king: neither side can mate.
    /// let p = Position::from_fen_auto("8/8/4k3/8/8/3K4/8/6N1 w - - 0 1")?;
    /// assert!(p.cannot_mate_by_material(Color::White));
    /// assert!(p.cannot_mate_by_material(Color::Black));
    /// # Ok::<_, arbiter_chess::FenError>(())
    /// ```
    pub fn cannot_mate_by_material(&self, color: Color) -> bool {
        let b = self.board();
        let ours = b.by_color(color);
        let theirs = b.by_color(!color);
        if (ours & !b.kings()).is_empty() {
            return true;
        }
        if (theirs & !b.kings()).any() {
            return false;
        }
        (ours & b.pawns()).is_empty() && self.pieces_cannot_mate_lone_king(color)
    }

    /// `true` if `color`'s pieces besides its pawns cannot checkmate a lone
    /// king: no rook or queen, and at most one knight and no bishop (result
    /// 1), or no knight and bishops all on one colour (result 2), or none.
    /// With pawns, such a side mates a lone king only once a pawn has
    /// promoted.
    ///
    /// ```
    /// use arbiter_chess::{Color, Position};
    /// // Bishops on dark squares and a pawn: the pawn must promote first.
    /// let p = Position::from_fen_auto("1K6/8/5b2/8/6p1/8/8/k5b1 b - - 0 1")?;
    /// assert!(p.pieces_cannot_mate_lone_king(Color::Black));
    /// assert!(!p.cannot_mate_by_material(Color::Black));
    /// // Bishop and knight mate a lone king.
    /// let p = Position::from_fen_auto("1K6/8/5b2/8/8/8/8/k5n1 b - - 0 1")?;
    /// assert!(!p.pieces_cannot_mate_lone_king(Color::Black));
    /// # Ok::<_, arbiter_chess::FenError>(())
    /// ```
    pub fn pieces_cannot_mate_lone_king(&self, color: Color) -> bool {
        let b = self.board();
        let ours = b.by_color(color);
        if (ours & (b.rooks() | b.queens())).any() {
            return false;
        }
        let knights = ours & b.knights();
        let bishops = ours & b.bishops();
        (knights.count() <= 1 && bishops.is_empty())
            || (knights.is_empty()
                && (bishops.is_subset(Bitboard::LIGHT) || bishops.is_subset(Bitboard::DARK)))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Color, Position};

    fn pos(fen: &str) -> Position {
        Position::from_fen_auto(fen).unwrap()
    }

    /// The boundaries of both results (each checked against the exact
    /// solver in `arbiter-laws`' `tests/dead_position_corpus.rs` as well).
    #[test]
    fn boundaries() {
        // Dead: K v K, K+N v K, K+B v K, bishops of one colour on both sides.
        for fen in [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/6N1 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/6n1 b - - 0 1",
            "8/8/4k3/8/8/3K4/8/5B2 w - - 0 1",
            "8/2b5/4k3/8/8/3K4/8/2B1B3 w - - 0 1",
            "b7/1b6/4k3/8/8/3K4/8/7B w - - 0 1",
        ] {
            assert!(pos(fen).is_insufficient_material(), "{fen}");
        }
        // Not dead by this rule: bishops on both colours, two knights, a
        // knight with a bishop, a knight on each side, any pawn, rook or queen.
        for fen in [
            "8/1b6/4k3/8/8/3K4/8/2B5 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/5NN1 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/5BN1 w - - 0 1",
            "8/8/4k1n1/8/8/3K4/8/6N1 w - - 0 1",
            "8/8/4k3/8/8/3K4/6P1/8 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/6R1 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/6q1 w - - 0 1",
        ] {
            assert!(!pos(fen).is_insufficient_material(), "{fen}");
        }
    }

    #[test]
    fn one_side() {
        // A lone king never mates; K+N and K+B(s of one colour) against a
        // lone king never mate; against any other piece they can.
        let p = pos("8/8/4k3/8/8/3K4/8/6N1 w - - 0 1");
        assert!(p.cannot_mate_by_material(Color::White));
        assert!(p.cannot_mate_by_material(Color::Black));
        let p = pos("8/8/4k3/8/8/3K4/6p1/6N1 w - - 0 1");
        assert!(!p.cannot_mate_by_material(Color::White));
        assert!(!p.cannot_mate_by_material(Color::Black));
        let p = pos("8/8/4k3/8/8/3K4/8/3BB3 w - - 0 1");
        assert!(!p.cannot_mate_by_material(Color::White));
        let p = pos("8/8/4k3/8/8/3K4/8/2B1B3 w - - 0 1");
        assert!(p.cannot_mate_by_material(Color::White));
    }

    /// Where neither side can mate by material, the material is
    /// insufficient, on every position of these random games.
    #[test]
    fn both_sides_agree_with_the_whole() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut checked = 0;
        for _ in 0..200 {
            let mut p = Position::standard();
            for _ in 0..300 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = moves[(seed % moves.len() as u64) as usize];
                p.play_unchecked(m);
                if p.cannot_mate_by_material(Color::White)
                    && p.cannot_mate_by_material(Color::Black)
                {
                    assert!(p.is_insufficient_material(), "{p}");
                    checked += 1;
                }
            }
        }
        assert!(
            checked > 100,
            "only {checked} positions where neither side can mate"
        );
    }
}
