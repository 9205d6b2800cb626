//! Chess960 castling (2014 Laws, Appendix F; Guidelines II from 2017): final
//! squares as in standard chess, whatever the start; every square between king
//! and its destination and between rook and its destination empty but for those
//! two; no square of the king's path attacked; the rook's path may be attacked.

use arbiter_chess::{CastlingMode, Move, Position, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, CastlingMode::Chess960).unwrap()
}

fn after(p: &Position, m: Move) -> String {
    let mut q = *p;
    q.play(m).unwrap();
    q.board().board_fen()
}

#[test]
fn double_move_king_f1_rook_h1() {
    let p = pos("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    let m = p.parse_san("O-O").unwrap();
    assert_eq!(after(&p, m), "4k3/8/8/8/8/8/8/5RK1");
}

#[test]
fn transposition_king_f1_rook_g1() {
    let p = pos("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    let m = p.parse_san("O-O").unwrap();
    assert_eq!(m, Move::new(Square::F1, Square::G1));
    assert_eq!(after(&p, m), "4k3/8/8/8/8/8/8/5RK1");
    assert_eq!(p.uci(m), "f1g1");
}

#[test]
fn king_already_on_its_target_only_the_rook_moves() {
    let p = pos("4k3/8/8/8/8/8/8/6KR w H - 0 1");
    let m = p.parse_san("O-O").unwrap();
    assert_eq!(after(&p, m), "4k3/8/8/8/8/8/8/5RK1");
    // The king does not move, so a normal "g1" destination is not involved.
    assert_eq!(p.uci(m), "g1h1");
}

#[test]
fn rook_already_on_its_target_only_the_king_moves() {
    let p = pos("4k3/8/8/8/8/8/8/3K1R2 w F - 0 1");
    let m = p.parse_san("O-O").unwrap();
    assert_eq!(after(&p, m), "4k3/8/8/8/8/8/8/5RK1");
}

#[test]
fn rook_between_king_and_its_target() {
    // King b1, castling rook e1: the king crosses the rook's square.
    let p = pos("k7/8/8/8/8/8/8/1K2R3 w E - 0 1");
    let m = p.parse_san("O-O").unwrap();
    assert_eq!(after(&p, m), "k7/8/8/8/8/8/8/5RK1");
}

#[test]
fn queen_side_from_b1_with_rook_a1() {
    let p = pos("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
    let m = p.parse_san("O-O-O").unwrap();
    assert_eq!(after(&p, m), "4k3/8/8/8/8/8/8/2KR4");
}

#[test]
fn a_piece_in_the_way_prevents_castling() {
    // Knight on d1 blocks the rook's path from a1 to d1.
    let p = pos("4k3/8/8/8/8/8/8/RK1N4 w A - 0 1");
    assert!(p.parse_san("O-O-O").is_err());
}

#[test]
fn attacked_king_path_prevents_castling_but_rook_path_may_be_attacked() {
    // King b1 → g1 crosses c1..g1; a black rook on f8 attacks f1.
    let p = pos("4kr2/8/8/8/8/8/8/1K4R1 w G - 0 1");
    assert!(p.parse_san("O-O").is_err());
    // Queen side: king e1 → c1, rook a1 → d1; b1 (rook's path only) attacked is fine.
    let p = pos("1r2k3/8/8/8/8/8/8/R3K3 w A - 0 1");
    assert!(p.parse_san("O-O-O").is_ok());
}

#[test]
fn castling_rook_that_shields_the_king_destination() {
    // King c1, castling rook b1, black rook a1-side: after castling the rook is
    // on d1 and the king on c1 is attacked from a1 — castling is illegal.
    let p = pos("4k3/8/8/8/8/8/8/rRK5 w B - 0 1");
    assert!(p.parse_san("O-O-O").is_err());
}

#[test]
fn rights_per_rook_file_survive_and_are_lost_per_rook() {
    let mut p = pos("rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1");
    // Moving the e1 rook loses only that right.
    p.play(p.parse_uci("e1e2").unwrap()).unwrap();
    assert_eq!(
        p.fen_with(arbiter_chess::FenOptions {
            castling: arbiter_chess::fen::CastlingNotation::Shredder,
            ..Default::default()
        }),
        "rk2r3/8/8/8/8/8/4R3/RK6 b Aea - 1 1"
    );
}
