//! The cost of the Laws (issue goal: "the Laws cost less than the move
//! generation itself").
//!
//! Random games are replayed
//!
//! 1. on the bare core: each move's SAN parsed and played;
//! 2. through `arbiter judge` (`arbiter_laws::judge::run`, JSON lines in
//!    and out): every check on — clocks, repetition history, checkmate and
//!    stalemate, dead position decided exactly after every move (5.2 b /
//!    5.2.2), the automatic draws of 9.6 — answering each line as it is
//!    read (as for a game being played);
//! 3. the same reading the record ahead (as `arbiter judge FILE` does: the
//!    record's own moves settle the dead-position checks; the output must
//!    be the same, byte for byte);
//! 4. the JSON lines alone: each event line parsed and an output line of
//!    the same shape written, no Laws (the floor of any `arbiter judge`);
//! 5. through `Game::apply` (the Laws without JSON), online and after
//!    `Game::read_ahead`;
//! 6. through the dead-position check alone (`DeadPositionDetector`, called
//!    as `Game` calls it), with the distribution of its cost per move
//!    (mean, p50, p99, p99.9, the slowest move and the five slowest
//!    positions: the goals of issue 14, "Laws online"). It starts cold: the
//!    exact verdicts shared across games (`dead::clear_shared_verdicts`)
//!    are forgotten first, so that those the games' generation and rows
//!    2–5 found for the very same positions do not flatter it (`--warm`
//!    keeps them, as before 2026-12-04); games measured earlier in the row
//!    still share theirs with later ones, as games do in a server.
//!
//! `-- N --dead-only` runs row 6 alone (for `valgrind --tool=callgrind`;
//! `ARBITER_DUMP_SOLVER=FILE` writes the positions the solver settled, for
//! the alive bench's corpus),
//! `-- N --dead-only --race` the same with both sides asked of the solver
//! at once (`DeadPositionDetector::race_sides`);
//! `-- N --generate-only` stops after generating the games (the floor to
//! subtract from a callgrind count of `--dead-only`); `-- N --solver-probe` times both colours' exact analyses on every
//! position row 6 hands to the solver, and what asking one side first would
//! cost under several rules and under an oracle that knew the quicker side.
//!
//! The cost of the Laws is (2) − (1) and (3) − (1); the goal is met when it
//! is below (1). Each game is replayed twice in each phase and the faster replay counted,
//! so that other work on the machine disturbs the comparison less.
//!
//! `cargo bench -p arbiter-laws --bench laws [-- GAMES]` (default 10,000
//! games, seed 1). Games are generated first by random legal moves, played
//! through the Laws so that each ends where the Laws end it.

use arbiter_chess::{Color, Move, Position};
use arbiter_laws::dead::{self, DeadPositionDetector, Reason};
use arbiter_laws::json::{self, Event};
use arbiter_laws::{Game, Start};
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

fn start() -> Start {
    let s: json::Start = serde_json::from_str(r#"{"time_control": "300+2"}"#).unwrap();
    s.to_start().unwrap()
}

fn event(t: u64, by: Color, san: &str) -> Event {
    let by = if by == Color::White { "white" } else { "black" };
    serde_json::from_str(&format!(
        r#"{{"t": {t}, "by": "{by}", "do": "move", "move": "{san}"}}"#
    ))
    .unwrap()
}

/// An output line of `arbiter judge` for a move, in its shape.
#[derive(serde::Serialize)]
struct Shape<'a> {
    ok: bool,
    t: u64,
    #[serde(rename = "move")]
    mv: &'a str,
    clock: ClockShape,
    status: &'static str,
    turn: &'static str,
}

#[derive(serde::Serialize)]
struct ClockShape {
    white: u64,
    black: u64,
}

/// What replaying games through `Game::apply` took and found.
struct LawsRun {
    /// The faster of two replays, summed over the games.
    time: Duration,
    /// The final positions' Zobrist keys, xor-ed.
    finals: u64,
    /// Exact solver calls.
    solver_calls: u64,
    /// Dead-position checks by how they were settled ([`Reason::ALL`]).
    settled: [u64; 6],
}

