//! A quick helpmate line: a cheap proof that a side can checkmate
//! (Art. 5.2 b / 5.2.2, 6.9), tried before the exact solver.
//!
//! A helpmate needs both players to cooperate, so one line played forward
//! with no going back finds one surprisingly often: at each ply the best
//! scored move, the mating side first trying every move that can give
//! check for a mate. The scores, from bitboards of the position:
//!
//! - the mating side: its pieces onto squares attacking more of the squares
//!   next to the other king, queen promotions, pawns forward, pieces and
//!   king closer to that king; captures of the other side's pieces away from
//!   its king (its defenders), not next to it (they wall it in); never a
//!   piece next to that king unguarded, nor a move that stalemates it (the
//!   next best instead); checks that
//!   do not mate avoided in a first line (they drive the king away), sought
//!   in a second one, tried when the first finds nothing (they herd it);
//! - the other side: its king towards the edge and the mating king, its
//!   pieces onto the squares next to its king and not away from them, never
//!   a capture of the mating side's pieces unless nothing else is legal;
//! - neither side takes back its own last move, nor moves a piece onto a
//!   square one of its pieces left in its last four moves (lines that go
//!   round in circles).
//!
//! Measured on the final positions of real games (the Lichess and TWIC
//! samples, `benches/alive.rs`): a line for the recorded winner within 96
//! plies for 99% of them, at a fraction of the solver's instructions
//! (`docs/performance.md`).
//!
//! The line is incomplete by design: a line found is a helpmate only once
//! the caller has replayed it ([`is_helpmate`](super::is_helpmate)); no line
//! proves nothing, and the exact solver is asked then. So it can only answer
//! "can mate" sooner, never change an answer.

use arbiter_chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use arbiter_chess::{Bitboard, Color, Move, PieceMoves, Position, Role, Square};

/// Plies played at most per line ([`quick_helpmate`]).
pub const MAX_PLIES: usize = 96;

/// A helpmate line for `winner` from `pos`, if one of the quick lines finds
/// one within [`MAX_PLIES`] plies. `None` proves nothing.
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

/// [`quick_helpmate`] with at most `max_plies` plies per line; also the
/// positions visited (plies played and checks tried for mate), a measure of
/// its cost.
pub fn quick_helpmate_with(
    pos: &Position,
    winner: Color,
    max_plies: usize,
) -> (Option<Vec<Move>>, u64) {
    let mut nodes = 0;
    if pos.cannot_mate_by_material(winner) {
        return (None, nodes);
    }
    for check in CHECK_SCORES {
        if let Some(line) = greedy_line(pos, winner, max_plies, check, &mut nodes) {
            return (Some(line), nodes);
        }
    }
    (None, nodes)
}

/// The score of a check that does not mate, in each line tried: first
/// avoided (it drives the king away), then sought (it herds the king).
const CHECK_SCORES: [i32; 2] = [-20, 4];

/// One line forward, the best scored move at each ply (`check`: the score
/// of a check that does not mate).
fn greedy_line(
    pos: &Position,
    winner: Color,
    max_plies: usize,
    check: i32,
    nodes: &mut u64,
) -> Option<Vec<Move>> {
    let mut line = Vec::new();
    let mut p = *pos;
    // Each side's last moves, newest first.
    let mut recent = [[None::<Move>; RECENT]; 2];
    for _ in 0..max_plies {
        let mating = p.turn() == winner;
        let side = usize::from(!mating);
        let m = if mating {
            let mut except = [None; 4];
            let mut tries = 0;
            loop {
                let (best, mate) = mating_move(&p, &recent[side], check, &except, nodes);
                if let Some(m) = mate {
                    line.push(m);
                    return Some(line);
                }
                let m = best?;
                let mut q = p;
                q.play_unchecked(m);
                if q.has_legal_moves() {
                    break m;
                }
                // Stalemate: the next best move instead.
                if tries == except.len() {
                    return None;
                }
                except[tries] = Some(m);
                tries += 1;
            }
        } else {
            defending_move(&p, &recent[side])?
        };
        *nodes += 1;
        recent[side].rotate_right(1);
        recent[side][0] = Some(m);
        let capture = p.is_capture(m);
        p.play_unchecked(m);
        line.push(m);
        if capture && p.cannot_mate_by_material(winner) {
            return None;
        }
    }
    None
}

/// Checks tried for mate at most per position (the rest are left).
const MAX_CHECKS: usize = 32;

