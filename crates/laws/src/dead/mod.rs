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
//! A full analysis costs tens of microseconds to seconds, so
//! [`DeadPositionDetector`] asks it only when a cheaper *proof* cannot settle
//! the question. A position is found dead only by a theorem ([`material`])
//! or by the solver for both sides; it is found alive only by a helpmate line
//! checked move by move (kept from an earlier position, [`witness`], and
//! replayed; or played out by the quick line, [`quick_helpmate`], each move
//! a generated legal move and its end a tested checkmate), by a way back to a live
//! position ([`takeback`]), by a continuation of legal moves to a live
//! position ([`DeadPositionDetector::prove_continuation`], for game records
//! read ahead), or by the solver.

mod chasolver;
mod corner;
mod helpmate;
pub mod material;
mod minors;
mod quick;
mod race;
mod shared;
pub mod takeback;
pub mod witness;

pub use chasolver::ChaSolver;
pub use corner::{corner_helpmate, corner_helpmate_with};
pub use helpmate::{helpmate, helpmate_counted};
pub use material::{cannot_mate_by_material, insufficient_material};
pub use minors::two_minors_dead;
pub use quick::{quick_helpmate, quick_helpmate_with};
pub use takeback::{can_return, is_reversible, return_path};
pub use witness::{is_helpmate, Witness};

use crate::repetition::Identity;
use arbiter_chess::{Color, Move, Position, Role};
use std::collections::HashMap;
use std::sync::Arc;

/// The answer of an unwinnability analysis.
///
/// ```
/// use arbiter_chess::{Color, Position};
/// use arbiter_laws::{ChaSolver, Unwinnability, Verdict};
/// // King and knight against king: White cannot checkmate; Black has no
/// // mating material at all.
/// let pos: Position = "8/8/8/4k3/8/8/8/3NK3 w - - 0 1".parse()?;
/// assert_eq!(ChaSolver.can_checkmate(&pos, Color::White), Verdict::Unwinnable);
/// assert_eq!(ChaSolver.can_checkmate(&Position::standard(), Color::White), Verdict::Winnable);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
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
///
/// ```
/// use arbiter_chess::{Color, Position};
/// use arbiter_laws::{dead::is_helpmate, ChaSolver, Unwinnability, Verdict};
/// let solver: &dyn Unwinnability = &ChaSolver;
/// let pos = Position::standard();
/// let (verdict, line) = solver.solve(&pos, Color::Black);
/// assert_eq!(verdict, Verdict::Winnable);
/// // A line, when given, is a helpmate: legal moves ending in Black's checkmate.
/// if let Some(line) = line {
///     assert!(is_helpmate(&pos, Color::Black, &line));
/// }
/// ```
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

    /// Whether this solver is exact, so that its decided verdicts may be
    /// shared with every detector of the process (a verdict is a property
    /// of the position, and exact solvers agree). `false` unless a solver
    /// says so; [`ChaSolver`] does.
    fn shares_verdicts(&self) -> bool {
        false
    }
}

