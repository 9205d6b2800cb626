//! Notations a player writes (FIDE Art. 8.1 and Appendix C), read and written:
//! PGN SAN, FIDE style, Russian, figurine, long algebraic and UCI.
//!
//! Every notation converts through one model: a legal [`Move`] in a
//! [`Position`]. Writing renders that move; reading resolves text to it. So a
//! record converts between any two notations without loss.
//!
//! | notation | examples |
//! | --- | --- |
//! | [`Notation::San`] (PGN, English) | `Nf3`, `exd5`, `O-O`, `e8=Q+`, `Qxf7#` |
//! | [`Notation::Fide`] (Appendix C) | `Nf3`, `exd6 e.p.`, `0-0`, `e8Q+`, `Qxf7++` |
//! | [`Notation::Russian`] (Appendix C.3) | `Кf3`, `Крe2`, `Фxf7#`, `0-0`, `e8Ф` |
//! | [`Notation::Figurine`] | `♘f3`, `♕xf7#`, `O-O`, `e8=♕` |
//! | [`Notation::Long`] (Appendix C.8) | `e2-e4`, `Ng1-f3`, `e4xd5`, `e7-e8=Q` |
//! | [`Notation::Uci`] | `e2e4`, `e1g1` (`e1h1` in Chess960), `e7e8q` |
//!
//! Reading is lenient, as people write: see [`Dialect`]. It accepts `0-0` and
//! `O-O` (with Latin or Cyrillic O, hyphens or dashes), promotions with or
//! without `=`, `x`, `:`, `×` or Cyrillic `х` for captures, `+`, `#`, `++`,
//! `e.p.`, annotation marks (`!?`), figurines of either colour, long and short
//! forms, and Cyrillic letters that look like Latin ones in squares (`е4`, `с5`,
//! `а7`).

use arbiter_chess::san::Suffix;
use arbiter_chess::{CastlingSide, Move, Position, Role, San, SanError, SanPlus, Square, UciMove};
use std::fmt;
use std::str::FromStr;

/// A way of writing moves.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_pgn::Notation;
/// let pos = Position::standard();
/// let m = pos.parse_san("Nf3")?;
/// let written: Vec<String> = Notation::ALL.iter().map(|n| n.write(&pos, m)).collect();
/// assert!(written.contains(&"Кf3".to_owned()) && written.contains(&"g1f3".to_owned()));
/// assert_eq!("ru".parse::<Notation>()?, Notation::Russian);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Notation {
    /// Standard Algebraic Notation as PGN files use it (English letters,
    /// `O-O`, `e8=Q`, `#`). The only notation of standard PGN.
    #[default]
    San,
    /// English letters in the style of FIDE Appendix C: castling with the digit
    /// zero (`0-0`, C.13), promotion without `=` (`d8Q`, C.11), `e.p.` after an
    /// en-passant capture (C.9) and `++` for mate (C.13).
    Fide,
    /// Russian letters (Appendix C.3; laws digest §3): Кр (king), Ф (queen),
    /// Л (rook), С (bishop), К (knight), pawns without a letter; `0-0`, `e8Ф`.
    Russian,
    /// Figurines (♔ ♕ ♖ ♗ ♘) instead of letters, as FIDE recommends for print
    /// (Appendix C.3).
    Figurine,
    /// Long algebraic notation (Appendix C.8): departure and arrival squares,
    /// `-` or `x` between them: `e2-e4`, `Ng1-f3`, `e4xd5`.
    Long,
    /// UCI coordinates: `e2e4`, `e7e8q`; castling `e1g1` in standard chess and
    /// king-takes-rook (`e1h1`) in Chess960.
    Uci,
}

/// How piece letters are understood when reading.
///
/// Only letters differ between dialects; everything else (captures, squares,
/// castling, marks, figurines) is read the same way in all of them.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_pgn::{read_move_bytes, Dialect};
/// let pos = Position::standard();
/// // A Latin K is a king in English and a knight (К) in Russian.
/// assert!(read_move_bytes(Dialect::English, &pos, b"Kf3").is_err());
/// assert_eq!(read_move_bytes(Dialect::Russian, &pos, b"Kf3")?, pos.parse_san("Nf3")?);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// Any notation, told apart by the characters used: Latin `K Q R B N` are
    /// English, Cyrillic `Кр Ф Л С К` Russian, figurines figurines; UCI and
    /// coordinates (`g1-f3`) too. Cyrillic `В` is read as a Latin `B` (the
    /// Russian translation of the Laws writes `Вхе5`).
    #[default]
    Auto,
    /// English letters (SAN, FIDE style, long algebraic). Cyrillic look-alikes
    /// `К`, `В`, `Р` are read as `K`, `B`, `P`.
    English,
    /// Russian letters. Latin look-alikes typed in Russian text are read as the
    /// Russian letters they resemble: `K` as `К` (knight), `Kp` as `Кр` (king),
    /// `C` as `С` (bishop).
    Russian,
    /// UCI only.
    Uci,
}

