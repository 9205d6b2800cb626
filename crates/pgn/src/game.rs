//! A game record (FIDE Art. 8): tags, moves with their comments, annotations
//! and clock times, variations as a tree, and the result. The model only:
//! [`crate::GameBuilder`] builds it from PGN, [`crate::writer`] writes it.

use crate::notation::ReadMoveError;
use crate::reader::{symbol_char, Location};
pub use crate::result::GameResult;
use crate::start::standard;
use crate::time_control::{ParseTimeControlError, TimeControl};
use arbiter_chess::{Bitboard, Color, FenError, Move, Position, Square};
use std::fmt;

/// Tag pairs in the order read or set.
///
/// ```
/// use arbiter_pgn::Tags;
/// let mut tags = Tags::new();
/// tags.push("White", "Tal");
/// tags.set("Black", "Botvinnik");
/// tags.set("White", "Tal, Mikhail");
/// assert_eq!(tags.get("White"), Some("Tal, Mikhail"));
/// assert_eq!(tags.iter().map(|(n, _)| n).collect::<Vec<_>>(), ["White", "Black"]);
/// assert_eq!(tags.remove("Black").as_deref(), Some("Botvinnik"));
/// assert_eq!(tags.len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tags(Vec<(String, String)>);

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags(Vec::new())
    }

    /// The value of the first tag called `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets `name` to `value`, in place if present, else at the end. A
    /// name that is not a PGN symbol is written with `_` for each character
    /// a symbol cannot hold ([`Tags::try_set`] refuses it instead).
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let (name, value) = (name.into(), value.into());
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name, value)),
        }
    }

    /// [`Tags::set`] for a name that must be a PGN symbol (PGN §8.1.1:
    /// letters, digits, `_ + # = : -`, at least one): a name PGN cannot
    /// write, which its reader would refuse, is an error.
    ///
    /// ```
    /// use arbiter_pgn::Tags;
    /// let mut tags = Tags::new();
    /// assert!(tags.try_set("Annotator", "Tal").is_ok());
    /// let err = tags.try_set("Bad Name]", "x").unwrap_err();
    /// assert_eq!(err.to_string(), "tag name \"Bad Name]\": a PGN symbol (letters, digits and _ + # = : -) holds no ' ' (character 4)");
    /// assert!(tags.try_set("", "x").is_err());
    /// assert_eq!(tags.len(), 1);
    /// ```
    pub fn try_set(
        &mut self,
        name: impl Into<String>,
        value: impl Into<String>,
    ) -> Result<(), BadTagName> {
        let name = name.into();
        check_tag_name(&name)?;
        self.set(name, value);
        Ok(())
    }

    /// Removes every tag called `name`; returns the first value.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let first = self.get(name).map(str::to_owned);
        self.0.retain(|(n, _)| n != name);
        first
    }

    /// Appends a tag as read (a repeated name is kept).
    pub fn push(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.0.push((name.into(), value.into()));
    }

    /// The tags in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The number of tags.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// `true` if there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A tag name PGN cannot write ([`Tags::try_set`]): empty, or holding a
/// character a PGN symbol cannot (PGN §7, §8.1.1).
///
/// ```
/// use arbiter_pgn::Tags;
/// let err = Tags::new().try_set("White Elo", "2700").unwrap_err();
/// assert_eq!(err.bad, Some((5, ' ')));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("tag name {}: {}", arbiter_chess::Excerpt(.name), match .bad {
    Some((at, c)) => format!("a PGN symbol (letters, digits and _ + # = : -) holds no {c:?} (character {})", at + 1),
    None => "empty; a PGN symbol has at least one character".to_owned(),
})]
pub struct BadTagName {
    /// The name given.
    pub name: String,
    /// Its first character a symbol cannot hold, and its 0-based index in
    /// characters (`None`: the name is empty).
    pub bad: Option<(usize, char)>,
}

/// `Ok` if `name` is a PGN symbol a tag may be called.
fn check_tag_name(name: &str) -> Result<(), BadTagName> {
    let bad = match name.chars().enumerate().find(|&(_, c)| !symbol_char(c)) {
        None if !name.is_empty() => return Ok(()),
        found => found,
    };
    Err(BadTagName {
        name: name.to_owned(),
        bad,
    })
}

