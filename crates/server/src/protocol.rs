//! The wire types of `docs/protocol.md` (version 1): what the server sends
//! and what it accepts. Field names and shapes follow the document exactly;
//! everything here is plain data with serde.

use crate::notation::{promotion_name, square_name, Short};
pub use arbiter_chess::Color;
use arbiter_chess::{CastlingSide, Role, Square};
use serde::{Deserialize, Serialize};

/// How the game is played (§3.1 `mode`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Against the engine.
    Engine,
    /// Against a person by invitation link.
    Invite,
    /// Two players at one screen.
    Local,
}

/// Standard chess or Chess960.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// The standard initial position.
    #[default]
    Standard,
    /// Chess960 (FIDE Laws, Guidelines II / Appendix F in 2014).
    Chess960,
}

/// Game status.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// An invitation nobody has accepted yet.
    Waiting,
    /// In progress.
    Active,
    /// Ended.
    Finished,
}

impl Status {
    /// `"waiting"`, `"active"`, `"finished"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Active => "active",
            Status::Finished => "finished",
        }
    }
}

/// A period of the time control on the wire (§3.1), in whole seconds: what
/// the browser shows, so that it never reads the `TimeControl` text itself.
///
/// ```
/// use arbiter_server::protocol::WirePeriod;
/// use arbiter_pgn::TimeControl;
///
/// let tc: TimeControl = "40/5400+30:1800+30".parse().unwrap();
/// let periods = WirePeriod::all(&tc);
/// assert_eq!(periods[0], WirePeriod { moves: Some(40), seconds: 5400, increment: 30 });
/// assert_eq!(periods[1], WirePeriod { moves: None, seconds: 1800, increment: 30 });
/// assert!(WirePeriod::all(&TimeControl::Untimed).is_empty());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WirePeriod {
    /// Moves in the period; `null` for the last (all remaining moves).
    pub moves: Option<u32>,
    /// Seconds for the period.
    pub seconds: u64,
    /// Seconds added per move.
    pub increment: u64,
}

impl WirePeriod {
    /// The periods of `tc` (none when untimed).
    pub fn all(tc: &arbiter_pgn::TimeControl) -> Vec<WirePeriod> {
        tc.periods()
            .iter()
            .map(|p| WirePeriod {
                moves: p.moves,
                seconds: p.time_ms / 1000,
                increment: p.increment_ms / 1000,
            })
            .collect()
    }
}

/// Bronstein or simple delay on the wire.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireDelay {
    /// `"bronstein"` or `"simple"`.
    pub kind: DelayKindWire,
    /// Milliseconds, 1..600000.
    pub ms: u64,
}

/// The delay kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DelayKindWire {
    /// Bronstein delay.
    Bronstein,
    /// Simple (US) delay.
    Simple,
}

/// A player as shown to everyone (§4.4 `Player`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// `"human"` or `"engine"`.
    pub kind: PlayerKind,
    /// User text: the client renders it as text only.
    pub name: Option<String>,
    /// 1..7 for the engine.
    pub engine_level: Option<u8>,
    /// `UCI_Elo`, `None` for full strength or a human.
    pub engine_elo: Option<u32>,
    /// `false` for the open seat of an invitation.
    pub joined: bool,
    /// A live connection holds this seat (always `true` for the engine).
    pub online: bool,
}

/// Human or engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    /// A person.
    Human,
    /// Arbiter's engine.
    Engine,
}

/// Both players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Players {
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
}

