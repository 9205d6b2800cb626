//! One tokio task per live game: it owns the [`GameCore`] (board, clock,
//! log, seats), the game's connections and its flag timer. Every change is
//! committed to storage before any client hears of it.

use super::core::{Effects, GameCore, SeatSet};
use crate::error::ApiError;
use crate::protocol::{ClientFrame, ClientMsg, Color, ServerMsg, State, Status};
use crate::App;
use axum::extract::ws::{Message, Utf8Bytes};
use axum::http::StatusCode;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// Outbound queue length per connection; a client that falls this far
/// behind is disconnected (it catches up with `hello` on reconnect).
pub const OUTBOUND_QUEUE: usize = 256;

/// How long a finished game with no connection stays loaded.
const IDLE_UNLOAD: Duration = Duration::from_secs(60);

/// A move's commit slower than this is announced as `recording` (its
/// clocks standing) before its event: the clocks the pages show stop when
/// the move was made, not when its slow commit ends (issue 13).
const RECORDING_NOTICE_AFTER: Duration = Duration::from_millis(100);

/// Most events replayed to a `hello`; beyond, a `state` is sent. Half the
/// outbound queue, so that a catch-up (events, `ready`, `presence`) always
/// fits in it whatever else is queued (issue 13, defect 2).
pub const MAX_CATCH_UP: u64 = OUTBOUND_QUEUE as u64 / 2;

/// A connection as the game task sees it.
#[derive(Debug)]
pub struct Conn {
    /// Unique per server run.
    pub id: u64,
    /// The seat token's hash, if the upgrade carried a cookie.
    pub token_hash: Option<String>,
    /// Where to send.
    pub tx: mpsc::Sender<Message>,
    /// Told when the game drops the connection (its queue was full): the
    /// socket task then closes the socket, so the client reconnects and
    /// catches up instead of waiting on a connection nobody writes to.
    pub dropped: Arc<tokio::sync::Notify>,
    /// The client's address (the engine pool's fairness key, issue 13
    /// defect 4), if known.
    pub client: Option<std::net::IpAddr>,
}

