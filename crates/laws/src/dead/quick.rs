//! A quick helpmate line: a cheap proof that a side can checkmate
//! (Art. 5.2 b / 5.2.2, 6.9), tried before the exact solver.
//!
//! A helpmate needs both players to cooperate, so one line played forward
//! with no going back finds one surprisingly often: at each ply the best
//! scored move, the mating side first trying its checks for a mate. The
//! scores, from bitboards of the position:
//!
//! - the mating side: its pieces onto squares attacking more of the squares
//!   next to the other king, queen promotions, pawns forward, pieces and
//!   king closer to that king; captures of the other side's pieces away from
//!   its king (its defenders; next to it they wall it in as much as they
//!   guard it: neither); never a piece next to that king unguarded, nor a
//!   move that stalemates it or leaves it only the capture of the last
//!   mating material (the next best instead); in a pawn ending where all
//!   its pawns are blocked by pawns, its king towards a blocker to take, by
//!   a road round the squares pawns guard; against a lone king, when its
//!   pieces alone cannot mate (none, one knight, bishops on squares of one
//!   colour), its pawns forward first and its pieces out of their way;
//!   checks that do not mate avoided in a first line (they drive the king
//!   away), sought in a second one, tried when the first finds nothing
//!   (they herd it);
//! - the other side: its king towards the edge and the mating king, its
//!   pieces onto the squares next to its king and not away from them, never
//!   a capture of the mating side's pieces unless nothing else is legal;
//! - neither side takes back its own last move, nor moves a piece onto a
//!   square one of its pieces left in its last four moves (lines that go
//!   round in circles).
//!
//! What makes a ply cheap (about 2,400 instructions on average, both
//! sides): the destinations of a piece are scored by classes of squares
//! (attacking two, one or none of the squares next to the king; the
//! nearest to it of each, from a table of rings), only squares with
//! something more to them (captures, checks, squares next to the king or
//! left lately) one by one; only true checks are tried for mate (to a
//! square attacking the king, off the line of a piece they unmask,
//! castling, promotions), and each first on bitboards ([`may_mate`]: a
//! square next to the king still unattacked after it ends it) before it is
//! played out; the stalemate test of a mating move is the other side's
//! reply, found once.
//!
//! Measured on the final positions of real games (the Lichess and TWIC
//! samples, `benches/alive.rs`): a line for the recorded winner within 96
//! plies for 99% of them, 44–50 k instructions a position
//! (`docs/performance.md`).
//!
//! The line is incomplete by design: no line proves nothing, and the exact
//! solver is asked then. A line found is a helpmate by the way it is made:
//! every move is one the move generator gives as legal in the position it
//! is played in, and the line ends only in a position tested to be
//! checkmate (the detector replays it with
//! [`is_helpmate`](super::is_helpmate) in debug builds, and the tests of
//! this module replay every line). So it can only answer "can mate" sooner,
//! never change an answer.

use arbiter_chess::attacks::{
    attacks, between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks,
    rook_attacks,
};
use arbiter_chess::{Bitboard, Board, Color, Move, PieceMoves, Position, Role, Square};

/// Plies played at most per line ([`quick_helpmate`]).
pub const MAX_PLIES: usize = 96;

/// A helpmate line for `winner` from `pos`, if one of the quick lines finds
/// one within `MAX_PLIES` plies. `None` proves nothing.
///
/// ```
/// use arbiter_chess::{Color, Position};
/// use arbiter_laws::dead::{is_helpmate, quick_helpmate};
/// // Back rank: Black's king is walled in by its own pawns.
/// let pos: Position = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1".parse()?;
/// let line = quick_helpmate(&pos, Color::White).expect("Ra8 is mate");
/// assert_eq!(line.len(), 1);
/// assert!(is_helpmate(&pos, Color::White, &line));
/// // A lone king mates nobody.
/// let bare: Position = "4k3/8/8/8/8/8/8/4K2R w - - 0 1".parse()?;
/// assert!(quick_helpmate(&bare, Color::Black).is_none());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn quick_helpmate(pos: &Position, winner: Color) -> Option<Vec<Move>> {
    quick_helpmate_with(pos, winner, MAX_PLIES).0
}

/// [`quick_helpmate`] with at most `max_plies` plies per line; also the
/// positions visited (plies played and checks tried for mate), a measure of
/// its cost.
pub fn quick_helpmate_with(
    pos: &Position,
    winner: Color,
    max_plies: usize,
) -> (Option<Vec<Move>>, u64) {
    let mut nodes = 0;
    if pos.cannot_mate_by_material(winner) {
        return (None, nodes);
    }
    for check in CHECK_SCORES {
        if let Some(line) = greedy_line(pos, winner, max_plies, check, &mut nodes) {
            return (Some(line), nodes);
        }
    }
    (None, nodes)
}

/// The score of a check that does not mate, in each line tried: first
/// avoided (it drives the king away), then sought (it herds the king).
const CHECK_SCORES: [i32; 2] = [-20, 4];

