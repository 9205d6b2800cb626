//! The properties the fuzz targets (`crates/laws/fuzz`) check, in one place
//! so that the targets and the tests that run them without cargo-fuzz
//! (`tests/fuzz_scripts.rs`) check the same thing. Not part of the API.

use crate::json::{self, Event};
use crate::judge::{run, Options};
use crate::{Game, Start};

/// `arbiter judge` on arbitrary input: never panics; answers one line per
/// input line once a start line is accepted; reading ahead changes nothing
/// in the output, even when a line cannot be read.
pub fn judge_property(data: &[u8]) {
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
    assert_eq!(online.is_ok(), read_ahead.is_ok());
    assert_eq!(out, ahead);
}

/// Arbitrary event lines after `start`: never panics, and the log of the
/// accepted events replays to the same state. Returns the events accepted.
pub fn events_property<'a>(start: Start, lines: impl IntoIterator<Item = &'a str>) -> usize {
    let Ok(mut game) = Game::new(start.clone()) else {
        return 0;
    };
    let mut accepted = 0;
    for line in lines {
        if let Ok(e) = serde_json::from_str::<Event>(line) {
            accepted += usize::from(json::apply(&mut game, &e).is_ok());
        }
    }
    let again = Game::replay(start, game.events()).unwrap();
    assert_eq!(again.position(), game.position());
    assert_eq!(again.outcome(), game.outcome());
    accepted
}
