//! PGN as real files are written (issue 14): what scalachess and python-chess
//! read and Arbiter must too. Every case is hand-written here, after the
//! shapes found in those projects' fixtures and in files from the web (no
//! file of theirs is copied). FIDE Art. 8 (the record), Appendix C (notation).

use arbiter_chess::Square;
use arbiter_pgn::check::{CheckedGame, Checker};
use arbiter_pgn::{Game, GameErrorKind, GameResult, ReadMoveError, Reader, WarningKind};

fn games(pgn: &str) -> Vec<Game> {
    Reader::new(pgn.as_bytes())
        .games()
        .collect::<std::io::Result<Vec<_>>>()
        .expect("reading from memory cannot fail")
}

fn checked(pgn: &str) -> Vec<CheckedGame> {
    let mut reader = Reader::new(pgn.as_bytes());
    let mut checker = Checker::new();
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut checker).expect("in memory") {
        out.push(g);
    }
    out
}

/// One game, read both ways, with no error; its main-line length.
fn clean_plies(pgn: &str) -> usize {
    let g = games(pgn);
    assert_eq!(g.len(), 1, "{pgn:?}: {} games", g.len());
    assert_eq!(g[0].error, None, "{pgn:?}");
    let c = checked(pgn);
    assert_eq!(c.len(), 1, "{pgn:?}");
    assert_eq!(c[0].error, None, "{pgn:?}");
    assert_eq!(c[0].plies as usize, g[0].mainline().count(), "{pgn:?}");
    g[0].mainline().count()
}

#[test]
fn results_with_an_en_dash_or_a_one_half_sign() {
    for (text, result) in [
        ("1–0", GameResult::WhiteWins),
        ("0–1", GameResult::BlackWins),
        ("1/2–1/2", GameResult::Draw),
        ("½–½", GameResult::Draw),
        ("½-½", GameResult::Draw),
        ("1—0", GameResult::WhiteWins),
    ] {
        let pgn = format!("[Result \"{text}\"]\n\n1. e4 e5 2. Nf3 {text}\n\n1. d4 *");
        let g = games(&pgn);
        assert_eq!(g.len(), 2, "{text}: the result ends the game");
        assert_eq!(g[0].error, None, "{text}");
        assert_eq!(g[0].result, Some(result), "{text}");
        assert_eq!(g[0].result(), result, "{text}");
        assert_eq!(checked(&pgn)[0].result, Some(result), "{text}");
    }
}

#[test]
fn results_by_forfeit() {
    // ChessBase writes a forfeit `+--` (White wins, Black absent) and `--+`;
    // scalachess's fixture `blackAbsentResult` has a game of no moves so.
    let pgn =
        "[White \"Schenk\"]\n[Result \"+--\"]\n[PlyCount \"0\"]\n\n +--\n\n[Result \"--+\"]\n\n--+";
    let g = games(pgn);
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].error, None);
    assert_eq!(g[0].mainline().count(), 0);
    assert_eq!(g[0].result, Some(GameResult::WhiteWins));
    assert_eq!(g[0].result(), GameResult::WhiteWins);
    assert_eq!(g[1].result(), GameResult::BlackWins);
    let c = checked(pgn);
    assert_eq!((c[0].plies, c[0].result), (0, Some(GameResult::WhiteWins)));
    // `+-` stays the evaluation glyph $18.
    let g = &games("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# +- 1-0")[0];
    assert_eq!(g.line.nodes[6].nags, [18]);
    assert_eq!(g.result, Some(GameResult::WhiteWins));
}

/// Annotators (ChessBase's engine reports) also write `+--` after a move as
/// a glyph of a decisive advantage: only where nothing but comments follows
/// it before the next tags or the end is it a result. Read as a result in
/// the middle of a movetext, it ended the game there and made games of the
/// rest (a real file read as 6 games instead of 4).
#[test]
fn forfeit_marks_in_the_middle_of_a_game_are_glyphs() {
    let pgn =
        "[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 +-- {engine: +6.1} 3. Bc4 --+ Nf6 \
               ( 3... g6 +-- ) 4. Qxf7# 1-0\n\n[White \"B\"]\n\n1. d4 +--\n";
    let g = games(pgn);
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].error, None);
    assert_eq!(g[0].mainline().count(), 7);
    assert_eq!(g[0].result, Some(GameResult::WhiteWins));
    assert_eq!(g[0].line.nodes[3].nags, [18]);
    assert_eq!(g[0].line.nodes[4].nags, [19]);
    // At the end of a game, before the next tags or the end of the input,
    // it is still a result by forfeit.
    assert_eq!(g[1].result, Some(GameResult::WhiteWins));
    assert_eq!(g[1].mainline().count(), 1);
    let c = checked(pgn);
    assert_eq!(c.len(), 2);
    assert_eq!((c[0].plies, c[0].error.is_none()), (7, true));
    // A result followed by a comment, then the next game.
    let g = games("1. e4 +-- {Black did not come}\n\n[White \"C\"]\n\n1. d4 *");
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].result, Some(GameResult::WhiteWins));
}

