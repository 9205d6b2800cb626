//! Adjourned games (2014 Appendix E, 2018/2023 Guidelines I): the player
//! having the move seals it — written, not played — and his clock stops;
//! at the resumption the sealed move is made and the opponent's clock
//! starts. A sealed move that is ambiguous, unintelligible or illegal loses
//! (drawn if the opponent cannot checkmate, as 6.9). A player may be absent
//! at the resumption: his clock runs, and the default time (6.7) counts
//! from the resumption.

use super::{Applied, Game, Rejected};
use crate::outcome::Termination;
use arbiter_chess::Color;

/// A move sealed in its envelope.
#[derive(Clone, Debug)]
pub(super) struct Sealed {
    by: Color,
    text: String,
}

impl Game {
    /// Whether the game is adjourned (a move sealed, not yet resumed).
    pub fn is_adjourned(&self) -> bool {
        self.sealed.is_some()
    }

    fn adjourned_refusal(&self, event: &'static str, reason: &str) -> Rejected {
        Rejected::Refused {
            event,
            article: self.rules.articles.adjournment.into(),
            reason: reason.to_owned(),
        }
    }

    /// Players act only once the game is resumed.
    pub(crate) fn require_not_adjourned(&self) -> Result<(), Rejected> {
        if self.sealed.is_some() {
            return Err(self.adjourned_refusal(
                "player",
                "the game is adjourned: the arbiter resumes it first",
            ));
        }
        Ok(())
    }

    pub(super) fn on_seal(&mut self, by: Color, text: &str, t: u64) -> Result<Applied, Rejected> {
        self.require_turn(by)?;
        if self.pending_illegal.is_some() {
            return Err(self.adjourned_refusal(
                "seal",
                "an illegal move waits for a claim: settle it before sealing",
            ));
        }
        if text.trim().is_empty() {
            return Err(self.adjourned_refusal("seal", "write the sealed move"));
        }
        if let Some(c) = self.clock.as_mut() {
            // Sealed, then the clock stopped: his time runs to `t`.
            c.stop(t);
        }
        self.sealed = Some(Sealed {
            by,
            text: text.to_owned(),
        });
        self.touched.clear();
        Ok(Applied {
            note: Some(format!(
                "{by} seals a move; the game is adjourned (Art. {})",
                self.rules.articles.adjournment
            )),
            ..Applied::default()
        })
    }

    pub(super) fn on_resume(&mut self, absent: Option<Color>, t: u64) -> Result<Applied, Rejected> {
        let art = self.rules.articles.adjournment;
        let Some(s) = self.sealed.take() else {
            return Err(self.adjourned_refusal("arbiter resume", "the game is not adjourned"));
        };
        let by = s.by;
        match arbiter_pgn::read_move(&self.pos, &s.text) {
            Ok(m) => {
                self.session_start = t;
                if let Some(c) = absent {
                    self.absent[c.index()] = true;
                }
                let san = self.play(by, m, t);
                Ok(Applied {
                    san: Some(san.clone()),
                    note: Some(format!(
                        "the game is resumed: {by}'s sealed move {san} is made and {}'s clock started (Art. {art})",
                        !by
                    )),
                    ..Applied::default()
                })
            }
            Err(e) => {
                let pos = self.pos;
                let mut applied = self.lose_unless_unwinnable(
                    by,
                    &pos,
                    Termination::Forfeit,
                    Termination::ArbiterDecision,
                    art,
                    t,
                );
                let why = format!(
                    "{by}'s sealed move cannot be made: {e}: the game is lost (Art. {art})"
                );
                applied.note = Some(match applied.note {
                    Some(n) => format!("{why}; {n}"),
                    None => why,
                });
                Ok(applied)
            }
        }
    }
}
