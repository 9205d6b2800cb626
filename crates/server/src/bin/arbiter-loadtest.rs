//! `arbiter-loadtest`: many simultaneous games against a real server on
//! loopback, playing random legal moves; reports moves per second, the
//! latency from sending a move to its acknowledgement (p50, p99, max), the
//! server's memory, and the CPU time of the server and of the load test
//! itself (percent of one core, and µs per move). Bounded in games
//! (≤ 10,000) and time (≤ 600 s); it stops by itself and only ever talks to
//! 127.0.0.1.
//!
//! ```sh
//! cargo build --release -p arbiter-server
//! target/release/arbiter-loadtest --games 1000 --seconds 30
//! # 1,000 spectators on one game: p99 of a move's delivery to them
//! target/release/arbiter-loadtest --games 100 --spectators 1000 --seconds 30
//! # engine games' reply time with 100 analyses queued behind them
//! target/release/arbiter-loadtest --games 10 --engine-games 4 --analyses 100 --seconds 60
//! # three nodes of a cluster on PostgreSQL and NATS (a scratch database is
//! # created on that server for the run, and dropped after it)
//! target/release/arbiter-loadtest --games 5000 --seconds 30 --nodes 3 \
//!     --database postgres://root@127.0.0.1:5432/test --bus nats://127.0.0.1:4222
//! # one node on PostgreSQL
//! target/release/arbiter-loadtest --games 5000 --seconds 30 --database postgres://root@127.0.0.1:5432/test
//! # the three side by side (and one node on SQLite): scripts/cluster-load.sh
//! ```
//!
//! With several nodes every game is created on a node picked at random and
//! each of its sockets connects to a node picked at random: a socket on a
//! node that does not own its game is forwarded to the owner over the bus.
//! The report gives each node's CPU and memory.
//!
//! By default it starts `arbiter-server` (next to its own executable) on a
//! free port with a temporary data directory and no creation rate limit.
//! 5,000 games need about 5,000 sockets on each side: both processes raise
//! their soft open-file limit to the hard limit (`ulimit -Hn`); if that is
//! too low, raise it first (e.g. `ulimit -n 65536` as root).

use arbiter_server::client::{request, Socket};
use clap::Parser;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// mimalloc, as the server: the load test shares the two cores with the
/// server it measures, so its own allocation costs should be small too.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Load test of `arbiter serve`.
#[derive(Parser, Debug)]
#[command(name = "arbiter-loadtest", version, about)]
struct Args {
    /// Concurrent games (at most 10,000).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Measured duration in seconds after all games are connected (at most 600).
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Mean thinking time per move, ms (each move waits 50–150 % of it).
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// `local`: one connection holds both seats; `invite`: two players, two connections per game.
    #[arg(long, default_value = "local")]
    mode: String,
    /// Use a running server at this loopback address instead of starting
    /// one (repeatable: the nodes of a running cluster).
    #[arg(long)]
    addr: Vec<SocketAddr>,
    /// The running servers' process ids (for their CPU and memory), with
    /// `--addr`, in the same order.
    #[arg(long)]
    pid: Vec<u32>,
    /// Servers to start (at most 5); more than one needs `--bus` and a
    /// PostgreSQL `--database`: the nodes of one cluster.
    #[arg(long, default_value_t = 1)]
    nodes: usize,
    /// The started servers' store: `postgres://user@127.0.0.1:port/db` (a
    /// scratch database is created on that server for the run and dropped
    /// after it). Default: each server's SQLite file.
    #[arg(long)]
    database: Option<String>,
    /// The started nodes' NATS bus, `nats://127.0.0.1:port` (their subjects
    /// under a prefix of this run's own).
    #[arg(long)]
    bus: Option<String>,
    /// The server binary to start (default: arbiter-server next to this program).
    #[arg(long)]
    server: Option<std::path::PathBuf>,
    /// Parent directory of the started server's temporary data directory
    /// (default: the system's; a tmpfs such as /dev/shm measures the server
    /// without the disk's fsync latency).
    #[arg(long)]
    data_parent: Option<std::path::PathBuf>,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Spectators of one more game (at most 2,000): the delivery time of
    /// its moves to them is measured.
    #[arg(long, default_value_t = 0)]
    spectators: usize,
    /// Games against the engine (level 1, 60+0; at most 20): the engine's
    /// reply time is measured.
    #[arg(long, default_value_t = 0)]
    engine_games: usize,
    /// Finished games whose analysis is asked for when the measurement
    /// starts, each from its own (forwarded) address (at most 200).
    #[arg(long, default_value_t = 0)]
    analyses: usize,
}