/// Replays every game's events through `Game::apply`, after
/// `Game::read_ahead` if `read_ahead`.
fn replay_laws(events: &[Vec<Event>], read_ahead: bool) -> LawsRun {
    let mut run = LawsRun {
        time: Duration::ZERO,
        finals: 0,
        solver_calls: 0,
        settled: [0; 6],
    };
    for evs in events {
        let mut twice = [evs.clone(), evs.clone()].into_iter();
        run.time += faster_of_two(
            || {
                let mut game = Game::new(start()).unwrap();
                let evs = twice.next().unwrap_or_default();
                if read_ahead {
                    json::read_ahead(&mut game, &evs);
                }
                for e in &evs {
                    json::apply(&mut game, e).unwrap();
                }
                game
            },
            |game| {
                run.finals ^= game.position().zobrist();
                let stats = game.stats();
                run.solver_calls += stats.solver_calls;
                for (s, (_, g)) in run.settled.iter_mut().zip(stats.iter()) {
                    *s += g;
                }
            },
        );
    }
    run
}

/// Runs `f` twice; hands the first result to `keep` and returns the
/// shorter of the two times.
fn faster_of_two<T>(mut f: impl FnMut() -> T, keep: impl FnOnce(T)) -> Duration {
    let t0 = Instant::now();
    let first = f();
    let a = t0.elapsed();
    let t0 = Instant::now();
    let second = f();
    let b = t0.elapsed();
    drop(second);
    keep(first);
    a.min(b)
}

/// The dead-position check alone, called after every move as `Game` calls
/// it: the faster of two replays per game, summed, and each call's time
/// (from the first replay) for the distribution the issue's goals name
/// (average, p99.9, slowest move).
struct DeadAlone {
    total: Duration,
    /// Each call's time, in nanoseconds, with its position and reason.
    calls: Vec<(u64, Position, Reason)>,
}

impl DeadAlone {
    fn print(&self, plies: usize) {
        let mut ns: Vec<u64> = self.calls.iter().map(|c| c.0).collect();
        ns.sort_unstable();
        let n = ns.len().max(1);
        let q = |p: f64| {
            ns.get(((n as f64 * p) as usize).min(n - 1))
                .copied()
                .unwrap_or(0)
        };
        let mean = ns.iter().sum::<u64>() as f64 / n as f64;
        let us = |x: u64| x as f64 / 1e3;
        println!(
            "6. dead-position check per move ({} calls, {}): mean {:.2} us (faster of two per game: {:.2} us), p50 {:.2} us, p99 {:.1} us, p99.9 {:.1} us, max {:.1} us; over 1 ms: {}, over 20 ms: {}",
            ns.len(),
            if std::env::args().any(|a| a == "--warm") {
                "warm"
            } else {
                "cold"
            },
            mean / 1e3,
            self.total.as_nanos() as f64 / plies as f64 / 1e3,
            us(q(0.5)),
            us(q(0.99)),
            us(q(0.999)),
            us(ns.last().copied().unwrap_or(0)),
            ns.iter().filter(|&&x| x > 1_000_000).count(),
            ns.iter().filter(|&&x| x > 20_000_000).count(),
        );
        let tally: Vec<String> = Reason::ALL
            .iter()
            .map(|r| {
                let n = self.calls.iter().filter(|c| c.2 == *r).count();
                format!("{} {n}", r.name())
            })
            .collect();
        println!("   settled by {}", tally.join(", "));
        let mut slow: Vec<&(u64, Position, Reason)> = self.calls.iter().collect();
        slow.sort_by_key(|c| std::cmp::Reverse(c.0));
        for (t, pos, reason) in slow.into_iter().take(5) {
            println!(
                "   slow: {:>9.1} us  {:<13} {}",
                us(*t),
                reason.name(),
                pos.fen()
            );
        }
    }
}

/// `ARBITER_SEARCH_NODES=N`: the short helpmate search's budget per side
/// (`Effort::search_nodes`; 0 turns it off), to compare in one build.
fn search_nodes() -> Option<u64> {
    std::env::var("ARBITER_SEARCH_NODES").ok()?.parse().ok()
}

