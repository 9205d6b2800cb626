//! # arbiter-server
//!
//! `arbiter serve`: play chess by the FIDE Laws in the browser. HTTP and
//! WebSocket ([`http`], speaking `docs/protocol.md`), one tokio task per live
//! game ([`game`]) owning its Laws game (`arbiter-laws`: every rule, clock,
//! claim, result and Article) and its clock, storage behind a trait (SQLite
//! embedded, or PostgreSQL for a standby node beside the active one; [`store`]),
//! health, readiness and metrics ([`ops`]), and the web app embedded ([`assets`]).
//!
//! Guarantees:
//! - **Nothing acknowledged is lost.** Every event is committed to storage
//!   (WAL, `synchronous = FULL`, group commit) before any client hears of it.
//! - **Clocks are the server's** (Art. 6): millisecond precision, flag fall
//!   decided by the server and adjudicated by the Laws (6.9), lag credited
//!   only up to a per-player quota ([`time::LagQuota`]).
//! - **Downtime is not charged.** The server writes a heartbeat every second
//!   and on shutdown. On start, each running game's clock resumes from its
//!   reading at the later of its last event and the last heartbeat (or the
//!   game's own resumption, if later: a crash while games are resumed gives
//!   nothing back, [`resumed_row`]): the time the server was down counts
//!   against nobody, once (at most one heartbeat interval of real thinking
//!   time before a crash goes uncounted).
//! - **Seats are secrets.** Each seat is a 128-bit token in an HttpOnly
//!   cookie; only its SHA-256 is stored; foreign origins are refused.
//! - **Accounts are optional** ([`account`]): argon2id passwords, sessions
//!   stored as SHA-256 like seats; a rated game's end moves both ratings in
//!   the transaction of its result.
//! - **Events are paired once** ([`event`]): Swiss and round-robin events
//!   whose rounds are keyed by (event, round) in the transaction creating
//!   their games; a game's end writes its board's result with it.

#![deny(missing_docs)]

pub mod account;
pub mod analysis;
pub mod assets;
pub mod client;
pub mod cluster;
pub mod display_name;
pub mod engine;
pub mod error;
pub mod event;
pub mod game;
pub mod guard;
pub mod http;
pub mod limits;
pub mod listen;
pub mod lobby;
pub mod notation;
pub mod ops;
pub mod pgn;
mod positions;
pub mod protocol;
pub mod seat;
pub mod store;
pub mod time;

use game::registry::Registry;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use store::{Store, StoreError, WriteOp};
use time::ServerClock;

/// How the server is run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on (default 127.0.0.1:8080).
    pub listen: SocketAddr,
    /// Directory of the database (created if missing).
    pub data_dir: PathBuf,
    /// Games created or joined per minute per client address (0: no limit).
    pub create_per_minute: u32,
    /// Engine searches running at once.
    pub engine_threads: usize,
    /// Heartbeat interval.
    pub heartbeat: Duration,
    /// The store; `None`: the SQLite file in `data_dir`.
    pub database: Option<store::Location>,
    /// This node's name (several nodes on one database; see `cluster`).
    pub node_id: String,
    /// Header timeout, connections per address, accept-error pause.
    pub connections: listen::ConnectionLimits,
    /// Spectator WebSockets one client address may hold at once, over all
    /// games (0: no limit).
    pub spectators_per_address: u32,
    /// The address players use (`https://chess.example`): the `Host` it
    /// names is accepted besides IP literals and `localhost`.
    pub public_url: Option<String>,
    /// Proxies whose `X-Forwarded-For` / `-Proto` are believed.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// A game with no move this long after its last event (creation or
    /// join) is aborted.
    pub abort_unstarted_after: Duration,
    /// Account actions (sign up, log in, change the password) per minute
    /// per client address (0: no limit).
    pub account_per_minute: u32,
    /// Several nodes on one database and one bus ([`cluster`]); `None`: a
    /// single node.
    pub cluster: Option<cluster::ClusterConfig>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: PathBuf::from("arbiter-data"),
            create_per_minute: 60,
            engine_threads: 2,
            heartbeat: Duration::from_secs(1),
            database: None,
            node_id: default_node_id(),
            connections: listen::ConnectionLimits::default(),
            spectators_per_address: 16,
            public_url: None,
            trusted_proxies: Vec::new(),
            abort_unstarted_after: Duration::from_secs(15 * 60),
            account_per_minute: 10,
            cluster: None,
        }
    }
}

