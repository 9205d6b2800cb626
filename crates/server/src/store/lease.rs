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
//! A node renews its leases all at once: its row of `nodes` (its expiry
//! and last renewal) is what it renews, and a lease it holds lives while
//! that row does ([`HELD`] in the lease's own row until it is released).
//! At 5,000 games a renewal per lease was as many row writes a second as
//! the moves themselves (docs/performance.md, 2026-12-04).
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

/// The expiry stored in a lease's own row while its node holds it: the
/// lease lapses with its node's row of `nodes` (or is released: 0).
pub(crate) const HELD: i64 = i64::MAX;

/// Buckets of the fence's locks on PostgreSQL: a batch's writer holds the
/// buckets of its games shared (at most this many advisory locks, however
/// many games it writes), a takeover holds its game's bucket exclusively.
/// A takeover of one game waits at most for the batches in flight that
/// share its bucket: a few milliseconds, once per takeover.
pub(crate) const FENCE_BUCKETS: u32 = 256;

/// The first key of the fence's advisory locks (`"Arbi"`): the second is
/// the bucket ([`fence_bucket`]).
pub(crate) const FENCE_LOCK_SPACE: i32 = 0x4172_6269;

/// The bucket of `game_id`'s fence lock: FNV-1a of the id, the same on
/// every node.
pub(crate) fn fence_bucket(game_id: &str) -> i32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in game_id.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % u64::from(FENCE_BUCKETS)) as i32
}

/// Checks the fences of a batch ([`WriteOp::Fence`](super::WriteOp::Fence))
/// before anything of it is written: `generation_of(game)` reads the
/// generation of the game's lease inside the batch's transaction, and a
/// fence whose generation is no longer the lease's fails the whole batch.
pub(crate) fn check_fences(
    ops: &[super::WriteOp],
    mut generation_of: impl FnMut(&str) -> Result<Option<i64>, super::StoreError>,
) -> Result<(), super::StoreError> {
    for op in ops {
        if let super::WriteOp::Fence {
            game_id,
            generation,
        } = op
        {
            if generation_of(game_id)? != Some(*generation as i64) {
                return Err(super::StoreError::Fenced {
                    game: game_id.clone(),
                    generation: *generation,
                });
            }
        }
    }
    Ok(())
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

/// The lease of `game_id` just taken by `node` (its new `generation`, until
/// `expires_at`) over the stored `row`, whose holder becomes the previous one.
pub(crate) fn acquired(
    game_id: &str,
    node: &str,
    generation: u64,
    expires_at: u64,
    row: Option<Row>,
) -> Attempt {
    Attempt::Acquired(Acquired {
        lease: Lease {
            game_id: game_id.to_string(),
            node: node.to_string(),
            generation,
            expires_at,
        },
        previous: row.map(|(n, _, _, r)| (n, r)),
    })
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

    #[test]
    fn a_fence_passes_only_at_the_lease_s_generation() {
        use super::super::{StoreError, WriteOp};
        let fence = |game: &str, generation| WriteOp::Fence {
            game_id: game.into(),
            generation,
        };
        let stored = |game: &str| Ok((game == "g").then_some(3));
        assert!(check_fences(&[WriteOp::Heartbeat(1), fence("g", 3)], stored).is_ok());
        let stale = check_fences(&[fence("g", 3), fence("g", 2)], stored);
        assert!(matches!(
            stale,
            Err(StoreError::Fenced { generation: 2, .. })
        ));
        // A game never leased has no generation: every fence on it fails.
        assert!(check_fences(&[fence("h", 1)], stored).is_err());
    }

    #[test]
    fn fence_buckets_are_fixed_and_spread() {
        // The same on every node (and every build): a change here would
        // let two versions of the program fence by different locks.
        assert_eq!(fence_bucket(""), (0xcbf2_9ce4_8422_2325u64 % 256) as i32);
        let ids: Vec<String> = (0..4096).map(|i| format!("g{i:07}")).collect();
        let mut seen = vec![0u32; FENCE_BUCKETS as usize];
        for id in &ids {
            let b = fence_bucket(id);
            assert!((0..FENCE_BUCKETS as i32).contains(&b));
            seen[b as usize] += 1;
        }
        // 16 a bucket on average: none empty, none crowded.
        assert!(seen.iter().all(|&n| (1..=48).contains(&n)), "{seen:?}");
    }

    #[test]
    fn the_holder_of_the_stored_row_becomes_the_previous_one() {
        let held = ("b".to_string(), 4, 100, 90);
        let Attempt::Acquired(got) = acquired("g", "a", 5, 200, Some(held)) else {
            panic!("acquired");
        };
        assert_eq!((got.lease.generation, got.lease.expires_at), (5, 200));
        assert_eq!(got.previous, Some(("b".to_string(), 90)));
        let Attempt::Acquired(first) = acquired("g", "a", 1, 200, None) else {
            panic!("acquired");
        };
        assert_eq!(first.previous, None);
    }
}
