//! [`Game`]: the state of a game as a fold over its event log.
//!
//! By concern (private modules): the moves and the automatic ends
//! (`play`), offers, resignation, flag fall and touch (`board`), draw
//! claims (`claims`), illegal moves (`illegal`), quickplay finishes
//! (`quickplay`), the arbiter's rulings (`rulings`); the records
//! ([`Applied`] and the others of `applied`) and the refusals ([`Rejected`]).

mod adjourned;
mod applied;
mod arrival;
mod board;
mod claims;
mod conduct;
mod copy;
mod found;
mod illegal;
mod irregular;
mod line;
mod penalties;
mod play;
mod quickplay;
mod rejected;
mod rulings;

pub use applied::{Applied, ClaimVerdict, ClockReading, Penalty, PlayedMove, Remark};
pub use line::LinePlayed;
pub(crate) use play::written_san;
pub use rejected::{QuickplayBar, Rejected, ReplayError, StartError};

use crate::clock::Clock;
use crate::dead::{DeadPositionDetector, DeadPositionStats, Unwinnability, Verdict};
use crate::edition::Rules;
use crate::event::{Action, Actor, ClaimKind, Decision, Event, Start, Variant};
use crate::outcome::{GameResult, Outcome, Termination};
use crate::repetition::History;
use crate::touch::{Obligation, Touched};
use crate::{Article, TimeClass};
use arbiter_chess::{Color, Move, MoveList, Position};
use arbiter_pgn::TimeControl;
use illegal::PendingIllegal;
use quickplay::PendingQuickplay;
use std::sync::Arc;

/// A game under the FIDE Laws: the start, the log of events, and the state
/// folded from it (position, clocks, offers, repetitions, result).
///
/// ```
/// use arbiter_laws::{Event, Game, Start, Termination};
/// use arbiter_chess::{Color, Move, Square};
/// let mut game = Game::new(Start::default())?;
/// let moves = [(Square::F2, Square::F3), (Square::E7, Square::E5), (Square::G2, Square::G4), (Square::D8, Square::H4)];
/// for (i, (from, to)) in moves.into_iter().enumerate() {
///     game.apply(Event::play(i as u64 * 1000, game.turn(), Move::new(from, to)))?;
/// }
/// let o = game.outcome().unwrap();
/// assert_eq!((o.result.to_string().as_str(), o.termination), ("0-1", Termination::Checkmate));
/// assert_eq!(o.article.as_str(), "5.1 a");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Game {
    start: Start,
    rules: Rules,
    class: TimeClass,
    initial: Position,
    pos: Position,
    clock: Option<Clock>,
    history: History,
    events: Vec<Event>,
    moves: Vec<PlayedMove>,
    moves_by: [u32; 2],
    offer: Option<Color>,
    touched: Touched,
    illegal_count: [u32; 2],
    pending_illegal: Option<PendingIllegal>,
    pending_quickplay: Option<PendingQuickplay>,
    outcome: Option<Outcome>,
    last_t: u64,
    dead: DeadPositionDetector,
    alive: bool,
    /// Not at the board (6.7), by colour index.
    absent: [bool; 2],
    /// Allowed by the arbiter to arrive after the default time.
    excused: [bool; 2],
    /// Absent at some time (6.7) and arrived since, by colour index.
    arrived: [bool; 2],
    remarks: Vec<Remark>,
    /// The arbiter consented to a draw (9.1 a / 9.1.1).
    draw_consent: bool,
    /// An illegal move not yet found (7.5 a / 7.5.1).
    unnoticed: Option<found::Unnoticed>,
    annulled: Vec<PlayedMove>,
    /// A promotion piece that has touched its square (4.4 d / 4.4.4).
    promotion_choice: Option<(arbiter_chess::Square, arbiter_chess::Role)>,
    /// The sealed move of an adjourned game.
    sealed: Option<adjourned::Sealed>,
    /// When the current session began (0, or the resumption).
    session_start: u64,
    /// The moves' SAN is written ([`Game::write_san`]).
    write_san: bool,
    /// The events applied are kept in the log ([`Game::keep_events`]).
    keep_events: bool,
    /// The start position's dead-position test (5.2 b / 5.2.2) is still to
    /// come ([`Game::new_start_unsettled`]): the first line played settles
    /// it, or the first event applied.
    start_unsettled: bool,
}