/// Forgets the exact verdicts shared by every detector of the process (an
/// exact solver's answers, kept by position across games): the next checks
/// start cold, as in a fresh process. Verdicts do not change, only what
/// they cost (for measurements: the laws bench's dead-position row).
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_laws::dead::{clear_shared_verdicts, DeadPositionDetector};
/// // A locked pawn wall (found in no other example, so that no other
/// // detector shares its verdicts meanwhile).
/// let wall: Position = "8/8/2k5/p1p1p1p1/P1P1P1P1/8/5K2/8 b - - 0 1".parse()?;
/// assert!(DeadPositionDetector::default().is_dead(&wall, None).0);
/// clear_shared_verdicts();
/// let mut cold = DeadPositionDetector::default();
/// assert!(cold.is_dead(&wall, None).0);
/// assert_eq!(cold.stats().solver_calls, 2); // asked again, both sides
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn clear_shared_verdicts() {
    shared::clear();
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

/// Why a position was found dead or alive (for statistics and tests).
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_laws::dead::{DeadPositionDetector, Reason};
/// use arbiter_laws::ChaSolver;
/// use std::sync::Arc;
/// let mut detector = DeadPositionDetector::new(Arc::new(ChaSolver));
/// // King and bishop against king: dead by material (5.2 b / 5.2.2).
/// let pos: Position = "8/8/8/4k3/8/8/8/2B1K3 b - - 0 1".parse()?;
/// assert_eq!(detector.is_dead(&pos, None), (true, Reason::Material));
/// assert_eq!(Reason::Material.name(), "material");
/// assert_eq!(detector.stats().settled_by(Reason::Material), 1);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Insufficient material for both sides (dead).
    Material,
    /// Kings and two minor pieces, nothing else ([`two_minors_dead`]): dead
    /// only when the side to move is forced to take or stalemated within
    /// two plies, alive otherwise.
    MinorPieces,
    /// Can return to the previous, live position (alive).
    Return,
    /// A helpmate line carried over from an earlier position, replayed (alive).
    Witness,
    /// The game record's own later moves, replayed, reach a position proven
    /// alive (alive: a helpmate from there is one from here).
    Continuation,
    /// A helpmate found by our own search (alive): the quick line
    /// ([`quick_helpmate`], played out of legal moves to a checkmate), or
    /// the corner construction or the budgeted search ([`helpmate()`]),
    /// replayed.
    Search,
    /// The exact solver (dead or alive).
    Solver,
    /// The solver could not decide for a side: the game goes on, but the
    /// position is not known to be alive.
    Undecided,
}

impl Reason {
    /// All reasons, in the order of [`DeadPositionStats::iter`].
    pub const ALL: [Reason; 8] = [
        Reason::Material,
        Reason::MinorPieces,
        Reason::Return,
        Reason::Witness,
        Reason::Continuation,
        Reason::Search,
        Reason::Solver,
        Reason::Undecided,
    ];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Material => "material",
            Reason::MinorPieces => "two minor pieces",
            Reason::Return => "take-back",
            Reason::Witness => "helpmate line",
            Reason::Continuation => "continuation",
            Reason::Search => "helpmate search",
            Reason::Solver => "solver",
            Reason::Undecided => "undecided",
        }
    }
}

/// How hard the cheap steps try before the solver is asked. These limits
/// bound work only: whatever they find is checked, and what they miss goes
/// to the solver, so they never change a verdict.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_laws::dead::{DeadPositionDetector, Effort};
/// use arbiter_laws::ChaSolver;
/// use std::sync::Arc;
/// assert_eq!(Effort::default().keep_short, 16);
/// assert_eq!(Effort::default().quick_plies, 96);
/// // Less effort in the cheap steps costs solver calls, never a verdict.
/// let mut detector = DeadPositionDetector::new(Arc::new(ChaSolver));
/// detector.effort = Effort { keep_short: 0, keep_tempos: 0, repair_tempos: 0, repair_plies: 0, patches: 0, search_nodes: 0, quick_plies: 0 };
/// let (dead, _) = detector.is_dead(&Position::standard(), None);
/// assert!(!dead);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Lines up to this length are kept valid for the position on the board
    /// after every move (repaired, or prefixed with the way back), so that
    /// they are at hand, short, when a capture or pawn move comes.
    pub keep_short: usize,
    /// Tempo moves tried when keeping a short line over a reversible move.
    pub keep_tempos: usize,
    /// Tempo moves tried when repairing a line after any other move.
    pub repair_tempos: usize,
    /// Plies replayed at most when repairing a line.
    pub repair_plies: usize,
    /// Moves of a line that are no longer legal replaced by tempo moves
    /// at most, when patching it ([`Witness::patch`]).
    pub patches: usize,
    /// Positions the short helpmate search ([`helpmate()`]) visits at most
    /// per side before the solver is asked (0: no search).
    pub search_nodes: u64,
    /// Plies of the quick helpmate line ([`quick_helpmate`]) at most, per
    /// side, before the solver is asked (0: none).
    pub quick_plies: usize,
}

