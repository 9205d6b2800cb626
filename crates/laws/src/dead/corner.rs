//! A mate in a corner, constructed: a cheap proof that a side can checkmate
//! (Art. 5.2 b / 5.2.2, 6.9) in the sparse pawnless endings the quick line
//! ([`quick_helpmate`](super::quick_helpmate)) misses — three minor pieces,
//! or a minor piece each when the question is whether one given side can
//! mate (6.9) — tried before the exact solver. (Whether a position with two
//! minor pieces in all is dead is decided by a rule first:
//! [`two_minors_dead`](super::two_minors_dead).)
//!
//! In these endings a checkmate exists only with the other king in (or next
//! to) a corner and every piece on one of a few squares, so a line aimed at
//! no particular square wanders. Here the final position is chosen first:
//!
//! 1. **Mating patterns**: every placement of the position's pieces (the
//!    same pieces, the bishops on their colours) with the other king on a
//!    corner and every other piece on the 4 × 4 block of that corner, in
//!    which the other side, to move, is checkmated — decided on bitboards,
//!    conservatively (a placement whose check some defending piece might
//!    capture or block, pins ignored, is left out). Computed once per
//!    material and kept for the process.
//! 2. **The patterns nearest** to the position, by the moves each side
//!    needs at least to bring its pieces there (king steps, knight moves, a
//!    bishop's one or two).
//! 3. **A short search towards each** (iterative deepening, depth-first): a
//!    line is cut as soon as a side needs more moves than it has left, no
//!    move captures, the other side never gives check; positions that failed
//!    at a depth are remembered. A bounded number of positions per call.
//!
//! A line found ends in a checkmate of the other side's king by `winner`;
//! the caller replays it ([`is_helpmate`](super::is_helpmate)) before
//! believing it. No line proves nothing (the exact solver is asked then):
//! like the quick line, this can only answer "can mate" sooner, never
//! change an answer.

use arbiter_chess::attacks::{
    attacks, between, bishop_rays, king_attacks, knight_attacks, rook_rays,
};
use arbiter_chess::{Bitboard, Color, Move, Piece, Position, Role, Square};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

/// Pieces on the board at most (kings included) for a construction.
pub const MAX_PIECES: usize = 5;

/// Positions the searches of one call visit at most, all patterns together
/// (a third at most per pattern). Measured on the audit of 1,000 generated
/// games: 12,000 finds lines for 6 more of 50 positions, but costs more
/// than the solver calls it saves.
pub const MAX_NODES: u64 = 3_000;

/// Patterns tried at most per call, the nearest first.
const PATTERNS_TRIED: usize = 6;

/// Moves more than the least needed that a line may spend, per side.
const SLACK: usize = 3;

/// A helpmate line for `winner` from `pos` ending in a mate near a corner,
/// if the position has only kings and minor pieces, at most `MAX_PIECES` (5), and a
/// search towards the nearest mating patterns finds one within
/// `MAX_NODES` (3,000) positions. `None` proves nothing.
///
/// ```
/// use arbiter_chess::{Color, Position};
/// use arbiter_laws::dead::{corner_helpmate, is_helpmate};
/// // King, bishop and knight against king.
/// let pos: Position = "8/8/8/8/3N1Bk1/8/8/7K b - - 0 58".parse()?;
/// let line = corner_helpmate(&pos, Color::White).expect("a mate in a corner");
/// assert!(is_helpmate(&pos, Color::White, &line));
/// // A lone king mates nobody.
/// assert!(corner_helpmate(&pos, Color::Black).is_none());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn corner_helpmate(pos: &Position, winner: Color) -> Option<Vec<Move>> {
    corner_helpmate_with(pos, winner, MAX_NODES).0
}

