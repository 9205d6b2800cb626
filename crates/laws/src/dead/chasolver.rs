//! The `chasolver` crate: the exact unwinnability analysis.

use super::{Unwinnability, Verdict};
use arbiter_chess::{Bitboard, CastlingMode, Color, FenOptions, Move, Position, Setup};
use std::str::FromStr;

/// The `chasolver` crate (MIT) behind [`Unwinnability`].
///
/// Positions are handed over as FEN to the `chess` crate that chasolver is
/// built on. That crate knows only standard castling: Chess960 castling
/// rights that standard chess cannot express are dropped; then only a
/// helpmate found counts (replayed on the real position), never a "no
/// mate".
#[derive(Copy, Clone, Debug, Default)]
pub struct ChaSolver;

impl ChaSolver {
    /// The position for the `chess` crate, and whether castling rights had
    /// to be dropped.
    fn board(pos: &Position) -> Option<(chess::Board, bool)> {
        let mut setup: Setup = pos.to_setup();
        let mut dropped = false;
        if pos.castling_mode() == CastlingMode::Chess960 {
            let mut keep = Bitboard::EMPTY;
            for rook in setup.castling_rights {
                let color = if rook.rank() == arbiter_chess::Rank::FIRST {
                    Color::White
                } else {
                    Color::Black
                };
                let king = setup.board.king_of(color);
                let standard_king = king.map(|k| k.file()) == Some(arbiter_chess::File::E);
                if standard_king && Bitboard::CORNERS.contains(rook) {
                    keep.add(rook);
                }
            }
            dropped = keep != setup.castling_rights;
            setup.castling_rights = keep;
        }
        let standard = Position::from_setup(setup, CastlingMode::Standard).ok()?;
        let fen = standard.fen_with(FenOptions {
            epd: true,
            ..FenOptions::default()
        });
        chess::Board::from_str(&fen).ok().map(|b| (b, dropped))
    }
}

impl Unwinnability for ChaSolver {
    fn solve(&self, pos: &Position, winner: Color) -> (Verdict, Option<Vec<Move>>) {
        let Some((board, dropped)) = ChaSolver::board(pos) else {
            return (Verdict::Unknown, None);
        };
        let color = match winner {
            Color::White => chess::Color::White,
            Color::Black => chess::Color::Black,
        };
        match chasolver::winnability(&board, color) {
            Some(chasolver::Winnability::Winnable { helpmate }) => {
                // Translate the line move by move (UCI text) into our moves.
                let mut p = *pos;
                let mut line = Vec::with_capacity(helpmate.len());
                for cm in helpmate {
                    match translate(&p, cm) {
                        Some(m) => {
                            p.play_unchecked(m);
                            line.push(m);
                        }
                        None => return (Verdict::Winnable, None),
                    }
                }
                (Verdict::Winnable, Some(line))
            }
            // Without some castling right the position has fewer moves: "no
            // mate" there proves nothing about the real one.
            Some(chasolver::Winnability::Unwinnable) if dropped => (Verdict::Unknown, None),
            Some(chasolver::Winnability::Unwinnable) => (Verdict::Unwinnable, None),
            None => (Verdict::Unknown, None),
        }
    }
}

/// Our legal move for a move of the `chess` crate (castling there is the
/// king's two-square move, here the king takes its rook).
fn translate(pos: &Position, cm: chess::ChessMove) -> Option<Move> {
    let square = |s: chess::Square| arbiter_chess::Square::new(s.to_index() as u32);
    let (from, to) = (square(cm.get_source()), square(cm.get_dest()));
    let promotion = cm.get_promotion().map(|p| match p {
        chess::Piece::Knight => arbiter_chess::Role::Knight,
        chess::Piece::Bishop => arbiter_chess::Role::Bishop,
        chess::Piece::Rook => arbiter_chess::Role::Rook,
        _ => arbiter_chess::Role::Queen,
    });
    let mut found = None;
    pos.for_each_piece_moves_masked(Bitboard::from(from), Bitboard::FULL, |pm| {
        found = pm
            .iter()
            .find(|&m| m.promotion == promotion && (m.to == to || pos.king_destination(m) == to));
        found.is_some()
    });
    found
}
