//! # arbiter-chess
//!
//! The rules core of Arbiter: the board, the pieces and their moves exactly as
//! FIDE Laws of Chess Articles 2 and 3 define them, and Chess960 (2014 Laws,
//! Appendix F).
//!
//! - vocabulary types: [`Color`], [`Role`], [`Piece`], [`File`], [`Rank`],
//!   [`Square`], [`Bitboard`];
//! - [`Setup`] (any position as plain data) → [`Position`] (validated, with a
//!   precise [`PositionError`] otherwise);
//! - legal move generation (bitboards, magic or PEXT slider tables built at
//!   compile time, pins and checkers computed once per position, bulk
//!   generation with no allocation): [`Position::legal_moves`],
//!   [`Position::for_each_piece_moves`];
//! - check, checkmate and stalemate (Art. 3.9, 5.1 a, 5.2 a);
//! - FEN, X-FEN and Shredder-FEN ([`fen`]), UCI moves ([`uci`]), SAN ([`san`]);
//! - Zobrist keys equal exactly for positions that are "the same" under
//!   Art. 9.2 ([`Position::zobrist`]);
//! - insufficient material ([`Position::is_insufficient_material`],
//!   [`Position::cannot_mate_by_material`], Art. 5.2 b, 6.9);
//! - [`perft`].
//!
//! ```
//! use arbiter_chess::{Position, perft::perft};
//! let mut pos = Position::standard();
//! assert_eq!(perft(&pos, 3), 8_902);
//! for san in ["f3", "e5", "g4", "Qh4"] {
//!     let m = pos.parse_san(san)?;
//!     pos.play(m)?;
//! }
//! assert!(pos.is_checkmate());
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
mod castling;
mod color;
mod excerpt;
pub mod fen;
pub mod material;
mod movegen;
mod mv;
pub mod perft;
mod piece;
mod position;
pub mod san;
#[cfg(feature = "serde")]
mod serde_impls;
mod setup;
mod square;
pub mod uci;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::{CastlingMode, CastlingSide};
pub use color::Color;
pub use excerpt::Excerpt;
pub use fen::{EnPassantMode, FenError, FenOptions, ParseFenError};
pub use movegen::PieceMoves;
pub use mv::{Move, MoveList};
pub use piece::{Piece, Role};
pub use position::{IllegalMoveError, Position, PositionError, Validation};
pub use san::{ReadSanError, San, SanError, SanPlus};
pub use setup::{chess960_back_rank, chess960_number, Setup};
pub use square::{File, ParseSquareError, Rank, Square};
pub use uci::{UciError, UciMove};
