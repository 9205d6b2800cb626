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
//! Both are properties of the position, in `arbiter-chess` (with their tests);
//! these functions keep the Laws' names for them.

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
