//! Reading moves in Fide notation: no panics; what is read is legal and
//! converts to every notation and back.
#![no_main]

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::check(data, Some(arbiter_pgn::Notation::Fide));
});
