//! The engine as a library: options, search limits, results, and [`Engine`],
//! which the UCI front end and the web server both drive.

use crate::search::{self, History, SearchContext};
use crate::tt::Tt;
use arbiter_chess::Position;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub use crate::types::{
    EngineOptions, Limits, Score, ScoreBound, SearchInfo, SearchResult, MAX_ELO, MIN_ELO,
};

/// The engine: options, transposition table and move-ordering memory that
/// persist between searches of one game.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::{Engine, EngineOptions, Limits, Score};
/// use std::sync::atomic::AtomicBool;
/// use std::sync::Arc;
///
/// let mut engine = Engine::new(EngineOptions {
///     hash_mb: 1,
///     ..EngineOptions::default()
/// });
/// let stop = Arc::new(AtomicBool::new(false));
/// let limits = Limits {
///     depth: Some(3),
///     ..Limits::default()
/// };
///
/// // A back-rank mate in one: Ra8#.
/// let pos = Position::from_fen_auto("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
/// let r = engine.search(&[pos], &limits, &stop, &mut |_| {}).unwrap();
/// assert_eq!(pos.uci(r.best), "a1a8");
/// assert_eq!(r.score, Score::Mate(1));
///
/// // Stalemate: no legal move, nothing to search.
/// engine.new_game();
/// let stalemate = Position::from_fen_auto("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
/// assert!(engine
///     .search(&[stalemate], &limits, &stop, &mut |_| {})
///     .is_none());
/// ```
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
        let ctx = SearchContext {
            tt: &self.tt,
            history: &mut self.history,
            game: history,
            limits,
            stop,
            options: &self.options,
        };
        if self.options.limit_strength {
            let mut rng = self.seed;
            let r = crate::strength::search_weakened(ctx, &mut rng, info);
            self.seed = rng;
            return r;
        }
        search::run(ctx, info)
    }
}