impl Default for Effort {
    fn default() -> Effort {
        Effort {
            keep_short: 16,
            keep_tempos: 2,
            repair_tempos: 4,
            repair_plies: 200,
            patches: 4,
            search_nodes: SEARCH_NODES,
            quick_plies: quick::MAX_PLIES,
        }
    }
}

/// Positions the short helpmate search visits at most per side, by default
/// ([`Effort::search_nodes`]): none. Measured (callgrind, the laws bench's
/// `-- 40 --dead-only`): even at 32 positions per side it costs more
/// instructions than the solver calls it saves (+0.7%), so it is opt-in.
pub const SEARCH_NODES: u64 = 0;

/// Entries kept in the verdict cache before it is emptied.
const CACHE_LIMIT: usize = 1 << 16;

#[derive(Clone, Debug)]
struct Cached {
    identity: Identity,
    verdicts: [Option<Verdict>; 2],
}

/// Decides Art. 5.2 b / 5.2.2 after every move, cheaply where it can.
///
/// Every step is exact (a proof, never a guess), tried in this order:
///
/// 1. insufficient material for both sides: dead ([`material`]);
/// 2. the game's move is the first move of the helpmate line known for the
///    previous position: the rest of the line is a helpmate from here;
/// 3. a reversible move from a live position that can be taken back
///    ([`takeback`]): alive, since the live position is reachable again;
/// 4. the last helpmate line, carried over the move with small changes
///    ([`Witness::repair`]) and replayed: alive;
/// 5. a side already known to mate (cached), else the quick helpmate line
///    ([`quick_helpmate`]) for each side not yet decided: a line found
///    (played out of legal moves to a checkmate; a corner construction's,
///    replayed) proves the position alive and becomes the line of steps 2
///    and 4;
/// 6. the exact solver, the side likelier to mate first: dead only if both
///    sides are proven unable to mate; an undecided analysis leaves the game
///    going. The solver's helpmate line (replayed) becomes the line of
///    steps 2 and 4. With [`Self::race_sides`], both sides are asked at
///    once on two worker threads and the first helpmate found settles it.
///
/// ([`Self::can_checkmate`], the one-sided question, is answered the same
/// way: cached, the quick line, the solver. The budgeted search
/// [`helpmate()`] before the solver, [`Effort::search_nodes`], is off by
/// default: it cost about as much as the solver calls it saved.)
///
/// The solver's verdicts are cached by position (Zobrist key, confirmed by
/// comparing the position itself).
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_laws::dead::{DeadPositionDetector, Reason};
/// use arbiter_laws::ChaSolver;
/// use std::sync::Arc;
/// let mut detector = DeadPositionDetector::new(Arc::new(ChaSolver));
/// // A locked pawn wall: neither king can ever cross it or reach a pawn,
/// // so no series of legal moves leads to a checkmate.
/// let wall: Position = "8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1".parse()?;
/// assert_eq!(detector.is_dead(&wall, None), (true, Reason::Solver));
/// let (dead, _) = detector.is_dead(&Position::standard(), None);
/// assert!(!dead);
/// assert!(detector.stats().solver_calls >= 2);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct DeadPositionDetector {
    solver: Arc<dyn Unwinnability>,
    cache: HashMap<u64, Cached>,
    witness: Option<Witness>,
    /// Positions proven alive by a continuation (Zobrist key → the position's
    /// Art. 9.2 identity, compared on a hit).
    known_alive: HashMap<u64, Identity>,
    /// How hard the cheap steps try.
    pub effort: Effort,
    /// The side asked first by the solver, if known (see
    /// [`Self::prefer_winner`]).
    prefer: Option<Color>,
    /// Whether both sides are asked of the solver at once (see
    /// [`Self::race_sides`]).
    race: bool,
    /// Solver calls made so far.
    solver_calls: u64,
    /// How often each way of deciding settled a position after a move, in
    /// the order of [`Reason::ALL`].
    settled_by: [u64; Reason::ALL.len()],
}