/// [`corner_helpmate`] with at most `max_nodes` positions visited; also the
/// positions visited.
pub fn corner_helpmate_with(
    pos: &Position,
    winner: Color,
    max_nodes: u64,
) -> (Option<Vec<Move>>, u64) {
    let board = pos.board();
    let occ = board.occupied();
    // Minor pieces only: with a rook or a queen the quick line finds the
    // mates, and what it misses is mostly a side that cannot mate.
    if (board.pawns() | board.rooks_and_queens()).any() || occ.count() as usize > MAX_PIECES {
        return (None, 0);
    }
    if (board.by_color(winner) - board.kings()).is_empty() || pos.cannot_mate_by_material(winner) {
        return (None, 0);
    }
    let pieces = Pieces::of(pos, winner);
    let patterns = patterns_for(&pieces);
    if patterns.is_empty() {
        return (None, 0);
    }
    // The nearest patterns: by the plies a line needs at least.
    let mut near: Vec<(usize, usize)> = Vec::with_capacity(patterns.len());
    for (i, p) in patterns.iter().enumerate() {
        let (w, d) = needs(&pieces, pos, p);
        if w == 0 {
            continue;
        }
        near.push((least_plies(pos.turn() == winner, w, d), i));
    }
    near.sort_unstable();
    let mut search = Search {
        winner,
        pieces: &pieces,
        target: &patterns[0],
        nodes: 0,
        max_nodes,
        failed: HashSet::default(),
        line: Vec::new(),
    };
    for &(plies, i) in near.iter().take(PATTERNS_TRIED) {
        search.target = &patterns[i];
        search.failed.clear();
        // No pattern takes more than a third of the positions.
        search.max_nodes = (search.nodes + max_nodes / 3).min(max_nodes);
        let mut depth = plies;
        while depth <= plies + 2 * SLACK {
            if search.dfs(pos, depth) {
                let mut line = std::mem::take(&mut search.line);
                line.reverse();
                return (Some(line), search.nodes);
            }
            if search.nodes >= max_nodes {
                return (None, search.nodes);
            }
            if search.nodes >= search.max_nodes {
                break;
            }
            depth += 2;
        }
    }
    (None, search.nodes)
}

/// The plies a line needs at least when the winner needs `w` moves and the
/// other side `d`, the winner moving last.
fn least_plies(winner_first: bool, w: usize, d: usize) -> usize {
    if winner_first {
        // w, d, w, …, w: 2k - 1 plies give k moves and k - 1 replies.
        (2 * w - 1).max(2 * d + 1)
    } else {
        // d, w, …, w: 2k plies give k of each.
        (2 * w).max(2 * d)
    }
}

/// The pieces of a position in a fixed order (their kinds: side, role,
/// bishop's square colour): the key of its patterns.
struct Pieces {
    /// (piece, a bishop's square colour (light) or `false`), the other
    /// side's king first.
    kinds: Vec<(Piece, bool)>,
    winner: Color,
}

impl Pieces {
    fn of(pos: &Position, winner: Color) -> Pieces {
        let board = pos.board();
        let loser = !winner;
        let mut kinds = vec![(Role::King.of(loser), false)];
        for color in [winner, loser] {
            for role in [
                Role::King,
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
            ] {
                if color == loser && role == Role::King {
                    continue;
                }
                for sq in board.by_piece(role.of(color)) {
                    kinds.push((role.of(color), role == Role::Bishop && sq.is_light()));
                }
            }
        }
        Pieces { kinds, winner }
    }
}

/// The moves each side needs at least to bring its pieces from `pos` onto
/// `target`'s squares, on an empty board: (the winner's, the other side's).
/// Each square of `target` is matched with the nearest piece of its kind
/// not yet matched (two knights, two bishops of a colour).
fn needs(pieces: &Pieces, pos: &Position, target: &[Square]) -> (usize, usize) {
    let (w, d, _) = assign(pieces, pos, target);
    (w, d)
}

/// [`needs`], with each piece's target: `(square, target)` pairs, one per
/// piece.
fn assign(
    pieces: &Pieces,
    pos: &Position,
    target: &[Square],
) -> (usize, usize, [(Square, Square); MAX_PIECES]) {
    let board = pos.board();
    let mut need = [0usize; 2];
    let mut used = Bitboard::EMPTY;
    let mut pairs = [(Square::A1, Square::A1); MAX_PIECES];
    for (i, (&(piece, light), &to)) in pieces.kinds.iter().zip(target).enumerate() {
        // The nearest piece of the kind not yet counted (kinds repeat
        // for two knights or bishops of a colour).
        let mut best = None;
        for sq in board.by_piece(piece) - used {
            if piece.role == Role::Bishop && sq.is_light() != light {
                continue;
            }
            let d = distance(piece.role, sq, to);
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, sq));
            }
        }
        let Some((d, sq)) = best else {
            return (usize::MAX / 4, usize::MAX / 4, pairs);
        };
        used.add(sq);
        pairs[i] = (sq, to);
        need[usize::from(piece.color != pieces.winner)] += d as usize;
    }
    (need[0], need[1], pairs)
}