/// Text that does not name exactly one legal move.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_pgn::{read_move, ReadMoveError};
/// let pos = Position::standard();
/// assert!(matches!(read_move(&pos, "Ke2"), Err(ReadMoveError::Illegal { .. })));
/// assert!(matches!(read_move(&pos, "Nz9"), Err(ReadMoveError::Syntax { .. })));
/// assert_eq!(read_move(&pos, "Ke2").unwrap_err().text(), "Ke2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadMoveError {
    /// The text is not a move in the notation.
    #[error("invalid move {} at character {column}: {message}", arbiter_chess::Excerpt(.text))]
    Syntax {
        /// The text given.
        text: String,
        /// 1-based character position of the problem.
        column: usize,
        /// What is wrong.
        message: &'static str,
    },
    /// A well-formed move that is not legal in the position (FIDE Art. 3).
    #[error("illegal move {}: {reason}", arbiter_chess::Excerpt(.text))]
    Illegal {
        /// The text given.
        text: String,
        /// Why no legal move matches.
        reason: &'static str,
    },
    /// Several legal moves match (disambiguation missing, Appendix C.10).
    #[error("ambiguous move {}: it could be any of {}", arbiter_chess::Excerpt(.text), .candidates.join(", "))]
    Ambiguous {
        /// The text given.
        text: String,
        /// The matching moves in SAN.
        candidates: Vec<String>,
    },
    /// A pawn move to the last rank that names no piece (FIDE Art. 3.7 e:
    /// the pawn must be exchanged for a queen, rook, bishop or knight; PGN
    /// and the Laws' Appendix C.9 write the piece). The move is legal once a
    /// piece is named: `from`–`to` with any of the four.
    ///
    /// ```
    /// use arbiter_chess::{Position, Square};
    /// use arbiter_pgn::{read_move, ReadMoveError};
    /// let pos = Position::from_fen_auto("8/4P3/8/8/8/8/8/k1K5 w - - 0 1")?;
    /// for text in ["e8", "e7e8", "e7-e8"] {
    ///     assert!(matches!(
    ///         read_move(&pos, text),
    ///         Err(ReadMoveError::PromotionMissing { from: Square::E7, to: Square::E8, .. })
    ///     ), "{text}");
    /// }
    /// # Ok::<_, arbiter_chess::FenError>(())
    /// ```
    #[error("move {} takes a pawn to the last rank: name the piece it becomes, e.g. {to}=Q (Art. 3.7 e)", arbiter_chess::Excerpt(.text))]
    PromotionMissing {
        /// The text given.
        text: String,
        /// The pawn's square.
        from: Square,
        /// The square on the last rank.
        to: Square,
    },
}

impl ReadMoveError {
    /// The move text the error is about.
    pub fn text(&self) -> &str {
        match self {
            ReadMoveError::Syntax { text, .. }
            | ReadMoveError::Illegal { text, .. }
            | ReadMoveError::Ambiguous { text, .. }
            | ReadMoveError::PromotionMissing { text, .. } => text,
        }
    }
}

/// A notation name that is not known.
///
/// ```
/// use arbiter_pgn::Notation;
/// let e = "klingon".parse::<Notation>().unwrap_err();
/// assert_eq!(e.0, "klingon");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown notation {0:?}; expected one of en (san), fide, ru, figurine, lan, uci")]
pub struct UnknownNotation(pub String);

impl Notation {
    /// All notations.
    pub const ALL: [Notation; 6] = [
        Notation::San,
        Notation::Fide,
        Notation::Russian,
        Notation::Figurine,
        Notation::Long,
        Notation::Uci,
    ];

