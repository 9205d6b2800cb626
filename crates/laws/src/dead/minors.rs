//! Kings and two minor pieces, nothing else: dead or alive by a rule proven
//! over every position (Art. 5.2 b / 5.2.2, 6.9).
//!
//! The material: a king and two knights, a bishop and a knight, or two
//! bishops on squares of both colours, against a lone king; or a knight or
//! a bishop each (two bishops on squares of one colour are dead by
//! material). Any capture leaves a king and at most one minor piece against
//! a king, which cannot mate ([`material`](super::material), result 1), so
//! a checkmate is reached, if at all, by a line without captures. It can be
//! reached from a position with a legal move unless the side to move is
//! forced off every mate: whatever is played in the next two plies without
//! taking, the side to move is stalemated or has only captures to play.
//! Such positions exist: with the lone king on a1, a bishop on a2, a knight
//! on d1 and the other king on c1, the strong side to move, each of its
//! moves leaves the lone king only the bishop to take, or no move at all.
//! They are dead, and no other position of this material is.
//!
//! The rule is sound by construction (when it says dead, every line runs
//! into a stalemate or a capture within three plies, with no checkmate on
//! the way). That it is complete is proven, not assumed: `tests/two_minors.rs`
//! finds, backwards from every checkmate, all the positions of each
//! material (about 33.5 million placements each, either side to move) from
//! which a mate can be reached, and asks the rule of every other one:
//! 3,664 dead with two knights, 9,076 with bishop and knight, 15,952 with
//! two bishops, 32 with a bishop against a knight, none with a knight each
//! or a bishop each. It also checks the rule against the exact solver.
//!
//! These endings are where the quick line
//! ([`quick_helpmate`](super::quick_helpmate)) fails most often (a mate with
//! two knights, in the bishop's corner, or of a king walled in by its own
//! piece, needs every piece on one of a few squares); the corner
//! construction ([`corner_helpmate`](super::corner_helpmate)) and the
//! solver, 5–20 million instructions a position, were asked then: here it
//! is a few move generations. With a piece each, "alive" says only that one
//! of the sides can mate, not which: a question about one side (6.9) goes
//! on to the helpmate searches.

use arbiter_chess::{Bitboard, MoveList, Position};

/// Whether a position of kings and two minor pieces, nothing else, is dead
/// (the documentation of its module, `dead::minors`): `Some(true)` when every line of at
/// most two plies in which nobody takes leaves the side to move stalemated
/// or with only captures to play, `Some(false)` otherwise. `None` for any
/// other material (two bishops on squares of one colour among them: dead
/// by material), and when the side to move has no legal move (the game is
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
/// // A knight each: alive.
/// let each: Position = "8/3k4/8/5n2/8/8/8/4K1N1 w - - 0 1".parse()?;
/// assert_eq!(two_minors_dead(&each), Some(false));
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
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    Some(forced_off(pos, &moves, PLIES))
}

/// Plies looked ahead: the proof found no dead position of this material
/// that needs more (and none that this many misjudges).
const PLIES: u32 = 2;

/// Whether every line of at most `plies` plies from `pos` (its legal moves
/// `moves`) in which nobody takes leaves the side to move stalemated or
/// with only captures to play (after any capture, no mate is possible):
/// then no checkmate can be reached.
fn forced_off(pos: &Position, moves: &MoveList, plies: u32) -> bool {
    if moves.is_empty() {
        // Stalemate (a checkmate is reached, not forced off).
        return !pos.is_check();
    }
    let mut quiet = moves.iter().filter(|&&m| !pos.is_capture(m)).peekable();
    if quiet.peek().is_none() {
        return true;
    }
    plies > 0
        && quiet.all(|&m| {
            let mut after = *pos;
            after.play_unchecked(m);
            forced_off(&after, &after.legal_moves(), plies - 1)
        })
}
