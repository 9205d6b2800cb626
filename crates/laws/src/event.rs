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
use crate::edition::Edition;
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
