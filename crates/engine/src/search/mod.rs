//! The search: iterative deepening over a principal-variation alpha-beta
//! search with aspiration windows, a transposition table, quiescence search,
//! null-move pruning, late-move reductions and pruning, check extensions,
//! (reverse) futility pruning and SEE pruning.
//!
//! Draws under the Laws are scored 0: a position repeated inside the search
//! (the player to move could steer into a threefold claim, FIDE 2014, Art.
//! 9.2), the third occurrence counting earlier game positions, 50 moves without
//! capture or pawn move (Art. 9.3), and dead positions with too little material
//! to mate (Art. 5.2 b). So the search neither walks into a draw it can
//! avoid nor misses one it could claim.

mod ordering;

use crate::eval::evaluate;
use crate::see::{see_ge, value};
use crate::time::{budget, Clock};
use crate::tt::{Bound, Tt, TtEntry};
use crate::types::{EngineOptions, Limits, Score, ScoreBound, SearchInfo, SearchResult};
use arbiter_chess::{Move, MoveList, Position, Role};
use ordering::{MovePicker, Stage};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use crate::types::{INF, MATE, MATE_BOUND, MAX_PLY};

/// Move-ordering memory kept between searches: history, killers, counters.
///
/// [`Engine`](crate::Engine) keeps one between the searches of a game and starts
/// a fresh one on `ucinewgame`; it is too large for the stack, hence
/// [`History::boxed`]:
///
/// ```
/// use arbiter_engine::search::History;
///
/// let history: Box<History> = History::boxed();
/// assert!(std::mem::size_of_val(&*history) > 32 * 1024);
/// ```
pub struct History {
    /// Butterfly history `[colour][from][to]`.
    pub(crate) butterfly: [[[i32; 64]; 64]; 2],
    /// Capture history `[piece][to][captured role]`.
    pub(crate) capture: [[[i32; 6]; 64]; 12],
    /// The reply that refuted a move, by `[piece][to]` of that move.
    pub(crate) counter: [[Option<Move>; 64]; 12],
    /// Continuation history: `[previous piece][previous to][piece][to]`.
    pub(crate) cont: Vec<[[i32; 64]; 12]>,
}

impl History {
    /// Empty tables on the heap.
    pub fn boxed() -> Box<History> {
        Box::new(History {
            butterfly: [[[0; 64]; 64]; 2],
            capture: [[[0; 6]; 64]; 12],
            counter: [[None; 64]; 12],
            cont: vec![[[0; 64]; 12]; 12 * 64],
        })
    }
}

const HISTORY_MAX: i32 = 16_384;

#[inline]
fn bonus_update(entry: &mut i32, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry += b - *entry * b.abs() / HISTORY_MAX;
}

/// Per-ply state.
#[derive(Copy, Clone, Default)]
struct Frame {
    /// Static evaluation at this ply (or a large negative when in check).
    eval: i32,
    /// The move played from this ply, with its piece index (for counters).
    mv: Option<(Move, usize)>,
    killers: [Option<Move>; 2],
    excluded: Option<Move>,
}

struct Lmr {
    table: [[u8; 64]; 64],
}

impl Lmr {
    fn new() -> Lmr {
        let mut table = [[0u8; 64]; 64];
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (m, cell) in row.iter_mut().enumerate().skip(1) {
                let r = 0.8 + (d as f64).ln() * (m as f64).ln() / 2.3;
                *cell = r.max(0.0) as u8;
            }
        }
        Lmr { table }
    }
}

/// One thread's search state.
pub(crate) struct Searcher<'a> {
    tt: &'a Tt,
    history: &'a mut History,
    stop: &'a AtomicBool,
    clock: Clock,
    node_limit: u64,
    pub(crate) nodes: u64,
    seldepth: usize,
    /// Keys of the game so far and of the search path; `root_index` is the root's.
    keys: Vec<u64>,
    root_index: usize,
    frames: Vec<Frame>,
    pv: Vec<Vec<Move>>,
    root_moves: Vec<Move>,
    root_excluded: Vec<Move>,
    stopped: bool,
    /// Whether the current iteration may be interrupted (never depth 1).
    interruptible: bool,
    lmr: Lmr,
    pub(crate) completed_depth: u32,
}

