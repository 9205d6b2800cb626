//! Development tool: evaluates variants of the cheap dead-position certificate
//! against chasolver's corpora (false positives) and random games (coverage).
use arbiter_chess::{Bitboard, Color, Position, Role};
use rand::{Rng, SeedableRng};

fn moves_of(p: &Position, c: Color) -> usize {
    if p.turn() == c {
        p.count_legal_moves()
    } else if p.is_check() {
        0
    } else {
        let mut q = *p;
        q.play_null();
        q.count_legal_moves()
    }
}

fn rams(p: &Position) -> u32 {
    let b = p.board();
    let w = b.by_piece(Role::Pawn.of(Color::White));
    let bl = b.by_piece(Role::Pawn.of(Color::Black));
    (w & bl.shift_down()).count()
}
fn blocked(p: &Position) -> u32 {
    let b = p.board();
    let w = b.by_piece(Role::Pawn.of(Color::White));
    let bl = b.by_piece(Role::Pawn.of(Color::Black));
    let occ = b.occupied();
    (w & occ.shift_down()).count() + (bl & occ.shift_up()).count()
}

fn material_ok(p: &Position, c: Color) -> bool {
    let b = p.board();
    let ours = b.by_color(c);
    let heavy = (b.rooks() | b.queens()) & ours;
    let minors = (b.knights() | b.bishops()) & ours;
    let pawns = b.pawns() & ours;
    heavy.count() >= 2 || (heavy.count() == 1 && (minors.count() >= 1 || pawns.count() >= 1))
}

fn pawnless_can_mate(p: &Position, c: Color) -> bool {
    let b = p.board();
    let ours = b.by_color(c) & !b.kings();
    let theirs = b.by_color(!c) & !b.kings();
    if ours.is_empty() { return false; }
    if (ours & (b.rooks() | b.queens())).any() { return true; }
    let knights = ours & b.knights();
    let bishops = ours & b.bishops();
    if theirs.is_empty() {
        // K+N+N, K+B+N, K+B+B (both colours) against a lone king
        return knights.count() >= 2 || (knights.any() && bishops.any()) || (bishops & Bitboard::LIGHT).any() && (bishops & Bitboard::DARK).any();
    }
    // Y has material: with a knight anything goes; bishops only of one colour need a Y piece not a same-colour bishop
    if knights.any() { return true; }
    let all_b = b.bishops();
    !(all_b == b.occupied() & !b.kings() && (all_b.is_subset(Bitboard::LIGHT) || all_b.is_subset(Bitboard::DARK)))
}

fn cert(p: &Position, c: Color, v: u32) -> bool {
    let mine = moves_of(p, c);
    let theirs = moves_of(p, !c);
    match v {
        0 => material_ok(p, c) && mine >= 10 && theirs >= 10 && rams(p) <= 2,
        1 => material_ok(p, c) && mine >= 8 && theirs >= 8 && rams(p) <= 3 && blocked(p) <= 8,
        2 => material_ok(p, c) && mine >= 6 && theirs >= 6 && rams(p) <= 4,
        3 => cert(p, c, 1) || (p.board().pawns().is_empty() && pawnless_can_mate(p, c) && mine >= 3 && theirs >= 3),
        _ => false,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut corpus = Vec::new();
    for f in &args[1..] {
        for l in std::fs::read_to_string(f).unwrap().lines() {
            if l.starts_with('#') || l.trim().is_empty() { continue; }
            let (lab, fen) = l.split_at(2);
            if let Ok(p) = Position::from_fen_auto(fen.trim()) {
                corpus.push((p, [lab.starts_with('W'), lab.ends_with('B')], l.to_string()));
            }
        }
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut games = Vec::new();
    let mut plies = 0;
    for _ in 0..300 {
        let mut pos = Position::standard();
        loop {
            let ms = pos.legal_moves();
            if ms.is_empty() || pos.halfmoves() >= 150 { break; }
            let m = ms[rng.gen_range(0..ms.len())];
            let irr = pos.is_zeroing(m);
            pos.play_unchecked(m);
            plies += 1;
            if irr { games.push(pos); }
        }
    }
    let mut shown = 0;
    for p in &games { if !cert(p, Color::White, 3) && !cert(p, Color::Black, 3) { shown += 1; if shown % 97 == 0 { println!("uncovered: {}", p.fen()); } } }
    for v in 0..4 {
        let mut fp = 0;
        for (p, exp, l) in &corpus {
            for (i, c) in Color::ALL.into_iter().enumerate() {
                if cert(p, c, v) && !exp[i] { fp += 1; if fp <= 3 { println!("  FP v{v} {c}: {l}"); } }
            }
        }
        let cov = games.iter().filter(|p| cert(p, Color::White, v) || cert(p, Color::Black, v)).count();
        println!("v{v}: false positives {fp}; covers {cov}/{} irreversible positions of random games ({plies} plies)", games.len());
    }
    let _ = Bitboard::EMPTY;
}
