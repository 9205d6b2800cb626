//! Completed illegal moves (7.5; rapid and blitz A.4 b / A.4.2 / A.5.2):
//! the arbiter acting at once, or the opponent's claim before his next move;
//! the penalty of the edition (extra time, the second one losing, or the
//! loss at once), an unreplaced promotion completed as a queen (7.5 a /
//! 7.5.2), and the replacement move under touch-move (7.5 a / 7.5.1).

use super::{Applied, ClaimVerdict, Game, Penalty, PlayedMove, Rejected};
use crate::edition::IllegalMovePenalty;
use crate::event::IllegalMove;
use crate::outcome::{GameResult, Termination};
use crate::touch::Touched;
use arbiter_chess::{Bitboard, Color, Move, Position, Rank, Role, Setup, Square};

#[derive(Clone, Debug)]
pub(super) struct PendingIllegal {
    pub(super) by: Color,
    pub(super) before: Position,
    /// The position on the board if the illegal move stands.
    pub(super) stands: Option<Position>,
    /// A pawn on the last rank not replaced: becomes a queen (7.5 a / 7.5.2).
    pub(super) promotion: Option<Move>,
    /// Rapid and blitz without adequate supervision: the square of a pawn
    /// left unreplaced on the last rank, an illegal position the arbiter
    /// waits on until the next move (A.4 d / A.4.4 / A.5.4); the opponent
    /// plays on a board without it (`stands`), and may take it.
    pub(super) pawn_left_on: Option<Square>,
    /// Rapid and blitz without adequate supervision: the move left the
    /// offender's own king in check and gave check, so that both kings are
    /// in check on the board (`stands`), an illegal position the arbiter
    /// waits on until the next move (A.4 d / A.4.4 / A.5.4).
    pub(super) both_in_check: bool,
}

impl Game {
    /// Whether `by` may record a completed illegal move now (before it is read).
    pub(crate) fn may_move_illegally(&self, by: Color) -> Result<(), Rejected> {
        self.require_turn(by)?;
        match &self.pending_illegal {
            // Both kings in check: the next move, legal or not, is what the
            // arbiter waits for (A.4 d / A.4.4 / A.5.4).
            Some(p) if p.both_in_check => Ok(()),
            Some(_) => Err(Rejected::IllegalMoveAlreadyWaiting),
            None => Ok(()),
        }
    }

    /// Checks that `mv` is a completed illegal move `by` can have made: his
    /// piece, not onto his own piece, not a legal move. The position it
    /// leaves if it stands (an unreplaced promotion completed as a queen),
    /// if that is a position a game can go on from.
    pub(super) fn check_illegal(
        &self,
        by: Color,
        mv: IllegalMove,
    ) -> Result<Option<Position>, Rejected> {
        let IllegalMove {
            from,
            to,
            promotion: promo,
        } = mv;
        if self.pos.board().color_at(from) != Some(by) {
            return Err(Rejected::NoPieceToMove { mv, by });
        }
        if self.pos.board().color_at(to) == Some(by) && !self.pos.is_legal(Move::new(from, to)) {
            return Err(Rejected::OwnPieceCaptured { mv, by });
        }
        let plain = Move {
            from,
            to,
            promotion: promo,
        };
        if self.pos.is_legal(plain) {
            return Err(Rejected::NotIllegal {
                san: self.pos.san(plain),
            });
        }
        let queen = Move::promote(from, to, Role::Queen);
        if promo.is_none() && self.pos.is_legal(queen) {
            let mut p = self.pos;
            p.play_unchecked(queen);
            return Ok(Some(p));
        }
        Ok(physical_move(&self.pos, from, to, promo))
    }

    pub(super) fn on_illegal(
        &mut self,
        by: Color,
        mv: IllegalMove,
        t: u64,
    ) -> Result<Applied, Rejected> {
        self.may_move_illegally(by)?;
        if let Some(board) = self
            .pending_illegal
            .as_ref()
            .filter(|p| p.both_in_check)
            .and_then(|p| p.stands)
        {
            // The next move after both kings were in check is itself
            // illegal: judged on the board the first one left.
            let before = std::mem::replace(&mut self.pos, board);
            let checked = self.check_illegal(by, mv);
            self.pos = before;
            checked?;
            let own_king_attacked = physical_setup(&board, mv.from, mv.to, mv.promotion)
                .and_then(|s| Position::from_setup_opponent_in_check(s, board.castling_mode()).ok())
                .is_some_and(|q| q.is_attacked(q.king_of(by), !by));
            let first = self.pending_illegal.take().map_or(!by, |p| p.by);
            if own_king_attacked {
                // An illegal position is still on the board: drawn.
                return Ok(self.illegal_position_remains(first, by, t));
            }
            // The position is legal again: the first illegal move stands
            // (not claimed), and this one is judged on the board it left.
            self.pos = board;
            self.history.push(&self.pos, true);
            self.alive = false;
        }
        let mut stands = self.check_illegal(by, mv)?;
        let needs_claim = self
            .rules
            .illegal_move_needs_claim(self.class, self.start.supervised);
        if stands.is_none() && needs_claim {
            stands = both_kings_in_check(&self.pos, mv);
        }
        let IllegalMove {
            from,
            to,
            promotion: promo,
        } = mv;
        // 7.5 a / 7.5.2: a pawn on the last rank not replaced becomes a queen.
        let queen = Move::promote(from, to, Role::Queen);
        let promotion = (promo.is_none() && self.pos.is_legal(queen)).then_some(queen);
        Ok(self.complete_illegal(by, stands, promotion, Some((from, to)), t))
    }

