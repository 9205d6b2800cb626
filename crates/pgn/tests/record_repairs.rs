//! What the reader mends and what it warns about, the same for the game
//! builder (`pgn convert`) and the checker (`pgn check`): the result when
//! the `Result` tag and the termination marker differ, `*` glued to a move,
//! broken tags, NAGs past 255, mixed Russian and English letters, and the
//! move numbers errors name. Cases found by testers (h4 D1–D6, h5 B12–B13).

use arbiter_chess::Color;
use arbiter_pgn::check::{CheckedGame, Checker};
use arbiter_pgn::generate::{GenOptions, Generator};
use arbiter_pgn::{Game, GameResult, Reader, Tags, WarningKind};

fn built(pgn: &str) -> Vec<Game> {
    Reader::new(pgn.as_bytes())
        .games()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn checked(pgn: &str) -> Vec<CheckedGame> {
    let mut reader = Reader::new(pgn.as_bytes());
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut Checker::new()).unwrap() {
        out.push(g);
    }
    out
}

/// PGN §8.2.6: the termination marker must match the `Result` tag. When
/// they do not, both visitors take the tag (as python-chess does) and warn;
/// `pgn convert` wrote the marker (a won game became `*`), `pgn check` the
/// tag, and neither said so.
#[test]
fn the_result_tag_wins_over_a_different_marker_with_a_warning() {
    let pgn = "[Event \"r\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# *\n";
    let game = &built(pgn)[0];
    assert_eq!(game.result(), GameResult::WhiteWins);
    assert!(
        game.to_pgn().ends_with("4. Qxf7# 1-0\n\n"),
        "{}",
        game.to_pgn()
    );
    let check = &checked(pgn)[0];
    assert_eq!(check.result, Some(GameResult::WhiteWins));
    for warnings in [&game.warnings, &check.warnings] {
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(
            warnings[0].kind,
            WarningKind::ResultMismatch {
                tag: GameResult::WhiteWins,
                marker: GameResult::Unknown
            }
        );
        assert_eq!(
            (warnings[0].location.line, warnings[0].location.column),
            (4, 41)
        );
    }
    // The same result twice: nothing to say.
    let same = pgn.replace("4. Qxf7# *", "4. Qxf7# 1-0");
    assert!(built(&same)[0].warnings.is_empty());
    assert!(checked(&same)[0].warnings.is_empty());
}

/// PGN §8.2.6: every movetext ends with a termination marker; one without
/// is read (the tag, else `*`, is the result) with a warning, by both.
#[test]
fn a_movetext_without_a_marker_is_read_with_a_warning() {
    let pgn = "[Event \"a\"]\n\n1. e4 e5\n\n[Event \"b\"]\n\n1. d4 *\n";
    let games = built(pgn);
    let checks = checked(pgn);
    assert_eq!(games.len(), 2);
    for warnings in [&games[0].warnings, &checks[0].warnings] {
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(warnings[0].kind, WarningKind::NoTerminationMarker);
        assert_eq!(warnings[0].location.line, 1);
    }
    assert!(games[1].warnings.is_empty() && checks[1].warnings.is_empty());
}

/// PGN §7: `*` is a self-terminating token: `Nc6*` is the move `Nc6` and
/// the result `*` (it was read as one move `Nc6*`, an error).
#[test]
fn a_star_glued_to_a_move_ends_the_game() {
    for pgn in [
        "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6*\n",
        "1. e4 e5 2. Nf3 Nc6*{end}\n",
        "1. e4 e5 2. Nf3 Nc6 *",
    ] {
        let check = &checked(pgn);
        assert_eq!(check.len(), 1, "{pgn}");
        assert_eq!(check[0].plies, 4, "{pgn}");
        assert_eq!(check[0].result, Some(GameResult::Unknown), "{pgn}");
        let game = &built(pgn)[0];
        assert_eq!(game.mainline().count(), 4, "{pgn}");
        assert!(game.error.is_none(), "{pgn}: {:?}", game.error);
        assert!(game.warnings.is_empty(), "{pgn}: {:?}", game.warnings);
    }
}

/// Appendix C.3 (Кр, the king), typed `Kр` (Latin K, Cyrillic р) as the
/// Russian Laws' own list of pieces writes it: the king, by default.
#[test]
fn a_king_typed_on_two_keyboards_is_read() {
    let pgn = "[Event \"ru\"]\n\n1. e4 e5 2. Kрe2 Kрe7 *\n";
    let check = &checked(pgn)[0];
    assert_eq!((check.plies, &check.error), (4, &None));
    let game = &built(pgn)[0];
    assert!(game
        .final_position()
        .fen()
        .starts_with("rnbq1bnr/ppppkppp/8/4p3/4P3/8/PPPPKPPP/"));
}

