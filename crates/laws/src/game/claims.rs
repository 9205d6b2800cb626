//! Draw claims: threefold repetition (9.2) and the 50-move rule (9.3), on
//! the position or on an intended move, and the incorrect claim (9.5); the
//! claim of an illegal move (A.4 b / A.4.2 / A.5.2) is dispatched from here.

use super::{Applied, ClaimVerdict, Game, Penalty, Rejected, DRAW_CLAIMS};
use crate::event::ClaimKind;
use crate::event::IllegalMove;
use crate::outcome::{GameResult, Termination};
use crate::touch::Touched;
use arbiter_chess::{Color, Excerpt, Move};

impl Game {
    /// The draw the player having the move could claim correctly now:
    /// threefold repetition (9.2), else the 50-move rule (9.3), on the
    /// position on the board (`intended` = `None`) or on a move he intends
    /// to make (written first, not played: 9.2 a / 9.2.1, 9.3 a / 9.3.1).
    /// A claim made with an intended move is also correct when the position
    /// on the board already qualifies (9.2 b / 9.2.2, 9.3 b / 9.3.2), the
    /// move then not made, whether or not it is legal. `None` once the game
    /// is over, while an illegal move waits for a claim, or after touching a
    /// piece (9.4). A claim of the kind returned is upheld by [`Game::apply`].
    pub fn claimable(&self, intended: Option<Move>) -> Option<ClaimKind> {
        if self.outcome.is_some() || self.pending_illegal.is_some() || !self.touched.is_empty() {
            return None;
        }
        DRAW_CLAIMS
            .into_iter()
            .find(|&kind| self.claim_ground(kind, intended).is_some())
    }

    /// Whether a claim of threefold repetition or of the 50-move rule, with
    /// the intended move `m` if any, is correct (9.2, 9.3), and on which
    /// ground: `Some(false)` on the position on the board (it qualifies
    /// whatever move was written), `Some(true)` on the legal intended move
    /// only.
    fn claim_ground(&self, kind: ClaimKind, m: Option<Move>) -> Option<bool> {
        let now = match kind {
            ClaimKind::Threefold => self.history.count_current() >= 3,
            _ => self.pos.halfmoves() >= 100,
        };
        if now {
            return Some(false);
        }
        let m = m.filter(|&m| self.pos.is_legal(m))?;
        let on_move = match kind {
            ClaimKind::Threefold => {
                let mut after = self.pos;
                after.play_unchecked(m);
                self.history
                    .count_if_reached(&after, self.pos.is_zeroing(m))
                    >= 3
            }
            _ => !self.pos.is_zeroing(m) && self.pos.halfmoves() + 1 >= 100,
        };
        on_move.then_some(true)
    }

