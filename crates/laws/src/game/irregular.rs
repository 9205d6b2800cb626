//! Irregularities other than an illegal move on the board: an incorrect
//! initial position (7.2 a / 7.2.1), colours reversed (7.3), displaced
//! pieces (7.4 a / 7.4.1), and — from 2018 — pressing the clock without a
//! move (7.5.3) and a move made with two hands (7.5.4), both penalised as
//! an illegal move (7.5.5; rapid and blitz A.4.2 / A.5.2). In 2014 neither
//! is an illegal move (they were added in July 2017): the arbiter may only
//! penalise them under 12.9, so the judge refuses them as such.

use super::{Applied, Game, Rejected};
use crate::clock::Clock;
use crate::dead::count_moves_capped;
use crate::repetition::History;
use crate::touch::Touched;
use arbiter_chess::{Bitboard, Color, Move, Position, Rank, Role};

impl Game {
    fn not_in_2014(&self, event: &'static str, what: &str) -> Rejected {
        Rejected::Refused {
            event,
            article: self.rules.articles.illegal_move.into(),
            reason: format!(
                "in the {} Laws {what} is not an illegal move (7.5.3 and 7.5.4 came in 2017); the arbiter may penalise it under Art. {}",
                self.rules.edition.year(),
                self.rules.articles.penalties
            ),
        }
    }

    pub(super) fn on_press_clock(&mut self, by: Color, t: u64) -> Result<Applied, Rejected> {
        self.may_move_illegally(by)?;
        let Some(art) = self.rules.articles.press_without_move else {
            return Err(self.not_in_2014("press_clock", "pressing the clock without a move"));
        };
        // The clock pressed with no move: the opponent to move on the same
        // placement (if the player is not in check).
        let mut setup = self.pos.to_setup();
        setup.turn = !by;
        setup.ep_square = None;
        let stands = Position::from_setup(setup, self.pos.castling_mode()).ok();
        let mut applied = self.complete_illegal(by, stands, None, None, t);
        applied.note = Some(format!(
            "{by} pressed the clock without making a move: penalised as an illegal move (Art. {art}). {}",
            applied.note.unwrap_or_default()
        ));
        Ok(applied)
    }

    pub(super) fn on_move_two_hands(
        &mut self,
        by: Color,
        m: Move,
        t: u64,
    ) -> Result<Applied, Rejected> {
        self.may_move_illegally(by)?;
        let Some(art) = self.rules.articles.two_hands else {
            return Err(self.not_in_2014("move", "a move made with two hands"));
        };
        if !self.pos.is_legal(m) {
            return Err(Rejected::NotLegal { mv: m });
        }
        let mut after = self.pos;
        after.play_unchecked(m);
        let san = self.pos.san(m);
        // A move that checkmates, stalemates or leaves a dead position ends
        // the game at once "provided that the move ... was in accordance
        // with Article 3 and Articles 4.2 – 4.7" (5.1.1, 5.2.1, 5.2.2): 4.1,
        // one hand, is not among them. 7.5.4 penalises two hands only when
        // the player "pressed the clock", and such a move needs no press
        // (6.2.1): the game is over, and the move stands.
        if count_moves_capped(&after, 1) == 0 || self.dead.is_dead(&after, None).0 {
            let mut applied = self.on_move(by, m, t)?;
            applied.note = Some(format!(
                "{by} made {san} with two hands, but the move ended the game ({}): not penalised (Art. {art} applies only when the clock is pressed)",
                self.outcome
                    .as_ref()
                    .map_or_else(String::new, |o| o.article.cite())
            ));
            return Ok(applied);
        }
        let mut applied = self.complete_illegal(by, Some(after), None, Some((m.from, m.to)), t);
        applied.note = Some(format!(
            "{by} made {san} with two hands: penalised as an illegal move (Art. {art}). {}",
            applied.note.unwrap_or_default()
        ));
        Ok(applied)
    }

    /// Cancels the game and starts a new one from `pos` at `t` (7.2 a /
    /// 7.2.1, 7.3): the moves so far are annulled, the clocks start again.
    fn new_game(&mut self, pos: Position, t: u64) -> Result<(), Rejected> {
        let clock = match (&self.clock, &self.start.time_control) {
            (Some(_), Some(tc)) => Some(
                Clock::new(tc, self.start.delay, pos.turn(), t).map_err(|_| Rejected::NoClock)?,
            ),
            _ => None,
        };
        self.clock = clock;
        let played: Vec<_> = self.moves.drain(..).collect();
        self.annulled.extend(played);
        self.initial = pos;
        self.pos = pos;
        self.history = History::new(&pos);
        self.moves_by = [0, 0];
        self.offer = None;
        self.touched = Touched::new();
        self.illegal_count = [0, 0];
        self.pending_illegal = None;
        self.pending_quickplay = None;
        self.unnoticed = None;
        self.alive = false;
        Ok(())
    }

    fn correct_start(&self) -> Position {
        // A Chess960 game declared without its number: the standard array,
        // still in Chess960 mode.
        let declared = (self.start.variant == Some(crate::Variant::Chess960)).then_some(518);
        self.start
            .chess960
            .or(declared)
            .and_then(Position::chess960)
            .unwrap_or_else(Position::standard)
    }

