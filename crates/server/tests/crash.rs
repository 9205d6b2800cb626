//! The crash test: several games are played against the real server
//! binary, the process is killed with SIGKILL in the middle of them, the
//! server is started again on the same data directory, and every game
//! resumes with every acknowledged move and correct clocks: the time the
//! server was down is charged to nobody (the resume rule of `lib.rs`:
//! clocks continue from their reading at the last heartbeat, written every
//! second, or the last event if later). The same test runs on SQLite and,
//! when `ARBITER_TEST_POSTGRES` names a server, on PostgreSQL.

mod pg_scratch;

mod common;

use arbiter_server::client::{request, Socket};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const GAMES: usize = 6;
const DOWNTIME: Duration = Duration::from_secs(3);

fn start(dir: &std::path::Path, database: Option<&str>) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter-server"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--create-per-minute",
            "0",
            "--data-dir",
        ])
        .arg(dir)
        .args(database.map(|d| format!("--database={d}")))
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("start arbiter-server");
    let (addr, lines) = common::served_addr(&mut child);
    // Keep draining stderr so the server never blocks on it.
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

/// What a client saw acknowledged in one game.
#[derive(Default, Clone, Debug)]
struct Seen {
    moves: Vec<Value>,
    last_clocks: Option<(Value, Instant)>,
}