/// How the dead-position checks (5.2 b / 5.2.2) were settled so far: how
/// many positions after a move each way of deciding settled, and how often
/// the exact solver was asked.
///
/// ```
/// use arbiter_laws::{Event, Game, Start};
/// use arbiter_laws::dead::Reason;
/// use arbiter_chess::{Color, Move, Square};
/// let mut game = Game::new(Start::default())?;
/// game.apply(Event::play(0, Color::White, Move::new(Square::E2, Square::E4)))?;
/// let stats = game.stats();
/// assert!(stats.solver_calls <= stats.total());
/// assert!(stats.total() >= 1); // at least the position after 1. e4
/// assert_eq!(stats.iter().map(|(_, n)| n).sum::<u64>(), stats.total());
/// assert_eq!(stats.settled_by(Reason::Undecided), 0);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DeadPositionStats {
    /// Times the exact solver was asked.
    pub solver_calls: u64,
    settled_by: [u64; Reason::ALL.len()],
}

impl DeadPositionStats {
    /// Positions settled by `reason`.
    pub fn settled_by(&self, reason: Reason) -> u64 {
        self.settled_by[reason as usize]
    }

    /// Positions checked.
    pub fn total(&self) -> u64 {
        self.settled_by.iter().sum()
    }

    /// Each reason with its count, in the order of [`Reason::ALL`].
    pub fn iter(&self) -> impl Iterator<Item = (Reason, u64)> + '_ {
        Reason::ALL.into_iter().zip(self.settled_by)
    }

    /// Adds another game's counts to these.
    pub fn add(&mut self, other: &DeadPositionStats) {
        self.solver_calls += other.solver_calls;
        for (a, b) in self.settled_by.iter_mut().zip(other.settled_by) {
            *a += b;
        }
    }
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
            // The initial position is alive by the Fool's mate, replayed
            // like any line (and carried over moves like any line): a game
            // from the start needs no solver for it.
            witness: Some(Witness::fools_mate()),
            known_alive: HashMap::new(),
            effort: Effort::default(),
            prefer: None,
            race: false,
            solver_calls: 0,
            settled_by: [0; Reason::ALL.len()],
        }
    }

    /// How the checks were settled so far.
    pub fn stats(&self) -> DeadPositionStats {
        DeadPositionStats {
            solver_calls: self.solver_calls,
            settled_by: self.settled_by,
        }
    }

    /// Asks the solver about `color` first from now on (`None`: the side
    /// with more mating material first). Verdicts do not depend on it: both
    /// sides' answers are exact, and a position is dead only when both are
    /// "cannot mate". Only the cost does — and it does a lot: for the
    /// positions of random games the solver needs, asking the quicker side
    /// first costs a third to a quarter of asking the other (the laws
    /// bench's `--solver-probe`). An audit knows whom the record scores as
    /// the winner: a player who won, on time or by resignation, usually
    /// has a quick helpmate, and on a flag fall Art. 6.9 asks about him in
    /// any case, so one answer serves both the dead-position check of the
    /// final position and 6.9.
    ///
    /// ```
    /// use arbiter_laws::dead::DeadPositionDetector;
    /// use arbiter_chess::{Color, Position};
    /// let mut d = DeadPositionDetector::default();
    /// d.prefer_winner(Some(Color::Black));
    /// let p = Position::from_fen_auto("4k3/8/8/8/8/8/4q3/K7 w - - 0 1").unwrap();
    /// assert!(!d.is_dead(&p, None).0);
    /// ```
    pub fn prefer_winner(&mut self, color: Option<Color>) {
        self.prefer = color;
    }

    /// The helpmate line kept (valid from its start position), if any.
    pub fn witness(&self) -> Option<&Witness> {
        self.witness.as_ref()
    }

    /// Drops the helpmate line kept: the next positions asked about are
    /// far from its start, where carrying it over (repaired, patched) costs
    /// more than it finds. Verdicts do not depend on it.
    pub(crate) fn forget_witness(&mut self) {
        self.witness = None;
    }

    /// Asks the solver about both sides at once, on two worker threads,
    /// and goes on with the first helpmate found (`false`, the default: one
    /// side after the other). Verdicts do not depend on it (both answers
    /// are exact; dead only when both are "cannot mate"); the wait does:
    /// it is the quicker side's, whichever that is, at the cost of the
    /// slower side's analysis running to its end on its worker. For a game
    /// being played, where one move's wait is what a player sees; an audit
    /// of many games at once is better served by one side after the other
    /// (less CPU time). Workers are shared by the process and bounded; when
    /// none are free the sides are asked one after the other.
    ///
    /// ```
    /// use arbiter_laws::dead::DeadPositionDetector;
    /// use arbiter_chess::Position;
    /// let mut d = DeadPositionDetector::default();
    /// d.race_sides(true);
    /// // Both sides can mate: alive, whichever answers first.
    /// let p = Position::from_fen_auto("4k3/8/8/8/8/8/4q3/K6R w - - 0 1").unwrap();
    /// assert!(!d.is_dead(&p, None).0);
    /// // Neither can: dead, after both answers.
    /// let wall = Position::from_fen_auto("8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1").unwrap();
    /// assert!(d.is_dead(&wall, None).0);
    /// ```
    pub fn race_sides(&mut self, on: bool) {
        self.race = on;
    }

    /// Whether `color` can checkmate in `pos` by any series of legal moves
    /// (exact; `Unknown` only if the solver cannot decide): known answers,
    /// then the quick line ([`quick_helpmate`]), then the solver.
    pub fn can_checkmate(&mut self, pos: &Position, color: Color) -> Verdict {
        if let Some(v) = self.settled(pos, color) {
            return v;
        }
        if self.quick(pos, color) {
            return Verdict::Winnable;
        }
        self.solve(pos, color)
    }

    /// The solver's answer for `color` (the cheap steps already tried).
    fn solve(&mut self, pos: &Position, color: Color) -> Verdict {
        if let Some(v) = self.settled(pos, color) {
            return v;
        }
        self.solver_calls += 1;
        let (v, line) = self.solver.solve(pos, color);
        self.record(pos, color, v, line, Line::Replayed)
    }

    /// The quick helpmate line for `color` ([`quick_helpmate`]), else the
    /// corner construction ([`corner_helpmate`]): a line found is recorded
    /// as the solver's would be (the kept line, the caches) and `true`
    /// (`color` can mate).
    fn quick(&mut self, pos: &Position, color: Color) -> bool {
        if self.effort.quick_plies == 0 {
            return false;
        }
        let (line, how) = match quick::quick_helpmate_with(pos, color, self.effort.quick_plies).0 {
            Some(line) => (Some(line), Line::Played),
            None => (corner::corner_helpmate(pos, color), Line::Replayed),
        };
        match line {
            Some(line) => {
                self.record(pos, color, Verdict::Winnable, Some(line), how) == Verdict::Winnable
            }
            None => false,
        }
    }

    /// The answer for `color` without the solver, if known: by material, by
    /// the game being over, by the kept line, or from the cache.
    fn settled(&self, pos: &Position, color: Color) -> Option<Verdict> {
        self.settled_with(pos, color, &mut None)
    }

    /// [`DeadPositionDetector::settled`], with whether the side to move has
    /// a legal move once known (`moves_left`: asked of the position at
    /// most once for both colours).
    fn settled_with(
        &self,
        pos: &Position,
        color: Color,
        moves_left: &mut Option<bool>,
    ) -> Option<Verdict> {
        if cannot_mate_by_material(pos, color) {
            return Some(Verdict::Unwinnable);
        }
        if !*moves_left.get_or_insert_with(|| pos.has_legal_moves()) {
            // Checkmate (of the side to move: only its opponent has mated)
            // or stalemate: no further moves.
            let mated = pos.is_check() && pos.turn() != color;
            return Some(if mated {
                Verdict::Winnable
            } else {
                Verdict::Unwinnable
            });
        }
        match two_minors_dead(pos) {
            // Dead: nobody mates.
            Some(true) => return Some(Verdict::Unwinnable),
            // Alive with both minor pieces on one side: `color`, which has
            // mating material, is that side and mates. (With a piece each,
            // alive says only that one of them can.)
            Some(false) if (pos.board().by_color(!color) - pos.board().kings()).is_empty() => {
                return Some(Verdict::Winnable)
            }
            _ => {}
        }
        if let Some(w) = &self.witness {
            if w.winner == color && w.starts_at(pos) {
                return Some(Verdict::Winnable);
            }
        }
        if let Some(c) = self.cache.get(&pos.zobrist()) {
            if c.identity == Identity::of(pos) {
                if let Some(v) = c.verdicts[color.index()] {
                    return Some(v);
                }
            }
        }
        if self.solver.shares_verdicts() {
            return shared::get(pos, color);
        }
        None
    }

    /// The solver's answer for `color`, checked (a "can mate" is believed
    /// only with a line that is a helpmate, replayed unless it was
    /// [`Line::Played`]; it becomes the kept line) and cached.
    fn record(
        &mut self,
        pos: &Position,
        color: Color,
        mut v: Verdict,
        line: Option<Vec<Move>>,
        how: Line,
    ) -> Verdict {
        if v == Verdict::Winnable {
            match line {
                Some(line) if how.is_helpmate(pos, color, &line) => {
                    self.witness = Some(Witness {
                        start: *pos,
                        winner: color,
                        line,
                    });
                }
                _ => v = Verdict::Unknown,
            }
        }
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        let identity = Identity::of(pos);
        let entry = self.cache.entry(pos.zobrist()).or_insert(Cached {
            identity,
            verdicts: [None; 2],
        });
        if entry.identity != identity {
            *entry = Cached {
                identity,
                verdicts: [None; 2],
            };
        }
        entry.verdicts[color.index()] = Some(v);
        shared::put(&*self.solver, pos, color, v);
        v
    }

    /// Both sides asked of the solver at once ([`Self::race_sides`]), when
    /// neither answer is known without it and two workers are free; `None`
    /// otherwise (ask one after the other).
    fn race_both(&mut self, pos: &Position, order: [Color; 2]) -> Option<(bool, Reason)> {
        if self.settled(pos, order[0]).is_some() || self.settled(pos, order[1]).is_some() {
            return None;
        }
        let answers = race::start(&self.solver, pos, order)?;
        self.solver_calls += 2;
        let mut undecided = false;
        for _ in 0..2 {
            let Ok((color, v, line)) = answers.recv() else {
                // An analysis was lost (it panicked): not proven either way.
                return Some((false, Reason::Undecided));
            };
            match self.record(pos, color, v, line, Line::Replayed) {
                Verdict::Winnable => return Some((false, Reason::Solver)),
                Verdict::Unknown => undecided = true,
                Verdict::Unwinnable => {}
            }
        }
        Some(if undecided {
            (false, Reason::Undecided)
        } else {
            (true, Reason::Solver)
        })
    }

    /// Whether `pos` (with a legal move) is dead, given the previous
    /// position and move when the position arose by a move from a position
    /// known to be alive. When not dead, the reason says whether the position
    /// is known to be alive (all but [`Reason::Undecided`]).
    pub fn is_dead(
        &mut self,
        pos: &Position,
        from_live: Option<(&Position, Move)>,
    ) -> (bool, Reason) {
        let (dead, reason) = self.decide(pos, from_live);
        let i = Reason::ALL.iter().position(|r| *r == reason).unwrap_or(0);
        self.settled_by[i] += 1;
        (dead, reason)
    }

    /// Proves positions of a game record alive ahead of time, from the
    /// record's own moves: `line` is replayed from `start` (as far as its
    /// moves are legal); the last position of it that is proven alive is
    /// sought from the end backwards (a checkmate at the end proves every
    /// position before it; otherwise the steps of [`Self::is_dead`], at most
    /// `MAX_TAIL_SOLVES` positions asked of the solver); and every position
    /// from `start` to it is then alive, since the line's moves lead from
    /// each of them to a position from which a helpmate exists
    /// (Art. 5.2 b: "any series of legal moves"). Later [`Self::is_dead`]
    /// calls on these positions answer at once ([`Reason::Continuation`]).
    ///
    /// Returns how many positions were proven alive. Sound whatever the
    /// game does next: being alive is a property of the position (9.2
    /// identity) alone.
    pub fn prove_continuation(&mut self, start: &Position, line: &[Move]) -> usize {
        const MAX_TAIL_SOLVES: usize = 4;
        let mut positions = Vec::with_capacity(line.len() + 1);
        positions.push(*start);
        let mut p = *start;
        for &m in line {
            if !p.is_legal(m) {
                break;
            }
            p.play_unchecked(m);
            positions.push(p);
            if !p.has_legal_moves() {
                break;
            }
        }
        let mut alive_upto = None;
        let mut solves = 0;
        for (j, q) in positions.iter().enumerate().rev() {
            if !q.has_legal_moves() {
                if q.is_check() && j > 0 {
                    // Checkmate: every position before it is alive.
                    alive_upto = Some(j - 1);
                    break;
                }
                continue;
            }
            if insufficient_material(q) {
                continue;
            }
            if solves == MAX_TAIL_SOLVES {
                break;
            }
            solves += 1;
            let (dead, reason) = self.decide(q, None);
            if !dead && reason != Reason::Undecided {
                alive_upto = Some(j);
                break;
            }
        }
        let Some(k) = alive_upto else { return 0 };
        self.known_alive.reserve(k + 1);
        for q in &positions[..=k] {
            self.known_alive.insert(q.zobrist(), Identity::of(q));
        }
        k + 1
    }

    /// The short helpmate search for both sides, interleaved with a
    /// growing budget (`order[0]` with 64 positions, `order[1]` with 64,
    /// then 128 each, … up to [`Effort::search_nodes`] each), so that the
    /// side with the quicker helpmate is found quickly whichever it is. A
    /// line found is replayed and kept; `true` then (alive).
    fn search_both(&mut self, pos: &Position, order: [Color; 2]) -> bool {
        let cap = self.effort.search_nodes;
        let sides: Vec<Color> = order
            .into_iter()
            .filter(|&c| self.settled(pos, c).is_none())
            .collect();
        let mut budget = 64.min(cap);
        while budget > 0 {
            for &color in &sides {
                if let Some(line) = helpmate(pos, color, budget) {
                    if is_helpmate(pos, color, &line) {
                        self.witness = Some(Witness {
                            start: *pos,
                            winner: color,
                            line,
                        });
                        return true;
                    }
                }
            }
            if budget >= cap {
                break;
            }
            budget = (2 * budget).min(cap);
        }
        false
    }

    fn decide(&mut self, pos: &Position, from_live: Option<(&Position, Move)>) -> (bool, Reason) {
        if insufficient_material(pos) {
            return (true, Reason::Material);
        }
        if let Some(identity) = self.known_alive.get(&pos.zobrist()) {
            if *identity == Identity::of(pos) {
                return (false, Reason::Continuation);
            }
        }
        if let Some(dead) = two_minors_dead(pos) {
            return (dead, Reason::MinorPieces);
        }
        let e = self.effort;
        if let Some((before, m)) = from_live {
            let fresh = self.witness.as_ref().is_some_and(|w| w.starts_at(before));
            if fresh {
                if let Some(w) = &mut self.witness {
                    if w.follow(m, pos) {
                        return (false, Reason::Witness);
                    }
                }
            }
            if is_reversible(before, m, pos) {
                let short = fresh
                    && self
                        .witness
                        .as_ref()
                        .is_some_and(|w| w.line.len() <= e.keep_short);
                if short {
                    if let Some(w) = &mut self.witness {
                        if let Some(line) = w.repair(pos, Some(m), e.keep_tempos, e.repair_plies) {
                            w.line = line;
                            w.start = *pos;
                            return (false, Reason::Witness);
                        }
                    }
                }
                if let Some(path) = return_path(before, m, pos) {
                    if let Some(w) = self.witness.as_mut().filter(|_| short) {
                        // The way back, then the old line: a helpmate from here.
                        w.line.splice(0..0, path);
                        w.start = *pos;
                    }
                    return (false, Reason::Return);
                }
            }
        }
        if let Some(w) = &self.witness {
            let moved = from_live.map(|(_, m)| m);
            // The old line repaired, else patched with tempo moves.
            let line = w
                .repair(pos, moved, e.repair_tempos, e.repair_plies)
                .or_else(|| w.patch(pos, e.patches, e.repair_plies));
            if let Some(line) = line {
                let winner = w.winner;
                self.witness = Some(Witness {
                    start: *pos,
                    winner,
                    line,
                });
                return (false, Reason::Witness);
            }
        }
        let order = match self.prefer {
            Some(c) => [c, !c],
            None => likelier_winner_first(pos),
        };
        // A side known to mate (cached), else the quick line for each side
        // still open, before any solver call: either side's helpmate proves
        // the position alive.
        let mut moves_left = None;
        let known = order.map(|c| self.settled_with(pos, c, &mut moves_left));
        if known.contains(&Some(Verdict::Winnable)) {
            return (false, Reason::Solver);
        }
        for (color, known) in order.into_iter().zip(known) {
            if known.is_none() && self.quick(pos, color) {
                return (false, Reason::Search);
            }
        }
        if self.search_both(pos, order) {
            return (false, Reason::Search);
        }
        // Dead only if both sides are proven unable to mate; alive as soon
        // as one side is proven able to.
        let mut undecided = false;
        if self.race {
            if let Some(decided) = self.race_both(pos, order) {
                return decided;
            }
        }
        for color in order {
            match self.solve(pos, color) {
                Verdict::Winnable => return (false, Reason::Solver),
                Verdict::Unknown => undecided = true,
                Verdict::Unwinnable => {}
            }
        }
        if undecided {
            (false, Reason::Undecided)
        } else {
            (true, Reason::Solver)
        }
    }
}

