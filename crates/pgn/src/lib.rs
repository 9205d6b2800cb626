//! # arbiter-pgn
//!
//! Game records: FIDE Laws Article 8 (recording the moves) and Appendix C
//! (algebraic notation), and the PGN standard for files.
//!
//! - [`Notation`]: the notations a player writes — PGN SAN, FIDE style
//!   (`0-0`, `d8Q`, `exd6 e.p.`), Russian (`Кр Ф Л С К`), figurine, long
//!   algebraic, UCI — each read and written; any record converts between
//!   them through one model, a legal move in a position.
//! - [`Reader`]: a streaming PGN reader (fixed-size buffer, any file size)
//!   calling a [`Visitor`]; [`GameBuilder`] builds [`Game`]s and
//!   [`check::Checker`] only checks.
//! - [`Game`]: tags, moves with comments, NAGs and `[%clk]` times, variations,
//!   result; written back as export-format PGN ([`WriteOptions`]).
//! - [`TimeControl`]: the PGN `TimeControl` tag.
//!
//! ```
//! use arbiter_pgn::{Notation, Reader, WriteOptions};
//! let pgn = "[White \"Алехин\"]\n[Black \"Капабланка\"]\n\n1. e4 e6 2. d4 d5 3. Nc3 Bb4 *";
//! let game = Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
//! assert!(game.error.is_none());
//! let russian = game.to_pgn_with(&WriteOptions::notation(Notation::Russian));
//! assert!(russian.contains("1. e4 e6 2. d4 d5 3. Кc3 Сb4 *"));
//! // And back: the Notation tag tells the reader how to read it.
//! let again = Reader::new(russian.as_bytes()).next_game()?.expect("a game");
//! assert_eq!(again.line, game.line);
//! # Ok::<_, std::io::Error>(())
//! ```

#![deny(missing_docs)]

// Modules from the bottom up: `result` and `reader` know nothing of games;
// `game` is the model; `start` and `replay` the shared replay core under the
// two visitors, `builder` and `check`; `writer` writes the model.
mod builder;
pub mod check;
pub mod clock;
mod fast_san;
pub mod game;
pub mod generate;
mod mainline;
pub mod notation;
pub mod reader;
mod replay;
mod result;
mod scan;
mod start;
pub mod time_control;
pub mod writer;

pub use builder::{GameBuilder, MAX_COMMENT_BYTES, MAX_NODES};
pub use game::{
    BadTagName, Game, GameError, GameErrorKind, GameWarning, Line, MoveNumber, Node, Tags,
    WarningKind,
};
pub use mainline::MainLine;
pub use notation::{
    read_move, read_move_bytes, read_strict_san, read_strict_san_by, Dialect, Notation,
    ReadMoveError, UnknownNotation,
};
pub use reader::{Flow, Location, PassOver, RawText, Reader, SyntaxError, Visitor};
pub use result::GameResult;
pub use start::start_position;
pub use time_control::{ParseTimeControlError, Period, TimeControl};
pub use writer::WriteOptions;

use std::io::{self, Read};

impl<R: Read> Reader<R> {
    /// Reads the next game as a [`Game`] (moves checked, in the notation its
    /// `Notation` tag names or any); `None` at the end of the input.
    pub fn next_game(&mut self) -> io::Result<Option<Game>> {
        self.read_game(&mut GameBuilder::new())
    }

    /// The games, one by one.
    pub fn games(self) -> Games<R> {
        Games {
            reader: self,
            builder: GameBuilder::new(),
        }
    }
}

/// An iterator over the games of a [`Reader`].
///
/// ```
/// use arbiter_pgn::Reader;
/// let pgn = "[Event \"a\"]\n[Result \"1-0\"]\n\n[Event \"b\"]\n[Result \"0-1\"]\n";
/// let events: Vec<String> = Reader::new(pgn.as_bytes())
///     .games()
///     .map(|g| g.map(|g| g.tags.get("Event").unwrap_or("?").to_owned()))
///     .collect::<Result<_, _>>()?;
/// assert_eq!(events, ["a", "b"]); // tag sections without movetext, one game each
/// # Ok::<_, std::io::Error>(())
/// ```
pub struct Games<R> {
    reader: Reader<R>,
    builder: GameBuilder,
}

impl<R: Read> Iterator for Games<R> {
    type Item = io::Result<Game>;
    fn next(&mut self) -> Option<io::Result<Game>> {
        self.reader.read_game(&mut self.builder).transpose()
    }
}
