//! The client's reading of an outside engine's `info` lines never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for line in text.lines() {
            let _ = arbiter_engine::client::parse_info(line);
        }
    }
});