/// One line forward, the best scored move at each ply (`check`: the score
/// of a check that does not mate).
fn greedy_line(
    pos: &Position,
    winner: Color,
    max_plies: usize,
    check: i32,
    nodes: &mut u64,
) -> Option<Vec<Move>> {
    // (Room for most lines: their median is 12–14 plies.)
    let mut line = Vec::with_capacity(32);
    let mut p = *pos;
    // Each side's last moves, newest first.
    let mut recent = [[None::<Move>; RECENT]; 2];
    // The other side's reply to the mating move just played, found when
    // that move was tested for stalemate.
    let mut reply = None;
    for _ in 0..max_plies {
        let mating = p.turn() == winner;
        let side = usize::from(!mating);
        // The position after the move, when already played.
        let mut next = None;
        let m = if mating {
            let mut except = [None; EXCEPT];
            let mut tries = 0;
            loop {
                let (best, mate) = mating_move(&p, &recent[side], check, &except[..tries], nodes);
                if let Some(m) = mate {
                    line.push(m);
                    return Some(line);
                }
                let m = best?;
                let mut q = p;
                q.play_unchecked(m);
                // Not a mate, so no reply means stalemate; and a reply that
                // takes the last of the mating material (a capture is the
                // other side's reply only when nothing else is legal) ends
                // the line: the next best move instead.
                reply = defending_move(&q, &recent[1 - side]);
                let goes_on = reply.is_some_and(|r| {
                    !q.is_capture(r) || {
                        let mut after = q;
                        after.play_unchecked(r);
                        !after.cannot_mate_by_material(winner)
                    }
                });
                if goes_on {
                    next = Some(q);
                    break m;
                }
                if tries == EXCEPT {
                    return None;
                }
                except[tries] = Some(m);
                tries += 1;
            }
        } else {
            match reply.take() {
                Some(m) => m,
                None => defending_move(&p, &recent[side])?,
            }
        };
        *nodes += 1;
        // Newest first (a copy of the few moves, not a slice rotation).
        let old = recent[side];
        recent[side] = std::array::from_fn(|i| if i == 0 { Some(m) } else { old[i - 1] });
        let capture = p.is_capture(m);
        match next {
            Some(q) => p = q,
            None => p.play_unchecked(m),
        }
        line.push(m);
        if capture && p.cannot_mate_by_material(winner) {
            return None;
        }
    }
    None
}

/// Mating moves replaced at most per ply because they stalemate.
const EXCEPT: usize = 4;

/// Checks tried for mate at most per position (the rest are left).
const MAX_CHECKS: usize = 32;