/// `name` as a PGN symbol: each character a symbol cannot hold as `_`, an
/// empty name as `_` (what the writer writes for a name set otherwise).
pub(crate) fn tag_symbol(name: &str) -> std::borrow::Cow<'_, str> {
    if check_tag_name(name).is_ok() {
        return std::borrow::Cow::Borrowed(name);
    }
    let mut out: String = name
        .chars()
        .map(|c| if symbol_char(c) { c } else { '_' })
        .collect();
    if out.is_empty() {
        out.push('_');
    }
    std::borrow::Cow::Owned(out)
}

/// A move in a record with what is written about it.
///
/// A null move (`--`, `Z0`: "pass", written in analysis, never a move under
/// the Laws, Art. 3) is kept as [`Node::NULL_MOVE`]; [`Node::is_null`] tells.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_pgn::Node;
/// let e4 = Position::standard().parse_san("e4")?;
/// let mut node = Node::new(e4);
/// node.nags.push(1); // e4!
/// assert!(!node.is_null());
/// assert!(Node::null().is_null());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move (legal in the position before it).
    pub mv: Move,
    /// Numeric annotation glyphs (`$1` …), in order.
    pub nags: Vec<u8>,
    /// Comments after the move (whitespace collapsed; the `[%clk]` command
    /// taken out into [`Node::clock_ms`]).
    pub comments: Vec<String>,
    /// The mover's clock after the move, in milliseconds (`[%clk h:mm:ss]`).
    pub clock_ms: Option<u64>,
    /// A draw offered with this move, recorded `(=)` (FIDE Art. 8.1, C.12).
    pub draw_offer: bool,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: Vec<Line>,
}

impl Node {
    /// How a null move is stored: from a1 to a1, a shape no move has.
    pub const NULL_MOVE: Move = Move::new(Square::A1, Square::A1);

    /// A null move (`--`).
    pub fn null() -> Node {
        Node::new(Node::NULL_MOVE)
    }

    /// `true` for a null move.
    pub fn is_null(&self) -> bool {
        self.mv == Node::NULL_MOVE
    }

    /// A bare move.
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            clock_ms: None,
            draw_offer: false,
            variations: Vec::new(),
        }
    }
}

/// A sequence of moves: the main line or a variation.
///
/// ```
/// use arbiter_pgn::Reader;
/// let game = Reader::new("1. e4 (1. d4 d5) 1... e5 *".as_bytes()).next_game()?.expect("a game");
/// assert_eq!(game.line.nodes.len(), 2);
/// let d4 = &game.line.nodes[0].variations[0];
/// assert_eq!(d4.nodes.len(), 2);
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Line {
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The moves.
    pub nodes: Vec<Node>,
}

impl Line {
    /// Adds `text` as a comment after the line's last move (before the
    /// first move if it has none): what closes a record (the end of the
    /// game, an arbiter's note, where a reading stopped).
    ///
    /// ```
    /// use arbiter_pgn::Reader;
    /// let mut game = Reader::new("1. e4 *".as_bytes()).next_game()?.expect("a game");
    /// game.line.comment_at_end("adjourned".to_owned());
    /// assert_eq!(game.line.nodes[0].comments, ["adjourned"]);
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn comment_at_end(&mut self, text: String) {
        match self.nodes.last_mut() {
            Some(node) => node.comments.push(text),
            None => self.comments.push(text),
        }
    }
}

/// A move's number as a record writes it: `22.` for White's move, `22...`
/// for Black's (FIDE Art. 8.1; PGN §8.2.2).
///
/// ```
/// use arbiter_chess::{Color, Position};
/// use arbiter_pgn::game::MoveNumber;
/// let start = Position::from_fen_auto("4k3/8/8/8/8/8/8/4K2R b K - 0 20")?;
/// // The fourth ply from a start with Black to move at move 20.
/// let n = MoveNumber::of_ply(&start, 4);
/// assert_eq!((n.number, n.color), (22, Color::White));
/// assert_eq!(MoveNumber::of_ply(&start, 5).to_string(), "22...");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveNumber {
    /// The move number (FEN's sixth field counts the same).
    pub number: u32,
    /// Who plays the move.
    pub color: Color,
}

