//! What an accepted event did ([`Applied`]) and the records a game keeps
//! ([`PlayedMove`], [`Penalty`], [`ClockReading`]).

use crate::Article;
use arbiter_chess::{Color, Move};
use std::fmt;

/// A move of the game, as played.
///
/// ```
/// use arbiter_laws::{Event, Game, Start};
/// use arbiter_chess::{Color, Move, Square};
/// let mut game = Game::new(Start::default())?;
/// game.apply(Event::play(800, Color::White, Move::new(Square::G1, Square::F3)))?;
/// let m = &game.moves()[0];
/// assert_eq!((m.san.as_str(), m.by, m.t), ("Nf3", Color::White, 800));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// Its SAN (with `+` or `#`).
    pub san: String,
    /// Who played it.
    pub by: Color,
    /// When it was completed.
    pub t: u64,
}

/// Time added to a clock.
///
/// ```
/// use arbiter_laws::{Article, Penalty};
/// use arbiter_chess::Color;
/// let p = Penalty { to: Color::Black, ms: 120_000, article: Article::new("9.5 b") };
/// assert_eq!(p.article.cite(), "Art. 9.5 b");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Penalty {
    /// Whose clock gains the time.
    pub to: Color,
    /// Milliseconds.
    pub ms: u64,
    /// The Article.
    pub article: Article,
}

/// The verdict on a claim or request.
///
/// ```
/// use arbiter_laws::ClaimVerdict;
/// assert_eq!(ClaimVerdict::Incorrect.name(), "incorrect");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClaimVerdict {
    /// The claim is correct: upheld by the Laws (9.2, 9.3, 7.5, A.4).
    Correct,
    /// The claim is incorrect (9.5).
    Incorrect,
    /// The claim waits for the arbiter (quickplay finish).
    Pending,
    /// The arbiter upholds the quickplay claim or request.
    Upheld,
    /// The arbiter rejects the quickplay claim or request.
    Rejected,
    /// The arbiter postpones the decision (G.5 b / III.5.2).
    Postponed,
}

impl ClaimVerdict {
    /// The snake_case name used by `arbiter judge`.
    pub const fn name(self) -> &'static str {
        match self {
            ClaimVerdict::Correct => "correct",
            ClaimVerdict::Incorrect => "incorrect",
            ClaimVerdict::Pending => "pending",
            ClaimVerdict::Upheld => "upheld",
            ClaimVerdict::Rejected => "rejected",
            ClaimVerdict::Postponed => "postponed",
        }
    }
}

impl fmt::Display for ClaimVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What an accepted event did.
///
/// ```
/// use arbiter_laws::{Event, Game, Start};
/// use arbiter_chess::{Color, Move, Square};
/// let mut game = Game::new(Start::default())?;
/// let applied = game.apply(Event::play(0, Color::White, Move::new(Square::E2, Square::E4)))?;
/// assert_eq!(applied.san.as_deref(), Some("e4"));
/// assert_eq!(applied.claim, None);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The move played (SAN), if any: the event's move, the intended move
    /// of an incorrect claim, or a promotion completed as a queen.
    pub san: Option<String>,
    /// The verdict, for claims and the arbiter's decisions on them.
    pub claim: Option<ClaimVerdict>,
    /// Time added to a clock.
    pub penalty: Option<Penalty>,
    /// Further explanation, citing the Article.
    pub note: Option<String>,
}

/// A ruling the record keeps as a comment after the moves made so far.
///
/// ```
/// use arbiter_laws::{Decision, Event, Game, Sanction, Start};
/// use arbiter_chess::Color;
/// let mut game = Game::new(Start::default())?;
/// game.apply(Event::arbiter(0, Decision::Penalty { offender: Color::Black, sanction: Sanction::Warning }))?;
/// assert_eq!(game.remarks()[0].after_moves, 0);
/// assert_eq!(game.remarks()[0].text, "the arbiter warns black (Art. 12.9 a)");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remark {
    /// How many moves had been played.
    pub after_moves: usize,
    /// The ruling, citing the Article.
    pub text: String,
}

/// The clocks at a given moment.
///
/// ```
/// use arbiter_laws::{Game, Start};
/// use arbiter_pgn::TimeControl;
/// let game = Game::new(Start { time_control: Some(TimeControl::parse("60+1")?), ..Start::default() })?;
/// let r = game.clock_at(500).unwrap();
/// assert_eq!((r.white, r.black), (60_500, 61_000));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// White's remaining time, ms.
    pub white: u64,
    /// Black's remaining time, ms.
    pub black: u64,
    /// Whose clock runs.
    pub running: Option<Color>,
}
