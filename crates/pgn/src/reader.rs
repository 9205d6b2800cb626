//! The streaming PGN reader: a byte-level tokenizer over any [`Read`] with a
//! fixed-size buffer, calling a [`Visitor`] for every tag, move, comment,
//! annotation, variation and result.
//!
//! The reader never holds more than its buffer (64 KiB, growing only for a
//! single comment or tag longer than that, up to [`MAX_CHUNK`]), so a file
//! of any size streams in constant memory. A comment (`{` to `}`, or `;` to
//! its line break) or a tag (`[` to its closing `]`) longer than
//! [`MAX_CHUNK`] is an error (`comment longer than 16 MiB`, `tag longer than
//! 16 MiB`), the same for input in memory ([`Reader::from_memory`]): the game
//! is read on past it as after the other errors. It does not check moves: visitors
//! do (see [`crate::GameBuilder`] and [`crate::check`]), so callers that need
//! little pay little.
//!
//! What it tolerates, as real files contain it: a byte-order mark, CRLF line
//! ends and CR alone (old Mac files: counted as line ends for locations), tags
//! in any order and several on a line, tag values with unescaped quotes, `{…}`
//! and `;…` comments, `%` escape lines, NAGs (`$n`) and move suffixes (`!`,
//! `?`, `!!`, `??`, `!?`, `?!`) and evaluation glyphs (`±`, `+-`, `=`, …), move
//! numbers with `.`, `...` or `…` (glued or not), nested variations, missing
//! results (the next `[` starts a new game), `e.p.` after a move, non-ASCII
//! text (UTF-8, or Latin-1 as a fallback when decoding); and, as files written
//! by hand or by other programs have them: results with an en dash (`1–0`,
//! `½–½`) or by forfeit (`+--`, `--+`, where a game can end; elsewhere glyphs),
//! a standalone ellipsis (`5. ... Qd6`, `1. e4 … e5`), a tag value whose
//! closing quote is missing, comments after the result (they belong to the game
//! that ended), forum wrappers `[pgn]` and `[/pgn]` on lines of their own, and
//! tag sections without movetext, each a game of its own when a blank line
//! parts them.
//!
//! A syntax error is given to the visitor with its line and column
//! ([`SyntaxError`]); the reader then skips to the end of that game and goes
//! on with the next one.

use crate::result::GameResult;
use bytes::{Bytes, BytesMut};
use std::borrow::Cow;
use std::fmt;
use std::io::{self, Read};

/// The longest move token read (longer ones are errors).
const LOOKAHEAD: usize = 256;
/// The buffer's starting size.
const INITIAL_CAPACITY: usize = 1 << 16;
/// The longest comment (`{` to `}`, or `;` to its line break) or tag (`[` to its closing `]`) the reader accepts, in bytes (16 MiB: the
/// buffer's limit, kept for input in memory too).
pub const MAX_CHUNK: usize = 1 << 24;
/// The errors of a comment or tag longer than [`MAX_CHUNK`].
const COMMENT_TOO_LONG: &str = "comment longer than 16 MiB";
const TAG_TOO_LONG: &str = "tag longer than 16 MiB";
/// The deepest nesting of variations accepted.
pub const MAX_DEPTH: usize = 128;

const WS: u8 = 1;
const END: u8 = 2;
/// Ends a tag name: whitespace, `"` or `]`.
const NAME_END: u8 = 4;
/// A byte of a PGN symbol (PGN §7): ASCII letters and digits, `_ + # = : -`.
const SYMBOL: u8 = 8;
/// The characters of a PGN symbol beside letters and digits (PGN §7).
const SYMBOL_PUNCT: [u8; 6] = [b'_', b'+', b'#', b'=', b':', b'-'];
/// A line break: LF, or CR (alone, as old Mac files end lines, or before
/// an LF).
const BREAK: u8 = 16;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    // (NUL too: some exporters leave NUL bytes after a game's result, and
    // python-chess reads past them.)
    let ws = [b' ', b'\t', b'\n', b'\r', 0x0b, 0x0c, 0x00];
    let mut i = 0;
    while i < ws.len() {
        t[ws[i] as usize] = WS | END | NAME_END;
        i += 1;
    }
    // `*` too: a token by itself (PGN §7, self-terminating), so `Nc6*` is
    // `Nc6` and the result `*`.
    let ends = [b'{', b'}', b'(', b')', b';', b'[', b']', b'$', b'"', b'*'];
    let mut i = 0;
    while i < ends.len() {
        t[ends[i] as usize] |= END;
        i += 1;
    }
    t[b'"' as usize] |= NAME_END;
    t[b']' as usize] |= NAME_END;
    t[b'\n' as usize] |= BREAK;
    t[b'\r' as usize] |= BREAK;
    let mut c = 0;
    while c < 128 {
        if (c as u8).is_ascii_alphanumeric() {
            t[c] |= SYMBOL;
        }
        c += 1;
    }
    let mut i = 0;
    while i < SYMBOL_PUNCT.len() {
        t[SYMBOL_PUNCT[i] as usize] |= SYMBOL;
        i += 1;
    }
    t
};

/// Whether a PGN symbol (a tag name) may hold `c` (PGN §7, §8.1.1:
/// letters, digits, `_ + # = : -`; letters of any script).
pub(crate) fn symbol_char(c: char) -> bool {
    c.is_alphanumeric() || (c.is_ascii() && SYMBOL_PUNCT.contains(&(c as u8)))
}

/// The first character of a tag name that a PGN symbol cannot hold (PGN
/// §7, §8.1.1: letters, digits, `_ + # = : -`; letters of any script), as
/// its index in characters and in bytes.
fn bad_name_char(name: &[u8]) -> Option<(usize, usize)> {
    let ok = symbol_char;
    match std::str::from_utf8(name) {
        Ok(s) => s
            .char_indices()
            .enumerate()
            .find(|&(_, (_, c))| !ok(c))
            .map(|(n, (i, _))| (n, i)),
        // Latin-1: a character a byte.
        Err(_) => name.iter().position(|&b| !ok(b as char)).map(|i| (i, i)),
    }
}

/// Where something is in the input.
///
/// ```
/// use arbiter_pgn::Reader;
/// let game = Reader::new("1. e4 e5\n2. Kf3 *".as_bytes()).next_game()?.expect("a game");
/// let at = game.error.expect("illegal").location;
/// assert_eq!((at.line, at.column, at.offset), (2, 4, 12));
/// assert_eq!(at.to_string(), "line 2, column 4");
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Location {
    /// 1-based line.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
    /// 0-based byte offset from the start of the input.
    pub offset: u64,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Whether the reader should go on with what it is reading.
///
/// ```
/// use arbiter_pgn::{Flow, Location, RawText, Reader, SyntaxError, Visitor};
/// /// Collects the White tags and skips every movetext.
/// struct Whites(Vec<String>);
/// impl Visitor for Whites {
///     type Output = ();
///     fn tag(&mut self, name: &[u8], value: RawText<'_>, _at: Location) -> Flow {
///         if name == b"White" {
///             self.0.push(value.unescape().into_owned());
///         }
///         Flow::Continue
///     }
///     fn begin_movetext(&mut self) -> Flow {
///         Flow::Skip
///     }
///     fn syntax_error(&mut self, _error: SyntaxError) {}
///     fn end_game(&mut self) {}
/// }
/// let pgn = "[White \"Tal\"]\n\n1. e4 Ke7?? *\n\n[White \"Petrosian\"]\n\n1. d4 *";
/// let mut reader = Reader::new(pgn.as_bytes());
/// let mut whites = Whites(Vec::new());
/// while reader.read_game(&mut whites)?.is_some() {}
/// assert_eq!(whites.0, ["Tal", "Petrosian"]);
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Flow {
    /// Go on.
    #[default]
    Continue,
    /// Skip: the rest of the game (from a tag, move, comment, annotation or
    /// result), the movetext (from [`Visitor::begin_movetext`]) or the
    /// variation (from [`Visitor::begin_variation`]). Skipping is fast: the
    /// skipped text is only scanned for its end.
    Skip,
}

/// PGN text that breaks the syntax; the reader skips the rest of the game.
///
/// ```
/// use arbiter_pgn::{GameErrorKind, Reader};
/// let game = Reader::new("1. e4 ) e5 *".as_bytes()).next_game()?.expect("a game");
/// let error = game.error.expect("a stray )");
/// assert_eq!(error.kind, GameErrorKind::Syntax("unmatched )"));
/// assert_eq!(error.location.column, 7);
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {message}{}", if .found.is_empty() { String::new() } else { format!(" (found {:?})", .found) })]
pub struct SyntaxError {
    /// Where.
    pub location: Location,
    /// The text found there (may be empty).
    pub found: String,
    /// What is wrong.
    pub message: &'static str,
}

/// A tag value or comment as it stands in the file.
///
/// ```
/// use arbiter_pgn::RawText;
/// assert_eq!(RawText(br#"The \"Immortal\""#).unescape(), r#"The "Immortal""#);
/// assert_eq!(RawText(b"M\xfcller").decode(), "Müller"); // Latin-1
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct RawText<'a>(pub &'a [u8]);

