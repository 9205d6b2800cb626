//! The transposition table: a shared hash table of search results keyed by
//! the Zobrist key (equal for positions that are the same under Art. 9.2).
//!
//! Buckets of four entries fill one 64-byte cache line. Each entry is two
//! atomic words, the key stored XOR the data, so that threads may share the
//! table without locks: a torn write only makes an entry fail to match.

use arbiter_chess::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// What a stored score means relative to the true value.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::tt::{Bound, Tt, TtEntry};
///
/// let tt = Tt::new(1);
/// let key = Position::standard().zobrist();
/// // A beta cutoff: the position is worth at least 50.
/// let cut = TtEntry {
///     mv: None,
///     score: 50,
///     eval: 10,
///     depth: 4,
///     bound: Bound::Lower,
/// };
/// tt.store(key, 0, cut);
/// assert_eq!(tt.probe(key, 0).map(|e| e.bound), Some(Bound::Lower));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (a beta cutoff).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
    /// The score is exact.
    Exact,
}

/// One probed entry.
///
/// Mate scores are kept relative to the node: stored as mate in 5 plies from
/// the root at ply 3, the same node probed at ply 1 is mate in 3 plies.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::search::MATE;
/// use arbiter_engine::tt::{Bound, Tt, TtEntry};
///
/// let pos = Position::standard();
/// let e4 = pos.parse_uci("e2e4").unwrap();
/// let tt = Tt::new(1);
/// let entry = TtEntry {
///     mv: Some(e4),
///     score: MATE - 5,
///     eval: 0,
///     depth: 6,
///     bound: Bound::Exact,
/// };
/// tt.store(pos.zobrist(), 3, entry);
/// let found = tt.probe(pos.zobrist(), 1).unwrap();
/// assert_eq!(found.score, MATE - 3);
/// assert_eq!(
///     (found.mv, found.depth, found.bound),
///     (Some(e4), 6, Bound::Exact)
/// );
/// ```
#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    /// The best (or refuting) move, if any.
    pub mv: Option<Move>,
    /// The score as the search sees it at the ply probed or stored (mate
    /// distances counted from the root; the table keeps them from the node).
    pub score: i32,
    /// The static evaluation.
    pub eval: i32,
    /// The depth searched.
    pub depth: i32,
    /// The bound.
    pub bound: Bound,
}

const BUCKET: usize = 4;

struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// The transposition table.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::tt::{Bound, Tt, TtEntry};
///
/// let tt = Tt::new(1);
/// let start = Position::standard();
/// let key = start.zobrist();
/// assert!(tt.probe(key, 0).is_none());
///
/// let d4 = start.parse_uci("d2d4").unwrap();
/// tt.new_search();
/// tt.store(
///     key,
///     0,
///     TtEntry {
///         mv: Some(d4),
///         score: 25,
///         eval: 15,
///         depth: 8,
///         bound: Bound::Exact,
///     },
/// );
/// let e = tt.probe(key, 0).unwrap();
/// assert_eq!((e.mv, e.score, e.eval), (Some(d4), 25, 15));
/// // A result without a move keeps the stored one.
/// tt.store(
///     key,
///     0,
///     TtEntry {
///         mv: None,
///         score: 30,
///         eval: 15,
///         depth: 9,
///         bound: Bound::Upper,
///     },
/// );
/// assert_eq!(tt.probe(key, 0).unwrap().mv, Some(d4));
///
/// tt.clear();
/// assert!(tt.probe(key, 0).is_none());
/// ```
pub struct Tt {
    slots: Vec<Slot>,
    buckets: usize,
    age: AtomicU8,
}

/// Scores at or beyond this magnitude are mate scores, stored relative to the node.
const MATE_BOUND: i32 = crate::types::MATE_BOUND;

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let m = mv.map_or(0, |m| m.to_u16()) as u64;
    let s = (score as i16) as u16 as u64;
    let e = (eval as i16) as u16 as u64;
    let d = depth.clamp(0, 255) as u64;
    let b = match bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    m | s << 16 | e << 32 | d << 48 | b << 56 | ((age as u64) & 0x3f) << 58
}

/// The buckets of a table of about `mb` mebibytes (1 to
/// [`MAX_HASH`](crate::types::MAX_HASH)).
fn buckets_for(mb: usize) -> usize {
    let bytes = mb.clamp(1, crate::types::MAX_HASH) * 1024 * 1024;
    (bytes / (BUCKET * 16)).max(1)
}

