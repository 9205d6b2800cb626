//! FIDE rating changes (B.02) and Glicko-2 against worked examples: B.02's own
//! (8.3 and 8.2, as transcribed in shared/competitions.md §6), Glickman's
//! paper example and the Lichess/scalachess test vectors (§7).

use arbiter_tournament::glicko2::{update, update_over, Outcome, Rating};
use arbiter_tournament::rating::{
    change, change_hundredths, counted_difference, dp, expected_hundredths, game_score,
    initial_rating, k_factor, round_change, rounded_change, Game, Player,
};

#[test]
fn b02_worked_example_plus_six() {
    // K 20, R 2000: win vs 1800 (D 200 → PD .76), draw vs 2100 (D 100 → .36),
    // loss vs 2500 (D 500 counted as 400 → .08): 20 × 0.30 = +6.
    let games = [
        Game {
            opponent: 1800,
            score: 1.0,
        },
        Game {
            opponent: 2100,
            score: 0.5,
        },
        Game {
            opponent: 2500,
            score: 0.0,
        },
    ];
    assert_eq!(expected_hundredths(2000, 1800), 76);
    assert_eq!(expected_hundredths(2000, 2100), 36);
    assert_eq!(expected_hundredths(counted_difference(2000, 2500), 0), 8);
    assert_eq!(round_change(change(2000, 20, &games)), 6);
}

#[test]
fn the_400_point_rule_and_its_2650_exemption() {
    // 8.3.1 (from 1 October 2025): > 400 counts as 400 below 2650; from 2650 the real difference.
    assert_eq!(counted_difference(2200, 2700), -400);
    assert_eq!(counted_difference(2649, 2100), 400);
    assert_eq!(counted_difference(2650, 2100), 550);
    // 2700 beats 2100: below 2650 the gain would be 1 − .92 = .08; at 2700 (D 600) PD is .98.
    let g = [Game {
        opponent: 2100,
        score: 1.0,
    }];
    assert!((change(2700, 10, &g) - 0.2).abs() < 1e-9);
    assert!((change(2600, 10, &g) - 0.8).abs() < 1e-9);
}

#[test]
fn table_edges_and_symmetry() {
    // 8.1.2: D ≤ 3 → .50; D 736+ → 1.00; PD(L) = 1 − PD(H).
    assert_eq!(expected_hundredths(2003, 2000), 50);
    assert_eq!(expected_hundredths(2004, 2000), 51);
    assert_eq!(expected_hundredths(2735, 2000), 99);
    assert_eq!(expected_hundredths(2736, 2000), 100);
    for d in 0..800 {
        assert_eq!(
            expected_hundredths(2000 + d, 2000) + expected_hundredths(2000, 2000 + d),
            100
        );
    }
    // 8.1.1: dp(1 − p) = −dp(p), dp(1) = 800.
    assert_eq!(dp(0.99), 677);
    assert_eq!(dp(0.01), -677);
    assert_eq!(dp(0.5), 0);
}

#[test]
fn k_factors_of_8_3_3() {
    let base = Player {
        rating: 2100,
        games_before: 200,
        young: false,
        ever_2400: false,
    };
    assert_eq!(k_factor(&base, 9), 20);
    assert_eq!(
        k_factor(
            &Player {
                games_before: 29,
                ..base
            },
            9
        ),
        40
    );
    assert_eq!(
        k_factor(
            &Player {
                young: true,
                ..base
            },
            9
        ),
        40
    );
    assert_eq!(
        k_factor(
            &Player {
                young: true,
                rating: 2300,
                ..base
            },
            9
        ),
        20
    );
    assert_eq!(
        k_factor(
            &Player {
                ever_2400: true,
                rating: 2350,
                ..base
            },
            9
        ),
        10
    );
    // n × K ≤ 700: 40 × 18 = 720 → 38.
    assert_eq!(
        k_factor(
            &Player {
                games_before: 0,
                ..base
            },
            18
        ),
        38
    );
}

#[test]
fn first_rating_of_8_2() {
    // 5 games, 3 points, opponents Σ 9507: Ra = (9507 + 3600) / 7 = 1872.43,
    // p = 4/7 → .57 → dp 50 → 1922.
    let opps = [2000, 1950, 1850, 1800, 1907];
    assert_eq!(opps.iter().sum::<i32>(), 9507);
    let scores = [1.0, 0.0, 1.0, 0.0, 1.0];
    let games: Vec<Game> = opps
        .iter()
        .zip(scores)
        .map(|(&o, s)| Game {
            opponent: o,
            score: s,
        })
        .collect();
    assert_eq!(initial_rating(&games), Some(1922));
    // A zero score is disregarded; the cap is 2200.
    let zero: Vec<Game> = opps
        .iter()
        .map(|&o| Game {
            opponent: o,
            score: 0.0,
        })
        .collect();
    assert_eq!(initial_rating(&zero), None);
    let strong: Vec<Game> = [2400; 5]
        .iter()
        .map(|&o| Game {
            opponent: o,
            score: 1.0,
        })
        .collect();
    assert_eq!(initial_rating(&strong), Some(2200));
}

