//! Issue 13, defect 4, on loopback with bounded loops: the time a search
//! waits for a shared engine is not charged to the engine's clock (the
//! game's clock is paused by it, Art. 6.11.1), and one client may have only
//! a bounded number of searches waiting (`engine_busy`, protocol §4.7).
//! The round-robin order across clients is tested in `engine.rs`.

mod common;

use common::{Player, TestServer, WAIT};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// An engine game at 1+0, the engine (full strength) Black.
async fn engine_game(s: &TestServer) -> Player {
    let (id, cookie, _) = s
        .create(
            json!({"mode": "engine", "engine": {"level": 7}, "color": "white",
                       "time_control": "60+0"}),
        )
        .await;
    s.player(&id, Some(&cookie)).await
}

/// One client's engine games, one more than the bound, a search asked in
/// each but the last: the client is at its bound of searches.
async fn at_the_bound(s: &TestServer) -> Vec<Player> {
    let bound = arbiter_server::engine::MAX_QUEUED_PER_CLIENT;
    let mut games = Vec::new();
    for _ in 0..=bound {
        games.push(engine_game(s).await);
    }
    for g in games.iter_mut().take(bound) {
        g.play("e2e4").await;
    }
    games
}

/// The engine's answer: its move event.
async fn engine_reply(p: &mut Player) -> Value {
    p.socket
        .recv_until(WAIT + WAIT, |m| {
            m["type"] == "event"
                && m["event"]["kind"] == "move"
                && m["event"]["move"]["color"] == "black"
        })
        .await
        .expect("the engine answers")
}

fn spent(e: &Value) -> u64 {
    e["event"]["move"]["spent_ms"]
        .as_u64()
        .unwrap_or_else(|| panic!("spent_ms in {e}"))
}

/// Two engine games, one engine: the second game's search waits for the
/// first's; the engine of the second game is charged only its own search.
#[tokio::test]
async fn the_wait_for_an_engine_is_not_charged_to_its_clock() {
    let s = TestServer::start().await;
    let mut a = engine_game(&s).await;
    let mut b = engine_game(&s).await;
    a.play("e2e4").await;
    b.play("e2e4").await;
    let asked = Instant::now();
    let ea = engine_reply(&mut a).await;
    let a_done = asked.elapsed();
    let eb = engine_reply(&mut b).await;
    let b_done = asked.elapsed();
    // The test means something only if b really waited.
    assert!(
        a_done > Duration::from_millis(200),
        "the first search took {a_done:?}: too short to measure a wait"
    );
    let spent_b = Duration::from_millis(spent(&eb));
    // Charged the queue, `spent_b` would be about `b_done`; charged only its
    // search, about `b_done - a_done`. Half the wait is the margin.
    assert!(
        spent_b + a_done / 2 <= b_done,
        "b's engine was charged {spent_b:?} of {b_done:?}, of which it waited about {a_done:?}; a: {}",
        spent(&ea)
    );
    // And its clock shows it.
    let black_ms = eb["live"]["clocks"]["black_ms"].as_u64().unwrap();
    assert_eq!(black_ms, 60_000 - spent(&eb), "{eb}");
    s.stop().await;
}

/// One client, many engine games at once: beyond the bound its moves are
/// refused with `engine_busy` (nothing recorded), and accepted again once
/// the engine has answered.
#[tokio::test]
async fn a_client_with_too_many_searches_is_refused() {
    let s = TestServer::start().await;
    let mut games = at_the_bound(&s).await;
    let last = games.last_mut().unwrap();
    last.send(json!({"type": "move", "uci": "e2e4"})).await;
    let refused = last.event().await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["code"], "engine_busy", "{refused}");
    // Once one of the client's searches is answered, it may move again.
    engine_reply(&mut games[0]).await;
    let last = games.last_mut().unwrap();
    last.play("e2e4").await;
    engine_reply(last).await;
    s.stop().await;
}

