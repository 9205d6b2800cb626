//! The match runner (`arbiter match`): plays UCI engines against each other
//! in game pairs with colours swapped, from an opening set. Every game is an
//! [`arbiter_laws::Game`] (its clock, its ends, its result; see [`game`]);
//! the PGN is written by `arbiter-pgn` ([`pgn`]). Keeps the score, the Elo
//! difference with its 95% interval, and an optional SPRT ([`stats`]).

pub mod game;
pub mod openings;
pub mod pgn;
pub mod stats;
pub mod uci_time;
pub mod verdict;

use crate::client::{ClientError, EngineSpec, UciClient};
use arbiter_chess::Color;
use arbiter_laws::{Delay, Edition, Start};
use arbiter_pgn::TimeControl;
use game::{GameError, GameRecord, GameSettings};
use openings::Opening;
use stats::{Sprt, SprtState, Tally};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{mpsc, Arc};

/// Everything a match needs.
///
/// ```
/// use arbiter_engine::client::EngineSpec;
/// use arbiter_engine::matches::game::GameSettings;
/// use arbiter_engine::matches::openings::Opening;
/// use arbiter_engine::matches::stats::Sprt;
/// use arbiter_engine::matches::MatchConfig;
/// use arbiter_laws::Edition;
/// use arbiter_pgn::TimeControl;
///
/// let engine = |name: &str, command: &str| EngineSpec {
///     name: name.into(),
///     command: command.into(),
///     ..EngineSpec::default()
/// };
/// let config = MatchConfig {
///     engines: [engine("new", "./engine-new"), engine("old", "./engine-old")],
///     time_control: TimeControl::parse("10+0.1").unwrap(),
///     delay: None,
///     edition: Edition::Fide2023,
///     openings: vec![Opening::standard()],
///     games: 100,
///     concurrency: 2,
///     settings: GameSettings::default(),
///     sprt: Some(Sprt::new(0.0, 10.0)),
/// };
/// let start = config.start_template();
/// assert_eq!(start.edition, Edition::Fide2023);
/// assert_eq!(
///     start.time_control.map(|tc| tc.to_string()).as_deref(),
///     Some("10+0.1")
/// );
/// ```
///
/// [`run`] plays it (`no_run`: it needs the two programs):
///
/// ```no_run
/// # use arbiter_engine::client::EngineSpec;
/// # use arbiter_engine::matches::{game::GameSettings, openings::Opening, MatchConfig};
/// # use arbiter_pgn::TimeControl;
/// # let config = MatchConfig {
/// #     engines: [EngineSpec::default(), EngineSpec::default()],
/// #     time_control: TimeControl::parse("10+0.1").unwrap(),
/// #     delay: None,
/// #     edition: arbiter_laws::Edition::Fide2023,
/// #     openings: vec![Opening::standard()],
/// #     games: 100,
/// #     concurrency: 2,
/// #     settings: GameSettings::default(),
/// #     sprt: None,
/// # };
/// let tally = arbiter_engine::matches::run(&config, &mut |finished, tally, _sprt| {
///     println!(
///         "game {}: {} (Elo {:+.0})",
///         finished.round,
///         tally.score(),
///         tally.elo().elo
///     );
/// })?;
/// println!("{} games", tally.games());
/// # Ok::<(), arbiter_engine::matches::MatchError>(())
/// ```
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are counted for the first.
    pub engines: [EngineSpec; 2],
    /// The time control (periods with increments).
    pub time_control: TimeControl,
    /// A delay per move (Bronstein or simple), if any.
    pub delay: Option<Delay>,
    /// The edition of the Laws the games are played under.
    pub edition: Edition,
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

impl MatchConfig {
    /// What every game starts with, before its opening is set: the edition,
    /// the time control and the delay.
    pub fn start_template(&self) -> Start {
        Start {
            edition: self.edition,
            time_control: Some(self.time_control.clone()),
            delay: self.delay,
            ..Start::default()
        }
    }
}

