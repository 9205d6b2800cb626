//! `arbiter pgn` and `arbiter perft` on input as people and other programs
//! write it (issue 14): the JSON line says a bad move is in a variation and
//! the main line goes on; a FEN tag's impossible castling rights are dropped
//! with a warning; `perft` refuses a negative Chess960 number, prints an
//! error's cause once, and reads composed positions with `--lenient`.

mod common;

use common::{json_lines, run};

#[test]
fn check_reads_on_after_a_bad_variation_and_says_where() {
    let pgn = "[White \"A\"]\n\n1. e4 e5 2. Nf3 (2. e4 d5) 2... Nc6 3. Bb5 1–0 {time}\n";
    let out = run(&["pgn", "check", "-"], pgn);
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2, "one game and the summary: {lines:?}");
    assert_eq!(lines[0]["plies"], 5);
    assert_eq!(lines[0]["result"], "1-0");
    let message = lines[0]["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("in a variation: illegal move"),
        "{message}"
    );
    assert_eq!(lines[0]["error"]["move"], "e4");

    // convert keeps the game, cut at the bad variation, even without variations.
    let out = run(&["pgn", "convert", "--no-variations", "-"], pgn);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("in a variation"));
}

#[test]
fn check_warns_when_it_drops_castling_rights() {
    let pgn = "[FEN \"r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n1. O-O O-O-O *\n";
    let out = run(&["pgn", "check", "-"], pgn);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let lines = json_lines(&out);
    assert_eq!(lines[0]["plies"], 2);
    assert!(lines[0]["error"].is_null());
    let warning = lines[0]["warnings"][0].as_str().unwrap();
    assert!(warning.contains("rook on h8 dropped"), "{warning}");
    // Games without warnings have no `warnings` field.
    let out = run(&["pgn", "check", "-"], "1. e4 *");
    assert!(json_lines(&out)[0].get("warnings").is_none());
}

#[test]
fn perft_refuses_a_negative_chess960_number() {
    let out = run(&["perft", "-d", "1", "--chess960", "-5"], "");
    assert_ne!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "{out:?}");
    let out = run(&["perft", "-d", "1", "--chess960", "960"], "");
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("0 to 959"));
    // Still: no number is the standard start in Chess960 mode, a number that one.
    let out = run(&["perft", "-d", "2", "--chess960"], "");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "400");
    let out = run(&["perft", "-d", "1", "--chess960", "0"], "");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn perft_error_gives_its_cause_once_and_lenient_counts_composed_positions() {
    // Rooks on e8 and e1 check the king on e5 along one file: impossible in a game (Art. 3.10), but
    // a composed position other perft suites count.
    let fen = "4R3/8/8/4k3/8/8/8/4R2K b - - 0 1";
    let out = run(&["perft", "-d", "2", "--fen", fen], "");
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("impossible check").count(), 1, "{err}");
    let out = run(&["perft", "-d", "1", "--lenient", "--fen", fen], "");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // The king can only step off the file: d4, d5, d6, f4, f5, f6.
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "6");
    // An en-passant square no double step made: dropped when lenient.
    let fen = "4k3/8/8/8/8/8/8/4K3 w - e6 0 1";
    assert_ne!(
        run(&["perft", "-d", "1", "--fen", fen], "").status.code(),
        Some(0)
    );
    let out = run(&["perft", "-d", "1", "--lenient", "--fen", fen], "");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "5");
}
