//! Dead positions and unwinnability (FIDE Art. 5.2 b / 5.2.2, 6.9, 7.5,
//! 5.1.2 (2023)), decided exactly.
//!
//! Two questions, both about "any series of legal moves", i.e. a helpmate:
//!
//! - can `color` checkmate the opponent's king? (6.9 flag fall, 7.5 second
//!   illegal move, 2023 5.1.2 resignation — only the would-be winner's
//!   chances matter);
//! - is the position *dead*, "neither player can checkmate the opponent's
//!   king with any series of legal moves" (5.2 b / 5.2.2)?
//!
//! Counting material is not enough (a locked pawn wall is dead with a queen
//! on the board; king and knight against king and pawn is not dead). The
//! exact answer comes from an [`Unwinnability`] solver — by default
//! [`ChaSolver`], the reference implementation of "A Practical Algorithm for
//! Chess Unwinnability" (Ambrona, FUN 2022): a helpmate search plus a static
//! analysis of locked pawn structures.
//!
//! A full analysis costs tens of microseconds on average and can take far
//! longer, so [`DeadPositionDetector`] asks it only when cheaper arguments
//! cannot settle the question (see its documentation).

use arbiter_chess::{Bitboard, CastlingMode, Color, FenOptions, Move, Position, Role, Setup};
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;

/// The answer of an unwinnability analysis.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// A helpmate exists: the side can checkmate by some series of legal moves.
    Winnable,
    /// No series of legal moves leads to a checkmate by the side.
    Unwinnable,
    /// The analysis could not decide (a search limit was reached).
    Unknown,
}

/// An exact decision procedure for "can `winner` checkmate the opponent's
/// king by any possible series of legal moves?".
pub trait Unwinnability: Send + Sync {
    /// Whether `winner` can checkmate in `pos`, with a helpmate line (legal
    /// moves from `pos` ending in a checkmate by `winner`) when the solver
    /// provides one. A line is only ever used after being replayed and
    /// checked.
    fn solve(&self, pos: &Position, winner: Color) -> (Verdict, Option<Vec<Move>>);

    /// Whether `winner` can checkmate in `pos`.
    fn can_checkmate(&self, pos: &Position, winner: Color) -> Verdict {
        self.solve(pos, winner).0
    }
}

/// Plays `line` from `pos`; `true` if every move is legal and the last one
/// checkmates `winner`'s opponent.
pub fn is_helpmate(pos: &Position, winner: Color, line: &[Move]) -> bool {
    let mut p = *pos;
    for &m in line {
        if !p.is_legal(m) {
            return false;
        }
        p.play_unchecked(m);
    }
    p.turn() == !winner && p.is_checkmate()
}

/// The `chasolver` crate (MIT) behind [`Unwinnability`].
///
/// Positions are handed over as FEN to the `chess` crate that chasolver is
/// built on. That crate knows only standard castling: Chess960 castling
/// rights that standard chess cannot express are dropped, which can only
/// matter in positions constructed for it.
#[derive(Copy, Clone, Debug, Default)]
pub struct ChaSolver;

impl ChaSolver {
    fn board(pos: &Position) -> Option<chess::Board> {
        let mut setup: Setup = pos.to_setup();
        if pos.castling_mode() == CastlingMode::Chess960 {
            let mut keep = Bitboard::EMPTY;
            for rook in setup.castling_rights {
                let color = if rook.rank() == arbiter_chess::Rank::FIRST {
                    Color::White
                } else {
                    Color::Black
                };
                let king = setup.board.king_of(color);
                let standard_king = king.map(|k| k.file()) == Some(arbiter_chess::File::E);
                if standard_king && Bitboard::CORNERS.contains(rook) {
                    keep.add(rook);
                }
            }
            setup.castling_rights = keep;
        }
        let standard = Position::from_setup(setup, CastlingMode::Standard).ok()?;
        let fen = standard.fen_with(FenOptions {
            epd: true,
            ..FenOptions::default()
        });
        chess::Board::from_str(&fen).ok()
    }
}

