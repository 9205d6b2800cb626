//! The state of one game as its task owns it: its settings, players,
//! seats, board and log, created new or loaded from storage, and what a
//! client or the games table is shown of it. No I/O here. How actions
//! change it lives beside it: [`super::act`] (what each party may do),
//! [`super::record`] (an accepted Laws event becoming numbered, stored
//! events), [`super::effects`] (what the task then writes and announces),
//! [`super::replay`] (the states a reconnecting client missed).

pub use super::effects::Effects;
pub use super::seat_set::SeatSet;
use super::settings::Settings;
use super::table::Table;
use crate::protocol::{Color, Event, Live, Mode, Player, PlayerKind, Players, State, Status};
use crate::store::{GameRow, LoadedGame, SeatRow, StoreError, WriteOp};
use crate::time::LagQuota;
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
            Color::White => {
                white.name = name;
                black = other;
            }
            Color::Black => {
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
        let mut table = Table::stored(&settings).map_err(|e| corrupt(&id, e))?;
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
        if table.is_over() || log.iter().any(|e| matches!(e.event, Event::Aborted { .. })) {
            status = Status::Finished;
        }
        for c in Color::ALL {
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
            rematch_offer: self.rematch_offer(),
            rematch: self.rematch_game().map(str::to_owned),
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
    pub(super) fn row_without_settings(&self) -> GameRow {
        let mut players = self.players.clone();
        for c in Color::ALL {
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
            if let Some(user) = &self.settings.creator_account {
                ops.push(self.user_game(user, hash, *set));
            }
        }
        ops
    }

    /// The write giving account `user` the seat `set` of token `hash`
    /// (issue 15: the seat follows the account to any device).
    pub(super) fn user_game(&self, user: &str, hash: &str, set: SeatSet) -> WriteOp {
        WriteOp::InsertUserGame(crate::store::account::UserGameRow {
            user_id: user.to_owned(),
            game_id: self.id.clone(),
            color: set.stored().to_owned(),
            token_hash: hash.to_owned(),
            time_class: self.time_class().as_str().to_owned(),
            rated: self.settings.rated,
            created_at: self.created_at,
        })
    }

    /// The game's time class (issue 15).
    pub fn time_class(&self) -> crate::account::rating::TimeClass {
        crate::account::rating::TimeClass::of(&self.settings.time_control)
    }
}

/// The time-control estimate of Lichess (time + 40 × increment), ms; a
/// large value when there is no clock.
fn estimate_ms(settings: &Settings) -> u64 {
    match settings.time_control.periods().first() {
        Some(p) => p.time_ms + 40 * p.increment_ms,
        None => 3_600_000,
    }
}
