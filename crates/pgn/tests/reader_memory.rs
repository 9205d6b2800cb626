//! `Reader::from_memory`: input already in memory, read where it lies, reads
//! the same games, errors and byte counts as `Reader::new` streaming the same
//! bytes through its buffer — on real files (the Lichess and TWIC samples
//! shipped in the pgn-reader crate, when the registry has them), on the odd
//! records of `tests/data`, on generated games with comments and
//! variations, and on all of these cut short and with bytes spoilt.

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
    let mut pgn = String::new();
    for i in 1..=30 {
        pgn += &generator.game(i).to_pgn();
    }
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
