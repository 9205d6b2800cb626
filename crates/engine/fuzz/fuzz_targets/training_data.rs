//! The tuner's `FEN;result` reader: errors name their line, never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = arbiter_engine::tune::texel::load(data);
});
