//! # arbiter-pgn
//!
//! Game records (FIDE Laws Article 8 and Appendix C; the PGN standard): the
//! notations a player writes ([`Notation`]), and the `TimeControl` tag.

#![deny(missing_docs)]

pub mod notation;
pub mod time_control;

pub use notation::{read_move, read_move_bytes, Dialect, Notation, ReadMoveError, UnknownNotation};
pub use time_control::{ParseTimeControlError, Period, TimeControl};