#[derive(Default)]
struct Stats {
    latencies_us: Mutex<Vec<u32>>,
    /// A watched game's moves reaching its spectators.
    delivery_us: Mutex<Vec<u32>>,
    /// The engine's replies, from the player's move.
    engine_us: Mutex<Vec<u32>>,
    acked: AtomicU64,
    errors: AtomicU64,
    /// Errors by kind ([`ErrorKind`]): where each failed, as evidence of
    /// which node and which path (a socket on the game's own node, or one
    /// forwarded over the bus) dropped it.
    error_kinds: Mutex<std::collections::BTreeMap<String, u64>>,
    games_finished: AtomicU64,
    measuring: AtomicBool,
}

fn fail(msg: String) -> ! {
    eprintln!("arbiter-loadtest: {msg}");
    std::process::exit(2)
}

fn proc_status(pid: u32, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn cpu_seconds(pid: u32) -> Option<f64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = text.rsplit_once(')')?.1;
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The servers under test: their addresses, process ids (if known) and
/// names.
struct Nodes {
    addrs: Vec<SocketAddr>,
    pids: Vec<Option<u32>>,
    names: Vec<String>,
}

impl Nodes {
    /// A node picked at random (its index).
    fn pick(&self, rng: &mut impl Rng) -> usize {
        rng.gen_range(0..self.addrs.len())
    }
}

/// Is the host of `url` (`scheme://[user@]host[:port]/…`) this machine?
fn loopback_url(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        host_port.split(':').next().unwrap_or("")
    };
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// `url` naming the database `db` instead of its own.
fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let base = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{db}?{q}"),
        None => format!("{base}/{db}"),
    }
}

/// A PostgreSQL database of this run's own, dropped at the end.
struct ScratchDb {
    admin: String,
    name: String,
    url: String,
}

impl ScratchDb {
    fn create(admin: &str) -> ScratchDb {
        let name = format!(
            "arbiter_load_{}_{}",
            std::process::id(),
            rand::random::<u32>()
        );
        let mut c = postgres::Client::connect(admin, postgres::NoTls)
            .unwrap_or_else(|e| fail(format!("--database {admin}: {e}")));
        c.batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap_or_else(|e| fail(format!("--database {admin}: create {name}: {e}")));
        ScratchDb {
            admin: admin.to_string(),
            url: with_database(admin, &name),
            name,
        }
    }
}

impl Drop for ScratchDb {
    fn drop(&mut self) {
        match postgres::Client::connect(&self.admin, postgres::NoTls) {
            Ok(mut c) => {
                if let Err(e) = c.batch_execute(&format!(
                    "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                    self.name
                )) {
                    eprintln!("arbiter-loadtest: drop database {}: {e}", self.name);
                }
            }
            Err(e) => eprintln!("arbiter-loadtest: drop database {}: {e}", self.name),
        }
    }
}

/// Starts one server: `bin` with `extra` flags; returns it and its address.
fn start_server(
    bin: &std::path::Path,
    dir: &std::path::Path,
    extra: &[String],
) -> (std::process::Child, SocketAddr) {
    let mut c = Command::new(bin)
        .args([
            "--listen",
            "127.0.0.1:0",
            "--create-per-minute",
            "0",
            // Every connection comes from 127.0.0.1.
            "--max-connections-per-address",
            "0",
            "--max-spectators-per-address",
            "0",
            // The analyses come from forwarded addresses.
            "--trusted-proxy",
            "127.0.0.1",
            "--data-dir",
        ])
        .arg(dir)
        .args(extra)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| fail(format!("cannot start {}: {e}", bin.display())));
    let stderr = c.stderr.take().unwrap_or_else(|| fail("no stderr".into()));
    let mut lines = BufReader::new(stderr).lines();
    let addr: SocketAddr = loop {
        let Some(Ok(line)) = lines.next() else {
            fail("the server did not start".into())
        };
        if let Some(rest) = line.split("serving http://").nth(1) {
            break rest
                .split('/')
                .next()
                .and_then(|a| a.parse().ok())
                .unwrap_or_else(|| fail(format!("cannot read the address in {line:?}")));
        }
    };
    let pid = c.id();
    std::thread::spawn(move || {
        for l in lines.map_while(Result::ok) {
            if l.contains("ERROR") || l.contains("WARN") {
                eprintln!("server {pid}: {l}");
            }
        }
    });
    (c, addr)
}

