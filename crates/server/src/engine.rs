//! The engine as an opponent: searches run on tokio's blocking pool, at
//! most `threads` at a time, each bounded in time and nodes whatever the
//! clock says, so a game against the engine cannot make the server use
//! unbounded resources.
//!
//! The searches waiting for a free engine queue *per client* (the address
//! the request came from) and are served round-robin across clients, so a
//! client with many busy games delays another client's game by at most one
//! search per other client, never by its whole backlog; within a client
//! they are served in order. Each game has at most one move search waiting
//! (the game task asks once per ply), so the queues are fair per game too.
//! A client may have at most [`MAX_QUEUED_PER_CLIENT`] searches waiting or
//! running ([`EnginePool::is_full`]; the game refuses its moves with
//! `engine_busy` meanwhile, protocol §4.2).
//!
//! Analyses of finished games ([`crate::analysis`]) are background work:
//! they queue behind every live game's search, round-robin between their
//! clients, and in a pool of more than one engine never hold the last free
//! one ([`EnginePool::analyse`]).
//!
//! The time a search waits for an engine is charged to nobody: the engine,
//! a player, starts thinking when it is given the position, and the
//! server, its operator, gives it the position only when an engine is
//! free. The game task pauses the game's clock by that wait (as the
//! arbiter pauses the clocks when a game must be interrupted, Art. 6.11.1
//! of the 2018 and 2023 Laws, 6.12 of 2014) — see [`Searched::waited`].

use crate::protocol::{Clocks, Color};
use arbiter_chess::Position;
use arbiter_engine::engine::Score;
use arbiter_engine::{Engine, EngineOptions, Limits};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// The longest the engine thinks about one move.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(10);
/// The most nodes of one search.
pub const MAX_NODES: u64 = 20_000_000;
/// Thinking time per move in untimed games.
pub const UNTIMED_MOVE_TIME: Duration = Duration::from_millis(1500);
/// The most searches one client may have waiting or running at once.
pub const MAX_QUEUED_PER_CLIENT: usize = 4;
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

/// Who a search is for: the fairness key of the queue (the client's
/// address, or, for a game with no client behind the request — such as a
/// game resumed after a restart — the game's id).
///
/// ```
/// use arbiter_server::engine::Client;
/// let a = Client::from("203.0.113.7");
/// assert_eq!(a, Client::from("203.0.113.7".to_string()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Client(String);

impl From<&str> for Client {
    fn from(s: &str) -> Client {
        Client(s.to_string())
    }
}

impl From<String> for Client {
    fn from(s: String) -> Client {
        Client(s)
    }
}

/// A search's answer and how long it waited for an engine.
#[derive(Debug)]
pub struct Searched<T> {
    /// The answer (`None`: nothing to search, or the search failed).
    pub answer: Option<T>,
    /// The time between the request and the start of its search: charged
    /// to nobody (the game's clock is paused by it, module docs).
    pub waited: Duration,
}

/// Searches waiting, one FIFO per client, served round-robin.
type Waiting = VecDeque<(Client, VecDeque<oneshot::Sender<Turn>>)>;

/// The queue of searches waiting for an engine: the live games' searches
/// first, one FIFO per client served round-robin; behind them the analyses
/// (background work, [`EnginePool::analyse`]), also round-robin per client,
/// which never hold the last free engine when the pool has more than one.
#[derive(Default)]
struct Queue {
    /// Searches running now.
    running: usize,
    /// Of them, background ones.
    running_background: usize,
    /// The most at once.
    limit: usize,
    /// Live games' searches waiting.
    waiting: Waiting,
    /// Analyses waiting.
    background: Waiting,
    /// Searches waiting or running, per client.
    held: HashMap<Client, usize>,
}

/// Pops the next search of `w` round-robin (its client goes to the back).
fn next_of(w: &mut Waiting) -> Option<oneshot::Sender<Turn>> {
    while let Some((client, mut q)) = w.pop_front() {
        let next = q.pop_front();
        if !q.is_empty() {
            w.push_back((client, q));
        }
        if next.is_some() {
            return next;
        }
    }
    None
}

