//! The cost of proving positions alive (Art. 5.2 b / 5.2.2, 6.9): our own
//! helpmate search beside the exact solver, on the positions that reach the
//! solver in practice.
//!
//! The corpus, one position a line (`FEN<TAB>first<TAB>source`, `first` the
//! side asked first: `w`, `b`):
//!
//! - `lichess`, `twic`: the final positions of the games in the samples
//!   inside the `pgn-reader` crate (Cargo's registry), the recorded winner
//!   first (a draw: the side with more material), as `arbiter audit` asks;
//! - `generated`: the final positions of `arbiter pgn generate`'s games
//!   (seed 1);
//! - `laws`: the positions the laws bench's dead-position check hands to the
//!   solver (`ARBITER_DUMP_SOLVER=FILE cargo bench -p arbiter-laws --bench
//!   laws -- 300 --dead-only` writes them).
//!
//! `cargo bench -p arbiter-laws --bench alive -- MODE …` (or the bench binary
//! `target/release/deps/alive-…` itself):
//!
//! - `--dump FILE [GAMES]` writes the first three sources (GAMES generated,
//!   default 1,000); `--pgn FILE [GAMES]` writes the generated games as PGN
//!   (for the audit bench); `--finals PGN FILE` writes the final positions
//!   of any PGN file's games (real files beyond the samples);
//! - `FILE solver|detector|search [--check]` proves every position of a
//!   corpus alive or dead: `solver` the exact solver alone, the side asked
//!   first first; `detector` `DeadPositionDetector::can_checkmate` (the
//!   quick line, then the solver), fresh per position; `search` the quick
//!   line alone. Prints, per source, how many positions were proven alive
//!   and the time per position; `--check` compares every verdict with the
//!   solver's;
//! - `--curve FILE [PLIES] [other|old]`: per position, the quick line's
//!   length and positions visited (`old`: the budgeted search
//!   `dead::helpmate`, PLIES its node budget; `other`: the side asked
//!   second);
//! - `--sides FILE`: each side's exact analysis, timed (fastest of three);
//! - `--lines FILE`: the solver's helpmate lines in SAN.
//!
//! For the instructions of the proofs alone: `valgrind --tool=callgrind
//! --toggle-collect='*prove_all*' … FILE detector`.

use arbiter_chess::{Color, Position};
use arbiter_laws::dead::{quick_helpmate, DeadPositionDetector, Verdict};
use arbiter_laws::{ChaSolver, Unwinnability};
use arbiter_pgn::check::Checker;
use arbiter_pgn::generate::{GenOptions, Generator};
use arbiter_pgn::{GameResult, Reader};
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

fn samples() -> Vec<(&'static str, Vec<u8>)> {
    let mut out = Vec::new();
    for (source, name) in [
        ("lichess", "lichess_db_1000k.pgn"),
        ("twic", "twic1599_1000k.pgn"),
    ] {
        match arbiter_testkit::registry_file("pgn-reader-", &format!("benches/{name}")) {
            Some(bytes) => out.push((source, bytes)),
            None => eprintln!("skipped: {name} (pgn-reader's sample) not in Cargo's registry"),
        }
    }
    out
}

/// The side with more mating material (a pawn worth a queen), as the
/// detector orders the sides.
fn likelier(pos: &Position) -> Color {
    let value = |c: Color| {
        let m = pos.board().material(c);
        9 * m[0] + 3 * (m[1] + m[2]) + 5 * m[3] + 9 * m[4]
    };
    if value(Color::White) >= value(Color::Black) {
        Color::White
    } else {
        Color::Black
    }
}

/// The final positions of `bytes`' games that the solver would be asked
/// about: a legal move left, not dead by material.
fn finals(source: &str, bytes: &[u8], out: &mut Vec<String>) {
    let mut reader = Reader::new(bytes);
    let mut checker = Checker::new();
    while let Some(g) = reader.read_game(&mut checker).unwrap() {
        let pos = g.final_position;
        if g.error.is_some() || !pos.has_legal_moves() || pos.is_insufficient_material() {
            continue;
        }
        let first = match g.result {
            Some(GameResult::WhiteWins) => Color::White,
            Some(GameResult::BlackWins) => Color::Black,
            _ => likelier(&pos),
        };
        out.push(format!("{}\t{}\t{source}", pos.fen(), first.char()));
    }
}

