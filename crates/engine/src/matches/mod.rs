//! The match runner (`arbiter match`): plays UCI engines against each other
//! in game pairs with colours swapped, from an opening set, under a FIDE time
//! control kept by the runner, adjudicated by the Laws; writes PGN and keeps
//! the score, the Elo difference with its 95% interval, and an optional SPRT.

pub mod adjudication;
pub mod clock;
pub mod game;
pub mod laws;
pub mod openings;
pub mod pgn;
pub mod stats;

use crate::client::{ClientError, EngineSpec, UciClient};
use adjudication::{Adjudicator, GameResult};
use arbiter_chess::Color;
use arbiter_pgn::TimeControl;
use clock::{FideClock, MatchClock};
use game::{GameRecord, GameSettings};
use openings::Opening;
use stats::{Sprt, SprtState, Tally};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are counted for the first.
    pub engines: [EngineSpec; 2],
    /// The time control (periods with increments).
    pub time_control: TimeControl,
    /// A delay per move (delay mode), zero for none.
    pub delay: Duration,
    /// Bronstein or simple delay.
    pub delay_kind: arbiter_laws::DelayKind,
    /// Keep time with `arbiter-laws`' clock (otherwise the runner's own [`FideClock`]).
    pub laws_clock: bool,
    /// Openings, used in order, each for a pair of games.
    pub openings: Vec<Opening>,
    /// Games to play (a pair per opening).
    pub games: u32,
    /// Games played at the same time (1 or 2 on this machine).
    pub concurrency: usize,
    /// Per-game settings.
    pub settings: GameSettings,
    /// Stop early by SPRT.
    pub sprt: Option<Sprt>,
}

/// A match that cannot start.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// An engine failed to start.
    #[error(transparent)]
    Engine(#[from] ClientError),
    /// The time control cannot be played.
    #[error(transparent)]
    TimeControl(#[from] clock::UnplayableControl),
    /// The Laws' clock cannot run the time control.
    #[error("time control: {0}")]
    LawsClock(#[from] arbiter_laws::clock::ClockError),
    /// No openings.
    #[error("the opening set is empty")]
    NoOpenings,
}

/// One finished game with its place in the match.
#[derive(Clone, Debug)]
pub struct Finished {
    /// 1-based game number.
    pub round: u32,
    /// `true` if the first engine had White.
    pub first_is_white: bool,
    /// The game.
    pub record: GameRecord,
}

/// The first engine's score in a game.
pub fn first_engine_points(f: &Finished) -> f64 {
    match (f.record.result, f.first_is_white) {
        (GameResult::Draw, _) => 0.5,
        (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 1.0,
        _ => 0.0,
    }
}

/// A fresh clock for one game, White (or the side to move) first.
pub fn new_clock(config: &MatchConfig, first: Color) -> Result<Box<dyn MatchClock>, MatchError> {
    if config.laws_clock {
        let delay = (!config.delay.is_zero()).then_some(arbiter_laws::Delay {
            kind: config.delay_kind,
            ms: config.delay.as_millis() as u64,
        });
        Ok(Box::new(laws::LawsClock::new(
            &config.time_control,
            delay,
            first,
        )?))
    } else {
        Ok(Box::new(FideClock::new(
            &config.time_control,
            config.delay,
        )?))
    }
}

fn start_engine(spec: &EngineSpec, chess960: bool) -> Result<UciClient, ClientError> {
    let mut c = UciClient::start(spec)?;
    if chess960 && c.has_option("UCI_Chess960") {
        c.set_option("UCI_Chess960", "true")?;
        c.is_ready()?;
    }
    Ok(c)
}

/// Runs the match; `on_game` sees every finished game and the running tally.
/// Returns the final tally (for the first engine).
pub fn run(
    config: &MatchConfig,
    adjudicator: Arc<dyn Adjudicator>,
    on_game: &mut dyn FnMut(&Finished, &Tally, Option<SprtState>),
) -> Result<Tally, MatchError> {
    if config.openings.is_empty() {
        return Err(MatchError::NoOpenings);
    }
    // Fail early on a bad time control.
    new_clock(config, Color::White)?;
    let chess960 = config.openings.iter().any(Opening::is_chess960);
    // Start every engine before the first game so that a broken command fails now.
    let workers = config
        .concurrency
        .clamp(1, 8)
        .min(config.games.max(1) as usize);
    let mut pairs = Vec::new();
    for _ in 0..workers {
        pairs.push([
            start_engine(&config.engines[0], chess960)?,
            start_engine(&config.engines[1], chess960)?,
        ]);
    }
    let next = Arc::new(AtomicU32::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Finished>();
    let mut handles = Vec::new();
    for mut pair in pairs {
        let next = next.clone();
        let stop = stop.clone();
        let tx = tx.clone();
        let config = config.clone();
        let adjudicator = adjudicator.clone();
        handles.push(std::thread::spawn(move || {
            loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= config.games {
                    break;
                }
                let opening = &config.openings[(i as usize / 2) % config.openings.len()];
                let first_is_white = i % 2 == 0;
                let first_to_move = opening.position().turn();
                let Ok(mut clock) = new_clock(&config, first_to_move) else {
                    break;
                };
                let [a, b] = &mut pair;
                let (engines, first_color) = if first_is_white {
                    ([a, b], Color::White)
                } else {
                    ([b, a], Color::Black)
                };
                let (record, failure) = game::play(
                    engines,
                    opening,
                    clock.as_mut(),
                    adjudicator.as_ref(),
                    &config.settings,
                );
                if let Some((color, _)) = failure {
                    // Restart the engine that failed.
                    let idx = if color == first_color { 0 } else { 1 };
                    match start_engine(&config.engines[idx], chess960) {
                        Ok(c) => pair[idx] = c,
                        Err(_) => {
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                }
                if tx
                    .send(Finished {
                        round: i + 1,
                        first_is_white,
                        record,
                    })
                    .is_err()
                {
                    break;
                }
            }
            for c in pair {
                c.quit();
            }
        }));
    }
    drop(tx);
    let mut tally = Tally::default();
    for f in rx {
        let points = first_engine_points(&f);
        if points > 0.75 {
            tally.wins += 1;
        } else if points < 0.25 {
            tally.losses += 1;
        } else {
            tally.draws += 1;
        }
        let state = config.sprt.map(|s| s.state(&tally));
        if matches!(state, Some(SprtState::AcceptH0 | SprtState::AcceptH1)) {
            stop.store(true, Ordering::SeqCst);
        }
        on_game(&f, &tally, state);
    }
    for h in handles {
        let _ = h.join();
    }
    Ok(tally)
}
