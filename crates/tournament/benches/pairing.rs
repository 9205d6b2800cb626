//! One round of a large Swiss, paired by Arbiter's Dutch system and, on the
//! same file in the same run, by caissify-pairings (when python3 has it).
//!
//! `cargo bench -p arbiter-tournament --bench pairing [-- SIZES…]` (default
//! 500 and 2000 players). For each size: a tournament of 9 rounds is generated
//! (seeded, 30 % draws), five rounds played, and round 5 is paired again
//! from the first four. With `--swiss-history` the five rounds are paired
//! instead by a quick greedy Swiss (score order, the next player not met, no
//! colour rules; results from the ratings as `generate` draws them), so that
//! the history of 2,000 players takes seconds, not the Dutch system's minutes:
//! the timed round 5 is Arbiter's Dutch pairing either way.
//! Times are CPU time of this process (user + sys, one thread) for Arbiter,
//! and the CPU time caissify's engine call reports for itself.

#[path = "common/swiss_history.rs"]
mod swiss_history;

use arbiter_tournament::dutch::{self, Options};
use arbiter_tournament::generate::{generate, Config};
use arbiter_tournament::trf::{self, TrfVersion};
use std::process::Command;
use std::time::Duration;
use swiss_history::swiss_history;

/// The allocator of the `arbiter` command, so that the figures are the command's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// CPU time of this process so far (user + system).
fn cpu_time() -> Duration {
    let text = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses).
    let rest = text.rsplit(')').next().unwrap_or("");
    let f: Vec<u64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|x| x.parse().ok())
        .collect();
    let ticks = f.iter().sum::<u64>();
    Duration::from_millis(ticks * 10) // USER_HZ is 100 on Linux
}

const CAISSIFY: &str = r#"
import sys, time
from caissify_pairings.trf import TRFParser
from caissify_pairings.engines.dutch import DutchEngine
from caissify_pairings import fpc
text = open(sys.argv[1], encoding="utf-8").read()
rnd = int(sys.argv[2])
parsed = TRFParser(text).parse()
pm = {p["starting_number"]: p for p in parsed["players"]}
players = fpc._build_engine_players(pm, rnd)
prev = fpc._build_previous_pairings(pm, rnd)
t = time.process_time()
out = DutchEngine(players=players, previous_pairings=prev, round_number=rnd,
                  total_rounds=parsed["tournament"].get("total_rounds") or 9,
                  initial_color=fpc._infer_initial_color(pm)).generate_pairings()
print(f"{time.process_time() - t:.3f} {len(out)}")
"#;

fn main() {
    let quick = std::env::args().any(|a| a == "--swiss-history");
    let sizes: Vec<u16> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![500, 2000]
    } else {
        sizes
    };
    for n in sizes {
        let config = Config {
            players: n,
            rounds: 5,
            seed: 2026,
            ..Config::default()
        };
        // The file holds five rounds: caissify pairs round 5 among the players
        // the file lists in it, from rounds 1-4; Arbiter gets rounds 1-4.
        let mut event = if quick {
            let mut e = generate(&Config {
                rounds: 0,
                ..config.clone()
            })
            .unwrap();
            swiss_history(&mut e, 5, config.seed);
            e
        } else {
            generate(&config).unwrap()
        };
        event.total_rounds = 9;
        let file = std::env::temp_dir().join(format!("arbiter-bench-{n}.trf"));
        std::fs::write(&file, trf::write(&event, TrfVersion::Trf16).unwrap()).unwrap();
        for p in &mut event.players {
            p.rounds.truncate(4);
        }
        let runs = if n <= 200 { 5 } else { 1 };
        let mut best = Duration::MAX;
        let mut pairs = 0;
        for _ in 0..runs {
            let t = cpu_time();
            let round = dutch::pair(&event, Options::default()).expect("round 5 pairs");
            best = best.min(cpu_time() - t);
            pairs = round.pairs.len();
        }
        println!(
            "arbiter   {n:>5} players{}, round 5: {:>8.3} s CPU (best of {runs}), {pairs} pairs",
            if quick { " (swiss history)" } else { "" },
            best.as_secs_f64()
        );
        // caissify's engine is pure Python: bounded by `timeout` (seconds,
        // ARBITER_BENCH_ORACLE_TIMEOUT, default 600).
        let limit = std::env::var("ARBITER_BENCH_ORACLE_TIMEOUT").unwrap_or_else(|_| "600".into());
        let oracle = Command::new("timeout")
            .args([limit.as_str(), "python3", "-c", CAISSIFY])
            .arg(&file)
            .arg("5")
            .output();
        match oracle {
            Ok(o) if o.status.success() => {
                let s = String::from_utf8_lossy(&o.stdout);
                let mut it = s.split_whitespace();
                println!(
                    "caissify  {n:>5} players, round 5: {:>8} s CPU, {} pairings",
                    it.next().unwrap_or("?"),
                    it.next().unwrap_or("?")
                );
            }
            Ok(o) => println!(
                "caissify  {n:>5} players: failed: {}",
                String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            ),
            Err(e) => println!("caissify: python3 not run: {e}"),
        }
        let _ = std::fs::remove_file(&file);
    }
}
