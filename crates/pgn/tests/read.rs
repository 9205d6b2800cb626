//! Reading real-world PGN oddities (hand-written file `tests/data/oddities.pgn`)
//! and malformed input; FIDE Art. 8 and Appendix C notations inside PGN.

use arbiter_chess::Position;
use arbiter_pgn::{check::Checker, Game, GameErrorKind, GameResult, Reader};

const ODDITIES: &str = include_str!("data/oddities.pgn");

fn read_all(text: &[u8]) -> Vec<Game> {
    Reader::new(text)
        .games()
        .collect::<std::io::Result<Vec<_>>>()
        .expect("reading from memory cannot fail")
}

fn uci_line(game: &Game) -> Vec<String> {
    let mut pos = game.start;
    game.mainline()
        .map(|m| {
            let s = pos.uci(m);
            pos.play_unchecked(m);
            s
        })
        .collect()
}

#[test]
fn oddities_read_as_written() {
    let games = read_all(ODDITIES.as_bytes());
    assert_eq!(games.len(), 10);
    let errors: Vec<_> = games.iter().map(|g| g.error.is_some()).collect();
    assert_eq!(
        errors,
        [false, false, false, false, false, false, false, false, true, false],
        "{:?}",
        games.iter().map(|g| &g.error).collect::<Vec<_>>()
    );

    // Tags in any order; comments before the first move; NAGs and suffixes.
    let g = &games[0];
    assert_eq!(g.tags.get("White"), Some("Алехин, Александр"));
    assert_eq!(g.line.comments, ["Вступление"]);
    assert_eq!(g.line.nodes.len(), 20);
    assert_eq!(g.line.nodes[3].comments, ["a rest-of-line comment"]);
    assert_eq!(g.line.nodes[6].nags, [1]); // 4. Bg5 $1
    assert_eq!(g.line.nodes[9].nags, [5]); // 5... c6!?
    assert_eq!(g.line.nodes[11].nags, [6]); // 6... Be7?!
    assert_eq!(g.line.nodes[15].nags, [1]); // 8... dxc4!
    assert_eq!(g.result, Some(GameResult::WhiteWins));

    // A missing result: the next `[` starts a new game.
    assert_eq!(games[1].line.nodes.len(), 10);
    assert_eq!(games[1].result, None);
    assert_eq!(games[1].result(), GameResult::Unknown);

    // Variations, nested; evaluation glyphs become NAGs.
    let g = &games[2];
    assert_eq!(g.line.nodes.len(), 20);
    let e5 = &g.line.nodes[1];
    assert_eq!(e5.variations.len(), 2);
    assert_eq!(e5.variations[0].nodes.len(), 3);
    assert_eq!(e5.variations[0].nodes[1].variations[0].nodes.len(), 2);
    assert_eq!(g.line.nodes[9].nags, [16]); // Be7 ±
    assert_eq!(g.line.nodes[16].nags, [14]); // h3 +=

    // Set-up position, en passant with "e.p.", promotions.
    let g = &games[3];
    assert_eq!(
        uci_line(g),
        ["e5d6", "e8d7", "b7b8n", "d7d6", "g7g8b", "g2h1r", "e1d2", "h1h2", "d2c3"]
    );

    // Chess960 castling both ways, disambiguation.
    let g = &games[4];
    assert!(g.start.castling_mode().is_chess960());
    assert_eq!(uci_line(g), ["b1h1", "b8a8", "f1e1", "h8e8"]);

    // Clock comments and escaped tag values.
    let g = &games[5];
    assert_eq!(g.tags.get("White"), Some("Ljubojevi\"c\" \\ quoted"));
    let clocks: Vec<_> = g.line.nodes.iter().map(|n| n.clock_ms).collect();
    assert_eq!(
        clocks,
        [Some(180_000), Some(179_500), Some(178_000), Some(177_000)]
    );
    assert_eq!(g.line.nodes[1].comments, ["[%eval 0.1]"]);
    assert!(g.final_position().is_checkmate());

    // Russian notation, marked with the Notation tag.
    assert_eq!(games[6].line.nodes.len(), 20);
    // Mixed notations without a tag.
    assert_eq!(uci_line(&games[7])[..4], ["e2e4", "e7e5", "g1f3", "b8c6"]);
    assert_eq!(games[7].line.nodes.len(), 8);

    // The illegal move: what, where, which ply; what came before is kept.
    let g = &games[8];
    let e = g.error.as_ref().unwrap();
    let line_no = ODDITIES.lines().position(|l| l.contains("2. Ke3")).unwrap() as u64 + 1;
    assert_eq!(e.location.line, line_no);
    assert_eq!(e.location.column, 13);
    assert_eq!(e.ply, Some(3));
    assert_eq!(e.text.as_deref(), Some("Ke3"));
    assert!(matches!(e.kind, GameErrorKind::Move(_)));
    assert_eq!(g.line.nodes.len(), 2);
    assert!(games[9].final_position().is_checkmate());
}

#[test]
fn crlf_and_bom_change_nothing() {
    let lf = read_all(ODDITIES.as_bytes());
    let crlf = ODDITIES.replace('\n', "\r\n");
    let mut bom = vec![0xef, 0xbb, 0xbf];
    bom.extend_from_slice(crlf.as_bytes());
    let with_bom = read_all(&bom);
    assert_eq!(lf.len(), with_bom.len());
    for (a, b) in lf.iter().zip(&with_bom) {
        assert_eq!(a.tags, b.tags);
        assert_eq!(a.line, b.line);
        assert_eq!(a.result, b.result);
        assert_eq!(
            a.error
                .as_ref()
                .map(|e| (e.location.line, e.location.column)),
            b.error
                .as_ref()
                .map(|e| (e.location.line, e.location.column))
        );
    }
}

