//! Cookie headers: a token is found only when well formed.
#![no_main]
use arbiter_server::seat::token_from_cookies;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(t) = token_from_cookies([text].into_iter(), "abcdEFGH") {
        assert!((16..=64).contains(&t.len()));
        assert!(t
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    }
});