fn dump(path: &str, games: u64) {
    let mut lines = Vec::new();
    for (source, bytes) in samples() {
        finals(source, &bytes, &mut lines);
    }
    let mut generator = Generator::new(GenOptions::default());
    let text = generator.pgn(games);
    finals("generated", text.as_bytes(), &mut lines);
    let mut f = std::fs::File::create(path).unwrap();
    for l in &lines {
        writeln!(f, "{l}").unwrap();
    }
    println!("{} positions written to {path}", lines.len());
}

struct Row {
    pos: Position,
    first: Color,
    source: String,
}

fn read(path: &str) -> Vec<Row> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            let pos = Position::from_fen_auto(f.next()?).ok()?;
            let first = if f.next()? == "b" {
                Color::Black
            } else {
                Color::White
            };
            let source = f.next().unwrap_or("?").to_owned();
            Some(Row { pos, first, source })
        })
        .collect()
}

/// What a mode found for a position: alive (`Some(true)`), dead
/// (`Some(false)`) or not proven (`None`), and its time in nanoseconds.
#[inline(never)]
fn prove_all(rows: &[Row], mode: &str) -> Vec<(Option<bool>, u64)> {
    rows.iter()
        .map(|r| {
            let t0 = Instant::now();
            let v = prove(&r.pos, r.first, mode);
            (v, t0.elapsed().as_nanos() as u64)
        })
        .collect()
}

fn prove(pos: &Position, first: Color, mode: &str) -> Option<bool> {
    match mode {
        "solver" => solver_alive(pos, first),
        "detector" => {
            let mut d = DeadPositionDetector::new(Arc::new(Unshared));
            let mut undecided = false;
            for c in [first, !first] {
                match d.can_checkmate(pos, c) {
                    Verdict::Winnable => return Some(true),
                    Verdict::Unknown => undecided = true,
                    Verdict::Unwinnable => {}
                }
            }
            (!undecided).then_some(false)
        }
        "search" => [first, !first]
            .into_iter()
            .any(|c| quick_helpmate(pos, c).is_some())
            .then_some(true),
        _ => panic!("unknown mode {mode}"),
    }
}

/// The exact solver, unshared (no verdicts from the process-wide cache).
struct Unshared;

impl Unwinnability for Unshared {
    fn solve(&self, pos: &Position, winner: Color) -> (Verdict, Option<Vec<arbiter_chess::Move>>) {
        ChaSolver.solve(pos, winner)
    }
}

