//! Helpmate lines as proofs that a position is not dead, kept from move to
//! move.
//!
//! A line of legal moves ending in checkmate is a proof that the position it
//! starts from is not dead (Art. 5.2 b / 5.2.2: "neither player can
//! checkmate ... with any series of legal moves" is false). A line is only
//! ever believed after [`is_helpmate`] has replayed it.
//!
//! After a move of the game, the last line often still works with a small
//! change: without its first move (when that move was played, or when the
//! move played can stand in for it); after one reply of the opponent first
//! (a tempo); with the moved piece's next move in the line starting from
//! its new square; or, when the game played a move the line makes later,
//! with that move taken out (and the moves before it reordered, or tempo
//! moves put in). [`Witness::repair`] tries a handful of such candidates,
//! each replayed; the choice of candidates is a heuristic, the verdict is
//! the replay's.

use arbiter_chess::{Color, Move, Position};

/// Plays `line` from `pos`; `true` if every move is legal and the last one
/// checkmates `winner`'s opponent.
pub fn is_helpmate(pos: &Position, winner: Color, line: &[Move]) -> bool {
    let mut p = *pos;
    for &m in line {
        if !p.is_legal(m) {
            return false;
        }
        p.play_unchecked(m);
    }
    p.turn() == !winner && p.is_checkmate()
}

/// The squares a line moves from or to.
fn squares_of(line: &[Move]) -> arbiter_chess::Bitboard {
    let mut used = arbiter_chess::Bitboard::EMPTY;
    for m in line {
        used.add(m.from);
        used.add(m.to);
    }
    used
}

/// Up to `n` (at most 8) legal moves of the player to move in `pos` that
/// neither leave nor reach a square of `used`.
fn tempo_moves(pos: &Position, used: arbiter_chess::Bitboard, n: usize) -> [Option<Move>; 8] {
    let mut found = [None; 8];
    let n = n.min(found.len());
    let mut k = 0;
    if n > 0 {
        pos.for_each_piece_moves_masked(!used, !used, |pm| {
            for y in pm.iter() {
                found[k] = Some(y);
                k += 1;
                if k == n {
                    return true;
                }
            }
            false
        });
    }
    found
}

/// Plays `line` on `p` while every move is legal, counting plies in
/// `spent` against `budget`.
fn replay(p: &mut Position, line: &[Move], budget: usize, spent: &mut usize) -> bool {
    if *spent + line.len() > budget {
        return false;
    }
    for &m in line {
        *spent += 1;
        if !p.is_legal(m) {
            return false;
        }
        p.play_unchecked(m);
    }
    true
}

/// The longest line kept (longer lines cost more to replay than they save).
pub const MAX_LINE: usize = 160;

/// A helpmate line known to be valid from `start`.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_laws::dead::{is_helpmate, Witness};
/// let w = Witness::fools_mate();
/// assert!(w.starts_at(&Position::standard()));
/// assert_eq!(w.line.len(), 4); // 1. f3 e5 2. g4 Qh4#
/// assert!(is_helpmate(&w.start, w.winner, &w.line));
/// ```
#[derive(Clone, Debug)]
pub struct Witness {
    /// The position the line starts from.
    pub start: Position,
    /// The side that checkmates.
    pub winner: Color,
    /// The moves, ending in checkmate.
    pub line: Vec<Move>,
}

impl Witness {
    /// The Fool's mate, 1. f3 e5 2. g4 Qh4#: a helpmate from the initial
    /// position, by Black.
    pub fn fools_mate() -> Witness {
        let start = Position::standard();
        let mut p = start;
        let line = ["f3", "e5", "g4", "Qh4"]
            .iter()
            .filter_map(|san| {
                let m = p.parse_san(san).ok()?;
                p.play_unchecked(m);
                Some(m)
            })
            .collect();
        Witness {
            start,
            winner: Color::Black,
            line,
        }
    }

