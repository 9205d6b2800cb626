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
///
/// ```
/// use arbiter_chess::{Color, Position};
/// use arbiter_laws::{ChaSolver, Unwinnability, Verdict};
/// // King and queen against king: White can mate, Black cannot.
/// let pos: Position = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1".parse()?;
/// assert_eq!(ChaSolver.can_checkmate(&pos, Color::White), Verdict::Winnable);
/// assert_eq!(ChaSolver.can_checkmate(&pos, Color::Black), Verdict::Unwinnable);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
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
            Some(chasolver::Winnability::Unwinnable) => (unwinnable(dropped), None),
            None => (Verdict::Unknown, None),
        }
    }

    /// Exact: its "can mate" comes with a line (replayed before use) and
    /// its "cannot mate" is a proof.
    fn shares_verdicts(&self) -> bool {
        true
    }
}

/// What "no mate" from the solver proves: nothing, if castling rights had
/// to be dropped (the real position has more moves than the one analysed).
fn unwinnable(dropped: bool) -> Verdict {
    if dropped {
        Verdict::Unknown
    } else {
        Verdict::Unwinnable
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_rights_standard_chess_cannot_express_are_dropped() {
        // Chess960: king on c1, castling rook on b1 (and on h1).
        let p =
            Position::from_fen_auto("1rk4r/pppppppp/8/8/8/8/PPPPPPPP/1RK4R w BHbh - 0 1").unwrap();
        assert_eq!(p.castling_mode(), CastlingMode::Chess960);
        let (_, dropped) = ChaSolver::board(&p).unwrap();
        assert!(dropped);
        assert_eq!(unwinnable(dropped), Verdict::Unknown);
        // Standard rights survive: nothing dropped, "no mate" is believed.
        let (_, dropped) = ChaSolver::board(&Position::standard()).unwrap();
        assert!(!dropped);
        assert_eq!(unwinnable(dropped), Verdict::Unwinnable);
    }

    #[test]
    fn castling_is_translated() {
        // A helpmate line with castling comes back as king-takes-rook.
        let p = Position::from_fen_auto("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let board = ChaSolver::board(&p).unwrap().0;
        let castle = chess::ChessMove::new(chess::Square::E1, chess::Square::G1, None);
        assert!(board.legal(castle));
        let m = translate(&p, castle).unwrap();
        assert!(p.is_castling(m));
    }
}
