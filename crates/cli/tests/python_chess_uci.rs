//! python-chess (a UCI client nobody here wrote) plays games against
//! `arbiter uci`: handshake, options, clocks, movetime, depth, MultiPV,
//! pondering and Chess960 (`crates/engine/tests/python/python_chess_games.py`).
//! Needs `python3` with `chess` (`pip install chess`; `.ci/run` installs it).

use std::path::Path;
use std::process::Command;

#[test]
fn python_chess_plays_arbiter_uci() {
    if !arbiter_testkit::python_chess_available("chess.engine") {
        return;
    }
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/python/python_chess_games.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "python-chess games failed:\n{stdout}");
    assert!(stdout.contains("passed, 0 failed"), "{stdout}");
}
