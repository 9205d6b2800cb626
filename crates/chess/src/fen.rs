//! Forsyth–Edwards Notation: standard FEN, X-FEN and Shredder-FEN, read and written.
//!
//! Reading accepts all three castling notations (`KQkq`, X-FEN's file letters for
//! an inner rook, Shredder's `HAha`) and EPD-style input with only four fields.

use crate::{
    Bitboard, Board, CastlingMode, CastlingSide, Color, File, Piece, Position, PositionError, Rank,
    Setup, Square,
};
use std::fmt;

/// The six fields of a FEN record.
///
/// ```
/// use arbiter_chess::{fen::FenField, Setup};
/// let err = Setup::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1").unwrap_err();
/// assert_eq!(err.field, FenField::Turn);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FenField {
    /// Piece placement, rank 8 first.
    Placement,
    /// Side to move, `w` or `b`.
    Turn,
    /// Castling rights.
    Castling,
    /// En-passant target square.
    EnPassant,
    /// Half-move clock.
    Halfmoves,
    /// Full-move number.
    Fullmoves,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Placement => "piece placement",
            FenField::Turn => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en-passant square",
            FenField::Halfmoves => "half-move clock",
            FenField::Fullmoves => "move number",
        })
    }
}

/// The largest move number (the sixth field) a FEN may give, and the
/// largest a [`crate::Position`] counts to: far beyond any game (the
/// 75-move rule, FIDE 2014 Art. 9.6 b, ends every game within about 9,000
/// moves; a PGN game holds at most 100,000 moves), and far below where a
/// `u32` counter, or a ply computed from it, could overflow. A position
/// played on from it keeps this number, so every FEN Arbiter writes is one
/// it reads (a game from a FEN at move 100,000 ended at 100,001, which was
/// refused when the bound was 100,000).
///
/// ```
/// use arbiter_chess::{fen::{FenField, MAX_FULLMOVES}, Setup};
/// let fen = |n: u32| format!("4k3/8/8/8/8/8/8/4K3 w - - 0 {n}");
/// assert_eq!(Setup::from_fen(&fen(MAX_FULLMOVES)).unwrap().fullmoves, MAX_FULLMOVES);
/// let err = Setup::from_fen(&fen(MAX_FULLMOVES + 1)).unwrap_err();
/// assert_eq!(err.field, FenField::Fullmoves);
/// ```
pub const MAX_FULLMOVES: u32 = 1_000_000_000;

/// A FEN that cannot be read: which field, at which column (1-based, in
/// characters), and why.
///
/// ```
/// use arbiter_chess::{fen::FenField, Setup};
/// let err = Setup::from_fen("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_err();
/// assert_eq!(err.field, FenField::Placement);
/// assert!(err.column > 0);
/// println!("{err}"); // invalid FEN, piece placement at column …: …
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN, {field} at column {column}: {message}")]
pub struct ParseFenError {
    /// The field at fault.
    pub field: FenField,
    /// 1-based character column in the FEN text.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// A FEN that is either unreadable or describes an illegal position.
///
/// ```
/// use arbiter_chess::{FenError, Position, PositionError, Color};
/// // Readable FEN, but White has no king: not a position (Art. 2.2).
/// let err = Position::from_fen_auto("4k3/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
/// assert!(matches!(err, FenError::Position(PositionError::MissingKing(Color::White))));
/// assert!(matches!(Position::from_fen_auto("no fen"), Err(FenError::Parse(_))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not FEN.
    #[error(transparent)]
    Parse(#[from] ParseFenError),
    /// The text is FEN, but the position is not legal. The cause is part of
    /// the message, not a separate error source, so that an error chain
    /// (`anyhow`'s `{:#}`) prints it once.
    #[error("illegal position: {0}")]
    Position(PositionError),
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// Which en-passant square to write.
///
/// ```
/// use arbiter_chess::{EnPassantMode, FenOptions, Position};
/// let mut pos = Position::standard();
/// pos.play(pos.parse_uci("e2e4")?)?;
/// // No black pawn can take on e3: the square is written only when asked for always.
/// assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// let always = FenOptions { en_passant: EnPassantMode::Always, ..FenOptions::default() };
/// assert!(pos.fen_with(always).contains(" e3 "));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum EnPassantMode {
    /// Only when an en-passant capture is legal (the default; matches Art. 9.2).
    #[default]
    Legal,
    /// When an opposing pawn stands beside the pawn that just moved two squares,
    /// legal or not.
    PseudoLegal,
    /// Whenever stored: after every double step, or as given in the FEN read.
    Always,
}

/// How to write castling rights.
///
/// ```
/// use arbiter_chess::{fen::CastlingNotation, FenOptions, Position};
/// let opts = FenOptions { castling: CastlingNotation::Shredder, ..FenOptions::default() };
/// assert_eq!(Position::standard().fen_with(opts), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastlingNotation {
    /// `KQkq` in standard chess, X-FEN in Chess960 (the default).
    #[default]
    Auto,
    /// X-FEN: `K`/`Q` for the outermost rook on a side, the file letter otherwise.
    XFen,
    /// Shredder-FEN: always the rook's file letter (`HAha`).
    Shredder,
}

