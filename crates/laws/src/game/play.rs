//! Moves (1.1, 3, 4.3 obligations, an unclaimed illegal move standing) and
//! the automatic ends after each: checkmate (5.1 a / 5.1.1), stalemate
//! (5.2 a / 5.2.1), dead position (5.2 b / 5.2.2), fivefold repetition and
//! the 75-move rule (9.6).

use super::{Applied, Game, PlayedMove, Rejected};
use crate::dead::{count_moves_capped, Reason};
use crate::outcome::{GameResult, Termination};
use crate::touch::Obligation;
use arbiter_chess::{Color, Move, Position};

/// What is known of a position before its automatic ends are checked
/// (from the moves of a record read ahead: [`Game::play_line`]).
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Known {
    /// A legal move follows (the record's next one): neither checkmate nor
    /// stalemate.
    pub(super) has_move: bool,
    /// Proven alive (5.2 b / 5.2.2): a position reached from it is.
    pub(super) alive: bool,
}

impl Known {
    /// Nothing known: every check is made.
    pub(super) const NOTHING: Known = Known {
        has_move: false,
        alive: false,
    };
}

impl Game {
    /// The position a move of `by` is played on, once `by` may move: the
    /// board as the opponent's unclaimed illegal move left it, if any.
    pub(crate) fn move_board(&self, by: Color) -> Result<Position, Rejected> {
        self.require_turn(by)?;
        if let Some(p) = &self.pending_illegal {
            if p.stands.is_none() && p.promotion.is_none() {
                return Err(Rejected::IllegalMoveCannotStand);
            }
        }
        Ok(self.board_after_pending())
    }

    pub(super) fn board_after_pending(&self) -> Position {
        match &self.pending_illegal {
            Some(p) => p.stands.unwrap_or(self.pos),
            None => self.pos,
        }
    }

    fn check_obligation(&self, m: Move, board: &Position) -> Result<(), Rejected> {
        if let Obligation::OneOf(allowed, article) = self.obligation() {
            if !allowed.contains(&m) {
                return Err(Rejected::TouchMove {
                    article: article.into(),
                    allowed: allowed.iter().map(|x| board.san(*x)).collect(),
                });
            }
        }
        Ok(())
    }

    pub(super) fn on_move(&mut self, by: Color, m: Move, t: u64) -> Result<Applied, Rejected> {
        let board = self.move_board(by)?;
        if !board.is_legal(m) || board.captures_king(m) {
            return Err(Rejected::NotLegal { mv: m });
        }
        self.check_obligation(m, &board)?;
        if let Some((sq, piece)) = self.promotion_choice {
            if m.to == sq && m.promotion.is_some() && m.promotion != Some(piece) {
                return Err(Rejected::Refused {
                    event: "move",
                    article: self.rules.articles.promotion_choice.into(),
                    reason: format!(
                        "the {} has touched {sq}: the pawn must become a {}",
                        piece.name(),
                        piece.name()
                    ),
                });
            }
        }
        // The opponent's illegal move was not claimed: it stands (A.4 b).
        let mut note = None;
        if let Some(p) = self.pending_illegal.take() {
            if let Some(sq) = p.pawn_left_on.filter(|&sq| m.to != sq) {
                // A.4 d / A.4.4 / A.5.4: the pawn still on the last rank after
                // the next move: the illegal position is on the board.
                let art = self.rules.articles.illegal_position;
                if let Some(c) = self.clock.as_mut() {
                    c.press(by, t);
                }
                let san = board.san(m);
                self.end(GameResult::DRAW, Termination::ArbiterDecision, art, t);
                return Ok(Applied {
                    san: Some(san),
                    note: Some(format!(
                        "{}'s pawn is still unreplaced on {sq} after the next move: an illegal position on the board, drawn (Art. {art})",
                        p.by
                    )),
                    ..Applied::default()
                });
            }
            // The positions before it still count for 9.2 and 9.6: it
            // clears them only if it took a piece (material never comes
            // back). A pawn moved illegally may have gone backwards, so a
            // pawn move does not clear them here.
            let took = board.board().occupied().count() < self.pos.board().occupied().count();
            self.pos = board;
            self.history.push(&self.pos, took);
            self.alive = false;
            let mut text = format!(
                "{}'s illegal move stands: not claimed before the opponent's next move (Art. {})",
                p.by,
                self.rules
                    .illegal_move_article(self.class, self.start.supervised)
            );
            if p.both_in_check {
                // The reply met its own check: the position is legal again.
                text += &format!(
                    ". Both kings were in check; after {by}'s move no illegal position is on the board, and the game goes on (Art. {})",
                    self.rules.articles.illegal_position
                );
            }
            note = Some(text);
        }
        let san = self.play(by, m, t);
        Ok(Applied {
            san: Some(san),
            note,
            ..Applied::default()
        })
    }

    /// Plays a legal move of `by` completed at `t`, then checks the
    /// automatic ends (5.1 a, 5.2 a, 5.2 b, 9.6).
    pub(super) fn play(&mut self, by: Color, m: Move, t: u64) -> String {
        let mut after = self.pos;
        after.play_unchecked(m);
        self.play_to(by, m, t, &after, Known::NOTHING);
        self.moves.last().map(|p| p.san.clone()).unwrap_or_default()
    }

