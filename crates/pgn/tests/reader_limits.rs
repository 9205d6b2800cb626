//! The reader's limits, the same whatever the input: a comment or tag longer
//! than `MAX_CHUNK` (16 MiB) is an error that says so, read from a stream
//! (`Reader::new`, standard input) as from memory (`Reader::from_memory`, a
//! mapped file); the game is read on past it and the next games are read.
//! (Found by a tester: the stream said "comment without its closing }" of a
//! closed comment, and cut a game in two at a long tag, where the mapped file
//! read both whole.)

use arbiter_pgn::reader::MAX_CHUNK;
use arbiter_pgn::{Game, GameErrorKind, Reader};

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
