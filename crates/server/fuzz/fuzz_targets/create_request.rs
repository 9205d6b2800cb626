//! `POST /api/games` bodies and time controls: validation answers with a
//! named field or settings that the Laws can start, never a panic.
#![no_main]
use arbiter_server::game::settings::{playable_time_control, CreateRequest};
use arbiter_server::game::table::Table;
use arbiter_server::protocol::Side;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(tc) = playable_time_control(text) {
        let periods = tc.periods();
        assert!(periods.iter().all(|p| p.time_ms >= 1000 && p.time_ms % 1000 == 0));
        // What the wire echoes reads back as the same control.
        assert_eq!(playable_time_control(&tc.to_string()), Ok(tc));
    }
    let Ok(req) = serde_json::from_str::<CreateRequest>(text) else {
        return;
    };
    match req.validate(|| Side::White, || 518) {
        Ok((settings, name)) => {
            assert!(name.is_none_or(|n| !n.is_empty()
                && n.chars().count() <= 40
                && !n.chars().any(char::is_control)));
            if settings.fen.is_none() {
                // Validated settings always start a game.
                Table::new(&settings).expect("validated settings start a game");
            } else {
                let _ = Table::new(&settings);
            }
        }
        Err(e) => assert!(e.field.is_some()),
    }
});
