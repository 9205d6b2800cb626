//! The state of one game as its task owns it, and how actions become
//! numbered, stored events. No I/O here: [`GameCore::act`] returns the
//! events and the storage writes; the task ([`super::actor`]) commits them
//! and only then sends them.

use super::settings::Settings;
use super::table::{Refusal, Table};
use crate::protocol::{
    ClientMsg, Event, Live, Mode, Player, PlayerKind, Players, SeatName, Side, State, Status,
};
use crate::store::{EventRow, GameRow, LoadedGame, SeatRow, StoreError, WriteOp};
use crate::time::LagQuota;
use arbiter_laws::Action;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One stored, numbered event: the wire event, and the Laws event that
/// caused it (absent for the further events of the same action, such as
/// the `end` after a mating move, and for server events such as `join`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Server epoch ms when it happened.
    pub at: u64,
    /// The Laws event applied, if this entry starts an action (in the JSON
    /// form of `arbiter judge`, moves in SAN).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub laws: Option<arbiter_laws::json::Event>,
    /// What the clients were told.
    pub event: Event,
}

/// Which colours a seat holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SeatSet {
    /// White.
    pub white: bool,
    /// Black.
    pub black: bool,
}

impl SeatSet {
    /// One colour.
    pub fn one(side: Side) -> SeatSet {
        SeatSet {
            white: side == Side::White,
            black: side == Side::Black,
        }
    }

    /// Both colours (local mode).
    pub const BOTH: SeatSet = SeatSet {
        white: true,
        black: true,
    };

    /// Does it hold `side`?
    pub fn holds(self, side: Side) -> bool {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }

    /// The wire name.
    pub fn name(self) -> Option<SeatName> {
        match (self.white, self.black) {
            (true, true) => Some(SeatName::Both),
            (true, false) => Some(SeatName::White),
            (false, true) => Some(SeatName::Black),
            (false, false) => None,
        }
    }

    /// Stored form.
    pub fn stored(self) -> &'static str {
        match (self.white, self.black) {
            (true, true) => "both",
            (false, true) => "black",
            _ => "white",
        }
    }

    /// From the stored form.
    pub fn parse(s: &str) -> Option<SeatSet> {
        match s {
            "both" => Some(SeatSet::BOTH),
            "white" => Some(SeatSet::one(Side::White)),
            "black" => Some(SeatSet::one(Side::Black)),
            _ => None,
        }
    }
}

/// The result of an accepted action: events to number, and the writes
/// that make them durable.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The events, already numbered (`seq` of the first is `first_seq`).
    pub events: Vec<Event>,
    /// The seq of the first event.
    pub first_seq: u64,
    /// Storage writes (events and the game row).
    pub writes: Vec<WriteOp>,
}

/// Everything one game task owns.
#[derive(Clone, Debug)]
pub struct GameCore {
    /// Id.
    pub id: String,
    /// Settings from creation.
    pub settings: Settings,
    /// Epoch ms.
    pub created_at: u64,
    /// Epoch ms of the last change.
    pub updated_at: u64,
    /// Players (online flags maintained by the task).
    pub players: Players,
    /// Waiting, active or finished (finished also when the Laws say so).
    pub status: Status,
    /// Token hash → colours.
    pub seats: HashMap<String, SeatSet>,
    /// The board and clock.
    pub table: Table,
    /// The log; `log[i]` has seq `i + 1`.
    pub log: Vec<LogEntry>,
    /// Server epoch ms at game time 0 (see `GameRow::clock_origin`).
    pub clock_origin: Option<u64>,
    /// Lag credit per player.
    pub quota: [LagQuota; 2],
}

fn player(kind: PlayerKind, name: Option<String>, joined: bool, level: Option<u8>) -> Player {
    Player {
        kind,
        name,
        engine_level: level,
        engine_elo: level.and_then(crate::protocol::engine_elo),
        joined,
        online: kind == PlayerKind::Engine,
    }
}

fn corrupt(id: &str, message: impl Into<String>) -> StoreError {
    StoreError::Corrupt {
        game: id.to_owned(),
        message: message.into(),
    }
}

