//! Quickplay finishes (2014 Appendix G, 2018/2023 Guidelines III): the
//! request for extra time (G.4 / III.4) and the claim that the opponent
//! cannot win by normal means (G.5 / III.5), and the arbiter's decisions.

use super::{Applied, ClaimVerdict, Game, Penalty, QuickplayBar, Rejected};
use crate::edition::TWO_MINUTES_MS;
use crate::event::{Action, ClaimKind, Decision};
use crate::outcome::{GameResult, Termination};
use crate::TimeClass;
use arbiter_chess::Color;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct PendingQuickplay {
    pub(super) by: Color,
    pub(super) kind: ClaimKind,
    pub(super) awarded: bool,
    /// The claimant's flag has fallen while the claim waited: the arbiter
    /// now declares the result (G.5 b / III.5.2), and nothing else happens
    /// on the board until then.
    pub(super) flag_fell: bool,
}

impl Game {
    fn quickplay_applies(&self, by: Color, article: &'static str, t: u64) -> Result<(), Rejected> {
        let Some(clock) = self.clock.as_ref() else {
            return Err(Rejected::NoClock);
        };
        let err = |bar| {
            Err(Rejected::Quickplay {
                article: article.into(),
                bar,
            })
        };
        if self.class == TimeClass::Blitz {
            return err(QuickplayBar::Blitz);
        }
        if clock.delay().is_some() || clock.periods().iter().any(|p| p.increment_ms > 0) {
            return err(QuickplayBar::Increment);
        }
        if clock.fell_before(by, t) {
            return err(QuickplayBar::FlagFallen);
        }
        if clock.remaining_at(by, t) >= TWO_MINUTES_MS {
            return err(QuickplayBar::TimeLeft);
        }
        Ok(())
    }

    pub(super) fn on_quickplay(
        &mut self,
        by: Color,
        kind: ClaimKind,
        t: u64,
    ) -> Result<Applied, Rejected> {
        let a = self.rules.articles;
        let art = if kind == ClaimKind::ExtraTime {
            a.quickplay_request
        } else {
            a.quickplay_claim
        };
        if by != self.turn() {
            return Err(Rejected::ClaimNotOnMove {
                article: art.into(),
                turn: self.turn(),
            });
        }
        if self.pending_quickplay.is_some() {
            return Err(Rejected::QuickplayAlreadyWaiting);
        }
        self.quickplay_applies(by, art, t)?;
        self.pending_quickplay = Some(PendingQuickplay {
            by,
            kind,
            awarded: false,
            flag_fell: false,
        });
        let note = if kind == ClaimKind::ExtraTime {
            // G.4 / III.4: the request is also a draw offer.
            self.offer = Some(by);
            format!("request for five extra seconds per move; it is also a draw offer; the arbiter decides (Art. {art})")
        } else {
            format!("claim that the opponent cannot win by normal means; the arbiter decides (Art. {art})")
        };
        Ok(Applied {
            claim: Some(ClaimVerdict::Pending),
            note: Some(note),
            ..Applied::default()
        })
    }

    /// `flagged`'s flag has fallen (6.8) while his claim that the opponent
    /// cannot win by normal means waits for the arbiter: the flag does not
    /// decide the game alone, for the arbiter "shall declare the final
    /// result later in the game or as soon as possible after the flag of
    /// either player has fallen" (2014 G.5 b, 2018/2023 III.5.2) — a draw if
    /// he upholds the claim, else the flag stands (6.9). The clocks stop
    /// and the game waits for that ruling. `None` if no such claim waits
    /// (the claimant's opponent's flag decides as ever: his win needs no
    /// ruling on a claim for a draw).
    pub(super) fn flag_awaits_quickplay_ruling(
        &mut self,
        flagged: Color,
        t: u64,
    ) -> Option<Applied> {
        let q = self
            .pending_quickplay
            .as_mut()
            .filter(|q| q.kind == ClaimKind::NormalMeans && q.by == flagged)?;
        q.flag_fell = true;
        if let Some(c) = self.clock.as_mut() {
            c.stop(t);
        }
        let art = self.rules.articles.quickplay_claim;
        Some(Applied {
            note: Some(format!(
                "{flagged}'s flag has fallen (Art. {}) while his claim waits: the arbiter now declares the result — a draw if he upholds the claim, else the flag decides (Art. {art}, {})",
                self.rules.articles.flag_seen, self.rules.articles.flag_fall
            )),
            ..Applied::default()
        })
    }