impl Unwinnability for ChaSolver {
    fn solve(&self, pos: &Position, winner: Color) -> (Verdict, Option<Vec<Move>>) {
        let Some(board) = ChaSolver::board(pos) else {
            return (Verdict::Unknown, None);
        };
        let color = match winner {
            Color::White => chess::Color::White,
            Color::Black => chess::Color::Black,
        };
        match chasolver::winnability(&board, color) {
            Some(chasolver::Winnability::Winnable { helpmate }) => {
                // Translate the line move by move (UCI text) into our moves.
                let mut p = *pos;
                let mut line = Vec::with_capacity(helpmate.len());
                for cm in helpmate {
                    match p.parse_uci(&cm.to_string()) {
                        Ok(m) => {
                            p.play_unchecked(m);
                            line.push(m);
                        }
                        Err(_) => return (Verdict::Winnable, None),
                    }
                }
                (Verdict::Winnable, Some(line))
            }
            Some(chasolver::Winnability::Unwinnable) => (Verdict::Unwinnable, None),
            None => (Verdict::Unknown, None),
        }
    }
}

/// Material with which no series of legal moves can ever mate, whoever has
/// it: no pawns and at most one knight, or no pawns and only bishops all on
/// squares of one colour. Such positions are dead (5.2 b / 5.2.2) whatever
/// the side to move.
pub fn insufficient_material(pos: &Position) -> bool {
    let b = pos.board();
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

/// `true` if `color` can certainly not checkmate, by material alone: a lone
/// king, or a king with one knight or with bishops of one square colour
/// against a lone king.
pub fn cannot_mate_by_material(pos: &Position, color: Color) -> bool {
    let b = pos.board();
    let ours = b.by_color(color);
    let theirs = b.by_color(!color);
    if (ours & !b.kings()).is_empty() {
        return true;
    }
    if (theirs & !b.kings()).any() {
        return false;
    }
    if (ours & (b.pawns() | b.rooks() | b.queens())).any() {
        return false;
    }
    let knights = ours & b.knights();
    let bishops = ours & b.bishops();
    (knights.count() == 1 && bishops.is_empty())
        || (knights.is_empty()
            && (bishops.is_subset(Bitboard::LIGHT) || bishops.is_subset(Bitboard::DARK)))
}

/// Legal moves of the side to move, counted up to `cap`.
pub fn count_moves_capped(pos: &Position, cap: usize) -> usize {
    let mut n = 0;
    pos.for_each_piece_moves(|pm| {
        n += pm.len();
        n >= cap
    });
    n.min(cap)
}

/// `true` if `after` (reached from `before` by the reversible move `m`) can
/// return to `before` by legal moves: a reply, `m` taken back, the reply
/// taken back. Then every position reachable from `before` is reachable from
/// `after`, so if `before` was not dead, `after` is not either. Exact.
pub fn can_return(before: &Position, m: Move, after: &Position) -> bool {
    return_path(before, m, after).is_some()
}

/// The three moves that lead from `after` back to `before` (see
/// [`can_return`]), if there are such moves among the first few replies.
pub fn return_path(before: &Position, m: Move, after: &Position) -> Option<[Move; 3]> {
    if before.legal_ep_square().is_some()
        || before.role_at(m.from) == Some(Role::Pawn)
        || before.is_capture(m)
        || before.is_castling(m)
        || before.castling_rights() != after.castling_rights()
        || m.promotion.is_some()
    {
        return None;
    }
    let back = Move::new(m.to, m.from);
    let mut found = None;
    let mut tries = 0;
    let pieces = after.board().by_color(after.turn()) & !after.board().pawns();
    after.for_each_piece_moves_masked(pieces, !after.board().occupied(), |pm| {
        for o in pm.iter() {
            if after.is_castling(o) {
                continue;
            }
            tries += 1;
            let mut q1 = *after;
            q1.play_unchecked(o);
            if q1.castling_rights() != after.castling_rights() || !q1.is_legal(back) {
                continue;
            }
            let mut q2 = q1;
            q2.play_unchecked(back);
            let undo = Move::new(o.to, o.from);
            if !q2.is_legal(undo) {
                continue;
            }
            let mut q3 = q2;
            q3.play_unchecked(undo);
            if q3.zobrist() == before.zobrist()
                && crate::repetition::Identity::of(&q3) == crate::repetition::Identity::of(before)
            {
                found = Some([o, back, undo]);
                return true;
            }
            if tries >= 6 {
                return true;
            }
        }
        false
    });
    found
}

/// Why a position was found dead or alive (for statistics and tests).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Insufficient material for both sides.
    Material,
    /// Can return to the previous, live position.
    Return,
    /// A helpmate line, carried over from the previous position and checked.
    Witness,
    /// The exact solver.
    Solver,
    /// The solver could not decide for a side: the game goes on, but the
    /// position is not known to be alive.
    Undecided,
}

