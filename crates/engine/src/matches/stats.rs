//! Match statistics: score, Elo difference with its 95% interval, likelihood
//! of superiority, and the sequential probability ratio test (SPRT) that
//! stops a match once it is clear enough.
//!
//! Elo from a score `s`: `-400 · log10(1/s − 1)` (the logistic model). The
//! interval comes from the per-game variance of the results (wins, draws and
//! losses as a trinomial), mapped through the same curve. The SPRT is the
//! normal approximation of the generalised SPRT: with per-game mean `s` and
//! variance `σ²` over `n` games, `LLR = n (s₁ − s₀)(2s − s₀ − s₁) / (2σ²)`,
//! where `sᵢ` is the expected score at `eloᵢ`.

/// Wins, draws and losses of the first engine.
///
/// ```
/// use arbiter_engine::matches::stats::Tally;
///
/// // 60 wins, 20 draws and 20 losses: 70 points of 100.
/// let t = Tally {
///     wins: 60,
///     draws: 20,
///     losses: 20,
/// };
/// assert_eq!(t.games(), 100);
/// assert!((t.score() - 0.7).abs() < 1e-12);
/// // Per-game variance: (60·0.3² + 20·0.2² + 20·0.7²) / 100.
/// assert!((t.variance() - 0.16).abs() < 1e-12);
/// assert!(t.los() > 0.999);
/// assert_eq!(Tally::default().score(), 0.5);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The expected score at an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference for an expected score (infinite at 0 and 1).
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // (Not −400·log10(1/s − 1): at an even score that is −0, printed "-0.0".)
        400.0 * (s / (1.0 - s)).log10()
    }
}

/// Elo difference with a 95% interval.
///
/// ```
/// use arbiter_engine::matches::stats::{elo_of_score, Tally};
///
/// let t = Tally {
///     wins: 60,
///     draws: 20,
///     losses: 20,
/// };
/// let e = t.elo();
/// // A score of 0.7 is +147 Elo: -400 · log10(1/0.7 - 1).
/// assert!((e.elo - 147.2).abs() < 0.5, "{e:?}");
/// assert!(e.low < e.elo && e.elo < e.high);
/// // The interval: score ± 1.96 standard errors (σ = 0.4, n = 100).
/// assert!((e.low - elo_of_score(0.7 - 1.959_964 * 0.04)).abs() < 1e-6);
/// assert!((e.margin() - (e.high - e.low) / 2.0).abs() < 1e-12);
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloEstimate {
    /// Point estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl EloEstimate {
    /// Half the width of the interval (the usual "±").
    pub fn margin(&self) -> f64 {
        let m = (self.high - self.low) / 2.0;
        if m.is_nan() {
            f64::INFINITY
        } else {
            m
        }
    }
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (0.5 with no games).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        self.moments(0.0).0
    }

    /// Per-game variance of the score.
    pub fn variance(&self) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        self.moments(0.0).1
    }

    /// The mean score and its per-game variance, with `prior` games of each
    /// kind added to the counts (which must then hold a game).
    fn moments(&self, prior: f64) -> (f64, f64) {
        let w = f64::from(self.wins) + prior;
        let d = f64::from(self.draws) + prior;
        let l = f64::from(self.losses) + prior;
        let n = w + d + l;
        let s = (w + 0.5 * d) / n;
        let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
        (s, var)
    }

    /// The Elo difference and its 95% interval.
    pub fn elo(&self) -> EloEstimate {
        let n = self.games() as f64;
        let s = self.score();
        let se = if n > 0.0 {
            (self.variance() / n).sqrt()
        } else {
            0.5
        };
        let z = 1.959_964;
        EloEstimate {
            elo: elo_of_score(s),
            low: elo_of_score(s - z * se),
            high: elo_of_score(s + z * se),
        }
    }

    /// Likelihood of superiority: the probability that the first engine is
    /// the stronger, from wins and losses (draws carry no information).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// The error function (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7).
fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// An SPRT on the Elo difference.
///
/// ```
/// use arbiter_engine::matches::stats::{Sprt, SprtState, Tally};
///
/// // H0: no gain; H1: +10 Elo; α = β = 0.05.
/// let sprt = Sprt::new(0.0, 10.0);
/// let (lower, upper) = sprt.bounds();
/// assert!((lower - (0.05f64 / 0.95).ln()).abs() < 1e-12);
/// assert!((upper - (0.95f64 / 0.05).ln()).abs() < 1e-12);
/// assert_eq!(sprt.llr(&Tally::default()), 0.0);
/// // A few more wins than losses is not yet enough.
/// let early = Tally {
///     wins: 12,
///     draws: 20,
///     losses: 10,
/// };
/// assert!(sprt.llr(&early) > 0.0);
/// assert_eq!(sprt.state(&early), SprtState::Continue);
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// The null hypothesis (usually 0).
    pub elo0: f64,
    /// The alternative hypothesis.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What the SPRT says so far.
