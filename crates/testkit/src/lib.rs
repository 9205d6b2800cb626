//! # arbiter-testkit
//!
//! Helpers shared by the test suites of Arbiter's crates (a dev-dependency
//! only). Tests that drive an outside program (python-chess as an oracle for
//! the Laws or as a UCI client, Chromium for the web app) call
//! [`oracle_available`] first: `cargo test --workspace` passes on a bare
//! machine, skipping such a test with a message, and fails instead when
//! `ARBITER_REQUIRE_ORACLES` is set (as a CI that installed them may do).
//! [`doc_examples`] checks that every public type of a library crate has an
//! example in its documentation.
//!
//! ```
//! use std::process::Command;
//! // A program that is surely not installed: the test skips (returns false).
//! let mut probe = Command::new("arbiter-no-such-program");
//! if std::env::var_os(arbiter_testkit::REQUIRE_ORACLES).is_none() {
//!     assert!(!arbiter_testkit::oracle_available("nothing", "", &mut probe));
//! }
//! ```

#![deny(missing_docs)]

pub mod doc_examples;

use std::process::{Command, Stdio};

/// The environment variable that turns a missing oracle from a skipped test
/// into a failure.
pub const REQUIRE_ORACLES: &str = "ARBITER_REQUIRE_ORACLES";

/// `true` if `probe` runs and exits successfully. Otherwise the test is to be
/// skipped: this prints `SKIPPED: {what} not found ({install})` to standard
/// error and returns `false` — unless [`REQUIRE_ORACLES`] is set, when it
/// panics with that message, failing the test.
pub fn oracle_available(what: &str, install: &str, probe: &mut Command) -> bool {
    let ok = probe
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var_os(REQUIRE_ORACLES).is_none(),
            "{what} is required ({install})"
        );
        eprintln!("SKIPPED: {what} not found ({install})");
    }
    ok
}

/// `true` if `python3` can import `module` of python-chess (`chess`,
/// `chess.engine`, …); see [`oracle_available`] for what happens otherwise.
///
/// ```
/// if !arbiter_testkit::python_chess_available("chess") {
///     return; // skipped with a message
/// }
/// // … drive python-chess here
/// ```
pub fn python_chess_available(module: &str) -> bool {
    oracle_available(
        "python3 with python-chess",
        "pip install chess; .ci/run installs it",
        Command::new("python3").args(["-c", &format!("import {module}")]),
    )
}

/// A file of a crate package unpacked in Cargo's registry
/// (`$CARGO_HOME/registry/src/*/<package>*/<path>`), such as the test data a
/// dev-dependency ships (chasolver's corpora, pgn-reader's samples); `None`
/// when no such package is there.
///
/// ```
/// // A package that is surely not in the registry.
/// assert!(arbiter_testkit::registry_file("arbiter-no-such-crate-", "Cargo.toml").is_none());
/// ```
pub fn registry_file(package: &str, path: &str) -> Option<Vec<u8>> {
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cargo")))?;
    for index in std::fs::read_dir(home.join("registry/src")).ok()?.flatten() {
        for dir in std::fs::read_dir(index.path()).ok()?.flatten() {
            if dir.file_name().to_string_lossy().starts_with(package) {
                if let Ok(bytes) = std::fs::read(dir.path().join(path)) {
                    return Some(bytes);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_that_runs_is_available() {
        // `cargo` itself runs wherever these tests do.
        assert!(oracle_available(
            "cargo",
            "",
            Command::new(env!("CARGO")).arg("--version")
        ));
    }

    #[test]
    fn a_failing_probe_is_not_available() {
        if std::env::var_os(REQUIRE_ORACLES).is_some() {
            return; // it would (rightly) panic
        }
        assert!(!oracle_available(
            "cargo",
            "",
            Command::new(env!("CARGO")).arg("--no-such-flag")
        ));
    }
}