impl<'a> RawText<'a> {
    /// The bytes as read (tag values still escaped).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The text: UTF-8, or Latin-1 if the bytes are not UTF-8 (old files).
    pub fn decode(&self) -> Cow<'a, str> {
        decode(self.0)
    }

    /// A tag value with the PGN escapes `\"` and `\\` resolved, decoded.
    pub fn unescape(&self) -> Cow<'a, str> {
        if !self.0.contains(&b'\\') {
            return self.decode();
        }
        let mut out = Vec::with_capacity(self.0.len());
        let mut i = 0;
        while i < self.0.len() {
            let b = self.0[i];
            if b == b'\\' && matches!(self.0.get(i + 1), Some(b'\\' | b'"')) {
                out.push(self.0[i + 1]);
                i += 2;
            } else {
                out.push(b);
                i += 1;
            }
        }
        Cow::Owned(decode(&out).into_owned())
    }
}

impl fmt::Debug for RawText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.decode())
    }
}

/// UTF-8 text, or Latin-1 when the bytes are not UTF-8.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
    }
}

/// Receives what the [`Reader`] finds, game by game. Every method but
/// [`Visitor::syntax_error`] and [`Visitor::end_game`] has a default that
/// ignores its input.
///
/// ```
/// use arbiter_pgn::{Flow, Location, Reader, SyntaxError, Visitor};
/// /// Counts main-line moves, skipping variations.
/// #[derive(Default)]
/// struct Plies(u32);
/// impl Visitor for Plies {
///     type Output = u32;
///     fn begin_game(&mut self, _number: u64, _at: Location) {
///         self.0 = 0;
///     }
///     fn san(&mut self, _text: &[u8], _at: Location) -> Flow {
///         self.0 += 1;
///         Flow::Continue
///     }
///     fn begin_variation(&mut self, _at: Location) -> Flow {
///         Flow::Skip
///     }
///     fn syntax_error(&mut self, _error: SyntaxError) {}
///     fn end_game(&mut self) -> u32 {
///         self.0
///     }
/// }
/// let mut reader = Reader::new("1. e4 (1. d4 d5) e5 2. Nf3 *".as_bytes());
/// assert_eq!(reader.read_game(&mut Plies::default())?, Some(3));
/// # Ok::<_, std::io::Error>(())
/// ```
#[allow(unused_variables)]
pub trait Visitor {
    /// What a game produces.
    type Output;

    /// A game starts: its 1-based number in the input, and where.
    fn begin_game(&mut self, number: u64, at: Location) {}

    /// A tag pair `[Name "value"]`.
    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) -> Flow {
        Flow::Continue
    }

    /// The tags are over and the movetext starts.
    fn begin_movetext(&mut self) -> Flow {
        Flow::Continue
    }

    /// A move, as written (move number, `!?` marks and the separate `e.p.`
    /// removed; `+` and `#` kept).
    fn san(&mut self, text: &[u8], at: Location) -> Flow {
        Flow::Continue
    }

    /// A numeric annotation glyph: `$n`, a move suffix (`!` = 1, `?` = 2,
    /// `!!` = 3, `??` = 4, `!?` = 5, `?!` = 6) or an evaluation sign (`=` = 10,
    /// `∞` = 13, `+=` = 14, `=+` = 15, `±` = 16, `∓` = 17, `+-` = 18, `-+` = 19).
    fn nag(&mut self, nag: u8, at: Location) -> Flow {
        Flow::Continue
    }

    /// A comment, `{…}` or `;…` (without the delimiters).
    fn comment(&mut self, text: RawText<'_>, at: Location) -> Flow {
        Flow::Continue
    }

    /// A variation `(` starts: an alternative to the last move.
    fn begin_variation(&mut self, at: Location) -> Flow {
        Flow::Continue
    }

    /// The variation ends `)`.
    fn end_variation(&mut self, at: Location) -> Flow {
        Flow::Continue
    }

    /// The game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    fn result(&mut self, result: GameResult, at: Location) -> Flow {
        Flow::Continue
    }

    /// A termination marker after the game's own, with no tags or moves of
    /// its own (`1-0 1-0`): no game; the reader passes over it.
    fn stray_result(&mut self, result: GameResult, at: Location) {}

    /// The game breaks the PGN syntax; the rest of it is skipped.
    fn syntax_error(&mut self, error: SyntaxError);

    /// The game breaks the PGN syntax in a way the reader mends and reads
    /// on (a tag value without its closing quote, a tag without its `]`, a
    /// NAG above 255 left out): `error.message` says what was done.
    fn syntax_warning(&mut self, warning: SyntaxError) {}

    /// The game is over (its result read, the next game's tags reached, or
    /// the end of the input).
    fn end_game(&mut self) -> Self::Output;
}

/// What a movetext token is.
enum Token {
    /// A move: `tok[start..start + len]`, then an optional suffix NAG.
    Move {
        start: usize,
        len: usize,
        nag: u8,
    },
    Number,
    Result(GameResult),
    /// `+--` or `--+`: a result by forfeit where a game can end, else the
    /// glyph of a decisive advantage (`$18`, `$19`); the reader decides.
    Forfeit(GameResult),
    Nag(u8),
    Ignore,
}

fn suffix_nag(s: &[u8]) -> Option<u8> {
    Some(match s {
        b"!" => 1,
        b"?" => 2,
        b"!!" => 3,
        b"??" => 4,
        b"!?" => 5,
        b"?!" => 6,
        _ => return None,
    })
}

#[inline]
fn classify(tok: &[u8]) -> Token {
    let first = tok[0];
    // The common case first: a move starting with a letter, no `!?` marks.
    if matches!(first, b'a'..=b'h' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'O')
        && !matches!(tok[tok.len() - 1], b'!' | b'?' | b'.')
        && tok != b"ep"
    {
        return Token::Move {
            start: 0,
            len: tok.len(),
            nag: 0,
        };
    }
    if first.is_ascii_digit() {
        // A move number: digits and dots.
        let digits = tok.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits < tok.len() && tok[digits..].iter().all(|&b| b == b'.') {
            return Token::Number;
        }
    }
    classify_slow(tok)
}

/// The length of the run of `.` and `…` at the start of `tok`.
fn dots(tok: &[u8]) -> usize {
    let mut i = 0;
    loop {
        if tok.get(i) == Some(&b'.') {
            i += 1;
        } else if tok[i..].starts_with("…".as_bytes()) {
            i += "…".len();
        } else {
            return i;
        }
    }
}

/// A result written with another dash (`1–0`, `0—1`, `½–½`, `1/2‑1/2`), or
/// `½` alone.
fn unicode_result(tok: &str) -> Option<GameResult> {
    match tok {
        "½" => Some(GameResult::Draw),
        _ => GameResult::from_handwritten(tok),
    }
}

