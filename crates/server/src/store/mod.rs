//! Storage: games, their numbered event logs, seats, and the leases of live
//! games when several nodes share one database.
//!
//! [`Backend`] is what a database must do: SQLite ([`sqlite`], embedded, the
//! default) and PostgreSQL ([`postgres`], for several nodes), both from the
//! one schema description in [`schema`] and one mapping of columns to rows
//! (`store/row.rs`). [`Store`] runs one backend connection on
//! a writer thread with **group commit**: every write request waiting when a
//! transaction starts goes into that one transaction, and all of them are
//! acknowledged once it is committed durably. A game task awaits its
//! acknowledgement before it tells any client about the event, so nothing a
//! client has seen can be lost by a crash.
//!
//! Reads use a second connection (WAL lets them run beside the writer) on
//! tokio's blocking pool; so do the lease operations ([`lease`]).

pub mod account;
pub mod lease;
pub mod location;
pub mod postgres;
mod row;
pub mod schema;
pub mod sqlite;
pub mod tournament;

pub use location::Location;

use serde::{Deserialize, Serialize};
use std::sync::{mpsc, Arc, Mutex};
use tokio::sync::oneshot;

/// A storage failure.
#[derive(Clone, Debug, thiserror::Error)]
pub enum StoreError {
    /// The database reported an error.
    #[error("database: {0}")]
    Database(String),
    /// Stored data does not read back.
    #[error("stored data for game {game}: {message}")]
    Corrupt {
        /// The game.
        game: String,
        /// What is wrong.
        message: String,
    },
    /// The writer thread has stopped.
    #[error("the storage writer has stopped")]
    Closed,
    /// A write for a game whose lease has moved on (another node owns the
    /// game now): nothing of the batch was committed.
    #[error("game {game}: lease generation {generation} is no longer current")]
    Fenced {
        /// The game.
        game: String,
        /// The generation the writer held.
        generation: u64,
    },
}

/// The row of a game: its settings (fixed at creation) and a summary kept up
/// to date with each event (for listing without loading the log).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// 8 characters `[A-Za-z0-9]`.
    pub id: String,
    /// Epoch ms.
    pub created_at: u64,
    /// Epoch ms of the last event.
    pub updated_at: u64,
    /// `waiting`, `active`, `finished`.
    pub status: String,
    /// The creation settings, JSON (see `game::Settings`).
    pub settings: String,
    /// The players, JSON (`protocol::Players`).
    pub players: String,
    /// PGN result.
    pub result: String,
    /// The termination, JSON, once finished.
    pub termination: Option<String>,
    /// Moves made.
    pub ply: u32,
    /// Server epoch ms at which the game's clock time was 0 (the game
    /// started), shifted forward by every downtime of the server; `None`
    /// until the game starts.
    pub clock_origin: Option<u64>,
}

impl GameRow {
    /// A game's row before anything has happened in it: no settings or
    /// players (`{}`), result `*`, no moves, no clock yet; `status` as given
    /// and both times `created_at`. Fill the rest with struct update syntax.
    ///
    /// ```
    /// use arbiter_server::store::GameRow;
    /// let row = GameRow { clock_origin: Some(5), ..GameRow::new("abcdefgh", "active", 5) };
    /// assert_eq!((row.result.as_str(), row.ply, row.updated_at), ("*", 0, 5));
    /// ```
    pub fn new(id: &str, status: &str, created_at: u64) -> GameRow {
        GameRow {
            id: id.into(),
            created_at,
            updated_at: created_at,
            status: status.into(),
            settings: "{}".into(),
            players: "{}".into(),
            result: "*".into(),
            termination: None,
            ply: 0,
            clock_origin: None,
        }
    }
}

/// A seat: the hash of a secret token and the colours it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The game.
    pub game_id: String,
    /// SHA-256 of the token, hex. The token itself is never stored.
    pub token_hash: String,
    /// `white`, `black` or `both`.
    pub colors: String,
}