/// A Cyrillic К (knight) made the whole game Russian, so that a later
/// English `Kd2` (Latin K: the king) silently became the knight `Nd2`. Where
/// both readings are legal and differ, the letter's script decides (a Latin
/// K is the king), with a warning naming the other reading; where only the
/// Russian one is legal, it is taken as before.
#[test]
fn a_latin_k_after_a_cyrillic_letter_is_read_by_its_script() {
    let pgn = "[Event \"en\"]\n\n1. e4 e5 2. d3 Кf6 3. Kd2 *\n";
    for (plies, warnings, fen) in [
        {
            let c = &checked(pgn)[0];
            (c.plies, c.warnings.clone(), c.final_position.fen())
        },
        {
            let g = &built(pgn)[0];
            (
                g.mainline().count() as u32,
                g.warnings.clone(),
                g.final_position().fen(),
            )
        },
    ] {
        assert_eq!(plies, 5);
        assert_eq!(
            fen,
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/3P4/PPPK1PPP/RNBQ1BNR b kq - 2 3"
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(
            (warnings[0].location.line, warnings[0].location.column),
            (3, 23)
        );
        assert_eq!(
            warnings[0].kind.to_string(),
            "\"Kd2\" read as Kd2 (its letter is Latin: English); as the Russian look-alike it would be Nd2"
        );
    }
    // Only the knight can go: the Russian reading, without a warning.
    let knight = "1. e4 e5 2. Кf3 Кc6 3. Kc3 *";
    let g = &built(knight)[0];
    assert!(
        g.error.is_none() && g.warnings.is_empty(),
        "{:?} {:?}",
        g.error,
        g.warnings
    );
    assert!(g
        .final_position()
        .fen()
        .starts_with("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/2N2N2/"));
    // The Notation tag says Russian: a Latin K is the knight, as written.
    let tagged = "[Notation \"Russian\"]\n\n1. e4 e5 2. d3 Кf6 3. Kd2 *";
    let g = &built(tagged)[0];
    assert!(g.warnings.is_empty());
    assert!(
        g.final_position().fen().contains("/PPPN1PPP/"),
        "{}",
        g.final_position().fen()
    );
}

/// PGN §7: a string holds no line break. A tag value without its closing
/// quote and `]` ends at its line's end; the tags and moves after it are
/// read (the rest of the game was lost: 0 plies), with a warning naming
/// the place, as for `[Event "Moscow]`.
#[test]
fn a_tag_value_left_open_ends_at_its_line() {
    let pgn = "[Event \"a\"]\n[White \"Smith\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n";
    let check = &checked(pgn)[0];
    assert_eq!(check.white.as_deref(), Some("Smith"));
    assert_eq!(check.result_tag.as_deref(), Some("1-0"));
    assert_eq!((check.plies, &check.error), (2, &None));
    let game = &built(pgn)[0];
    assert_eq!(game.tags.get("White"), Some("Smith"));
    assert_eq!(game.mainline().count(), 2);
    for warnings in [&check.warnings, &game.warnings] {
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(
            (warnings[0].location.line, warnings[0].location.column),
            (2, 1)
        );
        assert!(warnings[0]
            .kind
            .to_string()
            .starts_with("tag value without its closing quote and ]: read to the end of its line"));
    }
    let moscow = &built("[Event \"Moscow]\n\n1. e4 *\n")[0];
    assert_eq!(moscow.tags.get("Event"), Some("Moscow"));
    assert_eq!(moscow.warnings.len(), 1, "{:?}", moscow.warnings);
}

/// PGN §8.1: a tag pair ends with `]`. `[Event` and `[Event "x"` without
/// it were read with no word; now a warning names the line and column.
#[test]
fn a_tag_without_its_bracket_is_reported() {
    for (pgn, value) in [
        ("[Event", ""),
        ("[Event \"x\"\n1. e4 *\n", "x"),
        ("[Event \"x\"\r\n\r\n1. e4 *\r\n", "x"),
    ] {
        let game = &built(pgn)[0];
        assert_eq!(game.tags.get("Event"), Some(value), "{pgn:?}");
        let check = &checked(pgn)[0];
        for warnings in [&game.warnings, &check.warnings] {
            let w = warnings
                .iter()
                .find(|w| matches!(w.kind, WarningKind::Syntax { .. }))
                .unwrap_or_else(|| panic!("{pgn:?}: {warnings:?}"));
            assert_eq!((w.location.line, w.location.column), (1, 1), "{pgn:?}");
            assert!(
                w.kind.to_string().starts_with("tag without its closing ]"),
                "{w}"
            );
        }
    }
    // Closed: no warning.
    assert!(built("[Event \"x\"]\n\n1. e4 *\n")[0].warnings.is_empty());
    assert!(built("[Event x]\n\n1. e4 *\n")[0].warnings.is_empty());
}

/// PGN §10 numbers NAGs 0-255; `$256` ended the game as an error. It is
/// left out with a warning and the game read on (python-chess keeps it).
#[test]
fn a_nag_above_255_is_left_out_with_a_warning() {
    let pgn = "1. e4 $256 e5 $1 2. Nf3 $99999999999 *";
    let game = &built(pgn)[0];
    assert!(game.error.is_none(), "{:?}", game.error);
    assert_eq!(game.mainline().count(), 3);
    assert!(game.line.nodes[0].nags.is_empty());
    assert_eq!(game.line.nodes[1].nags, [1]);
    assert_eq!(game.warnings.len(), 2, "{:?}", game.warnings);
    assert_eq!(game.warnings[0].location.column, 7);
    assert!(game.warnings[0].kind.to_string().contains("\"$256\""));
    let check = &checked(pgn)[0];
    assert_eq!((check.plies, check.warnings.len()), (3, 2));
}

/// FIDE Art. 8.1 numbers moves as the record does: an error in a game from
/// a FEN at move 20 names "move 22." (besides the ply from the record's
/// start, 4), which is what the player reads on the scoresheet.
#[test]
fn errors_name_the_move_number_the_record_writes() {
    let pgn = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 20\"]\n\n20... Kd7 21. Rh7+ Ke6 22. Rh9 *\n";
    for error in [
        built(pgn)[0].error.clone().unwrap(),
        checked(pgn)[0].error.clone().unwrap(),
    ] {
        assert_eq!(error.ply, Some(4));
        let n = error.move_number.unwrap();
        assert_eq!((n.number, n.color), (22, Color::White));
        assert!(
            error
                .to_string()
                .starts_with("game 1, line 4, column 28, move 22. (ply 4), at \"Rh9\""),
            "{error}"
        );
    }
    let black = &built("1. e4 e5 2. Nf3 Ke7 3. Bc4 Kf9 *")[0];
    let n = black.error.as_ref().unwrap().move_number.unwrap();
    assert_eq!(n.to_string(), "3...");
}

/// PGN §9.7.1: a `FEN` tag goes with `SetUp "1"`; a game read with a FEN
/// tag and no SetUp was written without it.
#[test]
fn a_fen_tag_is_written_with_set_up() {
    let pgn = "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O *\n";
    let out = built(pgn)[0].to_pgn();
    assert!(
        out.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]"),
        "{out}"
    );
    assert_eq!(out.matches("SetUp").count(), 1);
    let twice = built(&out)[0].to_pgn();
    assert_eq!(twice.matches("SetUp").count(), 1, "{twice}");
}

