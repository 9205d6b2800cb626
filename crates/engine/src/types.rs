//! The engine's shared vocabulary, at the bottom of its modules (as Stockfish's
//! `types.h`): the options, the limits of a search, scores and what a search
//! reports. Every other module of the engine may use this one; it uses none of
//! them, so the engine's modules import one another without a circle:
//! `types` ← `tt`, `time` ← `search` ← `strength` ← `engine` ← `uci`.

use arbiter_chess::Move;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The score of giving mate now (mate at ply `p` scores `MATE - p`).
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score.
pub const INF: i32 = MATE + 1;
/// The deepest ply searched.
pub const MAX_PLY: usize = 120;

/// The engine's settings (the UCI options).
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::{Engine, EngineOptions, Limits};
/// use std::sync::atomic::AtomicBool;
/// use std::sync::Arc;
///
/// let defaults = EngineOptions::default();
/// assert_eq!(
///     (defaults.hash_mb, defaults.threads, defaults.multipv),
///     (16, 1, 1)
/// );
/// assert!(!defaults.limit_strength);
///
/// // A small table and the human-like weakened mode at 1200.
/// let options = EngineOptions {
///     hash_mb: 1,
///     limit_strength: true,
///     elo: 1200,
///     ..EngineOptions::default()
/// };
/// let mut engine = Engine::new(options.clone());
/// assert_eq!(engine.options(), &options);
/// engine.set_seed(7);
/// let pos = Position::standard();
/// let stop = Arc::new(AtomicBool::new(false));
/// let r = engine
///     .search(&[pos], &Limits::default(), &stop, &mut |_| {})
///     .unwrap();
/// assert!(pos.is_legal(r.best));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MiB (`Hash`).
    pub hash_mb: usize,
    /// Search threads (`Threads`).
    pub threads: usize,
    /// Principal variations to report (`MultiPV`).
    pub multipv: usize,
    /// Time kept back per move for communication (`Move Overhead`).
    pub move_overhead: Duration,
    /// Play weaker, like a human of [`EngineOptions::elo`] (`UCI_LimitStrength`).
    pub limit_strength: bool,
    /// The target rating when limiting strength (`UCI_Elo`).
    pub elo: u32,
}

/// Largest `Hash` in MiB (a larger [`EngineOptions::hash_mb`] gets this).
pub const MAX_HASH: usize = 4096;

/// The lowest `UCI_Elo` offered.
pub const MIN_ELO: u32 = 1000;
/// The highest `UCI_Elo` offered.
pub const MAX_ELO: u32 = 2600;

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            limit_strength: false,
            elo: 1500,
        }
    }
}

/// What limits one search (the arguments of UCI `go`). All `None`/`false`
/// means search until stopped.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::{Engine, EngineOptions, Limits};
/// use std::sync::atomic::AtomicBool;
/// use std::sync::Arc;
///
/// let pos = Position::standard();
/// let a3 = pos.parse_uci("a2a3").unwrap();
/// // `go depth 2 searchmoves a2a3`
/// let limits = Limits {
///     depth: Some(2),
///     searchmoves: vec![a3],
///     ..Limits::default()
/// };
/// let mut engine = Engine::new(EngineOptions {
///     hash_mb: 1,
///     ..EngineOptions::default()
/// });
/// let stop = Arc::new(AtomicBool::new(false));
/// let r = engine.search(&[pos], &limits, &stop, &mut |_| {}).unwrap();
/// assert_eq!(r.best, a3);
/// assert_eq!(r.depth, 2);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Remaining time of White and Black (`wtime`, `btime`).
    pub time: [Option<Duration>; 2],
    /// Increment of White and Black (`winc`, `binc`).
    pub inc: [Option<Duration>; 2],
    /// Moves to the next time control (`movestogo`).
    pub movestogo: Option<u32>,
    /// Maximum depth in plies (`depth`).
    pub depth: Option<u32>,
    /// Maximum nodes (`nodes`).
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves (`mate`).
    pub mate: Option<u32>,
    /// This long at most (`movetime`): a budget the search may end early,
    /// between iterations, when the next one is unlikely to finish.
    pub movetime: Option<Duration>,
    /// With `movetime`: all of it, as UCI's `go movetime` ("search exactly x
    /// mseconds"); the search ends only when the time is up (or a mate, a
    /// depth or a node limit ends it).
    pub movetime_exact: bool,
    /// Until stopped (`infinite`).
    pub infinite: bool,
    /// Only these root moves (`searchmoves`); empty means all.
    pub searchmoves: Vec<Move>,
    /// Pondering: while this flag is `true` time does not count; clearing it
    /// is `ponderhit`.
    pub ponder: Option<Arc<AtomicBool>>,
}