/// The move that caused a beta cutoff, where and how deep.
#[derive(Copy, Clone)]
struct Cutoff {
    mv: Move,
    /// Its piece index (for counters and continuation history).
    piece: usize,
    depth: i32,
    ply: usize,
}

/// The moves tried before a cutoff, and the two moves played before this ply
/// (with their piece indices) that continuation history is keyed by.
#[derive(Copy, Clone)]
struct Tried<'m> {
    quiets: &'m MoveList,
    captures: &'m MoveList,
    prev: Option<(Move, usize)>,
    prev2: Option<(Move, usize)>,
}

/// A line found at the root.
#[derive(Clone, Debug)]
pub(crate) struct RootLine {
    pub(crate) score: i32,
    pub(crate) pv: Vec<Move>,
}

#[inline]
fn piece_index(pos: &Position, m: Move) -> usize {
    let role = pos.role_at(m.from).map_or(0, |r| r.index());
    role + 6 * pos.turn().index()
}

fn has_non_pawn_material(pos: &Position) -> bool {
    let b = pos.board();
    let ours = b.by_color(pos.turn());
    ((b.knights() | b.bishops() | b.rooks() | b.queens()) & ours).any()
}

impl<'a> Searcher<'a> {
    pub(crate) fn new(
        tt: &'a Tt,
        history: &'a mut History,
        stop: &'a AtomicBool,
        clock: Clock,
        game: &[Position],
        node_limit: u64,
    ) -> Searcher<'a> {
        let mut keys: Vec<u64> = game.iter().map(|p| p.zobrist()).collect();
        let root_index = keys.len().saturating_sub(1);
        keys.reserve(MAX_PLY + 8);
        Searcher {
            tt,
            history,
            stop,
            clock,
            node_limit,
            nodes: 0,
            seldepth: 0,
            keys,
            root_index,
            frames: vec![Frame::default(); MAX_PLY + 8],
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            root_moves: Vec::new(),
            root_excluded: Vec::new(),
            stopped: false,
            interruptible: false,
            lmr: Lmr::new(),
            completed_depth: 0,
        }
    }

    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if !self.interruptible {
            return false;
        }
        if self.nodes >= self.node_limit
            || (self.nodes & 1023 == 0
                && (self.stop.load(Ordering::Relaxed) || self.clock.hard_expired()))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Repetition (Art. 9.2), the 50-move rule (Art. 9.3) or too little
    /// material to mate (Art. 5.2 b).
    fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmoves() >= 100 {
            // A mate given on the hundredth half-move still stands (Art. 9.3
            // counts 50 moves without mate).
            return !pos.is_check() || pos.has_legal_moves();
        }
        if pos.is_insufficient_material() {
            return true;
        }
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let reach = (pos.halfmoves() as usize).min(n - 1);
        let mut earlier = 0;
        let mut i = 4;
        while i <= reach {
            let j = n - 1 - i;
            if self.keys[j] == key {
                // Once inside the search: the player can repeat again and claim.
                // Otherwise this is the third occurrence: claimable now.
                if j >= self.root_index {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    fn push_key(&mut self, key: u64) {
        self.keys.push(key);
    }

    fn pop_key(&mut self) {
        self.keys.pop();
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Principal variation search.
    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv[ply].clear();
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.is_check();
        if !root {
            if self.is_draw(pos) {
                return 0;
            }
            if ply >= MAX_PLY {
                return if in_check { 0 } else { evaluate(pos) };
            }
            // Mate distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let excluded = self.frames[ply].excluded;
        let key = pos.zobrist();
        let tt_entry = if excluded.is_none() {
            self.tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = if root {
            self.pv_root_move()
        } else {
            tt_entry.and_then(|e| e.mv).filter(|&m| pos.is_legal(m))
        };
        if let Some(e) = tt_entry {
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                }
            {
                return e.score;
            }
        }

        let static_eval = if in_check {
            -INF
        } else if let Some(e) = tt_entry {
            e.eval
        } else {
            evaluate(pos)
        };
        // A better estimate than the static evaluation when the table has a bound.
        let eval = match tt_entry {
            Some(e)
                if !in_check
                    && match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.score > static_eval,
                        Bound::Upper => e.score < static_eval,
                    }
                    && e.score.abs() < MATE_BOUND =>
            {
                e.score
            }
            _ => static_eval,
        };
        self.frames[ply].eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.frames[ply - 2].eval;
        self.frames[ply + 1].killers = [None, None];
        self.frames[ply + 2].killers = [None, None];

        if !pv_node && !in_check && excluded.is_none() {
            // Reverse futility pruning.
            if depth <= 8 && eval.abs() < MATE_BOUND {
                let margin = 75 * depth - if improving { 60 } else { 0 };
                if eval - margin >= beta {
                    return (eval + beta) / 2;
                }
            }
            // Razoring.
            if depth <= 3 && alpha.abs() < MATE_BOUND && eval + 250 * depth < alpha {
                let q = self.qsearch(pos, alpha, alpha + 1, ply);
                if q <= alpha {
                    return q;
                }
            }
            // Null-move pruning.
            let prev_null = ply > 0 && self.frames[ply - 1].mv.is_none();
            if depth >= 3
                && !prev_null
                && eval >= beta
                && static_eval >= beta - 20 * depth + 150
                && has_non_pawn_material(pos)
                && beta.abs() < MATE_BOUND
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let mut child = *pos;
                child.play_null();
                self.frames[ply].mv = None;
                self.push_key(child.zobrist());
                let score =
                    -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, !cut_node);
                self.pop_key();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Internal iterative reduction: without a hash move, search shallower first.
        if tt_move.is_none() && depth >= 4 && (pv_node || cut_node) && !root {
            depth -= 1;
        }

        let prev = if ply > 0 {
            self.frames[ply - 1].mv
        } else {
            None
        };
        let prev2 = if ply > 1 {
            self.frames[ply - 2].mv
        } else {
            None
        };
        let counter = prev.and_then(|(m, p)| self.history.counter[p][m.to.index()]);
        let killers = self.frames[ply].killers;
        let mut picker = MovePicker::new(pos, tt_move, killers, counter, prev, prev2, false);

        let mut best = -INF;
        let mut best_move = None;
        let mut moves_searched = 0;
        let mut quiets_tried: MoveList = MoveList::new();
        let mut captures_tried: MoveList = MoveList::new();
        let original_alpha = alpha;

        while let Some((m, stage)) = picker.next(pos, self.history) {
            if Some(m) == excluded {
                continue;
            }
            if root && (!self.root_moves.contains(&m) || self.root_excluded.contains(&m)) {
                continue;
            }
            let capture = pos.is_capture(m);
            let quiet = !capture && m.promotion.is_none();
            let piece = piece_index(pos, m);

            let mut child = *pos;
            child.play_unchecked(m);
            let gives_check = child.is_check();

            if !root && best > -MATE_BOUND && has_non_pawn_material(pos) {
                if quiet && !gives_check {
                    // Late-move pruning.
                    let limit = (3 + depth * depth) / if improving { 1 } else { 2 };
                    if !pv_node && !in_check && depth <= 8 && quiets_tried.len() as i32 >= limit {
                        continue;
                    }
                    // Futility pruning.
                    if !in_check
                        && depth <= 8
                        && alpha.abs() < MATE_BOUND
                        && static_eval + 100 + 90 * depth <= alpha
                    {
                        continue;
                    }
                    if depth <= 8 && !see_ge(pos, m, -30 * depth * depth) {
                        continue;
                    }
                } else if depth <= 6 && stage == Stage::BadCaptures && !see_ge(pos, m, -100 * depth)
                {
                    continue;
                }
            }

            // Singular extension: is the hash move much better than every other?
            let mut extension = 0;
            if !root
                && depth >= 8
                && Some(m) == tt_move
                && excluded.is_none()
                && ply < 2 * MAX_PLY / 3
            {
                if let Some(e) = tt_entry {
                    if e.depth >= depth - 3 && e.bound != Bound::Upper && e.score.abs() < MATE_BOUND
                    {
                        let singular_beta = e.score - 2 * depth;
                        self.frames[ply].excluded = Some(m);
                        let s = self.negamax(
                            pos,
                            (depth - 1) / 2,
                            singular_beta - 1,
                            singular_beta,
                            ply,
                            cut_node,
                        );
                        self.frames[ply].excluded = None;
                        if self.stopped {
                            return 0;
                        }
                        if s < singular_beta {
                            extension = 1;
                        } else if singular_beta >= beta {
                            // Several moves beat beta: multi-cut.
                            return singular_beta;
                        }
                    }
                }
            }

            if gives_check && extension == 0 {
                // Check extension.
                extension = 1;
            }
            self.frames[ply].mv = Some((m, piece));
            self.push_key(child.zobrist());
            moves_searched += 1;
            if quiet {
                quiets_tried.push(m);
            } else if capture {
                captures_tried.push(m);
            }
            let new_depth = depth - 1 + extension;

            let mut score;
            if moves_searched == 1 {
                score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, false);
            } else {
                // Late-move reductions.
                let mut r = 0;
                if depth >= 3
                    && moves_searched > 1 + usize::from(pv_node)
                    && (quiet || stage == Stage::BadCaptures)
                {
                    r = self.lmr.table[(depth as usize).min(63)][moves_searched.min(63)] as i32;
                    if !pv_node {
                        r += 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if cut_node {
                        r += 1;
                    }
                    if in_check || gives_check {
                        r -= 1;
                    }
                    if stage == Stage::Killers || stage == Stage::Counter {
                        r -= 1;
                    }
                    if quiet {
                        let h = self.quiet_history(pos, m, piece, prev, prev2);
                        r -= h / 8_000;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && r > 0 {
                    score =
                        -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
                }
                if score > alpha && pv_node {
                    score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, false);
                }
            }
            self.pop_key();
            if self.stopped {
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        let cutoff = Cutoff {
                            mv: m,
                            piece,
                            depth,
                            ply,
                        };
                        let tried = Tried {
                            quiets: &quiets_tried,
                            captures: &captures_tried,
                            prev,
                            prev2,
                        };
                        self.update_histories(pos, cutoff, tried);
                        break;
                    }
                    alpha = score;
                }
            }
        }

        if moves_searched == 0 {
            if excluded.is_some() {
                return alpha;
            }
            // Checkmate (Art. 5.1 a) or stalemate (Art. 5.2 a); at the root with
            // every move excluded, report the bound.
            if root && pos.has_legal_moves() {
                return alpha;
            }
            return if in_check { -MATE + ply as i32 } else { 0 };
        }

        if excluded.is_none() {
            let bound = if best >= beta {
                Bound::Lower
            } else if alpha > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            if !root || self.root_excluded.is_empty() {
                let entry = TtEntry {
                    mv: best_move,
                    score: best,
                    eval: static_eval,
                    depth,
                    bound,
                };
                self.tt.store(key, ply, entry);
            }
        }
        best
    }

    fn pv_root_move(&self) -> Option<Move> {
        self.root_moves.first().copied()
    }

    fn quiet_history(
        &self,
        pos: &Position,
        m: Move,
        piece: usize,
        prev: Option<(Move, usize)>,
        prev2: Option<(Move, usize)>,
    ) -> i32 {
        let mut h = self.history.butterfly[pos.turn().index()][m.from.index()][m.to.index()];
        if let Some((pm, pp)) = prev {
            h += self.history.cont[pp * 64 + pm.to.index()][piece][m.to.index()];
        }
        if let Some((pm, pp)) = prev2 {
            h += self.history.cont[pp * 64 + pm.to.index()][piece][m.to.index()];
        }
        h
    }

    /// Rewards the move that caused a beta cutoff and punishes the moves
    /// tried before it (`tried`), in the histories, killers and counters.
    fn update_histories(&mut self, pos: &Position, cutoff: Cutoff, tried: Tried<'_>) {
        let Cutoff {
            mv: best,
            piece,
            depth,
            ply,
        } = cutoff;
        let Tried {
            quiets,
            captures,
            prev,
            prev2,
        } = tried;
        let bonus = (depth * depth * 16 + 32 * depth).min(2_000);
        let us = pos.turn().index();
        let h = &mut *self.history;
        let update_quiet = |h: &mut History, m: Move, p: usize, b: i32| {
            bonus_update(&mut h.butterfly[us][m.from.index()][m.to.index()], b);
            if let Some((pm, pp)) = prev {
                bonus_update(&mut h.cont[pp * 64 + pm.to.index()][p][m.to.index()], b);
            }
            if let Some((pm, pp)) = prev2 {
                bonus_update(&mut h.cont[pp * 64 + pm.to.index()][p][m.to.index()], b);
            }
        };
        if pos.is_capture(best) || best.promotion.is_some() {
            if let Some(cr) = pos.captured_role(best) {
                bonus_update(&mut h.capture[piece][best.to.index()][cr.index()], bonus);
            }
        } else {
            let f = &mut self.frames[ply];
            if f.killers[0] != Some(best) {
                f.killers[1] = f.killers[0];
                f.killers[0] = Some(best);
            }
            if let Some((pm, pp)) = prev {
                h.counter[pp][pm.to.index()] = Some(best);
            }
            update_quiet(h, best, piece, bonus);
            for &q in quiets.iter() {
                if q != best {
                    update_quiet(h, q, piece_index(pos, q), -bonus);
                }
            }
        }
        for &c in captures.iter() {
            if c != best {
                if let Some(cr) = pos.captured_role(c) {
                    bonus_update(
                        &mut h.capture[piece_index(pos, c)][c.to.index()][cr.index()],
                        -bonus,
                    );
                }
            }
        }
    }

    /// Quiescence search: captures and queen promotions until the position is
    /// quiet; every evasion when in check.
    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if (pos.halfmoves() >= 100 || pos.is_insufficient_material())
            && (!pos.is_check() || pos.has_legal_moves())
        {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { evaluate(pos) };
        }
        let key = pos.zobrist();
        let tt_entry = self.tt.probe(key, ply);
        if let Some(e) = tt_entry {
            if match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            } && beta - alpha == 1
            {
                return e.score;
            }
        }
        let static_eval;
        let mut best;
        if in_check {
            static_eval = -INF;
            best = -MATE + ply as i32;
        } else {
            static_eval = match tt_entry {
                Some(e) => e.eval,
                None => evaluate(pos),
            };
            best = static_eval;
            if let Some(e) = tt_entry {
                if e.score.abs() < MATE_BOUND
                    && match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.score > best,
                        Bound::Upper => e.score < best,
                    }
                {
                    best = e.score;
                }
            }
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let original_alpha = alpha;
        let tt_move = tt_entry.and_then(|e| e.mv).filter(|&m| pos.is_legal(m));
        let mut picker = MovePicker::new(pos, tt_move, [None, None], None, None, None, !in_check);
        let mut best_move = None;
        let mut any = false;
        while let Some((m, stage)) = picker.next(pos, self.history) {
            if !in_check {
                if stage == Stage::BadCaptures {
                    break;
                }
                if m.promotion.is_some_and(|p| p != Role::Queen) {
                    continue;
                }
                // Delta pruning.
                let gain = pos.captured_role(m).map_or(0, value)
                    + m.promotion.map_or(0, |p| value(p) - 100);
                if static_eval + gain + 200 <= alpha && m.promotion.is_none() {
                    continue;
                }
                if !see_ge(pos, m, 0) {
                    continue;
                }
            }
            any = true;
            let mut child = *pos;
            child.play_unchecked(m);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && !any {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = TtEntry {
            mv: best_move,
            score: best,
            eval: static_eval.max(-MATE_BOUND),
            depth: 0,
            bound,
        };
        self.tt.store(key, ply, entry);
        best
    }

    /// Searches the root to `depth` inside the window, returning the score.
    fn search_root(&mut self, pos: &Position, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.frames[0].excluded = None;
        self.negamax(pos, depth, alpha, beta, 0, false)
    }
}

/// What one search works with: the engine's tables that persist between
/// searches and the request (the game so far, its limits, the stop flag, the
/// options). One struct instead of long argument lists, as Stockfish keeps a
/// search's shared state in one place.
pub(crate) struct SearchContext<'a> {
    /// The transposition table.
    pub tt: &'a Tt,
    /// Move-ordering memory.
    pub history: &'a mut History,
    /// The game so far, oldest first; the last position is searched.
    pub game: &'a [Position],
    /// The limits of `go`.
    pub limits: &'a Limits,
    /// Set to stop the search from another thread.
    pub stop: &'a Arc<AtomicBool>,
    /// The engine's options.
    pub options: &'a EngineOptions,
}

