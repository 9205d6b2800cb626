//! `arbiter judge` on arbitrary input: never panics; answers one line per
//! input line once a start line is accepted; reading ahead changes nothing
//! in the output (`arbiter_laws::fuzzing::judge_property`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_laws::fuzzing::judge_property(data));
