//! Playing weaker on purpose (`UCI_LimitStrength`, `UCI_Elo`), in a way that
//! resembles a human of that rating rather than a strong engine that blunders
//! at random: the engine looks at fewer positions (a shallower, narrower
//! view), considers a few candidate moves, and picks among those that look
//! nearly as good, more loosely the lower the rating.
//!
//! The mapping from `UCI_Elo` to node budget and choice temperature is
//! calibrated by matches against the ladder (`docs/strength.md`).

use crate::search::{SearchContext, Searcher};
use crate::types::{Score, SearchInfo, SearchResult, MATE_BOUND, MAX_ELO, MIN_ELO};

/// The settings one `UCI_Elo` value stands for.
///
/// ```
/// use arbiter_engine::engine::{MAX_ELO, MIN_ELO};
/// use arbiter_engine::strength::handicap;
///
/// let weak = handicap(1200);
/// let strong = handicap(2200);
/// // A stronger setting looks at more positions and chooses more strictly.
/// assert!(weak.nodes < strong.nodes);
/// assert!(weak.temperature > strong.temperature);
/// assert_eq!(weak.candidates, 4);
/// // Ratings outside the offered range are clamped.
/// assert_eq!(handicap(0), handicap(MIN_ELO));
/// assert_eq!(handicap(9_999), handicap(MAX_ELO));
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Handicap {
    /// Nodes per move.
    pub nodes: u64,
    /// Candidate moves compared (MultiPV).
    pub candidates: usize,
    /// Softmax temperature in centipawns when choosing among candidates.
    pub temperature: f64,
}

/// Calibration points: (`UCI_Elo`, nodes per move, temperature), on the
/// scale of the ladder in `docs/strength.md` (Stockfish 15.1 `UCI_Elo` 1500
/// at its label, 2000 ≈ 2440). Measured at 5 s + 0.05 s over 100 games each
/// (1400 vs Stockfish 1500, 1800 vs Stockfish 1500) and 35 games (2200 vs
/// Stockfish 2000), the previous points (480, 6,000 and 30,720 nodes) played
/// at about 1237, 1752 and 2085: about 204 Elo per e-fold of nodes. The
/// points below are moved along that line so that each plays at its label.
const CALIBRATION: [(u32, f64, f64); 5] = [
    (MIN_ELO, 150.0, 124.0),
    (1400, 1_060.0, 82.0),
    (1800, 7_550.0, 30.0),
    (2200, 53_500.0, 19.0),
    (MAX_ELO, 380_000.0, 4.0),
];

/// The handicap for a rating (clamped to the offered range): nodes
/// interpolated geometrically, temperature linearly, between calibration points.
pub fn handicap(elo: u32) -> Handicap {
    let e = elo.clamp(MIN_ELO, MAX_ELO);
    let mut i = 0;
    while i + 2 < CALIBRATION.len() && e > CALIBRATION[i + 1].0 {
        i += 1;
    }
    let (e0, n0, t0) = CALIBRATION[i];
    let (e1, n1, t1) = CALIBRATION[i + 1];
    let x = (e - e0) as f64 / (e1 - e0) as f64;
    Handicap {
        nodes: (n0 * (n1 / n0).powf(x)) as u64,
        candidates: 4,
        temperature: t0 + (t1 - t0) * x,
    }
}

fn next_random(state: &mut u64) -> f64 {
    // xorshift64*
    let mut x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
}

/// A weakened search: a node-limited MultiPV search, then a random choice
/// among the candidates weighted by `exp(-(best - score) / temperature)`.
pub(crate) fn search_weakened(
    ctx: SearchContext<'_>,
    rng: &mut u64,
    info: &mut dyn FnMut(&SearchInfo),
) -> Option<SearchResult> {
    let pos = ctx.game.last()?;
    let clock = ctx.clock(pos);
    let h = handicap(ctx.options.elo);
    let mut limited = ctx.limits.clone();
    limited.nodes = Some(ctx.limits.nodes.map_or(h.nodes, |n| n.min(h.nodes)));
    let mut s = Searcher::new(
        ctx.tt,
        ctx.history,
        ctx.stop,
        clock,
        ctx.game,
        limited.nodes.unwrap_or(u64::MAX),
    );
    let lines = s.iterate(pos, &limited, h.candidates, info)?;
    let best_score = lines.first()?.score;
    // Never throw away a forced mate, and never choose a move that gets mated.
    let weights: Vec<f64> = lines
        .iter()
        .map(|l| {
            let misses_mate = best_score >= MATE_BOUND && l.score < MATE_BOUND;
            let gets_mated = l.score <= -MATE_BOUND && best_score > -MATE_BOUND;
            if misses_mate || gets_mated {
                0.0
            } else {
                (-((best_score - l.score) as f64) / h.temperature).exp()
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let mut r = next_random(rng) * total;
    let mut chosen = 0;
    for (i, w) in weights.iter().enumerate() {
        if r < *w {
            chosen = i;
            break;
        }
        r -= w;
    }
    let line = &lines[chosen];
    let best = *line.pv.first()?;
    Some(SearchResult {
        best,
        ponder: line.pv.get(1).copied(),
        score: Score::from_internal(line.score),
        depth: s.completed_depth,
        nodes: s.nodes,
        pv: line.pv.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handicap_grows_with_rating() {
        let mut prev = handicap(0);
        assert_eq!(prev, handicap(MIN_ELO));
        for elo in (MIN_ELO..=MAX_ELO).step_by(50) {
            let h = handicap(elo);
            assert!(
                h.nodes >= prev.nodes && h.temperature <= prev.temperature,
                "{elo}"
            );
            prev = h;
        }
        assert_eq!(handicap(1400).nodes, 1_060);
        assert_eq!(handicap(1800).nodes, 7_550);
        assert_eq!(handicap(MAX_ELO + 100), handicap(MAX_ELO));
    }

    #[test]
    fn random_numbers_are_in_range() {
        let mut s = 12345u64;
        for _ in 0..1000 {
            let x = next_random(&mut s);
            assert!((0.0..1.0).contains(&x));
        }
    }
}
