//! `arbiter serve`: play in the browser (see `arbiter-server`).

use std::process::ExitCode;

/// Flags of `arbiter serve`.
pub type Args = arbiter_server::ServeArgs;

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    arbiter_server::serve_main(args)?;
    Ok(ExitCode::SUCCESS)
}
