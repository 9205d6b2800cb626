//! `arbiter judge FILE`: a game as JSON lines (`-` for stdin), judged by the
//! FIDE Laws; one JSON line out per line in. See the README section "For
//! arbiters" and `arbiter_laws::judge`.

use anyhow::{Context, Result};
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `arbiter judge`.
#[derive(clap::Args)]
pub struct Args {
    /// The game: a `{"start": …}` line, then one event per line; `-` reads stdin.
    file: PathBuf,
    /// Add the FEN of the position to every output line.
    #[arg(long)]
    fen: bool,
    /// Read the whole game before answering, so that the record's own later
    /// moves settle the dead-position check (same verdicts, less work).
    /// Default: yes for a FILE, no for `-` (each line answered as it comes).
    #[arg(long, value_name = "BOOL")]
    read_ahead: Option<bool>,
    /// The notation of the answers' "move": en (English SAN, the default),
    /// ru, figurine, lan, fide or uci. Moves are read in any of them.
    #[arg(long, value_name = "NOTATION", default_value = "en", value_parser = parse_notation)]
    notation: arbiter_pgn::Notation,
    /// Write the judged game as PGN (Result, Termination, the rulings as
    /// comments with their Articles) to OUT; `--pgn` alone or `--pgn -`
    /// writes it to standard output instead of the JSON answers.
    #[arg(long, value_name = "OUT", num_args = 0..=1, default_missing_value = "-")]
    pgn: Option<PathBuf>,
}

fn parse_notation(text: &str) -> Result<arbiter_pgn::Notation, String> {
    arbiter_pgn::Notation::from_name(text).map_err(|e| e.to_string())
}

pub fn run(args: Args) -> Result<ExitCode> {
    let stdin = args.file.as_os_str() == "-";
    let opts = arbiter_laws::judge::Options {
        fen: args.fen,
        read_ahead: args.read_ahead.unwrap_or(!stdin),
        notation: args.notation,
    };
    let pgn_to_stdout = args.pgn.as_ref().is_some_and(|p| p.as_os_str() == "-");
    // The record's file is made before the game is judged, so that a path
    // that cannot be written fails now, not at the end of a live game.
    let pgn_file = match &args.pgn {
        Some(path) if !pgn_to_stdout => Some(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        ),
        _ => None,
    };
    let out: Box<dyn Write> = if pgn_to_stdout {
        Box::new(std::io::sink())
    } else {
        Box::new(BufWriter::new(crate::out::stdout()))
    };
    let (_, game) = if stdin {
        let stdin = std::io::stdin();
        arbiter_laws::judge::run_game(stdin.lock(), out, opts)?
    } else {
        let f = std::fs::File::open(&args.file)
            .with_context(|| format!("cannot open {}", args.file.display()))?;
        arbiter_laws::judge::run_game(BufReader::new(f), out, opts)
            .with_context(|| args.file.display().to_string())?
    };
    if let Some(path) = &args.pgn {
        let text = arbiter_laws::record::to_pgn(&game).to_pgn();
        if pgn_to_stdout {
            crate::out::stdout().write_all(text.as_bytes())?;
        } else if let Some(mut f) = pgn_file {
            f.write_all(text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