/// One numbered event of a game's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// The game.
    pub game_id: String,
    /// 1, 2, 3 … without gaps.
    pub seq: u64,
    /// The entry, JSON (see `game::LogEntry`).
    pub body: String,
}

/// A write; a batch of them is one transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteOp {
    /// A new game.
    InsertGame(GameRow),
    /// The summary of a game changed.
    UpdateGame(GameRow),
    /// A seat is issued.
    InsertSeat(SeatRow),
    /// An event is appended.
    AppendEvent(EventRow),
    /// The server is alive at this epoch ms (for resuming clocks).
    Heartbeat(u64),
    /// A new account.
    InsertUser(account::UserRow),
    /// An account's new password hash.
    SetPassword {
        /// The user.
        user_id: String,
        /// The argon2id hash.
        password_hash: String,
    },
    /// A session opens (log in).
    InsertSession(account::SessionRow),
    /// A session ends (log out).
    DeleteSession {
        /// Its token's hash.
        token_hash: String,
    },
    /// Every session of a user but one ends (the password changed).
    DeleteOtherSessions {
        /// The user.
        user_id: String,
        /// The session kept.
        keep: String,
    },
    /// A user's sessions expired at `now` are removed (at each log-in, so
    /// that a user's sessions stay bounded).
    DeleteExpiredSessions {
        /// The user.
        user_id: String,
        /// Epoch ms.
        now: u64,
    },
    /// A user takes a seat in a game.
    InsertUserGame(account::UserGameRow),
    /// A rated game has ended: both ratings move in this transaction
    /// ([`account::rate_game`]).
    RateGame {
        /// The game.
        game_id: String,
        /// Its PGN result.
        result: String,
        /// Its time class.
        time_class: String,
        /// Epoch ms.
        at: u64,
    },
    /// The official result of a rated game changes (an event organiser's
    /// correction or forfeit, protocol §9.4): both ratings move by the
    /// difference the new result makes ([`account::rerate_game`]).
    RerateGame {
        /// The game.
        game_id: String,
        /// The result it was rated with (a forfeit code: not rated).
        from: String,
        /// The result it stands at now.
        to: String,
        /// Epoch ms.
        at: u64,
    },
    /// A write of an event (a tournament, [`tournament::Op`]).
    Tournament(tournament::Op),
    /// The first lease of a game created in this batch (in a cluster, the
    /// creating node owns a new game from its first commit: no other node
    /// ever sees it unleased).
    NewLease {
        /// The lease (generation 1).
        lease: lease::Lease,
        /// Epoch ms it is taken at.
        renewed_at: u64,
    },
    /// The batch commits only if the game's lease still has this
    /// generation (checked in the same transaction; see [`lease`]).
    Fence {
        /// The game.
        game_id: String,
        /// The generation the writer holds.
        generation: u64,
    },
}

/// Which games to list.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ListFilter {
    /// Active games.
    Live,
    /// Finished games.
    Finished,
    /// Both (never `waiting`).
    #[default]
    All,
}

/// A game as loaded: its row, seats and full log.
#[derive(Clone, Debug)]
pub struct LoadedGame {
    /// The row.
    pub row: GameRow,
    /// Its seats.
    pub seats: Vec<SeatRow>,
    /// Its events in order.
    pub events: Vec<EventRow>,
}

