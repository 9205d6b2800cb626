//! Issue 13's server defects, each reproduced on loopback with bounded
//! loops: a connection the game drops is closed (not left open and dead),
//! and a catch-up always fits the connection's queue.

mod common;

use arbiter_server::client::Socket;
use common::{TestServer, WAIT};
use serde_json::json;
use std::time::Duration;

/// Makes `pairs` draw offers and declines in the local game `id` (two
/// events each), each connection sending fewer messages than its rate
/// limit's burst and reading everything it is sent.
async fn offers_and_declines(s: &TestServer, id: &str, cookie: &str, pairs: usize) {
    let mut done = 0;
    while done < pairs {
        let mut p = s.player(id, Some(cookie)).await;
        for _ in 0..17.min(pairs - done) {
            p.send(json!({"type": "offer_draw", "color": "white"}))
                .await;
            p.event_of("draw_offer").await;
            p.send(json!({"type": "decline_draw", "color": "black"}))
                .await;
            p.event_of("draw_declined").await;
            done += 1;
        }
        p.socket.close().await;
    }
}

/// Defect 2, first form: a `hello` 290 events back used to queue more than
/// the connection's queue holds; the game dropped the connection without
/// the socket knowing, and the move that followed went unanswered.
#[tokio::test]
async fn a_catch_up_from_far_back_fits_the_queue() {
    let s = TestServer::start().await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "600+0"}))
        .await;
    offers_and_declines(&s, &id, &cookie, 170).await;
    let mut socket = Socket::connect(s.addr, &id, Some(&cookie)).await.unwrap();
    socket
        .send(&json!({"type": "hello", "last_seq": 50}))
        .await
        .unwrap();
    let ready = socket
        .recv_until(WAIT, |m| m["type"] == "ready")
        .await
        .unwrap();
    assert_eq!(ready["seq"], 340);
    socket
        .send(&json!({"type": "move", "uci": "e2e4", "id": 1}))
        .await
        .unwrap();
    let answer = socket
        .recv_until(WAIT, |m| m["type"] == "event" || m["type"] == "error")
        .await
        .expect("the move is answered");
    assert_eq!(answer["event"]["kind"], "move", "{answer}");
    assert_eq!(answer["seq"], 341);
    s.stop().await;
}

/// Defect 2, second form: a client that stops reading while 1,200 events
/// go by. Either it is sent every event, in order, or the server closes its
/// socket (so that it reconnects and catches up); never a silent gap on a
/// connection left open.
#[tokio::test]
async fn a_client_that_falls_behind_is_closed() {
    let s = TestServer::start().await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "600+0"}))
        .await;
    let mut stalled = s.player(&id, None).await;
    offers_and_declines(&s, &id, &cookie, 600).await;
    let mut last = 0u64;
    let closed = loop {
        match stalled.socket.recv(Duration::from_secs(5)).await {
            Ok(m) if m["type"] == "event" => {
                let seq = m["seq"].as_u64().unwrap();
                assert_eq!(seq, last + 1, "a gap on an open connection");
                last = seq;
                if last == 1200 {
                    break false;
                }
            }
            Ok(_) => {}
            Err(e) => {
                assert!(e.to_string().contains("closed"), "{e}");
                break true;
            }
        }
    };
    // Had it been dropped without being closed, the loop above would have
    // timed out after the last queued event.
    assert!(closed || last == 1200, "closed {closed}, last {last}");
    s.stop().await;
}

/// A server with short connection bounds, for defect 3.
async fn bounded_server(per_address: u32) -> TestServer {
    TestServer::start_with(tempfile::tempdir().unwrap(), |c| {
        c.connections = arbiter_server::listen::ConnectionLimits {
            header_timeout: Duration::from_millis(300),
            request_timeout: Duration::from_millis(500),
            per_address,
            ..Default::default()
        };
    })
    .await
}