impl GameCore {
    /// A new game created at `now` by the holder of `token_hash`.
    pub fn create(
        id: String,
        settings: Settings,
        name: Option<String>,
        token_hash: String,
        now: u64,
    ) -> Result<GameCore, String> {
        let table = Table::new(&settings)?;
        let creator = settings.creator;
        let mut white = player(PlayerKind::Human, None, true, None);
        let mut black = white.clone();
        let other = match settings.mode {
            Mode::Engine => player(PlayerKind::Engine, None, true, settings.engine_level),
            Mode::Invite => player(PlayerKind::Human, None, false, None),
            Mode::Local => player(PlayerKind::Human, None, true, None),
        };
        match creator {
            Side::White => {
                white.name = name;
                black = other;
            }
            Side::Black => {
                black.name = name;
                white = other;
            }
        }
        let seat = if settings.mode == Mode::Local {
            SeatSet::BOTH
        } else {
            SeatSet::one(creator)
        };
        let status = if settings.mode == Mode::Invite {
            Status::Waiting
        } else {
            Status::Active
        };
        let quota = [LagQuota::new(estimate_ms(&settings)); 2];
        Ok(GameCore {
            id,
            settings,
            created_at: now,
            updated_at: now,
            players: Players { white, black },
            status,
            seats: HashMap::from([(token_hash, seat)]),
            table,
            log: Vec::new(),
            clock_origin: (status == Status::Active).then_some(now),
            quota,
        })
    }

    /// Rebuilds a game from storage by replaying its log through the Laws.
    pub fn load(stored: LoadedGame) -> Result<GameCore, StoreError> {
        let row = stored.row;
        let id = row.id.clone();
        let settings: Settings = serde_json::from_str(&row.settings)
            .map_err(|e| corrupt(&id, format!("settings: {e}")))?;
        let mut players: Players = serde_json::from_str(&row.players)
            .map_err(|e| corrupt(&id, format!("players: {e}")))?;
        let mut table = Table::new(&settings).map_err(|e| corrupt(&id, e))?;
        let mut status = if settings.mode == Mode::Invite {
            Status::Waiting
        } else {
            Status::Active
        };
        let mut log = Vec::with_capacity(stored.events.len());
        for (i, e) in stored.events.iter().enumerate() {
            if e.seq != i as u64 + 1 {
                return Err(corrupt(&id, format!("event {} follows {}", e.seq, i)));
            }
            let entry: LogEntry = serde_json::from_str(&e.body)
                .map_err(|err| corrupt(&id, format!("event {}: {err}", e.seq)))?;
            if let Some(ev) = &entry.laws {
                let typed = ev
                    .to_event(table.laws())
                    .map_err(|r| corrupt(&id, format!("event {} does not replay: {r}", e.seq)))?;
                table.apply(typed).map_err(|r| {
                    corrupt(
                        &id,
                        format!("event {} does not replay: {}", e.seq, r.message),
                    )
                })?;
            }
            if let Event::Join { players: p, .. } = &entry.event {
                players = p.clone();
                status = Status::Active;
            }
            log.push(entry);
        }
        if table.is_over() {
            status = Status::Finished;
        }
        for c in Side::BOTH {
            let p = players.get_mut(c);
            p.online = p.kind == PlayerKind::Engine;
        }
        let seats = stored
            .seats
            .iter()
            .filter_map(|s| SeatSet::parse(&s.colors).map(|set| (s.token_hash.clone(), set)))
            .collect();
        let quota = [LagQuota::new(estimate_ms(&settings)); 2];
        // The row's `updated_at` may lag behind the log (see `record`).
        let updated_at = log
            .last()
            .map_or(row.updated_at, |e| e.at.max(row.updated_at));
        Ok(GameCore {
            id,
            settings,
            created_at: row.created_at,
            updated_at,
            players,
            status,
            seats,
            table,
            log,
            clock_origin: row.clock_origin,
            quota,
        })
    }

    /// The last seq.
    pub fn seq(&self) -> u64 {
        self.log.len() as u64
    }

    /// Game time (ms since the clock started) at server time `now`.
    pub fn game_time(&self, now: u64) -> Option<u64> {
        self.clock_origin
            .map(|o| now.saturating_sub(o).max(self.table.last_t()))
    }

    /// The live state now.
    pub fn live(&self, now: u64) -> Live {
        self.table
            .live(self.seq(), self.status, self.game_time(now), now)
    }

    /// The `event` messages (§4.3) of `out`, each with the live state after
    /// the whole action at server time `now`, as JSON text.
    pub fn encode_events(&self, out: &Outcome, now: u64) -> Vec<String> {
        let mut live = self.live(now);
        out.events
            .iter()
            .enumerate()
            .map(|(i, event)| {
                let seq = out.first_seq + i as u64;
                live.seq = seq;
                crate::protocol::ServerMsg::Event {
                    seq,
                    event,
                    live: &live,
                }
                .to_json()
            })
            .collect()
    }