/// The mating side's move: a checkmate if one of the moves that give check
/// mates, else the best scored move ([`Best`]) not in `except`. One pass
/// over the legal moves; the checks are tested on bitboards first
/// ([`may_mate`]), and only those that leave the king no square are played
/// out.
fn mating_move(
    pos: &Position,
    recent: &[Option<Move>; RECENT],
    check: i32,
    except: &[Option<Move>],
    nodes: &mut u64,
) -> (Option<Move>, Option<Move>) {
    let me = pos.turn();
    let board = pos.board();
    let occ = board.occupied();
    let theirs = board.by_color(!me);
    let ours = board.by_color(me);
    let ksq = pos.king_of(!me);
    let zone = king_attacks(ksq);
    let checks = CheckSquares::new(ksq, occ, !me);
    let discoverers = discoverers(board, ksq, me);
    // Where the pieces head: the other king, or (by a road round the
    // other side's pawns) the pawn a lone king must take to free its own
    // blocked pawns.
    let road = blocker_to_take(pos, me).map(|goal| Road::to(goal, board, me));
    let (dist, rings): (&[u8; 64], &[Bitboard; RING_COUNT]) = match &road {
        Some(road) => (&road.dist, &road.rings),
        None => (&DIST[ksq.index()], &RINGS[ksq.index()]),
    };
    // (On the road, the squares next to the other king do not count: a
    // lone king mates nobody.)
    let hits = ZoneHits::new(road.is_none().then_some(ksq), board, me);
    // The squares in front of its pawns, when they must promote first
    // ([`must_promote`]; empty otherwise).
    let promote = if must_promote(pos, me) {
        ahead_of(board.pawns() & ours, me)
    } else {
        Bitboard::EMPTY
    };
    // Pieces whose checks were tried for mate (at most MAX_CHECKS), and the
    // squares next to the king no piece of ours attacks now (through the
    // king): likely still open after a check, so tested first.
    let mut n = 0;
    let mut open = None;
    let mut mate = None;
    let mut best = Best::new(recent);
    // Squares whose moves need more than the plain score.
    let mut special = theirs | zone | best.left;
    for m in except.iter().flatten() {
        special |= m.to;
    }
    pos.for_each_piece_moves(|pm| {
        let (role, from) = (pm.role, pm.from);
        // The moves that can give check: to a square attacking the king,
        // off the line of a piece it unmasks, castling, promotions.
        let mut to = pm.to & checks.of(role);
        if discoverers.contains(from) {
            to |= pm.to - line(ksq, from);
        }
        if role == Role::King {
            to |= pm.to & ours;
        }
        if pm.promotion {
            to = pm.to;
        }
        if to.any() && n < MAX_CHECKS {
            n += 1;
            let open = *open.get_or_insert_with(|| {
                zone - theirs - attacked_by(board, me, occ - Bitboard::from(ksq))
            });
            for m in (PieceMoves { to, ..pm }).iter() {
                if stays_open(pos, m, role, open) {
                    continue;
                }
                if may_mate(pos, m, role, ksq) {
                    *nodes += 1;
                    let mut q = *pos;
                    q.play_unchecked_by(m, role);
                    if q.is_check() && !q.has_legal_moves() {
                        mate = Some(m);
                        // Found: no more moves needed.
                        return true;
                    }
                }
            }
        }
        let (one, two) = hits.of(role);
        let reach = |sq: Square| bit(one, sq) + bit(two, sq);
        if pm.promotion {
            for m in pm.iter() {
                let promoted = m.promotion.unwrap_or(Role::Queen);
                let mut s = if promoted == Role::Queen { 30 } else { -30 };
                if promote.any() {
                    s += PROMOTE_FIRST;
                }
                if checks.of(promoted).contains(m.to) {
                    s += check;
                }
                s += special_score(pos, m, role, theirs, zone, ours, occ);
                if !except.contains(&Some(m)) {
                    best.consider(s, m);
                }
            }
            return false;
        }
        // The score: 3 for each square next to the king attacked from the
        // destination more than from here, and a step closer to the king
        // (+1); a pawn's step, the number of the rank it stands on counted
        // from its side (2 to 6: nearer to promotion, more; on the final
        // positions of real games, 11 % fewer plies to a mate than +1 for
        // all). Plain destinations by classes of squares (the best of each:
        // the nearest to the king), the others one by one.
        let pawn = role == Role::Pawn;
        let mut base = if pawn {
            1 + from.rank().relative_to(me).index() as i32 - 3 * reach(from)
        } else {
            i32::from(dist[from.index()]) - 3 * reach(from)
        };
        if promote.any() {
            // Its pieces alone cannot mate the lone king: a pawn must
            // promote first, and no piece stand in its way.
            if pawn {
                base += PROMOTE_FIRST;
            } else if promote.contains(from) {
                base += PROMOTE_FIRST - 5;
            }
        }
        let slow = special | checks.of(role);
        let plain = pm.to - slow;
        // Non-pawns are at least a step from the king.
        let least = i32::from(!pawn);
        for (bonus, set) in [(6, plain & two), (3, plain & (one - two)), (0, plain - one)] {
            if set.is_empty() || base + bonus - least <= best.score {
                continue;
            }
            let (d, to) = if pawn {
                (0, set.first())
            } else {
                nearest(set, rings)
            };
            if let Some(to) = to {
                best.take(base + bonus - d, Move::new(from, to));
            }
        }
        for to in pm.to & slow {
            let far = if pawn { 0 } else { i32::from(dist[to.index()]) };
            let mut s = base + 3 * reach(to) - far;
            let m = Move::new(from, to);
            if checks.of(role).contains(to) {
                // A check that does not mate: see CHECK_SCORES.
                s += check;
            }
            if (theirs | zone).contains(to) {
                s += special_score(pos, m, role, theirs, zone, ours, occ);
            }
            if !except.contains(&Some(m)) {
                best.consider(s, m);
            }
        }
        false
    });
    (best.m, mate)
}

/// The parts of a mating move's score for a capture or a square next to the
/// other king.
#[inline]
fn special_score(
    pos: &Position,
    m: Move,
    role: Role,
    theirs: Bitboard,
    zone: Bitboard,
    ours: Bitboard,
    occ: Bitboard,
) -> i32 {
    let mut s = 0;
    if theirs.contains(m.to) && !zone.contains(m.to) {
        // Pieces away from the king defend it (those next to it wall it in
        // as much as they guard it: neither).
        s += 3;
    }
    if zone.contains(m.to) && role != Role::King {
        // Next to the other king, a piece its own side does not guard is
        // taken.
        let guards = pos.attackers_to(m.to, occ ^ m.from) & ours;
        if (guards - Bitboard::from(m.from)).is_empty() {
            s -= 50;
        }
    }
    s
}

/// Whether a square of `open` (next to the other king, not attacked by
/// the side to move now) is still not attacked after `m`, a move of a
/// `role` piece of the side to move: then `m` is no checkmate (the king can
/// step there). Only the first such square not attacked by the moved piece
/// is looked at (exactly).
#[inline]
fn stays_open(pos: &Position, m: Move, role: Role, open: Bitboard) -> bool {
    let placed = m.promotion.unwrap_or(role);
    let from = Bitboard::from(m.from);
    let ksq = pos.king_of(!pos.turn());
    let occ = ((pos.board().occupied() - from) | m.to) - Bitboard::from(ksq);
    let reached = attacks(placed.of(pos.turn()), m.to, occ);
    let Some(sq) = (open - reached - Bitboard::from(m.to)).first() else {
        return false;
    };
    if pos.is_castling(m) || pos.is_en_passant(m) {
        return false;
    }
    ((pos.attackers_to(sq, occ) & pos.board().by_color(pos.turn())) - from).is_empty()
}

