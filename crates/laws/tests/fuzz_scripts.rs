//! The properties of the fuzz targets (`crates/laws/fuzz`: `judge` and
//! `events`) checked on a few thousand mutated judge scripts — the scripts
//! of `tests/judge/` with lines dropped, repeated, swapped, spliced from
//! other scripts, cut short and bytes changed — so that they are checked
//! without cargo-fuzz too: the judge never panics, answers one line per
//! event, reads ahead with the same answers, and the accepted events of a
//! game replay to the same state.

use arbiter_laws::json::{self, Event};
use arbiter_laws::judge::{run, Options};
use arbiter_laws::Game;
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

/// The `judge` target's property.
fn judge_property(data: &[u8]) {
    let mut out = Vec::new();
    let online = run(data, &mut out, Options::default());
    if let Ok(summary) = &online {
        let lines = out.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(lines, summary.events + 1);
    }
    let mut ahead = Vec::new();
    let options = Options {
        read_ahead: true,
        ..Options::default()
    };
    let read_ahead = run(data, &mut ahead, options);
    assert_eq!(online.is_ok(), read_ahead.is_ok());
    assert_eq!(out, ahead);
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
    let Ok(mut game) = Game::new(start.clone()) else {
        return 0;
    };
    let mut accepted = 0;
    for line in &lines[1..] {
        if let Ok(e) = serde_json::from_str::<Event>(line) {
            accepted += usize::from(json::apply(&mut game, &e).is_ok());
        }
    }
    let again = Game::replay(start, game.events()).unwrap();
    assert_eq!(again.position(), game.position());
    assert_eq!(again.outcome(), game.outcome());
    accepted
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
