//! A quick helpmate line: a cheap proof that a side can checkmate
//! (Art. 5.2 b / 5.2.2, 6.9), tried before the exact solver.
//!
//! A helpmate needs both players to cooperate, so one line played forward
//! with no going back finds one surprisingly often: at each ply the best
//! scored move, the mating side first trying every move that can give
//! check for a mate. The scores, from bitboards of the position:
//!
//! - the mating side: its pieces onto squares attacking more of the squares
//!   next to the other king, queen promotions, pawns forward, pieces closer
//!   to that king; checks that do not mate are avoided (they drive the king
//!   away); captures of the other side's pieces away from its king (its
//!   defenders), not next to it (they wall it in);
//! - the other side: its king towards the edge, its pieces onto the squares
//!   next to its king and not away from them, never a capture of the mating
//!   side's pieces unless nothing else is legal;
//! - neither side takes back its own last move.
//!
//! Measured on the final positions of real games (the Lichess and TWIC
//! samples, `benches/alive.rs`): a line within 64 plies for about nine
//! positions in ten, at about a tenth of the solver's instructions.
//!
//! The line is incomplete by design: a line found is a helpmate only once
//! the caller has replayed it ([`is_helpmate`](super::is_helpmate)); no line
//! proves nothing, and the exact solver is asked then. So it can only answer
//! "can mate" sooner, never change an answer.

use arbiter_chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use arbiter_chess::{Bitboard, Color, Move, PieceMoves, Position, Role, Square};

/// Plies played at most ([`quick_helpmate`]).
pub const MAX_PLIES: usize = 64;

/// A helpmate line for `winner` from `pos`, if the quick line finds one
/// within [`MAX_PLIES`] plies. `None` proves nothing.
///
/// ```
/// use arbiter_chess::{Color, Position};
/// use arbiter_laws::dead::{is_helpmate, quick_helpmate};
/// // Back rank: Black's king is walled in by its own pawns.
/// let pos: Position = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1".parse()?;
/// let line = quick_helpmate(&pos, Color::White).expect("Ra8 is mate");
/// assert_eq!(line.len(), 1);
/// assert!(is_helpmate(&pos, Color::White, &line));
/// // A lone king mates nobody.
/// let bare: Position = "4k3/8/8/8/8/8/8/4K2R w - - 0 1".parse()?;
/// assert!(quick_helpmate(&bare, Color::Black).is_none());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn quick_helpmate(pos: &Position, winner: Color) -> Option<Vec<Move>> {
    quick_helpmate_with(pos, winner, MAX_PLIES).0
}

/// [`quick_helpmate`] with at most `max_plies` plies; also the positions
/// visited (plies played and checks tried for mate), a measure of its cost.
pub fn quick_helpmate_with(
    pos: &Position,
    winner: Color,
    max_plies: usize,
) -> (Option<Vec<Move>>, u64) {
    let mut nodes = 0;
    if pos.cannot_mate_by_material(winner) {
        return (None, nodes);
    }
    let mut line = Vec::new();
    let mut p = *pos;
    // Each side's last move (to take it back is never chosen).
    let mut last = [None::<Move>; 2];
    for _ in 0..max_plies {
        let mating = p.turn() == winner;
        if mating {
            if let Some(m) = mate_in_one(&p, &mut nodes) {
                line.push(m);
                return (Some(line), nodes);
            }
        }
        let side = usize::from(!mating);
        let Some(m) = best_move(&p, mating, last[side]) else {
            return (None, nodes);
        };
        nodes += 1;
        last[side] = Some(m);
        let capture = p.is_capture(m);
        p.play_unchecked(m);
        line.push(m);
        if capture && p.cannot_mate_by_material(winner) {
            return (None, nodes);
        }
    }
    (None, nodes)
}

/// A move of the side to move that checkmates, among those that can give
/// check (a piece to a square attacking the king, a piece off a line to the
/// king, a promotion, a king move for castling).
fn mate_in_one(pos: &Position, nodes: &mut u64) -> Option<Move> {
    let me = pos.turn();
    let board = pos.board();
    let ksq = pos.king_of(!me);
    let occ = board.occupied();
    let checks = CheckSquares::new(ksq, occ, !me);
    let discoverers = queen_attacks(ksq, occ) & board.by_color(me);
    let mut found = None;
    pos.for_each_piece_moves(|pm| {
        let to = if pm.promotion || pm.role == Role::King || discoverers.contains(pm.from) {
            pm.to
        } else {
            pm.to & checks.of(pm.role)
        };
        for m in (PieceMoves { to, ..pm }).iter() {
            *nodes += 1;
            let mut q = *pos;
            q.play_unchecked(m);
            if q.is_check() && !q.has_legal_moves() {
                found = Some(m);
                return true;
            }
        }
        false
    });
    found
}

