//! Shared by the notation targets: positions with every kind of move nearby.

use arbiter_chess::Position;
use arbiter_pgn::{read_move_bytes, Dialect, Notation};

const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1",
    "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R b KQkq - 0 1",
    "4k3/8/8/8/8/8/8/RK5R w HA - 0 1",
    "7k/8/8/8/8/2N1N3/8/K7 w - - 0 1",
    "2k5/8/8/8/4Q2Q/8/8/K6Q w - - 0 1",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",
];

/// Reads `data[1..]` as a move in `notation` (or any, for `None`) in the
/// position `data[0]` picks; a move read must be legal, and must come back
/// the same through every notation.
pub fn check(data: &[u8], notation: Option<Notation>) {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let Ok(pos) = Position::from_fen_auto(FENS[pick as usize % FENS.len()]) else {
        return;
    };
    let dialect = notation.map_or(Dialect::Auto, Notation::dialect);
    if let Ok(m) = read_move_bytes(dialect, &pos, text) {
        assert!(pos.is_legal(m), "{m:?} read from {text:?} is not legal");
        for n in Notation::ALL {
            let written = n.write(&pos, m);
            assert_eq!(n.read(&pos, &written), Ok(m), "{n} {written}");
        }
    }
}
