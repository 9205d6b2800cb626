//! Several `arbiter serve` nodes on one PostgreSQL database and one NATS
//! bus (issue 18).
//!
//! - **Ownership** ([`ownership`]): each live game has exactly one owner
//!   node, the holder of its lease in the database (`store::lease`). The
//!   owner renews its leases; every write of a game carries the lease's
//!   generation (`WriteOp::Fence`), so a node that lost a lease can never
//!   commit for that game again. A game whose lease lapsed (its node was
//!   killed, or cut off from the bus and gave its games up) is taken over
//!   by another node from the log, its clock resumed by the single-node
//!   crash rule: the time the game had no owner is charged to nobody.
//! - **Forwarding** ([`forward`]): a client may connect to any node. Its
//!   WebSocket frames reach the owner over the bus and the owner's
//!   messages come back the same way; HTTP requests about a game owned
//!   elsewhere are run by the owner and answered through the bus.
//! - **The bus** ([`bus`]): NATS core publish/subscribe and request/reply
//!   (nothing on it needs to outlive a node: everything durable is in the
//!   database, so JetStream is not used). Nodes announce themselves every
//!   [`ALIVE_EVERY`]; one not heard for [`ALIVE_LAPSE`] is taken as gone.
//! - **Incarnations**: each start of a node is an incarnation of its name
//!   ([`Cluster::incarnation`], the start's epoch µs). A node started again
//!   under the same name (a supervisor's restart, sooner than its leases
//!   lapse) first releases what its earlier incarnation held
//!   (`Store::release_earlier_incarnation`): those games move on at once,
//!   their clocks resumed from the dead process's last renewal. Its beat
//!   carries the incarnation, so the other nodes drop the connections they
//!   forwarded to or from the earlier one, as if it had not been heard.
//! - **The same views everywhere**: the lobby's changes go to every node,
//!   and a node that joins asks the others for their seeks first
//!   (`forward::run`); each owner sends which players of its games are
//!   connected ([`bus::PresenceReport`]), so that the game list's "online"
//!   is the same on every node, and each game's ply and last event (the
//!   stored row is not written at each move), so that the list's `ply` and
//!   `updated_at` are too (at most one beat, [`ALIVE_EVERY`], behind the
//!   owner; a full report's period if a message was lost); what a node
//!   not heard for [`ALIVE_LAPSE`] said, or an owner did not repeat within
//!   [`PRESENCE_LAPSE`], is forgotten (its players show offline, and the
//!   list falls back to the stored row).
//!
//! ```
//! use arbiter_server::cluster::ClusterConfig;
//! let c = ClusterConfig::new("nats://127.0.0.1:4222");
//! assert_eq!(c.prefix, "arbiter");
//! assert!(c.lease_ttl > c.renew_every());
//! ```

pub mod bus;
pub mod forward;
pub mod ownership;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

/// How often a node says it is alive on the bus.
pub const ALIVE_EVERY: Duration = Duration::from_millis(500);
/// A node not heard this long is taken as gone: the connections forwarded
/// to it or from it are dropped (their clients reconnect).
pub const ALIVE_LAPSE: Duration = Duration::from_millis(2_500);

/// Every this many [`ALIVE_EVERY`] beats an owner sends the presence of
/// all its games, not only the changes (a change lost on the bus is
/// mended by then).
pub const PRESENCE_FULL_EVERY: u32 = 4;
/// A game's presence not repeated by its owner this long is forgotten.
pub const PRESENCE_LAPSE: Duration = Duration::from_millis(5_000);
/// How long a joining node gathers the other nodes' lobby snapshots.
pub const SNAPSHOT_WITHIN: Duration = Duration::from_millis(750);

/// How a node joins a cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterConfig {
    /// The bus: `nats://host:port`.
    pub bus: String,
    /// The first token of every subject this cluster uses (several
    /// clusters, or tests, may share one NATS server).
    pub prefix: String,
    /// A lease's time to live; it is renewed every quarter of it.
    pub lease_ttl: Duration,
}

