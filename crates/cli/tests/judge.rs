//! `arbiter judge` end to end: a FILE is read ahead, standard input is
//! answered line by line, `--read-ahead` chooses; the answers are the same.

use std::io::Write;
use std::process::{Command, Stdio};

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

/// King and knight against king and pawn (alive: a helpmate exists for
/// both); the knight takes the pawn and the position is dead (Art. 5.2 b).
const RECORD: &str = r#"{"start": {"fen": "8/8/8/4k3/8/3p4/8/2N1K3 w - - 0 1", "time_control": "60+1"}}
{"t": 1000, "by": "white", "do": "move", "move": "Kd2"}
{"t": 2000, "by": "black", "do": "move", "move": "Ke4"}
# the knight takes the pawn
{"t": 3000, "by": "white", "do": "move", "move": "Nxd3"}
{"t": 4000, "by": "black", "do": "move", "move": "Kd4"}
"#;

fn judge(args: &[&str], stdin: Option<&str>) -> (Option<i32>, String) {
    let mut child = arbiter()
        .arg("judge")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn a_file_read_ahead_and_stdin_line_by_line_answer_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.jsonl");
    std::fs::write(&path, RECORD).unwrap();
    let file = path.to_str().unwrap();
    let (code, ahead) = judge(&[file], None);
    assert_eq!(code, Some(0));
    let lines: Vec<serde_json::Value> = ahead
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The start line and four events (the comment gives no answer).
    assert_eq!(lines.len(), 5, "{ahead}");
    assert_eq!(lines[2]["status"], "ongoing");
    assert_eq!(lines[3]["move"], "Nxd3");
    assert_eq!(lines[3]["status"], "ended");
    assert_eq!(lines[3]["result"], "1/2-1/2");
    assert_eq!(lines[3]["termination"], "dead_position");
    assert_eq!(lines[3]["article"], "5.2 b");
    assert_eq!(lines[4]["ok"], false);
    for (args, stdin) in [
        (vec!["--read-ahead", "false", file], None),
        (vec!["-"], Some(RECORD)),
        (vec!["--read-ahead=true", "-"], Some(RECORD)),
    ] {
        let (code, out) = judge(&args, stdin);
        assert_eq!(code, Some(0), "{args:?}");
        assert_eq!(out, ahead, "{args:?}");
    }
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let out = arbiter()
        .args(["judge", "no/such/game.jsonl"])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no/such/game.jsonl"), "{err}");
}

#[test]
fn moves_are_answered_in_the_notation_asked() {
    let game = r#"{"start": {}}
{"t": 1, "by": "white", "do": "move", "move": "Кf3"}
{"t": 2, "by": "black", "do": "move", "move": "Ng8-f6"}
"#;
    for (name, white, black) in [
        ("en", "Nf3", "Nf6"),
        ("ru", "Кf3", "Кf6"),
        ("figurine", "♘f3", "♘f6"),
        ("lan", "Ng1-f3", "Ng8-f6"),
        ("fide", "Nf3", "Nf6"),
        ("uci", "g1f3", "g8f6"),
    ] {
        let (code, out) = judge(&["--notation", name, "-"], Some(game));
        assert_eq!(code, Some(0), "{name}");
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(
            (lines[1]["move"].as_str(), lines[2]["move"].as_str()),
            (Some(white), Some(black)),
            "{name}"
        );
    }
    let out = arbiter()
        .args(["judge", "--notation", "klingon", "-"])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stderr).unwrap().contains("klingon"));
}

/// An illegal move found three moves later (Art. 7.5 a), its penalty
/// (7.5 b), then White resigns (5.1 b): the PGN has the result, the
/// termination and the rulings as comments with their Articles, the
/// annulled moves among them.
const FOUND_LATER: &str = r#"{"start": {"time_control": "5400"}}
{"t": 1000, "by": "white", "do": "move", "move": "e4"}
{"t": 2000, "by": "black", "do": "move", "move": "e5"}
{"t": 3000, "by": "white", "do": "move", "move": "Nf3"}
{"t": 4000, "by": "black", "do": "illegal", "move": "e8e6", "noticed": false}
{"t": 5000, "by": "white", "do": "move", "move": "d4"}
{"t": 6000, "by": "black", "do": "move", "move": "Kd6"}
{"t": 7000, "by": "white", "do": "move", "move": "Bc4"}
{"t": 8000, "do": "arbiter", "decision": "illegal_found"}
{"t": 9000, "by": "black", "do": "move", "move": "Ke7"}
{"t": 10000, "by": "white", "do": "resign"}
"#;

