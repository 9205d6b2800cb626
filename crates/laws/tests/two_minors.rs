//! Kings and two minor pieces, nothing else (Art. 5.2.2 / 9.6.2, dead
//! position): the rule of [`arbiter_laws::dead::two_minors_dead`] — dead
//! exactly when every line of at most two plies in which nobody takes
//! leaves the side to move stalemated or with only captures — proven over
//! every position of each such material, and checked against the exact
//! solver.
//!
//! The proof (`two_pieces_of_one_side_obey_the_rule`,
//! `a_piece_each_obeys_the_rule`): every placement of the four pieces,
//! either side to move, is enumerated; the positions from which a checkmate
//! (of either king) can be reached by legal moves are found backwards from
//! all checkmates (retrograde, breadth first), and the rule is asked of
//! every other position (it is sound by construction: see `prove`). A helpmate
//! never captures: any capture leaves a king and at most one minor piece
//! against a king, which cannot mate. The moves are generated here on
//! bitboards (no castling, en passant or promotion in this material; a
//! move is legal when its own king is not attacked after it);
//! `the_moves_here_are_the_move_generators` checks them against
//! `arbiter_chess`'s move generator.

use arbiter_chess::attacks::{bishop_attacks, king_attacks, knight_attacks};
use arbiter_chess::{Bitboard, Board, CastlingMode, Color, Position, Role, Setup, Square};
use arbiter_laws::dead::{two_minors_dead, Verdict};
use arbiter_laws::{ChaSolver, Unwinnability};

/// The two minor pieces: their roles, and whose they are (White's is 0).
/// Each material up to colours: the others are these with the colours
/// swapped, which the proof covers by taking either side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Material {
    name: &'static str,
    roles: [Role; 2],
    owners: [usize; 2],
}

const MATERIALS: [Material; 6] = [
    Material {
        name: "two knights",
        roles: [Role::Knight, Role::Knight],
        owners: [WHITE, WHITE],
    },
    Material {
        name: "bishop and knight",
        roles: [Role::Bishop, Role::Knight],
        owners: [WHITE, WHITE],
    },
    Material {
        name: "two bishops",
        roles: [Role::Bishop, Role::Bishop],
        owners: [WHITE, WHITE],
    },
    Material {
        name: "knight against knight",
        roles: [Role::Knight, Role::Knight],
        owners: [WHITE, BLACK],
    },
    Material {
        name: "bishop against knight",
        roles: [Role::Bishop, Role::Knight],
        owners: [WHITE, BLACK],
    },
    Material {
        name: "bishop against bishop",
        roles: [Role::Bishop, Role::Bishop],
        owners: [WHITE, BLACK],
    },
];

/// White to move, or Black.
const WHITE: usize = 0;
const BLACK: usize = 1;

/// The plies the rule looks ahead (`arbiter_laws::dead::minors`).
const PLIES: u32 = 2;

/// One placement and the side to move: the kings, and the two minor pieces
/// (`m[0]`, `m[1]`).
#[derive(Clone, Copy, Debug)]
struct State {
    turn: usize,
    kings: [u32; 2],
    m: [u32; 2],
}

const STATES: usize = 2 * 64 * 64 * 64 * 64;

impl State {
    fn index(self) -> usize {
        let [w, b] = self.kings.map(|k| k as usize);
        let [a, n] = self.m.map(|k| k as usize);
        (((self.turn * 64 + w) * 64 + b) * 64 + a) * 64 + n
    }

    fn of(i: usize) -> State {
        State {
            turn: i / (64 * 64 * 64 * 64),
            kings: [
                (i / (64 * 64 * 64) % 64) as u32,
                (i / (64 * 64) % 64) as u32,
            ],
            m: [(i / 64 % 64) as u32, (i % 64) as u32],
        }
    }

    fn occupied(self) -> Bitboard {
        bb(self.kings[0]) | bb(self.kings[1]) | bb(self.m[0]) | bb(self.m[1])
    }

