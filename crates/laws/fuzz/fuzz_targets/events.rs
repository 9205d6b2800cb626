//! Arbitrary event lines after a fixed start (clock, touch-move, rapid):
//! never panics, and the log of accepted events replays to the same state
//! (`arbiter_laws::fuzzing::events_property`).
#![no_main]
use arbiter_laws::json;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let start: json::Start =
        serde_json::from_str(r#"{"time_control": "900+10", "touch_move": true}"#).unwrap();
    arbiter_laws::fuzzing::events_property(start.to_start().unwrap(), text.lines());
});
