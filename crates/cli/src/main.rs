//! `arbiter`: the command-line tool of Arbiter — chess by the FIDE Laws.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod bench;
mod judge;
mod perft;
mod pgn;

/// Arbiter: chess exactly as the FIDE Laws of Chess define it.
#[derive(Parser)]
#[command(name = "arbiter", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (perft).
    Perft(perft::Args),
    /// Benchmarks (move generation against cozy-chess, …).
    Bench(bench::Args),
    /// Judge a game by the FIDE Laws: JSON lines in, one verdict per line out.
    Judge(judge::Args),
    /// Game records: check and convert PGN (FIDE Art. 8, Appendix C).
    Pgn(pgn::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Pgn(args) => pgn::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("arbiter: {e:#}");
            ExitCode::from(2)
        }
    }
}