/// The writer wrote tag names its own reader refuses (`Bad Name]`, an empty
/// one): [`Tags::try_set`] refuses them (typed error), and a name set
/// otherwise is written as a PGN symbol the reader reads back.
#[test]
fn every_tag_name_written_is_read_back() {
    let mut tags = Tags::new();
    assert!(tags.try_set("Bad Name]", "x").is_err());
    assert!(tags.try_set("", "x").is_err());
    assert!(tags.try_set("Ёлка_1+#=:-", "x").is_ok());
    let mut game = Game::default();
    game.tags.set("Bad Name]", "x");
    game.tags.set("", "y");
    game.tags.set("Ёлка", "z");
    let out = game.to_pgn();
    let back = &built(&out)[0];
    assert!(back.error.is_none() && back.warnings.is_empty(), "{out}");
    assert_eq!(back.tags.get("Bad_Name_"), Some("x"), "{out}");
    assert_eq!(back.tags.get("_"), Some("y"), "{out}");
    assert_eq!(back.tags.get("Ёлка"), Some("z"), "{out}");
}

/// A clock time of u64::MAX ms was written `[%clk 5124095576030:25:51.615]`
/// and read back as no time at all.
#[test]
fn every_clock_written_is_read_back() {
    for ms in [0, 61_500, u64::MAX] {
        let mut game = Game::default();
        let e4 = game.start.parse_san("e4").unwrap();
        game.push(e4).unwrap().clock_ms = Some(ms);
        let back = &built(&game.to_pgn())[0];
        assert_eq!(back.line.nodes[0].clock_ms, Some(ms));
    }
}

/// A share of 2 made `Generator::game` panic (`gen_bool`): `try_new`
/// refuses it (typed error), `new` takes it as 1.
#[test]
fn generator_shares_out_of_range_are_refused_or_clamped() {
    let bad = GenOptions {
        clocks: 2.0,
        setup: f64::NAN,
        ..GenOptions::default()
    };
    let err = Generator::try_new(bad).err().unwrap();
    assert_eq!(err.field, "setup");
    let mut g = Generator::new(bad);
    for i in 1..=5 {
        assert!(g.game(i).tags.get("TimeControl").is_some());
    }
}
