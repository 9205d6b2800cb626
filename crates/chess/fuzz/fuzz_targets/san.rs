//! SAN reading never panics; a move read writes back to SAN naming the same move.
#![no_main]
use arbiter_chess::{Position, SanPlus};
use libfuzzer_sys::fuzz_target;

const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
    "2k5/8/8/8/4Q2Q/8/8/K6Q w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let _ = SanPlus::parse(text);
    let pos: Position = POSITIONS[which as usize % POSITIONS.len()].parse().expect("valid");
    if let Ok(m) = pos.parse_san(text) {
        assert!(pos.is_legal(m));
        let san = pos.san(m);
        assert_eq!(pos.parse_san(&san).expect("strict SAN reads back"), m);
    }
});
