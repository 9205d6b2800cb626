//! A short helpmate search under a node budget: a cheap proof that a
//! position is alive (Art. 5.2 b / 5.2.2) before the exact solver is asked.
//!
//! Both players cooperate so that `winner` checkmates: an iterative
//! deepening search (1, 3, 5, … plies when `winner` has the move, 2, 4, …
//! otherwise) with a small transposition table of lines already searched in
//! vain, moves tried in a helpmate's likely order (the mating side's
//! promotions and checks, pieces approaching the other king; that king
//! walking to the edge, its own pieces crowding it, no capture of the
//! mating side's pieces), and, on the last ply, only moves that can give
//! check. It stops after `budget` positions.
//!
//! Only a line found counts, and only after [`is_helpmate`](super::is_helpmate)
//! has replayed it: a search that finds nothing proves nothing (the budget,
//! the depth limit and the table's collisions make it incomplete), and the
//! caller asks the exact solver then. So the search can never make a dead
//! position alive or a live one dead; it can only answer "alive" sooner.

use super::quick::CheckSquares;
use arbiter_chess::attacks::queen_attacks;
use arbiter_chess::{Color, Move, MoveList, Position, Role, Square};
use std::cell::RefCell;

/// Plies searched at most.
pub const MAX_PLIES: usize = 24;

/// Entries of the per-thread table of positions searched in vain.
const TABLE_SIZE: usize = 1 << 13;

#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    plies: u8,
    generation: u32,
}

struct Table {
    entries: Vec<Entry>,
    generation: u32,
}

thread_local! {
    static TABLE: RefCell<Table> = const {
        RefCell::new(Table {
            entries: Vec::new(),
            generation: 0,
        })
    };
}

/// A line of legal moves from `pos` ending in a checkmate by `winner`,
/// found within `budget` positions, if the search finds one. `None` proves
/// nothing.
///
/// ```
/// use arbiter_chess::{Color, Position};
/// use arbiter_laws::dead::{helpmate, is_helpmate};
/// let pos = Position::standard();
/// let line = helpmate(&pos, Color::Black, 20_000).expect("the Fool's mate is short");
/// assert!(is_helpmate(&pos, Color::Black, &line));
/// assert_eq!(line.len(), 4);
/// // A lone king mates nobody.
/// let bare: Position = "4k3/8/8/8/8/8/8/4K2R w - - 0 1".parse()?;
/// assert!(helpmate(&bare, Color::Black, 20_000).is_none());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn helpmate(pos: &Position, winner: Color, budget: u64) -> Option<Vec<Move>> {
    helpmate_counted(pos, winner, budget).0
}

/// [`helpmate`], with the positions it visited.
pub fn helpmate_counted(pos: &Position, winner: Color, budget: u64) -> (Option<Vec<Move>>, u64) {
    if pos.cannot_mate_by_material(winner) || !pos.has_legal_moves() {
        return (None, 0);
    }
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        if t.entries.is_empty() {
            t.entries = vec![Entry::default(); TABLE_SIZE];
        }
        t.generation = t.generation.wrapping_add(1);
        let mut s = Search {
            winner,
            salt: if winner == Color::White {
                0
            } else {
                0x9e37_79b9_7f4a_7c15
            },
            nodes: 0,
            budget,
            out_of_budget: false,
            line: Vec::with_capacity(MAX_PLIES),
            table: &mut t,
        };
        let mut plies = if pos.turn() == winner { 1 } else { 2 };
        while plies <= MAX_PLIES {
            s.out_of_budget = false;
            if s.search(pos, plies) {
                let mut line = std::mem::take(&mut s.line);
                line.reverse();
                return (Some(line), s.nodes);
            }
            if s.nodes >= s.budget {
                return (None, s.nodes);
            }
            plies += 2;
        }
        (None, s.nodes)
    })
}

struct Search<'a> {
    winner: Color,
    /// Mixed into the table's keys so that the two winners' entries differ.
    salt: u64,
    nodes: u64,
    budget: u64,
    out_of_budget: bool,
    /// The line found, last move first.
    line: Vec<Move>,
    table: &'a mut Table,
}