impl Players {
    /// The player of `side`.
    pub fn get(&self, side: Color) -> &Player {
        match side {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The player of `side`, mutable.
    pub fn get_mut(&mut self, side: Color) -> &mut Player {
        match side {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

/// A legal move as the client needs it (§4.4 `LegalMove`, §5). Plain
/// data (no allocation): the event after every move lists them all.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LegalMove {
    /// The encoding to send back.
    pub uci: Short,
    /// Strict English SAN.
    pub san: Short,
    /// The square the piece leaves.
    pub from: Square,
    /// The square it lands on (the king's final square for castling).
    pub to: Square,
    /// The promotion piece, written `q r b n`.
    pub promotion: Option<Role>,
    /// Castling: `"short"` (g-side) or `"long"` (c-side).
    pub castle: Option<CastlingSide>,
    /// Castling only: the rook's start square.
    pub rook: Option<Square>,
}

impl Serialize for LegalMove {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let optional =
            usize::from(self.promotion.is_some()) + 2 * usize::from(self.castle.is_some());
        let mut st = s.serialize_struct("LegalMove", 4 + optional)?;
        st.serialize_field("uci", &self.uci)?;
        st.serialize_field("san", &self.san)?;
        st.serialize_field("from", &square_name(self.from))?;
        st.serialize_field("to", &square_name(self.to))?;
        if let Some(p) = self.promotion {
            st.serialize_field("promotion", &promotion_name(p))?;
        }
        if let Some(side) = self.castle {
            let name = match side {
                CastlingSide::KingSide => "short",
                CastlingSide::QueenSide => "long",
            };
            st.serialize_field("castle", name)?;
            if let Some(r) = self.rook {
                st.serialize_field("rook", &square_name(r))?;
            }
        }
        st.end()
    }
}

/// A move made (§4.4 `MoveRecord`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// 1 = White's first move.
    pub ply: u32,
    /// The mover.
    pub color: Color,
    /// UCI as listed in `legal_moves`.
    pub uci: String,
    /// English SAN.
    pub san: String,
    /// From square.
    pub from: String,
    /// To square (king's final square for castling).
    pub to: String,
    /// Promotion piece.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub promotion: Option<String>,
    /// The mover's remaining time after the move, increment included.
    pub clock_ms: Option<u64>,
    /// Think time of this move.
    pub spent_ms: Option<u64>,
}

/// Moves left in the current period for each side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovesToControl {
    /// White; `None` in the last period.
    pub white: Option<u32>,
    /// Black.
    pub black: Option<u32>,
}

/// The clocks at one moment (§4.4 `Clocks`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// White's remaining main time at `server_time`.
    pub white_ms: u64,
    /// Black's.
    pub black_ms: u64,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// Epoch ms when these values were taken.
    pub server_time: u64,
    /// The running side's unused delay at `server_time`.
    pub delay_left_ms: u64,
    /// Moves left in the current period.
    pub moves_to_control: MovesToControl,
}

/// How a game ended (§4.4 `Termination`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Termination {
    /// `checkmate`, `resignation`, … (§4.6): the Laws' own enum, in its
    /// snake_case serde form.
    pub kind: arbiter_laws::Termination,
    /// The Article, as numbered in the game's edition.
    pub article: String,
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// Who resigned, claimed, flagged or made the illegal move.
    pub by: Option<Color>,
}

/// The last move's squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastMove {
    /// From.
    pub from: String,
    /// To (the king's for castling).
    pub to: String,
}

/// The live part of a game's state (§4.4 `Live`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Live {
    /// Last event applied.
    pub seq: u64,
    /// Status.
    pub status: Status,
    /// Current position, full FEN (X-FEN in Chess960).
    pub fen: String,
    /// Color to move.
    pub turn: Color,
    /// Moves made so far.
    pub ply: u32,
    /// The side to move is in check.
    pub check: bool,
    /// The last move.
    pub last_move: Option<LastMove>,
    /// Legal moves of the side to move; empty unless active.
    pub legal_moves: Vec<LegalMove>,
    /// A piece touched under Art. 4 this turn.
    pub touched: Option<String>,
    /// Whose draw offer is pending.
    pub draw_offer: Option<Color>,
    /// The clocks; `None` when untimed.
    pub clocks: Option<Clocks>,
    /// PGN result.
    pub result: String,
    /// Set when finished.
    pub termination: Option<Termination>,
}

/// What a connection or request holds (§2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatName {
    /// White.
    White,
    /// Black.
    Black,
    /// Both (local mode).
    Both,
}