/// Moves a `role` needs at least from `a` to `b` on an empty board (from a
/// table of [`role_distance`], made once: the nearest patterns are sought
/// among thousands at each call).
#[inline]
fn distance(role: Role, a: Square, b: Square) -> u32 {
    static TABLE: OnceLock<Box<[[[u8; 64]; 64]; 6]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = Box::new([[[0u8; 64]; 64]; 6]);
        for role in Role::ALL {
            if role == Role::Pawn {
                continue;
            }
            for a in Square::all() {
                for b in Square::all() {
                    t[role.index()][a.index()][b.index()] = role_distance(role, a, b) as u8;
                }
            }
        }
        t
    });
    u32::from(table[role.index()][a.index()][b.index()])
}

/// Moves a `role` (not a pawn) needs at least from `a` to `b` on an empty
/// board.
fn role_distance(role: Role, a: Square, b: Square) -> u32 {
    if a == b {
        return 0;
    }
    match role {
        Role::King => a.distance(b),
        Role::Knight => u32::from(knight_distances()[a.index()][b.index()]),
        Role::Bishop => {
            if bishop_rays(a).contains(b) {
                1
            } else {
                2
            }
        }
        Role::Rook => {
            if rook_rays(a).contains(b) {
                1
            } else {
                2
            }
        }
        _ => {
            if (bishop_rays(a) | rook_rays(a)).contains(b) {
                1
            } else {
                2
            }
        }
    }
}

/// Knight moves between any two squares on an empty board.
fn knight_distances() -> &'static [[u8; 64]; 64] {
    static TABLE: OnceLock<Box<[[u8; 64]; 64]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[u8::MAX; 64]; 64]);
        for from in Square::all() {
            let row = &mut t[from.index()];
            row[from.index()] = 0;
            let mut frontier = Bitboard::from(from);
            let mut d = 0;
            while frontier.any() {
                d += 1;
                let mut next = Bitboard::EMPTY;
                for sq in frontier {
                    for to in knight_attacks(sq) {
                        if row[to.index()] == u8::MAX {
                            row[to.index()] = d;
                            next.add(to);
                        }
                    }
                }
                frontier = next;
            }
        }
        t
    })
}

/// The mating patterns of a material: for each piece of [`Pieces::kinds`],
/// its square.
type Patterns = Arc<Vec<Vec<Square>>>;

/// A material: the kinds of its pieces, in the order of [`Pieces::kinds`].
type Kinds = Vec<(Piece, bool)>;

/// The patterns of `pieces`' material, computed once per material.
fn patterns_for(pieces: &Pieces) -> Patterns {
    static KEPT: Mutex<Option<HashMap<Kinds, Patterns>>> = Mutex::new(None);
    if let Ok(mut kept) = KEPT.lock() {
        let kept = kept.get_or_insert_with(HashMap::new);
        if let Some(p) = kept.get(&pieces.kinds) {
            return p.clone();
        }
        let p = Arc::new(mating_patterns(&pieces.kinds));
        kept.insert(pieces.kinds.clone(), p.clone());
        return p;
    }
    Arc::new(mating_patterns(&pieces.kinds))
}

/// Every placement of `kinds` (the first, the mated king, on a corner; the
/// others on that corner's 4 × 4 block, bishops on their colour) that is a
/// checkmate of that king's side, to move ([`is_mate`]): the corners a1,
/// h1, a8, h8 in turn, each corner's placements in the order of their
/// squares.
///
/// Enumerated for a1 only and carried to the other corners by the board's
/// symmetries: without pawns (never in these materials) every move is the
/// same on a board mirrored or turned, and a mirror across the middle file
/// or rank swaps the squares' colours, so h1's and a8's patterns are a1's
/// for the material with its bishops' colours swapped, mirrored, and h8's
/// are a1's turned half round. (The same lists as enumerating each corner,
/// in the same order: `corners_by_symmetry_are_the_corners_enumerated`.)
fn mating_patterns(kinds: &[(Piece, bool)]) -> Vec<Vec<Square>> {
    let a1 = corner_patterns(kinds, Square::A1);
    let swapped: Kinds = kinds
        .iter()
        .map(|&(piece, light)| (piece, light ^ (piece.role == Role::Bishop)))
        .collect();
    let a1_swapped = (swapped != kinds).then(|| corner_patterns(&swapped, Square::A1));
    let other = a1_swapped.as_ref().unwrap_or(&a1);
    let mut out = Vec::with_capacity(4 * a1.len());
    out.extend(a1.iter().cloned());
    // h1: files mirrored; a8: ranks mirrored; h8: both.
    out.extend(carried(other, 7));
    out.extend(carried(other, 56));
    out.extend(carried(&a1, 63));
    out
}

