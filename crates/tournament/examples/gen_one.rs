//! Writes one generated tournament as TRF-16 to standard output:
//! `cargo run -p arbiter-tournament --example gen_one -- PLAYERS ROUNDS SEED`.
use arbiter_tournament::generate::{generate, Config};
use arbiter_tournament::trf::{self, TrfVersion};

fn main() {
    let a: Vec<u64> = std::env::args()
        .skip(1)
        .map(|s| s.parse().unwrap_or(0))
        .collect();
    let c = Config {
        players: *a.first().unwrap_or(&20) as u16,
        rounds: *a.get(1).unwrap_or(&9) as u16,
        seed: *a.get(2).unwrap_or(&1),
        ..Config::default()
    };
    print!(
        "{}",
        trf::write(&generate(&c).unwrap(), TrfVersion::Trf16).unwrap()
    );
}
