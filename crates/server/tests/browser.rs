//! The browser tests of `web/` (real headless Chromium driven by
//! playwright-core) against the real `arbiter-server` binary, through
//! `crates/server/tests/browser.sh`: a new user starts a game against the
//! engine, plays by clicking, promotes, offers a draw, resigns; two players
//! through an invitation; the Russian UI; the accessible mode by keyboard
//! alone; accounts (`web/tests/accounts.test.mjs`): sign-up, log in and
//! out, a rated game changing both ratings, a player's page; a page on three
//! nodes of a cluster whose node is killed (`web/tests/cluster.test.mjs`).
//! Screenshots go to `web/test-results/`.
//!
//! Needs Debian's `chromium` and `npm` (the web app's test dependencies are
//! installed with `npm ci`); `.ci/run` installs Chromium. Without them the
//! test is skipped with a message, unless `ARBITER_REQUIRE_ORACLES` is set.

mod pg_scratch;

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

/// The suites share `web/node_modules` (`npm ci`) and the machine: one at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn browser_tests_in_chromium() {
    run_suite(None);
}

#[test]
fn browser_accounts_and_rated_play_in_chromium() {
    run_suite(Some("tests/accounts.test.mjs"));
}

#[test]
fn browser_event_swiss_in_chromium() {
    // The CLI is the oracle of the pairings and standings: `target/…/arbiter`.
    let server = Path::new(env!("CARGO_BIN_EXE_arbiter-server"));
    let cli = server.with_file_name(format!("arbiter{}", std::env::consts::EXE_SUFFIX));
    if !cli.exists() {
        assert!(
            std::env::var_os("ARBITER_REQUIRE_ORACLES").is_none(),
            "the events browser test needs {} (cargo build -p arbiter)",
            cli.display()
        );
        eprintln!(
            "SKIPPED: the events browser test needs {} (cargo build -p arbiter)",
            cli.display()
        );
        return;
    }
    run_suite_with(
        Some("tests/events.test.mjs"),
        &[("ARBITER_CLI", cli.as_os_str())],
    );
}

/// A page on three nodes of a cluster (`web/tests/cluster.test.mjs`):
/// its node is killed with SIGKILL mid-game, the page reconnects through
/// the same address to another node and plays on. Needs PostgreSQL and
/// NATS (`ARBITER_TEST_POSTGRES`, `ARBITER_TEST_NATS`; skipped without).
#[test]
fn browser_cluster_failover_in_chromium() {
    let Ok(nats) = std::env::var("ARBITER_TEST_NATS") else {
        eprintln!(
            "browser_cluster_failover: skipped: set ARBITER_TEST_NATS=nats://host:port to run it"
        );
        return;
    };
    let Some(scratch) = pg_scratch::Scratch::new("browser_cluster_failover") else {
        return;
    };
    run_suite_with(
        Some("tests/cluster.test.mjs"),
        &[
            (
                "ARBITER_CLUSTER_DATABASE",
                std::ffi::OsStr::new(&scratch.url),
            ),
            ("ARBITER_TEST_NATS", std::ffi::OsStr::new(&nats)),
        ],
    );
}

/// Runs `tests/browser.sh` on `files` (web/tests/…), or on npm test's own list.
fn run_suite(files: Option<&str>) {
    run_suite_with(files, &[]);
}

/// [`run_suite`] with more environment for the tests.
fn run_suite_with(files: Option<&str>, env: &[(&str, &std::ffi::OsStr)]) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
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
    let mut command = Command::new("bash");
    command
        .arg(&script)
        .env("ARBITER_SERVER", env!("CARGO_BIN_EXE_arbiter-server"));
    if let Some(f) = files {
        command.env("BROWSER_TESTS", f);
    }
    command.envs(env.iter().copied());
    let status = command.status().expect("bash runs");
    assert!(
        status.success(),
        "browser tests failed (screenshots in web/test-results/)"
    );
}
