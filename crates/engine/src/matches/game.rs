//! One game between two UCI engines: an [`arbiter_laws::Game`] whose events
//! the runner makes from what the engines do and how long they take.
//!
//! The runner measures each engine's thinking time with a monotonic clock
//! ([`std::time::Instant`], in the UCI client) and the game's time is the
//! sum of those times: a move completed after `elapsed` is a `move` event at
//! `t + elapsed`. Everything else is the Laws': the clocks the engines are
//! told ([`super::uci_time`]), when a flag falls (the runner applies the
//! arbiter's `flag` at the very millisecond the Laws name, and Art. 6.9
//! decides), and every automatic end (mate, stalemate, dead position,
//! fivefold repetition, 75 moves). Draws the engines could claim (9.2, 9.3)
//! are claimed for them as soon as the Laws allow, on the position or on the
//! intended move. What only a match has — an illegal or unreadable
//! `bestmove`, an engine that stops working, adjudication by the engines'
//! scores, a move limit — is an arbiter's ruling in the same log
//! ([`Action::Forfeit`](arbiter_laws::Action::Forfeit),
//! [`Action::Adjudicate`](arbiter_laws::Action::Adjudicate) on the "match rule").

use super::openings::Opening;
use super::uci_time::go_params;
use crate::client::{ClientError, UciClient};
use crate::types::Score;
use arbiter_chess::{CastlingMode, Color, Move, Position};
use arbiter_laws::{Decision, Event, Game, GameResult, Ground, Start, Verdict};
use std::time::{Duration, Instant};

/// Optional adjudication by the engines' own scores.
///
/// ```
/// use arbiter_engine::matches::game::{GameSettings, ScoreAdjudication};
///
/// // Resign at -6 pawns held for 4 moves; draw from move 40 within 0.1 pawn for 8 moves.
/// let adjudication = ScoreAdjudication {
///     resign: Some((4, 600)),
///     draw: Some((40, 8, 10)),
/// };
/// let settings = GameSettings {
///     adjudication,
///     ..GameSettings::default()
/// };
/// assert_eq!(
///     settings.adjudication.draw.map(|(from, _, _)| from),
///     Some(40)
/// );
/// // By default games are not adjudicated on scores.
/// assert_eq!(
///     GameSettings::default().adjudication,
///     ScoreAdjudication {
///         resign: None,
///         draw: None
///     }
/// );
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScoreAdjudication {
    /// Resign: one engine at or below `-resign_score` and its opponent at or
    /// above `resign_score` for `resign_moves` consecutive moves each.
    pub resign: Option<(u32, i32)>,
    /// Draw: from move `draw_from`, both within `draw_score` for `draw_moves`
    /// consecutive moves each: `(draw_from, draw_moves, draw_score)`.
    pub draw: Option<(u32, u32, i32)>,
}

/// Settings of a game.
///
/// ```
/// use arbiter_engine::matches::game::GameSettings;
/// use std::time::Duration;
///
/// let defaults = GameSettings::default();
/// assert!(defaults.claims, "draws are claimed for the engines");
/// assert_eq!((defaults.margin, defaults.max_moves), (Duration::ZERO, 0));
///
/// // Allow 50 ms of pipe lag a move and stop games after 200 moves each.
/// let settings = GameSettings {
///     margin: Duration::from_millis(50),
///     max_moves: 200,
///     ..GameSettings::default()
/// };
/// assert!(settings.claims);
/// ```
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Draw claims (threefold repetition, 9.2; the 50-move rule, 9.3) made
    /// for the engines as soon as the Laws allow; otherwise games go on to
    /// the automatic fivefold and 75-move rules (9.6).
    pub claims: bool,
    /// Score adjudication.
    pub adjudication: ScoreAdjudication,
    /// Lag compensation: up to this much of each move's measured time is not
    /// charged (pipes and process scheduling), and a `bestmove` is awaited
    /// this much longer than the clock allows.
    pub margin: Duration,
    /// A draw is adjudicated after this many moves by each engine (a safety
    /// net; 0 = none).
    pub max_moves: u32,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            claims: true,
            adjudication: ScoreAdjudication {
                resign: None,
                draw: None,
            },
            margin: Duration::ZERO,
            max_moves: 0,
        }
    }
}