impl Queue {
    /// May one more background search run now?
    fn background_may_run(&self) -> bool {
        self.running < self.limit && (self.limit == 1 || self.running_background + 1 < self.limit)
    }

    /// Hands free engines to waiting searches: live ones first, then
    /// analyses while they leave an engine free.
    fn dispatch(&mut self, queue: &Arc<Mutex<Queue>>) {
        while self.running < self.limit {
            let background = self.waiting.is_empty();
            if background && !self.background_may_run() {
                return;
            }
            let next = if background {
                next_of(&mut self.background)
            } else {
                next_of(&mut self.waiting)
            };
            let Some(tx) = next else { return };
            self.running += 1;
            if background {
                self.running_background += 1;
            }
            let turn = Turn {
                queue: queue.clone(),
                armed: true,
                background,
            };
            // A search given up meanwhile: its turn is released unarmed.
            if let Err(mut turn) = tx.send(turn) {
                turn.armed = false;
                self.running -= 1;
                if background {
                    self.running_background -= 1;
                }
            }
        }
    }
}

/// A running search's engine: dropped, it goes to the next waiting search
/// (or back to the pool). Handed over a channel, it is released even if
/// the search it was sent to was given up meanwhile.
struct Turn {
    queue: Arc<Mutex<Queue>>,
    armed: bool,
    background: bool,
}

impl Drop for Turn {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.running -= 1;
        if self.background {
            q.running_background -= 1;
        }
        q.dispatch(&self.queue);
    }
}

/// Bounded concurrent searches with reusable engines, queued fairly.
///
/// ```
/// use arbiter_server::engine::{Client, EnginePool};
/// let pool = EnginePool::new(2);
/// assert!(!pool.is_full(&Client::from("203.0.113.7")));
/// ```
#[derive(Clone)]
pub struct EnginePool {
    queue: Arc<Mutex<Queue>>,
    engines: Arc<Mutex<Vec<Engine>>>,
}

/// A search's place in its client's count of searches waiting or running
/// ([`MAX_QUEUED_PER_CLIENT`]): taken by [`EnginePool::reserve`] (checked
/// against the bound and counted in one step, so moves sent at once cannot
/// all pass the check before any is counted) or [`EnginePool::hold`], and
/// given back when dropped — unused (the move it was taken for was
/// refused), or with the search it was handed to.
///
/// ```
/// use arbiter_server::engine::{Client, EnginePool, MAX_QUEUED_PER_CLIENT};
/// let pool = EnginePool::new(1);
/// let me = Client::from("203.0.113.7");
/// let places: Vec<_> = (0..MAX_QUEUED_PER_CLIENT)
///     .map(|_| pool.reserve(&me).expect("a place"))
///     .collect();
/// assert!(pool.reserve(&me).is_none());
/// assert!(pool.reserve(&Client::from("198.51.100.1")).is_some());
/// drop(places);
/// assert!(pool.reserve(&me).is_some());
/// ```
pub struct Reservation {
    queue: Arc<Mutex<Queue>>,
    client: Client,
}

impl Reservation {
    /// The client counted.
    pub fn client(&self) -> &Client {
        &self.client
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = q.held.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                q.held.remove(&self.client);
            }
        }
    }
}

/// A search's place in its client's count, and its engine once it runs.
/// Dropping it frees both (the engine goes to the next search, after the
/// count's lock is released).
struct Slot {
    /// The place counted (none for background work).
    _place: Option<Reservation>,
    turn: Option<Turn>,
}

