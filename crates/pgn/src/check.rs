//! Checking games without keeping them: the visitor behind `arbiter pgn
//! check`. It replays every move (main line and variations) against the
//! rules (FIDE Art. 3), on the same replay core as [`crate::GameBuilder`], and
//! keeps only a summary per game.

use crate::game::{GameError, GameResult, GameWarning};
use crate::notation::Dialect;
use crate::reader::{Flow, Location, RawText, SyntaxError, Visitor};
use crate::replay::{NullMoves, Replay};
use arbiter_chess::Position;

/// The summary of one checked game.
///
/// ```
/// use arbiter_pgn::{check::Checker, GameResult, Reader};
/// let pgn = "[White \"Таль\"]\n\n1. e4 e5 2. Nf3 (2. e4 d5) 2... Nc6 3. Bb5 1–0 {on time}\n";
/// let mut reader = Reader::new(pgn.as_bytes());
/// let game = reader.read_game(&mut Checker::new())?.expect("a game");
/// assert_eq!(game.white.as_deref(), Some("Таль"));
/// assert_eq!(game.plies, 5); // the main line goes on after the bad variation
/// assert_eq!(game.result, Some(GameResult::WhiteWins)); // from the movetext
/// assert!(game.error.expect("2. e4 is illegal").in_variation);
/// assert!(reader.read_game(&mut Checker::new())?.is_none()); // no phantom game
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedGame {
    /// 1-based number of the game in the input.
    pub number: u64,
    /// The `White` tag.
    pub white: Option<String>,
    /// The `Black` tag.
    pub black: Option<String>,
    /// The `Result` tag as written.
    pub result_tag: Option<String>,
    /// The result: the `Result` tag if it reads as one, else the movetext's
    /// termination marker.
    pub result: Option<GameResult>,
    /// Main-line moves (plies) played before the end or the first main-line
    /// error.
    pub plies: u32,
    /// The position after those plies.
    pub final_position: Position,
    /// The first error, if any (one in the main line wins over one in a
    /// variation).
    pub error: Option<GameError>,
    /// What the reader changed to go on.
    pub warnings: Vec<GameWarning>,
}

/// A visitor that replays and checks every move and keeps a [`CheckedGame`].
/// Null moves are played but reported ([`crate::GameErrorKind::NullMove`]).
///
/// ```
/// use arbiter_pgn::{check::Checker, Dialect, Reader};
/// let mut checker = Checker::with_dialect(Dialect::Russian);
/// let game = Reader::new("1. e4 e5 2. Кf3 Кc6 *".as_bytes()).read_game(&mut checker)?.expect("a game");
/// assert_eq!((game.plies, game.error), (4, None));
/// # Ok::<_, std::io::Error>(())
/// ```
pub struct Checker {
    replay: Replay,
    white: Option<String>,
    black: Option<String>,
    result_tag: Option<String>,
    movetext_result: Option<(GameResult, Location)>,
}

impl Default for Checker {
    fn default() -> Checker {
        Checker::with(None)
    }
}

impl Checker {
    /// A checker reading moves in the notation the `Notation` tag names, or any.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// A checker reading moves in `dialect` whatever the tags say.
    pub fn with_dialect(dialect: Dialect) -> Checker {
        Checker::with(Some(dialect))
    }

    fn with(forced: Option<Dialect>) -> Checker {
        Checker {
            replay: Replay::new(forced, NullMoves::Report),
            white: None,
            black: None,
            result_tag: None,
            movetext_result: None,
        }
    }
}

/// Keeps a tag's value (apart, so that the tags not kept cost no more than
/// their names' test).
#[inline(never)]
fn keep(slot: &mut Option<String>, value: RawText<'_>) {
    *slot = Some(value.unescape().into_owned());
}

impl Visitor for Checker {
    type Output = CheckedGame;

    fn begin_game(&mut self, number: u64, at: Location) {
        self.replay.begin_game(number, at);
        self.white = None;
        self.black = None;
        self.result_tag = None;
        self.movetext_result = None;
    }

    #[inline]
    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) -> Flow {
        let slot = match name {
            b"White" => &mut self.white,
            b"Black" => &mut self.black,
            b"Result" => &mut self.result_tag,
            _ => {
                self.replay.tag(name, value, at);
                return Flow::Continue;
            }
        };
        // The first of repeated tags counts, as in `Tags::get`.
        if slot.is_none() {
            keep(slot, value);
        }
        Flow::Continue
    }

    fn begin_movetext(&mut self) -> Flow {
        self.replay.begin_movetext()
    }

    #[inline(always)]
    fn san(&mut self, text: &[u8], at: Location) -> Flow {
        match self.replay.play(text, at) {
            Ok(_) => Flow::Continue,
            Err(flow) => flow,
        }
    }

    fn begin_variation(&mut self, at: Location) -> Flow {
        match self.replay.begin_variation(at) {
            Ok(()) => Flow::Continue,
            Err(flow) => flow,
        }
    }

    fn end_variation(&mut self, _at: Location) -> Flow {
        self.replay.end_variation();
        Flow::Continue
    }

    fn result(&mut self, result: GameResult, at: Location) -> Flow {
        self.movetext_result = Some((result, at));
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

    fn end_game(&mut self) -> CheckedGame {
        let main = *self.replay.main();
        let result_tag = self.result_tag.take();
        let marker = self.movetext_result.take();
        let tag = result_tag.as_deref().and_then(GameResult::from_pgn);
        self.replay.check_result(tag, marker);
        // The rule of `Game::result`: the tag, else the marker.
        let result = tag.or(marker.map(|(r, _)| r));
        CheckedGame {
            number: self.replay.number,
            white: self.white.take(),
            black: self.black.take(),
            result_tag,
            result,
            plies: main.moves,
            final_position: main.pos,
            error: self.replay.error.take(),
            warnings: std::mem::take(&mut self.replay.warnings),
        }
    }
}
