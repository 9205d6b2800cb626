//! Zobrist keys follow FIDE Art. 9.2: positions are the same iff the same
//! player has the move, the same pieces stand on the same squares, and the
//! possible moves are the same — castling rights (permanent) and en passant
//! (only when a capture is actually legal) included.

use arbiter_chess::Position;

fn play(p: &mut Position, moves: &str) {
    for san in moves.split_whitespace() {
        let m = p.parse_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
        p.play(m).unwrap();
    }
}

#[test]
fn transpositions_have_equal_keys() {
    let mut a = Position::standard();
    play(&mut a, "Nf3 Nf6 Nc3 Nc6");
    let mut b = Position::standard();
    play(&mut b, "Nc3 Nc6 Nf3 Nf6");
    assert_eq!(a.zobrist(), b.zobrist());
}

#[test]
fn side_to_move_matters() {
    let mut a = Position::standard();
    play(&mut a, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(a.zobrist(), Position::standard().zobrist());
    let mut b = Position::standard();
    play(&mut b, "Nf3 Nf6 Ng1");
    assert_ne!(b.zobrist(), a.zobrist());
}

#[test]
fn en_passant_that_is_not_legal_does_not_make_positions_different() {
    // 1.e4: no black pawn can capture on e3, so the position equals the same
    // placement reached without a double step.
    let mut a = Position::standard();
    play(&mut a, "e4");
    let b: Position = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        .parse()
        .unwrap();
    assert_eq!(a.ep_square().map(|s| s.to_string()), Some("e3".into()));
    assert_eq!(a.legal_ep_square(), None);
    assert_eq!(a.zobrist(), b.zobrist());
}

#[test]
fn legal_en_passant_makes_positions_different() {
    let with: Position = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1".parse().unwrap();
    let without: Position = "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1".parse().unwrap();
    assert_eq!(
        with.legal_ep_square().map(|s| s.to_string()),
        Some("d6".into())
    );
    assert_ne!(with.zobrist(), without.zobrist());
}

#[test]
fn pinned_en_passant_capturer_is_not_a_legal_capture() {
    // The e5 pawn is pinned along the rank: exd6 would expose the king (the
    // classic horizontal pin through both pawns).
    let with: Position = "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1".parse().unwrap();
    let without: Position = "8/8/8/K2pP2r/8/8/8/4k3 w - - 0 1".parse().unwrap();
    assert_eq!(with.legal_ep_square(), None);
    assert_eq!(with.zobrist(), without.zobrist());
}

#[test]
fn castling_rights_lost_by_moving_a_rook_make_positions_different() {
    let mut a = Position::standard();
    play(&mut a, "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8");
    let mut b = Position::standard();
    play(&mut b, "Nf3 Nf6");
    assert_eq!(a.board(), b.board());
    assert_ne!(a.zobrist(), b.zobrist());
}
