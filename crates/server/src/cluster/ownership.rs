//! Which node runs a game: its lease (`store::lease`), taken when a node
//! loads the game, renewed while the node runs it, lost when another node
//! took it over, given up when this node is cut off from the bus.
//!
//! A takeover resumes the game from the log by the single-node crash rule
//! ([`crate::resumed_origin`]), with the previous owner's last renewal as
//! its last sign of life: the time the game had no owner is charged to
//! nobody (at most one renewal interval, a quarter of the lease, of real
//! thinking time before a crash goes uncounted).
//!
//! A node started again under its name releases, before it serves, the
//! leases its earlier incarnation still holds ([`start`]): that process is
//! dead, and its name's row of `nodes` is about to be renewed by this one,
//! which would keep those leases alive with nobody running their games.
//!
//! ```
//! use arbiter_server::cluster::ownership::Claim;
//! let c = Claim::Held("n2".to_string());
//! assert!(matches!(c, Claim::Held(n) if n == "n2"));
//! ```

use super::Cluster;
use crate::game::core::GameCore;
use crate::store::lease::Attempt;
use crate::store::{StoreError, WriteOp};
use crate::App;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// Where a game is to run.
pub enum Claim {
    /// No such game.
    Missing,
    /// Another node owns it.
    Held(String),
    /// Its lease is now this node's: the game, loaded after the lease was
    /// taken (and its clock resumed when it was taken over).
    Ours(Box<GameCore>),
}

fn ttl_ms(c: &Cluster) -> u64 {
    c.config.lease_ttl.as_millis() as u64
}

/// Records a lease taken here (a new generation of one already held here
/// replaces it: the gauge of leases held counts each game once).
fn took(app: &App, c: &Cluster, id: &str, generation: u64) {
    if super::lock(&c.owned)
        .insert(id.to_string(), generation)
        .is_some()
    {
        app.ops.lease_dropped(false);
    }
    app.ops.lease_taken();
}

/// Commits the creation of new games (`writes`, creating the games
/// `ids`): in a cluster with their first leases, this node's, in the same
/// transaction, so that no other node ever sees them unleased (its sweep
/// would take them over). The games are then started here.
pub async fn create_games(
    app: &App,
    ids: &[&str],
    mut writes: Vec<WriteOp>,
) -> Result<(), StoreError> {
    let Some(c) = &app.cluster else {
        return app.store.write(writes).await;
    };
    let now = app.clock.now_ms();
    writes.extend(ids.iter().map(|id| WriteOp::NewLease {
        lease: crate::store::lease::Lease {
            game_id: id.to_string(),
            node: c.node.clone(),
            generation: 1,
            expires_at: now + ttl_ms(c),
        },
        renewed_at: now,
    }));
    app.store.write(writes).await?;
    for id in ids {
        took(app, c, id, 1);
    }
    Ok(())
}

/// Starts this incarnation of the node (before it serves or renews): the
/// leases its name still holds are an earlier incarnation's, whose process
/// is gone; they are released as of its last renewal, so that any node
/// (this one too) takes their games over at once, their clocks resumed from
/// that renewal ([`claim`]).
pub async fn start(app: &App, c: &Cluster) -> Result<(), StoreError> {
    let released = app
        .store
        .release_earlier_incarnation(c.node.clone())
        .await?;
    if released > 0 {
        tracing::warn!(
            "node {} started again (incarnation {}): released the {released} games its earlier incarnation held",
            c.node,
            c.incarnation
        );
    }
    Ok(())
}

/// Finds where game `id` runs, taking its lease if it is free (never
/// leased, lapsed, or this node's own from before).
pub async fn claim(app: &App, c: &Cluster, id: &str) -> Result<Claim, StoreError> {
    let now = app.clock.now_ms();
    if let Some(l) = app.store.lease(id.to_string()).await? {
        if l.node != c.node && l.expires_at > now {
            return Ok(Claim::Held(l.node));
        }
    }
    // Only existing games are leased (a lease row per id asked for would
    // let anyone grow the table).
    if app.store.load_game(id.to_string()).await?.is_none() {
        return Ok(Claim::Missing);
    }
    if !c.bus_up() {
        // Cut off: other nodes' clients could not reach the game here.
        return Err(StoreError::Database(
            "this node is cut off from the bus: it takes no game until it is back".into(),
        ));
    }
    let got = match app
        .store
        .acquire_lease(id.to_string(), c.node.clone(), now, ttl_ms(c))
        .await?
    {
        Attempt::Held { node, .. } => return Ok(Claim::Held(node)),
        Attempt::Acquired(a) => a,
    };
    took(app, c, id, got.lease.generation);
    // Loaded again now that the lease is ours: the previous owner can no
    // longer commit, so this is the whole log.
    let Some(stored) = app.store.load_game(id.to_string()).await? else {
        return Ok(Claim::Missing);
    };
    let resumed_at = stored.row.updated_at;
    let mut core = GameCore::load(stored)?;
    if let Some(origin) = core.clock_origin {
        let last_alive = match &got.previous {
            Some((_, renewed_at)) => Some(*renewed_at),
            None => app.store.last_heartbeat().await?,
        };
        let now = app.clock.now_ms();
        core.clock_origin = Some(crate::resumed_origin(
            origin,
            core.table.last_t(),
            last_alive.max(Some(resumed_at)),
            now,
        ));
        if got.previous.is_some() {
            tracing::info!(
                "game {id}: taken over from {} (generation {})",
                got.previous.as_ref().map_or("", |p| p.0.as_str()),
                got.lease.generation
            );
        }
        let writes = super::fence(
            app,
            id,
            vec![WriteOp::UpdateGame(crate::resumed_row(&core, now))],
        );
        app.store.write(writes).await?;
    }
    Ok(Claim::Ours(Box::new(core)))
}