/// Decides Art. 5.2 b / 5.2.2 after every move, cheaply where it can.
///
/// Every step is exact (a proof, never a guess): in order, insufficient
/// material for both sides (dead); a helpmate line known for the previous
/// position, carried over the move and replayed (alive: the line is the
/// proof); a reversible move from a live position that can be taken back
/// ([`can_return`]: alive, since the live position is reachable again);
/// otherwise the exact solver, the stronger side first (dead only if both are
/// proven unable to mate; an undecided analysis leaves the game going). The
/// solver's helpmate line becomes the witness carried over later moves, so in
/// a normal game it runs only when an irreversible move breaks the line.
/// Verdicts of the solver are cached per position.
#[derive(Clone)]
pub struct DeadPositionDetector {
    solver: Arc<dyn Unwinnability>,
    cache: HashMap<(u64, u8), Verdict>,
    /// A helpmate line from a recent position: (position, winner, line).
    witness: Option<(Position, Color, Vec<Move>)>,
    /// Solver calls made so far.
    pub solver_calls: u64,
    /// How often each way of deciding settled a position after a move:
    /// material, return, witness, solver, undecided.
    pub settled_by: [u64; 5],
}

impl std::fmt::Debug for DeadPositionDetector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeadPositionDetector")
            .field("cached", &self.cache.len())
            .field("solver_calls", &self.solver_calls)
            .finish()
    }
}

impl DeadPositionDetector {
    /// A detector using `solver` for the exact analysis.
    pub fn new(solver: Arc<dyn Unwinnability>) -> DeadPositionDetector {
        DeadPositionDetector {
            solver,
            cache: HashMap::new(),
            witness: None,
            solver_calls: 0,
            settled_by: [0; 5],
        }
    }

    /// Whether `color` can checkmate in `pos` by any series of legal moves
    /// (exact; `Unknown` only if the solver cannot decide).
    pub fn can_checkmate(&mut self, pos: &Position, color: Color) -> Verdict {
        if cannot_mate_by_material(pos, color) {
            return Verdict::Unwinnable;
        }
        if pos.is_checkmate() {
            // The side to move is mated: only its opponent has mated.
            return if pos.turn() == color {
                Verdict::Unwinnable
            } else {
                Verdict::Winnable
            };
        }
        let key = (pos.zobrist(), color.index() as u8);
        if let Some(v) = self.cache.get(&key) {
            return *v;
        }
        self.solver_calls += 1;
        let (v, line) = self.solver.solve(pos, color);
        if let Some(line) = line {
            if is_helpmate(pos, color, &line) {
                self.witness = Some((*pos, color, line));
            }
        }
        self.cache.insert(key, v);
        v
    }

    /// Whether `pos` is dead, given the previous position and move when the
    /// position arose by a move from a position known to be alive.
    /// When not dead, the reason says whether the position is known to be
    /// alive (all but [`Reason::Undecided`]).
    pub fn is_dead(
        &mut self,
        pos: &Position,
        from_live: Option<(&Position, Move)>,
    ) -> (bool, Reason) {
        let (dead, reason) = self.decide(pos, from_live);
        let i = match reason {
            Reason::Material => 0,
            Reason::Return => 1,
            Reason::Witness => 2,
            Reason::Solver => 3,
            Reason::Undecided => 4,
        };
        self.settled_by[i] += 1;
        (dead, reason)
    }

