//! A quick, selective helpmate search: a cheap proof that a side can
//! checkmate (Art. 5.2 b / 5.2.2, 6.9), tried before the exact solver.
//!
//! Real games end (resignation, time, agreement) in positions full of
//! material where a helpmate of two to six plies nearly always exists: the
//! mating side's queen or rook checks a king that its own pieces wall in.
//! The exact solver finds *a* line by a long greedy descent (promote every
//! pawn, then mate), which costs ~400,000 instructions a position; this
//! search looks for a *short* line instead, and looks only where short
//! helpmates are:
//!
//! - iterative deepening on the length (1 or 2 plies, then 2 more each
//!   time, up to [`MAX_PLIES`]);
//! - the mating side's last move: only moves that can give check (a piece to
//!   a square that attacks the king, a piece off a line to the king, a
//!   promotion, castling), each tested for mate;
//! - earlier moves are scored from bitboards computed once per position
//!   (the squares that check the king, the king's neighbourhood, the
//!   squares next to it) and only the best few of each side are tried:
//!   the mating side's checks and approaches, captures of pieces away from
//!   the king; the other side's king towards the edge, its pieces onto the
//!   squares next to its king, never a capture of the mating side's pieces;
//! - at most `budget` positions in all.
//!
//! The search is incomplete by design (it skips most moves): a line it
//! finds is a helpmate, replayed by the caller ([`is_helpmate`](super::is_helpmate))
//! before it counts; a line it does not find proves nothing, and the exact
//! solver is asked then. So it can only answer "can mate" sooner, never
//! change an answer.

use arbiter_chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use arbiter_chess::{Bitboard, Color, Move, Position, Role, Square};

/// Plies searched at most.
pub const MAX_PLIES: usize = 6;

/// Positions visited at most by [`quick_helpmate`].
pub const BUDGET: u64 = 400;

/// Moves tried at most per position (the best scored), by the mating side
/// and by the other side.
const WIDTH: [usize; 2] = [6, 5];

/// A helpmate line for `winner` from `pos`, if the quick search finds one
/// within [`BUDGET`] positions. `None` proves nothing.
///
/// ```
/// use arbiter_chess::{Color, Position};
/// use arbiter_laws::dead::{is_helpmate, quick_helpmate};
/// // Back rank: Black's king is walled in by its own pawns.
/// let pos: Position = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1".parse()?;
/// let line = quick_helpmate(&pos, Color::White).expect("Ra8 is mate");
/// assert!(is_helpmate(&pos, Color::White, &line));
/// // A lone king mates nobody.
/// assert!(quick_helpmate(&pos, Color::Black).is_some());
/// let bare: Position = "4k3/8/8/8/8/8/8/4K2R w - - 0 1".parse()?;
/// assert!(quick_helpmate(&bare, Color::Black).is_none());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn quick_helpmate(pos: &Position, winner: Color) -> Option<Vec<Move>> {
    quick_helpmate_with(pos, winner, BUDGET).0
}

/// [`quick_helpmate`] with `budget` positions at most; also the number of
/// positions visited.
pub fn quick_helpmate_with(pos: &Position, winner: Color, budget: u64) -> (Option<Vec<Move>>, u64) {
    if pos.cannot_mate_by_material(winner) || !pos.has_legal_moves() {
        return (None, 0);
    }
    let mut s = Quick {
        winner,
        nodes: 0,
        budget,
        line: Vec::with_capacity(MAX_PLIES),
    };
    if std::env::var_os("ARBITER_GREEDY").is_some() {
        let plies: usize = std::env::var("ARBITER_GREEDY")
            .ok()
            .and_then(|g| g.parse().ok())
            .unwrap_or(24);
        let found = s.greedy(pos, plies);
        if std::env::var_os("ARBITER_SHOW").is_some() { return (Some(s.line), if found { s.nodes } else { 999_999 }); }
        return (found.then_some(s.line), s.nodes);
    }
    let mut plies = if pos.turn() == winner { 1 } else { 2 };
    while plies <= MAX_PLIES && s.nodes < s.budget {
        if s.search(pos, plies) {
            s.line.reverse();
            return (Some(s.line), s.nodes);
        }
        plies += 2;
    }
    (None, s.nodes)
}

struct Quick {
    winner: Color,
    nodes: u64,
    budget: u64,
    /// The line found, last move first.
    line: Vec<Move>,
}