/// A full snapshot (§4.4 `State`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct State {
    /// The live part, flattened.
    #[serde(flatten)]
    pub live: Live,
    /// Game id.
    pub id: String,
    /// Mode.
    pub mode: Mode,
    /// Variant.
    pub variant: Variant,
    /// Chess960 number.
    pub chess960_position: Option<u32>,
    /// The initial position.
    pub initial_fen: String,
    /// The edition of the Laws: `"2014"`, `"2018"`, `"2023"`.
    pub edition: arbiter_laws::Edition,
    /// The PGN `TimeControl`, `"-"` = untimed.
    pub time_control: String,
    /// Its periods, empty when untimed.
    pub time_control_periods: Vec<WirePeriod>,
    /// The delay.
    pub delay: Option<WireDelay>,
    /// Touch-move enforced.
    pub touch_move: bool,
    /// Players.
    pub players: Players,
    /// Every move made.
    pub moves: Vec<MoveRecord>,
    /// What the request or connection holds.
    pub seat: Option<SeatName>,
    /// `/join/{id}` for invitations.
    pub invite_url: Option<String>,
    /// Epoch ms.
    pub created_at: u64,
    /// After the game: who has offered a rematch, if the rematch is not made (§3.7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_offer: Option<Color>,
    /// The rematch game's id, once made (§3.7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
}

/// A numbered event (§4.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// The invited player took the seat.
    Join {
        /// The seat taken.
        color: Color,
        /// Both players after the join.
        players: Players,
    },
    /// A move was made.
    Move {
        /// The move.
        #[serde(rename = "move")]
        record: MoveRecord,
    },
    /// A piece was touched (Art. 4.3).
    Touch {
        /// Who touched.
        color: Color,
        /// Where.
        square: String,
    },
    /// A draw offer (9.1).
    DrawOffer {
        /// Who offers.
        by: Color,
    },
    /// An offer declined.
    DrawDeclined {
        /// Who declined.
        by: Color,
    },
    /// An incorrect claim (9.5).
    ClaimRejected {
        /// Claimant.
        by: Color,
        /// `threefold` / `fifty`.
        claim: String,
        /// The intended move (UCI), if any.
        #[serde(rename = "move")]
        mv: Option<String>,
        /// Time added to the opponent.
        penalty_ms: u64,
        /// The Article.
        article: String,
    },
    /// Time added under Art. 7.5.
    Penalty {
        /// Whose clock gains.
        to: Color,
        /// Milliseconds.
        ms: u64,
        /// `"illegal_move"`.
        reason: String,
        /// The Article.
        article: String,
    },
    /// The game ended.
    End {
        /// PGN result.
        result: String,
        /// How.
        termination: Termination,
        /// The intended move of a correct claim, if any.
        intended_move: Option<String>,
    },
    /// Nobody made the first move in time (or nobody took the invitation):
    /// the game is aborted, as on Lichess. It has no result (`*`): not a
    /// game played under the Laws, so no Article decides it. A player may
    /// also abort before his first move (`by`), as on Lichess.
    Aborted {
        /// The player who aborted; absent when the server did (time-out).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<Color>,
    },
    /// After the game, a player offers a rematch (same settings, colours
    /// swapped); the opponent accepts by offering too (§3.7).
    RematchOffer {
        /// Who offers.
        by: Color,
    },
    /// The rematch was created: game `game`, both players seated in it
    /// with the seats of this game, colours swapped (§3.7).
    Rematch {
        /// The new game's id.
        game: String,
    },
}

/// Messages the server sends (§4.3).
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg<'a> {
    /// A full snapshot.
    State {
        /// The state.
        state: &'a State,
    },
    /// A numbered event.
    Event {
        /// Its number.
        seq: u64,
        /// What happened.
        event: &'a Event,
        /// The live state after it. A catch-up (§4.1) carries it on its
        /// last event only: the earlier ones are deltas.
        #[serde(skip_serializing_if = "Option::is_none")]
        live: Option<&'a Live>,
    },
    /// End of catch-up.
    Ready {
        /// Current seq.
        seq: u64,
        /// Current clocks.
        clocks: Option<Clocks>,
    },
    /// The engine was given the position after `ply` half-moves and
    /// thinks: its clock runs from now; the wait for a free engine before
    /// it was not charged (the clocks are the paused ones).
    Thinking {
        /// The half-moves played.
        ply: u32,
        /// The clocks as the search starts.
        clocks: Option<Clocks>,
    },
    /// An action up to event `seq` is being recorded and its commit is
    /// slow: the clocks stand (none running) until its events come.
    Recording {
        /// The last event of the action (not yet announced).
        seq: u64,
        /// The clocks now, none running.
        clocks: Clocks,
    },
    /// Answer to a ping.
    Pong {
        /// The ping's id.
        id: Option<i64>,
        /// Epoch ms.
        server_time: u64,
    },
    /// Which seats have a live connection.
    Presence {
        /// White online.
        white: bool,
        /// Black online.
        black: bool,
    },
    /// A refused client message.
    Error {
        /// Machine-readable code (§4.7).
        code: &'a str,
        /// English.
        message: &'a str,
        /// The `id` of the refused message.
        #[serde(skip_serializing_if = "Option::is_none")]
        reply_to: Option<i64>,
    },
}

