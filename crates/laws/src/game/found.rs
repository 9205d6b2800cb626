//! An illegal move found later (2014 7.5 a, 2018/2023 7.5.1): "If during a
//! game it is found that an illegal move has been completed, the position
//! immediately before the irregularity shall be reinstated." The move went
//! unnoticed and the game went on from the position it left; when the
//! arbiter finds it, that position before it comes back, every move after
//! it is annulled (kept: [`Game::annulled`], and a remark for the record),
//! the offender is penalised as for any completed illegal move (7.5 b /
//! 7.5.5) and must make the replacement move under 4.3; the arbiter sets
//! the clocks ([`crate::Decision::SetClocks`]).

use super::{Applied, Game, Penalty, PlayedMove, Rejected, Remark};
use crate::edition::IllegalMovePenalty;
use crate::event::IllegalMove;
use crate::repetition::History;
use crate::touch::Touched;
use arbiter_chess::{Color, Position};

/// The game as it stood before an unnoticed illegal move.
#[derive(Clone, Debug)]
pub(super) struct Unnoticed {
    by: Color,
    mv: IllegalMove,
    before: Position,
    history: History,
    moves_len: usize,
    moves_by: [u32; 2],
}

impl Game {
    /// The moves annulled when an illegal move was found later (7.5 a /
    /// 7.5.1), in the order they were played.
    pub fn annulled(&self) -> &[PlayedMove] {
        &self.annulled
    }

    pub(super) fn on_illegal_unnoticed(
        &mut self,
        by: Color,
        mv: IllegalMove,
        t: u64,
    ) -> Result<Applied, Rejected> {
        let art = self.rules.articles.illegal_found;
        let refuse = |reason: String| Rejected::Refused {
            event: "illegal",
            article: art.into(),
            reason,
        };
        self.may_move_illegally(by)?;
        if self.unnoticed.is_some() {
            return Err(refuse(
                "an earlier illegal move is still to be found: the arbiter finds it first".into(),
            ));
        }
        if self
            .rules
            .illegal_move_needs_claim(self.class, self.start.supervised)
        {
            return Err(refuse(format!(
                "in rapid and blitz without adequate supervision an illegal move not claimed before the next move stands (Art. {}): record it without \"noticed\"",
                self.rules.articles.illegal_move_unsupervised
            )));
        }
        let stands = self
            .check_illegal(by, mv)?
            .ok_or_else(|| refuse(format!("{mv} leaves a position no game can go on from")))?;
        self.unnoticed = Some(Unnoticed {
            by,
            mv,
            before: self.pos,
            history: self.history.clone(),
            moves_len: self.moves.len(),
            moves_by: self.moves_by,
        });
        if let Some(c) = self.clock.as_mut() {
            c.press(by, t);
        }
        self.pos = stands;
        self.history.push(&self.pos, true);
        self.moves_by[by.index()] += 1;
        self.touched.clear();
        self.alive = false;
        self.offer_declined_by_touch(by);
        self.check_automatic_end(None, t);
        Ok(Applied {
            note: Some(format!(
                "{by}'s illegal move {mv} goes unnoticed: the game goes on from the position it left until it is found (Art. {art})"
            )),
            ..Applied::default()
        })
    }

