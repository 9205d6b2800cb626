//! The game as a log: how it starts and what happens, with timestamps, as
//! typed values. The JSON lines of `arbiter judge` are a layer on these
//! ([`crate::json`]).
//!
//! ```
//! use arbiter_laws::{Actor, Event, Game, Start};
//! use arbiter_chess::{Color, Move, Square};
//! let mut game = Game::new(Start::default())?;
//! let e = Event::play(1500, Color::White, Move::new(Square::E2, Square::E4));
//! assert_eq!(e.by, Actor::Player(Color::White));
//! game.apply(e)?;
//! assert_eq!(game.moves()[0].san, "e4");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use crate::clock::Delay;
use crate::edition::{Edition, Rules};
use crate::outcome::{GameResult, Score};
use crate::regulations::Regulations;
use crate::Article;
use arbiter_chess::{CastlingMode, Color, Move, Role, Square};
use arbiter_pgn::TimeControl;
use serde::{Deserialize, Serialize};

/// How a game starts.
///
/// ```
/// use arbiter_laws::{Edition, Game, Start};
/// use arbiter_pgn::TimeControl;
/// let start = Start {
///     time_control: Some(TimeControl::parse("300+3")?),
///     edition: Edition::Fide2023,
///     ..Start::default()
/// };
/// let game = Game::new(start)?;
/// assert_eq!(game.time_class().name(), "blitz");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Start {
    /// A set-up position in FEN (X-FEN and Shredder-FEN accepted); the
    /// initial position if absent.
    pub fen: Option<String>,
    /// A Chess960 starting position by its number (0–959).
    pub chess960: Option<u32>,
    /// The game declared: standard chess reads the FEN's castling rights
    /// in standard castling mode (Art. 3.8 a: the king on e1/e8, the rooks
    /// in their corners), so a right only Chess960 can have is refused;
    /// Chess960 in Chess960 mode (2014 Appendix F). Without it, a FEN is
    /// read as its rights need (Chess960 when a right names a rook or king
    /// standard chess cannot castle with), and the start is Chess960 only
    /// with a `chess960` number.
    pub variant: Option<Variant>,
    /// The edition of the Laws (default 2014).
    pub edition: Edition,
    /// The time control (PGN `TimeControl`); no clock if absent.
    pub time_control: Option<TimeControl>,
    /// A delay per move (Bronstein or simple).
    pub delay: Option<Delay>,
    /// Rapid and blitz under the Competition Rules (adequate supervision:
    /// 2014/2018 A.3, B.3; 2023 A.4, B.2). Default: not supervised.
    pub supervised: bool,
    /// Touch-move is enforced (4.3–4.4): `touch` events oblige.
    pub touch_move: bool,
    /// The players not at the board at the scheduled start (t = 0): each
    /// must `arrive` (6.7) before acting.
    pub absent: Vec<Color>,
    /// What the regulations of the event specify where the Laws leave it to
    /// them (the default time, …).
    pub regulations: Regulations,
}

/// The game a start declares: standard chess or Chess960 (FIDE 2014
/// Appendix F; 2018 and 2023 Guidelines II). It decides how a FEN's castling
/// rights are read, and so which castling moves exist.
///
/// ```
/// use arbiter_laws::{Game, Start, StartError, Variant};
/// // King on e1, a rook moved to b1 but `Q` kept: in standard chess that right
/// // cannot exist (Art. 3.8 a); read on its own, the FEN is a Chess960 position.
/// let fen = "4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1";
/// let standard = Start { fen: Some(fen.into()), variant: Some(Variant::Standard), ..Start::default() };
/// assert!(matches!(Game::new(standard), Err(StartError::Fen(_))));
/// let auto = Start { fen: Some(fen.into()), ..Start::default() };
/// assert!(Game::new(auto)?.position().castling_mode().is_chess960());
/// # Ok::<_, StartError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Standard chess: castling only with the king on e1/e8 and a rook in its corner.
    Standard,
    /// Chess960 (Fischer random chess).
    Chess960,
}

impl Variant {
    /// How castling is read and written in this game.
    pub const fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960 => CastlingMode::Chess960,
        }
    }
}