///
/// ```
/// use arbiter_engine::matches::stats::{Sprt, SprtState, Tally};
///
/// let sprt = Sprt::new(0.0, 10.0);
/// assert_eq!(sprt.state(&Tally::default()), SprtState::Continue);
/// // Clearly stronger (+70 Elo over 1,000 games): H1.
/// let stronger = Tally {
///     wins: 400,
///     draws: 400,
///     losses: 200,
/// };
/// assert_eq!(sprt.state(&stronger), SprtState::AcceptH1);
/// // Level over 3,000 games: H0.
/// let level = Tally {
///     wins: 600,
///     draws: 1_800,
///     losses: 600,
/// };
/// assert_eq!(sprt.state(&level), SprtState::AcceptH0);
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum SprtState {
    /// Keep playing.
    Continue,
    /// The alternative (`elo1`) is accepted.
    AcceptH1,
    /// The null (`elo0`) is accepted.
    AcceptH0,
}

impl Sprt {
    /// An SPRT with α = β = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results. Results all of one kind
    /// (every game won, or every one drawn) have no variance: they are read
    /// with half a game of each kind added (a Jeffreys prior), so that the
    /// ratio still grows with them instead of staying 0 for ever.
    pub fn llr(&self, t: &Tally) -> f64 {
        let n = t.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let (mut score, mut var) = t.moments(0.0);
        if var <= 0.0 {
            (score, var) = t.moments(0.5);
        }
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * var)
    }

    /// The decision so far.
    pub fn state(&self, t: &Tally) -> SprtState {
        let llr = self.llr(t);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::AcceptH1
        } else if llr <= lo {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An even score is +0.0 Elo, not −0.0 ("Elo -0.0" was printed).
    #[test]
    fn an_even_score_is_zero_elo_without_a_sign() {
        assert_eq!(format!("{:+.1}", elo_of_score(0.5)), "+0.0");
        let even = Tally {
            wins: 3,
            draws: 2,
            losses: 3,
        };
        assert_eq!(format!("{:+.1}", even.elo().elo), "+0.0");
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for e in [-400.0, -100.0, 0.0, 35.0, 200.0] {
            assert!((elo_of_score(expected_score(e)) - e).abs() < 1e-9);
        }
        assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn interval_of_a_known_result() {
        // 60 wins, 20 draws, 20 losses: score 0.7, about +147 Elo.
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!((t.score() - 0.7).abs() < 1e-12);
        let e = t.elo();
        assert!((e.elo - 147.2).abs() < 0.5, "{e:?}");
        // Variance: (60·0.09 + 20·0.04 + 20·0.49) / 100 = 0.16; se = 0.04.
        assert!((t.variance() - 0.16).abs() < 1e-12);
        assert!((e.low - elo_of_score(0.7 - 1.959964 * 0.04)).abs() < 1e-6);
        assert!(e.low < e.elo && e.elo < e.high);
        assert!(t.los() > 0.999);
    }

    #[test]
    fn even_match_is_zero_and_los_half() {
        let t = Tally {
            wins: 10,
            draws: 5,
            losses: 10,
        };
        assert!(t.elo().elo.abs() < 1e-9);
        assert!((t.los() - 0.5).abs() < 1e-9);
    }

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn sprt_decides() {
        let s = Sprt::new(0.0, 5.0);
        let (lo, hi) = s.bounds();
        assert!((hi - 2.944).abs() < 0.01 && (lo + 2.944).abs() < 0.01);
        let strong = tally(400, 200, 200);
        assert_eq!(s.state(&strong), SprtState::AcceptH1);
        let weak = tally(200, 200, 400);
        assert_eq!(s.state(&weak), SprtState::AcceptH0);
        let few = tally(3, 2, 2);
        assert_eq!(s.state(&few), SprtState::Continue);
    }

    /// Results all of one kind have no variance; the test must still
    /// decide on them (it stayed at LLR 0 through 40 straight wins).
    #[test]
    fn sprt_decides_on_results_all_of_one_kind() {
        let s = Sprt::new(0.0, 200.0);
        let wins = |n| tally(n, 0, 0);
        assert_eq!(s.state(&wins(1)), SprtState::Continue);
        assert!(s.llr(&wins(1)) > 0.0);
        assert!(s.llr(&wins(5)) > s.llr(&wins(3)));
        let first = (1..=40).find(|&n| s.state(&wins(n)) == SprtState::AcceptH1);
        assert!(first.is_some_and(|n| (3..=10).contains(&n)), "{first:?}");
        let losses = tally(0, 0, 10);
        assert_eq!(s.state(&losses), SprtState::AcceptH0);
        // All draws: no better than elo0, so towards H0.
        let draws = tally(0, 40, 0);
        assert!(Sprt::new(0.0, 5.0).llr(&draws) < 0.0);
    }

    #[test]
    fn erf_values() {
        assert!((erf(0.0)).abs() < 1e-7);
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
        assert!((erf(-1.0) + 0.842_700_79).abs() < 2e-7);
    }
}
