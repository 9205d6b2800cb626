//! The arbiter's decisions: observing a flag fall or an illegal move,
//! adding time (12.2), both players losing (11.8), deciding quickplay
//! claims, and the rulings that end a game off the board — a forfeit or an
//! adjudicated result under the regulations of the event (10.1), for
//! persistent refusal to comply (11.7), or as a penalty (12.9).

use super::{Applied, Game, Penalty, Rejected};
use crate::event::{Decision, Ground};
use crate::outcome::{GameResult, Termination};
use crate::Article;
use arbiter_chess::Color;

impl Game {
    pub(super) fn on_arbiter(&mut self, decision: Decision, t: u64) -> Result<Applied, Rejected> {
        let a = self.rules.articles;
        match decision {
            Decision::Flag => self.on_flag(None, t),
            Decision::IllegalMove => {
                if self.pending_illegal.is_none() {
                    return Err(Rejected::NoIllegalMoveWaiting);
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
            Decision::AddTime { player, ms } => {
                let c = self.clock.as_mut().ok_or(Rejected::NoClock)?;
                c.add_time(player, ms);
                Ok(Applied {
                    penalty: Some(Penalty {
                        to: player,
                        ms,
                        article: Article::new(a.add_time),
                    }),
                    ..Applied::default()
                })
            }
            Decision::DefaultTimePassed => self.on_default_passed(t),
            Decision::ExcuseLateness { player } => self.on_excuse(player),
            Decision::Penalty { offender, sanction } => self.on_penalty(offender, sanction, t),
            Decision::Device { player, in_bag } => self.on_device(player, in_bag, t),
            Decision::ConsentDraw => self.on_consent_draw(),
            Decision::IllegalFound => self.on_illegal_found(t),
            Decision::WrongInitialPosition => self.on_wrong_setup(t),
            Decision::Resume { absent } => self.on_resume(absent, t),
            Decision::ColoursReversed { restart } => self.on_colours_reversed(restart, t),
            Decision::Displaced { player } => self.on_displaced(player),
            Decision::SetClocks { white, black } => self.on_set_clocks(white, black, t),
            Decision::Upheld | Decision::Rejected | Decision::Postponed => {
                let Some(q) = self.pending_quickplay else {
                    return Err(Rejected::NoQuickplayWaiting);
                };
                self.decide_quickplay(q, decision, t)
            }
        }
    }

    /// The arbiter declares the game lost by `player`; the opponent wins
    /// (10.1). Rests on the regulations of the event, 11.7 or 12.9.
    pub(super) fn on_forfeit(
        &mut self,
        player: Color,
        ground: Ground,
        reason: &str,
        t: u64,
    ) -> Result<Applied, Rejected> {
        let article = ground.article(&self.rules);
        if ground == Ground::DefaultTime && self.arrived[player.index()] {
            // 6.7 a / 6.7.1: the default time is lost by arriving after it,
            // which the judge rules on at the arrival itself.
            return Err(Rejected::Refused {
                event: "forfeit",
                article,
                reason: format!(
                    "{player} has arrived at the board: no forfeit for the default time now"
                ),
            });
        }
        self.end(GameResult::win(!player), Termination::Forfeit, article, t);
        self.give_reason(reason);
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
    pub(super) fn on_adjudicate(
        &mut self,
        result: GameResult,
        ground: Ground,
        reason: &str,
        t: u64,
    ) -> Applied {
        let article = ground.article(&self.rules);
        self.end(result, Termination::Adjudication, article, t);
        self.give_reason(reason);
        Applied {
            note: Some(ruling_note(
                &format!("the arbiter adjudicates {result}"),
                reason,
                article,
            )),
            ..Applied::default()
        }
    }

    fn give_reason(&mut self, reason: &str) {
        if let Some(o) = self.outcome.as_mut() {
            o.reason = (!reason.is_empty()).then(|| reason.to_owned());
        }
    }
}

/// "White forfeits the game: the engine crashed (match rule)".
fn ruling_note(what: &str, reason: &str, article: Article) -> String {
    let cite = article.cite();
    if reason.is_empty() {
        format!("{what} ({cite})")
    } else {
        format!("{what}: {reason} ({cite})")
    }
}

#[cfg(test)]
mod tests {
    use crate::{Decision, Edition, Event, Game, GameResult, Ground, Start, Termination};
    use arbiter_chess::Color;

    #[test]
    fn adjudication_keeps_its_reason_in_the_outcome() {
        let mut g = Game::new(Start::default()).unwrap();
        let a = g
            .apply(Event::adjudicate(
                10,
                GameResult::DRAW,
                Ground::MatchRule,
                "move limit",
            ))
            .unwrap();
        assert_eq!(
            a.note.as_deref(),
            Some("the arbiter adjudicates 1/2-1/2: move limit (match rule)")
        );
        let o = g.outcome().unwrap();
        assert_eq!(
            (o.termination, o.reason.as_deref()),
            (Termination::Adjudication, Some("move limit"))
        );
    }

    #[test]
    fn persistent_refusal_cites_11_7() {
        let start = Start {
            edition: Edition::Fide2023,
            ..Start::default()
        };
        let mut g = Game::new(start).unwrap();
        g.apply(Event::forfeit(
            0,
            Color::Black,
            Ground::PersistentRefusal,
            "",
        ))
        .unwrap();
        let o = g.outcome().unwrap();
        assert_eq!((o.article.as_str(), o.reason.clone()), ("11.7", None));
    }

    #[test]
    fn both_lose_art_11_8() {
        let mut g = Game::new(Start::default()).unwrap();
        g.apply(Event::arbiter(0, Decision::BothLose)).unwrap();
        assert_eq!(g.outcome().unwrap().result, GameResult::BOTH_LOSE);
    }
}