/// Reads until the server closes the connection (or `limit` passes);
/// returns what it sent and whether it closed.
async fn read_to_close(tcp: &mut tokio::net::TcpStream, limit: Duration) -> (String, bool) {
    use tokio::io::AsyncReadExt;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(deadline, tcp.read(&mut buf)).await {
            Err(_) => return (String::from_utf8_lossy(&got).into_owned(), false),
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&got).into_owned(), true),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// Defect 3: connections that send nothing, or headers never finished, or a
/// body announced and never sent, are closed within the configured bounds
/// (they used to stay open for minutes). A kept-alive connection idle after
/// its answer is closed too.
#[tokio::test]
async fn half_open_connections_are_closed() {
    use tokio::io::AsyncWriteExt;
    let s = bounded_server(0).await;
    let mut silent = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let mut partial = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    partial
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    let mut bodyless = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    bodyless
        .write_all(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{",
        )
        .await
        .unwrap();
    let mut kept = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let bound = Duration::from_secs(3);
    let (_, closed) = read_to_close(&mut silent, bound).await;
    assert!(closed, "a connection that sends nothing stays open");
    let (_, closed) = read_to_close(&mut partial, bound).await;
    assert!(closed, "a connection with unfinished headers stays open");
    let (answer, closed) = read_to_close(&mut bodyless, bound).await;
    assert!(
        closed,
        "a request whose body never comes holds its connection"
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"request_timeout\""), "{answer}");
    let (answer, closed) = read_to_close(&mut kept, bound).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(closed, "an idle kept-alive connection stays open");
    s.stop().await;
}

/// Defect 3: one address holds at most its limit of connections (idle
/// sockets used to pile up to the file-descriptor limit); the next is
/// answered 503 `too_many_connections` and closed, and a slot freed is
/// usable again. WebSockets count too.
#[tokio::test]
async fn connections_per_address_are_bounded() {
    let s = bounded_server(4).await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "600+0"}))
        .await;
    let ws = s.player(&id, Some(&cookie)).await;
    let mut idle = Vec::new();
    for _ in 0..3 {
        idle.push(tokio::net::TcpStream::connect(s.addr).await.unwrap());
    }
    let mut over = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let (answer, closed) = read_to_close(&mut over, Duration::from_secs(2)).await;
    assert!(closed);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("too_many_connections"), "{answer}");
    drop(idle.pop());
    drop(ws);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(s.get("/healthz", None).await.status, 200);
    assert_eq!(s.get("/healthz", None).await.status, 200);
    s.stop().await;
}

/// Defect 5: a catch-up is the missed events as deltas and the live state
/// once (on the last event), not a replay of the game with a full live
/// state (legal moves and all) per event: 120 missed events used to cost a
/// replay and ~120 live states; now a few kilobytes.
#[tokio::test]
async fn a_catch_up_is_deltas_and_one_snapshot() {
    let s = TestServer::start().await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "600+0"}))
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    p.play("e2e4").await;
    p.socket.close().await;
    offers_and_declines(&s, &id, &cookie, 60).await;
    let mut socket = Socket::connect(s.addr, &id, None).await.unwrap();
    socket
        .send(&json!({"type": "hello", "last_seq": 1}))
        .await
        .unwrap();
    let mut bytes = 0;
    let mut events = Vec::new();
    loop {
        let m = socket.recv(WAIT).await.unwrap();
        bytes += m.to_string().len();
        match m["type"].as_str() {
            Some("event") => events.push(m),
            Some("ready") => break,
            Some("state") => panic!("a state instead of the 120 missed events"),
            _ => {}
        }
    }
    assert_eq!(events.len(), 120);
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e["seq"], i as u64 + 2);
        assert_eq!(e.get("live").is_some(), i == 119, "{e}");
    }
    let live = &events[119]["live"];
    assert_eq!(live["seq"], 121);
    assert_eq!(live["ply"], 1);
    assert_eq!(live["legal_moves"].as_array().unwrap().len(), 20);
    eprintln!("catch-up of 120 missed events: {bytes} bytes");
    assert!(bytes < 32 * 1024, "the catch-up took {bytes} bytes");
    s.stop().await;
}

/// Defect 5: one address watches at most its limit of games at once; the
/// next spectator socket is told `too_many_spectators` and closed, while
/// players are never refused.
#[tokio::test]
async fn spectators_per_address_are_bounded() {
    let s = TestServer::start_with(tempfile::tempdir().unwrap(), |c| {
        c.spectators_per_address = 2;
    })
    .await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "600+0"}))
        .await;
    let a = s.player(&id, None).await;
    let _b = s.player(&id, None).await;
    let mut third = Socket::connect(s.addr, &id, None).await.unwrap();
    let refusal = third
        .recv_until(WAIT, |m| m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(refusal["code"], "too_many_spectators");
    assert!(
        third.recv(WAIT).await.is_err(),
        "the refused socket stays open"
    );
    let mut player = s.player(&id, Some(&cookie)).await;
    player.play("e2e4").await;
    drop(a);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let _c = s.player(&id, None).await;
    s.stop().await;
}