/// Who acts: one of the players, or the arbiter (Art. 12).
///
/// ```
/// use arbiter_laws::Actor;
/// use arbiter_chess::Color;
/// assert_eq!(Actor::Player(Color::Black).player(), Some(Color::Black));
/// assert_eq!(Actor::Arbiter.player(), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Actor {
    /// A player.
    Player(Color),
    /// The arbiter.
    Arbiter,
}

impl Actor {
    /// The player, if a player acts.
    pub const fn player(self) -> Option<Color> {
        match self {
            Actor::Player(c) => Some(c),
            Actor::Arbiter => None,
        }
    }
}

impl From<Color> for Actor {
    fn from(c: Color) -> Actor {
        Actor::Player(c)
    }
}

impl From<Option<Color>> for Actor {
    /// `None` is the arbiter.
    fn from(c: Option<Color>) -> Actor {
        c.map_or(Actor::Arbiter, Actor::Player)
    }
}

/// One thing that happened, at `t` milliseconds after the start.
///
/// Build it with the constructors ([`Event::play`], [`Event::claim_threefold`], …):
///
/// ```
/// use arbiter_laws::{Action, Actor, ClaimKind, Event};
/// use arbiter_chess::Color;
/// let e = Event::claim_threefold(9000, Color::Black, None);
/// assert_eq!(e.action, Action::Claim { kind: ClaimKind::Threefold, mv: None });
/// assert_eq!(Event::resign(10_000, Color::White).by, Actor::Player(Color::White));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Milliseconds since the start of the game (White's clock started at 0).
    pub t: u64,
    /// Who acts.
    pub by: Actor,
    /// What happened.
    pub action: Action,
}

impl Event {
    /// `by` makes and completes the legal move `mv` (the clock pressed).
    pub fn play(t: u64, by: Color, mv: Move) -> Event {
        Event::player(t, by, Action::Move { mv })
    }

    /// `by` offers a draw (9.1 b / 9.1.2).
    pub fn offer_draw(t: u64, by: Color) -> Event {
        Event::player(t, by, Action::OfferDraw)
    }

    /// `by` accepts the opponent's draw offer.
    pub fn accept_draw(t: u64, by: Color) -> Event {
        Event::player(t, by, Action::AcceptDraw)
    }

    /// `by` declines the opponent's draw offer.
    pub fn decline_draw(t: u64, by: Color) -> Event {
        Event::player(t, by, Action::DeclineDraw)
    }

    /// `by` claims a draw by threefold repetition (9.2), on the position or
    /// on the intended move `mv`, written and not played.
    pub fn claim_threefold(t: u64, by: Color, mv: Option<Move>) -> Event {
        Event::claim(t, by, ClaimKind::Threefold, mv)
    }

    /// `by` claims a draw under the 50-move rule (9.3), on the position or on
    /// the intended move `mv`.
    pub fn claim_fifty(t: u64, by: Color, mv: Option<Move>) -> Event {
        Event::claim(t, by, ClaimKind::Fifty, mv)
    }

    /// `by` makes a claim of `kind` (an intended move only for 9.2 and 9.3).
    pub fn claim(t: u64, by: Color, kind: ClaimKind, mv: Option<Move>) -> Event {
        Event::player(t, by, Action::Claim { kind, mv })
    }

    /// `by` resigns (5.1 b / 5.1.2).
    pub fn resign(t: u64, by: Color) -> Event {
        Event::player(t, by, Action::Resign)
    }

    /// `by` claims that the opponent's flag has fallen (6.8).
    pub fn flag(t: u64, by: Color) -> Event {
        Event::player(t, by, Action::Flag)
    }

    /// `by`, absent at the scheduled start, arrives at the board (6.7).
    pub fn arrive(t: u64, by: Color) -> Event {
        Event::player(t, by, Action::Arrive)
    }

    /// `by` touches the piece on `square` (4.3).
    pub fn touch(t: u64, by: Color, square: Square) -> Event {
        Event::player(t, by, Action::Touch { square })
    }

    /// `by` completes the illegal move `mv` (7.5).
    pub fn illegal(t: u64, by: Color, mv: IllegalMove) -> Event {
        Event::player(t, by, Action::Illegal { mv })
    }