/// A request to a game task.
#[derive(Debug)]
pub enum Command {
    /// A WebSocket connected; the task answers with the seat it holds.
    Attach {
        /// The connection.
        conn: Conn,
        /// Its seat (for the socket task's own checks).
        reply: oneshot::Sender<Option<SeatSet>>,
    },
    /// A WebSocket closed.
    Detach {
        /// Its id.
        conn_id: u64,
    },
    /// A validated client message.
    Frame {
        /// From which connection.
        conn_id: u64,
        /// The message.
        frame: ClientFrame,
    },
    /// An HTTP snapshot for the holder of a token.
    Snapshot {
        /// The token's hash.
        token_hash: Option<String>,
        /// The state.
        reply: oneshot::Sender<State>,
    },
    /// `POST /join`.
    Join {
        /// The new seat's token hash.
        token_hash: String,
        /// The requester's existing token hash for this game, if any.
        existing: Option<String>,
        /// Display name.
        name: Option<String>,
        /// The account joining, if logged in (issue 15).
        account: Option<String>,
        /// The seat and state, or the error.
        reply: oneshot::Sender<Result<State, ApiError>>,
    },
    /// `POST /rematch` (§3.7) by the holder of a token.
    Rematch {
        /// The token of this game's seat (the rematch seat is derived from it).
        token: Option<String>,
        /// The offer recorded, or the rematch game's id.
        reply: oneshot::Sender<Result<super::rematch::Rematch, ApiError>>,
    },
    /// Seats the player of the old game in this rematch game (§3.7).
    SeatRematch {
        /// His seat's token hash in this game.
        token_hash: String,
        /// His colours.
        seat: SeatSet,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// Read the game (for PGN).
    Read {
        /// Gets a copy of the core.
        reply: oneshot::Sender<Box<GameCore>>,
    },
    /// An event's arbiter (issue 15): with `loser` `None` the default time
    /// has passed and whoever is absent loses
    /// ([`GameCore::default_time_passed`]); else `loser` is forfeited.
    /// Answers whether the game ended so.
    Forfeit {
        /// The player forfeited, or `None`: the absent ones (6.7).
        loser: Option<Color>,
        /// Whether it ended the game.
        reply: oneshot::Sender<bool>,
    },
    /// The game's lease is no longer this node's (cluster): drop every
    /// connection and stop.
    Stop,
    /// The engine's answer to the draw offer pending to it.
    EngineDrawAnswer {
        /// Accept (else decline).
        accept: bool,
    },
    /// The engine's search for the game at `ply` started after `waited`.
    EngineStarted {
        /// The ply the search is for (stale notices are dropped).
        ply: u32,
        /// How long the request waited for an engine (not charged).
        waited: Duration,
    },
    /// The engine chose a move for the game at `ply`.
    EngineMove {
        /// The ply the search was for (stale results are dropped).
        ply: u32,
        /// The engine's side.
        side: Color,
        /// The move (UCI), or `None` if the search failed.
        uci: Option<String>,
        /// How long the request waited for an engine: not charged to the
        /// engine (the game's clock is paused by it, [`crate::engine`]).
        waited: Duration,
    },
}

/// What a running game tells the game list without a round trip to its
/// task (and what its storage row does not keep up to date move by move).
#[derive(Debug, Default)]
pub struct Summary {
    /// Bit 0: White online, bit 1: Black online.
    pub presence: AtomicU8,
    /// Moves made.
    pub ply: AtomicU32,
    /// Epoch ms of the last event.
    pub updated_at: AtomicU64,
}

/// A handle on a running game task.
#[derive(Clone, Debug)]
pub struct GameHandle {
    /// Commands.
    pub tx: mpsc::Sender<Command>,
    /// Presence, ply and last change, kept by the task.
    pub summary: Arc<Summary>,
}

struct Task {
    app: Arc<App>,
    core: GameCore,
    conns: Vec<(Conn, Option<SeatSet>)>,
    summary: Arc<Summary>,
    online: (bool, bool),
    /// Each side has been at the board (connected, or an engine) since
    /// the task started: arriving before the default time is enough, a
    /// player who then leaves is not absent (Art. 6.7). Kept in memory:
    /// after a restart a player is at the board again when his page
    /// reconnects.
    arrived: [bool; 2],
    engine_busy_ply: Option<u32>,
    /// The ply whose wait for an engine is already paused (`EngineStarted`).
    engine_paused: Option<u32>,
    /// The ply the engine's search is running for (`EngineStarted` came,
    /// `EngineMove` not yet): a page opened meanwhile is told `thinking`.
    engine_searching: Option<u32>,
    /// The client whose move the engine answers (the pool's fairness key).
    engine_client: Option<std::net::IpAddr>,
    /// The place in that client's count of engine searches taken for the
    /// move being handled (`EnginePool::reserve`): the search answering it
    /// takes it over; a move refused gives it back.
    engine_place: Option<crate::engine::Reservation>,
    /// Fenced off or stopped: another node owns the game now.
    stopped: bool,
}

fn text(s: String) -> Message {
    Message::Text(Utf8Bytes::from(s))
}

/// Starts the task of `core`.
pub fn spawn(app: Arc<App>, core: GameCore) -> GameHandle {
    let (tx, rx) = mpsc::channel(1024);
    let summary = Arc::new(Summary {
        presence: AtomicU8::new(0),
        ply: AtomicU32::new(core.table.records().len() as u32),
        updated_at: AtomicU64::new(core.updated_at),
    });
    let task = Task {
        app,
        core,
        conns: Vec::new(),
        summary: summary.clone(),
        online: (false, false),
        arrived: [false, false],
        engine_busy_ply: None,
        engine_paused: None,
        engine_searching: None,
        engine_client: None,
        engine_place: None,
        stopped: false,
    };
    let handle = GameHandle {
        tx: tx.clone(),
        summary,
    };
    tokio::spawn(task.run(rx, tx));
    handle
}

fn instant_at(app: &App, server_ms: u64) -> Instant {
    let now = app.clock.now_ms();
    Instant::now() + Duration::from_millis(server_ms.saturating_sub(now))
}

impl Task {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>, self_tx: mpsc::Sender<Command>) {
        let mut idle_since = Instant::now();
        self.maybe_engine(&self_tx);
        // One timer for the flag, re-armed only when the deadline changes
        // (registering a timer per command is measurable at thousands of games).
        let far = || Instant::now() + Duration::from_secs(86_400 * 365);
        let flag_timer = tokio::time::sleep_until(far());
        tokio::pin!(flag_timer);
        let mut armed: Option<Instant> = None;
        loop {
            // While the engine's search for this ply waits or runs, its
            // flag is judged when the answer comes, once the wait is taken
            // off its clock (`EngineMove`).
            let engine_thinking =
                self.engine_busy_ply == Some(self.core.table.records().len() as u32);
            let flag_at = self
                .core
                .flag_deadline()
                .filter(|_| !engine_thinking)
                .map(|ms| instant_at(&self.app, ms));
            if flag_at != armed {
                // Only re-arm when the deadline moves by more than a millisecond.
                let moved = match (flag_at, armed) {
                    (Some(a), Some(b)) => a.max(b) - a.min(b) > Duration::from_millis(1),
                    _ => true,
                };
                if moved {
                    flag_timer.as_mut().reset(flag_at.unwrap_or_else(far));
                    armed = flag_at;
                }
            }
            let unload = (self.core.status == Status::Finished && self.conns.is_empty())
                .then_some(idle_since + IDLE_UNLOAD);
            // A game nobody has started is aborted after a while.
            let abort_at = (self.core.status != Status::Finished
                && self.core.table.records().is_empty())
            .then(|| {
                instant_at(
                    &self.app,
                    self.core.updated_at + self.app.abort_unstarted_after.as_millis() as u64,
                )
            });
            tokio::select! {
                cmd = rx.recv() => {
                    let Some(cmd) = cmd else { break };
                    self.handle(cmd, &self_tx).await;
                    idle_since = Instant::now();
                }
                _ = &mut flag_timer, if armed.is_some() => {
                    armed = None;
                    flag_timer.as_mut().reset(far());
                    let now = self.app.clock.now_ms();
                    if let Some(out) = self.core.flag(now) {
                        self.commit(out).await;
                    }
                }
                _ = sleep_opt(abort_at) => {
                    let now = self.app.clock.now_ms();
                    if let Some(out) = self.core.abort_unstarted(now) {
                        self.commit(out).await;
                    }
                }
                _ = sleep_opt(unload) => {
                    if self.app.registry.unload_if_idle(&self.core.id, &self_tx).await {
                        break;
                    }
                    idle_since = Instant::now();
                }
            }
            if self.stopped {
                // Its clients reconnect and reach the new owner.
                for (c, _) in &self.conns {
                    c.dropped.notify_one();
                }
                break;
            }
        }
    }

