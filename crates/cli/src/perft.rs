//! `arbiter perft`: perft from the start position or a FEN.

use anyhow::{Context, Result};
use arbiter_chess::perft::{divide, perft};
use arbiter_chess::{CastlingMode, FenError, Position, Setup, Validation};
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
    /// starts from Chess960 position N (0-959).
    #[arg(long, num_args = 0..=1)]
    chess960: Option<Option<u32>>,
    /// Accept positions that cannot arise in a game but can be played on
    /// (composed positions, other programs' perft suites): impossible checks
    /// and material; castling rights and en-passant squares that cannot be
    /// are dropped. By default a FEN must be legal under Art. 3.10.
    #[arg(long)]
    lenient: bool,
    /// Print the count below each legal move first.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mode = CastlingMode::from_chess960(args.chess960.is_some());
    let validation = if args.lenient {
        Validation::Lenient
    } else {
        Validation::Strict
    };
    let pos = match (&args.fen, args.chess960) {
        (Some(_), Some(Some(n))) => {
            // Two start positions: the FEN's and Chess960 position N.
            anyhow::bail!(
                "--chess960 {n} names a start position, and so does --fen: give one of them (--chess960 without N reads the FEN in Chess960 mode)"
            )
        }
        (Some(fen), chess960) => {
            let setup =
                Setup::from_fen(fen).with_context(|| format!("cannot read --fen {fen:?}"))?;
            let mode = if chess960.is_none() {
                CastlingMode::detect(&setup)
            } else {
                mode
            };
            Position::from_setup_with(setup, mode, validation)
                .map_err(FenError::from)
                .with_context(|| format!("cannot read --fen {fen:?}"))?
        }
        (None, Some(Some(n))) => Position::chess960(n)
            .with_context(|| format!("no Chess960 position {n}: numbers run from 0 to 959"))?,
        (None, _) => {
            let mut p = Position::standard();
            p.set_castling_mode(mode)?;
            p
        }
    };
    let start = Instant::now();
    // perft(0) = 1 (the position itself), which has no move to divide by.
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (m, n) in divide(&pos, args.depth) {
            crate::out::outln!("{}: {n}", pos.uci(m))?;
            total += n;
        }
        crate::out::outln!()?;
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
    crate::out::outln!("{total}")?;
    Ok(ExitCode::SUCCESS)
}
