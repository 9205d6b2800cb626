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
