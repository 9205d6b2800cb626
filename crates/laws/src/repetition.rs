//! Repetition of positions (FIDE Art. 9.2, 9.6 a / 9.6.1).
//!
//! "Positions are considered the same if and only if the same player has the
//! move, pieces of the same kind and colour occupy the same squares and the
//! possible moves of all the pieces of both players are the same": the
//! placement, the side to move, the castling rights (per rook) and an
//! en-passant capture only when one is legal. The core's Zobrist key covers
//! exactly that; a key match is confirmed by comparing those parts.
//!
//! Only positions since the last capture or pawn move can repeat (such moves
//! cannot be undone), so the history is kept from there: a few dozen entries.

use crate::edition::Fivefold;
use arbiter_chess::{Bitboard, Board, Color, Position, Square};

/// The parts of a position that Art. 9.2 compares.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_laws::repetition::Identity;
/// let mut pos = Position::standard();
/// let start = Identity::of(&pos);
/// for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
///     pos.play(pos.parse_san(san)?)?;
/// }
/// // The same placement, player to move and castling rights (9.2).
/// assert_eq!(Identity::of(&pos), start);
/// pos.play(pos.parse_san("e4")?)?;
/// assert_ne!(Identity::of(&pos), start);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    board: Board,
    turn: Color,
    castling: Bitboard,
    ep: Option<Square>,
}

impl Identity {
    /// The Art. 9.2 identity of `pos`.
    pub fn of(pos: &Position) -> Identity {
        Identity {
            board: *pos.board(),
            turn: pos.turn(),
            castling: pos.castling_rights(),
            ep: pos.legal_ep_square(),
        }
    }
}

/// The positions of the game since the last irreversible move.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_laws::{edition::Fivefold, repetition::History};
/// let mut pos = Position::standard();
/// let mut history = History::new(&pos);
/// for _ in 0..2 {
///     for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
///         let m = pos.parse_san(san)?;
///         let irreversible = pos.is_zeroing(m);
///         pos.play(m)?;
///         history.push(&pos, irreversible);
///     }
/// }
/// // The initial position for the third time: a threefold claim is correct (9.2).
/// assert_eq!(history.count_current(), 3);
/// assert!(!history.is_fivefold(Fivefold::FiveTimes));
/// // A pawn move: no earlier position can recur.
/// let m = pos.parse_san("e4")?;
/// assert_eq!(history.count_if_reached(&pos, pos.is_zeroing(m)), 1);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct History {
    keys: Vec<u64>,
    identities: Vec<Identity>,
}

impl Clone for History {
    fn clone(&self) -> History {
        History {
            keys: self.keys.clone(),
            identities: self.identities.clone(),
        }
    }

    /// The copy of `source` in the buffers of `self`.
    fn clone_from(&mut self, source: &History) {
        self.keys.clone_from(&source.keys);
        self.identities.clone_from(&source.identities);
    }
}

impl History {
    /// A history holding only `pos`.
    pub fn new(pos: &Position) -> History {
        let mut h = History::default();
        h.push(pos, true);
        h
    }

    /// Records the position after a move; `irreversible` (a capture or pawn
    /// move) clears the earlier positions, which can never recur.
    pub fn push(&mut self, pos: &Position, irreversible: bool) {
        if irreversible {
            self.keys.clear();
            self.identities.clear();
        }
        self.keys.push(pos.zobrist());
        self.identities.push(Identity::of(pos));
    }

    /// Number of positions kept.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// `true` if empty (never, once created).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// How many of the first `upto` recorded positions are the same as `pos`.
    fn count_in(&self, pos: &Position, upto: usize) -> usize {
        let key = pos.zobrist();
        let id = Identity::of(pos);
        self.keys[..upto]
            .iter()
            .zip(&self.identities[..upto])
            .filter(|(k, i)| **k == key && **i == id)
            .count()
    }

    /// How many times the last recorded position has appeared (≥ 1).
    pub fn count_current(&self) -> usize {
        match self.identities.last() {
            None => 0,
            Some(_) => {
                let key = self.keys[self.keys.len() - 1];
                let id = self.identities[self.identities.len() - 1];
                self.keys
                    .iter()
                    .zip(&self.identities)
                    .rev()
                    .step_by(2)
                    .filter(|(k, i)| **k == key && **i == id)
                    .count()
            }
        }
    }

    /// How many times `after` would have appeared if it were reached now by
    /// a reversible move (including that new appearance). For an
    /// irreversible move the answer is 1.
    pub fn count_if_reached(&self, after: &Position, irreversible: bool) -> usize {
        if irreversible {
            1
        } else {
            self.count_in(after, self.keys.len()) + 1
        }
    }

    /// `true` if the last recorded position completes a fivefold repetition
    /// (9.6 a / 9.6.1).
    pub fn is_fivefold(&self, rule: Fivefold) -> bool {
        match rule {
            // Five positions of one player to move: nine kept at least.
            Fivefold::FiveTimes => self.keys.len() >= 9 && self.count_current() >= 5,
            Fivefold::ConsecutiveAlternate => {
                // 2014: the same position at plies p, p+4, p+8, p+12, p+16.
                let n = self.keys.len();
                if n < 17 {
                    return false;
                }
                let last = n - 1;
                (1..=4).all(|k| {
                    let j = last - 4 * k;
                    self.keys[j] == self.keys[last] && self.identities[j] == self.identities[last]
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(pos: &mut Position, h: &mut History, san: &str) {
        let m = pos.parse_san(san).unwrap();
        let irr = pos.is_zeroing(m);
        pos.play_unchecked(m);
        h.push(pos, irr);
    }

    #[test]
    fn knight_shuffle_counts() {
        let mut pos = Position::standard();
        let mut h = History::new(&pos);
        for _ in 0..2 {
            for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                play(&mut pos, &mut h, san);
            }
        }
        assert_eq!(h.count_current(), 3);
        assert!(!h.is_fivefold(Fivefold::FiveTimes));
        for _ in 0..2 {
            for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                play(&mut pos, &mut h, san);
            }
        }
        assert_eq!(h.count_current(), 5);
        assert!(h.is_fivefold(Fivefold::FiveTimes));
        assert!(h.is_fivefold(Fivefold::ConsecutiveAlternate));
    }

    #[test]
    fn five_times_not_consecutive() {
        // The start position recurs five times, but with a different shuffle
        // in between: 2018+ fivefold, not 2014.
        let mut pos = Position::standard();
        let mut h = History::new(&pos);
        for _ in 0..3 {
            for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                play(&mut pos, &mut h, san);
            }
        }
        for san in ["Nf3", "Nf6", "Ng5", "Ng4", "Nf3", "Nf6", "Ng1", "Ng8"] {
            play(&mut pos, &mut h, san);
        }
        assert_eq!(h.count_current(), 5);
        assert!(h.is_fivefold(Fivefold::FiveTimes));
        assert!(!h.is_fivefold(Fivefold::ConsecutiveAlternate));
    }
}
