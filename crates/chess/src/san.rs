//! Standard Algebraic Notation (FIDE Appendix C; PGN's SAN), read and written.
//!
//! Writing is strict PGN SAN: `Nbd7`, `exd5`, `e8=Q+`, `O-O#`. Reading is
//! lenient, as players write: `0-0` and `O-O`, `e8Q`, `e8=Q`, `e8/Q`, `e8(Q)`,
//! `exd6 e.p.`, missing or superfluous `x`, `:` and `×` for captures, `-`
//! between squares, `+`, `#`, `++`, annotation marks `!?`, over-disambiguation
//! (`Ng1f3`) and `Pe4`. Syntax errors ([`ParseSanError`]) are apart from
//! meaning errors ([`SanError::Illegal`], [`SanError::Ambiguous`]).

use crate::{Bitboard, CastlingSide, File, Move, Position, Rank, Role, Square};
use std::fmt;
use std::str::FromStr;

/// A move in SAN, not yet resolved against a position.
///
/// ```
/// use arbiter_chess::{Position, San, Square};
/// let san = San::parse("Nf3")?;
/// assert!(matches!(san, San::Normal { to: Square::F3, .. }));
/// let m = san.to_move(&Position::standard())?;
/// assert_eq!(m.from, Square::G1);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move.
    Normal {
        /// The moving role.
        role: Role,
        /// Departure file, if given.
        file: Option<File>,
        /// Departure rank, if given.
        rank: Option<Rank>,
        /// `true` if written as a capture.
        capture: bool,
        /// Arrival square.
        to: Square,
        /// Promotion piece, if given.
        promotion: Option<Role>,
    },
    /// Castling (`O-O` or `O-O-O`).
    Castle(CastlingSide),
    /// A null move (`--` or `Z0`), used in analysis only.
    Null,
}

/// The check or mate mark after a move.
///
/// ```
/// use arbiter_chess::{san::Suffix, SanPlus};
/// assert_eq!(SanPlus::parse("Qh4#")?.suffix, Some(Suffix::Checkmate));
/// assert_eq!(Suffix::Check.char(), '+');
/// # Ok::<_, arbiter_chess::san::ParseSanError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`.
    Check,
    /// `#` (FIDE also allows `++`, Appendix C.13).
    Checkmate,
}

impl Suffix {
    /// `+` or `#`.
    pub const fn char(self) -> char {
        match self {
            Suffix::Check => '+',
            Suffix::Checkmate => '#',
        }
    }
}

/// SAN with its check or mate mark.
///
/// ```
/// use arbiter_chess::{Position, SanPlus};
/// let mut pos = Position::standard();
/// let m = pos.parse_san("e4")?;
/// assert_eq!(SanPlus::from_move_and_play(&mut pos, m).to_string(), "e4");
/// assert_eq!(SanPlus::parse("exd8=Q+")?.to_string(), "exd8=Q+");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+` or `#`, if written.
    pub suffix: Option<Suffix>,
}

/// Text that is not SAN: where (1-based character column) and why.
///
/// ```
/// use arbiter_chess::San;
/// let err = San::parse("Nz3").unwrap_err();
/// assert!(err.column >= 2);
/// println!("{err}"); // invalid SAN "Nz3" at character …
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid SAN {} at character {column}: {message}", crate::Excerpt(.text))]
pub struct ParseSanError {
    /// The text given.
    pub text: String,
    /// 1-based character position of the problem.
    pub column: usize,
    /// What is wrong.
    pub message: &'static str,
}