impl MoveNumber {
    /// The number of the `ply`-th move (1-based) played from `start`.
    pub fn of_ply(start: &Position, ply: u32) -> MoveNumber {
        MoveNumber::of_ply_from((start.turn(), start.fullmoves()), ply)
    }

    /// [`MoveNumber::of_ply`] from a start position's side to move and
    /// move number.
    pub(crate) fn of_ply_from((turn, fullmoves): (Color, u32), ply: u32) -> MoveNumber {
        let from_white = u64::from(ply.max(1) - 1) + u64::from(turn == Color::Black);
        let number = u64::from(fullmoves) + from_white / 2;
        MoveNumber {
            number: u32::try_from(number).unwrap_or(u32::MAX),
            color: if from_white % 2 == 0 {
                Color::White
            } else {
                Color::Black
            },
        }
    }
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dots = if self.color == Color::White {
            "."
        } else {
            "..."
        };
        write!(f, "{}{dots}", self.number)
    }
}

/// What is wrong with a game, and where: the line and column in the input,
/// and the move as the record numbers it (besides its ply).
///
/// ```
/// use arbiter_pgn::Reader;
/// let game = Reader::new("1. e4 e5 2. Ke3 *".as_bytes()).next_game()?.expect("a game");
/// let error = game.error.expect("an illegal move");
/// assert_eq!((error.location.line, error.location.column, error.ply), (1, 13, Some(3)));
/// assert_eq!(error.move_number.map(|n| n.to_string()).as_deref(), Some("2."));
/// assert!(!error.in_variation);
/// assert!(error.to_string().starts_with("game 1, line 1, column 13, move 2. (ply 3), at \"Ke3\": illegal move"));
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, {location}{}{}{}: {kind}",
    match (.move_number, .ply) {
        (Some(n), Some(p)) => format!(", move {n} (ply {p})"),
        (None, Some(p)) => format!(", ply {p}"),
        _ => String::new(),
    },
    if *.in_variation { ", in a variation" } else { "" },
    .text.as_ref().map(|t| format!(", at {t:?}")).unwrap_or_default())]
pub struct GameError {
    /// 1-based number of the game in the input.
    pub game: u64,
    /// Where in the input.
    pub location: Location,
    /// 1-based ply of the move at fault (counted from the game's start).
    pub ply: Option<u32>,
    /// The number of that move as the record writes it (`22...`), counted
    /// from the start position's move number.
    pub move_number: Option<MoveNumber>,
    /// The text at fault (the move as written, or the token).
    pub text: Option<String>,
    /// The fault is inside a variation: the main line was read on.
    pub in_variation: bool,
    /// What is wrong.
    pub kind: GameErrorKind,
}

impl GameError {
    /// What is wrong, saying "in a variation" when it is: the message of
    /// `arbiter pgn check`'s JSON lines.
    ///
    /// ```
    /// use arbiter_pgn::Reader;
    /// let pgn = "1. e4 e5 2. Nf3 (2. e4 d5) 2... Nc6 3. Bb5 *";
    /// let game = Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
    /// assert_eq!(game.mainline().count(), 5);
    /// let error = game.error.expect("2. e4 is illegal");
    /// assert!(error.message().starts_with("in a variation: illegal move \"e4\""));
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn message(&self) -> String {
        if self.in_variation {
            format!("in a variation: {}", self.kind)
        } else {
            self.kind.to_string()
        }
    }
}

