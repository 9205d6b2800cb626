//! The browser tests of `web/` (real headless Chromium driven by
//! playwright-core) against the real `arbiter-server` binary, through
//! `crates/server/tests/browser.sh`: a new user starts a game against the
//! engine, plays by clicking, promotes, offers a draw, resigns; two players
//! through an invitation; the Russian UI; the accessible mode by keyboard
//! alone. Screenshots go to `web/test-results/`.
//!
//! Needs Debian's `chromium` and `npm` (the web app's test dependencies are
//! installed with `npm ci`); `.ci/run` installs Chromium. Without them the
//! test is skipped with a message, unless `ARBITER_REQUIRE_ORACLES` is set.

use std::path::Path;
use std::process::{Command, Stdio};

fn found(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn browser_tests_in_chromium() {
    let missing: Vec<&str> = ["chromium", "npm", "node"]
        .into_iter()
        .filter(|p| !found(p))
        .collect();
    if !missing.is_empty() {
        assert!(
            std::env::var_os("ARBITER_REQUIRE_ORACLES").is_none(),
            "the browser tests need {missing:?}"
        );
        eprintln!("SKIPPED: the browser tests need {missing:?} (apt install chromium npm)");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser.sh");
    let status = Command::new("bash")
        .arg(&script)
        .env("ARBITER_SERVER", env!("CARGO_BIN_EXE_arbiter-server"))
        .status()
        .expect("bash runs");
    assert!(
        status.success(),
        "browser tests failed (screenshots in web/test-results/)"
    );
}
