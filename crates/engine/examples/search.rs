//! Searches a position with Arbiter's engine as a library (no UCI): the
//! progress of each iteration, then the best move in SAN with its score.
//!
//! ```sh
//! cargo run --release -p arbiter-engine --example search                  # the initial position, depth 10
//! cargo run --release -p arbiter-engine --example search -- 12 "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
//! ```

use arbiter_chess::Position;
use arbiter_engine::{Engine, EngineOptions, Limits};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let depth: u32 = match args.next() {
        Some(d) => d.parse().map_err(|e| format!("depth {d:?}: {e}"))?,
        None => 10,
    };
    let pos = match args.next() {
        Some(fen) => Position::from_fen_auto(&fen)?,
        None => Position::standard(),
    };
    let mut engine = Engine::new(EngineOptions::default());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    // Another thread could set `stop` to end the search early.
    let stop = Arc::new(AtomicBool::new(false));
    // The game so far, oldest first: here only the position itself (earlier
    // positions would count for repetitions, Art. 9.2).
    let history = [pos];
    let result = engine.search(&history, &limits, &stop, &mut |info| {
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "depth {:2}  score {:>9}  nodes {:>9}  {:>7} nodes/s  pv {}",
            info.depth,
            info.score.to_string(),
            info.nodes,
            info.nps,
            pv.join(" ")
        );
    });
    match result {
        Some(r) => println!(
            "best move {} ({}), {} nodes",
            pos.san(r.best),
            r.score,
            r.nodes
        ),
        None if pos.is_checkmate() => println!("no move: checkmate"),
        None => println!("no move: stalemate"),
    }
    Ok(())
}
