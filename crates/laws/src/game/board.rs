//! Draw offers and agreement (9.1, 5.2 c / 5.2.3), resignation (5.1 b /
//! 5.1.2), flag fall (6.8, 6.9) and touching a piece (4.3).

use super::{Applied, Game, Rejected};
use crate::dead::Verdict;
use crate::outcome::{GameResult, Termination};
use arbiter_chess::{Color, Position, Role, Square};

impl Game {
    pub(super) fn on_offer(&mut self, by: Color, t: u64) -> Result<Applied, Rejected> {
        self.check_draw_regulations("offer_draw")?;
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

    pub(super) fn on_accept(&mut self, by: Color, t: u64) -> Result<Applied, Rejected> {
        if self.offer != Some(!by) {
            return Err(Rejected::NoOffer(!by));
        }
        self.check_draw_regulations("accept_draw")?;
        if self.rules.agreement_needs_a_move_each
            && (self.moves_by[0] == 0 || self.moves_by[1] == 0)
        {
            return Err(Rejected::AgreementTooEarly(
                self.rules.articles.agreement.into(),
            ));
        }
        let art = self.rules.articles.agreement;
        self.end(GameResult::DRAW, Termination::Agreement, art, t);
        Ok(Applied::default())
    }

    pub(super) fn on_decline(&mut self, by: Color) -> Result<Applied, Rejected> {
        if self.offer != Some(!by) {
            return Err(Rejected::NoOffer(!by));
        }
        self.offer = None;
        Ok(Applied::default())
    }

    pub(super) fn on_resign(&mut self, by: Color, t: u64) -> Applied {
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
    pub(crate) fn lose_unless_unwinnable(
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

    /// A flag claim by a player (`Some`), or the arbiter observing a flag
    /// fall (`None`).
    pub(super) fn on_flag(&mut self, by: Option<Color>, t: u64) -> Result<Applied, Rejected> {
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
                (None, None) => return Err(Rejected::NoFlagFallen),
            },
        };
        if let Some(applied) = self.flag_awaits_quickplay_ruling(flagged, t) {
            return Ok(applied);
        }
        Ok(self.flag_decides(flagged, t))
    }

    /// The game lost by `flagged` on time, or drawn if the opponent cannot
    /// checkmate (6.9).
    pub(super) fn flag_decides(&mut self, flagged: Color, t: u64) -> Applied {
        let pos = self.board_after_pending();
        let art = self.rules.articles.flag_fall;
        self.lose_unless_unwinnable(
            flagged,
            &pos,
            Termination::Timeout,
            Termination::TimeoutDraw,
            art,
            t,
        )
    }

    /// Whether `by` may touch a piece now (before the square is read).
    pub(crate) fn may_touch(&self, by: Color) -> Result<(), Rejected> {
        if !self.start.touch_move {
            return Err(Rejected::TouchMoveOff);
        }
        self.require_turn(by)?;
        if let Some(p) = &self.pending_illegal {
            // The opponent may touch a piece on the board as the illegal move
            // left it (and is then held to it, 4.3) — and still claim the
            // illegal move before completing his own (A.4 b / A.4.2 / A.5.2).
            if p.stands.is_none() && p.promotion.is_none() {
                return Err(Rejected::TouchWhileIllegalPending);
            }
        }
        Ok(())
    }

    /// The promotion piece has touched the square: the choice is final
    /// (4.4 d / 4.4.4); the pawn that can promote there counts as touched.
    pub(super) fn on_touch_promotion_piece(
        &mut self,
        by: Color,
        sq: Square,
        piece: Role,
    ) -> Result<Applied, Rejected> {
        self.may_touch(by)?;
        let art = self.rules.articles.promotion_choice;
        let board = self.board_after_pending();
        let promotions: Vec<_> = board
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| m.to == sq && m.promotion.is_some())
            .collect();
        if promotions.is_empty() || matches!(piece, Role::Pawn | Role::King) {
            return Err(Rejected::Refused {
                event: "touch",
                article: art.into(),
                reason: format!("no pawn of {by} can promote to a {} on {sq}", piece.name()),
            });
        }
        if let Some((s, r)) = self.promotion_choice {
            if s == sq && r != piece {
                return Err(Rejected::Refused {
                    event: "touch",
                    article: art.into(),
                    reason: format!(
                        "the {} has touched {sq}: the choice of piece is final",
                        r.name()
                    ),
                });
            }
        }
        let mut touched = self.touched.clone();
        for m in &promotions {
            if !touched.squares().contains(&m.from) && promotions.iter().all(|x| x.from == m.from) {
                touched.touch(&board, m.from)?;
            }
        }
        self.touched = touched;
        self.promotion_choice = Some((sq, piece));
        Ok(Applied {
            note: Some(format!(
                "the {} has touched {sq}: the choice of piece is final (Art. {art})",
                piece.name()
            )),
            ..Applied::default()
        })
    }

    pub(super) fn on_touch(&mut self, by: Color, sq: Square) -> Result<Applied, Rejected> {
        self.may_touch(by)?;
        let mut touched = self.touched.clone();
        touched.touch(&self.board_after_pending(), sq)?;
        self.touched = touched;
        let note = self.offer_declined_by_touch(by).then(|| {
            format!(
                "touching a piece declines {}'s draw offer (Art. {})",
                !by, self.rules.articles.draw_offer
            )
        });
        Ok(Applied {
            note,
            ..Applied::default()
        })
    }

    /// `by` touches a piece with the intention of moving or capturing it —
    /// alone, or by making a move, legal or illegal: the opponent's draw
    /// offer, if one stands, lapses (9.1 b / 9.1.2.1: it "remains valid
    /// until the opponent accepts it, rejects it orally, rejects it by
    /// touching a piece with the intention of moving or capturing it").
    /// Whether an offer lapsed.
    pub(super) fn offer_declined_by_touch(&mut self, by: Color) -> bool {
        let lapsed = self.offer == Some(!by);
        if lapsed {
            self.offer = None;
        }
        lapsed
    }
}

#[cfg(test)]
mod tests {
    use crate::{Edition, Event, Game, Rejected, Start, Termination};
    use arbiter_chess::{Color, Square};

    #[test]
    fn agreement_needs_a_move_each_from_2018_art_5_2_3() {
        let start = Start {
            edition: Edition::Fide2018,
            ..Start::default()
        };
        let mut g = Game::new(start).unwrap();
        g.apply(Event::offer_draw(0, Color::White)).unwrap();
        let e = g.apply(Event::accept_draw(0, Color::Black)).unwrap_err();
        assert!(matches!(e, Rejected::AgreementTooEarly(a) if a == "5.2.3"));
    }

    #[test]
    fn touching_needs_touch_move_on_art_4_3() {
        let mut g = Game::new(Start::default()).unwrap();
        let e = g
            .apply(Event::touch(0, Color::White, Square::E2))
            .unwrap_err();
        assert_eq!(e, Rejected::TouchMoveOff);
    }

    #[test]
    fn resignation_ends_the_game_art_5_1_b() {
        let mut g = Game::new(Start::default()).unwrap();
        g.apply(Event::resign(5, Color::White)).unwrap();
        let o = g.outcome().unwrap();
        assert_eq!(
            (o.termination, o.result.to_string()),
            (Termination::Resignation, "0-1".to_owned())
        );
    }
}