/// A pawn written without a file steps along its own: a capture names the
/// file it leaves (Appendix C.9, `exd5`). `3. d5` with the d-pawn blocked was
/// read as exd5, and `b8=Q` as axb8=Q: a miswritten or illegal move turned
/// into another legal one (python-chess refuses both).
#[test]
fn a_pawn_written_without_a_file_does_not_capture() {
    for (pgn, ply) in [
        ("1. e4 d5 2. d4 e6 3. d5 *", 5),
        ("1. e4 d5 2. d4 e6 3. xd5 *", 5),
        ("[FEN \"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. b8=Q *", 1),
    ] {
        let g = &games(pgn)[0];
        let e = g.error.as_ref().unwrap_or_else(|| panic!("{pgn}: read"));
        assert_eq!(e.ply, Some(ply), "{pgn}");
        let c = &checked(pgn)[0];
        assert_eq!(c.plies, ply - 1, "{pgn}");
        assert!(c.error.is_some(), "{pgn}");
    }
    // The same moves written as captures are read.
    assert_eq!(clean_plies("1. e4 d5 2. d4 e6 3. exd5 *"), 5);
    assert_eq!(clean_plies("1. e4 d5 2. d4 e6 3. ed5 *"), 5);
    assert_eq!(
        clean_plies("[FEN \"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. axb8=Q *"),
        1
    );
}

#[test]
fn standalone_ellipsis() {
    for pgn in [
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 {comment} 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 *",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O {comment} 5. ... Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 *",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O {comment} 5 ... Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 *",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O {comment} 5. .. Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 *",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O {comment} 5. … Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 *",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O {comment} ...Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 *",
    ] {
        assert_eq!(clean_plies(pgn), 18, "{pgn}");
    }
    assert_eq!(clean_plies("1. e4 … e5 2. Nf3 *"), 3);
    assert_eq!(clean_plies("1. e4 ... e5 *"), 2);
}

#[test]
fn castling_with_unicode_dashes() {
    for dash in [
        '\u{2011}', '\u{2010}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2212}',
    ] {
        let pgn = format!(
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O{dash}O Nf6 5. d3 d6 6. Nc3 Bg4 7. Be3 Qd7 8. Qd2 O{dash}O{dash}O *"
        );
        assert_eq!(clean_plies(&pgn), 16, "U+{:04X}", dash as u32);
        let g = &games(&pgn)[0];
        let last = g.final_position();
        assert_eq!(last.role_at(Square::C8), Some(arbiter_chess::Role::King));
    }
    assert_eq!(clean_plies("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0‑0 *"), 7);
}

#[test]
fn unclosed_tag_quote() {
    let pgn = "[Event \"Moscow open]\n[White \"Petrov\"]\n[Black \"Ivanov]\n\n1. e4 e5 *";
    let g = &games(pgn)[0];
    assert_eq!(g.error, None);
    assert_eq!(g.tags.get("Event"), Some("Moscow open"));
    assert_eq!(g.tags.get("White"), Some("Petrov"));
    assert_eq!(g.tags.get("Black"), Some("Ivanov"));
    assert_eq!(g.mainline().count(), 2);
    assert_eq!(checked(pgn)[0].black.as_deref(), Some("Ivanov"));
}

