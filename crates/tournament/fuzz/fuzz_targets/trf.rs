//! The TRF reader never panics, and whatever it accepts writes out and reads
//! back as the same event (TRF-16 and TRF-2026).
#![no_main]
use arbiter_tournament::trf::{self, TrfVersion};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(event) = trf::read(text) else { return };
    for v in [TrfVersion::Trf16, TrfVersion::Trf26] {
        let out = trf::write(&event, v).unwrap();
        let again = trf::read(&out).expect("a file we wrote reads back");
        assert_eq!(trf::write(&again, v).unwrap(), out);
    }
});