/// Options for writing FEN.
///
/// ```
/// use arbiter_chess::{FenOptions, Position};
/// let epd = FenOptions { epd: true, ..FenOptions::default() };
/// assert_eq!(Position::standard().fen_with(epd), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct FenOptions {
    /// Which en-passant square to write.
    pub en_passant: EnPassantMode,
    /// How to write castling rights.
    pub castling: CastlingNotation,
    /// Write only the first four fields (EPD style).
    pub epd: bool,
}

/// FEN of the standard initial position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

struct Fields<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Fields<'a> {
    /// Next whitespace-separated field with its 1-based character column.
    fn next(&mut self) -> Option<(&'a str, usize)> {
        let rest = &self.text[self.pos..];
        let start = rest.find(|c: char| !c.is_whitespace())?;
        let from = self.pos + start;
        let len = self.text[from..]
            .find(char::is_whitespace)
            .unwrap_or(self.text.len() - from);
        self.pos = from + len;
        let column = self.text[..from].chars().count() + 1;
        Some((&self.text[from..from + len], column))
    }
}

fn err<T>(field: FenField, column: usize, message: impl Into<String>) -> Result<T, ParseFenError> {
    Err(ParseFenError {
        field,
        column,
        message: message.into(),
    })
}

impl Setup {
    /// Reads FEN, X-FEN or Shredder-FEN into a setup without validating the
    /// position. Missing move counters (EPD style) default to 0 and 1.
    pub fn from_fen(fen: &str) -> Result<Setup, ParseFenError> {
        let mut fields = Fields { text: fen, pos: 0 };
        let Some((placement, col)) = fields.next() else {
            return err(FenField::Placement, 1, "empty FEN");
        };
        let board = parse_placement(placement, col)?;
        let end = fen.chars().count() + 1;
        let (turn_s, col) = fields.next().unwrap_or(("", end));
        let turn = match turn_s {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            "" => return err(FenField::Turn, col, "missing; expected w or b"),
            other => {
                return err(
                    FenField::Turn,
                    col,
                    format!("expected w or b, found {other:?}"),
                )
            }
        };
        let (castling_s, col) = fields.next().unwrap_or(("-", end));
        let castling_rights = parse_castling(&board, castling_s, col)?;
        let (ep_s, col) = fields.next().unwrap_or(("-", end));
        let ep_square = match ep_s {
            "-" => None,
            s => match s.parse::<Square>() {
                Ok(sq) => Some(sq),
                Err(_) => {
                    return err(
                        FenField::EnPassant,
                        col,
                        format!("expected - or a square such as e3, found {s:?}"),
                    )
                }
            },
        };
        let halfmoves = match fields.next() {
            None => 0,
            Some((s, col)) => parse_number(s, col, FenField::Halfmoves)?,
        };
        let fullmoves = match fields.next() {
            None => 1,
            // The move number starts at 1; a 0, as problem collections
            // write it (pychess's mate-in-n files), reads as 1, as
            // python-chess and Lichess read it.
            Some((s, col)) => match parse_number(s, col, FenField::Fullmoves)? {
                n if n > MAX_FULLMOVES => {
                    return err(
                        FenField::Fullmoves,
                        col,
                        format!("at most {MAX_FULLMOVES}, found {n}"),
                    )
                }
                n => n.max(1),
            },
        };
        if let Some((extra, col)) = fields.next() {
            return err(
                FenField::Fullmoves,
                col,
                format!("unexpected text after the move number: {extra:?}"),
            );
        }
        Ok(Setup {
            board,
            turn,
            castling_rights,
            ep_square,
            halfmoves,
            fullmoves,
        })
    }
}

