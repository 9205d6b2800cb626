//! `Reader::with_capacity`: any starting buffer reads the same games as
//! `Reader::new` (the buffer grows as needed; PGN standard, Appendix C of the
//! Laws: the record is the same whatever its transport).

use arbiter_pgn::generate::{GenOptions, Generator};
use arbiter_pgn::Reader;

#[test]
fn every_capacity_reads_the_same_games() {
    let mut generator = Generator::new(GenOptions {
        seed: 5,
        ..GenOptions::default()
    });
    let pgn = generator.pgn(40);
    let expected: Vec<_> = Reader::new(pgn.as_bytes())
        .games()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(expected.len(), 40);
    for capacity in [0, 1, 300, 513, 4096, pgn.len() + 1] {
        let games: Vec<_> = Reader::with_capacity(pgn.as_bytes(), capacity)
            .games()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(games, expected, "capacity {capacity}");
    }
}
