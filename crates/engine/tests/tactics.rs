//! A tactical test set at fixed depth: mates in one to three and simple wins
//! of material. Positions written by hand (each checked when written against
//! an outside engine, which is not needed to run these tests).

use arbiter_chess::Position;
use arbiter_engine::{Engine, EngineOptions, Limits, Score};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn search(fen: &str, depth: u32) -> (String, Score) {
    let pos = Position::from_fen_auto(fen).unwrap();
    let mut engine = Engine::new(EngineOptions::default());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let r = engine.search(&[pos], &limits, &stop, &mut |_| {}).unwrap();
    assert!(pos.is_legal(r.best));
    (pos.uci(r.best), r.score)
}

#[test]
fn mates_in_one() {
    for (fen, best) in [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "h5f7",
        ),
        ("6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", "g5f7"),
        ("6k1/pp3ppp/8/8/8/8/5PPP/1R1R2K1 w - - 0 1", "d1d8"),
        ("r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", "a8a1"),
        ("6k1/5ppp/4p3/8/8/1q6/5PPP/2R3K1 w - - 0 1", "c1c8"),
        ("1k6/8/1K6/8/8/8/8/5Q2 w - - 0 1", "f1f8"),
    ] {
        let (m, score) = search(fen, 4);
        assert_eq!(m, best, "{fen}");
        assert_eq!(score, Score::Mate(1), "{fen}");
    }
}

#[test]
fn mates_in_two() {
    for fen in [
        "k7/8/2K5/8/8/8/8/7R w - - 0 1",
        "5k2/8/5K2/8/8/8/8/4Q3 w - - 0 1",
    ] {
        let (_, score) = search(fen, 9);
        assert_eq!(score, Score::Mate(2), "{fen}");
    }
}

#[test]
fn mates_in_three() {
    for (fen, best) in [
        ("k7/8/8/3K4/8/8/8/7R w - - 0 1", "d5c6"),
        ("2k5/8/8/2K5/8/8/8/7R w - - 0 1", "c5c6"),
    ] {
        let (m, score) = search(fen, 16);
        assert_eq!(score, Score::Mate(3), "{fen}");
        assert_eq!(m, best, "{fen}");
    }
}

#[test]
fn wins_material() {
    for (fen, best) in [
        // A hanging queen.
        ("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
        // A knight fork of king and queen.
        ("2q3k1/5ppp/8/3N4/8/8/5PPP/6K1 w - - 0 1", "d5e7"),
        // A pawn fork of rook and knight.
        ("6k1/6pp/8/1r1n4/8/8/2P3PP/5RK1 w - - 0 1", "c2c4"),
    ] {
        let (m, _) = search(fen, 8);
        assert_eq!(m, best, "{fen}");
    }
}

#[test]
fn stalemate_is_avoided_and_mate_is_found_when_winning() {
    // King and queen against king: the engine must not stalemate (Art. 5.2 a).
    let fen = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1";
    let pos = Position::from_fen_auto(fen).unwrap();
    let (m, score) = search(fen, 6);
    let mut after = pos;
    after.play_unchecked(pos.parse_uci(&m).unwrap());
    assert!(!after.is_stalemate(), "{m} stalemates");
    assert!(matches!(score, Score::Mate(n) if n > 0), "{score:?}");
}
