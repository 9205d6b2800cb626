//! Impossible checks (FIDE Art. 3.10: only positions that can arise in a
//! game) against python-chess (GPL-3.0, run as an external test oracle,
//! never linked; `pip install chess`; skipped with a message when missing,
//! a failure with `ARBITER_REQUIRE_ORACLES=1`).
//!
//! On seeded random positions (many with two checkers) and on every position
//! of the perft suites (`tests/data/perft.txt`, `perft960.txt`, the peers'
//! `*.perft`):
//! - what python-chess's `Board.status()` calls `STATUS_IMPOSSIBLE_CHECK` or
//!   `STATUS_TOO_MANY_CHECKERS`, `Position::from_setup` refuses as an
//!   impossible check;
//! - a double check (no en-passant square) is refused exactly when an
//!   independent search in python-chess finds no last move for it: every
//!   move of the side not to move (captures with a piece put back,
//!   promotions, en passant) taken back, played forward with python-chess's
//!   own move rules, must give the same board, from a position in which the
//!   side to move was not in check. python-chess's `status()` lets some of
//!   those through (pawn and rook, bishop and rook …); the test says how many.

use arbiter_chess::{
    CastlingMode, Color, FenError, Piece, Position, PositionError, Role, Setup, Square, Validation,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::process::{Command, Stdio};

/// Reads FENs, one a line; writes `IMPOSSIBLE POSSIBLE` a line: `1` if
/// python-chess's `status()` has `STATUS_IMPOSSIBLE_CHECK` or
/// `STATUS_TOO_MANY_CHECKERS` (else `0`), and for a double check without en-passant square whether
/// some last move gives it (`1`/`0`; `-` otherwise).
const ORACLE: &str = r#"
import sys, chess

def possible(board):
    us = board.turn
    them = not us
    king = board.king(us)
    target = board.board_fen()
    empty = [sq for sq in chess.SQUARES if board.piece_at(sq) is None]
    for to in chess.SQUARES:
        p = board.piece_at(to)
        if p is None or p.color != them:
            continue
        befores = [p.piece_type]
        if p.piece_type not in (chess.PAWN, chess.KING) and chess.square_rank(to) == (7 if them == chess.WHITE else 0):
            befores.append(chess.PAWN)
        for frm in empty:
            for before in befores:
                promotion = p.piece_type if before == chess.PAWN and p.piece_type != chess.PAWN else None
                move = chess.Move(frm, to, promotion=promotion)
                takes = [None, (to, chess.KNIGHT, None)]
                if before == chess.PAWN:
                    back = -8 if them == chess.WHITE else 8
                    c = to + back
                    if 0 <= c < 64 and board.piece_at(c) is None:
                        takes.append((c, chess.PAWN, to))
                for take in takes:
                    prev = board.copy(stack=False)
                    prev.remove_piece_at(to)
                    prev.set_piece_at(frm, chess.Piece(before, them))
                    prev.turn = them
                    prev.castling_rights = 0
                    prev.ep_square = None
                    if take is not None:
                        sq, role, ep = take
                        prev.set_piece_at(sq, chess.Piece(role, us))
                        prev.ep_square = ep
                    if not prev.is_pseudo_legal(move):
                        continue
                    if prev.is_attacked_by(them, king):
                        continue
                    prev.push(move)
                    if prev.board_fen() == target:
                        return True
    return False

for line in sys.stdin:
    fen = line.strip()
    board = chess.Board(fen, chess960=True)
    impossible = board.status() & (chess.STATUS_IMPOSSIBLE_CHECK | chess.STATUS_TOO_MANY_CHECKERS)
    if len(board.checkers()) == 2 and board.ep_square is None:
        answer = "1" if possible(board) else "0"
    else:
        answer = "-"
    print(1 if impossible else 0, answer)
"#;

/// The oracle's answers for `fens`, in order.
fn oracle(fens: &[String]) -> Vec<(bool, Option<bool>)> {
    let mut child = Command::new("python3")
        .args(["-c", ORACLE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = fens.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("python3 ends");
    writer.join().expect("writer").expect("written");
    assert!(out.status.success(), "the oracle failed");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let answers: Vec<_> = text
        .lines()
        .map(|l| {
            let (impossible, possible) = l.split_once(' ').expect("IMPOSSIBLE POSSIBLE");
            let possible = match possible {
                "1" => Some(true),
                "0" => Some(false),
                _ => None,
            };
            (impossible == "1", possible)
        })
        .collect();
    assert_eq!(answers.len(), fens.len(), "one answer per FEN");
    answers
}

/// A random position with both kings and a few pieces, the side not to
/// move safe: many of them with the side to move in check, some in double
/// check. Pieces of the side not to move are placed near the king.
fn random_setup(rng: &mut ChaCha8Rng) -> Option<Setup> {
    let mut setup = Setup::empty();
    setup.turn = if rng.gen_bool(0.5) {
        Color::White
    } else {
        Color::Black
    };
    let us = setup.turn;
    let king = Square::new(rng.gen_range(0..64));
    setup.board.set(king, Role::King.of(us));
    let roles = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];
    let place = |setup: &mut Setup, sq: Square, piece: Piece| {
        if setup.board.piece_at(sq).is_none()
            && !(piece.role == Role::Pawn && arbiter_chess::Bitboard::BACKRANKS.contains(sq))
        {
            setup.board.set(sq, piece);
        }
    };
    place(
        &mut setup,
        Square::new(rng.gen_range(0..64)),
        Role::King.of(!us),
    );
    for _ in 0..rng.gen_range(1..=6) {
        // Within three files and ranks of the king, mostly.
        let sq = if rng.gen_bool(0.7) {
            let f = (king.file().index() as i32 + rng.gen_range(-3..=3)).clamp(0, 7);
            let r = (king.rank().index() as i32 + rng.gen_range(-3..=3)).clamp(0, 7);
            Square::new((r * 8 + f) as u32)
        } else {
            Square::new(rng.gen_range(0..64))
        };
        place(&mut setup, sq, roles[rng.gen_range(0..5)].of(!us));
    }
    for _ in 0..rng.gen_range(0..=4) {
        let sq = Square::new(rng.gen_range(0..64));
        place(&mut setup, sq, roles[rng.gen_range(0..5)].of(us));
    }
    Some(setup)
}

/// Strict validation's answer: `Some(true)` for an impossible check,
/// `Some(false)` for a legal position, `None` for another error.
fn refused_as_impossible_check(setup: &Setup, mode: CastlingMode) -> Option<bool> {
    match Position::from_setup(setup.clone(), mode) {
        Ok(_) => Some(false),
        Err(PositionError::ImpossibleCheck(_)) => Some(true),
        Err(_) => None,
    }
}

#[test]
fn impossible_checks_agree_with_python_chess() {
    if !arbiter_testkit::python_chess_available("chess") {
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(310);
    let (mut doubles, mut others) = (Vec::new(), Vec::new());
    let mut tries = 0;
    while (doubles.len() < 600 || others.len() < 1500) && tries < 2_000_000 {
        tries += 1;
        let Some(setup) = random_setup(&mut rng) else {
            continue;
        };
        // Playable: one king each, the side not to move safe.
        let Ok(pos) =
            Position::from_setup_with(setup.clone(), CastlingMode::Standard, Validation::Lenient)
        else {
            continue;
        };
        let n = pos.checkers().count();
        if n == 2 && doubles.len() < 600 {
            doubles.push(setup);
        } else if n != 2 && others.len() < 1500 && (n > 0 || rng.gen_bool(0.1)) {
            others.push(setup);
        }
    }
    assert_eq!(doubles.len(), 600, "enough double checks in {tries} tries");
    let setups: Vec<Setup> = doubles.into_iter().chain(others).collect();
    let fens: Vec<String> = setups
        .iter()
        .map(|s| {
            Position::from_setup_with(s.clone(), CastlingMode::Standard, Validation::Lenient)
                .expect("playable")
                .fen()
        })
        .collect();
    let answers = oracle(&fens);
    let (mut compared, mut stricter, mut possible_doubles) = (0, 0, 0);
    for ((setup, fen), (theirs, possible)) in setups.iter().zip(&fens).zip(answers) {
        let Some(ours) = refused_as_impossible_check(setup, CastlingMode::Standard) else {
            continue; // refused for another reason (material, …)
        };
        compared += 1;
        if theirs {
            assert!(
                ours,
                "python-chess calls the check impossible, we accept: {fen}"
            );
        }
        if let Some(possible) = possible {
            assert_eq!(
                ours,
                !possible,
                "{fen}: a last move giving this double check {}",
                if possible { "exists" } else { "does not exist" }
            );
            possible_doubles += usize::from(possible);
        }
        stricter += usize::from(ours && !theirs);
    }
    println!(
        "{compared} positions compared, {possible_doubles} possible double checks; \
         {stricter} impossible checks python-chess's status() lets through"
    );
    assert!(compared > 1500, "{compared} compared");
    assert!(
        possible_doubles > 20,
        "{possible_doubles} possible double checks"
    );
    assert!(stricter > 20, "{stricter} stricter");
}

/// Every position of the perft suites reads as python-chess reads it: no
/// impossible check refused that python-chess accepts, and none accepted
/// that it refuses.
#[test]
fn perft_suites_agree_with_python_chess() {
    if !arbiter_testkit::python_chess_available("chess") {
        return;
    }
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut fens = Vec::new();
    for file in ["perft.txt", "perft960.txt"] {
        let text = std::fs::read_to_string(format!("{dir}/{file}")).expect("suite");
        fens.extend(
            text.lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .filter_map(|l| l.split(';').next())
                .map(|f| f.trim().to_owned()),
        );
    }
    for file in ["random.perft", "tricky.perft", "chess960.perft"] {
        let text = std::fs::read_to_string(format!("{dir}/peers/{file}")).expect("suite");
        fens.extend(
            text.lines()
                .filter_map(|l| l.trim().strip_prefix("epd "))
                .map(str::to_owned),
        );
    }
    assert!(fens.len() > 7000, "{} positions", fens.len());
    let answers = oracle(&fens);
    let (mut refused, mut stricter) = (0, 0);
    for (fen, (theirs, possible)) in fens.iter().zip(answers) {
        let setup = Setup::from_fen(fen).expect("the suite's FEN reads");
        let mode = CastlingMode::detect(&setup);
        match refused_as_impossible_check(&setup, mode) {
            Some(ours) => {
                match possible {
                    // A double check: refused exactly when no last move gives it.
                    Some(possible) => assert_eq!(ours, !possible, "double check in {fen}"),
                    None => assert_eq!(ours, theirs, "impossible check in {fen}"),
                }
                if theirs {
                    assert!(ours, "python-chess calls the check impossible: {fen}");
                }
                refused += usize::from(ours);
                stricter += usize::from(ours && !theirs);
            }
            None => {
                let err = Position::from_fen(fen, mode).unwrap_err();
                assert!(
                    !matches!(err, FenError::Position(PositionError::ImpossibleCheck(_))),
                    "{fen}"
                );
            }
        }
    }
    println!(
        "{} suite positions, {refused} impossible checks ({stricter} of them double checks \
         python-chess's status() lets through)",
        fens.len()
    );
}