    /// The Article of a draw claim of `kind` (9.2 or 9.3), on an intended
    /// move or not.
    fn draw_claim_article(&self, kind: ClaimKind, intended: bool) -> &'static str {
        let a = self.rules.articles;
        match (kind, intended) {
            (ClaimKind::Threefold, true) => a.threefold_intended,
            (ClaimKind::Threefold, false) => a.threefold_current,
            (_, true) => a.fifty_intended,
            (_, false) => a.fifty_current,
        }
    }

    /// Whether `by` may make a draw claim of `kind` now (before an intended
    /// move is read): on the move (9.2, 9.3), not after touching a piece (9.4).
    pub(crate) fn may_claim_draw(
        &self,
        by: Color,
        kind: ClaimKind,
        intended: bool,
    ) -> Result<(), Rejected> {
        if by != self.turn() || self.pending_illegal.is_some() {
            return Err(Rejected::ClaimNotOnMove {
                article: self.draw_claim_article(kind, intended).into(),
                turn: self.turn(),
            });
        }
        if !self.touched.is_empty() {
            return Err(Rejected::ClaimAfterTouch);
        }
        Ok(())
    }

    pub(super) fn on_claim(
        &mut self,
        by: Color,
        kind: ClaimKind,
        intended: Option<Move>,
        written: Option<&str>,
        t: u64,
    ) -> Result<Applied, Rejected> {
        match kind {
            ClaimKind::Threefold | ClaimKind::Fifty => {
                self.on_draw_claim(by, kind, intended, written, t)
            }
            ClaimKind::IllegalMove => {
                match &self.pending_illegal {
                    Some(p) if p.by == !by => {}
                    _ => return Err(Rejected::NoIllegalMoveToClaim),
                }
                Ok(self.act_on_illegal(t))
            }
            ClaimKind::ExtraTime | ClaimKind::NormalMeans => self.on_quickplay(by, kind, t),
        }
    }

    /// A draw claim; `written`: the intended move as the player wrote it,
    /// if known, to name it by when it cannot be made.
    fn on_draw_claim(
        &mut self,
        by: Color,
        kind: ClaimKind,
        intended: Option<Move>,
        written: Option<&str>,
        t: u64,
    ) -> Result<Applied, Rejected> {
        self.may_claim_draw(by, kind, intended.is_some())?;
        // A claim at the very instant the flag falls is judged on the board,
        // as a move completed at that instant counts (`Clock::press`): the
        // case of a record whose claimant's clock read 0:00:00, the rest of
        // a second cut off, as his turn began.
        if self.clock.as_ref().is_some_and(|c| c.fell_before(by, t)) {
            // The arbiter who stops the clocks to check the claim sees the
            // claimant's flag down (6.8); 6.9's exceptions are 5.1 a–5.2 c,
            // not 9.2 or 9.3: lost on time, or drawn if the opponent cannot
            // checkmate.
            let pos = self.pos;
            let art = self.rules.articles.flag_fall;
            let mut applied = self.lose_unless_unwinnable(
                by,
                &pos,
                Termination::Timeout,
                Termination::TimeoutDraw,
                art,
                t,
            );
            let seen = format!(
                "{by}'s flag has fallen: the arbiter stopping the clocks to check the claim sees it (Art. {}, {art})",
                self.rules.articles.flag_seen
            );
            applied.note = Some(match applied.note {
                Some(n) => format!("{seen}; {n}"),
                None => seen,
            });
            return Ok(applied);
        }
        let a = self.rules.articles;
        let legal = intended.is_none_or(|m| self.pos.is_legal(m));
        if let Some(on_intended) = self.claim_ground(kind, intended) {
            let art = self.draw_claim_article(kind, on_intended);
            let termination = if kind == ClaimKind::Threefold {
                Termination::ThreefoldRepetition
            } else {
                Termination::FiftyMoves
            };
            self.end(GameResult::DRAW, termination, art, t);
            let note = (intended.is_some() && !on_intended).then(|| {
                let what = if kind == ClaimKind::Threefold {
                    "the position on the board has appeared for at least the third time"
                } else {
                    "the last 50 moves by each player were made without a pawn move or a capture"
                };
                format!("{what} (Art. {art}): the claim is correct whatever move was written, and that move is not made")
            });
            return Ok(Applied {
                claim: Some(ClaimVerdict::Correct),
                note,
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
                article: penalty_art.into(),
            });
        }
        self.offer = Some(by);
        let mut applied = Applied {
            claim: Some(ClaimVerdict::Incorrect),
            penalty,
            note: Some(format!(
                "incorrect claim (Art. {}); it stands as a draw offer (Art. {})",
                a.incorrect_claim, a.claim_is_offer
            )),
            ..Applied::default()
        };
        match intended {
            Some(m) if legal => applied.san = Some(self.play(by, m, t)),
            Some(m) => {
                // 9.5 b / 9.5.3: "this move must be made in accordance with
                // Articles 3 and 4" — it cannot be (Art. 3). Read as the
                // Arbiters' Manual does: the piece the written move names
                // counts as touched (4.3 a), so another move with it must be
                // made if it has one; if not, any legal move (4.3, last
                // sentence).
                let note = applied.note.take().unwrap_or_default();
                let named = written_or_squares(m, written);
                let obliged = self.pos.board().color_at(m.from) == Some(by)
                    && self.pos.legal_moves().iter().any(|x| x.from == m.from);
                let tail = if obliged {
                    let mut touched = Touched::new();
                    let _ = touched.touch(&self.pos, m.from);
                    self.touched = touched;
                    format!(
                        "; the intended move {named} cannot be made (Art. {}): another move with the piece on {} must be made (Art. {})",
                        a.moves,
                        m.from,
                        a.touch_own
                    )
                } else {
                    format!(
                        "; the intended move {named} cannot be made (Art. {}) and names no piece that can move: any legal move may be made (Art. {})",
                        a.moves,
                        a.touch_none_movable
                    )
                };
                applied.note = Some(note + &tail);
            }
            None => {}
        }
        Ok(applied)
    }
}