    /// The name written in the `Notation` tag of non-standard PGN: `SAN`,
    /// `FIDE`, `Russian`, `Figurine`, `LAN`, `UCI`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::San => "SAN",
            Notation::Fide => "FIDE",
            Notation::Russian => "Russian",
            Notation::Figurine => "Figurine",
            Notation::Long => "LAN",
            Notation::Uci => "UCI",
        }
    }

    /// Reads a notation name (case-insensitive): `en`, `san`, `english`,
    /// `fide`, `ru`, `russian`, `figurine`, `lan`, `long`, `uci`.
    pub fn from_name(name: &str) -> Result<Notation, UnknownNotation> {
        let n = name.trim().to_ascii_lowercase();
        Ok(match n.as_str() {
            "en" | "san" | "english" => Notation::San,
            "fide" => Notation::Fide,
            "ru" | "russian" | "русская" | "рус" => Notation::Russian,
            "figurine" | "fig" => Notation::Figurine,
            "lan" | "long" => Notation::Long,
            "uci" => Notation::Uci,
            _ => return Err(UnknownNotation(name.to_owned())),
        })
    }

    /// The reading dialect of this notation.
    pub const fn dialect(self) -> Dialect {
        match self {
            Notation::San | Notation::Fide | Notation::Long | Notation::Figurine => {
                Dialect::English
            }
            Notation::Russian => Dialect::Russian,
            Notation::Uci => Dialect::Uci,
        }
    }

    /// Writes `m`, a legal move in `pos`.
    ///
    /// ```
    /// use arbiter_chess::Position;
    /// use arbiter_pgn::Notation;
    /// let pos = Position::standard();
    /// let m = pos.parse_san("Nf3")?;
    /// assert_eq!(Notation::Russian.write(&pos, m), "Кf3");
    /// assert_eq!(Notation::Figurine.write(&pos, m), "♘f3");
    /// assert_eq!(Notation::Long.write(&pos, m), "Ng1-f3");
    /// assert_eq!(Notation::Uci.write(&pos, m), "g1f3");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn write(self, pos: &Position, m: Move) -> String {
        let mut s = String::with_capacity(8);
        // Writing to a String cannot fail.
        let _ = self.write_to(pos, m, &mut s);
        s
    }

    /// Writes `m`, a legal move in `pos`, to `out`.
    pub fn write_to<W: fmt::Write>(self, pos: &Position, m: Move, out: &mut W) -> fmt::Result {
        let style = match self {
            Notation::Uci => return write!(out, "{}", UciMove::from_move(pos, m)),
            Notation::Long => return write_long(pos, m, out),
            Notation::San => &SAN_STYLE,
            Notation::Fide => &FIDE_STYLE,
            Notation::Russian => &RUSSIAN_STYLE,
            Notation::Figurine => &FIGURINE_STYLE,
        };
        let sp = SanPlus::from_move(pos, m);
        style.write(&sp, pos.is_en_passant(m), out)
    }

    /// Reads a move written in this notation (leniently, see [`Dialect`]).
    ///
    /// ```
    /// use arbiter_chess::Position;
    /// use arbiter_pgn::Notation;
    /// let pos = Position::standard();
    /// assert_eq!(Notation::Russian.read(&pos, "Кf3")?, pos.parse_san("Nf3")?);
    /// assert_eq!(Notation::Russian.read(&pos, "Kg1-f3")?, pos.parse_san("Nf3")?);
    /// assert_eq!(Notation::Russian.read(&pos, "е4")?, pos.parse_san("e4")?);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn read(self, pos: &Position, text: &str) -> Result<Move, ReadMoveError> {
        read_move_bytes(self.dialect(), pos, text.as_bytes())
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Notation {
    type Err = UnknownNotation;
    fn from_str(s: &str) -> Result<Notation, UnknownNotation> {
        Notation::from_name(s)
    }
}

/// Reads a move in any notation (see [`Dialect::Auto`]).
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_pgn::read_move;
/// let pos = Position::standard();
/// let nf3 = pos.parse_san("Nf3")?;
/// for text in ["Nf3", "Кf3", "♘f3", "♞f3", "Ng1-f3", "Кg1—f3", "g1f3", "g1-f3"] {
///     assert_eq!(read_move(&pos, text)?, nf3, "{text}");
/// }
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn read_move(pos: &Position, text: &str) -> Result<Move, ReadMoveError> {
    read_move_bytes(Dialect::Auto, pos, text.as_bytes())
}

/// Strict SAN as PGN writes it (`Nf3`, `exd5`, `e8=Q+`, `O-O`), resolved
/// without generating moves: `Some` only if it names exactly one legal move.
/// `None` means "not sure": ask [`read_move_bytes`], which reads every form
/// and words the error. Replaying PGN, try this first: it is the hot path.
#[inline]
pub fn read_strict_san(pos: &Position, bytes: &[u8]) -> Option<Move> {
    crate::fast_san::resolve(pos, bytes)
}

/// [`read_strict_san`] with the role of the piece that moves (the king for
/// castling), to play it with [`Position::play_unchecked_by`] without
/// looking the piece up again.
///
/// ```
/// use arbiter_chess::{Position, Role};
/// use arbiter_pgn::read_strict_san_by;
/// let mut pos = Position::standard();
/// let (m, role) = read_strict_san_by(&pos, b"Nf3").expect("legal");
/// assert_eq!(role, Role::Knight);
/// pos.play_unchecked_by(m, role);
/// assert_eq!(read_strict_san_by(&pos, b"O-O"), None); // not legal yet
/// ```
#[inline]
pub fn read_strict_san_by(pos: &Position, bytes: &[u8]) -> Option<(Move, Role)> {
    crate::fast_san::resolve_by(pos, bytes)
}

/// Reads a move given as bytes (UTF-8) in `dialect`: the PGN reader's entry
/// point. Allocates nothing unless the move is wrong.
#[inline]
pub fn read_move_bytes(
    dialect: Dialect,
    pos: &Position,
    bytes: &[u8],
) -> Result<Move, ReadMoveError> {
    // The hot path: strict SAN (in Russian text only moves without a letter).
    if dialect == Dialect::Auto
        || dialect == Dialect::English
        || (dialect == Dialect::Russian && bytes.first().is_some_and(u8::is_ascii_lowercase))
    {
        if let Some(m) = crate::fast_san::resolve(pos, bytes) {
            return Ok(m);
        }
    }
    read_move_general(dialect, pos, bytes)
}