/// A move with its score, packed for sorting (score high, then order).
#[derive(Copy, Clone)]
struct Scored {
    key: u32,
    m: Move,
}

impl Quick {
    /// One line, no going back: at each ply the best scored move; the
    /// mating side first tries to mate. Pushes the line in order.
    fn greedy(&mut self, pos: &Position, max_plies: usize) -> bool {
        let mut p = *pos;
        let mut last_from = [None::<Square>; 2];
        let mut last_to = [None::<Square>; 2];
        for _ in 0..max_plies {
            let mating = p.turn() == self.winner;
            if mating {
                let before = self.line.len();
                if self.mate_in_one(&p) {
                    // mate_in_one pushed its move.
                    debug_assert_eq!(self.line.len(), before + 1);
                    return true;
                }
            }
            if self.nodes >= self.budget {
                return false;
            }
            let side = usize::from(!mating);
            let hints = if !mating && std::env::var_os("ARBITER_HINTS").is_some() {
                self.refutations(&p)
            } else {
                None
            };
            let best = best_move(&p, mating, hints.as_ref(), last_from[side], last_to[side]);
            let Some(m) = best else { return false };
            self.nodes += 1;
            last_from[side] = Some(m.from);
            last_to[side] = Some(m.to);
            p.play_unchecked(m);
            self.line.push(m);
            if !p.has_legal_moves() {
                return !mating && false;
            }
            if p.cannot_mate_by_material(self.winner) {
                return false;
            }
        }
        false
    }

    /// Whether a helpmate of `plies` plies (or fewer, by the search's
    /// choice) is found from `pos`; the line is pushed in reverse.
    fn search(&mut self, pos: &Position, plies: usize) -> bool {
        let mating = pos.turn() == self.winner;
        if plies == 1 {
            return mating && self.mate_in_one(pos);
        }
        let mut moves = [Scored {
            key: 0,
            m: Move::new(Square::A1, Square::A1),
        }; 256];
        let hints = if !mating && plies == 2 {
            self.refutations(pos)
        } else {
            None
        };
        let n = score_moves(pos, mating, hints.as_ref(), &mut moves);
        if n == 0 {
            // Mated (by the mating side's last move) or stalemated.
            return !mating && pos.is_check();
        }
        let moves = &mut moves[..n];
        moves.sort_unstable_by(|a, b| b.key.cmp(&a.key));
        let width = WIDTH[usize::from(!mating)];
        for s in moves.iter().take(width) {
            if s.key < PRUNED {
                break;
            }
            if self.nodes >= self.budget {
                return false;
            }
            self.nodes += 1;
            let mut q = *pos;
            q.play_unchecked(s.m);
            if !mating && !q.has_legal_moves() {
                // The mating side stalemated or mated: no line.
                continue;
            }
            if mating && q.cannot_mate_by_material(self.winner) {
                continue;
            }
            if self.search(&q, plies - 1) {
                self.line.push(s.m);
                return true;
            }
        }
        false
    }

    /// What stops the mating side's checks in `pos` (the other side to
    /// move, not in check) if the other side passed: the pieces that could
    /// answer a check other than by a king move, and the squares its king
    /// could flee to, over the checks answered in at most two ways. The
    /// other side's move before the mate should take one of those answers
    /// away (move the piece, block the square).
    fn refutations(&mut self, pos: &Position) -> Option<Hints> {
        if pos.is_check() {
            return None;
        }
        let mut z = *pos;
        z.play_null();
        let board = z.board();
        let ksq = z.king_of(!self.winner);
        let occ = board.occupied();
        let ours = board.by_color(self.winner);
        let checks = CheckSquares::new(ksq, occ, !self.winner);
        let discoverers = queen_attacks(ksq, occ) & ours;
        let mut hints = Hints {
            refuters: Bitboard::EMPTY,
            flights: Bitboard::EMPTY,
        };
        let budget = self.budget;
        let mut nodes = self.nodes;
        z.for_each_piece_moves(|pm| {
            if pm.role == Role::King {
                return false;
            }
            let to = if pm.promotion || discoverers.contains(pm.from) {
                pm.to
            } else {
                pm.to & checks.of(pm.role)
            };
            for m in (PieceTo { pm, to }).moves() {
                if nodes >= budget {
                    return true;
                }
                nodes += 1;
                let mut r = z;
                r.play_unchecked(m);
                if !r.is_check() {
                    continue;
                }
                let (mut answers, mut refuters, mut flights) = (0, Bitboard::EMPTY, Bitboard::EMPTY);
                r.for_each_piece_moves(|a| {
                    answers += a.len();
                    if a.role == Role::King {
                        flights |= a.to;
                    } else {
                        refuters.add(a.from);
                    }
                    answers > 2
                });
                if answers <= 2 {
                    hints.refuters |= refuters;
                    hints.flights |= flights;
                }
            }
            false
        });
        self.nodes = nodes;
        Some(hints)
    }