/// The squares `me`'s pieces attack, with `occ` as the blockers.
fn attacked_by(board: &Board, me: Color, occ: Bitboard) -> Bitboard {
    let ours = board.by_color(me);
    let mut set = king_attacks((board.kings() & ours).first().unwrap_or(Square::A1));
    set |= pawns_attack(board.pawns() & ours, me);
    for sq in board.knights() & ours {
        set |= knight_attacks(sq);
    }
    for sq in board.bishops_and_queens() & ours {
        set |= bishop_attacks(sq, occ);
    }
    for sq in board.rooks_and_queens() & ours {
        set |= rook_attacks(sq, occ);
    }
    set
}

/// Whether `m`, a legal move of a `role` piece of the side to move, may
/// checkmate the king on `ksq`: it gives check, and every square next to
/// that king is attacked or taken by the king's own pieces after the move
/// — decided on bitboards, without playing it. (Whether the check can be
/// taken or blocked is left to playing it out.) Castling and en passant are
/// not looked at: `true`.
fn may_mate(pos: &Position, m: Move, role: Role, ksq: Square) -> bool {
    let me = pos.turn();
    let b = pos.board();
    let (from, to) = (Bitboard::from(m.from), Bitboard::from(m.to));
    if role == Role::King && b.by_color(me).contains(m.to) {
        return true;
    }
    if role == Role::Pawn && pos.ep_square() == Some(m.to) && m.from.file() != m.to.file() {
        return true;
    }
    let placed = m.promotion.unwrap_or(role);
    let mine = |r: Role| {
        let mut set = b.by_piece(r.of(me));
        if r == role {
            set = set - from;
        }
        if r == placed {
            set |= to;
        }
        set
    };
    let (pawns, knights, bishops, rooks, queens, king) = (
        mine(Role::Pawn),
        mine(Role::Knight),
        mine(Role::Bishop),
        mine(Role::Rook),
        mine(Role::Queen),
        mine(Role::King),
    );
    let (diagonal, straight) = (bishops | queens, rooks | queens);
    let attacked = |sq: Square, occ: Bitboard| {
        (knight_attacks(sq) & knights).any()
            || (king_attacks(sq) & king).any()
            || (pawn_attacks(!me, sq) & pawns).any()
            || (rook_attacks(sq, occ) & straight).any()
            || (bishop_attacks(sq, occ) & diagonal).any()
    };
    let occ = (b.occupied() - from) | to;
    if !attacked(ksq, occ) {
        return false;
    }
    let occ = occ - Bitboard::from(ksq);
    let flights = king_attacks(ksq) - (b.by_color(!me) - to);
    flights.into_iter().all(|sq| attacked(sq, occ))
}

/// The pieces of `me` that are the only piece between the other king on
/// `ksq` and a bishop, rook or queen of `me` on its line: moved off that
/// line, they give check.
fn discoverers(board: &Board, ksq: Square, me: Color) -> Bitboard {
    let ours = board.by_color(me);
    let snipers = ((rook_attacks(ksq, Bitboard::EMPTY) & board.rooks_and_queens())
        | (bishop_attacks(ksq, Bitboard::EMPTY) & board.bishops_and_queens()))
        & ours;
    let occ = board.occupied();
    let mut found = Bitboard::EMPTY;
    for sniper in snipers {
        let between = between(ksq, sniper) & occ;
        if between.count() == 1 && between.is_subset(ours) {
            found |= between;
        }
    }
    found
}

/// The other side's move: the best scored ([`Best`]); `None` if it has no
/// legal move.
fn defending_move(pos: &Position, recent: &[Option<Move>; RECENT]) -> Option<Move> {
    let me = pos.turn();
    let theirs = pos.board().by_color(!me);
    let near = king_attacks(pos.king_of(me));
    let mater = &DIST[pos.king_of(!me).index()];
    let (feed, front) = pawn_road(pos.board(), !me);
    let step = if feed.is_empty() { 5 } else { 0 };
    let mut best = Best::new(recent);
    pos.for_each_piece_moves(|pm| {
        let from = pm.from;
        // Out of the way of the mating side's pawns.
        let clear = if front.contains(from) { 4 } else { 0 };
        if pm.role == Role::King {
            // To the edge and towards the mating king; a step of the king
            // before a piece's move (on the final positions of real games,
            // 10 % fewer plies to a mate than without it), unless the
            // pieces must make way for the mating side's pawns.
            let here = 2 * EDGE[from.index()] + i32::from(mater[from.index()]);
            for to in pm.to {
                let s = if theirs.contains(to) {
                    // Only when nothing else is legal (in check).
                    -1000
                } else {
                    here - 2 * EDGE[to.index()] - i32::from(mater[to.index()]) + clear + step
                        - 4 * bit(front, to)
                };
                best.consider(s, Move::new(from, to));
            }
            return false;
        }
        // Onto the squares next to its king, not away from them; never a
        // capture unless nothing else is legal (in check).
        let base = if near.contains(from) { -5 } else { 1 } + clear;
        if pm.promotion {
            for m in pm.iter() {
                let mut s = if theirs.contains(m.to) {
                    -1000
                } else if near.contains(m.to) {
                    5
                } else {
                    base
                };
                if m.promotion != Some(Role::Knight) {
                    s -= 20;
                }
                best.consider(s, m);
            }
            return false;
        }
        let quiet = pm.to - theirs;
        // A piece offered to a pawn of the mating side (its only way on
        // when it is blocked).
        if let Some(to) = (quiet & (feed - best.left)).first() {
            best.take(base + 8, Move::new(from, to));
        }
        let plain = quiet - best.left - front;
        if let Some(to) = (plain & near).first() {
            best.take(5, Move::new(from, to));
        } else if let Some(to) = plain.first() {
            best.take(base, Move::new(from, to));
        }
        for to in quiet & best.left {
            let s = if near.contains(to) { 5 } else { base };
            best.consider(s, Move::new(from, to));
        }
        if let Some(to) = (pm.to & theirs).first() {
            best.consider(-1000, Move::new(from, to));
        }
        false
    });
    best.m
}

