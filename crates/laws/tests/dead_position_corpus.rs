//! Dead position and unwinnability (FIDE Art. 5.2 b / 5.2.2 and 6.9) against
//! chasolver's test corpora, which ship inside its crate package
//! (`tests/positions.txt`: 3,414 positions curated from queries to
//! chasolver.org; `tests/lichess.txt`: 65,536 positions sampled from Lichess
//! games). Each line gives the verdict for both colours: `W`/`-` whether
//! White can checkmate by some series of legal moves, `B`/`-` for Black.
//!
//! Checked for both colours: our `can_checkmate` (material shortcuts, then
//! the solver) gives the corpus verdict, and a position is dead exactly when
//! neither side can mate. The off-by-default ways of deciding (both sides
//! raced, the budgeted search) are compared with the plain detector on a
//! sample (every 64th line; `ARBITER_CORPUS_EVERY=16` for the larger sample,
//! `=1` for all); all curated positions: `--release --ignored`.

use arbiter_chess::{Color, Position};
use arbiter_laws::dead::{insufficient_material, DeadPositionDetector};
use arbiter_laws::{ChaSolver, Unwinnability, Verdict};
use std::path::PathBuf;
use std::sync::Arc;

/// chasolver, not sharing its verdicts with the process's other detectors
/// (`Unwinnability::shares_verdicts`): a detector compared with another
/// must answer from its own analyses, not from the other's.
struct Unshared;

impl Unwinnability for Unshared {
    fn solve(&self, pos: &Position, winner: Color) -> (Verdict, Option<Vec<arbiter_chess::Move>>) {
        ChaSolver.solve(pos, winner)
    }
}

/// A fixed sample of both chasolver corpora for the comparisons of the
/// off-by-default ways of deciding (racing the sides, the budgeted search)
/// with the plain detector: every 64th position line (about 1,080);
/// `ARBITER_CORPUS_EVERY=N` takes every Nth instead (16: about 4,300, the
/// sample before 2026-12-04; 1: all 68,950).
fn sample_of_both_corpora() -> Vec<String> {
    let every = std::env::var("ARBITER_CORPUS_EVERY")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or(64);
    let mut lines = Vec::new();
    for name in ["positions.txt", "lichess.txt"] {
        let text = corpus(name).unwrap_or_else(|| panic!("chasolver's {name} not found"));
        lines.extend(
            text.lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .step_by(every)
                .map(str::to_owned),
        );
    }
    lines
}

fn unshared() -> DeadPositionDetector {
    DeadPositionDetector::new(Arc::new(Unshared))
}

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

/// Both sides asked at once (`DeadPositionDetector::race_sides`) against one
/// after the other: the same dead-position verdict (5.2 b / 5.2.2) as the
/// corpus and as the plain detector on every position of a fixed sample of
/// both corpora ([`sample_of_both_corpora`]), and the race really run (it
/// asks both sides where one after the other stops at the first "can
/// mate", so it makes more solver calls).
#[test]
fn racing_both_sides_gives_the_plain_verdicts() {
    let lines = sample_of_both_corpora();
    let mut plain = unshared();
    let mut racing = unshared();
    racing.race_sides(true);
    let (mut checked, mut errors) = (0, Vec::new());
    for line in &lines {
        let (label, fen) = line.split_at(2);
        let Ok(pos) = Position::from_fen_auto(fen.trim()) else {
            continue;
        };
        if !pos.has_legal_moves() {
            continue;
        }
        let dead = !label.starts_with('W') && !label.ends_with('B');
        let a = plain.is_dead(&pos, None);
        let b = racing.is_dead(&pos, None);
        if a.0 != dead || b.0 != dead {
            errors.push(format!(
                "plain {a:?}, racing {b:?}, corpus dead={dead}: {line}"
            ));
        }
        checked += 1;
    }
    println!(
        "{checked} positions; solver calls: plain {}, racing {}",
        plain.stats().solver_calls,
        racing.stats().solver_calls
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(
        checked * 10 >= lines.len() * 9,
        "too many positions skipped"
    );
    assert!(racing.stats().solver_calls > plain.stats().solver_calls);
}

/// The short helpmate search before the solver (`Effort::search_nodes`)
/// against the detector without it: the same dead-position verdict
/// (5.2 b / 5.2.2) as the corpus and as the plain detector on a fixed
/// sample of both corpora, every line the search finds replaying to a
/// checkmate, and the search really settling positions.
#[test]
fn the_helpmate_search_gives_the_plain_verdicts() {
    use arbiter_laws::dead::{helpmate, is_helpmate, Reason};
    let lines = sample_of_both_corpora();
    let mut plain = unshared();
    plain.effort.search_nodes = 0;
    let mut fast = unshared();
    fast.effort.search_nodes = 4096;
    let (mut checked, mut searched, mut errors) = (0, 0, Vec::new());
    for line in &lines {
        let (label, fen) = line.split_at(2);
        let Ok(pos) = Position::from_fen_auto(fen.trim()) else {
            continue;
        };
        if !pos.has_legal_moves() {
            continue;
        }
        let expected = [label.starts_with('W'), label.ends_with('B')];
        for (i, color) in Color::ALL.into_iter().enumerate() {
            if let Some(l) = helpmate(&pos, color, 512) {
                if !expected[i] || !is_helpmate(&pos, color, &l) {
                    errors.push(format!("search line for {color} {l:?}: {line}"));
                }
            }
        }
        let dead = !expected[0] && !expected[1];
        let a = plain.is_dead(&pos, None);
        let b = fast.is_dead(&pos, None);
        searched += usize::from(b.1 == Reason::Search);
        if a.0 != dead || b.0 != dead {
            errors.push(format!(
                "plain {a:?}, fast {b:?}, corpus dead={dead}: {line}"
            ));
        }
        checked += 1;
    }
    println!("{checked} positions; settled by the search: {searched}");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(
        checked * 10 >= lines.len() * 9,
        "too many positions skipped"
    );
    assert!(searched > 0);
}