fn main() {
    let args = Args::parse();
    if args.games == 0 || args.games > 10_000 {
        fail("--games must be 1 to 10000".into());
    }
    if args.seconds == 0 || args.seconds > 600 {
        fail("--seconds must be 1 to 600".into());
    }
    if args.spectators > 2000 || args.engine_games > 20 || args.analyses > 200 {
        fail("--spectators ≤ 2000, --engine-games ≤ 20, --analyses ≤ 200".into());
    }
    if !matches!(args.mode.as_str(), "local" | "invite") {
        fail("--mode is local or invite".into());
    }
    if args.nodes == 0 || args.nodes > 5 {
        fail("--nodes must be 1 to 5".into());
    }
    let postgres = match &args.database {
        None => false,
        Some(d) if d.starts_with("postgres://") || d.starts_with("postgresql://") => true,
        Some(d) => fail(format!(
            "--database {d}: a postgres:// URL (the default is SQLite)"
        )),
    };
    for url in args.database.iter().chain(&args.bus) {
        if !loopback_url(url) {
            fail(format!(
                "{url}: the load test only talks to this machine (127.0.0.1)"
            ));
        }
    }
    if args.nodes > 1 && (args.bus.is_none() || !postgres) {
        fail("--nodes above 1: a cluster needs --bus nats://… and --database postgres://…".into());
    }
    if !args.addr.is_empty() && (args.database.is_some() || args.bus.is_some() || args.nodes > 1) {
        fail(
            "--addr uses running servers: --nodes, --database and --bus are for started ones"
                .into(),
        );
    }
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let mut children = Vec::new();
    let mut dirs = Vec::new();
    let mut scratch = None;
    let nodes = if !args.addr.is_empty() {
        if let Some(a) = args.addr.iter().find(|a| !a.ip().is_loopback()) {
            fail(format!("--addr {a}: must be a loopback address"));
        }
        Nodes {
            addrs: args.addr.clone(),
            pids: (0..args.addr.len())
                .map(|i| args.pid.get(i).copied())
                .collect(),
            names: args.addr.iter().map(|a| a.to_string()).collect(),
        }
    } else {
        let bin = args.server.clone().unwrap_or_else(|| {
            std::env::current_exe()
                .ok()
                .and_then(|p| p.parent().map(|d| d.join("arbiter-server")))
                .unwrap_or_else(|| "arbiter-server".into())
        });
        let db = args.database.as_deref().map(ScratchDb::create);
        let prefix = format!("load_{}_{}", std::process::id(), rand::random::<u32>());
        let mut n = Nodes {
            addrs: Vec::new(),
            pids: Vec::new(),
            names: Vec::new(),
        };
        for i in 0..args.nodes {
            let dir = match &args.data_parent {
                Some(p) => tempfile::tempdir_in(p),
                None => tempfile::tempdir(),
            }
            .unwrap_or_else(|e| fail(format!("temp dir: {e}")));
            let name = format!("n{i}");
            let mut extra = vec![format!("--node-id={name}")];
            if let Some(db) = &db {
                extra.push(format!("--database={}", db.url));
            }
            if let Some(bus) = &args.bus {
                extra.push(format!("--bus={bus}"));
                extra.push(format!("--bus-prefix={prefix}"));
            }
            let (c, addr) = start_server(&bin, dir.path(), &extra);
            n.addrs.push(addr);
            n.pids.push(Some(c.id()));
            n.names.push(name);
            children.push(c);
            dirs.push(dir);
        }
        scratch = db;
        n
    };
    // As many threads as a server: a client thread waiting for a core
    // must not add its wait to the latencies it measures.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(arbiter_server::default_worker_threads())
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(format!("runtime: {e}")));
    let code = runtime.block_on(run(&args, Arc::new(nodes)));
    drop(runtime);
    for c in &mut children {
        let _ = c.kill();
        let _ = c.wait();
    }
    // `exit` runs no destructors: remove the servers' data and database first.
    drop(dirs);
    drop(scratch);
    std::process::exit(code);
}

