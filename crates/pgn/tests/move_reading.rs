//! Reading single moves as people write them (issue 14): lowercase Russian
//! piece letters, and a pawn reaching the last rank without its piece.

use arbiter_chess::{Position, Role, Square};
use arbiter_pgn::check::Checker;
use arbiter_pgn::{read_move, Dialect, GameErrorKind, Notation, ReadMoveError, Reader};

fn pos(fen: &str) -> Position {
    Position::from_fen_auto(fen).expect("valid FEN")
}

#[test]
fn lowercase_russian_piece_letters_read_as_the_capitals() {
    // After 1. e4 e5: the knight to f3, by hand (`кf3`, `кg1-f3`).
    let mut p = Position::standard();
    for m in ["e4", "e5"] {
        let mv = p.parse_san(m).unwrap();
        p.play_unchecked(mv);
    }
    let nf3 = p.parse_san("Nf3").unwrap();
    for text in ["кf3", "кg1-f3", "кg1—f3", "Кf3"] {
        assert_eq!(Notation::Russian.read(&p, text), Ok(nf3), "{text}");
        assert_eq!(read_move(&p, text), Ok(nf3), "{text}");
    }
    // `к:е5` (Cyrillic е for the file e, `:` for the capture).
    p.play_unchecked(nf3);
    let nc6 = p.parse_san("Nc6").unwrap();
    p.play_unchecked(nc6);
    let nxe5 = p.parse_san("Nxe5").unwrap();
    assert_eq!(Notation::Russian.read(&p, "к:е5"), Ok(nxe5));
    assert_eq!(read_move(&p, "к:е5"), Ok(nxe5));
}

#[test]
fn lowercase_king_queen_and_rook() {
    let p = pos("4k3/8/8/8/8/8/8/R2QK3 w - - 0 1");
    assert_eq!(read_move(&p, "крf2"), Ok(p.parse_san("Kf2").unwrap()));
    assert_eq!(read_move(&p, "фd5"), Ok(p.parse_san("Qd5").unwrap()));
    assert_eq!(read_move(&p, "лa7"), Ok(p.parse_san("Ra7").unwrap()));
    // Lowercase `с` stays the look-alike of the file c: a pawn move.
    let q = pos("4k3/8/8/8/8/8/2P5/4K3 w - - 0 1");
    assert_eq!(read_move(&q, "с4"), Ok(q.parse_san("c4").unwrap()));
    // English text does not take Russian lowercase letters.
    assert!(matches!(
        Notation::San.read(&p, "фd5"),
        Err(ReadMoveError::Syntax { .. })
    ));
}

#[test]
fn a_promotion_without_its_piece_says_so_art_3_7_e() {
    let p = pos("3r4/4P3/8/8/8/8/8/k1K5 w - - 0 1");
    for (text, to) in [
        ("e8", Square::E8),
        ("e8+", Square::E8),
        ("exd8", Square::D8),
        ("e7e8", Square::E8),
        ("e7-e8", Square::E8),
        ("e7xd8", Square::D8),
    ] {
        match read_move(&p, text) {
            Err(ReadMoveError::PromotionMissing {
                from,
                to: got,
                text: t,
            }) => {
                assert_eq!((from, got, t.as_str()), (Square::E7, to, text), "{text}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    let e = read_move(&p, "e8").unwrap_err();
    assert!(e.to_string().contains("Art. 3.7 e"), "{e}");
    assert_eq!(e.text(), "e8");
    // With the piece it is legal; a blocked or absent pawn stays illegal.
    assert_eq!(
        read_move(&p, "e8=N").map(|m| m.promotion),
        Ok(Some(Role::Knight))
    );
    let blocked = pos("4r3/4P3/8/8/8/8/8/k1K5 w - - 0 1");
    assert!(matches!(
        read_move(&blocked, "e8"),
        Err(ReadMoveError::Illegal { .. })
    ));
    assert!(matches!(
        read_move(&p, "a8"),
        Err(ReadMoveError::Illegal { .. })
    ));
    // Not a pawn: a rook on the seventh going to the eighth is no promotion.
    let r = pos("7k/R7/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(read_move(&r, "a7a8"), Ok(r.parse_san("Ra8").unwrap()));
}

#[test]
fn a_game_reports_the_missing_promotion_piece() {
    let pgn = "[FEN \"8/4P3/8/8/8/8/8/k1K5 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e8 *\n";
    let g = Reader::new(pgn.as_bytes())
        .read_game(&mut Checker::with_dialect(Dialect::Auto))
        .unwrap()
        .expect("a game");
    let e = g.error.expect("an error");
    assert!(
        matches!(
            e.kind,
            GameErrorKind::Move(ReadMoveError::PromotionMissing { .. })
        ),
        "{e:?}"
    );
    assert_eq!(g.plies, 0);
}

#[test]
fn a_game_in_lowercase_russian_reads_through() {
    // Written by hand: lowercase piece letters, `:` for captures, then a
    // Latin K as the knight it resembles once the game reads as Russian.
    let pgn = "1. е4 е5 2. кf3 кc6 3. к:е5 к:е5 4. d4 Kg6 *\n";
    let g = Reader::new(pgn.as_bytes())
        .read_game(&mut Checker::new())
        .unwrap()
        .expect("a game");
    assert_eq!((g.plies, g.error), (8, None));
}

/// `hxg8(Q)`, `e8(N)`: the piece a pawn becomes in brackets, as old books and
/// files write it, is read as the promotion (found by a tester: the reader
/// cut the move at the bracket and said "name the piece it becomes" of a
/// move that names it). python-chess reads no move there either way; the
/// record is plain enough.
#[test]
fn a_promotion_piece_in_brackets() {
    let p = pos("rnbqkbnr/ppppp1PP/8/8/8/8/PPPPPP2/RNBQKBNR w KQkq - 0 1");
    for (text, role) in [
        ("hxg8(Q)", Role::Queen),
        ("hxg8(N)", Role::Knight),
        ("hxg8(R)+", Role::Rook),
        ("gxh8(B)", Role::Bishop),
        ("hxg8(q)", Role::Queen),
    ] {
        let m = read_move(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m.promotion, Some(role), "{text}");
    }
    // In a record: one token, read by the builder and the checker alike, on
    // both ways through the movetext.
    for sep in [" ", "\n"] {
        let pgn = format!(
            "1. h4 g5 2. hxg5 h6 3. gxh6 Bg7 4. h7 Bf6 5. hxg8(N){sep}Rxg8 6. e4 (6. d4) *"
        );
        let game = Reader::new(pgn.as_bytes()).next_game().unwrap().unwrap();
        assert_eq!(game.error, None, "{sep:?}");
        assert_eq!(game.mainline().count(), 11, "{sep:?}");
        assert_eq!(
            game.mainline().nth(8).unwrap().promotion,
            Some(Role::Knight)
        );
        let checked = Reader::new(pgn.as_bytes())
            .read_game(&mut Checker::new())
            .unwrap()
            .unwrap();
        assert_eq!((checked.error, checked.plies), (None, 11), "{sep:?}");
    }
    // A bracket that holds no piece stays a variation.
    let pgn = "1. e4 (1. d4) e5(2... d5) 2. Nf3 *";
    let game = Reader::new(pgn.as_bytes()).next_game().unwrap().unwrap();
    assert_eq!(game.error.as_ref().map(|e| &e.kind), None);
    assert_eq!(game.mainline().count(), 3);
}
