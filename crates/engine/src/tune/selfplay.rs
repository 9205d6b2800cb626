//! Self-play games that produce the tuner's training positions.
//!
//! Each game starts from a few random legal moves out of the initial position
//! (kept only if a short search finds it roughly balanced), then the engine
//! plays both sides with a fixed node budget per move. Quiet positions (not in
//! check, best move not a capture or promotion) are written with the game's
//! result. Every game is an [`arbiter_laws::Game`]: the Laws decide how it
//! ends. Everything is determined by the seed.

use crate::engine::{Engine, EngineOptions, Limits, Score};
use arbiter_chess::{Color, Move, Position};
use arbiter_laws::{Event, Game, GameResult, Start};
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Settings of a self-play batch.
///
/// ```
/// use arbiter_engine::tune::selfplay::{run, SelfPlayConfig};
/// use arbiter_engine::tune::texel::load;
///
/// let config = SelfPlayConfig {
///     games: 1,
///     nodes: 64,
///     random_plies: 4,
///     seed: 1,
/// };
/// let mut out = Vec::new();
/// let written = run(&config, &mut out, &mut |_game, _positions| {}).unwrap();
/// assert!(written > 0, "quiet positions of the game");
/// let text = String::from_utf8(out).unwrap();
/// assert_eq!(text.lines().count(), written);
/// // `FEN;score` lines, which the tuner reads back.
/// assert_eq!(load(text.as_bytes()).unwrap().len(), written);
/// ```
#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// Games to play.
    pub games: u32,
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies at the start of each game.
    pub random_plies: u32,
    /// Seed of the random openings.
    pub seed: u64,
}

/// A small deterministic generator (SplitMix64).
///
/// ```
/// use arbiter_engine::tune::selfplay::Rng;
///
/// let (mut a, mut b) = (Rng::new(42), Rng::new(42));
/// let draws: Vec<u64> = (0..4).map(|_| a.next_u64()).collect();
/// assert_eq!(draws, (0..4).map(|_| b.next_u64()).collect::<Vec<_>>());
/// assert_ne!(draws[0], draws[1]);
/// assert!((0..100).all(|_| a.below(6) < 6));
/// ```
pub struct Rng(u64);

impl Rng {
    /// Seeded.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

fn white_view(score: Score, turn: Color) -> i32 {
    let v = match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 10_000,
        Score::Mate(_) => -10_000,
    };
    if turn == Color::White {
        v
    } else {
        -v
    }
}

/// A random balanced opening: `plies` random moves, accepted when a 2,000
/// node search scores it within ±120 centipawns.
pub fn random_opening(engine: &mut Engine, rng: &mut Rng, plies: u32) -> Vec<Position> {
    let stop = Arc::new(AtomicBool::new(false));
    loop {
        let mut pos = Position::standard();
        let mut history = vec![pos];
        let mut ok = true;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
            history.push(pos);
        }
        if !ok || !pos.has_legal_moves() {
            continue;
        }
        let limits = Limits {
            nodes: Some(2_000),
            ..Limits::default()
        };
        if let Some(r) = engine.search(&history, &limits, &stop, &mut |_| {}) {
            if matches!(r.score, Score::Cp(v) if v.abs() <= 120) {
                return history;
            }
        }
    }
}

/// A plausible balanced opening for match play: at each of `plies` moves, a
/// random choice among the engine's best four moves (a MultiPV search of
/// `nodes` nodes) that score within 40 centipawns of the best; kept if a
/// final search of `4 × nodes` scores it within ±`max_cp`.
pub fn natural_opening(rng: &mut Rng, plies: u32, nodes: u64, max_cp: i32) -> Position {
    let stop = Arc::new(AtomicBool::new(false));
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 8,
        multipv: 4,
        ..EngineOptions::default()
    });
    let mut judge = Engine::new(EngineOptions {
        hash_mb: 8,
        ..EngineOptions::default()
    });
    loop {
        let mut pos = Position::standard();
        let mut history = vec![pos];
        for _ in 0..plies {
            let mut lines: Vec<(arbiter_chess::Move, i32)> = Vec::new();
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let mut last_depth = 0;
            engine.new_game();
            engine.search(&history, &limits, &stop, &mut |i| {
                if i.depth != last_depth {
                    last_depth = i.depth;
                    lines.clear();
                }
                if let (Some(&m), Score::Cp(v)) = (i.pv.first(), i.score) {
                    if i.bound == crate::engine::ScoreBound::Exact {
                        lines.retain(|(x, _)| *x != m);
                        lines.push((m, v));
                    }
                }
            });
            let best = lines.iter().map(|l| l.1).max().unwrap_or(0);
            let good: Vec<_> = lines.iter().filter(|l| l.1 >= best - 40).collect();
            if good.is_empty() {
                break;
            }
            let m = good[rng.below(good.len())].0;
            pos.play_unchecked(m);
            history.push(pos);
        }
        if history.len() as u32 != plies + 1 {
            continue;
        }
        let limits = Limits {
            nodes: Some(nodes * 4),
            ..Limits::default()
        };
        judge.new_game();
        if let Some(r) = judge.search(&history, &limits, &stop, &mut |_| {}) {
            if matches!(r.score, Score::Cp(v) if v.abs() <= max_cp) {
                return pos;
            }
        }
    }
}

