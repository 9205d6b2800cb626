//! The one place the audit drives [`Game`]: a record's start and moves
//! become a [`Start`] and [`Event`]s; its end off the board (a flag, a
//! resignation, an agreement, a claim, an organiser's forfeit) becomes the
//! event the Laws judge. Everything else in the audit sees only
//! [`LawsEnd`] and plain values, so that a change of the `Game` API
//! touches this file alone.

use super::transcript::{Transcript, STANDARD};
use super::LawsEnd;
use crate::dead::Verdict;
use crate::edition::{Edition, Rules};
use crate::event::{ClaimKind, Event, Ground, Start};
use crate::outcome::Termination;
use crate::{Game, StartError};
use arbiter_chess::{Color, Position};
use std::cell::RefCell;
use std::collections::VecDeque;

/// A record replayed through the Laws.
pub(crate) struct Replay {
    /// (Boxed: a game is a large value, moved in and out of [`KEPT`].)
    game: Box<Game>,
}

/// How the record's line is played: the same verdicts either way.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    /// In one pass ([`Game::play_line`]): each position made once, the
    /// dead-position test settled from the line's end.
    Once,
    /// Each move applied as an event ([`Game::apply`]), the dead-position
    /// test after each (positions read ahead): the reference.
    MoveByMove,
}

/// How replaying the record's moves went.
pub(crate) enum Played {
    /// Every move was played; the Laws ended the game at this ply (if at all).
    All(Option<u32>),
    /// The Laws refused the move at this ply, for this reason.
    Refused(u32, String),
}

/// How many new games (of different starts) a thread keeps to copy.
const FRESH_KEPT: usize = 32;

/// The games kept on a thread from one record to the next.
#[derive(Default)]
struct Kept {
    /// New games of the last starts met, the latest last: the records of a
    /// file share a few starts (the initial position, a few time controls,
    /// one edition), and a copy of a new game is cheaper than making one.
    fresh: VecDeque<Game>,
    /// The last record's game, done with: the next copy goes into its
    /// buffers.
    spare: Option<Box<Game>>,
}

thread_local! {
    static KEPT: RefCell<Kept> = RefCell::new(Kept::default());
}

/// A new game from `start`.
fn new_game(start: &Start) -> Result<Box<Game>, StartError> {
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        let kept = &mut *kept;
        let i = match kept.fresh.iter().rposition(|g| g.start() == start) {
            Some(i) => i,
            None => {
                if kept.fresh.len() == FRESH_KEPT {
                    kept.fresh.pop_front();
                }
                // The start's dead-position test is left to the line
                // ([`Game::new_start_unsettled`]).
                kept.fresh
                    .push_back(Game::new_start_unsettled(start.clone())?);
                kept.fresh.len() - 1
            }
        };
        let fresh = &kept.fresh[i];
        Ok(match kept.spare.take() {
            Some(mut game) => {
                Game::clone_from(&mut game, fresh);
                game
            }
            None => Box::new(fresh.clone()),
        })
    })
}

impl Replay {
    /// A game from the record's start position and `TimeControl` tag (no
    /// clock if the tag is absent, unreadable or cannot run a clock).
    pub(crate) fn new(record: &Transcript, edition: Edition) -> Result<Replay, String> {
        let fen = (record.start != *STANDARD).then(|| record.start.fen());
        let mut start = Start {
            fen,
            edition,
            time_control: record.time_control().and_then(Result::ok),
            ..Start::default()
        };
        let game = match new_game(&start) {
            Ok(g) => g,
            Err(_) if start.time_control.is_some() => {
                start.time_control = None;
                new_game(&start).map_err(|e| e.to_string())?
            }
            Err(e) => return Err(e.to_string()),
        };
        Ok(Replay { game })
    }

    /// Done with the record: its game's buffers serve the next one.
    pub(crate) fn recycle(self) {
        let game = self.game;
        // (A thread being torn down keeps nothing.)
        let _ = KEPT.try_with(|kept| {
            if let Ok(mut kept) = kept.try_borrow_mut() {
                kept.spare = Some(game);
            }
        });
    }

    /// The rules of the edition in force.
    pub(crate) fn rules(&self) -> &Rules {
        self.game.rules()
    }

    /// The time control the game runs under, if it has a clock.
    pub(crate) fn time_control(&self) -> Option<&arbiter_pgn::TimeControl> {
        self.game.clock().and(self.game.time_control())
    }