/// The placements of `kinds` with the mated king on `corner` (one corner
/// of [`mating_patterns`]), in the order of their squares.
fn corner_patterns(kinds: &[(Piece, bool)], corner: Square) -> Vec<Vec<Square>> {
    let mut out = Vec::new();
    let mut squares = vec![corner];
    place(kinds, block_of(corner), &mut squares, &mut out);
    out
}

/// `patterns` with every square's index XOR `flip` (7: files mirrored, 56:
/// ranks mirrored, 63: turned half round), in the order of their squares
/// (as [`place`] finds them: ascending, the first square first).
fn carried(patterns: &[Vec<Square>], flip: u32) -> Vec<Vec<Square>> {
    let mut out: Vec<Vec<Square>> = patterns
        .iter()
        .map(|p| {
            p.iter()
                .map(|&sq| Square::new(sq.index() as u32 ^ flip))
                .collect()
        })
        .collect();
    out.sort_unstable_by(|a, b| a.iter().map(|s| s.index()).cmp(b.iter().map(|s| s.index())));
    out
}

/// The 4 × 4 squares of a corner.
fn block_of(corner: Square) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for sq in Square::all() {
        if sq.distance(corner) <= 3 {
            b.add(sq);
        }
    }
    b
}

/// Places `kinds[squares.len()..]` on `block` (recursively), keeping the
/// checkmates.
fn place(
    kinds: &[(Piece, bool)],
    block: Bitboard,
    squares: &mut Vec<Square>,
    out: &mut Vec<Vec<Square>>,
) {
    let i = squares.len();
    if i == kinds.len() {
        if is_mate(kinds, squares) {
            out.push(squares.clone());
        }
        return;
    }
    let (piece, light) = kinds[i];
    if piece.color == kinds[0].0.color
        && kinds[i - 1].0.color != piece.color
        && !may_mate(kinds, squares)
    {
        // The winner's pieces are placed, and no placement of the other
        // side's pieces can make it a mate.
        return;
    }
    for sq in block {
        if squares.contains(&sq) {
            continue;
        }
        if piece.role == Role::Bishop && sq.is_light() != light {
            continue;
        }
        // The kings never side by side.
        if piece.role == Role::King && sq.distance(squares[0]) <= 1 {
            continue;
        }
        squares.push(sq);
        place(kinds, block, squares, out);
        squares.pop();
    }
}

/// Whether the winner's pieces, placed (`squares`: the mated king's and
/// theirs, the other side's pieces still to come), may mate with the other
/// side's pieces yet to be placed: they check that king, and no more of the
/// squares next to it are left open than the other side has pieces to fill
/// them. (The other side's pieces can only block lines, never attack for
/// the winner, so a placement failing this is no mate whatever they do.)
fn may_mate(kinds: &[(Piece, bool)], squares: &[Square]) -> bool {
    let ksq = squares[0];
    let mut occ = Bitboard::EMPTY;
    for &sq in squares {
        occ.add(sq);
    }
    let mut covered = Bitboard::EMPTY;
    let mut check = false;
    for (&(piece, _), &sq) in kinds.iter().zip(squares).skip(1) {
        covered |= attacks(piece, sq, occ.without(ksq));
        check |= attacks(piece, sq, occ).contains(ksq);
    }
    let left = kinds.len() - squares.len();
    check && ((king_attacks(ksq) - covered).count() as usize) <= left
}