/// The unwinnability solver of [`Game::new`]: the exact [`ChaSolver`](crate::dead::ChaSolver).
fn default_solver() -> Arc<dyn Unwinnability> {
    Arc::new(crate::dead::ChaSolver)
}

impl Game {
    /// A new game; White's clock starts at t = 0.
    pub fn new(start: Start) -> Result<Game, StartError> {
        Game::with_solver(start, default_solver())
    }

    /// A new game deciding unwinnability with `solver`.
    pub fn with_solver(start: Start, solver: Arc<dyn Unwinnability>) -> Result<Game, StartError> {
        let mut game = Game::unchecked(start, solver)?;
        game.check_automatic_end(None, 0);
        Ok(game)
    }

    /// A new game whose start position is not yet tested for a dead
    /// position (its other automatic ends are): the record's line played
    /// first ([`Game::play_line`]) settles it from its own verdicts — an
    /// alive position after the first move proves the start alive — and
    /// otherwise the test is made before the first event is applied. The
    /// same verdicts as [`Game::new`]; for the audit, where the test of a
    /// set-up start would cost as much as the whole line's.
    pub(crate) fn new_start_unsettled(start: Start) -> Result<Game, StartError> {
        let mut game = Game::unchecked(start, default_solver())?;
        if game.pos.halfmoves() >= 150 {
            // The 75-move rule would end it at once, but a dead position
            // is the end the Laws name first: both tested now.
            game.check_automatic_end(None, 0);
            return Ok(game);
        }
        game.check_automatic_end_known(
            None,
            0,
            play::Known {
                has_move: false,
                alive: true,
            },
        );
        game.alive = false;
        game.start_unsettled = game.outcome.is_none();
        Ok(game)
    }

    /// The start position's dead-position test, if still to come
    /// ([`Game::new_start_unsettled`]): made now, on the start (nothing has
    /// been played).
    pub(crate) fn settle_start(&mut self) {
        if std::mem::take(&mut self.start_unsettled) {
            self.check_automatic_end(None, 0);
        }
    }

    /// A new game, its start not tested for automatic ends.
    fn unchecked(start: Start, solver: Arc<dyn Unwinnability>) -> Result<Game, StartError> {
        let pos = match (&start.fen, start.chess960, start.variant) {
            (Some(_), Some(_), _) => return Err(StartError::FenAndChess960),
            (None, Some(_), Some(Variant::Standard)) => {
                return Err(StartError::StandardAndChess960)
            }
            // A declared game reads the FEN's castling rights its way
            // (Art. 3.8 a in standard chess); otherwise as they need.
            (Some(fen), None, Some(variant)) => Position::from_fen(fen, variant.castling_mode())?,
            (Some(fen), None, None) => Position::from_fen_auto(fen)?,
            (None, Some(n), _) => Position::chess960(n).ok_or(StartError::Chess960(n))?,
            // Chess960 declared without a position: the standard array, in
            // Chess960 mode (as a PGN `[Variant "Chess960"]` without `FEN`).
            (None, None, Some(Variant::Chess960)) => {
                Position::chess960(518).ok_or(StartError::Chess960(518))?
            }
            (None, None, _) => Position::standard(),
        };
        let delay_ms = start.delay.map_or(0, |d| d.ms);
        let clock = match &start.time_control {
            None | Some(TimeControl::Unknown | TimeControl::Untimed) => None,
            Some(tc) => Some(Clock::new(tc, start.delay, pos.turn(), 0)?),
        };
        let class = start
            .time_control
            .as_ref()
            .map_or(TimeClass::Standard, |tc| TimeClass::of(tc, delay_ms));
        let rules = start.edition.rules();
        let game = Game {
            rules,
            class,
            initial: pos,
            pos,
            clock,
            history: History::new(&pos),
            events: Vec::new(),
            moves: Vec::new(),
            moves_by: [0, 0],
            offer: None,
            touched: Touched::new(),
            illegal_count: [0, 0],
            pending_illegal: None,
            pending_quickplay: None,
            outcome: None,
            last_t: 0,
            dead: DeadPositionDetector::new(solver),
            alive: false,
            absent: [
                start.absent.contains(&Color::White),
                start.absent.contains(&Color::Black),
            ],
            excused: [false, false],
            arrived: [false, false],
            remarks: Vec::new(),
            draw_consent: false,
            unnoticed: None,
            annulled: Vec::new(),
            promotion_choice: None,
            sealed: None,
            session_start: 0,
            write_san: true,
            keep_events: true,
            start_unsettled: false,
            start,
        };
        Ok(game)
    }

