//! `Setup` → `Position` validation: every kind of impossible position gets its
//! own precise error (FIDE Art. 2–3; Art. 3.10: a position that cannot arise).

use arbiter_chess::{CastlingMode, Color, FenError, Position, PositionError, Square};

fn err(fen: &str) -> PositionError {
    match Position::from_fen(fen, CastlingMode::Standard) {
        Err(FenError::Position(e)) => e,
        other => panic!("{fen}: expected a position error, got {other:?}"),
    }
}

fn err960(fen: &str) -> PositionError {
    match Position::from_fen(fen, CastlingMode::Chess960) {
        Err(FenError::Position(e)) => e,
        other => panic!("{fen}: expected a position error, got {other:?}"),
    }
}

#[test]
fn kings() {
    assert_eq!(
        err("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        PositionError::MissingKing(Color::Black)
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/8 w - - 0 1"),
        PositionError::MissingKing(Color::White)
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/K3K3 w - - 0 1"),
        PositionError::TooManyKings(Color::White, 2)
    );
}

#[test]
fn material() {
    assert_eq!(
        err("4k3/8/8/8/8/Q7/PPPPPPPP/RNBQKBNR w - - 0 1"),
        PositionError::TooManyPieces(Color::White, 17)
    );
    assert_eq!(
        err("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"),
        PositionError::TooManyPawns(Color::White, 9)
    );
    // Eight pawns and a third knight: the knight must be a promoted pawn.
    assert_eq!(
        err("4k3/8/8/8/8/N7/PPPPPPPP/1N2K1N1 w - - 0 1"),
        PositionError::ImpossibleMaterial(Color::White, 8, 1)
    );
    // Seven pawns and a second queen is fine.
    assert!(Position::from_fen(
        "4k3/8/8/8/8/Q7/PPPPPPP1/3QK3 w - - 0 1",
        CastlingMode::Standard
    )
    .is_ok());
}

#[test]
fn pawns_on_back_ranks() {
    assert_eq!(
        err("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"),
        PositionError::PawnOnBackrank(Square::H8)
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/p3K3 w - - 0 1"),
        PositionError::PawnOnBackrank(Square::A1)
    );
}

#[test]
fn side_not_to_move_in_check() {
    // Black's king is attacked by the rook but it is White's move.
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4RK2 w - - 0 1"),
        PositionError::OppositeCheck(Color::Black)
    );
}

#[test]
fn impossible_checks() {
    // Three checkers.
    assert!(matches!(
        err("4k3/8/3N4/1B6/8/8/8/4R1K1 b - - 0 1"),
        PositionError::ImpossibleCheck(_)
    ));
    // Two knights cannot both give check.
    assert!(matches!(
        err("4k3/2N5/5N2/8/8/8/8/6K1 b - - 0 1"),
        PositionError::ImpossibleCheck(_)
    ));
    // Two rooks on the same line.
    assert!(matches!(
        err("R3k2R/8/8/8/8/8/8/6K1 b - - 0 1"),
        PositionError::ImpossibleCheck(_)
    ));
    // A legal double check: rook and knight.
    assert!(
        Position::from_fen("4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1", CastlingMode::Standard).is_ok()
    );
    // After a double step (e.p. square set), a check by a piece the pawn could not uncover.
    assert!(matches!(
        err("4k3/8/8/8/3P4/8/8/4R1K1 b - d3 0 1"),
        PositionError::ImpossibleCheck(_)
    ));
    // ... whereas a check by the pushed pawn itself is fine.
    assert!(Position::from_fen("8/8/8/8/3P4/4k3/8/6K1 b - d3 0 1", CastlingMode::Standard).is_ok());
}

/// Art. 3.10: a double check stands only if the last move can have given
/// it (the moving or promoted piece checks and uncovers a line piece, or an
/// en-passant capture uncovers two lines); the side to move was not in
/// check before that move (Art. 3.9). A tester's four impossible ones, and
/// the possible kinds beside them.
#[test]
fn double_checks_need_a_last_move() {
    for fen in [
        // Pawn and rook: the pawn's step cannot have uncovered the rook.
        "4k3/8/8/8/8/8/3p4/r3K3 w - - 0 1",
        // Queen beside the king and rook: no queen move leaves b1, c1 or d1 for f2.
        "4k3/8/8/8/8/8/5q2/r3K3 w - - 0 1",
        // Bishop and rook.
        "4k3/8/8/8/1b6/8/8/r3K3 w - - 0 1",
        // Two rooks on two lines: neither can have come from the other's line,
        // and no pawn promoted on h1 from the e-file.
        "4k3/4r3/8/8/8/8/8/4K2r w - - 0 1",
    ] {
        assert_eq!(
            err(fen),
            PositionError::ImpossibleCheck("no last move can have given both checks"),
            "{fen}"
        );
    }
    for (fen, how) in [
        (
            "4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1",
            "Ne4-d6 uncovers the rook",
        ),
        (
            "4k3/8/8/1B6/8/8/8/4R1K1 b - - 0 1",
            "Be4-b5 uncovers the rook",
        ),
        ("8/8/8/4k3/3P4/8/8/4R2K b - - 0 1", "exd4 uncovers the rook"),
        (
            "4R3/R3k3/8/8/8/8/8/K7 b - - 0 1",
            "dxe8=R uncovers the rook on a7",
        ),
        (
            "8/8/3Pk3/8/8/1B6/8/4R2K b - - 0 1",
            "exd6 e.p. uncovers the bishop and the rook",
        ),
        (
            "8/4k3/3P4/8/8/8/8/4R2K b - - 0 1",
            "exd6 checks and uncovers the rook",
        ),
    ] {
        let pos = Position::from_fen(fen, CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("{fen} ({how}): {e}"));
        assert_eq!(pos.checkers().count(), 2, "{fen}");
    }
}

