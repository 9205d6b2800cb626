#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod article;
pub mod audit;
mod class;
pub mod clock;
pub mod dead;
pub mod edition;
pub mod event;
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
pub mod json;
pub mod judge;
mod outcome;
pub mod record;
pub mod regulations;
pub mod repetition;
pub mod touch;

pub use article::Article;
pub use class::TimeClass;
pub use clock::{Clock, Delay, DelayKind};
pub use dead::{ChaSolver, DeadPositionStats, Unwinnability, Verdict};
pub use edition::{Edition, Rules, MATCH_RULE};
pub use event::{
    Action, Actor, ClaimKind, Decision, Event, Ground, IllegalMove, Sanction, Start, Variant,
};
pub use game::{
    Applied, ClaimVerdict, ClockReading, Game, LinePlayed, Penalty, PlayedMove, Rejected, Remark,
    ReplayError, StartError,
};
pub use outcome::{GameResult, Outcome, Score, Termination};
pub use regulations::Regulations;