    /// [`Game::play`] with the position after the move already made
    /// (`after`, the position on the board with `m` played) and what is
    /// already known of it; the move is recorded in [`Game::moves`].
    pub(super) fn play_to(&mut self, by: Color, m: Move, t: u64, after: &Position, known: Known) {
        let before = self.pos;
        let irreversible = before.is_zeroing(m);
        if let Some(c) = self.clock.as_mut() {
            c.press(by, t);
        }
        self.pos = *after;
        self.history.push(&self.pos, irreversible);
        self.moves_by[by.index()] += 1;
        self.touched.clear();
        self.promotion_choice = None;
        // 9.1 b / 9.1.2.1: the offer lapses when the opponent moves.
        self.offer_declined_by_touch(by);
        self.check_automatic_end_known(Some((&before, m)), t, known);
        let san = self.san_to_write(m, || {
            // The check or mate mark, from what the end check has found.
            let mate = self
                .outcome
                .as_ref()
                .is_some_and(|o| o.termination == Termination::Checkmate);
            (&before, self.pos.is_check(), mate)
        });
        self.moves.push(PlayedMove { mv: m, san, by, t });
    }

    /// The SAN recorded for `m` ([`Game::moves`]) when the game writes it
    /// ([`Game::write_san`]), else empty: `at()` gives the position it was
    /// played on, whether it gives check and whether it mates (asked only
    /// then).
    pub(super) fn san_to_write<'p>(
        &self,
        m: Move,
        at: impl FnOnce() -> (&'p Position, bool, bool),
    ) -> String {
        if self.write_san {
            let (before, check, mate) = at();
            written_san(before, m, check, mate)
        } else {
            String::new()
        }
    }

    pub(super) fn check_automatic_end(&mut self, from: Option<(&Position, Move)>, t: u64) {
        self.check_automatic_end_known(from, t, Known::NOTHING);
    }

    /// [`Game::check_automatic_end`], skipping what `known` already settles.
    pub(super) fn check_automatic_end_known(
        &mut self,
        from: Option<(&Position, Move)>,
        t: u64,
        known: Known,
    ) {
        let pos = &self.pos;
        if !known.has_move && count_moves_capped(pos, 2) == 0 {
            if pos.is_check() {
                self.end(
                    GameResult::win(!pos.turn()),
                    Termination::Checkmate,
                    self.rules.articles.checkmate,
                    t,
                );
            } else {
                self.end(
                    GameResult::DRAW,
                    Termination::Stalemate,
                    self.rules.articles.stalemate,
                    t,
                );
            }
            return;
        }
        let from_live = if self.alive { from } else { None };
        let (dead, reason) = if known.alive {
            (false, Reason::Continuation)
        } else {
            self.dead.is_dead(&self.pos, from_live)
        };
        if dead {
            self.end(
                GameResult::DRAW,
                Termination::DeadPosition,
                self.rules.articles.dead_position,
                t,
            );
            return;
        }
        self.alive = !matches!(reason, Reason::Undecided);
        if self.pos.halfmoves() >= 150 {
            self.end(
                GameResult::DRAW,
                Termination::SeventyfiveMoves,
                self.rules.articles.seventyfive,
                t,
            );
            return;
        }
        if self.history.is_fivefold(self.rules.fivefold) {
            self.end(
                GameResult::DRAW,
                Termination::FivefoldRepetition,
                self.rules.articles.fivefold,
                t,
            );
        }
    }
}

/// The SAN of `m` played on `before`, as a game's record writes it: with
/// `+` when it gives check, `#` when it ended the game by checkmate
/// (Appendix C).
pub(crate) fn written_san(before: &Position, m: Move, check: bool, mate: bool) -> String {
    // The SAN's bytes on the stack (at most 8, and the mark), made into one
    // string of its length at the end: no formatter, no growth.
    let mut san = [0u8; 9];
    let mut len = arbiter_chess::San::from_move(before, m).write_bytes(&mut san);
    if check {
        san[len] = if mate { b'#' } else { b'+' };
        len += 1;
    }
    // SAN is ASCII (piece letters, files, ranks, `x`, `=`, `O-O`, marks).
    String::from_utf8_lossy(&san[..len]).into_owned()
}

#[cfg(test)]
mod tests {
    use crate::{Event, Game, Rejected, Start, Termination};
    use arbiter_chess::{Color, Move, Square};

    #[test]
    fn a_move_not_legal_is_refused_and_changes_nothing() {
        let mut g = Game::new(Start::default()).unwrap();
        let bad = Move::new(Square::E2, Square::E5);
        let e = g.apply(Event::play(0, Color::White, bad)).unwrap_err();
        assert_eq!(e, Rejected::NotLegal { mv: bad });
        assert!(g.events().is_empty() && g.moves().is_empty());
    }

    #[test]
    fn fools_mate_ends_the_game_art_5_1_a() {
        let mut g = Game::new(Start::default()).unwrap();
        for (from, to) in [
            (Square::F2, Square::F3),
            (Square::E7, Square::E5),
            (Square::G2, Square::G4),
            (Square::D8, Square::H4),
        ] {
            let by = g.turn();
            g.apply(Event::play(0, by, Move::new(from, to))).unwrap();
        }
        assert_eq!(g.moves()[3].san, "Qh4#");
        assert_eq!(g.outcome().unwrap().termination, Termination::Checkmate);
    }
}
