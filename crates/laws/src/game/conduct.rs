//! What the regulations of an event decide within the Laws: electronic
//! devices in the playing venue (2014 11.3 b, 2018/2023 11.3.2.1–11.3.2.2)
//! and draw offers forbidden before a given move or without the arbiter's
//! consent (9.1 a / 9.1.1).

use super::{Applied, Game, Rejected};
use crate::outcome::{GameResult, Termination};
use arbiter_chess::Color;

impl Game {
    /// The arbiter finds a device with `player`: the game is lost, the
    /// opponent wins — whether or not he could checkmate ("The opponent
    /// shall win") — unless the regulations allow it switched off in the bag
    /// (2018+) or specify a lesser penalty.
    pub(super) fn on_device(
        &mut self,
        player: Color,
        in_bag: bool,
        t: u64,
    ) -> Result<Applied, Rejected> {
        let a = self.rules.articles;
        let regs = &self.start.regulations;
        if in_bag && regs.devices_in_bag {
            if let Some(bag) = a.device_in_bag {
                return Ok(Applied {
                    note: Some(format!(
                        "{player}'s device is switched off in the bag, as the regulations allow (Art. {bag})"
                    )),
                    ..Applied::default()
                });
            }
        }
        if let Some(sanction) = regs.device_penalty {
            let mut applied = self.on_penalty(player, sanction, t)?;
            applied.note = Some(format!(
                "an electronic device with {player}: the lesser penalty of the regulations (Art. {}): {}",
                a.device,
                applied.note.unwrap_or_default()
            ));
            return Ok(applied);
        }
        self.end(GameResult::win(!player), Termination::Forfeit, a.device, t);
        Ok(Applied {
            note: Some(format!(
                "an electronic device with {player} in the playing venue: {player} loses, {} wins (Art. {})",
                !player, a.device
            )),
            ..Applied::default()
        })
    }

    /// The arbiter consents to a draw the regulations forbid without it.
    pub(super) fn on_consent_draw(&mut self) -> Result<Applied, Rejected> {
        let art = self.rules.articles.draw_regulations;
        if self.draw_allowed() {
            return Err(Rejected::Refused {
                event: "arbiter consent_draw",
                article: art.into(),
                reason: "the regulations do not forbid a draw offer now".into(),
            });
        }
        self.draw_consent = true;
        Ok(Applied {
            note: Some(format!("the arbiter consents to a draw offer (Art. {art})")),
            ..Applied::default()
        })
    }

    fn draw_allowed(&self) -> bool {
        let regs = &self.start.regulations;
        let moves = self.moves_by[0].min(self.moves_by[1]);
        self.draw_consent
            || !(regs.draw_needs_consent || regs.draw_offers_from_move.is_some_and(|n| moves < n))
    }

    /// A draw offer or agreement by `event` is allowed by the regulations
    /// (9.1 a / 9.1.1).
    pub(super) fn check_draw_regulations(&self, event: &'static str) -> Result<(), Rejected> {
        if self.draw_allowed() {
            return Ok(());
        }
        let regs = &self.start.regulations;
        let reason = match regs.draw_offers_from_move {
            Some(n) if !regs.draw_needs_consent => format!(
                "the regulations forbid draw offers before each player has made {n} moves, without the arbiter's consent"
            ),
            _ => "the regulations forbid draw offers without the arbiter's consent".to_owned(),
        };
        Err(Rejected::Refused {
            event,
            article: self.rules.articles.draw_regulations.into(),
            reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Decision, Edition, Event, Game, Regulations, Rejected, Start, Termination};
    use arbiter_chess::{Color, Move, Square};

    #[test]
    fn a_device_loses_art_11_3_2_2() {
        let start = Start {
            edition: Edition::Fide2018,
            ..Start::default()
        };
        let mut g = Game::new(start).unwrap();
        let device = Decision::Device {
            player: Color::White,
            in_bag: true,
        };
        g.apply(Event::arbiter(0, device)).unwrap();
        let o = g.outcome().unwrap();
        assert_eq!(
            (o.termination, o.article.as_str()),
            (Termination::Forfeit, "11.3.2.2")
        );
    }

    #[test]
    fn early_offers_refused_art_9_1_a() {
        let start = Start {
            regulations: Regulations {
                draw_offers_from_move: Some(1),
                ..Regulations::default()
            },
            ..Start::default()
        };
        let mut g = Game::new(start).unwrap();
        let e = g.apply(Event::offer_draw(0, Color::White)).unwrap_err();
        assert!(matches!(e, Rejected::Refused { article, .. } if article == "9.1 a"));
        assert_eq!(g.draw_offer(), None);
        g.apply(Event::play(
            1,
            Color::White,
            Move::new(Square::E2, Square::E4),
        ))
        .unwrap();
        g.apply(Event::play(
            2,
            Color::Black,
            Move::new(Square::E7, Square::E5),
        ))
        .unwrap();
        g.apply(Event::offer_draw(3, Color::White)).unwrap();
    }
}