/// The mating side's move: a checkmate if one of the moves that can give
/// check (a piece to a square attacking the king, a piece off a line to the
/// king, a promotion, a king move for castling) mates, else the best
/// scored move ([`Best`]) not in `except`. One pass over the legal moves.
fn mating_move(
    pos: &Position,
    recent: &[Option<Move>; RECENT],
    check: i32,
    except: &[Option<Move>; 4],
    nodes: &mut u64,
) -> (Option<Move>, Option<Move>) {
    let me = pos.turn();
    let board = pos.board();
    let occ = board.occupied();
    let theirs = board.by_color(!me);
    let ours = board.by_color(me);
    let ksq = pos.king_of(!me);
    let zone = king_attacks(ksq);
    let checks = CheckSquares::new(ksq, occ, !me);
    let hits = ZoneHits::new(zone, occ, me);
    let discoverers = queen_attacks(ksq, occ) & board.by_color(me);
    let mut candidates = [PieceMoves {
        role: Role::King,
        from: ksq,
        to: Bitboard::EMPTY,
        promotion: false,
    }; MAX_CHECKS];
    let mut n = 0;
    let mut best = Best::new(recent);
    pos.for_each_piece_moves(|pm| {
        let to = if pm.promotion || pm.role == Role::King || discoverers.contains(pm.from) {
            pm.to
        } else {
            pm.to & checks.of(pm.role)
        };
        if to.any() && n < MAX_CHECKS {
            candidates[n] = PieceMoves { to, ..pm };
            n += 1;
        }
        let (one, two) = hits.of(pm.role);
        let reach = |sq: Square| i32::from(one.contains(sq)) + i32::from(two.contains(sq));
        let before = reach(pm.from);
        let d_from = pm.from.distance(ksq) as i32;
        for m in pm.iter() {
            let mut s = if let Some(role) = m.promotion {
                if role == Role::Queen {
                    30
                } else {
                    -30
                }
            } else {
                3 * (reach(m.to) - before)
                    + match pm.role {
                        Role::Pawn => 1,
                        Role::King => d_from - m.to.distance(ksq) as i32,
                        _ => d_from - m.to.distance(ksq) as i32,
                    }
            };
            if checks.of(m.promotion.unwrap_or(pm.role)).contains(m.to) {
                // A check that does not mate: see CHECK_SCORES.
                s += check;
            }
            if theirs.contains(m.to) {
                // Pieces next to the king wall it in; the others defend.
                s += if zone.contains(m.to) { -6 } else { 3 };
            }
            if zone.contains(m.to) && pm.role != Role::King {
                // Next to the other king, a piece its own side does not
                // guard is taken.
                let guards = pos.attackers_to(m.to, occ ^ pm.from) & ours;
                if (guards - Bitboard::from(pm.from)).is_empty() {
                    s -= 50;
                }
            }
            if !except.contains(&Some(m)) {
                best.consider(s, m);
            }
        }
        false
    });
    for pm in &candidates[..n] {
        for m in pm.iter() {
            *nodes += 1;
            let mut q = *pos;
            q.play_unchecked(m);
            if q.is_check() && !q.has_legal_moves() {
                return (best.m, Some(m));
            }
        }
    }
    (best.m, None)
}

/// The other side's move: the best scored ([`Best`]).
fn defending_move(pos: &Position, recent: &[Option<Move>; RECENT]) -> Option<Move> {
    let me = pos.turn();
    let theirs = pos.board().by_color(!me);
    let near = king_attacks(pos.king_of(me));
    let mater = pos.king_of(!me);
    let mut best = Best::new(recent);
    pos.for_each_piece_moves(|pm| {
        let base = if pm.role == Role::King {
            None
        } else if near.contains(pm.from) {
            Some(-5)
        } else {
            Some(1)
        };
        for m in pm.iter() {
            let s = if theirs.contains(m.to) {
                // Only when nothing else is legal (in check).
                -1000
            } else {
                match base {
                    None => {
                        2 * (from_edge(m.from) - from_edge(m.to))
                            + (m.from.distance(mater) as i32 - m.to.distance(mater) as i32)
                    }
                    Some(_) if near.contains(m.to) => 5,
                    Some(b) => b,
                }
            };
            let s = if m.promotion.is_some_and(|r| r != Role::Knight) {
                s - 20
            } else {
                s
            };
            best.consider(s, m);
        }
        false
    });
    best.m
}

/// For each role, the squares from which a piece of the mating side
/// attacks at least one, and at least two, of the squares next to the other
/// king (with the pieces where they stand: a score, not a fact).
struct ZoneHits {
    by_role: [(Bitboard, Bitboard); 6],
}

impl ZoneHits {
    fn new(zone: Bitboard, occ: Bitboard, me: Color) -> ZoneHits {
        let mut by_role = [(Bitboard::EMPTY, Bitboard::EMPTY); 6];
        for z in zone {
            let sets = [
                pawn_attacks(!me, z),
                knight_attacks(z),
                bishop_attacks(z, occ),
                rook_attacks(z, occ),
                Bitboard::EMPTY,
                king_attacks(z),
            ];
            for (r, a) in sets.into_iter().enumerate() {
                let (one, two) = &mut by_role[r];
                *two |= *one & a;
                *one |= a;
            }
        }
        let (b1, b2) = by_role[Role::Bishop.index()];
        let (r1, r2) = by_role[Role::Rook.index()];
        by_role[Role::Queen.index()] = (b1 | r1, b2 | r2 | (b1 & r1));
        ZoneHits { by_role }
    }

    fn of(&self, role: Role) -> (Bitboard, Bitboard) {
        self.by_role[role.index()]
    }
}

/// Moves remembered per side ([`Best`]).
const RECENT: usize = 4;

/// The best scored move so far. A move that takes back the side's last move
/// loses 100, one onto a square its pieces left in their last [`RECENT`]
/// moves loses 25.
struct Best {
    back: Option<Move>,
    left: Bitboard,
    score: i32,
    m: Option<Move>,
}

impl Best {
    fn new(recent: &[Option<Move>; RECENT]) -> Best {
        let mut left = Bitboard::EMPTY;
        for m in recent.iter().flatten() {
            left.add(m.from);
        }
        Best {
            back: recent[0],
            left,
            score: i32::MIN,
            m: None,
        }
    }

    #[inline]
    fn consider(&mut self, mut s: i32, m: Move) {
        if self.left.contains(m.to) {
            s -= 25;
            if self.back.is_some_and(|l| l.from == m.to && l.to == m.from) {
                s -= 75;
            }
        }
        if s > self.score {
            self.score = s;
            self.m = Some(m);
        }
    }
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
            // King and queen against king: the kings walk to the edge.
            ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", Color::White),
            // Lichess: White's bishop blocks its own king's flight.
            (
                "3q4/2p3pk/4p2p/5p1B/1P6/8/b4PPP/6K1 w - - 0 30",
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
        assert_eq!(
            quick_helpmate_with(&Position::standard(), Color::Black, 0).0,
            None
        );
    }
}