/// The score added to a pawn's moves (and, 5 less, to a piece's moves off
/// the square in front of one of its side's pawns) when the pawns must
/// promote first ([`must_promote`]): above any other move's score.
const PROMOTE_FIRST: i32 = 40;

/// Whether `mater` has pawns and pieces that cannot mate a lone king
/// without them ([`Position::pieces_cannot_mate_lone_king`]), and the other
/// side has its king alone: a pawn must promote before any mate, so the
/// pawns go first (else the pieces circle the king for ever).
fn must_promote(pos: &Position, mater: Color) -> bool {
    let board = pos.board();
    (board.pawns() & board.by_color(mater)).any()
        && (board.by_color(!mater) - board.kings()).is_empty()
        && pos.pieces_cannot_mate_lone_king(mater)
}

/// In a pawn ending (kings and pawns only) where every pawn of `mater` is
/// blocked by a pawn of the other side (it moves on only by a capture, or
/// once the blocker is taken): the blocker nearest to `mater`'s king, which
/// the king goes to take (then its pawn may promote and mate). `None`
/// otherwise. (With pieces on the board the other side can feed a blocked
/// pawn instead, see [`pawn_road`].)
fn blocker_to_take(pos: &Position, mater: Color) -> Option<Square> {
    let board = pos.board();
    let ours = board.by_color(mater);
    let pawns = board.pawns() & ours;
    if pawns.is_empty() || (board.occupied() - board.pawns() - board.kings()).any() {
        return None;
    }
    let their_pawns = board.pawns() & board.by_color(!mater);
    let ahead = ahead_of(pawns, mater);
    if !ahead.is_subset(their_pawns) {
        return None;
    }
    let king = pos.king_of(mater);
    ahead
        .into_iter()
        .min_by_key(|sq| DIST[king.index()][sq.index()])
}

/// A king's road to a square, round the squares it cannot stand on (its
/// own pawns, squares the other side's pawns attack): the king steps from
/// each square ([`Road::NONE`]: no road) and the squares at each distance.
struct Road {
    dist: [u8; 64],
    rings: [Bitboard; RING_COUNT],
}

impl Road {
    /// The distance of a square with no road to the goal (farther than any
    /// with one).
    const NONE: u8 = RING_COUNT as u8;

    fn to(goal: Square, board: &Board, king: Color) -> Road {
        let their_pawns = board.pawns() & board.by_color(!king);
        let open = !((board.pawns() & board.by_color(king)) | pawns_attack(their_pawns, !king));
        let mut road = Road {
            dist: [Road::NONE; 64],
            rings: [Bitboard::EMPTY; RING_COUNT],
        };
        let mut ring = Bitboard::from(goal);
        let mut seen = ring;
        for d in 0..RING_COUNT {
            if ring.is_empty() {
                break;
            }
            road.rings[d] = ring;
            let mut next = Bitboard::EMPTY;
            for sq in ring {
                road.dist[sq.index()] = d as u8;
                next |= king_attacks(sq);
            }
            ring = (next & open) - seen;
            seen |= ring;
        }
        road
    }
}

/// The road of `mater`'s pawns when it has no rook or queen (it may have
/// to promote to mate): the squares they capture on (a blocked pawn moves
/// on only by a capture: the other side's pieces are offered there) and the
/// squares in front of them (the other side's pieces keep off them).
fn pawn_road(board: &Board, mater: Color) -> (Bitboard, Bitboard) {
    let ours = board.by_color(mater);
    let pawns = board.pawns() & ours;
    if pawns.is_empty() || (board.rooks_and_queens() & ours).any() {
        return (Bitboard::EMPTY, Bitboard::EMPTY);
    }
    (pawns_attack(pawns, mater), ahead_of(pawns, mater))
}

/// The squares the `color` pawns of `pawns` attack.
fn pawns_attack(pawns: Bitboard, color: Color) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    for sq in pawns {
        set |= pawn_attacks(color, sq);
    }
    set
}

/// The squares in front of the `color` pawns of `pawns`.
fn ahead_of(pawns: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => pawns.shift_up(),
        Color::Black => pawns.shift_down(),
    }
}

/// Whether `sq` is in `set`, as 0 or 1.
#[inline(always)]
fn bit(set: Bitboard, sq: Square) -> i32 {
    ((set.0 >> sq.index()) & 1) as i32
}

/// King steps between two squares.
static DIST: [[u8; 64]; 64] = distances();

/// The squares at each distance (king steps) from a square.
static RINGS: [[Bitboard; RING_COUNT]; 64] = rings();

/// Rings of squares kept per square: the king steps of a road round pawns
/// ([`Road`]) may be more than 7.
const RING_COUNT: usize = 16;