fn parse_number(s: &str, col: usize, field: FenField) -> Result<u32, ParseFenError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return err(field, col, format!("expected a number, found {s:?}"));
    }
    s.parse::<u32>()
        .or_else(|_| err(field, col, format!("number too large: {s}")))
}

fn parse_placement(s: &str, col: usize) -> Result<Board, ParseFenError> {
    let mut board = Board::empty();
    let mut rank = 7i32;
    let mut file = 0u32;
    for (i, c) in s.chars().enumerate() {
        let column = col + i;
        match c {
            '/' => {
                if file != 8 {
                    return err(
                        FenField::Placement,
                        column,
                        format!("rank {} has {file} squares, expected 8", rank + 1),
                    );
                }
                rank -= 1;
                file = 0;
                if rank < 0 {
                    return err(FenField::Placement, column, "more than 8 ranks");
                }
            }
            '1'..='8' => {
                file += c as u32 - '0' as u32;
                if file > 8 {
                    return err(
                        FenField::Placement,
                        column,
                        format!("rank {} has more than 8 squares", rank + 1),
                    );
                }
            }
            _ => {
                let Some(piece) = Piece::from_char(c) else {
                    return err(
                        FenField::Placement,
                        column,
                        format!("unexpected character {c:?}; expected a piece letter (PNBRQK, pnbrqk), a digit 1-8 or /"),
                    );
                };
                if file >= 8 {
                    return err(
                        FenField::Placement,
                        column,
                        format!("rank {} has more than 8 squares", rank + 1),
                    );
                }
                board.set(
                    Square::from_coords(File::new(file), Rank::new(rank as u32)),
                    piece,
                );
                file += 1;
            }
        }
    }
    let end = col + s.chars().count();
    if rank != 0 {
        return err(
            FenField::Placement,
            end,
            format!("{} ranks given, expected 8", 8 - rank),
        );
    }
    if file != 8 {
        return err(
            FenField::Placement,
            end,
            format!("rank 1 has {file} squares, expected 8"),
        );
    }
    Ok(board)
}

fn parse_castling(board: &Board, s: &str, col: usize) -> Result<Bitboard, ParseFenError> {
    let mut rights = Bitboard::EMPTY;
    if s == "-" {
        return Ok(rights);
    }
    for (i, c) in s.chars().enumerate() {
        let column = col + i;
        let color = Color::from_white(c.is_ascii_uppercase());
        let backrank = Rank::FIRST.relative_to(color);
        let rooks = board.by_piece(crate::Role::Rook.of(color)) & Bitboard::rank(backrank);
        let king = board.king_of(color).filter(|k| k.rank() == backrank);
        let square = match c.to_ascii_lowercase() {
            'k' | 'q' => {
                let king_side = c.eq_ignore_ascii_case(&'k');
                // The outermost rook on that side of the king; without king
                // or rook, the corner, which validation then rejects by name
                // (or a lenient reader drops, as python-chess does).
                let outer = king.and_then(|king| {
                    let side_rooks = rooks
                        .into_iter()
                        .filter(|&r| king_side == (r.file() > king.file()));
                    if king_side {
                        side_rooks.max()
                    } else {
                        side_rooks.min()
                    }
                });
                outer.unwrap_or_else(|| {
                    Square::from_coords(if king_side { File::H } else { File::A }, backrank)
                })
            }
            f @ 'a'..='h' => Square::from_coords(File::from_char(f).unwrap_or(File::A), backrank),
            _ => {
                return err(
                    FenField::Castling,
                    column,
                    format!(
                        "unexpected character {c:?}; expected - or KQkq or rook files (A-H, a-h)"
                    ),
                )
            }
        };
        if rights.contains(square) {
            return err(FenField::Castling, column, format!("{c:?} repeats a right"));
        }
        rights.add(square);
    }
    Ok(rights)
}

