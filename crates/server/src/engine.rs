//! The engine as an opponent: searches run on tokio's blocking pool, at
//! most `threads` at a time (the rest wait their turn), each bounded in time
//! and nodes whatever the clock says, so a game against the engine cannot
//! make the server use unbounded resources.

use crate::protocol::{Clocks, Color};
use arbiter_chess::Position;
use arbiter_engine::engine::Score;
use arbiter_engine::{Engine, EngineOptions, Limits};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// The longest the engine thinks about one move.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(10);
/// The most nodes of one search.
pub const MAX_NODES: u64 = 20_000_000;
/// Thinking time per move in untimed games.
pub const UNTIMED_MOVE_TIME: Duration = Duration::from_millis(1500);
/// Transposition table per engine, MiB.
const HASH_MB: usize = 16;

/// A move request.
pub struct Request {
    /// The game so far (the engine sees its history for repetitions).
    pub game: arbiter_laws::Game,
    /// 1..7 (protocol §3.1).
    pub level: u8,
    /// The engine's side.
    pub side: Color,
    /// The ply the request is for.
    pub ply: u32,
    /// The clocks now.
    pub clock: Option<Clocks>,
}

/// Bounded concurrent searches with reusable engines.
#[derive(Clone)]
pub struct EnginePool {
    permits: Arc<Semaphore>,
    engines: Arc<Mutex<Vec<Engine>>>,
}

impl EnginePool {
    /// A pool running at most `threads` searches at once (at least one).
    pub fn new(threads: usize) -> EnginePool {
        EnginePool {
            permits: Arc::new(Semaphore::new(threads.max(1))),
            engines: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// The engine's evaluation of the current position from `req.side`'s
    /// point of view: a short search at full strength (at most
    /// [`DRAW_EVAL_NODES`] and [`DRAW_EVAL_TIME`]); `None` if there is no
    /// move to search or the search failed.
    pub async fn evaluate(&self, req: Request) -> Option<Score> {
        self.run(move |engine| evaluate(engine, &req)).await
    }

    /// The engine's move (UCI, as the game's `legal_moves` write it), or
    /// `None` if it has none or the search failed.
    pub async fn best_move(&self, req: Request) -> Option<String> {
        self.run(move |engine| search(engine, &req)).await
    }

    /// Runs `job` on a pooled engine on the blocking pool, once a search
    /// permit is free (the bound on simultaneous searches); the engine goes
    /// back to the pool afterwards.
    async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce(&mut Engine) -> Option<T> + Send + 'static,
    ) -> Option<T> {
        let permit = self.permits.clone().acquire_owned().await.ok()?;
        let engines = self.engines.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let mut engine = engines
                .lock()
                .ok()
                .and_then(|mut v| v.pop())
                .unwrap_or_else(|| Engine::new(EngineOptions::default()));
            let out = job(&mut engine);
            if let Ok(mut v) = engines.lock() {
                v.push(engine);
            }
            out
        })
        .await
        .ok()
        .flatten()
    }
}

/// Nodes of the search that weighs a draw offer.
pub const DRAW_EVAL_NODES: u64 = 300_000;
/// Its longest time.
pub const DRAW_EVAL_TIME: Duration = Duration::from_millis(500);
/// Before this move number (the position's, so a set-up position counts
/// from its own) the engine declines every draw offer: too early to agree.
pub const DRAW_FROM_MOVE: u32 = 20;

/// How much better than equal (centipawns, from its own side) the engine
/// may stand and still accept a draw, by level. At full strength only a
/// position its search sees as level (±0.2 pawn) is agreed drawn; the
/// weaker levels, like weaker players, judge more loosely and are content
/// with a draw while a little better.
pub fn draw_margin_cp(level: u8) -> i32 {
    match level {
        1 => 100,
        2 => 80,
        3 => 60,
        4 => 50,
        5 => 40,
        6 => 30,
        _ => 20,
    }
}

/// The engine's answer to a draw offer (Art. 9.1), given the position's
/// move number and its own search score (from its side's point of view):
/// it accepts from move [`DRAW_FROM_MOVE`] on when it is not clearly better
/// — the score at most [`draw_margin_cp`] above equal, or it is being mated
/// — and declines otherwise (too early, clearly better, or no score).
pub fn accepts_draw(level: u8, move_number: u32, score: Option<Score>) -> bool {
    if move_number < DRAW_FROM_MOVE {
        return false;
    }
    match score {
        Some(Score::Cp(cp)) => cp <= draw_margin_cp(level),
        Some(Score::Mate(n)) => n < 0,
        None => false,
    }
}

/// The options for `level`: `UCI_Elo` from the protocol's table (clamped to
/// what the engine offers), level 7 at full strength.
pub fn options_for(level: u8) -> EngineOptions {
    let elo = crate::protocol::engine_elo(level);
    EngineOptions {
        hash_mb: HASH_MB,
        threads: 1,
        limit_strength: elo.is_some(),
        elo: elo.unwrap_or(arbiter_engine::engine::MAX_ELO).clamp(
            arbiter_engine::engine::MIN_ELO,
            arbiter_engine::engine::MAX_ELO,
        ),
        ..EngineOptions::default()
    }
}