/// SAN that is well formed but names no legal move, or more than one.
///
/// ```
/// use arbiter_chess::{Position, San, SanError};
/// let pos = Position::from_fen_auto("4k3/8/8/8/8/8/8/1N3N1K w - - 0 1")?;
/// // Both knights reach d2: Appendix C.10 asks for Nbd2 or Nfd2.
/// assert!(matches!(San::parse("Nd2")?.to_move(&pos), Err(SanError::Ambiguous { .. })));
/// assert!(matches!(San::parse("Qd2")?.to_move(&pos), Err(SanError::Illegal { .. })));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// No legal move matches.
    #[error("illegal move {san}: {reason}")]
    Illegal {
        /// The move as written (normalised).
        san: String,
        /// Why no move matches.
        reason: &'static str,
    },
    /// Several legal moves match (Appendix C.10 disambiguation missing).
    #[error("ambiguous move {san}: it could be any of {}", .candidates.join(", "))]
    Ambiguous {
        /// The move as written (normalised).
        san: String,
        /// The matching moves in strict SAN.
        candidates: Vec<String>,
    },
}

/// SAN that is unreadable, illegal or ambiguous.
///
/// ```
/// use arbiter_chess::{Position, ReadSanError};
/// let pos = Position::standard();
/// assert!(matches!(pos.parse_san("e9"), Err(ReadSanError::Parse(_))));
/// assert!(matches!(pos.parse_san("e5"), Err(ReadSanError::San(_))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadSanError {
    /// Not SAN syntax.
    #[error(transparent)]
    Parse(#[from] ParseSanError),
    /// Not one legal move.
    #[error(transparent)]
    San(#[from] SanError),
}

impl SanPlus {
    /// Parses SAN leniently (see the module documentation).
    pub fn parse(text: &str) -> Result<SanPlus, ParseSanError> {
        parse(text)
    }

    /// The strict SAN of `m` (legal in `pos`) with `+` or `#`.
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        let san = San::from_move(pos, m);
        let mut after = *pos;
        after.play_unchecked(m);
        SanPlus {
            san,
            suffix: suffix_after(&after),
        }
    }

    /// Like [`SanPlus::from_move`], also playing the move on `pos`.
    pub fn from_move_and_play(pos: &mut Position, m: Move) -> SanPlus {
        let san = San::from_move(pos, m);
        pos.play_unchecked(m);
        SanPlus {
            san,
            suffix: suffix_after(pos),
        }
    }
}

fn suffix_after(pos: &Position) -> Option<Suffix> {
    if !pos.is_check() {
        None
    } else if pos.has_legal_moves() {
        Some(Suffix::Check)
    } else {
        Some(Suffix::Checkmate)
    }
}

impl San {
    /// Parses SAN leniently, ignoring any check/mate mark.
    pub fn parse(text: &str) -> Result<San, ParseSanError> {
        Ok(parse(text)?.san)
    }

    /// The strict SAN of `m`, a legal move in `pos`.
    pub fn from_move(pos: &Position, m: Move) -> San {
        if let Some(side) = pos.castling_side(m) {
            return San::Castle(side);
        }
        let role = pos.role_at(m.from).unwrap_or(Role::Pawn);
        let capture = pos.is_capture(m);
        let (mut file, mut rank) = (None, None);
        if role == Role::Pawn {
            if capture {
                file = Some(m.from.file());
            }
        } else {
            let others = if role == Role::King {
                Bitboard::EMPTY
            } else {
                pos.legal_movers_to(role, m.to, !Bitboard::from(m.from))
            };
            if others.any() {
                if !others.intersects(Bitboard::file(m.from.file())) {
                    file = Some(m.from.file());
                } else if !others.intersects(Bitboard::rank(m.from.rank())) {
                    rank = Some(m.from.rank());
                } else {
                    file = Some(m.from.file());
                    rank = Some(m.from.rank());
                }
            }
        }
        San::Normal {
            role,
            file,
            rank,
            capture,
            to: m.to,
            promotion: m.promotion,
        }
    }

