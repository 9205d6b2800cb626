//! The TimeControl tag: no panics; what is read writes back to text that
//! reads the same.
#![no_main]

use arbiter_pgn::TimeControl;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(tc) = TimeControl::parse(text) {
            let again = TimeControl::parse(&tc.to_string()).expect("written form reads");
            assert_eq!(again, tc);
        }
    }
});
