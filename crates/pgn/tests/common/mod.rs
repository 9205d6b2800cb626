//! Shared test helpers.
pub mod oracle;
