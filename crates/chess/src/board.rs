//! Piece placement: which piece stands on which square.

use crate::{Bitboard, Color, File, Piece, Rank, Role, Square};
use std::fmt;

/// The placement of the pieces, one bitboard per role and per colour.
///
/// A `Board` may hold any placement, legal or not; [`crate::Position`] is the
/// validated form.
///
/// ```
/// use arbiter_chess::{Board, Color, Piece, Role, Square};
/// let mut board = Board::standard();
/// assert_eq!(board.piece_at(Square::E1), Some(Role::King.of(Color::White)));
/// assert_eq!(board.occupied().count(), 32);
/// board.clear(Square::E2);
/// board.set(Square::E4, Piece { color: Color::White, role: Role::Pawn });
/// assert_eq!(board.board_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
}

impl Board {
    /// The empty board.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
        }
    }

    /// The initial position of Art. 2.3.
    pub fn standard() -> Board {
        let mut b = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (i, role) in back.into_iter().enumerate() {
            let f = File::new(i as u32);
            b.set(Square::from_coords(f, Rank::FIRST), role.of(Color::White));
            b.set(
                Square::from_coords(f, Rank::SECOND),
                Role::Pawn.of(Color::White),
            );
            b.set(
                Square::from_coords(f, Rank::SEVENTH),
                Role::Pawn.of(Color::Black),
            );
            b.set(Square::from_coords(f, Rank::EIGHTH), role.of(Color::Black));
        }
        b
    }

    /// Squares occupied by pieces of this role, both colours.
    #[inline]
    pub const fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }

    /// Squares occupied by this colour.
    #[inline]
    pub const fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// Squares occupied by this piece.
    #[inline]
    pub const fn by_piece(&self, piece: Piece) -> Bitboard {
        Bitboard(self.by_role[piece.role as usize].0 & self.by_color[piece.color as usize].0)
    }

    /// All occupied squares.
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0].0 | self.by_color[1].0)
    }

    /// Pawns of both colours.
    #[inline]
    pub const fn pawns(&self) -> Bitboard {
        self.by_role[0]
    }
    /// Knights of both colours.
    #[inline]
    pub const fn knights(&self) -> Bitboard {
        self.by_role[1]
    }
    /// Bishops of both colours.
    #[inline]
    pub const fn bishops(&self) -> Bitboard {
        self.by_role[2]
    }
    /// Rooks of both colours.
    #[inline]
    pub const fn rooks(&self) -> Bitboard {
        self.by_role[3]
    }
    /// Queens of both colours.
    #[inline]
    pub const fn queens(&self) -> Bitboard {
        self.by_role[4]
    }
    /// Kings of both colours.
    #[inline]
    pub const fn kings(&self) -> Bitboard {
        self.by_role[5]
    }
    /// Rooks and queens: the pieces that move along ranks and files.
    #[inline]
    pub const fn rooks_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role[3].0 | self.by_role[4].0)
    }
    /// Bishops and queens: the pieces that move along diagonals.
    #[inline]
    pub const fn bishops_and_queens(&self) -> Bitboard {
        Bitboard(self.by_role[2].0 | self.by_role[4].0)
    }

    /// The king of `color`, if there is exactly one.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.kings() & self.by_color(color)).single()
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            None
        } else if self.by_role[0].contains(sq) {
            Some(Role::Pawn)
        } else if self.by_role[1].contains(sq) {
            Some(Role::Knight)
        } else if self.by_role[2].contains(sq) {
            Some(Role::Bishop)
        } else if self.by_role[3].contains(sq) {
            Some(Role::Rook)
        } else if self.by_role[4].contains(sq) {
            Some(Role::Queen)
        } else {
            Some(Role::King)
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = Color::from_white(self.by_color[0].contains(sq));
        Some(Piece { color, role })
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    pub fn set(&mut self, sq: Square, piece: Piece) {
        self.clear(sq);
        self.put_unchecked(sq, piece);
    }

    /// Removes and returns the piece on `sq`.
    pub fn clear(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.toggle(sq, piece);
        Some(piece)
    }

    /// Puts `piece` on `sq`, which must be empty.
    #[inline]
    pub(crate) fn put_unchecked(&mut self, sq: Square, piece: Piece) {
        self.toggle(sq, piece);
    }

    /// Flips the presence of `piece` on `sq`.
    #[inline]
    pub(crate) fn toggle(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role as usize].toggle(sq);
        self.by_color[piece.color as usize].toggle(sq);
    }

    /// All pieces with their squares, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .into_iter()
            .filter_map(|sq| Some((sq, self.piece_at(sq)?)))
    }

    /// The number of pieces of each role for `color` (pawn first).
    pub fn material(&self, color: Color) -> [u32; 6] {
        let mut out = [0; 6];
        for role in Role::ALL {
            out[role.index()] = self.by_piece(role.of(color)).count();
        }
        out
    }

    /// The placement field of FEN (Art. 2 position, rank 8 first).
    pub fn board_fen(&self) -> String {
        let mut out = crate::fen::FenBuf::new();
        self.write_placement(&mut out);
        out.as_str().to_owned()
    }

    /// Writes the placement field: the letters from one pass over the 12
    /// piece sets, then each rank's occupied squares a bit at a time (the
    /// empty runs between them are the digits).
    pub(crate) fn write_placement(&self, out: &mut crate::fen::FenBuf) {
        let mut letters = [0u8; 64];
        for role in Role::ALL {
            for color in Color::ALL {
                let piece = role.of(color);
                for sq in self.by_piece(piece) {
                    letters[sq.index()] = piece.char() as u8;
                }
            }
        }
        let occupied = self.occupied().0;
        for rank in (0..8usize).rev() {
            let mut row = (occupied >> (8 * rank)) & 0xff;
            let mut file = 0;
            while row != 0 {
                let f = row.trailing_zeros() as usize;
                if f > file {
                    out.push(b'0' + (f - file) as u8);
                }
                out.push(letters[rank * 8 + f]);
                file = f + 1;
                row &= row - 1;
            }
            if file < 8 {
                out.push(b'0' + (8 - file) as u8);
            }
            if rank > 0 {
                out.push(b'/');
            }
        }
    }
}

impl fmt::Debug for Board {
    /// Draws the board, rank 8 on top, `.` for an empty square.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::new(rank * 8 + file);
                let c = self.piece_at(sq).map_or('.', Piece::char);
                write!(f, "{c}{}", if file < 7 { ' ' } else { '\n' })?;
            }
        }
        Ok(())
    }
}