/// The kinds of [`GameError`].
///
/// ```
/// use arbiter_pgn::{check::Checker, GameErrorKind, Reader};
/// // Read, but not a move under the Laws.
/// let checked = Reader::new("1. e4 -- 2. d4 *".as_bytes()).read_game(&mut Checker::new())?.expect("a game");
/// assert_eq!(checked.error.map(|e| e.kind), Some(GameErrorKind::NullMove));
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameErrorKind {
    /// The PGN syntax is broken.
    #[error("{0}")]
    Syntax(&'static str),
    /// A move is unreadable, illegal or ambiguous.
    #[error(transparent)]
    Move(ReadMoveError),
    /// The `FEN` tag is not a legal position.
    #[error("FEN tag: {0}")]
    Fen(FenError),
    /// A null move (`--`, `Z0`): read, as analysis writes it, but no move
    /// under the Laws (Art. 3: a move moves a piece). Only
    /// [`crate::check::Checker`] reports it; [`crate::GameBuilder`] keeps it.
    #[error("a null move (-- or Z0) is not a move under the Laws (Art. 3)")]
    NullMove,
    /// The `Variant` tag names a game other than chess or Chess960.
    #[error("unsupported variant {0:?}: only standard chess and Chess960")]
    Variant(String),
    /// Anything else (the message says what).
    #[error("{0}")]
    Other(&'static str),
}

/// Something a reader accepted but changed: the game was read on.
///
/// ```
/// use arbiter_pgn::{Reader, WarningKind};
/// let pgn = "[FEN \"4k3/8/8/8/8/8/8/4K2R w KQ - 0 1\"]\n\n1. O-O *";
/// let game = Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
/// assert!(game.error.is_none());
/// assert!(matches!(game.warnings[0].kind, WarningKind::CastlingRightsDropped { .. }));
/// assert_eq!(game.warnings[0].location.line, 1);
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, {location}: {kind}")]
pub struct GameWarning {
    /// 1-based number of the game in the input.
    pub game: u64,
    /// Where in the input.
    pub location: Location,
    /// What was changed.
    pub kind: WarningKind,
}

/// The kinds of [`GameWarning`].
///
/// ```
/// use arbiter_chess::{Bitboard, Square};
/// use arbiter_pgn::WarningKind;
/// let w = WarningKind::CastlingRightsDropped {
///     rooks: Bitboard::from_square(Square::A1),
///     reason: "no rook of that colour stands there",
/// };
/// assert_eq!(w.to_string(), "FEN tag: castling right for the rook on a1 dropped: no rook of that colour stands there");
/// let w = WarningKind::EnPassantDropped { square: Square::E4, reason: "with Black to move it must be on rank 3" };
/// assert_eq!(w.to_string(), "FEN tag: en-passant square e4 dropped: with Black to move it must be on rank 3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WarningKind {
    /// The `FEN` tag gives castling rights its king and rooks cannot have
    /// (no rook there, the king away, or, in standard chess, a right only
    /// Chess960 has); they were dropped (as python-chess and scalachess do)
    /// instead of rejecting the game. One warning per reason.
    #[error("FEN tag: castling right{} for the rook{} on {} dropped: {reason}",
        if .rooks.count() > 1 { "s" } else { "" },
        if .rooks.count() > 1 { "s" } else { "" },
        .rooks.into_iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", "))]
    CastlingRightsDropped {
        /// The rook squares whose rights were dropped.
        rooks: Bitboard,
        /// Why they cannot castle.
        reason: &'static str,
    },
    /// The `FEN` tag gives an en-passant square no double step can have
    /// produced (`e4` for `e3`, say); it was dropped (as python-chess and
    /// scalachess ignore it) instead of rejecting the game.
    #[error("FEN tag: en-passant square {square} dropped: {reason}")]
    EnPassantDropped {
        /// The square given.
        square: Square,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A termination marker after the game's own (`4. Qxf7# 1-0 1-0`), with
    /// no tags or moves of its own: no game, passed over.
    #[error("a second termination marker {0} after the game's end: ignored")]
    StrayResult(GameResult),
    /// The PGN syntax was broken where the reader could mend it (a tag
    /// value without its closing quote, a tag without its `]`, a NAG above
    /// 255): the message says what was done.
    #[error("{message}{}", if .found.is_empty() { String::new() } else { format!(" (found {:?})", .found) })]
    Syntax {
        /// What was wrong and what was done.
        message: &'static str,
        /// The text found there.
        found: String,
    },
    /// The `Result` tag and the movetext's termination marker differ (PGN
    /// §8.2.6: they must be the same): the tag is the game's result, as
    /// python-chess reads it.
    #[error("the Result tag says {tag} but the movetext ends {marker} (PGN §8.2.6: they must match): the tag's {tag} is taken")]
    ResultMismatch {
        /// The `Result` tag.
        tag: GameResult,
        /// The termination marker.
        marker: GameResult,
    },
    /// The movetext ends without a termination marker (PGN §8.2.6: every
    /// game ends with one); the `Result` tag, else `*`, is taken.
    #[error("the movetext ends without a termination marker (1-0, 0-1, 1/2-1/2 or *; PGN §8.2.6)")]
    NoTerminationMarker,
    /// In a game read as Russian (a Cyrillic piece letter seen earlier), a
    /// move with a Latin letter names a legal move in English too, and
    /// another: it is read as its letters' script says (`Kd2`, Latin `K`:
    /// the king), not as the Russian look-alike (`Кd2`, the knight).
    #[error("{text:?} read as {read} (its letter is Latin: English); as the Russian look-alike it would be {other}")]
    LatinLetterReadAsEnglish {
        /// The move as written.
        text: String,
        /// The move read, in SAN.
        read: String,
        /// The Russian reading, in SAN.
        other: String,
    },
}