#[inline(never)]
fn classify_slow(tok: &[u8]) -> Token {
    let first = tok[0];
    if first == b'.' || tok.starts_with("…".as_bytes()) {
        // A standalone ellipsis (`5. ... Qd6`, `1. e4 … e5`), or one glued to
        // the move it stands for (`...Qd6`).
        let i = dots(tok);
        if i == tok.len() {
            return Token::Ignore;
        }
        return move_token(tok, i);
    }
    if first.is_ascii_digit() {
        match tok {
            b"1-0" => return Token::Result(GameResult::WhiteWins),
            b"0-1" => return Token::Result(GameResult::BlackWins),
            b"1/2-1/2" | b"1/2" => return Token::Result(GameResult::Draw),
            _ => {}
        }
        if tok.starts_with(b"0-0") {
            return move_token(tok, 0);
        }
        if !tok.is_ascii() {
            if let Some(r) = std::str::from_utf8(tok).ok().and_then(unicode_result) {
                return Token::Result(r);
            }
        }
        let digits = tok.iter().take_while(|b| b.is_ascii_digit()).count();
        let i = digits + dots(&tok[digits..]);
        if i == tok.len() {
            return Token::Number;
        }
        // `12.e4`, `12...e5`: a move glued to its number.
        return move_token(tok, if i == digits { 0 } else { i });
    }
    if let Some(n) = suffix_nag(tok) {
        return Token::Nag(n);
    }
    let glyph = match tok {
        b"*" => return Token::Result(GameResult::Unknown),
        b"=" => 10,
        b"+=" | b"+/=" => 14,
        b"=+" | b"=/+" => 15,
        b"+/-" => 16,
        b"-/+" => 17,
        b"+-" => 18,
        b"-+" => 19,
        // A result by forfeit, as ChessBase writes it: `+--` White wins,
        // Black absent; `--+` the other way round (scalachess reads them so).
        // Annotators also write them after a move as glyphs.
        b"+--" => return Token::Forfeit(GameResult::WhiteWins),
        b"--+" => return Token::Forfeit(GameResult::BlackWins),
        b"e.p." | b"ep" => return Token::Ignore,
        _ if !tok.is_ascii() => match std::str::from_utf8(tok).unwrap_or("") {
            t if unicode_result(t).is_some() => {
                return Token::Result(unicode_result(t).unwrap_or_default())
            }
            "□" => 7,
            "∞" => 13,
            "⩲" => 14,
            "⩱" => 15,
            "±" => 16,
            "∓" => 17,
            "е.р." | "е.п." => return Token::Ignore,
            _ => return move_token(tok, 0),
        },
        _ => return move_token(tok, 0),
    };
    Token::Nag(glyph)
}

fn move_token(tok: &[u8], start: usize) -> Token {
    let mut end = tok.len();
    while end > start && matches!(tok[end - 1], b'!' | b'?') {
        end -= 1;
    }
    match suffix_nag(&tok[end..]) {
        Some(nag) if end > start => Token::Move {
            start,
            len: end - start,
            nag,
        },
        _ => Token::Move {
            start,
            len: tok.len() - start,
            nag: 0,
        },
    }
}

/// A visitor that keeps nothing of a game: the reader passes it over,
/// finding only where it ends (to cut a file into games, or to skip the
/// games another process reads).
///
/// ```
/// use arbiter_pgn::{PassOver, Reader};
/// let pgn = "[White \"A\"]\n\n1. e4 1-0\n\n[White \"B\"]\n\n1. d4 0-1\n";
/// let mut reader = Reader::new(pgn.as_bytes());
/// assert!(reader.read_game(&mut PassOver)?.is_some());
/// let second = reader.next_game()?.expect("the second game");
/// assert_eq!(second.tags.get("White"), Some("B"));
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct PassOver;

impl Visitor for PassOver {
    type Output = ();
    fn tag(&mut self, _: &[u8], _: RawText<'_>, _: Location) -> Flow {
        Flow::Skip
    }
    fn begin_movetext(&mut self) -> Flow {
        Flow::Skip
    }
    fn syntax_error(&mut self, _: SyntaxError) {}
    fn end_game(&mut self) {}
}

/// The streaming PGN reader.
///
/// ```
/// use arbiter_pgn::Reader;
/// let pgn = "[White \"Ботвинник\"]\n\n1. e4 {лучший} e5 2. Nf3 (2. f4) 2... Nc6 1-0\n";
/// let mut reader = Reader::new(pgn.as_bytes());
/// let game = reader.next_game()?.expect("one game");
/// assert_eq!(game.tags.get("White"), Some("Ботвинник"));
/// assert_eq!(game.mainline().count(), 4);
/// assert!(reader.next_game()?.is_none());
/// # Ok::<_, std::io::Error>(())
/// ```
pub struct Reader<R> {
    inner: R,
    /// The bytes read and not yet passed, `buf[pos..end]`: a buffer refilled
    /// from `inner`, or the whole input when it was given in memory
    /// ([`Reader::from_memory`]), read where it lies.
    buf: Bytes,
    pos: usize,
    end: usize,
    eof: bool,
    /// Absolute offset of `buf[0]`.
    base: u64,
    line: u64,
    /// Absolute offset of the current line's first byte.
    line_start: u64,
    /// UTF-8 continuation bytes already passed on the current line.
    line_extra: u64,
    /// The input ends lines with a CR alone (old Mac files), seen at the
    /// first such CR: from then on a CR ends a line too (and the LF of a
    /// CRLF after it does not again), lines end at either, and every token
    /// takes the general way through the movetext.
    cr_lines: bool,
    /// The furthest closing quote of a tag the common-line way of
    /// [`Reader::read_tag`] takes: the limit ([`MAX_CHUNK`] bytes to `]`);
    /// 0, none, once lines may end with a CR alone (it finds LFs only).
    fast_tag_end: usize,
    /// The offset after a CR counted as a line's end at the end of the
    /// buffer, the next byte unknown ([`Reader::advance`]): an LF there ends
    /// no other line.
    after_cr: u64,
    games: u64,
}

impl Reader<io::Empty> {
    /// A reader over input already in memory (a file mapped into memory, a
    /// body received whole, a `Vec<u8>`), read where it lies: no buffer,
    /// no copy. Tokens, games and errors are the same as [`Reader::new`]
    /// reads from the same bytes (a comment or tag longer than
    /// [`MAX_CHUNK`] is an error here too, though the whole input is at
    /// hand).
    ///
    /// ```
    /// use arbiter_pgn::Reader;
    /// let pgn = b"[White \"A\"]\n\n1. e4 e5 2. Nf3 1-0\n\n1. d4 0-1\n".to_vec();
    /// let mut reader = Reader::from_memory(pgn);
    /// assert_eq!(reader.next_game()?.expect("a game").mainline().count(), 3);
    /// assert_eq!(reader.next_game()?.expect("a game").mainline().count(), 1);
    /// assert!(reader.next_game()?.is_none());
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn from_memory<T: AsRef<[u8]> + Send + 'static>(input: T) -> Reader<io::Empty> {
        let buf = Bytes::from_owner(input);
        let end = buf.len();
        Reader::over(io::empty(), buf, end, true)
    }

    /// A reader over input in memory, as [`Reader::from_memory`], that
    /// starts at byte `offset`, the first of line `line` (`offset` is 0 or
    /// follows a line break), as if it had read the input up to there and
    /// stood between two games: its locations and [`Reader::bytes_read`]
    /// are those in the whole input. Many threads can so read one file at
    /// once, each from its own place (`arbiter audit` does). An `offset`
    /// past the end reads nothing.
    ///
    /// ```
    /// use arbiter_pgn::Reader;
    /// let pgn = b"1. e4 e5 1-0\n\n1. d4 d5 2. Kd3 *\n".to_vec();
    /// let mut reader = Reader::from_memory_at(pgn, 14, 3);
    /// let game = reader.next_game()?.expect("the second game");
    /// let at = game.error.expect("an illegal move").location;
    /// assert_eq!((at.line, at.column, at.offset), (3, 13, 26));
    /// assert!(reader.next_game()?.is_none());
    /// assert_eq!(reader.bytes_read(), 32);
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn from_memory_at<T: AsRef<[u8]> + Send + 'static>(
        input: T,
        offset: usize,
        line: u64,
    ) -> Reader<io::Empty> {
        let mut reader = Reader::from_memory(input);
        reader.pos = offset.min(reader.end);
        reader.line = line;
        reader.line_start = reader.pos as u64;
        reader
    }
}

impl<R> Reader<R> {
    /// A reader at the start of its input, `buf[..end]` read already from
    /// `inner` (all of it if `eof`).
    fn over(inner: R, buf: Bytes, end: usize, eof: bool) -> Reader<R> {
        Reader {
            inner,
            buf,
            pos: 0,
            end,
            eof,
            base: 0,
            line: 1,
            line_start: 0,
            line_extra: 0,
            cr_lines: false,
            fast_tag_end: MAX_CHUNK - 2,
            after_cr: u64::MAX,
            games: 0,
        }
    }
}

