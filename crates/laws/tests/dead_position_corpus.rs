//! Dead position and unwinnability (FIDE Art. 5.2 b / 5.2.2 and 6.9) against
//! chasolver's test corpora, which ship inside its crate package
//! (`tests/positions.txt`: 3,414 positions curated from queries to
//! chasolver.org; `tests/lichess.txt`: 65,536 positions sampled from Lichess
//! games). Each line gives the verdict for both colours: `W`/`-` whether
//! White can checkmate by some series of legal moves, `B`/`-` for Black.
//!
//! Checked for both colours: our `can_checkmate` (material shortcuts, then
//! the solver) gives the corpus verdict, and a position is dead exactly when
//! neither side can mate.

use arbiter_chess::{Color, Position};
use arbiter_laws::dead::{insufficient_material, DeadPositionDetector};
use arbiter_laws::Verdict;
use std::path::PathBuf;

fn corpus(name: &str) -> Option<String> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    let src = home.join("registry/src");
    for index in std::fs::read_dir(src).ok()?.flatten() {
        let p = index.path().join("chasolver-3.0.0/tests").join(name);
        if let Ok(text) = std::fs::read_to_string(&p) {
            return Some(text);
        }
    }
    None
}

struct Tally {
    checked: usize,
    skipped: usize,
    errors: Vec<String>,
}

fn check_lines(lines: &[&str]) -> Tally {
    let mut d = DeadPositionDetector::default();
    let mut t = Tally {
        checked: 0,
        skipped: 0,
        errors: Vec::new(),
    };
    for line in lines {
        let (label, fen) = line.split_at(2);
        let fen = fen.trim();
        let Ok(pos) = Position::from_fen_auto(fen) else {
            // Positions our validator rejects as impossible (e.g. checks no
            // legal move can give) cannot occur in a game.
            t.skipped += 1;
            continue;
        };
        let expected = [label.starts_with('W'), label.ends_with('B')];
        for (i, color) in Color::ALL.into_iter().enumerate() {
            match d.can_checkmate(&pos, color) {
                Verdict::Winnable if expected[i] => {}
                Verdict::Unwinnable if !expected[i] => {}
                v => t.errors.push(format!("{color}: got {v:?}: {line}")),
            }
        }
        let dead = !expected[0] && !expected[1];
        if !dead && insufficient_material(&pos) {
            t.errors
                .push(format!("material shortcut says dead: {line}"));
        }
        if pos.has_legal_moves() && d.is_dead(&pos, None).0 != dead {
            t.errors
                .push(format!("dead position should be {dead}: {line}"));
        }
        t.checked += 1;
    }
    t
}

fn check_corpus(name: &str, every: usize) {
    let Some(text) = corpus(name) else {
        panic!("chasolver's {name} not found in the cargo registry (it ships with the chasolver crate)");
    };
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .step_by(every)
        .collect();
    let half = lines.len() / 2;
    let (a, b) = lines.split_at(half);
    let (ta, tb) = std::thread::scope(|s| {
        let ha = s.spawn(|| check_lines(a));
        let hb = s.spawn(|| check_lines(b));
        (ha.join().unwrap(), hb.join().unwrap())
    });
    let checked = ta.checked + tb.checked;
    let skipped = ta.skipped + tb.skipped;
    let errors: Vec<String> = ta.errors.into_iter().chain(tb.errors).collect();
    println!("{name}: {checked} positions checked for both colours, {skipped} skipped");
    assert!(
        errors.is_empty(),
        "{} disagreements:\n{}",
        errors.len(),
        errors[..errors.len().min(30)].join("\n")
    );
    assert!(
        checked * 10 >= lines.len() * 9,
        "too many positions skipped"
    );
}

/// Every fourth curated position: the curated set holds the hardest
/// positions known (some take the solver a second), so CI checks a fixed
/// quarter of it; `chasolver_curated_positions_all` checks them all.
#[test]
fn chasolver_curated_positions() {
    check_corpus("positions.txt", 4);
}

#[test]
#[ignore = "minutes: run with --release --ignored"]
fn chasolver_curated_positions_all() {
    check_corpus("positions.txt", 1);
}

#[test]
fn chasolver_lichess_positions() {
    check_corpus("lichess.txt", 1);
}
