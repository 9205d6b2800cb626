//! Development tool: cost of deciding "dead or not" on labelled positions,
//! full analysis for White then Black, versus fast unwinnability checks first.
use std::str::FromStr;
fn main() {
    let mut boards = Vec::new();
    for f in std::env::args().skip(1) {
        for l in std::fs::read_to_string(&f).unwrap().lines() {
            if l.starts_with('#') || l.trim().is_empty() { continue; }
            boards.push(chess::Board::from_str(l[2..].trim()).unwrap());
        }
    }
    use chess::Color::*;
    let win = |b: &chess::Board, c| matches!(chasolver::winnability(b, c), Some(chasolver::Winnability::Winnable { .. }));
    let t = std::time::Instant::now();
    let mut dead1 = 0;
    for b in &boards { if !(win(b, White) || win(b, Black)) { dead1 += 1; } }
    let plain = t.elapsed();
    let t = std::time::Instant::now();
    let mut dead2 = 0;
    for b in &boards {
        let val = |c| { let cb = *b.color_combined(c); (*b.pieces(chess::Piece::Queen) & cb).popcnt()*9 + (*b.pieces(chess::Piece::Rook) & cb).popcnt()*5 + ((*b.pieces(chess::Piece::Bishop) | *b.pieces(chess::Piece::Knight)) & cb).popcnt()*3 + (*b.pieces(chess::Piece::Pawn) & cb).popcnt()*2 };
        let (first, second) = if val(White) >= val(Black) { (White, Black) } else { (Black, White) };
        let alive = win(b, first) || win(b, second);
        if !alive { dead2 += 1; }
    }
    let fast = t.elapsed();
    println!("{} positions: plain {:?} ({:?}/pos, {dead1} dead), fast-first {:?} ({:?}/pos, {dead2} dead)", boards.len(), plain, plain / boards.len() as u32, fast, fast / boards.len() as u32);
}