fn dead_position_alone(games: &[Vec<(Move, String)>]) -> DeadAlone {
    let mut out = DeadAlone {
        total: Duration::ZERO,
        calls: Vec::new(),
    };
    if !std::env::args().any(|a| a == "--warm") {
        // Cold, as in a fresh process: none of the verdicts the games'
        // generation and the rows before found for the same positions.
        dead::clear_shared_verdicts();
    }
    for g in games {
        let mut first = true;
        let mut calls = Vec::new();
        out.total += faster_of_two(
            || {
                let mut d = DeadPositionDetector::default();
                d.race_sides(std::env::args().any(|a| a == "--race"));
                if let Some(n) = search_nodes() {
                    d.effort.search_nodes = n;
                }
                let mut pos = Position::standard();
                let mut alive = d.is_dead(&pos, None).1 != Reason::Undecided;
                for &(m, _) in g {
                    let before = pos;
                    pos.play_unchecked(m);
                    if !pos.has_legal_moves() {
                        break;
                    }
                    let from_live = alive.then_some((&before, m));
                    let t0 = Instant::now();
                    let (_, reason) = d.is_dead(&pos, from_live);
                    let t = t0.elapsed().as_nanos() as u64;
                    if first {
                        calls.push((t, pos, reason));
                    }
                    alive = reason != Reason::Undecided;
                }
                first = false;
                d
            },
            drop,
        );
        out.calls.append(&mut calls);
    }
    out
}

/// The side the detector asks first without a hint: more mating material
/// (a pawn worth a queen).
fn likelier(pos: &Position) -> Color {
    let m = |c: Color| {
        let m = pos.board().material(c);
        9 * m[0] + 3 * (m[1] + m[2]) + 5 * m[3] + 9 * m[4]
    };
    if m(Color::White) >= m(Color::Black) {
        Color::White
    } else {
        Color::Black
    }
}

fn to_board(pos: &Position) -> chess::Board {
    use std::str::FromStr;
    chess::Board::from_str(&pos.fen()).unwrap()
}

fn cc(c: Color) -> chess::Color {
    if c == Color::White {
        chess::Color::White
    } else {
        chess::Color::Black
    }
}

fn timed<T>(f: impl FnOnce() -> T) -> (u64, T) {
    let t0 = Instant::now();
    let r = f();
    (t0.elapsed().as_nanos() as u64, r)
}

