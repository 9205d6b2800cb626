//! Glicko-2 (M. Glickman, "Example of the Glicko-2 system"), the rating system
//! Lichess uses for online play, with the volatility found by the Illinois
//! method as the paper's step 5.

use std::f64::consts::PI;

const SCALE: f64 = 173.7178;

/// A Glicko-2 rating: rating, deviation and volatility (Glicko scale).
///
/// ```
/// let r = arbiter_tournament::glicko2::Rating::default();
/// assert_eq!((r.rating, r.deviation, r.volatility), (1500.0, 350.0, 0.06));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// r.
    pub rating: f64,
    /// RD.
    pub deviation: f64,
    /// σ.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

/// One result of the period: the opponent's rating and the score (1, ½, 0).
///
/// ```
/// use arbiter_tournament::glicko2::{Outcome, Rating};
/// let o = Outcome { opponent: Rating::default(), score: 1.0 };
/// assert_eq!(o.score, 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    /// The opponent before the period.
    pub opponent: Rating,
    /// 1, 0.5 or 0.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// The rating after one period with `outcomes`, system constant `tau`
/// (the paper suggests 0.3–1.2; Lichess uses 0.75). Without games only the
/// deviation grows (step 6).
///
/// ```
/// use arbiter_tournament::glicko2::{update, Outcome, Rating};
/// // Glickman's example (τ = 0.5): 1500/200/0.06 beats 1400/30, loses to
/// // 1550/100 and to 1700/300 → 1464.05 / 151.52 / 0.05999.
/// let r = |rating, deviation| Rating { rating, deviation, volatility: 0.06 };
/// let new = update(r(1500.0, 200.0), &[
///     Outcome { opponent: r(1400.0, 30.0), score: 1.0 },
///     Outcome { opponent: r(1550.0, 100.0), score: 0.0 },
///     Outcome { opponent: r(1700.0, 300.0), score: 0.0 },
/// ], 0.5);
/// assert!((new.rating - 1464.05).abs() < 0.01);
/// assert!((new.deviation - 151.52).abs() < 0.01);
/// assert!((new.volatility - 0.05999).abs() < 0.00001);
/// ```
pub fn update(player: Rating, outcomes: &[Outcome], tau: f64) -> Rating {
    update_over(player, outcomes, tau, 1.0)
}

/// As [`update`], with the deviation growing over `periods` rating periods
/// (`φ* = √(φ² + t·σ′²)`); Lichess rates each game as its own period with
/// `t = 0`.
///
/// ```
/// use arbiter_tournament::glicko2::{update_over, Outcome, Rating};
/// // Two new players (1500/350/0.06), White wins, t = 0, τ = 0.75.
/// let p = Rating::default();
/// let w = update_over(p, &[Outcome { opponent: p, score: 1.0 }], 0.75, 0.0);
/// assert!((w.rating - 1662.21).abs() < 0.01);
/// assert!((w.deviation - 290.2305).abs() < 0.001);
/// ```
pub fn update_over(player: Rating, outcomes: &[Outcome], tau: f64, periods: f64) -> Rating {
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if outcomes.is_empty() {
        let phi_star = (phi * phi + periods * sigma * sigma).sqrt();
        return Rating {
            deviation: phi_star * SCALE,
            ..player
        };
    }
    let mut v_inv = 0.0;
    let mut delta_sum = 0.0;
    for o in outcomes {
        let mu_j = (o.opponent.rating - 1500.0) / SCALE;
        let phi_j = o.opponent.deviation / SCALE;
        let gj = g(phi_j);
        let e = 1.0 / (1.0 + (-gj * (mu - mu_j)).exp());
        v_inv += gj * gj * e * (1.0 - e);
        delta_sum += gj * (o.score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * delta_sum;
    // Step 5: the new volatility by the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let eps = 1e-6;
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut fa = f(big_a);
    let mut fb = f(big_b);
    let mut iterations = 0;
    while (big_b - big_a).abs() > eps && iterations < 1000 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
        iterations += 1;
    }
    let sigma_new = (big_a / 2.0).exp();
    let phi_star = (phi * phi + periods * sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * delta_sum;
    Rating {
        rating: SCALE * mu_new + 1500.0,
        deviation: SCALE * phi_new,
        volatility: sigma_new,
    }
}