/// The best scored legal move of the side to move (the mating side if
/// `mating`), never `last` taken back.
fn best_move(pos: &Position, mating: bool, last: Option<Move>) -> Option<Move> {
    let board = pos.board();
    let me = pos.turn();
    let occ = board.occupied();
    let theirs = board.by_color(!me);
    let mut best: Option<(i32, Move)> = None;
    let mut consider = |s: i32, m: Move| {
        let back = last.is_some_and(|l| l.from == m.to && l.to == m.from);
        let s = if back { s - 100 } else { s };
        if best.is_none_or(|(b, _)| s > b) {
            best = Some((s, m));
        }
    };
    if mating {
        let ksq = pos.king_of(!me);
        let zone = king_attacks(ksq);
        let checks = CheckSquares::new(ksq, occ, !me);
        pos.for_each_piece_moves(|pm| {
            let occ = occ ^ pm.from;
            let reach = |role: Role, sq: Square| -> i32 {
                let a = match role {
                    Role::Pawn => pawn_attacks(me, sq),
                    Role::Knight => knight_attacks(sq),
                    Role::Bishop => bishop_attacks(sq, occ),
                    Role::Rook => rook_attacks(sq, occ),
                    Role::Queen => queen_attacks(sq, occ),
                    Role::King => king_attacks(sq),
                };
                (a & zone).count() as i32
            };
            let before = reach(pm.role, pm.from);
            let closer = |to: Square| pm.from.distance(ksq) as i32 - to.distance(ksq) as i32;
            for m in pm.iter() {
                let role = m.promotion.unwrap_or(pm.role);
                let mut s = 3 * (reach(role, m.to) - before);
                if checks.of(role).contains(m.to) {
                    // A check that does not mate drives the king away.
                    s -= 20;
                }
                match m.promotion {
                    Some(Role::Queen) => s += 30,
                    Some(_) => s -= 30,
                    None => {}
                }
                s += match pm.role {
                    Role::Pawn => 1,
                    Role::King => 0,
                    _ => closer(m.to),
                };
                if theirs.contains(m.to) {
                    s += if zone.contains(m.to) { -6 } else { 3 };
                }
                consider(s, m);
            }
            false
        });
    } else {
        let ksq = pos.king_of(me);
        let near = king_attacks(ksq);
        pos.for_each_piece_moves(|pm| {
            for m in pm.iter() {
                let s = if theirs.contains(m.to) {
                    // Only when nothing else is legal (in check).
                    -1000
                } else if pm.role == Role::King {
                    2 * (from_edge(m.from) - from_edge(m.to))
                } else if near.contains(m.to) {
                    5
                } else if near.contains(m.from) {
                    -5
                } else {
                    1
                };
                let s = if m.promotion.is_some_and(|r| r != Role::Knight) {
                    s - 20
                } else {
                    s
                };
                consider(s, m);
            }
            false
        });
    }
    best.map(|(_, m)| m)
}

/// The squares from which a piece of each role checks the king on `ksq`.
struct CheckSquares {
    by_role: [Bitboard; 6],
}

impl CheckSquares {
    fn new(ksq: Square, occ: Bitboard, king_color: Color) -> CheckSquares {
        let bishop = bishop_attacks(ksq, occ);
        let rook = rook_attacks(ksq, occ);
        CheckSquares {
            by_role: [
                pawn_attacks(king_color, ksq),
                knight_attacks(ksq),
                bishop,
                rook,
                bishop | rook,
                Bitboard::EMPTY,
            ],
        }
    }

    fn of(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }
}

/// Squares from the nearest edge (0 on the edge, 3 in the centre).
fn from_edge(sq: Square) -> i32 {
    let (f, r) = (sq.file().index() as i32, sq.rank().index() as i32);
    f.min(7 - f).min(r).min(7 - r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::is_helpmate;

    fn pos(fen: &str) -> Position {
        Position::from_fen_auto(fen).unwrap()
    }

    #[test]
    fn finds_helpmates_and_they_replay() {
        for (fen, winner) in [
            ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Color::White),
            ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Color::Black),
            (
                "rnbqkbnr/pppppppp/8/8/7P/8/PPPPPPP1/RNBQKBNR b KQkq - 0 1",
                Color::Black,
            ),
            // Lichess: Black's knight has to leave g7's defence.
            (
                "r3r1k1/1b3ppp/3Nq3/p3B1Qn/1p6/1P6/2P2PPP/R3R1K1 b - - 11 22",
                Color::White,
            ),
        ] {
            let p = pos(fen);
            let line = quick_helpmate(&p, winner).unwrap_or_else(|| panic!("{fen} {winner}"));
            assert!(is_helpmate(&p, winner, &line), "{fen} {winner}: {line:?}");
        }
    }

    #[test]
    fn proves_nothing_without_a_line() {
        // King and queen against king: Black cannot mate.
        let p = pos("8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
        assert!(quick_helpmate(&p, Color::Black).is_none());
        // A locked wall: nobody can.
        let wall = pos("8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1");
        assert!(quick_helpmate(&wall, Color::White).is_none());
        assert!(quick_helpmate(&wall, Color::Black).is_none());
        // No plies, no line.
        assert_eq!(quick_helpmate_with(&Position::standard(), Color::Black, 0).0, None);
    }
}
