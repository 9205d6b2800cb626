//! The cost of the Laws: replaying random games through `Game` (every check
//! on: clocks, repetition history, checkmate and stalemate, dead position
//! after every move, 9.6) and through `arbiter judge` (JSON in and out),
//! against replaying the same moves on the bare core (SAN parsed and played).
//!
//! `cargo bench -p arbiter-laws --bench laws [-- GAMES]` (default 10,000
//! games, seed 1). Games are generated first by random legal moves, played
//! through the Laws so that each ends where the Laws end it.

use arbiter_chess::{Color, Position};
use arbiter_laws::{Event, Game, Start, Unwinnability, Verdict};
use std::sync::Arc;

/// A solver that never decides: isolates the cost of everything but the
/// exact analysis.
struct NoSolver;

impl Unwinnability for NoSolver {
    fn solve(&self, _: &Position, _: Color) -> (Verdict, Option<Vec<arbiter_chess::Move>>) {
        (Verdict::Unknown, None)
    }
}
use rand::{Rng, SeedableRng};
use std::time::Instant;

fn start() -> Start {
    serde_json::from_str(r#"{"time_control": "300+2"}"#).unwrap()
}

fn event(t: u64, by: Color, san: &str) -> Event {
    let by = if by == Color::White { "white" } else { "black" };
    serde_json::from_str(&format!(
        r#"{{"t": {t}, "by": "{by}", "do": "move", "move": "{san}"}}"#
    ))
    .unwrap()
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10_000);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let t0 = Instant::now();
    let mut games: Vec<Vec<String>> = Vec::with_capacity(n);
    let mut solver_calls = 0;
    let mut settled = [0u64; 5];
    for _ in 0..n {
        let mut game = Game::new(start()).unwrap();
        let mut sans = Vec::new();
        let mut t = 0;
        while !game.is_over() {
            let pos = *game.position();
            let moves = pos.legal_moves();
            let m = moves[rng.gen_range(0..moves.len())];
            let san = pos.san(m);
            t += 100;
            game.apply(event(t, pos.turn(), &san)).unwrap();
            sans.push(san);
        }
        solver_calls += game.solver_calls();
        for (s, g) in settled.iter_mut().zip(game.dead_position_checks()) {
            *s += g;
        }
        games.push(sans);
    }
    let plies: usize = games.iter().map(Vec::len).sum();
    println!(
        "dead-position checks settled by material {}, take-back {}, helpmate line {}, solver {}, undecided {}",
        settled[0], settled[1], settled[2], settled[3], settled[4]
    );
    println!(
        "{n} random games, {plies} moves ({:.1} per game), generated in {:.2?}; {solver_calls} exact solver calls",
        plies as f64 / n as f64,
        t0.elapsed()
    );

    // Bare core: parse each SAN and play it.
    let t0 = Instant::now();
    let mut check = 0u64;
    for g in &games {
        let mut pos = Position::standard();
        for san in g {
            let m = pos.parse_san(san).unwrap();
            pos.play_unchecked(m);
        }
        check ^= pos.zobrist();
    }
    let core = t0.elapsed();

    // The Laws: Game::apply with every check.
    let events: Vec<Vec<Event>> = games
        .iter()
        .map(|g| {
            g.iter()
                .enumerate()
                .map(|(i, san)| event(100 * (i as u64 + 1), Color::from_white(i % 2 == 0), san))
                .collect()
        })
        .collect();
    let t0 = Instant::now();
    let mut ended = 0;
    for evs in &events {
        let mut game = Game::new(start()).unwrap();
        for e in evs {
            game.apply(e.clone()).unwrap();
        }
        ended += usize::from(game.is_over());
        check ^= game.position().zobrist();
    }
    let laws = t0.elapsed();

    // The same without the exact solver (it answers "unknown"): the cost of
    // the bookkeeping, the helpmate-line and take-back tests.
    let t0 = Instant::now();
    for evs in &events {
        let mut game = Game::with_solver(start(), Arc::new(NoSolver)).unwrap();
        for e in evs {
            let _ = game.apply(e.clone());
        }
    }
    let no_solver = t0.elapsed();

    // arbiter judge: JSON lines in, JSON lines out.
    let inputs: Vec<String> = events
        .iter()
        .map(|evs| {
            let mut s = String::from("{\"start\": {\"time_control\": \"300+2\"}}\n");
            for e in evs {
                s.push_str(&serde_json::to_string(e).unwrap());
                s.push('\n');
            }
            s
        })
        .collect();
    let t0 = Instant::now();
    let mut bytes = 0;
    for input in &inputs {
        let mut out = Vec::with_capacity(input.len() * 2);
        arbiter_laws::judge::run(input.as_bytes(), &mut out, Default::default()).unwrap();
        bytes += out.len();
    }
    let judge = t0.elapsed();

    let per = |d: std::time::Duration| d.as_nanos() as f64 / plies as f64;
    println!(
        "bare core (parse SAN + play):        {:>8.2?}  {:>7.1} ns/move",
        core,
        per(core)
    );
    println!("Laws (Game::apply, all checks):      {:>8.2?}  {:>7.1} ns/move  ({:.2}x the core; the Laws alone {:.1} ns/move)", laws, per(laws), per(laws) / per(core), per(laws) - per(core));
    println!(
        "Laws without the exact solver:       {:>8.2?}  {:>7.1} ns/move  ({:.2}x the core)",
        no_solver,
        per(no_solver),
        per(no_solver) / per(core)
    );
    println!(
        "arbiter judge (JSON lines in/out):   {:>8.2?}  {:>7.1} ns/move  ({bytes} bytes out)",
        judge,
        per(judge)
    );
    println!(
        "games ended by the Laws: {ended}/{n}; final positions of core and Laws agree: {}",
        check == 0
    );
}
