//! `arbiter perft`: perft from the start position or a FEN.

use anyhow::{Context, Result};
use arbiter_chess::perft::{divide, perft};
use arbiter_chess::{CastlingMode, Position};
use std::process::ExitCode;
use std::time::Instant;

/// Options of `arbiter perft`.
#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies.
    #[arg(long, short)]
    depth: u32,
    /// Start position as FEN (X-FEN and Shredder-FEN accepted); default: the standard start.
    #[arg(long)]
    fen: Option<String>,
    /// Chess960 mode: castling written king-takes-rook; with no FEN, `--chess960 N`
    /// starts from Chess960 position N.
    #[arg(long, num_args = 0..=1, default_missing_value = "-1", allow_negative_numbers = true)]
    chess960: Option<i64>,
    /// Print the count below each legal move first.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mode = CastlingMode::from_chess960(args.chess960.is_some());
    let pos = match (&args.fen, args.chess960) {
        (Some(fen), _) => Position::from_fen(fen, mode)
            .or_else(|e| {
                if args.chess960.is_none() {
                    Position::from_fen_auto(fen)
                } else {
                    Err(e)
                }
            })
            .with_context(|| format!("cannot read --fen {fen:?}"))?,
        (None, Some(n)) if n >= 0 => Position::chess960(n as u32)
            .with_context(|| format!("no Chess960 position {n}: numbers run from 0 to 959"))?,
        (None, _) => {
            let mut p = Position::standard();
            p.set_castling_mode(mode)?;
            p
        }
    };
    let start = Instant::now();
    let total = if args.divide {
        let mut total = 0;
        for (m, n) in divide(&pos, args.depth) {
            println!("{}: {n}", pos.uci(m));
            total += n;
        }
        println!();
        total
    } else {
        perft(&pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{total} nodes in {:.3} s ({:.1} M nodes/s)",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    println!("{total}");
    Ok(ExitCode::SUCCESS)
}