#[inline(never)]
fn read_move_general(
    dialect: Dialect,
    pos: &Position,
    bytes: &[u8],
) -> Result<Move, ReadMoveError> {
    if dialect == Dialect::Uci {
        return read_uci(pos, bytes);
    }
    let fast = bytes.is_ascii() && dialect != Dialect::Russian;
    let norm = if fast {
        None
    } else {
        Some(normalise(dialect, bytes)?)
    };
    let ascii: &[u8] = match &norm {
        Some(n) => n.as_bytes(),
        None => bytes,
    };
    // ASCII by construction.
    let text = std::str::from_utf8(ascii).unwrap_or("");
    match SanPlus::parse(text) {
        Ok(sp) => match sp.san.to_move(pos) {
            Ok(m) => Ok(m),
            Err(e) => {
                if let Some(m) = coordinates(pos, ascii) {
                    return Ok(m);
                }
                if let Some(e) = promotion_missing(pos, bytes, ascii, Some(sp.san)) {
                    return Err(e);
                }
                Err(from_san_error(bytes, e))
            }
        },
        Err(e) => {
            if let Some(m) = coordinates(pos, ascii) {
                return Ok(m);
            }
            if let Some(e) = promotion_missing(pos, bytes, ascii, None) {
                return Err(e);
            }
            let column = match &norm {
                Some(n) => n.origin_column(e.column),
                None => e.column,
            };
            Err(ReadMoveError::Syntax {
                text: lossy(bytes),
                column,
                message: e.message,
            })
        }
    }
}