/// What a database must do. Methods are blocking; [`Store`] calls them from
/// its own threads.
pub trait Backend: Send + 'static {
    /// Applies all `ops` in one durable transaction (all or nothing).
    fn write_batch(&mut self, ops: &[WriteOp]) -> Result<(), StoreError>;
    /// A game with its seats and log.
    fn load_game(&mut self, id: &str) -> Result<Option<LoadedGame>, StoreError>;
    /// Ids of games not finished (`waiting` or `active`).
    fn unfinished_games(&mut self) -> Result<Vec<String>, StoreError>;
    /// Rows of games, newest first.
    fn list_games(&mut self, filter: ListFilter, limit: u32) -> Result<Vec<GameRow>, StoreError>;
    /// The last heartbeat written.
    fn last_heartbeat(&mut self) -> Result<Option<u64>, StoreError>;
    /// Takes the lease of `game_id` for `node` at epoch ms `now` for `ttl`
    /// ms, unless another node holds it unexpired; a new generation either
    /// way it is taken.
    fn acquire_lease(
        &mut self,
        game_id: &str,
        node: &str,
        now: u64,
        ttl: u64,
    ) -> Result<lease::Attempt, StoreError>;
    /// Extends every lease `node` holds to `now + ttl` (one row: the
    /// node's own, [`lease`]); returns them (a lease taken over by another
    /// node, or released, is not among them).
    fn renew_leases(
        &mut self,
        node: &str,
        now: u64,
        ttl: u64,
    ) -> Result<Vec<lease::Lease>, StoreError>;
    /// Lets a lease lapse now (a clean stop), if it is still this one;
    /// returns whether it was.
    fn release_lease(&mut self, lease: &lease::Lease) -> Result<bool, StoreError>;
    /// A new incarnation of `node` starts (the process was started again
    /// under the same name): every lease its earlier incarnations still
    /// hold is released as of their node's last renewal, the last moment
    /// that process is known to have run them, so that their games move on
    /// at once (to any node: this one too, with a new generation) and
    /// their clocks resume from there. Returns how many were released.
    fn release_earlier_incarnation(&mut self, node: &str) -> Result<u64, StoreError>;
    /// The lease of a game, if it was ever leased.
    fn lease(&mut self, game_id: &str) -> Result<Option<lease::Lease>, StoreError>;
    /// Ids of unfinished games whose lease is missing or expired at `now`,
    /// oldest first: the games a node may take over.
    fn orphaned_games(&mut self, now: u64) -> Result<Vec<String>, StoreError>;
    /// A user by id (the name in lower case).
    fn user(&mut self, id: &str) -> Result<Option<account::UserRow>, StoreError>;
    /// The user of the session whose token hashes to `token_hash`, if it
    /// has not expired at `now`.
    fn session_user(
        &mut self,
        token_hash: &str,
        now: u64,
    ) -> Result<Option<account::UserRow>, StoreError>;
    /// The seat token hash a user holds in a game.
    fn user_seat(&mut self, user_id: &str, game_id: &str) -> Result<Option<String>, StoreError>;
    /// A page of a user's games, newest first.
    fn user_games(
        &mut self,
        q: &account::GamesQuery,
    ) -> Result<Vec<(account::UserGameRow, GameRow)>, StoreError>;
    /// A user's ratings.
    fn ratings(&mut self, user_id: &str) -> Result<Vec<account::RatingRow>, StoreError>;
    /// The newest `limit` points of a rating's history, oldest first.
    fn rating_history(
        &mut self,
        user_id: &str,
        time_class: &str,
        limit: u32,
    ) -> Result<Vec<account::HistoryRow>, StoreError>;
    /// A user's finished games counted by (colour, result).
    fn results_by_colour(
        &mut self,
        user_id: &str,
    ) -> Result<Vec<(String, String, u64)>, StoreError>;
    /// Every row of one `SELECT` (`$1`, `$2` … its parameters; the reads of
    /// events, [`tournament`]).
    fn select(
        &mut self,
        sql: &str,
        args: &[account::Arg<'_>],
    ) -> Result<Vec<Vec<tournament::Cell>>, StoreError>;
    /// Moves committed data from a write-ahead log into the database
    /// without blocking writers (a no-op where there is nothing to do).
    fn checkpoint(&mut self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// How often the checkpointer runs.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

type Reply = oneshot::Sender<Result<(), StoreError>>;

/// Figures of the group commit, for the load test and the metrics.
#[derive(Debug)]
pub struct CommitStats {
    /// Transactions committed.
    pub transactions: std::sync::atomic::AtomicU64,
    /// Write requests acknowledged.
    pub requests: std::sync::atomic::AtomicU64,
    /// Events appended (committed).
    pub events: std::sync::atomic::AtomicU64,
    /// Transactions that failed.
    pub failures: std::sync::atomic::AtomicU64,
    /// Seconds from the start of a transaction to its commit.
    pub commit_seconds: prometheus_client::metrics::histogram::Histogram,
}

impl Default for CommitStats {
    fn default() -> CommitStats {
        CommitStats {
            transactions: Default::default(),
            requests: Default::default(),
            events: Default::default(),
            failures: Default::default(),
            commit_seconds: prometheus_client::metrics::histogram::Histogram::new(
                LATENCY_BUCKETS.iter().copied(),
            ),
        }
    }
}

/// The buckets of every latency histogram, seconds: 0.25 ms to 2.5 s.
pub const LATENCY_BUCKETS: [f64; 13] = [
    0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

impl CommitStats {
    fn record(&self, took: std::time::Duration, ops: &[WriteOp], ok: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        self.transactions.fetch_add(1, Relaxed);
        self.commit_seconds.observe(took.as_secs_f64());
        if ok {
            let events = ops
                .iter()
                .filter(|o| matches!(o, WriteOp::AppendEvent(_)))
                .count();
            self.events.fetch_add(events as u64, Relaxed);
        } else {
            self.failures.fetch_add(1, Relaxed);
        }
    }
}

/// The storage handle: group-committing writer plus a reader.
#[derive(Clone)]
pub struct Store {
    writer: mpsc::Sender<(Vec<WriteOp>, Reply)>,
    reader: Arc<Mutex<Box<dyn Backend>>>,
    /// The renewal of leases: a connection of its own in a cluster
    /// ([`Store::with_lease_connection`]), so that a renewal never waits
    /// behind the reads of games being loaded (a late renewal lets a lease
    /// lapse); else the reader.
    renewer: Arc<Mutex<Box<dyn Backend>>>,
    /// Group-commit figures.
    pub stats: Arc<CommitStats>,
}

/// A commit slower than this is logged.
const SLOW_COMMIT: std::time::Duration = std::time::Duration::from_millis(200);

/// Most write requests folded into one transaction.
const MAX_GROUP: usize = 4096;

impl Store {
    /// Starts the writer thread on `writer`, reads through `reader`, and
    /// checkpoints through `checkpointer` on a thread of its own, so the
    /// writer never stalls on a checkpoint.
    pub fn new(
        writer: Box<dyn Backend>,
        reader: Box<dyn Backend>,
        checkpointer: Box<dyn Backend>,
    ) -> Store {
        Store::start(writer, reader, Some(checkpointer))
    }

    /// Opens the store at `location` (creating and migrating it as needed):
    /// a writer, a reader and, for SQLite, a checkpointer connection.
    pub async fn open(location: &Location) -> Result<Store, StoreError> {
        let location = location.clone();
        tokio::task::spawn_blocking(move || location.connect())
            .await
            .map_err(|e| StoreError::Database(format!("opening the store: {e}")))?
    }

    /// Opens a store several active nodes share ([`Location::connect_shared`]).
    pub async fn open_shared(location: &Location) -> Result<Store, StoreError> {
        let location = location.clone();
        tokio::task::spawn_blocking(move || location.connect_shared())
            .await
            .map_err(|e| StoreError::Database(format!("opening the store: {e}")))?
    }

    /// Starts the writer thread on `writer`, reads through `reader`, and
    /// checkpoints through `checkpointer`, if any, on a thread of its own.
    pub fn start(
        mut writer: Box<dyn Backend>,
        reader: Box<dyn Backend>,
        checkpointer: Option<Box<dyn Backend>>,
    ) -> Store {
        // The writer holds `pause` while it commits. A write-ahead log can
        // only start again from its beginning once a checkpoint has copied
        // every frame back with no commit in between; under a steady stream
        // of commits that never happens by itself and the log grows without
        // bound (and every page lookup in it slows down). So the
        // checkpointer copies the bulk beside the writer, then pauses the
        // writer for a second pass over the few frames committed meanwhile;
        // the next commit restarts the log.
        let pause = Arc::new(Mutex::new(()));
        let checkpoint_pause = pause.clone();
        if let Some(mut checkpointer) = checkpointer {
            let spawned = std::thread::Builder::new()
                .name("arbiter-checkpoint".into())
                .spawn(move || loop {
                    std::thread::sleep(CHECKPOINT_EVERY);
                    if let Err(e) = checkpointer.checkpoint() {
                        tracing::warn!("storage checkpoint: {e}");
                        continue;
                    }
                    let _paused = checkpoint_pause.lock();
                    if let Err(e) = checkpointer.checkpoint() {
                        tracing::warn!("storage checkpoint: {e}");
                    }
                });
            if let Err(e) = spawned {
                tracing::error!("cannot start the checkpoint thread: {e}");
            }
        }
        let (tx, rx) = mpsc::channel::<(Vec<WriteOp>, Reply)>();
        let stats = Arc::new(CommitStats::default());
        let thread_stats = stats.clone();
        std::thread::Builder::new()
            .name("arbiter-store".into())
            .spawn(move || {
                use std::sync::atomic::Ordering::Relaxed;
                while let Ok(first) = rx.recv() {
                    // The group's writes moved into one batch (not copied:
                    // an event's body is most of a move's bytes), each
                    // request's share remembered by its length.
                    let (mut ops, reply) = first;
                    let mut group = vec![(ops.len(), reply)];
                    while group.len() < MAX_GROUP {
                        match rx.try_recv() {
                            Ok((more, reply)) => {
                                group.push((more.len(), reply));
                                ops.extend(more);
                            }
                            Err(_) => break,
                        }
                    }
                    let started = std::time::Instant::now();
                    let result = {
                        let _writing = pause.lock();
                        writer.write_batch(&ops)
                    };
                    let took = started.elapsed();
                    if took > SLOW_COMMIT {
                        tracing::warn!(
                            "storage: a commit of {} requests ({} writes) took {} ms",
                            group.len(),
                            ops.len(),
                            took.as_millis()
                        );
                    }
                    thread_stats.record(took, &ops, result.is_ok());
                    thread_stats.requests.fetch_add(group.len() as u64, Relaxed);
                    if result.is_ok() || group.len() == 1 {
                        if let Err(e) = &result {
                            tracing::error!("storage: a write failed: {e}");
                        }
                        for (_, reply) in group {
                            let _ = reply.send(result.clone());
                        }
                        continue;
                    }
                    // One request spoiled the group: commit each on its own.
                    let mut from = 0;
                    for (len, reply) in group {
                        let ops = &ops[from..from + len];
                        from += len;
                        let started = std::time::Instant::now();
                        let r = {
                            let _writing = pause.lock();
                            writer.write_batch(ops)
                        };
                        match &r {
                            Err(e @ StoreError::Fenced { .. }) => tracing::warn!("storage: {e}"),
                            Err(e) => tracing::error!("storage: a write failed: {e}"),
                            Ok(()) => {}
                        }
                        thread_stats.record(started.elapsed(), ops, r.is_ok());
                        let _ = reply.send(r);
                    }
                }
            })
            .map(|_| ())
            .unwrap_or_else(|e| tracing::error!("cannot start the storage thread: {e}"));
        let reader = Arc::new(Mutex::new(reader));
        Store {
            writer: tx,
            renewer: reader.clone(),
            reader,
            stats,
        }
    }

    /// Renews leases through `renewer`, a connection of its own.
    pub fn with_lease_connection(mut self, renewer: Box<dyn Backend>) -> Store {
        self.renewer = Arc::new(Mutex::new(renewer));
        self
    }

    /// Writes `ops` durably; returns once they are committed.
    pub async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
        let (tx, rx) = oneshot::channel();
        self.writer
            .send((ops, tx))
            .map_err(|_| StoreError::Closed)?;
        rx.await.map_err(|_| StoreError::Closed)?
    }

    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn Backend) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        Store::on(self.reader.clone(), f).await
    }

    /// Runs `f` on the connection `reader` (or the renewer) on tokio's blocking pool.
    async fn on<T: Send + 'static>(
        reader: Arc<Mutex<Box<dyn Backend>>>,
        f: impl FnOnce(&mut dyn Backend) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        tokio::task::spawn_blocking(move || {
            let mut guard = reader
                .lock()
                .map_err(|_| StoreError::Database("reader lock poisoned".into()))?;
            f(guard.as_mut())
        })
        .await
        .map_err(|e| StoreError::Database(format!("reader task: {e}")))?
    }

    /// Loads a game.
    pub async fn load_game(&self, id: String) -> Result<Option<LoadedGame>, StoreError> {
        self.read(move |b| b.load_game(&id)).await
    }

    /// Ids of games to resume.
    pub async fn unfinished_games(&self) -> Result<Vec<String>, StoreError> {
        self.read(|b| b.unfinished_games()).await
    }

    /// Lists games.
    pub async fn list_games(
        &self,
        filter: ListFilter,
        limit: u32,
    ) -> Result<Vec<GameRow>, StoreError> {
        self.read(move |b| b.list_games(filter, limit)).await
    }

    /// The last heartbeat.
    pub async fn last_heartbeat(&self) -> Result<Option<u64>, StoreError> {
        self.read(|b| b.last_heartbeat()).await
    }

    /// Asks for the lease of a game ([`Backend::acquire_lease`]).
    pub async fn acquire_lease(
        &self,
        game_id: String,
        node: String,
        now: u64,
        ttl: u64,
    ) -> Result<lease::Attempt, StoreError> {
        self.read(move |b| b.acquire_lease(&game_id, &node, now, ttl))
            .await
    }

    /// Renews a node's leases ([`Backend::renew_leases`]).
    pub async fn renew_leases(
        &self,
        node: String,
        now: u64,
        ttl: u64,
    ) -> Result<Vec<lease::Lease>, StoreError> {
        Store::on(self.renewer.clone(), move |b| {
            b.renew_leases(&node, now, ttl)
        })
        .await
    }

    /// Lets a lease lapse ([`Backend::release_lease`]).
    pub async fn release_lease(&self, lease: lease::Lease) -> Result<bool, StoreError> {
        Store::on(self.renewer.clone(), move |b| b.release_lease(&lease)).await
    }

    /// Releases the leases of `node`'s earlier incarnations
    /// ([`Backend::release_earlier_incarnation`]).
    pub async fn release_earlier_incarnation(&self, node: String) -> Result<u64, StoreError> {
        Store::on(self.renewer.clone(), move |b| {
            b.release_earlier_incarnation(&node)
        })
        .await
    }

    /// The lease of a game.
    pub async fn lease(&self, game_id: String) -> Result<Option<lease::Lease>, StoreError> {
        self.read(move |b| b.lease(&game_id)).await
    }

    /// Games without a live owner ([`Backend::orphaned_games`]).
    pub async fn orphaned_games(&self, now: u64) -> Result<Vec<String>, StoreError> {
        self.read(move |b| b.orphaned_games(now)).await
    }

    /// A user by id.
    pub async fn user(&self, id: String) -> Result<Option<account::UserRow>, StoreError> {
        self.read(move |b| b.user(&id)).await
    }

    /// The user of a live session ([`Backend::session_user`]).
    pub async fn session_user(
        &self,
        token_hash: String,
        now: u64,
    ) -> Result<Option<account::UserRow>, StoreError> {
        self.read(move |b| b.session_user(&token_hash, now)).await
    }

    /// A user's seat in a game ([`Backend::user_seat`]).
    pub async fn user_seat(
        &self,
        user_id: String,
        game_id: String,
    ) -> Result<Option<String>, StoreError> {
        self.read(move |b| b.user_seat(&user_id, &game_id)).await
    }

    /// A page of a user's games ([`Backend::user_games`]).
    pub async fn user_games(
        &self,
        q: account::GamesQuery,
    ) -> Result<Vec<(account::UserGameRow, GameRow)>, StoreError> {
        self.read(move |b| b.user_games(&q)).await
    }

    /// A user's ratings.
    pub async fn ratings(&self, user_id: String) -> Result<Vec<account::RatingRow>, StoreError> {
        self.read(move |b| b.ratings(&user_id)).await
    }

    /// A rating's history ([`Backend::rating_history`]).
    pub async fn rating_history(
        &self,
        user_id: String,
        time_class: String,
        limit: u32,
    ) -> Result<Vec<account::HistoryRow>, StoreError> {
        self.read(move |b| b.rating_history(&user_id, &time_class, limit))
            .await
    }

    /// A user's results by colour ([`Backend::results_by_colour`]).
    pub async fn results_by_colour(
        &self,
        user_id: String,
    ) -> Result<Vec<(String, String, u64)>, StoreError> {
        self.read(move |b| b.results_by_colour(&user_id)).await
    }

    /// An event with its players, boards and byes ([`tournament::load`]).
    pub async fn tournament(
        &self,
        id: String,
    ) -> Result<Option<tournament::LoadedTournament>, StoreError> {
        self.read(move |b| tournament::load(b, &id)).await
    }

    /// The newest events ([`tournament::list`]).
    pub async fn tournaments(&self, limit: u32) -> Result<Vec<tournament::Listed>, StoreError> {
        self.read(move |b| tournament::list(b, limit)).await
    }

    /// Ids of the events not finished.
    pub async fn unfinished_tournaments(&self) -> Result<Vec<String>, StoreError> {
        self.read(tournament::unfinished).await
    }

    /// The players' ratings now ([`tournament::ratings_now`]).
    pub async fn tournament_ratings(
        &self,
        id: String,
        class: String,
    ) -> Result<Vec<(String, f64)>, StoreError> {
        self.read(move |b| tournament::ratings_now(b, &id, &class))
            .await
    }

    /// How many unfinished events an organiser has.
    pub async fn open_tournaments_by(&self, organiser: String) -> Result<u32, StoreError> {
        self.read(move |b| tournament::open_by(b, &organiser)).await
    }

    /// Whether the database answers (a read through the reader).
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.read(|b| b.last_heartbeat().map(|_| ())).await
    }
}

