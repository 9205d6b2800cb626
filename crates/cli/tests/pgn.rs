//! `arbiter pgn check|convert` end to end: JSON lines, exit status, standard input.

mod common;

use common::{arbiter, json_lines, run, stdout};

const ODDITIES: &str = "../pgn/tests/data/oddities.pgn";

#[test]
fn check_prints_one_json_line_per_game_and_fails_on_errors() {
    let out = arbiter().args(["pgn", "check", ODDITIES]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    let text = stdout(&out);
    assert_eq!(lines.len(), 11);
    assert!(text
        .lines()
        .next()
        .unwrap()
        .starts_with("{\"game\":1,\"white\":"));
    assert_eq!(lines[0]["white"], "Алехин, Александр");
    assert_eq!(lines[0]["plies"], 20);
    assert!(lines[0]["error"].is_null());
    let bad = &lines[8];
    assert_eq!(bad["game"], 9);
    assert_eq!(bad["error"]["move"], "Ke3");
    assert_eq!(bad["error"]["ply"], 3);
    assert_eq!(bad["error"]["column"], 13);
    assert_eq!(
        bad["final_fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(lines[10]["summary"]["games"], 10);
    assert_eq!(lines[10]["summary"]["errors"], 1);
}

/// A game whose `FEN` or `Variant` tag is refused has no position at all:
/// its `final_fen` is null (it was the standard start, which the game never
/// had); the next game is read as usual.
#[test]
fn check_gives_no_final_position_to_a_game_without_a_start() {
    let pgn = "[FEN \"4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Qe8 *\n\n[Variant \"Atomic\"]\n\n1. e4 *\n\n1. e4 *\n";
    let out = run(&["pgn", "check", "-"], pgn);
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    assert!(lines[0]["final_fen"].is_null(), "{}", lines[0]);
    assert!(lines[0]["error"]["message"]
        .as_str()
        .is_some_and(|m| m.starts_with("FEN tag")));
    assert!(lines[1]["final_fen"].is_null(), "{}", lines[1]);
    assert_eq!(
        lines[2]["final_fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
}

#[test]
fn convert_reads_standard_input_and_round_trips_through_russian() {
    let pgn = "[White \"Таль\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. Re1 Be7 *\n";
    let run = |args: &[&str], input: &str| {
        let out = run(args, input);
        (out.status.code(), stdout(&out))
    };
    let (code, ru) = run(&["pgn", "convert", "--to", "ru", "-"], pgn);
    assert_eq!(code, Some(0));
    assert!(
        ru.contains("1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 4. 0-0 Кf6 5. Лe1 Сe7 *"),
        "{ru}"
    );
    let (code, en) = run(&["pgn", "convert", "--to", "en", "-"], &ru);
    assert_eq!(code, Some(0));
    assert!(
        en.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. Re1 Be7 *"),
        "{en}"
    );
    let (code, check) = run(&["pgn", "check", "-"], &ru);
    assert_eq!(code, Some(0));
    assert!(check.contains("\"plies\":10"));
}

/// A file is read where it lies (mapped into memory), standard input through
/// the reader's buffer: the same lines, the same exit status — on the odd
/// records, on a real sample when the registry has it, and on both cut
/// short mid-game; an empty file is no game.
#[test]
fn check_reads_a_file_as_it_reads_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = vec![std::fs::read(ODDITIES).unwrap()];
    match arbiter_testkit::registry_file("pgn-reader-0.29.0", "benches/twic1599_100k.pgn") {
        Some(text) => inputs.push(text),
        None => eprintln!("skipped the TWIC sample: pgn-reader 0.29.0 not in the cargo registry"),
    }
    let cuts: Vec<Vec<u8>> = inputs
        .iter()
        .map(|t| t[..t.len() * 2 / 3].to_vec())
        .collect();
    inputs.extend(cuts);
    inputs.push(Vec::new());
    for (i, text) in inputs.iter().enumerate() {
        let path = dir.path().join(format!("{i}.pgn"));
        std::fs::write(&path, text).unwrap();
        let from_file = arbiter()
            .args(["pgn", "check", path.to_str().unwrap()])
            .output()
            .unwrap();
        let from_stdin = arbiter()
            .args(["pgn", "check", "-"])
            .stdin(std::fs::File::open(&path).unwrap())
            .output()
            .unwrap();
        assert_eq!(
            from_file.status.code(),
            from_stdin.status.code(),
            "input {i}"
        );
        assert_eq!(stdout(&from_file), stdout(&from_stdin), "input {i}");
        assert!(
            json_lines(&from_file).len() > usize::from(!text.is_empty()),
            "input {i}"
        );
    }
}

/// A game whose main line breaks is written up to the error, as `audit
/// --annotate` writes it: its tags, the moves before the error, a comment
/// naming the error and its place, its result; the error is still said on
/// standard error and in the exit status, and the next game is written.
#[test]
fn convert_writes_a_broken_game_up_to_its_error() {
    let pgn = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 Ke7 2. Kxe7 1-0\n\n[Event \"b\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n[Event \"c\"]\n\n1. d4 d5 *\n";
    let out = run(&["pgn", "convert", "-"], pgn);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("[Event \"a\"]"), "{text}");
    assert!(
        flat.contains(
            "[Result \"1-0\"] 1. e4 {Read up to here: line 4, column 7, move 1... (ply 2), at \"Ke7\": illegal move \"Ke7\""
        ),
        "{text}"
    );
    assert!(flat.contains("} 1-0 [Event \"b\"]"), "{text}");
    assert!(
        flat.contains(
            "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"] {Read up to here: line 7, column 1, at \"8/8/8/8/8/8/8/8 w - - 0 1\": FEN tag"
        ),
        "{text}"
    );
    assert!(flat.contains("[Event \"c\"]"), "{text}");
    assert!(flat.ends_with("1. d4 d5 *"), "{text}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("game 1, line 4, column 7, move 1... (ply 2), at \"Ke7\": illegal move"),
        "{err}"
    );
    assert!(err.contains("game 2, line 7"), "{err}");
}

/// An input that cannot be read (a directory) is an error naming it, for
/// every subcommand of `pgn` that reads one; so is an output that cannot be
/// written.
#[test]
fn a_file_that_cannot_be_read_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().to_str().unwrap();
    for command in ["check", "convert"] {
        let out = arbiter().args(["pgn", command, name]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("cannot read {name}: ")),
            "{command}: {err}"
        );
    }
    let out = arbiter()
        .args(["pgn", "generate", "--games", "1", "--out", "/dev/full"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write /dev/full: "), "{err}");
}

/// `pgn check` read a `.gz`, `.zst` or `.bz2` file's bytes as PGN (50
/// "games" of garbage): it reads them through their decoder, known by their
/// first bytes, as `arbiter audit` does; a file and standard input alike.
#[test]
fn check_reads_compressed_input() {
    use std::io::Write;
    let pgn = "[White \"A\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[White \"B\"]\n\n1. d4 d5 0-1\n";
    let plain = json_lines(&run(&["pgn", "check", "-"], pgn));
    assert_eq!(plain.last().unwrap()["summary"]["games"], 2);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(pgn.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let zst = zstd::encode_all(pgn.as_bytes(), 3).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [("g.pgn.gz", &gz), ("g.pgn.zst", &zst)] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = arbiter()
            .args(["pgn", "check", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}");
        let lines = json_lines(&out);
        assert_eq!(lines[..2], plain[..2], "{name}");
        assert_eq!(lines[2]["summary"]["games"], 2, "{name}");
        let out = arbiter()
            .args(["pgn", "convert", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(stdout(&out).contains("1. d4 d5 0-1"), "{name}");
    }
}

/// PGN §8.2.6 (the marker matches the Result tag) and Art. 8.1 (moves are
/// numbered): `pgn check` writes the warnings of a mended game, and an
/// error's move number as the record writes it beside its ply.
#[test]
fn check_says_warnings_and_move_numbers() {
    let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# *\n\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 20\"]\n\n20... Kd7 21. Rh7+ Ke6 22. Rh9 *\n\n1. e4 e5\n";
    let out = run(&["pgn", "check", "-"], pgn);
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    assert_eq!(lines[0]["result"], "1-0");
    assert!(lines[0]["warnings"][0]
        .as_str()
        .unwrap()
        .starts_with("the Result tag says 1-0 but the movetext ends *"));
    assert_eq!(lines[1]["error"]["ply"], 4);
    assert_eq!(lines[1]["error"]["move_number"], "22.");
    assert_eq!(lines[1]["error"]["move"], "Rh9");
    assert!(lines[2]["warnings"][0]
        .as_str()
        .unwrap()
        .starts_with("the movetext ends without a termination marker"));
    // convert writes the tag's result and says why.
    let out = run(&["pgn", "convert", "-"], pgn);
    assert!(stdout(&out).contains("4. Qxf7# 1-0"), "{}", stdout(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: game 1, line 3, column 41: the Result tag says 1-0"),
        "{err}"
    );
    assert!(
        err.contains("game 2, line 8, column 28, move 22. (ply 4), at \"Rh9\""),
        "{err}"
    );
}
