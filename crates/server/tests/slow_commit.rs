//! Issue 13: a move whose commit is slow (a loaded disk) does not leave the
//! pages counting down a clock the move has already stopped. The commit is
//! made slow for real: the test holds SQLite's write lock from a connection
//! of its own while the move is being recorded. The pages hear
//! `recording` (clocks standing, protocol §4.3) after 100 ms, and the move's
//! event only once it is durable, with the mover's clock where the notice
//! stopped it (Art. 6.2: the clock stops when the move is completed).

mod common;

use common::{TestServer, WAIT};
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_slow_commit_stops_the_clocks_shown_until_its_event() {
    let s = TestServer::start().await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "60+0"}))
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    let mut watcher = s.player(&id, None).await;
    p.play("e2e4").await;
    watcher.event_of("move").await;
    // The store's own file, locked for writing by another connection: the
    // server's next commit waits (its busy timeout) until we let go.
    let db = rusqlite::Connection::open(s.dir.path().join("arbiter.sqlite3")).unwrap();
    db.busy_timeout(Duration::from_secs(5)).unwrap();
    db.execute_batch("BEGIN IMMEDIATE").unwrap();
    let sent = Instant::now();
    p.send(json!({"type": "move", "uci": "e7e5"})).await;
    let notice = watcher
        .socket
        .recv_until(WAIT, |m| m["type"] == "recording" || m["type"] == "event")
        .await
        .unwrap();
    let noticed = sent.elapsed();
    assert_eq!(notice["type"], "recording", "{notice}");
    assert!(noticed < Duration::from_millis(1000), "{noticed:?}");
    assert_eq!(notice["seq"], 2, "{notice}");
    assert!(notice["clocks"]["running"].is_null(), "{notice}");
    // Held for a second and a half in all: the commit really is slow.
    tokio::time::sleep(Duration::from_millis(1500).saturating_sub(sent.elapsed())).await;
    db.execute_batch("COMMIT").unwrap();
    let event = watcher.event_of("move").await;
    assert!(sent.elapsed() >= Duration::from_millis(1500));
    assert_eq!(event["seq"], 2, "{event}");
    // Black's clock stopped with the move: where the notice showed it, not
    // a second and a half higher than a running display would have shown.
    let shown = notice["clocks"]["black_ms"].as_u64().unwrap();
    let after = event["live"]["clocks"]["black_ms"].as_u64().unwrap();
    assert_eq!(after, shown, "notice {notice}, event {event}");
    assert_eq!(event["live"]["clocks"]["running"], "white", "{event}");
    // The lock gone, play goes on (whether a notice comes first depends on
    // the machine's load, not asserted).
    p.send(json!({"type": "move", "uci": "g1f3"})).await;
    assert_eq!(watcher.event_of("move").await["seq"], 3);
    s.stop().await;
}
