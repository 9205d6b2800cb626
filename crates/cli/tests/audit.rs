//! `arbiter audit` end to end: JSON lines and the summary, exit status,
//! compressed inputs (zstd, bzip2, gzip) and standard input, threads giving
//! the same output in input order, shards merging by concatenation,
//! `--annotate`, `--findings-only`, and bad input (a truncated file, broken
//! compression, an illegal move mid-game) reported while the audit goes on.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

/// Hand-written games: a correct mate, a mate scored as a draw, a loss on
/// time against a lone king (6.9: a draw), an illegal move, a resignation.
const GAMES: &str = r#"[Event "audit test"]
[White "Mate"]
[Black "Correct"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[White "Mate"]
[Black "Scored as a draw"]
[Result "1/2-1/2"]

1. f3 e5 2. g4 Qh4# 1/2-1/2

[White "Lone king"]
[Black "Flagged"]
[Result "1-0"]
[Termination "Time forfeit"]
[FEN "q7/8/8/4k3/8/8/8/4K3 b - - 0 1"]

1... Qa2 2. Kf1 1-0

[White "Illegal"]
[Black "Move"]
[Result "1-0"]

1. e4 e5 2. Ke3 Nc6 1-0

[White "Resigns"]
[Black "Wins"]
[Result "0-1"]

1. d4 d5 2. c4 e6 0-1
"#;

fn lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn run(args: &[&str]) -> Output {
    arbiter().arg("audit").args(args).output().unwrap()
}

/// The output without the summary's timing.
fn games_only(out: &Output) -> Vec<serde_json::Value> {
    lines(out)
        .into_iter()
        .filter(|l| l.get("summary").is_none())
        .collect()
}

/// The game lines of the audit of [`GAMES`] written plain to `dir/g.pgn`
/// (what every other way of reading them must give).
fn plain_lines(dir: &Path) -> Vec<serde_json::Value> {
    let file = write(dir, "g.pgn", GAMES.as_bytes());
    games_only(&run(&[file.to_str().unwrap()]))
}

#[test]
fn one_line_per_game_then_the_summary_and_exit_1_on_disagreement() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "games.pgn", GAMES.as_bytes());
    let out = run(&[file.to_str().unwrap(), "--threads", "1"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let l = lines(&out);
    assert_eq!(l.len(), 6);
    assert_eq!(l[0]["game"], 1);
    assert_eq!(l[0]["white"], "Mate");
    assert_eq!(l[0]["agrees"], true);
    assert_eq!(l[0]["laws"]["ply"], 4);
    assert_eq!(l[0]["laws"]["article"], "5.1 a");
    assert_eq!(l[1]["agrees"], false);
    assert_eq!(l[1]["recorded"]["result"], "1/2-1/2");
    assert_eq!(l[1]["laws"]["result"], "0-1");
    assert_eq!(l[1]["findings"][0]["kind"], "wrong_result");
    assert_eq!(l[2]["findings"][0]["kind"], "timeout_draw");
    assert_eq!(l[2]["findings"][0]["article"], "6.9");
    assert_eq!(l[2]["laws"]["result"], "1/2-1/2");
    assert_eq!(l[3]["findings"][0]["kind"], "illegal_move");
    assert_eq!(l[3]["findings"][0]["place"]["line"], 26);
    assert_eq!(l[3]["findings"][0]["place"]["column"], 13);
    assert_eq!(l[4]["agrees"], true);
    assert_eq!(l[4]["laws"]["termination"], "resignation");
    let s = &l[5]["summary"];
    assert_eq!(s["games"], 5);
    assert_eq!(s["disagree"], 3);
    assert_eq!(s["findings"]["wrong_result"], 1);
    assert_eq!(s["findings"]["timeout_draw"], 1);
    assert_eq!(s["findings"]["illegal_move"], 1);
    assert_eq!(s["plies"], 4 + 4 + 2 + 2 + 4);
    assert_eq!(s["bytes"], GAMES.len());
    assert!(s["games_per_s"].as_f64().unwrap() > 0.0);
}

#[test]
fn agreement_exits_0_and_findings_only_prints_only_findings() {
    let dir = tempfile::tempdir().unwrap();
    let clean = write(
        dir.path(),
        "clean.pgn",
        b"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    let out = run(&[clean.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let file = write(dir.path(), "games.pgn", GAMES.as_bytes());
    let out = run(&[file.to_str().unwrap(), "--findings-only"]);
    let games: Vec<u64> = games_only(&out)
        .iter()
        .map(|l| l["game"].as_u64().unwrap())
        .collect();
    assert_eq!(games, [2, 3, 4]);
    assert_eq!(lines(&out).last().unwrap()["summary"]["games"], 5);
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(run(&[]).status.code(), Some(2));
    assert_eq!(run(&["/no/such/file.pgn"]).status.code(), Some(2));
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "g.pgn", GAMES.as_bytes());
    let f = file.to_str().unwrap();
    assert_eq!(run(&[f, "--shard", "0/4"]).status.code(), Some(2));
    assert_eq!(run(&[f, "--shard", "5/4"]).status.code(), Some(2));
    assert_eq!(run(&[f, "--edition", "2015"]).status.code(), Some(2));
}

/// Many generated games: threads and shards must not change a line.
fn generated(dir: &Path, games: u32) -> PathBuf {
    let p = dir.join("generated.pgn");
    let out = arbiter()
        .args([
            "pgn",
            "generate",
            "--games",
            &games.to_string(),
            "--seed",
            "5",
            "--out",
        ])
        .arg(&p)
        .output()
        .unwrap();
    assert!(out.status.success());
    p
}

#[test]
fn threads_keep_the_input_order_and_shards_merge_by_concatenation() {
    let dir = tempfile::tempdir().unwrap();
    let file = generated(dir.path(), 600);
    let f = file.to_str().unwrap();
    let one = games_only(&run(&[f, "--threads", "1"]));
    assert_eq!(one.len(), 600);
    let four = games_only(&run(&[f, "--threads", "4"]));
    assert_eq!(one, four);
    // One thread passes the other shards' games over; several cut them
    // out and judge only their own: the same lines either way.
    for threads in ["1", "2"] {
        let mut shards = Vec::new();
        for k in 1..=3 {
            let shard = format!("{k}/3");
            let out = run(&[f, "--shard", &shard, "--threads", threads]);
            let part = games_only(&out);
            assert!(part
                .iter()
                .all(|l| (l["game"].as_u64().unwrap() - 1) % 3 == k - 1));
            shards.extend(part);
        }
        shards.sort_by_key(|l| l["game"].as_u64().unwrap());
        assert_eq!(one, shards, "{threads} thread(s)");
    }
}

#[test]
fn compressed_inputs_and_standard_input_give_the_same_lines() {
    let dir = tempfile::tempdir().unwrap();
    let plain = plain_lines(dir.path());
    let zst = zstd::encode_all(GAMES.as_bytes(), 3).unwrap();
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(GAMES.as_bytes()).unwrap();
    let bz = bz.finish().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(GAMES.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    for (name, bytes) in [("g.pgn.zst", &zst), ("g.pgn.bz2", &bz), ("g.pgn.gz", &gz)] {
        let p = write(dir.path(), name, bytes);
        for threads in ["1", "2"] {
            let out = run(&[p.to_str().unwrap(), "--threads", threads]);
            assert_eq!(games_only(&out), plain, "{name}, {threads} threads");
        }
    }
    let mut child = arbiter()
        .args(["audit", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&zst).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(games_only(&out), plain, "zstd on standard input");
}

/// A named pipe (`mkfifo`; as `<(zstdcat db.pgn.zst)` hands the audit a
/// pipe's name) is read once, by its stream: looked at, never opened and
/// closed before (its writer would lose its reader and the audit wait on
/// a pipe nobody writes to).
#[cfg(unix)]
#[test]
fn a_named_pipe_is_read_as_a_stream() {
    let dir = tempfile::tempdir().unwrap();
    let plain = plain_lines(dir.path());
    for threads in ["1", "2"] {
        let fifo = dir.path().join(format!("pipe{threads}"));
        let made = Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: mkfifo did not make a pipe");
            return;
        }
        let child = arbiter()
            .args(["audit", fifo.to_str().unwrap(), "--threads", threads])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        // An audit waiting on a pipe nobody writes to any more is stopped.
        let pid = child.id().to_string();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(60));
            let _ = Command::new("kill").args(["-9", &pid]).status();
        });
        // Opening the pipe to write waits for the audit to open it to read.
        let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        let wrote = writer.write_all(GAMES.as_bytes());
        drop(writer);
        let out = child.wait_with_output().unwrap();
        assert!(wrote.is_ok(), "{threads} threads: {wrote:?}");
        assert_eq!(games_only(&out), plain, "{threads} threads");
    }
}

