//! Copying a [`Game`]: [`Clone::clone_from`] keeps the buffers of the game
//! it overwrites (its log, its moves, its repetition history), so that a
//! replay of many records from one start (the audit) allocates nothing per
//! record for them.

use super::Game;

impl Clone for Game {
    fn clone(&self) -> Game {
        // Every field named: a new one must be copied here too.
        let Game {
            start,
            rules,
            class,
            initial,
            pos,
            clock,
            history,
            events,
            moves,
            moves_by,
            offer,
            touched,
            illegal_count,
            pending_illegal,
            pending_quickplay,
            outcome,
            last_t,
            dead,
            alive,
            absent,
            excused,
            arrived,
            remarks,
            draw_consent,
            unnoticed,
            annulled,
            promotion_choice,
            sealed,
            session_start,
            write_san,
            keep_events,
            start_unsettled,
        } = self;
        Game {
            start: start.clone(),
            rules: *rules,
            class: *class,
            initial: *initial,
            pos: *pos,
            clock: clock.clone(),
            history: history.clone(),
            events: events.clone(),
            moves: moves.clone(),
            moves_by: *moves_by,
            offer: *offer,
            touched: touched.clone(),
            illegal_count: *illegal_count,
            pending_illegal: pending_illegal.clone(),
            pending_quickplay: *pending_quickplay,
            outcome: outcome.clone(),
            last_t: *last_t,
            dead: dead.clone(),
            alive: *alive,
            absent: *absent,
            excused: *excused,
            arrived: *arrived,
            remarks: remarks.clone(),
            draw_consent: *draw_consent,
            unnoticed: unnoticed.clone(),
            annulled: annulled.clone(),
            promotion_choice: *promotion_choice,
            sealed: sealed.clone(),
            session_start: *session_start,
            write_san: *write_san,
            keep_events: *keep_events,
            start_unsettled: *start_unsettled,
        }
    }

    /// The copy of `source`, in the buffers of `self`.
    ///
    /// ```
    /// use arbiter_laws::{Event, Game, Start};
    /// use arbiter_chess::{Color, Move, Square};
    /// let fresh = Game::new(Start::default())?;
    /// let mut game = fresh.clone();
    /// game.apply(Event::play(0, Color::White, Move::new(Square::E2, Square::E4)))?;
    /// game.clone_from(&fresh);
    /// assert!(game.moves().is_empty() && game.events().is_empty());
    /// assert_eq!(game.position(), fresh.position());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    fn clone_from(&mut self, source: &Game) {
        let Game {
            start,
            rules,
            class,
            initial,
            pos,
            clock,
            history,
            events,
            moves,
            moves_by,
            offer,
            touched,
            illegal_count,
            pending_illegal,
            pending_quickplay,
            outcome,
            last_t,
            dead,
            alive,
            absent,
            excused,
            arrived,
            remarks,
            draw_consent,
            unnoticed,
            annulled,
            promotion_choice,
            sealed,
            session_start,
            write_san,
            keep_events,
            start_unsettled,
        } = self;
        if *start != source.start {
            start.clone_from(&source.start);
        }
        *rules = source.rules;
        *class = source.class;
        *initial = source.initial;
        *pos = source.pos;
        clock.clone_from(&source.clock);
        history.clone_from(&source.history);
        events.clone_from(&source.events);
        moves.clone_from(&source.moves);
        *moves_by = source.moves_by;
        *offer = source.offer;
        touched.clone_from(&source.touched);
        *illegal_count = source.illegal_count;
        pending_illegal.clone_from(&source.pending_illegal);
        *pending_quickplay = source.pending_quickplay;
        outcome.clone_from(&source.outcome);
        *last_t = source.last_t;
        dead.clone_from(&source.dead);
        *alive = source.alive;
        *absent = source.absent;
        *excused = source.excused;
        *arrived = source.arrived;
        remarks.clone_from(&source.remarks);
        *draw_consent = source.draw_consent;
        unnoticed.clone_from(&source.unnoticed);
        annulled.clone_from(&source.annulled);
        *promotion_choice = source.promotion_choice;
        sealed.clone_from(&source.sealed);
        *session_start = source.session_start;
        *write_san = source.write_san;
        *keep_events = source.keep_events;
        *start_unsettled = source.start_unsettled;
    }
}
