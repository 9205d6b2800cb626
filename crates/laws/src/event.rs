//! The game as a log: how it starts and what happens, with timestamps.
//!
//! Serialised as JSON these are exactly the lines of `arbiter judge`:
//!
//! ```
//! use arbiter_laws::{Event, Start};
//! let start: Start = serde_json::from_str(r#"{"time_control": "300+3", "edition": "2023"}"#)?;
//! let e: Event = serde_json::from_str(r#"{"t": 1500, "by": "white", "do": "move", "move": "e4"}"#)?;
//! assert_eq!(serde_json::to_string(&e)?, r#"{"t":1500,"by":"white","do":"move","move":"e4"}"#);
//! # Ok::<_, serde_json::Error>(())
//! ```

use crate::clock::Delay;
use crate::edition::{Edition, Rules, MATCH_RULE};
use crate::outcome::GameResult;
use arbiter_chess::Color;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How a game starts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// A set-up position in FEN (X-FEN and Shredder-FEN accepted); the
    /// initial position if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// A Chess960 starting position by its number (0–959).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chess960: Option<u32>,
    /// The edition of the Laws (default 2014).
    #[serde(default)]
    pub edition: Edition,
    /// A PGN `TimeControl` value (`40/5400+30:1800+30`, `300+3`, …); no clock if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<String>,
    /// A delay per move (Bronstein or simple).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay: Option<Delay>,
    /// Rapid and blitz under the Competition Rules (adequate supervision:
    /// 2014/2018 A.3, B.3; 2023 A.4, B.2). Default: not supervised.
    #[serde(default)]
    pub supervised: bool,
    /// Touch-move is enforced (4.3–4.4): `touch` events oblige.
    #[serde(default)]
    pub touch_move: bool,
}

/// A player, written `"white"` or `"black"`.
pub mod color_serde {
    use super::*;

    /// Serialises a colour as `"white"` / `"black"`.
    pub fn serialize<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        match c {
            Some(Color::White) => s.serialize_str("white"),
            Some(Color::Black) => s.serialize_str("black"),
            None => s.serialize_none(),
        }
    }

    /// Reads `"white"` / `"black"` (also `"w"` / `"b"`).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
        let s: Option<String> = Option::deserialize(d)?;
        match s.as_deref() {
            None => Ok(None),
            Some("white" | "w" | "White") => Ok(Some(Color::White)),
            Some("black" | "b" | "Black") => Ok(Some(Color::Black)),
            Some(other) => Err(serde::de::Error::custom(format!(
                "unknown player {other:?}: expected \"white\" or \"black\""
            ))),
        }
    }
}

/// One thing that happened, at `t` milliseconds after the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Milliseconds since the start of the game (White's clock started at 0).
    pub t: u64,
    /// The player who acts; absent for the arbiter.
    #[serde(default, with = "color_serde", skip_serializing_if = "Option::is_none")]
    pub by: Option<Color>,
    /// What happened.
    #[serde(flatten)]
    pub action: Action,
}

/// What a player or the arbiter does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action {
    /// A move, made and completed (the clock pressed), in SAN or UCI.
    Move {
        /// The move as written.
        #[serde(rename = "move")]
        mv: String,
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
        #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
        mv: Option<String>,
    },
    /// Resignation (5.1 b / 5.1.2).
    Resign,
    /// A claim that the opponent's flag has fallen (6.8).
    Flag,
    /// The player having the move deliberately touches the piece on `square` (4.3).
    Touch {
        /// The square, e.g. `"e2"`.
        square: String,
    },
    /// A completed illegal move (7.5) from a record of an over-the-board
    /// game, in coordinates: `"e1e3"`; a pawn reaching the last rank with no
    /// piece named (`"e7e8"`) is an unreplaced promotion (7.5 a / 7.5.2).
    Illegal {
        /// The move, from and to squares (and a promotion piece).
        #[serde(rename = "move")]
        mv: String,
    },
    /// An arbiter's decision.
    Arbiter {
        /// The decision.
        decision: Decision,
        /// The player concerned, for `add_time`.
        #[serde(default, with = "color_serde", skip_serializing_if = "Option::is_none")]
        player: Option<Color>,
        /// Milliseconds, for `add_time`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ms: Option<u64>,
    },
    /// The arbiter declares the game lost by `player` (no `by`: the arbiter
    /// acts); the opponent wins (Art. 10.1: "wins by forfeit"). For another
    /// score of the opponent, use [`Action::Adjudicate`].
    ///
    /// ```
    /// use arbiter_laws::{Event, Game, Start, Termination};
    /// let mut game = Game::new(Start::default())?;
    /// let e: Event = serde_json::from_str(
    ///     r#"{"t": 900, "do": "forfeit", "player": "white", "reason": "the engine sent e2e5, an illegal move"}"#)?;
    /// game.apply(e)?;
    /// let o = game.outcome().unwrap();
    /// assert_eq!((o.result.to_string().as_str(), o.termination, o.article), ("0-1", Termination::Forfeit, "match rule"));
    /// assert_eq!(game.outcome_reason(), Some("the engine sent e2e5, an illegal move"));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    Forfeit {
        /// The player who loses.
        #[serde(default, with = "color_serde", skip_serializing_if = "Option::is_none")]
        player: Option<Color>,
        /// What the decision rests on (default: the regulations of the event).
        #[serde(default)]
        ground: Ground,
        /// Why, in words: kept in the log and given with the result.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
    /// The arbiter decides the result (no `by`): a draw or a win adjudicated
    /// under the regulations of the event, or the scores of a penalty
    /// (`"1/2-0"`, `"0-0"`, …; never more than the normal total, Art. 10.2).
    Adjudicate {
        /// The result: `"1-0"`, `"0-1"`, `"1/2-1/2"`, `"0-0"`, `"1/2-0"`, `"0-1/2"`.
        #[serde(with = "result_serde")]
        result: GameResult,
        /// What the decision rests on (default: the regulations of the event).
        #[serde(default)]
        ground: Ground,
        /// Why, in words: kept in the log and given with the result.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
}

/// What an arbiter's [`Action::Forfeit`] or [`Action::Adjudicate`] rests on.
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
}

impl Ground {
    /// The Article cited, or `"match rule"`.
    pub const fn article(self, rules: &Rules) -> &'static str {
        match self {
            Ground::MatchRule => MATCH_RULE,
            Ground::PersistentRefusal => rules.articles.persistent_refusal,
            Ground::Penalty => rules.articles.penalties,
        }
    }
}

/// A result written `"1-0"`, `"0-1"`, `"1/2-1/2"`, `"0-0"`, `"1/2-0"` or `"0-1/2"`.
pub mod result_serde {
    use super::*;

    /// Writes the result as text.
    pub fn serialize<S: Serializer>(r: &GameResult, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&r.to_string())
    }

    /// Reads a result (Art. 10.2: never more than the normal total).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
        let s = String::deserialize(d)?;
        GameResult::parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "result {s:?}: expected \"1-0\", \"0-1\", \"1/2-1/2\", \"0-0\", \"1/2-0\" or \"0-1/2\""
            ))
        })
    }
}

/// What a claim is about.
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
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// The arbiter adds `ms` to `player`'s clock.
    AddTime,
}
