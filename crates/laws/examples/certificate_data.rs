//! Development tool: positions of random games (random legal moves, seeded)
//! that get past the cheap arguments and reach the exact solver, written with
//! the solver's verdicts (`WB fen` lines) for `certificate_check`.
//!
//! `cargo run --release -p arbiter-laws --example certificate_data -- GAMES SEED OUT`
//! (the certificate was checked on 2 × 700 games, seeds 11 and 12: 18,236 positions).
use arbiter_chess::{Color, Position};
use arbiter_laws::dead::{
    can_return, certainly_can_mate, count_moves_capped, insufficient_material,
};
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::str::FromStr;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(11);
    let path = args
        .get(3)
        .cloned()
        .unwrap_or_else(|| "certificate_data.txt".into());
    let mut out = std::fs::File::create(&path).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..games {
        let mut pos = Position::standard();
        let mut alive = true;
        loop {
            let ms = pos.legal_moves();
            if ms.is_empty() || pos.halfmoves() >= 150 {
                break;
            }
            let m = ms[rng.gen_range(0..ms.len())];
            let before = pos;
            pos.play_unchecked(m);
            let n = count_moves_capped(&pos, 2);
            if n == 0 || insufficient_material(&pos) {
                break;
            }
            if certainly_can_mate(&pos, Color::White) || certainly_can_mate(&pos, Color::Black) {
                alive = true;
                continue;
            }
            if alive && can_return(&before, m, &pos) {
                continue;
            }
            let b = chess::Board::from_str(&pos.epd()).unwrap();
            let w = matches!(
                chasolver::winnability(&b, chess::Color::White),
                Some(chasolver::Winnability::Winnable { .. })
            );
            let bl = matches!(
                chasolver::winnability(&b, chess::Color::Black),
                Some(chasolver::Winnability::Winnable { .. })
            );
            writeln!(
                out,
                "{}{} {}",
                if w { 'W' } else { '-' },
                if bl { 'B' } else { '-' },
                pos.epd()
            )
            .unwrap();
            alive = w || bl;
            if !alive {
                break;
            }
        }
    }
}
