//! Move ordering: the hash move, then good captures (MVV-LVA, capture
//! history, SEE), killers, the counter move, quiet moves by history, and
//! captures that lose material last.

use super::History;
use crate::see::{see_ge, value};
use arbiter_chess::{Bitboard, Move, Position, Rank, Role};
use arrayvec::ArrayVec;

/// Where a move came from in the ordering.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    TtMove,
    GoodCaptures,
    Killers,
    Counter,
    Quiets,
    BadCaptures,
}

type Scored = ArrayVec<(Move, i32), 256>;

pub(crate) struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    killer_index: usize,
    counter: Option<Move>,
    prev: Option<(Move, usize)>,
    prev2: Option<(Move, usize)>,
    captures_only: bool,
    generated: bool,
    captures: Scored,
    quiets: Scored,
    bad: Scored,
    quiets_scored: bool,
}

fn pick_best(list: &mut Scored) -> Option<(Move, i32)> {
    if list.is_empty() {
        return None;
    }
    let mut best = 0;
    for i in 1..list.len() {
        if list[i].1 > list[best].1 {
            best = i;
        }
    }
    Some(list.swap_remove(best))
}

impl MovePicker {
    pub(crate) fn new(
        _pos: &Position,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        prev: Option<(Move, usize)>,
        prev2: Option<(Move, usize)>,
        captures_only: bool,
    ) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            killer_index: 0,
            counter,
            prev,
            prev2,
            captures_only,
            generated: false,
            captures: Scored::new(),
            quiets: Scored::new(),
            bad: Scored::new(),
            quiets_scored: false,
        }
    }

    fn generate(&mut self, pos: &Position, history: &History) {
        self.generated = true;
        let us = pos.turn();
        let them = pos.board().by_color(!us);
        let mut to_mask = Bitboard::FULL;
        if self.captures_only {
            to_mask = them | Bitboard::rank(Rank::EIGHTH.relative_to(us));
            if let Some(ep) = pos.legal_ep_square() {
                to_mask |= ep;
            }
        }
        let tt = self.tt_move;
        let captures_only = self.captures_only;
        let captures = &mut self.captures;
        let quiets = &mut self.quiets;
        pos.for_each_piece_moves_masked(Bitboard::FULL, to_mask, |pm| {
            for m in pm.iter() {
                if Some(m) == tt {
                    continue;
                }
                let victim = pos.captured_role(m);
                if victim.is_some() || m.promotion == Some(Role::Queen) {
                    let v = victim.map_or(0, value) + m.promotion.map_or(0, value);
                    let piece = pm.role.index() + 6 * us.index();
                    let ch = victim.map_or(0, |r| history.capture[piece][m.to.index()][r.index()]);
                    captures.push((m, v * 16 - value(pm.role) / 10 + ch / 32));
                } else if !captures_only {
                    quiets.push((m, 0));
                }
            }
            false
        });
    }

    fn score_quiets(&mut self, pos: &Position, history: &History) {
        self.quiets_scored = true;
        let us = pos.turn().index();
        for entry in self.quiets.iter_mut() {
            let m = entry.0;
            let piece = pos.role_at(m.from).map_or(0, |r| r.index()) + 6 * us;
            let mut h = history.butterfly[us][m.from.index()][m.to.index()];
            if let Some((pm, pp)) = self.prev {
                h += history.cont[pp * 64 + pm.to.index()][piece][m.to.index()];
            }
            if let Some((pm, pp)) = self.prev2 {
                h += history.cont[pp * 64 + pm.to.index()][piece][m.to.index()];
            }
            if m.promotion.is_some() {
                h -= 100_000; // under-promotions last
            }
            entry.1 = h;
        }
    }

    fn take_quiet(&mut self, m: Option<Move>) -> Option<Move> {
        let m = m?;
        let i = self.quiets.iter().position(|&(q, _)| q == m)?;
        self.quiets.swap_remove(i);
        Some(m)
    }

    /// The next move and the stage it comes from.
    pub(crate) fn next(&mut self, pos: &Position, history: &History) -> Option<(Move, Stage)> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GoodCaptures;
                    if let Some(m) = self.tt_move {
                        if !self.captures_only
                            || pos.is_capture(m)
                            || m.promotion.is_some()
                            || pos.is_check()
                        {
                            return Some((m, Stage::TtMove));
                        }
                    }
                }
                Stage::GoodCaptures => {
                    if !self.generated {
                        self.generate(pos, history);
                    }
                    while let Some((m, sc)) = pick_best(&mut self.captures) {
                        if see_ge(pos, m, 0) {
                            return Some((m, Stage::GoodCaptures));
                        }
                        self.bad.push((m, sc));
                    }
                    self.stage = if self.captures_only {
                        Stage::Quiets
                    } else {
                        Stage::Killers
                    };
                }
                Stage::Killers => {
                    if self.killer_index < 2 {
                        let k = self.killers[self.killer_index];
                        self.killer_index += 1;
                        if let Some(m) = self.take_quiet(k) {
                            return Some((m, Stage::Killers));
                        }
                    } else {
                        self.stage = Stage::Counter;
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::Quiets;
                    if let Some(m) = self.take_quiet(self.counter) {
                        return Some((m, Stage::Counter));
                    }
                }
                Stage::Quiets => {
                    if !self.quiets_scored {
                        self.score_quiets(pos, history);
                    }
                    if let Some((m, _)) = pick_best(&mut self.quiets) {
                        return Some((m, Stage::Quiets));
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    return pick_best(&mut self.bad).map(|(m, _)| (m, Stage::BadCaptures));
                }
            }
        }
    }
}
