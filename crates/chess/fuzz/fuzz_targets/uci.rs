//! UCI reading never panics; a move read writes back to UCI naming the same move.
#![no_main]
use arbiter_chess::{CastlingMode, Position, UciMove};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let _ = UciMove::parse(text);
    let mut pos: Position = "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1".parse().expect("valid");
    if which & 1 == 1 {
        pos.set_castling_mode(CastlingMode::Chess960).expect("standard rights are valid in 960");
    }
    if let Ok(m) = pos.parse_uci(text) {
        assert!(pos.is_legal(m));
        assert_eq!(pos.parse_uci(&pos.uci(m)).expect("UCI reads back"), m);
    }
});
