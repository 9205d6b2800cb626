//! `Setup`: any position as plain data, before validation.

use crate::{Bitboard, Board, Color, File, Rank, Role, Square};

/// A position as written down (for example parsed from FEN): placement, side to
/// move, castling rights, en-passant square and move counters. Nothing here is
/// checked; [`crate::Position::from_setup`] validates it.
///
/// ```
/// use arbiter_chess::{CastlingMode, Color, Piece, Position, Role, Setup, Square};
/// // Any board as plain data, then validated into a Position.
/// let mut setup = Setup::empty();
/// setup.board.set(Square::E1, Role::King.of(Color::White));
/// setup.board.set(Square::E8, Role::King.of(Color::Black));
/// setup.board.set(Square::D1, Piece { color: Color::White, role: Role::Queen });
/// let pos = Position::from_setup(setup, CastlingMode::Standard)?;
/// assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
/// # Ok::<_, arbiter_chess::PositionError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The placement of the pieces.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The rooks that keep a castling right (Art. 3.8 b.1), by square.
    pub castling_rights: Bitboard,
    /// The square a pawn just passed over by advancing two squares, if given.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move (Art. 9.3 and 9.6 b).
    pub halfmoves: u32,
    /// The move number, starting at 1 and incremented after Black's move.
    pub fullmoves: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::standard()
    }
}

impl Setup {
    /// The initial position (Art. 2.3).
    pub fn standard() -> Setup {
        Setup {
            board: Board::standard(),
            turn: Color::White,
            castling_rights: Bitboard::CORNERS,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// An empty board, White to move, no rights.
    pub fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            turn: Color::White,
            castling_rights: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The Chess960 starting position with Scharnagl number `n` (0–959;
    /// 518 is the standard position), with all castling rights (2014 Appendix F).
    ///
    /// ```
    /// use arbiter_chess::Setup;
    /// assert_eq!(Setup::chess960(518), Some(Setup::standard()));
    /// assert!(Setup::chess960(960).is_none());
    /// ```
    pub fn chess960(n: u32) -> Option<Setup> {
        let back = chess960_back_rank(n)?;
        let mut board = Board::empty();
        let mut rights = Bitboard::EMPTY;
        for (i, role) in back.into_iter().enumerate() {
            let f = File::new(i as u32);
            for color in Color::ALL {
                let back_sq = Square::from_coords(f, Rank::FIRST.relative_to(color));
                let pawn_sq = Square::from_coords(f, Rank::SECOND.relative_to(color));
                board.set(back_sq, role.of(color));
                board.set(pawn_sq, Role::Pawn.of(color));
                if role == Role::Rook {
                    rights.add(back_sq);
                }
            }
        }
        Some(Setup {
            board,
            turn: Color::White,
            castling_rights: rights,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        })
    }
}

/// The white back rank (files a–h) of Chess960 position `n` by Scharnagl's numbering.
pub fn chess960_back_rank(n: u32) -> Option<[Role; 8]> {
    if n >= 960 {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let (n, light) = (n / 4, n % 4);
    rank[(2 * light + 1) as usize] = Some(Role::Bishop);
    let (n, dark) = (n / 4, n % 4);
    rank[(2 * dark) as usize] = Some(Role::Bishop);
    let (n, queen) = (n / 6, n % 6);
    place_nth_empty(&mut rank, queen as usize, Role::Queen);
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (k1, k2) = KNIGHTS[n as usize];
    // Place the second knight first so the first one's index is unchanged.
    place_nth_empty(&mut rank, k2, Role::Knight);
    place_nth_empty(&mut rank, k1, Role::Knight);
    place_nth_empty(&mut rank, 0, Role::Rook);
    place_nth_empty(&mut rank, 0, Role::King);
    place_nth_empty(&mut rank, 0, Role::Rook);
    let mut out = [Role::Pawn; 8];
    for (o, r) in out.iter_mut().zip(rank) {
        *o = r?;
    }
    Some(out)
}

fn place_nth_empty(rank: &mut [Option<Role>; 8], nth: usize, role: Role) {
    if let Some(slot) = rank.iter_mut().filter(|s| s.is_none()).nth(nth) {
        *slot = Some(role);
    }
}

/// The Scharnagl number of a Chess960 back rank, if it is one of the 960.
pub fn chess960_number(back: &[Role; 8]) -> Option<u32> {
    (0..960).find(|&n| chess960_back_rank(n).as_ref() == Some(back))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Role::*;

    #[test]
    fn scharnagl_numbers() {
        assert_eq!(
            chess960_back_rank(518),
            Some([Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook])
        );
        assert_eq!(
            chess960_back_rank(0),
            Some([Bishop, Bishop, Queen, Knight, Knight, Rook, King, Rook])
        );
        assert_eq!(
            chess960_back_rank(959),
            Some([Rook, King, Rook, Knight, Knight, Queen, Bishop, Bishop])
        );
    }

    #[test]
    fn all_960_are_distinct_and_valid() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let back = chess960_back_rank(n).unwrap();
            assert!(seen.insert(back));
            let k = back.iter().position(|&r| r == King).unwrap();
            let rooks: Vec<_> = (0..8).filter(|&i| back[i] == Rook).collect();
            assert!(
                rooks[0] < k && k < rooks[1],
                "king between the rooks in {n}"
            );
            let bishops: Vec<_> = (0..8).filter(|&i| back[i] == Bishop).collect();
            assert_ne!(
                bishops[0] % 2,
                bishops[1] % 2,
                "bishops on opposite colours in {n}"
            );
            assert_eq!(chess960_number(&back), Some(n));
        }
    }
}