impl SearchContext<'_> {
    /// The clock of this search: the time budget for the side to move (none
    /// for `go infinite`, which ignores any clock it is given).
    pub(crate) fn clock(&self, pos: &Position) -> Clock {
        let b = if self.limits.infinite {
            None
        } else {
            budget(self.limits, pos.turn(), self.options.move_overhead)
        };
        Clock::new(b, self.limits.ponder.clone())
    }
}

/// Runs a full iterative-deepening search (the engine's normal mode).
pub(crate) fn run(
    ctx: SearchContext<'_>,
    info: &mut dyn FnMut(&SearchInfo),
) -> Option<SearchResult> {
    let pos = ctx.game.last()?;
    let clock = ctx.clock(pos);
    let SearchContext {
        tt,
        history,
        game,
        limits,
        stop,
        options,
    } = ctx;
    let node_limit = limits.nodes.unwrap_or(u64::MAX);
    let mut s = Searcher::new(tt, history, stop, clock, game, node_limit);
    let lines = s.iterate(pos, limits, options.multipv.max(1), info)?;
    let best_line = lines.first()?;
    let best = *best_line.pv.first()?;
    let ponder = best_line.pv.get(1).copied().or_else(|| {
        let mut child = *pos;
        child.play_unchecked(best);
        tt.probe(child.zobrist(), 1)
            .and_then(|e| e.mv)
            .filter(|&m| child.is_legal(m))
    });
    Some(SearchResult {
        best,
        ponder,
        score: Score::from_internal(best_line.score),
        depth: s.completed_depth,
        nodes: s.nodes,
        pv: best_line.pv.clone(),
    })
}

