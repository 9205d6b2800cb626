//! `arbiter uci`: Arbiter's engine speaking UCI on standard input and output.

use anyhow::Result;
use std::process::ExitCode;

/// Options of `arbiter uci`.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    arbiter_engine::uci::run(stdin.lock(), Box::new(crate::out::stdout()))?;
    Ok(ExitCode::SUCCESS)
}
