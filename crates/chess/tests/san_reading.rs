//! Reading SAN against a brute-force oracle (Appendix C.9–C.10): for every
//! written form "piece, optional file and rank, arrival square" in positions of
//! random standard and Chess960 play, the reader's answer must be what the full
//! list of legal moves says — no match: illegal; one: that move; several:
//! ambiguous. Writing is checked the same way: the strict SAN of every legal
//! move reads back to it and is as short as the disambiguation rules allow.

use arbiter_chess::{File, Move, Position, Rank, ReadSanError, Role, SanError, Square};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const ROLES: [(Role, &str); 6] = [
    (Role::Pawn, ""),
    (Role::Knight, "N"),
    (Role::Bishop, "B"),
    (Role::Rook, "R"),
    (Role::Queen, "Q"),
    (Role::King, "K"),
];

/// The legal moves matching a written piece, file, rank and arrival square,
/// found by filtering the whole move list (castling moves excluded: they are
/// named `O-O`/`O-O-O`). A pawn written without a file steps along the file
/// of its arrival square: a capture names the file it leaves (`exd5`), so
/// `d5` is never a capture (C.9).
fn matches(
    pos: &Position,
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
) -> Vec<Move> {
    let file = match (role, file) {
        (Role::Pawn, None) => Some(to.file()),
        _ => file,
    };
    let mut found: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| {
            !pos.is_castling(*m)
                && pos.role_at(m.from) == Some(role)
                && m.to == to
                && file.is_none_or(|f| m.from.file() == f)
                && rank.is_none_or(|r| m.from.rank() == r)
                && m.promotion.is_none_or(|p| p == Role::Queen)
        })
        .collect();
    found.dedup();
    found
}

fn check_position(pos: &Position, rng: &mut ChaCha8Rng) -> usize {
    let mut checked = 0;
    for to in Square::all() {
        for (role, letter) in ROLES {
            // Every role with no disambiguation, and a random file, rank or both.
            let f = File::new(rng.gen_range(0..8));
            let r = Rank::new(rng.gen_range(0..8));
            for (file, rank) in [
                (None, None),
                (Some(f), None),
                (None, Some(r)),
                (Some(f), Some(r)),
            ] {
                if role == Role::Pawn && rank.is_some() {
                    continue;
                }
                let mut text = letter.to_string();
                if let Some(f) = file {
                    text.push(f.char());
                }
                if let Some(r) = rank {
                    text.push(r.char());
                }
                text.push_str(&to.to_string());
                let promotes =
                    role == Role::Pawn && to.rank() == Rank::EIGHTH.relative_to(pos.turn());
                if promotes {
                    text.push_str("=Q");
                }
                let expected = matches(pos, role, file, rank, to);
                let got = pos.parse_san(&text);
                match (expected.len(), &got) {
                    (0, Err(ReadSanError::San(SanError::Illegal { .. }))) => {}
                    (1, Ok(m)) if *m == expected[0] => {}
                    (n, Err(ReadSanError::San(SanError::Ambiguous { candidates, .. })))
                        if n > 1 && candidates.len() == n => {}
                    _ => panic!(
                        "{text} in {}: expected {expected:?}, read {got:?}",
                        pos.fen()
                    ),
                }
                checked += 1;
            }
        }
    }
    for m in pos.legal_moves() {
        let san = pos.san(m);
        assert_eq!(pos.parse_san(&san), Ok(m), "{san} in {}", pos.fen());
        // Minimal disambiguation: without it, the move would be ambiguous.
        if let Some(role) = pos
            .role_at(m.from)
            .filter(|r| *r != Role::Pawn && *r != Role::King)
        {
            let others = matches(pos, role, None, None, m.to).len();
            let disambiguated =
                san.trim_end_matches(['+', '#']).len() > 3 + usize::from(pos.is_capture(m));
            assert_eq!(disambiguated, others > 1, "{san} in {}", pos.fen());
        }
    }
    checked
}

fn random_play(seed: u64, games: usize, chess960: bool) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = if chess960 {
            Position::chess960(rng.gen_range(0..960)).unwrap()
        } else {
            Position::standard()
        };
        for _ in 0..rng.gen_range(10..160) {
            checked += check_position(&pos, &mut rng);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        }
    }
    checked
}

#[test]
fn reading_agrees_with_the_move_list_in_standard_chess() {
    assert!(random_play(7, 40, false) > 500_000);
}

#[test]
fn reading_agrees_with_the_move_list_in_chess960() {
    assert!(random_play(8, 20, true) > 250_000);
}

#[test]
fn pinned_pieces_and_checks_in_reading() {
    // The knight on d2 is pinned by the bishop on b4: Nf3 is the g1 knight's.
    let pos = Position::from_fen_auto("4k3/8/8/8/1b6/8/3N4/4K1N1 w - - 0 1").unwrap();
    assert_eq!(pos.san(pos.parse_san("Nf3").unwrap()), "Nf3");
    assert_eq!(pos.parse_san("Ngf3").unwrap().from, Square::G1);
    assert!(matches!(
        pos.parse_san("Ndf3"),
        Err(ReadSanError::San(SanError::Illegal { .. }))
    ));
    // Double check: only the king may move (Art. 3.9). (Nf2-d3+ uncovering
    // the h4 bishop; a knight on f3 could not have moved there with the
    // bishop checking too, Art. 3.10.)
    let pos = Position::from_fen_auto("4k3/8/8/8/7b/3n4/8/R3K3 w - - 0 1").unwrap();
    assert!(pos.checkers().more_than_one());
    assert!(matches!(
        pos.parse_san("Ra2"),
        Err(ReadSanError::San(SanError::Illegal { .. }))
    ));
    assert!(pos.parse_san("Kf2").is_err()); // the h4 bishop and the d3 knight cover f2
    assert!(pos.parse_san("Kd2").is_ok());
    assert!(pos.parse_san("Ke2").is_ok());
    // En passant that would expose the king along the rank is illegal (Art. 3.7 d).
    let pos = Position::from_fen_auto("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").unwrap();
    assert!(matches!(
        pos.parse_san("exd6"),
        Err(ReadSanError::San(SanError::Illegal { .. }))
    ));
    let pos = Position::from_fen_auto("8/8/8/K2pP3/8/8/8/7k w - d6 0 1").unwrap();
    assert_eq!(
        pos.parse_san("exd6").unwrap(),
        "e5d6"
            .parse::<arbiter_chess::UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap()
    );
}