impl<R: Read> Reader<R> {
    /// A reader over `inner` (buffered internally: do not wrap it in a
    /// `BufReader`).
    pub fn new(inner: R) -> Reader<R> {
        Reader::with_capacity(inner, INITIAL_CAPACITY)
    }

    /// A reader whose buffer starts at `capacity` bytes (at least twice the
    /// tokenizer's look-ahead; it grows as [`Reader::new`]'s does), for many
    /// small inputs such as one game's text in memory, where `new`'s 64 KiB
    /// zeroed buffer per input costs more than reading the game.
    ///
    /// ```
    /// use arbiter_pgn::Reader;
    /// let pgn = b"1. e4 e5 2. Nf3 1-0\n\n1. d4 0-1\n";
    /// let mut reader = Reader::with_capacity(&pgn[..], pgn.len());
    /// assert_eq!(reader.next_game()?.expect("a game").mainline().count(), 3);
    /// assert_eq!(reader.next_game()?.expect("a game").mainline().count(), 1);
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn with_capacity(inner: R, capacity: usize) -> Reader<R> {
        let buf = Bytes::from(vec![0; capacity.clamp(2 * LOOKAHEAD, MAX_CHUNK)]);
        Reader::over(inner, buf, 0, false)
    }

    /// The number of games started so far.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// Bytes consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.base + self.pos as u64
    }

    // ----- buffer ------------------------------------------------------------

    /// Moves the unread bytes to the front and reads more; grows the buffer
    /// (up to [`MAX_CHUNK`]) when it is full and `grow` is set.
    fn fill(&mut self, grow: bool) -> io::Result<()> {
        if self.eof {
            // Nothing more to read (and input given in memory is all read).
            return Ok(());
        }
        // The buffer is this reader's alone while it reads from `inner`:
        // taken back as writable without a copy.
        let mut buf = std::mem::take(&mut self.buf)
            .try_into_mut()
            .unwrap_or_else(|shared| BytesMut::from(&shared[..]));
        let read = self.fill_into(&mut buf, grow);
        self.buf = buf.freeze();
        read
    }

    fn fill_into(&mut self, buf: &mut BytesMut, grow: bool) -> io::Result<()> {
        if self.pos > 0 {
            buf.copy_within(self.pos..self.end, 0);
            self.base += self.pos as u64;
            self.end -= self.pos;
            self.pos = 0;
        }
        if self.end == buf.len() {
            if !grow || buf.len() >= MAX_CHUNK {
                return Ok(());
            }
            let len = (buf.len() * 2).min(MAX_CHUNK);
            buf.resize(len, 0);
        }
        while !self.eof && self.end < buf.len() {
            match self.inner.read(&mut buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.end += n;
                    if self.end - self.pos >= LOOKAHEAD {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    #[inline]
    fn ensure_lookahead(&mut self) -> io::Result<()> {
        if self.end - self.pos < LOOKAHEAD && !self.eof {
            self.fill(false)?;
        }
        Ok(())
    }

    #[inline]
    fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos == self.end {
            self.fill(false)?;
        }
        Ok(self.buf[self.pos..self.end].first().copied())
    }

    /// Skips whitespace, counting lines.
    #[inline]
    fn skip_ws(&mut self) -> io::Result<()> {
        loop {
            let end = self.end;
            let mut p = self.pos;
            while p < end {
                let b = self.buf[p];
                let class = CLASS[b as usize];
                if class & WS == 0 {
                    self.pos = p;
                    return Ok(());
                }
                if class & BREAK != 0 {
                    if b == b'\n' {
                        self.line += 1;
                        self.line_start = self.base + p as u64 + 1;
                        self.line_extra = 0;
                    } else if p + 1 == end && !self.eof {
                        // A CR at the buffer's end: the next byte read
                        // tells whether it ends a line.
                        break;
                    } else {
                        self.cr(p);
                    }
                }
                p += 1;
            }
            self.pos = p;
            if self.eof {
                return Ok(());
            }
            self.fill(false)?;
        }
    }

    /// Counts the CR at `buf[p]` as a line's end if it is one: followed by
    /// another byte than LF (which then shows that the input ends lines so,
    /// [`Reader::cr_lines`]). A CRLF's LF ends the line; a CR at the end of
    /// the input ends nothing.
    #[cold]
    fn cr(&mut self, p: usize) {
        match self.buf[..self.end].get(p + 1) {
            Some(b'\n') | None => {}
            Some(_) => {
                self.lines_end_with_cr();
                self.line += 1;
                self.line_start = self.base + p as u64 + 1;
                self.line_extra = 0;
            }
        }
    }

    /// Before the first game: whether the input's first bytes show lines
    /// ended with a CR alone (so that a comment there is counted right,
    /// before any CR between tokens shows it).
    #[cold]
    fn probe_cr_lines(&mut self) {
        let rest = &self.buf[self.pos..self.end.min(self.pos + 4096)];
        if memchr::memchr_iter(b'\r', rest).any(|i| rest.get(i + 1).is_some_and(|&b| b != b'\n')) {
            self.lines_end_with_cr();
        }
    }

    /// The input ends lines with a CR alone: [`Reader::cr_lines`].
    #[cold]
    fn lines_end_with_cr(&mut self) {
        self.cr_lines = true;
        self.fast_tag_end = 0;
    }

    /// The offset (from `pos`) of the first line break at or after `pos +
    /// from`, as [`Reader::find`]: an LF, or a CR too in input that ends
    /// lines with it.
    #[inline(never)]
    fn find_eol(&mut self, from: usize) -> io::Result<Option<usize>> {
        if !self.cr_lines {
            return self.find(from, b'\n');
        }
        let mut searched = from;
        loop {
            let stop = self.chunk_end();
            let hay = &self.buf[self.pos + searched.min(stop - self.pos)..stop];
            if let Some(i) = memchr::memchr2(b'\n', b'\r', hay) {
                return Ok(Some(searched + i));
            }
            searched = stop - self.pos;
            if self.eof || searched >= MAX_CHUNK {
                return Ok(None);
            }
            self.fill(true)?;
        }
    }

    /// The offset (from `pos`) of the first `byte` at or after `pos + from`,
    /// reading and growing as needed; `None` at the end of the input or when
    /// it is [`MAX_CHUNK`] or further (then [`Reader::beyond_limit`]), for
    /// input in memory too.
    #[inline]
    fn find(&mut self, from: usize, byte: u8) -> io::Result<Option<usize>> {
        let mut searched = from;
        loop {
            let stop = self.chunk_end();
            let hay = &self.buf[self.pos + searched.min(stop - self.pos)..stop];
            if let Some(i) = crate::scan::find1(byte, hay) {
                return Ok(Some(searched + i));
            }
            searched = stop - self.pos;
            if self.eof || searched >= MAX_CHUNK {
                return Ok(None);
            }
            self.fill(true)?;
        }
    }

    /// The end of what a search from `pos` may look at: the buffer's end,
    /// and at most [`MAX_CHUNK`] bytes (the most a buffer holds; input in
    /// memory is searched as far).
    #[inline]
    fn chunk_end(&self) -> usize {
        self.end.min(self.pos + MAX_CHUNK)
    }

    /// After a [`Reader::find`] that found nothing: whether it stopped at
    /// the limit ([`MAX_CHUNK`]) rather than at the end of the input.
    fn beyond_limit(&self) -> bool {
        self.end - self.pos >= MAX_CHUNK
    }

    /// Passes everything up to the next `byte` (left unread; with `eol`, a
    /// CR too in input that ends lines with it), however far, counting
    /// lines; `false` if the input ends first (all of it passed).
    #[inline(never)]
    fn pass_until(&mut self, byte: u8, eol: bool) -> io::Result<bool> {
        loop {
            let hay = &self.buf[self.pos..self.end];
            let found = if eol && self.cr_lines {
                memchr::memchr2(byte, b'\r', hay)
            } else {
                memchr::memchr(byte, hay)
            };
            if let Some(i) = found {
                self.advance(i);
                return Ok(true);
            }
            self.advance(self.end - self.pos);
            if self.eof {
                return Ok(false);
            }
            self.fill(false)?;
            if self.pos == self.end && self.eof {
                return Ok(false);
            }
        }
    }

    /// Passes `len` bytes, counting lines and multi-byte characters.
    fn advance(&mut self, len: usize) {
        let s = &self.buf[self.pos..self.pos + len];
        if self.cr_lines || s.last() == Some(&b'\r') {
            return self.advance_by_breaks(len);
        }
        if let Some(last) = memchr::memrchr(b'\n', s) {
            self.line += memchr::memchr_iter(b'\n', s).count() as u64;
            self.line_start = self.base + (self.pos + last + 1) as u64;
            self.line_extra = continuation_bytes(&s[last + 1..]);
        } else {
            self.line_extra += continuation_bytes(s);
        }
        self.pos += len;
    }

    /// [`Reader::advance`] break by break, for input whose lines may end
    /// with a CR.
    #[cold]
    fn advance_by_breaks(&mut self, len: usize) {
        let (start, end) = (self.pos, self.pos + len);
        let mut from = start;
        let mut i = start;
        while let Some(k) = memchr::memchr2(b'\n', b'\r', &self.buf[i..end]) {
            let p = i + k;
            let at = self.base + p as u64;
            i = p + 1;
            let counts = match (self.buf[p], self.buf[..self.end].get(p + 1)) {
                (b'\n', _) => at != self.after_cr,
                (_, Some(b'\n')) => false,
                (_, Some(_)) => {
                    self.lines_end_with_cr();
                    true
                }
                // At the buffer's end, the next byte unknown: a line's end
                // in input that ends lines so (an LF read next then ends
                // no other).
                (_, None) => {
                    if self.cr_lines {
                        self.after_cr = at + 1;
                    }
                    self.cr_lines
                }
            };
            if counts {
                self.line += 1;
            }
            if counts || self.buf[p] == b'\n' {
                self.line_start = at + 1;
                self.line_extra = 0;
                from = p + 1;
            }
        }
        if from == start {
            self.line_extra += continuation_bytes(&self.buf[start..end]);
        } else {
            self.line_extra = continuation_bytes(&self.buf[from..end]);
        }
        self.pos = end;
    }

    #[inline]
    fn location(&self) -> Location {
        let offset = self.base + self.pos as u64;
        Location {
            line: self.line,
            column: offset - self.line_start - self.line_extra + 1,
            offset,
        }
    }

    fn at_line_start(&self) -> bool {
        self.base + self.pos as u64 == self.line_start
    }

    /// Skips the rest of the line, however long (a `%` escape line or a bad
    /// tag line).
    fn skip_line(&mut self) -> io::Result<()> {
        self.pass_until(b'\n', true)?;
        Ok(())
    }

    /// The text of the token at `pos` (for error messages).
    fn token_text(&self, len: usize) -> String {
        let len = len.min(self.end - self.pos).min(LOOKAHEAD);
        decode(&self.buf[self.pos..self.pos + len]).into_owned()
    }

    // ----- games -------------------------------------------------------------

    /// Passes what stands before the next game (whitespace, `%` escape
    /// lines, byte-order marks, `[pgn]` wrapper lines) and tells where that
    /// game starts; `None` at the end of the input. [`Reader::read_game`]
    /// passes the same: asking first changes nothing it reads.
    ///
    /// ```
    /// use arbiter_pgn::Reader;
    /// let pgn = "1. e4 1-0\n\n% an escape line\n[White \"B\"]\n\n1. d4 0-1\n";
    /// let mut reader = Reader::new(pgn.as_bytes());
    /// reader.next_game()?;
    /// let at = reader.next_game_start()?.expect("a second game");
    /// assert_eq!((at.line, at.column, at.offset), (4, 1, 28));
    /// assert_eq!(reader.next_game()?.expect("a game").tags.get("White"), Some("B"));
    /// assert!(reader.next_game_start()?.is_none());
    /// # Ok::<_, std::io::Error>(())
    /// ```
    #[inline]
    pub fn next_game_start(&mut self) -> io::Result<Option<Location>> {
        loop {
            self.skip_ws()?;
            self.ensure_lookahead()?;
            let rest = &self.buf[self.pos..self.end];
            if rest.is_empty() {
                return Ok(None);
            }
            if rest.starts_with(&[0xef, 0xbb, 0xbf]) {
                // A byte-order mark: zero width, the line starts after it.
                self.pos += 3;
                self.line_start = self.base + self.pos as u64;
                self.line_extra = 0;
            } else if (rest[0] == b'%' && self.at_line_start()) || self.at_wrapper() {
                self.skip_line()?;
            } else {
                return Ok(Some(self.location()));
            }
        }
    }

    /// Reads the next game into `visitor`; `None` at the end of the input.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        // Between games: whitespace, escape lines, byte-order marks.
        let Some(at) = self.next_game_start()? else {
            return Ok(None);
        };
        if self.games == 0 {
            self.probe_cr_lines();
        }
        self.games += 1;
        visitor.begin_game(self.games, at);
        let mut skip = false;
        // The Seven Tag Roster names seen in this game, one bit each.
        let mut roster = 0u8;
        loop {
            let line = self.line;
            self.skip_ws()?;
            self.ensure_lookahead()?;
            match self.peek()? {
                Some(b'[') if self.at_wrapper() => self.skip_line()?,
                Some(b'[') => {
                    let bit = roster_bit(&self.buf[self.pos..self.end]);
                    // A blank line, then a roster tag this game already has:
                    // the game before had no movetext, this is the next one.
                    // (A blank line alone inside the tags does not part
                    // games: ChessBase writes one after `Event`.)
                    if self.line >= line + 2 && bit & roster != 0 {
                        break;
                    }
                    roster |= bit;
                    if let Err(e) = self.read_tag(visitor, &mut skip)? {
                        if !skip {
                            visitor.syntax_error(e);
                            skip = true;
                        }
                        self.skip_line()?;
                    }
                }
                Some(b'%') if self.at_line_start() => self.skip_line()?,
                _ => break,
            }
        }
        if !skip && visitor.begin_movetext() == Flow::Skip {
            skip = true;
        }
        self.read_movetext(visitor, skip)?;
        Ok(Some(visitor.end_game()))
    }

    /// Reads one tag pair at `[`; an `Err` inside for a malformed one.
    fn read_tag<V: Visitor>(
        &mut self,
        visitor: &mut V,
        skip: &mut bool,
    ) -> io::Result<Result<(), SyntaxError>> {
        let at = self.location();
        // The common line first, `[Name "value"]` with an ASCII name and
        // nothing to unescape, read without finding the line's end: what the
        // general reading below makes of it too.
        let rest = &self.buf[self.pos..self.end];
        let name_len = rest[1..]
            .iter()
            .position(|&b| CLASS[b as usize] & SYMBOL == 0)
            .unwrap_or(0);
        if name_len > 0 && rest.get(name_len + 1..name_len + 3) == Some(b" \"") {
            let start = name_len + 3;
            if let Some(k) = crate::scan::find3(b'"', b'\\', b'\n', &rest[start..]) {
                let j = start + k;
                // (In MAX_CHUNK bytes, and on one line; see `fast_tag_end`.)
                if rest[j] == b'"' && rest.get(j + 1) == Some(&b']') && j <= self.fast_tag_end {
                    if !*skip
                        && visitor.tag(&rest[1..=name_len], RawText(&rest[start..j]), at)
                            == Flow::Skip
                    {
                        *skip = true;
                    }
                    let text = &self.buf[self.pos..self.pos + j + 2];
                    if !text.is_ascii() {
                        self.line_extra += continuation_bytes(text);
                    }
                    self.pos += j + 2;
                    return Ok(Ok(()));
                }
            }
        }
        // A line longer than the limit is read as far as the limit: the
        // tag must close within it.
        let (line_len, too_long) = match self.find_eol(0)? {
            Some(i) => (i, false),
            None => (self.chunk_end() - self.pos, self.beyond_limit()),
        };
        let line = &self.buf[self.pos..self.pos + line_len];
        let bad = |message| SyntaxError {
            location: at,
            found: decode(&line[..line.len().min(80)]).trim_end().to_owned(),
            message,
        };
        let is_space = |b: u8| CLASS[b as usize] & WS != 0;
        let mut i = 1;
        while i < line.len() && is_space(line[i]) {
            i += 1;
        }
        let name_start = i;
        i += line[i..]
            .iter()
            .position(|&b| CLASS[b as usize] & NAME_END != 0)
            .unwrap_or(line.len() - i);
        let name = name_start..i;
        if name.is_empty() {
            return Ok(Err(bad("tag without a name")));
        }
        if let Some((chars, bytes)) = bad_name_char(&line[name.clone()]) {
            // Before the name: `[` and whitespace, one byte a character.
            let e = bad("a tag name is a PGN symbol: letters, digits and _ + # = : -");
            let skipped = (name_start + chars) as u64;
            return Ok(Err(SyntaxError {
                location: Location {
                    column: at.column + skipped,
                    offset: at.offset + (name_start + bytes) as u64,
                    ..at
                },
                ..e
            }));
        }
        while i < line.len() && is_space(line[i]) {
            i += 1;
        }
        let (value, close) = if line.get(i) == Some(&b'"') {
            let start = i + 1;
            let mut j = start;
            loop {
                if j >= line.len() {
                    if too_long {
                        return Ok(Err(bad(TAG_TOO_LONG)));
                    }
                    // No closing quote: the value runs to the last `]` of
                    // the line (`[Event "Moscow]`), as other readers take it,
                    // or without one to the line's end (a string holds no
                    // line break, PGN §7): the next line is read as usual.
                    let (close, message) =
                        match memchr::memrchr(b']', &line[start..]).map(|k| start + k) {
                            Some(close) => (close, "tag value without its closing quote: read up to the ]"),
                            None => (line.len(), "tag value without its closing quote and ]: read to the end of its line"),
                        };
                    if !*skip {
                        visitor.syntax_warning(bad(message));
                    }
                    let mut v_end = close;
                    while v_end > start && is_space(line[v_end - 1]) {
                        v_end -= 1;
                    }
                    break (start..v_end, close);
                }
                // The next backslash or quote (values are often long: URLs, names).
                match crate::scan::find2(b'\\', b'"', &line[j..]) {
                    Some(k) => j += k,
                    None => {
                        j = line.len();
                        continue;
                    }
                }
                match line[j] {
                    b'\\' if j + 1 < line.len() => j += 2,
                    b'"' => {
                        let mut k = j + 1;
                        while k < line.len() && is_space(line[k]) {
                            k += 1;
                        }
                        // (A line cut at the limit must show the `]`.)
                        if (k >= line.len() && !too_long) || line.get(k) == Some(&b']') {
                            break (start..j, k);
                        }
                        // An unescaped quote inside the value.
                        j += 1;
                    }
                    _ => j += 1,
                }
            }
        } else {
            // Unquoted value: up to the closing bracket.
            let start = i;
            let mut j = i;
            while j < line.len() && line[j] != b']' {
                j += 1;
            }
            if j == line.len() && too_long {
                return Ok(Err(bad(TAG_TOO_LONG)));
            }
            let mut v_end = j;
            while v_end > start && is_space(line[v_end - 1]) {
                v_end -= 1;
            }
            (start..v_end, j)
        };
        if close >= line.len() && !*skip {
            // (A value without its closing quote was told above.)
            if line.get(i) != Some(&b'"') || line[value.end..].contains(&b'"') {
                visitor.syntax_warning(bad(
                    "tag without its closing ]: read to the end of its line",
                ));
            }
        }
        if !*skip && visitor.tag(&line[name], RawText(&line[value]), at) == Flow::Skip {
            *skip = true;
        }
        let consumed = (close + 1).min(line_len);
        // Within one line: no line break to count.
        let text = &self.buf[self.pos..self.pos + consumed];
        if !text.is_ascii() {
            self.line_extra += continuation_bytes(text);
        }
        self.pos += consumed;
        Ok(Ok(()))
    }

    #[allow(unused_assignments)]
    #[inline(never)] // once a game: kept apart from the tag reading
    fn read_movetext<V: Visitor>(&mut self, visitor: &mut V, mut skip: bool) -> io::Result<()> {
        let mut depth = 0usize;
        // Depth of a variation being skipped (and everything inside it).
        let mut skip_from = usize::MAX;
        macro_rules! fail {
            ($len:expr, $message:expr) => {{
                if !skip {
                    let e = SyntaxError {
                        location: self.location(),
                        found: self.token_text($len),
                        message: $message,
                    };
                    visitor.syntax_error(e);
                    skip = true;
                }
            }};
        }
        loop {
            // The common tokens in one tight loop; the others one at a time below.
            if self.fast_movetext(visitor, !skip && depth < skip_from) {
                skip = true;
            }
            self.skip_ws()?;
            self.ensure_lookahead()?;
            if self.pos == self.end {
                if depth > 0 {
                    fail!(0, "the input ends inside a variation: ) missing");
                }
                return Ok(());
            }
            let b = self.buf[self.pos];
            if b.is_ascii_digit() {
                // A move number (`12.`, `12...`): nothing to tell the
                // visitor, and no line break or wide character inside.
                let n = move_number_len(&self.buf[self.pos..self.end]);
                if n > 0 {
                    self.pos += n;
                    continue;
                }
            }
            let active = !skip && depth < skip_from;
            match b {
                b'[' => {
                    if depth > 0 {
                        fail!(1, "a new game starts inside a variation: ) missing");
                    }
                    return Ok(());
                }
                b'{' => {
                    let at = self.location();
                    // Find the closing brace, counting line breaks on the way.
                    let mut i = 1;
                    let mut lines = 0u64;
                    let mut last_break = None;
                    let close = loop {
                        // (At most MAX_CHUNK bytes from `{`, in memory too.)
                        let hay = &self.buf[self.pos + i..self.chunk_end()];
                        match crate::scan::find2(b'}', b'\n', hay) {
                            Some(k) if hay[k] == b'}' => break Some(i + k),
                            Some(k) => {
                                lines += 1;
                                last_break = Some(i + k);
                                i += k + 1;
                            }
                            None => {
                                i = self.chunk_end() - self.pos;
                                if self.eof || i >= MAX_CHUNK {
                                    break None;
                                }
                                self.fill(true)?;
                            }
                        }
                    };
                    match close {
                        Some(close) => {
                            if active {
                                let text = RawText(&self.buf[self.pos + 1..self.pos + close]);
                                if visitor.comment(text, at) == Flow::Skip {
                                    skip = true;
                                }
                            }
                            if self.cr_lines {
                                self.advance(close + 1);
                                continue;
                            }
                            let tail_from = match last_break {
                                Some(nl) => {
                                    self.line += lines;
                                    self.line_start = self.base + (self.pos + nl + 1) as u64;
                                    self.line_extra = 0;
                                    nl + 1
                                }
                                None => 0,
                            };
                            let tail = &self.buf[self.pos + tail_from..self.pos + close + 1];
                            if !tail.is_ascii() {
                                self.line_extra += continuation_bytes(tail);
                            }
                            self.pos += close + 1;
                        }
                        None if self.beyond_limit() => {
                            fail!(1, COMMENT_TOO_LONG);
                            // Pass over it to its end, and read on.
                            if self.pass_until(b'}', false)? {
                                self.advance(1);
                            }
                        }
                        None => {
                            fail!(1, "comment without its closing }");
                            // Recover at the next line that starts a tag.
                            loop {
                                let hay = &self.buf[self.pos..self.end];
                                let found = memchr::memchr_iter(b'[', hay)
                                    .filter(|&i| i > 0 && CLASS[hay[i - 1] as usize] & BREAK != 0)
                                    .find(|&i| hay.get(i + 1).is_some_and(u8::is_ascii_alphabetic))
                                    .map(|i| i - 1);
                                match found {
                                    Some(i) => {
                                        self.advance(i + 1);
                                        return Ok(());
                                    }
                                    None => {
                                        let n = (self.end - self.pos).saturating_sub(2);
                                        self.advance(n);
                                        if self.eof {
                                            let n = self.end - self.pos;
                                            self.advance(n);
                                            return Ok(());
                                        }
                                        self.fill(false)?;
                                    }
                                }
                            }
                        }
                    }
                }
                b';' => {
                    let at = self.location();
                    let len = match self.find_eol(1)? {
                        Some(i) => i,
                        None if self.beyond_limit() => {
                            fail!(1, COMMENT_TOO_LONG);
                            self.skip_line()?;
                            continue;
                        }
                        None => self.end - self.pos,
                    };
                    if active {
                        let mut text = &self.buf[self.pos + 1..self.pos + len];
                        if let [rest @ .., b'\r'] = text {
                            text = rest;
                        }
                        if visitor.comment(RawText(text), at) == Flow::Skip {
                            skip = true;
                        }
                    }
                    self.advance(len);
                }
                b'%' if self.at_line_start() => self.skip_line()?,
                b'(' => {
                    if depth >= MAX_DEPTH {
                        fail!(1, "variations nested too deeply");
                    }
                    depth += 1;
                    if active && visitor.begin_variation(self.location()) == Flow::Skip {
                        skip_from = depth;
                    }
                    self.pos += 1;
                }
                b')' => {
                    if depth == 0 {
                        fail!(1, "unmatched )");
                    } else {
                        if active && visitor.end_variation(self.location()) == Flow::Skip {
                            skip = true;
                        }
                        if depth == skip_from {
                            skip_from = usize::MAX;
                        }
                        depth -= 1;
                    }
                    self.pos += 1;
                }
                b'}' | b']' | b'"' => {
                    fail!(1, "unexpected character");
                    self.pos += 1;
                }
                b'$' => {
                    let at = self.location();
                    let rest = &self.buf[self.pos + 1..self.end];
                    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
                    let value = rest[..digits].iter().try_fold(0u32, |acc, &d| {
                        acc.checked_mul(10)?.checked_add((d - b'0') as u32)
                    });
                    match value {
                        Some(n) if digits > 0 && n <= 255 => {
                            if active && visitor.nag(n as u8, at) == Flow::Skip {
                                skip = true;
                            }
                        }
                        // Beyond the standard's 0-255 (PGN §10): left out,
                        // the game read on (python-chess keeps such NAGs).
                        _ if digits > 0 => {
                            if active {
                                visitor.syntax_warning(SyntaxError {
                                    location: at,
                                    found: self.token_text(digits + 1),
                                    message: "a NAG above $255 left out (PGN §10: 0-255)",
                                });
                            }
                        }
                        _ => fail!(digits + 1, "a NAG is $ and a number 0-255"),
                    }
                    self.pos += 1 + digits;
                }
                _ => {
                    let at = self.location();
                    let avail = &self.buf[self.pos..self.end];
                    // The token's length, and whether any byte of it is
                    // not ASCII (for the column count), in one pass.
                    // (`*` ends every token and is one: PGN §7.)
                    let mut len = usize::from(b == b'*');
                    let mut bytes_or = 0u8;
                    loop {
                        while let Some(&c) = avail.get(len) {
                            if CLASS[c as usize] & END != 0 {
                                break;
                            }
                            bytes_or |= c;
                            len += 1;
                        }
                        // `hxg8(Q)`: the piece in brackets is the move's.
                        match avail.get(len) {
                            Some(b'(') if len > 0 => {
                                match bracketed_piece(&avail[..len], &avail[len..]) {
                                    0 => break,
                                    n => len += n,
                                }
                            }
                            _ => break,
                        }
                    }
                    if len >= LOOKAHEAD {
                        fail!(len, "a token too long for a move");
                        // Skip the rest of it.
                        let mut n = len;
                        loop {
                            self.advance(n);
                            self.ensure_lookahead()?;
                            let avail = &self.buf[self.pos..self.end];
                            match avail.iter().position(|&c| CLASS[c as usize] & END != 0) {
                                Some(i) => {
                                    self.advance(i);
                                    break;
                                }
                                None if avail.is_empty() => break,
                                None => n = avail.len(),
                            }
                        }
                        continue;
                    }
                    let mut token = classify(&self.buf[self.pos..self.pos + len]);
                    if let Token::Forfeit(r) = token {
                        // A result only where one can stand (nothing but
                        // comments before the next tags or the end of the
                        // input); elsewhere a glyph (`27...Kg7?? +-- D {…}`,
                        // as ChessBase's annotators write it).
                        token = if depth == 0 && self.game_ends_after(len)? {
                            Token::Result(r)
                        } else if r == GameResult::WhiteWins {
                            Token::Nag(18)
                        } else {
                            Token::Nag(19)
                        };
                    }
                    let tok = &self.buf[self.pos..self.pos + len];
                    match token {
                        // (A forfeit mark was settled above.)
                        Token::Number | Token::Ignore | Token::Forfeit(_) => {}
                        Token::Result(r) => {
                            if depth == 0 {
                                if active {
                                    visitor.result(r, at);
                                }
                                self.advance(len);
                                return self.skip_after_result(visitor);
                            }
                            fail!(len, "a result inside a variation");
                        }
                        Token::Nag(n) => {
                            if active && visitor.nag(n, at) == Flow::Skip {
                                skip = true;
                            }
                        }
                        Token::Move { start, len: n, nag } => {
                            if active {
                                let at = if start == 0 {
                                    at
                                } else {
                                    Location {
                                        column: at.column + start as u64
                                            - continuation_bytes(&tok[..start]),
                                        offset: at.offset + start as u64,
                                        ..at
                                    }
                                };
                                if visitor.san(&tok[start..start + n], at) == Flow::Skip
                                    || (nag != 0 && visitor.nag(nag, at) == Flow::Skip)
                                {
                                    skip = true;
                                }
                            }
                        }
                    }
                    // A token holds no line break.
                    if !bytes_or.is_ascii() {
                        let tok = &self.buf[self.pos..self.pos + len];
                        self.line_extra += continuation_bytes(tok);
                    }
                    self.pos += len;
                }
            }
        }
    }
}

/// How close to the buffer's end [`Reader::fast_movetext`] stops: every
/// token it reads whole lies within this many bytes.
const FAST_MARGIN: usize = 64;

/// [`Reader::fast_movetext`]'s byte classes.
const F_OTHER: u8 = 0;
const F_SPACE: u8 = 1;
const F_NEWLINE: u8 = 2;
const F_DIGIT: u8 = 3;
const F_SAN: u8 = 4;
const F_COMMENT: u8 = 5;

/// What a byte starts, for [`Reader::fast_movetext`]: a space, a line break,
/// a move number (digit), a move (a file or a piece letter, `O`), a comment.
static FAST: [u8; 256] = {
    let mut t = [F_OTHER; 256];
    t[b' ' as usize] = F_SPACE;
    t[b'\n' as usize] = F_NEWLINE;
    let mut c = b'0';
    while c <= b'9' {
        t[c as usize] = F_DIGIT;
        c += 1;
    }
    let mut c = b'a';
    while c <= b'h' {
        t[c as usize] = F_SAN;
        c += 1;
    }
    let pieces = [b'N', b'B', b'R', b'Q', b'K', b'O'];
    let mut i = 0;
    while i < pieces.len() {
        t[pieces[i] as usize] = F_SAN;
        i += 1;
    }
    t[b'{' as usize] = F_COMMENT;
    t
};

/// The bytes of a move token as strict SAN writes it (files, ranks, piece
/// letters, `x`, `=`, `+`, `#`, `-`): a token of these alone, starting as a
/// move does, is a move whatever the general classifier would add.
static SAN_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let bytes = b"abcdefgh12345678NBRQKOx=+#-";
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
};

