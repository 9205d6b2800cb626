//! Other projects' perft suites (scalachess's `random.perft`, `tricky.perft`,
//! `chess960.perft`; see `tests/data/peers/README.md`): every count equal.
//!
//! Positions the Laws call impossible (Art. 3.10: two line pieces checking
//! along one line, an en-passant square no double step made, …) are counted
//! in [`Validation::Lenient`] mode, as shakmaty's `ignore_*` options do; the
//! test says how many needed it. Depths are bounded to keep `cargo test`
//! fast (counts up to `ARBITER_PEERS_PERFT_NODES`, default 20,000 nodes for
//! `random.perft` and 200,000 for the others); set it higher for a full run.

use arbiter_chess::perft::perft;
use arbiter_chess::{CastlingMode, Position, Setup, Validation};

struct Case {
    id: String,
    epd: String,
    counts: Vec<(u32, u64)>,
}

fn cases(text: &str) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(id) = line.strip_prefix("id ") {
            out.push(Case {
                id: id.to_owned(),
                epd: String::new(),
                counts: Vec::new(),
            });
        } else if let Some(epd) = line.strip_prefix("epd ") {
            out.last_mut().expect("id before epd").epd = epd.to_owned();
        } else if let Some(p) = line.strip_prefix("perft ") {
            let (d, n) = p.split_once(' ').expect("perft DEPTH COUNT");
            out.last_mut()
                .expect("id before perft")
                .counts
                .push((d.parse().unwrap(), n.parse().unwrap()));
        }
    }
    out
}

fn limit(default: u64) -> u64 {
    std::env::var("ARBITER_PEERS_PERFT_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs a suite; returns (positions, counts compared, positions that needed
/// lenient validation).
fn run(text: &str, mode: Option<CastlingMode>, max_nodes: u64) -> (usize, usize, usize) {
    let cases = cases(text);
    let (mut compared, mut lenient) = (0, 0);
    for case in &cases {
        let setup = Setup::from_fen(&case.epd)
            .unwrap_or_else(|e| panic!("{}: {:?}: {e}", case.id, case.epd));
        let mode = mode.unwrap_or_else(|| CastlingMode::detect(&setup));
        let pos = match Position::from_setup(setup.clone(), mode) {
            Ok(pos) => pos,
            Err(_) => {
                lenient += 1;
                Position::from_setup_with(setup, mode, Validation::Lenient)
                    .unwrap_or_else(|e| panic!("{}: {:?}: {e}", case.id, case.epd))
            }
        };
        for &(depth, expected) in &case.counts {
            if expected > max_nodes {
                break;
            }
            assert_eq!(
                perft(&pos, depth),
                expected,
                "{} {:?} depth {depth}",
                case.id,
                case.epd
            );
            compared += 1;
        }
    }
    (cases.len(), compared, lenient)
}

#[test]
fn scalachess_random_perft() {
    let (positions, compared, lenient) = run(
        include_str!("data/peers/random.perft"),
        Some(CastlingMode::Standard),
        limit(20_000),
    );
    eprintln!("random.perft: {positions} positions, {compared} counts equal, {lenient} lenient");
    assert_eq!(positions, 6838);
    assert!(compared >= 6838 * 2, "{compared}");
}

#[test]
fn scalachess_tricky_perft() {
    let (positions, compared, lenient) = run(
        include_str!("data/peers/tricky.perft"),
        None,
        limit(200_000),
    );
    eprintln!("tricky.perft: {positions} positions, {compared} counts equal, {lenient} lenient");
    assert_eq!(positions, 18);
    assert!(compared >= 18, "{compared}");
}

#[test]
fn scalachess_chess960_perft() {
    let (positions, compared, lenient) = run(
        include_str!("data/peers/chess960.perft"),
        Some(CastlingMode::Chess960),
        limit(200_000),
    );
    eprintln!("chess960.perft: {positions} positions, {compared} counts equal, {lenient} lenient");
    assert_eq!(positions, 960);
    assert!(compared >= 960 * 3, "{compared}");
    assert_eq!(lenient, 0, "Chess960 starts are all legal");
}
