//! # arbiter-engine
//!
//! Arbiter's own chess engine and the tools around it:
//!
//! - [`eval`]: a tapered hand-crafted evaluation whose weights are fitted by
//!   [`tune`] (Texel's logistic method) on positions from our own self-play;
//! - [`search`]: iterative deepening principal-variation search with a
//!   transposition table, quiescence search, null-move pruning, late-move
//!   reductions and the usual move ordering; it avoids draws it can avoid and
//!   scores as drawn the repetitions and 50-move positions a player could claim
//!   (FIDE 2014, Art. 9.2, 9.3);
//! - [`Engine`]: the library interface the server embeds (search a game on any
//!   thread, stop it with an `AtomicBool`), with a human-like weakened mode
//!   (`UCI_LimitStrength`/`UCI_Elo`);
//! - [`uci`]: the UCI protocol on top of [`Engine`];
//! - [`client`] and [`matches`](mod@matches): a UCI client for outside
//!   engines and a match runner that plays them against each other under a
//!   clock.
//!
//! # Example
//!
//! Search the initial position three plies deep and play the move found:
//!
//! ```
//! use arbiter_chess::Position;
//! use arbiter_engine::{Engine, EngineOptions, Limits};
//! use std::sync::atomic::AtomicBool;
//! use std::sync::Arc;
//!
//! let mut engine = Engine::new(EngineOptions {
//!     hash_mb: 1,
//!     ..EngineOptions::default()
//! });
//! let game = [Position::standard()];
//! let limits = Limits {
//!     depth: Some(3),
//!     ..Limits::default()
//! };
//! let stop = Arc::new(AtomicBool::new(false));
//! let mut reported = Vec::new();
//! let result = engine
//!     .search(&game, &limits, &stop, &mut |info| reported.push(info.depth))
//!     .expect("the initial position has legal moves");
//! assert!(game[0].is_legal(result.best));
//! assert_eq!(result.depth, 3);
//! assert_eq!(reported.last(), Some(&3));
//!
//! let mut after = game[0];
//! after.play(result.best).expect("a legal move");
//! assert_ne!(after, game[0]);
//! ```

#![deny(missing_docs)]

pub mod client;
pub mod engine;
pub mod eval;
pub mod matches;
pub mod search;
pub mod see;
pub mod strength;
pub mod time;
pub mod tt;
pub mod tune;
pub mod types;
pub mod uci;

pub use engine::{Engine, EngineOptions, Limits, Score, SearchInfo, SearchResult};