/// Whether the placement is a checkmate of the side of `kinds[0]` (a king),
/// to move — conservatively: `true` only if that king is in check, every
/// square next to it is taken by its own pieces or attacked, no piece of
/// its side can take a lone checking piece or step between (pins ignored:
/// a pinned piece counts as able to), and the other king is not in check.
fn is_mate(kinds: &[(Piece, bool)], squares: &[Square]) -> bool {
    let loser = kinds[0].0.color;
    let ksq = squares[0];
    let mut occ = Bitboard::EMPTY;
    let mut own = Bitboard::EMPTY;
    for (&(piece, _), &sq) in kinds.iter().zip(squares) {
        occ.add(sq);
        if piece.color == loser {
            own.add(sq);
        }
    }
    let mut covered = Bitboard::EMPTY;
    let mut checkers = Bitboard::EMPTY;
    let mut their_king = ksq;
    for (&(piece, _), &sq) in kinds.iter().zip(squares) {
        if piece.color == loser {
            continue;
        }
        if piece.role == Role::King {
            their_king = sq;
        }
        // Through the mated king (it cannot step back along the line).
        covered |= attacks(piece, sq, occ.without(ksq));
        if attacks(piece, sq, occ).contains(ksq) {
            checkers.add(sq);
        }
    }
    if checkers.is_empty() || (king_attacks(ksq) - own - covered).any() {
        return false;
    }
    // The other king may not be in check, and a lone checker may not be
    // taken or blocked by a piece of the mated side.
    let blockable = match checkers.single() {
        Some(c) => between(ksq, c).with(c),
        None => Bitboard::EMPTY,
    };
    for (&(piece, _), &sq) in kinds.iter().zip(squares).skip(1) {
        if piece.color != loser {
            continue;
        }
        let reach = attacks(piece, sq, occ);
        if reach.contains(their_king) || reach.intersects(blockable) {
            return false;
        }
    }
    true
}

/// A hasher for keys that are already random (Zobrist keys): the key itself.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// One search towards a pattern.
struct Search<'a> {
    winner: Color,
    pieces: &'a Pieces,
    target: &'a [Square],
    nodes: u64,
    max_nodes: u64,
    /// Positions (Zobrist key and plies left, mixed) from which no line was
    /// found.
    failed: HashSet<u64, BuildHasherDefault<KeyHasher>>,
    /// The line found, last move first.
    line: Vec<Move>,
}

