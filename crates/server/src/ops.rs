//! Operations: health and readiness endpoints and the metrics, in the
//! Prometheus text format.
//!
//! - `GET /healthz`: 200 while the process serves HTTP (liveness).
//! - `GET /readyz`: 200 once the node has resumed its games and while its
//!   database answers; 503 otherwise (a load balancer sends it no clients),
//!   with a JSON error whose code says why: `starting`, `not_ready`
//!   (stopping, or cut off from the bus), `store_unavailable`.
//! - `GET /metrics`: games running, moves (the players' and the engine's)
//!   and events committed (`rate()` of them is moves/s), the move → acknowledgement latency histogram,
//!   the commit latency histogram, transactions and their failures, lease
//!   changes, readiness — every series labelled with the node.
//!
//! ```
//! use arbiter_server::ops::Ops;
//! use arbiter_server::store::CommitStats;
//! use std::sync::Arc;
//! let ops = Ops::new("node-1".into(), Arc::new(CommitStats::default()));
//! ops.moved(std::time::Duration::from_micros(800));
//! let text = ops.render(3);
//! assert!(text.contains("arbiter_moves_total{node=\"node-1\"} 1"));
//! assert!(text.contains("arbiter_games{node=\"node-1\"} 3"));
//! ```

use crate::error::ApiError;
use crate::store::{CommitStats, LATENCY_BUCKETS};
use crate::App;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::gauge::{ConstGauge, Gauge};
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

/// The node's operational state and figures.
pub struct Ops {
    node_id: String,
    ready: AtomicBool,
    /// Has it been ready once (a node not ready since is stopping, or cut
    /// off from the bus; one never ready is starting)?
    started: AtomicBool,
    stats: Arc<CommitStats>,
    moves: Counter,
    move_ack: Histogram,
    lease_changes: Counter,
    leases_lost: Counter,
    leases_held: Gauge,
}

impl Ops {
    /// The state of node `node_id`, reading the store's commit figures.
    pub fn new(node_id: String, stats: Arc<CommitStats>) -> Ops {
        Ops {
            node_id,
            ready: AtomicBool::new(false),
            started: AtomicBool::new(false),
            stats,
            moves: Counter::default(),
            move_ack: Histogram::new(LATENCY_BUCKETS.iter().copied()),
            lease_changes: Counter::default(),
            leases_lost: Counter::default(),
            leases_held: Gauge::default(),
        }
    }

    /// This node's name.
    pub fn node_id(&self) -> &str {
        &self.node_id
    }

    /// Marks the node ready (games resumed) or not (stopping).
    pub fn set_ready(&self, ready: bool) {
        self.ready.store(ready, Relaxed);
        if ready {
            self.started.store(true, Relaxed);
        }
    }

    /// Why the node is not ready (`/readyz`'s 503), if it is not: `starting`
    /// before it was ever ready (its games are being resumed), `not_ready`
    /// after (stopping, or cut off from the bus).
    pub fn not_ready(&self) -> Option<(&'static str, &'static str)> {
        if self.is_ready() {
            None
        } else if self.started.load(Relaxed) {
            Some(("not_ready", "stopping, or cut off from the other nodes"))
        } else {
            Some(("starting", "starting: the games are being resumed"))
        }
    }

    /// Whether the node is ready.
    pub fn is_ready(&self) -> bool {
        self.ready.load(Relaxed)
    }

    /// A move was committed and sent, `took` after its frame reached the
    /// game.
    pub fn moved(&self, took: Duration) {
        self.moves.inc();
        self.move_ack.observe(took.as_secs_f64());
    }

    /// The engine's move was committed and sent: counted in
    /// `arbiter_moves_total` like a player's (it has no frame, so no
    /// acknowledgement time).
    ///
    /// ```
    /// use arbiter_server::ops::Ops;
    /// use arbiter_server::store::CommitStats;
    /// let ops = Ops::new("n1".into(), std::sync::Arc::new(CommitStats::default()));
    /// ops.engine_moved();
    /// let text = ops.render(1);
    /// assert!(text.contains("arbiter_moves_total{node=\"n1\"} 1"));
    /// assert!(text.contains("arbiter_move_ack_seconds_count{node=\"n1\"} 0"));
    /// ```
    pub fn engine_moved(&self) {
        self.moves.inc();
    }

    /// This node took a lease (a game started or was taken over here).
    pub fn lease_taken(&self) {
        self.lease_changes.inc();
        self.leases_held.inc();
    }