/// The bytes that end a move token in [`Reader::fast_movetext`]: those
/// that end any token (`CLASS` `END`) but `(`, which may open the piece a
/// pawn becomes (`hxg8(Q)`), left to the general loop.
static SAN_END: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = CLASS[i] & END != 0 && i != b'(' as usize;
        i += 1;
    }
    t
};

/// The length of a promotion piece in brackets, `(Q)`, at the start of
/// `rest`, after a move token ending `tok` on a rank (`hxg8`), as old books
/// and files write it; 0 if there is none.
#[inline(never)]
fn bracketed_piece(tok: &[u8], rest: &[u8]) -> usize {
    let on_rank = matches!(tok.last(), Some(b'1' | b'8'));
    match rest {
        [b'(', piece, b')', ..] if on_rank && b"QRBNqrbn".contains(piece) => 3,
        _ => 0,
    }
}

impl<R: Read> Reader<R> {
    /// Reads the movetext's common tokens (single spaces and line breaks,
    /// move numbers, moves in plain SAN, one-line `{…}` comments) in one loop
    /// over the buffer with the reader's state in locals, calling `visitor`
    /// for them when `active`; stops before any other token and
    /// [`FAST_MARGIN`] bytes before the buffer's end, leaving the rest to the
    /// general loop of [`Reader::read_movetext`] (which reads them exactly as
    /// it reads every token). `true` if the visitor asked to skip.
    #[inline(always)]
    fn fast_movetext<V: Visitor>(&mut self, visitor: &mut V, mut active: bool) -> bool {
        if self.cr_lines {
            // It counts LFs only.
            return false;
        }
        let base = self.base;
        let buf = &self.buf[..self.end];
        let limit = buf.len().saturating_sub(FAST_MARGIN);
        let mut p = self.pos;
        let mut line = self.line;
        let mut line_start = self.line_start;
        let mut line_extra = self.line_extra;
        let mut skip = false;
        while p < limit {
            match FAST[buf[p] as usize] {
                F_SPACE => p += 1,
                F_NEWLINE => {
                    line += 1;
                    p += 1;
                    line_start = base + p as u64;
                    line_extra = 0;
                }
                F_DIGIT => {
                    // A move number: digits, dots, then the token's end.
                    let win = &buf[p..p + FAST_MARGIN];
                    let mut q = 1;
                    while q < FAST_MARGIN && win[q].is_ascii_digit() {
                        q += 1;
                    }
                    let digits = q;
                    while q < FAST_MARGIN && win[q] == b'.' {
                        q += 1;
                    }
                    if q == digits || q == FAST_MARGIN || CLASS[win[q] as usize] & END == 0 {
                        break;
                    }
                    // The single space after it, without going round the loop.
                    p += q + (win[q] == b' ') as usize;
                }
                F_SAN => {
                    let win = &buf[p..p + FAST_MARGIN];
                    let mut q = 1;
                    while q < FAST_MARGIN && SAN_BYTE[win[q] as usize] {
                        q += 1;
                    }
                    if q == FAST_MARGIN || !SAN_END[win[q] as usize] {
                        break;
                    }
                    let space = (win[q] == b' ') as usize;
                    let q = p + q;
                    if active {
                        let at = fast_location(base + p as u64, line, line_start, line_extra);
                        if visitor.san(&buf[p..q], at) == Flow::Skip {
                            active = false;
                            skip = true;
                        }
                    }
                    p = q + space;
                }
                F_COMMENT => {
                    // A comment on one line: `{` to `}` without a line break.
                    // (Longer than the limit: the general loop's error.)
                    let hay = &buf[p + 1..];
                    let close = match crate::scan::find2(b'}', b'\n', hay) {
                        Some(k) if hay[k] == b'}' && k < MAX_CHUNK - 1 => p + 1 + k,
                        _ => break,
                    };
                    if active {
                        let at = fast_location(base + p as u64, line, line_start, line_extra);
                        if visitor.comment(RawText(&buf[p + 1..close]), at) == Flow::Skip {
                            active = false;
                            skip = true;
                        }
                    }
                    let text = &buf[p..=close];
                    if !text.is_ascii() {
                        line_extra += continuation_bytes(text);
                    }
                    p = close + 1;
                }
                _ => break,
            }
        }
        self.pos = p;
        self.line = line;
        self.line_start = line_start;
        self.line_extra = line_extra;
        skip
    }
}

