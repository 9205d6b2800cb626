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
    app: std::sync::OnceLock<Weak<App>>,
    /// Unfinished games of the previous run not yet resumed, and the last
    /// heartbeat of that run: the first load of each shifts its clock past
    /// the downtime ([`crate::resumed_origin`]), whether the background
    /// resume or a visitor loads it first.
    pending: std::sync::Mutex<(HashSet<String>, Option<u64>)>,
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

    /// The task of game `id`, loading it from storage if it is not running.
    pub async fn get(&self, id: &str) -> Result<Option<GameHandle>, StoreError> {
        if !valid_id(id) {
            return Ok(None);
        }
        let mut games = self.games.lock().await;
        if let Some(h) = games.get(id) {
            if !h.tx.is_closed() {
                return Ok(Some(h.clone()));
            }
            games.remove(id);
        }
        let Some(app) = self.app.get().and_then(Weak::upgrade) else {
            return Err(StoreError::Closed);
        };
        let Some(stored) = app.store.load_game(id.to_owned()).await? else {
            return Ok(None);
        };
        let mut core = GameCore::load(stored)?;
        let last_alive = self
            .pending
            .lock()
            .ok()
            .and_then(|mut p| p.0.remove(id).then_some(p.1));
        if let (Some(last_alive), Some(origin)) = (last_alive, core.clock_origin) {
            // Its first load since the restart: the downtime is not charged,
            // and the shifted origin is durable before its clock runs.
            let now = app.clock.now_ms();
            core.clock_origin = Some(crate::resumed_origin(
                origin,
                core.table.last_t(),
                last_alive,
                now,
            ));
            app.store
                .write(vec![crate::store::WriteOp::UpdateGame(core.row())])
                .await?;
        }
        let handle = actor::spawn(app.clone(), core);
        games.insert(id.to_owned(), handle.clone());
        Ok(Some(handle))
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
        }
        true
    }

    /// The live summary of a running game: presence bits (bit 0 White,
    /// bit 1 Black), ply and the epoch ms of its last event.
    pub async fn summary(&self, id: &str) -> Option<(u8, u32, u64)> {
        use std::sync::atomic::Ordering::Relaxed;
        let games = self.games.lock().await;
        games.get(id).map(|h| {
            let s = &h.summary;
            (
                s.presence.load(Relaxed),
                s.ply.load(Relaxed),
                s.updated_at.load(Relaxed),
            )
        })
    }

    /// Number of games running.
    pub async fn running(&self) -> usize {
        self.games.lock().await.len()
    }
}
