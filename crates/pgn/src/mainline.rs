//! [`MainLine`]: the replay core of [`crate::GameBuilder`] and
//! [`crate::check::Checker`], for a visitor of one's own that follows a
//! game's main line only and keeps what it needs of it (the Laws' audit
//! keeps each move and the position it leads to).

use crate::game::{GameError, GameErrorKind, GameWarning, Node};
use crate::reader::{Flow, Location, RawText, SyntaxError};
use crate::replay::{NullMoves, Replay, Step};
use arbiter_chess::{Move, Position};

/// The main line of a game replayed as the reader gives it: the start
/// position from the `FEN` and `Variant` tags, the moves read in the
/// notation the `Notation` tag names (or any, as [`crate::GameBuilder`]
/// reads them), each checked and played, the first error kept with its
/// place. A visitor built on it calls each method from the
/// [`crate::Visitor`] method of the same name, and skips variations
/// (`begin_variation` returning [`Flow::Skip`]): only the main line is
/// replayed. Null moves (`--`, `Z0`) are kept, as [`Node::NULL_MOVE`].
///
/// ```
/// use arbiter_pgn::{Flow, Location, MainLine, RawText, Reader, SyntaxError, Visitor};
/// use arbiter_chess::{Move, Position};
///
/// /// Each main-line move and the position it leads to.
/// #[derive(Default)]
/// struct Positions { line: MainLine, after: Vec<(Move, Position)> }
///
/// impl Visitor for Positions {
///     type Output = usize;
///     fn begin_game(&mut self, number: u64, _: Location) {
///         self.line.begin_game(number);
///         self.after.clear();
///     }
///     fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) -> Flow {
///         self.line.tag(name, value, at);
///         Flow::Continue
///     }
///     fn begin_movetext(&mut self) -> Flow { self.line.begin_movetext() }
///     fn san(&mut self, text: &[u8], at: Location) -> Flow {
///         match self.line.play(text, at) {
///             Ok(m) => { self.after.push((m, *self.line.position())); Flow::Continue }
///             Err(flow) => flow,
///         }
///     }
///     fn begin_variation(&mut self, _: Location) -> Flow { Flow::Skip }
///     fn syntax_error(&mut self, error: SyntaxError) { self.line.syntax_error(error) }
///     fn end_game(&mut self) -> usize { self.after.len() }
/// }
///
/// let pgn = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 (1. e3) Kd7 2. Kd2 Qxe4 *";
/// let mut visitor = Positions::default();
/// let plies = Reader::new(pgn.as_bytes()).read_game(&mut visitor)?.expect("a game");
/// assert_eq!(plies, 3); // the fourth move is not legal
/// assert_eq!(visitor.after[2].1.fen(), "8/3k4/8/8/4P3/8/3K4/8 b - - 2 2");
/// let error = visitor.line.take_error().expect("Qxe4");
/// assert_eq!((error.ply, error.text.as_deref()), (Some(4), Some("Qxe4")));
/// # Ok::<_, std::io::Error>(())
/// ```
pub struct MainLine {
    replay: Replay,
}

impl Default for MainLine {
    fn default() -> MainLine {
        MainLine::new()
    }
}

impl MainLine {
    /// A replay reading moves in the notation the `Notation` tag names, or
    /// any.
    pub fn new() -> MainLine {
        MainLine {
            replay: Replay::new(None, NullMoves::Keep),
        }
    }

    /// A game starts.
    pub fn begin_game(&mut self, number: u64) {
        self.replay.begin_game(number, Location::default());
    }