    /// The legal move this SAN names in `pos`.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        match *self {
            San::Null => Err(SanError::Illegal {
                san: self.to_string(),
                reason: "a null move is not a legal move",
            }),
            San::Castle(side) => {
                if pos.castling_rook(pos.turn(), side).is_none() {
                    return Err(SanError::Illegal {
                        san: self.to_string(),
                        reason: "no castling right on that side",
                    });
                }
                match pos.legal_castling(side) {
                    Some(m) => Ok(m),
                    None => Err(SanError::Illegal {
                        san: self.to_string(),
                        reason: "castling is not possible now (check, an attacked square or a piece in the way)",
                    }),
                }
            }
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                ..
            } => {
                let us = pos.turn();
                let mut from_mask = Bitboard::FULL;
                if let Some(f) = file {
                    from_mask &= Bitboard::file(f);
                } else if role == Role::Pawn {
                    // A pawn named by no file steps along its own: a capture
                    // names the file it leaves, `exd5` (Appendix C.9).
                    from_mask &= Bitboard::file(to.file());
                }
                if let Some(r) = rank {
                    from_mask &= Bitboard::rank(r);
                }
                let movers = pos.legal_movers_to(role, to, from_mask);
                if movers.is_empty()
                    && role == Role::Pawn
                    && file.is_none()
                    && !pos.legal_movers_to(role, to, Bitboard::FULL).is_empty()
                {
                    return Err(SanError::Illegal {
                        san: self.to_string(),
                        reason:
                            "a pawn that captures is written with the file it leaves (e.g. exd5)",
                    });
                }
                let is_promotion = role == Role::Pawn && to.rank() == Rank::EIGHTH.relative_to(us);
                let mv = |from| Move {
                    from,
                    to,
                    promotion: if is_promotion {
                        Some(promotion.unwrap_or(Role::Queen))
                    } else {
                        promotion
                    },
                };
                let (count, found) = (movers.count(), movers.first().map(mv));
                match (count, found) {
                    (0, _) | (_, None) => Err(SanError::Illegal {
                        san: self.to_string(),
                        reason: "no such piece can move there",
                    }),
                    (1, Some(m)) => {
                        if is_promotion && promotion.is_none() {
                            Err(SanError::Illegal {
                                san: self.to_string(),
                                reason: "a pawn reaching the last rank must be promoted: name the piece (e.g. e8=Q)",
                            })
                        } else if !is_promotion && promotion.is_some() {
                            Err(SanError::Illegal {
                                san: self.to_string(),
                                reason: "only a pawn reaching the last rank is promoted",
                            })
                        } else if matches!(promotion, Some(Role::King | Role::Pawn)) {
                            Err(SanError::Illegal {
                                san: self.to_string(),
                                reason: "a pawn is promoted to a queen, rook, bishop or knight",
                            })
                        } else {
                            Ok(m)
                        }
                    }
                    _ => Err(SanError::Ambiguous {
                        san: self.to_string(),
                        candidates: movers
                            .into_iter()
                            .map(|from| San::from_move(pos, mv(from)).to_string())
                            .collect(),
                    }),
                }
            }
        }
    }
}

impl Position {
    /// The strict SAN of `m` (legal here), with `+` or `#`.
    pub fn san(&self, m: Move) -> String {
        SanPlus::from_move(self, m).to_string()
    }

    /// Reads SAN leniently and resolves it to the legal move it names.
    ///
    /// ```
    /// use arbiter_chess::{Position, ReadSanError, SanError};
    /// let pos = Position::standard();
    /// let m = pos.parse_san("Nf3")?;
    /// assert_eq!(pos.san(m), "Nf3");
    /// assert!(matches!(pos.parse_san("Nd4"), Err(ReadSanError::San(SanError::Illegal { .. }))));
    /// # Ok::<_, ReadSanError>(())
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, ReadSanError> {
        Ok(San::parse(text)?.to_move(self)?)
    }
}