#[test]
fn null_moves_are_read_and_reported_only_when_checking() {
    for null in ["--", "Z0"] {
        let pgn = format!("1. e4 {null} 2. d4 e5 *");
        // Read, as python-chess does: the turn passes.
        let g = &games(&pgn)[0];
        assert_eq!(g.error, None, "{null}");
        assert_eq!(g.line.nodes.len(), 4);
        assert!(g.line.nodes[1].is_null());
        assert_eq!(
            g.final_position().fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3"
        );
        // Written back as `--`, and read again the same.
        let again = &games(&g.to_pgn())[0];
        assert_eq!(again.line, g.line);
        // Checking: every move replayed, the null move reported at its ply.
        let c = &checked(&pgn)[0];
        assert_eq!(c.plies, 4);
        let e = c
            .error
            .as_ref()
            .expect("a null move is no move under the Laws");
        assert_eq!(e.kind, GameErrorKind::NullMove);
        assert_eq!((e.ply, e.text.as_deref()), (Some(2), Some(null)));
        assert!(e.kind.to_string().contains("Art. 3"));
    }
    // A null move while in check cannot be played on.
    let g = &games("1. e4 f5 2. Qh5+ -- *")[0];
    assert!(matches!(
        g.error.as_ref().map(|e| &e.kind),
        Some(GameErrorKind::Move(ReadMoveError::Illegal { .. }))
    ));
}

#[test]
fn an_illegal_move_in_a_variation_does_not_end_the_main_line() {
    let pgn = "1. e4 e5 2. Nf3 (2. e4 d5) 2... Nc6 3. Bb5 *";
    let g = &games(pgn)[0];
    assert_eq!(g.mainline().count(), 5);
    let e = g.error.as_ref().expect("2. e4 is illegal");
    assert!(e.in_variation);
    assert_eq!((e.ply, e.text.as_deref()), (Some(3), Some("e4")));
    assert!(
        e.message().starts_with("in a variation: "),
        "{}",
        e.message()
    );
    assert!(e.to_string().contains("in a variation"), "{e}");
    // The bad variation was cut at the bad move (nothing kept of it here).
    assert!(g.line.nodes[2].variations.is_empty());
    let c = &checked(pgn)[0];
    assert_eq!(c.plies, 5);
    assert_eq!(
        c.final_position.fen(),
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
    );
    assert!(c.error.as_ref().is_some_and(|e| e.in_variation));

    // The moves before the bad one are kept; nested and later variations too.
    let pgn = "1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... Ke3 3. d4 (3. c3)) (1... e6) 2. Nf3 *";
    let g = &games(pgn)[0];
    assert_eq!(g.mainline().count(), 3);
    let vars = &g.line.nodes[1].variations;
    assert_eq!(vars.len(), 2);
    assert_eq!(vars[0].nodes.len(), 2); // 1... c5 2. Nf3, then 2... Ke3 is illegal
    assert_eq!(vars[0].nodes[1].variations.len(), 1); // (2. c3) came before the error
    assert_eq!(vars[1].nodes.len(), 1);
    assert_eq!(g.error.as_ref().map(|e| e.ply), Some(Some(4)));

    // A main-line error after a variation's wins: it is what ended the game.
    let pgn = "1. e4 e5 (1... Ke3) 2. Ke3 *";
    let g = &games(pgn)[0];
    assert_eq!(g.mainline().count(), 2);
    let e = g.error.as_ref().unwrap();
    assert!(!e.in_variation);
    assert_eq!(e.text.as_deref(), Some("Ke3"));
    assert_eq!(e.ply, Some(3));
}

#[test]
fn nothing_after_the_result_makes_a_phantom_game() {
    for tail in [
        "; a comment after the result",
        "{White won on time}",
        "{one} {two}\n; three",
        "\n[/pgn]",
        "\n[/PGN]\n",
    ] {
        let pgn = format!(
            "[pgn]\n[Event \"x\"]\n\n1. e4 e5 1-0 {tail}\n\n[Event \"y\"]\n\n1. d4 0-1\n{tail}\n"
        );
        let g = games(&pgn);
        assert_eq!(g.len(), 2, "{tail:?}");
        assert_eq!(g[0].tags.get("Event"), Some("x"), "{tail:?}");
        assert_eq!(g[0].tags.len(), 1, "[pgn] is not a tag: {tail:?}");
        assert_eq!(g[1].tags.get("Event"), Some("y"), "{tail:?}");
        assert!(g.iter().all(|g| g.error.is_none()), "{tail:?}");
        assert_eq!(checked(&pgn).len(), 2, "{tail:?}");
    }
}