impl Search<'_> {
    /// A line of exactly `plies` plies from `pos` ending in the winner's
    /// checkmate, no move a capture, none of the other side's a check; pushed on
    /// `self.line` (last move first) when found.
    fn dfs(&mut self, pos: &Position, plies: usize) -> bool {
        if self.nodes >= self.max_nodes || plies == 0 {
            return false;
        }
        self.nodes += 1;
        let mover = pos.turn();
        let winning = mover == self.winner;
        let (w, d, pairs) = assign(self.pieces, pos, self.target);
        let pairs = &pairs[..self.pieces.kinds.len()];
        let my_moves = plies.div_ceil(2);
        let their_moves = plies / 2;
        let (mine, theirs) = if winning { (w, d) } else { (d, w) };
        if mine > my_moves || theirs > their_moves {
            return false;
        }
        let key = pos.zobrist() ^ (plies as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if self.failed.contains(&key) {
            return false;
        }
        let occ = pos.board().occupied();
        // (Kings and at most three minor pieces: fewer than 64 moves.)
        let mut buf = [(0usize, Move::new(Square::A1, Square::A1), Role::King); 64];
        let mut n = 0;
        pos.for_each_piece_moves(|pm| {
            for to in pm.to - occ {
                if n < buf.len() {
                    buf[n] = (0, Move::new(pm.from, to), pm.role);
                    n += 1;
                }
            }
            false
        });
        let moves = &mut buf[..n];
        if plies == 1 {
            // The winner's last move: a checkmate.
            for &(_, m, role) in moves.iter() {
                let mut q = *pos;
                q.play_unchecked_by(m, role);
                if q.is_check() && !q.has_legal_moves() {
                    self.line.push(m);
                    return true;
                }
            }
            self.failed.insert(key);
            return false;
        }
        // Nearest first: the mover's need after each move.
        // (The moved piece's distance changes, the others' stay.)
        let now = if winning { w } else { d };
        for entry in moves.iter_mut() {
            let (m, role) = (entry.1, entry.2);
            if let Some(&(_, to)) = pairs.iter().find(|(sq, _)| *sq == m.from) {
                let before = distance(role, m.from, to) as usize;
                entry.0 = now - before + distance(role, m.to, to) as usize;
            }
        }
        moves.sort_by_key(|e| e.0);
        // After this move the other side moves next: this side has
        // `mine_after` moves left.
        let mine_after = (plies - 1) / 2;
        for &(need, m, role) in moves.iter() {
            if need > mine_after {
                break;
            }
            let mut q = *pos;
            q.play_unchecked_by(m, role);
            // The other side never checks (a line of replies); a check by
            // the winner drives the king (a lone king needs one to step
            // into its corner).
            // (A stalemate by the winner shows in the reply's search: no
            // move there, no line.)
            if !winning && q.is_check() {
                continue;
            }
            if self.dfs(&q, plies - 1) {
                self.line.push(m);
                return true;
            }
            if self.nodes >= self.max_nodes {
                return false;
            }
        }
        self.failed.insert(key);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::is_helpmate;

    fn pos(fen: &str) -> Position {
        Position::from_fen_auto(fen).unwrap()
    }

    #[test]
    fn patterns_are_checkmates() {
        // Every pattern of K+B+N v K, set up as a position, is a checkmate.
        let p = pos("8/8/8/8/3N1Bk1/8/8/7K b - - 0 58");
        let pieces = Pieces::of(&p, Color::White);
        let patterns = mating_patterns(&pieces.kinds);
        assert!(!patterns.is_empty());
        for squares in &patterns {
            let mut board = arbiter_chess::Board::empty();
            for (&(piece, _), &sq) in pieces.kinds.iter().zip(squares) {
                board.set(sq, piece);
            }
            let fen = format!("{} b - - 0 1", board.board_fen());
            let q = pos(&fen);
            assert!(q.is_check() && !q.has_legal_moves(), "{fen}");
        }
    }

    #[test]
    fn corners_by_symmetry_are_the_corners_enumerated() {
        // The patterns carried from a1 by the board's symmetries are those
        // placed on each corner, in the same order, for materials with
        // bishops of one colour, of both, and none.
        for (fen, winner) in [
            ("8/8/8/8/3N1Bk1/8/8/7K b - - 0 58", Color::White),
            ("8/8/8/8/3N2k1/4B3/8/7K b - - 0 58", Color::White),
            ("8/8/8/8/3N1Nk1/8/8/7K b - - 0 58", Color::White),
            ("8/6B1/8/8/1K2k3/5b2/8/8 b - - 20 55", Color::White),
            ("8/6B1/8/8/1K2k3/3b4/8/8 b - - 20 55", Color::Black),
            ("8/8/5n2/4k3/8/8/b7/7K b - - 4 43", Color::Black),
            ("8/8/8/2B5/4k3/8/2bK4/B7 w - - 12 48", Color::White),
        ] {
            let kinds = Pieces::of(&pos(fen), winner).kinds;
            let mut enumerated = Vec::new();
            for corner in [Square::A1, Square::H1, Square::A8, Square::H8] {
                enumerated.extend(corner_patterns(&kinds, corner));
            }
            assert!(!enumerated.is_empty(), "{fen}");
            assert_eq!(mating_patterns(&kinds), enumerated, "{fen} {winner}");
        }
    }

    #[test]
    fn sparse_endings_get_lines_that_replay() {
        for (fen, winner) in [
            ("8/8/5n2/4k3/8/8/b7/7K b - - 4 43", Color::Black),
            ("8/3k4/8/4BK2/8/8/8/N7 w - - 39 93", Color::White),
            ("8/8/8/4K3/5n2/8/1B3k2/8 b - - 4 65", Color::White),
            ("1n6/8/8/8/1K6/5k1b/8/8 b - - 20 56", Color::Black),
            ("8/6B1/8/8/1K2k3/5b2/8/8 b - - 20 55", Color::White),
            ("8/8/5n2/6k1/8/7K/7b/8 w - - 50 78", Color::Black),
            ("3n4/1k6/8/2n2K2/8/8/8/8 w - - 3 49", Color::Black),
            ("8/8/8/8/4k3/8/2bK4/B7 w - - 12 48", Color::White),
        ] {
            let p = pos(fen);
            let line = corner_helpmate(&p, winner).unwrap_or_else(|| panic!("{fen}"));
            assert!(is_helpmate(&p, winner, &line), "{fen}");
        }
    }

    #[test]
    fn no_line_where_none_can_be() {
        // Pawns, many pieces, or no mating material: not tried.
        assert!(corner_helpmate(&Position::standard(), Color::White).is_none());
        let bare = pos("8/8/8/4k3/8/8/8/3NK3 w - - 0 1");
        assert!(corner_helpmate(&bare, Color::White).is_none());
    }
}
