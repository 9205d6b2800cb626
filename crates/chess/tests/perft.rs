//! Perft against published reference counts (tests/data/perft.txt: the Chess
//! Programming Wiki table) and Chess960 counts (tests/data/perft960.txt,
//! produced by the oracle script `tests/oracle_perft960.rs`).

use arbiter_chess::perft::{perft, perft_full};
use arbiter_chess::{CastlingMode, Position};

struct Case {
    fen: String,
    counts: Vec<(bool, u32, u64)>,
}

fn load(text: &str) -> Vec<Case> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_owned();
            let counts = parts
                .map(|p| {
                    let mut words: Vec<&str> = p.split_whitespace().collect();
                    let slow = words.first() == Some(&"slow");
                    if slow {
                        words.remove(0);
                    }
                    let depth = words[0].trim_start_matches('D').parse().unwrap();
                    (slow, depth, words[1].parse().unwrap())
                })
                .collect();
            Case { fen, counts }
        })
        .collect()
}

fn run(text: &str, mode: CastlingMode, slow: bool) {
    for case in load(text) {
        let pos =
            Position::from_fen(&case.fen, mode).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(is_slow, depth, expected) in &case.counts {
            if is_slow != slow {
                continue;
            }
            assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", case.fen);
        }
    }
}

#[test]
fn standard_suite() {
    run(
        include_str!("data/perft.txt"),
        CastlingMode::Standard,
        false,
    );
}

#[test]
#[ignore = "deep perft: minutes in a debug build; run with --ignored --release"]
fn standard_suite_deep() {
    run(include_str!("data/perft.txt"), CastlingMode::Standard, true);
}

#[test]
fn chess960_suite() {
    run(
        include_str!("data/perft960.txt"),
        CastlingMode::Chess960,
        false,
    );
}

#[test]
fn playing_every_leaf_agrees_with_bulk_counting() {
    let pos: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
        .parse()
        .unwrap();
    assert_eq!(perft_full(&pos, 3), perft(&pos, 3));
}