    /// A completed illegal move (or what 7.5.3 / 7.5.4 penalise as one) by
    /// `by`: `stands` is the position it leaves if it stands, `promotion`
    /// an unreplaced promotion completed as a queen, `touched` the squares
    /// of the move the replacement must honour (4.3).
    pub(super) fn complete_illegal(
        &mut self,
        by: Color,
        stands: Option<Position>,
        promotion: Option<Move>,
        touched: Option<(Square, Square)>,
        t: u64,
    ) -> Applied {
        // A move made, illegal or with two hands, touched a piece: the
        // opponent's draw offer lapses (9.1 b / 9.1.2.1), whatever then
        // becomes of the move. Pressing the clock alone touches none.
        let offer_lapsed = touched.is_some() && self.offer_declined_by_touch(by);
        let mut applied = self.complete_illegal_move(by, stands, promotion, touched, t);
        if offer_lapsed && self.outcome.is_none() {
            let lapsed = format!(
                "The draw offer of {} lapses: {by} touched a piece to move it (Art. {}).",
                !by, self.rules.articles.draw_offer
            );
            applied.note = Some(match applied.note {
                Some(n) => format!("{n} {lapsed}"),
                None => lapsed,
            });
        }
        applied
    }

    /// [`Game::complete_illegal`] once the offer is settled: the move
    /// waits for a claim, or the arbiter acts at once.
    fn complete_illegal_move(
        &mut self,
        by: Color,
        stands: Option<Position>,
        promotion: Option<Move>,
        touched: Option<(Square, Square)>,
        t: u64,
    ) -> Applied {
        let needs_claim = self
            .rules
            .illegal_move_needs_claim(self.class, self.start.supervised);
        if needs_claim {
            if let Some(c) = self.clock.as_mut() {
                c.press(by, t);
            }
            // An unreplaced promotion is not completed as a queen here: the
            // pawn stays on the last rank, an illegal position (A.4.4).
            let pawn_left_on = promotion.map(|q| q.to);
            let both_in_check = stands.is_some_and(|s| s.is_attacked(s.king_of(by), !by));
            let stands = match promotion {
                Some(q) => {
                    let mut setup = self.pos.to_setup();
                    setup.board.clear(q.from);
                    setup.board.clear(q.to);
                    setup.turn = !by;
                    setup.ep_square = None;
                    if by == Color::Black {
                        setup.fullmoves = setup.fullmoves.saturating_add(1);
                    }
                    setup.halfmoves = 0;
                    Position::from_setup(setup, self.pos.castling_mode()).ok()
                }
                None => stands,
            };
            self.pending_illegal = Some(PendingIllegal {
                by,
                before: self.pos,
                stands,
                promotion,
                pawn_left_on,
                both_in_check,
            });
            self.touched.clear();
            let mut note = format!(
                "completed illegal move; {} may claim it before making the next move (Art. {})",
                !by,
                self.rules.illegal_move_article(self.class, false)
            );
            if both_in_check {
                note += &format!(
                    ". Both kings are in check: the arbiter waits until the next move is completed (Art. {})",
                    self.rules.articles.illegal_position
                );
            }
            return Applied {
                note: Some(note),
                ..Applied::default()
            };
        }
        // The arbiter acts at once: the position before the move is restored.
        self.pending_illegal = Some(PendingIllegal {
            by,
            before: self.pos,
            stands: None,
            promotion,
            pawn_left_on: None,
            both_in_check: false,
        });
        if let Some(c) = self.clock.as_mut() {
            // Model the completed illegal move and its correction: pressed, then undone.
            c.press(by, t);
        }
        let mut applied = self.act_on_illegal(t);
        if let (None, None, Some((from, to))) = (&self.outcome, promotion, touched) {
            // 7.5 a / 7.5.1: Articles 4.3 and 4.7 apply to the replacement move.
            let mut touched = Touched::new();
            let _ = touched.touch(&self.pos, from);
            if self.pos.board().color_at(to) == Some(!by) {
                let _ = touched.touch(&self.pos, to);
            }
            self.touched = touched;
            let extra = format!(
                " The replacement move must follow touch-move (Art. {}): the piece on {from} was touched.",
                self.rules.articles.touch_move
            );
            applied.note = Some(applied.note.unwrap_or_default() + &extra);
        }
        applied
    }