impl Search<'_> {
    /// Whether a helpmate of at most `plies` plies exists from `pos` (which
    /// has a legal move), found within the budget; the line is pushed in
    /// reverse onto `self.line`.
    fn search(&mut self, pos: &Position, plies: usize) -> bool {
        let key = pos.zobrist() ^ self.salt;
        let slot = (key as usize) & (TABLE_SIZE - 1);
        let generation = self.table.generation;
        let e = self.table.entries[slot];
        if e.generation == generation && e.key == key && e.plies as usize >= plies {
            return false;
        }
        let moves = pos.legal_moves();
        let mating = pos.turn() == self.winner;
        if moves.is_empty() {
            // Checkmate of the other side (the winner's move made it), or
            // stalemate, or the winner mated.
            return !mating && pos.is_check();
        }
        let found = if mating && plies == 1 {
            self.mate_in_one(pos, &moves)
        } else {
            self.inner(pos, &moves, plies, mating)
        };
        if !found && !self.out_of_budget {
            self.table.entries[slot] = Entry {
                key,
                plies: plies as u8,
                generation,
            };
        }
        found
    }

    fn inner(&mut self, pos: &Position, moves: &MoveList, plies: usize, mating: bool) -> bool {
        // Each move's score above its index in the list, sorted best first.
        let mut keys = [0u32; 256];
        let n = moves.len();
        let me = pos.turn();
        let target = pos.king_of(if mating { !me } else { me });
        let checks =
            (mating && plies <= 3).then(|| CheckSquares::new(target, pos.board().occupied(), !me));
        for (i, &m) in moves.iter().enumerate() {
            let s = (score(pos, m, mating, target, checks.as_ref()) + (1 << 15))
                .clamp(0, (1 << 24) - 1) as u32;
            keys[i] = (s << 8) | i as u32;
        }
        keys[..n].sort_unstable_by(|a, b| b.cmp(a));
        for &k in &keys[..n] {
            let m = moves[(k & 0xff) as usize];
            if self.nodes >= self.budget {
                self.out_of_budget = true;
                return false;
            }
            self.nodes += 1;
            let capture = pos.is_capture(m);
            let mut q = *pos;
            q.play_unchecked(m);
            if (capture || m.promotion.is_some()) && q.cannot_mate_by_material(self.winner) {
                continue;
            }
            if self.search(&q, plies - 1) {
                self.line.push(m);
                return true;
            }
            if self.out_of_budget {
                return false;
            }
        }
        false
    }

    /// The mating side's last move: only moves that can give check are
    /// played (a direct check from the destination, a piece standing on a
    /// line from the other king (a discovered check), a promotion, castling
    /// or en passant).
    fn mate_in_one(&mut self, pos: &Position, moves: &MoveList) -> bool {
        let board = pos.board();
        let ksq = pos.king_of(!self.winner);
        let occ = board.occupied();
        let ours = board.by_color(self.winner);
        let checks = CheckSquares::new(ksq, occ, !self.winner);
        let discoverers = queen_attacks(ksq, occ) & ours;
        for &m in moves {
            let role = board.role_at(m.from).unwrap_or(Role::Pawn);
            let maybe = m.promotion.is_some()
                || discoverers.contains(m.from)
                || checks.of(role).contains(m.to)
                || pos.is_castling(m)
                || pos.is_en_passant(m);
            if !maybe {
                continue;
            }
            if self.nodes >= self.budget {
                self.out_of_budget = true;
                return false;
            }
            self.nodes += 1;
            let mut q = *pos;
            q.play_unchecked(m);
            if q.is_check() && !q.has_legal_moves() {
                self.line.push(m);
                return true;
            }
        }
        false
    }
}

/// Squares from the nearest edge (0 on the edge, 3 in the centre).
fn from_edge(sq: Square) -> i32 {
    let (f, r) = (sq.file().index() as i32, sq.rank().index() as i32);
    f.min(7 - f).min(r).min(7 - r)
}

/// How promising `m` looks in a helpmate (higher first). Only an order:
/// every move is still tried.
fn score(pos: &Position, m: Move, mating: bool, ksq: Square, checks: Option<&CheckSquares>) -> i32 {
    let board = pos.board();
    let Some(role) = board.role_at(m.from) else {
        return 0;
    };
    let me = pos.turn();
    let captured = board
        .role_at(m.to)
        .filter(|_| board.color_at(m.to) == Some(!me));
    if mating {
        // The side that mates: the other king is the target.
        let mut s = 0;
        if let Some(p) = m.promotion {
            s += if p == Role::Queen { 60 } else { 10 };
        }
        if checks.is_some_and(|c| c.of(m.promotion.unwrap_or(role)).contains(m.to)) {
            s += 40;
        }
        let closer = m.from.distance(ksq) as i32 - m.to.distance(ksq) as i32;
        s += match role {
            Role::Pawn => 6 + 2 * m.to.rank().relative_to(me).index() as i32,
            Role::King => 2 * closer,
            _ => 5 * closer,
        };
        if let Some(c) = captured {
            // The other side's pieces are its king's blockers.
            s -= if c == Role::Pawn { 2 } else { 6 };
        }
        s
    } else {
        // The side being mated: its king to the edge, its pieces around it,
        // the mating side's pieces left alone.
        let mut s = 0;
        if role == Role::King {
            s += 8 * (from_edge(m.from) - from_edge(m.to));
        } else if ksq.distance(m.to) == 1 {
            s += 10;
        } else if ksq.distance(m.from) == 1 {
            s -= 4;
        }
        if let Some(c) = captured {
            s -= if c == Role::Pawn { 15 } else { 40 };
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::is_helpmate;

    fn pos(fen: &str) -> Position {
        Position::from_fen_auto(fen).unwrap()
    }

    #[test]
    fn finds_short_helpmates_and_they_replay() {
        for (fen, winner) in [
            (
                "rnbqkbnr/pppppppp/8/8/7P/8/PPPPPPP1/RNBQKBNR b KQkq - 0 1",
                Color::Black,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/7P/8/PPPPPPP1/RNBQKBNR b KQkq - 0 1",
                Color::White,
            ),
            ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", Color::White),
        ] {
            let p = pos(fen);
            let line = helpmate(&p, winner, 200_000).unwrap_or_else(|| panic!("{fen} {winner}"));
            assert!(is_helpmate(&p, winner, &line), "{fen} {winner}: {line:?}");
        }
    }

    #[test]
    fn proves_nothing_without_a_line() {
        // King and queen against king: Black cannot mate.
        let p = pos("8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
        assert!(helpmate(&p, Color::Black, 100_000).is_none());
        // A locked wall: nobody can; the search gives up within its budget.
        let wall = pos("8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1");
        assert!(helpmate(&wall, Color::White, 5_000).is_none());
        // No budget, no search.
        assert!(helpmate(&Position::standard(), Color::Black, 0).is_none());
    }
}