    async fn handle(&mut self, cmd: Command, self_tx: &mpsc::Sender<Command>) {
        let now = self.app.clock.now_ms();
        match cmd {
            Command::Attach { conn, reply } => {
                let seat = conn
                    .token_hash
                    .as_ref()
                    .and_then(|h| self.core.seats.get(h).copied());
                let _ = reply.send(seat);
                self.conns.push((conn, seat));
            }
            Command::Detach { conn_id } => {
                self.conns.retain(|(c, _)| c.id != conn_id);
                self.update_presence();
            }
            Command::Stop => self.stopped = true,
            Command::Frame { conn_id, frame } => self.on_frame(conn_id, frame, now, self_tx).await,
            Command::Snapshot { token_hash, reply } => {
                let seat = token_hash.and_then(|h| self.core.seats.get(&h).copied());
                let _ = reply.send(self.core.state(seat, now));
            }
            Command::Join {
                token_hash,
                existing,
                name,
                account,
                reply,
            } => {
                if existing.is_some_and(|h| self.core.seats.contains_key(&h)) {
                    let _ = reply.send(Err(ApiError::new(
                        StatusCode::CONFLICT,
                        "already_seated",
                        "you already hold a seat in this game",
                    )));
                    return;
                }
                match self.core.join(token_hash.clone(), name, account, now) {
                    Err((code, message)) => {
                        let _ = reply.send(Err(ApiError::new(StatusCode::CONFLICT, code, message)));
                    }
                    Ok(out) => {
                        if self.commit(out).await {
                            let seat = self.core.seats.get(&token_hash).copied();
                            let _ = reply.send(Ok(self.core.state(seat, self.app.clock.now_ms())));
                        } else {
                            let _ = reply.send(Err(ApiError::internal("storage error")));
                        }
                        self.maybe_engine(self_tx);
                    }
                }
            }
            Command::Rematch { token, reply } => {
                let answer = self.rematch(token, now).await;
                let _ = reply.send(answer);
            }
            Command::SeatRematch {
                token_hash,
                seat,
                reply,
            } => {
                let answer = match self.core.seat_rematch(token_hash.clone(), seat) {
                    None => Ok(()),
                    Some(op) => self
                        .app
                        .store
                        .write(crate::cluster::fence(&self.app, &self.core.id, vec![op]))
                        .await
                        .map_err(|e| {
                            self.core.seats.remove(&token_hash);
                            ApiError::from(e)
                        }),
                };
                let _ = reply.send(answer);
            }
            Command::Read { reply } => {
                let _ = reply.send(Box::new(self.core.clone()));
            }
            Command::Forfeit { loser, reply } => {
                let out = match loser {
                    None => self.core.default_time_passed(self.arrived, now),
                    Some(c) => self
                        .core
                        .forfeit(
                            c,
                            arbiter_laws::Ground::MatchRule,
                            "forfeited by the arbiter (Art. 10.1)",
                            now,
                        )
                        .ok(),
                };
                let done = match out {
                    Some(out) => self.commit(out).await,
                    None => false,
                };
                let _ = reply.send(done);
            }
            Command::EngineDrawAnswer { accept } => {
                let side = !self.core.settings.creator;
                if let Some(out) = self.core.engine_answer(side, accept, now) {
                    self.commit(out).await;
                }
            }
            Command::EngineStarted { ply, waited } => {
                if self.core.table.records().len() as u32 != ply
                    || self.core.status != Status::Active
                {
                    return;
                }
                // The wait for an engine is nobody's time: the game's clock
                // is paused by it (module docs of `crate::engine`), from the
                // search's start on, so clients show the engine's clock
                // running only while it thinks.
                let paused = waited.as_millis() as u64;
                if let (true, Some(origin)) = (paused > 0, self.core.clock_origin) {
                    self.core.clock_origin = Some(origin + paused);
                    self.engine_paused = Some(ply);
                }
                self.engine_searching = Some(ply);
                let clocks = self.core.live(self.app.clock.now_ms()).clocks;
                tracing::debug!(
                    "game {}: engine search for ply {ply} started after {paused} ms",
                    self.core.id
                );
                let msg = text(ServerMsg::Thinking { ply, clocks }.to_json());
                self.broadcast(std::slice::from_ref(&msg));
            }
            Command::EngineMove {
                ply,
                side,
                uci,
                waited,
            } => {
                if self.engine_busy_ply == Some(ply) {
                    self.engine_busy_ply = None;
                }
                if self.engine_searching == Some(ply) {
                    self.engine_searching = None;
                }
                if self.core.table.records().len() as u32 != ply {
                    return;
                }
                // The wait was paused when the search started (above),
                // unless that notice has not come yet.
                let paused = waited.as_millis() as u64;
                tracing::debug!("game {}: engine move for ply {ply} after a wait of {paused} ms (paused at the start: {:?})", self.core.id, self.engine_paused);
                if self.engine_paused.take() != Some(ply) {
                    if let (true, Some(origin)) = (paused > 0, self.core.clock_origin) {
                        self.core.clock_origin = Some(origin + paused);
                    }
                }
                if let Some(out) = self.core.flag(now) {
                    self.commit(out).await;
                    return;
                }
                match uci.map(|u| self.core.engine_move(side, &u, now)) {
                    Some(Ok(mut out)) => {
                        if paused > 0 {
                            // The paused origin is durable with the move.
                            out.write_first(crate::store::WriteOp::UpdateGame(self.core.row()));
                        }
                        if self.commit(out).await {
                            // Committed and sent: a move like a player's.
                            self.app.ops.engine_moved();
                        }
                    }
                    Some(Err(r)) => {
                        tracing::error!("game {}: engine move refused: {}", self.core.id, r.message)
                    }
                    None => tracing::error!("game {}: the engine found no move", self.core.id),
                }
                self.maybe_engine(self_tx);
            }
        }
    }