    fn decide(&mut self, pos: &Position, from_live: Option<(&Position, Move)>) -> (bool, Reason) {
        if insufficient_material(pos) {
            return (true, Reason::Material);
        }
        if let Some((before, m)) = from_live {
            let witness = self
                .witness
                .take()
                .filter(|(start, _, line)| start == before && !line.is_empty());
            if let Some((_, winner, line)) = witness {
                if let Some(repaired) = repair_witness(pos, m, winner, &line) {
                    self.witness = Some((*pos, winner, repaired));
                    return (false, Reason::Witness);
                }
                if let Some(path) = return_path(before, m, pos) {
                    // Keep a proof for later moves: back to `before`, then the line.
                    if line.len() + 3 <= MAX_WITNESS {
                        let mut longer = Vec::with_capacity(line.len() + 3);
                        longer.extend_from_slice(&path);
                        longer.extend_from_slice(&line);
                        self.witness = Some((*pos, winner, longer));
                    }
                    return (false, Reason::Return);
                }
            } else if can_return(before, m, pos) {
                return (false, Reason::Return);
            }
        }
        // The side with more material first: it is the likelier to mate, and
        // a helpmate found ends the question.
        let value = |c: Color| -> u32 {
            let m = pos.board().material(c);
            m[Role::Pawn.index()]
                + 3 * (m[Role::Knight.index()] + m[Role::Bishop.index()])
                + 5 * m[Role::Rook.index()]
                + 9 * m[Role::Queen.index()]
        };
        let order = if value(Color::White) >= value(Color::Black) {
            [Color::White, Color::Black]
        } else {
            [Color::Black, Color::White]
        };
        let mut verdicts = order.iter().map(|&c| self.can_checkmate(pos, c));
        match verdicts.find(|v| *v != Verdict::Unwinnable) {
            None => (true, Reason::Solver),
            Some(Verdict::Winnable) => (false, Reason::Solver),
            Some(_) => (false, Reason::Undecided),
        }
    }
}

/// The longest helpmate line kept as a witness (longer lines cost more to
/// replay than the solver).
const MAX_WITNESS: usize = 400;

/// Carries a helpmate line known for the position before the move `m` over
/// to `pos` (the position after it): the line without its first move if that
/// move was `m` or the move played can stand in for it; else a reply followed
/// by the whole line. Whatever is tried is replayed and kept only if it ends
/// in checkmate by the same side (exact).
fn repair_witness(pos: &Position, m: Move, winner: Color, line: &[Move]) -> Option<Vec<Move>> {
    let rest = &line[1..];
    if (line[0] == m || rest.len() > 1) && is_helpmate(pos, winner, rest) {
        return Some(rest.to_vec());
    }
    let mut found = None;
    let mut tries = 0;
    pos.for_each_piece_moves(|pm| {
        for y in pm.iter() {
            tries += 1;
            let mut q = *pos;
            q.play_unchecked(y);
            if is_helpmate(&q, winner, line) {
                found = Some(y);
                return true;
            }
            if tries >= 4 {
                return true;
            }
        }
        false
    });
    let y = found?;
    if line.len() + 1 > MAX_WITNESS {
        return None;
    }
    let mut new_line = Vec::with_capacity(line.len() + 1);
    new_line.push(y);
    new_line.extend_from_slice(line);
    Some(new_line)
}

impl Default for DeadPositionDetector {
    fn default() -> DeadPositionDetector {
        DeadPositionDetector::new(Arc::new(ChaSolver))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen_auto(fen).unwrap()
    }

    #[test]
    fn material() {
        assert!(insufficient_material(&pos("8/8/4k3/8/8/3K4/8/8 w - - 0 1")));
        assert!(insufficient_material(&pos(
            "8/8/4k3/8/8/3K4/8/6N1 w - - 0 1"
        )));
        assert!(insufficient_material(&pos(
            "8/2b5/4k3/8/8/3K4/8/2B1B3 w - - 0 1"
        )));
        assert!(!insufficient_material(&pos(
            "8/1b6/4k3/8/8/3K4/8/2B5 w - - 0 1"
        )));
        assert!(!insufficient_material(&pos(
            "8/8/4k3/8/8/3K4/8/5NN1 w - - 0 1"
        )));
    }

    #[test]
    fn solver_knight_against_pawns() {
        // cutechess #710: K+N v K+P, a helpmate exists for the knight's side.
        let p = pos("8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1");
        assert_eq!(ChaSolver.can_checkmate(&p, Color::White), Verdict::Winnable);
        assert_eq!(ChaSolver.can_checkmate(&p, Color::Black), Verdict::Winnable);
    }

    #[test]
    fn locked_wall_is_dead() {
        let p = pos("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1");
        let mut d = DeadPositionDetector::default();
        assert!(d.is_dead(&p, None).0);
    }

    #[test]
    fn forced_capture_is_dead() {
        // Black's only move takes the rook: K v K.
        let p = pos("8/8/8/8/8/7K/1R6/k7 b - - 0 1");
        let mut d = DeadPositionDetector::default();
        assert_eq!(count_moves_capped(&p, 2), 1);
        assert!(d.is_dead(&p, None).0);
    }
}