fn solver_alive(pos: &Position, first: Color) -> Option<bool> {
    let mut undecided = false;
    for c in [first, !first] {
        match ChaSolver.can_checkmate(pos, c) {
            Verdict::Winnable => return Some(true),
            Verdict::Unknown => undecided = true,
            Verdict::Unwinnable => {}
        }
    }
    (!undecided).then_some(false)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().is_some_and(|a| a == "--pgn") {
        // GAMES generated games (seed 1) as PGN, for the audit bench.
        let games: u64 = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(1_000);
        let mut generator = Generator::new(GenOptions::default());
        let text = generator.pgn(games);
        std::fs::write(&args[1], text).unwrap();
        return;
    }
    if args.first().is_some_and(|a| a == "--finals") {
        // The final positions of any PGN file's games, as `--dump` writes
        // those of the samples (source: the file's name).
        let (pgn, out) = (&args[1], &args[2]);
        let bytes = std::fs::read(pgn).unwrap();
        let mut lines = Vec::new();
        finals(pgn, &bytes, &mut lines);
        std::fs::write(out, lines.join("\n") + "\n").unwrap();
        println!("{} positions written to {out}", lines.len());
        return;
    }
    if args.first().is_some_and(|a| a == "--dump") {
        let games = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(1_000);
        dump(&args[1], games);
        return;
    }
    if args.first().is_some_and(|a| a == "--sides") {
        // Each side's exact analysis, timed (three runs, the fastest).
        for r in read(&args[1]) {
            let mut out = Vec::new();
            for c in [r.first, !r.first] {
                let mut best = u64::MAX;
                let mut v = Verdict::Unknown;
                let mut len = 0;
                for _ in 0..3 {
                    let t0 = Instant::now();
                    let (verdict, line) = ChaSolver.solve(&r.pos, c);
                    best = best.min(t0.elapsed().as_nanos() as u64);
                    v = verdict;
                    len = line.map_or(0, |l| l.len());
                }
                out.push(format!("{:.1}\t{v:?}\t{len}", best as f64 / 1e3));
            }
            println!("{}\t{}\t{}", r.source, r.pos.fen(), out.join("\t"));
        }
        return;
    }
    if args.first().is_some_and(|a| a == "--curve") {
        // The short search's positions visited until its line, per position.
        let budget: u64 = args.get(2).and_then(|b| b.parse().ok()).unwrap_or(64);
        for r in read(&args[1]) {
            let other = args.get(3).is_some_and(|a| a == "other");
            let first = if other { !r.first } else { r.first };
            let (line, nodes) = if args.get(3).is_some_and(|a| a == "old") {
                arbiter_laws::dead::helpmate_counted(&r.pos, r.first, budget)
            } else {
                arbiter_laws::dead::quick_helpmate_with(&r.pos, first, budget as usize)
            };
            let mut p = r.pos;
            let sans: Vec<String> = line
                .iter()
                .flatten()
                .map(|&m| {
                    let s = p.san(m);
                    p.play_unchecked(m);
                    s
                })
                .collect();
            println!(
                "{}\t{}\t{}\t{}\t{}",
                r.source,
                r.pos.fen(),
                line.as_ref().map_or(-1, |l| l.len() as i64),
                nodes,
                sans.join(" ")
            );
        }
        return;
    }
    if args.first().is_some_and(|a| a == "--lines") {
        // The solver's helpmate lines, in SAN, for reading.
        for r in read(&args[1]) {
            let (v, line) = ChaSolver.solve(&r.pos, r.first);
            let mut p = r.pos;
            let sans: Vec<String> = line
                .unwrap_or_default()
                .into_iter()
                .map(|m| {
                    let s = p.san(m);
                    p.play_unchecked(m);
                    s
                })
                .collect();
            println!(
                "{}\t{}\t{v:?}\t{}\t{}",
                r.source,
                r.pos.fen(),
                sans.len(),
                sans.join(" ")
            );
        }
        return;
    }
    let path = args.first().expect("a corpus file (or --dump FILE)");
    let mode = args.get(1).map_or("solver", String::as_str);
    let check = args.iter().any(|a| a == "--check");
    let rows = read(path);
    let t0 = Instant::now();
    let out = prove_all(&rows, mode);
    println!("{mode}: {} positions in {:.2?}", rows.len(), t0.elapsed());
    let mut sources: Vec<&str> = rows.iter().map(|r| r.source.as_str()).collect();
    sources.sort_unstable();
    sources.dedup();
    for s in sources {
        let mine: Vec<&(Option<bool>, u64)> = rows
            .iter()
            .zip(&out)
            .filter(|(r, _)| r.source == s)
            .map(|(_, o)| o)
            .collect();
        let mut ns: Vec<u64> = mine.iter().map(|o| o.1).collect();
        ns.sort_unstable();
        let n = ns.len().max(1);
        let q = |p: f64| ns[((n as f64 * p) as usize).min(n - 1)] as f64 / 1e3;
        println!(
            "  {s:<10} {:>6} positions: alive {:>6}, dead {:>5}, unproven {:>5}; mean {:>9.1} us, p50 {:>8.1} us, p99 {:>9.1} us, max {:>9.1} us",
            mine.len(),
            mine.iter().filter(|o| o.0 == Some(true)).count(),
            mine.iter().filter(|o| o.0 == Some(false)).count(),
            mine.iter().filter(|o| o.0.is_none()).count(),
            ns.iter().sum::<u64>() as f64 / n as f64 / 1e3,
            q(0.5),
            q(0.99),
            ns.last().copied().unwrap_or(0) as f64 / 1e3,
        );
    }
    if check {
        let mut bad = 0;
        for (r, o) in rows.iter().zip(&out) {
            let exact = solver_alive(&r.pos, r.first);
            if o.0.is_some() && exact.is_some() && o.0 != exact {
                bad += 1;
                println!("DIFFERS: {} {:?} vs solver {:?}", r.pos.fen(), o.0, exact);
            }
        }
        println!("checked against the solver: {bad} differ");
    }
}
