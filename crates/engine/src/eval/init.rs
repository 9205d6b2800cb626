//! Hand-written starting weights: round textbook figures (pawn 1, minor piece
//! 3+, rook 5, queen 9), small central bonuses and linear mobility. They are
//! where the tuner starts from; the engine plays with the tuned weights in
//! `weights.rs`.

use super::features::*;

/// The starting point of tuning.
pub const INITIAL: [S; NUM_FEATURES] = initial();

/// Linear mobility: for `count` possible move counts from `base`, `(moves −
/// average) × (mg, eg)`.
const fn mobility(
    mut w: [S; NUM_FEATURES],
    base: usize,
    count: usize,
    average: i32,
    mg: i32,
    eg: i32,
) -> [S; NUM_FEATURES] {
    let mut i = 0;
    while i < count {
        let d = i as i32 - average;
        w[base + i] = s(d * mg, d * eg);
        i += 1;
    }
    w
}

const fn initial() -> [S; NUM_FEATURES] {
    let mut w = [s(0, 0); NUM_FEATURES];
    w[MATERIAL] = s(90, 110);
    w[MATERIAL + 1] = s(320, 300);
    w[MATERIAL + 2] = s(330, 320);
    w[MATERIAL + 3] = s(470, 520);
    w[MATERIAL + 4] = s(950, 980);

    // Piece-square tables: centralisation for knights, bishops, queen and the
    // endgame king; pawns gain as they advance; the middlegame king stays home.
    let mut role = 0;
    while role < 6 {
        let mut rel = 0;
        while rel < 64 {
            let file = (rel % 8) as i32;
            let rank = (rel / 8) as i32;
            let fc = if file > 3 { 7 - file } else { file }; // 0 at the edge, 3 in the centre
            let rc = if rank > 3 { 7 - rank } else { rank };
            let centre = fc + rc; // 0..6
            let v = match role {
                0 => s(
                    if rank >= 1 && rank <= 6 {
                        (rank - 1) * 3 + fc * 2
                    } else {
                        0
                    },
                    (rank - 1) * 8,
                ),
                1 => s(centre * 6 - 15, centre * 5 - 15),
                2 => s(centre * 3 - 8, centre * 3 - 8),
                3 => s(if rank == 6 { 15 } else { 0 }, 0),
                4 => s(centre * 2 - 5, centre * 4 - 10),
                _ => s(
                    if rank == 0 {
                        10 - fc * 6
                    } else {
                        -20 - rank * 6
                    },
                    centre * 8 - 20,
                ),
            };
            let i = pst_index(role, rel);
            if rel % 8 < 4 {
                w[i] = v;
            }
            rel += 1;
        }
        role += 1;
    }

    w = mobility(w, MOBILITY_KNIGHT, 9, 4, 6, 6);
    w = mobility(w, MOBILITY_BISHOP, 14, 6, 5, 5);
    w = mobility(w, MOBILITY_ROOK, 15, 7, 3, 6);
    w = mobility(w, MOBILITY_QUEEN, 28, 13, 2, 4);
    let mut i = 0;
    while i < 8 {
        let r = i as i32;
        let p = if r >= 1 && r <= 6 { r * r } else { 0 };
        w[PASSED + i] = s(p * 2, p * 5);
        w[PASSED_BLOCKED + i] = s(-p / 2, -p * 2);
        w[PASSED_FREE + i] = s(0, p * 3);
        w[CONNECTED + i] = s(
            if r >= 1 && r <= 6 { 4 + r * 2 } else { 0 },
            if r >= 1 && r <= 6 { r * 3 } else { 0 },
        );
        i += 1;
    }
    w[PASSED_OWN_KING] = s(0, -4);
    w[PASSED_THEIR_KING] = s(0, 8);
    w[PASSED_PROTECTED] = s(5, 15);
    w[ISOLATED] = s(-10, -12);
    w[DOUBLED] = s(-8, -20);
    w[BACKWARD] = s(-8, -6);
    w[BISHOP_PAIR] = s(30, 50);
    w[ROOK_OPEN] = s(30, 10);
    w[ROOK_SEMI_OPEN] = s(12, 8);
    w[ROOK_ON_SEVENTH] = s(10, 25);
    w[KNIGHT_OUTPOST] = s(25, 15);
    w[BISHOP_OUTPOST] = s(15, 5);
    w[THREAT_BY_PAWN] = s(60, 40);
    w[THREAT_BY_MINOR] = s(5, 15);
    w[THREAT_BY_MINOR + 1] = s(30, 30);
    w[THREAT_BY_MINOR + 2] = s(30, 30);
    w[THREAT_BY_MINOR + 3] = s(50, 40);
    w[THREAT_BY_MINOR + 4] = s(50, 40);
    w[THREAT_BY_ROOK] = s(5, 20);
    w[THREAT_BY_ROOK + 1] = s(20, 30);
    w[THREAT_BY_ROOK + 2] = s(20, 30);
    w[THREAT_BY_ROOK + 4] = s(50, 40);
    w[HANGING] = s(30, 20);
    w[KING_DANGER] = s(4, 0);
    w[KING_DANGER + 1] = s(3, 0);
    w[SAFE_CHECK] = s(40, 10);
    w[SAFE_CHECK + 1] = s(20, 10);
    w[SAFE_CHECK + 2] = s(40, 10);
    w[SAFE_CHECK + 3] = s(30, 10);
    w[SHIELD] = s(15, 0);
    w[SHIELD + 1] = s(8, 0);
    w[KING_OPEN_FILE] = s(-30, 0);
    w[KING_SEMI_OPEN_FILE] = s(-15, 5);
    w[TEMPO] = s(15, 10);
    w
}
