//! Operations end to end: `/healthz`, `/readyz` and `/metrics` of a
//! running server, the metrics counting a game's moves and commits.

mod common;

use common::TestServer;
use serde_json::json;

fn value(metrics: &str, series: &str) -> f64 {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(series)?.trim().parse().ok())
        .unwrap_or_else(|| panic!("{series} missing from\n{metrics}"))
}

#[tokio::test]
async fn health_readiness_and_metrics() {
    let s = TestServer::start().await;
    let h = s.get("/healthz", None).await;
    assert_eq!((h.status, h.body.as_str()), (200, "ok\n"));
    let r = s.get("/readyz", None).await;
    assert_eq!((r.status, r.body.as_str()), (200, "ready\n"));
    let before = s.get("/metrics", None).await;
    assert_eq!(before.status, 200);
    let node = arbiter_server::default_node_id();
    let series = |name: &str| format!("{name}{{node=\"{node}\"}}");
    assert_eq!(value(&before.body, &series("arbiter_moves_total")), 0.0);
    assert_eq!(value(&before.body, &series("arbiter_ready")), 1.0);
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "300+3"}))
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    for uci in ["e2e4", "e7e5", "g1f3"] {
        p.play(uci).await;
    }
    let after = s.get("/metrics", None).await.body;
    assert_eq!(value(&after, &series("arbiter_moves_total")), 3.0);
    assert_eq!(
        value(&after, &series("arbiter_move_ack_seconds_count")),
        3.0
    );
    assert_eq!(value(&after, &series("arbiter_games")), 1.0);
    assert!(value(&after, &series("arbiter_events_committed_total")) >= 3.0);
    assert!(value(&after, &series("arbiter_commit_seconds_count")) >= 3.0);
    assert!(after.trim_end().ends_with("# EOF"));
    s.stop().await;
}

/// `/readyz` of a node still resuming its games (bound, not yet serving
/// them) answers 503 with the code `starting`, not `internal`; once ready
/// and then not (stopping), `not_ready`.
#[tokio::test]
async fn readiness_says_why_not() {
    use arbiter_server::{Config, Server};
    use tower::ServiceExt;
    let dir = tempfile::tempdir().unwrap();
    let server = Server::bind(Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.path().to_owned(),
        ..Config::default()
    })
    .await
    .unwrap();
    let app = server.app();
    let readyz = || async {
        let router = arbiter_server::ops::router().with_state(app.clone());
        let req = axum::http::Request::get("/readyz")
            .body(axum::body::Body::empty())
            .unwrap();
        let r = router.oneshot(req).await.unwrap();
        let status = r.status().as_u16();
        let body = axum::body::to_bytes(r.into_body(), 1 << 16).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        (
            status,
            body["error"]["code"].as_str().unwrap_or("").to_owned(),
        )
    };
    assert_eq!(readyz().await, (503, "starting".to_owned()));
    app.ops.set_ready(true);
    assert_eq!(readyz().await.0, 200);
    app.ops.set_ready(false);
    assert_eq!(readyz().await, (503, "not_ready".to_owned()));
}

/// `arbiter_moves_total` counts the moves committed and sent (deployment.md,
/// "Metrics"): the engine's too, not only the players' (found by a tester:
/// 9 moves of an engine game counted as 4). The acknowledgement histogram
/// times players' frames only.
#[tokio::test]
async fn the_engines_moves_are_counted() {
    let s = TestServer::start().await;
    let node = arbiter_server::default_node_id();
    let series = |name: &str| format!("{name}{{node=\"{node}\"}}");
    let (id, cookie, _) = s
        .create(
            json!({"mode": "engine", "engine": {"level": 1}, "color": "white",
                       "time_control": "300+0"}),
        )
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    p.play("e2e4").await;
    p.socket
        .recv_until(common::WAIT + common::WAIT, |m| {
            m["type"] == "event"
                && m["event"]["kind"] == "move"
                && m["event"]["move"]["color"] == "black"
        })
        .await
        .expect("the engine answers");
    // The count follows the commit that sent the event: a bounded wait.
    let mut after = String::new();
    for _ in 0..20 {
        after = s.get("/metrics", None).await.body;
        if value(&after, &series("arbiter_moves_total")) >= 2.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        value(&after, &series("arbiter_moves_total")),
        2.0,
        "{after}"
    );
    assert_eq!(
        value(&after, &series("arbiter_move_ack_seconds_count")),
        1.0
    );
    s.stop().await;
}