/// A match that cannot start or go on.
///
/// ```
/// use arbiter_engine::client::{ClientError, EngineSpec};
/// use arbiter_engine::matches::game::GameSettings;
/// use arbiter_engine::matches::openings::Opening;
/// use arbiter_engine::matches::{run, MatchConfig, MatchError};
/// use arbiter_pgn::TimeControl;
///
/// let missing = EngineSpec {
///     command: "/nonexistent/engine".into(),
///     ..EngineSpec::default()
/// };
/// let mut config = MatchConfig {
///     engines: [missing.clone(), missing],
///     time_control: TimeControl::parse("10+0.1").unwrap(),
///     delay: None,
///     edition: arbiter_laws::Edition::default(),
///     openings: Vec::new(),
///     games: 2,
///     concurrency: 1,
///     settings: GameSettings::default(),
///     sprt: None,
/// };
/// // No openings: nothing to play.
/// assert!(matches!(
///     run(&config, &mut |_, _, _| {}),
///     Err(MatchError::NoOpenings)
/// ));
/// // An engine that cannot start.
/// config.openings.push(Opening::standard());
/// let err = run(&config, &mut |_, _, _| {}).unwrap_err();
/// assert!(
///     matches!(err, MatchError::Engine(ClientError::Spawn { .. })),
///     "{err}"
/// );
/// ```
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// An engine failed to start.
    #[error(transparent)]
    Engine(#[from] ClientError),
    /// A game cannot be played (start, time control) or the Laws refused
    /// the runner's log.
    #[error(transparent)]
    Game(#[from] GameError),
    /// No openings.
    #[error("the opening set is empty")]
    NoOpenings,
    /// No games to play.
    #[error("no games to play: the match needs at least one")]
    NoGames,
    /// A time control that leaves no time for the first move (`0`, `0+0`):
    /// every game would be lost on time at its start.
    #[error("the time control {0} gives no time for the first move")]
    NoTime(String),
    /// An SPRT whose hypotheses are not in order.
    #[error("the SPRT's elo0 ({elo0}) must be below its elo1 ({elo1})")]
    SprtBounds {
        /// The null hypothesis.
        elo0: f64,
        /// The alternative.
        elo1: f64,
    },
}

/// One finished game with its place in the match.
///
/// ```
/// use arbiter_engine::matches::{first_engine_points, Finished};
/// # use arbiter_engine::matches::game::{GameRecord, MoveNote};
/// # use arbiter_engine::matches::openings::Opening;
/// # use arbiter_laws::{Event, Game, Start};
/// # use std::time::Duration;
/// # fn fools_mate() -> GameRecord {
/// #     let tc = arbiter_pgn::TimeControl::parse("10+0.1").unwrap();
/// #     let mut game = Game::new(Start { time_control: Some(tc), ..Start::default() }).unwrap();
/// #     let mut notes = Vec::new();
/// #     for (i, san) in ["f3", "e5", "g4", "Qh4#"].into_iter().enumerate() {
/// #         let (by, t) = (game.turn(), 200 * (i as u64 + 1));
/// #         let mv = game.position().parse_san(san).unwrap();
/// #         game.apply(Event::play(t, by, mv)).unwrap();
/// #         let clock = game.clock_at(t).unwrap();
/// #         let white = by == arbiter_chess::Color::White;
/// #         let clock_ms = Some(if white { clock.white } else { clock.black });
/// #         let elapsed = Duration::from_millis(200);
/// #         notes.push(MoveNote { clock_ms, elapsed, ..MoveNote::default() });
/// #     }
/// #     let (white, black) = ("A".to_string(), "B".to_string());
/// #     GameRecord { white, black, opening: Opening::standard(), game, notes }
/// # }
/// // The first engine had Black in game 2 and mated.
/// let finished = Finished { round: 2, first_is_white: false, record: fools_mate() };
/// assert_eq!(first_engine_points(&finished), 1.0);
/// let other_side = Finished { first_is_white: true, ..finished };
/// assert_eq!(first_engine_points(&other_side), 0.0);
/// ```
#[derive(Clone, Debug)]
pub struct Finished {
    /// 1-based game number.
    pub round: u32,
    /// `true` if the first engine had White.
    pub first_is_white: bool,
    /// The game.
    pub record: GameRecord,
}

/// The first engine's score in a game (the Laws' result: 1, ½ or 0).
pub fn first_engine_points(f: &Finished) -> f64 {
    let color = if f.first_is_white {
        Color::White
    } else {
        Color::Black
    };
    f.record
        .result()
        .map_or(0.0, |r| f64::from(r.score(color).halves()) / 2.0)
}

/// Runs the match; `on_game` sees every finished game and the running tally.
/// Returns the final tally (for the first engine).
pub fn run(
    config: &MatchConfig,
    on_game: &mut dyn FnMut(&Finished, &Tally, Option<SprtState>),
) -> Result<Tally, MatchError> {
    if config.openings.is_empty() {
        return Err(MatchError::NoOpenings);
    }
    if config.games == 0 {
        return Err(MatchError::NoGames);
    }
    if let Some(s) = config.sprt {
        // (Also refuses NaN.)
        if s.elo0.partial_cmp(&s.elo1) != Some(std::cmp::Ordering::Less) {
            return Err(MatchError::SprtBounds {
                elo0: s.elo0,
                elo1: s.elo1,
            });
        }
    }
    if let TimeControl::Periods(periods) = &config.time_control {
        if periods
            .first()
            .is_some_and(|p| p.time_ms == 0 && p.increment_ms == 0)
        {
            return Err(MatchError::NoTime(config.time_control.to_string()));
        }
    }
    let template = config.start_template();
    // Fail early on a time control or an opening the Laws cannot play.
    for o in &config.openings {
        let g = arbiter_laws::Game::new(game::start_for(o, &template)).map_err(GameError::from)?;
        if g.clock().is_none() {
            return Err(GameError::NoClock(config.time_control.to_string()).into());
        }
    }
    // Start every engine before the first game so that a broken command fails now.
    let workers = config
        .concurrency
        .clamp(1, 8)
        .min(config.games.max(1) as usize);
    let mut pairs = Vec::new();
    for _ in 0..workers {
        pairs.push([
            UciClient::start(&config.engines[0])?,
            UciClient::start(&config.engines[1])?,
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
        let template = template.clone();
        handles.push(std::thread::spawn(move || -> Result<(), MatchError> {
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
                let [a, b] = &mut pair;
                let (engines, first_color) = if first_is_white {
                    ([a, b], Color::White)
                } else {
                    ([b, a], Color::Black)
                };
                let played = game::play(engines, opening, &template, &config.settings);
                let (record, failure) = match played {
                    Ok(p) => p,
                    Err(e) => {
                        stop.store(true, Ordering::SeqCst);
                        for c in pair {
                            c.quit();
                        }
                        return Err(e.into());
                    }
                };
                let finished = Finished {
                    round: i + 1,
                    first_is_white,
                    record,
                };
                if tx.send(finished).is_err() {
                    break;
                }
                if let Some((color, _)) = failure {
                    // Restart the engine that failed; the match cannot go
                    // on without it.
                    let idx = if color == first_color { 0 } else { 1 };
                    match UciClient::start(&config.engines[idx]) {
                        Ok(c) => pair[idx] = c,
                        Err(e) => {
                            stop.store(true, Ordering::SeqCst);
                            let [a, b] = pair;
                            a.quit();
                            b.quit();
                            return Err(e.into());
                        }
                    }
                }
            }
            for c in pair {
                c.quit();
            }
            Ok(())
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
        if let Ok(Err(e)) = h.join() {
            return Err(e);
        }
    }
    Ok(tally)
}