impl ServerMsg<'_> {
    /// The JSON text of the message.
    pub fn to_json(&self) -> String {
        // An event with its legal moves takes one to three KiB: one
        // allocation instead of a dozen regrowths.
        let capacity = match self {
            ServerMsg::State { .. } | ServerMsg::Event { .. } => 4096,
            _ => 128,
        };
        let mut out = Vec::with_capacity(capacity);
        // Serialising these plain structs cannot fail (no maps with
        // non-string keys), and serde_json writes only UTF-8.
        match serde_json::to_writer(&mut out, self) {
            Ok(()) => String::from_utf8(out).unwrap_or_else(|_| String::from("{}")),
            Err(_) => String::from("{}"),
        }
    }
}

/// A claim kind on the wire.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireClaim {
    /// Threefold repetition (9.2).
    Threefold,
    /// 50-move rule (9.3).
    Fifty,
}

impl WireClaim {
    /// `"threefold"` / `"fifty"`.
    pub fn as_str(self) -> &'static str {
        match self {
            WireClaim::Threefold => "threefold",
            WireClaim::Fifty => "fifty",
        }
    }
}

/// Messages a client sends (§4.2), after validation (serialized again
/// only to cross the bus between nodes, `cluster::forward`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// Catch up from `last_seq`.
    Hello {
        /// Last seq applied.
        last_seq: u64,
    },
    /// Make a move: `uci` as listed in `legal_moves`, or `text` as a player
    /// typed it (read by the server, §5.1); exactly one of the two.
    Move {
        /// UCI.
        #[serde(default)]
        uci: Option<String>,
        /// Typed move text in any notation (SAN, Russian, figurine, long
        /// algebraic, coordinates), read leniently.
        #[serde(default)]
        text: Option<String>,
    },
    /// Offer a draw.
    OfferDraw {
        /// Acting colour (local mode).
        #[serde(default)]
        color: Option<Color>,
    },
    /// Accept the pending offer.
    AcceptDraw {
        /// Acting colour (local mode).
        #[serde(default)]
        color: Option<Color>,
    },
    /// Decline the pending offer.
    DeclineDraw {
        /// Acting colour (local mode).
        #[serde(default)]
        color: Option<Color>,
    },
    /// Claim a draw, perhaps with an intended move.
    Claim {
        /// What.
        claim: WireClaim,
        /// The intended move (UCI).
        #[serde(default, rename = "move")]
        mv: Option<String>,
        /// Acting colour (local mode).
        #[serde(default)]
        color: Option<Color>,
    },
    /// Resign.
    Resign {
        /// Acting colour (local mode).
        #[serde(default)]
        color: Option<Color>,
    },
    /// Touch a piece (Art. 4).
    Touch {
        /// The square.
        square: String,
        /// Acting colour (local mode).
        #[serde(default)]
        color: Option<Color>,
    },
    /// Abort the game before the acting player's first move (§4.2): no
    /// result, as on Lichess.
    Abort {
        /// Acting colour (local mode).
        #[serde(default)]
        color: Option<Color>,
    },
    /// Keep-alive and lag report.
    Ping {
        /// The client's one-way lag estimate.
        #[serde(default)]
        lag_ms: Option<u64>,
    },
}

/// A client frame: the message and its optional `id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientFrame {
    /// The `id` to echo in `reply_to`.
    pub id: Option<i64>,
    /// The message.
    pub msg: ClientMsg,
}