#[test]
fn castling_rights_need_king_and_rook() {
    // `K` with no rook on the king's h-side reads as the corner's right, which
    // validation rejects by name (and a lenient reader drops).
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
        PositionError::InvalidCastlingRight {
            square: Square::H1,
            ..
        }
    ));
    let lenient = Position::from_setup_with(
        arbiter_chess::Setup::from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1").unwrap(),
        CastlingMode::Standard,
        arbiter_chess::Validation::Lenient,
    )
    .unwrap();
    assert_eq!(lenient.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    // The rook moved away: the right names an empty square.
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K2R w A - 0 1"),
        PositionError::InvalidCastlingRight {
            square: Square::A1,
            ..
        }
    ));
    // Standard chess needs king e1 and rook h1 for K.
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/3K3R w H - 0 1"),
        PositionError::InvalidCastlingRight {
            square: Square::H1,
            ..
        }
    ));
    assert!(Position::from_fen("4k3/8/8/8/8/8/8/3K3R w H - 0 1", CastlingMode::Chess960).is_ok());
    // Two rights on the same side of the king.
    assert!(matches!(
        err960("4k3/8/8/8/8/8/8/3K2RR w GH - 0 1"),
        PositionError::InvalidCastlingRight { .. }
    ));
}

#[test]
fn en_passant_square() {
    let e = |fen| match err(fen) {
        PositionError::InvalidEnPassant { square, .. } => square,
        other => panic!("{other:?}"),
    };
    // Wrong rank for the side to move.
    assert_eq!(e("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1"), Square::D3);
    // No pawn just past the square.
    assert_eq!(e("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1"), Square::D6);
    // The square the pawn came from is occupied.
    assert_eq!(e("4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1"), Square::D6);
    assert!(
        Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", CastlingMode::Standard).is_ok()
    );
}

#[test]
fn errors_read_well() {
    let text = err("4k3/8/8/8/8/8/8/4RK2 w - - 0 1").to_string();
    assert_eq!(text, "black is in check but it is not black's move");
}

/// Art. 3.8 b.1 (a castling right belongs to a rook that has not moved):
/// a right whose rook is missing is the wrong one, not a valid right on the
/// same side of the king. `qc` with a rook on a8 only dropped `q` with `c`
/// and blamed a8 for "two castling rights on the same side".
#[test]
fn a_right_without_its_rook_is_named_and_dropped_alone() {
    use arbiter_chess::{Bitboard, Setup};
    for rights in ["qc", "cq"] {
        let fen = format!("r3k3/8/8/8/8/8/8/4K3 b {rights} - 0 1");
        match err960(&fen) {
            PositionError::InvalidCastlingRight { square, reason } => {
                assert_eq!(square, Square::C8, "{fen}");
                assert!(reason.contains("no rook"), "{reason}");
            }
            other => panic!("{fen}: {other:?}"),
        }
        let setup = Setup::from_fen(&fen).unwrap();
        assert_eq!(
            setup.invalid_castling_rights(CastlingMode::Chess960),
            Bitboard::from_square(Square::C8),
            "{fen}"
        );
        let pos = Position::from_setup_with(
            setup,
            CastlingMode::Chess960,
            arbiter_chess::Validation::Lenient,
        )
        .unwrap();
        assert_eq!(pos.castling_rights(), Bitboard::from_square(Square::A8));
    }
}

/// Art. 3.10: every position reached in a game is one that can arise, so
/// strict validation accepts it — double checks, promotions and en-passant
/// captures included. Seeded random games, standard and Chess960, biased
/// towards checks and captures so that double checks come up.
#[test]
fn every_position_of_a_game_is_accepted() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3_10);
    let (mut positions, mut double_checks) = (0, 0);
    for game in 0..3000 {
        let mut pos = if game % 3 == 0 {
            Position::chess960(rng.gen_range(0..960)).unwrap()
        } else {
            Position::standard()
        };
        for _ in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Double checks first, then checks and captures (which thin the
            // board out).
            let checks = |m: arbiter_chess::Move| {
                let mut p = pos;
                p.play_unchecked(m);
                p.checkers().count()
            };
            let double: Vec<_> = moves.iter().copied().filter(|&m| checks(m) == 2).collect();
            let forcing: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| checks(m) > 0 || pos.piece_at(m.to).is_some())
                .collect();
            let m = if !double.is_empty() && rng.gen_bool(0.9) {
                double[rng.gen_range(0..double.len())]
            } else if !forcing.is_empty() && rng.gen_bool(0.7) {
                forcing[rng.gen_range(0..forcing.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            pos.play_unchecked(m);
            positions += 1;
            double_checks += usize::from(pos.checkers().count() == 2);
            if let Err(e) = Position::from_setup(pos.to_setup(), pos.castling_mode()) {
                panic!("{} arose in a game, yet: {e}", pos.fen());
            }
        }
    }
    println!("{positions} positions, {double_checks} double checks");
    assert!(double_checks > 100, "{double_checks} double checks");
}