#[test]
fn two_files_are_numbered_across_and_broken_compression_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let mut zst = zstd::encode_all(GAMES.repeat(50).as_bytes(), 3).unwrap();
    zst.truncate(zst.len() / 2);
    let broken = write(dir.path(), "broken.pgn.zst", &zst);
    let good = write(dir.path(), "good.pgn", GAMES.as_bytes());
    for threads in ["1", "2"] {
        let out = run(&[
            broken.to_str().unwrap(),
            good.to_str().unwrap(),
            "--threads",
            threads,
        ]);
        assert_eq!(out.status.code(), Some(1));
        let l = lines(&out);
        let error = l
            .iter()
            .position(|l| l.get("input_error").is_some())
            .expect("an input error line");
        assert!(l[error]["input_error"]["file"]
            .as_str()
            .unwrap()
            .ends_with("broken.pgn.zst"));
        // The good file's five games come after it, numbered on.
        let after: Vec<&serde_json::Value> = l[error + 1..]
            .iter()
            .filter(|l| l.get("game").is_some())
            .collect();
        assert_eq!(after.len(), 5, "{threads} threads");
        let first = after[0]["game"].as_u64().unwrap();
        assert_eq!(
            first,
            l[error]["input_error"]["after_game"].as_u64().unwrap() + 1
        );
        assert_eq!(after[0]["white"], "Mate");
        assert_eq!(l.last().unwrap()["summary"]["input_errors"], 1);
    }
}

