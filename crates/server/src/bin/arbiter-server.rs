//! `arbiter-server`: the same as `arbiter serve`, as a binary of this crate
//! (the crash test and the load test start it).

use clap::Parser;

/// mimalloc: the server allocates many small, short-lived frames and events
/// on every worker thread (glibc malloc was ~9% of its CPU under load).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Play chess by the FIDE Laws in the browser.
#[derive(Parser)]
#[command(name = "arbiter-server", version, about)]
struct Cli {
    #[command(flatten)]
    serve: arbiter_server::ServeArgs,
}

fn main() -> std::process::ExitCode {
    match arbiter_server::serve_main(Cli::parse().serve) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arbiter-server: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
