//! The FIDE Tournament Report File: TRF-16 (C.04 Annex 2) with the engine
//! extensions JaVaFo and bbpPairings read (`XXR`, `XXC`, `XXA`, `XXP`, `BB*`),
//! and TRF-2026 (records 142, 152, 162, 192, 202).
//!
//! Columns are 1-based and inclusive, as in the specification. [`read`] names
//! any line or field it cannot read by line and column; [`write`] writes every
//! record column-exact, so that a file it wrote reads back into the same
//! [`Event`](crate::Event) and writes again byte for byte.

mod read;
mod write;

pub use read::{read, read_bytes};
pub use write::{trf16_omissions, write, TrfVersion};

/// Why a TRF could not be read, and where (1-based line and column).
///
/// ```
/// let err = arbiter_tournament::trf::read("001    x").unwrap_err();
/// assert_eq!((err.line, err.column), (1, 5));
/// assert!(err.to_string().starts_with("line 1, column 5:"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct TrfError {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl TrfError {
    pub(crate) fn new(line: usize, column: usize, message: impl Into<String>) -> TrfError {
        TrfError {
            line,
            column,
            message: message.into(),
        }
    }
}
