//! `Reader::from_memory`: input already in memory, read where it lies, reads
//! the same games, errors and byte counts as `Reader::new` streaming the same
//! bytes through its buffer — on real files (the Lichess and TWIC samples
//! shipped in the pgn-reader crate, when the registry has them), on the odd
//! records of `tests/data`, on generated games with comments and
//! variations, and on all of these cut short and with bytes spoilt; and
//! read from any game's start (`from_memory_at`) as from the start.

use arbiter_pgn::generate::{GenOptions, Generator};
use arbiter_pgn::{Game, Reader};
use std::io::Read;

/// Every game `reader` reads, and the bytes it consumed.
fn read_all<R: Read>(mut reader: Reader<R>) -> (Vec<Game>, u64) {
    let mut games = Vec::new();
    while let Some(game) = reader.next_game().expect("memory") {
        games.push(game);
    }
    (games, reader.bytes_read())
}

fn same(text: &[u8], what: &str) -> usize {
    let expected = read_all(Reader::with_capacity(text, 0));
    assert_eq!(
        read_all(Reader::from_memory(text.to_vec())),
        expected,
        "{what}"
    );
    expected.0.len()
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs = vec![(
        "tests/data/oddities.pgn".to_owned(),
        include_bytes!("data/oddities.pgn").to_vec(),
    )];
    let mut generator = Generator::new(GenOptions {
        seed: 9,
        ..GenOptions::default()
    });
    let pgn = generator.pgn(30);
    inputs.push(("generated".to_owned(), pgn.into_bytes()));
    for sample in ["lichess_db_100k.pgn", "twic1599_100k.pgn"] {
        match arbiter_testkit::registry_file("pgn-reader-0.29.0", &format!("benches/{sample}")) {
            Some(text) => inputs.push((sample.to_owned(), text)),
            None => eprintln!("skipped {sample}: pgn-reader 0.29.0 not in the cargo registry"),
        }
    }
    inputs
}

#[test]
fn in_memory_reads_what_the_stream_reads() {
    let mut games = 0;
    for (name, text) in inputs() {
        games += same(&text, &name);
    }
    assert!(games >= 30, "{games} games");
}

#[test]
fn cut_short_or_spoilt_alike() {
    for (name, text) in inputs() {
        // Cut at 40 places, and spoilt at 40 (a byte replaced by one that
        // opens or closes something, or by a wide character's first byte).
        let step = (text.len() / 40).max(1);
        for (k, cut) in (0..text.len()).step_by(step).enumerate() {
            same(&text[..cut], &format!("{name} cut at {cut}"));
            let mut spoilt = text.clone();
            spoilt[cut] = [b'{', b'}', b'(', b')', b'[', b'"', 0xd0, b'\n'][k % 8];
            same(&spoilt, &format!("{name} spoilt at {cut}"));
        }
    }
}

/// Each game's start (as `next_game_start` tells it) and the games read
/// from the start of the input.
fn starts_and_games(text: &[u8]) -> (Vec<arbiter_pgn::Location>, Vec<Game>) {
    let mut reader = Reader::from_memory(text.to_vec());
    let (mut starts, mut games) = (Vec::new(), Vec::new());
    while let Some(at) = reader.next_game_start().expect("memory") {
        assert_eq!(reader.bytes_read(), at.offset);
        starts.push(at);
        games.push(
            reader
                .next_game()
                .expect("memory")
                .expect("a game where one starts"),
        );
    }
    assert_eq!(reader.next_game().expect("memory"), None);
    (starts, games)
}

#[test]
fn read_from_a_game_start_reads_the_rest_alike() {
    for (name, text) in inputs() {
        let (starts, games) = starts_and_games(&text);
        // A reading that asks where each game starts reads the same games.
        assert_eq!(
            games,
            read_all(Reader::from_memory(text.clone())).0,
            "{name}"
        );
        let mut tried = 0;
        for (i, at) in starts.iter().enumerate().filter(|(_, at)| at.column == 1) {
            if tried >= 60 && i % 17 != 0 {
                continue;
            }
            tried += 1;
            let from = Reader::from_memory_at(text.clone(), at.offset as usize, at.line);
            let (mut rest, bytes) = read_all(from);
            // Games are numbered from where the reading starts.
            for g in &mut rest {
                if let Some(e) = g.error.as_mut() {
                    e.game += i as u64;
                }
                for w in &mut g.warnings {
                    w.game += i as u64;
                }
            }
            assert_eq!(rest, games[i..], "{name}: from game {}", i + 1);
            assert_eq!(bytes, text.len() as u64, "{name}");
        }
        assert!(tried > 0, "{name}");
    }
}
