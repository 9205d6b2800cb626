//! The analysis of a finished game (protocol §3.9): the engine's evaluation
//! of every position (the evaluation graph), its best line, and each move
//! judged by what it lost; and, on request from the replay, a deeper look
//! at one position.
//!
//! The work runs on the server's engine pool as background work
//! ([`crate::engine::EnginePool::analyse`]): one short search per position,
//! each queued behind every live game's search and round-robin between the
//! clients asking, so an analysis never delays a game by more than one
//! position's search. A game gets [`NODES_PER_GAME`] nodes in all, spread over
//! its positions (at least [`MIN_NODES`], at most [`MAX_NODES`] each); a
//! deeper look gets [`DEEP_NODES`]. Finished games do not change, so the
//! results are kept in memory, the [`CACHED`] most recently asked for.
//!
//! A move is judged by the evaluation it gave away, from the mover's point
//! of view, with both evaluations capped at ±[`CAP_CP`] centipawns (a mate
//! counts as the cap), so that a move in a position already won or lost
//! loses little: at least [`INACCURACY_CP`] is an inaccuracy, at least
//! [`MISTAKE_CP`] a mistake, at least [`BLUNDER_CP`] a blunder.

use crate::engine::{Client, EnginePool};
use arbiter_chess::{Color, Position};
use arbiter_engine::engine::Score;
use arbiter_engine::Limits;
use serde::Serialize;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The node budget of one game's analysis.
pub const NODES_PER_GAME: u64 = 6_000_000;
/// The fewest nodes per position.
pub const MIN_NODES: u64 = 20_000;
/// The most nodes per position.
pub const MAX_NODES: u64 = 250_000;
/// The longest search of one position.
pub const POSITION_TIME: Duration = Duration::from_millis(1000);
/// The nodes of a deeper look at one position.
pub const DEEP_NODES: u64 = 1_500_000;
/// Its longest time.
pub const DEEP_TIME: Duration = Duration::from_secs(3);
/// The most positions analysed (a longer game: its first ones).
pub const MAX_POSITIONS: usize = 600;
/// Analyses kept in memory.
pub const CACHED: usize = 256;
/// Analyses waiting or running at once, in all.
pub const MAX_RUNNING: usize = 64;
/// Of them, per client.
pub const MAX_RUNNING_PER_CLIENT: usize = 2;
/// Deeper looks kept per game.
pub const MAX_DEEP_PER_GAME: usize = 64;
/// Moves of a best line shown.
pub const LINE_MOVES: usize = 8;
/// Evaluations are capped at this (centipawns) before a move is judged.
pub const CAP_CP: i32 = 1000;
/// Evaluation lost for an inaccuracy.
pub const INACCURACY_CP: i32 = 50;
/// For a mistake.
pub const MISTAKE_CP: i32 = 100;
/// For a blunder.
pub const BLUNDER_CP: i32 = 300;

/// An evaluation from White's point of view: centipawns, or a mate in so
/// many moves (negative: Black mates).
///
/// ```
/// use arbiter_server::analysis::Eval;
/// let e = Eval { cp: Some(35), mate: None };
/// assert_eq!(e.capped_cp(), 35);
/// assert_eq!(Eval { cp: None, mate: Some(-2) }.capped_cp(), -1000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Eval {
    /// Centipawns, if no mate is seen.
    pub cp: Option<i32>,
    /// Mate in this many moves (positive: White mates; 0: mate on the
    /// board, `cp` giving the winner's sign).
    pub mate: Option<i32>,
}

impl Eval {
    /// A draw: 0 cp.
    pub const DRAWN: Eval = Eval {
        cp: Some(0),
        mate: None,
    };

    /// From the engine's score for the side to move `turn`.
    pub fn from_score(score: Score, turn: Color) -> Eval {
        let sign = if turn == Color::White { 1 } else { -1 };
        match score {
            Score::Cp(cp) => Eval {
                cp: Some(cp * sign),
                mate: None,
            },
            Score::Mate(n) => Eval {
                cp: None,
                mate: Some(n * sign),
            },
        }
    }

    /// Checkmate on the board, `side` mated: `mate` 0, and `cp` at the
    /// cap for the winner (so the graph and the judgements can use it).
    pub fn mated(side: Color) -> Eval {
        Eval {
            cp: Some(if side == Color::White {
                -CAP_CP
            } else {
                CAP_CP
            }),
            mate: Some(0),
        }
    }

