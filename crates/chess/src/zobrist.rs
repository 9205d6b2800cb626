//! Zobrist keys (generated at compile time from a fixed seed).
//!
//! A position's key covers exactly what FIDE Art. 9.2 calls the same position:
//! the placement of the pieces, the side to move, the castling rights (per rook)
//! and the en-passant file only when an en-passant capture is legal.

use crate::{Color, File, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

struct Keys {
    pieces: [[u64; 64]; 12],
    castling: [u64; 64],
    en_passant: [u64; 8],
    black: u64,
}

const fn keys() -> Keys {
    let mut k = Keys {
        pieces: [[0; 64]; 12],
        castling: [0; 64],
        en_passant: [0; 8],
        black: 0,
    };
    let mut state = 0x4172_6269_7465_7221; // "Arbiter!"
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            let (st, v) = splitmix(state);
            state = st;
            k.pieces[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let mut s = 0;
    while s < 64 {
        let (st, v) = splitmix(state);
        state = st;
        k.castling[s] = v;
        s += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (st, v) = splitmix(state);
        state = st;
        k.en_passant[f] = v;
        f += 1;
    }
    k.black = splitmix(state).1;
    k
}

static KEYS: Keys = keys();

/// Key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.index()][sq.index()]
}

/// Key of a castling right with the rook on `rook`.
#[inline]
pub fn castling_key(rook: Square) -> u64 {
    KEYS.castling[rook.index()]
}

/// Key of a legal en-passant capture on `file`.
#[inline]
pub fn en_passant_key(file: File) -> u64 {
    KEYS.en_passant[file.index()]
}

/// Key of the side to move (xored in when Black is to move).
#[inline]
pub fn turn_key(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => KEYS.black,
    }
}
