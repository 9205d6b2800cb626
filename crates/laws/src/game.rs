//! [`Game`]: the state of a game as a fold over its event log.

use crate::clock::{Clock, ClockError};
use crate::dead::{count_moves_capped, DeadPositionDetector, Reason, Unwinnability, Verdict};
use crate::edition::{IllegalMovePenalty, Rules, TWO_MINUTES_MS};
use crate::event::{Action, ClaimKind, Decision, Event, Ground, Start};
use crate::outcome::{GameResult, Outcome, Termination};
use crate::repetition::History;
use crate::touch::{Obligation, Touched};
use crate::TimeClass;
use arbiter_chess::{
    Bitboard, CastlingMode, Color, Move, MoveList, Position, Rank, Role, Setup, Square,
};
use arbiter_pgn::TimeControl;
use std::sync::Arc;

/// A start that cannot begin a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// Both a FEN and a Chess960 number.
    #[error("give either \"fen\" or \"chess960\", not both")]
    FenAndChess960,
    /// The Chess960 number is not 0–959.
    #[error("Chess960 position {0} does not exist: the numbers are 0 to 959")]
    Chess960(u32),
    /// The FEN cannot be read or is not a legal position.
    #[error("start position: {0}")]
    Fen(#[from] arbiter_chess::FenError),
    /// The time control cannot be read.
    #[error("time control: {0}")]
    TimeControl(#[from] arbiter_pgn::ParseTimeControlError),
    /// The time control cannot be run.
    #[error("time control: {0}")]
    Clock(#[from] ClockError),
}

/// An event the Laws reject; a rejected event changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejected {
    /// The game is over.
    #[error("the game has ended ({0}): no further events")]
    GameOver(&'static str),
    /// The timestamp is before the previous event's.
    #[error("time goes backwards: t = {t} ms is before the previous event at {last} ms")]
    TimeGoesBack {
        /// This event's time.
        t: u64,
        /// The previous event's time.
        last: u64,
    },
    /// A player event without `by`.
    #[error("say who acts: \"by\": \"white\" or \"black\"")]
    NoPlayer,
    /// Out of turn (1.1: the players move alternately).
    #[error("{by} does not have the move: it is {turn}'s move (Art. 1.1)")]
    NotYourMove {
        /// Who tried.
        by: Color,
        /// Who has the move.
        turn: Color,
    },
    /// A move that cannot be read or is not legal.
    #[error("{0}")]
    BadMove(String),
    /// A move that touch-move forbids.
    #[error("touch-move (Art. {article}): the touched pieces oblige one of {allowed}")]
    TouchMove {
        /// The Article.
        article: &'static str,
        /// The moves allowed, in SAN.
        allowed: String,
    },
    /// Touch-move is not enforced in this game.
    #[error("touch-move is not enforced in this game (start with \"touch_move\": true)")]
    TouchMoveOff,
    /// A square that cannot be read or holds no piece.
    #[error("{0}")]
    BadSquare(String),
    /// No draw offer to answer.
    #[error("there is no draw offer by {0} to answer")]
    NoOffer(Color),
    /// Agreement before both players have moved (2018+ 5.2.3).
    #[error("a draw by agreement needs both players to have made at least one move (Art. {0})")]
    AgreementTooEarly(&'static str),
    /// A claim by the player not having the move.
    #[error("only the player having the move may claim (Art. {article}); it is {turn}'s move")]
    ClaimNotOnMove {
        /// The Article.
        article: &'static str,
        /// Who has the move.
        turn: Color,
    },
    /// A claim after touching a piece (9.4).
    #[error("after touching a piece a player may not claim a draw on this move (Art. 9.4)")]
    ClaimAfterTouch,
    /// The game has no clock.
    #[error("this game has no clock")]
    NoClock,
    /// A flag claim when the flag has not fallen.
    #[error("{player}'s flag has not fallen: {remaining_ms} ms remain")]
    FlagNotFallen {
        /// The player claimed against.
        player: Color,
        /// Time left.
        remaining_ms: u64,
    },
    /// Nothing to decide, claim or answer.
    #[error("{0}")]
    NothingPending(&'static str),
    /// A quickplay claim where Appendix G / Guidelines III do not apply.
    #[error("quickplay finish (Art. {article}): {reason}")]
    Quickplay {
        /// The Article.
        article: &'static str,
        /// Why not.
        reason: &'static str,
    },
    /// An `illegal` event with a legal move.
    #[error("{0} is a legal move: record it as \"move\"")]
    NotIllegal(String),
    /// A field is missing or wrong.
    #[error("{0}")]
    Invalid(&'static str),
}

/// A move of the game, as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// Its SAN (with `+` or `#`).
    pub san: String,
    /// Who played it.
    pub by: Color,
    /// When it was completed.
    pub t: u64,
}

/// Time added to a clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Penalty {
    /// Whose clock gains the time.
    pub to: Color,
    /// Milliseconds.
    pub ms: u64,
    /// The Article.
    pub article: &'static str,
}

/// What an accepted event did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The move played (SAN), if any: the event's move, the intended move
    /// of an incorrect claim, or a promotion completed as a queen.
    pub san: Option<String>,
    /// `"correct"`, `"incorrect"` or `"pending"` for claims.
    pub claim: Option<&'static str>,
    /// Time added to a clock.
    pub penalty: Option<Penalty>,
    /// Further explanation, citing the Article.
    pub note: Option<String>,
}

/// The clocks at a given moment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// White's remaining time, ms.
    pub white: u64,
    /// Black's remaining time, ms.
    pub black: u64,
    /// Whose clock runs.
    pub running: Option<Color>,
}

#[derive(Clone, Debug)]
struct PendingIllegal {
    by: Color,
    before: Position,
    /// The position on the board if the illegal move stands.
    stands: Option<Position>,
    /// A pawn on the last rank not replaced: becomes a queen (7.5 a / 7.5.2).
    promotion: Option<Move>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct PendingQuickplay {
    by: Color,
    kind: ClaimKind,
    awarded: bool,
}

/// A game under the FIDE Laws: the start, the log of events, and the state
/// folded from it (position, clocks, offers, repetitions, result).
#[derive(Clone, Debug)]
pub struct Game {
    start: Start,
    rules: Rules,
    class: TimeClass,
    control: Option<TimeControl>,
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
}

/// A move written in SAN or UCI, legal in `pos`; the SAN reading's error
/// otherwise.
fn parse_move_on(pos: &Position, text: &str) -> Result<Move, Rejected> {
    pos.parse_san(text).or_else(|san_err| {
        pos.parse_uci(text).map_err(|_| {
            Rejected::BadMove(format!("move {text} (move {}): {san_err}", pos.fullmoves()))
        })
    })
}

impl Game {
    /// A new game; White's clock starts at t = 0.
    pub fn new(start: Start) -> Result<Game, StartError> {
        Game::with_solver(start, Arc::new(crate::dead::ChaSolver))
    }

    /// A new game deciding unwinnability with `solver`.
    pub fn with_solver(start: Start, solver: Arc<dyn Unwinnability>) -> Result<Game, StartError> {
        let pos = match (&start.fen, start.chess960) {
            (Some(_), Some(_)) => return Err(StartError::FenAndChess960),
            (Some(fen), None) => Position::from_fen_auto(fen)?,
            (None, Some(n)) => Position::chess960(n).ok_or(StartError::Chess960(n))?,
            (None, None) => Position::standard(),
        };
        let delay_ms = start.delay.map_or(0, |d| d.ms);
        let (control, clock) = match &start.time_control {
            None => (None, None),
            Some(text) => {
                let tc = TimeControl::parse(text)?;
                match tc {
                    TimeControl::Unknown | TimeControl::Untimed => (Some(tc), None),
                    _ => {
                        let clock = Clock::new(&tc, start.delay, pos.turn(), 0)?;
                        (Some(tc), Some(clock))
                    }
                }
            }
        };
        let class = control
            .as_ref()
            .map_or(TimeClass::Standard, |tc| TimeClass::of(tc, delay_ms));
        let rules = start.edition.rules();
        let mut game = Game {
            rules,
            class,
            control,
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
            start,
        };
        game.check_automatic_end(None, 0);
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
        self.control.as_ref()
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
            // it stands (none if it cannot stand: he must claim).
            return p.stands.map_or_else(MoveList::new, |s| s.legal_moves());
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

    /// The outcome, once the game has ended.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// `true` once the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The reason the arbiter gave for the forfeit or adjudication that
    /// ended the game ([`Action::Forfeit`], [`Action::Adjudicate`]), if any.
    pub fn outcome_reason(&self) -> Option<&str> {
        let o = self.outcome.as_ref()?;
        if !matches!(
            o.termination,
            Termination::Forfeit | Termination::Adjudication
        ) {
            return None;
        }
        match &self.events.last()?.action {
            Action::Forfeit { reason, .. } | Action::Adjudicate { reason, .. }
                if !reason.is_empty() =>
            {
                Some(reason)
            }
            _ => None,
        }
    }

    /// The draw the player having the move could claim correctly now:
    /// threefold repetition (9.2), else the 50-move rule (9.3), on the
    /// position on the board (`intended` = `None`) or on a move he intends
    /// to make (written first, not played: 9.2 a / 9.2.1, 9.3 a / 9.3.1).
    /// `None` once the game is over, while an illegal move waits for a
    /// claim, after touching a piece (9.4), or if `intended` is not legal.
    /// A claim of the kind returned is upheld by [`Game::apply`].
    pub fn claimable(&self, intended: Option<Move>) -> Option<ClaimKind> {
        if self.outcome.is_some() || self.pending_illegal.is_some() || !self.touched.is_empty() {
            return None;
        }
        if let Some(m) = intended {
            if !self.pos.is_legal(m) {
                return None;
            }
        }
        [ClaimKind::Threefold, ClaimKind::Fifty]
            .into_iter()
            .find(|&kind| self.claim_is_correct(kind, intended))
    }

    /// Whether a claim of threefold repetition or of the 50-move rule, on
    /// the position or on the legal intended move `m`, is correct (9.2, 9.3).
    fn claim_is_correct(&self, kind: ClaimKind, m: Option<Move>) -> bool {
        match (kind, m) {
            (ClaimKind::Threefold, None) => self.history.count_current() >= 3,
            (ClaimKind::Threefold, Some(m)) => {
                let mut after = self.pos;
                after.play_unchecked(m);
                self.history
                    .count_if_reached(&after, self.pos.is_zeroing(m))
                    >= 3
            }
            (_, None) => self.pos.halfmoves() >= 100,
            (_, Some(m)) => !self.pos.is_zeroing(m) && self.pos.halfmoves() + 1 >= 100,
        }
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

    /// Times the exact unwinnability solver has been asked.
    pub fn solver_calls(&self) -> u64 {
        self.dead.solver_calls
    }

    /// How the dead-position check after each move was settled so far, in
    /// the order of [`crate::dead::Reason::ALL`]: by material, a move that
    /// can be taken back, a carried-over helpmate line, a continuation
    /// read ahead, the solver, or undecided.
    pub fn dead_position_checks(&self) -> [u64; 6] {
        self.dead.settled_by
    }

    /// Reads the rest of a game record ahead (its events, in order, as they
    /// will be applied), so that the dead-position check after each of its
    /// moves (5.2 b / 5.2.2) is settled by the record's own continuation:
    /// the moves (and intended moves of claims) are replayed from the
    /// position on the board while they are legal, up to an `illegal` event;
    /// every position before the last one proven alive (a checkmate at the
    /// end, or the exact check from the end backwards) is then known alive
    /// ([`DeadPositionDetector::prove_continuation`]). Verdicts do not
    /// change — only their cost: what the record does not prove is decided
    /// after each move as usual.
    ///
    /// Returns how many positions were proven alive.
    pub fn read_ahead<'a>(&mut self, events: impl IntoIterator<Item = &'a Event>) -> usize {
        if self.outcome.is_some() || self.pending_illegal.is_some() {
            return 0;
        }
        let mut p = self.pos;
        let mut line = Vec::new();
        for e in events {
            let text = match &e.action {
                Action::Move { mv } | Action::Claim { mv: Some(mv), .. } => mv,
                Action::Illegal { .. } => break,
                _ => continue,
            };
            let Ok(m) = parse_move_on(&p, text) else {
                break;
            };
            p.play_unchecked(m);
            line.push(m);
        }
        let start = self.pos;
        self.dead.prove_continuation(&start, &line)
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
        self.touched
            .obligation(&self.pos, a.touch_move, a.touch_castling)
    }

    // ----- applying events -------------------------------------------------

    /// Applies one event. On `Err` nothing has changed.
    pub fn apply(&mut self, event: Event) -> Result<Applied, Rejected> {
        if let Some(o) = &self.outcome {
            return Err(Rejected::GameOver(o.termination.name()));
        }
        if event.t < self.last_t {
            return Err(Rejected::TimeGoesBack {
                t: event.t,
                last: self.last_t,
            });
        }
        let t = event.t;
        let applied = match &event.action {
            Action::Move { mv } => {
                let by = event.by.ok_or(Rejected::NoPlayer)?;
                self.on_move(by, mv, t)?
            }
            Action::OfferDraw => self.on_offer(event.by.ok_or(Rejected::NoPlayer)?, t)?,
            Action::AcceptDraw => self.on_accept(event.by.ok_or(Rejected::NoPlayer)?, t)?,
            Action::DeclineDraw => {
                let by = event.by.ok_or(Rejected::NoPlayer)?;
                if self.offer != Some(!by) {
                    return Err(Rejected::NoOffer(!by));
                }
                self.offer = None;
                Applied::default()
            }
            Action::Claim { kind, mv } => {
                let by = event.by.ok_or(Rejected::NoPlayer)?;
                self.on_claim(by, *kind, mv.as_deref(), t)?
            }
            Action::Resign => self.on_resign(event.by.ok_or(Rejected::NoPlayer)?, t),
            Action::Flag => {
                let by = event.by.ok_or(Rejected::NoPlayer)?;
                self.on_flag(Some(by), t)?
            }
            Action::Touch { square } => {
                let by = event.by.ok_or(Rejected::NoPlayer)?;
                self.on_touch(by, square)?
            }
            Action::Illegal { mv } => {
                let by = event.by.ok_or(Rejected::NoPlayer)?;
                self.on_illegal(by, mv, t)?
            }
            Action::Arbiter {
                decision,
                player,
                ms,
            } => self.on_arbiter(*decision, *player, *ms, t)?,
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
        self.events.push(event);
        Ok(applied)
    }

    fn end(&mut self, result: GameResult, termination: Termination, article: &'static str, t: u64) {
        self.outcome = Some(Outcome {
            result,
            termination,
            article,
            at: t,
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

    fn parse_move(&self, text: &str) -> Result<Move, Rejected> {
        parse_move_on(&self.pos, text)
    }

    fn check_obligation(&self, m: Move) -> Result<(), Rejected> {
        if let Obligation::OneOf(allowed, article) = self.obligation() {
            if !allowed.contains(&m) {
                let list: Vec<String> = allowed.iter().map(|x| self.pos.san(*x)).collect();
                return Err(Rejected::TouchMove {
                    article,
                    allowed: list.join(", "),
                });
            }
        }
        Ok(())
    }

    fn on_move(&mut self, by: Color, text: &str, t: u64) -> Result<Applied, Rejected> {
        self.require_turn(by)?;
        if let Some(p) = &self.pending_illegal {
            if p.stands.is_none() && p.promotion.is_none() {
                return Err(Rejected::Invalid(
                    "the opponent's illegal move leaves a position that cannot stand: claim it (\"claim\" with \"kind\": \"illegal_move\")",
                ));
            }
        }
        // Validate against the position that will be on the board.
        let board = self.board_after_pending();
        let m = parse_move_on(&board, text)?;
        if self.pending_illegal.is_none() {
            self.check_obligation(m)?;
        }
        // The opponent's illegal move was not claimed: it stands (A.4 b).
        let mut note = None;
        if let Some(p) = self.pending_illegal.take() {
            self.pos = board;
            self.history.push(&self.pos, true);
            self.alive = false;
            note = Some(format!(
                "{}'s illegal move stands: not claimed before the opponent's next move (Art. {})",
                p.by,
                self.rules
                    .illegal_move_article(self.class, self.start.supervised)
            ));
        }
        let san = self.play(by, m, t);
        Ok(Applied {
            san: Some(san),
            note,
            ..Applied::default()
        })
    }

    fn board_after_pending(&self) -> Position {
        match &self.pending_illegal {
            Some(p) => p.stands.unwrap_or(self.pos),
            None => self.pos,
        }
    }

    /// Plays a legal move of `by` completed at `t`, then checks the
    /// automatic ends (5.1 a, 5.2 a, 5.2 b, 9.6).
    fn play(&mut self, by: Color, m: Move, t: u64) -> String {
        let before = self.pos;
        let mut san = arbiter_chess::San::from_move(&before, m).to_string();
        let irreversible = before.is_zeroing(m);
        if let Some(c) = self.clock.as_mut() {
            c.press(by, t);
        }
        self.pos.play_unchecked(m);
        self.history.push(&self.pos, irreversible);
        self.moves_by[by.index()] += 1;
        self.touched.clear();
        if self.offer == Some(!by) {
            // 9.1 b / 9.1.2.1: the offer lapses when the opponent moves.
            self.offer = None;
        }
        self.check_automatic_end(Some((&before, m)), t);
        if self.pos.is_check() {
            // The check or mate mark, from what the end check has found.
            let mate = matches!(self.outcome, Some(o) if o.termination == Termination::Checkmate);
            san.push(if mate { '#' } else { '+' });
        }
        self.moves.push(PlayedMove {
            mv: m,
            san: san.clone(),
            by,
            t,
        });
        san
    }

    fn check_automatic_end(&mut self, from: Option<(&Position, Move)>, t: u64) {
        let pos = self.pos;
        let a = self.rules.articles;
        let n = count_moves_capped(&pos, 2);
        if n == 0 {
            if pos.is_check() {
                self.end(
                    GameResult::win(!pos.turn()),
                    Termination::Checkmate,
                    a.checkmate,
                    t,
                );
            } else {
                self.end(GameResult::DRAW, Termination::Stalemate, a.stalemate, t);
            }
            return;
        }
        let from_live = if self.alive { from } else { None };
        let (dead, reason) = self.dead.is_dead(&pos, from_live);
        if dead {
            self.end(
                GameResult::DRAW,
                Termination::DeadPosition,
                a.dead_position,
                t,
            );
            return;
        }
        self.alive = !matches!(reason, Reason::Undecided);
        if pos.halfmoves() >= 150 {
            self.end(
                GameResult::DRAW,
                Termination::SeventyfiveMoves,
                a.seventyfive,
                t,
            );
            return;
        }
        if self.history.is_fivefold(self.rules.fivefold) {
            self.end(
                GameResult::DRAW,
                Termination::FivefoldRepetition,
                a.fivefold,
                t,
            );
        }
    }

    fn on_offer(&mut self, by: Color, t: u64) -> Result<Applied, Rejected> {
        if self.offer == Some(!by) {
            // Both want a draw: the offer is accepted.
            return self.on_accept(by, t);
        }
        self.offer = Some(by);
        Ok(Applied {
            note: Some(format!(
                "draw offer by {by} stands until {} accepts, declines or moves (Art. {})",
                !by, self.rules.articles.draw_offer
            )),
            ..Applied::default()
        })
    }

    fn on_accept(&mut self, by: Color, t: u64) -> Result<Applied, Rejected> {
        if self.offer != Some(!by) {
            return Err(Rejected::NoOffer(!by));
        }
        if self.rules.agreement_needs_a_move_each
            && (self.moves_by[0] == 0 || self.moves_by[1] == 0)
        {
            return Err(Rejected::AgreementTooEarly(self.rules.articles.agreement));
        }
        let art = self.rules.articles.agreement;
        self.end(GameResult::DRAW, Termination::Agreement, art, t);
        Ok(Applied::default())
    }

    fn on_resign(&mut self, by: Color, t: u64) -> Applied {
        let art = self.rules.articles.resignation;
        if self.rules.resignation_draw_if_opponent_cannot_mate {
            let pos = self.board_after_pending();
            if self.dead.can_checkmate(&pos, !by) == Verdict::Unwinnable {
                self.end(GameResult::DRAW, Termination::Resignation, art, t);
                return Applied {
                    note: Some(format!(
                        "{} cannot checkmate by any series of legal moves: drawn (Art. {art})",
                        !by
                    )),
                    ..Applied::default()
                };
            }
        }
        self.end(GameResult::win(!by), Termination::Resignation, art, t);
        Applied::default()
    }

    /// Loss for `loser`, or a draw if the opponent cannot checkmate in `pos`
    /// (6.9, 7.5 b / 7.5.5, A.4 b).
    fn lose_unless_unwinnable(
        &mut self,
        loser: Color,
        pos: &Position,
        loss: Termination,
        draw: Termination,
        article: &'static str,
        t: u64,
    ) -> Applied {
        if self.dead.can_checkmate(pos, !loser) == Verdict::Unwinnable {
            self.end(GameResult::DRAW, draw, article, t);
            Applied {
                note: Some(format!(
                    "{} cannot checkmate by any series of legal moves: drawn (Art. {article})",
                    !loser
                )),
                ..Applied::default()
            }
        } else {
            self.end(GameResult::win(!loser), loss, article, t);
            Applied::default()
        }
    }

    fn on_flag(&mut self, by: Option<Color>, t: u64) -> Result<Applied, Rejected> {
        let clock = self.clock.as_ref().ok_or(Rejected::NoClock)?;
        let white = clock.flag_fell_at(Color::White, t);
        let black = clock.flag_fell_at(Color::Black, t);
        let flagged = match by {
            Some(claimant) => {
                let target = !claimant;
                let Some(target_at) = clock.flag_fell_at(target, t) else {
                    return Err(Rejected::FlagNotFallen {
                        player: target,
                        remaining_ms: clock.remaining_at(target, t),
                    });
                };
                // If the claimant's own flag fell first, his is the flag that counts (6.9).
                match clock.flag_fell_at(claimant, t) {
                    Some(own) if own < target_at => claimant,
                    _ => target,
                }
            }
            None => match (white, black) {
                (Some(w), Some(b)) => {
                    if w <= b {
                        Color::White
                    } else {
                        Color::Black
                    }
                }
                (Some(_), None) => Color::White,
                (None, Some(_)) => Color::Black,
                (None, None) => return Err(Rejected::NothingPending("no flag has fallen")),
            },
        };
        let pos = self.board_after_pending();
        let art = self.rules.articles.flag_fall;
        Ok(self.lose_unless_unwinnable(
            flagged,
            &pos,
            Termination::Timeout,
            Termination::TimeoutDraw,
            art,
            t,
        ))
    }

    fn on_touch(&mut self, by: Color, square: &str) -> Result<Applied, Rejected> {
        if !self.start.touch_move {
            return Err(Rejected::TouchMoveOff);
        }
        self.require_turn(by)?;
        if self.pending_illegal.is_some() {
            return Err(Rejected::Invalid(
                "claim the opponent's illegal move or play on: touching pieces now is not modelled",
            ));
        }
        let sq: Square = square
            .parse()
            .map_err(|_| Rejected::BadSquare(format!("{square:?} is not a square")))?;
        let mut touched = self.touched.clone();
        touched
            .touch(&self.pos, sq)
            .map_err(|e| Rejected::BadSquare(e.to_string()))?;
        self.touched = touched;
        let mut note = None;
        if self.offer == Some(!by) {
            // 9.1.2.1: touching a piece with intent rejects the offer.
            self.offer = None;
            note = Some(format!(
                "touching a piece declines {}'s draw offer (Art. {})",
                !by, self.rules.articles.draw_offer
            ));
        }
        Ok(Applied {
            note,
            ..Applied::default()
        })
    }

    // ----- claims ----------------------------------------------------------

    fn on_claim(
        &mut self,
        by: Color,
        kind: ClaimKind,
        intended: Option<&str>,
        t: u64,
    ) -> Result<Applied, Rejected> {
        match kind {
            ClaimKind::Threefold | ClaimKind::Fifty => self.on_draw_claim(by, kind, intended, t),
            ClaimKind::IllegalMove => {
                match &self.pending_illegal {
                    Some(p) if p.by == !by => {}
                    _ => {
                        return Err(Rejected::NothingPending(
                            "there is no completed illegal move by the opponent to claim (it must be claimed before making the next move)",
                        ))
                    }
                }
                Ok(self.act_on_illegal(t))
            }
            ClaimKind::ExtraTime | ClaimKind::NormalMeans => self.on_quickplay(by, kind, t),
        }
    }

    fn on_draw_claim(
        &mut self,
        by: Color,
        kind: ClaimKind,
        intended: Option<&str>,
        t: u64,
    ) -> Result<Applied, Rejected> {
        let a = self.rules.articles;
        let art = match (kind, intended.is_some()) {
            (ClaimKind::Threefold, true) => a.threefold_intended,
            (ClaimKind::Threefold, false) => a.threefold_current,
            (_, true) => a.fifty_intended,
            (_, false) => a.fifty_current,
        };
        if by != self.turn() || self.pending_illegal.is_some() {
            return Err(Rejected::ClaimNotOnMove {
                article: art,
                turn: self.turn(),
            });
        }
        if !self.touched.is_empty() {
            return Err(Rejected::ClaimAfterTouch);
        }
        let m = match intended {
            Some(text) => Some(self.parse_move(text)?),
            None => None,
        };
        let correct = self.claim_is_correct(kind, m);
        if correct {
            let termination = if kind == ClaimKind::Threefold {
                Termination::ThreefoldRepetition
            } else {
                Termination::FiftyMoves
            };
            self.end(GameResult::DRAW, termination, art, t);
            return Ok(Applied {
                claim: Some("correct"),
                ..Applied::default()
            });
        }
        // 9.5 b / 9.5.3: two minutes (one in blitz, 2023 rapid too) to the
        // opponent; the claim stands as a draw offer (9.1 b / 9.1.2.3); an
        // intended move must be played.
        let ms = self.rules.penalty_ms(self.class);
        let penalty_art = self.rules.penalty_article(self.class, a.incorrect_claim);
        let mut penalty = None;
        if let Some(c) = self.clock.as_mut() {
            c.add_time(!by, ms);
            penalty = Some(Penalty {
                to: !by,
                ms,
                article: penalty_art,
            });
        }
        self.offer = Some(by);
        let mut applied = Applied {
            claim: Some("incorrect"),
            penalty,
            note: Some(format!(
                "incorrect claim (Art. {}); it stands as a draw offer (Art. {})",
                a.incorrect_claim, a.claim_is_offer
            )),
            ..Applied::default()
        };
        if let Some(m) = m {
            applied.san = Some(self.play(by, m, t));
        }
        Ok(applied)
    }

    fn quickplay_applies(&self, by: Color, article: &'static str, t: u64) -> Result<(), Rejected> {
        let Some(clock) = self.clock.as_ref() else {
            return Err(Rejected::NoClock);
        };
        let err = |reason| Err(Rejected::Quickplay { article, reason });
        if self.class == TimeClass::Blitz {
            return err("never in blitz");
        }
        if clock.delay().is_some() || clock.periods().iter().any(|p| p.increment_ms > 0) {
            return err("only in games without increment or delay");
        }
        if clock.flag_fell_at(by, t).is_some() {
            return err("the claimant's flag has fallen");
        }
        if clock.remaining_at(by, t) >= TWO_MINUTES_MS {
            return err("the claimant must have less than two minutes left");
        }
        Ok(())
    }

    fn on_quickplay(&mut self, by: Color, kind: ClaimKind, t: u64) -> Result<Applied, Rejected> {
        let a = self.rules.articles;
        let art = if kind == ClaimKind::ExtraTime {
            a.quickplay_request
        } else {
            a.quickplay_claim
        };
        if by != self.turn() {
            return Err(Rejected::ClaimNotOnMove {
                article: art,
                turn: self.turn(),
            });
        }
        if self.pending_quickplay.is_some() {
            return Err(Rejected::Invalid(
                "a quickplay claim is already waiting for the arbiter",
            ));
        }
        self.quickplay_applies(by, art, t)?;
        self.pending_quickplay = Some(PendingQuickplay {
            by,
            kind,
            awarded: false,
        });
        let note = if kind == ClaimKind::ExtraTime {
            // G.4 / III.4: the request is also a draw offer.
            self.offer = Some(by);
            format!("request for five extra seconds per move; it is also a draw offer; the arbiter decides (Art. {art})")
        } else {
            format!("claim that the opponent cannot win by normal means; the arbiter decides (Art. {art})")
        };
        Ok(Applied {
            claim: Some("pending"),
            note: Some(note),
            ..Applied::default()
        })
    }

    // ----- illegal moves ---------------------------------------------------

    fn on_illegal(&mut self, by: Color, text: &str, t: u64) -> Result<Applied, Rejected> {
        self.require_turn(by)?;
        if self.pending_illegal.is_some() {
            return Err(Rejected::Invalid(
                "an illegal move is already waiting for a claim",
            ));
        }
        let (from, to, promo) = parse_coordinates(text).ok_or_else(|| {
            Rejected::BadMove(format!(
                "illegal move {text:?}: write it in coordinates, e.g. \"e1e3\""
            ))
        })?;
        if self.pos.board().color_at(from) != Some(by) {
            return Err(Rejected::BadMove(format!(
                "illegal move {text}: {by} has no piece on {from}"
            )));
        }
        if self.pos.board().color_at(to) == Some(by) && !self.pos.is_legal(Move::new(from, to)) {
            return Err(Rejected::BadMove(format!(
                "illegal move {text}: {to} holds {by}'s own piece"
            )));
        }
        let plain = Move {
            from,
            to,
            promotion: promo,
        };
        if self.pos.is_legal(plain) {
            return Err(Rejected::NotIllegal(self.pos.san(plain)));
        }
        // 7.5 a / 7.5.2: a pawn on the last rank not replaced becomes a queen.
        let queen = Move::promote(from, to, Role::Queen);
        let promotion = (promo.is_none() && self.pos.is_legal(queen)).then_some(queen);
        let needs_claim = self
            .rules
            .illegal_move_needs_claim(self.class, self.start.supervised);
        if needs_claim {
            let stands = match promotion {
                Some(q) => {
                    let mut p = self.pos;
                    p.play_unchecked(q);
                    Some(p)
                }
                None => physical_move(&self.pos, from, to, promo),
            };
            if let Some(c) = self.clock.as_mut() {
                c.press(by, t);
            }
            self.pending_illegal = Some(PendingIllegal {
                by,
                before: self.pos,
                stands,
                promotion,
            });
            self.touched.clear();
            return Ok(Applied {
                note: Some(format!(
                    "completed illegal move; {} may claim it before making the next move (Art. {})",
                    !by,
                    self.rules.illegal_move_article(self.class, false)
                )),
                ..Applied::default()
            });
        }
        // The arbiter acts at once: the position before the move is restored.
        self.pending_illegal = Some(PendingIllegal {
            by,
            before: self.pos,
            stands: None,
            promotion,
        });
        if let Some(c) = self.clock.as_mut() {
            // Model the completed illegal move and its correction: pressed, then undone.
            c.press(by, t);
        }
        let mut applied = self.act_on_illegal(t);
        if self.outcome.is_none() && promotion.is_none() {
            // 7.5 a / 7.5.1: Articles 4.3 and 4.7 apply to the replacement move.
            let mut touched = Touched::new();
            let _ = touched.touch(&self.pos, from);
            if self.pos.board().color_at(to) == Some(!by) {
                let _ = touched.touch(&self.pos, to);
            }
            self.touched = touched;
            let extra = format!(
                " The replacement move must follow touch-move (Art. {}): the piece on {from} was touched.",
                self.rules.articles.touch_move
            );
            applied.note = Some(applied.note.unwrap_or_default() + &extra);
        }
        Ok(applied)
    }

    /// The arbiter acts on the pending illegal move (7.5, A.4 b, A.4.2, A.5.2).
    fn act_on_illegal(&mut self, t: u64) -> Applied {
        let Some(p) = self.pending_illegal.take() else {
            return Applied::default();
        };
        let offender = p.by;
        let article = self
            .rules
            .illegal_move_article(self.class, self.start.supervised);
        let penalty = self
            .rules
            .illegal_move_penalty(self.class, self.start.supervised);
        match penalty {
            IllegalMovePenalty::Loss => {
                let before = p.before;
                let mut applied = self.lose_unless_unwinnable(
                    offender,
                    &before,
                    Termination::IllegalMove,
                    Termination::IllegalMove,
                    article,
                    t,
                );
                applied.claim = Some("correct");
                applied
            }
            IllegalMovePenalty::ExtraTime { ms } => {
                self.illegal_count[offender.index()] += 1;
                if self.illegal_count[offender.index()] >= 2 {
                    let before = p.before;
                    let mut applied = self.lose_unless_unwinnable(
                        offender,
                        &before,
                        Termination::IllegalMove,
                        Termination::IllegalMove,
                        article,
                        t,
                    );
                    applied.claim = Some("correct");
                    applied.note = Some(format!(
                        "second completed illegal move by {offender} (Art. {article}). {}",
                        applied.note.unwrap_or_default()
                    ));
                    return applied;
                }
                let penalty_art = self.rules.penalty_article(self.class, article);
                let mut applied = Applied {
                    claim: Some("correct"),
                    ..Applied::default()
                };
                if let Some(c) = self.clock.as_mut() {
                    c.add_time(!offender, ms);
                    applied.penalty = Some(Penalty {
                        to: !offender,
                        ms,
                        article: penalty_art,
                    });
                }
                self.pos = p.before;
                match p.promotion {
                    Some(q) => {
                        // The move stands, completed with a queen (7.5 a / 7.5.2).
                        let san = self.pos.san(q);
                        let before = self.pos;
                        self.pos.play_unchecked(q);
                        self.history.push(&self.pos, true);
                        self.moves_by[offender.index()] += 1;
                        if self.offer == Some(!offender) {
                            self.offer = None;
                        }
                        self.moves.push(PlayedMove {
                            mv: q,
                            san: san.clone(),
                            by: offender,
                            t,
                        });
                        applied.san = Some(san);
                        applied.note = Some(format!(
                            "first completed illegal move by {offender}: the pawn becomes a queen (Art. {article})"
                        ));
                        self.check_automatic_end(Some((&before, q)), t);
                    }
                    None => {
                        if let Some(c) = self.clock.as_mut() {
                            c.undo_press(offender, t);
                        }
                        applied.note = Some(format!(
                            "first completed illegal move by {offender}: the position before it is restored and {offender} moves again (Art. {article})"
                        ));
                    }
                }
                applied
            }
        }
    }

    // ----- the arbiter -----------------------------------------------------

    fn on_arbiter(
        &mut self,
        decision: Decision,
        player: Option<Color>,
        ms: Option<u64>,
        t: u64,
    ) -> Result<Applied, Rejected> {
        let a = self.rules.articles;
        match decision {
            Decision::Flag => self.on_flag(None, t),
            Decision::IllegalMove => {
                if self.pending_illegal.is_none() {
                    return Err(Rejected::NothingPending("there is no illegal move waiting"));
                }
                Ok(self.act_on_illegal(t))
            }
            Decision::BothLose => {
                self.end(
                    GameResult::BOTH_LOSE,
                    Termination::ArbiterDecision,
                    a.both_lose,
                    t,
                );
                Ok(Applied::default())
            }
            Decision::AddTime => {
                let (Some(player), Some(ms)) = (player, ms) else {
                    return Err(Rejected::Invalid("add_time needs \"player\" and \"ms\""));
                };
                let c = self.clock.as_mut().ok_or(Rejected::NoClock)?;
                c.add_time(player, ms);
                Ok(Applied {
                    penalty: Some(Penalty {
                        to: player,
                        ms,
                        article: "12.2",
                    }),
                    ..Applied::default()
                })
            }
            Decision::Upheld | Decision::Rejected | Decision::Postponed => {
                let Some(q) = self.pending_quickplay else {
                    return Err(Rejected::NothingPending(
                        "there is no quickplay claim or request waiting for a decision",
                    ));
                };
                self.decide_quickplay(q, decision, t)
            }
        }
    }

    /// The arbiter declares the game lost by `player`; the opponent wins
    /// (10.1). Rests on the regulations of the event, 11.7 or 12.9.
    fn on_forfeit(
        &mut self,
        player: Option<Color>,
        ground: Ground,
        reason: &str,
        t: u64,
    ) -> Result<Applied, Rejected> {
        let player = player.ok_or(Rejected::Invalid(
            "a forfeit needs \"player\": \"white\" or \"black\"",
        ))?;
        let article = ground.article(&self.rules);
        self.end(GameResult::win(!player), Termination::Forfeit, article, t);
        Ok(Applied {
            note: Some(ruling_note(
                &format!("{player} forfeits the game"),
                reason,
                article,
            )),
            ..Applied::default()
        })
    }

    /// The arbiter decides the result (regulations of the event, 11.7, 12.9).
    fn on_adjudicate(
        &mut self,
        result: GameResult,
        ground: Ground,
        reason: &str,
        t: u64,
    ) -> Applied {
        let article = ground.article(&self.rules);
        self.end(result, Termination::Adjudication, article, t);
        Applied {
            note: Some(ruling_note(
                &format!("the arbiter adjudicates {result}"),
                reason,
                article,
            )),
            ..Applied::default()
        }
    }

    fn decide_quickplay(
        &mut self,
        q: PendingQuickplay,
        decision: Decision,
        t: u64,
    ) -> Result<Applied, Rejected> {
        let a = self.rules.articles;
        let mut applied = Applied::default();
        let award = |game: &mut Game, applied: &mut Applied, article: &'static str| {
            if let Some(c) = game.clock.as_mut() {
                c.add_time(!q.by, TWO_MINUTES_MS);
            }
            applied.penalty = Some(Penalty {
                to: !q.by,
                ms: TWO_MINUTES_MS,
                article,
            });
        };
        match (q.kind, decision) {
            (ClaimKind::ExtraTime, Decision::Upheld) => {
                // G.4 / III.4: extra five seconds per move for both, two minutes to the opponent.
                self.pending_quickplay = None;
                if self.offer == Some(q.by) {
                    self.offer = None;
                }
                if let Some(c) = self.clock.as_mut() {
                    c.add_increment(5_000);
                }
                award(self, &mut applied, a.quickplay_request);
                applied.claim = Some("upheld");
                applied.note = Some(format!(
                    "five seconds are added before every move of both players from now on (Art. {})",
                    a.quickplay_request
                ));
            }
            (ClaimKind::ExtraTime, Decision::Rejected) => {
                self.pending_quickplay = None;
                applied.claim = Some("rejected");
            }
            (ClaimKind::ExtraTime, _) => {
                return Err(Rejected::Invalid(
                    "a request for extra time is upheld or rejected",
                ));
            }
            (ClaimKind::NormalMeans, Decision::Upheld) => {
                self.pending_quickplay = None;
                self.end(
                    GameResult::DRAW,
                    Termination::ArbiterDecision,
                    a.quickplay_claim,
                    t,
                );
                applied.claim = Some("upheld");
            }
            (ClaimKind::NormalMeans, Decision::Rejected) => {
                self.pending_quickplay = None;
                if !q.awarded {
                    award(self, &mut applied, a.quickplay_claim);
                }
                applied.claim = Some("rejected");
            }
            (ClaimKind::NormalMeans, Decision::Postponed) => {
                self.pending_quickplay = Some(PendingQuickplay { awarded: true, ..q });
                if !q.awarded {
                    award(self, &mut applied, a.quickplay_claim);
                }
                applied.claim = Some("postponed");
            }
            _ => return Err(Rejected::Invalid("not a quickplay decision")),
        }
        Ok(applied)
    }
}

/// A log that does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The start is invalid.
    #[error(transparent)]
    Start(#[from] StartError),
    /// An event is rejected.
    #[error("event {index}: {error}")]
    Event {
        /// 0-based index of the event.
        index: usize,
        /// Why.
        error: Rejected,
    },
}

/// "White forfeits the game: the engine crashed (match rule)".
fn ruling_note(what: &str, reason: &str, article: &str) -> String {
    let cite = if article == crate::edition::MATCH_RULE {
        article.to_owned()
    } else {
        format!("Art. {article}")
    };
    if reason.is_empty() {
        format!("{what} ({cite})")
    } else {
        format!("{what}: {reason} ({cite})")
    }
}

/// Reads `e2e4`, `e7e8`, `e7e8q` (also with a `-` between the squares).
fn parse_coordinates(text: &str) -> Option<(Square, Square, Option<Role>)> {
    let t: String = text.trim().chars().filter(|&c| c != '-').collect();
    if !(4..=5).contains(&t.len()) || !t.is_ascii() {
        return None;
    }
    let from: Square = t[0..2].parse().ok()?;
    let to: Square = t[2..4].parse().ok()?;
    let promo = match t.get(4..5) {
        None => None,
        Some(c) => {
            let r = Role::from_char(c.chars().next()?.to_ascii_lowercase())?;
            if matches!(r, Role::Pawn | Role::King) {
                return None;
            }
            Some(r)
        }
    };
    Some((from, to, promo))
}

/// The position after physically moving the piece on `from` to `to`
/// (capturing what stands there), if that is a legal position with the
/// opponent to move. Used when an illegal move stands (A.4 b).
fn physical_move(
    pos: &Position,
    from: Square,
    to: Square,
    promo: Option<Role>,
) -> Option<Position> {
    let mut setup: Setup = pos.to_setup();
    let piece = setup.board.clear(from)?;
    let captured = setup.board.clear(to);
    let us = piece.color;
    let placed = match (piece.role, promo) {
        (Role::Pawn, Some(r)) => r.of(us),
        (Role::Pawn, None) if to.rank() == Rank::EIGHTH.relative_to(us) => Role::Queen.of(us),
        _ => piece,
    };
    setup.board.set(to, placed);
    let mut rights = setup.castling_rights & !(Bitboard::from(from) | Bitboard::from(to));
    if piece.role == Role::King {
        rights &= !Bitboard::rank(Rank::FIRST.relative_to(us));
    }
    setup.castling_rights = rights;
    setup.ep_square = None;
    setup.halfmoves = if piece.role == Role::Pawn || captured.is_some() {
        0
    } else {
        setup.halfmoves + 1
    };
    if us == Color::Black {
        setup.fullmoves += 1;
    }
    setup.turn = !us;
    let mode: CastlingMode = pos.castling_mode();
    Position::from_setup(setup, mode).ok()
}
