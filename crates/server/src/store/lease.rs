//! Leases: with several nodes on one database, each live game has exactly
//! one owner at a time.
//!
//! A node owns a game while it holds the game's lease: a row of `leases`
//! naming the node, a **generation** and an expiry. The owner renews its
//! leases well before they expire; a node may take a lease over only once
//! it has expired, and taking it over adds one to the generation. Every
//! write of a game's events carries the generation its writer holds
//! ([`WriteOp::Fence`](super::WriteOp::Fence)) and commits only if that is
//! still the lease's generation, in the same transaction: a node that lost
//! its lease (it stalled, or was cut off, past the expiry) can never commit
//! again, whatever it still believes.
//!
//! Expiry compares epoch milliseconds of the nodes' clocks: they must be
//! synchronised (NTP) to well within the lease's time to live.
//!
//! ```
//! use arbiter_server::store::lease::{Lease, Acquired};
//! let lease = Lease { game_id: "aaaaaaaa".into(), node: "n1".into(), generation: 3, expires_at: 10_000 };
//! let got = Acquired { lease, previous: Some(("n2".into(), 4_000)) };
//! assert_eq!(got.lease.generation, 3);
//! ```

/// A lease held by a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// The game.
    pub game_id: String,
    /// The node holding it.
    pub node: String,
    /// Its generation: 1 for the first owner, one more at each change of
    /// owner (or restart of the same node).
    pub generation: u64,
    /// Epoch ms at which it lapses unless renewed.
    pub expires_at: u64,
}

/// A lease just taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acquired {
    /// The lease.
    pub lease: Lease,
    /// The previous holder and the epoch ms it last renewed the lease at:
    /// the last moment that node is known to have run the game (the
    /// single-node resume rule takes it as the last heartbeat).
    pub previous: Option<(String, u64)>,
}

/// The outcome of asking for a lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// The lease is ours.
    Acquired(Acquired),
    /// Another node holds it until `until` (epoch ms).
    Held {
        /// The holder.
        node: String,
        /// Its expiry.
        until: u64,
    },
}

/// The stored lease row: `(node, generation, expires_at, renewed_at)`.
pub(crate) type Row = (String, u64, u64, u64);

/// Decides an attempt by `node` at `now` on the lease stored as `row`
/// (`None`: never leased). `Err` is the holder's name and expiry.
pub(crate) fn decide(row: Option<&Row>, node: &str, now: u64) -> Result<u64, (String, u64)> {
    match row {
        None => Ok(1),
        Some((holder, generation, expires_at, _)) => {
            if holder != node && *expires_at > now {
                Err((holder.clone(), *expires_at))
            } else {
                Ok(generation + 1)
            }
        }
    }
}

/// The previous holder, if there was one.
pub(crate) fn previous(row: Option<Row>) -> Option<(String, u64)> {
    row.map(|(n, _, _, r)| (n, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_expired_or_own_lease_is_taken() {
        assert_eq!(decide(None, "a", 5), Ok(1));
        let held = ("b".to_string(), 4, 100, 90);
        assert_eq!(decide(Some(&held), "a", 99), Err(("b".into(), 100)));
        assert_eq!(decide(Some(&held), "a", 100), Ok(5));
        // The same node coming back takes a new generation: its earlier
        // incarnation is fenced off too.
        assert_eq!(decide(Some(&held), "b", 50), Ok(5));
    }
}
