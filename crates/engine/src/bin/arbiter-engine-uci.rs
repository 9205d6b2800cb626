//! The engine alone on standard input and output (UCI), for tests and for
//! embedding without the `arbiter` command-line tool.

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    arbiter_engine::uci::run(stdin.lock(), Box::new(std::io::stdout()))
}