/// A termination marker written twice (`4. Qxf7# 1-0 1-0`, found by a
/// tester): the second, with no tags and no moves of its own, is no game
/// (python-chess reads two games of this file too); it is passed over with a
/// warning on the game that ended.
#[test]
fn a_doubled_result_makes_no_game() {
    for (second, result) in [
        ("1-0", GameResult::WhiteWins),
        ("0-1", GameResult::BlackWins),
        ("*", GameResult::Unknown),
        ("1/2-1/2 {a comment} 1-0", GameResult::WhiteWins),
        ("½–½", GameResult::Draw),
    ] {
        let pgn = format!(
            "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0 {second}\n\n\
             [Event \"b\"]\n[Result \"*\"]\n\n1. d4 *\n"
        );
        let g = games(&pgn);
        assert_eq!(g.len(), 2, "{second:?}");
        assert_eq!(g[0].result, Some(GameResult::WhiteWins), "{second:?}");
        assert_eq!(g[0].mainline().count(), 7, "{second:?}");
        assert_eq!(g[1].tags.get("Event"), Some("b"), "{second:?}");
        assert!(g.iter().all(|g| g.error.is_none()), "{second:?}");
        let w = &g[0].warnings;
        assert!(!w.is_empty(), "{second:?}: a warning");
        assert_eq!(
            w.last().unwrap().kind,
            WarningKind::StrayResult(result),
            "{second:?}"
        );
        assert_eq!(w[0].location.line, 4, "{second:?}");
        assert!(g[1].warnings.is_empty(), "{second:?}");
        let c = checked(&pgn);
        assert_eq!(c.len(), 2, "{second:?}");
        assert_eq!(c[0].warnings, g[0].warnings, "{second:?}");
    }
    let w = WarningKind::StrayResult(GameResult::WhiteWins);
    assert_eq!(
        w.to_string(),
        "a second termination marker 1-0 after the game's end: ignored"
    );
}

/// A tag name is a PGN symbol (PGN §7, §8.1: letters, digits and the
/// continuation characters `_ + # = : -`); a line such as `[[[[[[` is no
/// tag but an error at its first wrong character (found by a tester: it was
/// kept as a tag named `[[[[[`, written back `[[[[[[ ""]`).
#[test]
fn a_tag_name_is_a_pgn_symbol() {
    let pgn = "[Event \"x\"]\n[[[[[[\n\n1. e4 *\n\n[Event \"y\"]\n\n1. d4 *\n";
    let g = games(pgn);
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].tags.len(), 1, "{:?}", g[0].tags);
    assert_eq!(g[0].tags.get("Event"), Some("x"));
    let e = g[0].error.as_ref().expect("a bad tag name");
    assert!(
        matches!(e.kind, GameErrorKind::Syntax(m) if m.contains("tag name")),
        "{e:?}"
    );
    assert_eq!((e.location.line, e.location.column), (2, 2));
    assert_eq!(e.text.as_deref(), Some("[[[[[["));
    assert_eq!(g[1].error, None, "the next game is read");
    let c = checked(pgn);
    assert_eq!(c[0].error, g[0].error);
    for (line, column) in [
        ("[", 1),
        ("[[", 2),
        ("[Ev!ent \"x\"]", 4),
        ("[  Wh\u{e9}ite? \"x\"]", 10),
        ("[Ev{ent \"x\"]", 4),
        ("[(Event) \"x\"]", 2),
    ] {
        let pgn = format!("{line}\n\n1. e4 *\n");
        let g = games(&pgn);
        assert_eq!(g.len(), 1, "{line:?}");
        assert!(g[0].tags.is_empty(), "{line:?}: {:?}", g[0].tags);
        let e = g[0]
            .error
            .as_ref()
            .unwrap_or_else(|| panic!("{line:?}: an error"));
        assert_eq!(
            (e.location.line, e.location.column),
            (1, column),
            "{line:?}: {e}"
        );
        assert_eq!(checked(&pgn)[0].error.as_ref(), Some(e), "{line:?}");
    }
    // What a symbol holds.
    let pgn = "[White_Elo+#=:-9 \"1\"]\n[\u{421}\u{43e}\u{431}\u{44b}\u{442}\u{438}\u{435} \"x\"]\n\n1. e4 *\n";
    let g = games(pgn);
    assert_eq!(g[0].error, None);
    assert_eq!(g[0].tags.get("White_Elo+#=:-9"), Some("1"));
    assert_eq!(
        g[0].tags
            .get("\u{421}\u{43e}\u{431}\u{44b}\u{442}\u{438}\u{435}"),
        Some("x")
    );
}