/// [`ReadMoveError::PromotionMissing`] if the text (as SAN `san`, or in
/// coordinates) names a pawn move to the last rank without a piece, and that
/// move is legal with one.
fn promotion_missing(
    pos: &Position,
    bytes: &[u8],
    ascii: &[u8],
    san: Option<San>,
) -> Option<ReadMoveError> {
    let queen = match san {
        Some(San::Normal {
            role: Role::Pawn,
            file,
            rank,
            capture,
            to,
            promotion: None,
        }) => San::Normal {
            role: Role::Pawn,
            file,
            rank,
            capture,
            to,
            promotion: Some(Role::Queen),
        }
        .to_move(pos)
        .ok(),
        Some(_) => None,
        None => {
            // `e7e8`, `e7-e8`: coordinates without the piece.
            let mut with_queen = ascii.to_vec();
            with_queen.push(b'q');
            coordinates(pos, &with_queen)
        }
    }?;
    (queen.promotion.is_some() && pos.board().role_at(queen.from) == Some(Role::Pawn)).then(|| {
        ReadMoveError::PromotionMissing {
            text: lossy(bytes),
            from: queen.from,
            to: queen.to,
        }
    })
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn from_san_error(bytes: &[u8], e: SanError) -> ReadMoveError {
    match e {
        SanError::Illegal { reason, .. } => ReadMoveError::Illegal {
            text: lossy(bytes),
            reason,
        },
        SanError::Ambiguous { candidates, .. } => ReadMoveError::Ambiguous {
            text: lossy(bytes),
            candidates,
        },
    }
}

/// UCI or coordinate notation: `e2e4`, `e2-e4`, `g1xf3`, `e7e8q`, `e7-e8=Q`,
/// `e1g1`, `e1h1`, with optional marks at the end. `None` if not of that shape
/// or not legal.
fn coordinates(pos: &Position, s: &[u8]) -> Option<Move> {
    let mut end = s.len();
    while end > 0 && matches!(s[end - 1], b'+' | b'#' | b'!' | b'?') {
        end -= 1;
    }
    let s = &s[..end];
    if s.len() < 4 {
        return None;
    }
    let from = Square::from_ascii(s.get(0..2)?)?;
    let mut i = 2;
    if matches!(s[i], b'-' | b'x' | b'X' | b':') {
        i += 1;
    }
    let to = Square::from_ascii(s.get(i..i + 2)?)?;
    i += 2;
    if s.get(i) == Some(&b'=') {
        i += 1;
    }
    let promotion = match s.get(i) {
        None => None,
        Some(&c) => {
            i += 1;
            match c.to_ascii_lowercase() {
                b'q' => Some(Role::Queen),
                b'r' => Some(Role::Rook),
                b'b' => Some(Role::Bishop),
                b'n' => Some(Role::Knight),
                _ => return None,
            }
        }
    };
    if i != s.len() || from == to {
        return None;
    }
    UciMove::Normal {
        from,
        to,
        promotion,
    }
    .to_move(pos)
    .ok()
}

fn read_uci(pos: &Position, bytes: &[u8]) -> Result<Move, ReadMoveError> {
    let text = std::str::from_utf8(bytes).map_err(|e| ReadMoveError::Syntax {
        text: lossy(bytes),
        column: e.valid_up_to() + 1,
        message: "not UTF-8",
    })?;
    let uci = UciMove::parse(text).map_err(|e| ReadMoveError::Syntax {
        text: text.to_owned(),
        column: e.column,
        message: e.message,
    })?;
    uci.to_move(pos).map_err(|_| ReadMoveError::Illegal {
        text: text.to_owned(),
        reason: "no legal move goes from that square to that square",
    })
}

// ----- normalising ----------------------------------------------------------

/// The longest move text read (anything longer is not a move).
const MAX_MOVE: usize = 32;

/// A move rewritten to ASCII English, with where each byte came from.
struct Normalised {
    buf: [u8; MAX_MOVE],
    /// 0-based character index in the original text of each output byte.
    origin: [u8; MAX_MOVE],
    len: usize,
}

impl Normalised {
    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    fn push(&mut self, b: u8, origin: usize) -> bool {
        if self.len == MAX_MOVE {
            return false;
        }
        self.buf[self.len] = b;
        self.origin[self.len] = origin.min(255) as u8;
        self.len += 1;
        true
    }

    /// The original 1-based column of a 1-based column in the output.
    fn origin_column(&self, column: usize) -> usize {
        if self.len == 0 {
            return 1;
        }
        match column.checked_sub(1) {
            Some(i) if i < self.len => self.origin[i] as usize + 1,
            _ => self.origin[self.len - 1] as usize + 2,
        }
    }
}

/// The English letter of a piece symbol at `chars[i]` in `dialect`, and how
/// many characters it takes. `piece_place` tells whether a piece letter may
/// stand here (first character, or a promotion piece after the rank).
fn piece_symbol(dialect: Dialect, chars: &[char], i: usize) -> Option<(u8, usize)> {
    let c = chars[i];
    let next = chars.get(i + 1).copied();
    let letter = match c {
        '♔' | '♚' => b'K',
        '♕' | '♛' => b'Q',
        '♖' | '♜' => b'R',
        '♗' | '♝' => b'B',
        '♘' | '♞' => b'N',
        '♙' | '♟' => b'P',
        // Russian letters (Cyrillic).
        'К' if matches!(dialect, Dialect::Russian | Dialect::Auto) => {
            if matches!(next, Some('р' | 'p' | 'Р' | 'P')) {
                return Some((b'K', 2));
            }
            b'N'
        }
        // Lowercase, as players write by hand (`кf3`, `к:е5`, `крg1`,
        // `фd1`, `лe1`). Not `с`: lowercase it is the look-alike of the
        // file c (`с4`), so the bishop is `С`.
        'к' if matches!(dialect, Dialect::Russian | Dialect::Auto) => {
            if matches!(next, Some('р' | 'p')) {
                return Some((b'K', 2));
            }
            b'N'
        }
        'ф' if matches!(dialect, Dialect::Russian | Dialect::Auto) => b'Q',
        'л' if matches!(dialect, Dialect::Russian | Dialect::Auto) => b'R',
        'Ф' if dialect != Dialect::English => b'Q',
        'Л' if dialect != Dialect::English => b'R',
        'С' if dialect != Dialect::English => b'B',
        'п' | 'П' if dialect != Dialect::English => b'P',
        // `Kр`: a Latin K before a Cyrillic р, as Russian text typed on two
        // keyboards writes Кр (the king; the Russian Laws' own list of
        // pieces spells it so). The king in English as in Russian.
        'K' if dialect == Dialect::Auto && next == Some('р') => return Some((b'K', 2)),
        // Latin look-alikes in Russian text.
        'K' if dialect == Dialect::Russian => {
            if matches!(next, Some('р' | 'p')) {
                return Some((b'K', 2));
            }
            b'N'
        }
        'C' if dialect == Dialect::Russian => b'B',
        // Cyrillic look-alikes in English text.
        'К' => b'K',
        'В' => b'B',
        'Р' if dialect == Dialect::English => b'P',
        'K' | 'Q' | 'R' | 'B' | 'N' | 'P' => c as u8,
        _ => return None,
    };
    Some((letter, 1))
}

/// Rewrites a move in any dialect as ASCII English SAN or long algebraic.
fn normalise(dialect: Dialect, bytes: &[u8]) -> Result<Normalised, ReadMoveError> {
    let syntax = |column: usize, message: &'static str| ReadMoveError::Syntax {
        text: lossy(bytes),
        column,
        message,
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let column = String::from_utf8_lossy(&bytes[..e.valid_up_to()])
            .chars()
            .count()
            + 1;
        syntax(column, "not UTF-8 text")
    })?;
    let mut chars = [' '; MAX_MOVE + 1];
    let mut n = 0;
    for c in text.chars() {
        if n > MAX_MOVE {
            return Err(syntax(n + 1, "too long for a move"));
        }
        chars[n] = c;
        n += 1;
    }
    let chars = &chars[..n];
    // A capture sign at the very end (before marks) is a mate sign in some
    // Russian texts ("Фh5×").
    let mut last = n;
    while last > 0 && matches!(chars[last - 1], '+' | '#' | '!' | '?') {
        last -= 1;
    }
    let trailing_mate = last > 1 && matches!(chars[last - 1], '×' | 'Х' | 'х' | 'X');
    let mut out = Normalised {
        buf: [0; MAX_MOVE],
        origin: [0; MAX_MOVE],
        len: 0,
    };
    let mut i = 0;
    while i < n {
        let c = chars[i];
        if trailing_mate && i == last - 1 {
            if !(out.push(b'#', i)) {
                return Err(syntax(i + 1, "too long for a move"));
            }
            i += 1;
            continue;
        }
        let prev = if out.len > 0 { out.buf[out.len - 1] } else { 0 };
        let piece_place =
            out.len == 0 || prev.is_ascii_digit() || matches!(prev, b'=' | b'/' | b'(');
        if piece_place {
            if let Some((letter, width)) = piece_symbol(dialect, chars, i) {
                if !out.push(letter, i) {
                    return Err(syntax(i + 1, "too long for a move"));
                }
                i += width;
                continue;
            }
        }
        let b = match c {
            'a'..='h'
            | '1'..='8'
            | '0'
            | '+'
            | '#'
            | '!'
            | '?'
            | '='
            | '/'
            | '('
            | ')'
            | '.'
            | ' '
            | 'p'
            | 'O'
            | 'o' => c as u8,
            'x' | 'X' | 'х' | 'Х' | '×' | ':' => b'x',
            // Any dash: hyphen, non-breaking hyphen (`O‑O` from word
            // processors), figure dash, en and em dash, minus.
            '-' | '‐' | '‑' | '‒' | '–' | '—' | '―' | '−' | '﹣' | '－' => b'-',
            'О' | 'о' => b'O',
            'а' => b'a',
            'с' => b'c',
            'е' => b'e',
            'һ' => b'h',
            'р' | 'п' => b'p',
            'K' | 'Q' | 'R' | 'B' | 'N' | 'P' | 'q' | 'r' | 'n' => c as u8,
            '\u{a0}' => b' ',
            _ => {
                return Err(syntax(
                    i + 1,
                    "unexpected character; expected a piece, a square, x, =, + or #",
                ))
            }
        };
        if !out.push(b, i) {
            return Err(syntax(i + 1, "too long for a move"));
        }
        i += 1;
    }
    Ok(out)
}

