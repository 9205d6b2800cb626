//! Castling (FIDE Art. 3.8 b) in standard chess and Chess960 (2014 Appendix F).

use crate::{Color, File, Rank, Square};

/// How castling is written: in standard chess the king moves two squares
/// (`e1g1` in UCI, `KQkq` in FEN); in Chess960 the king "takes" its rook in UCI
/// and FEN names the rook's file where needed.
///
/// Move generation is the same in both modes: the rules of Appendix F contain
/// standard castling as a special case.
///
/// ```
/// use arbiter_chess::{CastlingMode, Position};
/// // Appendix F: in Chess960 the king castles by "taking" its rook.
/// let pos = Position::chess960(0).unwrap();
/// assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
/// assert!(CastlingMode::from_chess960(true).is_chess960());
/// assert!(!Position::standard().castling_mode().is_chess960());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    /// Standard chess: castling rights only with king on e1/e8 and rooks in the corners.
    #[default]
    Standard,
    /// Chess960 (Fischer random chess): castling rights per rook file.
    Chess960,
}

impl CastlingMode {
    /// `true` in Chess960 mode.
    pub const fn is_chess960(self) -> bool {
        matches!(self, CastlingMode::Chess960)
    }

    /// `Chess960` if `chess960` is true.
    pub const fn from_chess960(chess960: bool) -> CastlingMode {
        if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }
}

/// The side castled to: named after the file the king lands on (Appendix F:
/// "c-side" and "g-side"; in standard chess queen side and king side).
///
/// ```
/// use arbiter_chess::{CastlingSide, Color, Square};
/// // Art. 3.8 a ii: the king goes to g1 and the rook to f1 (also in Chess960).
/// assert_eq!(CastlingSide::KingSide.king_to(Color::White), Square::G1);
/// assert_eq!(CastlingSide::KingSide.rook_to(Color::White), Square::F1);
/// assert_eq!(CastlingSide::of_rook(Square::E8, Square::A8), CastlingSide::QueenSide);
/// assert_eq!(CastlingSide::QueenSide.san(), "O-O-O");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Castling with the rook on the a-side of the king: `0-0-0`, king to c1/c8, rook to d1/d8.
    QueenSide,
    /// Castling with the rook on the h-side of the king: `0-0`, king to g1/g8, rook to f1/f8.
    KingSide,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// The side of a castling rook on `rook` for a king on `king` (same rank).
    #[inline]
    pub fn of_rook(king: Square, rook: Square) -> CastlingSide {
        if rook.file() > king.file() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }

    /// The file the king lands on: g or c.
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook lands on: f or d.
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The king's destination for `color`.
    #[inline]
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), Rank::FIRST.relative_to(color))
    }

    /// The rook's destination for `color`.
    #[inline]
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), Rank::FIRST.relative_to(color))
    }

    /// The PGN / SAN notation with letter O: `O-O` or `O-O-O`.
    pub const fn san(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        }
    }

    /// The FIDE notation with digit zero (Appendix C.13): `0-0` or `0-0-0`.
    pub const fn fide(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "0-0",
            CastlingSide::QueenSide => "0-0-0",
        }
    }
}
