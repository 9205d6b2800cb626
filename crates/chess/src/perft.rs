//! Perft: counting the leaves of the legal move tree, the standard test of a
//! move generator.

use crate::{Move, Position};

/// A well-known perft test position.
///
/// ```
/// use arbiter_chess::{perft::{perft, STANDARD_SUITE}, Position};
/// let kiwipete = STANDARD_SUITE.iter().find(|p| p.name == "kiwipete").unwrap();
/// let pos = Position::from_fen_auto(kiwipete.fen)?;
/// assert_eq!(perft(&pos, 2), 2_039);
/// # Ok::<_, arbiter_chess::FenError>(())
/// ```
#[derive(Copy, Clone, Debug)]
pub struct SuitePosition {
    /// Short name: `start`, `kiwipete`, `pos3` … `pos6`.
    pub name: &'static str,
    /// The position as FEN (standard chess).
    pub fen: &'static str,
    /// The depth used for benchmarks (a few seconds of work).
    pub depth: u32,
}

/// The standard perft suite of the Chess Programming Wiki ("Perft Results":
/// the start position, Kiwipete and positions 3–6), with benchmark depths.
pub const STANDARD_SUITE: [SuitePosition; 6] = [
    SuitePosition {
        name: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 6,
    },
    SuitePosition {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
    },
    SuitePosition {
        name: "pos3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        depth: 7,
    },
    SuitePosition {
        name: "pos4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        depth: 5,
    },
    SuitePosition {
        name: "pos5",
        fen: "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        depth: 5,
    },
    SuitePosition {
        name: "pos6",
        fen: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        depth: 5,
    },
];

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
            child.play_unchecked_by(m, pm.role);
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