impl San {
    /// The SAN text into `buf`, returning its length; one `write_str` then
    /// prints it, a fraction of the cost of a `write!` per part. Any value
    /// fits: a role, a file, a rank, `x`, the square and `=Q` are 8 bytes,
    /// and a mark one more (`buf[8]`, left for the caller).
    ///
    /// ```
    /// use arbiter_chess::{Position, San, Square, Move};
    /// let mut buf = [0; 9];
    /// let san = San::from_move(&Position::standard(), Move::new(Square::G1, Square::F3));
    /// let n = san.write_bytes(&mut buf);
    /// assert_eq!(&buf[..n], b"Nf3");
    /// ```
    pub fn write_bytes(&self, buf: &mut [u8; 9]) -> usize {
        let mut n = 0;
        let mut push = |b: u8| {
            buf[n] = b;
            n += 1;
        };
        match *self {
            San::Null => {
                push(b'-');
                push(b'-');
            }
            San::Castle(side) => side.san().bytes().for_each(push),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                // Every char here is ASCII (piece letters, files, ranks).
                if role != Role::Pawn {
                    push(role.upper_char() as u8);
                }
                if let Some(file) = file {
                    push(file.char() as u8);
                }
                if let Some(rank) = rank {
                    push(rank.char() as u8);
                }
                if capture {
                    push(b'x');
                }
                push(to.file().char() as u8);
                push(to.rank().char() as u8);
                if let Some(p) = promotion {
                    push(b'=');
                    push(p.upper_char() as u8);
                }
            }
        }
        n
    }
}

/// The ASCII text of `buf[..n]` (what [`San::write_bytes`] wrote).
fn ascii(buf: &[u8]) -> &str {
    std::str::from_utf8(buf).unwrap_or("?")
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0; 9];
        let n = self.write_bytes(&mut buf);
        f.write_str(ascii(&buf[..n]))
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0; 9];
        let mut n = self.san.write_bytes(&mut buf);
        if let Some(s) = self.suffix {
            buf[n] = s.char() as u8;
            n += 1;
        }
        f.write_str(ascii(&buf[..n]))
    }
}

impl FromStr for San {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<San, ParseSanError> {
        San::parse(s)
    }
}

impl FromStr for SanPlus {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::parse(s)
    }
}