/// What the runner knows about one move of the game beyond the Laws' log.
///
/// Notes are written into the PGN: the clock as `[%clk]`, the score, depth and
/// time as a comment.
///
/// ```
/// use arbiter_engine::matches::pgn::{write_game, MatchTags};
/// use arbiter_engine::Score;
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
/// let mut record = fools_mate();
/// assert_eq!(record.notes.len(), record.game.moves().len());
/// // White's clock after 1. f3: the increment is added before every move, the
/// // first included (Art. 6.3 b): 10 s + 0.1 s, less 0.2 s used, + 0.1 s.
/// assert_eq!(record.notes[0].clock_ms, Some(10_000));
/// // And after 2. g4: 9.9 s.
/// assert_eq!(record.notes[2].clock_ms, Some(9_900));
/// record.notes[3].score = Some(Score::Mate(1));
/// record.notes[3].depth = Some(5);
/// let tags = MatchTags { event: "E".into(), site: "S".into(), date: "2026.01.01".into() };
/// let pgn = write_game(&record, 1, &tags);
/// assert!(pgn.contains("{[%clk 0:00:09.9]}"), "{pgn}");
/// assert!(pgn.contains("{#-1/5 0.20s}"), "{pgn}");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveNote {
    /// A move of the opening, played at t = 0.
    pub book: bool,
    /// The mover's clock just after the move (the Laws' reading), ms.
    pub clock_ms: Option<u64>,
    /// Time the engine took, as measured.
    pub elapsed: Duration,
    /// The engine's last reported score (its own point of view).
    pub score: Option<Score>,
    /// The engine's last reported depth.
    pub depth: Option<u32>,
}

/// A finished game.
///
/// A record made by hand (the match runner makes them from the engines' moves):
///
/// ```
/// use arbiter_chess::Color;
/// use arbiter_laws::GameResult;
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
/// let record = fools_mate();
/// assert_eq!(record.game.moves().len(), 4);
/// assert_eq!(record.result(), Some(GameResult::win(Color::Black)));
/// ```
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The opening played (its start is written as the PGN's start, in its
    /// castling mode).
    pub opening: Opening,
    /// The game under the Laws: the log, the moves, the clocks, the outcome.
    pub game: Game,
    /// One note per move of [`Game::moves`].
    pub notes: Vec<MoveNote>,
}

impl GameRecord {
    /// The result (the Laws' outcome; `None` only if the game never ended).
    pub fn result(&self) -> Option<GameResult> {
        self.game.outcome().map(|o| o.result)
    }
}

/// A game that cannot be played at all, or a log the Laws refuse (a bug in
/// the runner, never the engines' fault).
///
/// A match whose time control runs no clock cannot be played; that is found
/// before any engine is started:
///
/// ```
/// use arbiter_engine::client::EngineSpec;
/// use arbiter_engine::matches::game::{GameError, GameSettings};
/// use arbiter_engine::matches::openings::Opening;
/// use arbiter_engine::matches::{run, MatchConfig, MatchError};
/// use arbiter_laws::Edition;
/// use arbiter_pgn::TimeControl;
///
/// let config = MatchConfig {
///     engines: [EngineSpec::default(), EngineSpec::default()],
///     time_control: TimeControl::parse("-").unwrap(),
///     delay: None,
///     edition: Edition::Fide2023,
///     openings: vec![Opening::standard()],
///     games: 2,
///     concurrency: 1,
///     settings: GameSettings::default(),
///     sprt: None,
/// };
/// let err = run(&config, &mut |_, _, _| {}).unwrap_err();
/// assert!(
///     matches!(err, MatchError::Game(GameError::NoClock(_))),
///     "{err}"
/// );
/// assert!(err.to_string().contains("runs no clock"));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The start cannot begin a game (position, time control).
    #[error(transparent)]
    Start(#[from] arbiter_laws::StartError),
    /// The match needs a clock.
    #[error(
        "the time control {0:?} runs no clock: give periods such as 10+0.1 or 40/5400+30:1800+30"
    )]
    NoClock(String),
    /// The Laws rejected an event the runner made.
    #[error("the Laws rejected the runner's event {event}: {error}")]
    Rejected {
        /// The event.
        event: String,
        /// Why.
        error: arbiter_laws::Rejected,
    },
}