fn solver_probe(d: &DeadAlone) {
    // Per position: each colour's full analysis time and verdict.
    let mut rows = Vec::new();
    for (_, pos, reason) in &d.calls {
        if *reason != Reason::Solver {
            continue;
        }
        let b = to_board(pos);
        let mut r = [(0u64, false); 2];
        for c in [Color::White, Color::Black] {
            r[c.index()] = timed(|| {
                matches!(
                    chasolver::winnability(&b, cc(c)),
                    Some(chasolver::Winnability::Winnable { .. })
                )
            });
        }
        rows.push((*pos, r));
    }
    let cost = |r: &[(u64, bool); 2], first: Color| -> u64 {
        let (t, w) = r[first.index()];
        if w {
            t
        } else {
            t + r[(!first).index()].0
        }
    };
    let value = |pos: &Position, c: Color, pawn: u32| {
        let m = pos.board().material(c);
        pawn * m[0] + 3 * (m[1] + m[2]) + 5 * m[3] + 9 * m[4]
    };
    type Pred = Box<dyn Fn(&Position, Option<Color>) -> Color>;
    let preds: Vec<(&str, Pred)> = vec![
        (
            "likelier (pawn 9)",
            Box::new(move |p, _| {
                if value(p, Color::White, 9) >= value(p, Color::Black, 9) {
                    Color::White
                } else {
                    Color::Black
                }
            }),
        ),
        (
            "likelier (pawn 1)",
            Box::new(move |p, _| {
                if value(p, Color::White, 1) >= value(p, Color::Black, 1) {
                    Color::White
                } else {
                    Color::Black
                }
            }),
        ),
        ("side to move", Box::new(|p, _| p.turn())),
        ("side not to move", Box::new(|p, _| !p.turn())),
        (
            "last winner",
            Box::new(move |p, l| {
                l.unwrap_or_else(|| {
                    if value(p, Color::White, 9) >= value(p, Color::Black, 9) {
                        Color::White
                    } else {
                        Color::Black
                    }
                })
            }),
        ),
        ("oracle", Box::new(|_, _| Color::White)),
    ];
    println!("{} solver positions", rows.len());
    {
        use arbiter_laws::dead::{ChaSolver, Unwinnability};
        let mut hist = [0usize; 8];
        let mut big = 0;
        for (pos, r) in rows.iter().take(3000) {
            let first = if value(pos, Color::White, 9) >= value(pos, Color::Black, 9) {
                Color::White
            } else {
                Color::Black
            };
            let (_, line) = ChaSolver.solve(pos, first);
            if let Some(l) = line {
                hist[(l.len() / 10).min(7)] += 1;
            }
            let (a, b) = (r[0].0.max(1), r[1].0.max(1));
            if a.max(b) > 5 * a.min(b) {
                big += 1;
            }
        }
        println!("line lengths by tens (first 3000): {hist:?}; colour times differ 5x+: {big}");
    }
    {
        // Likelier first, with each colour proven unable to mate remembered
        // for the rest of the game (unwinnability is kept by every move).
        let (mut total, mut max, mut skipped) = (0u64, 0u64, 0);
        let mut never = [false; 2];
        let mut last_full = 0;
        for (pos, r) in &rows {
            if pos.fullmoves() < last_full {
                never = [false; 2];
            }
            last_full = pos.fullmoves();
            let first = if value(pos, Color::White, 9) >= value(pos, Color::Black, 9) {
                Color::White
            } else {
                Color::Black
            };
            let mut c = 0;
            for col in [first, !first] {
                if never[col.index()] {
                    skipped += 1;
                    continue;
                }
                c += r[col.index()].0;
                if r[col.index()].1 {
                    break;
                }
                never[col.index()] = true;
            }
            total += c;
            max = max.max(c);
        }
        println!(
            "{:<20} total {:>9.1} ms  mean {:>8.1} us  max {:>9.1} us (skipped {skipped})",
            "remember unwinnable",
            total as f64 / 1e6,
            total as f64 / 1e3 / rows.len() as f64,
            max as f64 / 1e3
        );
    }
    {
        // Likelier first, each side's full analysis preceded by chasolver's
        // quick mode (`is_unwinnable_fast`, sound: "true" is a proof): a
        // side it proves unable to mate skips its full analysis.
        for (name, both) in [("quick mode, likelier", false), ("quick mode, both", true)] {
            let (mut total, mut max, mut skipped) = (0u64, 0u64, 0);
            for (pos, r) in &rows {
                let b = to_board(pos);
                let first = if value(pos, Color::White, 9) >= value(pos, Color::Black, 9) {
                    Color::White
                } else {
                    Color::Black
                };
                let mut c = 0;
                for (i, col) in [first, !first].into_iter().enumerate() {
                    if i == 0 || both {
                        let (t, fast) = timed(|| chasolver::is_unwinnable_fast(&b, cc(col)));
                        c += t;
                        if fast {
                            skipped += 1;
                            continue;
                        }
                    }
                    c += r[col.index()].0;
                    if r[col.index()].1 {
                        break;
                    }
                }
                total += c;
                max = max.max(c);
            }
            println!(
                "{name:<20} total {:>9.1} ms  mean {:>8.1} us  max {:>9.1} us (skipped {skipped})",
                total as f64 / 1e6,
                total as f64 / 1e3 / rows.len() as f64,
                max as f64 / 1e3
            );
        }
    }
    if std::env::var_os("ARBITER_PROBE_WORST").is_some() {
        // The positions where asking the likelier side first loses most
        // against the oracle: both colours' times and verdicts.
        let mut worst: Vec<_> = rows
            .iter()
            .map(|(pos, r)| {
                let first = if value(pos, Color::White, 9) >= value(pos, Color::Black, 9) {
                    Color::White
                } else {
                    Color::Black
                };
                let loss = cost(r, first) - cost(r, Color::White).min(cost(r, Color::Black));
                (loss, pos, r)
            })
            .collect();
        worst.sort_by_key(|w| std::cmp::Reverse(w.0));
        for (loss, pos, r) in worst.iter().take(25) {
            println!(
                "  loss {:>8.1} us  white {:>8.1} us {}  black {:>8.1} us {}  {}",
                *loss as f64 / 1e3,
                r[0].0 as f64 / 1e3,
                if r[0].1 { "mates" } else { "no   " },
                r[1].0 as f64 / 1e3,
                if r[1].1 { "mates" } else { "no   " },
                pos.fen()
            );
        }
    }
    for (name, pred) in &preds {
        let (mut total, mut max) = (0u64, 0u64);
        let mut last: Option<Color> = None;
        for (pos, r) in &rows {
            let c = if *name == "oracle" {
                cost(r, Color::White).min(cost(r, Color::Black))
            } else {
                cost(r, pred(pos, last))
            };
            total += c;
            max = max.max(c);
            // The winner found, as the detector would know it.
            let first = pred(pos, last);
            last = if r[first.index()].1 {
                Some(first)
            } else if r[(!first).index()].1 {
                Some(!first)
            } else {
                last
            };
        }
        println!(
            "{name:<20} total {:>9.1} ms  mean {:>8.1} us  max {:>9.1} us",
            total as f64 / 1e6,
            total as f64 / 1e3 / rows.len() as f64,
            max as f64 / 1e3
        );
    }
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10_000);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let t0 = Instant::now();
    let mut games: Vec<Vec<(Move, String)>> = Vec::with_capacity(n);
    for _ in 0..n {
        let mut game = Game::new(start()).unwrap();
        let mut played = Vec::new();
        let mut t = 0;
        while !game.is_over() {
            let pos = *game.position();
            let moves = pos.legal_moves();
            let m = moves[rng.gen_range(0..moves.len())];
            let san = pos.san(m);
            t += 100;
            json::apply(&mut game, &event(t, pos.turn(), &san)).unwrap();
            played.push((m, san));
        }
        games.push(played);
    }
    let plies: usize = games.iter().map(Vec::len).sum();
    println!(
        "{n} random games, {plies} moves ({:.1} per game), generated in {:.2?}",
        plies as f64 / n as f64,
        t0.elapsed()
    );
    if std::env::args().any(|a| a == "--generate-only") {
        // The floor of the callgrind runs of `--dead-only`: generation alone.
        return;
    }
    if std::env::args().any(|a| a == "--solver-probe") {
        solver_probe(&dead_position_alone(&games));
        return;
    }
    if std::env::args().any(|a| a == "--dead-only") {
        // For profiling (callgrind): the dead-position check alone.
        let alone = dead_position_alone(&games);
        alone.print(plies);
        if let Some(path) = std::env::var_os("ARBITER_DUMP_SOLVER") {
            // The positions settled by the solver, for the alive bench's
            // corpus (`FEN<TAB>first<TAB>laws`).
            use std::fmt::Write;
            let mut text = String::new();
            for (_, pos, reason) in &alone.calls {
                if *reason == Reason::Solver {
                    let first = likelier(pos);
                    writeln!(text, "{}\t{}\tlaws", pos.fen(), first.char()).unwrap();
                }
            }
            std::fs::write(path, text).unwrap();
        }
        return;
    }

    // 1. Bare core: parse each SAN and play it.
    let mut core = Duration::ZERO;
    let mut check = 0u64;
    for g in &games {
        core += faster_of_two(
            || {
                let mut pos = Position::standard();
                for (_, san) in g {
                    let m = pos.parse_san(san).unwrap();
                    pos.play_unchecked(m);
                }
                pos.zobrist()
            },
            |z| check ^= z,
        );
    }

    let core_check = check;

    // 2. arbiter judge: JSON lines in, JSON lines out.
    let inputs: Vec<String> = games
        .iter()
        .map(|g| {
            let mut s = String::from("{\"start\": {\"time_control\": \"300+2\"}}\n");
            for (i, (_, san)) in g.iter().enumerate() {
                let e = event(100 * (i as u64 + 1), Color::from_white(i % 2 == 0), san);
                s.push_str(&serde_json::to_string(&e).unwrap());
                s.push('\n');
            }
            s
        })
        .collect();
    let (mut judge, mut bytes, mut ended) = (Duration::ZERO, 0, 0);
    let mut outputs = Vec::with_capacity(inputs.len());
    for input in &inputs {
        judge += faster_of_two(
            || {
                let mut out = Vec::with_capacity(input.len() * 2);
                let summary =
                    arbiter_laws::judge::run(input.as_bytes(), &mut out, Default::default())
                        .unwrap();
                (summary.result.is_some(), out)
            },
            |(e, out)| {
                ended += usize::from(e);
                bytes += out.len();
                outputs.push(out);
            },
        );
    }
    let (mut judge_ahead, mut same) = (Duration::ZERO, true);
    let ahead = arbiter_laws::judge::Options {
        read_ahead: true,
        ..Default::default()
    };
    for (input, online) in inputs.iter().zip(&outputs) {
        judge_ahead += faster_of_two(
            || {
                let mut out = Vec::with_capacity(input.len() * 2);
                arbiter_laws::judge::run(input.as_bytes(), &mut out, ahead).unwrap();
                out
            },
            |out| same &= out == *online,
        );
    }
    let mut json = Duration::ZERO;
    for input in &inputs {
        json += faster_of_two(
            || {
                let mut out = Vec::with_capacity(input.len() * 2);
                for line in input.lines().skip(1) {
                    let e: Event = serde_json::from_str(line).unwrap();
                    let json::Action::Move { mv, .. } = &e.action else {
                        unreachable!()
                    };
                    let shape = Shape {
                        ok: true,
                        t: e.t,
                        mv,
                        clock: ClockShape {
                            white: 299_000,
                            black: 300_000,
                        },
                        status: "ongoing",
                        turn: "white",
                    };
                    serde_json::to_writer(&mut out, &shape).unwrap();
                    out.push(b'\n');
                }
                out.len()
            },
            drop,
        );
    }

    let events: Vec<Vec<Event>> = games
        .iter()
        .map(|g| {
            g.iter()
                .enumerate()
                .map(|(i, (_, san))| {
                    event(100 * (i as u64 + 1), Color::from_white(i % 2 == 0), san)
                })
                .collect()
        })
        .collect();
    // 5. Game::apply with every check, after reading ahead, then online.
    let ahead_run = replay_laws(&events, true);
    let online_run = replay_laws(&events, false);
    let (laws_ahead, laws) = (ahead_run.time, online_run.time);
    let check_ahead = core_check ^ ahead_run.finals;
    check ^= online_run.finals;
    let (solver_calls_ahead, settled_ahead) = (ahead_run.solver_calls, ahead_run.settled);
    let (solver_calls, settled) = (online_run.solver_calls, online_run.settled);

    // 6. The dead-position check alone, called as Game calls it.
    let dead_alone = dead_position_alone(&games);
    let dead = dead_alone.total;
    let per = |d: Duration| d.as_nanos() as f64 / plies as f64;
    let by = |settled: [u64; 6]| -> String {
        let settled: Vec<String> = Reason::ALL
            .iter()
            .zip(settled)
            .map(|(r, n)| format!("{} {n}", r.name()))
            .collect();
        settled.join(", ")
    };
    println!("online: dead-position checks settled by {}", by(settled));
    println!("online: exact solver calls {solver_calls}");
    println!("read ahead: settled by {}", by(settled_ahead));
    println!("read ahead: exact solver calls {solver_calls_ahead}");
    let row = |name: &str, d: Duration| {
        println!("{name:<38} {d:>9.2?} {:>9.1} ns/move", per(d));
    };
    row("1. bare core (parse SAN + play)", core);
    row("2. arbiter judge, online", judge);
    row("3. arbiter judge FILE, reading ahead", judge_ahead);
    row("4. the JSON lines alone (no Laws)", json);
    row("5. Game::apply, online", laws);
    row("5r. Game::apply after read_ahead", laws_ahead);
    row("6. dead-position check alone, online", dead);
    dead_alone.print(plies);
    println!("judge output online and reading ahead identical: {same}");
    for (name, d) in [("2 - 1", judge), ("3 - 1", judge_ahead)] {
        let cost = per(d) - per(core);
        println!(
            "cost of the Laws ({name}): {cost:.1} ns/move = {:.2}x the core: goal (< 1x) {}",
            cost / per(core),
            if cost < per(core) { "met" } else { "not met" }
        );
    }
    for (name, d) in [("5 - 1", laws), ("5r - 1", laws_ahead)] {
        let cost = per(d) - per(core);
        println!(
            "without JSON ({name}): {cost:.1} ns/move = {:.2}x the core",
            cost / per(core)
        );
    }
    println!(
        "games ended by the Laws: {ended}/{n}; {bytes} bytes of verdicts; final positions of core and Laws agree: {}",
        check == 0 && check_ahead == 0
    );
}