impl CastlingMode {
    /// Standard if every castling right is with king on e1/e8 and a rook in a
    /// corner, Chess960 otherwise.
    pub fn detect(setup: &Setup) -> CastlingMode {
        let standard = setup.castling_rights.into_iter().all(|rook| {
            let color = Color::from_white(rook.rank() == Rank::FIRST);
            Bitboard::CORNERS.contains(rook)
                && setup.board.king_of(color).map(Square::file) == Some(File::E)
                && setup.board.king_of(color).map(Square::rank) == Some(rook.rank())
        });
        CastlingMode::from_chess960(!standard)
    }
}

impl Position {
    /// Reads a FEN (or X-FEN / Shredder-FEN) and validates the position.
    ///
    /// ```
    /// use arbiter_chess::{CastlingMode, Position};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", CastlingMode::Standard)?;
    /// assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    /// # Ok::<_, arbiter_chess::FenError>(())
    /// ```
    pub fn from_fen(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
        let setup = Setup::from_fen(fen)?;
        Ok(Position::from_setup(setup, mode)?)
    }

    /// Reads a FEN, choosing Chess960 mode when the castling rights need it.
    pub fn from_fen_auto(fen: &str) -> Result<Position, FenError> {
        let setup = Setup::from_fen(fen)?;
        let mode = CastlingMode::detect(&setup);
        Ok(Position::from_setup(setup, mode)?)
    }

    /// The FEN with default options (legal en passant only; `KQkq` or X-FEN).
    pub fn fen(&self) -> String {
        self.fen_with(FenOptions::default())
    }

    /// The EPD-style first four fields of the FEN (placement, turn, castling, e.p.).
    pub fn epd(&self) -> String {
        self.fen_with(FenOptions {
            epd: true,
            ..FenOptions::default()
        })
    }

    /// The FEN with the given options.
    pub fn fen_with(&self, opts: FenOptions) -> String {
        let mut out = String::with_capacity(90);
        self.write_fen(opts, &mut out);
        out
    }

    /// Appends the FEN with the given options to `out`: [`Position::fen_with`]
    /// without allocating, for writing many (the text is built on the stack).
    ///
    /// ```
    /// use arbiter_chess::{FenOptions, Position};
    /// let mut line = String::from("fen: ");
    /// Position::standard().write_fen(FenOptions::default(), &mut line);
    /// assert_eq!(line, "fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    /// ```
    pub fn write_fen(&self, opts: FenOptions, out: &mut String) {
        let mut buf = FenBuf::new();
        self.board.write_placement(&mut buf);
        buf.push(b' ');
        buf.push(self.turn.char() as u8);
        buf.push(b' ');
        self.write_castling(opts.castling, &mut buf);
        buf.push(b' ');
        let ep = match opts.en_passant {
            EnPassantMode::Legal => self.legal_ep_square(),
            EnPassantMode::Always => self.ep_square,
            EnPassantMode::PseudoLegal => self.ep_square.filter(|&ep| {
                (crate::attacks::pawn_attacks(!self.turn, ep)
                    & self.board.by_piece(crate::Role::Pawn.of(self.turn)))
                .any()
            }),
        };
        match ep {
            Some(sq) => {
                buf.push(sq.file().char() as u8);
                buf.push(sq.rank().char() as u8);
            }
            None => buf.push(b'-'),
        }
        if !opts.epd {
            buf.push(b' ');
            buf.push_number(self.halfmoves);
            buf.push(b' ');
            buf.push_number(self.fullmoves);
        }
        out.push_str(buf.as_str());
    }