impl Tt {
    /// A table of about `mb` mebibytes (at least one bucket, at most
    /// [`MAX_HASH`](crate::types::MAX_HASH) MiB).
    pub fn new(mb: usize) -> Tt {
        let buckets = buckets_for(mb);
        let mut slots = Vec::with_capacity(buckets * BUCKET);
        slots.resize_with(buckets * BUCKET, || Slot {
            key: AtomicU64::new(0),
            data: AtomicU64::new(0),
        });
        Tt {
            slots,
            buckets,
            age: AtomicU8::new(0),
        }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in &self.slots {
            s.key.store(0, Relaxed);
            s.data.store(0, Relaxed);
        }
        self.age.store(0, Relaxed);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        let a = self.age.load(Relaxed);
        self.age.store((a + 1) & 0x3f, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Prefetch-free probe: the entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        let start = self.bucket(key);
        for s in &self.slots[start..start + BUCKET] {
            let data = s.data.load(Relaxed);
            if data != 0 && s.key.load(Relaxed) ^ data == key {
                let raw = (data & 0xffff) as u16;
                let mv = if raw == 0 {
                    None
                } else {
                    Some(Move::from_u16(raw))
                };
                let bound = match (data >> 56) & 3 {
                    1 => Bound::Lower,
                    2 => Bound::Upper,
                    _ => Bound::Exact,
                };
                return Some(TtEntry {
                    mv,
                    score: from_tt(((data >> 16) as u16 as i16) as i32, ply),
                    eval: ((data >> 32) as u16 as i16) as i32,
                    depth: ((data >> 48) & 0xff) as i32,
                    bound,
                });
            }
        }
        None
    }

    /// Stores the result `entry` of the position `key` searched at `ply`.
    /// Keeps an existing move when the new result has none.
    #[inline]
    pub fn store(&self, key: u64, ply: usize, entry: TtEntry) {
        let TtEntry {
            mv,
            score,
            eval,
            depth,
            bound,
        } = entry;
        let age = self.age.load(Relaxed);
        let start = self.bucket(key);
        let bucket = &self.slots[start..start + BUCKET];
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s.data.load(Relaxed);
            if data == 0 || s.key.load(Relaxed) ^ data == key {
                victim = i;
                if data != 0 {
                    // Same position: keep a deeper exact result from this search.
                    let old_depth = ((data >> 48) & 0xff) as i32;
                    let old_age = ((data >> 58) & 0x3f) as u8;
                    if bound != Bound::Exact && old_age == age && old_depth > depth + 3 {
                        return;
                    }
                }
                worst = i32::MIN;
                break;
            }
            let d = ((data >> 48) & 0xff) as i32;
            let a = ((data >> 58) & 0x3f) as u8;
            let age_diff = (age.wrapping_sub(a) & 0x3f) as i32;
            let value = d - 8 * age_diff;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let s = &bucket[victim];
        let mut mv = mv;
        if mv.is_none() && worst == i32::MIN {
            let old = s.data.load(Relaxed);
            if old != 0 && s.key.load(Relaxed) ^ old == key && old & 0xffff != 0 {
                mv = Some(Move::from_u16((old & 0xffff) as u16));
            }
        }
        let data = pack(mv, to_tt(score, ply), eval, depth, bound, age);
        s.data.store(data, Relaxed);
        s.key.store(key ^ data, Relaxed);
    }

    /// Permille of sampled entries written during the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Relaxed);
                d != 0 && ((d >> 58) & 0x3f) as u8 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_chess::Square;

    /// A size beyond `MAX_HASH` (say `1 << 44` MiB through the library) is
    /// `MAX_HASH`, not an overflow.
    #[test]
    fn sizes_are_bounded() {
        assert_eq!(buckets_for(1 << 44), buckets_for(crate::types::MAX_HASH));
        assert_eq!(buckets_for(usize::MAX), buckets_for(crate::types::MAX_HASH));
        assert_eq!(buckets_for(0), buckets_for(1));
        assert!(buckets_for(2) > buckets_for(1));
    }

    #[test]
    fn store_and_probe() {
        let tt = Tt::new(1);
        let m = Move::new(Square::E2, Square::E4);
        tt.store(
            0xdead_beef,
            3,
            TtEntry {
                mv: Some(m),
                score: -123,
                eval: 45,
                depth: 7,
                bound: Bound::Lower,
            },
        );
        let e = tt.probe(0xdead_beef, 3).unwrap();
        assert_eq!(e.mv, Some(m));
        assert_eq!(
            (e.score, e.eval, e.depth, e.bound),
            (-123, 45, 7, Bound::Lower)
        );
        assert!(tt.probe(0xdead_bee0, 3).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = Tt::new(1);
        let mate_in_3_plies_from_root = crate::types::MATE - 5;
        tt.store(
            42,
            2,
            TtEntry {
                mv: None,
                score: mate_in_3_plies_from_root,
                eval: 0,
                depth: 4,
                bound: Bound::Exact,
            },
        );
        // Seen from ply 4, the same node is two plies further from the root.
        assert_eq!(tt.probe(42, 4).unwrap().score, crate::types::MATE - 7);
    }
}
