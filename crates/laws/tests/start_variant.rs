//! The game a judge start declares (`"variant"`) decides how its FEN's
//! castling rights are read: standard chess castles only with the king on
//! e1/e8 and a rook in its corner (FIDE 2014 Art. 3.8 a ii; 2018/2023
//! 3.8.2), Chess960 by Appendix F / Guidelines II. A tester's standard game
//! from `1R2K2R w KQ` castled with the b1 rook, its record said Chess960.

use arbiter_laws::judge::{self, JudgeError};
use serde_json::Value;

/// The judge's answers to `lines`, or its error.
fn judge(lines: &[&str]) -> Result<Vec<Value>, JudgeError> {
    let input = lines.join("\n");
    let mut out = Vec::new();
    judge::run(input.as_bytes(), &mut out, Default::default())?;
    Ok(String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect())
}

const STALE_Q: &str = "4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1";

#[test]
fn a_standard_start_refuses_a_right_only_chess960_has() {
    for fen in [STALE_Q, "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"] {
        let start = format!(r#"{{"start": {{"variant": "standard", "fen": "{fen}"}}}}"#);
        let Err(JudgeError::Start { line, message, .. }) = judge(&[&start]) else {
            panic!("{fen}: a standard start accepted");
        };
        assert_eq!(line, 1);
        assert!(
            message.contains("invalid castling right for the rook on")
                && message.contains("in standard chess the king castles from e1/e8"),
            "{message}"
        );
    }
    // The rights standard chess has: O-O is standard castling.
    let out = judge(&[
        r#"{"start": {"variant": "standard", "fen": "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"}}"#,
        r#"{"t": 1, "by": "white", "do": "move", "move": "e1g1"}"#,
    ])
    .unwrap();
    assert_eq!(out[1]["move"], "O-O", "{}", out[1]);
}

/// Without `"variant"` the FEN is read as its rights need: `Q` for the b1
/// rook is X-FEN's Chess960 right, and O-O-O castles with that rook.
#[test]
fn without_a_variant_the_rights_are_read_as_they_need() {
    let start = format!(r#"{{"start": {{"fen": "{STALE_Q}"}}}}"#);
    let out = judge(&[
        &start,
        r#"{"t": 1, "by": "white", "do": "move", "move": "O-O-O"}"#,
    ])
    .unwrap();
    assert_eq!(out[1]["ok"], true, "{}", out[1]);
    let start = format!(r#"{{"start": {{"variant": "chess960", "fen": "{STALE_Q}"}}}}"#);
    let out = judge(&[
        &start,
        r#"{"t": 1, "by": "white", "do": "move", "move": "O-O-O"}"#,
    ])
    .unwrap();
    assert_eq!(out[1]["ok"], true, "{}", out[1]);
}

/// A declared Chess960 game from the standard array castles king-takes-rook;
/// a Chess960 number with `"variant": "standard"` is refused.
#[test]
fn a_chess960_start_and_a_contradiction() {
    let out = judge(&[
        r#"{"start": {"variant": "chess960", "fen": "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"}}"#,
        r#"{"t": 1, "by": "white", "do": "move", "move": "e1h1"}"#,
    ])
    .unwrap();
    assert_eq!(out[1]["move"], "O-O", "{}", out[1]);
    let Err(JudgeError::Start { message, .. }) =
        judge(&[r#"{"start": {"variant": "standard", "chess960": 518}}"#])
    else {
        panic!("a standard start with a Chess960 number accepted");
    };
    assert!(message.contains("give one of them"), "{message}");
}
