//! # arbiter-laws
//!
//! The FIDE Laws of Chess beyond the moves of the pieces: a game an arbiter
//! would sign. Editions 2014 (the default), 2018 and 2023 ([`Edition`]).
//!
//! - [`Game`]: an append-only log of [`Event`]s (moves with timestamps, draw
//!   offers, claims, resignation, flag, touch, illegal moves, arbiter
//!   decisions) and the state folded from it; [`Game::replay`] rebuilds it.
//! - Game end (Art. 5): checkmate, stalemate, dead position decided exactly
//!   ([`dead`]), resignation; automatic draws of Art. 9.6 (fivefold
//!   repetition — 2014: five consecutive alternate moves — and the 75-move
//!   rule, checkmate taking precedence); claims of Art. 9.2 and 9.3 on the
//!   position or on an intended move; draw offers (9.1); results and scores
//!   (Art. 10, [`GameResult`]).
//! - The chessclock (Art. 6, [`Clock`]): periods, increment before every move
//!   including the first, Bronstein and simple delay, flag fall (6.9) with the
//!   draw when the opponent cannot checkmate; time classes (Appendices A, B).
//! - Illegal moves (7.5, A.4), touch-move (4.3–4.5, [`touch`]), quickplay
//!   finishes (2014 Appendix G, 2018/2023 Guidelines III).
//! - The arbiter's rulings that end a game off the board, with their reason
//!   and what they rest on ([`Ground`]): a forfeit or an adjudicated result
//!   under the regulations of the event (engine matches), for persistent
//!   refusal to comply (11.7), or as a penalty (12.9).
//!
//! The API is typed ([`Event::play`], [`Event::claim_threefold`], …, with
//! [`Move`](arbiter_chess::Move)s, squares and a
//! [`TimeControl`](arbiter_pgn::TimeControl)); the JSON lines of
//! `arbiter judge` are a layer on it ([`json`], [`judge`]).
//!
//! ```
//! use arbiter_laws::{Event, Game, Start, Termination};
//! let mut game = Game::new(Start::default())?;
//! for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
//!     let mv = game.position().parse_uci(uci)?;
//!     game.apply(Event::play(0, game.turn(), mv))?;
//! }
//! let outcome = game.outcome().unwrap();
//! assert_eq!(outcome.result.to_string(), "0-1");
//! assert_eq!(outcome.termination, Termination::Checkmate);
//! assert_eq!(outcome.article, "5.1 a");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod article;
mod class;
pub mod clock;
pub mod dead;
pub mod edition;
pub mod event;
pub mod game;
pub mod json;
pub mod judge;
mod outcome;
pub mod repetition;
pub mod touch;

pub use article::Article;
pub use class::TimeClass;
pub use clock::{Clock, Delay, DelayKind};
pub use dead::{ChaSolver, DeadPositionStats, Unwinnability, Verdict};
pub use edition::{Edition, Rules, MATCH_RULE};
pub use event::{Action, Actor, ClaimKind, Decision, Event, Ground, IllegalMove, Start};
pub use game::{
    Applied, ClaimVerdict, ClockReading, Game, Penalty, PlayedMove, Rejected, ReplayError,
    StartError,
};
pub use outcome::{GameResult, Outcome, Score, Termination};
