//! Dead by material alone: the classical theorems.
//!
//! A checkmate needs a piece that gives check and enough control of the
//! squares around the mated king. Two classical results of endgame theory
//! (found in every endgame manual, and the basis of the "insufficient
//! material" rules of python-chess, Lichess and the FIDE arbiters' practice
//! for Art. 5.2 b / 5.2.2 and 6.9):
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

use arbiter_chess::{Color, Position};

/// Material with which no series of legal moves can ever mate, whoever has
/// it: no pawns and at most one knight or bishop in all, or no pawns and
/// only bishops, all on squares of one colour (results 1 and 2 of the
/// [module documentation](self)). Such positions are dead (5.2 b / 5.2.2).
/// A property of the position: [`Position::is_insufficient_material`], which
/// this calls.
#[inline]
pub fn insufficient_material(pos: &Position) -> bool {
    pos.is_insufficient_material()
}

/// `true` if `color` can certainly not checkmate, by material alone: a lone
/// king (a king never gives check), a king with one knight against a lone
/// king (result 1), or a king with bishops all on one colour against a lone
/// king (result 2). [`Position::cannot_mate_by_material`], which this calls.
pub fn cannot_mate_by_material(pos: &Position, color: Color) -> bool {
    pos.cannot_mate_by_material(color)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen_auto(fen).unwrap()
    }

    /// The boundaries of both results, each checked against the exact
    /// solver in `tests/dead_position_corpus.rs` as well.
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
            assert!(insufficient_material(&pos(fen)), "{fen}");
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
            assert!(!insufficient_material(&pos(fen)), "{fen}");
        }
    }

    #[test]
    fn one_side() {
        // A lone king never mates; K+N and K+B(s of one colour) against a
        // lone king never mate; against any other piece they can.
        let p = pos("8/8/4k3/8/8/3K4/8/6N1 w - - 0 1");
        assert!(cannot_mate_by_material(&p, Color::White));
        assert!(cannot_mate_by_material(&p, Color::Black));
        let p = pos("8/8/4k3/8/8/3K4/6p1/6N1 w - - 0 1");
        assert!(!cannot_mate_by_material(&p, Color::White));
        assert!(!cannot_mate_by_material(&p, Color::Black));
        let p = pos("8/8/4k3/8/8/3K4/8/3BB3 w - - 0 1");
        assert!(!cannot_mate_by_material(&p, Color::White));
        let p = pos("8/8/4k3/8/8/3K4/8/2B1B3 w - - 0 1");
        assert!(cannot_mate_by_material(&p, Color::White));
    }
}