fn parse(text: &str) -> Result<SanPlus, ParseSanError> {
    let err = |byte_idx: usize, message| ParseSanError {
        text: text.to_owned(),
        column: text
            .char_indices()
            .take_while(|(i, _)| *i < byte_idx)
            .count()
            + 1,
        message,
    };
    let full = text.as_bytes();
    // Strip surrounding blanks.
    let start = full
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(full.len());
    let mut end = full
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |i| i + 1);
    if start >= end {
        return Err(err(0, "empty move"));
    }
    // Strip trailing annotations, check/mate marks and "e.p." in any order.
    let mut suffix = None;
    loop {
        let s = &full[start..end];
        if s.ends_with(b"!") || s.ends_with(b"?") {
            end -= 1;
        } else if s.ends_with(b"++") || s.ends_with(b"#") {
            suffix = Some(Suffix::Checkmate);
            end -= if s.ends_with(b"#") { 1 } else { 2 };
        } else if s.ends_with(b"+") {
            suffix.get_or_insert(Suffix::Check);
            end -= 1;
        } else if s.ends_with(b"e.p.") {
            end -= 4;
        } else if s.len() > 4 && s.ends_with(b"ep") {
            end -= 2;
        } else if s.ends_with(" е.р.".as_bytes()) || s.ends_with("е.р.".as_bytes()) {
            end -= "е.р.".len();
        } else if s.ends_with(b" ") {
            end -= 1;
        } else {
            break;
        }
        if end <= start {
            return Err(err(start, "no move before the check or annotation marks"));
        }
    }
    let s = &full[start..end];

    // Castling with letter O or digit zero.
    let castle = |s: &[u8]| -> Option<CastlingSide> {
        match s {
            b"O-O" | b"0-0" | b"o-o" => Some(CastlingSide::KingSide),
            b"O-O-O" | b"0-0-0" | b"o-o-o" => Some(CastlingSide::QueenSide),
            _ => None,
        }
    };
    if let Some(side) = castle(s) {
        return Ok(SanPlus {
            san: San::Castle(side),
            suffix,
        });
    }
    if s == b"--" || s == b"Z0" {
        return Ok(SanPlus {
            san: San::Null,
            suffix,
        });
    }

    let mut i = 0;
    let role = match s.first() {
        Some(b'K') => Role::King,
        Some(b'Q') => Role::Queen,
        Some(b'R') => Role::Rook,
        Some(b'B') => Role::Bishop,
        Some(b'N') => Role::Knight,
        Some(b'P') => Role::Pawn,
        _ => {
            i = 0;
            Role::Pawn
        }
    };
    if matches!(s.first(), Some(b'K' | b'Q' | b'R' | b'B' | b'N' | b'P')) {
        i = 1;
    }

    // Promotion at the end: `=Q`, `/Q`, `(Q)`, or a bare letter after the rank.
    let mut j = s.len();
    let mut promotion = None;
    if j > i + 2 {
        let last = s[j - 1];
        let (letter_at, close) = if last == b')' { (j - 2, 1) } else { (j - 1, 0) };
        let letter = s[letter_at];
        let promo = match letter {
            b'Q' | b'q' => Some(Role::Queen),
            b'R' | b'r' => Some(Role::Rook),
            b'B' | b'b' => Some(Role::Bishop),
            b'N' | b'n' => Some(Role::Knight),
            b'K' | b'k' => Some(Role::King),
            b'P' | b'p' => Some(Role::Pawn),
            _ => None,
        };
        if let Some(p) = promo {
            let mut k = letter_at;
            if close == 1 {
                if k == 0 || s[k - 1] != b'(' {
                    return Err(err(start + j - 1, "unbalanced parenthesis"));
                }
                k -= 1;
            } else if k > 0 && (s[k - 1] == b'=' || s[k - 1] == b'/') {
                k -= 1;
            }
            // Only a promotion if a rank digit precedes it.
            if k > i && s[k - 1].is_ascii_digit() {
                promotion = Some(p);
                j = k;
            }
        }
    }

    // Destination square.
    if j < i + 2 {
        return Err(err(start + j, "expected a destination square such as e4"));
    }
    let (f, r) = (s[j - 2], s[j - 1]);
    if !(b'1'..=b'8').contains(&r) {
        return Err(err(
            start + j - 1,
            "expected a rank 1-8 at the end of the move",
        ));
    }
    if !(b'a'..=b'h').contains(&f) {
        return Err(err(start + j - 2, "expected a file a-h before the rank"));
    }
    let to = Square::from_ascii(&[f, r]).ok_or_else(|| err(start + j - 2, "bad square"))?;
    j -= 2;

    // Capture mark (or the dash of long notation).
    let mut capture = false;
    if j > i {
        if s[j - 1] == b'x' || s[j - 1] == b'X' || s[j - 1] == b':' || s[j - 1] == b'-' {
            capture = s[j - 1] != b'-';
            j -= 1;
        } else if j >= i + 2 && &s[j - 2..j] == "×".as_bytes() {
            capture = true;
            j -= 2;
        } else if j >= i + 2 && &s[j - 2..j] == "х".as_bytes() {
            // Cyrillic "х" written for x.
            capture = true;
            j -= 2;
        } else if j >= i + 3 && &s[j - 3..j] == "—".as_bytes() {
            j -= 3;
        }
    }

    // Disambiguation: [file][rank].
    let (mut file, mut rank) = (None, None);
    let mut k = i;
    if k < j && (b'a'..=b'h').contains(&s[k]) {
        file = File::from_char(s[k] as char);
        k += 1;
    }
    if k < j && (b'1'..=b'8').contains(&s[k]) {
        rank = Rank::from_char(s[k] as char);
        k += 1;
    }
    if k != j {
        return Err(err(
            start + k,
            "unexpected character; expected a piece letter (K Q R B N), a square, x, = and a promotion piece",
        ));
    }
    Ok(SanPlus {
        san: San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        },
        suffix,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CastlingMode;

    fn pos(fen: &str) -> Position {
        Position::from_fen_auto(fen).unwrap()
    }

    #[test]
    fn lenient_reading() {
        let p = pos("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        for (text, uci) in [
            ("0-0", "e1g1"),
            ("O-O-O", "e1c1"),
            ("0-0-0+", "e1c1"),
            ("exd6 e.p.", "e5d6"),
            ("exd6ep", "e5d6"),
            ("ed6", "e5d6"),
            ("e5xd6", "e5d6"),
            ("Pe5d6", "e5d6"),
            ("bxa8Q", "b7a8q"),
            ("bxa8=Q+", "b7a8q"),
            ("bxa8(N)", "b7a8n"),
            ("b7b8=R", "b7b8r"),
            ("b8/B", "b7b8b"),
            ("Rxa8!?", "a1a8"),
            ("Ra1xa8", "a1a8"),
            ("Ra1-a7", "a1a7"),
            ("Ke1:d2", "e1d2"),
            ("Ke1×d2", "e1d2"),
            ("Kd2", "e1d2"),
            ("Kxd2", "e1d2"),
        ] {
            let m = p.parse_san(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(p.uci(m), uci, "{text}");
        }
    }

    #[test]
    fn strict_writing() {
        let p = pos("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        let cases = [
            ("e1g1", "O-O"),
            ("e5d6", "exd6"),
            ("b7a8q", "bxa8=Q+"),
            ("a1a8", "Rxa8+"),
        ];
        for (uci, san) in cases {
            let m = p.parse_uci(uci).unwrap();
            assert_eq!(p.san(m), san);
        }
    }

    #[test]
    fn disambiguation_file_then_rank_then_both() {
        // Appendix C.10 examples.
        let p = pos("7k/8/8/8/8/8/8/K3N1N1 w - - 0 1");
        let m = p.parse_uci("g1f3").unwrap();
        assert_eq!(p.san(m), "Ngf3");
        let p = pos("7k/8/8/6N1/8/8/8/K5N1 w - - 0 1");
        assert_eq!(p.san(p.parse_uci("g1f3").unwrap()), "N1f3");
        let p = pos("2k5/8/8/8/4Q2Q/8/8/K6Q w - - 0 1");
        assert_eq!(p.san(p.parse_uci("h4e1").unwrap()), "Qh4e1");
    }

    #[test]
    fn ambiguous_and_illegal_differ() {
        let p = pos("7k/8/8/8/8/2N1N3/8/K7 w - - 0 1");
        assert!(matches!(
            p.parse_san("Nd5"),
            Err(ReadSanError::San(SanError::Ambiguous { .. }))
        ));
        assert!(matches!(
            p.parse_san("Nd4"),
            Err(ReadSanError::San(SanError::Illegal { .. }))
        ));
        assert!(matches!(p.parse_san("Nz4"), Err(ReadSanError::Parse(_))));
        let p = pos("7k/P7/8/8/8/8/8/K7 w - - 0 1");
        assert!(matches!(
            p.parse_san("a8"),
            Err(ReadSanError::San(SanError::Illegal { .. }))
        ));
    }

    #[test]
    fn chess960_castling_san() {
        // Appendix F: final squares as in standard chess, whatever the start.
        let p = pos("4k3/8/8/8/8/8/8/RK5R w HA - 0 1");
        assert_eq!(p.castling_mode(), CastlingMode::Chess960);
        let short = p.parse_san("O-O").unwrap();
        assert_eq!(short, Move::new(Square::B1, Square::H1));
        assert_eq!(p.san(short), "O-O");
        let mut after = p;
        after.play_unchecked(short);
        assert_eq!(after.fen(), "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1");
        let long = p.parse_san("0-0-0").unwrap();
        let mut after = p;
        after.play_unchecked(long);
        assert_eq!(after.fen(), "4k3/8/8/8/8/8/8/2KR3R b - - 1 1");
        assert_eq!(p.uci(long), "b1a1");
    }

    #[test]
    fn parse_errors_point_at_the_problem() {
        let e = SanPlus::parse("Nf9").unwrap_err();
        assert_eq!(e.column, 3);
        let e = SanPlus::parse("").unwrap_err();
        assert_eq!(e.column, 1);
        let e = SanPlus::parse("Qzf3").unwrap_err();
        assert_eq!(e.column, 2);
    }
}