/// Everything the handlers and game tasks share.
pub struct App {
    /// Storage.
    pub store: Store,
    /// Running games.
    pub registry: Registry,
    /// Server time.
    pub clock: ServerClock,
    /// Rate limit of game creation and joining.
    pub create_limit: limits::PerAddress,
    /// The engine's searches.
    pub engine: engine::EnginePool,
    /// The open seeks (§3.8).
    pub lobby: lobby::Lobby,
    /// Lobby WebSockets per client address.
    pub lobby_watchers: listen::PerAddressConnections,
    /// The analyses of finished games (§3.9).
    pub analyses: Arc<analysis::Analyses>,
    /// Health, readiness and the Prometheus metrics.
    pub ops: ops::Ops,
    /// What the accept loop counted.
    pub accepts: Arc<listen::AcceptStats>,
    /// How long a request may take to arrive and be handled.
    pub request_timeout: Duration,
    /// Spectator WebSockets per client address.
    pub spectators: listen::PerAddressConnections,
    /// How long a game may wait for its first move before it is aborted.
    pub abort_unstarted_after: Duration,
    /// Which `Host` is answered; whose forwarding headers are believed.
    pub hosts: guard::HostPolicy,
    /// Rate limit of account actions (issue 15).
    pub account_limit: limits::PerAddress,
    /// Password hashes computed at once.
    pub hashing: tokio::sync::Semaphore,
    /// The events' locks and the scheduler's bell (issue 15).
    pub events: event::Hub,
    /// This node's membership of a cluster, if it is in one.
    pub cluster: Option<Arc<cluster::Cluster>>,
    /// The unfinished games the background resume is to load.
    to_resume: std::sync::Mutex<Vec<String>>,
}