/// Defect 6: the unfinished games are resumed in the background; the port
/// opens at once (`/readyz` says 503 until all are running), and a game
/// visited before the background resume reaches it is resumed on that
/// visit with its downtime not charged, once.
#[tokio::test]
async fn games_resume_in_the_background() {
    let s = TestServer::start().await;
    let (first, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "600+0"}))
        .await;
    let mut p = s.player(&first, Some(&cookie)).await;
    p.play("e2e4").await;
    p.socket.close().await;
    let mut last = String::new();
    for _ in 0..400 {
        last = s
            .create(json!({"mode": "local", "time_control": "300+0"}))
            .await
            .0;
    }
    assert_eq!(last.len(), 8);
    let before = s.get(&format!("/api/games/{first}"), None).await.json();
    let before = before["clocks"]["black_ms"].as_u64().unwrap();
    let dir = s.stop().await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let s = TestServer::start_in(dir).await;
    let ready_at_once = s.get("/readyz", None).await.status;
    // Black's clock has run for less than the downtime.
    let snap = s.get(&format!("/api/games/{first}"), None).await.json();
    let clocks = &snap["clocks"];
    assert_eq!(clocks["running"], "black", "{snap}");
    let black = clocks["black_ms"].as_u64().unwrap();
    assert!(
        black + 1_000 > before,
        "downtime charged: {before} ms left before, {black} after"
    );
    let mut ready = false;
    for _ in 0..200 {
        if s.get("/readyz", None).await.status == 200 {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ready, "the background resume never finished");
    assert_eq!(s.app.registry.running().await, 401);
    assert_eq!(s.app.registry.pending(), 0);
    // The game visited first was shifted once, not again by the resume.
    let snap = s.get(&format!("/api/games/{first}"), None).await.json();
    let again = snap["clocks"]["black_ms"].as_u64().unwrap();
    assert!(again <= black, "{again} > {black}");
    assert_eq!(
        ready_at_once, 503,
        "the port opened only after every game was resumed"
    );
    s.stop().await;
}

