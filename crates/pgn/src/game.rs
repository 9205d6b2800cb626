//! A game record (FIDE Art. 8): tags, moves with their comments, annotations
//! and clock times, variations as a tree, and the result; and the visitor that
//! builds it from PGN ([`GameBuilder`]).

use crate::notation::{read_move_bytes, Dialect, Notation, ReadMoveError};
use crate::reader::{Flow, Location, RawText, SyntaxError, Visitor};
use crate::time_control::{ParseTimeControlError, TimeControl};
use arbiter_chess::{CastlingMode, FenError, Move, Position, Setup};
use std::fmt;

/// The game termination marker and `Result` tag (PGN §8.2.6; FIDE Art. 5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, or the game goes on.
    #[default]
    Unknown,
}

impl GameResult {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result as PGN writes it (also `½-½`).
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        Some(match text.trim() {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Tag pairs in the order read or set.
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

    /// Sets `name` to `value`, in place if present, else at the end.
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let (name, value) = (name.into(), value.into());
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name, value)),
        }
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

/// A move in a record with what is written about it.
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
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Line {
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The moves.
    pub nodes: Vec<Node>,
}

/// What is wrong with a game, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, {location}{}{}: {kind}",
    .ply.map(|p| format!(", ply {p}")).unwrap_or_default(),
    .text.as_ref().map(|t| format!(", at {t:?}")).unwrap_or_default())]
pub struct GameError {
    /// 1-based number of the game in the input.
    pub game: u64,
    /// Where in the input.
    pub location: Location,
    /// 1-based ply of the move at fault (counted from the game's start).
    pub ply: Option<u32>,
    /// The text at fault (the move as written, or the token).
    pub text: Option<String>,
    /// What is wrong.
    pub kind: GameErrorKind,
}

/// The kinds of [`GameError`].
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
    /// The `Variant` tag names a game other than chess or Chess960.
    #[error("unsupported variant {0:?}: only standard chess and Chess960")]
    Variant(String),
    /// Anything else (the message says what).
    #[error("{0}")]
    Other(&'static str),
}

/// A game record.
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
    /// kept.
    pub error: Option<GameError>,
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
        }
    }

    /// The main-line moves.
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
            pos.play_unchecked(m);
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

    /// The result: the movetext marker, else the `Result` tag, else `*`.
    pub fn result(&self) -> GameResult {
        self.result
            .or_else(|| self.tags.get("Result").and_then(GameResult::from_pgn))
            .unwrap_or_default()
    }
}

/// The starting position a game's tags name: `FEN` (with `SetUp`), and
/// `Variant` (`Chess960` and its other names select Chess960 castling).
pub fn start_position(tags: &Tags) -> Result<Position, GameErrorKind> {
    start_position_of(tags.get("Variant"), tags.get("FEN"))
}

pub(crate) fn start_position_of(
    variant: Option<&str>,
    fen: Option<&str>,
) -> Result<Position, GameErrorKind> {
    let chess960 = match variant {
        None => false,
        Some(v) => {
            let key: String = v
                .chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect();
            match key.as_str() {
                "" | "standard" | "chess" | "normal" | "fromposition" | "classical" => false,
                "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess"
                | "frc" => true,
                _ => return Err(GameErrorKind::Variant(v.to_owned())),
            }
        }
    };
    match fen.map(str::trim) {
        Some(fen) if !fen.is_empty() => {
            let setup = Setup::from_fen(fen).map_err(|e| GameErrorKind::Fen(e.into()))?;
            let mode = if chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::detect(&setup)
            };
            Position::from_setup(setup, mode).map_err(|e| GameErrorKind::Fen(e.into()))
        }
        _ if chess960 => Position::chess960(518).ok_or(GameErrorKind::Other("no Chess960 start")),
        _ => Ok(standard()),
    }
}

/// The standard starting position, validated once.
pub(crate) fn standard() -> Position {
    static STANDARD: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
    *STANDARD.get_or_init(Position::standard)
}

