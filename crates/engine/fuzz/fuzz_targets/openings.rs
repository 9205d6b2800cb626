//! Opening files (EPD or PGN): errors, never panics; what is read replays legally.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(openings) = arbiter_engine::matches::openings::read(text) {
            for o in openings {
                let mut p = o.start;
                for m in o.moves {
                    assert!(p.is_legal(m));
                    p.play_unchecked(m);
                }
            }
        }
    }
});
