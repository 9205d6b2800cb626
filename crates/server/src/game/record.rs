//! An accepted action becoming numbered, stored events: the Laws event is
//! applied to the board, what it did is turned into wire events (a move, an
//! offer, a rejected claim, the end), they are appended to the log, and the
//! writes that make them durable are gathered into [`Effects`].

use super::core::{Effects, GameCore, LogEntry};
use super::table::Refusal;
use crate::protocol::{Color, Event, Status};
use crate::store::{EventRow, WriteOp};

/// What the wire events of an action are made from.
#[derive(Clone, Debug)]
pub(super) enum Wire {
    Move,
    Offer {
        by: Color,
    },
    Accept,
    Decline {
        by: Color,
    },
    Resign,
    Touch {
        by: Color,
        square: String,
    },
    Claim {
        by: Color,
        claim: crate::protocol::WireClaim,
        uci: Option<String>,
    },
    Flag,
}

impl GameCore {
    /// Numbers `events` (the first carrying `laws`), appends them to the log
    /// and returns them with their writes.
    pub(super) fn record(
        &mut self,
        now: u64,
        laws: Option<arbiter_laws::json::Event>,
        events: Vec<Event>,
        mut writes: Vec<WriteOp>,
    ) -> Effects {
        let first_seq = self.seq() + 1;
        let mut laws = laws;
        for event in &events {
            let entry = LogEntry {
                at: now,
                laws: laws.take(),
                event: event.clone(),
            };
            writes.push(WriteOp::AppendEvent(EventRow {
                game_id: self.id.clone(),
                seq: self.seq() + 1,
                body: serde_json::to_string(&entry).unwrap_or_default(),
            }));
            self.log.push(entry);
        }
        if self.table.is_over() {
            self.status = Status::Finished;
        }
        self.updated_at = now;
        // The row is rewritten only when what it summarises beyond the log
        // changes: the players and status (a join), the result (the end).
        // Its `ply` and `updated_at` follow the log lazily (the running
        // game's task reports them live, see `GameHandle::summary`; a
        // resumed game's row is rewritten at start), which spares every
        // move a random page of the games table. The settings never change.
        if events.iter().any(|e| {
            matches!(
                e,
                Event::Join { .. } | Event::End { .. } | Event::Aborted { .. }
            )
        }) {
            writes.push(WriteOp::UpdateGame(self.row_without_settings()));
        }
        // A rated game's end moves both ratings in the same transaction as
        // its result (issue 15).
        // An event's game: its board's result in the same transaction
        // (a forfeit is not rated, B.02 5.1; issue 15).
        let event_result = self.event_result(&events);
        if let Some(result) = &event_result {
            writes.push(WriteOp::Tournament(
                crate::store::tournament::Op::GameEnded {
                    game_id: self.id.clone(),
                    result: result.clone(),
                },
            ));
        }
        let forfeit = event_result.is_some_and(|r| matches!(r.as_str(), "+-" | "-+" | "--"));
        // Rated only once both players have made a move (B.02 5.1): a
        // resignation or a flag before that stands but moves no rating.
        let records = self.table.records();
        let both_moved = [Color::White, Color::Black]
            .iter()
            .all(|&c| records.iter().any(|r| r.color == c));
        if self.settings.rated
            && !forfeit
            && both_moved
            && events.iter().any(|e| matches!(e, Event::End { .. }))
        {
            writes.push(WriteOp::RateGame {
                game_id: self.id.clone(),
                result: self.table.result(),
                time_class: self.time_class().as_str().to_owned(),
                at: now,
            });
        }
        Effects::new(first_seq, events, writes)
    }

    /// Aborts the game if no move has been made and it is not finished
    /// (issue 13, defect 6): status finished, result `*`, an `aborted`
    /// event in the log.
    pub fn abort_unstarted(&mut self, now: u64) -> Option<Effects> {
        if self.status == Status::Finished || !self.table.records().is_empty() {
            return None;
        }
        self.status = Status::Finished;
        Some(self.record(now, None, vec![Event::Aborted { by: None }], Vec::new()))
    }

    /// `by` aborts the game (§4.2 `abort`, as on Lichess): allowed while
    /// the game is not finished and `by` has made no move yet (in a game at
    /// one screen, before the first move). Recorded like the time-out abort
    /// of [`GameCore::abort_unstarted`]: no result, no Article.
    pub fn abort_by(&mut self, by: Color, both_seats: bool, now: u64) -> Result<Effects, Refusal> {
        if self.status == Status::Finished || self.table.is_over() {
            return Err(Refusal::new("game_not_active", "the game is over"));
        }
        let moved = self
            .table
            .records()
            .iter()
            .any(|r| both_seats || r.color == by);
        if moved {
            return Err(Refusal::new(
                "game_started",
                "a game can be aborted only before your first move; resign instead",
            ));
        }
        self.status = Status::Finished;
        Ok(self.record(now, None, vec![Event::Aborted { by: Some(by) }], Vec::new()))
    }

    /// The end event if the game has just ended.
    pub(super) fn end_event(&self, intended: Option<String>) -> Option<Event> {
        let t = self.table.termination()?;
        Some(Event::End {
            result: self.table.result(),
            termination: t,
            intended_move: intended,
        })
    }

    /// Applies a Laws event and turns what it did into wire events.
    pub(super) fn apply_laws(
        &mut self,
        now: u64,
        ev: arbiter_laws::Event,
        wire: Wire,
    ) -> Result<Effects, Refusal> {
        let moves_before = self.table.records().len();
        let was_over = self.table.is_over();
        let article = self.table.laws().rules().articles.incorrect_claim;
        let logged = arbiter_laws::json::Event::from_event(&ev, self.table.laws());
        let applied = self.table.apply(ev)?;
        let over = self.table.is_over();
        let mut events = Vec::new();
        let mut intended = None;
        match wire {
            Wire::Offer { by } if !over => events.push(Event::DrawOffer { by }),
            Wire::Decline { by } => events.push(Event::DrawDeclined { by }),
            Wire::Touch { by, square } => events.push(Event::Touch { color: by, square }),
            Wire::Claim { by, claim, uci } => match applied.claim {
                Some(arbiter_laws::ClaimVerdict::Correct) => intended = uci,
                _ => events.push(Event::ClaimRejected {
                    by,
                    claim: claim.as_str().to_owned(),
                    mv: uci,
                    penalty_ms: applied.penalty.map_or(0, |p| p.ms),
                    article: article.to_owned(),
                }),
            },
            _ => {}
        }
        for r in &self.table.records()[moves_before..] {
            events.push(Event::Move { record: r.clone() });
        }
        if !was_over && over {
            if let Some(end) = self.end_event(intended) {
                events.push(end);
            }
        }
        Ok(self.record(now, Some(logged), events, Vec::new()))
    }

    /// The game time of a move by `by` received at `t_now`, back-dated by
    /// the lag credited from the player's quota (never before the last
    /// event). `commit`: spend the quota.
    pub(super) fn credited_time(&mut self, by: Color, t_now: u64, commit: bool) -> u64 {
        let q = &mut self.quota[by.index()];
        let credit = if commit { q.credit_move() } else { q.peek() };
        t_now.saturating_sub(credit).max(self.table.last_t())
    }
}
