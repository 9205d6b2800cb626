//! The engine as a library: options, search limits, results, and [`Engine`],
//! which the UCI front end and the web server both drive.

use crate::search::{self, History, MATE, MATE_BOUND};
use crate::tt::Tt;
use arbiter_chess::{Move, Position};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The engine's settings (the UCI options).
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
    /// Exactly this long (`movetime`).
    pub movetime: Option<Duration>,
    /// Until stopped (`infinite`).
    pub infinite: bool,
    /// Only these root moves (`searchmoves`); empty means all.
    pub searchmoves: Vec<Move>,
    /// Pondering: while this flag is `true` time does not count; clearing it
    /// is `ponderhit`.
    pub ponder: Option<Arc<AtomicBool>>,
}

/// A score from the side to move's point of view.
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

/// The engine: options, transposition table and move-ordering memory that
/// persist between searches of one game.
pub struct Engine {
    options: EngineOptions,
    tt: Arc<Tt>,
    history: Box<History>,
    seed: u64,
}

impl Engine {
    /// An engine with these options.
    pub fn new(options: EngineOptions) -> Engine {
        let tt = Arc::new(Tt::new(options.hash_mb));
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x9e37_79b9, |d| d.as_nanos() as u64)
            | 1;
        Engine {
            options,
            tt,
            history: History::boxed(),
            seed,
        }
    }

    /// The current options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Changes the options; a new `Hash` size reallocates (and clears) the table.
    pub fn set_options(&mut self, options: EngineOptions) {
        if options.hash_mb != self.options.hash_mb {
            self.tt = Arc::new(Tt::new(options.hash_mb));
        }
        self.options = options;
    }

    /// Seeds the random choices of the weakened mode (for reproducible games).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed | 1;
    }

    /// Forgets everything learnt (UCI `ucinewgame`).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.history = History::boxed();
    }

    /// Clears the transposition table (UCI `Clear Hash`).
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Searches the last position of `history` (the game so far, oldest
    /// first; earlier positions serve repetition detection) within `limits`,
    /// until done or `stop` becomes `true`. Reports progress to `info`.
    /// Returns `None` only if the side to move has no legal move.
    pub fn search(
        &mut self,
        history: &[Position],
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchResult> {
        let pos = history.last()?;
        if !pos.has_legal_moves() {
            return None;
        }
        self.tt.new_search();
        if self.options.limit_strength {
            let mut rng = self.seed;
            let r = crate::strength::search_weakened(
                &self.tt,
                &mut self.history,
                history,
                limits,
                stop,
                &self.options,
                &mut rng,
                info,
            );
            self.seed = rng;
            return r;
        }
        search::run(
            &self.tt,
            &mut self.history,
            history,
            limits,
            stop,
            &self.options,
            info,
        )
    }
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