// ----- writing ----------------------------------------------------------------

/// How a short-algebraic notation renders a [`SanPlus`].
struct Style {
    /// Piece symbols by role index (pawn first, empty).
    pieces: [&'static str; 6],
    /// Castling with digit zero (`0-0`) rather than letter O.
    zero_castling: bool,
    /// `=` before the promotion piece.
    promotion_eq: bool,
    /// Append ` e.p.` to en-passant captures.
    en_passant: bool,
    /// The mate sign.
    mate: &'static str,
}

const SAN_STYLE: Style = Style {
    pieces: ["", "N", "B", "R", "Q", "K"],
    zero_castling: false,
    promotion_eq: true,
    en_passant: false,
    mate: "#",
};

const FIDE_STYLE: Style = Style {
    pieces: ["", "N", "B", "R", "Q", "K"],
    zero_castling: true,
    promotion_eq: false,
    en_passant: true,
    mate: "++",
};

const RUSSIAN_STYLE: Style = Style {
    pieces: ["", "К", "С", "Л", "Ф", "Кр"],
    zero_castling: true,
    promotion_eq: false,
    en_passant: false,
    mate: "#",
};

const FIGURINE_STYLE: Style = Style {
    pieces: ["", "♘", "♗", "♖", "♕", "♔"],
    zero_castling: false,
    promotion_eq: true,
    en_passant: false,
    mate: "#",
};

impl Style {
    fn write<W: fmt::Write>(&self, sp: &SanPlus, en_passant: bool, out: &mut W) -> fmt::Result {
        match sp.san {
            San::Null => out.write_str("--")?,
            San::Castle(side) => out.write_str(if self.zero_castling {
                side.fide()
            } else {
                side.san()
            })?,
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                out.write_str(self.pieces[role.index()])?;
                if let Some(f) = file {
                    out.write_char(f.char())?;
                }
                if let Some(r) = rank {
                    out.write_char(r.char())?;
                }
                if capture {
                    out.write_char('x')?;
                }
                write!(out, "{to}")?;
                if let Some(p) = promotion {
                    if self.promotion_eq {
                        out.write_char('=')?;
                    }
                    out.write_str(self.pieces[p.index()])?;
                }
            }
        }
        match sp.suffix {
            Some(Suffix::Check) => out.write_char('+')?,
            Some(Suffix::Checkmate) => out.write_str(self.mate)?,
            None => {}
        }
        if self.en_passant && en_passant {
            out.write_str(" e.p.")?;
        }
        Ok(())
    }
}

