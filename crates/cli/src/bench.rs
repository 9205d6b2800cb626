//! `arbiter bench`: measured speed. `arbiter bench perft` runs perft on the
//! standard suite (the comparison with cozy-chess, which is not linked into this
//! binary, is `cargo bench -p arbiter-chess --bench perft_vs_cozy`);
//! `arbiter bench engine` searches fixed positions to a fixed depth and prints
//! nodes and nodes per second (as `bench` does in other engines).

use anyhow::Result;
use arbiter_chess::perft::{perft, perft_full, STANDARD_SUITE};
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
    /// The engine's search speed: nodes and nodes per second on fixed positions.
    Engine {
        /// Search depth for every position.
        #[arg(long, default_value_t = arbiter_engine::uci::BENCH_DEPTH)]
        depth: u32,
    },
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.what {
        What::Perft { full } => {
            let mut total_nodes = 0u64;
            let mut total_secs = 0f64;
            crate::out::outln!(
                "{:<10} {:>5} {:>13} {:>10}",
                "position",
                "depth",
                "nodes",
                "M nodes/s"
            )?;
            for p in STANDARD_SUITE {
                let pos = Position::from_fen(p.fen, CastlingMode::Standard)?;
                let (name, depth) = (p.name, if full { p.depth - 1 } else { p.depth });
                let start = Instant::now();
                let nodes = if full {
                    perft_full(&pos, depth)
                } else {
                    perft(&pos, depth)
                };
                let secs = start.elapsed().as_secs_f64();
                total_nodes += nodes;
                total_secs += secs;
                crate::out::outln!(
                    "{name:<10} {depth:>5} {nodes:>13} {:>10.1}",
                    nodes as f64 / secs / 1e6
                )?;
            }
            crate::out::outln!(
                "total: {total_nodes} nodes, {:.1} M nodes/s",
                total_nodes as f64 / total_secs / 1e6
            )?;
        }
        What::Engine { depth } => {
            let r = arbiter_engine::uci::bench(depth);
            crate::out::outln!(
                "{} positions, depth {depth}: {} nodes, {} nps, {} ms",
                arbiter_engine::uci::BENCH_FENS.len(),
                r.nodes,
                r.nps(),
                r.time.as_millis()
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