    pub(super) fn on_illegal_found(&mut self, t: u64) -> Result<Applied, Rejected> {
        let art = self.rules.articles.illegal_found;
        let Some(u) = self.unnoticed.take() else {
            return Err(Rejected::Refused {
                event: "arbiter illegal_found",
                article: art.into(),
                reason: "no unnoticed illegal move to find".into(),
            });
        };
        let offender = u.by;
        let later: Vec<PlayedMove> = self.moves.drain(u.moves_len..).collect();
        let listed: Vec<&str> = later.iter().map(|m| m.san.as_str()).collect();
        self.pos = u.before;
        self.history = u.history;
        self.moves_by = u.moves_by;
        self.offer = None;
        self.alive = false;
        self.pending_illegal = None;
        if let Some(c) = self.clock.as_mut() {
            let (w, b) = (
                c.remaining_at(Color::White, t),
                c.remaining_at(Color::Black, t),
            );
            c.set_times(w, b, offender, t);
        }
        let annulled = if listed.is_empty() {
            String::new()
        } else {
            format!("; annulled: {}", listed.join(" "))
        };
        let mut note = format!(
            "{offender}'s illegal move {} is found {} moves later: the position before it is reinstated (Art. {art}){annulled}",
            u.mv,
            later.len()
        );
        self.annulled.extend(later);
        let article = self
            .rules
            .illegal_move_article(self.class, self.start.supervised);
        let mut applied = Applied::default();
        match self
            .rules
            .illegal_move_penalty(self.class, self.start.supervised)
        {
            IllegalMovePenalty::ExtraTime { ms } if self.illegal_count[offender.index()] == 0 => {
                self.illegal_count[offender.index()] += 1;
                if let Some(c) = self.clock.as_mut() {
                    c.add_time(!offender, ms);
                    applied.penalty = Some(Penalty {
                        to: !offender,
                        ms,
                        article: self.rules.penalty_article(self.class, article).into(),
                    });
                }
                let mut touched = Touched::new();
                let _ = touched.touch(&self.pos, u.mv.from);
                if self.pos.board().color_at(u.mv.to) == Some(!offender) {
                    let _ = touched.touch(&self.pos, u.mv.to);
                }
                self.touched = touched;
                note = format!(
                    "{note}; first completed illegal move by {offender} (Art. {article}); the replacement move must follow touch-move (Art. {}): the piece on {} was touched; the arbiter sets the clocks by his best judgement (Art. {})",
                    self.rules.articles.touch_move,
                    u.mv.from,
                    self.rules.articles.restored_clocks
                );
            }
            _ => {
                self.illegal_count[offender.index()] += 1;
                let before = self.pos;
                let lost = self.lost_by_illegal_move(offender, &before, article, t);
                applied.claim = lost.claim;
                note = format!(
                    "{note}; second completed illegal move by {offender} (Art. {article}){}",
                    lost.note.map(|n| format!(". {n}")).unwrap_or_default()
                );
            }
        }
        // For the record: the ruling, the annulled moves and the penalty.
        let mut text = note.clone();
        if let Some(p) = &applied.penalty {
            text = format!(
                "{text}; {} ms added to {}'s clock (Art. {})",
                p.ms, p.to, p.article
            );
        }
        self.remarks.push(Remark {
            after_moves: self.moves.len(),
            text,
        });
        applied.note = Some(note);
        Ok(applied)
    }

    pub(super) fn on_set_clocks(
        &mut self,
        white: u64,
        black: u64,
        t: u64,
    ) -> Result<Applied, Rejected> {
        let art = self.rules.articles.set_clocks;
        let turn = self.turn();
        // A.4 a / A.4.1 / A.5.1 forbids changing the clock setting after ten
        // moves each "unless the schedule of the event would be adversely
        // affected": the arbiter's judgement, which his decision states, and
        // setting the clocks is also his correction after a restored
        // position (7.1). Not refused; the answer says it.
        let settled = self.setup_is_settled().then(|| {
            format!(
                "; each player has completed ten moves: the clock setting may be changed only if the schedule of the event would otherwise be adversely affected (Art. {})",
                self.rules.articles.setup_after_ten_moves
            )
        });
        let c = self.clock.as_mut().ok_or(Rejected::NoClock)?;
        c.set_times(white, black, turn, t);
        Ok(Applied {
            note: Some(format!(
                "the arbiter sets the clocks: white {white} ms, black {black} ms (Art. {art}){}",
                settled.unwrap_or_default()
            )),
            ..Applied::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{record, Decision, Event, Game, IllegalMove, Start};
    use arbiter_chess::{Color, Move, Square};

    #[test]
    fn found_later_annuls_the_moves_after_it_art_7_5_a() {
        let mut g = Game::new(Start::default()).unwrap();
        g.apply(Event::play(
            1,
            Color::White,
            Move::new(Square::E2, Square::E4),
        ))
        .unwrap();
        let jump = IllegalMove::new(Square::E8, Square::E6);
        let unnoticed = Event {
            t: 2,
            by: Color::Black.into(),
            action: crate::Action::IllegalUnnoticed { mv: jump },
        };
        g.apply(unnoticed).unwrap();
        g.apply(Event::play(
            3,
            Color::White,
            Move::new(Square::D2, Square::D4),
        ))
        .unwrap();
        g.apply(Event::arbiter(4, Decision::IllegalFound)).unwrap();
        assert_eq!(g.moves().len(), 1);
        assert_eq!(g.annulled()[0].san, "d4");
        assert_eq!(g.turn(), Color::Black);
        let pgn = record::to_pgn(&g).to_pgn();
        assert!(pgn.contains("annulled: d4"), "{pgn}");
    }
}