    /// The arbiter's `decision`.
    pub fn arbiter(t: u64, decision: Decision) -> Event {
        Event {
            t,
            by: Actor::Arbiter,
            action: Action::Arbiter { decision },
        }
    }

    /// The arbiter declares the game lost by `player` (10.1), on `ground`,
    /// for `reason`.
    pub fn forfeit(t: u64, player: Color, ground: Ground, reason: impl Into<String>) -> Event {
        Event {
            t,
            by: Actor::Arbiter,
            action: Action::Forfeit {
                player,
                ground,
                reason: reason.into(),
            },
        }
    }

    /// The arbiter decides the result, on `ground`, for `reason`.
    pub fn adjudicate(
        t: u64,
        result: GameResult,
        ground: Ground,
        reason: impl Into<String>,
    ) -> Event {
        Event {
            t,
            by: Actor::Arbiter,
            action: Action::Adjudicate {
                result,
                ground,
                reason: reason.into(),
            },
        }
    }

    fn player(t: u64, by: Color, action: Action) -> Event {
        Event {
            t,
            by: Actor::Player(by),
            action,
        }
    }
}

/// A completed illegal move as an over-the-board record writes it, from
/// square to square (7.5): a pawn reaching the last rank with no piece
/// named is an unreplaced promotion (7.5 a / 7.5.2).
///
/// ```
/// use arbiter_laws::IllegalMove;
/// use arbiter_chess::{Role, Square};
/// let m = IllegalMove { from: Square::E7, to: Square::E8, promotion: None };
/// assert_eq!(m, IllegalMove::new(Square::E7, Square::E8));
/// assert_eq!(IllegalMove { promotion: Some(Role::Knight), ..m }.to_string(), "e7e8n");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IllegalMove {
    /// Where the piece was.
    pub from: Square,
    /// Where it was put.
    pub to: Square,
    /// The piece a pawn was replaced with, if one was named.
    pub promotion: Option<Role>,
}

impl IllegalMove {
    /// From `from` to `to`, no promotion piece.
    pub const fn new(from: Square, to: Square) -> IllegalMove {
        IllegalMove {
            from,
            to,
            promotion: None,
        }
    }
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(r) = self.promotion {
            write!(f, "{}", r.char())?;
        }
        Ok(())
    }
}