    /// Notes what replay needs of a tag (`FEN`, `Variant`, `Notation`).
    #[inline]
    pub fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) {
        self.replay.tag(name, value, at);
    }

    /// The movetext starts: the start position from the tags (an error, and
    /// [`Flow::Skip`], if they give none).
    pub fn begin_movetext(&mut self) -> Flow {
        self.replay.begin_movetext()
    }

    /// `true` once the movetext has started from a known position (then,
    /// before any move, [`MainLine::position`] is the start position).
    pub fn started(&self) -> bool {
        self.replay.started
    }

    /// Reads and plays the next move of the main line: the move (a null
    /// move as [`Node::NULL_MOVE`]), or what the reader should do when it
    /// cannot be played (the error is kept: [`MainLine::take_error`]).
    #[inline(always)]
    pub fn play(&mut self, text: &[u8], at: Location) -> Result<Move, Flow> {
        match self.replay.play(text, at)? {
            Step::Move(m) => Ok(m),
            Step::Null => Ok(Node::NULL_MOVE),
        }
    }

    /// A variation starts: the main line does not follow it (the reader
    /// skips it), but one before any move of the main line, an alternative
    /// to no move, is an error, as the readers that follow variations
    /// (`pgn check`'s [`Checker`](crate::check::Checker), the game builder)
    /// report it.
    ///
    /// ```
    /// use arbiter_pgn::{Flow, Location, MainLine};
    /// let mut line = MainLine::new();
    /// line.begin_game(1);
    /// assert_eq!(line.begin_movetext(), Flow::Continue);
    /// assert_eq!(line.begin_variation(Location::default()), Flow::Skip);
    /// assert_eq!(line.error().map(|e| e.to_string().contains("a variation before any move")), Some(true));
    /// ```
    pub fn begin_variation(&mut self, at: Location) -> Flow {
        if self.replay.live() {
            self.replay.refuse_variation_before_any_move(at);
        }
        Flow::Skip
    }

    /// The position after the moves played (the start position before any).
    #[inline]
    pub fn position(&self) -> &Position {
        &self.replay.cur.pos
    }

    /// Where the main line's first null move was written, and how (`--`,
    /// `Z0`, `0000` or `@@@@`), if it has one.
    ///
    /// ```
    /// use arbiter_pgn::{Flow, Location, MainLine, RawText, Reader, SyntaxError, Visitor};
    /// struct Nulls(MainLine);
    /// impl Visitor for Nulls {
    ///     type Output = Option<(u64, u64, &'static str)>;
    ///     fn begin_game(&mut self, number: u64, _: Location) { self.0.begin_game(number) }
    ///     fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) -> Flow {
    ///         self.0.tag(name, value, at);
    ///         Flow::Continue
    ///     }
    ///     fn begin_movetext(&mut self) -> Flow { self.0.begin_movetext() }
    ///     fn san(&mut self, text: &[u8], at: Location) -> Flow {
    ///         self.0.play(text, at).err().unwrap_or(Flow::Continue)
    ///     }
    ///     fn syntax_error(&mut self, error: SyntaxError) { self.0.syntax_error(error) }
    ///     fn end_game(&mut self) -> Self::Output {
    ///         self.0.first_null().map(|(at, written)| (at.line, at.column, written))
    ///     }
    /// }
    /// let mut reader = Reader::new("1. e4 e5 2. Nf3\nZ0 3. Bc4 *\n".as_bytes());
    /// assert_eq!(reader.read_game(&mut Nulls(MainLine::new()))?, Some(Some((2, 1, "Z0"))));
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn first_null(&self) -> Option<(Location, &'static str)> {
        self.replay.first_null
    }

    /// Plies from the start position to [`MainLine::position`].
    #[inline]
    pub fn ply(&self) -> u32 {
        self.replay.cur.ply
    }

    /// The game breaks the PGN syntax (the reader skips the rest of it).
    pub fn syntax_error(&mut self, error: SyntaxError) {
        self.replay.syntax_error(error);
    }

    /// Records an error of the visitor's own at `location` (the first error
    /// is kept).
    pub fn fail(
        &mut self,
        location: Location,
        ply: Option<u32>,
        text: Option<String>,
        kind: GameErrorKind,
    ) {
        self.replay.fail(location, ply, text, kind);
    }

    /// The first error of the game, if any.
    pub fn error(&self) -> Option<&GameError> {
        self.replay.error.as_ref()
    }

    /// Takes the first error of the game.
    pub fn take_error(&mut self) -> Option<GameError> {
        self.replay.error.take()
    }

    /// What the reader changed to go on (castling rights dropped from the
    /// `FEN`).
    pub fn warnings(&self) -> &[GameWarning] {
        &self.replay.warnings
    }
}