/// The square of `set` nearest to the square whose rings are `rings`, with
/// its distance (the lowest square of the nearest ring).
#[inline]
fn nearest(set: Bitboard, rings: &[Bitboard; RING_COUNT]) -> (i32, Option<Square>) {
    for (d, ring) in rings.iter().enumerate() {
        let here = set & *ring;
        if here.any() {
            return (d as i32, here.first());
        }
    }
    (0, None)
}

const fn rings() -> [[Bitboard; RING_COUNT]; 64] {
    let dist = distances();
    let mut table = [[Bitboard::EMPTY; RING_COUNT]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let d = dist[a][b] as usize;
            table[a][d] = Bitboard(table[a][d].0 | (1 << b));
            b += 1;
        }
        a += 1;
    }
    table
}

/// Squares from the nearest edge (0 on the edge, 3 in the centre).
static EDGE: [i32; 64] = from_edges();

const fn distances() -> [[u8; 64]; 64] {
    let mut table = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let df = (a % 8) as i32 - (b % 8) as i32;
            let dr = (a / 8) as i32 - (b / 8) as i32;
            let (df, dr) = (df.abs(), dr.abs());
            table[a][b] = if df > dr { df as u8 } else { dr as u8 };
            b += 1;
        }
        a += 1;
    }
    table
}

const fn from_edges() -> [i32; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut e = f;
        if 7 - f < e {
            e = 7 - f;
        }
        if r < e {
            e = r;
        }
        if 7 - r < e {
            e = 7 - r;
        }
        table[sq] = e;
        sq += 1;
    }
    table
}

/// For each role, the squares from which a piece of the mating side
/// attacks at least one, and at least two, of the squares next to the other
/// king (with the pieces where they stand: a score, not a fact).
struct ZoneHits {
    by_role: [(Bitboard, Bitboard); 6],
}

impl ZoneHits {
    /// The hits on the squares next to the other king on `ksq` (`None`: no
    /// square counts).
    fn new(ksq: Option<Square>, board: &Board, me: Color) -> ZoneHits {
        let mut by_role = [(Bitboard::EMPTY, Bitboard::EMPTY); 6];
        let Some(ksq) = ksq else {
            return ZoneHits { by_role };
        };
        let ours = board.by_color(me);
        let occ = board.occupied();
        let has = |set: Bitboard| (set & ours).any();
        // Pawns, knights and kings attack the same squares whatever stands
        // where: their hits on each king's zone, from a table.
        let leapers = &leaper_hits()[ksq.index()];
        if has(board.pawns()) {
            by_role[Role::Pawn.index()] = leapers[me.index()];
        }
        if has(board.knights()) {
            by_role[Role::Knight.index()] = leapers[2];
        }
        by_role[Role::King.index()] = leapers[3];
        let (diagonal, straight) = (
            has(board.bishops_and_queens()),
            has(board.rooks_and_queens()),
        );
        if diagonal || straight {
            let (mut b, mut r) = (
                (Bitboard::EMPTY, Bitboard::EMPTY),
                (Bitboard::EMPTY, Bitboard::EMPTY),
            );
            for z in king_attacks(ksq) {
                if diagonal {
                    add_hits(&mut b, bishop_attacks(z, occ));
                }
                if straight {
                    add_hits(&mut r, rook_attacks(z, occ));
                }
            }
            by_role[Role::Bishop.index()] = b;
            by_role[Role::Rook.index()] = r;
            by_role[Role::Queen.index()] = (b.0 | r.0, b.1 | r.1 | (b.0 & r.0));
        }
        ZoneHits { by_role }
    }

    fn of(&self, role: Role) -> (Bitboard, Bitboard) {
        self.by_role[role.index()]
    }
}

/// Adds to `(one, two)` the squares of `a` (attacking one more square of
/// the zone): those already in `one` go to `two`.
#[inline]
fn add_hits(hits: &mut (Bitboard, Bitboard), a: Bitboard) {
    hits.1 |= hits.0 & a;
    hits.0 |= a;
}

/// Per king square, the hits (one, two) of a white pawn, a black pawn, a
/// knight and a king on its zone: [`leaper_hits`].
type LeaperHits = [[(Bitboard, Bitboard); 4]; 64];

/// For each king square, the squares from which a white pawn, a black pawn,
/// a knight and a king attack at least one, and at least two, of the
/// squares next to it ([`ZoneHits`]).
fn leaper_hits() -> &'static LeaperHits {
    static TABLE: std::sync::OnceLock<Box<LeaperHits>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[(Bitboard::EMPTY, Bitboard::EMPTY); 4]; 64]);
        for ksq in Square::all() {
            let row = &mut t[ksq.index()];
            for z in king_attacks(ksq) {
                add_hits(
                    &mut row[Color::White.index()],
                    pawn_attacks(Color::Black, z),
                );
                add_hits(
                    &mut row[Color::Black.index()],
                    pawn_attacks(Color::White, z),
                );
                add_hits(&mut row[2], knight_attacks(z));
                add_hits(&mut row[3], king_attacks(z));
            }
        }
        t
    })
}

/// Moves remembered per side ([`Best`]).
const RECENT: usize = 4;