    /// While a claimant's flag has fallen with his quickplay claim waiting
    /// ([`Game::flag_awaits_quickplay_ruling`]), only the arbiter acts:
    /// `action` is refused unless it is his.
    pub(super) fn check_awaiting_quickplay_ruling(&self, action: &Action) -> Result<(), Rejected> {
        let Some(q) = self.pending_quickplay.filter(|q| q.flag_fell) else {
            return Ok(());
        };
        match action {
            Action::Arbiter {
                decision: Decision::Postponed,
            } => {}
            Action::Arbiter { .. } | Action::Forfeit { .. } | Action::Adjudicate { .. } => {
                return Ok(())
            }
            _ => {}
        }
        Err(Rejected::Refused {
            event: action.name(),
            article: self.rules.articles.quickplay_claim.into(),
            reason: format!(
                "{}'s flag has fallen while his claim waits: the arbiter declares the result now (upheld or rejected)",
                q.by
            ),
        })
    }

    pub(super) fn decide_quickplay(
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
                article: article.into(),
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
                applied.claim = Some(ClaimVerdict::Upheld);
                applied.note = Some(format!(
                    "five seconds are added before every move of both players from now on (Art. {})",
                    a.quickplay_request
                ));
            }
            (ClaimKind::ExtraTime, Decision::Rejected) => {
                self.pending_quickplay = None;
                applied.claim = Some(ClaimVerdict::Rejected);
            }
            (ClaimKind::ExtraTime, _) => return Err(Rejected::ExtraTimeNotPostponed),
            (ClaimKind::NormalMeans, Decision::Upheld) => {
                self.pending_quickplay = None;
                self.end(
                    GameResult::DRAW,
                    Termination::ArbiterDecision,
                    a.quickplay_claim,
                    t,
                );
                applied.claim = Some(ClaimVerdict::Upheld);
            }
            (ClaimKind::NormalMeans, Decision::Rejected) if q.flag_fell => {
                // The claim fails and the flag that fell decides (6.9).
                self.pending_quickplay = None;
                applied = self.flag_decides(q.by, t);
                applied.claim = Some(ClaimVerdict::Rejected);
            }
            (ClaimKind::NormalMeans, Decision::Rejected) => {
                self.pending_quickplay = None;
                if !q.awarded {
                    award(self, &mut applied, a.quickplay_claim);
                }
                applied.claim = Some(ClaimVerdict::Rejected);
            }
            (ClaimKind::NormalMeans, Decision::Postponed) => {
                self.pending_quickplay = Some(PendingQuickplay { awarded: true, ..q });
                if !q.awarded {
                    award(self, &mut applied, a.quickplay_claim);
                }
                applied.claim = Some(ClaimVerdict::Postponed);
            }
            _ => return Err(Rejected::NotAQuickplayDecision),
        }
        Ok(applied)
    }
}

#[cfg(test)]
mod tests {
    use crate::game::QuickplayBar;
    use crate::{ClaimKind, Edition, Event, Game, Rejected, Start};
    use arbiter_chess::Color;
    use arbiter_pgn::TimeControl;

    #[test]
    fn never_in_blitz_guidelines_iii_2() {
        let start = Start {
            edition: Edition::Fide2023,
            time_control: Some(TimeControl::parse("180").unwrap()),
            ..Start::default()
        };
        let mut g = Game::new(start).unwrap();
        let e = g
            .apply(Event::claim(
                179_000,
                Color::White,
                ClaimKind::NormalMeans,
                None,
            ))
            .unwrap_err();
        assert!(matches!(
            e,
            Rejected::Quickplay {
                bar: QuickplayBar::Blitz,
                ..
            }
        ));
    }
}