/// A server failure.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The data directory cannot be created.
    #[error("data directory {path}: {source}")]
    DataDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Cannot listen.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The bus between nodes failed.
    #[error(transparent)]
    Bus(#[from] cluster::bus::BusError),
    /// The server stopped with an error.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

/// A bound server, its games resumed, ready to run.
pub struct Server {
    app: Arc<App>,
    listener: tokio::net::TcpListener,
    heartbeat: Duration,
    connections: listen::ConnectionLimits,
    resumed: usize,
}

/// The database file in `data_dir`.
pub fn database_path(data_dir: &std::path::Path) -> PathBuf {
    data_dir.join("arbiter.sqlite3")
}

impl Server {
    /// Opens storage in the data directory (creating it), binds the
    /// listening socket, then joins the cluster (releasing the leases of
    /// the node's earlier incarnation) or finds every unfinished game to
    /// resume: a socket that cannot be bound stops the start before it
    /// touches any game.
    pub async fn bind(config: Config) -> Result<Server, ServeError> {
        // PostgreSQL needs no directory of ours.
        if !matches!(config.database, Some(store::Location::Postgres(_))) {
            std::fs::create_dir_all(&config.data_dir).map_err(|source| ServeError::DataDir {
                path: config.data_dir.clone(),
                source,
            })?;
        }
        let location = config
            .database
            .clone()
            .unwrap_or_else(|| store::Location::Sqlite(database_path(&config.data_dir)));
        let store = match config.cluster {
            None => Store::open(&location).await?,
            Some(_) => Store::open_shared(&location).await?,
        };
        // The listening socket before anything that acts on the node's name
        // (joining the bus, releasing an earlier incarnation's leases): a
        // second process started by mistake under a live node's name fails
        // here, on the address that node holds, and leaves its games alone.
        // (After the store: a standby waits for the node lock without
        // listening.)
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .map_err(|source| ServeError::Listen {
                addr: config.listen,
                source,
            })?;
        let ops = ops::Ops::new(config.node_id.clone(), store.stats.clone());
        let cluster = match &config.cluster {
            Some(c) => Some(Arc::new(
                cluster::Cluster::join(config.node_id.clone(), c.clone()).await?,
            )),
            None => None,
        };
        let app = Arc::new(App {
            store,
            registry: Registry::default(),
            clock: ServerClock::new(),
            create_limit: limits::PerAddress::new(
                config.create_per_minute,
                config.create_per_minute.max(1),
            ),
            engine: engine::EnginePool::new(config.engine_threads),
            analyses: Arc::new(analysis::Analyses::default()),
            lobby: lobby::Lobby::default(),
            lobby_watchers: listen::PerAddressConnections::new(lobby::WATCHERS_PER_ADDRESS),
            ops,
            accepts: Arc::default(),
            request_timeout: config.connections.request_timeout,
            spectators: listen::PerAddressConnections::new(config.spectators_per_address),
            account_limit: limits::PerAddress::new(
                config.account_per_minute,
                config.account_per_minute.max(1),
            ),
            hashing: tokio::sync::Semaphore::new(account::credentials::HASHING_AT_ONCE),
            cluster,
            to_resume: std::sync::Mutex::default(),
            events: event::Hub::default(),
            abort_unstarted_after: config.abort_unstarted_after,
            hosts: guard::HostPolicy::new(
                config.public_url.clone(),
                config.trusted_proxies.clone(),
            ),
        });
        app.registry.bind(&app);
        if let Some(c) = &app.cluster {
            cluster::ownership::start(&app, c).await?;
        }
        // In a cluster, the nodes take the games over by their leases
        // (`cluster::ownership`), not all at once here.
        let resumed = match app.cluster {
            None => find_unfinished(&app).await?,
            Some(_) => 0,
        };
        Ok(Server {
            app,
            listener,
            heartbeat: config.heartbeat,
            connections: config.connections,
            resumed,
        })
    }

    /// The address actually bound (for `--listen 127.0.0.1:0`).
    pub fn local_addr(&self) -> Result<SocketAddr, ServeError> {
        Ok(self.listener.local_addr()?)
    }

    /// How many unfinished games are resumed from storage (in the
    /// background once [`Server::run`] starts; `/readyz` answers 200 when
    /// all are).
    pub fn resumed(&self) -> usize {
        self.resumed
    }

    /// The shared state (for tests and tools).
    pub fn app(&self) -> Arc<App> {
        self.app.clone()
    }

    /// Serves until `shutdown` completes, then writes a last heartbeat (so
    /// the clocks of running games stop exactly now) and returns.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let app = self.app.clone();
        let beat_app = self.app.clone();
        let every = self.heartbeat;
        let scheduler = tokio::spawn(event::scheduler::run(app.clone()));
        // In a cluster the ownership task takes the games over (and marks
        // the node ready); it runs for the life of the server.
        let (resuming, cluster_tasks) = match app.cluster.clone() {
            None => (tokio::spawn(resume_all(app.clone())), Vec::new()),
            Some(c) => (
                tokio::spawn(async {}),
                vec![
                    tokio::spawn(cluster::forward::run(app.clone(), c.clone())),
                    tokio::spawn(cluster::ownership::run(app.clone(), c)),
                ],
            ),
        };
        let beats = tokio::spawn(async move {
            let _ = resuming.await;
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let now = beat_app.clock.now_ms();
                if let Err(e) = beat_app.store.write(vec![WriteOp::Heartbeat(now)]).await {
                    tracing::error!("heartbeat: {e}");
                }
            }
        });
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let router = http::router(app.clone());
        let server = tokio::spawn(listen::serve(
            self.listener,
            router,
            self.connections,
            app.accepts.clone(),
            stop_rx,
        ));
        shutdown.await;
        app.ops.set_ready(false);
        let _ = stop_tx.send(true);
        // Open WebSockets do not end by themselves: give plain requests a
        // moment, then stop.
        let _ = tokio::time::timeout(Duration::from_secs(3), server).await;
        beats.abort();
        scheduler.abort();
        if let Some(c) = &app.cluster {
            // A clean stop: the games' leases lapse now, so that other
            // nodes take them over at once.
            for t in cluster_tasks {
                t.abort();
            }
            cluster::ownership::release_all(&app, c).await;
        }
        // Not while games of the previous run wait for their shift: the
        // previous run's last heartbeat must stay the last for them.
        if app.registry.pending() == 0 {
            app.store
                .write(vec![WriteOp::Heartbeat(app.clock.now_ms())])
                .await?;
        }
        Ok(())
    }
}

/// Finds the unfinished games of the previous run and hands them to the
/// registry, which resumes each on its first load (a visitor's or the
/// background resume's, [`resume_all`]): the port opens at once. The clock
/// of a running game resumes from its reading at the later of its last
/// event and the last heartbeat before the server stopped; the downtime is
/// not charged.
async fn find_unfinished(app: &Arc<App>) -> Result<usize, ServeError> {
    let last_alive = app.store.last_heartbeat().await?;
    let ids = app.store.unfinished_games().await?;
    let n = ids.len();
    app.registry.set_pending(ids.clone(), last_alive);
    *app.to_resume.lock().unwrap_or_else(|e| e.into_inner()) = ids;
    Ok(n)
}