#[test]
fn pgn_writes_the_judged_game_with_its_rulings() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.jsonl");
    std::fs::write(&game, FOUND_LATER).unwrap();
    let file = game.to_str().unwrap();
    let out_path = dir.path().join("game.pgn");
    let out_file = out_path.to_str().unwrap();
    // `--pgn OUT`: the JSON answers on stdout as without it, the PGN in OUT.
    let (code, plain) = judge(&[file], None);
    assert_eq!(code, Some(0));
    let (code, answers) = judge(&["--pgn", out_file, file], None);
    assert_eq!(code, Some(0));
    assert_eq!(answers, plain);
    let pgn = std::fs::read_to_string(&out_path).unwrap();
    // `--pgn` alone: the PGN on stdout instead of the answers.
    let (code, to_stdout) = judge(&["-", "--pgn"], Some(FOUND_LATER));
    assert_eq!(code, Some(0));
    assert_eq!(to_stdout, pgn);
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"5400\"]"), "{pgn}");
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("1. e4 e5 2. Nf3"), "{flat}");
    assert!(flat.contains("annulled: d4 Kd6 Bc4"), "{flat}");
    assert!(flat.contains("Art. 7.5 a"), "{flat}");
    assert!(
        flat.contains("first completed illegal move by black (Art. 7.5 b)"),
        "{flat}"
    );
    assert!(flat.contains("120000 ms added to white's clock"), "{flat}");
    assert!(flat.contains("Ke7"), "{flat}");
    assert!(flat.contains("(Art. 5.1 b)} 0-1"), "{flat}");
    // The annulled moves are not moves of the record.
    assert!(!flat.contains("3. d4"), "{flat}");
    // The PGN reads back as a game of the records crate.
    let back = arbiter_pgn::Reader::new(pgn.as_bytes())
        .next_game()
        .unwrap()
        .unwrap();
    assert_eq!(back.line.nodes.len(), 4);
}

/// The moves before a line that cannot be read, the line, and a move after it.
fn with_line_4(line: &[u8]) -> Vec<u8> {
    [
        br#"{"start": {"time_control": "300+3"}}
{"t": 1000, "by": "white", "do": "move", "move": "e4"}
{"t": 2000, "by": "black", "do": "move", "move": "e5"}
"#
        .as_slice(),
        line,
        b"\n",
        br#"{"t": 4000, "by": "black", "do": "move", "move": "Nc6"}"#,
        b"\n",
    ]
    .concat()
}

/// `arbiter judge` on `input`, from a file (read ahead) and from standard
/// input (line by line): the same exit status and answers, which it returns.
fn judge_bytes(input: &[u8]) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.jsonl");
    std::fs::write(&path, input).unwrap();
    let from_file = arbiter()
        .args(["judge", path.to_str().unwrap()])
        .output()
        .unwrap();
    let from_stdin = arbiter()
        .args(["judge", "-"])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert_eq!(from_file.status.code(), from_stdin.status.code());
    assert_eq!(from_file.stdout, from_stdin.stdout);
    (
        from_file.status.code(),
        String::from_utf8(from_file.stdout).unwrap(),
        String::from_utf8(from_stdin.stderr).unwrap(),
    )
}

/// A line that is not UTF-8 is answered as any line that is not an event,
/// naming the byte, and the judging goes on; as the start line, it ends the
/// run naming it.
#[test]
fn a_line_not_utf8_is_refused_and_the_next_judged() {
    let (code, out, err) = judge_bytes(&with_line_4(
        b"{\"t\": 3000, \"by\": \"white\", \"do\": \"move\", \"move\": \"Nf3\xff\"}",
    ));
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert_eq!(lines[3]["ok"], false);
    assert_eq!(lines[3]["error"], "line 4: not UTF-8 text (byte 54, 0xff)");
    assert_eq!(lines[3]["turn"], "white");
    // Line 5: Black is not to move, judged as such.
    assert_eq!(lines[4]["ok"], false);
    assert!(
        lines[4]["error"].as_str().unwrap().starts_with("line 5: "),
        "{out}"
    );
    let (code, _, err) = judge_bytes(b"{\"start\": {\"time_control\": \"\xe9\"}}\n");
    assert_eq!(code, Some(2));
    assert!(
        err.contains("line 1: not UTF-8 text (byte 29, 0xe9)"),
        "{err}"
    );
    assert_eq!(err.matches("UTF-8").count(), 1, "{err}");
}