/// NUL bytes, as some exporters leave them after a game (two games of the
/// pgnmentor files end `1/2-1/2\0\0`): read as whitespace, as python-chess
/// does, so the result before them is read and no move is made of them.
#[test]
fn nul_bytes_are_whitespace() {
    for pgn in [
        "[Event \"x\"]\n\n1. e4 e5 2. Nf3 1/2-1/2\0\0\n\n[Event \"y\"]\n\n1. d4 0-1\0\0\n",
        "[Event \"x\"]\n\n1. e4\0e5 2. Nf3\x00\x001/2-1/2\n\n\0[Event \"y\"]\n\n1.\0d4 0-1\n\0\0",
    ] {
        let g = games(pgn);
        assert_eq!(g.len(), 2, "{pgn:?}");
        assert!(
            g.iter().all(|g| g.error.is_none()),
            "{pgn:?}: {:?}",
            g[0].error
        );
        assert_eq!(g[0].result, Some(GameResult::Draw), "{pgn:?}");
        assert_eq!(g[1].result, Some(GameResult::BlackWins), "{pgn:?}");
        assert_eq!(g[0].mainline().count(), 3, "{pgn:?}");
        assert_eq!(g[1].tags.get("Event"), Some("y"), "{pgn:?}");
        let c = checked(pgn);
        assert_eq!(c.len(), 2, "{pgn:?}");
        assert!(c.iter().all(|c| c.error.is_none()), "{pgn:?}");
        assert_eq!((c[0].plies, c[1].plies), (3, 1), "{pgn:?}");
    }
}

#[test]
fn tag_sections_without_movetext_are_games_of_their_own() {
    let pgn = "[Event \"a\"]\n[White \"A\"]\n[Result \"1-0\"]\n\n[Event \"b\"]\n[White \"B\"]\n[Result \"0-1\"]\n\n[Event \"c\"]\n[Result \"1/2-1/2\"]\n";
    let g = games(pgn);
    assert_eq!(g.len(), 3);
    assert_eq!(
        g.iter().map(|g| g.result()).collect::<Vec<_>>(),
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw
        ]
    );
    let c = checked(pgn);
    assert_eq!(c.len(), 3);
    assert_eq!(c[1].white.as_deref(), Some("B"));
    // Tags on consecutive lines stay one game; so do tags with a blank line
    // inside that repeat no roster tag (ChessBase writes one after `Event`;
    // python-chess's data/pgn/chessbase-empty-line.pgn).
    assert_eq!(games("[Event \"a\"]\n[White \"A\"]\n1. e4 *").len(), 1);
    let g = games("[Event \"a\"]\n\n[Date \"2017.12.04\"]\n[White \"A\"]\n\n1. e4 *");
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].tags.len(), 3);
}

#[test]
fn result_from_the_movetext_when_the_tag_is_missing() {
    let c = &checked("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0")[0];
    assert_eq!(c.result_tag, None);
    assert_eq!(c.result, Some(GameResult::WhiteWins));
    // The tag, when it reads, wins (as in `Game::result`, the other way round:
    // there the movetext marker wins; both agree on real files).
    let c = &checked("[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1")[0];
    assert_eq!(c.result, Some(GameResult::BlackWins));
}

#[test]
fn latin_lookalikes_in_a_russian_game() {
    // Written in Russian (К, С, Кр), with a Latin C typed for С in move 3.
    let pgn = "1. e2-e4 e7-e5 2. Кg1-f3 Кb8-c6 3. Cf1-b5 a7-a6 4. Cb5-a4 Кg8-f6 5. 0-0 Cf8-e7 6. Kpg1-h1 *";
    assert_eq!(clean_plies(pgn), 11);
    let g = &games(pgn)[0];
    assert_eq!(
        g.final_position().role_at(Square::H1),
        Some(arbiter_chess::Role::King)
    );
    // A Latin K after Russian moves is a knight (К), as Russian writes it.
    let pgn = "1. e4 e5 2. Кf3 Кc6 3. Kc3 Kf6 *";
    assert_eq!(clean_plies(pgn), 6);
    // In an English game K stays the king.
    assert_eq!(clean_plies("1. e4 e5 2. Ke2 Ke7 *"), 4);
}