    fn write_castling(&self, notation: CastlingNotation, out: &mut FenBuf) {
        if self.castling_rights.is_empty() {
            out.push(b'-');
            return;
        }
        for color in Color::ALL {
            let king = self.king_of(color);
            let backrank = Bitboard::rank(Rank::FIRST.relative_to(color));
            let rooks = (self.board.by_piece(crate::Role::Rook.of(color)) & backrank).0;
            let rights = self.castling_rights & backrank;
            // The outermost rook on each side of the king (rooks on the back
            // rank only: a higher square is a higher file).
            let above = rooks & !(2u64 << king.index()).wrapping_sub(1);
            let below = rooks & ((1u64 << king.index()) - 1);
            // h-side first, then a-side, as in KQkq and HAha.
            for rook in rights.into_iter().rev() {
                let side = CastlingSide::of_rook(king, rook);
                let outermost = match side {
                    CastlingSide::KingSide => {
                        above != 0 && 63 - above.leading_zeros() as usize == rook.index()
                    }
                    CastlingSide::QueenSide => {
                        below != 0 && below.trailing_zeros() as usize == rook.index()
                    }
                };
                let letter = match notation {
                    CastlingNotation::Shredder => rook.file().upper_char(),
                    CastlingNotation::Auto | CastlingNotation::XFen if outermost => match side {
                        CastlingSide::KingSide => 'K',
                        CastlingSide::QueenSide => 'Q',
                    },
                    _ => rook.file().upper_char(),
                };
                out.push(match color {
                    Color::White => letter as u8,
                    Color::Black => letter.to_ascii_lowercase() as u8,
                });
            }
        }
    }
}

/// A FEN being written, on the stack: the longest (64 letters, 7 slashes,
/// the other fields with counters of 10 digits) fits.
pub(crate) struct FenBuf {
    bytes: [u8; 128],
    len: usize,
}

impl FenBuf {
    pub(crate) fn new() -> FenBuf {
        FenBuf {
            bytes: [0; 128],
            len: 0,
        }
    }

    /// Appends a byte. The longest FEN (71 bytes of placement, four
    /// castling letters, two 10-digit counters: 103 bytes) fits, so the
    /// index wraps instead of being checked.
    #[inline]
    pub(crate) fn push(&mut self, b: u8) {
        self.bytes[self.len % 128] = b;
        self.len += 1;
    }

    /// A number in decimal, without the formatting machinery.
    fn push_number(&mut self, n: u32) {
        for &d in itoa::Buffer::new().format(n).as_bytes() {
            self.push(d);
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        // Only ASCII is pushed.
        std::str::from_utf8(&self.bytes[..self.len.min(128)]).unwrap_or_default()
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;
    /// Parses FEN with [`Position::from_fen_auto`].
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen_auto(s)
    }
}

impl fmt::Display for Position {
    /// Writes the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let pos = Position::from_fen(STARTING_FEN, CastlingMode::Standard).unwrap();
        assert_eq!(pos.fen(), STARTING_FEN);
        assert_eq!(pos, Position::standard());
    }

    #[test]
    fn move_number_zero_reads_as_one() {
        // As pychess's mate-in-n collections write it.
        let pos = Position::from_fen_auto(
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 1 0",
        )
        .unwrap();
        assert_eq!(pos.fullmoves(), 1);
        assert!(pos.fen().ends_with(" 1 1"));
        let err = Position::from_fen_auto("8/8/8/8/8/8/8/K1k5 w - - 0 x").unwrap_err();
        assert!(err.to_string().contains("move number"), "{err}");
    }

