//! What the end-to-end tests of the `arbiter` binary share: running it, with
//! or without standard input, and reading its JSON lines.

// Each test file uses the helpers it needs.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The `arbiter` binary of this build.
pub fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

/// Runs `arbiter ARGS…` with `stdin` as its standard input, capturing its
/// standard output and error.
pub fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = arbiter()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arbiter binary runs");
    // The child may exit before reading everything (a usage error): that is
    // for the test to judge from its output, not a failure to write.
    let _ = child
        .stdin
        .take()
        .expect("standard input is piped")
        .write_all(stdin.as_bytes());
    child.wait_with_output().expect("the arbiter binary ends")
}

/// Each line of the standard output as JSON; panics naming a line that is not.
pub fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

/// The standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}