    /// The squares `side`'s pieces attack, with `occ` as blockers, leaving
    /// out minor piece `taken` (just taken).
    fn attacks(self, mat: &Material, side: usize, occ: Bitboard, taken: Option<usize>) -> Bitboard {
        let mut set = king_attacks(sq(self.kings[side]));
        for i in 0..2 {
            if mat.owners[i] == side && taken != Some(i) {
                set |= reach(mat.roles[i], self.m[i], occ);
            }
        }
        set
    }

    fn in_check(self, mat: &Material, side: usize) -> bool {
        self.attacks(mat, 1 - side, self.occupied(), None)
            .contains(sq(self.kings[side]))
    }

    /// The pieces giving check to `side`'s king.
    fn checkers(self, mat: &Material, side: usize) -> usize {
        let k = sq(self.kings[side]);
        (0..2)
            .filter(|&i| {
                mat.owners[i] != side && reach(mat.roles[i], self.m[i], self.occupied()).contains(k)
            })
            .count()
    }

    /// Four distinct squares, the kings apart, the side not to move not in
    /// check.
    fn valid(self, mat: &Material) -> bool {
        self.occupied().count() == 4
            && !king_attacks(sq(self.kings[0])).contains(sq(self.kings[1]))
            && !self.in_check(mat, 1 - self.turn)
    }

    /// Two bishops on squares of one colour: dead by material, not this
    /// rule's.
    fn one_colour(self, mat: &Material) -> bool {
        let colour = |i: u32| (i % 8 + i / 8) % 2;
        mat.roles == [Role::Bishop, Role::Bishop] && colour(self.m[0]) == colour(self.m[1])
    }

    /// The side to move's legal moves: the state after each, or `None` for
    /// a capture (after it no mate is possible).
    fn moves(self, mat: &Material) -> Moves {
        let side = self.turn;
        let occ = self.occupied();
        let own = bb(self.kings[side])
            | (0..2)
                .filter(|&i| mat.owners[i] == side)
                .fold(Bitboard::EMPTY, |b, i| b | bb(self.m[i]));
        let mut out = Moves {
            list: [None; 40],
            len: 0,
        };
        let mut try_move = |after: State, to: u32, from: u32| {
            let taken = (0..2).find(|&i| mat.owners[i] != side && self.m[i] == to);
            let occ = (occ - bb(from)) | bb(to);
            let king = sq(after.kings[side]);
            if !after.attacks(mat, 1 - side, occ, taken).contains(king) {
                out.list[out.len] = taken.is_none().then_some(State {
                    turn: 1 - side,
                    ..after
                });
                out.len += 1;
            }
        };
        let k = self.kings[side];
        for to in king_attacks(sq(k)) - own - bb(self.kings[1 - side]) {
            let to = to.index() as u32;
            let mut after = self;
            after.kings[side] = to;
            try_move(after, to, k);
        }
        for i in 0..2 {
            if mat.owners[i] != side {
                continue;
            }
            let from = self.m[i];
            for to in reach(mat.roles[i], from, occ) - own - bb(self.kings[1 - side]) {
                let to = to.index() as u32;
                let mut after = self;
                after.m[i] = to;
                try_move(after, to, from);
            }
        }
        out
    }

    /// The states from which the side that did not move here reached this
    /// one by a move that took nothing (valid or not): each of its pieces
    /// back on a square it reaches from here, empty (a bishop back along an
    /// empty line).
    fn unmoves(self, mat: &Material) -> Vec<State> {
        let side = 1 - self.turn;
        let occ = self.occupied();
        let mut out = Vec::new();
        for from in king_attacks(sq(self.kings[side])) - occ {
            let mut q = State { turn: side, ..self };
            q.kings[side] = from.index() as u32;
            out.push(q);
        }
        for i in 0..2 {
            if mat.owners[i] == side {
                for from in reach(mat.roles[i], self.m[i], occ) - occ {
                    let mut q = State { turn: side, ..self };
                    q.m[i] = from.index() as u32;
                    out.push(q);
                }
            }
        }
        out
    }
}

