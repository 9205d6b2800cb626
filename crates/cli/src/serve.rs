//! `arbiter serve`: play in the browser (see `arbiter-server`).

use std::path::Path;
use std::process::ExitCode;

/// Flags of `arbiter serve`.
pub type Args = arbiter_server::ServeArgs;

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(dir) = &args.data_dir {
        check_data_dir(dir)?;
    }
    arbiter_server::serve_main(args)?;
    Ok(ExitCode::SUCCESS)
}

/// `--data-dir` names a directory, or nothing yet (it is created): not a
/// file, which the system's answer to creating it ("File exists") did not
/// say.
fn check_data_dir(dir: &Path) -> anyhow::Result<()> {
    match std::fs::metadata(dir) {
        Ok(meta) if !meta.is_dir() => anyhow::bail!(
            "--data-dir {}: a file, not a directory (give a directory, or a path that does not exist yet)",
            dir.display()
        ),
        _ => Ok(()),
    }
}