/// The best scored move so far. A move that takes back the side's last move
/// loses 100, one onto a square its pieces left in their last [`RECENT`]
/// moves loses 25.
struct Best {
    back: Option<Move>,
    left: Bitboard,
    score: i32,
    m: Option<Move>,
}

impl Best {
    fn new(recent: &[Option<Move>; RECENT]) -> Best {
        let mut left = Bitboard::EMPTY;
        for m in recent.iter().flatten() {
            left.add(m.from);
        }
        Best {
            back: recent[0],
            left,
            score: i32::MIN,
            m: None,
        }
    }

    /// A move onto a square not in `left`.
    #[inline(always)]
    fn take(&mut self, s: i32, m: Move) {
        if s > self.score {
            self.score = s;
            self.m = Some(m);
        }
    }

    #[inline]
    fn consider(&mut self, mut s: i32, m: Move) {
        if self.left.contains(m.to) {
            s -= 25;
            if self.back.is_some_and(|l| l.from == m.to && l.to == m.from) {
                s -= 75;
            }
        }
        if s > self.score {
            self.score = s;
            self.m = Some(m);
        }
    }
}

/// The squares from which a piece of each role checks the king on `ksq`
/// (also for the budgeted search, `dead/helpmate.rs`).
pub(super) struct CheckSquares {
    by_role: [Bitboard; 6],
}

impl CheckSquares {
    pub(super) fn new(ksq: Square, occ: Bitboard, king_color: Color) -> CheckSquares {
        let bishop = bishop_attacks(ksq, occ);
        let rook = rook_attacks(ksq, occ);
        CheckSquares {
            by_role: [
                pawn_attacks(king_color, ksq),
                knight_attacks(ksq),
                bishop,
                rook,
                bishop | rook,
                Bitboard::EMPTY,
            ],
        }
    }

