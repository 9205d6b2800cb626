//! `arbiter audit` on any bytes: no panics; the lean reading (what the
//! command runs) audits every game as the full record does and as the
//! move-by-move reference does, under the 2014 and 2023 Laws
//! (`arbiter_laws::fuzzing::audit_property`; `tests/fuzz_audit.rs` checks
//! the same on mutated records without cargo-fuzz).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    arbiter_laws::fuzzing::audit_property(data);
});