#[test]
fn glickman_paper_example() {
    let r = |rating, deviation| Rating {
        rating,
        deviation,
        volatility: 0.06,
    };
    let new = update(
        r(1500.0, 200.0),
        &[
            Outcome {
                opponent: r(1400.0, 30.0),
                score: 1.0,
            },
            Outcome {
                opponent: r(1550.0, 100.0),
                score: 0.0,
            },
            Outcome {
                opponent: r(1700.0, 300.0),
                score: 0.0,
            },
        ],
        0.5,
    );
    assert!((new.rating - 1464.05).abs() < 0.01, "{new:?}");
    assert!((new.deviation - 151.52).abs() < 0.01, "{new:?}");
    assert!((new.volatility - 0.05999).abs() < 1e-5, "{new:?}");
    // No games: only the deviation grows, √(200² + (0.06·173.7178)²).
    let idle = update(r(1500.0, 200.0), &[], 0.5);
    assert!((idle.deviation - (200f64.powi(2) + (0.06f64 * 173.7178).powi(2)).sqrt()).abs() < 1e-9);
    assert_eq!(idle.rating, 1500.0);
}

#[test]
fn lichess_vectors_with_each_game_its_own_period() {
    let p = Rating::default();
    let w = update_over(
        p,
        &[Outcome {
            opponent: p,
            score: 1.0,
        }],
        0.75,
        0.0,
    );
    let b = update_over(
        p,
        &[Outcome {
            opponent: p,
            score: 0.0,
        }],
        0.75,
        0.0,
    );
    assert!((w.rating - 1662.21).abs() < 0.01 && (b.rating - 1337.79).abs() < 0.01);
    assert!((w.volatility - 0.0599993).abs() < 1e-6);
    let a = Rating {
        rating: 1400.0,
        deviation: 79.0,
        volatility: 0.06,
    };
    let c = Rating {
        rating: 1550.0,
        deviation: 110.0,
        volatility: 0.065,
    };
    let a2 = update_over(
        a,
        &[Outcome {
            opponent: c,
            score: 1.0,
        }],
        0.75,
        0.0,
    );
    let c2 = update_over(
        c,
        &[Outcome {
            opponent: a,
            score: 0.0,
        }],
        0.75,
        0.0,
    );
    assert!(
        (a2.rating - 1422.63).abs() < 0.01 && (a2.deviation - 77.4956).abs() < 0.001,
        "{a2:?}"
    );
    assert!(
        (c2.rating - 1506.32).abs() < 0.01 && (c2.deviation - 105.8706).abs() < 0.001,
        "{c2:?}"
    );
}

/// B.02 8.3.4: the change is rounded to the nearest whole number, 0.5 away
/// from zero — an exact .5 included, which the floating-point sum missed
/// (10 × (0.35 − 0.30) = 0.49999999999999989 rounded to 0). Worked from the
/// 8.1.2 table, R 2450, K 10:
/// - a win vs 2337 (D 113, PD .65) and a loss vs 2600 (D 150, PD .30):
///   10 × (0.35 − 0.30) = +0.5 → +1;
/// - a win vs 2148 (D 302, PD .85) and a draw vs 2300 (D 150, PD .70):
///   10 × (0.15 − 0.20) = −0.5 → −1;
/// - a loss vs 2148 and a draw vs 2300: 10 × (−0.85 − 0.20) = −10.5 → −11.
#[test]
fn an_exact_half_point_change_rounds_away_from_zero_b02_8_3_4() {
    let g = |opponent, score| Game { opponent, score };
    for (games, hundredths, whole) in [
        ([g(2337, 1.0), g(2600, 0.0)], 50, 1),
        ([g(2148, 1.0), g(2300, 0.5)], -50, -1),
        ([g(2148, 0.0), g(2300, 0.5)], -1050, -11),
    ] {
        assert_eq!(change_hundredths(2450, 10, &games), hundredths);
        assert_eq!(rounded_change(2450, 10, &games), whole);
        assert_eq!(round_change(change(2450, 10, &games)), whole);
    }
}

/// B.02 8.3.2: a rated game's score is 1, ½ or 0 by its result, not the
/// event's points for it (3/1/0 scoring gives a win 3 points).
#[test]
fn a_games_score_for_rating_is_one_half_or_zero_b02_8_3_2() {
    use arbiter_tournament::RoundResult::*;
    assert_eq!(game_score(Win), Some(1.0));
    assert_eq!(game_score(Draw), Some(0.5));
    assert_eq!(game_score(Loss), Some(0.0));
    for r in [
        WinShort,
        DrawShort,
        LossShort,
        ForfeitWin,
        ForfeitLoss,
        PairingBye,
        HalfBye,
    ] {
        assert_eq!(game_score(r), None);
    }
}
