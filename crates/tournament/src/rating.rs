//! FIDE rating changes (Handbook B.02, FIDE Rating Regulations effective
//! from 1 March 2024 with the amendments of 1 October 2025).
//!
//! The two tables of Art. 8.1 are normative — no formula reproduces them —
//! and are embedded verbatim.

/// Art. 8.1.1: `dp` for p = 0.50, 0.51, … 1.00 (`dp(1 − p) = −dp(p)`).
const DP: [i32; 51] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// Art. 8.1.2: the upper bound of the rating difference D for PD(H) = 0.50 + 0.01·i.
const PD_UPPER: [i32; 50] = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162,
    170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374,
    391, 411, 432, 456, 484, 517, 559, 619, 735,
];

/// The rating difference `dp` for a fractional score `p` (B.02 8.1.1), `p`
/// rounded to two decimals.
///
/// ```
/// use arbiter_tournament::rating::dp;
/// assert_eq!(dp(0.57), 50);
/// assert_eq!(dp(0.43), -50);
/// assert_eq!(dp(1.0), 800);
/// ```
pub fn dp(p: f64) -> i32 {
    let hundredths = (p.clamp(0.0, 1.0) * 100.0 + 1e-9).round() as i32;
    if hundredths >= 50 {
        DP[(hundredths - 50) as usize]
    } else {
        -DP[(50 - hundredths) as usize]
    }
}

/// The expected score PD of a player rated `own` against `opponent` by the
/// table of B.02 8.1.2, in hundredths, with the difference used as it is.
///
/// ```
/// use arbiter_tournament::rating::expected_hundredths;
/// assert_eq!(expected_hundredths(2000, 1800), 76);
/// assert_eq!(expected_hundredths(1800, 2000), 24);
/// ```
pub fn expected_hundredths(own: i32, opponent: i32) -> i32 {
    // In i64: any two i32 ratings (beyond the table's 735, the same 0.92/0.08).
    let d = (i64::from(own) - i64::from(opponent)).abs();
    let i = PD_UPPER
        .iter()
        .position(|&u| d <= i64::from(u))
        .unwrap_or(50) as i32;
    if own >= opponent {
        50 + i
    } else {
        50 - i
    }
}

/// The difference counted for a rated game (B.02 8.3.1, from 1 October 2025):
/// more than 400 points counts as 400 for a player rated below 2650.
///
/// ```
/// use arbiter_tournament::rating::counted_difference;
/// assert_eq!(counted_difference(2000, 2500), -400);
/// assert_eq!(counted_difference(2700, 2200), 500);
/// ```
pub fn counted_difference(own: i32, opponent: i32) -> i32 {
    let d = own.saturating_sub(opponent);
    if own >= 2650 {
        d
    } else {
        d.clamp(-400, 400)
    }
}

/// One rated game: the opponent's rating and the score (1, ½ or 0).
///
/// ```
/// let g = arbiter_tournament::rating::Game { opponent: 1800, score: 1.0 };
/// assert_eq!(g.opponent, 1800);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Game {
    /// The opponent's rating.
    pub opponent: i32,
    /// 1, 0.5 or 0.
    pub score: f64,
}

/// The development coefficient K (B.02 8.3.3).
///
/// ```
/// use arbiter_tournament::rating::{k_factor, Player};
/// let p = Player { rating: 2000, games_before: 100, young: false, ever_2400: false };
/// assert_eq!(k_factor(&p, 9), 20);
/// assert_eq!(k_factor(&Player { games_before: 10, ..p }, 9), 40);
/// // n × K may not exceed 700: 40 × 20 games > 700 → K = 35.
/// assert_eq!(k_factor(&Player { games_before: 10, ..p }, 20), 35);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Player {
    /// The published rating.
    pub rating: i32,
    /// Rated games played before this period.
    pub games_before: u32,
    /// Until the end of the year of the 18th birthday.
    pub young: bool,
    /// Whether the published rating has ever reached 2400.
    pub ever_2400: bool,
}

/// K for a player playing `games` rated games in the period.
pub fn k_factor(p: &Player, games: u32) -> i32 {
    // B.02 8.3.3: 40 for a new player (under 30 games) and for a young one below 2300.
    let k = if p.games_before < 30 || (p.young && p.rating < 2300) {
        40
    } else if p.ever_2400 || p.rating >= 2400 {
        10
    } else {
        20
    };
    if games > 0 && k * games as i32 > 700 {
        700 / games as i32
    } else {
        k
    }
}

/// The score of a rated game for the rating (B.02 8.3.2): 1 for a win, ½
/// for a draw, 0 for a loss, whatever the event's point system gives; `None`
/// for a round that is not rated (unplayed, or under one move: B.02 5.1/6.1).
///
/// ```
/// use arbiter_tournament::{rating::game_score, RoundResult};
/// assert_eq!(game_score(RoundResult::Win), Some(1.0));
/// assert_eq!(game_score(RoundResult::Draw), Some(0.5));
/// assert_eq!(game_score(RoundResult::ForfeitWin), None);
/// ```
pub fn game_score(result: crate::RoundResult) -> Option<f64> {
    use crate::RoundResult::*;
    match result {
        Win => Some(1.0),
        Draw => Some(0.5),
        Loss => Some(0.0),
        _ => None,
    }
}

