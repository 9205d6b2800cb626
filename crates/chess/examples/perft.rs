//! Counts the legal move tree of a position (perft) and lists the legal moves
//! of its root in SAN: the rules of Articles 3.1–3.10 at work.
//!
//! ```sh
//! cargo run --release -p arbiter-chess --example perft              # the initial position, depth 5
//! cargo run --release -p arbiter-chess --example perft -- 4 "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
//! ```

use arbiter_chess::{perft, Position};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let depth: u32 = match args.next() {
        Some(d) => d.parse().map_err(|e| format!("depth {d:?}: {e}"))?,
        None => 5,
    };
    let pos = match args.next() {
        Some(fen) => Position::from_fen_auto(&fen)?,
        None => Position::standard(),
    };
    println!("{pos}");
    let moves = pos.legal_moves();
    let sans: Vec<String> = moves.iter().map(|&m| pos.san(m)).collect();
    println!("{} legal moves: {}", moves.len(), sans.join(" "));
    if pos.is_checkmate() {
        println!("checkmate (Art. 5.1 a)");
    } else if pos.is_stalemate() {
        println!("stalemate (Art. 5.2 a)");
    }
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = perft::perft(&pos, d);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "depth {d}: {nodes} nodes in {secs:.3} s ({:.1} M nodes/s)",
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(())
}