/// Why a client frame was refused before reaching the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct BadMessage {
    /// The `id` if it could be read.
    pub id: Option<i64>,
    /// What is wrong.
    pub message: String,
}

/// Largest client frame accepted, in bytes.
pub const MAX_CLIENT_FRAME: usize = 4096;

impl ClientFrame {
    /// Reads and validates a client text frame: size, JSON, the schema of
    /// §4.2 (unknown fields are ignored, as the protocol says).
    pub fn parse(text: &str) -> Result<ClientFrame, BadMessage> {
        if text.len() > MAX_CLIENT_FRAME {
            return Err(BadMessage {
                id: None,
                message: format!(
                    "message of {} bytes is larger than {MAX_CLIENT_FRAME}",
                    text.len()
                ),
            });
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| BadMessage {
            id: None,
            message: format!("not JSON: {}", crate::error::public_json_error(&e)),
        })?;
        let id = value.get("id").and_then(serde_json::Value::as_i64);
        if !value.is_object() {
            return Err(BadMessage {
                id,
                message: "a message is a JSON object with a \"type\"".into(),
            });
        }
        let msg: ClientMsg = serde_json::from_value(value).map_err(|e| BadMessage {
            id,
            message: format!("bad message: {}", crate::error::public_json_error(&e)),
        })?;
        let field_ok = match &msg {
            ClientMsg::Move { uci, text } => match (uci, text) {
                (Some(u), None) => u.len() <= 5,
                (None, Some(t)) => t.len() <= MAX_MOVE_TEXT,
                _ => {
                    return Err(BadMessage {
                        id,
                        message: "a move has either \"uci\" or \"text\"".into(),
                    })
                }
            },
            ClientMsg::Claim { mv: Some(m), .. } => m.len() <= MAX_MOVE_TEXT,
            ClientMsg::Touch { square, .. } => square.len() == 2,
            _ => true,
        };
        if !field_ok {
            return Err(BadMessage {
                id,
                message: "move or square too long".into(),
            });
        }
        Ok(ClientFrame { id, msg })
    }

    /// The `id` of a client text frame that is refused unread (over the
    /// message rate, §4.7 `rate_limited`), for its error's `reply_to`
    /// (§4.2, §7: every refused action's error carries it). Only `id` is
    /// kept: the rest of the frame is skipped without being built, in one
    /// pass over at most [`MAX_CLIENT_FRAME`] bytes. `None` for a larger
    /// frame, one that is not a JSON object, or an `id` that is not an
    /// integer, as [`ClientFrame::parse`] reads it.
    ///
    /// ```
    /// use arbiter_server::protocol::ClientFrame;
    /// assert_eq!(ClientFrame::id_of(r#"{"type":"move","uci":"e2e4","id":7}"#), Some(7));
    /// assert_eq!(ClientFrame::id_of(r#"{"type":"resign"}"#), None);
    /// assert_eq!(ClientFrame::id_of("not json"), None);
    /// ```
    pub fn id_of(text: &str) -> Option<i64> {
        #[derive(Deserialize)]
        struct OnlyId {
            #[serde(default)]
            id: Option<i64>,
        }
        // A struct also reads from a JSON array: only an object has an id.
        let object = text.trim_start().starts_with('{');
        if text.len() > MAX_CLIENT_FRAME || !object {
            return None;
        }
        serde_json::from_str::<OnlyId>(text).ok()?.id
    }
}

/// Longest typed move text accepted, in bytes (`Кр e1 – g1` and the like
/// fit many times over).
pub const MAX_MOVE_TEXT: usize = 32;