/// What a player or the arbiter does.
///
/// ```
/// use arbiter_laws::{Action, Event};
/// use arbiter_chess::Color;
/// assert_eq!(Event::offer_draw(0, Color::White).action, Action::OfferDraw);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move, made and completed (the clock pressed).
    Move {
        /// The move.
        mv: Move,
    },
    /// A draw offer (9.1 b / 9.1.2).
    OfferDraw,
    /// Accepting the opponent's draw offer.
    AcceptDraw,
    /// Declining the opponent's draw offer.
    DeclineDraw,
    /// A claim, by the player having the move unless its kind says otherwise.
    Claim {
        /// What is claimed.
        kind: ClaimKind,
        /// The intended move, written first and not played (9.2, 9.3).
        mv: Option<Move>,
    },
    /// Resignation (5.1 b / 5.1.2).
    Resign,
    /// A claim that the opponent's flag has fallen (6.8).
    Flag,
    /// The player having the move deliberately touches the piece on `square` (4.3).
    Touch {
        /// The square.
        square: Square,
    },
    /// A completed illegal move (7.5) from a record of an over-the-board game.
    Illegal {
        /// The move, from and to squares (and a promotion piece).
        mv: IllegalMove,
    },
    /// An arbiter's decision.
    Arbiter {
        /// The decision.
        decision: Decision,
    },
    /// A player absent at the scheduled start arrives at the board (6.7).
    Arrive,
    /// With touch-move on, the new piece of a promotion has touched the
    /// promotion square `square` (2014 4.4 d and 4.6, 2018/2023 4.4.4): the
    /// choice of piece is final.
    TouchPromotionPiece {
        /// The promotion square.
        square: Square,
        /// The piece chosen.
        piece: Role,
    },
    /// The player having the move seals it for an adjournment (2014
    /// Appendix E, 2018/2023 Guidelines I): written, not played; his clock
    /// stops.
    Seal {
        /// The move as written (any notation).
        text: String,
    },
    /// The player presses the clock without having made a move (2018/2023
    /// 7.5.3: penalised as an illegal move; not so in 2014).
    PressClock,
    /// A legal move made with two hands and completed (2018/2023 7.5.4:
    /// penalised as an illegal move; not so in 2014).
    MoveTwoHands {
        /// The move.
        mv: Move,
    },
    /// A completed illegal move nobody noticed (standard play, or wherever
    /// the arbiter acts on his own): the game goes on from the position it
    /// left until the arbiter finds it ([`Decision::IllegalFound`], 7.5 a /
    /// 7.5.1).
    IllegalUnnoticed {
        /// The move, from and to squares (and a promotion piece).
        mv: IllegalMove,
    },
    /// The arbiter declares the game lost by `player`; the opponent wins
    /// (Art. 10.1: "wins by forfeit"). For another score of the opponent,
    /// use [`Action::Adjudicate`].
    ///
    /// ```
    /// use arbiter_laws::{Event, Game, Ground, Start, Termination};
    /// use arbiter_chess::Color;
    /// let mut game = Game::new(Start::default())?;
    /// game.apply(Event::forfeit(900, Color::White, Ground::MatchRule, "the engine sent e2e5, an illegal move"))?;
    /// let o = game.outcome().unwrap();
    /// assert_eq!((o.result.to_string().as_str(), o.termination), ("0-1", Termination::Forfeit));
    /// assert_eq!(o.article.as_str(), "match rule");
    /// assert_eq!(o.reason.as_deref(), Some("the engine sent e2e5, an illegal move"));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    Forfeit {
        /// The player who loses.
        player: Color,
        /// What the decision rests on.
        ground: Ground,
        /// Why, in words: kept in the log and given with the result.
        reason: String,
    },
    /// The arbiter decides the result: a draw or a win adjudicated under the
    /// regulations of the event, or the scores of a penalty (`1/2-0`, `0-0`,
    /// …; never more than the normal total, Art. 10.2).
    Adjudicate {
        /// The result.
        result: GameResult,
        /// What the decision rests on.
        ground: Ground,
        /// Why, in words: kept in the log and given with the result.
        reason: String,
    },
}

impl Action {
    /// The event's name as `arbiter judge` writes its `"do"` (a move made
    /// with two hands is a `move`, an unnoticed illegal move an `illegal`,
    /// a promotion piece touching its square a `touch`).
    ///
    /// ```
    /// use arbiter_laws::Action;
    /// assert_eq!(Action::PressClock.name(), "press_clock");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Action::Move { .. } | Action::MoveTwoHands { .. } => "move",
            Action::OfferDraw => "offer_draw",
            Action::AcceptDraw => "accept_draw",
            Action::DeclineDraw => "decline_draw",
            Action::Claim { .. } => "claim",
            Action::Resign => "resign",
            Action::Flag => "flag",
            Action::Touch { .. } | Action::TouchPromotionPiece { .. } => "touch",
            Action::Illegal { .. } | Action::IllegalUnnoticed { .. } => "illegal",
            Action::Arbiter { .. } => "arbiter",
            Action::Arrive => "arrive",
            Action::Seal { .. } => "seal",
            Action::PressClock => "press_clock",
            Action::Forfeit { .. } => "forfeit",
            Action::Adjudicate { .. } => "adjudicate",
        }
    }
}

/// What an arbiter's [`Action::Forfeit`] or [`Action::Adjudicate`] rests on.
///
/// ```
/// use arbiter_laws::{Edition, Ground};
/// let rules = Edition::Fide2023.rules();
/// assert_eq!(Ground::MatchRule.article(&rules).as_str(), "match rule");
/// assert_eq!(Ground::PersistentRefusal.article(&rules).as_str(), "11.7");
/// assert_eq!(Ground::DefaultTime.article(&rules).as_str(), "6.7.1");
/// assert_eq!(Ground::DefaultTime.article(&Edition::Fide2014.rules()).as_str(), "6.7 a");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ground {
    /// The regulations of the event, which may specify results the Laws do
    /// not (Art. 10.1: "unless the regulations of an event specify
    /// otherwise"): in engine matches an illegal or unreadable move or an
    /// engine that stops working loses, and results may be adjudicated on
    /// the engines' evaluations or after a move limit. Cited as
    /// `"match rule"`.
    #[default]
    MatchRule,
    /// Persistent refusal to comply with the Laws: the game is lost and the
    /// arbiter decides the opponent's score (Art. 11.7).
    PersistentRefusal,
    /// One of the arbiter's penalties: declaring the game lost by the
    /// offending player, or changing the points scored (Art. 12.9).
    Penalty,
    /// Absent from the chessboard after the default time that the
    /// regulations of the event set (2014 6.7 a, 2018/2023 6.7.1): the
    /// player loses, the arbiter declaring it (online: not connected to the
    /// game and no move made).
    DefaultTime,
}

