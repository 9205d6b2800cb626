//! The command line's own checks: arguments refused before any work, output
//! directories created, errors said once (perft, audit, tune, serve).

mod common;

use common::{arbiter, run};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// perft(0) = 1: the position itself (`perft -d 0 --divide` printed 0).
#[test]
fn perft_of_depth_zero_is_one_with_or_without_divide() {
    for args in [&["perft", "-d", "0"][..], &["perft", "-d", "0", "--divide"]] {
        let out = arbiter().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.lines().last(), Some("1"), "{args:?}: {text}");
    }
    let out = arbiter()
        .args(["perft", "-d", "1", "--divide"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().last(), Some("20"));
}

/// `--chess960 N` names a start position, as `--fen` does: together the N
/// was silently ignored; now refused (exit 2) naming both.
#[test]
fn perft_refuses_two_start_positions() {
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let out = arbiter()
        .args(["perft", "-d", "1", "--fen", fen, "--chess960", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("--chess960 5") && err.contains("--fen"),
        "{err}"
    );
    // Without N, the FEN in Chess960 mode, as before.
    let out = arbiter()
        .args(["perft", "-d", "1", "--fen", fen, "--chess960"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// `audit --threads 20000` aborted (exit 134) when the system refused a
/// thread: the number is bounded (1 to 1024), refused with exit 2.
#[test]
fn audit_refuses_more_threads_than_it_may_start() {
    for n in ["20000", "0", "1025"] {
        let out = run(&["audit", "-", "--threads", n], "1. e4 *\n");
        assert_eq!(out.status.code(), Some(2), "{n}");
        let err = stderr(&out);
        assert!(
            err.contains("a number of threads from 1 to 1024"),
            "{n}: {err}"
        );
    }
    let out = run(&["audit", "-", "--threads", "2"], "1. e4 *\n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// `arbiter tune fit` of one epoch from `data`, the weights to `weights`.
fn tune_fit(weights: &std::path::Path, data: &std::path::Path) -> std::process::Output {
    arbiter()
        .args(["tune", "fit", "--epochs", "1", "--out"])
        .arg(weights)
        .arg(data)
        .output()
        .unwrap()
}

/// `tune … --out new/dir/file` failed on a missing directory (selfplay at
/// once, fit and openings after computing): the directory is created first,
/// as `pgn generate --out` does.
#[test]
fn tune_creates_the_output_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("new/deeper/openings.epd");
    let out = arbiter()
        .args([
            "tune", "openings", "--count", "1", "--plies", "2", "--nodes", "50", "--out",
        ])
        .arg(&out_file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&out_file).unwrap().lines().count() >= 3);
    let data = dir.path().join("data.txt");
    std::fs::write(&data, "4k3/8/8/8/8/8/8/4K2R w K - 0 1;1.0\n").unwrap();
    let weights = dir.path().join("nd/w.rs");
    let out = tune_fit(&weights, &data);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(weights.exists());
}

/// A cause was printed twice (`…: Is a directory (os error 21): Is a
/// directory (os error 21)`); `serve --data-dir FILE` blamed "File exists".
#[test]
fn errors_say_their_cause_once_and_truly() {
    let dir = tempfile::tempdir().unwrap();
    let out = tune_fit(&dir.path().join("w.rs"), dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.matches("os error 21").count(), 1, "{err}");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let out = arbiter()
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("a file, not a directory"), "{err}");
    assert!(!err.contains("File exists"), "{err}");
}

/// `tune fit` on a file without a training position wrote a weights file
/// ("0 positions", "MSE -0.000000"): it is refused, naming the file, and
/// writes nothing.
#[test]
fn tune_fit_refuses_an_empty_training_set() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("empty.txt");
    std::fs::write(&data, "").unwrap();
    let weights = dir.path().join("w.rs");
    let out = tune_fit(&weights, &data);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("no training positions in") && err.contains("empty.txt"),
        "{err}"
    );
    assert!(!weights.exists());
}
