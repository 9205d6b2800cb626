//! The PGN reader on any bytes: no panics, bounded memory; games read without
//! error write back (in every notation) to PGN that reads the same; the
//! checker agrees with the game builder; input read where it lies
//! (`Reader::from_memory`) gives the games the stream gives.
#![no_main]

use arbiter_pgn::check::Checker;
use arbiter_pgn::{GameErrorKind, Notation, Reader, WriteOptions};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let games: Vec<_> = match Reader::new(data).games().collect() {
        Ok(g) => g,
        Err(_) => return,
    };
    let in_memory: Vec<_> = Reader::from_memory(data.to_vec())
        .games()
        .collect::<Result<_, _>>()
        .expect("memory");
    assert_eq!(in_memory, games);
    let mut reader = Reader::new(data);
    let mut checker = Checker::new();
    let mut i = 0;
    while let Ok(Some(c)) = reader.read_game(&mut checker) {
        let g = &games[i];
        assert_eq!(c.plies as usize, g.line.nodes.len());
        // The checker reports null moves, which the builder keeps.
        let checker_error = c.error.as_ref().filter(|e| e.kind != GameErrorKind::NullMove);
        if g.error.is_some() {
            assert!(c.error.is_some());
        } else {
            assert!(checker_error.is_none(), "{checker_error:?}");
        }
        i += 1;
    }
    assert_eq!(i, games.len());
    for g in games.iter().filter(|g| g.error.is_none()) {
        for n in Notation::ALL {
            let text = g.to_pgn_with(&WriteOptions::notation(n));
            let back = Reader::new(text.as_bytes())
                .next_game()
                .expect("memory")
                .expect("a game");
            assert!(back.error.is_none(), "{n}: {:?}\n{text}", back.error);
            assert_eq!(back.line, g.line, "{n}\n{text}");
        }
    }
});
