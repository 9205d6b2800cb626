//! The cost of `arbiter audit` beside `arbiter pgn check`, in one run, on
//! the same files (issue 12: "one thread: the whole audit costs at most
//! 1.5× `arbiter pgn check` on the same file").
//!
//! For each file, read into memory first (no disk, no decompression, no
//! output in either phase):
//!
//! 1. `check`: the PGN reader with the checking visitor — every move read
//!    and played, as `arbiter pgn check` does;
//! 2. `audit`: the PGN reader taking each game's main line, its positions
//!    and clock times ([`TranscriptReader`]), then
//!    `arbiter_laws::audit::audit_transcript` on it — the Laws on every
//!    move (exact dead positions, repetitions, clocks from `[%clk]`), the
//!    record's end judged, as `arbiter audit --threads 1` does.
//!
//! `ARBITER_BENCH_PASS=move-by-move` reads each record in full and audits
//! it move by move (the reference path, as before the one-pass replay)
//! instead.
//!
//! A third phase cuts the file into game texts only, as `arbiter audit`'s
//! reader thread does (`split/aud`: its time over the audit's, the share
//! of one core the reader needs per core of workers).
//!
//! Each phase runs three times (`ARBITER_BENCH_ROUNDS`), alternating, and the fastest round
//! counts (the machine is shared); each audit round starts with the process-wide verdict cache
//! empty, as one `arbiter audit` run does. Prints games/s, MB/s, the ratio
//! audit/check, and the time for 100 M games at the audit's speed.
//!
//! `cargo bench -p arbiter-laws --bench audit [-- FILE…]`; without files:
//! the Lichess and TWIC samples inside the `pgn-reader` crate (found in
//! Cargo's registry) and 20,000 generated games (seed 1).

use arbiter_laws::audit::split::Splitter;
use arbiter_laws::audit::{audit_move_by_move, audit_transcript, Options, TranscriptReader};
use arbiter_pgn::check::Checker;
use arbiter_pgn::generate::{GenOptions, Generator};
use arbiter_pgn::{GameBuilder, Reader};
use std::time::{Duration, Instant};

/// Rounds per phase (`ARBITER_BENCH_ROUNDS` overrides: 1 for profiling).
fn rounds() -> usize {
    std::env::var("ARBITER_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
}

fn samples() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for name in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
        match arbiter_testkit::registry_file("pgn-reader-", &format!("benches/{name}")) {
            Some(bytes) => out.push((name.to_owned(), bytes)),
            None => eprintln!("skipped: {name} (pgn-reader's sample) not in Cargo's registry"),
        }
    }
    let mut generator = Generator::new(GenOptions::default());
    let text = generator.pgn(20_000);
    out.push(("generated 20k (seed 1)".to_owned(), text.into_bytes()));
    out
}

#[inline(never)]
fn check(bytes: &[u8]) -> (u64, u64) {
    let mut reader = Reader::new(bytes);
    let mut checker = Checker::new();
    let (mut games, mut plies) = (0, 0);
    while let Some(g) = reader.read_game(&mut checker).unwrap() {
        games += 1;
        plies += u64::from(g.plies);
    }
    (games, plies)
}

/// What `arbiter audit`'s reader thread does alone: cut the input into game
/// texts ([`Splitter`]). With N workers the audit cannot go faster than
/// this one thread: its cost beside the audit's bounds the scaling.
#[inline(never)]
fn split_all(bytes: &[u8]) -> u64 {
    Splitter::new(bytes)
        .map(|g| g.unwrap().text.len() as u64)
        .sum()
}

/// `ARBITER_BENCH_PASS=move-by-move`: the audit as it was before the
/// one-pass replay ([`audit_move_by_move`]), for a before/after in one build.
fn move_by_move() -> bool {
    std::env::var("ARBITER_BENCH_PASS").is_ok_and(|p| p == "move-by-move")
}

#[inline(never)]
fn audit_all(bytes: &[u8]) -> (u64, u64) {
    // Each round as one `arbiter audit` process: no verdict known from the
    // round before (the process-wide cache would prove every final position
    // again for free).
    arbiter_laws::dead::clear_shared_verdicts();
    let mut reader = Reader::new(bytes);
    let options = Options::default();
    let (mut games, mut disagree) = (0, 0);
    if move_by_move() {
        let mut builder = GameBuilder::new();
        while let Some(g) = reader.read_game(&mut builder).unwrap() {
            games += 1;
            disagree += u64::from(!audit_move_by_move(&g, &options).agrees());
        }
        return (games, disagree);
    }
    let mut transcripts = TranscriptReader::new();
    while reader.read_game(&mut transcripts).unwrap().is_some() {
        games += 1;
        disagree += u64::from(!audit_transcript(transcripts.transcript(), &options).agrees());
    }
    (games, disagree)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let files = if args.is_empty() {
        samples()
    } else {
        args.iter()
            .map(|p| (p.clone(), std::fs::read(p).expect("a readable file")))
            .collect()
    };
    println!(
        "{:<26} {:>7} {:>9} {:>11} {:>8} {:>11} {:>8} {:>6} {:>10} {:>9}",
        "file",
        "games",
        "disagree",
        "check g/s",
        "MB/s",
        "audit g/s",
        "MB/s",
        "ratio",
        "100M games",
        "split/aud"
    );
    for (name, bytes) in files {
        let (mut t_check, mut t_audit, mut t_split) = (Duration::MAX, Duration::MAX, Duration::MAX);
        let (mut games, mut disagree) = (0, 0);
        for _ in 0..rounds() {
            let s = Instant::now();
            let (g, _) = std::hint::black_box(check(&bytes));
            t_check = t_check.min(s.elapsed());
            let s = Instant::now();
            let (g2, d) = std::hint::black_box(audit_all(&bytes));
            t_audit = t_audit.min(s.elapsed());
            assert_eq!(g, g2, "{name}: both phases read the same games");
            let s = Instant::now();
            std::hint::black_box(split_all(&bytes));
            t_split = t_split.min(s.elapsed());
            (games, disagree) = (g, d);
        }
        let mb = bytes.len() as f64 / 1e6;
        let gps = |t: Duration| games as f64 / t.as_secs_f64();
        let hours = 1e8 / gps(t_audit) / 3600.0;
        println!(
            "{:<26} {:>7} {:>9} {:>11.0} {:>8.1} {:>11.0} {:>8.1} {:>6.2} {:>8.1} h {:>9.3}",
            name,
            games,
            disagree,
            gps(t_check),
            mb / t_check.as_secs_f64(),
            gps(t_audit),
            mb / t_audit.as_secs_f64(),
            t_audit.as_secs_f64() / t_check.as_secs_f64(),
            hours,
            t_split.as_secs_f64() / t_audit.as_secs_f64()
        );
    }
}
