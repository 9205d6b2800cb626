//! The views a cluster shares (issue 18), with real `arbiter-server`
//! processes on one PostgreSQL database and one NATS bus:
//! - **the lobby on a node that joins late**: seeks listed before a node
//!   started are shown there at once (its snapshot on joining), a seek
//!   withdrawn before it is not, and those listed afterwards follow (the
//!   stream);
//! - **a client reconnects to another node**, as the web app does when its
//!   socket drops (its seat cookie, `hello` with the last `seq` it saw):
//!   it catches up with the move it missed and plays on;
//! - **the game list's "online" flags**: a player connected to one node
//!   shows online in the list of every node (the owner's presence reports),
//!   offline once he leaves, and offline when the game's owner dies (its
//!   reports are forgotten; the game is not taken over yet).
//!
//! Runs only when `ARBITER_TEST_POSTGRES` and `ARBITER_TEST_NATS` are set.

mod pg_scratch;

mod common;

mod cluster_node;

use arbiter_server::client::{request, Socket};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Long enough that the owner's death is not followed by a takeover while
/// the list is checked.
const LEASE_MS: u64 = 10_000;
const WAIT: Duration = Duration::from_secs(10);

/// Creates an invitation game on `at` for the client `xff` (a seek when
/// `lobby`): its id and the creator's cookie.
async fn create(at: SocketAddr, xff: &str, lobby: bool) -> (String, String) {
    let body = json!({"mode": "invite", "color": "white", "time_control": "600+0", "lobby": lobby});
    let r = request(
        at,
        "POST",
        "/api/games",
        Some(&body.to_string()),
        &[("X-Forwarded-For", xff)],
    )
    .await
    .unwrap();
    assert_eq!(r.status, 201, "create at {at}: {}", r.body);
    (
        r.json()["id"].as_str().unwrap().to_owned(),
        r.cookie().unwrap(),
    )
}

