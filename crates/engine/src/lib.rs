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
//! - [`client`] and [`matches`]: a UCI client for outside engines and a match
//!   runner that plays them against each other under a clock.

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
