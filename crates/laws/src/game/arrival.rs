//! The players at the board (2014 6.7, 2018/2023 6.7.1–6.7.2): the default
//! time, a player's arrival, the arbiter declaring absent players lost or
//! excusing a late one. White's clock runs from the scheduled start (t = 0,
//! 6.6 / 6.5), present or not: with a default time that is not zero and
//! neither player present, White loses the time until he arrives (6.7 b /
//! 6.7.2), as the clock already counts it.

use super::{Applied, Game, Rejected};
use crate::outcome::{GameResult, Termination};
use crate::Article;
use arbiter_chess::Color;

impl Game {
    /// Whether `color` is at the board (has not been absent since the
    /// scheduled start, or has arrived).
    pub fn is_present(&self, color: Color) -> bool {
        !self.absent[color.index()]
    }

    /// A player's action needs the player at the board (6.7).
    pub(crate) fn require_present(&self, by: Color) -> Result<(), Rejected> {
        if self.is_present(by) {
            return Ok(());
        }
        Err(Rejected::Refused {
            event: "player",
            article: self.rules.articles.late_arrival.into(),
            reason: format!("{by} is not at the board: \"arrive\" first"),
        })
    }

    fn late(&self, color: Color, t: u64) -> bool {
        !self.is_present(color)
            && !self.excused[color.index()]
            && t > self.session_start + self.start.regulations.default_time_ms
    }

    pub(super) fn on_arrive(&mut self, by: Color, t: u64) -> Result<Applied, Rejected> {
        let art = self.rules.articles.late_arrival;
        if self.is_present(by) {
            return Err(Rejected::Refused {
                event: "arrive",
                article: art.into(),
                reason: format!("{by} is already at the board"),
            });
        }
        let default = self.start.regulations.default_time_ms;
        if self.late(by, t) {
            let note = format!(
                "{by} arrives at {t} ms, after the default time of {default} ms: the game is lost"
            );
            return Ok(self.default_loss(t, note));
        }
        self.absent[by.index()] = false;
        self.arrived[by.index()] = true;
        Ok(Applied {
            note: Some(format!("{by} is at the board (Art. {art})")),
            ..Applied::default()
        })
    }

    /// The arbiter declares the players still absent after the default time
    /// lost (both absent: both lose).
    pub(super) fn on_default_passed(&mut self, t: u64) -> Result<Applied, Rejected> {
        let art = self.rules.articles.late_arrival;
        let default = self.start.regulations.default_time_ms;
        if !Color::ALL.iter().any(|&c| self.late(c, t)) {
            let reason = if t <= default {
                format!("the default time of {default} ms has not passed at {t} ms")
            } else {
                "no player is absent without the arbiter's leave".to_owned()
            };
            return Err(Rejected::Refused {
                event: "arbiter absent",
                article: art.into(),
                reason,
            });
        }
        let note = format!("absent after the default time of {default} ms: the game is lost");
        Ok(self.default_loss(t, note))
    }

    /// The arbiter decides otherwise (6.7 a / 6.7.1): `player` may arrive late.
    pub(super) fn on_excuse(&mut self, player: Color) -> Result<Applied, Rejected> {
        let art = self.rules.articles.late_arrival;
        if self.is_present(player) {
            return Err(Rejected::Refused {
                event: "arbiter excuse_lateness",
                article: art.into(),
                reason: format!("{player} is at the board"),
            });
        }
        self.excused[player.index()] = true;
        Ok(Applied {
            note: Some(format!(
                "the arbiter decides otherwise: {player} may still arrive (Art. {art})"
            )),
            ..Applied::default()
        })
    }

    /// Every player late at `t` loses: one, and the opponent wins; both,
    /// and both lose (0-0).
    fn default_loss(&mut self, t: u64, what: String) -> Applied {
        let art = self.rules.articles.late_arrival;
        let late: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|&c| self.late(c, t))
            .collect();
        let result = match late.as_slice() {
            [one] => GameResult::win(!*one),
            _ => GameResult::BOTH_LOSE,
        };
        let who = match late.as_slice() {
            [one] => one.to_string(),
            _ => "both players".to_owned(),
        };
        self.end(result, Termination::Forfeit, Article::new(art), t);
        Applied {
            note: Some(format!("{who}: {what} (Art. {art})")),
            ..Applied::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Event, Game, GameResult, Rejected, Start, Termination};
    use arbiter_chess::{Color, Move, Square};

    #[test]
    fn late_arrival_loses_art_6_7_a() {
        let start = Start {
            absent: vec![Color::Black],
            ..Start::default()
        };
        let mut g = Game::new(start).unwrap();
        g.apply(Event::play(
            1,
            Color::White,
            Move::new(Square::E2, Square::E4),
        ))
        .unwrap();
        let e = g
            .apply(Event::play(
                2,
                Color::Black,
                Move::new(Square::E7, Square::E5),
            ))
            .unwrap_err();
        assert!(matches!(e, Rejected::Refused { article, .. } if article == "6.7 a"));
        assert_eq!(g.moves().len(), 1);
        g.apply(Event::arrive(3, Color::Black)).unwrap();
        let o = g.outcome().unwrap();
        assert_eq!(
            (o.result, o.termination),
            (GameResult::win(Color::White), Termination::Forfeit)
        );
    }
}