/// The games of `at`'s lobby.
async fn lobby(at: SocketAddr) -> Vec<String> {
    let r = request(at, "GET", "/api/lobby", None, &[]).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let mut games: Vec<String> = r.json()["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["game"].as_str().unwrap().to_owned())
        .collect();
    games.sort();
    games
}

/// Game `id`'s (White online, Black online) in `at`'s game list.
async fn online(at: SocketAddr, id: &str) -> Option<(bool, bool)> {
    let r = request(at, "GET", "/api/games?status=live&limit=200", None, &[])
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let g = v["games"]
        .as_array()?
        .iter()
        .find(|g| g["id"] == id)?
        .clone();
    let on = |side: &str| g["players"][side]["online"].as_bool().unwrap_or(false);
    Some((on("white"), on("black")))
}

/// Polls `check` until it is true or `within` passed; `false` then.
async fn soon<F: std::future::Future<Output = bool>>(
    within: Duration,
    mut check: impl FnMut() -> F,
) -> bool {
    let until = Instant::now() + within;
    loop {
        if check().await {
            return true;
        }
        if Instant::now() > until {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A player as the web app is (`web/src/socket.ts`): its seat cookie, a
/// socket opened with `hello` and the last `seq` it saw; what it saw.
struct WebPlayer {
    id: String,
    cookie: String,
    last_seq: u64,
    live: Value,
    socket: Option<Socket>,
}

impl WebPlayer {
    fn new(id: &str, cookie: &str) -> WebPlayer {
        WebPlayer {
            id: id.to_owned(),
            cookie: cookie.to_owned(),
            last_seq: 0,
            live: Value::Null,
            socket: None,
        }
    }

    /// Opens the socket on `at` and reads until `ready` (the catch-up).
    async fn connect(&mut self, at: SocketAddr) -> Vec<Value> {
        let mut s = Socket::connect(at, &self.id, Some(&self.cookie))
            .await
            .unwrap();
        s.send(&json!({"type": "hello", "last_seq": self.last_seq}))
            .await
            .unwrap();
        self.socket = Some(s);
        let mut events = Vec::new();
        loop {
            let m = self.next().await;
            match m["type"].as_str() {
                Some("ready") => return events,
                Some("event") => events.push(m["event"].clone()),
                _ => {}
            }
        }
    }

    async fn next(&mut self) -> Value {
        let m = self.socket.as_mut().unwrap().recv(WAIT).await.unwrap();
        match m["type"].as_str() {
            Some("state") => {
                self.last_seq = m["state"]["seq"].as_u64().unwrap();
                self.live = m["state"].clone();
            }
            Some("event") => {
                self.last_seq = self.last_seq.max(m["seq"].as_u64().unwrap());
                if !m["live"].is_null() {
                    self.live = m["live"].clone();
                }
            }
            _ => {}
        }
        m
    }

    /// Waits for the move event of ply `ply` (1 = White's first).
    async fn saw_move(&mut self, ply: u64) -> Value {
        loop {
            let m = self.next().await;
            if m["type"] == "event" && m["event"]["kind"] == "move" && m["live"]["ply"] == ply {
                return m;
            }
        }
    }

    async fn play(&mut self, uci: &str) {
        let s = self.socket.as_mut().unwrap();
        s.send(&json!({"type": "move", "uci": uci})).await.unwrap();
    }

    async fn drop_socket(&mut self) {
        if let Some(s) = self.socket.take() {
            s.close().await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_node_sees_the_lobby_presence_crosses_nodes_and_a_client_moves_between_them() {
    let Some(scratch) = pg_scratch::Scratch::new("cluster_views") else {
        return;
    };
    let Some(bus) = cluster_node::nats("cluster_views").await else {
        return;
    };
    let prefix = format!("views_{}_{}", std::process::id(), rand::random::<u32>());
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let start = |i: usize| {
        let (url, path, p) = (
            scratch.url.clone(),
            dirs[i].path().to_owned(),
            prefix.clone(),
        );
        tokio::task::spawn_blocking(move || {
            // The seeks come from several (forwarded) client addresses.
            let extra = ["--trusted-proxy", "127.0.0.1"];
            cluster_node::start(&format!("n{i}"), &path, &url, bus, &p, LEASE_MS, &extra)
        })
    };
    let (mut n0, a0) = start(0).await.unwrap();
    let (mut n1, a1) = start(1).await.unwrap();
    // Until a node has heard another on the bus (every 0.5 s), it drops the
    // sockets it forwards there (the client would reconnect).
    tokio::time::sleep(Duration::from_millis(1_500)).await;

    // Seeks before n2 starts: one opened by its creator on n0, one never
    // opened (on n1), one withdrawn (its creator came and left).
    let (s1, c1) = create(a0, "198.51.100.1", true).await;
    let mut creator1 = WebPlayer::new(&s1, &c1);
    creator1.connect(a0).await;
    let (s2, _) = create(a1, "198.51.100.2", true).await;
    let (s3, c3) = create(a0, "198.51.100.3", true).await;
    let mut creator3 = WebPlayer::new(&s3, &c3);
    creator3.connect(a1).await;
    let mut both = vec![s1.clone(), s2.clone()];
    both.sort();
    let mut three = vec![s1.clone(), s2.clone(), s3.clone()];
    three.sort();
    assert!(
        soon(WAIT, || async { lobby(a1).await == three }).await,
        "n1's lobby (the stream): {:?}",
        lobby(a1).await
    );
    creator3.drop_socket().await;
    assert!(
        soon(WAIT, || async {
            lobby(a0).await == both && lobby(a1).await == both
        })
        .await,
        "a seek withdrawn: {:?} {:?}",
        lobby(a0).await,
        lobby(a1).await
    );

    // n2 joins late: the open seeks at once, not the withdrawn one.
    let (mut n2, a2) = start(2).await.unwrap();
    let joined = Instant::now();
    assert!(
        soon(Duration::from_secs(3), || async { lobby(a2).await == both }).await,
        "the late node's lobby: {:?}",
        lobby(a2).await
    );
    eprintln!(
        "cluster_views: the late node showed the 2 open seeks {} ms after it served",
        joined.elapsed().as_millis()
    );
    // …and then the stream: a seek listed later, one taken.
    let (s4, _) = create(a1, "198.51.100.4", true).await;
    let mut after = vec![s1.clone(), s2.clone(), s4.clone()];
    after.sort();
    assert!(
        soon(WAIT, || async { lobby(a2).await == after }).await,
        "the late node follows the stream: {:?}",
        lobby(a2).await
    );
    let r = request(
        a2,
        "POST",
        &format!("/api/games/{s1}/join"),
        Some("{}"),
        &[("X-Forwarded-For", "198.51.100.9")],
    )
    .await
    .unwrap();
    assert_eq!(r.status, 200, "join at the late node: {}", r.body);
    let mut left = vec![s2.clone(), s4.clone()];
    left.sort();
    assert!(
        soon(WAIT, || async {
            lobby(a0).await == left && lobby(a1).await == left && lobby(a2).await == left
        })
        .await,
        "a seek taken leaves every lobby: {:?} {:?} {:?}",
        lobby(a0).await,
        lobby(a1).await,
        lobby(a2).await
    );
    creator1.drop_socket().await;

    // A game owned by n0 (created there), joined on n1.
    let (g, white_cookie) = create(a0, "198.51.100.5", false).await;
    let r = request(
        a1,
        "POST",
        &format!("/api/games/{g}/join"),
        Some("{}"),
        &[("X-Forwarded-For", "198.51.100.6")],
    )
    .await
    .unwrap();
    assert_eq!(r.status, 200, "join: {}", r.body);
    let black_cookie = r.cookie().unwrap();
    let owner = scratch.query(&format!("SELECT node FROM leases WHERE game_id = '{g}'"));
    assert_eq!(owner, vec!["n0".to_string()], "the creating node owns it");
    let mut white = WebPlayer::new(&g, &white_cookie);
    let mut black = WebPlayer::new(&g, &black_cookie);
    // White on n1, Black on n2: both forwarded to n0.
    white.connect(a1).await;
    black.connect(a2).await;
    white.play("e2e4").await;
    white.saw_move(1).await;
    black.saw_move(1).await;
    // White's socket drops; Black moves meanwhile.
    white.drop_socket().await;
    black.play("e7e5").await;
    black.saw_move(2).await;
    // White reconnects to another node (n2) as the web app does: the move
    // it missed comes in the catch-up, and it plays on.
    let missed = white.connect(a2).await;
    let caught_up = missed
        .iter()
        .any(|e| e["kind"] == "move" && e["move"]["uci"] == "e7e5")
        || white.live["moves"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m["uci"] == "e7e5"));
    assert!(
        caught_up && white.live["ply"] == 2,
        "catch-up on the other node: {missed:?} / {}",
        white.live
    );
    white.play("g1f3").await;
    white.saw_move(3).await;
    black.saw_move(3).await;
    let r = request(a1, "GET", &format!("/api/games/{g}"), None, &[])
        .await
        .unwrap();
    let stored = r.json();
    let moves: Vec<&str> = stored["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["e2e4", "e7e5", "g1f3"], "stored: {}", r.body);

    // Presence: both players are on n2, the game on n0; n1 (neither) lists
    // them online, as n0 and n2 do.
    for at in [a0, a1, a2] {
        assert!(
            soon(WAIT, || async {
                online(at, &g).await == Some((true, true))
            })
            .await,
            "both online in {at}'s list: {:?}",
            online(at, &g).await
        );
    }
    black.drop_socket().await;
    assert!(
        soon(WAIT, || async {
            online(a1, &g).await == Some((true, false))
        })
        .await,
        "Black left: {:?}",
        online(a1, &g).await
    );
    // The owner dies: what it said is forgotten, before any takeover.
    n0.kill().unwrap();
    let _ = n0.wait();
    let killed = Instant::now();
    assert!(
        soon(WAIT, || async {
            online(a1, &g).await == Some((false, false))
        })
        .await,
        "the dead owner's players offline: {:?}",
        online(a1, &g).await
    );
    let offline_after = killed.elapsed();
    let lease = scratch.query(&format!(
        "SELECT node FROM leases WHERE game_id = '{g}' AND expires_at > {}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis()
    ));
    assert_eq!(
        lease,
        vec!["n0".to_string()],
        "offline because n0 is gone, not because the game moved"
    );
    eprintln!(
        "cluster_views: the dead owner's players offline {} ms after the kill",
        offline_after.as_millis()
    );
    for c in [&mut n1, &mut n2] {
        let _ = c.kill();
        let _ = c.wait();
    }
}

/// A node cut off from the bus misses the lobby's changes sent meanwhile:
/// back on the bus it asks the other nodes for the lobby again, as a node
/// that joins late does (a seek listed during the cut appears, one
/// withdrawn during it leaves), and tells them its own seeks again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_back_from_a_bus_cut_asks_for_the_lobby_again() {
    let Some(scratch) = pg_scratch::Scratch::new("cluster_views_cut") else {
        return;
    };
    let Some(bus) = cluster_node::nats("cluster_views_cut").await else {
        return;
    };
    let prefix = format!("cut_{}_{}", std::process::id(), rand::random::<u32>());
    let dirs: Vec<_> = (0..2).map(|_| tempfile::tempdir().unwrap()).collect();
    // n1 reaches the bus through a relay that can cut it off.
    let relay = cluster_node::relay(bus).await;
    let start = |i: usize, bus: SocketAddr| {
        let (url, path, p) = (
            scratch.url.clone(),
            dirs[i].path().to_owned(),
            prefix.clone(),
        );
        tokio::task::spawn_blocking(move || {
            let extra = ["--trusted-proxy", "127.0.0.1"];
            cluster_node::start(&format!("n{i}"), &path, &url, bus, &p, LEASE_MS, &extra)
        })
    };
    let (mut n0, a0) = start(0, bus).await.unwrap();
    let (mut n1, a1) = start(1, relay.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1_500)).await;

    // Before the cut: a seek on n0 whose creator is on its page, and one
    // on n1; both lobbies show both.
    let (gone, gone_cookie) = create(a0, "198.51.100.21", true).await;
    let mut creator = WebPlayer::new(&gone, &gone_cookie);
    creator.connect(a0).await;
    let (mine, mine_cookie) = create(a1, "198.51.100.22", true).await;
    let mut mine_creator = WebPlayer::new(&mine, &mine_cookie);
    mine_creator.connect(a1).await;
    let mut before = vec![gone.clone(), mine.clone()];
    before.sort();
    assert!(
        soon(WAIT, || async {
            lobby(a0).await == before && lobby(a1).await == before
        })
        .await,
        "before the cut: {:?} {:?}",
        lobby(a0).await,
        lobby(a1).await
    );

    // The cut: n1 hears nothing of n0's changes meanwhile.
    relay.cut.store(true, std::sync::atomic::Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(500)).await;
    creator.drop_socket().await;
    let (new, _) = create(a0, "198.51.100.23", true).await;
    // …and n1's own seek listed meanwhile.
    let (also, _) = create(a1, "198.51.100.24", true).await;
    let mut during = vec![new.clone(), mine.clone(), also.clone()];
    during.sort();
    assert!(
        soon(WAIT, || async { !lobby(a0).await.contains(&gone) }).await,
        "n0 during the cut: {:?}",
        lobby(a0).await
    );
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let mut stale = before.clone();
    stale.push(also.clone());
    stale.sort();
    assert_eq!(
        lobby(a1).await,
        stale,
        "cut off, n1 still shows the lobby from before the cut (and its own seek)"
    );

    // Back: n1 asks for the lobby again, and n0 hears of n1's seek again.
    relay.cut.store(false, std::sync::atomic::Ordering::SeqCst);
    let back = Instant::now();
    assert!(
        soon(WAIT, || async { lobby(a1).await == during }).await,
        "n1 back from the cut: {:?} (expected {during:?})",
        lobby(a1).await
    );
    eprintln!(
        "cluster_views: back from the cut, n1 showed the lobby {} ms after the bus came back",
        back.elapsed().as_millis()
    );
    assert!(
        soon(WAIT, || async { lobby(a0).await == during }).await,
        "n0 after n1 came back: {:?} (expected {during:?})",
        lobby(a0).await
    );
    for c in [&mut n0, &mut n1] {
        let _ = c.kill();
        let _ = c.wait();
    }
}

fn epoch_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// White's clock at epoch ms `at`, from a live state where it runs.
fn white_at(live: &Value, at: i64) -> i64 {
    let c = &live["clocks"];
    assert_eq!(c["running"], "white", "White's clock runs: {live}");
    c["white_ms"].as_i64().unwrap() - (at - c["server_time"].as_i64().unwrap())
}

/// A node started again under its name before its leases lapse (what the
/// documented unit's `Restart=always` does): the games its dead process
/// owned move on at once (a new generation, with no client asking), the
/// sockets other nodes forwarded to the dead process close (their clients
/// reconnect), and the time the game had no owner is charged to nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_started_again_under_its_name_gives_up_its_dead_process_s_games() {
    let Some(scratch) = pg_scratch::Scratch::new("cluster_views_restart") else {
        return;
    };
    let Some(bus) = cluster_node::nats("cluster_views_restart").await else {
        return;
    };
    let prefix = format!("restart_{}_{}", std::process::id(), rand::random::<u32>());
    let dirs: Vec<_> = (0..2).map(|_| tempfile::tempdir().unwrap()).collect();
    let start = |i: usize| {
        let (url, path, p) = (
            scratch.url.clone(),
            dirs[i].path().to_owned(),
            prefix.clone(),
        );
        tokio::task::spawn_blocking(move || {
            cluster_node::start(&format!("n{i}"), &path, &url, bus, &p, LEASE_MS, &[])
        })
    };
    let (mut n0, a0) = start(0).await.unwrap();
    let (mut n1, a1) = start(1).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1_500)).await;

    // A game owned by n0, both players on n1 (forwarded to n0).
    let (g, white_cookie) = create(a0, "198.51.100.31", false).await;
    let r = request(a1, "POST", &format!("/api/games/{g}/join"), Some("{}"), &[])
        .await
        .unwrap();
    assert_eq!(r.status, 200, "join: {}", r.body);
    let black_cookie = r.cookie().unwrap();
    let mut white = WebPlayer::new(&g, &white_cookie);
    let mut black = WebPlayer::new(&g, &black_cookie);
    white.connect(a1).await;
    black.connect(a1).await;
    white.play("e2e4").await;
    white.saw_move(1).await;
    black.saw_move(1).await;
    black.play("e7e5").await;
    let last = white.saw_move(2).await["live"].clone();
    black.saw_move(2).await;
    let generation = || {
        scratch.query(&format!(
            "SELECT node || ' ' || generation FROM leases WHERE game_id = '{g}'"
        ))
    };
    assert_eq!(generation(), vec!["n0 1".to_string()]);

    // n0 killed, and started again under its name a second later, well
    // before its leases (10 s) lapse.
    n0.kill().unwrap();
    let _ = n0.wait();
    let killed = epoch_ms();
    let white_at_kill = white_at(&last, killed);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let restarted = epoch_ms();
    let (mut n0, _) = start(0).await.unwrap();

    // The sockets n1 forwarded to the dead process close.
    for p in [&mut white, &mut black] {
        let s = p.socket.as_mut().unwrap();
        let end = loop {
            match s.recv(WAIT).await {
                Ok(_) => continue,
                Err(e) => break e,
            }
        };
        assert!(
            !matches!(end, arbiter_server::client::ClientError::Timeout(_)),
            "a socket forwarded to the dead process stays open"
        );
        p.socket = None;
    }
    // The game moves on with no client asking: a new generation.
    assert!(
        soon(WAIT, || async {
            generation()
                .first()
                .and_then(|l| l.split(' ').nth(1)?.parse::<u64>().ok())
                .is_some_and(|g| g >= 2)
        })
        .await,
        "nobody took the dead process's game over: {:?}",
        generation()
    );
    tokio::time::sleep(Duration::from_secs(2)).await;

    // White comes back (on n1; the whole state, with the clocks now): its
    // clock ran only since the game had an owner again, not while it had
    // none.
    white.last_seq = 0;
    white.connect(a1).await;
    assert_eq!(white.live["ply"], 2, "{}", white.live);
    let now = epoch_ms();
    let white_now = white_at(&white.live, now);
    let bound = white_at_kill - (now - restarted) - 300;
    assert!(
        white_now >= bound,
        "White charged for the time the game had no owner: {white_now} ms left, \
         {white_at_kill} ms at the kill {} ms ago, restarted {} ms ago",
        now - killed,
        now - restarted
    );
    white.play("g1f3").await;
    white.saw_move(3).await;
    eprintln!(
        "cluster_views: restarted under its name, the game moved to {:?}; White {white_at_kill} ms at the kill, {white_now} ms {} ms later",
        generation(),
        now - killed
    );
    for c in [&mut n0, &mut n1] {
        let _ = c.kill();
        let _ = c.wait();
    }
}

/// Game `id`'s (ply, updated_at) in `at`'s game list.
async fn listed(at: SocketAddr, id: &str) -> Option<(u64, u64)> {
    let r = request(at, "GET", "/api/games?status=live&limit=200", None, &[])
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let g = v["games"]
        .as_array()?
        .iter()
        .find(|g| g["id"] == id)?
        .clone();
    Some((g["ply"].as_u64()?, g["updated_at"].as_u64()?))
}

/// The game list's `ply` and `updated_at` are the same on every node: the
/// games row is not written at each move, so a node that does not own the
/// game lists what its owner reports on the bus (within a beat, 0.5 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_node_lists_a_game_s_ply_and_last_move_alike() {
    let Some(scratch) = pg_scratch::Scratch::new("cluster_views_list") else {
        return;
    };
    let Some(bus) = cluster_node::nats("cluster_views_list").await else {
        return;
    };
    let prefix = format!("list_{}_{}", std::process::id(), rand::random::<u32>());
    let dirs: Vec<_> = (0..2).map(|_| tempfile::tempdir().unwrap()).collect();
    let start = |i: usize| {
        let (url, path, p) = (
            scratch.url.clone(),
            dirs[i].path().to_owned(),
            prefix.clone(),
        );
        tokio::task::spawn_blocking(move || {
            cluster_node::start(&format!("n{i}"), &path, &url, bus, &p, LEASE_MS, &[])
        })
    };
    let (mut n0, a0) = start(0).await.unwrap();
    let (mut n1, a1) = start(1).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let (g, white_cookie) = create(a0, "198.51.100.41", false).await;
    let r = request(a0, "POST", &format!("/api/games/{g}/join"), Some("{}"), &[])
        .await
        .unwrap();
    assert_eq!(r.status, 200, "join: {}", r.body);
    let mut white = WebPlayer::new(&g, &white_cookie);
    let mut black = WebPlayer::new(&g, &r.cookie().unwrap());
    white.connect(a0).await;
    black.connect(a0).await;
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];
    for (i, uci) in moves.iter().enumerate() {
        let p = if i % 2 == 0 { &mut white } else { &mut black };
        p.play(uci).await;
        white.saw_move(i as u64 + 1).await;
        black.saw_move(i as u64 + 1).await;
    }
    let owner = listed(a0, &g).await.unwrap();
    assert_eq!(owner.0, 6, "the owner's list");
    let moved = Instant::now();
    assert!(
        soon(Duration::from_secs(2), || async {
            listed(a1, &g).await == Some(owner)
        })
        .await,
        "the other node lists {:?}, the owner {owner:?}",
        listed(a1, &g).await
    );
    eprintln!(
        "cluster_views: the other node's list agreed {} ms after the last move",
        moved.elapsed().as_millis()
    );
    for c in [&mut n0, &mut n1] {
        let _ = c.kill();
        let _ = c.wait();
    }
}