    /// `true` if the witness starts from `pos` (the same position under
    /// Art. 9.2: placement, turn, castling rights and en passant).
    pub fn starts_at(&self, pos: &Position) -> bool {
        self.start.zobrist() == pos.zobrist()
            && crate::repetition::Identity::of(&self.start) == crate::repetition::Identity::of(pos)
    }

    /// Follows the game's move `m` from the witness's start to `after`, if
    /// `m` is the first move of the line: the rest of the line is then valid
    /// from `after` without replay.
    pub fn follow(&mut self, m: Move, after: &Position) -> bool {
        if self.line.first() == Some(&m) && self.line.len() > 1 {
            self.line.remove(0);
            self.start = *after;
            true
        } else {
            false
        }
    }

    /// A line valid from `pos` made from this one, if one of the candidates
    /// replays: the line itself, without its first move, or after a tempo
    /// move of the player to move in `pos` (up to `tempos` of them, chosen
    /// among moves of pieces the line does not move); and the same with the
    /// line's moves of the piece the game's last move `moved` (from, to)
    /// displaced starting from its new square; or, if the line plays
    /// `moved` itself later, the line with that move taken out and the moves
    /// before it swapped pairwise. At most `budget` plies are replayed in
    /// all.
    pub fn repair(
        &self,
        pos: &Position,
        moved: Option<Move>,
        tempos: usize,
        budget: usize,
    ) -> Option<Vec<Move>> {
        let mut spent = 0;
        if let Some(line) = self.repair_line(pos, &self.line, tempos, budget, &mut spent) {
            return Some(line);
        }
        let m = moved?;
        // The game played a move the line plays later (by the same player,
        // at an even index): the moves before it, each pair swapped, then
        // the rest.
        if let Some(j) = self.line.iter().step_by(2).position(|&x| x == m) {
            let j = 2 * j;
            let mut swapped = Vec::with_capacity(self.line.len());
            for pair in self.line[..j].chunks(2) {
                swapped.extend(pair.iter().rev());
            }
            swapped.extend_from_slice(&self.line[j + 1..]);
            if let Some(line) = self.repair_line(pos, &swapped, 0, budget, &mut spent) {
                return Some(line);
            }
            if let Some(line) = self.skip_with_tempos(pos, j, tempos.min(2), budget, &mut spent) {
                return Some(line);
            }
        }
        // The piece the game moved is followed to its new square: the line's
        // next move of it starts from there (dropped if it went there).
        let i = self.line.iter().position(|x| x.from == m.from)?;
        let mut remapped = self.line.clone();
        if remapped[i].to == m.to && remapped[i].promotion == m.promotion {
            remapped.remove(i);
        } else {
            remapped[i].from = m.to;
        }
        self.repair_line(pos, &remapped, tempos, budget, &mut spent)
    }

    /// A line valid from `pos` made from this one by replaying it and
    /// putting, in place of each move that is no longer legal (the game
    /// captured or blocked its piece), a tempo move of the same player by a
    /// piece the line does not use, to a square it does not touch (and one
    /// first if the other player has the move in `pos`): at most `patches`
    /// such moves, at most `budget` plies replayed. The result is a
    /// helpmate only if its last move still mates, which the replay checks;
    /// a line that needed the lost piece simply fails.
    pub fn patch(&self, pos: &Position, patches: usize, budget: usize) -> Option<Vec<Move>> {
        if self.line.len() + 1 > MAX_LINE.min(budget) {
            return None;
        }
        let used = squares_of(&self.line);
        let mut p = *pos;
        let mut out = Vec::with_capacity(self.line.len() + 1);
        let mut left = patches;
        let tempo = |p: &mut Position, out: &mut Vec<Move>, left: &mut usize| -> bool {
            if *left == 0 {
                return false;
            }
            *left -= 1;
            match tempo_moves(p, used, 1)[0] {
                Some(y) => {
                    p.play_unchecked(y);
                    out.push(y);
                    true
                }
                None => false,
            }
        };
        if pos.turn() != self.start.turn() && !tempo(&mut p, &mut out, &mut left) {
            return None;
        }
        let last = self.line.len() - 1;
        for (i, &m) in self.line.iter().enumerate() {
            if p.is_legal(m) {
                p.play_unchecked(m);
                out.push(m);
            } else if i == last || !tempo(&mut p, &mut out, &mut left) {
                return None;
            }
        }
        (p.turn() == !self.winner && p.is_checkmate()).then_some(out)
    }

