//! The running game tasks by id; games not running are loaded from storage
//! on demand (and finished ones unload themselves when idle).

use super::actor::{self, Command, GameHandle};
use super::core::GameCore;
use crate::store::StoreError;
use crate::App;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Weak};
use tokio::sync::{mpsc, Mutex};

/// Game id → task handle.
#[derive(Default)]
pub struct Registry {
    games: Mutex<HashMap<String, GameHandle>>,
    /// Games being located now: one load (or claim of its lease) per game
    /// at a time, while the table above stays free for every other game
    /// (a load is a few reads of the database; in a cluster, a lease).
    loading: std::sync::Mutex<HashMap<String, Arc<Mutex<()>>>>,
    app: std::sync::OnceLock<Weak<App>>,
    /// Unfinished games of the previous run not yet resumed, and the last
    /// heartbeat of that run: the first load of each shifts its clock past
    /// the downtime ([`crate::resumed_origin`]), whether the background
    /// resume or a visitor loads it first.
    pending: std::sync::Mutex<(HashSet<String>, Option<u64>)>,
}

/// Where a game runs (several nodes: [`crate::cluster`]).
pub enum Located {
    /// Here: its task.
    Local(GameHandle),
    /// On the node named.
    Remote(String),
}

/// An id is 8 characters `[A-Za-z0-9]`.
pub fn valid_id(id: &str) -> bool {
    id.len() == 8 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl Registry {
    /// Binds the registry to its app (for spawning loaded games).
    pub fn bind(&self, app: &Arc<App>) {
        let _ = self.app.set(Arc::downgrade(app));
    }

    /// Records the unfinished games of the previous run, which stopped
    /// after `last_alive`, to be resumed by [`Registry::get`].
    pub fn set_pending(&self, ids: impl IntoIterator<Item = String>, last_alive: Option<u64>) {
        if let Ok(mut p) = self.pending.lock() {
            p.0.extend(ids);
            p.1 = last_alive;
        }
    }

    /// Unfinished games of the previous run not resumed yet.
    pub fn pending(&self) -> usize {
        self.pending.lock().map_or(0, |p| p.0.len())
    }

    /// Starts the task of a new or resumed game.
    pub async fn start(&self, app: &Arc<App>, core: GameCore) -> GameHandle {
        let id = core.id.clone();
        let handle = actor::spawn(app.clone(), core);
        self.games.lock().await.insert(id, handle.clone());
        handle
    }

    /// The task of game `id`, loading it from storage if it is not running
    /// (in a cluster, a proxy on the bus when another node owns it).
    pub async fn get(&self, id: &str) -> Result<Option<GameHandle>, StoreError> {
        match self.locate(id).await? {
            None => Ok(None),
            Some(Located::Local(h)) => Ok(Some(h)),
            Some(Located::Remote(owner)) => {
                let Some(app) = self.app.get().and_then(Weak::upgrade) else {
                    return Err(StoreError::Closed);
                };
                let Some(c) = app.cluster.clone() else {
                    return Err(StoreError::Closed);
                };
                Ok(Some(crate::cluster::forward::proxy(
                    app,
                    c,
                    id.to_string(),
                    owner,
                )))
            }
        }
    }

    /// Where game `id` runs, loading it here from storage if it is not
    /// running anywhere (in a cluster: taking its lease).
    ///
    /// The table of running games is not held while the database is read:
    /// a load waits only for another load of the same game.
    pub async fn locate(&self, id: &str) -> Result<Option<Located>, StoreError> {
        if !valid_id(id) {
            return Ok(None);
        }
        if let Some(h) = self.running_handle(id).await {
            return Ok(Some(Located::Local(h)));
        }
        let gate = self
            .loading
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(id.to_owned())
            .or_default()
            .clone();
        let located = {
            let _one_load = gate.lock().await;
            self.load(id).await
        };
        // The last one out removes the gate (the table's own handle and
        // this one are the two left).
        drop(gate);
        let mut loading = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        if loading.get(id).is_some_and(|g| Arc::strong_count(g) == 1) {
            loading.remove(id);
        }
        located
    }

    /// The task of game `id` if it runs here (a stopped one is forgotten).
    async fn running_handle(&self, id: &str) -> Option<GameHandle> {
        let mut games = self.games.lock().await;
        let h = games.get(id)?;
        if !h.tx.is_closed() {
            return Some(h.clone());
        }
        games.remove(id);
        None
    }

    /// [`Registry::locate`] past the table, under the game's own gate.
    async fn load(&self, id: &str) -> Result<Option<Located>, StoreError> {
        // Loaded by the load this one waited for?
        if let Some(h) = self.running_handle(id).await {
            return Ok(Some(Located::Local(h)));
        }
        let Some(app) = self.app.get().and_then(Weak::upgrade) else {
            return Err(StoreError::Closed);
        };
        if let Some(c) = &app.cluster {
            use crate::cluster::ownership::{claim, Claim};
            return Ok(match claim(&app, c, id).await? {
                Claim::Missing => None,
                Claim::Held(node) => Some(Located::Remote(node)),
                Claim::Ours(core) => Some(Located::Local(self.start(&app, *core).await)),
            });
        }
        let Some(stored) = app.store.load_game(id.to_owned()).await? else {
            return Ok(None);
        };
        let resumed_at = stored.row.updated_at;
        let mut core = GameCore::load(stored)?;
        let last_alive = self
            .pending
            .lock()
            .ok()
            .and_then(|mut p| p.0.remove(id).then_some(p.1));
        if let (Some(last_alive), Some(origin)) = (last_alive, core.clock_origin) {
            // Its first load since the restart: the downtime is not charged,
            // and the shifted origin is durable before its clock runs, with
            // the instant it was shifted at ([`crate::resumed_row`]): a crash
            // before this run's first heartbeat must not give the downtime
            // back again from the same heartbeat.
            let now = app.clock.now_ms();
            core.clock_origin = Some(crate::resumed_origin(
                origin,
                core.table.last_t(),
                last_alive.max(Some(resumed_at)),
                now,
            ));
            app.store
                .write(vec![crate::store::WriteOp::UpdateGame(crate::resumed_row(
                    &core, now,
                ))])
                .await?;
        }
        Ok(Some(Located::Local(self.start(&app, core).await)))
    }

    /// Stops the task of game `id` here (its lease is no longer this
    /// node's): its connections are dropped, and their clients reconnect.
    pub async fn stop(&self, id: &str) {
        if let Some(h) = self.games.lock().await.remove(id) {
            let _ = h.tx.try_send(Command::Stop);
        }
    }

    /// Called by an idle task: removes it unless a command is waiting.
    /// `true`: the task may stop.
    pub async fn unload_if_idle(&self, id: &str, tx: &mpsc::Sender<Command>) -> bool {
        let mut games = self.games.lock().await;
        // Holding the lock, nobody can obtain a new handle; commands already
        // queued are still served by the task.
        if tx.capacity() != tx.max_capacity() {
            return false;
        }
        if games.get(id).is_some_and(|h| h.tx.same_channel(tx)) {
            games.remove(id);
            drop(games);
            let app = self.app.get().and_then(Weak::upgrade);
            if let Some((app, c)) = app.as_ref().and_then(|a| Some((a, a.cluster.as_ref()?))) {
                crate::cluster::ownership::release(app, c, id).await;
            }
        }
        true
    }

    /// The live summary of a running game: presence bits (bit 0 White,
    /// bit 1 Black), ply and the epoch ms of its last event. In a cluster,
    /// for a game running on another node, what its owner last reported
    /// (`cluster::bus::PresenceReport`, at most [`crate::cluster::ALIVE_EVERY`]
    /// old, or a full report's period if a message was lost): every node
    /// lists a game alike.
    pub async fn summary(&self, id: &str) -> Option<(u8, u32, u64)> {
        use std::sync::atomic::Ordering::Relaxed;
        let here = {
            let games = self.games.lock().await;
            games.get(id).map(|h| {
                let s = &h.summary;
                (
                    s.presence.load(Relaxed),
                    s.ply.load(Relaxed),
                    s.updated_at.load(Relaxed),
                )
            })
        };
        here.or_else(|| {
            let app = self.app.get().and_then(Weak::upgrade)?;
            let c = app.cluster.as_ref()?;
            let (ply, updated_at) = c.live_of(id)?;
            Some((c.presence_of(id), ply, updated_at))
        })
    }

    /// What this node tells the others of the games running here
    /// (`cluster::bus::PresenceReport`), read in one pass: the games with a
    /// player connected and their presence bits (bit 0 White, bit 1 Black),
    /// and every game's ply and the epoch ms of its last event.
    pub async fn reports(&self) -> (HashMap<String, u8>, HashMap<String, (u32, u64)>) {
        use std::sync::atomic::Ordering::Relaxed;
        let games = self.games.lock().await;
        let (mut presence, mut live) = (HashMap::new(), HashMap::new());
        for (id, h) in games.iter().filter(|(_, h)| !h.tx.is_closed()) {
            let s = &h.summary;
            let bits = s.presence.load(Relaxed);
            if bits != 0 {
                presence.insert(id.clone(), bits);
            }
            live.insert(
                id.clone(),
                (s.ply.load(Relaxed), s.updated_at.load(Relaxed)),
            );
        }
        (presence, live)
    }

    /// Number of games running.
    pub async fn running(&self) -> usize {
        self.games.lock().await.len()
    }
}