    /// The full state for the holder of `seat`.
    pub fn state(&self, seat: Option<SeatSet>, now: u64) -> State {
        State {
            live: self.live(now),
            id: self.id.clone(),
            mode: self.settings.mode,
            variant: self.settings.variant,
            chess960_position: self.settings.chess960_position,
            initial_fen: self.table.initial_fen(),
            edition: self.settings.edition,
            time_control: self.settings.time_control.to_string(),
            time_control_periods: crate::protocol::WirePeriod::all(&self.settings.time_control),
            delay: self.settings.delay,
            touch_move: self.settings.touch_move,
            players: self.players.clone(),
            moves: self.table.records().to_vec(),
            seat: seat.and_then(SeatSet::name),
            invite_url: (self.settings.mode == Mode::Invite).then(|| format!("/join/{}", self.id)),
            created_at: self.created_at,
        }
    }

    /// The game's storage row as it is now.
    pub fn row(&self) -> GameRow {
        GameRow {
            settings: serde_json::to_string(&self.settings).unwrap_or_default(),
            ..self.row_without_settings()
        }
    }

    /// The row without its settings (for updates, which never change them).
    fn row_without_settings(&self) -> GameRow {
        let mut players = self.players.clone();
        for c in Side::BOTH {
            players.get_mut(c).online = false;
        }
        GameRow {
            id: self.id.clone(),
            created_at: self.created_at,
            updated_at: self.updated_at,
            status: self.status.as_str().to_owned(),
            settings: String::new(),
            players: serde_json::to_string(&players).unwrap_or_default(),
            result: self.table.result(),
            termination: self
                .table
                .termination()
                .and_then(|t| serde_json::to_string(&t).ok()),
            ply: self.table.records().len() as u32,
            clock_origin: self.clock_origin,
        }
    }

    /// The writes that create this game with its first seat.
    pub fn creation_writes(&self) -> Vec<WriteOp> {
        let mut ops = vec![WriteOp::InsertGame(self.row())];
        for (hash, set) in &self.seats {
            ops.push(WriteOp::InsertSeat(SeatRow {
                game_id: self.id.clone(),
                token_hash: hash.clone(),
                colors: set.stored().to_owned(),
            }));
        }
        ops
    }

    /// Numbers `events` (the first carrying `laws`), appends them to the log
    /// and returns them with their writes.
    fn record(
        &mut self,
        now: u64,
        laws: Option<arbiter_laws::json::Event>,
        events: Vec<Event>,
        mut writes: Vec<WriteOp>,
    ) -> Outcome {
        let first_seq = self.seq() + 1;
        let mut laws = laws;
        for event in &events {
            let entry = LogEntry {
                at: now,
                laws: laws.take(),
                event: event.clone(),
            };
            writes.push(WriteOp::AppendEvent(EventRow {
                game_id: self.id.clone(),
                seq: self.seq() + 1,
                body: serde_json::to_string(&entry).unwrap_or_default(),
            }));
            self.log.push(entry);
        }
        if self.table.is_over() {
            self.status = Status::Finished;
        }
        self.updated_at = now;
        // The row is rewritten only when what it summarises beyond the log
        // changes: the players and status (a join), the result (the end).
        // Its `ply` and `updated_at` follow the log lazily (the running
        // game's task reports them live, see `GameHandle::summary`; a
        // resumed game's row is rewritten at start), which spares every
        // move a random page of the games table. The settings never change.
        if events
            .iter()
            .any(|e| matches!(e, Event::Join { .. } | Event::End { .. }))
        {
            writes.push(WriteOp::UpdateGame(self.row_without_settings()));
        }
        Outcome {
            events,
            first_seq,
            writes,
        }
    }

    /// The end event if the game has just ended.
    fn end_event(&self, intended: Option<String>) -> Option<Event> {
        let t = self.table.termination()?;
        Some(Event::End {
            result: self.table.result(),
            termination: t,
            intended_move: intended,
        })
    }