impl ClusterConfig {
    /// The defaults for the bus at `bus`: prefix `arbiter`, leases of 5 s.
    pub fn new(bus: &str) -> ClusterConfig {
        ClusterConfig {
            bus: bus.to_string(),
            prefix: "arbiter".to_string(),
            lease_ttl: Duration::from_secs(5),
        }
    }

    /// How often the leases are renewed.
    pub fn renew_every(&self) -> Duration {
        self.lease_ttl / 4
    }
}

/// Presence heard from the owners: game → (owner, bits, when).
type PresenceTable = HashMap<String, Vec<(String, u8, Instant)>>;

/// The ply and last event of games, heard from their owners: game →
/// (owner, ply, updated_at, when).
type LiveTable = HashMap<String, (String, u32, u64, Instant)>;

/// A node's membership of the cluster: the bus, the leases it holds, the
/// connections forwarded through it.
pub struct Cluster {
    /// This node's name.
    pub node: String,
    /// This start of the node: the epoch µs it joined at (a later start of
    /// the same name has a greater one).
    pub incarnation: u64,
    /// The configuration.
    pub config: ClusterConfig,
    bus: bus::Bus,
    /// Game id → the generation of its lease held here.
    owned: Mutex<HashMap<String, u64>>,
    /// When the bus was last seen down (none while connected).
    bus_down_since: Mutex<Option<Instant>>,
    /// Nodes heard on the bus, and when.
    alive: Mutex<HashMap<String, Instant>>,
    /// The latest incarnation heard of each node.
    incarnations: Mutex<HashMap<String, u64>>,
    /// This node's side of the forwarded connections.
    forward: forward::Tables,
    /// Presence heard from the owners.
    presence: Mutex<PresenceTable>,
    /// The ply and last event of games, heard from their owners.
    live: Mutex<LiveTable>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Cluster {
    /// Connects to the bus as `node`.
    pub async fn join(node: String, config: ClusterConfig) -> Result<Cluster, bus::BusError> {
        let bus = bus::Bus::connect(&config.bus, &config.prefix, &node).await?;
        let incarnation = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_micros() as u64);
        Ok(Cluster {
            node,
            incarnation,
            config,
            bus,
            owned: Mutex::default(),
            bus_down_since: Mutex::default(),
            alive: Mutex::default(),
            incarnations: Mutex::default(),
            forward: forward::Tables::default(),
            presence: Mutex::default(),
            live: Mutex::default(),
        })
    }

    /// The generation of the lease of `game` held here, if any.
    pub fn generation(&self, game: &str) -> Option<u64> {
        lock(&self.owned).get(game).copied()
    }

    /// Leases held here.
    pub fn owned(&self) -> usize {
        lock(&self.owned).len()
    }

    /// Is the bus connected now?
    pub fn bus_up(&self) -> bool {
        self.bus.connected()
    }

    /// Was `node` heard on the bus within [`ALIVE_LAPSE`]? (This node
    /// always is, while its bus is up.)
    pub fn is_alive(&self, node: &str) -> bool {
        if node == self.node {
            return self.bus_up();
        }
        lock(&self.alive)
            .get(node)
            .is_some_and(|t| t.elapsed() < ALIVE_LAPSE)
    }

    /// `node` was heard now (its beat, or any message from it).
    fn heard(&self, node: &str) {
        let now = Instant::now();
        let mut alive = lock(&self.alive);
        match alive.get_mut(node) {
            Some(at) => *at = now,
            None => {
                alive.insert(node.to_string(), now);
            }
        }
    }

    /// `node` said it is incarnation `incarnation` (its beat, its answer to
    /// an attach, or its attach): the latest one heard is kept. `true` when
    /// it is a later start than the one heard before (the earlier one is
    /// dead: what was forwarded to or from it is dropped,
    /// [`Cluster::is_stale`]).
    fn heard_incarnation(&self, node: &str, incarnation: u64) -> bool {
        if node == self.node {
            return false;
        }
        let mut known = lock(&self.incarnations);
        match known.get_mut(node) {
            Some(i) if *i >= incarnation => false,
            Some(i) => {
                *i = incarnation;
                true
            }
            None => {
                known.insert(node.to_string(), incarnation);
                false
            }
        }
    }

