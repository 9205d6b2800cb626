//! Differential tests against shakmaty (GPL-3.0, a dev-dependency used only as
//! a test oracle): on positions from random play, standard and Chess960, the
//! legal moves, check / checkmate / stalemate, the SAN of every legal move, the
//! FEN, and the Zobrist key's Art. 9.2 semantics agree.

use arbiter_chess::{CastlingMode, FenOptions, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{fen::Fen, san::SanPlus, Chess, EnPassantMode, Position as _};
use std::collections::{BTreeSet, HashMap};

fn oracle(pos: &Position) -> Chess {
    let fen = pos.fen_with(FenOptions {
        castling: arbiter_chess::fen::CastlingNotation::Shredder,
        en_passant: arbiter_chess::EnPassantMode::Always,
        ..Default::default()
    });
    fen.parse::<Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("oracle rejects {fen}: {e}"))
}

fn compare(pos: &Position, theirs: &Chess, key_seen: &mut HashMap<String, u64>) {
    let fen = pos.fen();
    // Legal moves, written king-takes-rook for castling in both.
    let ours: BTreeSet<String> = {
        let mut p = *pos;
        p.set_castling_mode(CastlingMode::Chess960).unwrap();
        p.legal_moves().iter().map(|m| p.uci(*m)).collect()
    };
    let oracle_moves: BTreeSet<String> = theirs
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Chess960).to_string())
        .collect();
    assert_eq!(ours, oracle_moves, "legal moves differ in {fen}");
    assert_eq!(pos.count_legal_moves(), ours.len(), "move count in {fen}");
    assert_eq!(pos.is_check(), theirs.is_check(), "check in {fen}");
    assert_eq!(pos.is_checkmate(), theirs.is_checkmate(), "mate in {fen}");
    assert_eq!(
        pos.is_stalemate(),
        theirs.is_stalemate(),
        "stalemate in {fen}"
    );
    // SAN of every legal move.
    for m in theirs.legal_moves() {
        let uci = m.to_uci(shakmaty::CastlingMode::Chess960).to_string();
        let mut p = *pos;
        p.set_castling_mode(CastlingMode::Chess960).unwrap();
        let ours_m = p.parse_uci(&uci).unwrap();
        let san = pos.san(ours_m);
        assert_eq!(
            san,
            SanPlus::from_move(theirs.clone(), m).to_string(),
            "SAN of {uci} in {fen}"
        );
        assert_eq!(
            pos.parse_san(&san).unwrap(),
            ours_m,
            "reading back {san} in {fen}"
        );
    }
    // Castling found straight from the right (Art. 3.8): legal exactly when
    // the oracle lists it.
    for side in [
        arbiter_chess::CastlingSide::KingSide,
        arbiter_chess::CastlingSide::QueenSide,
    ] {
        let listed = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| pos.castling_side(m) == Some(side));
        assert_eq!(
            pos.legal_castling(side),
            listed,
            "castling {side:?} in {fen}"
        );
    }
    // FEN: same text as the oracle (legal en passant only), and a round trip.
    let oracle_fen = Fen::from_position(theirs, EnPassantMode::Legal).to_string();
    assert_eq!(fen, oracle_fen, "FEN");
    let back = Position::from_fen(&fen, pos.castling_mode()).unwrap();
    assert_eq!(back.fen(), fen, "FEN round trip");
    // Zobrist: the incremental key equals the key of the same position read
    // afresh, and equal Art. 9.2 identities (EPD with legal e.p.) have equal keys.
    assert_eq!(back.zobrist(), pos.zobrist(), "Zobrist of {fen}");
    let identity = pos.epd();
    let key = *key_seen.entry(identity.clone()).or_insert(pos.zobrist());
    assert_eq!(key, pos.zobrist(), "two keys for {identity}");
}

fn random_games(seed: u64, games: usize, chess960: bool) -> usize {
    let mut special = [0usize; 3]; // promotions, en passant, castling
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut positions = 0;
    let mut keys = HashMap::new();
    for _ in 0..games {
        let mut pos = if chess960 {
            Position::chess960(rng.gen_range(0..960)).unwrap()
        } else {
            Position::standard()
        };
        let mut theirs = oracle(&pos);
        for _ in 0..rng.gen_range(20..200) {
            compare(&pos, &theirs, &mut keys);
            positions += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures and pawn moves now and then, to reach endgames,
            // promotions and en passant.
            let forcing: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| pos.is_zeroing(*m))
                .collect();
            let m = if !forcing.is_empty() && rng.gen_bool(0.4) {
                forcing[rng.gen_range(0..forcing.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            special[0] += m.promotion.is_some() as usize;
            special[1] += pos.is_en_passant(m) as usize;
            special[2] += pos.is_castling(m) as usize;
            let mut chess960_pos = pos;
            chess960_pos
                .set_castling_mode(CastlingMode::Chess960)
                .unwrap();
            let uci = chess960_pos.uci(m);
            pos.play_unchecked(m);
            let om = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&theirs)
                .unwrap();
            theirs.play_unchecked(om);
        }
    }
    assert!(
        special.iter().all(|&n| n >= 20),
        "too few special moves: {special:?}"
    );
    positions
}

#[test]
fn standard_random_play_agrees_with_oracle() {
    let n = random_games(1, 700, false);
    assert!(n >= 50_000, "only {n} positions");
}

#[test]
fn chess960_random_play_agrees_with_oracle() {
    let n = random_games(2, 700, true);
    assert!(n >= 50_000, "only {n} positions");
}

#[test]
fn all_960_starts_agree_with_oracle_to_depth_3() {
    for n in 0..960 {
        let pos = Position::chess960(n).unwrap();
        let theirs = oracle(&pos);
        assert_eq!(
            arbiter_chess::perft::perft(&pos, 3),
            shakmaty::perft(&theirs, 3),
            "Chess960 position {n}"
        );
    }
}