    async fn on_frame(
        &mut self,
        conn_id: u64,
        frame: ClientFrame,
        now: u64,
        self_tx: &mpsc::Sender<Command>,
    ) {
        let Some(idx) = self.conns.iter().position(|(c, _)| c.id == conn_id) else {
            return;
        };
        let seat = self.conns[idx].1;
        match &frame.msg {
            ClientMsg::Hello { last_seq } => {
                self.hello(idx, *last_seq, now);
                return;
            }
            ClientMsg::Ping { lag_ms } => {
                if let (Some(lag), Some(seat)) = (lag_ms, seat) {
                    for side in Color::ALL {
                        if seat.holds(side) {
                            self.core.quota[side.index()].report(*lag);
                        }
                    }
                }
                // The socket task answered it; this is the lag report.
                return;
            }
            _ => {}
        }
        let received = std::time::Instant::now();
        let client = self.conns[idx].0.client;
        if matches!(frame.msg, ClientMsg::Move { .. }) && self.core.settings.engine_level.is_some()
        {
            // The bound is checked and the place taken in one step, so
            // moves sent at once in several games cannot all pass it.
            let Some(place) = self.app.engine.reserve(&self.engine_key(client)) else {
                let message = format!(
                    "the engine is busy with {} of your searches; move again when it answers",
                    crate::engine::MAX_QUEUED_PER_CLIENT
                );
                self.error_to(conn_id, frame.id, "engine_busy", &message);
                return;
            };
            self.engine_client = client;
            self.engine_place = Some(place);
        }
        if let Some(out) = self.core.flag_before(seat, &frame.msg, now) {
            self.commit(out).await;
        }
        let result = self.core.act(seat, &frame.msg, now);
        match result {
            Ok(Some(out)) => {
                let committed = self.commit(out).await;
                if committed && matches!(frame.msg, ClientMsg::Move { .. }) {
                    self.app.ops.moved(received.elapsed());
                }
                if !committed {
                    self.error_to(
                        conn_id,
                        frame.id,
                        "internal",
                        "storage error: the action was not recorded",
                    );
                }
                if let ClientMsg::OfferDraw { .. } = &frame.msg {
                    self.engine_weighs_offer(self_tx);
                }
                self.maybe_engine(self_tx);
            }
            Ok(None) => {}
            Err(r) => self.error_to(conn_id, frame.id, r.code, &r.message),
        }
        // Not taken by a search (the move was refused): given back.
        self.engine_place = None;
    }