impl EnginePool {
    /// A pool running at most `threads` searches at once (at least one).
    pub fn new(threads: usize) -> EnginePool {
        EnginePool {
            queue: Arc::new(Mutex::new(Queue {
                limit: threads.max(1),
                ..Queue::default()
            })),
            engines: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// Has `client` [`MAX_QUEUED_PER_CLIENT`] searches waiting or running?
    /// (A hint only: to act on it, take the place with [`EnginePool::reserve`].)
    pub fn is_full(&self, client: &Client) -> bool {
        self.queue
            .lock()
            .map(|q| q.held.get(client).copied().unwrap_or(0) >= MAX_QUEUED_PER_CLIENT)
            .unwrap_or(true)
    }

    /// Takes a place for one more of `client`'s searches if it has fewer
    /// than [`MAX_QUEUED_PER_CLIENT`] waiting or running: the check and the
    /// count are one step under the queue's lock. `None`: the client is at
    /// its bound (the game refuses the move with `engine_busy`).
    pub fn reserve(&self, client: &Client) -> Option<Reservation> {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        let n = q.held.entry(client.clone()).or_insert(0);
        if *n >= MAX_QUEUED_PER_CLIENT {
            return None;
        }
        *n += 1;
        Some(Reservation {
            queue: self.queue.clone(),
            client: client.clone(),
        })
    }

    /// Takes a place for `client`'s search without the bound: a search no
    /// client's move asked for (the engine's first move, a game resumed
    /// after a restart, the weighing of a draw offer). Each game has at most
    /// one such search at a time, so these are bounded by the live games.
    pub fn hold(&self, client: Client) -> Reservation {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        *q.held.entry(client.clone()).or_insert(0) += 1;
        Reservation {
            queue: self.queue.clone(),
            client,
        }
    }

    /// The engine's evaluation of the current position from `req.side`'s
    /// point of view: a short search at full strength (at most
    /// [`DRAW_EVAL_NODES`] and [`DRAW_EVAL_TIME`]); `None` if there is no
    /// move to search or the search failed.
    pub async fn evaluate(&self, client: Client, req: Request) -> Option<Score> {
        self.run(client, move |engine| evaluate(engine, &req))
            .await
            .answer
    }

    /// The engine's move (UCI, as the game's `legal_moves` write it), or
    /// `None` if it has none or the search failed, with the time the
    /// request waited for an engine.
    /// `started` is told the wait when the search starts (the engine is
    /// given the position), so that the game can pause its clock then and
    /// say so to its clients (protocol §4.3 `thinking`).
    /// The search is counted in `place`'s client's searches until it ends
    /// ([`EnginePool::reserve`], [`EnginePool::hold`]).
    pub async fn best_move(
        &self,
        place: Reservation,
        req: Request,
        started: tokio::sync::oneshot::Sender<Duration>,
    ) -> Searched<String> {
        self.run_as(
            place.client.clone(),
            Some(place),
            Some(started),
            move |engine| search(engine, &req),
        )
        .await
    }

    /// Runs `job` on a pooled engine as background work (an analysis):
    /// only when no live game's search waits, and, in a pool of more than
    /// one engine, leaving one free for the live games (module docs).
    pub async fn analyse<T: Send + 'static>(
        &self,
        client: Client,
        job: impl FnOnce(&mut Engine) -> Option<T> + Send + 'static,
    ) -> Searched<T> {
        self.run_as(client, None, None, job).await
    }

    /// Runs `job` as a live game's search of `client`, counted without the
    /// bound ([`EnginePool::hold`]).
    async fn run<T: Send + 'static>(
        &self,
        client: Client,
        job: impl FnOnce(&mut Engine) -> Option<T> + Send + 'static,
    ) -> Searched<T> {
        let place = self.hold(client.clone());
        self.run_as(client, Some(place), None, job).await
    }