/// The length of the move number (digits, then dots, then the end of the
/// token) at the start of `rest`, or 0 if there is none. `rest` holds the
/// reader's lookahead, or the rest of the input.
#[inline]
fn move_number_len(rest: &[u8]) -> usize {
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let dots = rest[digits..].iter().take_while(|&&b| b == b'.').count();
    let len = digits + dots;
    match rest.get(len) {
        _ if dots == 0 || len >= LOOKAHEAD => 0,
        Some(&b) if CLASS[b as usize] & END == 0 => 0,
        _ => len,
    }
}

/// The bit of a Seven Tag Roster name (PGN §8.1.1) at the start of a tag
/// line `rest` (`[Event "…"]`), or 0 for another tag. (A name written with
/// spaces after `[` or glued to its value counts as another tag: rare, and
/// then only a game without movetext goes unparted.)
#[inline]
fn roster_bit(rest: &[u8]) -> u8 {
    let name =
        |n: &[u8]| rest.len() > n.len() + 1 && &rest[1..=n.len()] == n && rest[n.len() + 1] == b' ';
    match rest.get(1) {
        Some(b'E') if name(b"Event") => 1,
        Some(b'S') if name(b"Site") => 2,
        Some(b'D') if name(b"Date") => 4,
        Some(b'R') if name(b"Round") => 8,
        Some(b'R') if name(b"Result") => 64,
        Some(b'W') if name(b"White") => 16,
        Some(b'B') if name(b"Black") => 32,
        _ => 0,
    }
}