/// deployment.md: "Two running processes must never share a name". When
/// an operator starts one anyway (a double start, a supervisor restarting a
/// node still shutting down) on the live node's address, the second process
/// fails on its listening socket before it releases the name's leases: the
/// live node keeps its games (found by a tester: the second process
/// released them, the live node stopped them, and only then did it fail
/// with "address already in use").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_process_under_a_live_nodes_name_leaves_its_games_alone() {
    let Some(scratch) = pg_scratch::Scratch::new("cluster_views_twice") else {
        return;
    };
    let Some(bus) = cluster_node::nats("cluster_views_twice").await else {
        return;
    };
    let prefix = format!("twice_{}_{}", std::process::id(), rand::random::<u32>());
    let dirs: Vec<_> = (0..2).map(|_| tempfile::tempdir().unwrap()).collect();
    let (url, path, p) = (
        scratch.url.clone(),
        dirs[0].path().to_owned(),
        prefix.clone(),
    );
    let (n0, a0) = tokio::task::spawn_blocking(move || {
        cluster_node::start("n0", &path, &url, bus, &p, LEASE_MS, &[])
    })
    .await
    .unwrap();
    // Stopped however the test ends (a failed assertion too).
    struct Node(std::process::Child);
    impl Drop for Node {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _n0 = Node(n0);
    let (g, _) = create(a0, "198.51.100.41", false).await;
    let held = || {
        scratch.query(&format!(
            "SELECT node || ' ' || (expires_at > 0)::text FROM leases WHERE game_id = '{g}'"
        ))
    };
    assert_eq!(held(), ["n0 true"]);

    // The same name, on the address n0 serves.
    let mut second = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter-server"));
    second
        .args(["--listen", &a0.to_string(), "--node-id=n0"])
        .arg(format!("--database={}", scratch.url))
        .arg(format!("--bus=nats://{bus}"))
        .arg(format!("--bus-prefix={prefix}"))
        .arg(format!("--lease-ms={LEASE_MS}"))
        .arg("--data-dir")
        .arg(dirs[1].path())
        .env("RUST_LOG", "warn")
        .env("NO_COLOR", "1");
    let out = tokio::time::timeout(
        Duration::from_secs(60),
        tokio::task::spawn_blocking(move || second.output().unwrap()),
    )
    .await
    .expect("the second process ends by itself")
    .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("cannot listen"), "{stderr}");
    assert!(!stderr.contains("released"), "{stderr}");
    // n0's lease is untouched, and n0 still runs the game.
    assert_eq!(held(), ["n0 true"]);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let r = request(a0, "GET", &format!("/api/games/{g}"), None, &[])
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(held(), ["n0 true"]);
    let log = std::fs::read_to_string(dirs[0].path().join("node.log")).unwrap_or_default();
    assert!(!log.contains("taken over"), "{log}");
}
