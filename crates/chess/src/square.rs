//! Files, ranks and squares (FIDE Art. 2.4 and Appendix C.5–C.7).

use crate::Color;
use std::fmt;
use std::str::FromStr;

/// A file: a vertical column, `a` to `h` from White's left (Appendix C.5).
///
/// ```
/// use arbiter_chess::{File, Square};
/// assert_eq!(Square::E4.file(), File::E);
/// assert_eq!(File::from_char('h'), Some(File::H));
/// assert_eq!(File::A.offset(-1), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank: a horizontal row, `1` to `8` from White's side (Appendix C.6).
///
/// ```
/// use arbiter_chess::{Color, Rank, Square};
/// assert_eq!(Square::E4.rank(), Rank::FOURTH);
/// // The seventh rank from Black's side is the second.
/// assert_eq!(Rank::SEVENTH.relative_to(Color::Black), Rank::SECOND);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

/// One of the 64 squares, numbered a1 = 0, b1 = 1, …, h8 = 63.
///
/// ```
/// use arbiter_chess::{File, Rank, Square};
/// let sq: Square = "e4".parse()?;
/// assert_eq!(sq, Square::from_coords(File::E, Rank::FOURTH));
/// assert_eq!(sq.to_string(), "e4");
/// assert!(Square::H1.is_light()); // Art. 2.1: a white square at the right-hand corner
/// assert_eq!(Square::A1.distance(Square::H8), 7);
/// # Ok::<_, arbiter_chess::ParseSquareError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl File {
    /// File a.
    pub const A: File = File(0);
    /// File b.
    pub const B: File = File(1);
    /// File c.
    pub const C: File = File(2);
    /// File d.
    pub const D: File = File(3);
    /// File e.
    pub const E: File = File(4);
    /// File f.
    pub const F: File = File(5);
    /// File g.
    pub const G: File = File(6);
    /// File h.
    pub const H: File = File(7);
    /// All files, a to h.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index 0 (a) to 7 (h); other values wrap.
    #[inline]
    pub const fn new(index: u32) -> File {
        File((index & 7) as u8)
    }

    /// The file with this index, if it is 0..8.
    #[inline]
    pub const fn try_new(index: i32) -> Option<File> {
        if index >= 0 && index < 8 {
            Some(File(index as u8))
        } else {
            None
        }
    }

    /// 0 for a, 7 for h.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file for a letter `a`–`h` (lower case only).
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }

    /// The lower-case letter.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The upper-case letter (Shredder-FEN, X-FEN castling for White).
    pub const fn upper_char(self) -> char {
        (b'A' + self.0) as char
    }

    /// The file offset by `delta`, if on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<File> {
        File::try_new(self.0 as i32 + delta)
    }
}

impl Rank {
    /// Rank 1.
    pub const FIRST: Rank = Rank(0);
    /// Rank 2.
    pub const SECOND: Rank = Rank(1);
    /// Rank 3.
    pub const THIRD: Rank = Rank(2);
    /// Rank 4.
    pub const FOURTH: Rank = Rank(3);
    /// Rank 5.
    pub const FIFTH: Rank = Rank(4);
    /// Rank 6.
    pub const SIXTH: Rank = Rank(5);
    /// Rank 7.
    pub const SEVENTH: Rank = Rank(6);
    /// Rank 8.
    pub const EIGHTH: Rank = Rank(7);
    /// All ranks, 1 to 8.
    pub const ALL: [Rank; 8] = [
        Rank::FIRST,
        Rank::SECOND,
        Rank::THIRD,
        Rank::FOURTH,
        Rank::FIFTH,
        Rank::SIXTH,
        Rank::SEVENTH,
        Rank::EIGHTH,
    ];

    /// The rank with index 0 (rank 1) to 7 (rank 8); other values wrap.
    #[inline]
    pub const fn new(index: u32) -> Rank {
        Rank((index & 7) as u8)
    }

    /// The rank with this index, if it is 0..8.
    #[inline]
    pub const fn try_new(index: i32) -> Option<Rank> {
        if index >= 0 && index < 8 {
            Some(Rank(index as u8))
        } else {
            None
        }
    }

    /// 0 for rank 1, 7 for rank 8.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The rank for a digit `1`–`8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }

    /// The digit.
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }

    /// The same rank seen from `color`'s side: rank 1 for White is rank 8 for Black.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }

    /// The rank offset by `delta`, if on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Rank> {
        Rank::try_new(self.0 as i32 + delta)
    }
}

macro_rules! squares {
    ($($name:ident = $idx:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square($idx);
            )*
        }
    };
}

squares! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square with index 0 (a1) to 63 (h8); other values wrap.
    #[inline]
    pub const fn new(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    /// The square with this index, if it is 0..64.
    #[inline]
    pub const fn try_new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// 0 (a1) to 63 (h8).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file of the square.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The rank of the square.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The square mirrored vertically (a1 ↔ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square seen from `color`'s side (mirrored for Black).
    #[inline]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// The square offset by `delta` indices, if on the board (no wrap check across files).
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// `true` for the light squares (h1 and a8 are light, Art. 2.1).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.0 / 8 + self.0 % 8) % 2 == 1
    }

    /// Chebyshev distance: the number of king moves between two squares.
    pub fn distance(self, other: Square) -> u32 {
        let df = (self.file().0 as i32 - other.file().0 as i32).unsigned_abs();
        let dr = (self.rank().0 as i32 - other.rank().0 as i32).unsigned_abs();
        df.max(dr)
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Parses a square name such as `e4` from the first two bytes of `s`.
    pub fn from_ascii(s: &[u8]) -> Option<Square> {
        match s {
            [f, r] => Some(Square::from_coords(
                File::from_char(*f as char)?,
                Rank::from_char(*r as char)?,
            )),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// The text is not a square name (`a1` … `h8`).
///
/// ```
/// use arbiter_chess::Square;
/// let err = "i9".parse::<Square>().unwrap_err();
/// assert_eq!(err.0, "i9");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?}: expected a file a-h and a rank 1-8, such as e4")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes()).ok_or_else(|| ParseSquareError(s.to_owned()))
    }
}
