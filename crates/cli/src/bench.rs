//! `arbiter bench`: measured speed. `arbiter bench perft` runs perft on the
//! standard suite (the comparison with cozy-chess, which is not linked into this
//! binary, is `cargo bench -p arbiter-chess --bench perft_vs_cozy`).

use anyhow::Result;
use arbiter_chess::perft::{perft, perft_full};
use arbiter_chess::{CastlingMode, Position};
use std::process::ExitCode;
use std::time::Instant;

/// Options of `arbiter bench`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// Perft speed on the standard suite (start position depth 6, Kiwipete depth 5, positions 3–6).
    Perft {
        /// Play every leaf move instead of counting the last ply in bulk (make-move throughput).
        #[arg(long)]
        full: bool,
    },
}

const SUITE: [(&str, &str, u32); 6] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    (
        "pos4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        5,
    ),
    (
        "pos5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        5,
    ),
    (
        "pos6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        5,
    ),
];

pub fn run(args: Args) -> Result<ExitCode> {
    match args.what {
        What::Perft { full } => {
            let mut total_nodes = 0u64;
            let mut total_secs = 0f64;
            println!(
                "{:<10} {:>5} {:>13} {:>10}",
                "position", "depth", "nodes", "M nodes/s"
            );
            for (name, fen, depth) in SUITE {
                let pos = Position::from_fen(fen, CastlingMode::Standard)?;
                let depth = if full { depth - 1 } else { depth };
                let start = Instant::now();
                let nodes = if full {
                    perft_full(&pos, depth)
                } else {
                    perft(&pos, depth)
                };
                let secs = start.elapsed().as_secs_f64();
                total_nodes += nodes;
                total_secs += secs;
                println!(
                    "{name:<10} {depth:>5} {nodes:>13} {:>10.1}",
                    nodes as f64 / secs / 1e6
                );
            }
            println!(
                "total: {total_nodes} nodes, {:.1} M nodes/s",
                total_nodes as f64 / total_secs / 1e6
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
