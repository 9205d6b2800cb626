//! The evaluation's weights. Until the tuner has run these are the hand-written
//! starting weights of `init.rs`.

use super::Weights;

/// The weights the engine plays with.
pub const WEIGHTS: Weights = super::init::INITIAL;