impl GameError {
    /// The match's time control (in `template`) runs no clock.
    fn no_clock(template: &Start) -> GameError {
        GameError::NoClock(
            template
                .time_control
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
        )
    }
}

/// The start of a game from `opening` under the match's `template` (edition,
/// time control, delay): the opening's start position, by its Chess960
/// number when it is one.
pub fn start_for(opening: &Opening, template: &Start) -> Start {
    let pos = opening.start;
    let number = if pos.castling_mode() == CastlingMode::Chess960 {
        (0..960).find(|&n| Position::chess960(n) == Some(pos))
    } else {
        None
    };
    let fen = match number {
        Some(_) => None,
        None if pos == Position::standard() => None,
        None => Some(pos.fen()),
    };
    Start {
        fen,
        chess960: number,
        ..template.clone()
    }
}

/// The UCI `position` command for the game so far, castling written as the
/// opening's mode requires (`e1g1` in standard chess, `e1h1` in Chess960).
pub fn position_command(opening: &Opening, moves: &[Move]) -> String {
    let start = opening.start;
    let mut s = if start == Position::standard() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", start.fen())
    };
    if !moves.is_empty() {
        s.push_str(" moves");
        let mut p = start;
        for &m in moves {
            s.push(' ');
            s.push_str(&p.uci(m));
            p.play_unchecked(m);
        }
    }
    s
}

/// The game and what goes with it while it is played.
struct Table<'a> {
    game: Game,
    notes: Vec<MoveNote>,
    opening: &'a Opening,
    /// Milliseconds since the start: the time of the last event.
    t: u64,
}

