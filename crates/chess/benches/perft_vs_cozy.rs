//! Perft speed, ours next to cozy-chess's (MIT; a dev-dependency used only for
//! this comparison), on the same positions in the same run.
//!
//! ```text
//! cargo bench -p arbiter-chess --bench perft_vs_cozy            # bulk counting
//! cargo bench -p arbiter-chess --bench perft_vs_cozy -- --quick # fewer repetitions
//! ```
//!
//! For each position: the best of N runs for each library by the thread's
//! CPU time (runs alternate so drift on a shared machine hits both alike),
//! nodes/s, and the ratio. Then make-move throughput: perft playing every
//! leaf move.

use arbiter_chess::perft::{self, STANDARD_SUITE as POSITIONS};
use arbiter_chess::{CastlingMode, Position};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 1 {
        let mut n = 0;
        board.generate_moves(|moves| {
            n += moves.len() as u64;
            false
        });
        return n;
    }
    let mut n = 0;
    board.generate_moves(|moves| {
        for m in moves {
            let mut child = board.clone();
            child.play_unchecked(m);
            n += cozy_perft(&child, depth - 1);
        }
        false
    });
    n
}

fn cozy_perft_full(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    board.generate_moves(|moves| {
        for m in moves {
            let mut child = board.clone();
            child.play_unchecked(m);
            n += cozy_perft_full(&child, depth - 1);
        }
        false
    });
    n
}

/// CPU time of this thread (less disturbed by other processes than wall
/// time on a shared machine), or `None` where the kernel does not say.
fn thread_cpu() -> Option<Duration> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
}

/// The count and the CPU time it took (wall time where CPU time is not
/// known).
fn time<F: FnMut() -> u64>(mut f: F) -> (u64, Duration) {
    let (start, cpu) = (Instant::now(), thread_cpu());
    let n = black_box(f());
    match (cpu, thread_cpu()) {
        (Some(a), Some(b)) => (n, b.saturating_sub(a)),
        _ => (n, start.elapsed()),
    }
}

fn mnps(nodes: u64, d: Duration) -> f64 {
    nodes as f64 / d.as_secs_f64() / 1e6
}

/// `--one NAME DEPTH WHO`: a single count, for instruction counts under
/// valgrind (`WHO`: ours, cozy, ours-full, cozy-full).
fn one(args: &[String]) {
    let [name, depth, who] = args else {
        panic!("--one NAME DEPTH ours|cozy|ours-full|cozy-full");
    };
    let p = POSITIONS
        .iter()
        .find(|p| p.name == name)
        .expect("a position of the suite");
    let depth: u32 = depth.parse().expect("a depth");
    let ours = Position::from_fen(p.fen, CastlingMode::Standard).expect("valid FEN");
    let theirs: cozy_chess::Board = p.fen.parse().expect("valid FEN");
    let n = match who.as_str() {
        "ours" => perft::perft(&ours, depth),
        "cozy" => cozy_perft(&theirs, depth),
        "ours-full" => perft::perft_full(&ours, depth),
        "cozy-full" => cozy_perft_full(&theirs, depth),
        other => panic!("ours|cozy|ours-full|cozy-full, not {other}"),
    };
    println!("{name} depth {depth} {who}: {n} nodes");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--one") {
        return one(&args[i + 1..(i + 4).min(args.len())]);
    }
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = if quick { 1 } else { 5 };
    println!(
        "perft, bulk-counted leaves, one thread, best of {runs} by CPU time (slider tables: {})",
        if arbiter_chess::attacks::uses_pext() {
            "pext"
        } else {
            "magic"
        }
    );
    println!(
        "{:<10} {:>5} {:>13} {:>12} {:>12} {:>7}",
        "position", "depth", "nodes", "arbiter M/s", "cozy M/s", "ratio"
    );
    let mut product = 1.0f64;
    for p in POSITIONS {
        let (name, fen, depth) = (p.name, p.fen, p.depth);
        let ours = Position::from_fen(fen, CastlingMode::Standard).expect("valid FEN");
        let theirs: cozy_chess::Board = fen.parse().expect("valid FEN");
        let (mut best_ours, mut best_theirs) = (Duration::MAX, Duration::MAX);
        let mut nodes = 0;
        for _ in 0..runs {
            let (n1, t1) = time(|| perft::perft(black_box(&ours), depth));
            let (n2, t2) = time(|| cozy_perft(black_box(&theirs), depth));
            assert_eq!(n1, n2, "node counts differ on {name}");
            nodes = n1;
            best_ours = best_ours.min(t1);
            best_theirs = best_theirs.min(t2);
        }
        let (a, b) = (mnps(nodes, best_ours), mnps(nodes, best_theirs));
        product *= a / b;
        println!(
            "{name:<10} {depth:>5} {nodes:>13} {a:>12.1} {b:>12.1} {:>7.2}",
            a / b
        );
    }
    println!(
        "geometric mean ratio (arbiter / cozy-chess): {:.2}",
        product.powf(1.0 / POSITIONS.len() as f64)
    );

    println!("\nmake-move throughput: perft playing every leaf move");
    println!(
        "{:<10} {:>5} {:>13} {:>12} {:>12} {:>7}",
        "position", "depth", "nodes", "arbiter M/s", "cozy M/s", "ratio"
    );
    for p in &POSITIONS[..2] {
        let (name, fen, depth) = (p.name, p.fen, p.depth - 1);
        let ours = Position::from_fen(fen, CastlingMode::Standard).expect("valid FEN");
        let theirs: cozy_chess::Board = fen.parse().expect("valid FEN");
        let (mut best_ours, mut best_theirs) = (Duration::MAX, Duration::MAX);
        let mut nodes = 0;
        for _ in 0..runs {
            let (n1, t1) = time(|| perft::perft_full(black_box(&ours), depth));
            let (n2, t2) = time(|| cozy_perft_full(black_box(&theirs), depth));
            assert_eq!(n1, n2);
            nodes = n1;
            best_ours = best_ours.min(t1);
            best_theirs = best_theirs.min(t2);
        }
        let (a, b) = (mnps(nodes, best_ours), mnps(nodes, best_theirs));
        println!(
            "{name:<10} {depth:>5} {nodes:>13} {a:>12.1} {b:>12.1} {:>7.2}",
            a / b
        );
    }
}