    /// Applies a Laws event and turns what it did into wire events.
    fn apply_laws(
        &mut self,
        now: u64,
        ev: arbiter_laws::Event,
        wire: Wire,
    ) -> Result<Outcome, Refusal> {
        let moves_before = self.table.records().len();
        let was_over = self.table.is_over();
        let article = self.table.laws().rules().articles.incorrect_claim;
        let logged = arbiter_laws::json::Event::from_event(&ev, self.table.laws());
        let applied = self.table.apply(ev)?;
        let over = self.table.is_over();
        let mut events = Vec::new();
        let mut intended = None;
        match wire {
            Wire::Offer { by } if !over => events.push(Event::DrawOffer { by }),
            Wire::Decline { by } => events.push(Event::DrawDeclined { by }),
            Wire::Touch { by, square } => events.push(Event::Touch { color: by, square }),
            Wire::Claim { by, claim, uci } => match applied.claim {
                Some(arbiter_laws::ClaimVerdict::Correct) => intended = uci,
                _ => events.push(Event::ClaimRejected {
                    by,
                    claim: claim.as_str().to_owned(),
                    mv: uci,
                    penalty_ms: applied.penalty.map_or(0, |p| p.ms),
                    article: article.to_owned(),
                }),
            },
            _ => {}
        }
        for r in &self.table.records()[moves_before..] {
            events.push(Event::Move { record: r.clone() });
        }
        if !was_over && over {
            if let Some(end) = self.end_event(intended) {
                events.push(end);
            }
        }
        Ok(self.record(now, Some(logged), events, Vec::new()))
    }

    /// The game time of a move by `by` received at `t_now`, back-dated by
    /// the lag credited from the player's quota (never before the last
    /// event). `commit`: spend the quota.
    fn credited_time(&mut self, by: Side, t_now: u64, commit: bool) -> u64 {
        let q = &mut self.quota[by.index()];
        let credit = if commit { q.credit_move() } else { q.peek() };
        t_now.saturating_sub(credit).max(self.table.last_t())
    }

    /// The server as arbiter ends the game on a fallen flag at `now` (6.9),
    /// if the running player's flag has fallen.
    pub fn flag(&mut self, now: u64) -> Option<Outcome> {
        if self.status != Status::Active || self.table.is_over() {
            return None;
        }
        let t = self.game_time(now)?;
        let due = self.table.next_flag_time()?;
        if t < due {
            return None;
        }
        let ev = Table::event(t, None, Table::flag_action());
        self.apply_laws(now, ev, Wire::Flag).ok()
    }

    /// Server time at which the task should check for a flag fall: the
    /// running player's flag time plus his lag grace.
    pub fn flag_deadline(&self) -> Option<u64> {
        if self.status != Status::Active || self.table.is_over() {
            return None;
        }
        let origin = self.clock_origin?;
        let due = self.table.next_flag_time()?;
        let grace = self.quota[self.table.turn().index()].flag_grace();
        Some(origin + due + grace)
    }

    /// Before a player's message: has the running player's flag fallen
    /// (for his own move, judged at the lag-credited time)? Then the flag
    /// ends the game first.
    pub fn flag_before(
        &mut self,
        seat: Option<SeatSet>,
        msg: &ClientMsg,
        now: u64,
    ) -> Option<Outcome> {
        if self.status != Status::Active || self.table.is_over() {
            return None;
        }
        let due = self.table.next_flag_time()?;
        let t_now = self.game_time(now)?;
        let turn = self.table.turn();
        let own_move = matches!(msg, ClientMsg::Move { .. } | ClientMsg::Claim { .. })
            && seat.is_some_and(|s| s.holds(turn));
        let t = if own_move {
            self.credited_time(turn, t_now, false)
        } else {
            t_now
        };
        if t < due {
            return None;
        }
        let ev = Table::event(t_now, None, Table::flag_action());
        self.apply_laws(now, ev, Wire::Flag).ok()
    }

    /// The invited player takes the free seat at `now` (§3.5): the game
    /// starts and White's clock runs from now.
    pub fn join(
        &mut self,
        token_hash: String,
        name: Option<String>,
        now: u64,
    ) -> Result<Outcome, (&'static str, &'static str)> {
        if self.settings.mode != Mode::Invite {
            return Err(("not_invitation", "this game is not an invitation"));
        }
        let free = self.settings.creator.opponent();
        if self.status != Status::Waiting || self.players.get(free).joined {
            return Err(("seat_taken", "the seat is taken"));
        }
        {
            let p = self.players.get_mut(free);
            p.joined = true;
            p.name = name;
        }
        self.status = Status::Active;
        self.clock_origin = Some(now);
        let set = SeatSet::one(free);
        self.seats.insert(token_hash.clone(), set);
        let seat_write = WriteOp::InsertSeat(SeatRow {
            game_id: self.id.clone(),
            token_hash,
            colors: set.stored().to_owned(),
        });
        let mut players = self.players.clone();
        for c in Side::BOTH {
            players.get_mut(c).online = false;
        }
        Ok(self.record(
            now,
            None,
            vec![Event::Join {
                color: free,
                players,
            }],
            vec![seat_write],
        ))
    }

