//! `arbiter match` end to end: the binary plays `arbiter uci` and a scripted
//! fake engine (`tests/engines/fake-uci.sh`) from EPD opening files; the PGN
//! it writes is read back with `arbiter-pgn`.

use arbiter_pgn::{GameResult, Reader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

fn fake() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines/fake-uci.sh")
        .display()
        .to_string()
}

/// `--engine` words for the fake engine in `mode` (with its arguments).
fn fake_engine(name: &str, mode: &[&str]) -> Vec<String> {
    let mut w = vec![
        "--engine".to_owned(),
        "cmd=sh".to_owned(),
        format!("arg={}", fake()),
    ];
    w.extend(mode.iter().map(|m| format!("arg={m}")));
    w.push(format!("name={name}"));
    w
}

/// `--engine` words for `arbiter uci`.
fn ours(name: &str) -> Vec<String> {
    [
        "--engine".to_owned(),
        format!("cmd={ARBITER}"),
        "arg=uci".to_owned(),
        format!("name={name}"),
        "option.Hash=4".to_owned(),
    ]
    .to_vec()
}

/// A fresh directory for one test's files.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-match-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn arbiter_match(args: &[String]) -> Output {
    Command::new(ARBITER)
        .arg("match")
        .args(args)
        .output()
        .unwrap()
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

/// The `Game N …` lines of the output.
fn game_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("Game ")).collect()
}

const E4E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
const D4D5: &str = "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2";