    /// Replays a log: the game that results from `events` after `start`.
    pub fn replay(start: Start, events: &[Event]) -> Result<Game, ReplayError> {
        let mut g = Game::new(start)?;
        for (index, e) in events.iter().enumerate() {
            g.apply(e.clone())
                .map_err(|error| ReplayError::Event { index, error })?;
        }
        Ok(g)
    }

    // ----- accessors -------------------------------------------------------

    /// How the game started.
    pub fn start(&self) -> &Start {
        &self.start
    }

    /// The rules of the edition in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Blitz, rapid or standard (Appendices A and B).
    pub fn time_class(&self) -> TimeClass {
        self.class
    }

    /// The time control, if any.
    pub fn time_control(&self) -> Option<&TimeControl> {
        self.start.time_control.as_ref()
    }

    /// The starting position.
    pub fn initial_position(&self) -> &Position {
        &self.initial
    }

    /// The position on the board (while an illegal move waits for a claim,
    /// the position before it).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The player having the move (Art. 1.1).
    pub fn turn(&self) -> Color {
        match &self.pending_illegal {
            Some(p) => !p.by,
            None => self.pos.turn(),
        }
    }

    /// The legal moves of the player having the move (none once the game
    /// has ended), restricted by touch-move obligations.
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome.is_some() {
            return MoveList::new();
        }
        if let Some(p) = &self.pending_illegal {
            // The opponent of an unclaimed illegal move plays on the board as
            // it stands (none if it cannot stand: he must claim), held by
            // what he has touched (4.3).
            let Some(s) = p.stands else {
                return MoveList::new();
            };
            return match self.obligation() {
                Obligation::Free => s.legal_moves(),
                Obligation::OneOf(ms, _) => ms.into_iter().collect(),
            };
        }
        match self.obligation() {
            Obligation::Free => self.pos.legal_moves(),
            Obligation::OneOf(ms, _) => ms.into_iter().collect(),
        }
    }

    /// The log of accepted events.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The moves played.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// What the arbiter ruled that the record keeps as comments (the
    /// penalties of 12.9, …), in order.
    pub fn remarks(&self) -> &[Remark] {
        &self.remarks
    }

    /// The outcome, once the game has ended.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// `true` once the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The reason the arbiter gave for the forfeit or adjudication that
    /// ended the game ([`Action::Forfeit`], [`Action::Adjudicate`]), if any:
    /// [`Outcome::reason`].
    pub fn outcome_reason(&self) -> Option<&str> {
        self.outcome.as_ref()?.reason.as_deref()
    }

    /// The player whose draw offer stands (9.1).
    pub fn draw_offer(&self) -> Option<Color> {
        self.offer
    }

    /// Completed illegal moves penalised so far for `color` (7.5).
    pub fn illegal_moves(&self, color: Color) -> u32 {
        self.illegal_count[color.index()]
    }

    /// The clock, if the game has one.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// The clocks at `t` (≥ the last event's time).
    pub fn clock_at(&self, t: u64) -> Option<ClockReading> {
        let c = self.clock.as_ref()?;
        Some(ClockReading {
            white: c.remaining_at(Color::White, t),
            black: c.remaining_at(Color::Black, t),
            running: c.running(),
        })
    }

    /// When the running player's flag falls (to schedule a timer), if a
    /// clock runs.
    pub fn next_flag_time(&self) -> Option<u64> {
        if self.outcome.is_some() {
            return None;
        }
        self.clock.as_ref()?.next_flag_time()
    }

    /// How often the position on the board has appeared (9.2).
    pub fn repetitions(&self) -> usize {
        self.history.count_current()
    }

    /// How the dead-position checks of this game were settled so far, and
    /// how often the exact solver was asked.
    pub fn stats(&self) -> DeadPositionStats {
        self.dead.stats()
    }

    /// Times the exact unwinnability solver has been asked
    /// (`stats().solver_calls`).
    pub fn solver_calls(&self) -> u64 {
        self.dead.stats().solver_calls
    }

    /// Reads the rest of a game record ahead (its events, in order, as they
    /// will be applied), so that the dead-position check after each of its
    /// moves (5.2 b / 5.2.2) is settled by the record's own continuation:
    /// the moves (and intended moves of claims) are replayed from the
    /// position on the board while they are legal, up to an `illegal` event;
    /// every position before the last one proven alive is then known alive
    /// ([`DeadPositionDetector::prove_continuation`]). Verdicts do not
    /// change — only their cost.
    ///
    /// Returns how many positions were proven alive.
    pub fn read_ahead<'a>(&mut self, events: impl IntoIterator<Item = &'a Event>) -> usize {
        let mut line = Vec::new();
        for e in events {
            match &e.action {
                Action::Move { mv } | Action::Claim { mv: Some(mv), .. } => line.push(*mv),
                Action::Illegal { .. }
                | Action::IllegalUnnoticed { .. }
                | Action::PressClock
                | Action::MoveTwoHands { .. } => break,
                _ => {}
            }
        }
        self.read_ahead_line(line)
    }

    /// [`Game::read_ahead`] on the moves of the continuation alone, from the
    /// position on the board; stops at the first move that is not legal.
    pub fn read_ahead_line(&mut self, moves: impl IntoIterator<Item = Move>) -> usize {
        if self.outcome.is_some() || self.pending_illegal.is_some() {
            return 0;
        }
        let mut p = self.pos;
        let mut line = Vec::new();
        for m in moves {
            if !p.is_legal(m) {
                break;
            }
            p.play_unchecked(m);
            line.push(m);
        }
        let start = self.pos;
        self.dead.prove_continuation(&start, &line)
    }

    /// Asks the dead-position analysis about `color` first (a cost hint,
    /// never a verdict: [`DeadPositionDetector::prefer_winner`]).
    pub fn prefer_winner(&mut self, color: Option<Color>) {
        self.dead.prefer_winner(color);
    }

    /// Asks the dead-position analysis (5.2 b / 5.2.2) about both sides at
    /// once, for a game being played: the wait after a move is the quicker
    /// side's (a cost choice, never a verdict:
    /// [`DeadPositionDetector::race_sides`]).
    ///
    /// ```
    /// use arbiter_laws::{Game, Start};
    /// let mut game = Game::new(Start::default())?;
    /// game.race_sides(true);
    /// assert!(!game.is_over());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn race_sides(&mut self, on: bool) {
        self.dead.race_sides(on);
    }

    /// Writes each move's SAN into [`PlayedMove::san`] from now on (`true`,
    /// the default) or leaves it empty (`false`): a cost choice, never a
    /// verdict, for a replay that has the record's moves already and needs
    /// no notation of them (the audit of records: a finding names its
    /// move from the record). The events and every verdict are the same.
    ///
    /// ```
    /// use arbiter_laws::{Event, Game, Start};
    /// use arbiter_chess::{Color, Move, Square};
    /// let mut game = Game::new(Start::default())?;
    /// game.write_san(false);
    /// game.apply(Event::play(0, Color::White, Move::new(Square::E2, Square::E4)))?;
    /// assert_eq!((game.moves()[0].mv, game.moves()[0].san.as_str()), (Move::new(Square::E2, Square::E4), ""));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_san(&mut self, on: bool) {
        self.write_san = on;
    }

    /// Keeps each event applied in the log ([`Game::events`]) from now on
    /// (`true`, the default) or keeps none (`false`): a cost choice, never a
    /// verdict, for a replay whose record is its log already (the audit of
    /// records). Without the log the game cannot be replayed from its
    /// events ([`Game::replay`]); the moves ([`Game::moves`]), the time of
    /// the last event ([`Game::last_time`]) and every verdict are the same.
    ///
    /// ```
    /// use arbiter_laws::{Event, Game, Start};
    /// use arbiter_chess::{Color, Move, Square};
    /// let mut game = Game::new(Start::default())?;
    /// game.keep_events(false);
    /// game.apply(Event::play(700, Color::White, Move::new(Square::E2, Square::E4)))?;
    /// assert!(game.events().is_empty());
    /// assert_eq!((game.moves().len(), game.last_time()), (1, 700));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn keep_events(&mut self, on: bool) {
        self.keep_events = on;
    }

    /// The time of the last event applied (ms), 0 before any: the time the
    /// Laws stand at (events before it are refused).
    ///
    /// ```
    /// use arbiter_laws::{Event, Game, Start};
    /// use arbiter_chess::{Color, Move, Square};
    /// let mut game = Game::new(Start::default())?;
    /// assert_eq!(game.last_time(), 0);
    /// game.apply(Event::play(1500, Color::White, Move::new(Square::E2, Square::E4)))?;
    /// assert_eq!(game.last_time(), 1500);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn last_time(&self) -> u64 {
        self.last_t
    }

    /// Can `color` checkmate from the position on the board by any series of
    /// legal moves (exact; `Unknown` only if the solver cannot decide)?
    pub fn can_checkmate(&mut self, color: Color) -> Verdict {
        let pos = self.pos;
        self.dead.can_checkmate(&pos, color)
    }

    fn obligation(&self) -> Obligation {
        if self.touched.is_empty() {
            return Obligation::Free;
        }
        let a = &self.rules.articles;
        // On the board as an unclaimed illegal move left it, if one waits.
        self.touched
            .obligation(&self.board_after_pending(), a.touch_move, a.touch_castling)
    }

    // ----- applying events -------------------------------------------------

    /// Whether an event at `t` can be applied at all: the game goes on and
    /// time does not go back.
    pub(crate) fn check_time(&self, t: u64) -> Result<(), Rejected> {
        if let Some(o) = &self.outcome {
            return Err(Rejected::GameOver(o.termination));
        }
        if t < self.last_t {
            return Err(Rejected::TimeGoesBack {
                t,
                last: self.last_t,
            });
        }
        Ok(())
    }

    /// [`Game::check_time`], except that a penalty on the score (12.9) may
    /// also come after the end.
    pub(crate) fn check_time_for(&self, t: u64, action: &Action) -> Result<(), Rejected> {
        match action {
            Action::Arbiter {
                decision: Decision::Penalty { sanction, .. },
            } if sanction.changes_score() && t >= self.last_t => Ok(()),
            _ => self.check_time(t),
        }
    }

    /// Applies one event. On `Err` nothing has changed.
    pub fn apply(&mut self, event: Event) -> Result<Applied, Rejected> {
        self.apply_as_written(event, None)
    }

    /// [`Game::apply`], with the intended move of a claim as the player
    /// wrote it (`written`): an answer that says it cannot be made names it
    /// so (`Ng6`, when no knight of his is known to go there), not by the
    /// squares it was read as.
    pub(crate) fn apply_as_written(
        &mut self,
        event: Event,
        written: Option<&str>,
    ) -> Result<Applied, Rejected> {
        self.settle_start();
        self.check_time_for(event.t, &event.action)?;
        let t = event.t;
        let player = || match event.by {
            Actor::Player(c) => Ok(c),
            Actor::Arbiter => Err(Rejected::NoPlayer),
        };
        self.check_actor(event.by, &event.action)?;
        self.check_awaiting_quickplay_ruling(&event.action)?;
        let applied = match &event.action {
            Action::Move { mv } => self.on_move(player()?, *mv, t)?,
            Action::OfferDraw => self.on_offer(player()?, t)?,
            Action::AcceptDraw => self.on_accept(player()?, t)?,
            Action::DeclineDraw => self.on_decline(player()?)?,
            Action::Claim { kind, mv } => self.on_claim(player()?, *kind, *mv, written, t)?,
            Action::Resign => self.on_resign(player()?, t),
            Action::Flag => self.on_flag(Some(player()?), t)?,
            Action::Touch { square } => self.on_touch(player()?, *square)?,
            Action::Illegal { mv } => self.on_illegal(player()?, *mv, t)?,
            Action::Arbiter { decision } => self.on_arbiter(*decision, t)?,
            Action::Arrive => self.on_arrive(player()?, t)?,
            Action::IllegalUnnoticed { mv } => self.on_illegal_unnoticed(player()?, *mv, t)?,
            Action::PressClock => self.on_press_clock(player()?, t)?,
            Action::Seal { text } => self.on_seal(player()?, text, t)?,
            Action::TouchPromotionPiece { square, piece } => {
                self.on_touch_promotion_piece(player()?, *square, *piece)?
            }
            Action::MoveTwoHands { mv } => self.on_move_two_hands(player()?, *mv, t)?,
            Action::Forfeit {
                player,
                ground,
                reason,
            } => self.on_forfeit(*player, *ground, reason, t)?,
            Action::Adjudicate {
                result,
                ground,
                reason,
            } => self.on_adjudicate(*result, *ground, reason, t),
        };
        self.last_t = t;
        self.log(event);
        Ok(applied)
    }

    /// Keeps `event` in the log, unless the game keeps none
    /// ([`Game::keep_events`]).
    pub(super) fn log(&mut self, event: Event) {
        if self.keep_events {
            self.events.push(event);
        }
    }

    /// A player acting must be at the board, unless arriving (6.7).
    pub(crate) fn check_actor(&self, by: Actor, action: &Action) -> Result<(), Rejected> {
        match (by, action) {
            (_, Action::Arrive) | (Actor::Arbiter, _) => Ok(()),
            (Actor::Player(c), _) => {
                self.require_not_adjourned()?;
                self.require_present(c)
            }
        }
    }

    fn end(
        &mut self,
        result: GameResult,
        termination: Termination,
        article: impl Into<Article>,
        t: u64,
    ) {
        self.outcome = Some(Outcome {
            result,
            termination,
            article: article.into(),
            at: t,
            reason: None,
        });
        self.offer = None;
        if let Some(c) = self.clock.as_mut() {
            c.stop(t);
        }
    }

    fn require_turn(&self, by: Color) -> Result<(), Rejected> {
        let turn = self.turn();
        if by != turn {
            return Err(Rejected::NotYourMove { by, turn });
        }
        Ok(())
    }
}

/// The draw claims a player may make on the position or an intended move.
const DRAW_CLAIMS: [ClaimKind; 2] = [ClaimKind::Threefold, ClaimKind::Fifty];