impl Ground {
    /// The Article cited, or [`Article::MATCH_RULE`].
    pub const fn article(self, rules: &Rules) -> Article {
        match self {
            Ground::MatchRule => Article::MATCH_RULE,
            Ground::PersistentRefusal => Article::new(rules.articles.persistent_refusal),
            Ground::Penalty => Article::new(rules.articles.penalties),
            Ground::DefaultTime => Article::new(rules.articles.late_arrival),
        }
    }
}

/// What a claim is about.
///
/// ```
/// use arbiter_laws::{ClaimKind, Game, Start};
/// let game = Game::new(Start::default())?;
/// assert_eq!(game.claimable(None), None::<ClaimKind>);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    /// Threefold repetition (9.2).
    Threefold,
    /// The 50-move rule (9.3).
    Fifty,
    /// The opponent's last completed move was illegal (rapid and blitz
    /// without adequate supervision: 2014 A.4 b, 2018 A.4.2, 2023 A.5.2).
    IllegalMove,
    /// Quickplay finish: a request for an extra five seconds per move for
    /// both players (2014 G.4, 2018/2023 III.4); also a draw offer.
    ExtraTime,
    /// Quickplay finish: the opponent cannot win by normal means or is making
    /// no effort to (2014 G.5, 2018/2023 III.5).
    NormalMeans,
}

/// An arbiter's decision.
///
/// ```
/// use arbiter_laws::{Decision, Event, Game, Start};
/// use arbiter_chess::Color;
/// use arbiter_pgn::TimeControl;
/// let mut game = Game::new(Start { time_control: Some(TimeControl::parse("300")?), ..Start::default() })?;
/// let applied = game.apply(Event::arbiter(0, Decision::AddTime { player: Color::Black, ms: 60_000 }))?;
/// assert_eq!(applied.penalty.unwrap().ms, 60_000);
/// assert_eq!(game.clock_at(0).unwrap().black, 360_000);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// The pending quickplay claim or request is upheld (G.4, G.5 a / III.4, III.5.1).
    Upheld,
    /// The pending quickplay claim or request is rejected (G.5 c / III.5.3).
    Rejected,
    /// The decision on a "normal means" claim is postponed (G.5 b / III.5.2);
    /// the opponent is given two extra minutes.
    Postponed,
    /// The arbiter observes a flag fall (6.8; rapid and blitz A.4 e / A.4.5 / A.5.5).
    Flag,
    /// The arbiter observes the pending illegal move (A.4 b / A.4.2 / A.5.2).
    IllegalMove,
    /// Both players lose (11.8): 0–0.
    BothLose,
    /// The arbiter adds `ms` to `player`'s clock (12.2).
    AddTime {
        /// Whose clock.
        player: Color,
        /// Milliseconds.
        ms: u64,
    },
    /// The default time has passed (6.7 a / 6.7.1): the players still
    /// absent lose (both: 0-0).
    DefaultTimePassed,
    /// The arbiter decides otherwise (6.7 a / 6.7.1): `player` may arrive
    /// after the default time.
    ExcuseLateness {
        /// The player.
        player: Color,
    },
    /// The arbiter finds an electronic device with `player` in the playing
    /// venue (2014 11.3 b, 2018/2023 11.3.2); `in_bag`: completely switched
    /// off in the player's bag, as the regulations may allow (11.3.2.1).
    Device {
        /// The player.
        player: Color,
        /// Stored switched off in the bag.
        in_bag: bool,
    },
    /// The arbiter consents to a draw offer or agreement the regulations
    /// forbid without it (9.1 a / 9.1.1).
    ConsentDraw,
    /// The arbiter finds the unnoticed illegal move (7.5 a / 7.5.1): the
    /// position before it is reinstated, the moves after it annulled, the
    /// offender penalised (7.5 b / 7.5.5) and to make the replacement move
    /// under 4.3.
    IllegalFound,
    /// The adjourned game is resumed: the sealed move is made (or, if it
    /// cannot be, lost); `absent`, the player not at the board (his clock
    /// runs; the default time counts from the resumption).
    Resume {
        /// A player absent at the resumption.
        absent: Option<Color>,
    },
    /// The initial position was incorrect (7.2 a / 7.2.1): the game is
    /// cancelled and a new game played, from the initial position (the
    /// Chess960 position of the start, if one was given).
    WrongInitialPosition,
    /// The game began with colours reversed (7.3): 2018+, a new game with
    /// the correct colours if fewer than 10 moves have been made by both
    /// players, otherwise it continues; 2014, it continues unless the
    /// arbiter rules otherwise (`restart`).
    ColoursReversed {
        /// The arbiter rules that a new game be played (2014).
        restart: bool,
    },
    /// `player` displaced pieces (7.4 a / 7.4.1): the correct position is
    /// re-established; the arbiter may set the clocks and penalise.
    Displaced {
        /// Who displaced them.
        player: Color,
    },
    /// The arbiter sets both clocks (6.12 / 6.11; after a position is
    /// reinstated, 7.5 a / 7.5.1).
    SetClocks {
        /// White's time, ms.
        white: u64,
        /// Black's time, ms.
        black: u64,
    },
    /// One of the arbiter's penalties (12.9) on `offender`. The penalties on
    /// the score may also be imposed after the game has ended.
    Penalty {
        /// The player penalised.
        offender: Color,
        /// Which penalty.
        sanction: Sanction,
    },
}