/// How a helpmate line handed to [`DeadPositionDetector::record`] was made,
/// so how it is checked before it is believed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Line {
    /// By another procedure (the solver, the corner construction): replayed
    /// move by move ([`is_helpmate`]).
    Replayed,
    /// Played out move by move by the quick line: each move one the move
    /// generator gave as legal in the position it was played in, the last
    /// position tested for checkmate (`is_check`, no legal move) — the very
    /// tests a replay makes, so it is not replayed again (but in debug
    /// builds, where every such line is).
    Played,
}

impl Line {
    fn is_helpmate(self, pos: &Position, color: Color, line: &[Move]) -> bool {
        match self {
            Line::Replayed => is_helpmate(pos, color, line),
            Line::Played => {
                debug_assert!(
                    is_helpmate(pos, color, line),
                    "a quick line that is no helpmate"
                );
                true
            }
        }
    }
}

/// Both colours, the one with more mating material first (a pawn counts as
/// much as a queen: it can become one). The order only decides which
/// question is asked first; both answers are exact. (Measured on the
/// solver's positions from random games: valuing pawns as queens asks the
/// quicker side first more often than valuing them as pawns or rooks.)
fn likelier_winner_first(pos: &Position) -> [Color; 2] {
    let value = |c: Color| -> u32 {
        let m = pos.board().material(c);
        9 * m[Role::Pawn.index()]
            + 3 * (m[Role::Knight.index()] + m[Role::Bishop.index()])
            + 5 * m[Role::Rook.index()]
            + 9 * m[Role::Queen.index()]
    };
    if value(Color::White) >= value(Color::Black) {
        [Color::White, Color::Black]
    } else {
        [Color::Black, Color::White]
    }
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