#[cfg(test)]
mod tests {
    use super::sqlite::Sqlite;
    use super::*;

    fn game(id: &str) -> GameRow {
        GameRow {
            clock_origin: Some(1),
            ..GameRow::new(id, "active", 1)
        }
    }

    /// Under a steady stream of commits (back to back for ten checkpoint
    /// periods; 40 games, an event of each per commit) the write-ahead log
    /// still starts again from its beginning: its file stays smaller than
    /// one page per event, while every event wrote at least its leaf page
    /// (and the pages above it) through the log.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_log_does_not_grow_without_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("arbiter.sqlite3");
        let store = Store::new(
            Box::new(Sqlite::open_writer(&path).unwrap()),
            Box::new(Sqlite::open(&path).unwrap()),
            Box::new(Sqlite::open(&path).unwrap()),
        );
        let ids: Vec<String> = (0..40).map(|g| format!("game{g:04}")).collect();
        store
            .write(ids.iter().map(|id| WriteOp::InsertGame(game(id))).collect())
            .await
            .unwrap();
        let body = "x".repeat(200);
        let started = std::time::Instant::now();
        let mut largest = 0;
        let mut seq = 0;
        while started.elapsed() < CHECKPOINT_EVERY * 10 {
            seq += 1;
            let ops = ids
                .iter()
                .map(|id| {
                    WriteOp::AppendEvent(EventRow {
                        game_id: id.clone(),
                        seq,
                        body: body.clone(),
                    })
                })
                .collect();
            store.write(ops).await.unwrap();
            let wal =
                std::fs::metadata(dir.path().join("arbiter.sqlite3-wal")).map_or(0, |m| m.len());
            largest = largest.max(wal);
        }
        let events = store.load_game("game0007".into()).await.unwrap().unwrap();
        assert_eq!(events.events.len() as u64, seq);
        let written = seq * 40 * 4_096;
        assert!(
            largest < written,
            "the log reached {largest} bytes of {written} written in {seq} commits"
        );
    }
}