/// Defect 7: `Host` is checked (DNS rebinding: a page of evil.example
/// whose name now points at this server sends `Host` and `Origin` both
/// evil.example, and used to create a game); a 413 is JSON; serde's
/// messages name no server types; names with direction overrides or
/// invisible characters are refused; `X-Forwarded-*` counts only from a
/// configured proxy.
#[tokio::test]
async fn host_bodies_names_and_forwarding() {
    use arbiter_server::client::request;
    let s = TestServer::start_with(tempfile::tempdir().unwrap(), |c| {
        c.public_url = Some("https://chess.example".into());
    })
    .await;
    let body = json!({"mode": "local", "time_control": "600+0"}).to_string();
    let evil = [("Host", "evil.example"), ("Origin", "http://evil.example")];
    let r = request(s.addr, "POST", "/api/games", Some(&body), &evil)
        .await
        .unwrap();
    assert_eq!(r.status, 421, "{}", r.body);
    assert_eq!(r.json()["error"]["code"], "forbidden_host");
    let good = [
        ("Host", "chess.example"),
        ("Origin", "https://chess.example"),
    ];
    let r = request(s.addr, "POST", "/api/games", Some(&body), &good)
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    // No proxy configured: X-Forwarded-Proto does not make the cookie Secure.
    let forged = [("X-Forwarded-Proto", "https")];
    let r = request(s.addr, "POST", "/api/games", Some(&body), &forged)
        .await
        .unwrap();
    assert_eq!(r.status, 201);
    assert!(!r.header("set-cookie").unwrap().contains("Secure"));

    let big = format!("{{\"name\": \"{}\"}}", "x".repeat(20_000));
    let r = request(s.addr, "POST", "/api/games", Some(&big), &[])
        .await
        .unwrap();
    assert_eq!(r.status, 413);
    assert_eq!(r.json()["error"]["code"], "too_large", "{}", r.body);

    let r = request(s.addr, "POST", "/api/games", Some("[1, 2]"), &[])
        .await
        .unwrap();
    assert_eq!(r.status, 400);
    let message = r.json()["error"]["message"].as_str().unwrap().to_owned();
    assert!(!message.contains("CreateRequest"), "{message}");
    assert!(!message.contains("struct"), "{message}");

    for name in [
        "Alice\u{202E}dlrow",
        "Bob\u{200B}",
        "\u{2066}Carol\u{2069}",
        "D\u{FEFF}",
    ] {
        let r = s
            .post(
                "/api/games",
                &json!({"mode": "local", "time_control": "600+0", "name": name}),
                None,
            )
            .await;
        assert_eq!(r.status, 400, "{name:?}: {}", r.body);
        assert_eq!(r.json()["error"]["field"], "name");
    }
    let r = s
        .post(
            "/api/games",
            &json!({"mode": "local", "time_control": "600+0", "name": "Алиса ♞"}),
            None,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    s.stop().await;
}

/// Defect 7: the rate limit counts the client behind a configured proxy
/// (each `X-Forwarded-For` address its own bucket), and a forged header
/// from anyone else is ignored.
#[tokio::test]
async fn forwarded_for_only_from_a_trusted_proxy() {
    use arbiter_server::client::request;
    let body = json!({"mode": "local", "time_control": "600+0"}).to_string();
    let create = |s: &TestServer, xff: &'static str| {
        let addr = s.addr;
        let body = body.clone();
        async move {
            request(
                addr,
                "POST",
                "/api/games",
                Some(&body),
                &[("X-Forwarded-For", xff)],
            )
            .await
            .unwrap()
            .status
        }
    };
    // Untrusted: every forged address shares the peer's bucket of 2.
    let s = TestServer::start_with(tempfile::tempdir().unwrap(), |c| {
        c.create_per_minute = 2;
    })
    .await;
    assert_eq!(create(&s, "192.0.2.1").await, 201);
    assert_eq!(create(&s, "192.0.2.2").await, 201);
    assert_eq!(create(&s, "192.0.2.3").await, 429);
    s.stop().await;
    // Trusted (the test connects from 127.0.0.1): one bucket per client.
    let s = TestServer::start_with(tempfile::tempdir().unwrap(), |c| {
        c.create_per_minute = 2;
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    assert_eq!(create(&s, "192.0.2.1").await, 201);
    assert_eq!(create(&s, "192.0.2.1").await, 201);
    assert_eq!(create(&s, "192.0.2.1").await, 429);
    assert_eq!(create(&s, "192.0.2.2").await, 201);
    s.stop().await;
}

/// Defect 6: a game in which nobody makes the first move is aborted after
/// the configured time (recorded as aborted: status finished, result `*`,
/// no termination, an `aborted` event), and stays aborted after a restart;
/// a game with a move is not.
#[tokio::test]
async fn unstarted_games_are_aborted() {
    let s = TestServer::start_with(tempfile::tempdir().unwrap(), |c| {
        c.abort_unstarted_after = Duration::from_millis(600);
    })
    .await;
    let (idle, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "600+0"}))
        .await;
    let (played, cookie2, _) = s
        .create(json!({"mode": "local", "time_control": "600+0"}))
        .await;
    let mut p = s.player(&played, Some(&cookie2)).await;
    p.play("e2e4").await;
    let mut watcher = s.player(&idle, Some(&cookie)).await;
    let aborted = watcher.event_of("aborted").await;
    assert_eq!(aborted["seq"], 1);
    assert_eq!(aborted["live"]["status"], "finished");
    assert_eq!(aborted["live"]["result"], "*");
    assert!(aborted["live"]["termination"].is_null());
    watcher.send(json!({"type": "move", "uci": "e2e4"})).await;
    assert_eq!(watcher.error().await["code"], "game_not_active");
    let dir = s.stop().await;
    let s = TestServer::start_in(dir).await;
    let snap = s.get(&format!("/api/games/{idle}"), None).await.json();
    assert_eq!(snap["status"], "finished", "{snap}");
    assert_eq!(snap["result"], "*");
    let snap = s.get(&format!("/api/games/{played}"), None).await.json();
    assert_eq!(snap["status"], "active");
    s.stop().await;
}

/// A socket that keeps sending what the server refuses is answered each time
/// (`bad_message`, or `rate_limited` once over the message rate) and closed
/// after 50 refusals, so that a broken or hostile client cannot keep the
/// connection busy.
#[tokio::test]
async fn a_socket_refused_too_often_is_closed() {
    let s = TestServer::start().await;
    let (id, _, _) = s
        .create(json!({"mode": "local", "time_control": "600+0"}))
        .await;
    let mut p = s.player(&id, None).await;
    for _ in 0..60 {
        if p.socket.send_text("not json").await.is_err() {
            break;
        }
    }
    let started = std::time::Instant::now();
    let mut refusals = 0;
    while let Ok(m) = p.socket.recv(WAIT).await {
        if m["type"] == "error" {
            assert!(
                ["bad_message", "rate_limited"].contains(&m["code"].as_str().unwrap()),
                "{m}"
            );
            refusals += 1;
        }
    }
    assert!(started.elapsed() < WAIT, "the socket was not closed");
    assert!((1..=51).contains(&refusals), "{refusals} refusals");
    s.stop().await;
}