    /// The mating side's checkmating move, if one is found: only moves that
    /// can give check are played.
    fn mate_in_one(&mut self, pos: &Position) -> bool {
        let board = pos.board();
        let ksq = pos.king_of(!self.winner);
        let occ = board.occupied();
        let ours = board.by_color(self.winner);
        let checks = CheckSquares::new(ksq, occ, !self.winner);
        let discoverers = queen_attacks(ksq, occ) & ours;
        let mut found = None;
        pos.for_each_piece_moves(|pm| {
            let to = if pm.promotion || pm.role == Role::King || discoverers.contains(pm.from) {
                pm.to
            } else {
                pm.to & checks.of(pm.role)
            };
            for m in (PieceTo { pm, to }).moves() {
                if self.nodes >= self.budget {
                    return true;
                }
                self.nodes += 1;
                let mut q = *pos;
                q.play_unchecked(m);
                if q.is_check() && !q.has_legal_moves() {
                    found = Some(m);
                    return true;
                }
            }
            false
        });
        if let Some(m) = found {
            self.line.push(m);
            true
        } else {
            false
        }
    }
}

/// What the other side's move before the mate should do
/// ([`Quick::refutations`]).
struct Hints {
    /// Pieces that answer a check: move them away.
    refuters: Bitboard,
    /// Squares the king flees to: block them.
    flights: Bitboard,
}

/// A piece's moves to a subset of its destinations.
struct PieceTo {
    pm: arbiter_chess::PieceMoves,
    to: Bitboard,
}

impl PieceTo {
    fn moves(&self) -> impl Iterator<Item = Move> {
        arbiter_chess::PieceMoves {
            to: self.to,
            ..self.pm
        }
        .iter()
    }
}

/// Keys below this are moves never tried.
const PRUNED: u32 = 1 << 20;

/// Scores every legal move of `pos` into `out` (key: score above the
/// move's index), returns how many.
fn score_moves(
    pos: &Position,
    mating: bool,
    hints: Option<&Hints>,
    out: &mut [Scored; 256],
) -> usize {
    let board = pos.board();
    let me = pos.turn();
    let occ = board.occupied();
    let theirs = board.by_color(!me);
    let mut n = 0;
    if mating {
        let ksq = pos.king_of(!me);
        let checks = CheckSquares::new(ksq, occ, !me);
        let near = king_attacks(ksq);
        let zone = near | near_ring(ksq);
        pos.for_each_piece_moves(|pm| {
            let d_from = pm.from.distance(ksq) as i32;
            for m in pm.iter() {
                let role = m.promotion.unwrap_or(pm.role);
                let mut s: i32 = 0;
                if checks.of(role).contains(m.to) {
                    s += 40;
                }
                if m.promotion.is_some() {
                    s += if role == Role::Queen { 50 } else { -30 };
                }
                let closer = d_from - m.to.distance(ksq) as i32;
                s += match pm.role {
                    Role::Pawn => 4,
                    Role::King => closer,
                    _ => 4 * closer,
                };
                if zone.contains(m.to) {
                    s += 6;
                }
                if theirs.contains(m.to) {
                    // The other side's pieces next to its king wall it in;
                    // elsewhere they are its defenders.
                    s += if near.contains(m.to) { -10 } else { 8 };
                }
                out[n] = Scored {
                    key: key(s, n),
                    m,
                };
                n += 1;
            }
            false
        });
    } else {
        let ksq = pos.king_of(me);
        let near = king_attacks(ksq);
        pos.for_each_piece_moves(|pm| {
            for m in pm.iter() {
                let mut s: i32 = 0;
                if theirs.contains(m.to) {
                    // The mating side's pieces are taken last.
                    out[n] = Scored {
                        key: key(-400, n),
                        m,
                    };
                    n += 1;
                    continue;
                }
                if let Some(h) = hints {
                    if h.refuters.contains(m.from) {
                        s += 40;
                    }
                    if h.flights.contains(m.to) && pm.role != Role::King {
                        s += 30;
                    }
                }
                if pm.role == Role::King {
                    s += 6 * (from_edge(m.from) - from_edge(m.to));
                } else if near.contains(m.to) {
                    s += 10;
                } else if near.contains(m.from) {
                    s -= 6;
                }
                if m.promotion.is_some_and(|r| r != Role::Knight) {
                    s -= 20;
                }
                out[n] = Scored {
                    key: key(s, n),
                    m,
                };
                n += 1;
            }
            false
        });
    }
    n
}

