//! The arbiter's penalties (12.9 a–f / 12.9.1–12.9.6) and their effect on
//! the clocks or the result; each is kept as a remark for the record.

use super::{Applied, Game, Penalty, Rejected};
use crate::event::Sanction;
use crate::outcome::{GameResult, Outcome, Score, Termination};
use crate::Article;
use arbiter_chess::Color;

impl Game {
    pub(super) fn on_penalty(
        &mut self,
        offender: Color,
        sanction: Sanction,
        t: u64,
    ) -> Result<Applied, Rejected> {
        let art = self.rules.articles.sanctions[sanction.index()];
        let refuse = |reason: String| Rejected::Refused {
            event: "arbiter penalty",
            article: art.into(),
            reason,
        };
        let opponent = !offender;
        let mut applied = Applied::default();
        let text = match sanction {
            Sanction::Warning => format!("the arbiter warns {offender}"),
            Sanction::OpponentTime { ms } => {
                let c = self.clock.as_mut().ok_or(Rejected::NoClock)?;
                c.add_time(opponent, ms);
                applied.penalty = Some(Penalty {
                    to: opponent,
                    ms,
                    article: art.into(),
                });
                format!("penalty on {offender}: {ms} ms added to {opponent}'s time")
            }
            Sanction::OffenderTime { ms } => {
                let c = self.clock.as_mut().ok_or(Rejected::NoClock)?;
                c.deduct_time(offender, ms, t);
                format!("penalty on {offender}: {ms} ms taken from {offender}'s time")
            }
            Sanction::OpponentScoreMaximum => {
                let result = scores(opponent, Score::One, Score::Zero);
                self.impose(result, Termination::Adjudication, art, t);
                format!("penalty on {offender}: {opponent}'s score raised to the maximum, {result}")
            }
            Sanction::OffenderScoreReduced { score } => {
                let Some(o) = &self.outcome else {
                    return Err(refuse(
                        "the game has no score yet to reduce: declare it lost instead".into(),
                    ));
                };
                let before = o.result;
                if score.halves() >= before.score(offender).halves() {
                    return Err(refuse(format!(
                        "{offender} scores {} in {before}: {} is no reduction",
                        before.score(offender).as_str(),
                        score.as_str()
                    )));
                }
                let result = scores(offender, score, before.score(opponent));
                self.impose(result, Termination::Adjudication, art, t);
                format!(
                    "penalty on {offender}: {offender}'s score reduced, {before} becomes {result}"
                )
            }
            Sanction::GameLost { opponent_score } => {
                let result = scores(offender, Score::Zero, opponent_score);
                self.impose(result, Termination::Forfeit, art, t);
                format!("the game is declared lost by {offender}; the arbiter gives {opponent} {}: {result}", opponent_score.as_str())
            }
        };
        let text = format!("{text} (Art. {art})");
        self.remarks.push(super::Remark {
            after_moves: self.moves.len(),
            text: text.clone(),
        });
        applied.note = Some(text);
        Ok(applied)
    }

    /// Ends the game with `result`, or replaces the result of a game that
    /// has ended.
    fn impose(&mut self, result: GameResult, termination: Termination, art: &'static str, t: u64) {
        if self.outcome.is_some() {
            self.outcome = Some(Outcome {
                result,
                termination,
                article: Article::new(art),
                at: t,
                reason: None,
            });
        } else {
            self.end(result, termination, art, t);
        }
    }
}

/// The result where `player` scores `own` and the opponent `other`.
fn scores(player: Color, own: Score, other: Score) -> GameResult {
    match player {
        Color::White => GameResult {
            white: own,
            black: other,
        },
        Color::Black => GameResult {
            white: other,
            black: own,
        },
    }
}

#[cfg(test)]
mod tests {
    use crate::{Decision, Event, Game, Sanction, Score, Start};
    use arbiter_chess::Color;

    #[test]
    fn a_draw_reduced_for_the_offender_art_12_9_e() {
        let mut g = Game::new(Start::default()).unwrap();
        g.apply(Event::offer_draw(0, Color::White)).unwrap();
        g.apply(Event::accept_draw(1, Color::Black)).unwrap();
        let reduce = Sanction::OffenderScoreReduced { score: Score::Zero };
        let e = Event::arbiter(
            2,
            Decision::Penalty {
                offender: Color::Black,
                sanction: reduce,
            },
        );
        g.apply(e).unwrap();
        let o = g.outcome().unwrap();
        assert_eq!(
            (o.result.to_string(), o.article.as_str()),
            ("1/2-0".into(), "12.9 e")
        );
        assert_eq!(g.remarks().len(), 1);
    }
}
