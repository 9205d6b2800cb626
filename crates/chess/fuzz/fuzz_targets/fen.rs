//! FEN reading never panics; every position read writes back to a FEN that
//! reads to the same position.
#![no_main]
use arbiter_chess::{CastlingMode, Position, Setup};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = Setup::from_fen(text);
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        if let Ok(pos) = Position::from_fen(text, mode) {
            let fen = pos.fen();
            let back = Position::from_fen(&fen, mode).expect("a written FEN reads back");
            assert_eq!(back.fen(), fen);
            assert_eq!(back.zobrist(), pos.zobrist());
            let _ = pos.legal_moves();
        }
    }
});
