//! The scheduler: once a second, or when rung ([`super::Hub::wake`]), each
//! unfinished event is advanced ([`super::run::advance`]): started at its
//! time, its absent players judged at the default time (6.7), its next
//! round paired when the last has ended, ended after the last. It reads
//! only the stored state, so after a restart it carries on where the
//! committed state stands (a round is paired once: `store::tournament`).

use crate::App;
use std::sync::Arc;
use std::time::Duration;

/// How often every unfinished event is looked at.
pub const TICK: Duration = Duration::from_secs(1);

/// Runs until the server stops.
pub async fn run(app: Arc<App>) {
    loop {
        tokio::select! {
            _ = tokio::time::sleep(TICK) => {}
            _ = app.events.wake.notified() => {}
        }
        let ids = match app.store.unfinished_tournaments().await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!("events: {e}");
                continue;
            }
        };
        for id in ids {
            let now = app.clock.now_ms();
            if let Err(e) = super::run::advance(&app, &id, now).await {
                tracing::warn!("event {id}: {} ({})", e.message, e.code);
            }
        }
    }
}
