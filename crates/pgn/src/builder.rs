//! [`GameBuilder`]: the visitor that builds [`Game`]s from PGN, on the shared
//! replay core (`replay.rs`), keeping comments, annotations, clock times and
//! variations.

use crate::clock::{clean_comment, take_clock};
use crate::game::{Game, GameErrorKind, GameResult, Line, Node};
use crate::notation::Dialect;
use crate::reader::{Flow, Location, RawText, SyntaxError, Visitor};
use crate::replay::{NullMoves, Replay, Step};

pub use crate::replay::MAX_NODES;
/// The most comment text one game may hold, in bytes.
pub const MAX_COMMENT_BYTES: usize = 1 << 26;

/// A line being built.
#[derive(Default)]
struct Frame {
    line: Line,
    /// An `=` sign seen before any move (the `(=)` of a draw offer).
    draw_mark: bool,
}

/// The visitor that builds [`Game`]s, checking every move (in variations
/// too). A wrong move in the main line ends the game there; one in a
/// variation ends only that variation ([`crate::GameError::in_variation`]).
/// Null moves (`--`, `Z0`) are kept ([`Node::null`]).
///
/// ```
/// use arbiter_pgn::{Dialect, GameBuilder, Reader};
/// let pgn = "1. e4 e5 2. Кf3 Кc6 3. Cb5 *"; // Russian, with a Latin C for С
/// let mut builder = GameBuilder::new();
/// let game = Reader::new(pgn.as_bytes()).read_game(&mut builder)?.expect("a game");
/// assert!(game.error.is_none());
/// assert_eq!(game.mainline().count(), 5);
/// // Or tell it the notation.
/// let mut russian = GameBuilder::with_dialect(Dialect::Russian);
/// let game = Reader::new("1. e4 e5 2. Kf3 *".as_bytes()).read_game(&mut russian)?.expect("a game");
/// assert_eq!(game.final_position().role_at(arbiter_chess::Square::F3), Some(arbiter_chess::Role::Knight));
/// # Ok::<_, std::io::Error>(())
/// ```
pub struct GameBuilder {
    replay: Replay,
    game: Game,
    frames: Vec<Frame>,
    comment_bytes: usize,
    /// Where the termination marker was read.
    marker_at: Option<Location>,
}

impl Default for GameBuilder {
    fn default() -> GameBuilder {
        GameBuilder::with(None)
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
        GameBuilder::with(Some(dialect))
    }

    fn with(forced: Option<Dialect>) -> GameBuilder {
        GameBuilder {
            replay: Replay::new(forced, NullMoves::Keep),
            game: Game::default(),
            frames: Vec::new(),
            comment_bytes: 0,
            marker_at: None,
        }
    }

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

impl Visitor for GameBuilder {
    type Output = Game;

    fn begin_game(&mut self, number: u64, at: Location) {
        self.replay.begin_game(number, at);
        self.game = Game::default();
        self.marker_at = None;
        self.frames.clear();
        self.comment_bytes = 0;
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) -> Flow {
        self.replay.tag(name, value, at);
        let name = crate::reader::decode(name).into_owned();
        let value = value.unescape().into_owned();
        self.game.tags.push(name, value);
        Flow::Continue
    }

    fn begin_movetext(&mut self) -> Flow {
        let flow = self.replay.begin_movetext();
        if self.replay.started {
            self.game.start = self.replay.cur.pos;
            self.frames.push(Frame::default());
        }
        flow
    }

    fn san(&mut self, text: &[u8], at: Location) -> Flow {
        let node = match self.replay.play(text, at) {
            Ok(Step::Move(m)) => Node::new(m),
            Ok(Step::Null) => Node::null(),
            Err(flow) => return flow,
        };
        if let Some(frame) = self.frames.last_mut() {
            frame.line.nodes.push(node);
        }
        Flow::Continue
    }

    fn nag(&mut self, nag: u8, _at: Location) -> Flow {
        if !self.replay.live() {
            return Flow::Continue;
        }
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
        if !self.replay.live() {
            return Flow::Continue;
        }
        self.comment_bytes += text.as_bytes().len();
        if self.comment_bytes > MAX_COMMENT_BYTES {
            let ply = Some(self.replay.cur.ply + 1);
            self.replay.fail(
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
        match self.replay.begin_variation(at) {
            Ok(()) => {
                self.frames.push(Frame::default());
                Flow::Continue
            }
            Err(flow) => flow,
        }
    }

    fn end_variation(&mut self, _at: Location) -> Flow {
        if self.replay.end_variation() {
            self.close_variation();
        }
        Flow::Continue
    }

    fn result(&mut self, result: GameResult, at: Location) -> Flow {
        self.game.result = Some(result);
        self.marker_at = Some(at);
        Flow::Continue
    }

    fn stray_result(&mut self, result: GameResult, at: Location) {
        self.replay.stray_result(result, at);
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        self.replay.syntax_error(error);
    }

    fn syntax_warning(&mut self, warning: SyntaxError) {
        self.replay.syntax_warning(warning);
    }

    fn end_game(&mut self) -> Game {
        while self.frames.len() > 1 {
            self.close_variation();
        }
        if let Some(frame) = self.frames.pop() {
            self.game.line = frame.line;
        }
        let marker = self.game.result.zip(self.marker_at.take());
        let tag = self.game.tags.get("Result").and_then(GameResult::from_pgn);
        self.replay.check_result(tag, marker);
        self.game.error = self.replay.error.take();
        self.game.warnings = std::mem::take(&mut self.replay.warnings);
        std::mem::take(&mut self.game)
    }
}
