use arbiter_chess::Position;
use rand::{Rng, SeedableRng};
use std::str::FromStr;
use std::time::Instant;
fn main() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut fens = Vec::new();
    for _ in 0..200 {
        let mut pos = Position::standard();
        for _ in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() { break; }
            let m = moves[rng.gen_range(0..moves.len())];
            pos.play_unchecked(m);
            fens.push(pos.fen());
            if pos.halfmoves() >= 150 { break; }
        }
    }
    println!("{} positions", fens.len());
    let boards: Vec<chess::Board> = fens.iter().map(|f| chess::Board::from_str(f).unwrap()).collect();
    let mut times: Vec<(u128,usize)> = boards.iter().enumerate().map(|(i,b)| { let t0=Instant::now(); let w = chasolver::winnability(b, chess::Color::White); let bl = if matches!(w, Some(chasolver::Winnability::Winnable{..})) { None } else { chasolver::winnability(b, chess::Color::Black) }; let _ = bl; (t0.elapsed().as_nanos(), i)}).collect();
    times.sort();
    let n = times.len();
    for q in [10, 50, 75, 90, 95, 99] { println!("p{q}: {} ns", times[n*q/100].0); }
    for &(t,i) in &times[n-5..] { println!("{t} {}", fens[i]); }
    let t = Instant::now();
    let mut undecided = 0; let mut unw = 0;
    let mut worst = 0u128;
    for b in &boards {
        let t0 = Instant::now();
        for c in [chess::Color::White, chess::Color::Black] {
            match chasolver::winnability(b, c) { None => undecided += 1, Some(chasolver::Winnability::Unwinnable) => unw += 1, _ => {} }
        }
        worst = worst.max(t0.elapsed().as_nanos());
    }
    let el = t.elapsed();
    println!("full: {:?} per position (both colours), worst {} us, undecided {undecided}, unwinnable {unw}", el / boards.len() as u32, worst/1000);
    let t = Instant::now();
    for f in &fens { let _ = chess::Board::from_str(f).unwrap(); }
    println!("fen parse: {:?}", t.elapsed() / fens.len() as u32);
}