/// The search limits: the clock as UCI `wtime/btime/winc/binc/movestogo`,
/// always capped by [`MAX_MOVE_TIME`] and [`MAX_NODES`].
pub fn limits_for(req: &Request) -> Limits {
    let mut limits = Limits {
        nodes: Some(MAX_NODES),
        ..Limits::default()
    };
    match (&req.clock, req.game.clock()) {
        (Some(c), Some(clock)) => {
            // Keep a margin for the lag between the search and the server.
            let ms = |v: u64| Some(Duration::from_millis(v.saturating_sub(100).max(50)));
            limits.time = [ms(c.white_ms), ms(c.black_ms)];
            let inc = |color| {
                let p = clock.periods().get(clock.period(color)).copied();
                Some(Duration::from_millis(p.map_or(0, |p| p.increment_ms)))
            };
            limits.inc = [
                inc(arbiter_chess::Color::White),
                inc(arbiter_chess::Color::Black),
            ];
            limits.movestogo = match req.side {
                Color::White => c.moves_to_control.white,
                Color::Black => c.moves_to_control.black,
            };
        }
        _ => limits.movetime = Some(UNTIMED_MOVE_TIME),
    }
    limits
}

/// The positions of the game so far, for the engine's repetition checks.
fn history(req: &Request) -> Vec<Position> {
    let mut history: Vec<Position> = Vec::with_capacity(req.game.moves().len() + 1);
    let mut pos = *req.game.initial_position();
    history.push(pos);
    for m in req.game.moves() {
        pos.play_unchecked(m.mv);
        history.push(pos);
    }
    let now = *req.game.position();
    if history.last() != Some(&now) {
        history = vec![now];
    }
    history
}

fn evaluate(engine: &mut Engine, req: &Request) -> Option<Score> {
    engine.set_options(options_for(7));
    engine.new_game();
    let history = history(req);
    let pos = *history.last()?;
    let limits = Limits {
        nodes: Some(DRAW_EVAL_NODES),
        movetime: Some(DRAW_EVAL_TIME),
        ..Limits::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let result = engine.search(&history, &limits, &stop, &mut |_| {})?;
    // The score is the side to move's: turn it to the engine's side.
    let ours = pos.turn() == req.side;
    Some(match result.score {
        s if ours => s,
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Mate(n) => Score::Mate(-n),
    })
}

fn search(engine: &mut Engine, req: &Request) -> Option<String> {
    engine.set_options(options_for(req.level));
    engine.new_game();
    let history = history(req);
    let now = *req.game.position();
    let limits = limits_for(req);
    let stop = Arc::new(AtomicBool::new(false));
    // The hard cap, whatever the limits say: a watchdog sets `stop`.
    let watchdog_stop = stop.clone();
    let done = Arc::new(AtomicBool::new(false));
    let watchdog_done = done.clone();
    let watchdog = std::thread::spawn(move || {
        let start = std::time::Instant::now();
        while start.elapsed() < MAX_MOVE_TIME {
            if watchdog_done.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        watchdog_stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let result = engine.search(&history, &limits, &stop, &mut |_| {});
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = watchdog.join();
    let best = result?.best;
    // Only a move the Laws allow (touch-move cannot bind the engine, but be exact).
    req.game
        .legal_moves()
        .contains(&best)
        .then(|| now.uci(best))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Art. 9.1: the engine's answer to a draw offer.
    #[test]
    fn draw_offers_are_weighed() {
        // Too early, whatever the score.
        assert!(!accepts_draw(7, 1, Some(Score::Cp(0))));
        assert!(!accepts_draw(1, DRAW_FROM_MOVE - 1, Some(Score::Cp(-500))));
        // Level, worse, or being mated: accepted.
        assert!(accepts_draw(7, DRAW_FROM_MOVE, Some(Score::Cp(0))));
        assert!(accepts_draw(7, 40, Some(Score::Cp(20))));
        assert!(accepts_draw(7, 40, Some(Score::Cp(-300))));
        assert!(accepts_draw(7, 40, Some(Score::Mate(-3))));
        // Clearly better, or mating: declined.
        assert!(!accepts_draw(7, 40, Some(Score::Cp(21))));
        assert!(!accepts_draw(7, 40, Some(Score::Mate(2))));
        assert!(!accepts_draw(7, 40, None));
        // The weaker levels are content with a draw a little better.
        assert!(accepts_draw(1, 40, Some(Score::Cp(90))));
        assert!(!accepts_draw(1, 40, Some(Score::Cp(101))));
        for level in 1..7 {
            assert!(draw_margin_cp(level) > draw_margin_cp(level + 1));
        }
    }
}
