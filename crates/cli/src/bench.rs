//! `arbiter bench`: placeholder until benchmarks land.

use anyhow::Result;
use std::process::ExitCode;

/// Options of `arbiter bench`.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<ExitCode> {
    Ok(ExitCode::SUCCESS)
}