    /// Centipawns capped at ±[`CAP_CP`] (a mate counts as the cap).
    pub fn capped_cp(self) -> i32 {
        match (self.cp, self.mate) {
            (_, Some(m)) if m > 0 => CAP_CP,
            (_, Some(m)) if m < 0 => -CAP_CP,
            (Some(cp), _) => cp.clamp(-CAP_CP, CAP_CP),
            (None, _) => 0,
        }
    }
}

/// One position's analysis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionEval {
    /// Plies played before it (0: the initial position).
    pub ply: u32,
    /// The evaluation; for a position where the game is over: mate
    /// (`mate` 0) or a draw (0 cp).
    pub eval: Eval,
    /// The best move (SAN), if there is a move.
    pub best: Option<String>,
    /// The best line (SAN), starting with `best`.
    pub line: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
}

impl PositionEval {
    /// Position `ply` read without a search (the game over there, or no
    /// position): `eval`, no best move, no line.
    pub fn unsearched(ply: u32, eval: Eval) -> PositionEval {
        PositionEval {
            ply,
            eval,
            best: None,
            line: Vec::new(),
            nodes: 0,
        }
    }
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// Lost at least [`INACCURACY_CP`].
    Inaccuracy,
    /// Lost at least [`MISTAKE_CP`].
    Mistake,
    /// Lost at least [`BLUNDER_CP`].
    Blunder,
}

/// The judgement of the move from `before` to `after` by `mover` (module
/// docs), with the centipawns it lost.
///
/// ```
/// use arbiter_server::analysis::{judge, Eval, Judgement};
/// use arbiter_chess::Color;
/// let cp = |c| Eval { cp: Some(c), mate: None };
/// assert_eq!(judge(Color::White, cp(30), cp(-320)), (350, Some(Judgement::Blunder)));
/// assert_eq!(judge(Color::Black, cp(30), cp(100)), (70, Some(Judgement::Inaccuracy)));
/// assert_eq!(judge(Color::White, cp(900), cp(2000)), (0, None));
/// ```
pub fn judge(mover: Color, before: Eval, after: Eval) -> (i32, Option<Judgement>) {
    let sign = if mover == Color::White { 1 } else { -1 };
    let lost = ((before.capped_cp() - after.capped_cp()) * sign).max(0);
    let j = if lost >= BLUNDER_CP {
        Some(Judgement::Blunder)
    } else if lost >= MISTAKE_CP {
        Some(Judgement::Mistake)
    } else if lost >= INACCURACY_CP {
        Some(Judgement::Inaccuracy)
    } else {
        None
    };
    (lost, j)
}

/// A move as judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveJudgement {
    /// 1 = White's first move.
    pub ply: u32,
    /// The move (SAN).
    pub san: String,
    /// Centipawns it lost (capped evaluations).
    pub lost_cp: i32,
    /// Inaccuracy, mistake or blunder, if any.
    pub judgement: Option<Judgement>,
}

/// Where an analysis stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Progress {
    /// Waiting or searching.
    Running,
    /// Every position analysed.
    Done,
}

/// A game's analysis as the client sees it (§3.9).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Running or done.
    pub status: Progress,
    /// Positions analysed so far.
    pub done: usize,
    /// Positions to analyse.
    pub total: usize,
    /// Nodes per position.
    pub nodes_per_position: u64,
    /// The positions analysed, in order.
    pub positions: Vec<PositionEval>,
    /// The moves judged (once both their positions are analysed).
    pub moves: Vec<MoveJudgement>,
    /// Deeper looks asked for from the replay, by ply.
    pub deep: HashMap<u32, PositionEval>,
    /// Plies of deeper looks waiting.
    pub deep_pending: Vec<u32>,
    /// The thresholds (centipawns): inaccuracy, mistake, blunder.
    pub thresholds: [i32; 3],
}

/// Why an analysis is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// Too many analyses at once, in all or for this client.
    #[error("too many analyses are running; try again in a minute")]
    Busy,
    /// The ply is not a position of the game.
    #[error("ply {0}: the game has no such position")]
    NoSuchPly(u32),
}

/// The positions of a game and what is needed to search them.
#[derive(Clone)]
pub struct GameLine {
    /// Positions, the initial one first.
    pub positions: Vec<Position>,
    /// The moves between them (SAN).
    pub sans: Vec<String>,
    /// The last position drew the game by itself (stalemate, a dead
    /// position, the fivefold repetition or the 75-move rule, Art. 5.2,
    /// 9.6): it is read as a draw, not searched (the game is over).
    pub drawn_at_end: bool,
}

impl GameLine {
    /// Position `ply` read without a search: a draw, if it is the last and
    /// drew the game by itself ([`GameLine::drawn_at_end`]).
    fn drawn(&self, ply: usize) -> Option<PositionEval> {
        (self.drawn_at_end && ply + 1 == self.positions.len())
            .then(|| PositionEval::unsearched(ply as u32, Eval::DRAWN))
    }