/// A line longer than the bound is refused, read no further, and quoted by
/// its start only; the judging goes on.
#[test]
fn a_line_too_long_is_refused_quoting_its_start_only() {
    let long = format!(
        "{{\"t\": 3000, \"by\": \"white\", \"do\": \"move\", \"move\": \"{}\"}}",
        "N".repeat(5 << 20)
    );
    let (code, out, err) = judge_bytes(&with_line_4(long.as_bytes()));
    assert_eq!(code, Some(0), "{err}");
    assert!(out.len() < 2000, "{} bytes out", out.len());
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5, "{out}");
    let error = lines[3]["error"].as_str().unwrap();
    assert!(
        error.starts_with("line 4: longer than 65536 bytes"),
        "{error}"
    );
    assert!(error.contains(r#"{"t": 3000, "by""#), "{error}");
    assert_eq!(lines[4]["ok"], false);
    assert!(
        lines[4]["error"].as_str().unwrap().starts_with("line 5: "),
        "{out}"
    );
    // The longest line read is read.
    let longest = format!("{{\"start\": {{{}}}}}", " ".repeat(65536 - 13));
    assert_eq!(longest.len(), 65536);
    let (code, out, err) = judge_bytes(longest.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("{\"ok\":true"), "{out}");
}

/// A byte-order mark before the start line is skipped, as `arbiter pgn` skips one.
#[test]
fn a_byte_order_mark_is_skipped() {
    let (code, out, err) = judge_bytes(&[b"\xEF\xBB\xBF".as_slice(), RECORD.as_bytes()].concat());
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, judge(&["-"], Some(RECORD)).1);
}

/// A line just under the bound whose value is refused (a move, an action, a
/// square, a number that is a string) is answered by a short message quoting
/// the value's start and its length, not the whole value once or twice.
#[test]
fn a_refused_value_is_quoted_by_its_start_only() {
    let long = "N".repeat(60_000);
    for (line, quoted) in [
        (
            format!(r#"{{"t": 3000, "by": "white", "do": "move", "move": "{long}"}}"#),
            "move \"NNNN",
        ),
        (
            format!(r#"{{"t": 3000, "by": "white", "do": "{long}"}}"#),
            "unknown variant `NNNN",
        ),
        (
            format!(r#"{{"t": "{long}", "by": "white", "do": "resign"}}"#),
            "invalid type: string \"NNNN",
        ),
    ] {
        let (code, out, err) = judge_bytes(&with_line_4(line.as_bytes()));
        assert_eq!(code, Some(0), "{err}");
        assert!(out.len() < 2000, "{} bytes out", out.len());
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 5, "{out}");
        let error = lines[3]["error"].as_str().unwrap();
        // One place: the line, and the column where a JSON error stopped.
        assert!(
            error.starts_with("line 4: ") || error.starts_with("line 4, column "),
            "{error}"
        );
        assert!(!error.contains(" at line "), "{error}");
        assert!(error.contains(quoted), "{error}");
        assert!(error.contains("… (60000 characters)"), "{error}");
    }
}

/// A line that is not JSON, or not an event, is answered with one place,
/// its line and the column on it where reading stopped — not the line
/// again as the JSON reader counts it ("line 1 column 53") — and the start
/// line names what a value must be.
#[test]
fn a_parse_error_names_one_place() {
    let input = concat!(
        "{\"start\": {\"time_control\": \"5400+30\"}}\n",
        "{\"t\": 1000, \"by\": \"white\", \"do\": \"move\", \"move\": \"e4\"\n",
        "  {\"t\": 2000, \"by\": \"white\", \"do\": \"move\", \"mvoe\": \"e4\"}\n",
    );
    let (code, out, err) = judge_bytes(input.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    let errors: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter_map(|v| v["error"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(
        errors,
        [
            "line 2, column 53: EOF while parsing an object",
            "line 3, column 56: unknown field `mvoe`, expected `move` or `two_hands`",
        ]
    );
    let (code, _, err) = judge_bytes(b"{\"start\": {\"edition\": 2018}}\n");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(
            "line 1, column 26: invalid type: integer `2018`, expected the edition, a string \"2014\", \"2018\" or \"2023\""
        ),
        "{err}"
    );
}

/// `--pgn OUT` that cannot be written fails before the game is judged (it
/// failed at the end, after a live game had been judged to its last line).
#[test]
fn a_record_that_cannot_be_written_fails_first() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.jsonl");
    std::fs::write(&game, RECORD).unwrap();
    let out = arbiter()
        .args(["judge", "--pgn"])
        .arg(dir.path().join("no/such/dir/game.pgn"))
        .arg(&game)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot write") && err.contains("game.pgn"),
        "{err}"
    );
}