    #[test]
    fn move_number_is_bounded() {
        // A tester's FEN: 4294967295 wrapped to 0 after Black's move.
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 4294967295";
        let err = Setup::from_fen(fen).unwrap_err();
        assert_eq!(err.field, FenField::Fullmoves);
        assert_eq!(err.column, 56);
        assert_eq!(
            err.to_string(),
            "invalid FEN, move number at column 56: at most 1000000000, found 4294967295"
        );
        let err = Setup::from_fen(&fen.replace("4294967295", "4294967296")).unwrap_err();
        assert_eq!(err.field, FenField::Fullmoves);
        // A setup built by hand may hold any counters: they saturate.
        let max = fen.replace("4294967295", &MAX_FULLMOVES.to_string());
        let mut setup = Setup::from_fen(&max).unwrap();
        setup.halfmoves = u32::MAX;
        setup.fullmoves = u32::MAX;
        let mut pos = Position::from_setup(setup, CastlingMode::Standard).unwrap();
        for m in ["g1f3", "g8f6"] {
            pos.play(pos.parse_uci(m).unwrap()).unwrap();
        }
        pos.play_null();
        pos.play_null();
        assert_eq!((pos.halfmoves(), pos.fullmoves()), (u32::MAX, u32::MAX));
    }

    /// Every FEN a position writes is one FEN reading accepts: a game from
    /// a FEN at move 100,000 ended at 100,001, which was refused (the bound
    /// was 100,000); at the bound the move number stays.
    #[test]
    fn every_fen_written_is_read_back() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0";
        for (from, to) in [
            (100_000, 100_001),
            (MAX_FULLMOVES - 1, MAX_FULLMOVES),
            (MAX_FULLMOVES, MAX_FULLMOVES),
        ] {
            let mut pos = Position::from_fen_auto(&format!("{start} {from}")).unwrap();
            for m in ["g1f3", "g8f6"] {
                pos.play(pos.parse_uci(m).unwrap()).unwrap();
            }
            assert_eq!(pos.fullmoves(), to);
            let again = Position::from_fen_auto(&pos.fen()).expect("written, so read");
            assert_eq!(again.fullmoves(), to);
        }
    }

    #[test]
    fn epd_four_fields() {
        let pos = Position::from_fen_auto("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
            .unwrap();
        assert_eq!(pos.fen(), STARTING_FEN);
        assert_eq!(
            pos.epd(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
        );
    }

    #[test]
    fn shredder_and_xfen() {
        let fen = "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1";
        let setup = Setup::from_fen(fen).unwrap();
        assert_eq!(CastlingMode::detect(&setup), CastlingMode::Chess960);
        let pos = Position::from_setup(setup, CastlingMode::Chess960).unwrap();
        assert_eq!(pos.fen(), "rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1");
        let shredder = pos.fen_with(FenOptions {
            castling: CastlingNotation::Shredder,
            ..FenOptions::default()
        });
        assert_eq!(shredder, fen);
        // An inner rook needs its file letter in X-FEN.
        let pos = Position::from_fen_auto("1r1kr2r/8/8/8/8/8/8/1R1KR2R w Ee - 0 1").unwrap();
        assert_eq!(pos.fen(), "1r1kr2r/8/8/8/8/8/8/1R1KR2R w Ee - 0 1");
    }

    #[test]
    fn errors_name_field_and_column() {
        let e = Setup::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1")
            .unwrap_err();
        assert_eq!((e.field, e.column), (FenField::Placement, 43));
        let e = Setup::from_fen("8/8/8/8/8/8/8/8 x - - 0 1").unwrap_err();
        assert_eq!((e.field, e.column), (FenField::Turn, 17));
        let e = Setup::from_fen("8/8/8/8/8/8/8/8 w Kz - 0 1").unwrap_err();
        assert_eq!(e.field, FenField::Castling);
        let e = Setup::from_fen("8/8/8/8/8/8/8/8 w - e9 0 1").unwrap_err();
        assert_eq!(e.field, FenField::EnPassant);
        let e = Setup::from_fen("8/8/8/8/8/8/8/8 w - - x 1").unwrap_err();
        assert_eq!(e.field, FenField::Halfmoves);
        let e = Setup::from_fen("8/8/8/8/8/8/8/9 w - - 0 1").unwrap_err();
        assert_eq!(e.field, FenField::Placement);
        let e = Setup::from_fen("8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
        assert!(e.message.contains("7 ranks"), "{e}");
    }
}