    /// The line with its move at `j` (already played in the game) skipped:
    /// a tempo of the player to move first, the moves before `j`, a tempo of
    /// the other player in place of the skipped move, the rest.
    fn skip_with_tempos(
        &self,
        pos: &Position,
        j: usize,
        tempos: usize,
        budget: usize,
        spent: &mut usize,
    ) -> Option<Vec<Move>> {
        let used = squares_of(&self.line);
        for y in tempo_moves(pos, used, tempos).into_iter().flatten() {
            let mut p = *pos;
            p.play_unchecked(y);
            if !replay(&mut p, &self.line[..j], budget, spent) {
                continue;
            }
            for z in tempo_moves(&p, used, tempos).into_iter().flatten() {
                let mut q = p;
                q.play_unchecked(z);
                if replay(&mut q, &self.line[j + 1..], budget, spent)
                    && q.turn() == !self.winner
                    && q.is_checkmate()
                {
                    let mut line = Vec::with_capacity(self.line.len() + 1);
                    line.push(y);
                    line.extend_from_slice(&self.line[..j]);
                    line.push(z);
                    line.extend_from_slice(&self.line[j + 1..]);
                    return Some(line);
                }
            }
        }
        None
    }

    fn repair_line(
        &self,
        pos: &Position,
        line: &[Move],
        tempos: usize,
        budget: usize,
        spent: &mut usize,
    ) -> Option<Vec<Move>> {
        let winner = self.winner;
        let mut replays = |line: &[Move]| -> bool {
            let mut p = *pos;
            replay(&mut p, line, budget, spent) && p.turn() == !winner && p.is_checkmate()
        };
        if line.is_empty() {
            return None;
        }
        if replays(line) {
            return Some(line.to_vec());
        }
        if line.len() > 1 && replays(&line[1..]) {
            return Some(line[1..].to_vec());
        }
        if tempos == 0 || line.len() + 1 > MAX_LINE {
            return None;
        }
        // Tempo moves by pieces the line does not use, to squares it does
        // not touch.
        let candidates = tempo_moves(pos, squares_of(line), tempos);
        let mut longer = Vec::with_capacity(line.len() + 1);
        for y in candidates.iter().flatten() {
            longer.clear();
            longer.push(*y);
            longer.extend_from_slice(line);
            if replays(&longer) {
                return Some(longer);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(p: &Position, sans: &[&str]) -> Vec<Move> {
        let mut q = *p;
        sans.iter()
            .map(|s| {
                let m = q.parse_san(s).unwrap();
                q.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn replay_checks_every_move_and_the_mate() {
        let p = Position::standard();
        let fools = moves(&p, &["f3", "e5", "g4", "Qh4"]);
        assert!(is_helpmate(&p, Color::Black, &fools));
        assert!(!is_helpmate(&p, Color::White, &fools));
        assert!(!is_helpmate(&p, Color::Black, &fools[..3]));
        // An illegal move anywhere breaks the line.
        let mut bad = fools.clone();
        bad[1] = Move::new(arbiter_chess::Square::E7, arbiter_chess::Square::E4);
        assert!(!is_helpmate(&p, Color::Black, &bad));
    }

    #[test]
    fn the_fools_mate_is_a_helpmate_from_the_initial_position() {
        let w = Witness::fools_mate();
        assert_eq!(w.line.len(), 4);
        assert!(w.starts_at(&Position::standard()));
        assert!(is_helpmate(&w.start, w.winner, &w.line));
    }

    #[test]
    fn a_move_no_longer_legal_is_patched_by_a_tempo() {
        let p = Position::standard();
        let line = moves(&p, &["b3", "e5", "f3", "a6", "g4", "Qh4"]);
        let w = Witness {
            start: p,
            winner: Color::Black,
            line,
        };
        // White's b-pawn already stands on b3: the line's b3 cannot be
        // played; a tempo of White in its place, and the rest mates.
        let q =
            Position::from_fen_auto("rnbqkbnr/pppppppp/8/8/8/1P6/P1PPPPPP/RNBQKBNR w KQkq - 0 1")
                .unwrap();
        assert!(w.repair(&q, None, 0, 1000).is_none());
        let patched = w.patch(&q, 4, 1000).unwrap();
        assert!(is_helpmate(&q, Color::Black, &patched));
        assert_eq!(patched.len(), 6);
        assert_ne!(patched[0], w.line[0]);
        // No patch allowed, or no budget: nothing is claimed.
        assert!(w.patch(&q, 0, 1000).is_none());
        assert!(w.patch(&q, 4, 3).is_none());
        // The mating move itself is never patched: with the black queen
        // gone, the line fails.
        let r =
            Position::from_fen_auto("rnb1kbnr/pppppppp/8/8/8/1P6/P1PPPPPP/RNBQKBNR w KQkq - 0 1")
                .unwrap();
        assert!(w.patch(&r, 4, 1000).is_none());
    }

    #[test]
    fn repairs_are_replayed() {
        let p = Position::standard();
        let line = moves(&p, &["f3", "e5", "g4", "Qh4"]);
        let w = Witness {
            start: p,
            winner: Color::Black,
            line,
        };
        // The game goes 1. Nc3 instead of 1. f3: Black needs a tempo first?
        // No: Black to move, and the line starts with White's f3. A Black
        // tempo move, then f3 e5 g4 Qh4# still mates.
        let mut q = p;
        q.play_unchecked(q.parse_san("Nc3").unwrap());
        let fixed = w.repair(&q, None, 4, 100).unwrap();
        assert!(is_helpmate(&q, Color::Black, &fixed));
        assert_eq!(fixed.len(), 5);
        // After 1. e4 the queen's diagonal is still open but e4 blocks
        // nothing; after 1. e3 the king gets f2... checked by replay only.
        for first in ["e3", "e4", "g3", "h4", "Nh3"] {
            let mut q = p;
            q.play_unchecked(q.parse_san(first).unwrap());
            if let Some(fixed) = w.repair(&q, None, 8, 1000) {
                assert!(is_helpmate(&q, Color::Black, &fixed), "{first}");
            }
        }
        // With no budget, nothing is replayed and nothing is claimed.
        assert!(w.repair(&q, None, 4, 0).is_none());
        // The piece the game moved is followed: after 1. e3 the line's e4
        // is played from e3 (a tempo of Black first).
        let line = moves(&p, &["a4", "f5", "e4", "g5", "Qh5"]);
        let w = Witness {
            start: p,
            winner: Color::White,
            line,
        };
        let e3 = p.parse_san("e3").unwrap();
        let mut q = p;
        q.play_unchecked(e3);
        assert!(w.repair(&q, None, 4, 1000).is_none());
        let fixed = w.repair(&q, Some(e3), 4, 1000).unwrap();
        assert!(is_helpmate(&q, Color::White, &fixed));
        // The game plays the line's third move first: 1. e4 (the line's
        // 1. a4 f5 2. e4): f5 a4 then on as before.
        let e4 = p.parse_san("e4").unwrap();
        let mut q = p;
        q.play_unchecked(e4);
        let fixed = w.repair(&q, Some(e4), 0, 1000).unwrap();
        assert!(is_helpmate(&q, Color::White, &fixed));
        assert_eq!(fixed.len(), 4);
    }
}