/// The penalties of Art. 12.9 (2014 12.9 a–f, 2018/2023 12.9.1–12.9.6; a
/// fine, exclusion from rounds and expulsion are outside the game).
///
/// ```
/// use arbiter_laws::{Decision, Event, Game, Sanction, Score, Start};
/// use arbiter_chess::Color;
/// let mut game = Game::new(Start::default())?;
/// let lost = Sanction::GameLost { opponent_score: Score::Half };
/// game.apply(Event::arbiter(0, Decision::Penalty { offender: Color::White, sanction: lost }))?;
/// assert_eq!(game.outcome().unwrap().result.to_string(), "0-1/2");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sanction {
    /// A warning (12.9 a / 12.9.1).
    Warning,
    /// Increasing the remaining time of the opponent (12.9 b / 12.9.2).
    OpponentTime {
        /// Milliseconds added.
        ms: u64,
    },
    /// Reducing the remaining time of the offending player (12.9 c / 12.9.3).
    OffenderTime {
        /// Milliseconds taken.
        ms: u64,
    },
    /// Increasing the points scored in the game by the opponent to the
    /// maximum available for that game (12.9 d / 12.9.4): the opponent 1,
    /// so the offender 0 (10.2).
    OpponentScoreMaximum,
    /// Reducing the points scored in the game by the offending person
    /// (12.9 e / 12.9.5), to `score`: on a game that has a result.
    OffenderScoreReduced {
        /// The offender's new score.
        score: Score,
    },
    /// Declaring the game to be lost by the offending player; the arbiter
    /// also decides the opponent's score (12.9 f / 12.9.6).
    GameLost {
        /// The opponent's score.
        opponent_score: Score,
    },
}

impl Sanction {
    /// The index of the penalty in 12.9's list ([`crate::edition::Articles::sanctions`]).
    pub const fn index(self) -> usize {
        match self {
            Sanction::Warning => 0,
            Sanction::OpponentTime { .. } => 1,
            Sanction::OffenderTime { .. } => 2,
            Sanction::OpponentScoreMaximum => 3,
            Sanction::OffenderScoreReduced { .. } => 4,
            Sanction::GameLost { .. } => 5,
        }
    }

    /// Whether it changes the score (and so may come after the end).
    pub const fn changes_score(self) -> bool {
        self.index() >= 3
    }
}