/// Protocol §2.1: a display name may hide nothing and may not be blank. Every
/// character the testers found (tag characters, the combining grapheme
/// joiner, line and paragraph separators, variation selectors, the musical,
/// shorthand and Egyptian format controls) is refused, on creating and on
/// joining, and so is a name of blanks (the braille blank, white space).
#[tokio::test]
async fn names_hide_nothing_and_are_not_blank() {
    let s = TestServer::start().await;
    let refused = [
        "Anna\u{E0041}\u{E0042}",
        "An\u{034F}na",
        "An\u{2028}na",
        "An\u{2029}na",
        "An\u{FE0F}na",
        "An\u{E0100}na",
        "An\u{1D173}na",
        "An\u{1BCA0}na",
        "An\u{13430}na",
        "An\u{180B}na",
        "An\u{3164}na",
        "\u{2800}\u{2800}",
        " \u{3000} ",
    ];
    for name in refused {
        let r = s
            .post(
                "/api/games",
                &json!({"mode": "local", "time_control": "600+0", "name": name}),
                None,
            )
            .await;
        assert_eq!(r.status, 400, "{name:?}: {}", r.body);
        assert_eq!(r.json()["error"]["field"], "name", "{name:?}");
    }
    let (id, _, _) = s
        .create(
            json!({"mode": "invite", "time_control": "600+0", "name": "Anna", "color": "white"}),
        )
        .await;
    for name in refused {
        let r = s
            .post(
                &format!("/api/games/{id}/join"),
                &json!({ "name": name }),
                None,
            )
            .await;
        assert_eq!(r.status, 400, "{name:?}: {}", r.body);
        assert_eq!(r.json()["error"]["field"], "name", "{name:?}");
    }
    let r = s
        .post(
            &format!("/api/games/{id}/join"),
            &json!({"name": " José "}),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["state"]["players"]["black"]["name"], "José");
    s.stop().await;
}

/// A set-up position's move number is bounded (`arbiter_chess::fen::MAX_FULLMOVES`):
/// 4294967295 was accepted, and after Black's move the game's move number
/// wrapped to 0. Now `fen` is refused, naming the field it holds.
#[tokio::test]
async fn a_move_number_past_the_bound_is_refused() {
    let s = TestServer::start().await;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0";
    let r = s
        .post(
            "/api/games",
            &json!({"mode": "local", "time_control": "-", "fen": format!("{start} 4294967295")}),
            None,
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["error"]["field"], "fen");
    let message = r.json()["error"]["message"].as_str().unwrap().to_owned();
    assert!(message.contains("move number"), "{message}");
    let max = arbiter_chess::fen::MAX_FULLMOVES;
    // (From the bound itself the number stays: every FEN written is read.)
    let (id, cookie, _) = s
        .create(
            json!({"mode": "local", "time_control": "-", "fen": format!("{start} {}", max - 1)}),
        )
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    p.play("e2e4").await;
    let e = p.play("e7e5").await;
    let fen = e["live"]["fen"].as_str().unwrap().to_owned();
    assert!(fen.ends_with(&format!(" 0 {max}")), "{fen}");
    s.stop().await;
}

/// Protocol §4.2 and §7: every refused action's error carries `reply_to`,
/// `rate_limited` included (it had none: the frame was refused unread).
#[tokio::test]
async fn a_rate_limited_message_is_answered_with_its_id() {
    let s = TestServer::start().await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "600+0"}))
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    for n in 0..60 {
        p.socket
            .send(&json!({"type": "move", "uci": "e2e5", "id": 1000 + n}))
            .await
            .unwrap();
    }
    let mut limited = 0;
    let mut answered = std::collections::HashSet::new();
    while answered.len() < 60 {
        let m = p.error().await;
        let reply_to = m["reply_to"].as_i64();
        assert!(reply_to.is_some(), "{m}");
        assert!(answered.insert(reply_to), "{m}");
        limited += usize::from(m["code"] == "rate_limited");
    }
    assert!(limited > 0, "no message was over the rate");
    s.stop().await;
}
