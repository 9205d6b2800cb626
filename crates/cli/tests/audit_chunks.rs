//! `arbiter audit FILE --threads N` on a regular file: the workers read it
//! in chunks at once, each from a guessed game start, a chunk read again
//! from the true start where the guess was wrong. The output must be the
//! one-thread output byte for byte, whatever the chunks: tiny chunks (a few
//! bytes to a few hundred) put chunk ends inside tags, comments holding
//! blank lines and `[`, broken and truncated records, so that many guesses
//! are wrong; checked on the bench samples, the odd records of the pgn
//! crate's tests, generated games and records written to mislead the
//! guesses, and against standard input (read as a stream, not mapped).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

/// Records written to mislead the guesses at game starts: comments and
/// variations holding a blank line then `[` at a line's start, games with
/// no blank line between them or several on a line, tag sections without
/// movetext, `%` escape lines and `[pgn]` wrappers between games, CRLF,
/// wide characters before an error's column, an unclosed comment and an
/// unclosed variation, an illegal move, a null move (refused where it is
/// written, in the whole file's lines).
const MISLEADING: &str = "\u{feff}[Event \"BOM first\"]\n[White \"Ä\"]\n[Result \"1-0\"]\n\n\
1. e4 { a comment\n\n[Event \"not a game\"]\n\n holding tags } e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
[Event \"no blank line after\"]\n[Result \"*\"]\n\n1. d4 d5 *\n[Event \"glued\"]\n\n1. c4 (1. b3 {\n\n[Site \"x\"]\n\n}) 1... e5 *\n\n\
[Event \"tags only\"]\n[White \"A\"]\n\n[Event \"tags only 2\"]\n[White \"B\"]\n\n\
% an escape line\n\n[pgn]\n[Event \"wrapped\"]\r\n[Result \"0-1\"]\r\n\r\n1. f3 e5 2. g4 Qh4# 0-1\r\n[/pgn]\n\n\
[Event \"two on a line\"]\n\n1. e4 e5 1/2-1/2 [Event \"second\"] 1. d4 *\n\n\
[Event \"illegal, wide\"]\n[White \"Ωμέγα\"]\n\n{ Ωμέγα } 1. e4 e5 2. Ke3 *\n\n\
[Event \"null move\"]\n\n{ Ωμέγα } 1. e4 e5 2. Nf3\nZ0 3. Bc4 *\n\n\
[Event \"Ω, three on a line\"] 1. e4 * [Event \"b\"] 1. Ke2 Ke7 2. Ke4 * [Event \"c\"] 1. d4 Z0 *\n\n\
[Event \"unclosed comment\"]\n\n1. e4 { never closed\n\n[not a tag\n1. d4\n\n\
[Event \"after it\"]\n\n1. Nf3 *\n\n\
[Event \"unclosed variation\"]\n\n1. e4 (1. d4 d5 2. c4\n\n[Event \"next\"]\n\n1. e4 c5 *\n\n\
[Event \"result then a comment\"]\n\n1. e4 1-0 { said\n\n[Event \"in it\"]\n\n}\n\n\
[Event \"last, cut short\"]\n\n1. e4 e5 2. Nf3 {\n\n[";

/// The output without the summary's timing.
fn without_timing(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout);
    let mut kept = String::new();
    for line in text.lines() {
        match line.find(",\"seconds\":") {
            Some(i) if line.starts_with("{\"summary\":") => kept.push_str(&line[..i]),
            _ => kept.push_str(line),
        }
        kept.push('\n');
    }
    kept
}