    /// §3.7: offers a rematch, or creates it (and starts its task) when
    /// it is due; the new game's id is recorded in this game's log.
    async fn rematch(
        &mut self,
        token: Option<String>,
        now: u64,
    ) -> Result<super::rematch::Rematch, ApiError> {
        use super::rematch::Rematch;
        let not_seated = || {
            ApiError::new(
                StatusCode::FORBIDDEN,
                "not_a_player",
                "you hold no seat in this game",
            )
        };
        let token = token.ok_or_else(not_seated)?;
        let seat = self
            .core
            .seats
            .get(&crate::seat::hash_token(&token))
            .copied()
            .ok_or_else(not_seated)?;
        let new_seat = self.core.rematch_seat(seat);
        if let Some(id) = self.core.rematch_game() {
            return Ok(Rematch::Created {
                game: id.to_owned(),
                seat: new_seat,
            });
        }
        let conflict =
            |r: super::table::Refusal| ApiError::new(StatusCode::CONFLICT, r.code, r.message);
        match self.core.ask_rematch(seat, now).map_err(conflict)? {
            Err(None) => Ok(Rematch::Offered),
            Err(Some(out)) => {
                if self.commit(out).await {
                    Ok(Rematch::Offered)
                } else {
                    Err(ApiError::internal("storage error"))
                }
            }
            Ok(()) => {
                let id = crate::http::new_id();
                let hash = crate::seat::hash_token(&crate::seat::rematch_token(&token, &id));
                let new = self
                    .core
                    .new_rematch(id.clone(), seat, hash, now)
                    .map_err(|m| ApiError::internal(format!("rematch: {m}")))?;
                crate::cluster::ownership::create_games(&self.app, &[&id], new.writes).await?;
                self.app.registry.start(&self.app, new.core).await;
                let out = self.core.record_rematch(id.clone(), now);
                if !self.commit(out).await {
                    return Err(ApiError::internal("storage error"));
                }
                Ok(Rematch::Created {
                    game: id,
                    seat: new_seat,
                })
            }
        }
    }

