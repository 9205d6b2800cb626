//! The reader's limits, the same whatever the input: a comment or tag longer
//! than `MAX_CHUNK` (16 MiB) is an error that says so, read from a stream
//! (`Reader::new`, standard input) as from memory (`Reader::from_memory`, a
//! mapped file); the game is read on past it and the next games are read.
//! (Found by a tester: the stream said "comment without its closing }" of a
//! closed comment, and cut a game in two at a long tag, where the mapped file
//! read both whole.) And a game holds at most `MAX_NODES` moves, for every
//! visitor.

use arbiter_pgn::check::Checker;
use arbiter_pgn::reader::MAX_CHUNK;
use arbiter_pgn::{Game, GameErrorKind, Reader, MAX_NODES};

fn both(pgn: &[u8]) -> Vec<Game> {
    let streamed: Vec<Game> = Reader::new(pgn)
        .games()
        .collect::<std::io::Result<_>>()
        .expect("in memory");
    let mut memory = Reader::from_memory(pgn.to_vec());
    let mut mapped = Vec::new();
    while let Some(g) = memory.next_game().expect("in memory") {
        mapped.push(g);
    }
    assert_eq!(streamed, mapped, "a stream and memory read alike");
    streamed
}

/// `before`, then `fill` bytes of `x`, then `after`, in the middle game of
/// three.
fn three(before: &str, fill: usize, after: &str) -> Vec<u8> {
    let mut pgn = b"[Event \"a\"]\n\n1. e4 e5 1-0\n\n".to_vec();
    pgn.extend_from_slice(before.as_bytes());
    pgn.resize(pgn.len() + fill, b'x');
    pgn.extend_from_slice(after.as_bytes());
    pgn.extend_from_slice(b"\n\n[Event \"c\"]\n\n1. d4 d5 0-1\n");
    pgn
}

fn error_message(g: &Game) -> Option<&'static str> {
    match g.error.as_ref().map(|e| &e.kind) {
        Some(GameErrorKind::Syntax(m)) => Some(m),
        _ => None,
    }
}

#[test]
fn a_comment_or_tag_longer_than_the_limit_is_an_error_that_says_so() {
    for (before, after, message, at) in [
        (
            "[Event \"b\"]\n\n1. e4 {",
            "} e5 *",
            "comment longer than 16 MiB",
            (7, 7),
        ),
        (
            "[Event \"b\"]\n\n1. e4 ;",
            "\n e5 *",
            "comment longer than 16 MiB",
            (7, 7),
        ),
        (
            "[Event \"b\"]\n[Annotator \"",
            "\"]\n\n1. e4 e5 *",
            "tag longer than 16 MiB",
            (6, 1),
        ),
    ] {
        // The longest accepted: `{` to `}`, `;` to the line break, `[` to
        // `]` in MAX_CHUNK bytes.
        let opening = before.len() - before.rfind(['{', ';', '[']).unwrap();
        let closing = if message.starts_with("tag") { 2 } else { 1 };
        let longest = MAX_CHUNK - opening - closing;
        let g = both(&three(before, longest, after));
        assert_eq!(g.len(), 3, "{before:?}");
        assert!(
            g.iter().all(|g| g.error.is_none()),
            "{before:?}: {:?}",
            g[1].error
        );
        assert_eq!(g[1].mainline().count(), 2, "{before:?}");
        for fill in [longest + 1, 20 << 20] {
            let g = both(&three(before, fill, after));
            assert_eq!(g.len(), 3, "{before:?}: one game, not two");
            assert_eq!(error_message(&g[1]), Some(message), "{before:?}");
            let e = g[1].error.as_ref().unwrap().location;
            assert_eq!((e.line, e.column), at, "{before:?}");
            assert_eq!(g[2].tags.get("Event"), Some("c"), "{before:?}");
            assert_eq!((g[2].error.as_ref(), g[2].mainline().count()), (None, 2));
        }
    }
}

/// `plies` knight moves to and fro (`1. Nf3 Nf6 2. Ng1 Ng8 …`), on one line,
/// then `*`, and the location of the last move.
fn knights(plies: usize) -> (String, u64) {
    let mut pgn = String::from("[Event \"long\"]\n\n");
    let line_start = pgn.len();
    let mut column = 0;
    for ply in 0..plies {
        if ply % 2 == 0 {
            pgn.push_str(&format!("{}. ", ply / 2 + 1));
        }
        column = pgn.len() - line_start + 1;
        pgn.push_str(["Nf3 ", "Nf6 ", "Ng1 ", "Ng8 "][ply % 4]);
    }
    pgn.push_str("*\n\n[Event \"next\"]\n\n1. e4 *\n");
    (pgn, column as u64)
}

/// A game holds at most `MAX_NODES` (200 000) moves: the next one is the
/// error "too many moves in one game" at its place, for `pgn check` (the
/// checker, on its fast path) as for `convert` and `audit` (found by a
/// tester: `pgn check` passed a game of 16 M plies the others refuse).
#[test]
fn a_game_of_more_than_200_000_moves_is_an_error_for_every_reader() {
    for (plies, error) in [(MAX_NODES, false), (MAX_NODES + 1, true)] {
        let (pgn, column) = knights(plies);
        let games: Vec<Game> = Reader::new(pgn.as_bytes())
            .games()
            .collect::<std::io::Result<_>>()
            .unwrap();
        let mut reader = Reader::from_memory(pgn.clone().into_bytes());
        let mut checker = Checker::new();
        let checked = reader.read_game(&mut checker).unwrap().unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].error, None);
        assert_eq!(checked.error, games[0].error, "{plies}");
        assert_eq!(checked.plies as usize, games[0].mainline().count());
        assert_eq!(checked.plies as usize, MAX_NODES, "{plies}");
        if !error {
            assert_eq!(checked.error, None);
            continue;
        }
        let e = checked.error.expect("too many moves");
        assert_eq!(e.kind, GameErrorKind::Other("too many moves in one game"));
        assert_eq!(e.ply, Some(MAX_NODES as u32 + 1));
        assert_eq!((e.location.line, e.location.column), (3, column));
        assert_eq!(reader.read_game(&mut checker).unwrap().unwrap().error, None);
    }
}

/// The moves of the variations count too, for the builder and the checker
/// alike: a first move, a variation of 150 000, then the main line's 50 001st
/// move is the 200 001st of the game.
#[test]
fn the_moves_of_variations_count_towards_the_limit() {
    let mut pgn = String::from("1. Nf3 (1. Nc3");
    for ply in 1..150_000 {
        pgn.push_str([" Nf6", " Nb1", " Ng8", " Nc3"][(ply - 1) % 4]);
    }
    pgn.push_str(") 1... Nf6");
    for ply in 2..60_000 {
        pgn.push_str([" Ng1", " Ng8", " Nf3", " Nf6"][(ply - 2) % 4]);
    }
    pgn.push_str(" *\n");
    let game = Reader::new(pgn.as_bytes()).next_game().unwrap().unwrap();
    let checked = Reader::new(pgn.as_bytes())
        .read_game(&mut Checker::new())
        .unwrap()
        .unwrap();
    let e = game.error.clone().expect("too many moves");
    assert_eq!(e.kind, GameErrorKind::Other("too many moves in one game"));
    assert_eq!((e.ply, e.in_variation), (Some(50_001), false));
    assert_eq!(checked.error, game.error);
    assert_eq!((checked.plies, game.mainline().count()), (50_000, 50_000));
    assert_eq!(game.line.nodes[0].variations[0].nodes.len(), 150_000);
}