/// Issue 13: a page opened while the engine searches is told `thinking`
/// (after its catch-up, before `ready`), so it shows the engine's clock
/// running as the pages that were open when the search started do.
#[tokio::test]
async fn a_page_opened_mid_search_hears_that_the_engine_thinks() {
    let s = TestServer::start().await;
    // Full strength at 90+30: each search runs for well over a second.
    let (id, cookie, _) = s
        .create(
            json!({"mode": "engine", "engine": {"level": 7}, "color": "white",
                       "time_control": "5400+30"}),
        )
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    p.play("e2e4").await;
    p.socket
        .recv_until(WAIT, |m| m["type"] == "thinking")
        .await
        .expect("the engine's search starts");
    // A second page of the same seat, and a spectator, open mid-search.
    for c in [Some(cookie.as_str()), None] {
        let mut socket = arbiter_server::client::Socket::connect(s.addr, &id, c)
            .await
            .unwrap();
        socket
            .send(&json!({"type": "hello", "last_seq": 0}))
            .await
            .unwrap();
        let mut seen = Vec::new();
        socket
            .recv_until(WAIT, |m| {
                seen.push(m["type"].as_str().unwrap_or("").to_owned());
                m["type"] == "ready"
            })
            .await
            .unwrap();
        let thinking = seen.iter().position(|t| t == "thinking");
        assert!(
            thinking.is_some_and(|i| i + 1 == seen.len() - 1),
            "cookie {}: thinking right before ready, got {seen:?}",
            c.is_some()
        );
    }
    // The search's answer ends it: a page opened after the reply is not told.
    engine_reply(&mut p).await;
    let mut late = arbiter_server::client::Socket::connect(s.addr, &id, None)
        .await
        .unwrap();
    late.send(&json!({"type": "hello", "last_seq": 0}))
        .await
        .unwrap();
    let mut seen = Vec::new();
    late.recv_until(WAIT, |m| {
        seen.push(m["type"].as_str().unwrap_or("").to_owned());
        m["type"] == "ready"
    })
    .await
    .unwrap();
    assert!(!seen.iter().any(|t| t == "thinking"), "{seen:?}");
    s.stop().await;
}

/// Protocol §3.1: "A client may have at most 4 searches waiting or
/// running". Moves sent at once in more engine games than that are
/// checked and counted one by one: at most the bound are accepted, the
/// others refused with `engine_busy` (found by a tester: 10 moves sent at
/// once in 10 games were all accepted, the check and the count being
/// separate steps).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_sent_at_once_are_counted_one_by_one() {
    let s = TestServer::start().await;
    let bound = arbiter_server::engine::MAX_QUEUED_PER_CLIENT;
    let mut games = Vec::new();
    for _ in 0..bound + 6 {
        games.push(engine_game(&s).await);
    }
    for g in games.iter_mut() {
        g.send(json!({"type": "move", "uci": "e2e4"})).await;
    }
    let (mut accepted, mut refused) = (0, 0);
    for g in games.iter_mut() {
        let answer = g.event().await;
        match (answer["type"].as_str(), answer["code"].as_str()) {
            (Some("event"), _) => accepted += 1,
            (Some("error"), Some("engine_busy")) => refused += 1,
            _ => panic!("unexpected answer {answer}"),
        }
    }
    assert!(
        (1..=bound).contains(&accepted),
        "{accepted} moves accepted at once, {refused} refused (bound {bound})"
    );
    assert_eq!(accepted + refused, bound + 6);
    s.stop().await;
}

/// A socket to game `id` from the local address `from` (another client to
/// the server, which counts searches per address).
async fn socket_from(
    s: &TestServer,
    from: std::net::IpAddr,
    id: &str,
    cookie: &str,
) -> tokio_tungstenite::WebSocketStream<tokio::net::TcpStream> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let tcp = tokio::net::TcpSocket::new_v4().unwrap();
    tcp.bind((from, 0).into()).unwrap();
    let stream = tcp.connect(s.addr).await.unwrap();
    let mut req = format!("ws://{}/api/games/{id}/ws", s.addr)
        .into_client_request()
        .unwrap();
    req.headers_mut().insert("cookie", cookie.parse().unwrap());
    tokio_tungstenite::client_async(req, stream)
        .await
        .unwrap()
        .0
}

/// The bound is each client's own: a client with its 4 searches waiting or
/// running does not keep another client (another address) from playing
/// the engine (protocol §3.1).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_client_does_not_hold_up_another() {
    use futures_util::{SinkExt, StreamExt};
    let s = TestServer::start().await;
    let mut games = at_the_bound(&s).await;
    // This client is at its bound ...
    let last = games.last_mut().unwrap();
    last.send(json!({"type": "move", "uci": "e2e4"})).await;
    assert_eq!(last.event().await["code"], "engine_busy");
    // ... and another address plays on.
    let (id, cookie, _) = s
        .create(
            json!({"mode": "engine", "engine": {"level": 1}, "color": "white",
                       "time_control": "60+0"}),
        )
        .await;
    let mut other = socket_from(&s, "127.0.0.2".parse().unwrap(), &id, &cookie).await;
    let send =
        |v: serde_json::Value| tokio_tungstenite::tungstenite::Message::Text(v.to_string().into());
    other
        .send(send(json!({"type": "hello", "last_seq": 0})))
        .await
        .unwrap();
    other
        .send(send(json!({"type": "move", "uci": "e2e4", "id": 1})))
        .await
        .unwrap();
    let answer = tokio::time::timeout(WAIT, async {
        while let Some(Ok(m)) = other.next().await {
            let Ok(text) = m.to_text() else { continue };
            let v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
            if v["type"] == "error" || (v["type"] == "event" && v["event"]["kind"] == "move") {
                return v;
            }
        }
        panic!("the socket closed");
    })
    .await
    .expect("an answer to the move");
    assert_eq!(answer["type"], "event", "{answer}");
    assert_eq!(answer["event"]["move"]["color"], "white", "{answer}");
    s.stop().await;
}
