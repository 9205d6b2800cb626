//! `arbiter judge` on arbitrary input: never panics; answers one line per
//! input line once a start line is accepted.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    if let Ok(summary) = arbiter_laws::judge::run(data, &mut out, Default::default()) {
        let lines = out.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(lines, summary.events + 1);
    }
});
