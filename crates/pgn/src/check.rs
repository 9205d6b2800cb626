//! Checking games without keeping them: the visitor behind `arbiter pgn
//! check`. It replays every move (main line and variations) against the
//! rules (FIDE Art. 3) and keeps only a summary per game.

use crate::game::{setup_error_at, standard, start_position_of, GameError, GameErrorKind};
use crate::notation::{read_move_bytes, read_strict_san, Dialect, Notation};
use crate::reader::{Flow, Location, RawText, SyntaxError, Visitor};
use arbiter_chess::Position;

/// The summary of one checked game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedGame {
    /// 1-based number of the game in the input.
    pub number: u64,
    /// The `White` tag.
    pub white: Option<String>,
    /// The `Black` tag.
    pub black: Option<String>,
    /// The `Result` tag.
    pub result: Option<String>,
    /// Main-line moves (plies) played before the end or the first error.
    pub plies: u32,
    /// The position after those plies.
    pub final_position: Position,
    /// The first error, if any.
    pub error: Option<GameError>,
}

#[derive(Clone, Copy, Default)]
struct Frame {
    before: Position,
    pos: Position,
    /// Plies from the game's start to `pos`.
    ply: u32,
    /// Moves played in this line.
    moves: u32,
}

impl Frame {
    fn new(pos: Position, ply: u32) -> Frame {
        Frame {
            before: pos,
            pos,
            ply,
            moves: 0,
        }
    }
}

/// A visitor that replays and checks every move and keeps a [`CheckedGame`].
#[derive(Default)]
pub struct Checker {
    forced: Option<Dialect>,
    dialect: Dialect,
    number: u64,
    white: Option<String>,
    black: Option<String>,
    result: Option<String>,
    variant: Option<String>,
    fen: Option<String>,
    fen_at: Location,
    variant_at: Location,
    /// The line being read (the main line or the innermost variation).
    cur: Frame,
    /// The lines around it, outermost (the main line) first.
    parents: Vec<Frame>,
    /// The movetext has started (a start position is known).
    started: bool,
    plies: u32,
    error: Option<GameError>,
}

impl Checker {
    /// A checker reading moves in the notation the `Notation` tag names, or any.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// A checker reading moves in `dialect` whatever the tags say.
    pub fn with_dialect(dialect: Dialect) -> Checker {
        Checker {
            forced: Some(dialect),
            ..Checker::default()
        }
    }

    fn fail(
        &mut self,
        location: Location,
        ply: Option<u32>,
        text: Option<String>,
        kind: GameErrorKind,
    ) {
        if self.error.is_none() {
            self.error = Some(GameError {
                game: self.number,
                location,
                ply,
                text,
                kind,
            });
        }
    }
}

impl Visitor for Checker {
    type Output = CheckedGame;

    fn begin_game(&mut self, number: u64, _at: Location) {
        self.number = number;
        self.white = None;
        self.black = None;
        self.result = None;
        self.variant = None;
        self.fen = None;
        self.parents.clear();
        self.started = false;
        self.plies = 0;
        self.error = None;
        self.dialect = self.forced.unwrap_or(Dialect::Auto);
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) -> Flow {
        let slot = match name {
            b"White" => &mut self.white,
            b"Black" => &mut self.black,
            b"Result" => &mut self.result,
            b"Variant" => {
                if self.variant.is_none() {
                    self.variant_at = at;
                }
                &mut self.variant
            }
            b"FEN" => {
                if self.fen.is_none() {
                    self.fen_at = at;
                }
                &mut self.fen
            }
            b"Notation" => {
                if self.forced.is_none() {
                    if let Ok(n) = Notation::from_name(&value.unescape()) {
                        self.dialect = n.dialect();
                    }
                }
                return Flow::Continue;
            }
            _ => return Flow::Continue,
        };
        // The first of repeated tags counts, as in `Tags::get`.
        if slot.is_none() {
            *slot = Some(value.unescape().into_owned());
        }
        Flow::Continue
    }

    fn begin_movetext(&mut self) -> Flow {
        match start_position_of(self.variant.as_deref(), self.fen.as_deref()) {
            Ok(pos) => {
                self.cur = Frame::new(pos, 0);
                self.started = true;
                Flow::Continue
            }
            Err(kind) => {
                self.cur = Frame::new(standard(), 0);
                let fen = self.fen.as_deref().map(|v| (self.fen_at, v));
                let variant = self.variant.as_deref().map(|v| (self.variant_at, v));
                let (at, text) = setup_error_at(&kind, fen, variant);
                self.fail(at, None, text, kind);
                Flow::Skip
            }
        }
    }

    fn san(&mut self, text: &[u8], at: Location) -> Flow {
        if !self.started {
            return Flow::Skip;
        }
        let main = self.parents.is_empty();
        let frame = &mut self.cur;
        let fast = if self.dialect == Dialect::Russian {
            None
        } else {
            read_strict_san(&frame.pos, text)
        };
        if let Some(m) = fast {
            frame.before = frame.pos;
            frame.pos.play_unchecked(m);
            frame.ply += 1;
            frame.moves += 1;
            if main {
                self.plies += 1;
            }
            return Flow::Continue;
        }
        match read_move_bytes(self.dialect, &frame.pos, text) {
            Ok(m) => {
                frame.before = frame.pos;
                frame.pos.play_unchecked(m);
                frame.ply += 1;
                frame.moves += 1;
                if main {
                    self.plies += 1;
                }
                Flow::Continue
            }
            Err(e) => {
                let ply = Some(frame.ply + 1);
                let text = Some(e.text().to_owned());
                self.fail(at, ply, text, GameErrorKind::Move(e));
                Flow::Skip
            }
        }
    }

    fn begin_variation(&mut self, at: Location) -> Flow {
        if !self.started {
            return Flow::Skip;
        }
        let parent = self.cur;
        if parent.moves == 0 {
            let ply = Some(parent.ply + 1);
            self.fail(
                at,
                ply,
                Some("(".into()),
                GameErrorKind::Syntax("a variation before any move"),
            );
            return Flow::Skip;
        }
        self.parents.push(parent);
        self.cur = Frame::new(parent.before, parent.ply - 1);
        Flow::Continue
    }

    fn end_variation(&mut self, _at: Location) -> Flow {
        if let Some(parent) = self.parents.pop() {
            self.cur = parent;
        }
        Flow::Continue
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        let ply = self.started.then_some(self.cur.ply + 1);
        let text = (!error.found.is_empty()).then_some(error.found);
        self.fail(
            error.location,
            ply,
            text,
            GameErrorKind::Syntax(error.message),
        );
    }

    fn end_game(&mut self) -> CheckedGame {
        let main = self.parents.first().unwrap_or(&self.cur);
        let final_position = if self.started { main.pos } else { standard() };
        CheckedGame {
            number: self.number,
            white: self.white.take(),
            black: self.black.take(),
            result: self.result.take(),
            plies: self.plies,
            final_position,
            error: self.error.take(),
        }
    }
}