/// An intended move that cannot be made, named as the player wrote it
/// (shortened as [`Excerpt`] quotes a long text) or, without the text, by
/// its squares (`g1e2`).
fn written_or_squares(m: Move, written: Option<&str>) -> String {
    match written.map(str::trim) {
        Some(text) if text.chars().count() <= Excerpt::MAX_CHARS => text.to_owned(),
        Some(text) => Excerpt(text).to_string(),
        None => IllegalMove::new(m.from, m.to).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use crate::outcome::{GameResult, Termination};
    use crate::{ClaimKind, ClaimVerdict, Event, Game, Rejected, Start};
    use arbiter_chess::{Color, Move, Square};

    fn shuffle(g: &mut Game, times: usize) {
        let knights = [
            (Square::G1, Square::F3),
            (Square::G8, Square::F6),
            (Square::F3, Square::G1),
            (Square::F6, Square::G8),
        ];
        for _ in 0..times {
            for (from, to) in knights {
                let by = g.turn();
                g.apply(Event::play(0, by, Move::new(from, to))).unwrap();
            }
        }
    }

    #[test]
    fn threefold_on_the_board_art_9_2() {
        let mut g = Game::new(Start::default()).unwrap();
        shuffle(&mut g, 1);
        assert_eq!(g.claimable(None), None);
        shuffle(&mut g, 1);
        assert_eq!(g.claimable(None), Some(ClaimKind::Threefold));
        let a = g
            .apply(Event::claim_threefold(0, Color::White, None))
            .unwrap();
        assert_eq!(a.claim, Some(ClaimVerdict::Correct));
        assert_eq!(g.outcome().unwrap().article, "9.2 b");
    }

    #[test]
    fn claim_after_the_flag_fell_is_a_flag_fall_art_6_8() {
        use arbiter_pgn::TimeControl;
        let start = || Start {
            time_control: Some(TimeControl::parse("60").unwrap()),
            ..Start::default()
        };
        // All moves at t = 0: White's clock runs from 0 with 60 s.
        let mut g = Game::new(start()).unwrap();
        shuffle(&mut g, 2);
        // At the instant the flag falls: judged on the board (as a move
        // completed at that instant is).
        let a = g
            .apply(Event::claim_threefold(60_000, Color::White, None))
            .unwrap();
        assert_eq!(a.claim, Some(ClaimVerdict::Correct));
        assert_eq!(
            g.outcome().unwrap().termination,
            Termination::ThreefoldRepetition
        );
        // A millisecond later the arbiter sees the flag down (6.8): lost on
        // time (6.9), the repetition unasked.
        let mut g = Game::new(start()).unwrap();
        shuffle(&mut g, 2);
        g.apply(Event::claim_threefold(60_001, Color::White, None))
            .unwrap();
        let o = g.outcome().unwrap();
        assert_eq!(
            (o.termination, o.result),
            (Termination::Timeout, GameResult::win(Color::Black))
        );
    }

    #[test]
    fn incorrect_claim_stands_as_an_offer_art_9_5_b() {
        let mut g = Game::new(Start::default()).unwrap();
        let a = g.apply(Event::claim_fifty(0, Color::White, None)).unwrap();
        assert_eq!(a.claim, Some(ClaimVerdict::Incorrect));
        assert_eq!(g.draw_offer(), Some(Color::White));
    }

    #[test]
    fn claim_on_an_illegal_intended_move_is_incorrect_art_9_5_b() {
        let mut g = Game::new(Start::default()).unwrap();
        let written = Move::new(Square::G1, Square::E2);
        let a = g
            .apply(Event::claim_threefold(0, Color::White, Some(written)))
            .unwrap();
        assert_eq!((a.claim, a.san), (Some(ClaimVerdict::Incorrect), None));
        assert_eq!(g.draw_offer(), Some(Color::White));
        // 4.3 a: another move with the knight on g1.
        let e4 = Move::new(Square::E2, Square::E4);
        assert!(matches!(
            g.apply(Event::play(1, Color::White, e4)),
            Err(Rejected::TouchMove { .. })
        ));
        g.apply(Event::play(
            1,
            Color::White,
            Move::new(Square::G1, Square::H3),
        ))
        .unwrap();
    }

    #[test]
    fn claim_off_move_is_refused_art_9_2() {
        let mut g = Game::new(Start::default()).unwrap();
        let e = g
            .apply(Event::claim_threefold(0, Color::Black, None))
            .unwrap_err();
        assert!(matches!(
            e,
            Rejected::ClaimNotOnMove {
                turn: Color::White,
                ..
            }
        ));
    }
}