    /// Is `incarnation` of `node` an earlier one than the latest heard (a
    /// connection made with it was made with a process now dead)?
    fn is_stale(&self, node: &str, incarnation: Option<u64>) -> bool {
        let Some(i) = incarnation else {
            return false;
        };
        lock(&self.incarnations)
            .get(node)
            .is_some_and(|latest| *latest > i)
    }

    /// Records an owner's presence report (not this node's own).
    pub fn heard_presence(&self, r: bus::PresenceReport) {
        if r.node == self.node {
            return;
        }
        let now = Instant::now();
        {
            let mut live = lock(&self.live);
            for (game, ply, updated_at) in r.live {
                match live.get_mut(&game) {
                    // A game that moved on: its new owner's word wins once
                    // it is ahead (ply only grows).
                    Some(e) if e.0 != r.node && e.1 > ply && e.3.elapsed() < PRESENCE_LAPSE => {}
                    Some(e) => *e = (r.node.clone(), ply, updated_at, now),
                    None => {
                        live.insert(game, (r.node.clone(), ply, updated_at, now));
                    }
                }
            }
        }
        let mut table = lock(&self.presence);
        for (game, bits) in r.games {
            let entries = table.entry(game).or_default();
            entries.retain(|(n, _, _)| *n != r.node);
            if bits != 0 {
                entries.push((r.node.clone(), bits, now));
            }
        }
        table.retain(|_, e| !e.is_empty());
    }

    /// The presence bits (bit 0 White, bit 1 Black) of a game owned by
    /// another node, as its owner last said, if that node is alive and said
    /// so within [`PRESENCE_LAPSE`] (else 0: nobody is known connected).
    pub fn presence_of(&self, game: &str) -> u8 {
        lock(&self.presence).get(game).map_or(0, |entries| {
            entries
                .iter()
                .filter(|(n, _, at)| at.elapsed() < PRESENCE_LAPSE && self.is_alive(n))
                .fold(0, |b, (_, bits, _)| b | bits)
        })
    }

    /// The ply and the epoch ms of the last event of a game owned by another
    /// node, as its owner last said, if that node is alive and said so
    /// within [`PRESENCE_LAPSE`].
    pub fn live_of(&self, game: &str) -> Option<(u32, u64)> {
        lock(&self.live)
            .get(game)
            .filter(|(n, _, _, at)| at.elapsed() < PRESENCE_LAPSE && self.is_alive(n))
            .map(|(_, ply, updated_at, _)| (*ply, *updated_at))
    }

    /// Forgets the presence not repeated within [`PRESENCE_LAPSE`].
    fn expire_presence(&self) {
        lock(&self.live).retain(|_, (_, _, _, at)| at.elapsed() < PRESENCE_LAPSE);
        let mut table = lock(&self.presence);
        for entries in table.values_mut() {
            entries.retain(|(_, _, at)| at.elapsed() < PRESENCE_LAPSE);
        }
        table.retain(|_, e| !e.is_empty());
    }
}

/// Prepends the fence of `game`'s lease to a batch of its writes when this
/// node is in a cluster (a no-op on a single node): the batch commits only
/// while the lease is still this node's.
pub fn fence(
    app: &crate::App,
    game: &str,
    mut writes: Vec<crate::store::WriteOp>,
) -> Vec<crate::store::WriteOp> {
    if let Some(c) = &app.cluster {
        // A game not leased here gets an impossible generation: the batch
        // is refused rather than written unfenced.
        let generation = c.generation(game).unwrap_or(u64::MAX);
        writes.insert(
            0,
            crate::store::WriteOp::Fence {
                game_id: game.to_string(),
                generation,
            },
        );
    }
    writes
}
