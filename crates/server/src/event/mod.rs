//! Events (issue 15; protocol §9): Swiss (FIDE Dutch, C.04.3) and
//! round-robin (C.05) tournaments run in `arbiter serve` on
//! `arbiter-tournament`. An organiser (a logged-in account, the event's
//! arbiter) creates one; players register, withdraw or ask for a half-point
//! bye; at the start round 1 is paired and each game created with its two
//! seats held by the players' accounts; a player absent past the default
//! time loses (6.7); when every game of a round has ended the next is
//! paired, automatically or at the organiser's word.
//!
//! - [`model`]: the settings, the event as `arbiter-tournament` sees it,
//!   the next round's pairing, standings (C.07) and rating changes (B.02);
//! - [`run`]: the arbiter's actions (start, pair, results, forfeits, end),
//!   each committed before anyone hears of it;
//! - [`routes`]: the HTTP API;
//! - [`scheduler`]: the start at the scheduled time, the default time, the
//!   next round when one ends.
//!
//! Pairing is idempotent: a round's row is keyed by (event, round) and is
//! written in the transaction that creates its games, so a crash before
//! that commit leaves the round unpaired (the scheduler pairs it on
//! restart) and after it leaves it paired once.

pub mod model;
pub mod routes;
pub mod run;
pub mod scheduler;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// How long the scheduler waits before trying again a round it found no
/// pairing for (the players' state may have changed; the arbiter may pair
/// it by hand meanwhile), ms.
pub const PAIRING_RETRY_MS: u64 = 60_000;

/// Why a round could not be paired ([`Hub::pairing_failed`]).
///
/// ```
/// let hub = arbiter_server::event::Hub::default();
/// hub.pairing_failed("evt00001", 4, "no pairing", 1_000);
/// assert_eq!(hub.pairing_problem("evt00001").unwrap().round, 4);
/// assert!(!hub.may_pair("evt00001", 4, 2_000));
/// hub.paired("evt00001");
/// assert!(hub.may_pair("evt00001", 4, 2_000));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingProblem {
    /// The round.
    pub round: u16,
    /// What the pairing rules said.
    pub message: String,
    /// Epoch ms.
    pub at: u64,
}

/// The number of events' locks at which those nobody holds or awaits are
/// swept ([`Hub::lock`]).
const SWEEP_AT: usize = 1024;

/// An event's lock, held until dropped ([`Hub::lock`]).
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let hub = arbiter_server::event::Hub::default();
/// let held = hub.lock("evt00001").await;
/// assert_eq!(hub.locks_held(), 1);
/// drop(held);
/// assert_eq!(hub.locks_held(), 0);
/// # });
/// ```
pub struct EventLock<'a> {
    hub: &'a Hub,
    id: String,
    guard: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl Drop for EventLock<'_> {
    fn drop(&mut self) {
        // Under the map's lock, so that nobody clones the entry between
        // the count and the removal: a task awaiting it holds a clone.
        let mut locks = self.hub.locks.lock().unwrap_or_else(|e| e.into_inner());
        self.guard = None;
        if locks
            .get(&self.id)
            .is_some_and(|m| Arc::strong_count(m) == 1)
        {
            locks.remove(&self.id);
        }
    }
}

/// What the event tasks share: one lock per event (its actions run one at
/// a time), the games whose default time has been judged, and a bell that
/// wakes the scheduler.
///
/// ```
/// let hub = arbiter_server::event::Hub::default();
/// assert!(hub.first_default_check("gameid01"));
/// assert!(!hub.first_default_check("gameid01"));
/// ```
#[derive(Default)]
pub struct Hub {
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    judged: Mutex<HashSet<String>>,
    problems: Mutex<HashMap<String, PairingProblem>>,
    /// Rings when something an event waits for happened.
    pub wake: tokio::sync::Notify,
}

impl Hub {
    /// Holds event `id`'s lock until the guard drops. The lock lives while
    /// someone holds or awaits it: the last guard to drop removes it, so
    /// that requests naming events (real or not) leave nothing behind.
    pub async fn lock(&self, id: &str) -> EventLock<'_> {
        let m = {
            let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
            // A waiter cancelled after the holder left leaves its entry:
            // swept here once there are many, keeping those in use.
            if locks.len() >= SWEEP_AT {
                locks.retain(|_, m| Arc::strong_count(m) > 1);
            }
            locks.entry(id.to_owned()).or_default().clone()
        };
        EventLock {
            hub: self,
            id: id.to_owned(),
            guard: Some(m.lock_owned().await),
        }
    }

    /// How many events' locks are held or awaited now.
    pub fn locks_held(&self) -> usize {
        self.locks.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// The automatic pairing of event `id`'s `round` found no pairing at
    /// `now` (C.04.3): the arbiter is told (the event's view), and it is
    /// tried again only after [`PAIRING_RETRY_MS`].
    pub fn pairing_failed(&self, id: &str, round: u16, message: &str, now: u64) {
        let mut p = self.problems.lock().unwrap_or_else(|e| e.into_inner());
        p.insert(
            id.to_owned(),
            PairingProblem {
                round,
                message: message.to_owned(),
                at: now,
            },
        );
    }

    /// Whether the scheduler may try to pair event `id`'s `round` at `now`.
    pub fn may_pair(&self, id: &str, round: u16, now: u64) -> bool {
        let p = self.problems.lock().unwrap_or_else(|e| e.into_inner());
        p.get(id)
            .is_none_or(|q| q.round != round || now >= q.at + PAIRING_RETRY_MS)
    }

    /// A round of event `id` has been paired: no problem left.
    pub fn paired(&self, id: &str) {
        let mut p = self.problems.lock().unwrap_or_else(|e| e.into_inner());
        p.remove(id);
    }

    /// Why event `id`'s next round could not be paired, if it could not.
    pub fn pairing_problem(&self, id: &str) -> Option<PairingProblem> {
        let p = self.problems.lock().unwrap_or_else(|e| e.into_inner());
        p.get(id).cloned()
    }

    /// `true` the first time it is asked for `game` (its default time is
    /// judged once per server run).
    pub fn first_default_check(&self, game: &str) -> bool {
        let mut j = self.judged.lock().unwrap_or_else(|e| e.into_inner());
        j.insert(game.to_owned())
    }
}