/// The rating change over the games of a period, unrounded, in hundredths of
/// a rating point: K × Σ(score − PD) (B.02 8.3.2), computed exactly — PD
/// comes from the table of 8.1.2 in hundredths, the score is 1, ½ or 0, so
/// K × Σ is a whole number of hundredths and a change of exactly .5 stays .5
/// (in floating point 10 × (0.35 − 0.30) is 0.49999999999999989).
///
/// ```
/// use arbiter_tournament::rating::{change_hundredths, Game};
/// // R 2450, K 10: a win vs 2337 (PD .65), a loss vs 2600 (PD .30):
/// // 10 × (0.35 − 0.30) = +0.50.
/// let games = [Game { opponent: 2337, score: 1.0 }, Game { opponent: 2600, score: 0.0 }];
/// assert_eq!(change_hundredths(2450, 10, &games), 50);
/// ```
pub fn change_hundredths(own: i32, k: i32, games: &[Game]) -> i64 {
    let sum: i64 = games
        .iter()
        .map(|g| {
            let d = counted_difference(own, g.opponent);
            // The score in hundredths: 100, 50 or 0.
            let score = (g.score * 100.0).round() as i64;
            score - i64::from(expected_hundredths(d, 0))
        })
        .sum();
    i64::from(k) * sum
}

/// The rating change for a rated player over the games of a period, unrounded
/// (B.02 8.3.2: K × Σ(score − PD)); [`change_hundredths`] divided by 100.
///
/// ```
/// use arbiter_tournament::rating::{change, Game};
/// // B.02's worked example: K 20, R 2000; a win vs 1800, a draw vs 2100,
/// // a loss vs 2500 (counted as 400): ΣΔR = 0.24 + 0.14 − 0.08 = 0.30 → +6.
/// let games = [Game { opponent: 1800, score: 1.0 }, Game { opponent: 2100, score: 0.5 }, Game { opponent: 2500, score: 0.0 }];
/// assert!((change(2000, 20, &games) - 6.0).abs() < 1e-9);
/// ```
pub fn change(own: i32, k: i32, games: &[Game]) -> f64 {
    // A whole number of hundredths divided by 100: a change of exactly n + .5
    // is exactly representable, so `round_change` rounds it as 8.3.4 says.
    change_hundredths(own, k, games) as f64 / 100.0
}

/// The period's change rounded to a whole number, 0.5 away from zero (B.02
/// 8.3.4), from the exact hundredths of [`change_hundredths`].
///
/// ```
/// use arbiter_tournament::rating::{rounded_change, Game};
/// let games = [Game { opponent: 2337, score: 1.0 }, Game { opponent: 2600, score: 0.0 }];
/// assert_eq!(rounded_change(2450, 10, &games), 1);
/// ```
pub fn rounded_change(own: i32, k: i32, games: &[Game]) -> i32 {
    let h = change_hundredths(own, k, games);
    let whole = (h.abs() + 50) / 100;
    (if h < 0 { -whole } else { whole }) as i32
}

/// Rounds a period's change to a whole number, 0.5 away from zero (B.02 8.3.4).
/// A change computed in floating point may miss an exact .5 by a rounding
/// error; [`rounded_change`] computes it exactly.
///
/// ```
/// assert_eq!(arbiter_tournament::rating::round_change(-2.5), -3);
/// assert_eq!(arbiter_tournament::rating::round_change(2.49), 2);
/// ```
pub fn round_change(x: f64) -> i32 {
    x.round() as i32
}

/// A first rating (B.02 8.2, from 1 March 2024): the average of the rated
/// opponents plus two hypothetical 1800 opponents both drawn, plus `dp` of the
/// score so counted; at most 2200. `None` for a zero score (disregarded) or no
/// rated opponent.
///
/// ```
/// use arbiter_tournament::rating::{initial_rating, Game};
/// // B.02's example: 5 games, 3 points, the opponents' ratings total 9507.
/// let ratings = [1900, 1900, 1900, 1900, 1907];
/// let scores = [1.0, 1.0, 1.0, 0.0, 0.0];
/// let games: Vec<Game> = ratings.iter().zip(scores).map(|(&o, s)| Game { opponent: o, score: s }).collect();
/// assert_eq!(initial_rating(&games), Some(1922));
/// ```
pub fn initial_rating(games: &[Game]) -> Option<i32> {
    let score: f64 = games.iter().map(|g| g.score).sum();
    if games.is_empty() || score == 0.0 {
        return None;
    }
    let n = games.len() as f64 + 2.0;
    let ra = (games.iter().map(|g| f64::from(g.opponent)).sum::<f64>() + 3600.0) / n;
    let p = (score + 1.0) / n;
    let ru = ra + f64::from(dp(p));
    Some((ru.round() as i32).min(2200))
}

/// The tournament performance rating of C.07 10.2 (`ARO + dp(p)`); `None`
/// without games.
///
/// ```
/// assert_eq!(arbiter_tournament::rating::performance(2000, 3.0, 4), Some(2193));
/// ```
pub fn performance(aro: i32, points: f64, games: u32) -> Option<i32> {
    (games > 0).then(|| aro.saturating_add(dp(points / f64::from(games))))
}
