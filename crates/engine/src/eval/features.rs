//! The evaluation's features: one index per tunable weight.
//!
//! Every weight is a pair `(middlegame, endgame)`; the evaluation is linear in
//! the weights, which lets the tuner fit them by logistic regression.

/// A middlegame/endgame pair of centipawn values.
///
/// ```
/// use arbiter_engine::eval::features::{s, MATERIAL, S};
/// use arbiter_engine::eval::WEIGHTS;
///
/// assert_eq!(s(82, 94), S { mg: 82, eg: 94 });
/// // The pawn's material weight is worth something in both phases.
/// let pawn = WEIGHTS[MATERIAL];
/// assert!(pawn.mg > 0 && pawn.eg > 0);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct S {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

/// Shorthand constructor for [`S`].
pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

macro_rules! layout {
    ($($name:ident : $len:expr),* $(,)?) => {
        layout!(@acc 0usize; $($name : $len,)*);
        /// The names of the feature groups with their first index and length.
        pub const GROUPS: &[(&str, usize, usize)] = &[$((stringify!($name), $name, $len)),*];
    };
    (@acc $off:expr; $name:ident : $len:expr, $($rest:tt)*) => {
        #[doc = concat!("First index of the `", stringify!($name), "` group.")]
        pub const $name: usize = $off;
        layout!(@acc $off + $len; $($rest)*);
    };
    (@acc $off:expr;) => {
        /// The number of weights.
        pub const NUM_FEATURES: usize = $off;
    };
}

layout! {
    MATERIAL: 5,
    PST: 6 * 32,
    MOBILITY_KNIGHT: 9,
    MOBILITY_BISHOP: 14,
    MOBILITY_ROOK: 15,
    MOBILITY_QUEEN: 28,
    PASSED: 8,
    PASSED_BLOCKED: 8,
    PASSED_FREE: 8,
    PASSED_OWN_KING: 1,
    PASSED_THEIR_KING: 1,
    PASSED_PROTECTED: 1,
    CONNECTED: 8,
    ISOLATED: 1,
    DOUBLED: 1,
    BACKWARD: 1,
    BISHOP_PAIR: 1,
    ROOK_OPEN: 1,
    ROOK_SEMI_OPEN: 1,
    ROOK_ON_SEVENTH: 1,
    KNIGHT_OUTPOST: 1,
    BISHOP_OUTPOST: 1,
    THREAT_BY_PAWN: 1,
    THREAT_BY_MINOR: 6,
    THREAT_BY_ROOK: 6,
    HANGING: 1,
    KING_DANGER: 2,
    SAFE_CHECK: 4,
    SHIELD: 2,
    KING_OPEN_FILE: 1,
    KING_SEMI_OPEN_FILE: 1,
    TEMPO: 1,
}

/// The index of the piece-square weight for `role_index` on the square whose
/// index seen from the owner's side is `rel_sq` (files folded: a–d mirror h–e).
#[inline]
pub const fn pst_index(role_index: usize, rel_sq: usize) -> usize {
    let file = rel_sq % 8;
    let folded = if file > 3 { 7 - file } else { file };
    PST + role_index * 32 + (rel_sq / 8) * 4 + folded
}

/// The group a feature index belongs to, and the offset within it.
pub fn group_of(index: usize) -> (&'static str, usize) {
    for &(name, start, len) in GROUPS {
        if index >= start && index < start + len {
            return (name, index - start);
        }
    }
    ("?", index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_index_space() {
        let mut next = 0;
        for &(_, start, len) in GROUPS {
            assert_eq!(start, next);
            next += len;
        }
        assert_eq!(next, NUM_FEATURES);
        assert_eq!(group_of(PST + 3), ("PST", 3));
    }

    #[test]
    fn pst_folds_files() {
        assert_eq!(pst_index(0, 0), pst_index(0, 7));
        assert_eq!(pst_index(2, 8 + 3), pst_index(2, 8 + 4));
        assert_ne!(pst_index(2, 8), pst_index(2, 16));
    }
}