    /// The player having the move.
    pub(crate) fn turn(&self) -> Color {
        self.game.turn()
    }

    /// The position on the board.
    pub(crate) fn position(&self) -> &Position {
        self.game.position()
    }

    /// The SAN of the move at `ply` (1-based) as the Laws played it: as
    /// the game wrote it, or (the one-pass replay writes none) from the
    /// record's positions, as the game would have written it.
    pub(crate) fn san_at(&self, record: &Transcript, ply: u32) -> Option<String> {
        let i = usize::try_from(ply).ok()?.checked_sub(1)?;
        let played = self.game.moves().get(i)?;
        if !played.san.is_empty() {
            return Some(played.san.clone());
        }
        let before = record.position_after(i)?;
        let after = record.position_after(i + 1)?;
        let mate = i + 1 == self.game.moves().len()
            && self
                .game
                .outcome()
                .is_some_and(|o| o.termination == Termination::Checkmate);
        Some(crate::game::written_san(
            before,
            played.mv,
            after.is_check(),
            mate,
        ))
    }

    /// How the Laws ended the game, if they did.
    pub(crate) fn end(&self) -> Option<LawsEnd> {
        self.game.outcome().map(|o| LawsEnd {
            result: o.result,
            termination: o.termination,
            article: o.article.as_str(),
        })
    }

    /// Plays the record's main line, each move completed at its time in
    /// `times`, reading the record ahead (its own later moves prove
    /// positions alive, as `arbiter judge FILE` does). Stops where the Laws
    /// end the game. `winner` is the player the record scores as the
    /// winner: the dead-position analysis asks about him first (the cost
    /// only, never the verdict). [`Pass::Once`] plays the line in one pass
    /// ([`Game::play_line`]); [`Pass::MoveByMove`] applies each move as an
    /// event, the dead-position test after each — the same verdicts.
    pub(crate) fn play(
        &mut self,
        record: &Transcript,
        times: &[u64],
        winner: Option<Color>,
        pass: Pass,
    ) -> Played {
        if pass == Pass::MoveByMove {
            // The reference: the start tested before anything, as
            // `Game::new` does.
            self.game.settle_start();
        }
        if self.game.is_over() {
            return Played::All(Some(0));
        }
        self.game.prefer_winner(winner);
        let line = &record.moves[..];
        if pass == Pass::Once {
            // The record's SAN is not written again (a finding names its
            // move from the record), and its positions, made by the reader
            // from this start, are not made again.
            self.game.write_san(false);
            self.game.keep_events(false);
            let played = if self.game.position() == &record.start {
                self.game.play_known_line(line, &record.after, times)
            } else {
                self.game.play_line(line, times)
            };
            let ply = played.plies as u32;
            return match played.refused {
                Some(error) => Played::Refused(ply + 1, error.to_string()),
                None if self.game.is_over() => Played::All(Some(ply)),
                None => Played::All(None),
            };
        }
        self.game.write_san(true);
        self.game.keep_events(true);
        self.game.read_ahead_line(line.iter().copied());
        let mut last_t = 0;
        let times = times.iter().copied().chain(std::iter::repeat(0));
        for (i, (&m, t)) in line.iter().zip(times).enumerate() {
            let ply = i as u32 + 1;
            last_t = t.max(last_t);
            let by = self.game.turn();
            if let Err(error) = self.game.apply(Event::play(last_t, by, m)) {
                return Played::Refused(ply, error.to_string());
            }
            if self.game.is_over() {
                return Played::All(Some(ply));
            }
        }
        Played::All(None)
    }

    fn now(&self) -> u64 {
        self.game.last_time()
    }

    /// `loser`'s flag fell after the last move (6.9): a loss, or a draw if
    /// the opponent cannot checkmate by any series of legal moves. Also
    /// whose flag the Laws found down: `loser`'s, or the claimant's own if
    /// the record's clocks show it fell first.
    pub(crate) fn flag(&mut self, loser: Color) -> (LawsEnd, Color) {
        let now = self.now();
        let at = self
            .game
            .clock()
            .filter(|c| c.running() == Some(loser))
            .and_then(|c| c.next_flag_time())
            .map_or(now, |t| t.max(now));
        if self.game.apply(Event::flag(at, !loser)).is_ok() {
            if let Some(end) = self.end() {
                let own = self.game.clock().and_then(|c| c.flag_fell_at(!loser, at));
                let theirs = self.game.clock().and_then(|c| c.flag_fell_at(loser, at));
                let flagged = match (own, theirs) {
                    (Some(o), Some(t)) if o < t => !loser,
                    (Some(_), None) => !loser,
                    _ => loser,
                };
                return (end, flagged);
            }
        }
        // No clock to run down (no or an untimed TimeControl tag), or the
        // record's times do not show the flag: 6.9 on the position alone.
        let article = self.game.rules().articles.flag_fall;
        let end = self.lose_unless_unwinnable(
            loser,
            Termination::Timeout,
            Termination::TimeoutDraw,
            article,
        );
        (end, loser)
    }