async fn play(addr: SocketAddr, id: String, cookie: String, seed: usize, seen: Arc<Mutex<Seen>>) {
    let Ok(mut ws) = Socket::connect(addr, &id, Some(&cookie)).await else {
        return;
    };
    if ws
        .send(&json!({"type": "hello", "last_seq": 0}))
        .await
        .is_err()
    {
        return;
    }
    let mut live: Option<Value> = None;
    let mut ply = 0usize;
    loop {
        let Ok(m) = ws.recv(Duration::from_secs(5)).await else {
            return;
        };
        match m["type"].as_str() {
            Some("state") => live = Some(m["state"].clone()),
            Some("event") => {
                if m["event"]["kind"] == "move" {
                    let mut s = seen.lock().unwrap();
                    s.moves.push(m["event"]["move"].clone());
                    s.last_clocks = Some((m["live"]["clocks"].clone(), Instant::now()));
                }
                live = Some(m["live"].clone());
            }
            Some("ready") => {}
            _ => continue,
        }
        let Some(l) = &live else { continue };
        let legal = l["legal_moves"].as_array().cloned().unwrap_or_default();
        if l["status"] != "active" || legal.is_empty() {
            return;
        }
        if m["type"] == "event" || m["type"] == "ready" {
            ply += 1;
            let pick = &legal[(seed * 7919 + ply * 104_729) % legal.len()];
            tokio::time::sleep(Duration::from_millis(40)).await;
            if ws
                .send(&json!({"type": "move", "uci": pick["uci"]}))
                .await
                .is_err()
            {
                return;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_in_the_middle_of_games_loses_nothing() {
    kill_9(None, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_in_the_middle_of_games_loses_nothing_on_postgres() {
    let Some(db) =
        pg_scratch::Scratch::new("kill_9_in_the_middle_of_games_loses_nothing_on_postgres")
    else {
        return;
    };
    kill_9(Some(&db.url), false).await;
}

/// Two nodes on one PostgreSQL database: the second waits as a standby
/// and takes every game over, from the log, when the first is killed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_the_active_node_and_its_standby_takes_over() {
    let Some(db) = pg_scratch::Scratch::new("kill_9_the_active_node_and_its_standby_takes_over")
    else {
        return;
    };
    kill_9(Some(&db.url), true).await;
}

async fn kill_9(database: Option<&str>, standby: bool) {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, addr) = start(dir.path(), database);
    // The standby starts now and prints its address only once it is active.
    let standby_dir = tempfile::tempdir().unwrap();
    let standby = standby.then(|| {
        let (path, db) = (standby_dir.path().to_owned(), database.map(str::to_owned));
        std::thread::spawn(move || start(&path, db.as_deref()))
    });
    let mut games = Vec::new();
    for i in 0..GAMES {
        let body = json!({"mode": "local", "time_control": if i % 2 == 0 { "600+0" } else { "40/900+5:300+5" }});
        let r = request(addr, "POST", "/api/games", Some(&body.to_string()), &[])
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{}", r.body);
        let id = r.json()["id"].as_str().unwrap().to_owned();
        games.push((
            id,
            r.cookie().unwrap(),
            Arc::new(Mutex::new(Seen::default())),
        ));
    }
    let mut tasks = Vec::new();
    for (i, (id, cookie, seen)) in games.iter().enumerate() {
        tasks.push(tokio::spawn(play(
            addr,
            id.clone(),
            cookie.clone(),
            i + 1,
            seen.clone(),
        )));
    }
    // Let the games run, then kill the server in the middle of them.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    child.kill().expect("SIGKILL");
    let killed_at = Instant::now();
    let _ = child.wait();
    for t in tasks {
        let _ = t.await;
    }
    let (mut child, addr) = match standby {
        Some(t) => tokio::task::spawn_blocking(move || t.join().unwrap())
            .await
            .unwrap(),
        None => {
            tokio::time::sleep(DOWNTIME.saturating_sub(killed_at.elapsed())).await;
            start(dir.path(), database)
        }
    };
    let restarted_at = Instant::now();
    let mut total = 0;
    let mut active = 0;
    for (id, cookie, seen) in &games {
        let seen = seen.lock().unwrap().clone();
        assert!(
            !seen.moves.is_empty(),
            "game {id} made no move before the kill"
        );
        total += seen.moves.len();
        let r = request(
            addr,
            "GET",
            &format!("/api/games/{id}"),
            None,
            &[("Cookie", cookie)],
        )
        .await
        .unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        let state = r.json();
        let moves = state["moves"].as_array().unwrap();
        // Every acknowledged move is there, in order, with its clock.
        assert!(
            moves.len() >= seen.moves.len(),
            "game {id}: {} moves stored, {} acknowledged",
            moves.len(),
            seen.moves.len()
        );
        assert_eq!(&moves[..seen.moves.len()], &seen.moves[..], "game {id}");
        if state["status"] == "finished" {
            // Random play may end a game (mate, dead position…) before the kill.
            continue;
        }
        assert_eq!(state["status"], "active");
        active += 1;
        // The running clock: its reading at the kill (from the last
        // acknowledged event) minus at most the time since the restart,
        // plus at most one heartbeat interval; the downtime is not charged.
        if moves.len() == seen.moves.len() {
            let (clocks, at) = seen.last_clocks.clone().unwrap();
            let running = clocks["running"].as_str().unwrap().to_owned();
            let key = format!("{running}_ms");
            let at_kill = clocks[&key].as_u64().unwrap() as i64
                - killed_at.duration_since(at).as_millis() as i64;
            let now = state["clocks"][&key].as_u64().unwrap() as i64;
            let since_restart = restarted_at.elapsed().as_millis() as i64;
            assert!(
                now >= at_kill - since_restart - 300,
                "game {id}: {now} ms left, {at_kill} at the kill: downtime charged?"
            );
            assert!(
                now <= at_kill + 1_300,
                "game {id}: {now} ms left, {at_kill} at the kill: time given back?"
            );
        }
        // And the game goes on.
        let mut ws = Socket::connect(addr, id, Some(cookie)).await.unwrap();
        ws.send(&json!({"type": "hello", "last_seq": state["seq"]}))
            .await
            .unwrap();
        ws.recv_until(Duration::from_secs(5), |m| m["type"] == "ready")
            .await
            .unwrap();
        let uci = state["legal_moves"][0]["uci"].clone();
        ws.send(&json!({"type": "move", "uci": uci})).await.unwrap();
        let e = ws
            .recv_until(Duration::from_secs(5), |m| {
                m["type"] == "event" || m["type"] == "error"
            })
            .await
            .unwrap();
        assert_eq!(e["event"]["kind"], "move", "{e}");
        assert_eq!(
            e["seq"].as_u64().unwrap(),
            state["seq"].as_u64().unwrap() + 1
        );
    }
    assert!(active >= GAMES / 2, "only {active} games still active");
    assert!(
        total >= GAMES * 3,
        "only {total} moves were played before the kill"
    );
    child.kill().unwrap();
    let _ = child.wait();
}

/// A second crash while the restarted server is still resuming its games
/// (before its first heartbeat, which waits for every game to be resumed):
/// a game resumed by then has its shifted clock origin stored, and the next
/// start must not apply the same old heartbeat to it again (that gave back
/// the time thought before the first crash, up to the first downtime).
/// Deterministic: the second run is bound (its games pending) and one game
/// is resumed, as a visit does, then the run ends without ever serving, so
/// it writes no heartbeat.
#[tokio::test]
async fn a_crash_while_games_are_resumed_gives_no_time_back() {
    use arbiter_server::{Config, Server};
    let config = |dir: &std::path::Path| Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.to_owned(),
        create_per_minute: 0,
        engine_threads: 1,
        heartbeat: Duration::from_millis(200),
        ..Config::default()
    };
    let s = common::TestServer::start().await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "600+0"}))
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    p.play("e2e4").await;
    p.socket.close().await;
    // Black thinks, then the server stops (its last heartbeat).
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let dir = s.stop().await;
    // The first downtime; then a run that resumes the game and dies.
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let (heartbeat, origin) = {
        let server = Server::bind(config(dir.path())).await.unwrap();
        let app = server.app();
        let heartbeat = app.store.last_heartbeat().await.unwrap().unwrap();
        let row = app.store.load_game(id.clone()).await.unwrap().unwrap().row;
        app.registry.get(&id).await.unwrap().expect("resumed");
        app.registry.stop(&id).await;
        (heartbeat, row.clock_origin.unwrap())
    };
    // Black's reading when the server stopped: what it must resume from.
    let at_stop = heartbeat - origin;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let server = Server::bind(config(dir.path())).await.unwrap();
    let app = server.app();
    let before = app.clock.now_ms();
    app.registry.get(&id).await.unwrap().expect("resumed");
    let after = app.clock.now_ms();
    let row = app.store.load_game(id.clone()).await.unwrap().unwrap().row;
    let resumed = row.clock_origin.unwrap();
    // The game time it resumed from, between `before` and `after`.
    let (least, most) = (before - resumed, after - resumed);
    assert!(
        least <= at_stop + 5 && at_stop <= most + 5,
        "resumed at game time {least}..{most} ms, {at_stop} ms at the stop: \
         {} ms given back",
        at_stop as i64 - most as i64
    );
    app.registry.stop(&id).await;
}
