//! The Dutch system's fast computation (each bracket's matching over the
//! bracket and the next score group, completed by a cardinality matching)
//! against the reference computation (every matching over the whole field):
//! C.04.3's pairing is defined by the criteria, not by the way it is
//! computed, so the two must pair every round alike; and so must the
//! computation that starts every matching from scratch, against the one
//! that starts each from the matching before (`matching::Rematcher`).
//!
//! Tournaments of every kind the generator makes (byes, absences, forfeits,
//! withdrawals, late entries, Baku acceleration, both editions), small ones
//! with many rounds (where C1 bites and the fast path falls back) and larger
//! ones (many score groups). A bigger sample:
//! `ARBITER_RESTRICTED_TOURNAMENTS=400 cargo test -p arbiter-tournament --release --test restricted`.

use arbiter_tournament::dutch::{self, Options, Rules};
use arbiter_tournament::generate::{generate, Config};
use arbiter_tournament::Acceleration;

fn config(i: u64) -> Config {
    let (players, rounds) = match i % 3 {
        0 => (8 + i % 7, 7 + i % 3), // 8-14 players, 7-9 rounds: many met pairs
        1 => (20 + (i * 13) % 41, 5 + i % 5), // 20-60 players
        _ => (61 + (i * 29) % 60, 5 + i % 4), // 61-120 players
    };
    let mut c = Config {
        players: players as u16,
        rounds: rounds as u16,
        seed: 7000 + i,
        rules: if i % 4 == 3 {
            Rules::Fide2017
        } else {
            Rules::Fide2025
        },
        ..Config::default()
    };
    match i % 5 {
        1 => {
            c.half_bye_rate = 0.04;
            c.absence_rate = 0.04;
        }
        2 => c.forfeit_rate = 0.06,
        3 => {
            c.withdraw_rate = 0.03;
            c.late_rate = 0.1;
        }
        4 => c.acceleration = Some(Acceleration::baku(c.players, c.rounds)),
        _ => {}
    }
    c
}

#[test]
fn fast_and_whole_field_computations_pair_every_round_alike() {
    let count: u64 = std::env::var("ARBITER_RESTRICTED_TOURNAMENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let mut rounds = 0;
    for i in 0..count {
        let c = config(i);
        let event = generate(&c).unwrap();
        for round in 1..=event.rounds_played() {
            let fast = dutch::pair_round(
                &event,
                round,
                Options {
                    rules: c.rules,
                    ..Options::default()
                },
            );
            let whole = dutch::pair_round(
                &event,
                round,
                Options {
                    rules: c.rules,
                    whole_field: true,
                    ..Options::default()
                },
            );
            let cold = dutch::pair_round(
                &event,
                round,
                Options {
                    rules: c.rules,
                    cold_matchings: true,
                    ..Options::default()
                },
            );
            assert_eq!(
                fast, cold,
                "tournament {i} ({} players, seed {}), round {round}: warm and cold matchings",
                c.players, c.seed
            );
            assert_eq!(
                fast, whole,
                "tournament {i} ({} players, seed {}), round {round}",
                c.players, c.seed
            );
            rounds += 1;
        }
    }
    eprintln!("{count} tournaments, {rounds} rounds paired alike");
    assert!(rounds >= count * 5, "every tournament played its rounds");
}
