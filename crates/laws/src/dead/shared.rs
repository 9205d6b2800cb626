//! Exact verdicts shared by every detector of the process (Art. 5.2 b /
//! 5.2.2, 6.9: whether a side can mate is a property of the position under
//! Art. 9.2 — placement, turn, castling rights, en passant — not of the
//! game it arose in).
//!
//! Games often meet the same positions (the openings of random and real
//! games alike), so an exact solver's answer found in one game serves the
//! others. Only "can mate" and "cannot mate" are shared, and only from
//! solvers that say they are exact ([`Unwinnability::shares_verdicts`]):
//! any two exact solvers give the same answers. The cache is bounded
//! ([`LIMIT`] entries, emptied when full) and keyed by Zobrist key,
//! confirmed by comparing the identity itself.

use super::{Unwinnability, Verdict};
use crate::repetition::Identity;
use arbiter_chess::{Color, Position};
use std::collections::HashMap;
use std::sync::Mutex;

/// Entries kept before the cache is emptied.
pub const LIMIT: usize = 1 << 16;

type Entry = (Identity, [Option<Verdict>; 2]);

static CACHE: Mutex<Option<HashMap<u64, Entry>>> = Mutex::new(None);

/// The shared verdict for `color` in `pos`, if an exact solver gave one.
pub(super) fn get(pos: &Position, color: Color) -> Option<Verdict> {
    let cache = CACHE.lock().ok()?;
    let (identity, verdicts) = cache.as_ref()?.get(&pos.zobrist())?;
    if *identity == Identity::of(pos) {
        verdicts[color.index()]
    } else {
        None
    }
}

/// Shares `solver`'s verdict `v` for `color` in `pos` (only a decided one,
/// only from an exact solver).
pub(super) fn put(solver: &dyn Unwinnability, pos: &Position, color: Color, v: Verdict) {
    if v == Verdict::Unknown || !solver.shares_verdicts() {
        return;
    }
    let Ok(mut cache) = CACHE.lock() else { return };
    let cache = cache.get_or_insert_with(HashMap::new);
    if cache.len() >= LIMIT {
        cache.clear();
    }
    let identity = Identity::of(pos);
    let entry = cache.entry(pos.zobrist()).or_insert((identity, [None; 2]));
    if entry.0 != identity {
        *entry = (identity, [None; 2]);
    }
    entry.1[color.index()] = Some(v);
}

/// Empties the cache (a measurement that must start cold, as a fresh
/// process does).
pub(super) fn clear() {
    if let Ok(mut cache) = CACHE.lock() {
        *cache = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ChaSolver;

    struct Guess;

    impl Unwinnability for Guess {
        fn solve(&self, _: &Position, _: Color) -> (Verdict, Option<Vec<arbiter_chess::Move>>) {
            (Verdict::Unwinnable, None)
        }
    }

    #[test]
    fn only_exact_decided_verdicts_are_shared() {
        let p: Position = "8/8/8/4k3/8/8/8/3QK2R b K - 0 1".parse().unwrap();
        // A solver that does not say it is exact shares nothing.
        put(&Guess, &p, Color::White, Verdict::Unwinnable);
        assert_eq!(get(&p, Color::White), None);
        put(&ChaSolver, &p, Color::White, Verdict::Unknown);
        assert_eq!(get(&p, Color::White), None);
        put(&ChaSolver, &p, Color::White, Verdict::Winnable);
        assert_eq!(get(&p, Color::White), Some(Verdict::Winnable));
        assert_eq!(get(&p, Color::Black), None);
        // Another identity (no castling right) is another position.
        let q: Position = "8/8/8/4k3/8/8/8/3QK2R b - - 0 1".parse().unwrap();
        assert_eq!(get(&q, Color::White), None);
    }
}