/// A score from the side to move's point of view, as UCI `info score` gives it:
/// the one score type of the engine, for its own search and for the `info`
/// lines of outside engines read by [`crate::client`].
///
/// ```
/// use arbiter_engine::Score;
/// assert_eq!(Score::Cp(35).to_string(), "cp 35");
/// assert_eq!(Score::Mate(-3).to_string(), "mate -3");
/// assert!(Score::Mate(3).centipawns() > Score::Cp(5_000).centipawns());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal search score.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }

    /// Centipawns, with mates as ±(100000 − moves): an order on scores in
    /// which a quicker mate is better and a later mate against is better.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(v) => v,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
}

impl std::fmt::Display for Score {
    /// UCI form: `cp 35` or `mate -3`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Whether a reported score is exact or a bound (a fail of the aspiration window).
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::engine::ScoreBound;
/// use arbiter_engine::uci::info_line;
/// use arbiter_engine::{Score, SearchInfo};
/// use std::time::Duration;
///
/// // A fail high of the aspiration window is reported as a lower bound.
/// let info = SearchInfo {
///     depth: 7,
///     seldepth: 9,
///     multipv: 1,
///     score: Score::Cp(40),
///     bound: ScoreBound::Lower,
///     nodes: 1_000,
///     nps: 100_000,
///     time: Duration::from_millis(10),
///     pv: Vec::new(),
///     hashfull: 0,
/// };
/// let line = info_line(&info, &Position::standard());
/// assert!(line.contains("score cp 40 lowerbound"), "{line}");
/// let exact = SearchInfo {
///     bound: ScoreBound::Exact,
///     ..info
/// };
/// assert!(!info_line(&exact, &Position::standard()).contains("bound"));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// Exact.
    Exact,
    /// At least this (UCI `lowerbound`).
    Lower,
    /// At most this (UCI `upperbound`).
    Upper,
}

/// Progress of a search (UCI `info`).
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::engine::ScoreBound;
/// use arbiter_engine::{Engine, EngineOptions, Limits, SearchInfo};
/// use std::sync::atomic::AtomicBool;
/// use std::sync::Arc;
///
/// let pos = Position::standard();
/// let mut engine = Engine::new(EngineOptions {
///     hash_mb: 1,
///     ..EngineOptions::default()
/// });
/// let limits = Limits {
///     depth: Some(3),
///     ..Limits::default()
/// };
/// let stop = Arc::new(AtomicBool::new(false));
/// let mut infos: Vec<SearchInfo> = Vec::new();
/// engine
///     .search(&[pos], &limits, &stop, &mut |i| infos.push(i.clone()))
///     .unwrap();
///
/// let last = infos.last().unwrap();
/// assert_eq!(
///     (last.depth, last.multipv, last.bound),
///     (3, 1, ScoreBound::Exact)
/// );
/// assert!(last.seldepth >= last.depth);
/// assert!(infos.windows(2).all(|w| w[0].nodes <= w[1].nodes));
/// assert!(pos.is_legal(last.pv[0]));
/// ```
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which principal variation (1-based).
    pub multipv: u32,
    /// Its score.
    pub score: Score,
    /// Exact or bound.
    pub bound: ScoreBound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Permille of the hash table in use.
    pub hashfull: u32,
}

/// The outcome of a search.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::{Engine, EngineOptions, Limits};
/// use std::sync::atomic::AtomicBool;
/// use std::sync::Arc;
///
/// let start = Position::standard();
/// let mut engine = Engine::new(EngineOptions {
///     hash_mb: 1,
///     ..EngineOptions::default()
/// });
/// let limits = Limits {
///     depth: Some(3),
///     ..Limits::default()
/// };
/// let stop = Arc::new(AtomicBool::new(false));
/// let r = engine
///     .search(&[start], &limits, &stop, &mut |_| {})
///     .unwrap();
///
/// assert_eq!(r.pv.first(), Some(&r.best));
/// if r.pv.len() > 1 {
///     assert_eq!(r.ponder, Some(r.pv[1]));
/// }
/// assert!(r.nodes > 0);
/// // The whole principal variation is legal, move after move.
/// let mut pos = start;
/// for &m in &r.pv {
///     pos.play(m).expect("a legal move of the line");
/// }
/// ```
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play.
    pub best: Move,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
    /// The score of the best line.
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation (starting with `best`).
    pub pv: Vec<Move>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE + 4), Score::Mate(-2));
        assert_eq!(Score::from_internal(42), Score::Cp(42));
        assert_eq!(Score::Mate(-2).to_string(), "mate -2");
    }
}
