//! A record's line played in one pass: the moves of a game score (Art. 8.1)
//! applied as [`Game::apply`] applies them one by one, each position made
//! once, and the dead-position test (5.2 b / 5.2.2) asked once per line
//! instead of after every move.
//!
//! Being dead is monotone along a game: every position reached from a dead
//! one is dead (no series of legal moves from it mates, so none from a later
//! one does), and so every position before an alive one is alive. One exact
//! verdict on the line's last position therefore settles every position
//! before it when it is alive (or a checkmate), and when it is dead a binary
//! search over the plies finds the first dead one — a handful of verdicts,
//! not one per move.
//!
//! A move after which the Laws cannot end the game — its position proven
//! alive, a legal move after it, no fivefold repetition or 75-move count
//! within reach ([`may_end_by_count`]), no draw offer to lapse — is played
//! plainly, in runs: the clock, the move and the event logs. The position on the
//! board and the repetition history (9.2) are caught up with only before a
//! move that may end the game, from the last capture or pawn move (the
//! positions before it can never recur): the same state, move by move.

use super::play::Known;
use super::{Game, PlayedMove, Rejected};
use crate::event::{Action, Actor, Event};
use arbiter_chess::{Move, Position};
use std::ops::Range;

/// Plies from the position on the board beyond which the kept helpmate
/// line is dropped before a line's positions are tested from its end
/// ([`Game::monotone_search`]).
const FAR: usize = 8;

/// How a line went: [`Game::play_line`].
///
/// ```
/// use arbiter_laws::{Game, LinePlayed, Start};
/// let played = LinePlayed { plies: 0, refused: None };
/// assert!(played.refused.is_none());
/// # let _ = Game::new(Start::default());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinePlayed {
    /// Moves played (up to the end of the line, or to the move that ended
    /// the game).
    pub plies: usize,
    /// The move after them could not be played, and why.
    pub refused: Option<Rejected>,
}

