//! The engine's UCI command parser: any lines (searches bounded) never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut e = arbiter_engine::uci::UciEngine::new(Box::new(std::io::sink()));
    for line in text.lines().take(20) {
        // Keep searches short: only depth-limited `go`.
        if line.trim_start().starts_with("go") {
            e.handle("go depth 1");
            e.handle("stop");
        } else if line.trim_start().starts_with("bench") {
            continue;
        } else if !e.handle(line) {
            break;
        }
    }
    e.handle("quit");
});