    /// Rapid and blitz without adequate supervision, once each player has
    /// completed ten moves (2014 A.4 a, 2018 A.4.1, 2023 A.5.1): the set-up
    /// can no longer be corrected.
    pub(super) fn setup_is_settled(&self) -> bool {
        self.rules
            .without_adequate_supervision(self.class, self.start.supervised)
            && self.moves_by.iter().all(|&n| n >= 10)
    }

    pub(super) fn on_wrong_setup(&mut self, t: u64) -> Result<Applied, Rejected> {
        let art = self.rules.articles.wrong_setup;
        if self.setup_is_settled() {
            return Ok(self.setup_stands());
        }
        let n = self.moves.len();
        let pos = self.correct_start();
        self.new_game(pos, t)?;
        let note = format!(
            "the initial position was incorrect: the game is cancelled ({n} moves annulled) and a new game played (Art. {art})"
        );
        self.remark(note.clone());
        Ok(Applied {
            note: Some(note),
            ..Applied::default()
        })
    }

    /// An incorrect set-up found once each player has completed ten moves
    /// in rapid or blitz without adequate supervision (2014 A.4 a, 2018
    /// A.4.1, 2023 A.5.1): the game continues, but "castling is not allowed"
    /// with a wrongly placed king, nor with a wrongly placed rook. The
    /// rights of those rooks are taken away.
    fn setup_stands(&mut self) -> Applied {
        let article = self.rules.articles.setup_after_ten_moves;
        let correct = self.correct_start();
        let mut barred = Bitboard::EMPTY;
        let mut why = Vec::new();
        for color in Color::ALL {
            let rights =
                self.initial.castling_rights() & Bitboard::rank(Rank::FIRST.relative_to(color));
            if rights.is_empty() {
                continue;
            }
            if self.initial.king_of(color) != correct.king_of(color) {
                barred |= rights;
                why.push(format!(
                    "{color}'s king was wrongly placed: {color} may not castle"
                ));
                continue;
            }
            for rook in rights {
                let placed = correct.piece_at(rook) == Some(Role::Rook.of(color))
                    && correct.castling_rights().contains(rook);
                if !placed {
                    barred |= Bitboard::from(rook);
                    why.push(format!(
                        "{color}'s rook on {rook} was wrongly placed: {color} may not castle with it"
                    ));
                }
            }
        }
        self.bar_castling(barred);
        let consequence = if why.is_empty() {
            "no king or rook with a castling right was wrongly placed".to_string()
        } else {
            why.join("; ")
        };
        let note = format!(
            "the initial position was incorrect, but each player has completed ten moves in rapid or blitz without adequate supervision: no claim regarding incorrect set-up can be made and the game continues (Art. {article}); {consequence}"
        );
        self.remark(note.clone());
        Applied {
            note: Some(note),
            ..Applied::default()
        }
    }

    /// Takes the castling rights of the rooks `barred` from the position on
    /// the board. A right lost cannot return: no earlier position can recur.
    fn bar_castling(&mut self, barred: Bitboard) {
        let lost = self.pos.castling_rights() & barred;
        if lost.is_empty() {
            return;
        }
        let mut setup = self.pos.to_setup();
        setup.castling_rights &= !lost;
        if let Ok(pos) = Position::from_setup(setup, self.pos.castling_mode()) {
            self.pos = pos;
            self.history.push(&pos, true);
            self.alive = false;
        }
    }

    pub(super) fn on_colours_reversed(
        &mut self,
        restart: bool,
        t: u64,
    ) -> Result<Applied, Rejected> {
        let art = self.rules.articles.colours_reversed;
        let ten = self.moves_by[0] >= 10 && self.moves_by[1] >= 10;
        let new_game = if self.rules.agreement_needs_a_move_each {
            // 2018+: "if less than 10 moves have been made by both players".
            if restart && ten {
                return Err(Rejected::Refused {
                    event: "arbiter colours_reversed",
                    article: art.into(),
                    reason: "after 10 moves or more by both players the game shall continue".into(),
                });
            }
            !ten
        } else {
            // 2014 (read as 2009 7.2): it continues unless the arbiter rules otherwise.
            restart
        };
        let note = if new_game {
            let n = self.moves.len();
            let pos = self.correct_start();
            self.new_game(pos, t)?;
            format!("colours reversed: the game is discontinued ({n} moves annulled) and a new game played with the correct colours (Art. {art})")
        } else {
            format!("colours reversed: the game continues (Art. {art})")
        };
        self.remark(note.clone());
        Ok(Applied {
            note: Some(note),
            ..Applied::default()
        })
    }

    pub(super) fn on_displaced(&mut self, player: Color) -> Result<Applied, Rejected> {
        let a = self.rules.articles;
        let note = format!(
            "{player} displaced pieces: the correct position is re-established (Art. {}); the arbiter may set the clocks (Art. {}) and penalise (Art. {})",
            a.displaced, a.restored_clocks, a.penalties
        );
        self.remark(note.clone());
        Ok(Applied {
            note: Some(note),
            ..Applied::default()
        })
    }

    pub(super) fn remark(&mut self, text: String) {
        self.remarks.push(super::Remark {
            after_moves: self.moves.len(),
            text,
        });
    }
}