fn audit(file: &Path, args: &[&str]) -> Output {
    let out = arbiter()
        .arg("audit")
        .arg(file)
        .args(args)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The output of `text` read from standard input by `threads` threads (one
/// reads the stream itself; more, behind the thread that cuts it into
/// games, each game's places moved to the stream's).
fn streamed(text: &[u8], threads: &str) -> String {
    let mut child = arbiter()
        .args(["audit", "-", "--threads", threads])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(text).unwrap();
    without_timing(&child.wait_with_output().unwrap())
}

/// The one-thread output of `text`, checked against standard input's, then
/// the threads' output for every chunk size, each the same byte for byte.
fn same_in_chunks(dir: &Path, name: &str, text: &[u8], sizes: &[usize], extra: &[&str]) {
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    let one = without_timing(&audit(&file, &[&["--threads", "1"], extra].concat()));
    assert!(one.lines().count() > 1, "{name}: no game");
    if extra.is_empty() {
        let streamed = streamed(text, "1");
        assert_eq!(streamed, one, "{name}: mapped and streamed");
    }
    for (i, size) in sizes.iter().enumerate() {
        let size = size.to_string();
        let threads = ["2", "3"][i % 2];
        let args = [&["--threads", threads, "--chunk-bytes", &size], extra].concat();
        let chunked = without_timing(&audit(&file, &args));
        if chunked != one {
            let at = one
                .lines()
                .zip(chunked.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "{name}, {threads} threads, chunks of {size}: line {at} differs\none:   {}\nchunks: {}",
                one.lines().nth(at).unwrap_or(""),
                chunked.lines().nth(at).unwrap_or("")
            );
        }
    }
}

#[test]
fn misleading_records_whatever_the_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let text = MISLEADING.as_bytes();
    let sizes: Vec<usize> = (1..=60).step_by(3).chain([80, 130, 250, 600]).collect();
    same_in_chunks(dir.path(), "misleading.pgn", text, &sizes, &[]);
    // Cut into games by the cutting thread: the same places (a null move's
    // among them). (A file cut short inside a variation right after a `[`
    // is told in other words there: the game's text ends before the `[`.)
    let file = dir.path().join("misleading.pgn");
    let one = without_timing(&audit(&file, &["--threads", "1"]));
    assert_eq!(
        streamed(text, "2"),
        one,
        "streamed behind the cutting thread"
    );
    // Cut short at many places: the last record broken in every way.
    for cut in (40..text.len()).step_by(97) {
        let name = format!("cut{cut}.pgn");
        same_in_chunks(dir.path(), &name, &text[..cut], &[1, 9, 40], &[]);
    }
}

#[test]
fn odd_records_and_generated_games_whatever_the_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let oddities = include_bytes!("../../pgn/tests/data/oddities.pgn");
    same_in_chunks(
        dir.path(),
        "oddities.pgn",
        oddities,
        &[1, 5, 30, 100, 300, 1000],
        &[],
    );
    let generated = dir.path().join("gen.pgn");
    let out = arbiter()
        .args(["pgn", "generate", "--games", "150", "--seed", "5", "--out"])
        .arg(&generated)
        .output()
        .unwrap();
    assert!(out.status.success());
    // Generated games, then the odd ones and the misleading ones after them.
    let mut text = std::fs::read(&generated).unwrap();
    text.extend_from_slice(oddities);
    text.extend_from_slice(b"\n\n");
    text.extend_from_slice(MISLEADING.as_bytes());
    same_in_chunks(
        dir.path(),
        "mixed.pgn",
        &text,
        &[37, 400, 3000, 40_000],
        &[],
    );
    // Only the findings, and the annotated copy alike.
    same_in_chunks(
        dir.path(),
        "mixed.pgn",
        &text,
        &[150, 2000],
        &["--findings-only"],
    );
    let one_pgn = dir.path().join("one.pgn");
    let chunked_pgn = dir.path().join("chunked.pgn");
    let file = dir.path().join("mixed.pgn");
    let one = audit(
        &file,
        &["--threads", "1", "--annotate", one_pgn.to_str().unwrap()],
    );
    for size in ["90", "1000"] {
        let args = ["--threads", "2", "--chunk-bytes", size, "--annotate"];
        let chunked = audit(
            &file,
            &[&args[..], &[chunked_pgn.to_str().unwrap()]].concat(),
        );
        assert_eq!(
            without_timing(&chunked),
            without_timing(&one),
            "annotated, {size}"
        );
        assert_eq!(
            std::fs::read(&chunked_pgn).unwrap(),
            std::fs::read(&one_pgn).unwrap(),
            "the annotated copy, chunks of {size}"
        );
    }
}

#[test]
fn the_bench_samples_whatever_the_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let mut found = 0;
    for sample in ["lichess_db_100k.pgn", "twic1599_100k.pgn"] {
        let Some(text) =
            arbiter_testkit::registry_file("pgn-reader-0.29.0", &format!("benches/{sample}"))
        else {
            eprintln!("skipped {sample}: pgn-reader 0.29.0 not in the cargo registry");
            continue;
        };
        found += 1;
        same_in_chunks(dir.path(), sample, &text, &[200, 2_000, 20_000], &[]);
    }
    eprintln!("{found} samples");
}

#[test]
fn several_files_numbered_across_with_streams_between() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.pgn");
    std::fs::write(&a, MISLEADING).unwrap();
    let b = dir.path().join("b.pgn.zst");
    std::fs::write(&b, zstd::encode_all(MISLEADING.as_bytes(), 3).unwrap()).unwrap();
    let empty = dir.path().join("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let c = dir.path().join("c.pgn");
    std::fs::write(&c, include_bytes!("../../pgn/tests/data/oddities.pgn")).unwrap();
    let files = [&a, &b, &empty, &a, &c];
    let run = |args: &[&str]| {
        let out = arbiter()
            .arg("audit")
            .args(files)
            .args(args)
            .output()
            .unwrap();
        without_timing(&out)
    };
    let one = run(&["--threads", "1"]);
    for size in ["3", "64", "1000"] {
        assert_eq!(
            run(&["--threads", "2", "--chunk-bytes", size]),
            one,
            "chunks of {size}"
        );
    }
    // The files' games numbered on from one file to the next.
    let numbers: Vec<u64> = one
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|l| l["game"].as_u64())
        .collect();
    assert_eq!(numbers, (1..=numbers.len() as u64).collect::<Vec<_>>());
}
