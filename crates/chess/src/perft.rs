//! Perft: counting the leaves of the legal move tree, the standard test of a
//! move generator.

use crate::{Move, Position};

/// The number of leaf nodes `depth` plies below `pos`. The last ply is counted
/// in bulk (one popcount per piece) without playing the moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut nodes = 0;
            pos.for_each_piece_moves(|pm| {
                for m in pm.iter() {
                    let mut child = *pos;
                    child.play_unhashed(m, pm.role);
                    nodes += perft(&child, depth - 1);
                }
                false
            });
            nodes
        }
    }
}

/// Like [`perft`], but plays every move down to the leaves (no bulk counting):
/// measures make-move throughput.
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    pos.for_each_piece_moves(|pm| {
        for m in pm.iter() {
            let mut child = *pos;
            child.play_unchecked(m);
            nodes += perft_full(&child, depth - 1);
        }
        false
    });
    nodes
}

/// Perft split by the first move: each legal move with its subtree count, in
/// move-generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    for m in pos.legal_moves() {
        let mut child = *pos;
        child.play_unchecked(m);
        out.push((m, perft(&child, depth - 1)));
    }
    out
}
