//! Streams a PGN file of any size in constant memory and prints one line per
//! game: its number, the players, the result, the plies and the first error
//! (with line, column and ply), then a summary.
//!
//! ```text
//! cargo run -p arbiter-pgn --example stream_pgn -- games.pgn
//! cat games.pgn | cargo run -p arbiter-pgn --example stream_pgn -- -
//! ```

use arbiter_pgn::check::Checker;
use arbiter_pgn::Reader;
use std::io::Read;

fn main() -> std::io::Result<()> {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: stream_pgn FILE.pgn (or - for standard input)");
        std::process::exit(2);
    };
    let input: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(&path)?)
    };
    // The reader buffers by itself (64 KiB); the checker replays every move
    // (FIDE Art. 3) and keeps only a summary of each game.
    let mut reader = Reader::new(input);
    let mut checker = Checker::new();
    let (mut games, mut errors) = (0u64, 0u64);
    while let Some(game) = reader.read_game(&mut checker)? {
        games += 1;
        let result = game.result.map_or("?", |r| r.as_str());
        let white = game.white.as_deref().unwrap_or("?");
        let black = game.black.as_deref().unwrap_or("?");
        print!(
            "{:>6}  {white} - {black}  {result}  {} plies",
            game.number, game.plies
        );
        if let Some(e) = &game.error {
            errors += 1;
            print!("  error at {}: {}", e.location, e.message());
        }
        for w in &game.warnings {
            print!("  warning: {}", w.kind);
        }
        println!();
    }
    println!(
        "{games} games, {errors} with errors, {} bytes",
        reader.bytes_read()
    );
    Ok(())
}
