//! Events survive `kill -9` (issue 15): the real server binary is killed
//! in the middle of a round and again just after a round's last result;
//! started again on the same database, nothing committed is lost and each
//! round is paired exactly once (its row keyed by (event, round)). On
//! SQLite and, with `ARBITER_TEST_POSTGRES`, on a scratch PostgreSQL
//! database.

mod pg_scratch;

mod common;

use arbiter_server::client::{request, Socket};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn start(dir: &std::path::Path, database: Option<&str>) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter-server"))
        .args(["--listen", "127.0.0.1:0", "--create-per-minute", "0"])
        .args(["--account-per-minute", "0", "--data-dir"])
        .arg(dir)
        .args(database.map(|d| format!("--database={d}")))
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("start arbiter-server");
    let (addr, lines) = common::served_addr(&mut child);
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

async fn post(
    addr: SocketAddr,
    path: &str,
    body: Value,
    cookie: Option<&str>,
) -> (u16, Value, Option<String>) {
    let headers: Vec<(&str, &str)> = cookie.map(|c| ("Cookie", c)).into_iter().collect();
    let r = request(addr, "POST", path, Some(&body.to_string()), &headers)
        .await
        .unwrap();
    (r.status, r.json(), r.cookie())
}

async fn show(addr: SocketAddr, id: &str) -> Value {
    request(addr, "GET", &format!("/api/events/{id}"), None, &[])
        .await
        .unwrap()
        .json()
}

async fn until(addr: SocketAddr, id: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let v = show(addr, id).await;
        if pred(&v) {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "waited for {what}: {v:#}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn resign(addr: SocketAddr, game: &str, cookie: &str) {
    let mut ws = Socket::connect(addr, game, Some(cookie)).await.unwrap();
    let wait = Duration::from_secs(10);
    ws.send(&json!({"type": "hello", "last_seq": 0}))
        .await
        .unwrap();
    ws.recv_until(wait, |m| m["type"] == "ready").await.unwrap();
    ws.send(&json!({"type": "resign", "id": 1})).await.unwrap();
    ws.recv_until(wait, |m| {
        m["type"] == "event" && m["event"]["kind"] == "end"
    })
    .await
    .unwrap();
}

/// The rounds, boards and results of an event, for comparison.
fn summary(v: &Value) -> Vec<(u64, u64, String, String)> {
    let mut out = Vec::new();
    for r in v["rounds"].as_array().unwrap() {
        for g in r["games"].as_array().unwrap() {
            out.push((
                r["round"].as_u64().unwrap(),
                g["board"].as_u64().unwrap(),
                g["game_id"].as_str().unwrap_or("").to_owned(),
                g["result"].as_str().unwrap_or("").to_owned(),
            ));
        }
    }
    out
}

async fn crash(database: Option<&str>) {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, addr) = start(dir.path(), database);
    let (_, _, org) = post(
        addr,
        "/api/account/signup",
        json!({"name": "Organiser", "password": "correct horse"}),
        None,
    )
    .await;
    let org = org.expect("session");
    let (status, created, _) = post(addr, "/api/events",
        json!({"name": "Crash", "system": "swiss", "rounds": 3, "initial_s": 300, "default_time_s": 600,
               "start_at": 4_102_444_800_000u64}), Some(&org)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let mut players = Vec::new();
    for name in ["Alpha", "Bravo", "Charlie", "Delta"] {
        let (_, _, c) = post(
            addr,
            "/api/account/signup",
            json!({"name": name, "password": "correct horse"}),
            None,
        )
        .await;
        let c = c.unwrap();
        let (s, b, _) = post(
            addr,
            &format!("/api/events/{id}/register"),
            json!({}),
            Some(&c),
        )
        .await;
        assert_eq!(s, 200, "{b}");
        players.push((name.to_owned(), c));
    }
    let (s, b, _) = post(
        addr,
        &format!("/api/events/{id}/start"),
        json!({}),
        Some(&org),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    let v = show(addr, &id).await;
    let cookie = |v: &Value, no: &Value| {
        let name = v["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["no"] == *no)
            .unwrap()["name"]
            .clone();
        players.iter().find(|(n, _)| *n == name).unwrap().1.clone()
    };
    // Board 1 ends; board 2 is still being played when the server dies.
    let b1 = &v["rounds"][0]["games"][0];
    resign(
        addr,
        b1["game_id"].as_str().unwrap(),
        &cookie(&v, &b1["white"]),
    )
    .await;
    let before = until(addr, &id, "board 1's result", |v| {
        v["rounds"][0]["games"][0]["result"] == "0-1"
    })
    .await;
    child.kill().expect("SIGKILL");
    let _ = child.wait();

    let (mut child, addr) = start(dir.path(), database);
    let after = show(addr, &id).await;
    assert_eq!(summary(&after), summary(&before), "the round as it stood");
    assert_eq!(after["current_round"], 1);
    // Board 2 ends after the restart: round 2 is paired, once.
    let b2 = &after["rounds"][0]["games"][1];
    resign(
        addr,
        b2["game_id"].as_str().unwrap(),
        &cookie(&after, &b2["black"]),
    )
    .await;
    let v = until(addr, &id, "round 2", |v| v["current_round"] == 2).await;
    assert_eq!(v["rounds"][0]["games"][1]["result"], "1-0");
    // Round 2's last result, and the server dies at once: between two
    // rounds (whether or not round 3 was paired before the kill).
    let games = v["rounds"][1]["games"].as_array().unwrap().clone();
    for g in &games {
        let (s, b, _) = post(
            addr,
            &format!("/api/events/{id}/result"),
            json!({"round": 2, "board": g["board"], "result": "1/2-1/2"}),
            Some(&org),
        )
        .await;
        assert_eq!(s, 200, "{b}");
    }
    child.kill().expect("SIGKILL");
    let _ = child.wait();

    let (mut child, addr) = start(dir.path(), database);
    let v = until(addr, &id, "round 3", |v| v["current_round"] == 3).await;
    // Give the scheduler a few more ticks: still three rounds, two boards
    // each, the results of rounds 1 and 2 as committed.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let v2 = show(addr, &id).await;
    assert_eq!(summary(&v2)[..4], summary(&v)[..4]);
    assert_eq!(v2["rounds"].as_array().unwrap().len(), 3);
    let s = summary(&v2);
    assert_eq!(s.len(), 6, "{s:?}");
    assert!(s[..4].iter().all(|(_, _, _, r)| !r.is_empty()));
    assert_eq!((s[2].3.as_str(), s[3].3.as_str()), ("1/2-1/2", "1/2-1/2"));
    let mut ids: Vec<&String> = s.iter().map(|x| &x.2).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 6, "every board its own game");
    child.kill().expect("SIGKILL");
    let _ = child.wait();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_round_and_between_rounds_pairs_each_round_once() {
    crash(None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_round_and_between_rounds_pairs_each_round_once_on_postgres() {
    let Some(db) = pg_scratch::Scratch::new(
        "kill_9_mid_round_and_between_rounds_pairs_each_round_once_on_postgres",
    ) else {
        return;
    };
    crash(Some(&db.url)).await;
}
