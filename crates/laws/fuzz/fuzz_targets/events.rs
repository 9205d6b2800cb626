//! Arbitrary event lines after a fixed start (clock, touch-move, rapid):
//! never panics, and the log of accepted events replays to the same state.
#![no_main]
use arbiter_laws::json::{self, Event};
use arbiter_laws::Game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let start: json::Start =
        serde_json::from_str(r#"{"time_control": "900+10", "touch_move": true}"#).unwrap();
    let start = start.to_start().unwrap();
    let mut game = Game::new(start.clone()).unwrap();
    for line in text.lines() {
        if let Ok(e) = serde_json::from_str::<Event>(line) {
            let _ = json::apply(&mut game, &e);
        }
    }
    let again = Game::replay(start, game.events()).unwrap();
    assert_eq!(again.position(), game.position());
    assert_eq!(again.outcome(), game.outcome());
});
