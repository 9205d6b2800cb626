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
