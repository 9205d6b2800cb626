//! The properties of the fuzz targets (`crates/laws/fuzz`: `judge` and
//! `events`) checked on a few thousand mutated judge scripts — the scripts
//! of `tests/judge/` with lines dropped, repeated, swapped, spliced from
//! other scripts, cut short and bytes changed — so that they are checked
//! without cargo-fuzz too: the judge never panics, answers one line per
//! event, reads ahead with the same answers, and the accepted events of a
//! game replay to the same state.

use arbiter_laws::fuzzing::{self, judge_property};
use arbiter_laws::json;
use rand::{seq::SliceRandom, Rng, SeedableRng};

fn scripts() -> Vec<Vec<String>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/judge");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .filter(|l| !l.starts_with('#'))
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

/// One mutation of `lines`, with material from `all`.
fn mutate(lines: &mut Vec<String>, all: &[Vec<String>], rng: &mut impl Rng) {
    if lines.is_empty() {
        return;
    }
    let i = rng.gen_range(0..lines.len());
    match rng.gen_range(0..7) {
        0 => {
            lines.remove(i);
        }
        1 => {
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        2 => {
            let j = rng.gen_range(0..lines.len());
            lines.swap(i, j);
        }
        3 => {
            let other = all.choose(rng).unwrap();
            if let Some(l) = other.get(1..).and_then(|o| o.choose(rng)) {
                lines.insert(i, l.clone());
            }
        }
        4 => lines.truncate(i.max(1)),
        5 => {
            // A byte changed (kept as text where possible).
            let mut bytes = lines[i].clone().into_bytes();
            if !bytes.is_empty() {
                let k = rng.gen_range(0..bytes.len());
                bytes[k] = *b" \"{}:,0123456789abcdefghijklmnopqrstuvwxyz-"
                    .choose(rng)
                    .unwrap();
            }
            lines[i] = String::from_utf8_lossy(&bytes).into_owned();
        }
        _ => {
            // A time or value changed: digits replaced.
            let digits: String = (0..rng.gen_range(1..10))
                .map(|_| char::from(b'0' + rng.gen_range(0..10)))
                .collect();
            lines[i] = lines[i].replacen(|c: char| c.is_ascii_digit(), &digits, 1);
        }
    }
}

/// The `events` target's property, from the script's own start when it
/// has a valid one. Returns the events accepted.
fn events_property(lines: &[String]) -> usize {
    #[derive(serde::Deserialize)]
    struct StartLine {
        start: json::Start,
    }
    let Some(start) = lines
        .first()
        .and_then(|l| serde_json::from_str::<StartLine>(l).ok())
        .and_then(|s| s.start.to_start().ok())
    else {
        return 0;
    };
    fuzzing::events_property(start, lines[1..].iter().map(String::as_str))
}

#[test]
fn mutated_judge_scripts_never_panic_and_keep_the_fuzz_properties() {
    let all = scripts();
    assert!(all.len() > 50, "the judge scripts are found");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let mut accepted = 0;
    let runs = 3000;
    for n in 0..runs {
        let mut lines = all[n % all.len()].clone();
        for _ in 0..rng.gen_range(1..6) {
            mutate(&mut lines, &all, &mut rng);
        }
        let text = lines.join("\n");
        let outcome = std::panic::catch_unwind(|| {
            judge_property(text.as_bytes());
            events_property(&lines)
        });
        match outcome {
            Ok(a) => accepted += a,
            Err(_) => panic!("run {n} panicked on:\n{text}"),
        }
    }
    // The mutations leave most events acceptable: the runs reach the rules.
    assert!(accepted > runs, "{accepted} events accepted");
}
