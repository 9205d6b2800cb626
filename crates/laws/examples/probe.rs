//! Development tool: evaluates candidate cheap certificates of mating chances
//! against labelled positions (chasolver corpora format: `WB fen`).
use arbiter_chess::{Bitboard, Color, Position, Role};

fn moves_of(p: &Position, c: Color) -> usize {
    if p.turn() == c { p.count_legal_moves() } else if p.is_check() { 0 } else { let mut q = *p; q.play_null(); q.count_legal_moves() }
}
fn feats(p: &Position) -> (u32, u32) {
    let b = p.board();
    let w = b.by_piece(Role::Pawn.of(Color::White));
    let bl = b.by_piece(Role::Pawn.of(Color::Black));
    let occ = b.occupied();
    ((w & bl.shift_down()).count(), (w & occ.shift_down()).count() + (bl & occ.shift_up()).count())
}
fn ahead(sq: arbiter_chess::Square, c: Color) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    let mut s = sq;
    while let Some(n) = s.offset(if c == Color::White { 8 } else { -8 }) { bb.add(n); s = n; }
    bb
}
fn passed(p: &Position, c: Color) -> bool {
    let b = p.board();
    let ours = b.by_piece(Role::Pawn.of(c));
    let theirs = b.by_piece(Role::Pawn.of(!c));
    ours.into_iter().any(|sq| {
        let front = ahead(sq, c);
        let mut span = front;
        for d in [-1i32, 1] { if let Some(n) = sq.offset(d) { if n.rank() == sq.rank() { span = span | ahead(n, c); } } }
        !(front & b.pawns()).any() && !(span & theirs).any()
    })
}
fn rule(p: &Position, c: Color, r: u32) -> bool {
    let b = p.board();
    let ours = b.by_color(c);
    let heavy = ((b.rooks() | b.queens()) & ours).count();
    let minors = ((b.knights() | b.bishops()) & ours).count();
    let pawns = (b.pawns() & ours).count();
    let (rams, blocked) = feats(p);
    let mx = moves_of(p, c); let my = moves_of(p, !c);
    match r {
        0 => heavy >= 1 && rams == 0 && blocked <= 2 && mx >= 4 && my >= 4,
        1 => passed(p, c) && rams == 0 && mx >= 3 && my >= 3,
        2 => b.pawns().is_empty() && (heavy >= 1 || minors >= 2 && !(b.knights() & ours).is_empty()) && mx >= 3 && my >= 3,
        3 => pawns >= 1 && rams == 0 && blocked == 0 && mx >= 3 && my >= 3,
        4 => heavy >= 1 && rams == 0 && blocked <= 2 && mx >= 6 && my >= 6,
        5 => passed(p, c) && rams == 0 && mx >= 4 && my >= 4,
        6 => pawns >= 1 && rams == 0 && blocked == 0 && mx >= 5 && my >= 5,
        7 => arbiter_laws::dead::certainly_can_mate(p, c),
        _ => false,
    }
}
fn main() {
    let mut data = Vec::new();
    for f in std::env::args().skip(1) {
        for l in std::fs::read_to_string(&f).unwrap().lines() {
            if l.starts_with('#') || l.trim().is_empty() { continue; }
            let (lab, fen) = l.split_at(2);
            if let Ok(p) = Position::from_fen_auto(fen.trim()) { data.push((p, [lab.starts_with('W'), lab.ends_with('B')], l.to_string(), f.contains("sc_"))); }
        }
    }
    let random = data.iter().filter(|d| d.3).count();
    for r in [7] {
        let (mut fp, mut cov) = (0, 0);
        for (p, exp, l, rnd) in &data {
            let mut any = false;
            for (i, c) in Color::ALL.into_iter().enumerate() {
                if rule(p, c, r) { any = true; if !exp[i] { fp += 1; if fp <= 2 { println!("  FP r{r} {c}: {l}"); } } }
            }
            if any && *rnd { cov += 1; }
        }
        println!("rule {r}: false positives {fp}; covers {cov}/{random} solver calls of random games");
    }
}