fn suffix_after(pos: &Position, m: Move) -> Option<Suffix> {
    let mut after = *pos;
    after.play_unchecked(m);
    if !after.is_check() {
        None
    } else if after.has_legal_moves() {
        Some(Suffix::Check)
    } else {
        Some(Suffix::Checkmate)
    }
}

fn write_long<W: fmt::Write>(pos: &Position, m: Move, out: &mut W) -> fmt::Result {
    if let Some(side) = pos.castling_side(m) {
        out.write_str(match side {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        })?;
    } else {
        let role = pos.role_at(m.from).unwrap_or(Role::Pawn);
        out.write_str(SAN_STYLE.pieces[role.index()])?;
        let sep = if pos.is_capture(m) { 'x' } else { '-' };
        write!(out, "{}{sep}{}", m.from, m.to)?;
        if let Some(p) = m.promotion {
            write!(out, "={}", p.upper_char())?;
        }
    }
    match suffix_after(pos, m) {
        Some(Suffix::Check) => out.write_char('+'),
        Some(Suffix::Checkmate) => out.write_char('#'),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen_auto(fen).unwrap()
    }

    #[test]
    fn writes_every_notation() {
        // Appendix C sample game positions: a capture, castling, en passant,
        // promotion with check.
        let p = pos("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        let cases: [(&str, [&str; 6]); 4] = [
            ("e1g1", ["O-O", "0-0", "0-0", "O-O", "O-O", "e1g1"]),
            (
                "e5d6",
                ["exd6", "exd6 e.p.", "exd6", "exd6", "e5xd6", "e5d6"],
            ),
            (
                "b7a8q",
                [
                    "bxa8=Q+",
                    "bxa8Q+",
                    "bxa8Ф+",
                    "bxa8=♕+",
                    "b7xa8=Q+",
                    "b7a8q",
                ],
            ),
            ("e1d2", ["Kd2", "Kd2", "Крd2", "♔d2", "Ke1-d2", "e1d2"]),
        ];
        for (uci, texts) in cases {
            let m = p.parse_uci(uci).unwrap();
            for (notation, text) in Notation::ALL.into_iter().zip(texts) {
                assert_eq!(notation.write(&p, m), text, "{notation} {uci}");
                assert_eq!(notation.read(&p, text), Ok(m), "{notation} {text}");
                assert_eq!(read_move(&p, text), Ok(m), "auto {text}");
            }
        }
    }

    #[test]
    fn fide_mate_is_double_plus() {
        let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let m = p.parse_san("Ra8").unwrap();
        assert_eq!(Notation::Fide.write(&p, m), "Ra8++");
        assert_eq!(Notation::San.write(&p, m), "Ra8#");
        assert_eq!(Notation::Fide.read(&p, "Ra8++"), Ok(m));
    }

    #[test]
    fn russian_reading_tolerates_lookalikes() {
        let p = Position::standard();
        let nf3 = p.parse_san("Nf3").unwrap();
        let e4 = p.parse_san("e4").unwrap();
        for t in ["Кf3", "Kf3", "Кg1-f3", "Кg1—f3", "Kg1–f3"] {
            assert_eq!(Notation::Russian.read(&p, t), Ok(nf3), "{t}");
        }
        for t in ["е4", "e4", "пe4", "пе2-е4", "e2—e4", "е2-е4"] {
            assert_eq!(Notation::Russian.read(&p, t), Ok(e4), "{t}");
        }
        // King: two letters, tokenised greedily; Latin look-alikes too.
        let p = pos("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
        let ke2 = p.parse_san("Ke2").unwrap();
        let ne2 = p.parse_san("Ne2").unwrap();
        for t in ["Крe2", "Kрe2", "Kpe2", "Крe1-e2", "Кре2"] {
            assert_eq!(Notation::Russian.read(&p, t), Ok(ke2), "{t}");
        }
        for t in ["Кe2", "Ke2", "Кg1e2", "Кg1:e2"] {
            assert_eq!(Notation::Russian.read(&p, t), Ok(ne2), "{t}");
        }
        // In English text a Cyrillic К is a look-alike of K.
        assert_eq!(Notation::San.read(&p, "Кe2"), Ok(ke2));
    }

    /// Appendix C.3 (Russian: Кр, the king): `Kр`, Latin K and Cyrillic р
    /// as the Russian Laws' own list of pieces types it ("п Ф Kр С К Л"),
    /// is the king in any notation read by default; it was refused.
    #[test]
    fn a_latin_k_before_a_cyrillic_r_is_the_king_by_default() {
        let p = pos("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
        let ke2 = p.parse_san("Ke2").unwrap();
        for t in ["Kрe2", "Kрe1-e2"] {
            assert_eq!(
                read_move_bytes(Dialect::Auto, &p, t.as_bytes()),
                Ok(ke2),
                "{t}"
            );
        }
    }

    #[test]
    fn captures_and_marks_every_way() {
        // The Russian translation of the Laws writes "Вхе5" with Cyrillic В, х, е.
        let p = pos("4k3/8/8/4p3/8/2B5/8/4K3 w - - 0 1");
        let bxe5 = p.parse_san("Bxe5").unwrap();
        for t in [
            "Bxe5", "Вхе5", "Bxе5", "B:e5", "B×e5", "Сxe5", "С:е5", "♗xe5", "♝e5", "Bc3xe5",
        ] {
            assert_eq!(read_move(&p, t), Ok(bxe5), "{t}");
        }
        assert_eq!(Notation::Russian.read(&p, "Cxe5"), Ok(bxe5));
        assert_eq!(Notation::Russian.read(&p, "С:е5!?"), Ok(bxe5));
        // Mate written with a trailing ×.
        let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let m = p.parse_san("Ra8").unwrap();
        assert_eq!(Notation::Russian.read(&p, "Лa8×"), Ok(m));
        assert_eq!(read_move(&p, "Ла8#"), Ok(m));
    }

    #[test]
    fn castling_every_way() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let short = p.parse_san("O-O").unwrap();
        let long = p.parse_san("O-O-O").unwrap();
        for t in ["O-O", "0-0", "О-О", "0—0", "o-o", "e1g1", "e1h1"] {
            assert_eq!(read_move(&p, t), Ok(short), "{t}");
        }
        for t in ["O-O-O", "0-0-0", "О-О-О", "0–0–0", "e1c1", "e1a1"] {
            assert_eq!(read_move(&p, t), Ok(long), "{t}");
        }
    }

    #[test]
    fn chess960_castling_in_uci_is_king_takes_rook() {
        let p = pos("4k3/8/8/8/8/8/8/RK5R w HA - 0 1");
        let short = p.parse_san("O-O").unwrap();
        assert_eq!(Notation::Uci.write(&p, short), "b1h1");
        assert_eq!(Notation::Long.write(&p, short), "O-O");
        assert_eq!(Notation::Uci.read(&p, "b1h1"), Ok(short));
    }

    #[test]
    fn promotion_every_piece_every_notation() {
        let p = pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        for role in Role::PROMOTIONS {
            let m = Move::promote(Square::B7, Square::B8, role);
            for n in Notation::ALL {
                let text = n.write(&p, m);
                assert_eq!(n.read(&p, &text), Ok(m), "{n} {text}");
                assert_eq!(read_move(&p, &text), Ok(m), "auto {n} {text}");
            }
        }
        let q = Move::promote(Square::B7, Square::B8, Role::Queen);
        for t in ["b8Ф", "b8=Ф", "b8(Ф)", "b8/Ф", "b7-b8Ф"] {
            assert_eq!(Notation::Russian.read(&p, t), Ok(q), "{t}");
        }
        let n = Move::promote(Square::B7, Square::B8, Role::Knight);
        assert_eq!(Notation::Russian.read(&p, "b8К"), Ok(n));
        assert_eq!(Notation::Russian.read(&p, "b8K"), Ok(n));
        assert!(matches!(
            read_move(&p, "b8"),
            Err(ReadMoveError::PromotionMissing {
                from: Square::B7,
                to: Square::B8,
                ..
            })
        ));
    }

    #[test]
    fn errors_say_what_and_where() {
        let p = Position::standard();
        match read_move(&p, "Кz3") {
            Err(ReadMoveError::Syntax { column, text, .. }) => {
                assert_eq!(text, "Кz3");
                assert_eq!(column, 2);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            read_move(&p, "Фd4"),
            Err(ReadMoveError::Illegal { .. })
        ));
        assert!(matches!(
            read_move(&p, "Ж4"),
            Err(ReadMoveError::Syntax { column: 1, .. })
        ));
        assert!(matches!(
            Notation::Uci.read(&p, "e2e5"),
            Err(ReadMoveError::Illegal { .. })
        ));
        assert!(read_move_bytes(Dialect::Auto, &p, &[0xff, b'4']).is_err());
        let long = "a".repeat(100);
        assert!(read_move(&p, &long).is_err());
        let p = pos("7k/8/8/8/8/2N1N3/8/K7 w - - 0 1");
        assert!(matches!(
            Notation::Russian.read(&p, "Кd5"),
            Err(ReadMoveError::Ambiguous { .. })
        ));
    }

    #[test]
    fn names() {
        for n in Notation::ALL {
            assert_eq!(Notation::from_name(n.name()), Ok(n));
        }
        assert_eq!("ru".parse::<Notation>(), Ok(Notation::Russian));
        assert!("klingon".parse::<Notation>().is_err());
    }
}