    fn error_to(&mut self, conn_id: u64, reply_to: Option<i64>, code: &str, message: &str) {
        if let Some(idx) = self.conns.iter().position(|(c, _)| c.id == conn_id) {
            let msg = ServerMsg::Error {
                code,
                message,
                reply_to,
            };
            self.send_to(idx, text(msg.to_json()));
        }
    }

    /// §4.1: events after `last_seq` (or a state), then `ready`, then `presence`.
    fn hello(&mut self, idx: usize, last_seq: u64, now: u64) {
        let seq = self.core.seq();
        let seat = self.conns[idx].1;
        let mut out = Vec::new();
        if last_seq > 0 && last_seq <= seq && seq - last_seq <= MAX_CATCH_UP {
            // The missed events as deltas, and the live state (the
            // snapshot of the board, clocks and legal moves) once, on the
            // last: no replay of the game, no live state per event
            // (issue 13, defect 5).
            let live = self.core.live(now);
            for s in last_seq + 1..=seq {
                let event = &self.core.log[(s - 1) as usize].event;
                out.push(text(
                    ServerMsg::Event {
                        seq: s,
                        event,
                        live: (s == seq).then_some(&live),
                    }
                    .to_json(),
                ));
            }
        } else if last_seq != seq || last_seq == 0 {
            out.push(text(
                ServerMsg::State {
                    state: &self.core.state(seat, now),
                }
                .to_json(),
            ));
        }
        // A page opened while the engine searches shows its clock running,
        // as the pages that heard `thinking` do (issue 13).
        let ply = self.core.table.records().len() as u32;
        if self.engine_searching == Some(ply) && self.engine_busy_ply == Some(ply) {
            out.push(text(
                ServerMsg::Thinking {
                    ply,
                    clocks: self.core.live(now).clocks,
                }
                .to_json(),
            ));
        }
        out.push(text(
            ServerMsg::Ready {
                seq,
                clocks: self.core.live(now).clocks,
            }
            .to_json(),
        ));
        for m in out {
            self.send_to(idx, m);
        }
        self.update_presence();
        let (white, black) = self.online;
        self.send_to(idx, text(ServerMsg::Presence { white, black }.to_json()));
    }

    fn send_to(&mut self, idx: usize, msg: Message) {
        if let Some((c, _)) = self.conns.get(idx) {
            if c.tx.try_send(msg).is_err() {
                // Too slow or gone: drop it; the client reconnects and catches up.
                c.dropped.notify_one();
                self.conns.remove(idx);
                self.update_presence();
            }
        }
    }

    fn broadcast(&mut self, msgs: &[Message]) {
        let before = self.conns.len();
        self.conns.retain(|(c, _)| {
            let kept = msgs.iter().all(|m| c.tx.try_send(m.clone()).is_ok());
            if !kept {
                c.dropped.notify_one();
            }
            kept
        });
        if self.conns.len() != before {
            self.update_presence();
        }
    }