/// Plays `m` for the player to move; `false` if the Laws refuse it.
fn play(game: &mut Game, m: Move) -> bool {
    let by = game.turn();
    game.apply(Event::play(0, by, m)).is_ok()
}

/// Claims a draw for the player to move, on the position or on the
/// intended move, if the Laws allow it (FIDE 2014, Art. 9.2, 9.3).
fn claim(game: &mut Game, intended: Option<Move>) -> bool {
    let Some(kind) = game.claimable(intended) else {
        return false;
    };
    let by = game.turn();
    game.apply(Event::claim(0, by, kind, intended)).is_ok()
}

/// Plays one game from `history` (positions from the initial one), the
/// engine on both sides with `nodes` nodes a move, as an
/// [`arbiter_laws::Game`] (FIDE 2014): it ends on the board (mate,
/// stalemate, dead position, fivefold repetition, 75 moves), by a draw
/// claimed as soon as the Laws allow (threefold repetition, 50 moves), or,
/// to save time, by adjudication on the engine's own score (±10 pawns for
/// six moves; within 0.1 pawn for twelve moves after ply 80; 400 plies).
/// Returns the result and the quiet positions.
pub fn play_game(
    engine: &mut Engine,
    mut history: Vec<Position>,
    nodes: u64,
) -> (GameResult, Vec<Position>) {
    let stop = Arc::new(AtomicBool::new(false));
    let mut quiet = Vec::new();
    let Ok(mut game) = Game::new(Start::default()) else {
        return (GameResult::DRAW, quiet);
    };
    // The opening's moves, found from its positions.
    for w in history.windows(2) {
        let m = w[0].legal_moves().into_iter().find(|&m| {
            let mut p = w[0];
            p.play_unchecked(m);
            p == w[1]
        });
        if !m.is_some_and(|m| play(&mut game, m)) {
            return (GameResult::DRAW, quiet);
        }
    }
    let mut win_streak = 0;
    let mut draw_streak = 0;
    engine.new_game();
    loop {
        if !game.is_over() {
            claim(&mut game, None);
        }
        if let Some(o) = game.outcome() {
            return (o.result, quiet);
        }
        let pos = *game.position();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let Some(r) = engine.search(&history, &limits, &stop, &mut |_| {}) else {
            // No legal move: the Laws would have ended the game.
            return (GameResult::DRAW, quiet);
        };
        let v = white_view(r.score, pos.turn());
        // Adjudicate decided games to save time.
        if v.abs() >= 1_000 {
            win_streak += 1;
        } else {
            win_streak = 0;
        }
        if v.abs() <= 10 && history.len() > 80 {
            draw_streak += 1;
        } else {
            draw_streak = 0;
        }
        if win_streak >= 6 {
            let winner = if v > 0 { Color::White } else { Color::Black };
            return (GameResult::win(winner), quiet);
        }
        if draw_streak >= 12 || history.len() > 400 {
            return (GameResult::DRAW, quiet);
        }
        if claim(&mut game, Some(r.best)) {
            continue;
        }
        if !pos.is_check() && !pos.is_capture(r.best) && r.best.promotion.is_none() {
            quiet.push(pos);
        }
        if !play(&mut game, r.best) {
            return (GameResult::DRAW, quiet);
        }
        history.push(*game.position());
    }
}

/// The points White scored: 1, 0.5 or 0.
pub fn white_score(result: GameResult) -> f64 {
    f64::from(result.score(Color::White).halves()) / 2.0
}

/// Plays a batch and writes `FEN;score` lines (score 1, 0.5 or 0 for White).
/// Returns the number of positions written.
pub fn run(
    config: &SelfPlayConfig,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(u32, usize),
) -> io::Result<usize> {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 8,
        ..EngineOptions::default()
    });
    let mut rng = Rng::new(config.seed);
    let mut written = 0;
    for game in 0..config.games {
        let opening = random_opening(&mut engine, &mut rng, config.random_plies);
        let (outcome, positions) = play_game(&mut engine, opening, config.nodes);
        for p in &positions {
            writeln!(out, "{};{}", p.fen(), white_score(outcome))?;
        }
        written += positions.len();
        progress(game + 1, written);
    }
    out.flush()?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_batch_writes_labelled_positions() {
        let config = SelfPlayConfig {
            games: 2,
            nodes: 300,
            random_plies: 6,
            seed: 1,
        };
        let mut buf = Vec::new();
        let n = run(&config, &mut buf, &mut |_, _| {}).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(text.lines().count(), n);
        assert!(n > 10);
        for line in text.lines() {
            let (fen, score) = line.rsplit_once(';').unwrap();
            assert!(Position::from_fen_auto(fen).is_ok());
            assert!(["1", "0.5", "0"].contains(&score), "{score}");
        }
    }

    #[test]
    fn natural_openings_are_balanced_and_reproducible() {
        let a = natural_opening(&mut Rng::new(5), 4, 500, 200);
        let b = natural_opening(&mut Rng::new(5), 4, 500, 200);
        assert_eq!(a, b);
        assert_eq!(a.fullmoves(), 3);
    }

    #[test]
    fn same_seed_same_games() {
        let config = SelfPlayConfig {
            games: 1,
            nodes: 200,
            random_plies: 6,
            seed: 99,
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        run(&config, &mut a, &mut |_, _| {}).unwrap();
        run(&config, &mut b, &mut |_, _| {}).unwrap();
        assert_eq!(a, b);
    }
}