#[test]
fn a_truncated_file_is_audited_to_its_last_game() {
    let dir = tempfile::tempdir().unwrap();
    let cut = &GAMES[..GAMES.find("2. c4").unwrap()];
    let p = write(dir.path(), "cut.pgn", cut.as_bytes());
    let out = run(&[p.to_str().unwrap()]);
    let l = games_only(&out);
    assert_eq!(l.len(), 5);
    // The last game's record stops after 1. d4 d5 with no result: reported,
    // and judged as far as it goes (a resignation by its Result tag).
    assert_eq!(l[4]["plies"], 2);
    assert_eq!(l[4]["findings"][0]["kind"], "unreadable");
    assert_eq!(l[4]["agrees"], false);
    assert_eq!(l[4]["laws"]["termination"], "resignation");
    assert!(l[..4].iter().all(|g| g["findings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["kind"] != "unreadable")));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn annotate_writes_every_game_with_the_laws_result() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "g.pgn", GAMES.as_bytes());
    let annotated = dir.path().join("out.pgn");
    let out = run(&[
        file.to_str().unwrap(),
        "--annotate",
        annotated.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(&annotated).unwrap();
    assert_eq!(text.matches("[LawsResult ").count(), 5);
    assert!(text.contains("[Result \"1/2-1/2\"]\n[LawsResult \"0-1\"]\n[LawsArticle \"5.1 a\"]"));
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("Qh4# {Laws (2014): the game ends here by checkmate, 0-1 (Art. 5.1 a)}"),
        "{flat}"
    );
    // And the annotated file reads back, with the same verdicts.
    let again = run(&[annotated.to_str().unwrap()]);
    let verdicts = |o: &Output| -> Vec<serde_json::Value> {
        games_only(o).iter().map(|l| l["laws"].clone()).collect()
    };
    assert_eq!(verdicts(&again)[..3], verdicts(&out)[..3]);
}

/// `--annotate OUT` naming one of the inputs — by its own name, as `./`
/// it, through a symbolic link, or as the file standard input is
/// redirected from — is refused with exit status 2 before anything is
/// written, naming both: the input is left whole. Found by a tester: the
/// input was emptied before it was read, and the audit of its 0 games
/// exited 0.
#[test]
fn annotate_naming_an_input_is_refused_and_the_input_left_whole() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "g.pgn", GAMES.as_bytes());
    let zst = write(
        dir.path(),
        "g.pgn.zst",
        &zstd::encode_all(GAMES.as_bytes(), 3).unwrap(),
    );
    let other = write(dir.path(), "other.pgn", GAMES.as_bytes());
    let dotted = dir.path().join(".").join("g.pgn");
    let (f, z, o) = (
        file.to_str().unwrap(),
        zst.to_str().unwrap(),
        other.to_str().unwrap(),
    );
    let mut cases = vec![
        (vec![f], f.to_owned()),
        (vec![z], z.to_owned()),
        (vec![o, f], dotted.to_str().unwrap().to_owned()),
        (vec![f, "--threads", "2"], f.to_owned()),
    ];
    #[cfg(unix)]
    {
        let link = dir.path().join("link.pgn");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        cases.push((vec![f], link.to_str().unwrap().to_owned()));
    }
    for (inputs, out) in cases {
        let mut args = inputs.clone();
        args.extend(["--annotate", &out]);
        let run = run(&args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(run.stdout.is_empty(), "{args:?}");
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(
            said.contains(&out) && said.contains("is the input"),
            "{said}"
        );
        assert_eq!(std::fs::read(&file).unwrap(), GAMES.as_bytes(), "{args:?}");
        assert_eq!(
            std::fs::read(&zst).unwrap(),
            zstd::encode_all(GAMES.as_bytes(), 3).unwrap()
        );
    }
    // Standard input redirected from the file.
    let run = arbiter()
        .args(["audit", "-", "--annotate", f])
        .stdin(std::fs::File::open(&file).unwrap())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("standard input"));
    assert_eq!(std::fs::read(&file).unwrap(), GAMES.as_bytes());
    // Another file (existing or not) is written as ever.
    let fresh = dir.path().join("fresh.pgn");
    for out in [fresh.to_str().unwrap(), o] {
        let run = run_annotating(f, out);
        assert_eq!(run.status.code(), Some(1), "{out}");
        let text = std::fs::read_to_string(out).unwrap();
        assert_eq!(text.matches("[LawsResult ").count(), 5);
    }
}

fn run_annotating(input: &str, out: &str) -> Output {
    run(&[input, "--annotate", out])
}

/// `input_error.after_game` is the number of the last game read whole
/// before the input broke, numbered as `game` is (across all inputs), and
/// the same whatever `--threads`: the output is the same line for line.
/// Found by a tester: it counted the games of the broken file alone, and
/// with one thread the broken game too (2945 against 2944, both of a file
/// whose games were numbered from 19).
#[test]
fn an_input_error_is_placed_after_a_game_numbered_as_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let first = write(dir.path(), "first.pgn", GAMES.as_bytes());
    // Games enough for several zstd blocks: half of them decode.
    let many = std::fs::read(generated(dir.path(), 2000)).unwrap();
    let mut zst = zstd::encode_all(&many[..], 3).unwrap();
    zst.truncate(zst.len() / 2);
    let broken = write(dir.path(), "broken.pgn.zst", &zst);
    let good = write(dir.path(), "good.pgn", GAMES.as_bytes());
    let files = [first, broken, good];
    let files: Vec<&str> = files.iter().map(|p| p.to_str().unwrap()).collect();
    let mut outputs = Vec::new();
    for threads in ["1", "2", "3"] {
        let mut args = files.clone();
        args.extend(["--threads", threads]);
        let l = games_only(&run(&args));
        let error = l
            .iter()
            .position(|l| l.get("input_error").is_some())
            .expect("an input error line");
        let after = l[error]["input_error"]["after_game"].as_u64().unwrap();
        assert_eq!(
            after,
            l[error - 1]["game"].as_u64().unwrap(),
            "{threads} threads"
        );
        assert!(after > 5, "{threads} threads: {after}");
        assert_eq!(l[error + 1]["game"].as_u64().unwrap(), after + 1);
        outputs.push(l);
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
}

/// A game of a stream longer than the most a splitter holds (32 MiB: here
/// a comment of 40 MB in a `.pgn.zst` of a few KB) is audited with two
/// threads as with one (`unreadable`, `comment longer than 16 MiB`, at its
/// place), and the games after it are numbered and placed as ever.
#[test]
fn a_stream_s_game_longer_than_held_is_audited_as_by_one_thread() {
    let dir = tempfile::tempdir().unwrap();
    let mut pgn = String::from("[Event \"bomb\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 {");
    pgn.push_str(&"c".repeat(40 << 20));
    pgn.push_str("} Nc6 1-0\n\n");
    pgn.push_str(GAMES);
    let zst = write(
        dir.path(),
        "bomb.pgn.zst",
        &zstd::encode_all(pgn.as_bytes(), 1).unwrap(),
    );
    drop(pgn);
    let z = zst.to_str().unwrap();
    let one = games_only(&run(&[z, "--threads", "1"]));
    let two = games_only(&run(&[z, "--threads", "2"]));
    assert_eq!(one.len(), 6);
    assert_eq!(one, two);
    let finding = &one[0]["findings"][0];
    assert_eq!(finding["kind"], "unreadable");
    assert!(
        finding["text"]
            .as_str()
            .unwrap()
            .contains("comment longer than 16 MiB"),
        "{finding}"
    );
    assert_eq!(finding["place"]["line"], 4);
}

/// A record in UTF-16 with its byte-order mark (as some Windows tools write
/// PGN), little- or big-endian, plain, gzipped or on standard input, is read
/// as its UTF-8 text: `audit` gives the same game lines and `pgn check` the
/// same output (the tester's UTF-16 export gave an `illegal_move` finding a
/// game, its NUL bytes read as spaces).
#[test]
fn a_utf16_record_is_read_as_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = "[Event \"x\"]\n[White \"Müller\"]\n[Black \"Ёлкин\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n[Event \"y\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";
    let utf8 = dir.path().join("utf8.pgn");
    std::fs::write(&utf8, text).unwrap();
    let games = |out: &Output| -> Vec<String> {
        String::from_utf8(out.stdout.clone())
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("{\"summary\""))
            .map(str::to_owned)
            .collect()
    };
    let run = |args: &[&str], stdin: Option<&Path>| -> Output {
        let mut c = arbiter();
        c.args(args);
        if let Some(p) = stdin {
            c.stdin(std::fs::File::open(p).unwrap());
        }
        c.output().unwrap()
    };
    let u = utf8.to_str().unwrap();
    let expected = games(&run(&["audit", u], None));
    assert_eq!(expected.len(), 2);
    assert!(expected.iter().all(|l| l.contains("\"agrees\":true")));
    let checked = run(&["pgn", "check", u], None).stdout;
    let le: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let be: Vec<u8> = [0xfe, 0xff]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    for (name, bytes) in [("le.pgn", le), ("be.pgn", be)] {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let gz = dir.path().join(format!("{name}.gz"));
        let mut enc = flate2::write::GzEncoder::new(
            std::fs::File::create(&gz).unwrap(),
            flate2::Compression::default(),
        );
        enc.write_all(&bytes).unwrap();
        enc.finish().unwrap();
        let p = path.to_str().unwrap();
        for threads in ["1", "2"] {
            for file in [p, gz.to_str().unwrap()] {
                let out = run(&["audit", file, "--threads", threads], None);
                assert_eq!(games(&out), expected, "{file} with {threads} threads");
            }
        }
        assert_eq!(
            games(&run(&["audit", "-"], Some(&path))),
            expected,
            "{name} on standard input"
        );
        assert_eq!(
            run(&["pgn", "check", p], None).stdout,
            checked,
            "pgn check {name}"
        );
    }
}