impl Table<'_> {
    fn apply(&mut self, event: Event) -> Result<(), GameError> {
        let t = event.t;
        let by = event.by.player();
        let moves_before = self.game.moves().len();
        self.game
            .apply(event.clone())
            .map_err(|error| GameError::Rejected {
                event: format!("{event:?}"),
                error,
            })?;
        self.t = t;
        if self.game.moves().len() > moves_before {
            let clock_ms = self.game.clock_at(t).map(|c| match by {
                Some(Color::Black) => c.black,
                _ => c.white,
            });
            self.notes.push(MoveNote {
                clock_ms,
                ..MoveNote::default()
            });
        }
        Ok(())
    }

    /// The position on the board with castling as the opening writes it.
    fn position(&self) -> Position {
        let mut p = *self.game.position();
        // Cannot fail from standard to Chess960; the Laws detect Chess960
        // from the same start whenever standard castling could not express it.
        let _ = p.set_castling_mode(self.opening.start.castling_mode());
        p
    }

    /// The match rule's forfeit of an engine that failed (an illegal or
    /// missing `bestmove`, a crash) — a draw instead when its opponent
    /// cannot checkmate by any series of legal moves, as the Laws rule a
    /// game lost by an illegal move (7.5 b / 7.5.5) or on time (6.9).
    fn forfeit(&mut self, t: u64, player: Color, reason: String) -> Result<(), GameError> {
        if self.game.can_checkmate(!player) == Verdict::Unwinnable {
            let reason = format!(
                "{reason}; {} cannot checkmate by any series of legal moves: drawn (as Art. {} rules a game lost by an illegal move)",
                !player,
                self.game.rules().articles.illegal_move,
            );
            return self.apply(Event::adjudicate(
                t,
                GameResult::DRAW,
                Ground::MatchRule,
                reason,
            ));
        }
        self.apply(Event::forfeit(t, player, Ground::MatchRule, reason))
    }

    fn adjudicate(&mut self, result: GameResult, reason: String) -> Result<(), GameError> {
        let t = self.t;
        self.apply(Event::adjudicate(t, result, Ground::MatchRule, reason))
    }

    fn flag(&mut self, at: u64) -> Result<(), GameError> {
        self.apply(Event::arbiter(at, Decision::Flag))
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn pawns(cp: i32) -> String {
    format!("{:.2}", f64::from(cp) / 100.0)
}

/// Plays one game from `opening` under `template` (edition, time control,
/// delay). `engines[0]` plays White. An engine that fails forfeits the game
/// and is returned with the record so the runner can restart it.
pub fn play(
    engines: [&mut UciClient; 2],
    opening: &Opening,
    template: &Start,
    settings: &GameSettings,
) -> Result<(GameRecord, Option<(Color, ClientError)>), GameError> {
    let [white, black] = engines;
    let names = [white.name().to_string(), black.name().to_string()];
    let mut clients = [white, black];
    let start = start_for(opening, template);
    let game = Game::new(start)?;
    if game.clock().is_none() && !game.is_over() {
        return Err(GameError::no_clock(template));
    }
    let mut table = Table {
        game,
        notes: Vec::new(),
        opening,
        t: 0,
    };
    // The opening's moves are moves of the game, made at once.
    for &m in &opening.moves {
        if table.game.is_over() {
            break;
        }
        let by = table.game.turn();
        table.apply(Event::play(0, by, m))?;
        if let Some(n) = table.notes.last_mut() {
            n.book = true;
        }
    }
    let book = table.notes.len();
    let mut failure = None;
    for color in Color::ALL {
        if table.game.is_over() {
            break;
        }
        // Castling as the opening's mode writes it (`UCI_Chess960`), then
        // `ucinewgame`.
        let client = &mut clients[color.index()];
        let ready = client
            .set_chess960(opening.is_chess960())
            .and_then(|()| client.new_game());
        if let Err(e) = ready {
            table.forfeit(
                0,
                color,
                format!("{} failed to start a game: {e}", names[color.index()]),
            )?;
            failure = Some((color, e));
        }
    }
    // Consecutive moves per colour: [losing, winning, near zero][colour].
    let mut streaks = [[0u32; 2]; 3];

    while !table.game.is_over() {
        let color = table.game.turn();
        let ci = color.index();
        let name = &names[ci];
        if settings.claims {
            // 9.2 b / 9.3 b: the position on the board, the claimant to move.
            if let Some(kind) = table.game.claimable(None) {
                table.apply(Event::claim(table.t, color, kind, None))?;
                break;
            }
        }
        let played = table.notes.len() - book;
        if settings.max_moves > 0 && played as u32 >= 2 * settings.max_moves {
            let reason = format!("move limit: {} moves by each engine", settings.max_moves);
            table.adjudicate(GameResult::DRAW, reason)?;
            break;
        }
        let Some(flag_at) = table.game.next_flag_time() else {
            return Err(GameError::no_clock(template));
        };
        let t = table.t;
        let allowance = Duration::from_millis(flag_at.saturating_sub(t));
        let moves: Vec<Move> = table.game.moves().iter().map(|p| p.mv).collect();
        let cmd = position_command(opening, &moves);
        let params = go_params(&table.game, t).unwrap_or_default();
        let asked = Instant::now();
        let deadline = allowance + settings.margin + Duration::from_millis(1);
        let reply = clients[ci].go(&cmd, &params, deadline);
        let charged = |elapsed: Duration| millis(elapsed.saturating_sub(settings.margin));
        let r = match reply {
            Ok(r) => r,
            Err(e) => {
                let at = t.saturating_add(charged(asked.elapsed()));
                if at >= flag_at {
                    table.flag(flag_at)?;
                } else {
                    table.forfeit(at, color, format!("{name} stopped working: {e}"))?;
                }
                failure = Some((color, e));
                break;
            }
        };
        let at = t.saturating_add(charged(r.elapsed));
        if r.timed_out || at >= flag_at {
            // The clock reached zero before the move was completed: the
            // flag has fallen (6.1, 6.9).
            table.flag(flag_at)?;
            break;
        }
        let Some(text) = r.bestmove.clone() else {
            table.forfeit(
                at,
                color,
                format!("{name} sent \"bestmove\" without a move"),
            )?;
            break;
        };
        let pos = table.position();
        let m = match pos.parse_uci(&text) {
            Ok(m) => m,
            Err(e) => {
                table.forfeit(at, color, format!("{name} sent bestmove {text}: {e}"))?;
                break;
            }
        };
        // A move that checkmates is played, never written for a claim: it
        // ends the game at once (5.1 a / 5.1.1), and no player takes a draw
        // instead of the win. (`m` is legal: `parse_uci` says so.)
        let mates = || {
            let mut after = pos;
            after.play_unchecked(m);
            after.is_checkmate()
        };
        if settings.claims && !mates() {
            // 9.2 a / 9.3 a: the move written, not played, and the claim made.
            if let Some(kind) = table.game.claimable(Some(m)) {
                table.apply(Event::claim(at, color, kind, Some(m)))?;
                break;
            }
        }
        table.apply(Event::play(at, color, m))?;
        if let Some(n) = table.notes.last_mut() {
            n.elapsed = r.elapsed;
            n.score = r.score;
            n.depth = r.depth;
        }
        if table.game.is_over() {
            break;
        }
        // Adjudication by score (match rule).
        if let Some(score) = r.score.map(Score::centipawns) {
            let adj = settings.adjudication;
            let other = 1 - ci;
            if let Some((n, s)) = adj.resign {
                streaks[0][ci] = if score <= -s { streaks[0][ci] + 1 } else { 0 };
                streaks[1][ci] = if score >= s { streaks[1][ci] + 1 } else { 0 };
                let loser = if streaks[0][ci] >= n && streaks[1][other] >= n {
                    Some(color)
                } else if streaks[1][ci] >= n && streaks[0][other] >= n {
                    Some(!color)
                } else {
                    None
                };
                if let Some(loser) = loser {
                    let reason = format!(
                        "{} at or below -{} pawns and {} at or above +{} for {n} moves each",
                        names[loser.index()],
                        pawns(s),
                        names[(!loser).index()],
                        pawns(s)
                    );
                    table.adjudicate(GameResult::win(!loser), reason)?;
                    break;
                }
            }
            if let Some((from, n, s)) = adj.draw {
                let within = table.game.position().fullmoves() >= from && score.abs() <= s;
                streaks[2][ci] = if within { streaks[2][ci] + 1 } else { 0 };
                if streaks[2][0] >= n && streaks[2][1] >= n {
                    let reason = format!(
                        "both engines within {} pawns for {n} moves each from move {from}",
                        pawns(s)
                    );
                    table.adjudicate(GameResult::DRAW, reason)?;
                    break;
                }
            }
        }
    }
    let record = GameRecord {
        white: names[0].clone(),
        black: names[1].clone(),
        opening: opening.clone(),
        game: table.game,
        notes: table.notes,
    };
    Ok((record, failure))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_laws::Edition;

    #[test]
    fn castling_is_written_in_the_opening_mode() {
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        let standard = Opening {
            start: Position::from_fen_auto(fen).unwrap(),
            moves: vec![],
        };
        let m = standard.start.parse_uci("e1g1").unwrap();
        assert_eq!(
            position_command(&standard, &[m]),
            format!("position fen {fen} moves e1g1")
        );
        let mut c960 = standard.clone();
        c960.start
            .set_castling_mode(CastlingMode::Chess960)
            .unwrap();
        assert!(position_command(&c960, &[m]).ends_with("moves e1h1"));
        assert_eq!(
            position_command(&Opening::standard(), &[]),
            "position startpos"
        );
    }

    #[test]
    fn chess960_starts_go_by_their_number() {
        let template = Start {
            edition: Edition::Fide2018,
            time_control: Some(arbiter_pgn::TimeControl::parse("60+1").unwrap()),
            ..Start::default()
        };
        let o = Opening {
            start: Position::chess960(77).unwrap(),
            moves: vec![],
        };
        let s = start_for(&o, &template);
        assert_eq!((s.chess960, s.fen.as_deref()), (Some(77), None));
        assert_eq!(s.edition, Edition::Fide2018);
        assert_eq!(Game::new(s).unwrap().initial_position(), &o.start);
        let e4 = openings_e4();
        let s = start_for(&e4, &template);
        assert_eq!(s.fen, None, "the opening's moves are played, not set up");
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let set = Opening {
            start: Position::from_fen_auto(fen).unwrap(),
            moves: vec![],
        };
        assert_eq!(start_for(&set, &template).fen.as_deref(), Some(fen));
    }

    fn openings_e4() -> Opening {
        let start = Position::standard();
        Opening {
            start,
            moves: vec![start.parse_uci("e2e4").unwrap()],
        }
    }
}
