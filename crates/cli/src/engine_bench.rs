//! `arbiter engine-bench`: the engine's search speed on fixed positions.

use anyhow::Result;
use std::process::ExitCode;

/// Options of `arbiter engine-bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Search depth for every position.
    #[arg(long, default_value_t = arbiter_engine::uci::BENCH_DEPTH)]
    depth: u32,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let r = arbiter_engine::uci::bench(args.depth);
    println!(
        "{} positions, depth {}: {} nodes, {} nps, {} ms",
        arbiter_engine::uci::BENCH_FENS.len(),
        args.depth,
        r.nodes,
        r.nps(),
        r.time.as_millis()
    );
    Ok(ExitCode::SUCCESS)
}