/// Collapses runs of whitespace to one space and trims.
pub(crate) fn clean_comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Takes a `[%clk h:mm:ss]` command out of a comment: the time in
/// milliseconds, and the rest of the comment.
pub fn take_clock(comment: &str) -> (Option<u64>, String) {
    let Some(at) = comment.find("[%clk") else {
        return (None, comment.to_owned());
    };
    let Some(len) = comment[at..].find(']') else {
        return (None, comment.to_owned());
    };
    let body = comment[at + 5..at + len].trim();
    match parse_clock(body) {
        Some(ms) => {
            let rest = format!("{} {}", &comment[..at], &comment[at + len + 1..]);
            (Some(ms), clean_comment(&rest))
        }
        None => (None, comment.to_owned()),
    }
}

/// Reads `h:mm:ss`, `m:ss` or `s`, each with optional decimals.
pub fn parse_clock(text: &str) -> Option<u64> {
    let mut parts = text.split(':').rev();
    let secs = parts.next()?;
    let (whole, frac) = secs.split_once('.').unwrap_or((secs, ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) || whole.len() > 9 {
        return None;
    }
    if frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut ms: u64 = whole.parse::<u64>().ok()? * 1000;
    let mut scale = 100;
    for d in frac.bytes().take(3) {
        ms += (d - b'0') as u64 * scale;
        scale /= 10;
    }
    for (unit, part) in [60_000u64, 3_600_000].into_iter().zip(parts.by_ref()) {
        if part.is_empty() || part.len() > 9 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        ms = ms.checked_add(part.parse::<u64>().ok()?.checked_mul(unit)?)?;
    }
    if parts.next().is_some() {
        return None;
    }
    Some(ms)
}

/// Writes milliseconds as `h:mm:ss` (with decimals when not whole seconds).
pub fn format_clock(ms: u64) -> String {
    let secs = ms / 1000;
    let mut s = format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    let frac = ms % 1000;
    if frac != 0 {
        let f = format!("{frac:03}");
        s.push('.');
        s.push_str(f.trim_end_matches('0'));
    }
    s
}

/// The most moves (all lines together) one game may hold.
pub const MAX_NODES: usize = 200_000;
/// The most comment text one game may hold, in bytes.
pub const MAX_COMMENT_BYTES: usize = 1 << 26;

struct Frame {
    line: Line,
    before_last: Position,
    pos: Position,
    /// Plies before this line's first move, counted from the game's start.
    start_ply: u32,
    /// An `=` sign seen before any move (the `(=)` of a draw offer).
    draw_mark: bool,
}

impl Frame {
    fn new(pos: Position, start_ply: u32) -> Frame {
        Frame {
            line: Line::default(),
            before_last: pos,
            pos,
            start_ply,
            draw_mark: false,
        }
    }
}

/// The visitor that builds [`Game`]s, checking every move (in variations too).
#[derive(Default)]
pub struct GameBuilder {
    forced: Option<Dialect>,
    dialect: Dialect,
    number: u64,
    game: Game,
    frames: Vec<Frame>,
    nodes: usize,
    comment_bytes: usize,
    /// Where the first `FEN` and `Variant` tags stand.
    fen_at: Option<Location>,
    variant_at: Option<Location>,
}

/// Where a start-position error points: the tag at fault, and its value.
pub(crate) fn setup_error_at(
    kind: &GameErrorKind,
    fen: Option<(Location, &str)>,
    variant: Option<(Location, &str)>,
) -> (Location, Option<String>) {
    let at = match kind {
        GameErrorKind::Variant(_) => variant,
        _ => fen,
    };
    match at {
        Some((location, value)) => (location, Some(value.to_owned())),
        None => (Location::default(), None),
    }
}

impl GameBuilder {
    /// A builder reading moves in the notation the `Notation` tag names, or
    /// any notation ([`Dialect::Auto`]).
    pub fn new() -> GameBuilder {
        GameBuilder::default()
    }

    /// A builder reading moves in `dialect` whatever the tags say.
    pub fn with_dialect(dialect: Dialect) -> GameBuilder {
        GameBuilder {
            forced: Some(dialect),
            ..GameBuilder::default()
        }
    }

    fn fail(
        &mut self,
        location: Location,
        ply: Option<u32>,
        text: Option<String>,
        kind: GameErrorKind,
    ) {
        if self.game.error.is_none() {
            self.game.error = Some(GameError {
                game: self.number,
                location,
                ply,
                text,
                kind,
            });
        }
    }

    fn next_ply(&self) -> Option<u32> {
        self.frames
            .last()
            .map(|f| f.start_ply + f.line.nodes.len() as u32 + 1)
    }
}

impl Visitor for GameBuilder {
    type Output = Game;

    fn begin_game(&mut self, number: u64, _at: Location) {
        self.number = number;
        self.game = Game::default();
        self.frames.clear();
        self.nodes = 0;
        self.comment_bytes = 0;
        self.fen_at = None;
        self.variant_at = None;
        self.dialect = self.forced.unwrap_or(Dialect::Auto);
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) -> Flow {
        match name {
            b"FEN" if self.fen_at.is_none() => self.fen_at = Some(at),
            b"Variant" if self.variant_at.is_none() => self.variant_at = Some(at),
            _ => {}
        }
        let name = crate::reader::decode(name).into_owned();
        let value = value.unescape().into_owned();
        if name == "Notation" && self.forced.is_none() {
            if let Ok(n) = Notation::from_name(&value) {
                self.dialect = n.dialect();
            }
        }
        self.game.tags.push(name, value);
        Flow::Continue
    }

    fn begin_movetext(&mut self) -> Flow {
        match start_position(&self.game.tags) {
            Ok(pos) => {
                self.game.start = pos;
                self.frames.push(Frame::new(pos, 0));
                Flow::Continue
            }
            Err(kind) => {
                let tags = &self.game.tags;
                let fen = self.fen_at.zip(tags.get("FEN"));
                let variant = self.variant_at.zip(tags.get("Variant"));
                let (at, text) = setup_error_at(&kind, fen, variant);
                self.fail(at, None, text, kind);
                Flow::Skip
            }
        }
    }

    fn san(&mut self, text: &[u8], at: Location) -> Flow {
        let ply = self.next_ply();
        if self.nodes >= MAX_NODES {
            self.fail(
                at,
                ply,
                None,
                GameErrorKind::Other("too many moves in one game"),
            );
            return Flow::Skip;
        }
        let Some(frame) = self.frames.last_mut() else {
            return Flow::Skip;
        };
        match read_move_bytes(self.dialect, &frame.pos, text) {
            Ok(m) => {
                frame.before_last = frame.pos;
                frame.pos.play_unchecked(m);
                frame.line.nodes.push(Node::new(m));
                self.nodes += 1;
                Flow::Continue
            }
            Err(e) => {
                let text = Some(e.text().to_owned());
                self.fail(at, ply, text, GameErrorKind::Move(e));
                Flow::Skip
            }
        }
    }

    fn nag(&mut self, nag: u8, _at: Location) -> Flow {
        if let Some(frame) = self.frames.last_mut() {
            match frame.line.nodes.last_mut() {
                Some(node) => node.nags.push(nag),
                None if nag == 10 => frame.draw_mark = true,
                None => {}
            }
        }
        Flow::Continue
    }

    fn comment(&mut self, text: RawText<'_>, at: Location) -> Flow {
        self.comment_bytes += text.as_bytes().len();
        if self.comment_bytes > MAX_COMMENT_BYTES {
            let ply = self.next_ply();
            self.fail(
                at,
                ply,
                None,
                GameErrorKind::Other("too much comment text in one game"),
            );
            return Flow::Skip;
        }
        let cleaned = clean_comment(&text.decode());
        let Some(frame) = self.frames.last_mut() else {
            return Flow::Continue;
        };
        match frame.line.nodes.last_mut() {
            Some(node) => {
                if cleaned == "(=)" {
                    node.draw_offer = true;
                    return Flow::Continue;
                }
                let (clock, rest) = if node.clock_ms.is_none() {
                    take_clock(&cleaned)
                } else {
                    (None, cleaned)
                };
                if clock.is_some() {
                    node.clock_ms = clock;
                }
                if !rest.is_empty() || clock.is_none() {
                    node.comments.push(rest);
                }
            }
            None => frame.line.comments.push(cleaned),
        }
        Flow::Continue
    }

    fn begin_variation(&mut self, at: Location) -> Flow {
        let Some(parent) = self.frames.last() else {
            return Flow::Skip;
        };
        if parent.line.nodes.is_empty() {
            let ply = self.next_ply();
            self.fail(
                at,
                ply,
                Some("(".into()),
                GameErrorKind::Syntax("a variation before any move"),
            );
            return Flow::Skip;
        }
        let start_ply = parent.start_ply + parent.line.nodes.len() as u32 - 1;
        let frame = Frame::new(parent.before_last, start_ply);
        self.frames.push(frame);
        Flow::Continue
    }

    fn end_variation(&mut self, _at: Location) -> Flow {
        if self.frames.len() > 1 {
            self.close_variation();
        }
        Flow::Continue
    }

    fn result(&mut self, result: GameResult, _at: Location) -> Flow {
        self.game.result = Some(result);
        Flow::Continue
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        let ply = self.next_ply();
        let text = (!error.found.is_empty()).then_some(error.found);
        self.fail(
            error.location,
            ply,
            text,
            GameErrorKind::Syntax(error.message),
        );
    }

    fn end_game(&mut self) -> Game {
        while self.frames.len() > 1 {
            self.close_variation();
        }
        if let Some(frame) = self.frames.pop() {
            self.game.line = frame.line;
        }
        std::mem::take(&mut self.game)
    }
}

impl GameBuilder {
    fn close_variation(&mut self) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        let Some(parent) = self.frames.last_mut() else {
            return;
        };
        let Some(node) = parent.line.nodes.last_mut() else {
            return;
        };
        if frame.line.nodes.is_empty() {
            if frame.draw_mark && frame.line.comments.is_empty() {
                node.draw_offer = true;
            }
            return;
        }
        node.variations.push(frame.line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("0:03:00"), Some(180_000));
        assert_eq!(parse_clock("1:05:23.5"), Some(3_923_500));
        assert_eq!(parse_clock("12:01"), Some(721_000));
        assert_eq!(parse_clock("x"), None);
        assert_eq!(parse_clock("1:2:3:4"), None);
        assert_eq!(format_clock(3_923_500), "1:05:23.5");
        assert_eq!(format_clock(180_000), "0:03:00");
        assert_eq!(
            take_clock("good [%clk 0:00:05.25] move"),
            (Some(5_250), "good move".to_owned())
        );
        assert_eq!(take_clock("[%eval 0.3]"), (None, "[%eval 0.3]".to_owned()));
    }

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

    #[test]
    fn variants() {
        assert!(start_position_of(Some("Chess960"), None)
            .unwrap()
            .castling_mode()
            .is_chess960());
        assert!(start_position_of(Some("Fischerandom"), None).is_ok());
        assert!(!start_position_of(Some("Standard"), None)
            .unwrap()
            .castling_mode()
            .is_chess960());
        assert!(matches!(
            start_position_of(Some("Crazyhouse"), None),
            Err(GameErrorKind::Variant(_))
        ));
        assert!(matches!(
            start_position_of(None, Some("8/8/8/8/8/8/8/8 w - - 0 1")),
            Err(GameErrorKind::Fen(_))
        ));
    }
}
