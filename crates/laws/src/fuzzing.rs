//! The properties the fuzz targets (`crates/laws/fuzz`) check, in one place
//! so that the targets and the tests that run them without cargo-fuzz
//! (`tests/fuzz_scripts.rs`, `tests/fuzz_audit.rs`) check the same thing.
//! Not part of the API.

use crate::audit::{self, Audit, FindingKind, TranscriptReader};
use crate::json::{self, Event};
use crate::judge::{run, Options};
use crate::Edition;
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

/// `arbiter audit` on arbitrary bytes: never panics; the lean reading (a
/// [`TranscriptReader`] on the text, what `arbiter audit` runs) reads the
/// games the full reader does, and audits each as the full record audits
/// (one pass) and as the reference applies it move by move, under the 2014
/// and the 2023 Laws. Returns the games audited.
pub fn audit_property(data: &[u8]) -> usize {
    let mut full = arbiter_pgn::Reader::new(data);
    let mut text = arbiter_pgn::Reader::new(data);
    let mut lean = TranscriptReader::new();
    let mut games = 0;
    loop {
        let record = match full.next_game() {
            Ok(Some(record)) => record,
            Ok(None) => break,
            Err(e) => panic!("in memory: {e}"),
        };
        let read = text.read_game(&mut lean).expect("in memory");
        assert!(
            read.is_some(),
            "game {}: the lean reading ended early",
            games + 1
        );
        games += 1;
        for edition in [Edition::Fide2014, Edition::Fide2023] {
            let options = audit::Options { edition };
            let reference = audit::audit_move_by_move(&record, &options);
            assert_eq!(
                audit::audit(&record, &options),
                reference,
                "game {games}, {edition:?}"
            );
            let lean = without_null_places(audit::audit_transcript(lean.transcript(), &options));
            assert_eq!(lean, reference, "game {games} read lean, {edition:?}");
        }
    }
    assert!(text.read_game(&mut lean).expect("in memory").is_none());
    games
}

/// A lean audit with the places of its null moves taken out (a full record
/// keeps no places): the finding's place and its "(Z0, line 4, column 1)",
/// each checked to be there first.
pub fn without_null_places(mut lean: Audit) -> Audit {
    for f in &mut lean.findings {
        // The Laws' refusal of a null move the reader kept (one the reader
        // itself refuses, in check, has its place in both readings).
        if f.kind != FindingKind::IllegalMove || !f.text.contains("a null move (a pass") {
            continue;
        }
        let place = f.place.take().expect("a null move's place");
        let written = format!(", line {}, column {})", place.line, place.column);
        let end = f.text.find(&written).expect("the place in the text") + written.len();
        let start = f.text[..end].rfind(" (").expect("the written move");
        f.text.replace_range(start..end, "");
    }
    lean
}
