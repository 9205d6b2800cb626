//! `arbiter`: the command-line tool of Arbiter — chess by the FIDE Laws.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// mimalloc: `arbiter serve` allocates many small, short-lived frames and
/// events on every worker thread (glibc malloc was ~9% of its CPU under load).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod audit;
mod bench;
mod judge;
mod mapped;
mod matches;
mod out;
mod perft;
mod pgn;
mod serve;
mod tournament;
mod tune;
mod uci;

/// The exit status when standard output is closed by its reader (`| head`):
/// that of a process a broken pipe stops (128 + SIGPIPE). The command ends
/// quietly.
pub(crate) const BROKEN_PIPE: u8 = 141;

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
    /// Play in the browser: the web app, games against the engine or a person.
    Serve(serve::Args),
    /// Benchmarks: perft (move generation) and the engine's search speed.
    Bench(bench::Args),
    /// Arbiter's chess engine, speaking UCI on standard input and output.
    Uci(uci::Args),
    /// Tune the engine's evaluation: self-play data, Texel fit.
    Tune(tune::Args),
    /// Play UCI engines against each other under a FIDE clock and the Laws.
    Match(matches::Args),
    /// Judge a game by the FIDE Laws: JSON lines in, one verdict per line out.
    Judge(judge::Args),
    /// Game records: check and convert PGN (FIDE Art. 8, Appendix C).
    Pgn(pgn::Args),
    /// Judge game records by the Laws: every result the Laws would change.
    Audit(audit::Args),
    /// Tournaments: Dutch Swiss pairings, round-robin, standings, TRF (FIDE Handbook C.04, C.05, C.07).
    Tournament(tournament::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Uci(args) => uci::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Match(args) => matches::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Pgn(args) => pgn::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Tournament(args) => tournament::run(args),
    };
    match result {
        Ok(code) => code,
        // Standard output closed by its reader: quietly.
        Err(e) if out::is_closed(&e) => ExitCode::from(BROKEN_PIPE),
        Err(e) => {
            eprintln!("arbiter: {}", message(&e));
            ExitCode::from(2)
        }
    }
}

/// An error and its causes, `: ` between them, as `{:#}` writes them, but
/// each cause once: an error whose message already quotes its cause (the
/// engine's `cannot start engine "x": No such file or directory (os error
/// 2)`) had it printed twice.
fn message(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

/// Creates the directory `path` is to be written in, if missing (as `pgn
/// generate --out` and `tune --out` write into a new directory); before
/// anything is computed, so that a path that cannot be written fails first.
pub(crate) fn create_parent_dir(path: &std::path::Path) -> anyhow::Result<()> {
    use anyhow::Context;
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => {
            std::fs::create_dir_all(dir).with_context(|| {
                format!(
                    "cannot create the directory {} for {}",
                    dir.display(),
                    path.display()
                )
            })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cause already quoted by the message above it is not repeated;
    /// causes that are not are written after it.
    #[test]
    fn a_cause_is_printed_once() {
        let io = std::io::Error::from(std::io::ErrorKind::NotFound);
        let quoted = format!("cannot start engine \"/nonexistent\": {io}");
        let e = anyhow::Error::new(io).context(quoted.clone());
        assert_eq!(message(&e), quoted);
        let e = anyhow::anyhow!("inner").context("outer");
        assert_eq!(message(&e), "outer: inner");
    }
}