/// Loads every pending game in the background, then marks the node ready.
/// Heartbeats wait for it: until every game's origin is shifted, the last
/// heartbeat must stay the previous run's.
async fn resume_all(app: Arc<App>) {
    let ids = std::mem::take(&mut *app.to_resume.lock().unwrap_or_else(|e| e.into_inner()));
    for id in ids {
        if let Err(e) = app.registry.get(&id).await {
            tracing::error!("cannot resume game {id}: {e}");
        }
    }
    app.ops.set_ready(true);
}

/// The resume rule. A game whose clock time 0 was at server time `origin`,
/// whose last event was at game time `last_t`, on a server last known
/// alive at `last_alive`, continues at `now` from game time
/// `max(last_t, last_alive − origin)`: the returned origin is `now` minus
/// that. Nothing between `last_alive` and `now` is charged.
pub fn resumed_origin(origin: u64, last_t: u64, last_alive: Option<u64>, now: u64) -> u64 {
    let alive = last_alive.unwrap_or(origin).max(origin);
    let t_resume = last_t.max(alive - origin);
    now.saturating_sub(t_resume)
}

/// The row of a game whose clock was just resumed at `now` (its origin
/// shifted by [`resumed_origin`]): its `updated_at` is `now`, the instant
/// the shifted origin holds from. A row's `updated_at` is always an
/// instant its game ran with the row's origin, so the next start resumes
/// from the later of it and the last heartbeat: a server that crashes
/// again before its first heartbeat (still resuming its games) does not
/// apply the previous heartbeat a second time to an origin already
/// shifted past it (that gave back up to the first downtime).
pub fn resumed_row(core: &game::core::GameCore, now: u64) -> store::GameRow {
    store::GameRow {
        updated_at: now.max(core.updated_at),
        ..core.row()
    }
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

/// The command-line flags of `arbiter serve` (shared by the `arbiter` CLI
/// and the `arbiter-server` binary).
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Directory of the database (created on first run). Default:
    /// $XDG_DATA_HOME/arbiter, else ~/.local/share/arbiter, else ./arbiter-data.
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Games created or joined per minute per client address (0: no limit).
    #[arg(long, default_value_t = 60)]
    pub create_per_minute: u32,
    /// Account actions (sign up, log in, change the password) per minute
    /// per client address (0: no limit).
    #[arg(long, default_value_t = 10)]
    pub account_per_minute: u32,
    /// Engine searches running at once (the rest wait).
    #[arg(long, default_value_t = 2)]
    pub engine_threads: usize,
    /// Threads running the games and connections (default: twice the
    /// cores, so that a thread held by a long exact dead-position analysis
    /// or a slow disk does not hold up the games queued behind it).
    #[arg(long)]
    pub worker_threads: Option<usize>,
    /// The store: postgres://user@host:port/db (PostgreSQL; several nodes
    /// may share it) or sqlite:PATH. Default: the SQLite file in the data
    /// directory.
    #[arg(long, env = "ARBITER_DATABASE_URL", value_parser = store::Location::parse)]
    pub database: Option<store::Location>,
    /// This node's name, unique among the nodes on one database (default:
    /// the host name).
    #[arg(long, env = "ARBITER_NODE_ID")]
    pub node_id: Option<String>,
    /// Connections one client address may hold at once, WebSockets
    /// included (0: no limit; a load test from one address needs 0).
    #[arg(long, default_value_t = 256)]
    pub max_connections_per_address: u32,
    /// Spectator WebSockets one client address may hold at once, over all
    /// games (0: no limit).
    #[arg(long, default_value_t = 16)]
    pub max_spectators_per_address: u32,
    /// The address players use, e.g. https://chess.example: its host name
    /// is answered (besides IP addresses and localhost; any other `Host`
    /// gets 421, against DNS rebinding).
    #[arg(long)]
    pub public_url: Option<String>,
    /// A reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are
    /// believed (repeatable); from anyone else they are ignored.
    #[arg(long)]
    pub trusted_proxy: Vec<std::net::IpAddr>,
    /// Join a cluster: the NATS bus shared by the nodes, nats://host:port
    /// (several nodes on one PostgreSQL `--database`; see docs/deployment.md).
    #[arg(long, env = "ARBITER_BUS_URL")]
    pub bus: Option<String>,
    /// The first token of the cluster's subjects on the bus.
    #[arg(long, env = "ARBITER_BUS_PREFIX", default_value = "arbiter")]
    pub bus_prefix: String,
    /// A game lease's time to live in ms (a dead node's games move after
    /// about this long); renewed every quarter of it.
    #[arg(long, env = "ARBITER_LEASE_MS", default_value_t = 5_000)]
    pub lease_ms: u64,
}

