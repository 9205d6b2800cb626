//! Writes generated tournaments (paired round by round by the Dutch system)
//! as TRF files, for comparing the pairings of two builds byte for byte.
//!
//! `cargo run --release -p arbiter-tournament --example pairdump -- DIR [small|large|bench N]`:
//! `small` is 150 events of 8-200 players, `large` 20 of 300-600, with byes,
//! absences, withdrawals, late entries, forfeits, acceleration and both
//! editions of the rules drawn per seed; `bench N` (`swiss N`: with the
//! bench's quick Swiss history) writes the bench's round 5
//! pairing of N players (`benches/pairing.rs`).

use arbiter_tournament::dutch::{self, Options, Rules};
use arbiter_tournament::generate::{generate, Config};
use arbiter_tournament::trf::{self, TrfVersion};
use arbiter_tournament::{Acceleration, Colour, Event, RoundEntry, RoundResult};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn config(seed: u64, lo: u16, hi: u16) -> Config {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let players = rng.gen_range(lo..=hi);
    let rounds = rng.gen_range(5..=11);
    let odd = |rng: &mut ChaCha8Rng, p: f64, r: f64| if rng.gen_bool(p) { r } else { 0.0 };
    Config {
        players,
        rounds,
        draw_rate: rng.gen_range(0.1..0.5),
        forfeit_rate: odd(&mut rng, 0.3, 0.03),
        half_bye_rate: odd(&mut rng, 0.3, 0.03),
        absence_rate: odd(&mut rng, 0.3, 0.03),
        withdraw_rate: odd(&mut rng, 0.3, 0.02),
        late_rate: odd(&mut rng, 0.3, 0.05),
        acceleration: rng
            .gen_bool(0.2)
            .then(|| Acceleration::baku(players, rounds)),
        rules: if rng.gen_bool(0.25) {
            Rules::Fide2017
        } else {
            Rules::Fide2025
        },
        seed,
    }
}

/// Plays `rounds` rounds of a quick greedy Swiss on `event` (players only):
/// in score order, each unpaired player meets the next one it has not met
/// (anyone left if none); white to the one with fewer whites; the bye to the
/// lowest player without one; results drawn from the ratings (30 % draws).
fn swiss_history(event: &mut Event, rounds: usize, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = event.players.len();
    for round in 0..rounds {
        let scores = event.scores_after(round);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| scores[b].cmp(&scores[a]).then(a.cmp(&b)));
        let met = |e: &Event, a: usize, b: usize| {
            e.players[a]
                .rounds
                .iter()
                .any(|r| r.opponent == Some(e.players[b].id))
        };
        if n % 2 == 1 {
            let bye = *order
                .iter()
                .rev()
                .find(|&&i| !event.players[i].rounds.iter().any(|r| r.result.is_bye()))
                .unwrap_or(&order[n - 1]);
            order.retain(|&i| i != bye);
            event.players[bye]
                .rounds
                .push(RoundEntry::bye(RoundResult::PairingBye));
        }
        while let Some(a) = order.first().copied() {
            order.remove(0);
            let k = order.iter().position(|&b| !met(event, a, b)).unwrap_or(0);
            let b = order.remove(k);
            let whites = |i: usize| {
                event.players[i]
                    .rounds
                    .iter()
                    .filter(|r| r.colour == Some(Colour::White))
                    .count()
            };
            let (w, bl) = if whites(a) <= whites(b) {
                (a, b)
            } else {
                (b, a)
            };
            let (rw, rb) = (event.players[w].rating, event.players[bl].rating);
            let result = if rng.gen_bool(0.3) {
                RoundResult::Draw
            } else {
                let expected = 1.0 / (1.0 + 10f64.powf((f64::from(rb) - f64::from(rw)) / 400.0));
                if rng.gen_bool(expected) {
                    RoundResult::Win
                } else {
                    RoundResult::Loss
                }
            };
            let (iw, ib) = (event.players[w].id, event.players[bl].id);
            event.players[w]
                .rounds
                .push(RoundEntry::game(ib, Colour::White, result));
            event.players[bl]
                .rounds
                .push(RoundEntry::game(iw, Colour::Black, result.reversed()));
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = std::path::PathBuf::from(&args[0]);
    std::fs::create_dir_all(&dir).unwrap();
    match args.get(1).map(String::as_str).unwrap_or("small") {
        "small" => {
            for seed in 1..=150 {
                let e = generate(&config(seed, 8, 200));
                std::fs::write(
                    dir.join(format!("s{seed:03}.trf")),
                    trf::write(&e, TrfVersion::Trf16),
                )
                .unwrap();
            }
        }
        "large" => {
            for seed in 1001..=1020 {
                let e = generate(&config(seed, 300, 600));
                std::fs::write(
                    dir.join(format!("l{seed}.trf")),
                    trf::write(&e, TrfVersion::Trf16),
                )
                .unwrap();
            }
        }
        "bench" => {
            let n: u16 = args[2].parse().unwrap();
            let mut event = generate(&Config {
                players: n,
                rounds: 5,
                seed: 2026,
                ..Config::default()
            });
            event.total_rounds = 9;
            for p in &mut event.players {
                p.rounds.truncate(4);
            }
            let r = dutch::pair(&event, Options::default()).unwrap();
            std::fs::write(dir.join(format!("bench{n}.txt")), r.to_engine_format()).unwrap();
        }
        "swiss" => {
            let n: u16 = args[2].parse().unwrap();
            let config = Config {
                players: n,
                rounds: 0,
                seed: 2026,
                ..Config::default()
            };
            let mut event = generate(&config);
            swiss_history(&mut event, 5, config.seed);
            event.total_rounds = 9;
            for p in &mut event.players {
                p.rounds.truncate(4);
            }
            let r = dutch::pair(&event, Options::default()).unwrap();
            std::fs::write(dir.join(format!("swiss{n}.txt")), r.to_engine_format()).unwrap();
        }
        other => panic!("unknown set {other}"),
    }
}
