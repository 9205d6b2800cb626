//! # arbiter-pgn
//!
//! Game records (FIDE Laws Article 8 and Appendix C; the PGN standard): the
//! `TimeControl` tag. (The streaming reader, writer and notations follow.)

#![deny(missing_docs)]

pub mod time_control;

pub use time_control::{ParseTimeControlError, Period, TimeControl};