/// The one warning of a game set up on line 2 that reads whole in `plies`
/// plies, alike from the reader and from `pgn check`.
fn lone_warning(pgn: &str, plies: u32) -> WarningKind {
    let g = &games(pgn)[0];
    assert_eq!(g.error, None);
    assert_eq!(g.mainline().count(), plies as usize);
    assert_eq!(g.warnings.len(), 1);
    assert_eq!(g.warnings[0].location.line, 2);
    let c = &checked(pgn)[0];
    assert_eq!((c.plies, &c.error), (plies, &None));
    assert_eq!(c.warnings, g.warnings);
    g.warnings[0].kind.clone()
}

/// `[Variant "Standard"]` declares standard chess: the FEN's castling rights
/// are read in standard castling mode (Art. 3.8 a), so `Q` with the rook on
/// b1 is dropped with a warning and `O-O-O` is illegal; it was read as
/// Chess960 castling (a tester's record). Without a `Variant` tag the FEN is
/// read as its rights need: a Chess960 position (X-FEN).
#[test]
fn a_declared_standard_game_reads_its_fen_in_standard_castling_mode() {
    let fen = "4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1";
    let pgn = format!("[Variant \"Standard\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. O-O-O *");
    let g = &games(&pgn)[0];
    let error = g
        .error
        .as_ref()
        .expect("O-O-O is illegal in standard chess here");
    assert!(error.to_string().contains("O-O-O"), "{error}");
    assert_eq!(g.warnings.len(), 1);
    assert_eq!(g.warnings[0].location.line, 3);
    assert!(
        g.warnings[0]
            .to_string()
            .contains("castling right for the rook on b1 dropped: in standard chess"),
        "{}",
        g.warnings[0]
    );
    let c = &checked(&pgn)[0];
    assert_eq!(c.warnings, g.warnings);
    assert!(c.error.is_some());
    // Standard castling stays: O-O with the h1 rook.
    let pgn = format!("[Variant \"Standard\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. O-O *");
    let g = &games(&pgn)[0];
    assert_eq!((g.error.as_ref(), g.mainline().count()), (None, 1));
    // No Variant tag: read as its rights need, Chess960 castling with b1.
    let pgn = format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. O-O-O *");
    let g = &games(&pgn)[0];
    assert_eq!((g.error.as_ref(), g.warnings.len()), (None, 0));
    assert_eq!(g.mainline().count(), 1);
}

#[test]
fn impossible_castling_rights_or_en_passant_in_a_fen_tag_are_dropped_with_a_warning() {
    // `KQkq`, but White's a-rook and Black's king have moved: one warning
    // per reason, each naming its rooks.
    let pgn = "[SetUp \"1\"]\n[FEN \"r2k3r/8/8/8/8/8/8/4K2R w KQkq - 0 1\"]\n\n1. O-O *";
    let g = &games(pgn)[0];
    assert_eq!((g.error.as_ref(), g.mainline().count()), (None, 1));
    let texts: Vec<String> = g.warnings.iter().map(|w| w.kind.to_string()).collect();
    assert_eq!(
        texts,
        [
            "FEN tag: castling right for the rook on a1 dropped: no rook of that colour stands there",
            "FEN tag: castling rights for the rooks on a8, h8 dropped: in standard chess the king \
             castles from e1/e8 with a rook in its corner (Art. 3.8 a); other castling rights exist \
             only in Chess960"
        ]
    );
    assert_eq!(checked(pgn)[0].warnings, g.warnings);
    // A tester's game: `K` without any rook. The warning says so (it said
    // "its king and rook cannot castle").
    let pgn = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w K - 0 1\"]\n\n1. Kd2 *";
    assert_eq!(
        lone_warning(pgn, 1).to_string(),
        "FEN tag: castling right for the rook on h1 dropped: no rook of that colour stands there"
    );
    // An en-passant square the board cannot have (the pawn's own square,
    // as some writers give it): dropped with a warning, the game read.
    let pgn = "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1\"]\n\n1... e5 2. Nf3 *";
    assert!(matches!(
        lone_warning(pgn, 2),
        WarningKind::EnPassantDropped {
            square: Square::E4,
            ..
        }
    ));
    // A FEN that is wrong otherwise still rejects the game.
    let bad = "[FEN \"4k3/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *";
    assert!(matches!(
        games(bad)[0].error.as_ref().map(|e| &e.kind),
        Some(GameErrorKind::Fen(_))
    ));
}