impl Game {
    /// Plays the moves of a record's line from the position on the board,
    /// move `i` completed at `times[i]` (0 past the end of `times`, time
    /// never going back: a time before the last event counts as the last
    /// event's), as [`Game::apply`] of [`Event::play`] would one by one — the
    /// same log, state and verdicts — stopping where the game ends or at
    /// the first move that cannot be played.
    ///
    /// It costs less: each position is made once, and the line's later
    /// moves prove its positions alive (as [`Game::read_ahead_line`] does),
    /// the dead-position test settling the whole line from one verdict on
    /// its last position, with a binary search for the first dead position
    /// when that one is dead (see the module documentation). Only while
    /// nothing waits on the board (no unclaimed illegal move, touched piece,
    /// pending claim) is the line played so; otherwise each move goes
    /// through [`Game::apply`].
    ///
    /// ```
    /// use arbiter_laws::{Game, Start, Termination};
    /// use arbiter_chess::{Move, Square};
    /// let mut game = Game::new(Start::default())?;
    /// let moves = [(Square::F2, Square::F3), (Square::E7, Square::E5), (Square::G2, Square::G4), (Square::D8, Square::H4), (Square::E1, Square::F2)];
    /// let line: Vec<Move> = moves.iter().map(|&(f, t)| Move::new(f, t)).collect();
    /// let played = game.play_line(&line, &[1000, 2000, 3000, 4000]);
    /// assert_eq!(played.plies, 4); // checkmate: the fifth move is never played
    /// assert_eq!(game.outcome().unwrap().termination, Termination::Checkmate);
    /// assert_eq!(game.moves()[3].san, "Qh4#");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn play_line(&mut self, moves: &[Move], times: &[u64]) -> LinePlayed {
        if !self.nothing_waits() {
            return self.apply_each(moves, times);
        }
        // Each position once; the legal prefix of the line.
        let mut after = Vec::with_capacity(moves.len());
        let mut p = self.pos;
        for &m in moves {
            if !p.is_legal(m) || p.captures_king(m) {
                break;
            }
            p.play_unchecked(m);
            after.push(p);
        }
        self.play_known_line(moves, &after, times)
    }

    /// [`Game::play_line`] with the positions the line leads to already
    /// made (by the PGN reader that checked its moves): `after[i]` is the
    /// position after `moves[i]`, each of `moves[..after.len()]` legal in
    /// the position before it, the first in the position on the board. The
    /// caller vouches for that; the audit does, for the positions the
    /// reader made from the same start position.
    pub(crate) fn play_known_line(
        &mut self,
        moves: &[Move],
        after: &[Position],
        times: &[u64],
    ) -> LinePlayed {
        if !self.nothing_waits() {
            return self.apply_each(moves, times);
        }
        let legal = after.len().min(moves.len());
        let alive_upto = self.alive_upto(&after[..legal]);
        if self.start_unsettled {
            if alive_upto > 0 {
                // Alive after the first move: so was the start.
                self.start_unsettled = false;
            } else {
                self.settle_start();
                if self.outcome.is_some() {
                    return LinePlayed {
                        plies: 0,
                        refused: None,
                    };
                }
            }
        }
        self.moves.reserve(legal);
        if self.keep_events {
            self.events.reserve(legal);
        }
        // Whether each player may move at all (6.7, adjournment): nothing a
        // move does changes it, and time never goes back here. Asked once
        // for each player who has a move in the line.
        let start = self.pos;
        let refusal = [0, 1].map(|k| {
            let m = *moves[..legal].get(k)?;
            let by = if k == 0 { start.turn() } else { !start.turn() };
            self.check_actor(Actor::Player(by), &Action::Move { mv: m })
                .err()
        });
        // The first move of a player who may not move is refused.
        let upto = refusal
            .iter()
            .position(Option::is_some)
            .map_or(legal, |k| k.min(legal));
        // Plies before `synced` are on the board and in the history; those
        // from it were played plainly ([`Game::plain_run`]), their
        // positions caught up with only when needed ([`Game::catch_up`]).
        let mut synced = 0;
        let mut i = 0;
        while i < upto {
            // A run of moves after which the Laws cannot end the game: a
            // legal move after each, each position proven alive, no count
            // within reach, no offer to lapse.
            let mut end = i;
            if self.offer.is_none() {
                let last = upto.min(legal - 1).min(alive_upto);
                while end < last && !may_end_by_count(after, end) {
                    end += 1;
                }
            }
            if end > i {
                self.plain_run(&start, moves, after, times, i..end);
                i = end;
                continue;
            }
            let m = moves[i];
            let by = before(&start, after, i).turn();
            let t = completed_at(times, i, self.last_t);
            self.catch_up(&start, moves, after, synced..i);
            synced = i + 1;
            let known = Known {
                has_move: i + 1 < legal,
                alive: i < alive_upto,
            };
            self.play_to(by, m, t, &after[i], known);
            self.last_t = t;
            self.log(Event::play(t, by, m));
            if self.outcome.is_some() {
                return LinePlayed {
                    plies: i + 1,
                    refused: None,
                };
            }
            i += 1;
        }
        self.catch_up(&start, moves, after, synced..upto);
        if let Some(error) = refusal.get(upto).and_then(Option::as_ref) {
            return LinePlayed {
                plies: upto,
                refused: Some(error.clone()),
            };
        }
        let Some(&m) = moves.get(legal) else {
            return LinePlayed {
                plies: legal,
                refused: None,
            };
        };
        // Not legal here: refused, with the reason, as `apply` refuses it.
        let by = self.turn();
        let t = completed_at(times, legal, self.last_t);
        match self.apply(Event::play(t, by, m)) {
            Err(error) => LinePlayed {
                plies: legal,
                refused: Some(error),
            },
            Ok(_) => {
                let next =
                    self.apply_each(&moves[legal + 1..], times.get(legal + 1..).unwrap_or(&[]));
                LinePlayed {
                    plies: legal + 1 + next.plies,
                    refused: next.refused,
                }
            }
        }
    }

    /// The moves `plies` of the line (`after` the positions after its
    /// moves, `start` its first position), after each of which the Laws
    /// cannot end the game (its position proven alive, a legal move after
    /// it, no repetition or move count to reach: [`may_end_by_count`], no
    /// offer to lapse): everything [`Game::play_to`] does but the automatic
    /// ends, save the position on the board and the repetition history,
    /// left to [`Game::catch_up`].
    fn plain_run(
        &mut self,
        start: &Position,
        moves: &[Move],
        after: &[Position],
        times: &[u64],
        plies: Range<usize>,
    ) {
        let first = before(start, after, plies.start).turn();
        let (mut by, mut t) = (first, self.last_t);
        for i in plies.clone() {
            t = completed_at(times, i, t);
            if let Some(c) = self.clock.as_mut() {
                c.press(by, t);
            }
            let m = moves[i];
            // A plain move never mates: a legal move follows it.
            let san =
                self.san_to_write(m, || (before(start, after, i), after[i].is_check(), false));
            self.moves.push(PlayedMove { mv: m, san, by, t });
            self.log(Event::play(t, by, m));
            by = !by;
        }
        let n = plies.len() as u32;
        self.moves_by[first.index()] += n.div_ceil(2);
        self.moves_by[(!first).index()] += n / 2;
        self.last_t = t;
    }

    /// Puts on the board the position after the plain moves `plies` of the
    /// line (`after` the positions after its moves, `start` its first
    /// position), and into the repetition history the positions since the
    /// last capture or pawn move among them (9.2): the state
    /// [`Game::play_to`] would have left.
    fn catch_up(
        &mut self,
        start: &Position,
        moves: &[Move],
        after: &[Position],
        plies: Range<usize>,
    ) {
        let Some(last) = plies.clone().last() else {
            return;
        };
        // Positions before the last irreversible move can never recur.
        let zeroing = plies
            .clone()
            .rev()
            .find(|&k| before(start, after, k).is_zeroing(moves[k]));
        let from = zeroing.unwrap_or(plies.start);
        for (k, p) in after[from..plies.end].iter().enumerate() {
            self.history.push(p, k == 0 && zeroing.is_some());
        }
        self.pos = after[last];
        // Each of them was proven alive (a position reached from it is).
        self.alive = true;
    }

    /// No unclaimed illegal move, touched piece, promotion piece, unnoticed
    /// illegal move or quickplay claim waits, and the game goes on: a move
    /// is played by [`Game::play_to`] alone.
    fn nothing_waits(&self) -> bool {
        self.outcome.is_none()
            && self.pending_illegal.is_none()
            && self.pending_quickplay.is_none()
            && self.touched.is_empty()
            && self.promotion_choice.is_none()
            && self.unnoticed.is_none()
    }

    /// The moves through [`Game::apply`], one by one, after reading them
    /// ahead ([`Game::read_ahead_line`]).
    fn apply_each(&mut self, moves: &[Move], times: &[u64]) -> LinePlayed {
        self.read_ahead_line(moves.iter().copied());
        for (i, &m) in moves.iter().enumerate() {
            if self.outcome.is_some() {
                return LinePlayed {
                    plies: i,
                    refused: None,
                };
            }
            let t = completed_at(times, i, self.last_t);
            let by = self.turn();
            if let Err(error) = self.apply(Event::play(t, by, m)) {
                return LinePlayed {
                    plies: i,
                    refused: Some(error),
                };
            }
        }
        LinePlayed {
            plies: moves.len(),
            refused: None,
        }
    }

    /// How many of the positions after the line's moves (`after`) are
    /// proven alive, from the first: the later ones then go to the
    /// dead-position test move by move as usual.
    fn alive_upto(&mut self, after: &[Position]) -> usize {
        let Some(end) = after.last() else {
            return 0;
        };
        let last = after.len();
        if !end.has_legal_moves() {
            if end.is_check() {
                // A checkmate: every position before it is alive.
                return last - 1;
            }
            // A stalemate: the positions before it are judged by their own.
            return self.monotone_search(after, last - 1);
        }
        self.monotone_search(after, last)
    }

    /// The number of positions in `after[..upto]` proven alive from the
    /// first: all of them if `after[upto - 1]` is, else the ones before the
    /// first dead position (dead-ness is monotone along the line). That one
    /// is sought back from the end at distances 1, 2, 4, … and then by
    /// bisection: a record rarely goes on long past a dead position, and a
    /// proof that a position is dead costs the solver far more than one
    /// that it is alive, so few dead positions are asked about. An
    /// undecided verdict stops the search where it is.
    fn monotone_search(&mut self, after: &[Position], upto: usize) -> usize {
        if upto == 0 {
            return 0;
        }
        if upto > FAR {
            // The kept line starts on the board, `upto` plies from the
            // first position asked about: carried over that far it is
            // almost never a helpmate any more.
            self.dead.forget_witness();
        }
        // Counting the position on the board as 0 and `after[k - 1]` as k:
        // positions ..=alive alive, dead.. dead.
        let mut alive = 0;
        let mut dead = upto + 1;
        // The last position first, then 1, 2, 4, … before the first dead one.
        let mut step = 1;
        let mut dead_probes = 0;
        let mut galloping = true;
        while alive + 1 < dead {
            let probe = if galloping {
                dead.saturating_sub(step).max(alive + 1)
            } else {
                alive + (dead - alive) / 2
            };
            match self.dead.is_dead(&after[probe - 1], None) {
                (true, _) => {
                    dead = probe;
                    dead_probes += 1;
                    if dead_probes > 1 {
                        step *= 2;
                    }
                }
                (false, crate::dead::Reason::Undecided) => break,
                (false, _) => {
                    alive = probe;
                    galloping = false;
                }
            }
        }
        alive
    }
}