#[test]
fn checker_agrees_with_builder() {
    let games = read_all(ODDITIES.as_bytes());
    let mut reader = Reader::new(ODDITIES.as_bytes());
    let mut checker = Checker::new();
    let mut n = 0;
    while let Some(c) = reader.read_game(&mut checker).unwrap() {
        let g = &games[n];
        assert_eq!(c.number, n as u64 + 1);
        assert_eq!(c.plies as usize, g.line.nodes.len(), "game {}", n + 1);
        assert_eq!(c.final_position, g.final_position());
        assert_eq!(c.error, g.error);
        assert_eq!(c.white.as_deref(), g.tags.get("White"));
        n += 1;
    }
    assert_eq!(n, games.len());
}

#[test]
fn latin1_names_and_long_comments() {
    let mut pgn = b"[White \"Ljubojevi".to_vec();
    pgn.push(0xe6); // Latin-1 'æ'
    pgn.extend_from_slice(b"\"]\n\n1. e4 {");
    pgn.extend(std::iter::repeat_n(b'x', 300_000));
    pgn.extend_from_slice(b"} e5 *\n");
    let games = read_all(&pgn);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tags.get("White"), Some("Ljubojeviæ"));
    assert_eq!(games[0].line.nodes[0].comments[0].len(), 300_000);
    assert_eq!(games[0].line.nodes.len(), 2);
}

#[test]
fn malformed_input_errors_and_reading_goes_on() {
    let cases: &[(&str, &str)] = &[
        ("1. e4 ) e5 *", "unmatched )"),
        ("1. e4 e5 (1... c5 *", "a result inside a variation"),
        ("1. e4 { never closed", "comment without its closing }"),
        // (A tag value without its closing quote and `]`, and a NAG above
        // 255, are mended with a warning: tests/record_repairs.rs.)
        ("1. e4 $ *", "a NAG is $ and a number 0-255"),
        ("(1. e4) *", "a variation before any move"),
        ("1. e4 e5 2. Zz9 *", "invalid move"),
        ("1. e4 e5 2. Nf6 *", "illegal move"),
        (
            "[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *",
            "game 1, line 1, column 1",
        ),
        (
            "[Event \"x\"]\n[Variant \"Atomic\"]\n\n1. e4 *",
            "line 2, column 1, at \"Atomic\": unsupported variant",
        ),
    ];
    for (text, expected) in cases {
        let input = format!("{text}\n\n[Event \"next\"]\n\n1. d4 *\n");
        let games = read_all(input.as_bytes());
        let err = games[0]
            .error
            .as_ref()
            .unwrap_or_else(|| panic!("{text}: no error"));
        assert!(err.to_string().contains(expected), "{text}: {err}");
        let last = games.last().unwrap();
        assert_eq!(last.tags.get("Event"), Some("next"), "{text}");
        assert_eq!(last.line.nodes.len(), 1, "{text}");
        assert!(last.error.is_none(), "{text}");
    }
}

#[test]
fn empty_and_odd_inputs() {
    assert!(read_all(b"").is_empty());
    assert!(read_all(b"   \n\r\n% escape\n").is_empty());
    let g = read_all(b"*");
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].result, Some(GameResult::Unknown));
    let g = read_all(b"[Event \"x\"][Site \"y\"]\n1.e4 1...e5 2.Nf3 1-0");
    assert_eq!(g[0].tags.get("Site"), Some("y"));
    assert_eq!(g[0].line.nodes.len(), 3);
    let g = read_all(b"1. e4 e5 2. Nf3 Nc6 3. Bb5 (=) a6 *");
    assert!(g[0].line.nodes[4].draw_offer);
    assert_eq!(g[0].line.nodes.len(), 6);
    assert_eq!(g[0].final_position(), {
        let mut p = Position::standard();
        for s in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"] {
            let m = p.parse_san(s).unwrap();
            p.play_unchecked(m);
        }
        p
    });
}

#[test]
fn readme_russian_example_reads_and_converts() {
    // The Russian record shown in docs/pgn.md (section "A Russian record").
    let readme = include_str!("../../../docs/pgn.md");
    let start = readme.find("A Russian record").expect("README section");
    let block = &readme[start..];
    let from = block.find("```text\n").unwrap() + "```text\n".len();
    let to = from + block[from..].find("```").unwrap();
    let pgn = &block[from..to];
    let games = read_all(pgn.as_bytes());
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert!(g.error.is_none(), "{:?}", g.error);
    assert_eq!(g.line.nodes.len(), 38);
    assert_eq!(g.tags.get("White"), Some("Алехин, Александр"));
    // To standard PGN and back to Russian: the same text.
    let san = g.to_pgn();
    assert!(san.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"));
    let again = read_all(san.as_bytes()).remove(0);
    let ru = again.to_pgn_with(&arbiter_pgn::WriteOptions::notation(
        arbiter_pgn::Notation::Russian,
    ));
    assert!(ru.contains("5. 0-0 Сe7 6. Лe1 b5"));
    assert!(ru.contains("19. Крh2 Фc7 *"));
}