    /// An engine's move (already chosen from the Laws' legal moves), made at `now`.
    pub fn engine_move(&mut self, side: Side, uci: &str, now: u64) -> Result<Outcome, Refusal> {
        if self.status != Status::Active || self.table.is_over() || self.table.turn() != side {
            return Err(Refusal::new("game_not_active", "not the engine's move"));
        }
        let m = self.table.resolve(uci)?;
        let t = self.game_time(now).unwrap_or(0);
        let ev = arbiter_laws::Event::play(t, side.color(), m);
        self.apply_laws(now, ev, Wire::Move)
    }

    /// The engine answers the draw offer made to it (Art. 9.1): accepts it
    /// (`accept`, if the Laws allow agreement now; else it declines) or
    /// declines it. `None` if no offer to it is pending any more.
    pub fn engine_answer(&mut self, side: Side, accept: bool, now: u64) -> Option<Outcome> {
        if self.status != Status::Active
            || self.table.laws().draw_offer() != Some(side.opponent().color())
        {
            return None;
        }
        let t = self.game_time(now).unwrap_or(0);
        if accept {
            let ev = Table::event(t, Some(side), Action::AcceptDraw);
            if let Ok(out) = self.apply_laws(now, ev, Wire::Accept) {
                return Some(out);
            }
        }
        let ev = Table::event(t, Some(side), Action::DeclineDraw);
        self.apply_laws(now, ev, Wire::Decline { by: side }).ok()
    }
}

/// What the wire events of an action are made from.
#[derive(Clone, Debug)]
enum Wire {
    Move,
    Offer {
        by: Side,
    },
    Accept,
    Decline {
        by: Side,
    },
    Resign,
    Touch {
        by: Side,
        square: String,
    },
    Claim {
        by: Side,
        claim: crate::protocol::WireClaim,
        uci: Option<String>,
    },
    Flag,
}

/// The time-control estimate of Lichess (time + 40 × increment), ms; a
/// large value when there is no clock.
fn estimate_ms(settings: &Settings) -> u64 {
    match settings.time_control.periods().first() {
        Some(p) => p.time_ms + 40 * p.increment_ms,
        None => 3_600_000,
    }
}

/// The side acting: the side named, for a connection holding both seats
/// (`default` if none is named); else the seat's only side.
pub fn actor(seat: SeatSet, named: Option<Side>, default: Side) -> Option<Side> {
    match (seat.white, seat.black) {
        (true, true) => Some(named.unwrap_or(default)),
        (true, false) => Some(Side::White),
        (false, true) => Some(Side::Black),
        (false, false) => None,
    }
}

