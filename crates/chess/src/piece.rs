//! Kinds of pieces (FIDE Art. 2.2) and coloured pieces.

use crate::Color;
use std::fmt;

/// A kind of piece, without colour. The Laws call the non-pawn units "pieces"
/// (Appendix C.1); here every unit is a role.
///
/// ```
/// use arbiter_chess::{Color, Role};
/// assert_eq!(Role::from_char('n'), Some(Role::Knight));
/// assert_eq!(Role::Knight.upper_char(), 'N');
/// assert!(Role::Bishop.is_slider() && !Role::Knight.is_slider());
/// assert_eq!(Role::Queen.of(Color::Black).char(), 'q');
/// assert_eq!(Role::PROMOTIONS.len(), 4); // Art. 3.7 e
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn (no letter in algebraic notation, C.4).
    Pawn = 0,
    /// Knight, `N`.
    Knight = 1,
    /// Bishop, `B`.
    Bishop = 2,
    /// Rook, `R`.
    Rook = 3,
    /// Queen, `Q`.
    Queen = 4,
    /// King, `K`.
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pawn may be promoted to (Art. 3.7 e), strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// Index 0 (pawn) to 5 (king).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case FEN / UCI letter (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The upper-case English letter of Appendix C.2 (`P N B R Q K`).
    pub const fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The role for an English letter, either case.
    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c {
            'p' | 'P' => Role::Pawn,
            'n' | 'N' => Role::Knight,
            'b' | 'B' => Role::Bishop,
            'r' | 'R' => Role::Rook,
            'q' | 'Q' => Role::Queen,
            'k' | 'K' => Role::King,
            _ => return None,
        })
    }

    /// The conventional value in pawns given in the user's guide to the pieces:
    /// pawn 1, knight 3, bishop 3, rook 5, queen 9; the king has no exchange value (0).
    pub const fn value(self) -> u32 {
        match self {
            Role::Pawn => 1,
            Role::Knight | Role::Bishop => 3,
            Role::Rook => 5,
            Role::Queen => 9,
            Role::King => 0,
        }
    }

    /// The English name (`pawn`, `knight`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    /// `true` for bishops, rooks and queens.
    #[inline]
    pub const fn is_slider(self) -> bool {
        matches!(self, Role::Bishop | Role::Rook | Role::Queen)
    }

    /// Coloured piece of this role.
    #[inline]
    pub const fn of(self, color: Color) -> Piece {
        Piece { color, role: self }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece of a given colour.
///
/// ```
/// use arbiter_chess::{Color, Piece, Role};
/// let p = Piece::from_char('K').unwrap();
/// assert_eq!(p, Piece { color: Color::White, role: Role::King });
/// assert_eq!(p.figurine(), '♔');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// The piece for a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece {
                color: Color::from_white(c.is_ascii_uppercase()),
                role,
            }),
            None => None,
        }
    }

    /// The Unicode chess figurine (♔ … ♟) of this piece.
    pub const fn figurine(self) -> char {
        match (self.color, self.role) {
            (Color::White, Role::King) => '♔',
            (Color::White, Role::Queen) => '♕',
            (Color::White, Role::Rook) => '♖',
            (Color::White, Role::Bishop) => '♗',
            (Color::White, Role::Knight) => '♘',
            (Color::White, Role::Pawn) => '♙',
            (Color::Black, Role::King) => '♚',
            (Color::Black, Role::Queen) => '♛',
            (Color::Black, Role::Rook) => '♜',
            (Color::Black, Role::Bishop) => '♝',
            (Color::Black, Role::Knight) => '♞',
            (Color::Black, Role::Pawn) => '♟',
        }
    }

    /// Index 0..12: role index + 6 × colour index.
    #[inline]
    pub const fn index(self) -> usize {
        self.role.index() + 6 * self.color.index()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
