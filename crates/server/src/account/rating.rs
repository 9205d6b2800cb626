//! Ratings of accounts (issue 15): one Glicko-2 rating per time class, the
//! classes cut as Lichess cuts them by a game's estimated duration, and the
//! update after a rated game (Glicko-2 of `arbiter-tournament`, each game
//! its own rating period as on Lichess: τ = 0.75, no deviation growth).

use arbiter_pgn::TimeControl;
pub use arbiter_tournament::glicko2::Rating;
use arbiter_tournament::glicko2::{update_over, Outcome};

/// Glicko-2's system constant τ (Lichess's).
pub const TAU: f64 = 0.75;

/// A time class by the estimated duration of a game, the time of the first
/// period plus 40 times its increment (Lichess): under 3 minutes bullet
/// (Lichess's UltraBullet, under 30 s, included), under 8 blitz, under 25
/// rapid, else classical; a game without a clock is untimed (never rated).
///
/// ```
/// use arbiter_server::account::rating::TimeClass;
/// use arbiter_pgn::TimeControl;
/// let class = |text: &str| TimeClass::of(&TimeControl::parse(text).unwrap());
/// assert_eq!(class("60+0"), TimeClass::Bullet);
/// assert_eq!(class("120+1"), TimeClass::Bullet);  // 120 + 40 × 1 = 160 s
/// assert_eq!(class("300+3"), TimeClass::Blitz);   // 300 + 40 × 3 = 420 s
/// assert_eq!(class("600+0"), TimeClass::Rapid);
/// assert_eq!(class("5400+30"), TimeClass::Classical);
/// assert_eq!(class("-"), TimeClass::Untimed);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeClass {
    /// Under 180 s.
    Bullet,
    /// 180 to 479 s.
    Blitz,
    /// 480 to 1499 s.
    Rapid,
    /// 1500 s and more.
    Classical,
    /// No clock.
    Untimed,
}

impl TimeClass {
    /// The four rated classes, fastest first.
    pub const RATED: [TimeClass; 4] = [
        TimeClass::Bullet,
        TimeClass::Blitz,
        TimeClass::Rapid,
        TimeClass::Classical,
    ];

    /// The class of a time control.
    pub fn of(tc: &TimeControl) -> TimeClass {
        let Some(p) = tc.periods().first() else {
            return TimeClass::Untimed;
        };
        let estimate_s = (p.time_ms + 40 * p.increment_ms) / 1000;
        match estimate_s {
            0..=179 => TimeClass::Bullet,
            180..=479 => TimeClass::Blitz,
            480..=1499 => TimeClass::Rapid,
            _ => TimeClass::Classical,
        }
    }

    /// The stored and wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TimeClass::Bullet => "bullet",
            TimeClass::Blitz => "blitz",
            TimeClass::Rapid => "rapid",
            TimeClass::Classical => "classical",
            TimeClass::Untimed => "untimed",
        }
    }

    /// From the stored name.
    pub fn parse(s: &str) -> Option<TimeClass> {
        [TimeClass::Untimed]
            .into_iter()
            .chain(TimeClass::RATED)
            .find(|c| c.as_str() == s)
    }
}

/// White's score in a PGN result (`1-0` 1, `1/2-1/2` ½, `0-1` 0); `None`
/// for an unfinished or aborted game (`*`).
///
/// ```
/// use arbiter_server::account::rating::white_score;
/// assert_eq!(white_score("1/2-1/2"), Some(0.5));
/// assert_eq!(white_score("*"), None);
/// ```
pub fn white_score(result: &str) -> Option<f64> {
    match result {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// Both ratings after a game White scored `white_score` in, each updated
/// against the other's rating before the game.
///
/// ```
/// use arbiter_server::account::rating::{rate, Rating};
/// let (w, b) = rate(Rating::default(), Rating::default(), 1.0);
/// assert!((w.rating - 1662.21).abs() < 0.01 && (b.rating - 1337.79).abs() < 0.01);
/// ```
pub fn rate(white: Rating, black: Rating, white_score: f64) -> (Rating, Rating) {
    let w = update_over(
        white,
        &[Outcome {
            opponent: black,
            score: white_score,
        }],
        TAU,
        0.0,
    );
    let b = update_over(
        black,
        &[Outcome {
            opponent: white,
            score: 1.0 - white_score,
        }],
        TAU,
        0.0,
    );
    (w, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_boundaries_are_lichess_s() {
        let class = |text: &str| TimeClass::of(&TimeControl::parse(text).unwrap());
        assert_eq!(class("15+0"), TimeClass::Bullet);
        assert_eq!(class("179+0"), TimeClass::Bullet);
        assert_eq!(class("180+0"), TimeClass::Blitz);
        assert_eq!(class("120+1"), TimeClass::Bullet);
        assert_eq!(class("120+2"), TimeClass::Blitz);
        assert_eq!(class("479+0"), TimeClass::Blitz);
        assert_eq!(class("300+3"), TimeClass::Blitz);
        assert_eq!(class("480+0"), TimeClass::Rapid);
        assert_eq!(class("900+10"), TimeClass::Rapid);
        assert_eq!(class("1499+0"), TimeClass::Rapid);
        assert_eq!(class("1500+0"), TimeClass::Classical);
        assert_eq!(class("40/5400+30:1800+30"), TimeClass::Classical);
        for c in TimeClass::RATED {
            assert_eq!(TimeClass::parse(c.as_str()), Some(c));
        }
        assert_eq!(TimeClass::parse("ultrabullet"), None);
    }

    #[test]
    fn a_draw_between_equals_moves_only_the_deviation() {
        let (w, b) = rate(Rating::default(), Rating::default(), 0.5);
        assert!((w.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        assert!(w.deviation < 350.0 && (w.deviation - b.deviation).abs() < 1e-9);
    }
}