    /// The positions of `game` (at most [`MAX_POSITIONS`]).
    pub fn of(game: &arbiter_laws::Game) -> GameLine {
        let mut pos = *game.initial_position();
        let mut positions = vec![pos];
        let mut sans = Vec::new();
        for m in game.moves().iter().take(MAX_POSITIONS - 1) {
            sans.push(pos.san(m.mv));
            pos.play_unchecked(m.mv);
            positions.push(pos);
        }
        use arbiter_laws::Termination::*;
        let drawn_at_end = positions.len() == game.moves().len() + 1
            && game.outcome().is_some_and(|o| {
                matches!(
                    o.termination,
                    Stalemate | DeadPosition | FivefoldRepetition | SeventyfiveMoves
                )
            });
        GameLine {
            positions,
            sans,
            drawn_at_end,
        }
    }
}

struct Entry {
    client: Client,
    total: usize,
    nodes: u64,
    positions: Vec<PositionEval>,
    sans: Vec<String>,
    /// The side to move in each position.
    turns: Vec<Color>,
    deep: HashMap<u32, PositionEval>,
    deep_pending: Vec<u32>,
}

impl Entry {
    fn running(&self) -> bool {
        self.positions.len() < self.total || !self.deep_pending.is_empty()
    }

    fn report(&self) -> Report {
        let moves = self
            .positions
            .windows(2)
            .zip(&self.sans)
            .map(|(w, san)| {
                // The mover is the side to move in the position before.
                let mover = self.turns[w[0].ply as usize];
                let (lost_cp, judgement) = judge(mover, w[0].eval, w[1].eval);
                MoveJudgement {
                    ply: w[1].ply,
                    san: san.clone(),
                    lost_cp,
                    judgement,
                }
            })
            .collect();
        Report {
            status: if self.positions.len() < self.total {
                Progress::Running
            } else {
                Progress::Done
            },
            done: self.positions.len(),
            total: self.total,
            nodes_per_position: self.nodes,
            positions: self.positions.clone(),
            moves,
            deep: self.deep.clone(),
            deep_pending: self.deep_pending.clone(),
            thresholds: [INACCURACY_CP, MISTAKE_CP, BLUNDER_CP],
        }
    }
}

/// The analyses asked for, kept in memory (the [`CACHED`] latest).
///
/// ```
/// use arbiter_server::analysis::Analyses;
/// let a = Analyses::default();
/// assert!(a.report("AbCd1234").is_none());
/// ```
#[derive(Default)]
pub struct Analyses {
    inner: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    entries: HashMap<String, Entry>,
    /// Least recently asked first.
    order: VecDeque<String>,
}

impl Cache {
    fn touch(&mut self, id: &str) {
        if let Some(i) = self.order.iter().position(|k| k == id) {
            self.order.remove(i);
        }
        self.order.push_back(id.to_owned());
    }

    fn running(&self, client: Option<&Client>) -> usize {
        self.entries
            .values()
            .filter(|e| e.running() && client.is_none_or(|c| *c == e.client))
            .count()
    }

    /// Drops the least recently asked analyses that are not running.
    fn evict(&mut self) {
        while self.entries.len() > CACHED {
            let Some(i) = self
                .order
                .iter()
                .position(|k| self.entries.get(k).is_none_or(|e| !e.running()))
            else {
                return;
            };
            if let Some(k) = self.order.remove(i) {
                self.entries.remove(&k);
            }
        }
    }
}

/// Nodes per position for a game of `positions` positions.
pub fn nodes_per_position(positions: usize) -> u64 {
    (NODES_PER_GAME / positions.max(1) as u64).clamp(MIN_NODES, MAX_NODES)
}

