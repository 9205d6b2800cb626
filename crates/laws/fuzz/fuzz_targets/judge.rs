//! `arbiter judge` on arbitrary input: never panics; answers one line per
//! input line once a start line is accepted; reading ahead changes nothing
//! in the output.
#![no_main]
use arbiter_laws::judge::{run, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    let online = run(data, &mut out, Options::default());
    if let Ok(summary) = &online {
        let lines = out.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(lines, summary.events + 1);
    }
    let mut ahead = Vec::new();
    let options = Options {
        read_ahead: true,
        ..Options::default()
    };
    let read_ahead = run(data, &mut ahead, options);
    // The same lines answered, even when a line cannot be read.
    assert_eq!(online.is_ok(), read_ahead.is_ok());
    assert_eq!(out, ahead);
});
