//! Scenario tests written as `arbiter judge` scripts (`tests/judge/*.jsonl`),
//! one file per rule, named after its Article and edition. They double as
//! documentation of the judge format.
//!
//! In a script, a line `#> {…}` states what the judge must answer to the
//! line above it: every field given must be present with that value
//! (other fields may be present too). Other `#` lines are comments.

use serde_json::Value;
use std::path::Path;

fn check_subset(expected: &Value, actual: &Value, path: &str) -> Result<(), String> {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, v) in e {
                match a.get(k) {
                    None => return Err(format!("{path}.{k} missing")),
                    Some(av) => check_subset(v, av, &format!("{path}.{k}"))?,
                }
            }
            Ok(())
        }
        _ if expected == actual => Ok(()),
        _ => Err(format!("{path}: expected {expected}, got {actual}")),
    }
}

fn run_script(path: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    arbiter_laws::judge::run(text.as_bytes(), &mut out, Default::default())
        .map_err(|e| format!("judge failed: {e}"))?;
    let outputs: Vec<Value> = String::from_utf8(out)
        .map_err(|e| e.to_string())?
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut index: Option<usize> = None; // output index of the last input line
    let mut next = 0;
    let mut checks = 0;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(exp) = t.strip_prefix("#>") {
            let expected: Value = serde_json::from_str(exp.trim())
                .map_err(|e| format!("line {}: bad expectation: {e}", n + 1))?;
            let i = index.ok_or(format!("line {}: expectation before any input", n + 1))?;
            check_subset(&expected, &outputs[i], "")
                .map_err(|e| format!("line {}: {e}\n  output: {}", n + 1, outputs[i]))?;
            checks += 1;
        } else if t.is_empty() || t.starts_with('#') || t.starts_with("//") {
            continue;
        } else {
            index = Some(next);
            next += 1;
        }
    }
    if next != outputs.len() {
        return Err(format!(
            "{} input lines but {} output lines",
            next,
            outputs.len()
        ));
    }
    if checks == 0 {
        return Err("no expectations (#> lines)".into());
    }
    Ok(checks)
}

#[test]
fn judge_scripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/judge");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "scenario scripts missing");
    let mut failures = Vec::new();
    let mut total = 0;
    for f in &files {
        match run_script(f) {
            Ok(n) => total += n,
            Err(e) => failures.push(format!("{}: {e}", f.file_name().unwrap().to_string_lossy())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    println!("{} scripts, {total} expectations", files.len());
}

/// Every script answers the same read ahead or line by line, and its
/// accepted events, replayed through `Game::apply` as typed events, give
/// the same game (position, moves, annulled moves, outcome).
#[test]
fn judge_scripts_read_ahead_and_typed_replay_agree() {
    use arbiter_laws::{json, Game};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/judge");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "jsonl") {
            continue;
        }
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let answers = |read_ahead: bool| {
            let mut out = Vec::new();
            let opts = arbiter_laws::judge::Options {
                read_ahead,
                ..Default::default()
            };
            arbiter_laws::judge::run(text.as_bytes(), &mut out, opts).unwrap();
            out
        };
        assert_eq!(answers(true), answers(false), "{name}");
        let mut lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("//"));
        let start: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        let start: json::Start = serde_json::from_value(start["start"].clone()).unwrap();
        let start = start.to_start().unwrap();
        let mut game = Game::new(start.clone()).unwrap();
        for l in lines {
            if let Ok(e) = serde_json::from_str::<json::Event>(l) {
                let _ = json::apply(&mut game, &e);
            }
        }
        let again = Game::replay(start, game.events()).unwrap();
        assert_eq!(again.position(), game.position(), "{name}");
        assert_eq!(again.moves(), game.moves(), "{name}");
        assert_eq!(again.annulled(), game.annulled(), "{name}");
        assert_eq!(again.outcome(), game.outcome(), "{name}");
    }
}