/// The default node name: the host name, else `arbiter`.
pub fn default_node_id() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .filter(|h| !h.is_empty())
        .or_else(|| {
            std::fs::read_to_string("/etc/hostname")
                .ok()
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
        })
        .unwrap_or_else(|| "arbiter".to_string())
}

/// The default number of worker threads: twice the available cores. The
/// Laws' exact unwinnability analysis (Art. 5.2 b) usually takes tens of
/// microseconds but now and then milliseconds, on the game's own thread;
/// with more threads than cores the system shares the cores among them and
/// the other games go on. Measured at 5,000 games with two connections each
/// on 2 cores: p99 49–88 ms with 2 threads, 30–45 ms with 4.
pub fn default_worker_threads() -> usize {
    2 * std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// The default data directory.
pub fn default_data_dir() -> PathBuf {
    if let Some(x) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(x).join("arbiter");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(h).join(".local/share/arbiter");
    }
    PathBuf::from("arbiter-data")
}

/// Runs `arbiter serve` until SIGINT or SIGTERM: prints the address, serves,
/// shuts down gracefully.
pub fn serve_main(args: ServeArgs) -> Result<(), ServeError> {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
    // Many WebSockets need many file descriptors: raise the soft limit to the hard one.
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let config = Config {
        listen: args.listen,
        data_dir: args.data_dir.unwrap_or_else(default_data_dir),
        create_per_minute: args.create_per_minute,
        account_per_minute: args.account_per_minute,
        engine_threads: args.engine_threads,
        database: args.database,
        node_id: args.node_id.unwrap_or_else(default_node_id),
        connections: listen::ConnectionLimits {
            per_address: args.max_connections_per_address,
            ..listen::ConnectionLimits::default()
        },
        spectators_per_address: args.max_spectators_per_address,
        public_url: args.public_url,
        trusted_proxies: args.trusted_proxy,
        cluster: args.bus.map(|bus| cluster::ClusterConfig {
            prefix: args.bus_prefix,
            lease_ttl: Duration::from_millis(args.lease_ms.max(400)),
            ..cluster::ClusterConfig::new(&bus)
        }),
        ..Config::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(
            args.worker_threads
                .unwrap_or_else(default_worker_threads)
                .max(1),
        )
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let data = match &config.database {
            Some(l) => l.to_string(),
            None => database_path(&config.data_dir).display().to_string(),
        };
        let node = match &config.cluster {
            Some(c) => format!("{} in the cluster on {}", config.node_id, c.bus),
            None => config.node_id.clone(),
        };
        let server = Server::bind(config).await?;
        let addr = server.local_addr()?;
        eprintln!(
            "arbiter: serving http://{addr}/ (data: {data}, node {node}, {} unfinished games resumed); Ctrl-C stops",
            server.resumed()
        );
        server.run(shutdown_signal()).await?;
        eprintln!("arbiter: stopped");
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::resumed_origin;

    #[test]
    fn downtime_is_not_charged() {
        // Started at 1000; last event at game time 5000; alive until 9000;
        // back at 60000: the game continues at game time 8000.
        let o = resumed_origin(1_000, 5_000, Some(9_000), 60_000);
        assert_eq!(60_000 - o, 8_000);
        // The last event after the last heartbeat wins.
        let o = resumed_origin(1_000, 9_500, Some(9_000), 60_000);
        assert_eq!(60_000 - o, 9_500);
        // No heartbeat at all: from the last event.
        let o = resumed_origin(1_000, 700, None, 60_000);
        assert_eq!(60_000 - o, 700);
        // A heartbeat older than the game's start counts as its start.
        let o = resumed_origin(10_000, 0, Some(9_000), 60_000);
        assert_eq!(o, 60_000);
    }
}
