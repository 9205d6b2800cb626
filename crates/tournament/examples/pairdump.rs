//! Writes generated tournaments (paired round by round by the Dutch system)
//! as TRF files, for comparing the pairings of two builds byte for byte.
//!
//! `cargo run --release -p arbiter-tournament --example pairdump -- DIR [small|large|bench N]`:
//! `small` is 150 events of 8-200 players, `large` 20 of 300-600, with byes,
//! absences, withdrawals, late entries, forfeits, acceleration and both
//! editions of the rules drawn per seed; `bench N` (`swiss N`: with the
//! bench's quick Swiss history) writes the bench's round 5
//! pairing of N players (`benches/pairing.rs`).

#[path = "../benches/common/swiss_history.rs"]
mod swiss_history;

use arbiter_tournament::dutch::{self, Options, Rules};
use arbiter_tournament::generate::{generate, Config};
use arbiter_tournament::trf::{self, TrfVersion};
use arbiter_tournament::Acceleration;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use swiss_history::swiss_history;

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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = std::path::PathBuf::from(&args[0]);
    std::fs::create_dir_all(&dir).unwrap();
    match args.get(1).map(String::as_str).unwrap_or("small") {
        "small" => {
            for seed in 1..=150 {
                let e = generate(&config(seed, 8, 200)).unwrap();
                std::fs::write(
                    dir.join(format!("s{seed:03}.trf")),
                    trf::write(&e, TrfVersion::Trf16).unwrap(),
                )
                .unwrap();
            }
        }
        "large" => {
            for seed in 1001..=1020 {
                let e = generate(&config(seed, 300, 600)).unwrap();
                std::fs::write(
                    dir.join(format!("l{seed}.trf")),
                    trf::write(&e, TrfVersion::Trf16).unwrap(),
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
            })
            .unwrap();
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
            let mut event = generate(&config).unwrap();
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