    fn update_presence(&mut self) {
        let mut on = [false, false];
        for side in Color::ALL {
            let p = self.core.players.get(side);
            on[side.index()] = p.kind == crate::protocol::PlayerKind::Engine
                || self
                    .conns
                    .iter()
                    .any(|(_, s)| s.is_some_and(|s| s.holds(side)));
        }
        for side in Color::ALL {
            self.core.players.get_mut(side).online = on[side.index()];
            self.arrived[side.index()] |= on[side.index()];
        }
        // A seek lasts while its creator is on the game's page (§3.8).
        if self.core.status == Status::Waiting {
            let creator = self.core.settings.creator;
            self.app
                .lobby
                .creator_present(&self.core.id, on[creator.index()]);
        }
        self.summary
            .presence
            .store(u8::from(on[0]) | u8::from(on[1]) << 1, Ordering::Relaxed);
        if (on[0], on[1]) != self.online {
            self.online = (on[0], on[1]);
            let msg = text(
                ServerMsg::Presence {
                    white: on[0],
                    black: on[1],
                }
                .to_json(),
            );
            self.broadcast(std::slice::from_ref(&msg));
        }
    }

    /// Commits `out` durably, then sends its events to every connection.
    /// On a storage failure the game is reloaded from storage (so memory and
    /// disk agree again) and every connection gets a fresh state.
    async fn commit(&mut self, out: Effects) -> bool {
        let joins = out.joins();
        let (writes, announce) = out.into_parts();
        let moved = announce
            .numbered()
            .any(|(_, e)| matches!(e, crate::protocol::Event::Move { .. }));
        let writes = crate::cluster::fence(&self.app, &self.core.id, writes);
        let app = self.app.clone();
        let write = app.store.write(writes);
        let written = if moved && self.core.clock_origin.is_some() {
            tokio::pin!(write);
            tokio::select! {
                r = &mut write => r,
                _ = tokio::time::sleep(RECORDING_NOTICE_AFTER) => {
                    self.recording(announce.last_seq());
                    write.await
                }
            }
        } else {
            write.await
        };
        if let Err(e) = written {
            if let crate::store::StoreError::Fenced { .. } = e {
                // Another node took the game over: nothing more is
                // committed here (store::lease).
                tracing::warn!("game {}: {e}; stopping it here", self.core.id);
                if let Some(c) = &self.app.cluster {
                    crate::cluster::ownership::forget(&self.app, c, &self.core.id, true);
                }
                self.stopped = true;
                return false;
            }
            tracing::error!("game {}: storage failed, reloading: {e}", self.core.id);
            self.reload().await;
            return false;
        }
        if joins || self.core.status == Status::Finished {
            // Taken, or withdrawn by an abort: out of the lobby (§3.8).
            self.app.lobby.remove(&self.core.id);
        }
        self.summary
            .ply
            .store(self.core.table.records().len() as u32, Ordering::Relaxed);
        self.summary
            .updated_at
            .store(self.core.updated_at, Ordering::Relaxed);
        let now = self.app.clock.now_ms();
        let msgs: Vec<Message> = announce
            .encode(&self.core, now)
            .into_iter()
            .map(text)
            .collect();
        self.broadcast(&msgs);
        if joins {
            self.update_presence();
        }
        true
    }

    /// Tells every page that the action up to event `seq` is being
    /// recorded (protocol §4.3 `recording`): the clocks as they stand now
    /// with none running, so that no page counts down a clock the move has
    /// already stopped while its commit is slow. Not an event: nothing of
    /// the action is told before it is durable. If the commit fails, the
    /// reload's `state` replaces these clocks.
    fn recording(&mut self, seq: u64) {
        let Some(mut clocks) = self.core.live(self.app.clock.now_ms()).clocks else {
            return;
        };
        clocks.running = None;
        let msg = text(ServerMsg::Recording { seq, clocks }.to_json());
        self.broadcast(std::slice::from_ref(&msg));
    }