/// A position's legal moves (at most 8 + 13 + 13), without allocating.
struct Moves {
    list: [Option<State>; 40],
    len: usize,
}

impl Moves {
    fn as_slice(&self) -> &[Option<State>] {
        &self.list[..self.len]
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

fn sq(i: u32) -> Square {
    Square::new(i)
}

fn bb(i: u32) -> Bitboard {
    Bitboard::from(sq(i))
}

/// The squares a knight or a bishop on `from` reaches, with `occ` as
/// blockers.
fn reach(role: Role, from: u32, occ: Bitboard) -> Bitboard {
    if role == Role::Knight {
        knight_attacks(sq(from))
    } else {
        bishop_attacks(sq(from), occ)
    }
}

/// Which positions of the material can reach a checkmate (by index;
/// invalid placements false).
fn alive(mat: &Material) -> Vec<bool> {
    let mut alive = vec![false; STATES];
    let mut queue: Vec<u32> = Vec::new();
    for (i, mated) in alive.iter_mut().enumerate() {
        let s = State::of(i);
        if s.valid(mat) && s.in_check(mat, s.turn) && s.moves(mat).is_empty() {
            *mated = true;
            queue.push(i as u32);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let p = State::of(queue[head] as usize);
        head += 1;
        // `p` is valid, so the move into it left its mover's king safe:
        // a predecessor needs only to be valid itself.
        for q in p.unmoves(mat) {
            if q.valid(mat) && !alive[q.index()] {
                alive[q.index()] = true;
                queue.push(q.index() as u32);
            }
        }
    }
    alive
}

/// The position of a state, built as any position is (`flip`: the colours
/// swapped and the board turned, the same position for the Laws).
fn position(s: State, mat: &Material, flip: bool) -> Option<Position> {
    let mut board = Board::empty();
    let color = |side: usize| {
        let c = if side == WHITE {
            Color::White
        } else {
            Color::Black
        };
        if flip {
            !c
        } else {
            c
        }
    };
    let at = |i: u32| if flip { sq(i ^ 56) } else { sq(i) };
    board.set(at(s.kings[0]), Role::King.of(color(WHITE)));
    board.set(at(s.kings[1]), Role::King.of(color(BLACK)));
    for i in 0..2 {
        board.set(at(s.m[i]), mat.roles[i].of(color(mat.owners[i])));
    }
    let setup = Setup {
        board,
        turn: color(s.turn),
        castling_rights: Bitboard::EMPTY,
        ep_square: None,
        halfmoves: 0,
        fullmoves: 1,
    };
    Position::from_setup(setup, CastlingMode::Standard).ok()
}

/// The rule of `two_minors_dead`, on the states of the proof: dead if
/// every line of at most `plies` plies in which nobody takes leaves the
/// side to move stalemated or with only captures to play.
fn rule_here(s: State, mat: &Material, plies: u32) -> bool {
    let moves = s.moves(mat);
    if moves.is_empty() {
        return !s.in_check(mat, s.turn);
    }
    if moves.as_slice().iter().all(Option::is_none) {
        return true;
    }
    plies > 0
        && moves
            .as_slice()
            .iter()
            .flatten()
            .all(|&t| rule_here(t, mat, plies - 1))
}

/// The proof for one material. The rule is sound by construction: when it
/// says dead, every line from the position runs within three plies into a
/// stalemate or a capture (after which no mate is possible), with no
/// checkmate on the way. That it is complete — every dead position caught —
/// is what the enumeration shows: each position of the material from which
/// no checkmate can be reached (and that has a legal move) is asked. The
/// positions that can reach one are asked one in 97; the library's rule,
/// on every dead position and one position in a thousand, with the colours
/// as they are and swapped.
fn prove(mat: &Material) {
    let alive = alive(mat);
    let (mut placements, mut dead, mut wrong) = (0u64, 0u64, Vec::new());
    let mut library = 0u64;
    for (i, &live) in alive.iter().enumerate() {
        let s = State::of(i);
        if !s.valid(mat) || s.one_colour(mat) {
            continue;
        }
        placements += 1;
        if live {
            if i % 97 == 0 && rule_here(s, mat, PLIES) {
                wrong.push(s);
            }
        } else {
            // No legal move: the game is over (stalemate), not this
            // rule's question.
            if s.moves(mat).is_empty() {
                continue;
            }
            dead += 1;
            if !rule_here(s, mat, PLIES) {
                wrong.push(s);
            }
        }
        if !live || i % 1000 == 0 {
            for flip in [false, true] {
                if let Some(pos) = position(s, mat, flip) {
                    if !pos.legal_moves().is_empty() {
                        assert_eq!(two_minors_dead(&pos), Some(!live), "{}", pos.fen());
                        library += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "{}: {placements} placements, {dead} dead with a legal move, {} against the rule; \
         the library's rule asked of {library}",
        mat.name,
        wrong.len()
    );
    assert!(
        wrong.is_empty(),
        "{}: {:?}",
        mat.name,
        &wrong[..wrong.len().min(5)]
    );
    assert!(placements > 10_000_000 && library > 10_000, "{}", mat.name);
}

/// The proof for the two minor pieces of one side against a lone king.
#[test]
fn two_pieces_of_one_side_obey_the_rule() {
    for mat in &MATERIALS[..3] {
        prove(mat);
    }
}

/// The proof for a minor piece each.
#[test]
fn a_piece_each_obeys_the_rule() {
    for mat in &MATERIALS[3..] {
        prove(mat);
    }
}

/// The bitboard moves of the proof are those of the move generator, and the
/// library's rule says what the proof's does, on a lattice of positions of
/// each material, both colours, either side to move.
#[test]
fn the_moves_here_are_the_move_generators() {
    let mut checked = 0;
    for mat in &MATERIALS {
        for turn in [WHITE, BLACK] {
            for bk in [0u32, 1, 2, 3, 9, 10, 11, 18, 19, 27, 36, 45] {
                for wk in (0..64).step_by(3) {
                    for a in (0..64).step_by(2) {
                        for n in (1..64).step_by(5) {
                            let s = State {
                                turn,
                                kings: [wk, bk],
                                m: [a, n],
                            };
                            if s.occupied().count() < 4 {
                                continue;
                            }
                            for flip in [false, true] {
                                let Some(pos) = position(s, mat, flip) else {
                                    // Refused by the library: invalid here
                                    // too, or a check by both pieces, which
                                    // no legal move gives (a state the proof
                                    // may hold, never reached from a game).
                                    assert!(
                                        !s.valid(mat) || s.checkers(mat, s.turn) == 2,
                                        "{s:?} {}",
                                        mat.name
                                    );
                                    continue;
                                };
                                assert!(s.valid(mat), "{s:?} {}", mat.name);
                                let moves = pos.legal_moves();
                                let mine = s.moves(mat);
                                assert_eq!(moves.len(), mine.len, "{}", pos.fen());
                                let takes = moves.iter().filter(|&&m| pos.is_capture(m)).count();
                                let mine_take =
                                    mine.as_slice().iter().filter(|m| m.is_none()).count();
                                assert_eq!(takes, mine_take, "{}", pos.fen());
                                if s.one_colour(mat) {
                                    assert_eq!(two_minors_dead(&pos), None, "{}", pos.fen());
                                } else if !moves.is_empty() {
                                    assert_eq!(
                                        two_minors_dead(&pos),
                                        Some(rule_here(s, mat, PLIES)),
                                        "{}",
                                        pos.fen()
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

/// The rule agrees with the exact solver (chasolver) on positions of each
/// kind, and says nothing of other material.
#[test]
fn the_rule_agrees_with_the_solver() {
    let cases = [
        // The lone king must take: dead.
        ("K7/1n6/2n5/6k1/8/8/8/8 w - - 0 1", true),
        ("5NNk/8/5K2/8/8/8/8/8 b - - 0 1", true),
        ("5NBk/8/5K2/8/8/8/8/8 b - - 0 1", true),
        // Every white move leaves the black king only Kxa2, or stalemates
        // it; and one ply earlier, the black king's only move is Ka1.
        ("8/8/8/8/8/8/B7/k1KN4 w - - 0 1", true),
        ("8/8/8/8/2N5/8/k1K5/1B6 b - - 0 1", true),
        // It may take, or step aside: alive.
        ("8/3k4/2N5/8/8/8/8/4K1N1 b - - 0 1", false),
        // Positions of the generated games that reached the solver.
        ("1k6/7n/8/8/8/6b1/5K2/8 w - - 12 80", false),
        ("1n6/8/8/8/bK6/8/8/6k1 b - - 32 62", false),
        ("3n4/2k5/5Kn1/8/8/8/8/8 w - - 17 56", false),
        ("4k3/8/8/6K1/8/1n6/8/b7 w - - 27 69", false),
        ("6n1/8/8/1k4K1/8/8/8/1b6 b - - 4 54", false),
        ("8/1k6/8/8/8/8/2K2n2/6n1 w - - 11 67", false),
        ("8/7N/K6k/8/8/8/3N4/8 w - - 0 50", false),
        // Two bishops on squares of both colours (of generated and random
        // games that reached the solver).
        ("8/8/8/2b5/8/8/2K3k1/1b6 w - - 0 61", false),
        ("1K6/8/2b3k1/8/8/8/8/6b1 b - - 3 71", false),
        ("8/k7/8/8/8/4K3/3B4/1B6 b - - 21 124", false),
        ("7B/8/8/8/8/8/4B3/1K2k3 b - - 4 123", false),
        // A minor piece each (of generated games, where the corner
        // construction found a mate).
        ("8/3k4/8/5n2/8/8/8/4K1N1 w - - 0 1", false),
        ("1bk5/8/2NK4/8/8/8/8/8 w - - 10 49", false),
        ("2k5/b7/2NK4/8/8/8/8/8 b - - 9 48", false),
        ("8/8/1N3k2/8/8/8/5K2/4n3 b - - 11 40", false),
        ("7k/7b/8/6N1/8/8/7K/8 w - - 5 52", false),
    ];
    for (fen, dead) in cases {
        let pos: Position = fen.parse().unwrap();
        assert_eq!(two_minors_dead(&pos), Some(dead), "{fen}");
        let solved = [Color::White, Color::Black].map(|c| ChaSolver.solve(&pos, c).0);
        let solver_dead = solved.iter().all(|v| *v == Verdict::Unwinnable);
        assert!(
            solved.iter().all(|v| *v != Verdict::Unknown),
            "{fen}: {solved:?}"
        );
        assert_eq!(solver_dead, dead, "{fen}: {solved:?}");
    }
    for fen in [
        // A pawn, two bishops on one colour (dead by material), a rook:
        // not this rule's material.
        "8/3k4/8/5N2/8/8/4P3/4K1N1 w - - 0 1",
        "8/3k4/8/6B1/8/8/8/4K1B1 w - - 0 1",
        "8/3k4/8/5R2/8/8/8/4K1N1 w - - 0 1",
        // Three minor pieces.
        "8/3k4/8/5n2/8/8/8/3NK1N1 w - - 0 1",
    ] {
        let pos: Position = fen.parse().unwrap();
        assert_eq!(two_minors_dead(&pos), None, "{fen}");
    }
}
