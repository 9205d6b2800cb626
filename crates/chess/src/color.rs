//! The two sides (FIDE Art. 2.1: "light" White and "dark" Black).

use std::fmt;
use std::ops::Not;

/// A side: White moves first (Art. 1.1), then the players alternate.
///
/// ```
/// use arbiter_chess::{Color, Position};
/// assert_eq!(Position::standard().turn(), Color::White); // Art. 1.2: White moves first
/// assert_eq!(!Color::White, Color::Black);
/// assert_eq!(Color::Black.fold("1-0", "0-1"), "0-1");
/// assert_eq!(Color::White.char(), 'w');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The player with the light-coloured pieces.
    White = 0,
    /// The player with the dark-coloured pieces.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// Index 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `White` for `true`.
    #[inline]
    pub const fn from_white(white: bool) -> Color {
        if white {
            Color::White
        } else {
            Color::Black
        }
    }

    /// `true` for White.
    #[inline]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// The FEN letter: `w` or `b`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Picks the value for this colour.
    #[inline]
    pub fn fold<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    /// The English name, lower case (`white`, `black`).
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