    pub(super) fn of(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
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
    fn in_a_blocked_pawn_ending_the_king_takes_the_blocker() {
        // Kings and pawns only, the mating side's pawns all blocked by
        // pawns: its king goes round the pawns' guarded squares to take a
        // blocker, and its pawn promotes (both went to the solver before).
        for (fen, winner, blocker) in [
            (
                "8/1K6/8/4k2p/7P/8/8/8 b - - 29 74",
                Color::White,
                Square::H5,
            ),
            (
                "5k2/8/8/6p1/6p1/6P1/8/5K2 w - - 13 58",
                Color::White,
                Square::G4,
            ),
        ] {
            let p = pos(fen);
            assert_eq!(blocker_to_take(&p, winner), Some(blocker), "{fen}");
            let line = quick_helpmate(&p, winner).unwrap_or_else(|| panic!("{fen}"));
            assert!(is_helpmate(&p, winner, &line), "{fen}: {line:?}");
        }
        // With a piece on the board the other side feeds the pawn instead
        // (`pawn_road`); with a free pawn there is no blocker to take.
        let fed = pos("8/2R5/3P4/3k4/2N3Pp/1P5P/2Q5/6K1 w - - 7 62");
        assert_eq!(blocker_to_take(&fed, Color::Black), None);
        let free = pos("7k/4K3/8/7p/7P/1p6/8/8 b - - 36 68");
        assert_eq!(blocker_to_take(&free, Color::Black), None);
    }

    #[test]
    fn pawns_promote_first_when_the_pieces_alone_cannot_mate() {
        // Bishops on squares of one colour (or one knight, or none) with a
        // pawn, against a lone king: the pawn goes first, the bishop off
        // its way, and the queen mates (the first went to the solver, 21 ms,
        // the bishops circling the king for 96 plies).
        for (fen, winner) in [
            ("1K6/8/5b2/8/6p1/8/8/k5b1 b - - 3 145", Color::Black),
            ("8/8/1k1K4/1b4p1/8/8/8/8 w - - 9 64", Color::Black),
            ("7B/8/8/5k2/8/8/4KP2/8 w - - 3 119", Color::White),
        ] {
            let p = pos(fen);
            assert!(must_promote(&p, winner), "{fen}");
            let line = quick_helpmate(&p, winner).unwrap_or_else(|| panic!("{fen}"));
            assert!(is_helpmate(&p, winner, &line), "{fen}: {line:?}");
        }
        // Pieces that mate alone, or a piece of the other side to help:
        // the usual scores.
        for (fen, winner) in [
            ("1K6/8/5b2/8/6p1/8/8/k4nb1 b - - 3 145", Color::Black),
            ("1K6/8/5b2/8/6p1/8/8/k5B1 b - - 3 145", Color::Black),
            ("6k1/3N4/8/8/6p1/8/8/4K3 w - - 0 55", Color::Black),
            ("1K6/8/8/8/8/8/8/k5b1 b - - 3 145", Color::Black),
        ] {
            assert!(!must_promote(&pos(fen), winner), "{fen}");
        }
    }

    #[test]
    fn zone_hits_count_the_squares_next_to_the_king_each_piece_attacks() {
        use rand::{Rng, SeedableRng};
        // Against a count square by square: how many squares next to the
        // king a piece of each kind of the side would attack from there.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut checked = 0;
        for _ in 0..40 {
            let mut p = Position::standard();
            for _ in 0..rng.gen_range(0..80) {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
            let board = p.board();
            let occ = board.occupied();
            for me in [Color::White, Color::Black] {
                let ksq = p.king_of(!me);
                let hits = ZoneHits::new(Some(ksq), board, me);
                let ours = board.by_color(me);
                let diagonal = (board.bishops_and_queens() & ours).any();
                let straight = (board.rooks_and_queens() & ours).any();
                let hit = |r: Role, sq: Square| {
                    king_attacks(ksq)
                        .into_iter()
                        .filter(|&z| attacks(r.of(me), sq, occ).contains(z))
                        .count()
                };
                for role in Role::ALL {
                    let present = match role {
                        Role::Pawn => (board.pawns() & ours).any(),
                        Role::Knight => (board.knights() & ours).any(),
                        Role::Bishop => diagonal,
                        Role::Rook => straight,
                        Role::Queen => diagonal || straight,
                        Role::King => true,
                    };
                    let (mut one, mut two) = (Bitboard::EMPTY, Bitboard::EMPTY);
                    for sq in Square::all().filter(|_| present) {
                        // A queen: as a bishop and as a rook, each when the
                        // side has one.
                        let count = match role {
                            Role::Queen => {
                                usize::from(diagonal) * hit(Role::Bishop, sq)
                                    + usize::from(straight) * hit(Role::Rook, sq)
                            }
                            _ => hit(role, sq),
                        };
                        if count >= 1 {
                            one.add(sq);
                        }
                        if count >= 2 {
                            two.add(sq);
                        }
                    }
                    assert_eq!(hits.of(role), (one, two), "{} {me:?} {role:?}", p.fen());
                    checked += 1;
                }
            }
        }
        assert!(checked >= 400);
        // No king's zone (a king heading along a road): no hits.
        let start = Position::standard();
        for role in Role::ALL {
            let none = ZoneHits::new(None, start.board(), Color::White).of(role);
            assert_eq!(none, (Bitboard::EMPTY, Bitboard::EMPTY));
        }
    }

    #[test]
    fn a_road_goes_round_the_squares_pawns_guard() {
        // White's king to g4 (Black's pawn there), with Black's pawns on g4
        // and g5 guarding f3, h3, f4 and h4, and White's own pawn on g3.
        let p = pos("5k2/8/8/6p1/6p1/6P1/8/5K2 w - - 13 58");
        let road = Road::to(Square::G4, p.board(), Color::White);
        assert_eq!(road.dist[Square::G4.index()], 0);
        assert_eq!(road.dist[Square::F5.index()], 1);
        assert_eq!(road.dist[Square::H5.index()], 1);
        for barred in [Square::F3, Square::H3, Square::F4, Square::H4, Square::G3] {
            assert_eq!(road.dist[barred.index()], Road::NONE, "{barred:?}");
        }
        // f1 → e2 → e3 → e4 → f5 → g4.
        assert_eq!(road.dist[Square::F1.index()], 5);
        assert!(road.rings[5].contains(Square::F1));
        assert_eq!(
            (0..RING_COUNT).map(|d| road.rings[d].count()).sum::<u32>() as usize,
            road.dist.iter().filter(|&&d| d != Road::NONE).count()
        );
    }

    #[test]
    fn finds_helpmates_and_they_replay() {
        for (fen, winner) in [
            ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Color::White),
            ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Color::Black),
            // King and queen against king: the kings walk to the edge.
            ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", Color::White),
            // Lichess: White's bishop blocks its own king's flight.
            (
                "3q4/2p3pk/4p2p/5p1B/1P6/8/b4PPP/6K1 w - - 0 30",
                Color::Black,
            ),
            // Lichess (a flag fall, 6.9): Black's only pawn is blocked; a
            // White piece offered on g3 lets it on to promote.
            ("8/2R5/3P4/3k4/2N3Pp/1P5P/2Q5/6K1 w - - 7 62", Color::Black),
            // Generated games: a king move of the mating side that leaves
            // the other king only the capture of its rook is passed over
            // (that capture ended the line, and the solver was asked).
            ("8/8/5B2/1k5R/8/7K/8/8 b - - 16 64", Color::White),
            ("8/8/8/R7/k7/8/N7/5K2 b - - 45 70", Color::White),
            // Lichess: Black's knight has to leave g7's defence.
            (
                "r3r1k1/1b3ppp/3Nq3/p3B1Qn/1p6/1P6/2P2PPP/R3R1K1 b - - 11 22",
                Color::White,
            ),
        ] {
            let p = pos(fen);
            let line = quick_helpmate(&p, winner).unwrap_or_else(|| panic!("{fen} {winner}"));
            assert!(is_helpmate(&p, winner, &line), "{fen} {winner}: {line:?}");
        }
    }

    #[test]
    fn proves_nothing_without_a_line() {
        // King and queen against king: Black cannot mate.
        let p = pos("8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
        assert!(quick_helpmate(&p, Color::Black).is_none());
        // A locked wall: nobody can.
        let wall = pos("8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1");
        assert!(quick_helpmate(&wall, Color::White).is_none());
        assert!(quick_helpmate(&wall, Color::Black).is_none());
        // No plies, no line.
        assert_eq!(
            quick_helpmate_with(&Position::standard(), Color::Black, 0).0,
            None
        );
    }
}