/// A forum wrapper line, `[pgn]` or `[/pgn]` (any case, spaces around).
fn is_wrapper(rest: &[u8]) -> bool {
    let line = match memchr::memchr2(b'\n', b'\r', rest) {
        Some(i) => &rest[..i],
        None => rest,
    };
    let t = line.trim_ascii();
    t.eq_ignore_ascii_case(b"[pgn]") || t.eq_ignore_ascii_case(b"[/pgn]")
}

impl<R: Read> Reader<R> {
    /// At a `[pgn]` or `[/pgn]` line (looked at only when `[` is followed by
    /// `p`, `P` or `/`).
    #[inline]
    fn at_wrapper(&self) -> bool {
        let rest = &self.buf[self.pos..self.end];
        matches!(rest.get(1), Some(b'p' | b'P' | b'/')) && is_wrapper(rest)
    }

    /// Whether the game ends after the `len` bytes at the reader's
    /// position: only whitespace and comments follow them before a tag, a
    /// forum wrapper or the end of the input. Reads ahead without passing
    /// anything.
    fn game_ends_after(&mut self, len: usize) -> io::Result<bool> {
        let mut i = len;
        loop {
            if self.pos + i >= self.end {
                let had = self.end - self.pos;
                if !self.eof {
                    self.fill(true)?;
                }
                if self.end - self.pos == had {
                    // The end of the input (or of what the reader may hold).
                    return Ok(true);
                }
                continue;
            }
            let b = self.buf[self.pos + i];
            if CLASS[b as usize] & WS != 0 {
                i += 1;
                continue;
            }
            let found = match b {
                b'{' => self.find(i + 1, b'}')?,
                b';' => self.find_eol(i + 1)?,
                b'[' => return Ok(true),
                _ => return Ok(false),
            };
            match found {
                Some(j) => i = j + 1,
                None => return Ok(true),
            }
        }
    }