/// The greedy line's move: the best scored, never undoing the side's last
/// move.
fn best_move(
    pos: &Position,
    mating: bool,
    hints: Option<&Hints>,
    last_from: Option<Square>,
    last_to: Option<Square>,
) -> Option<Move> {
    let board = pos.board();
    let me = pos.turn();
    let occ = board.occupied();
    let theirs = board.by_color(!me);
    let mut best: Option<(i32, Move)> = None;
    let mut consider = |s: i32, m: Move| {
        let back = Some(m.to) == last_from && Some(m.from) == last_to;
        let s = if back { s - 100 } else { s };
        if best.is_none_or(|(b, _)| s > b) {
            best = Some((s, m));
        }
    };
    if mating {
        let ksq = pos.king_of(!me);
        let zone = king_attacks(ksq);
        let checks = CheckSquares::new(ksq, occ, !me);
        let near = king_attacks(ksq);
        pos.for_each_piece_moves(|pm| {
            let piece = arbiter_chess::Piece {
                color: me,
                role: pm.role,
            };
            let occ2 = occ ^ pm.from;
            let before = (arbiter_chess::attacks::attacks(piece, pm.from, occ) & zone).count() as i32;
            for m in pm.iter() {
                let role = m.promotion.unwrap_or(pm.role);
                let after = (arbiter_chess::attacks::attacks(
                    arbiter_chess::Piece { color: me, role },
                    m.to,
                    occ2 | m.to,
                ) & zone)
                    .count() as i32;
                let mut s = 3 * (after - before);
                if checks.of(role).contains(m.to) {
                    // A check that does not mate drives the king away.
                    s += check_bonus();
                }
                if m.promotion.is_some() {
                    s += if role == Role::Queen { 30 } else { -30 };
                }
                s += match pm.role {
                    Role::Pawn => 1,
                    Role::King => 0,
                    _ => pm.from.distance(ksq) as i32 - m.to.distance(ksq) as i32,
                };
                if theirs.contains(m.to) {
                    s += if near.contains(m.to) { -6 } else { 3 };
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
                if theirs.contains(m.to) {
                    // Only when nothing else is legal (in check).
                    consider(-1000, m);
                    continue;
                }
                let mut s = 0;
                if let Some(h) = hints {
                    if h.refuters.contains(m.from) {
                        s += 40;
                    }
                    if h.flights.contains(m.to) && pm.role != Role::King {
                        s += 30;
                    }
                }
                if pm.role == Role::King {
                    s += 2 * (from_edge(m.from) - from_edge(m.to));
                } else if near.contains(m.to) {
                    s += 5;
                } else if near.contains(m.from) {
                    s -= 5;
                } else {
                    s += 1;
                }
                if m.promotion.is_some_and(|r| r != Role::Knight) {
                    s -= 20;
                }
                consider(s, m);
            }
            false
        });
    }
    best.map(|(_, m)| m)
}

fn check_bonus() -> i32 { std::env::var("ARBITER_CHECK").ok().and_then(|c| c.parse().ok()).unwrap_or(-2) }

/// A sort key: the score (shifted above [`PRUNED`]) then the move's index.
fn key(score: i32, index: usize) -> u32 {
    (((score + 512).clamp(0, 2047) as u32) << 9 | index as u32) + PRUNED
}

/// The squares two steps from `sq` (king distance 2).
fn near_ring(sq: Square) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for s in king_attacks(sq) {
        out |= king_attacks(s);
    }
    out
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
    fn finds_short_helpmates_and_they_replay() {
        for (fen, winner) in [
            ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Color::White),
            (
                "rnbqkbnr/pppppppp/8/8/7P/8/PPPPPPP1/RNBQKBNR b KQkq - 0 1",
                Color::Black,
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
        assert_eq!(quick_helpmate_with(&Position::standard(), Color::Black, 0).1, 0);
    }
}