/// This node no longer holds game `id`'s lease (`lost`: taken over or
/// fenced; else given up or released).
pub fn forget(app: &App, c: &Cluster, id: &str, lost: bool) {
    if super::lock(&c.owned).remove(id).is_some() {
        app.ops.lease_dropped(lost);
    }
}

/// Lets the lease of a game unloaded here lapse now.
pub async fn release(app: &App, c: &Cluster, id: &str) {
    let generation = super::lock(&c.owned).remove(id);
    if let Some(generation) = generation {
        app.ops.lease_dropped(false);
        let lease = crate::store::lease::Lease {
            game_id: id.to_string(),
            node: c.node.clone(),
            generation,
            expires_at: 0,
        };
        if let Err(e) = app.store.release_lease(lease).await {
            tracing::warn!("game {id}: release of its lease: {e}");
        }
    }
}

/// Stops every game of this node and lets its leases lapse now (a clean
/// stop, or cut off from the bus).
pub async fn release_all(app: &App, c: &Cluster) {
    let ids: Vec<String> = super::lock(&c.owned).keys().cloned().collect();
    for id in ids {
        app.registry.stop(&id).await;
        release(app, c, &id).await;
    }
}

/// Renews this node's leases every quarter of their time to live (and
/// stops the games whose lease was taken over); while the bus is down, lets
/// them lapse and, after half a lease, stops its games so that other nodes
/// take them over. Also takes over, every second, games whose lease
/// lapsed. Runs for the life of the server.
pub async fn run(app: Arc<App>, c: Arc<Cluster>) {
    let mut renew = tokio::time::interval(c.config.renew_every());
    renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut sweep = tokio::time::interval(Duration::from_secs(1));
    sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = renew.tick() => renew_once(&app, &c).await,
            _ = sweep.tick() => {
                if c.bus_up() {
                    take_over_orphans(&app).await;
                    app.ops.set_ready(true);
                }
            }
        }
    }
}

async fn renew_once(app: &Arc<App>, c: &Arc<Cluster>) {
    if !c.bus_up() {
        let since = *super::lock(&c.bus_down_since).get_or_insert_with(Instant::now);
        if since.elapsed() >= c.config.lease_ttl / 2 && c.owned() > 0 {
            tracing::warn!(
                "cut off from the bus: giving up {} games to other nodes",
                c.owned()
            );
            app.ops.set_ready(false);
            release_all(app, c).await;
        }
        return;
    }
    *super::lock(&c.bus_down_since) = None;
    // The leases held before the renewal: only these can be found lost by
    // it (a new game's lease committed while the renewal ran may be
    // missing from what it read, and is not lost).
    let before: std::collections::HashMap<String, u64> = super::lock(&c.owned).clone();
    let now = app.clock.now_ms();
    let kept = match app.store.renew_leases(c.node.clone(), now, ttl_ms(c)).await {
        Ok(k) => k,
        Err(e) => {
            tracing::error!("lease renewal: {e}");
            return;
        }
    };
    let kept: std::collections::HashMap<String, u64> = kept
        .into_iter()
        .map(|l| (l.game_id, l.generation))
        .collect();
    let lost: Vec<String> = {
        let owned = super::lock(&c.owned);
        before
            .into_iter()
            .filter(|(id, g)| kept.get(id) != Some(g) && owned.get(id) == Some(g))
            .map(|(id, _)| id)
            .collect()
    };
    for id in lost {
        tracing::warn!("game {id}: its lease was taken over; stopping it here");
        forget(app, c, &id, true);
        app.registry.stop(&id).await;
    }
}

/// Most games taken over in one sweep (the rest wait for the next).
const TAKEOVERS_PER_SWEEP: usize = 200;

async fn take_over_orphans(app: &Arc<App>) {
    let now = app.clock.now_ms();
    let mut ids = match app.store.orphaned_games(now).await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::error!("orphaned games: {e}");
            return;
        }
    };
    // Several nodes sweep at once: each starts at a different place.
    use rand::seq::SliceRandom;
    ids.shuffle(&mut rand::thread_rng());
    for id in ids.into_iter().take(TAKEOVERS_PER_SWEEP) {
        if let Err(e) = app.registry.get(&id).await {
            tracing::warn!("game {id}: takeover: {e}");
        }
    }
}