    /// After the result: comments that follow it (`1-0 {White won on time}`,
    /// `1-0 ; end`) belong to the game that ended, not to a new empty one;
    /// so does a second termination marker (`1-0 1-0`), passed over and told
    /// to the visitor ([`Visitor::stray_result`]).
    #[inline(never)] // once a game
    fn skip_after_result<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        loop {
            self.skip_ws()?;
            self.ensure_lookahead()?;
            let rest = &self.buf[self.pos..self.end];
            let len = match rest.first() {
                Some(b'*') => 1,
                _ => rest
                    .iter()
                    .position(|&c| CLASS[c as usize] & END != 0)
                    .unwrap_or(rest.len()),
            };
            if len > 0 && len < LOOKAHEAD {
                if let Token::Result(r) = classify(&rest[..len]) {
                    visitor.stray_result(r, self.location());
                    self.advance(len);
                    continue;
                }
            }
            match self.buf[self.pos..self.end].first() {
                Some(b';') => self.skip_line()?,
                Some(b'{') => match self.find(1, b'}')? {
                    Some(i) => self.advance(i + 1),
                    // Longer than a comment may be: passed over all the same
                    // (nothing is kept of it).
                    None if self.beyond_limit() => {
                        if self.pass_until(b'}', false)? {
                            self.advance(1);
                        }
                    }
                    // Unclosed: leave it for the next game to report.
                    None => return Ok(()),
                },
                _ => return Ok(()),
            }
        }
    }
}

#[inline]
fn continuation_bytes(s: &[u8]) -> u64 {
    if s.is_ascii() {
        0
    } else {
        s.iter().filter(|&&b| b & 0xc0 == 0x80).count() as u64
    }
}

/// The location of the byte at `offset` on `line` of the fast movetext loop
/// (`line_start`: the offset the line starts at; `line_extra`: the bytes of
/// multi-byte characters before `offset` on it, so the column counts
/// characters).
#[inline(always)]
fn fast_location(offset: u64, line: u64, line_start: u64, line_extra: u64) -> Location {
    Location {
        line,
        column: offset - line_start - line_extra + 1,
        offset,
    }
}