/// Whether the position `after[i]` may end the game by a count: the
/// 75-move rule (9.6 b / 9.6.2), or a fivefold repetition (9.6 a / 9.6.1)
/// — its Zobrist key (which covers the 9.2 identity) met at least four
/// times before among the positions of the same player to move since the
/// last capture or pawn move (both editions' fivefold rules need that). A
/// run of such positions reaching back before the line counts as may.
fn may_end_by_count(after: &[Position], i: usize) -> bool {
    let p = &after[i];
    let h = p.halfmoves() as usize;
    if h >= 150 {
        return true;
    }
    // Fewer than nine positions since the last irreversible move: no
    // fivefold.
    if h < 8 {
        return false;
    }
    if h > i {
        return true;
    }
    // The positions of the same player to move since then: i - 2, i - 4, …
    // down to i - h.
    let key = p.zobrist();
    let (lo, mut j, mut met) = (i - h, i, 0);
    while j >= lo + 2 {
        j -= 2;
        if after[j].zobrist() == key {
            met += 1;
            if met == 4 {
                return true;
            }
        }
    }
    false
}

/// The position before ply `k` of a line: its first position `start`, then
/// the position after the move before (`after[k - 1]`).
fn before<'a>(start: &'a Position, after: &'a [Position], k: usize) -> &'a Position {
    match k.checked_sub(1) {
        Some(j) => &after[j],
        None => start,
    }
}

/// When move `i` of a line was completed: `times[i]` (0 past its end), but
/// never before `last`, the time of the event before it.
fn completed_at(times: &[u64], i: usize, last: u64) -> u64 {
    times.get(i).copied().unwrap_or(0).max(last)
}