    /// Rapid and blitz without adequate supervision: after `first`'s
    /// illegal move left both kings in check, the next move (by `by`) is
    /// completed and an illegal position is still on the board: `by`'s own
    /// king is in check with `first` to move. The game is drawn
    /// (A.4 d / A.4.4 / A.5.4).
    fn illegal_position_remains(&mut self, first: Color, by: Color, t: u64) -> Applied {
        let art = self.rules.articles.illegal_position;
        if let Some(c) = self.clock.as_mut() {
            c.press(by, t);
        }
        self.touched.clear();
        self.end(GameResult::DRAW, Termination::ArbiterDecision, art, t);
        Applied {
            note: Some(format!(
                "{first}'s illegal move left both kings in check, and after {by}'s next move {by}'s king is still in check with {first} to move: an illegal position on the board, drawn (Art. {art})"
            )),
            ..Applied::default()
        }
    }

    /// The game lost by `offender`'s illegal move, or drawn if the opponent
    /// cannot checkmate in `before` (7.5 b / 7.5.5, A.4 b): the claim (or
    /// the arbiter's observation) is correct.
    pub(super) fn lost_by_illegal_move(
        &mut self,
        offender: Color,
        before: &Position,
        article: &'static str,
        t: u64,
    ) -> Applied {
        let mut applied = self.lose_unless_unwinnable(
            offender,
            before,
            Termination::IllegalMove,
            Termination::IllegalMove,
            article,
            t,
        );
        applied.claim = Some(ClaimVerdict::Correct);
        applied
    }

    /// The arbiter acts on the pending illegal move (7.5, A.4 b, A.4.2, A.5.2).
    pub(super) fn act_on_illegal(&mut self, t: u64) -> Applied {
        let Some(p) = self.pending_illegal.take() else {
            return Applied::default();
        };
        // The opponent's touches on the board the illegal move left go.
        self.touched.clear();
        let offender = p.by;
        let article = self
            .rules
            .illegal_move_article(self.class, self.start.supervised);
        let penalty = self
            .rules
            .illegal_move_penalty(self.class, self.start.supervised);
        match penalty {
            IllegalMovePenalty::Loss => self.lost_by_illegal_move(offender, &p.before, article, t),
            IllegalMovePenalty::ExtraTime { ms } => {
                self.illegal_count[offender.index()] += 1;
                if self.illegal_count[offender.index()] >= 2 {
                    let mut applied = self.lost_by_illegal_move(offender, &p.before, article, t);
                    applied.note = Some(format!(
                        "second completed illegal move by {offender} (Art. {article}). {}",
                        applied.note.unwrap_or_default()
                    ));
                    return applied;
                }
                let penalty_art = self.rules.penalty_article(self.class, article);
                let mut applied = Applied {
                    claim: Some(ClaimVerdict::Correct),
                    ..Applied::default()
                };
                if let Some(c) = self.clock.as_mut() {
                    c.add_time(!offender, ms);
                    applied.penalty = Some(Penalty {
                        to: !offender,
                        ms,
                        article: penalty_art.into(),
                    });
                }
                self.pos = p.before;
                match p.promotion {
                    Some(q) => {
                        // The move stands, completed with a queen (7.5 a / 7.5.2).
                        let san = self.pos.san(q);
                        let before = self.pos;
                        self.pos.play_unchecked(q);
                        self.history.push(&self.pos, true);
                        self.moves_by[offender.index()] += 1;
                        self.moves.push(PlayedMove {
                            mv: q,
                            san: san.clone(),
                            by: offender,
                            t,
                        });
                        applied.san = Some(san);
                        applied.note = Some(format!(
                            "first completed illegal move by {offender} (Art. {article}): the pawn is replaced by a queen (Art. {})",
                            self.rules.articles.unreplaced_promotion
                        ));
                        self.check_automatic_end(Some((&before, q)), t);
                    }
                    None => {
                        if let Some(c) = self.clock.as_mut() {
                            c.undo_press(offender, t);
                        }
                        applied.note = Some(format!(
                            "first completed illegal move by {offender}: the position before it is restored and {offender} moves again (Art. {article})"
                        ));
                    }
                }
                applied
            }
        }
    }
}

/// The position after physically moving the piece on `from` to `to`
/// (capturing what stands there), if that is a legal position with the
/// opponent to move. Used when an illegal move stands (A.4 b).
fn physical_move(
    pos: &Position,
    from: Square,
    to: Square,
    promo: Option<Role>,
) -> Option<Position> {
    let setup = physical_setup(pos, from, to, promo)?;
    Position::from_setup(setup, pos.castling_mode()).ok()
}