impl Searcher<'_> {
    /// Iterative deepening with aspiration windows and MultiPV. Returns the
    /// lines of the last completed iteration, best first.
    pub(crate) fn iterate(
        &mut self,
        pos: &Position,
        limits: &Limits,
        multipv: usize,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<Vec<RootLine>> {
        let legal = pos.legal_moves();
        let mut root_moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .collect();
        if root_moves.is_empty() {
            root_moves = legal.to_vec();
        }
        if root_moves.is_empty() {
            return None;
        }
        // Start with the hash move, if any.
        if let Some(m) = self.tt.probe(pos.zobrist(), 0).and_then(|e| e.mv) {
            if let Some(i) = root_moves.iter().position(|&r| r == m) {
                root_moves[..=i].rotate_right(1);
            }
        }
        self.root_moves = root_moves.clone();
        let multipv = multipv.min(root_moves.len());
        let max_depth = limits.depth.map_or(MAX_PLY as i32 - 8, |d| {
            i32::try_from(d)
                .unwrap_or(i32::MAX)
                .clamp(1, MAX_PLY as i32 - 8)
        });
        let mut completed: Vec<RootLine> = Vec::new();
        let mut prev_best: Option<Move> = None;
        let mut stability = 0;
        self.completed_depth = 0;

        for depth in 1..=max_depth {
            self.interruptible = depth > 1;
            self.seldepth = 0;
            let mut lines: Vec<RootLine> = Vec::with_capacity(multipv);
            self.root_excluded.clear();
            for pv_index in 0..multipv {
                // Search this line's best move first.
                let prev_score = completed.get(pv_index).map(|l| l.score);
                if let Some(first) = completed.get(pv_index).and_then(|l| l.pv.first()) {
                    if let Some(i) = self.root_moves.iter().position(|m| m == first) {
                        self.root_moves[..=i].rotate_right(1);
                    }
                }
                let mut delta = 20;
                let (mut alpha, mut beta) = match prev_score {
                    Some(sc) if depth >= 4 && sc.abs() < MATE_BOUND => (sc - delta, sc + delta),
                    _ => (-INF, INF),
                };
                let mut score;
                loop {
                    score = self.search_root(pos, depth, alpha, beta);
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INF);
                        self.report(
                            info,
                            depth,
                            pv_index,
                            score,
                            ScoreBound::Upper,
                            &self.pv[0].clone(),
                        );
                    } else if score >= beta {
                        beta = (score + delta).min(INF);
                        self.report(
                            info,
                            depth,
                            pv_index,
                            score,
                            ScoreBound::Lower,
                            &self.pv[0].clone(),
                        );
                    } else {
                        break;
                    }
                    delta += delta / 2;
                    if delta > 1_000 {
                        alpha = -INF;
                        beta = INF;
                    }
                }
                if self.stopped {
                    break;
                }
                let pv = if self.pv[0].is_empty() {
                    vec![self.root_moves[0]]
                } else {
                    self.pv[0].clone()
                };
                self.root_excluded.push(pv[0]);
                if multipv == 1 {
                    self.report(info, depth, pv_index, score, ScoreBound::Exact, &pv);
                }
                lines.push(RootLine { score, pv });
            }
            self.root_excluded.clear();
            if self.stopped && lines.len() < multipv {
                // Keep the finished lines of this iteration, the rest from the last.
                if let (Some(new_first), false) = (lines.first(), completed.is_empty()) {
                    if multipv == 1 && new_first.score > completed[0].score {
                        completed[0] = new_first.clone();
                    }
                }
                break;
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            if multipv > 1 {
                // Each line is searched with the ones before it excluded, so
                // a later line can score higher: the lines are ranked by score
                // before they are reported, as GUIs expect (`multipv 1` best).
                for (rank, line) in lines.iter().enumerate() {
                    self.report(info, depth, rank, line.score, ScoreBound::Exact, &line.pv);
                }
            }
            completed = lines;
            self.completed_depth = depth as u32;
            if let Some(first) = completed.first().and_then(|l| l.pv.first()) {
                if let Some(i) = self.root_moves.iter().position(|m| m == first) {
                    self.root_moves[..=i].rotate_right(1);
                }
            }

            // Enough?
            let best_score = completed[0].score;
            if let Some(n) = limits.mate {
                if best_score >= MATE_BOUND && (MATE - best_score + 1) / 2 <= n as i32 {
                    break;
                }
            }
            if self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed) {
                break;
            }
            let best_move = completed[0].pv[0];
            if Some(best_move) == prev_best {
                stability = (stability + 1).min(6);
            } else {
                stability = 0;
            }
            prev_best = Some(best_move);
            let exact = limits.movetime_exact && limits.movetime.is_some();
            if self.clock.is_timed() && !limits.infinite && !exact {
                if root_moves.len() == 1 && depth >= 4 && !self.clock.is_pondering() {
                    break;
                }
                let factor = 1.3 - 0.1 * stability as f64;
                if self.clock.soft_expired(factor * 0.7) {
                    break;
                }
            }
        }
        if completed.is_empty() {
            completed.push(RootLine {
                score: 0,
                pv: vec![self.root_moves[0]],
            });
        }
        Some(completed)
    }

    fn report(
        &mut self,
        info: &mut dyn FnMut(&SearchInfo),
        depth: i32,
        pv_index: usize,
        score: i32,
        bound: ScoreBound,
        pv: &[Move],
    ) {
        let time = self.clock.elapsed();
        let nps = (self.nodes as f64 / time.as_secs_f64().max(1e-3)) as u64;
        info(&SearchInfo {
            depth: depth as u32,
            seldepth: self.seldepth as u32,
            multipv: pv_index as u32 + 1,
            score: Score::from_internal(score),
            bound,
            nodes: self.nodes,
            nps,
            time,
            pv: pv.to_vec(),
            hashfull: self.tt.hashfull(),
        });
    }
}

/// A fixed-duration helper for tests and tools.
pub fn movetime(ms: u64) -> Limits {
    Limits {
        movetime: Some(Duration::from_millis(ms)),
        ..Limits::default()
    }
}
