//! King and two minor pieces against a lone king: dead or alive by a rule
//! proven over every position (Art. 5.2 b / 5.2.2, 6.9).
//!
//! With a king and two knights, a king, a bishop and a knight, or a king and
//! two bishops on squares of both colours, against a lone king, and nothing
//! else on the board, a checkmate of the lone king
//! can be reached by legal moves from a position with a legal move unless
//! the lone king is forced off every mate: it must take a piece (a king and
//! one minor piece are left, which cannot mate: [`material`](super::material),
//! result 1) or it is stalemated, whatever is played in the next two plies
//! without it taking. Such positions exist: with the lone king on a1, a
//! bishop on a2, a knight on d1 and the other king on c1, the strong side
//! to move, each of its moves leaves the lone king only the bishop to take,
//! or no move at all. They are dead, and no other position of this material
//! is.
//!
//! The rule is proven, not assumed: `tests/two_minors.rs` finds, backwards
//! from every checkmate, all the positions of each material (about 33.5
//! million placements, either side to move) from which a mate can be
//! reached, and checks the rule on each; it also checks the rule against
//! the exact solver.
//!
//! These endings are exactly where the quick line
//! ([`quick_helpmate`](super::quick_helpmate)) and the corner construction
//! ([`corner_helpmate`](super::corner_helpmate)) fail most often (a mate
//! with two knights, or in the bishop's corner, needs every piece on one of
//! a few squares), and the solver took 5–20 million instructions a
//! position: here it is a few move generations.

use arbiter_chess::{Bitboard, Color, Position};

/// Whether a position with a king and two knights, a king, a bishop and a
/// knight, or a king and two bishops on squares of both colours, against a
/// lone king, and no other piece, is dead (the [module
/// documentation](self)): `Some(true)` when every line of at most two plies
/// in which the lone king takes nothing leaves it stalemated or with only
/// captures to play, `Some(false)` otherwise. `None` for any other
/// material (two bishops on squares of one colour among them: dead by
/// material), and when the side to move has no legal move (the game is
/// over: checkmate or stalemate).
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_laws::dead::two_minors_dead;
/// // The black king's only move takes the knight on g8: dead.
/// let forced: Position = "5NNk/8/5K2/8/8/8/8/8 b - - 0 1".parse()?;
/// assert_eq!(two_minors_dead(&forced), Some(true));
/// // Every white move leaves the black king only Kxa2, or stalemates it.
/// let trap: Position = "8/8/8/8/8/8/B7/k1KN4 w - - 0 1".parse()?;
/// assert_eq!(two_minors_dead(&trap), Some(true));
/// // Bishop and knight against king: a mate can be reached.
/// let open: Position = "8/8/8/8/3N1Bk1/8/8/7K b - - 0 58".parse()?;
/// assert_eq!(two_minors_dead(&open), Some(false));
/// // A rook and a knight: not this rule's material.
/// let other: Position = "8/8/8/8/3N1Rk1/8/8/7K b - - 0 58".parse()?;
/// assert_eq!(two_minors_dead(&other), None);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn two_minors_dead(pos: &Position) -> Option<bool> {
    let board = pos.board();
    let pieces = board.occupied() - board.kings();
    if pieces.count() != 2 || (board.pawns() | board.rooks_and_queens()).any() {
        return None;
    }
    let bishops = pieces & board.bishops_and_queens();
    if bishops.count() == 2 && (bishops & Bitboard::DARK).count() != 1 {
        // Bishops on squares of one colour: dead by material.
        return None;
    }
    // Both pieces on one side: the strong side.
    let white = (pieces & board.by_color(Color::White)).count();
    let strong = match white {
        2 => Color::White,
        0 => Color::Black,
        _ => return None,
    };
    if !pos.has_legal_moves() {
        return None;
    }
    Some(forced_off(pos, strong, PLIES))
}

/// Plies looked ahead: the proof found no dead position of this material
/// that needs more (and none that this many misjudges).
const PLIES: u32 = 2;

/// Whether every line of at most `plies` plies from `pos` (the lone king
/// never taking) leaves the lone king stalemated or with only captures to
/// play: then no checkmate can be reached.
fn forced_off(pos: &Position, strong: Color, plies: u32) -> bool {
    let moves = pos.legal_moves();
    if pos.turn() != strong {
        if moves.is_empty() {
            // Stalemate (a checkmate is reached, not forced off).
            return !pos.is_check();
        }
        if moves.iter().all(|&m| pos.is_capture(m)) {
            return true;
        }
    }
    plies > 0
        && moves.iter().filter(|&&m| !pos.is_capture(m)).all(|&m| {
            let mut after = *pos;
            after.play_unchecked(m);
            forced_off(&after, strong, plies - 1)
        })
}