/// The position `mv` leaves when it leaves both kings in check: the
/// offender's, and the opponent's, who is to move (A.4 d / A.4.4 / A.5.4).
fn both_kings_in_check(pos: &Position, mv: IllegalMove) -> Option<Position> {
    let by = pos.turn();
    let setup = physical_setup(pos, mv.from, mv.to, mv.promotion)?;
    let q = Position::from_setup_opponent_in_check(setup, pos.castling_mode()).ok()?;
    (q.is_check() && q.is_attacked(q.king_of(by), !by)).then_some(q)
}

/// The setup after physically moving the piece on `from` to `to`, the
/// opponent to move (a pawn reaching the last rank unreplaced becomes a
/// queen; see [`Game::complete_illegal`] for rapid and blitz).
fn physical_setup(pos: &Position, from: Square, to: Square, promo: Option<Role>) -> Option<Setup> {
    let mut setup: Setup = pos.to_setup();
    let piece = setup.board.clear(from)?;
    let captured = setup.board.clear(to);
    let us = piece.color;
    let placed = match (piece.role, promo) {
        (Role::Pawn, Some(r)) => r.of(us),
        (Role::Pawn, None) if to.rank() == Rank::EIGHTH.relative_to(us) => Role::Queen.of(us),
        _ => piece,
    };
    setup.board.set(to, placed);
    if piece.role == Role::King {
        castle_rook(&mut setup, from, to);
    }
    let mut rights = setup.castling_rights & !(Bitboard::from(from) | Bitboard::from(to));
    if piece.role == Role::King {
        rights &= !Bitboard::rank(Rank::FIRST.relative_to(us));
    }
    setup.castling_rights = rights;
    setup.ep_square = None;
    setup.halfmoves = if piece.role == Role::Pawn || captured.is_some() {
        0
    } else {
        setup.halfmoves.saturating_add(1)
    };
    if us == Color::Black {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    setup.turn = !us;
    Some(setup)
}

/// A king moved two squares along its rank (`e1g1`, `e1c1`): castling,
/// a move of the king and a rook (3.8), illegal here. The rook it is
/// effected with — ours, the first beyond the king's square of arrival,
/// lifted over anything between — is transferred to the square the king
/// has just crossed, if that square is empty; if there is none, or the
/// square is taken, the king moved alone.
fn castle_rook(setup: &mut Setup, from: Square, to: Square) {
    let step = to.file().index() as i32 - from.file().index() as i32;
    if from.rank() != to.rank() || step.abs() != 2 {
        return;
    }
    let Some(king) = setup.board.piece_at(to) else {
        return;
    };
    let dir = step.signum();
    let Some(crossed) = from.offset(dir) else {
        return;
    };
    if setup.board.piece_at(crossed).is_some() {
        return;
    }
    let mut sq = to.offset(dir);
    while let Some(s) = sq.filter(|s| s.rank() == from.rank()) {
        match setup.board.piece_at(s) {
            Some(p) if p.color == king.color && p.role == Role::Rook => {
                if let Some(rook) = setup.board.clear(s) {
                    setup.board.set(crossed, rook);
                }
                return;
            }
            _ => sq = s.offset(dir),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Event, Game, IllegalMove, Rejected, Start, Termination};
    use arbiter_chess::{Color, Square};

    #[test]
    fn a_legal_move_is_not_illegal() {
        let mut g = Game::new(Start::default()).unwrap();
        let e = g
            .apply(Event::illegal(
                0,
                Color::White,
                IllegalMove::new(Square::E2, Square::E4),
            ))
            .unwrap_err();
        assert_eq!(e, Rejected::NotIllegal { san: "e4".into() });
    }

    #[test]
    fn no_piece_on_the_square_is_refused() {
        let mut g = Game::new(Start::default()).unwrap();
        let mv = IllegalMove::new(Square::E3, Square::E5);
        let e = g.apply(Event::illegal(0, Color::White, mv)).unwrap_err();
        assert_eq!(e.to_string(), "illegal move e3e5: white has no piece on e3");
    }

    #[test]
    fn second_illegal_move_loses_standard_art_7_5_b() {
        let mut g = Game::new(Start::default()).unwrap();
        let mv = IllegalMove::new(Square::E1, Square::E3);
        g.apply(Event::illegal(0, Color::White, mv)).unwrap();
        assert_eq!(g.illegal_moves(Color::White), 1);
        g.apply(Event::illegal(0, Color::White, mv)).unwrap();
        let o = g.outcome().unwrap();
        assert_eq!(
            (o.termination, o.result.to_string()),
            (Termination::IllegalMove, "0-1".to_owned())
        );
    }
}
