//! Every generated move is legal and every legal move is generated: random
//! play chosen by the input bytes, from standard or Chess960 starts; at every
//! position the move list equals shakmaty's (an oracle), `is_legal` agrees with
//! the list for every from/to/promotion triple, and the bulk count matches.
#![no_main]
use arbiter_chess::{CastlingMode, Move, Position, Role, Square};
use libfuzzer_sys::fuzz_target;
use shakmaty::{fen::Fen, Position as _};
use std::collections::BTreeSet;

fn oracle_moves(pos: &Position) -> BTreeSet<String> {
    let fen = pos.fen_with(arbiter_chess::FenOptions {
        castling: arbiter_chess::fen::CastlingNotation::Shredder,
        en_passant: arbiter_chess::EnPassantMode::Always,
        ..Default::default()
    });
    let chess: shakmaty::Chess = fen
        .parse::<Fen>()
        .expect("oracle reads our FEN")
        .into_position(shakmaty::CastlingMode::Chess960)
        .expect("oracle accepts our position");
    chess
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Chess960).to_string())
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, moves)) = data.split_first() else { return };
    let mut pos = if first < 128 {
        Position::standard()
    } else {
        Position::chess960(u32::from(first) * 7 % 960).expect("valid number")
    };
    for &byte in moves.iter().take(120) {
        let mut p960 = pos;
        p960.set_castling_mode(CastlingMode::Chess960).expect("valid");
        let list = pos.legal_moves();
        let ours: BTreeSet<String> = list.iter().map(|m| p960.uci(*m)).collect();
        assert_eq!(ours, oracle_moves(&pos), "{}", pos.fen());
        assert_eq!(pos.count_legal_moves(), list.len());
        for from in Square::all() {
            for to in Square::all() {
                for promotion in [None, Some(Role::Queen), Some(Role::Knight), Some(Role::King)] {
                    let m = Move { from, to, promotion };
                    assert_eq!(pos.is_legal(m), list.contains(&m), "{m:?} in {}", pos.fen());
                }
            }
        }
        if list.is_empty() {
            break;
        }
        pos.play_unchecked(list[byte as usize % list.len()]);
    }
});