impl Analyses {
    fn lock(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The analysis of game `id` so far, if asked for.
    pub fn report(&self, id: &str) -> Option<Report> {
        self.lock().entries.get(id).map(Entry::report)
    }

    /// Analyses game `id` (the positions of `line`) for `client` on `pool`,
    /// unless it is already analysed or running; its report now.
    pub fn start(
        self: &Arc<Self>,
        pool: &EnginePool,
        client: Client,
        id: &str,
        line: GameLine,
    ) -> Result<Report, Refused> {
        let nodes = nodes_per_position(line.positions.len());
        {
            let mut c = self.lock();
            if let Some(e) = c.entries.get(id) {
                let r = e.report();
                c.touch(id);
                return Ok(r);
            }
            if c.running(None) >= MAX_RUNNING || c.running(Some(&client)) >= MAX_RUNNING_PER_CLIENT
            {
                return Err(Refused::Busy);
            }
            c.entries.insert(
                id.to_owned(),
                Entry {
                    client: client.clone(),
                    total: line.positions.len(),
                    nodes,
                    positions: Vec::new(),
                    sans: line.sans.clone(),
                    turns: line.positions.iter().map(Position::turn).collect(),
                    deep: HashMap::new(),
                    deep_pending: Vec::new(),
                },
            );
            c.touch(id);
            c.evict();
        }
        let (me, pool, id_owned) = (self.clone(), pool.clone(), id.to_owned());
        tokio::spawn(async move {
            for ply in 0..line.positions.len() {
                let eval = match line.drawn(ply) {
                    Some(drawn) => drawn,
                    None => {
                        let history = line.positions[..=ply].to_vec();
                        let searched = pool
                            .analyse(client.clone(), move |engine| {
                                Some(analyse_position(engine, &history, nodes, POSITION_TIME))
                            })
                            .await;
                        let Some(eval) = searched.answer else { return };
                        eval
                    }
                };
                let mut c = me.lock();
                match c.entries.get_mut(&id_owned) {
                    Some(e) => e.positions.push(eval),
                    // Evicted meanwhile: nobody waits for it.
                    None => return,
                }
            }
        });
        self.report(id).ok_or(Refused::Busy)
    }

    /// A deeper look at position `ply` of game `id` (whose analysis was
    /// started); its report now.
    pub fn deep(
        self: &Arc<Self>,
        pool: &EnginePool,
        id: &str,
        line: GameLine,
        ply: u32,
    ) -> Result<Report, Refused> {
        if ply as usize >= line.positions.len() {
            return Err(Refused::NoSuchPly(ply));
        }
        let client = {
            let mut c = self.lock();
            let Some(e) = c.entries.get_mut(id) else {
                return Err(Refused::Busy);
            };
            if e.deep.contains_key(&ply) || e.deep_pending.contains(&ply) {
                return Ok(e.report());
            }
            if let Some(drawn) = line.drawn(ply as usize) {
                // Nothing deeper to see in a game over.
                e.deep.insert(ply, drawn);
                return Ok(e.report());
            }
            if e.deep.len() + e.deep_pending.len() >= MAX_DEEP_PER_GAME
                || !e.deep_pending.is_empty()
            {
                return Err(Refused::Busy);
            }
            e.deep_pending.push(ply);
            e.client.clone()
        };
        let (me, pool, id_owned) = (self.clone(), pool.clone(), id.to_owned());
        let history = line.positions[..=ply as usize].to_vec();
        tokio::spawn(async move {
            let searched = pool
                .analyse(client, move |engine| {
                    Some(analyse_position(engine, &history, DEEP_NODES, DEEP_TIME))
                })
                .await;
            let mut c = me.lock();
            if let Some(e) = c.entries.get_mut(&id_owned) {
                e.deep_pending.retain(|&p| p != ply);
                if let Some(eval) = searched.answer {
                    e.deep.insert(ply, eval);
                }
            }
        });
        self.report(id).ok_or(Refused::Busy)
    }
}

/// Searches the last position of `history` at full strength within `nodes`
/// and `time`; a position with no move is mate (`mate` 0) or a draw.
pub fn analyse_position(
    engine: &mut arbiter_engine::Engine,
    history: &[Position],
    nodes: u64,
    time: Duration,
) -> PositionEval {
    let ply = history.len().saturating_sub(1) as u32;
    let Some(pos) = history.last().copied() else {
        return PositionEval::unsearched(ply, Eval::DRAWN);
    };
    engine.set_options(crate::engine::options_for(7));
    engine.new_game();
    let limits = Limits {
        nodes: Some(nodes),
        movetime: Some(time),
        ..Limits::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    match engine.search(history, &limits, &stop, &mut |_| {}) {
        // No move: checkmated (the side to move is mated) or stalemate.
        None => PositionEval::unsearched(
            ply,
            if pos.is_check() {
                Eval::mated(pos.turn())
            } else {
                Eval::DRAWN
            },
        ),
        Some(r) => {
            let mut p = pos;
            let mut line = Vec::new();
            for m in r.pv.iter().take(LINE_MOVES) {
                if !p.legal_moves().contains(m) {
                    break;
                }
                line.push(p.san(*m));
                p.play_unchecked(*m);
            }
            PositionEval {
                ply,
                eval: Eval::from_score(r.score, pos.turn()),
                best: Some(pos.san(r.best)),
                line,
                nodes: r.nodes,
            }
        }
    }
}