/// A game record.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_pgn::{Game, GameResult};
/// let mut game = Game::default();
/// let e4 = Position::standard().parse_san("e4")?;
/// game.push(e4)?;
/// game.set_result(GameResult::Unknown);
/// assert_eq!(game.final_position().fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// assert!(game.to_pgn().contains("\n1. e4 *"));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The tag pairs.
    pub tags: Tags,
    /// The starting position (from the `FEN` and `Variant` tags when read).
    pub start: Position,
    /// The main line.
    pub line: Line,
    /// The termination marker of the movetext, if there was one.
    pub result: Option<GameResult>,
    /// The first error met while reading, if any: everything before it is
    /// kept. An error in the main line wins over one in a variation (after
    /// which the main line was read on).
    pub error: Option<GameError>,
    /// What the reader changed to go on (castling rights dropped, …).
    pub warnings: Vec<GameWarning>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(standard())
    }
}

impl Game {
    /// An empty game from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            tags: Tags::new(),
            start,
            line: Line::default(),
            result: None,
            error: None,
            warnings: Vec::new(),
        }
    }

    /// The main-line moves (a null move as [`Node::NULL_MOVE`]).
    pub fn mainline(&self) -> impl Iterator<Item = Move> + '_ {
        self.line.nodes.iter().map(|n| n.mv)
    }

    /// Appends `m` to the main line if it is legal in the final position.
    pub fn push(&mut self, m: Move) -> Result<&mut Node, arbiter_chess::IllegalMoveError> {
        let mut pos = self.final_position();
        pos.play(m)?;
        self.line.nodes.push(Node::new(m));
        let last = self.line.nodes.len() - 1;
        Ok(&mut self.line.nodes[last])
    }

    /// The position after the main line.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start;
        for m in self.mainline() {
            if m == Node::NULL_MOVE {
                pos.play_null();
            } else {
                pos.play_unchecked(m);
            }
        }
        pos
    }

    /// Sets the result: the termination marker and the `Result` tag alike.
    pub fn set_result(&mut self, result: GameResult) {
        self.result = Some(result);
        self.tags.set("Result", result.as_str());
    }

    /// The `TimeControl` tag, read (`None` if absent).
    pub fn time_control(&self) -> Option<Result<TimeControl, ParseTimeControlError>> {
        self.tags.get("TimeControl").map(TimeControl::parse)
    }

    /// The result: the `Result` tag if it reads as one, else the movetext's
    /// marker, else `*` — the rule of `arbiter pgn check` and of
    /// python-chess. (PGN §8.2.6: the two must match; the readers warn when
    /// they do not, [`WarningKind::ResultMismatch`].)
    ///
    /// ```
    /// use arbiter_pgn::{GameResult, Reader};
    /// let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# *";
    /// let game = Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
    /// assert_eq!(game.result(), GameResult::WhiteWins);
    /// assert!(game.to_pgn().ends_with("4. Qxf7# 1-0\n\n"));
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn result(&self) -> GameResult {
        self.tags
            .get("Result")
            .and_then(GameResult::from_pgn)
            .or(self.result)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_and_time_control() {
        let mut g = Game::default();
        g.set_result(GameResult::Draw);
        assert_eq!(g.tags.get("Result"), Some("1/2-1/2"));
        assert_eq!(g.result(), GameResult::Draw);
        assert!(g.time_control().is_none());
        g.tags.set("TimeControl", "40/5400+30:1800+30");
        assert_eq!(g.time_control().unwrap().unwrap().periods().len(), 2);
    }
}
