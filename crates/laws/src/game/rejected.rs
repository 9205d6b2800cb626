//! Why the Laws refuse an event or a start ([`Rejected`], [`StartError`],
//! [`ReplayError`]): values, each with its message.

use crate::clock::ClockError;
use crate::event::IllegalMove;
use crate::outcome::Termination;
use crate::touch::TouchError;
use crate::Article;
use arbiter_chess::{Color, Move, ReadSanError, Square};

/// A start that cannot begin a game.
///
/// ```
/// use arbiter_laws::{Game, Start, StartError};
/// let e = Game::new(Start { chess960: Some(960), ..Start::default() }).unwrap_err();
/// assert_eq!(e, StartError::Chess960(960));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// Both a FEN and a Chess960 number.
    #[error("give either \"fen\" or \"chess960\", not both")]
    FenAndChess960,
    /// A Chess960 number with `"variant": "standard"`.
    #[error("\"variant\": \"standard\" and a \"chess960\" position: give one of them")]
    StandardAndChess960,
    /// The Chess960 number is not 0–959.
    #[error("Chess960 position {0} does not exist: the numbers are 0 to 959")]
    Chess960(u32),
    /// The FEN cannot be read or is not a legal position.
    #[error("start position: {0}")]
    Fen(#[from] arbiter_chess::FenError),
    /// The time control cannot be read.
    #[error("time control: {0}")]
    TimeControl(#[from] arbiter_pgn::ParseTimeControlError),
    /// The time control cannot be run.
    #[error("time control: {0}")]
    Clock(#[from] ClockError),
    /// A start option of the regulations that cannot be read.
    #[error("{0}")]
    Regulations(String),
}

/// Why a quickplay finish (2014 Appendix G, 2018/2023 Guidelines III) does
/// not apply.
///
/// ```
/// use arbiter_laws::game::QuickplayBar;
/// assert_eq!(QuickplayBar::Blitz.to_string(), "never in blitz");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum QuickplayBar {
    /// Never in blitz (G.1 / III.2).
    #[error("never in blitz")]
    Blitz,
    /// Only without increment or delay (G.1 / III.1).
    #[error("only in games without increment or delay")]
    Increment,
    /// The claimant's flag has fallen.
    #[error("the claimant's flag has fallen")]
    FlagFallen,
    /// The claimant has two minutes or more (G.4, G.5 / III.4, III.5).
    #[error("the claimant must have less than two minutes left")]
    TimeLeft,
}

/// An event the Laws reject; a rejected event changes nothing.
///
/// ```
/// use arbiter_laws::{Event, Game, Rejected, Start};
/// use arbiter_chess::Color;
/// let mut game = Game::new(Start::default())?;
/// let e = game.apply(Event::flag(0, Color::Black)).unwrap_err();
/// assert_eq!(e, Rejected::NoClock);
/// let e = game.apply(Event::accept_draw(0, Color::Black)).unwrap_err();
/// assert_eq!(e, Rejected::NoOffer(Color::White));
/// assert_eq!(e.to_string(), "there is no draw offer by white to answer");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejected {
    /// The game is over.
    #[error("the game has ended ({0}): no further events")]
    GameOver(Termination),
    /// The timestamp is before the previous event's.
    #[error("time goes backwards: t = {t} ms is before the previous event at {last} ms")]
    TimeGoesBack {
        /// This event's time.
        t: u64,
        /// The previous event's time.
        last: u64,
    },
    /// A player's action by the arbiter (or, in JSON, without `by`).
    #[error("say who acts: \"by\": \"white\" or \"black\"")]
    NoPlayer,
    /// Out of turn (1.1: the players move alternately).
    #[error("{by} does not have the move: it is {turn}'s move (Art. 1.1)")]
    NotYourMove {
        /// Who tried.
        by: Color,
        /// Who has the move.
        turn: Color,
    },
    /// A move written in SAN or UCI that cannot be read or is not legal.
    #[error("move {} (move {fullmove}): {error}", arbiter_chess::Excerpt(.text))]
    UnreadableMove {
        /// The move as written.
        text: String,
        /// The number of the move in the game (FEN fullmove number).
        fullmove: u32,
        /// What the SAN reading found.
        error: ReadSanError,
    },
    /// A move that is not legal in the position on the board.
    #[error("{}", not_legal(*.mv))]
    NotLegal {
        /// The move.
        mv: Move,
    },
    /// A move that touch-move forbids.
    #[error("touch-move (Art. {article}): the touched pieces oblige one of {}", .allowed.join(", "))]
    TouchMove {
        /// The Article.
        article: Article,
        /// The moves allowed, in SAN.
        allowed: Vec<String>,
    },
    /// Touch-move is not enforced in this game.
    #[error("touch-move is not enforced in this game (start with \"touch_move\": true)")]
    TouchMoveOff,
    /// A square name that cannot be read.
    #[error("{} is not a square", arbiter_chess::Excerpt(.text))]
    UnreadableSquare {
        /// The text given.
        text: String,
    },
    /// A square that cannot be touched.
    #[error(transparent)]
    Touch(#[from] TouchError),
    /// No draw offer to answer.
    #[error("there is no draw offer by {0} to answer")]
    NoOffer(Color),
    /// Agreement before both players have moved (2018+ 5.2.3).
    #[error("a draw by agreement needs both players to have made at least one move (Art. {0})")]
    AgreementTooEarly(Article),
    /// A claim by the player not having the move.
    #[error("only the player having the move may claim (Art. {article}); it is {turn}'s move")]
    ClaimNotOnMove {
        /// The Article.
        article: Article,
        /// Who has the move.
        turn: Color,
    },
    /// A claim after touching a piece (9.4).
    #[error("after touching a piece a player may not claim a draw on this move (Art. 9.4)")]
    ClaimAfterTouch,
    /// The game has no clock.
    #[error("this game has no clock")]
    NoClock,
    /// A flag claim when the flag has not fallen.
    #[error("{player}'s flag has not fallen: {remaining_ms} ms remain")]
    FlagNotFallen {
        /// The player claimed against.
        player: Color,
        /// Time left.
        remaining_ms: u64,
    },
    /// The arbiter observes a flag fall, but no flag has fallen.
    #[error("no flag has fallen")]
    NoFlagFallen,
    /// The arbiter acts on an illegal move, but none waits.
    #[error("there is no illegal move waiting")]
    NoIllegalMoveWaiting,
    /// A claim of an illegal move, but the opponent's last move was legal.
    #[error("there is no completed illegal move by the opponent to claim (it must be claimed before making the next move)")]
    NoIllegalMoveToClaim,
    /// A quickplay decision, but no quickplay claim waits.
    #[error("there is no quickplay claim or request waiting for a decision")]
    NoQuickplayWaiting,
    /// A quickplay claim where Appendix G / Guidelines III do not apply.
    #[error("quickplay finish (Art. {article}): {bar}")]
    Quickplay {
        /// The Article.
        article: Article,
        /// Why not.
        bar: QuickplayBar,
    },
    /// A second quickplay claim while one waits.
    #[error("a quickplay claim is already waiting for the arbiter")]
    QuickplayAlreadyWaiting,
    /// A request for extra time is upheld or rejected, not postponed.
    #[error("a request for extra time is upheld or rejected")]
    ExtraTimeNotPostponed,
    /// Not a decision on a quickplay claim.
    #[error("not a quickplay decision")]
    NotAQuickplayDecision,
    /// An illegal move written other than in coordinates.
    #[error("illegal move {}: write it in coordinates, e.g. \"e1e3\"", arbiter_chess::Excerpt(.text))]
    UnreadableIllegalMove {
        /// The text given.
        text: String,
    },
    /// An illegal move from a square without the player's piece.
    #[error("illegal move {mv}: {by} has no piece on {}", .mv.from)]
    NoPieceToMove {
        /// The move.
        mv: IllegalMove,
        /// Who made it.
        by: Color,
    },
    /// An illegal move onto the player's own piece.
    #[error("illegal move {mv}: {} holds {by}'s own piece", .mv.to)]
    OwnPieceCaptured {
        /// The move.
        mv: IllegalMove,
        /// Who made it.
        by: Color,
    },
    /// An `illegal` event with a legal move.
    #[error("{san} is a legal move: record it as \"move\"")]
    NotIllegal {
        /// The move in SAN.
        san: String,
    },
    /// A second illegal move while one waits for a claim.
    #[error("an illegal move is already waiting for a claim")]
    IllegalMoveAlreadyWaiting,
    /// A move after the opponent's illegal move that cannot stand.
    #[error("the opponent's illegal move leaves a position that cannot stand: claim it (\"claim\" with \"kind\": \"illegal_move\")")]
    IllegalMoveCannotStand,
    /// Touching a piece while an illegal move waits for a claim.
    #[error("the opponent's illegal move leaves a position that cannot stand: claim it (\"claim\" with \"kind\": \"illegal_move\") before touching a piece")]
    TouchWhileIllegalPending,
    /// An arbiter's `add_time` without the player or the time (JSON layer).
    #[error("add_time needs \"player\" and \"ms\"")]
    AddTimeIncomplete,
    /// A forfeit without the player (JSON layer).
    #[error("a forfeit needs \"player\": \"white\" or \"black\"")]
    ForfeitWithoutPlayer,
    /// An event the Laws (or the regulations they leave rules to) do not
    /// allow now, named with the Article.
    #[error("{event}: {reason} (Art. {article})")]
    Refused {
        /// The event, as `arbiter judge` names it.
        event: &'static str,
        /// The Article.
        article: Article,
        /// Why, in words.
        reason: String,
    },
}

impl Rejected {
    /// The square an error names, where there is one.
    pub fn square(&self) -> Option<Square> {
        match self {
            Rejected::NoPieceToMove { mv, .. } => Some(mv.from),
            Rejected::OwnPieceCaptured { mv, .. } => Some(mv.to),
            _ => None,
        }
    }
}

/// Why `mv` is not legal, in words: a move from a square to itself (a null
/// move, a pass, as a record writes `--` or `Z0`) is no move at all.
fn not_legal(mv: Move) -> String {
    if mv.from == mv.to {
        "a null move (a pass, nothing moved: -- or Z0 in a record) is no move; the players move alternately (Art. 1.1)".to_owned()
    } else {
        format!("{mv} is not a legal move in this position")
    }
}

/// A log that does not replay.
///
/// ```
/// use arbiter_laws::{Event, Game, ReplayError, Start};
/// use arbiter_chess::Color;
/// let err = Game::replay(Start::default(), &[Event::decline_draw(0, Color::Black)]).unwrap_err();
/// assert!(matches!(err, ReplayError::Event { index: 0, .. }));
/// assert!(err.to_string().starts_with("event 1: "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The start is invalid.
    #[error(transparent)]
    Start(#[from] StartError),
    /// An event is rejected.
    #[error("event {}: {error}", index + 1)]
    Event {
        /// 0-based index of the event in the log (its message counts from
        /// 1, as the judge's lines do: "event 1" is the first).
        index: usize,
        /// Why.
        error: Rejected,
    },
}