#[test]
fn pairs_from_an_epd_file_with_colours_swapped_and_pgn_that_reads_back() {
    let dir = scratch("pairs");
    let epd = dir.join("openings.epd");
    // EPD: four fields and operations; a comment line.
    let text = format!(
        "# two openings\n{} id \"e4 e5\";\n{} id \"d4 d5\";\n",
        &E4E5[..E4E5.len() - 4],
        &D4D5[..D4D5.len() - 4]
    );
    std::fs::write(&epd, text).unwrap();
    let pgn = dir.join("games.pgn");
    let mut args = ours("Arbiter");
    args.extend(fake_engine("Shuffler", &["shuffle"]));
    args.extend(words(&[
        "--tc",
        "3+0.03",
        "--games",
        "4",
        "--max-moves",
        "20",
        "--margin",
        "50",
        "--openings",
    ]));
    args.push(epd.display().to_string());
    args.push("--pgn".into());
    args.push(pgn.display().to_string());
    let out = arbiter_match(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(game_lines(&stdout).len(), 4, "{stdout}");
    assert!(
        stdout.contains("Finished: Arbiter vs Shuffler:"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<_> = Reader::new(text.as_bytes())
        .games()
        .map(|g| g.unwrap())
        .collect();
    assert_eq!(games.len(), 4, "{text}");
    for (i, g) in games.iter().enumerate() {
        assert!(g.error.is_none(), "{:?}\n{text}", g.error);
        // Games 1 and 2 from the first opening, 3 and 4 from the second;
        // the first engine has White in odd rounds.
        // EPD has no move counters: the FEN gets "0 1".
        let fen = if i < 2 { E4E5 } else { D4D5 };
        let fen = format!("{} 0 1", &fen[..fen.len() - 4]);
        assert_eq!(g.tags.get("FEN"), Some(fen.as_str()), "{text}");
        assert_eq!(g.tags.get("Round"), Some((i + 1).to_string().as_str()));
        let (white, black) = if i % 2 == 0 {
            ("Arbiter", "Shuffler")
        } else {
            ("Shuffler", "Arbiter")
        };
        assert_eq!(
            (g.tags.get("White"), g.tags.get("Black")),
            (Some(white), Some(black))
        );
        assert_eq!(g.tags.get("TimeControl"), Some("3+0.03"));
        // Every move carries the mover's clock as the Laws showed it.
        assert!(!g.line.nodes.is_empty());
        assert!(g.line.nodes.iter().all(|n| n.clock_ms.is_some()), "{text}");
        // After the first move: 3 s, the increments before it and before
        // the next one (6.3 b), less its time.
        let first = g.line.nodes[0].clock_ms.unwrap_or(0);
        assert!(first > 0 && first <= 3_060, "{text}");
        let termination = g.tags.get("Termination").unwrap_or("");
        // Mate, the move limit, or the Shuffler's knight move refused once
        // it is in check or its knight is gone.
        assert!(
            ["normal", "adjudication", "rules infraction"].contains(&termination),
            "{termination:?}\n{text}"
        );
        // Knights out and back lose to a real engine or last to the limit.
        let lost = if i % 2 == 0 {
            GameResult::BlackWins
        } else {
            GameResult::WhiteWins
        };
        assert_ne!(g.result(), lost, "Arbiter lost game {}:\n{text}", i + 1);
        assert_eq!(
            g.tags.get("PlyCount"),
            Some(g.line.nodes.len().to_string().as_str())
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_games_at_once_with_concurrency_2() {
    // The first engine, at its first `go`, waits for another process of
    // itself to reach its first `go`: only two games at once let them meet
    // (then they answer e2e5, otherwise a2a5; both illegal and forfeited).
    let dir = scratch("concurrency");
    let meet = dir.join("meet");
    std::fs::create_dir_all(&meet).unwrap();
    let mut args = fake_engine("Meeter", &["rendezvous", &meet.display().to_string()]);
    args.extend(fake_engine("Shuffler", &["shuffle"]));
    args.extend(words(&["--tc", "60", "--games", "4", "--concurrency", "2"]));
    let out = arbiter_match(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let games = game_lines(&stdout);
    assert_eq!(games.len(), 4, "{stdout}");
    for line in &games {
        assert!(
            line.contains("forfeits: Meeter sent bestmove e2e5") && line.contains("(match rule)"),
            "{stdout}"
        );
    }
    assert!(stdout.contains("+0 =0 -4 (4 games)"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sprt_stops_a_lost_match_early() {
    // The first engine forfeits as White and draws as Black (threefold
    // repetition claimed): 0.25 a game, far below elo1 = 50.
    let mut args = fake_engine("Weak", &["white-forfeits"]);
    args.extend(fake_engine("Shuffler", &["shuffle"]));
    args.extend(words(&[
        "--tc", "10", "--games", "40", "--sprt", "elo0=0", "elo1=50",
    ]));
    let out = arbiter_match(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let games = game_lines(&stdout);
    assert!(games.len() < 20, "{stdout}");
    assert!(stdout.contains("H0 accepted"), "{stdout}");
    assert!(
        games
            .iter()
            .any(|l| l.contains("threefold repetition claimed")),
        "{stdout}"
    );
    assert!(
        games.iter().any(|l| l.contains("Weak sent bestmove e2e5")),
        "{stdout}"
    );
}

#[test]
fn chess960_openings_between_two_of_our_engines() {
    // Both told UCI_Chess960; no move refused; the PGN says the variant.
    let dir = scratch("960");
    let epd = dir.join("960.epd");
    // Chess960 start 0 (bbqnnrkr) and one with the king between rooks on
    // b1 and h1 (Shredder-FEN rights).
    std::fs::write(
        &epd,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n\
         nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1\n",
    )
    .unwrap();
    let pgn = dir.join("960.pgn");
    let mut args = ours("A");
    args.extend(ours("B"));
    args.extend(words(&[
        "--tc",
        "1+0.01",
        "--games",
        "4",
        "--max-moves",
        "12",
    ]));
    args.extend(["--openings".to_owned(), epd.display().to_string()]);
    args.extend(["--pgn".to_owned(), pgn.display().to_string()]);
    let out = arbiter_match(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(!stdout.contains("forfeits"), "{stdout}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<_> = Reader::new(text.as_bytes())
        .games()
        .map(|g| g.unwrap())
        .collect();
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(g.error.is_none(), "{text}");
        assert_eq!(g.tags.get("Variant"), Some("Chess960"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_with_what_and_where() {
    let dir = scratch("bad");
    let epd = dir.join("bad.epd");
    std::fs::write(&epd, format!("{E4E5}\n8/8/8/8/8/8/8/8 w - -\n")).unwrap();
    let mut two = ours("A");
    two.extend(ours("B"));
    let cases: [(Vec<String>, &str); 4] = [
        (
            [
                two.clone(),
                words(&["--openings", &epd.display().to_string()]),
            ]
            .concat(),
            "line 2",
        ),
        (
            [two.clone(), words(&["--tc", "-"])].concat(),
            "runs no clock",
        ),
        (
            [two.clone(), words(&["--edition", "2000"])].concat(),
            "--edition",
        ),
        (ours("A"), "exactly two --engine"),
    ];
    for (args, says) in cases {
        let out = arbiter_match(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