async fn run(args: &Args, nodes: Arc<Nodes>) -> i32 {
    // The spectators', engine games' and analyses' server.
    let addr = nodes.addrs[0];
    let stats = Arc::new(Stats::default());
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let ready = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    let connect_limit = Arc::new(tokio::sync::Semaphore::new(64));
    for g in 0..args.games {
        let stats = stats.clone();
        let stop = stop.clone();
        let ready = ready.clone();
        let limit = connect_limit.clone();
        let think = args.think_ms;
        let invite = args.mode == "invite";
        let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(g as u64);
        let nodes = nodes.clone();
        tasks.push(tokio::spawn(async move {
            let mut first = true;
            while !stop.load(Ordering::Relaxed) {
                match one_game(
                    &nodes,
                    invite,
                    think,
                    seed,
                    &stats,
                    &stop,
                    &limit,
                    first.then_some(&ready),
                )
                .await
                {
                    Ok(()) => {
                        stats.games_finished.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(e) => {
                        stats.errors.fetch_add(1, Ordering::Relaxed);
                        if let Ok(mut k) = stats.error_kinds.lock() {
                            *k.entry(e.kind()).or_default() += 1;
                        }
                        if stats.errors.load(Ordering::Relaxed) < 10 {
                            eprintln!("game error: {e}");
                        }
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                }
                first = false;
            }
        }));
    }
    // Wait for every game to be connected (or 120 s), then measure.
    let ramp_deadline = Instant::now() + Duration::from_secs(120);
    while (ready.load(Ordering::Relaxed) as usize) < args.games && Instant::now() < ramp_deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ramp = started.elapsed();
    let connected = ready.load(Ordering::Relaxed);
    let mut extra = Vec::new();
    if args.spectators > 0 {
        let (stats, stop) = (stats.clone(), stop.clone());
        let (n, think) = (args.spectators, args.think_ms);
        extra.push(tokio::spawn(async move {
            if let Err(e) = watched(addr, n, think, &stats, &stop).await {
                eprintln!("watched game: {e}");
            }
        }));
    }
    for g in 0..args.engine_games {
        let (stats, stop) = (stats.clone(), stop.clone());
        let think = args.think_ms;
        extra.push(tokio::spawn(async move {
            let mut rng = rand::rngs::StdRng::seed_from_u64(g as u64 + 7);
            while !stop.load(Ordering::Relaxed) {
                if let Err(e) = engine_game(addr, think, &mut rng, &stats, &stop).await {
                    eprintln!("engine game: {e}");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        }));
    }
    let mut analysed = Vec::new();
    for i in 0..args.analyses {
        match finished_game(addr, i).await {
            Ok(id) => analysed.push(id),
            Err(e) => eprintln!("analysis game: {e}"),
        }
    }
    // The engine games settle into play before the analyses are asked for.
    if args.engine_games > 0 {
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    let mut accepted = 0;
    for (i, id) in analysed.iter().enumerate() {
        let xff = format!("10.9.{}.{}", i / 250, i % 250 + 1);
        let r = request(
            addr,
            "POST",
            &format!("/api/games/{id}/analysis"),
            Some("{}"),
            &[("X-Forwarded-For", &xff)],
        )
        .await;
        if matches!(r.as_ref().map(|r| r.status), Ok(200 | 202)) {
            accepted += 1;
        } else if let Ok(r) = r {
            eprintln!("analysis refused: {} {}", r.status, r.body);
        }
    }
    let cpu0: Vec<Option<f64>> = nodes.pids.iter().map(|p| p.and_then(cpu_seconds)).collect();
    let own0 = cpu_seconds(std::process::id());
    stats.measuring.store(true, Ordering::Relaxed);
    let t0 = Instant::now();
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    stats.measuring.store(false, Ordering::Relaxed);
    let elapsed = t0.elapsed().as_secs_f64();
    let cpu1: Vec<Option<f64>> = nodes.pids.iter().map(|p| p.and_then(cpu_seconds)).collect();
    let own1 = cpu_seconds(std::process::id());
    let rss: Vec<Option<u64>> = nodes
        .pids
        .iter()
        .map(|p| p.and_then(|p| proc_status(p, "VmRSS:")))
        .collect();
    let hwm: Vec<Option<u64>> = nodes
        .pids
        .iter()
        .map(|p| p.and_then(|p| proc_status(p, "VmHWM:")))
        .collect();
    let mut positions_analysed = 0;
    let mut analyses_done = 0;
    for id in &analysed {
        if let Ok(r) = request(addr, "GET", &format!("/api/games/{id}/analysis"), None, &[]).await {
            let v = r.json();
            positions_analysed += v["done"].as_u64().unwrap_or(0);
            analyses_done += u64::from(v["status"] == "done");
        }
    }
    stop.store(true, Ordering::Relaxed);
    for t in tasks.into_iter().chain(extra) {
        t.abort();
    }
    let sorted = |m: &Mutex<Vec<u32>>| {
        let mut v = m.lock().map(|v| v.clone()).unwrap_or_default();
        v.sort_unstable();
        v
    };
    let pct_of = |v: &[u32], p: f64| -> Option<f64> {
        if v.is_empty() {
            return None;
        }
        let i = ((v.len() as f64 - 1.0) * p).round() as usize;
        Some(f64::from(v[i]) / 1000.0)
    };
    let delivery = sorted(&stats.delivery_us);
    let engine = sorted(&stats.engine_us);
    let mut lat = stats
        .latencies_us
        .lock()
        .map(|v| v.clone())
        .unwrap_or_default();
    lat.sort_unstable();
    let pct = |p: f64| -> f64 {
        if lat.is_empty() {
            return f64::NAN;
        }
        let i = ((lat.len() as f64 - 1.0) * p).round() as usize;
        f64::from(lat[i]) / 1000.0
    };
    let moves = lat.len();
    // Each node's CPU seconds in the window, and the sums (when all known).
    let used: Vec<Option<f64>> = cpu0
        .iter()
        .zip(&cpu1)
        .map(|(a, b)| Some((*b)? - (*a)?))
        .collect();
    let per_node: Vec<serde_json::Value> = (0..nodes.addrs.len())
        .map(|i| {
            json!({
                "node": nodes.names[i],
                "addr": nodes.addrs[i].to_string(),
                "cpu_percent": used[i].map(|u| (u / elapsed * 100.0).round()),
                "cpu_us_per_move": used[i].filter(|_| moves > 0).map(|u| (u * 1e6 / moves as f64).round()),
                "rss_mib": rss[i].map(|k| k / 1024),
                "peak_rss_mib": hwm[i].map(|k| k / 1024),
            })
        })
        .collect();
    let all = |v: &[Option<u64>]| v.iter().copied().sum::<Option<u64>>();
    let cpu_total: Option<f64> = used.iter().copied().sum();
    let setup = if !args.addr.is_empty() {
        format!("{} running server(s)", nodes.addrs.len())
    } else {
        let store = if args.database.is_some() {
            "PostgreSQL"
        } else {
            "SQLite"
        };
        match (&args.bus, args.nodes) {
            (Some(_), n) => format!("{n} node(s) on {store} + NATS"),
            (None, 1) => format!("1 node on {store}"),
            (None, n) => format!("{n} nodes on {store}"),
        }
    };
    let report = json!({
        "setup": setup,
        "games": args.games,
        "connected": connected,
        "mode": args.mode,
        "think_ms": args.think_ms,
        "ramp_up_s": (ramp.as_secs_f64() * 10.0).round() / 10.0,
        "seconds": elapsed,
        "moves": moves,
        "moves_per_s": (moves as f64 / elapsed).round(),
        "latency_ms": { "p50": pct(0.5), "p99": pct(0.99), "max": pct(1.0) },
        // Of all the servers together (each one's under "nodes").
        "server_rss_mib": all(&rss).map(|k| k / 1024),
        "server_peak_rss_mib": all(&hwm).map(|k| k / 1024),
        "server_cpu_percent": cpu_total.map(|u| (u / elapsed * 100.0).round()),
        // CPU seconds per acknowledged move, in µs: the figure that holds
        // on a shared machine, where the latencies depend on the load.
        "server_cpu_us_per_move": cpu_total.filter(|_| moves > 0).map(|u| (u * 1e6 / moves as f64).round()),
        "nodes": per_node,
        "client_cpu_us_per_move": match (own0, own1) { (Some(a), Some(b)) if moves > 0 => Some(((b - a) * 1e6 / moves as f64).round()), _ => None },
        "client_cpu_percent": match (own0, own1) { (Some(a), Some(b)) => Some(((b - a) / elapsed * 100.0).round()), _ => None },
        "load_average": std::fs::read_to_string("/proc/loadavg").ok().and_then(|l| l.split_whitespace().next().map(str::to_owned)),
        "games_finished": stats.games_finished.load(Ordering::Relaxed),
        "spectators": args.spectators,
        "delivery_ms": { "n": delivery.len(), "p50": pct_of(&delivery, 0.5), "p99": pct_of(&delivery, 0.99), "max": pct_of(&delivery, 1.0) },
        "engine_games": args.engine_games,
        "engine_reply_ms": { "n": engine.len(), "p50": pct_of(&engine, 0.5), "p99": pct_of(&engine, 0.99), "max": pct_of(&engine, 1.0) },
        "analyses": { "asked": args.analyses, "accepted": accepted, "done": analyses_done, "positions_analysed": positions_analysed },
        "errors": stats.errors.load(Ordering::Relaxed),
        "error_kinds": stats.error_kinds.lock().map(|k| k.clone()).unwrap_or_default(),
    });
    println!("{report}");
    if nodes.addrs.len() > 1 {
        for n in &per_node {
            eprintln!(
                "  node {} ({}): CPU {}% ({} µs/move), RSS {} MiB (peak {} MiB)",
                n["node"].as_str().unwrap_or(""),
                n["addr"].as_str().unwrap_or(""),
                n["cpu_percent"],
                n["cpu_us_per_move"],
                n["rss_mib"],
                n["peak_rss_mib"]
            );
        }
    }
    eprintln!(
        "{}: {} games ({}): {} moves/s, latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; server RSS {} MiB (peak {} MiB), CPU {}% ({} µs/move); load test CPU {}% ({} µs/move); machine load {}; errors {}",
        setup,
        args.games,
        args.mode,
        report["moves_per_s"],
        pct(0.5),
        pct(0.99),
        pct(1.0),
        report["server_rss_mib"],
        report["server_peak_rss_mib"],
        report["server_cpu_percent"],
        report["server_cpu_us_per_move"],
        report["client_cpu_percent"],
        report["client_cpu_us_per_move"],
        report["load_average"],
        report["errors"],
    );
    if let Ok(kinds) = stats.error_kinds.lock() {
        for (kind, n) in kinds.iter() {
            eprintln!("  errors: {n} × {kind}");
        }
    }
    if args.spectators > 0 || args.engine_games > 0 || args.analyses > 0 {
        eprintln!(
            "spectators {}: delivery {}; engine games {}: reply {}; analyses {}",
            args.spectators,
            report["delivery_ms"],
            args.engine_games,
            report["engine_reply_ms"],
            report["analyses"]
        );
    }
    i32::from(connected < args.games as u64)
}

fn record(m: &Mutex<Vec<u32>>, d: Duration) {
    if let Ok(mut v) = m.lock() {
        v.push(d.as_micros().min(u128::from(u32::MAX)) as u32);
    }
}

/// One game watched by `n` spectators: its player moves every `think_ms`;
/// each spectator records when each move reaches it.
async fn watched(
    addr: SocketAddr,
    n: usize,
    think_ms: u64,
    stats: &Arc<Stats>,
    stop: &Arc<AtomicBool>,
) -> Result<(), BoxError> {
    let body = json!({"mode": "local", "time_control": "-"}).to_string();
    let r = request(addr, "POST", "/api/games", Some(&body), &[]).await?;
    let id = r.json()["id"].as_str().ok_or("no id")?.to_owned();
    let cookie = r.cookie().ok_or("no cookie")?;
    let sent: Arc<Mutex<std::collections::HashMap<u64, Instant>>> = Arc::default();
    let mut watchers = Vec::new();
    for _ in 0..n {
        let mut s = Socket::connect(addr, &id, None).await?;
        s.send(&json!({"type": "hello", "last_seq": 0})).await?;
        let (sent, stats, stop) = (sent.clone(), stats.clone(), stop.clone());
        watchers.push(tokio::spawn(async move {
            let mut ping = tokio::time::interval(Duration::from_secs(5));
            while !stop.load(Ordering::Relaxed) {
                tokio::select! {
                    t = s.recv_text(Duration::from_secs(60)) => {
                        let Ok(t) = t else { return };
                        let at = Instant::now();
                        let Ok(m) = serde_json::from_str::<Msg>(&t) else { continue };
                        let ply = m.event.as_ref().and_then(|e| e.mv.as_ref()).map(|p| p.ply);
                        if let (Some(ply), true) = (ply, stats.measuring.load(Ordering::Relaxed)) {
                            let from = sent.lock().ok().and_then(|s| s.get(&ply).copied());
                            if let Some(from) = from {
                                record(&stats.delivery_us, at.duration_since(from));
                            }
                        }
                    }
                    _ = ping.tick() => { if s.send_text(r#"{"type":"ping"}"#).await.is_err() { return } }
                }
            }
        }));
    }
    let mut player = Socket::connect(addr, &id, Some(&cookie)).await?;
    player
        .send(&json!({"type": "hello", "last_seq": 0}))
        .await?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(99);
    let mut live: Option<LiveView> = None;
    let mut next = tokio::time::Instant::now() + Duration::from_millis(think_ms.max(50));
    while !stop.load(Ordering::Relaxed) {
        tokio::select! {
            t = player.recv_text(Duration::from_secs(60)) => {
                let m: Msg = serde_json::from_str(&t?)?;
                if let Some(l) = m.state.or(m.live) {
                    live = Some(l);
                }
            }
            _ = tokio::time::sleep_until(next) => {
                next = tokio::time::Instant::now() + Duration::from_millis(think_ms.max(50));
                let Some(l) = &live else { continue };
                if l.status == "finished" {
                    break;
                }
                let Some(pick) = l.legal_moves.choose(&mut rng) else { continue };
                if let Ok(mut s) = sent.lock() {
                    s.insert(l.ply + 1, Instant::now());
                }
                player.send_text(&format!(r#"{{"type":"move","uci":"{}"}}"#, pick.uci)).await?;
            }
        }
    }
    for w in watchers {
        w.abort();
    }
    Ok(())
}

/// A game against the engine (level 1, 60+0) played with random moves;
/// the time from each move to the engine's reply is recorded.
async fn engine_game(
    addr: SocketAddr,
    think_ms: u64,
    rng: &mut rand::rngs::StdRng,
    stats: &Stats,
    stop: &AtomicBool,
) -> Result<(), BoxError> {
    let body =
        json!({"mode": "engine", "engine": {"level": 1}, "color": "white", "time_control": "60+0"})
            .to_string();
    let r = request(addr, "POST", "/api/games", Some(&body), &[]).await?;
    let id = r.json()["id"].as_str().ok_or("no id")?.to_owned();
    let cookie = r.cookie().ok_or("no cookie")?;
    let mut ws = Socket::connect(addr, &id, Some(&cookie)).await?;
    ws.send(&json!({"type": "hello", "last_seq": 0})).await?;
    let mut sent: Option<Instant> = None;
    let mut live: Option<LiveView> = None;
    while !stop.load(Ordering::Relaxed) {
        let m: Msg = serde_json::from_str(&ws.recv_text(Duration::from_secs(60)).await?)?;
        if let Some(l) = m.state.or(m.live) {
            live = Some(l);
        }
        let Some(l) = &live else { continue };
        if l.status == "finished" {
            return Ok(());
        }
        if l.turn == "black" {
            continue;
        }
        if let (Some(at), Some("move")) = (sent, m.event.as_ref().map(|e| e.kind.as_str())) {
            if stats.measuring.load(Ordering::Relaxed) {
                record(&stats.engine_us, at.elapsed());
            }
            sent = None;
        }
        if sent.is_none() {
            tokio::time::sleep(Duration::from_millis(rng.gen_range(0..=think_ms / 4))).await;
            let Some(pick) = l.legal_moves.choose(rng) else {
                continue;
            };
            sent = Some(Instant::now());
            ws.send_text(&format!(r#"{{"type":"move","uci":"{}"}}"#, pick.uci))
                .await?;
        }
    }
    Ok(())
}

/// A short finished game to analyse: an opening, then resignation.
async fn finished_game(addr: SocketAddr, i: usize) -> Result<String, BoxError> {
    let body = json!({"mode": "local", "time_control": "-"}).to_string();
    let r = request(addr, "POST", "/api/games", Some(&body), &[]).await?;
    let id = r.json()["id"].as_str().ok_or("no id")?.to_owned();
    let cookie = r.cookie().ok_or("no cookie")?;
    let mut ws = Socket::connect(addr, &id, Some(&cookie)).await?;
    ws.send(&json!({"type": "hello", "last_seq": 0})).await?;
    let openings: [&[&str]; 3] = [
        &[
            "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5",
        ],
        &[
            "d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "c1g5", "f8e7",
        ],
        &[
            "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6",
        ],
    ];
    for uci in openings[i % 3] {
        ws.send_text(&format!(r#"{{"type":"move","uci":"{uci}"}}"#))
            .await?;
    }
    ws.send_text(r#"{"type":"resign","color":"white"}"#).await?;
    ws.recv_until(Duration::from_secs(10), |m| {
        m["type"] == "event" && m["event"]["kind"] == "end"
    })
    .await?;
    ws.close().await;
    Ok(id)
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Where a game failed: the stage, the node it failed on, whether that
/// node is the one the game was created on (its owner, as a rule) or
/// another one (the socket forwarded over the bus), and the error.
#[derive(Debug)]
struct GameError {
    stage: &'static str,
    node: usize,
    forwarded: bool,
    error: BoxError,
}

impl GameError {
    /// `stage on nN (own|forwarded): error class`, the error's text
    /// without its variable parts.
    fn kind(&self) -> String {
        let text = self.error.to_string();
        let class: String = text
            .chars()
            .take_while(|c| !c.is_ascii_digit() && *c != '{')
            .collect();
        format!(
            "{} on n{} ({}): {}",
            self.stage,
            self.node,
            if self.forwarded {
                "forwarded"
            } else {
                "own node"
            },
            class.trim()
        )
    }
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind(), self.error)
    }
}

/// Plays one game to its end (or until stopped): created on a node picked
/// at random, joined on one, each socket on one (the same node when only
/// one runs).
#[allow(clippy::too_many_arguments)]
async fn one_game(
    nodes: &Nodes,
    invite: bool,
    think_ms: u64,
    seed: u64,
    stats: &Stats,
    stop: &AtomicBool,
    limit: &tokio::sync::Semaphore,
    ready: Option<&AtomicU64>,
) -> Result<(), GameError> {
    let fails = |stage: &'static str, node: usize, made: usize| {
        move |error: BoxError| GameError {
            stage,
            node,
            forwarded: node != made,
            error,
        }
    };
    let permit = limit
        .acquire()
        .await
        .map_err(|e| fails("start", 0, 0)(e.into()))?;
    let mode = if invite { "invite" } else { "local" };
    let body = json!({"mode": mode, "color": "white", "time_control": "3600+0"}).to_string();
    let made = nodes.pick(&mut rand::thread_rng());
    let create = fails("create", made, made);
    let r = request(nodes.addrs[made], "POST", "/api/games", Some(&body), &[])
        .await
        .map_err(|e| create(e.into()))?;
    if r.status != 201 {
        return Err(create(format!("create: {} {}", r.status, r.body).into()));
    }
    let id = r.json()["id"]
        .as_str()
        .ok_or_else(|| create("no id".into()))?
        .to_owned();
    let mut cookies = vec![r.cookie().ok_or_else(|| create("no cookie".into()))?];
    if invite {
        let at = nodes.pick(&mut rand::thread_rng());
        let join = fails("join", at, made);
        let j = request(
            nodes.addrs[at],
            "POST",
            &format!("/api/games/{id}/join"),
            Some("{}"),
            &[],
        )
        .await
        .map_err(|e| join(e.into()))?;
        if j.status != 200 {
            return Err(join(format!("join: {} {}", j.status, j.body).into()));
        }
        cookies.push(j.cookie().ok_or_else(|| join("no cookie".into()))?);
    }
    let mut sockets = Vec::new();
    for c in &cookies {
        let at = nodes.pick(&mut rand::thread_rng());
        let connect = fails("connect", at, made);
        let mut s = Socket::connect(nodes.addrs[at], &id, Some(c))
            .await
            .map_err(|e| connect(e.into()))?;
        s.send(&json!({"type": "hello", "last_seq": 0}))
            .await
            .map_err(|e| connect(e.into()))?;
        sockets.push((s, at));
    }
    drop(permit);
    if let Some(r) = ready {
        r.fetch_add(1, Ordering::Relaxed);
    }
    // Each socket plays its own side (both in local mode).
    let mut handles = Vec::new();
    for (i, (s, at)) in sockets.into_iter().enumerate() {
        let side = if invite {
            Some(if i == 0 { "white" } else { "black" })
        } else {
            None
        };
        let rng = rand::rngs::StdRng::seed_from_u64(seed.wrapping_mul(31).wrapping_add(i as u64));
        let play = fails("play", at, made);
        handles.push(async move {
            play_side(s, side, think_ms, rng, stats, stop)
                .await
                .map_err(play)
        });
    }
    let results = futures_join(handles).await;
    results
        .into_iter()
        .collect::<Result<Vec<()>, GameError>>()?;
    Ok(())
}

async fn futures_join<F: std::future::Future>(fs: Vec<F>) -> Vec<F::Output> {
    let mut out = Vec::with_capacity(fs.len());
    // Two at most: run them concurrently.
    let mut it = fs.into_iter();
    match (it.next(), it.next()) {
        (Some(a), Some(b)) => {
            let (x, y) = tokio::join!(a, b);
            out.push(x);
            out.push(y);
        }
        (Some(a), None) => out.push(a.await),
        _ => {}
    }
    out
}

/// The parts of a server message the load test reads.
#[derive(serde::Deserialize)]
struct Msg {
    #[serde(rename = "type")]
    kind: String,
    event: Option<EventView>,
    live: Option<LiveView>,
    state: Option<LiveView>,
}

#[derive(serde::Deserialize)]
struct EventView {
    kind: String,
    #[serde(rename = "move")]
    mv: Option<PlyView>,
}

#[derive(serde::Deserialize)]
struct PlyView {
    ply: u64,
}

#[derive(serde::Deserialize)]
struct LiveView {
    status: String,
    turn: String,
    ply: u64,
    legal_moves: Vec<UciView>,
}

#[derive(serde::Deserialize)]
struct UciView {
    uci: String,
}

async fn play_side(
    mut ws: Socket,
    side: Option<&str>,
    think_ms: u64,
    mut rng: rand::rngs::StdRng,
    stats: &Stats,
    stop: &AtomicBool,
) -> Result<(), BoxError> {
    let mut live: Option<LiveView> = None;
    let mut pending: Option<(u64, Instant)> = None; // (ply expected, sent at)
    let mut next_at: Option<tokio::time::Instant> = None;
    let mut ping = tokio::time::interval(Duration::from_secs(3));
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        let sleep_until =
            next_at.unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            text = ws.recv_text(Duration::from_secs(60)) => {
                let text = text?;
                let received = Instant::now();
                let m: Msg = serde_json::from_str(&text)?;
                match m.kind.as_str() {
                    "state" => live = m.state,
                    "event" => {
                        if let (Some((ply, sent)), Some(ev)) = (pending, &m.event) {
                            if ev.kind == "move" && ev.mv.as_ref().map(|p| p.ply) == Some(ply) {
                                if stats.measuring.load(Ordering::Relaxed) {
                                    let us = received.duration_since(sent).as_micros().min(u128::from(u32::MAX)) as u32;
                                    if let Ok(mut v) = stats.latencies_us.lock() {
                                        v.push(us);
                                    }
                                    stats.acked.fetch_add(1, Ordering::Relaxed);
                                }
                                pending = None;
                            }
                        }
                        live = m.live;
                    }
                    // A refused move (e.g. raced with the end): try again on the next event.
                    "error" => pending = None,
                    _ => continue,
                }
                let Some(l) = &live else { continue };
                if l.status == "finished" {
                    return Ok(());
                }
                let my_turn = side.is_none_or(|s| l.turn == s);
                if my_turn && pending.is_none() && next_at.is_none() && l.status == "active" {
                    let wait = if think_ms == 0 { 0 } else { rng.gen_range(think_ms / 2..=think_ms * 3 / 2) };
                    next_at = Some(tokio::time::Instant::now() + Duration::from_millis(wait));
                }
            }
            _ = tokio::time::sleep_until(sleep_until) => {
                next_at = None;
                let Some(l) = &live else { continue };
                let Some(pick) = l.legal_moves.choose(&mut rng) else { continue };
                pending = Some((l.ply + 1, Instant::now()));
                ws.send_text(&format!(r#"{{"type":"move","uci":"{}"}}"#, pick.uci)).await?;
            }
            _ = ping.tick() => {
                ws.send_text(r#"{"type":"ping","lag_ms":0}"#).await?;
            }
        }
    }
}
