//! The tuner: self-play games make labelled positions ([`selfplay`]); Texel's
//! logistic fit turns them into evaluation weights ([`texel`]), written as the
//! Rust source of `eval/weights.rs`.

pub mod selfplay;
pub mod texel;