    async fn reload(&mut self) {
        match self.app.store.load_game(self.core.id.clone()).await {
            Ok(Some(stored)) => match GameCore::load(stored) {
                Ok(core) => {
                    let quota = self.core.quota;
                    self.core = core;
                    self.core.quota = quota;
                }
                Err(e) => tracing::error!("game {}: reload failed: {e}", self.core.id),
            },
            Ok(None) => tracing::error!("game {}: vanished from storage", self.core.id),
            Err(e) => tracing::error!("game {}: reload failed: {e}", self.core.id),
        }
        let now = self.app.clock.now_ms();
        let msgs: Vec<(usize, Message)> = self
            .conns
            .iter()
            .enumerate()
            .map(|(i, (_, seat))| {
                (
                    i,
                    text(
                        ServerMsg::State {
                            state: &self.core.state(*seat, now),
                        }
                        .to_json(),
                    ),
                )
            })
            .collect();
        for (i, m) in msgs.into_iter().rev() {
            self.send_to(i, m);
        }
    }

    /// A draw offer was made to the engine: it weighs the position with a
    /// short search and answers by [`crate::engine::accepts_draw`]
    /// (`EngineDrawAnswer`). An answer that comes after the offer has
    /// lapsed (the engine moved meanwhile, 9.1) is dropped.
    fn engine_weighs_offer(&mut self, self_tx: &mpsc::Sender<Command>) {
        let core = &self.core;
        let Some(level) = core.settings.engine_level else {
            return;
        };
        let side = !core.settings.creator;
        if core.status != Status::Active || core.table.laws().draw_offer() != Some(!side) {
            return;
        }
        let move_number = core.table.laws().position().fullmoves();
        let request = crate::engine::Request {
            game: core.table.laws().clone(),
            level,
            side,
            ply: core.table.records().len() as u32,
            clock: None,
        };
        let tx = self_tx.clone();
        let engine = self.app.engine.clone();
        let key = self.engine_key(self.engine_client);
        tokio::spawn(async move {
            let accept = if move_number < crate::engine::DRAW_FROM_MOVE {
                false
            } else {
                let score = engine.evaluate(key, request).await;
                crate::engine::accepts_draw(level, move_number, score)
            };
            let _ = tx.send(Command::EngineDrawAnswer { accept }).await;
        });
    }

    /// If the engine has the move, ask it for one (once per ply).
    fn maybe_engine(&mut self, self_tx: &mpsc::Sender<Command>) {
        let core = &self.core;
        if core.status != Status::Active || core.table.is_over() {
            return;
        }
        let Some(level) = core.settings.engine_level else {
            return;
        };
        let side = !core.settings.creator;
        let ply = core.table.records().len() as u32;
        if core.table.turn() != side || self.engine_busy_ply == Some(ply) {
            return;
        }
        self.engine_busy_ply = Some(ply);
        let request = crate::engine::Request {
            game: core.table.laws().clone(),
            level,
            side,
            ply,
            clock: core.live(self.app.clock.now_ms()).clocks,
        };
        let tx = self_tx.clone();
        let engine = self.app.engine.clone();
        let key = self.engine_key(self.engine_client);
        // The place taken for the move this search answers, or, for a
        // search no move asked for (the engine moves first, a resumed
        // game), one counted without the bound.
        let place = match self.engine_place.take() {
            Some(p) if *p.client() == key => p,
            _ => engine.hold(key),
        };
        let (started_tx, started_rx) = tokio::sync::oneshot::channel();
        let told = self_tx.clone();
        tokio::spawn(async move {
            if let Ok(waited) = started_rx.await {
                let _ = told.send(Command::EngineStarted { ply, waited }).await;
            }
        });
        tokio::spawn(async move {
            let searched = engine.best_move(place, request, started_tx).await;
            let _ = tx
                .send(Command::EngineMove {
                    ply,
                    side,
                    uci: searched.answer,
                    waited: searched.waited,
                })
                .await;
        });
    }

    /// The engine pool's fairness key for this game's searches: the
    /// client's address, or the game itself when no client is known.
    fn engine_key(&self, client: Option<std::net::IpAddr>) -> crate::engine::Client {
        match client {
            Some(ip) => crate::engine::Client::from(ip.to_string()),
            None => crate::engine::Client::from(format!("game {}", self.core.id)),
        }
    }
}

async fn sleep_opt(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