/// The engine levels of §3.1: level → `UCI_Elo` (`None`: full strength).
pub fn engine_elo(level: u8) -> Option<u32> {
    match level {
        1 => Some(1350),
        2 => Some(1650),
        3 => Some(1950),
        4 => Some(2250),
        5 => Some(2450),
        6 => Some(2600),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame refused unread answers with the `id` that reading it would
    /// have found (§4.2: `reply_to`).
    #[test]
    fn the_id_of_a_frame_refused_unread() {
        for text in [
            r#"{"type":"move","uci":"e2e4","id":12}"#,
            r#"{"id":-3,"type":"hello","last_seq":0}"#,
            r#"{"type":"resign","id":null}"#,
            r#"{"type":"resign","id":"7"}"#,
            r#"{"type":"resign","id":1.5}"#,
            r#"{"type":"unknown","id":4,"extra":{"deep":[1,2,{"id":9}]}}"#,
            r#"{"type":"move","uci":"e2e4","id":5"#,
            r#"[1,2]"#,
            r#" [{"id":3}]"#,
            "not json",
        ] {
            let parsed = match ClientFrame::parse(text) {
                Ok(f) => f.id,
                Err(bad) => bad.id,
            };
            assert_eq!(ClientFrame::id_of(text), parsed, "{text}");
        }
        assert_eq!(ClientFrame::id_of(r#"{"type":"unknown","id":4}"#), Some(4));
        let big = format!(r#"{{"id":1,"pad":"{}"}}"#, "x".repeat(MAX_CLIENT_FRAME));
        assert_eq!(ClientFrame::id_of(&big), None);
    }

    /// The wire keeps its shape with the core's `Color` and the Laws'
    /// `Termination` (§4.4, §4.6).
    #[test]
    fn termination_on_the_wire() {
        let t = Termination {
            kind: arbiter_laws::Termination::DeadPosition,
            article: "5.2.2".to_owned(),
            winner: None,
            by: Some(Color::Black),
        };
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"dead_position","article":"5.2.2","winner":null,"by":"black"}"#
        );
        assert_eq!(serde_json::from_str::<Termination>(&json).unwrap(), t);
    }

    #[test]
    fn client_frames_are_validated() {
        let f = ClientFrame::parse(r#"{"type":"move","uci":"e2e4","id":3,"extra":1}"#).unwrap();
        assert_eq!(f.id, Some(3));
        assert_eq!(
            f.msg,
            ClientMsg::Move {
                uci: Some("e2e4".into()),
                text: None
            }
        );
        let f = ClientFrame::parse(r#"{"type":"move","text":"Кg1-f3"}"#).unwrap();
        assert_eq!(
            f.msg,
            ClientMsg::Move {
                uci: None,
                text: Some("Кg1-f3".into())
            }
        );
        for bad in [
            r#"{"type":"move"}"#,
            r#"{"type":"move","uci":"e2e4","text":"e4"}"#,
            r#"{"type":"move","uci":"e2e4e5"}"#,
        ] {
            assert!(ClientFrame::parse(bad).is_err(), "{bad}");
        }
        let long = format!(
            r#"{{"type":"move","text":"{}"}}"#,
            "e".repeat(MAX_MOVE_TEXT + 1)
        );
        assert!(ClientFrame::parse(&long).is_err());
        let f = ClientFrame::parse(r#"{"type":"claim","claim":"fifty","move":"g1f3"}"#).unwrap();
        assert_eq!(
            f.msg,
            ClientMsg::Claim {
                claim: WireClaim::Fifty,
                mv: Some("g1f3".into()),
                color: None
            }
        );
        let e = ClientFrame::parse(r#"{"type":"claim","claim":"sixty","id":9}"#).unwrap_err();
        assert_eq!(e.id, Some(9));
        assert!(ClientFrame::parse("[1,2]").is_err());
        assert!(ClientFrame::parse("not json").is_err());
        assert!(ClientFrame::parse(r#"{"type":"move","uci":"e2e4e5e6"}"#).is_err());
        let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(5000));
        assert!(ClientFrame::parse(&big)
            .unwrap_err()
            .message
            .contains("larger"));
        assert!(ClientFrame::parse(r#"{"type":"launch"}"#).is_err());
    }

    #[test]
    fn server_messages_have_protocol_shape() {
        let m = ServerMsg::Error {
            code: "not_your_turn",
            message: "not your turn",
            reply_to: Some(7),
        };
        assert_eq!(
            m.to_json(),
            r#"{"type":"error","code":"not_your_turn","message":"not your turn","reply_to":7}"#
        );
        let e = Event::DrawOffer { by: Color::White };
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"kind":"draw_offer","by":"white"}"#
        );
    }
}