    /// Runs `job` on a pooled engine on the blocking pool once `client`'s
    /// turn comes (module docs); the engine goes back to the pool
    /// afterwards. A live game's search is counted in `place`; background
    /// work (no place) is not counted in the client's bound.
    async fn run_as<T: Send + 'static>(
        &self,
        client: Client,
        place: Option<Reservation>,
        started: Option<tokio::sync::oneshot::Sender<Duration>>,
        job: impl FnOnce(&mut Engine) -> Option<T> + Send + 'static,
    ) -> Searched<T> {
        let asked = Instant::now();
        let slot = self.take_turn(client, place).await;
        let waited = asked.elapsed();
        if let Some(tx) = started {
            let _ = tx.send(waited);
        }
        let engines = self.engines.clone();
        let answer = tokio::task::spawn_blocking(move || {
            let _slot = slot;
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
        .flatten();
        Searched { answer, waited }
    }

    /// Waits for `client`'s turn: a running slot. A live game's search
    /// comes with its place in the client's count; background work has none.
    async fn take_turn(&self, client: Client, place: Option<Reservation>) -> Slot {
        let background = place.is_none();
        let mut slot = Slot {
            _place: place,
            turn: None,
        };
        let rx = {
            let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            let free = if background {
                q.waiting.is_empty() && q.background.is_empty() && q.background_may_run()
            } else {
                q.running < q.limit && q.waiting.is_empty()
            };
            if free {
                q.running += 1;
                if background {
                    q.running_background += 1;
                }
                slot.turn = Some(Turn {
                    queue: self.queue.clone(),
                    armed: true,
                    background,
                });
                return slot;
            }
            let (tx, rx) = oneshot::channel();
            let waiting = if background {
                &mut q.background
            } else {
                &mut q.waiting
            };
            match waiting.iter_mut().find(|(c, _)| *c == client) {
                Some((_, w)) => w.push_back(tx),
                None => waiting.push_back((client, VecDeque::from([tx]))),
            }
            rx
        };
        // If this future is dropped while waiting, the slot's count is
        // released; a turn sent to it meanwhile is released with the channel.
        slot.turn = rx.await.ok();
        slot
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

    /// Issue 13, defect 4: six busy clients (six searches queued each)
    /// make a seventh client wait for at most one search per other client,
    /// not for their whole backlog; each client's own searches keep their
    /// order; and the pool never runs more than its bound at once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_queue_is_round_robin_across_clients() {
        let pool = EnginePool::new(1);
        let order = Arc::new(Mutex::new(Vec::<(String, usize)>::new()));
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let gate = Arc::new(Mutex::new(Some(gate_rx)));
        let mut tasks = Vec::new();
        let held = |pool: &EnginePool| pool.queue.lock().unwrap().held.values().sum::<usize>();
        let mut submitted = 0;
        for c in 0..6 {
            for n in 0..6 {
                let (pool2, order, gate) = (pool.clone(), order.clone(), gate.clone());
                let client = Client::from(format!("busy {c}"));
                tasks.push(tokio::spawn(async move {
                    pool2
                        .run(client, move |_| {
                            // The very first search holds the engine until
                            // everything is queued.
                            if let Some(rx) = gate.lock().unwrap().take() {
                                let _ = rx.recv();
                            }
                            order.lock().unwrap().push((format!("busy {c}"), n));
                            Some(())
                        })
                        .await
                }));
                submitted += 1;
                // Bounded: wait until this search is queued, in order.
                for _ in 0..1000 {
                    if held(&pool) == submitted {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                assert_eq!(held(&pool), submitted);
            }
        }
        assert!(pool.is_full(&Client::from("busy 0")));
        let late = Client::from("late");
        assert!(!pool.is_full(&late));
        let (pool2, order2) = (pool.clone(), order.clone());
        tasks.push(tokio::spawn(async move {
            pool2
                .run(late, move |_| {
                    order2.lock().unwrap().push(("late".into(), 0));
                    Some(())
                })
                .await
        }));
        for _ in 0..1000 {
            if held(&pool) == submitted + 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        gate_tx.send(()).unwrap();
        for t in tasks {
            let searched = t.await.unwrap();
            assert_eq!(searched.answer, Some(()));
        }
        let order = order.lock().unwrap().clone();
        assert_eq!(order.len(), 37);
        let late_at = order.iter().position(|(c, _)| c == "late").unwrap();
        // The search that was running, then at most one of each busy client
        // (a plain FIFO ran it 37th).
        assert!(late_at <= 7, "the late client ran {late_at}th: {order:?}");
        for c in 0..6 {
            let mine: Vec<usize> = order
                .iter()
                .filter(|(k, _)| *k == format!("busy {c}"))
                .map(|(_, n)| *n)
                .collect();
            assert_eq!(mine, (0..6).collect::<Vec<_>>());
        }
        assert_eq!(held(&pool), 0);
        assert_eq!(pool.queue.lock().unwrap().running, 0);
    }

    /// A search given up while it waits (its task aborted) frees its place
    /// and never keeps the engine from the next one.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_search_given_up_while_waiting_frees_its_place() {
        let pool = EnginePool::new(1);
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let first = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.run(Client::from("a"), move |_| gate_rx.recv().ok())
                    .await
            })
        };
        let held = |pool: &EnginePool| pool.queue.lock().unwrap().held.values().sum::<usize>();
        let wait_for = |n: usize| {
            let pool = pool.clone();
            async move {
                for _ in 0..1000 {
                    if held(&pool) == n {
                        return;
                    }
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                panic!("{} searches held, not {n}", held(&pool));
            }
        };
        wait_for(1).await;
        let given_up = {
            let pool = pool.clone();
            tokio::spawn(async move { pool.run(Client::from("b"), |_| Some(())).await })
        };
        wait_for(2).await;
        given_up.abort();
        assert!(given_up.await.is_err());
        wait_for(1).await;
        let next = {
            let pool = pool.clone();
            tokio::spawn(async move { pool.run(Client::from("c"), |_| Some(7)).await })
        };
        wait_for(2).await;
        gate_tx.send(()).unwrap();
        assert_eq!(first.await.unwrap().answer, Some(()));
        assert_eq!(next.await.unwrap().answer, Some(7));
        assert_eq!(held(&pool), 0);
        assert_eq!(pool.queue.lock().unwrap().running, 0);
    }

    /// Analyses are background work (issue 13): in a pool of two they
    /// never hold both engines, so a live game's search starts at once; in
    /// a pool of one a waiting live search goes before every waiting
    /// analysis.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn analyses_wait_behind_live_games() {
        let running = |pool: &EnginePool| {
            let q = pool.queue.lock().unwrap();
            (q.running, q.running_background)
        };
        let pool = EnginePool::new(2);
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let gate = Arc::new(Mutex::new(gate_rx));
        let mut analyses = Vec::new();
        for n in 0..4 {
            let (pool2, gate) = (pool.clone(), gate.clone());
            analyses.push(tokio::spawn(async move {
                pool2
                    .analyse(Client::from(format!("analyst {}", n % 2)), move |_| {
                        gate.lock().unwrap().recv().ok()
                    })
                    .await
            }));
        }
        for _ in 0..1000 {
            if running(&pool) == (1, 1) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(running(&pool), (1, 1), "one engine stays free");
        let live = pool.run(Client::from("player"), |_| Some(1)).await;
        assert_eq!(live.answer, Some(1));
        assert!(
            live.waited < Duration::from_millis(500),
            "{:?}",
            live.waited
        );
        for _ in 0..4 {
            gate_tx.send(()).unwrap();
        }
        for a in analyses {
            assert_eq!(a.await.unwrap().answer, Some(()));
        }
        assert_eq!(running(&pool), (0, 0));

        // One engine: the live search waiting goes first.
        let pool = EnginePool::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let first = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.run(Client::from("a"), move |_| gate_rx.recv().ok())
                    .await
            })
        };
        for _ in 0..1000 {
            if running(&pool).0 == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let mut tasks = Vec::new();
        for n in 0..3 {
            let (pool2, order) = (pool.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                pool2
                    .analyse(Client::from("analyst"), move |_| {
                        order.lock().unwrap().push(format!("analysis {n}"));
                        Some(())
                    })
                    .await
            }));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        let (pool2, order2) = (pool.clone(), order.clone());
        tasks.push(tokio::spawn(async move {
            pool2
                .run(Client::from("b"), move |_| {
                    order2.lock().unwrap().push("live".into());
                    Some(())
                })
                .await
        }));
        for _ in 0..1000 {
            if pool.queue.lock().unwrap().waiting.len() == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        gate_tx.send(()).unwrap();
        assert_eq!(first.await.unwrap().answer, Some(()));
        for t in tasks {
            assert_eq!(t.await.unwrap().answer, Some(()));
        }
        let order = order.lock().unwrap().clone();
        assert_eq!(order[0], "live", "{order:?}");
        assert_eq!(order.len(), 4);
        assert_eq!(running(&pool), (0, 0));
    }

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