impl GameCore {
    /// Handles a player's message from a connection holding `seat` at server
    /// time `now`. `Ok(None)`: nothing to record.
    pub fn act(
        &mut self,
        seat: Option<SeatSet>,
        msg: &ClientMsg,
        now: u64,
    ) -> Result<Option<Outcome>, Refusal> {
        if matches!(msg, ClientMsg::Hello { .. } | ClientMsg::Ping { .. }) {
            return Ok(None);
        }
        let seat = seat.ok_or_else(|| Refusal::new("not_a_player", "spectators cannot act"))?;
        if self.status != Status::Active || self.table.is_over() {
            return Err(Refusal::new(
                "game_not_active",
                "the game is not in progress",
            ));
        }
        let turn = self.table.turn();
        let t_now = self.game_time(now).unwrap_or(0);
        let offer = self.table.laws().draw_offer().map(Side::of);
        let (named, default) = match msg {
            ClientMsg::Move { .. } => (None, turn),
            ClientMsg::AcceptDraw { color } | ClientMsg::DeclineDraw { color } => {
                (*color, offer.map_or(turn, Side::opponent))
            }
            ClientMsg::OfferDraw { color }
            | ClientMsg::Claim { color, .. }
            | ClientMsg::Resign { color }
            | ClientMsg::Touch { color, .. } => (*color, turn),
            ClientMsg::Hello { .. } | ClientMsg::Ping { .. } => return Ok(None),
        };
        let by = actor(seat, named, default)
            .filter(|&s| seat.holds(s))
            .ok_or_else(|| Refusal::new("not_a_player", "not your seat"))?;
        let (action, wire, t) = match msg {
            ClientMsg::Move { uci, text } => {
                if by != turn {
                    return Err(Refusal::new("not_your_turn", "not your turn"));
                }
                let m = match (uci, text) {
                    (Some(uci), _) => self.table.resolve(uci)?,
                    (None, Some(text)) => self.table.read_typed(text)?,
                    (None, None) => return Err(Refusal::new("bad_message", "a move without text")),
                };
                (
                    Action::Move { mv: m },
                    Wire::Move,
                    self.credited_time(by, t_now, true),
                )
            }
            ClientMsg::OfferDraw { .. } => {
                if offer == Some(by) {
                    return Err(Refusal::new(
                        "bad_message",
                        "your draw offer is already pending",
                    ));
                }
                (Action::OfferDraw, Wire::Offer { by }, t_now)
            }
            ClientMsg::AcceptDraw { .. } => (Action::AcceptDraw, Wire::Accept, t_now),
            ClientMsg::DeclineDraw { .. } => (Action::DeclineDraw, Wire::Decline { by }, t_now),
            ClientMsg::Resign { .. } => (Action::Resign, Wire::Resign, t_now),
            ClientMsg::Touch { square, .. } => {
                if !self.settings.touch_move {
                    return Err(Refusal::new(
                        "touch_move_off",
                        "touch-move is off in this game",
                    ));
                }
                if by != turn {
                    return Err(Refusal::new("not_your_turn", "not your turn"));
                }
                if self.table.touched().is_some() {
                    // Touching again changes nothing (protocol §4.2).
                    return Ok(None);
                }
                let sq = square.parse().map_err(|_| {
                    Refusal::new("bad_message", format!("{square:?} is not a square"))
                })?;
                (
                    Action::Touch { square: sq },
                    Wire::Touch {
                        by,
                        square: square.clone(),
                    },
                    t_now,
                )
            }
            ClientMsg::Claim { claim, mv, .. } => {
                if by != turn {
                    return Err(Refusal::new(
                        "claim_not_your_move",
                        "only the player having the move may claim (Art. 9.2, 9.3)",
                    ));
                }
                // The intended move as listed (UCI) or as typed (§5.1).
                let intended = match mv {
                    Some(u) => Some(match self.table.resolve(u) {
                        Err(r) if r.code == "illegal_move" => self.table.read_typed(u)?,
                        other => other?,
                    }),
                    None => None,
                };
                let pos = *self.table.laws().position();
                let uci = intended.map(|m| pos.uci(m));
                (
                    Table::claim_action(*claim, intended),
                    Wire::Claim {
                        by,
                        claim: *claim,
                        uci,
                    },
                    t_now,
                )
            }
            ClientMsg::Hello { .. } | ClientMsg::Ping { .. } => return Ok(None),
        };
        let ev = Table::event(t, Some(by), action);
        self.apply_laws(now, ev, wire).map(Some)
    }
}

impl GameCore {
    /// The live state after each event from `after + 1` to the last, as
    /// the clients saw it, rebuilt by replaying the log through the Laws
    /// (used to answer `hello` with the events a client missed).
    pub fn replay_lives(&self, after: u64) -> Result<Vec<Live>, String> {
        let mut table = Table::new(&self.settings)?;
        let mut status = if self.settings.mode == Mode::Invite {
            Status::Waiting
        } else {
            Status::Active
        };
        let mut t = 0;
        let mut stamp = self.created_at;
        let mut out = Vec::new();
        for (i, entry) in self.log.iter().enumerate() {
            let seq = i as u64 + 1;
            if let Some(ev) = &entry.laws {
                t = ev.t;
                stamp = entry.at;
                let typed = ev.to_event(table.laws()).map_err(|r| r.to_string())?;
                table.apply(typed).map_err(|r| r.message)?;
            }
            if matches!(entry.event, Event::Join { .. }) {
                status = Status::Active;
                stamp = entry.at;
            }
            if seq > after {
                let clock_t = (status == Status::Active).then_some(t);
                out.push(table.live(seq, status, clock_t, stamp));
            }
        }
        Ok(out)
    }
}