    /// This node let a lease go (`lost`: it was taken over or lapsed).
    pub fn lease_dropped(&self, lost: bool) {
        self.leases_held.dec();
        if lost {
            self.leases_lost.inc();
        }
    }

    /// The metrics in the Prometheus text format, with `games` running.
    pub fn render(&self, games: usize) -> String {
        let mut registry = Registry::with_labels(
            [(
                std::borrow::Cow::Borrowed("node"),
                std::borrow::Cow::Owned(self.node_id.clone()),
            )]
            .into_iter(),
        );
        let s = &self.stats;
        registry.register(
            "arbiter_games",
            "Games running on this node",
            ConstGauge::new(games as i64),
        );
        registry.register(
            "arbiter_ready",
            "1 when the node takes clients",
            ConstGauge::new(i64::from(self.is_ready())),
        );
        registry.register(
            "arbiter_moves",
            "Moves committed and sent",
            self.moves.clone(),
        );
        registry.register(
            "arbiter_move_ack_seconds",
            "From a move's frame reaching its game to its acknowledgement",
            self.move_ack.clone(),
        );
        registry.register(
            "arbiter_events_committed",
            "Game events committed",
            ConstCounter::new(s.events.load(Relaxed)),
        );
        registry.register(
            "arbiter_store_transactions",
            "Store transactions (group commits)",
            ConstCounter::new(s.transactions.load(Relaxed)),
        );
        registry.register(
            "arbiter_store_requests",
            "Write requests acknowledged by the store",
            ConstCounter::new(s.requests.load(Relaxed)),
        );
        registry.register(
            "arbiter_store_failures",
            "Store transactions that failed (a fenced write among them)",
            ConstCounter::new(s.failures.load(Relaxed)),
        );
        registry.register(
            "arbiter_commit_seconds",
            "From the start of a store transaction to its durable commit",
            s.commit_seconds.clone(),
        );
        registry.register(
            "arbiter_lease_changes",
            "Leases this node took",
            self.lease_changes.clone(),
        );
        registry.register(
            "arbiter_leases_lost",
            "Leases this node lost to another",
            self.leases_lost.clone(),
        );
        registry.register(
            "arbiter_leases_held",
            "Leases this node holds",
            self.leases_held.clone(),
        );
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut out, &registry);
        out
    }
}

/// The routes of this module.
pub fn router() -> Router<Arc<App>> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
}

async fn healthz() -> &'static str {
    "ok\n"
}

/// `200 ready`, or a 503 JSON error (§3) whose code says why: `starting`,
/// `not_ready` ([`Ops::not_ready`]) or `store_unavailable`.
async fn readyz(State(app): State<Arc<App>>) -> axum::response::Response {
    let unavailable =
        |code, message: String| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, code, message);
    if let Some((code, why)) = app.ops.not_ready() {
        return unavailable(code, why.to_string()).into_response();
    }
    match tokio::time::timeout(Duration::from_secs(2), app.store.ping()).await {
        Ok(Ok(())) => (StatusCode::OK, "ready\n").into_response(),
        Ok(Err(e)) => unavailable("store_unavailable", format!("store: {e}")).into_response(),
        Err(_) => {
            unavailable("store_unavailable", "store: no answer within 2 s".into()).into_response()
        }
    }
}

async fn metrics(State(app): State<Arc<App>>) -> impl IntoResponse {
    let games = app.registry.running().await;
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        app.ops.render(games),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_figure_is_rendered() {
        let stats = Arc::new(CommitStats::default());
        stats.events.store(7, Relaxed);
        stats.commit_seconds.observe(0.003);
        let ops = Ops::new("n1".into(), stats);
        ops.lease_taken();
        ops.lease_taken();
        ops.lease_dropped(true);
        ops.moved(Duration::from_millis(20));
        let t = ops.render(5);
        for line in [
            "arbiter_events_committed_total{node=\"n1\"} 7",
            "arbiter_commit_seconds_count{node=\"n1\"} 1",
            "arbiter_commit_seconds_bucket{node=\"n1\",le=\"0.005\"} 1",
            "arbiter_commit_seconds_bucket{node=\"n1\",le=\"0.0025\"} 0",
            "arbiter_move_ack_seconds_bucket{node=\"n1\",le=\"0.025\"} 1",
            "arbiter_lease_changes_total{node=\"n1\"} 2",
            "arbiter_leases_lost_total{node=\"n1\"} 1",
            "arbiter_leases_held{node=\"n1\"} 1",
            "arbiter_ready{node=\"n1\"} 0",
            "# EOF",
        ] {
            assert!(t.contains(line), "{line} missing from\n{t}");
        }
    }
}