    /// `loser` loses at the time of the last move, or the game is drawn if
    /// the opponent cannot checkmate by any series of legal moves
    /// ([`Game::lose_unless_unwinnable`], as the Laws end a flag fall or a
    /// loss by illegal moves), with no event of the record to apply.
    fn lose_unless_unwinnable(
        &mut self,
        loser: Color,
        loss: Termination,
        draw: Termination,
        article: &'static str,
    ) -> LawsEnd {
        let (pos, t) = (*self.game.position(), self.now());
        self.game
            .lose_unless_unwinnable(loser, &pos, loss, draw, article, t);
        self.end().expect("lose_unless_unwinnable ends the game")
    }

    /// A player still playing, when the record ends, in a period with a
    /// move count (not the last period, in which all remaining moves must
    /// be completed: 2014 6.11, Guidelines III.3.1): that player and the
    /// moves he had still to complete in it. `None` without a clock.
    pub(crate) fn before_last_period(&self) -> Option<(Color, u32)> {
        let clock = self.game.clock()?;
        Color::ALL
            .into_iter()
            .find_map(|c| clock.moves_to_go(c).map(|n| (c, n)))
    }

    /// Can `color` checkmate from the position on the board by any series of
    /// legal moves?
    pub(crate) fn can_checkmate(&mut self, color: Color) -> Verdict {
        self.game.can_checkmate(color)
    }

    /// `loser` resigns (5.1 b / 5.1.2).
    pub(crate) fn resign(&mut self, loser: Color) -> Option<LawsEnd> {
        let t = self.now();
        let _ = self.game.apply(Event::resign(t, loser));
        self.end()
    }

    /// `loser` lost for a completed illegal move the record does not hold
    /// (7.5 b / 7.5.5): a loss, or a draw if the opponent cannot checkmate
    /// by any series of legal moves. Judged on the final position, as 6.9
    /// judges a flag fall without a clock ([`Replay::flag`]).
    pub(crate) fn illegal_move(&mut self, loser: Color) -> LawsEnd {
        let article = self.game.rules().articles.illegal_move;
        self.lose_unless_unwinnable(
            loser,
            Termination::IllegalMove,
            Termination::IllegalMove,
            article,
        )
    }

    /// The organiser declares the game lost by `loser` (an abandoned game,
    /// an infraction of the event's rules).
    pub(crate) fn forfeit(&mut self, loser: Color, reason: &str) -> Option<LawsEnd> {
        let t = self.now();
        let _ = self
            .game
            .apply(Event::forfeit(t, loser, Ground::MatchRule, reason));
        self.end()
    }

    /// The players agree a draw (5.2 c / 5.2.3); `None` if the edition
    /// forbids it here (2018+: before both players have moved).
    pub(crate) fn agree(&mut self) -> Option<LawsEnd> {
        let t = self.now();
        let offerer = !self.game.turn();
        let _ = self.game.apply(Event::offer_draw(t, offerer));
        let _ = self.game.apply(Event::accept_draw(t, !offerer));
        self.end()
    }

    /// A claim of `kind` (threefold repetition or the 50-move rule) by the
    /// player having the move, on the position or on some legal move he
    /// could have written as intended; the game ends if one is correct.
    pub(crate) fn claim(&mut self, kind: ClaimKind) -> Option<LawsEnd> {
        let t = self.now();
        let turn = self.game.turn();
        let intended = std::iter::once(None).chain(self.game.legal_moves().into_iter().map(Some));
        for mv in intended {
            let mut trial = self.game.clone();
            let upheld = trial.apply(Event::claim(t, turn, kind, mv)).is_ok()
                && matches!(
                    trial.outcome().map(|o| o.termination),
                    Some(Termination::ThreefoldRepetition | Termination::FiftyMoves)
                );
            if upheld {
                self.game = trial;
                return self.end();
            }
        }
        None
    }
}
