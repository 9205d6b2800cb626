//! The take-back argument: a move that can be undone keeps a live position
//! alive.
//!
//! If the position `after` arose from `before` by a move `m`, and `before`
//! can be reached again from `after` by legal moves, then every series of
//! legal moves from `before` can also be played from `after` (after the
//! return). So if `before` is not dead (Art. 5.2 b / 5.2.2), neither is
//! `after`: a helpmate from `before`, prefixed by the way back, is a helpmate
//! from `after`. The way back tried here is the shortest one: the opponent
//! makes a move `y`, the mover takes `m` back, the opponent takes `y` back.
//!
//! [`return_path`] decides this by set arithmetic on the board, without
//! playing the three moves out: every condition of legality of the three
//! moves is checked explicitly (see its documentation). The tests replay the
//! path it returns on many random games to confirm each step.

use arbiter_chess::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use arbiter_chess::{Bitboard, Board, Color, Move, Position, Role, Square};

/// `true` if a piece of `by` attacks `sq` on `board` with the given
/// occupancy.
fn attacked(board: &Board, sq: Square, by: Color, occupied: Bitboard) -> bool {
    let them = board.by_color(by);
    ((knight_attacks(sq) & board.knights())
        | (king_attacks(sq) & board.kings())
        | (pawn_attacks(!by, sq) & board.pawns())
        | (rook_attacks(sq, occupied) & board.rooks_and_queens())
        | (bishop_attacks(sq, occupied) & board.bishops_and_queens()))
    .intersects(them)
}

/// `true` if `m` is a move whose effect on the position can be undone: a
/// move of a piece (not a pawn) that captures nothing, is not castling and
/// keeps every castling right, played where no en-passant capture was
/// possible. (`after` is the position after `m`.)
pub fn is_reversible(before: &Position, m: Move, after: &Position) -> bool {
    before.legal_ep_square().is_none()
        && m.promotion.is_none()
        && before.role_at(m.from).is_some_and(|r| r != Role::Pawn)
        && !before.board().occupied().contains(m.to)
        && before.castling_rights() == after.castling_rights()
}

/// The moves `[y, m taken back, y taken back]` that lead from `after` (the
/// position after `m` in `before`) back to `before` exactly (the same
/// placement, player to move, castling rights and no en-passant capture, as
/// Art. 9.2 compares positions), if there are such moves.
///
/// Exact, without playing the moves out:
/// - `m` must be reversible ([`is_reversible`]);
/// - `y` is a legal move of the opponent in `after` (from move generation)
///   by a piece that is not a pawn, to an empty square, keeping his castling
///   rights, not to the square `m` left nor between the squares of `m`;
/// - `m` taken back is then geometrically possible (the same line, now clear)
///   and legal: the mover's king is not attacked on the board of `before`
///   with only `y` made, which is checked square by square;
/// - `y` taken back is geometrically possible (its line does not cross the
///   square `m` returned to) and legal: it restores the board of `before`,
///   where the player who has just moved cannot be in check.
pub fn return_path(before: &Position, m: Move, after: &Position) -> Option<[Move; 3]> {
    if !is_reversible(before, m, after) {
        return None;
    }
    let (a, b) = (m.from, m.to);
    let mover = before.turn();
    let board = before.board();
    let moved_king = board.kings().contains(a);
    let path = between(a, b);
    let them = after.board().by_color(!mover);
    let mut pieces = them & !after.board().pawns();
    // Moving a castling rook or, with a right left, the king gives up a
    // right (Art. 3.8 b, 9.2).
    let rights = after.castling_rights();
    pieces &= !rights;
    if (rights & them).any() {
        pieces &= !after.board().kings();
    }
    let targets = !after.board().occupied() & !path & !Bitboard::from(a);
    let king = if moved_king { a } else { before.king_of(mover) };
    let mut found = None;
    after.for_each_piece_moves_masked(pieces, targets, |pm| {
        let c = pm.from;
        let Some(piece) = board.piece_at(c) else {
            return false;
        };
        for d in pm.to {
            if between(c, d).contains(a) {
                continue;
            }
            // The board of `before` with only `y` made: is the mover's king safe?
            let mut q = *board;
            q.clear(c);
            q.set(d, piece);
            if attacked(&q, king, !mover, q.occupied()) {
                continue;
            }
            found = Some([Move::new(c, d), Move::new(b, a), Move::new(d, c)]);
            return true;
        }
        false
    });
    found
}

/// `true` if [`return_path`] finds a way back.
pub fn can_return(before: &Position, m: Move, after: &Position) -> bool {
    return_path(before, m, after).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repetition::Identity;
    use rand::{Rng, SeedableRng};

    fn replays_to(after: &Position, path: &[Move; 3], before: &Position) -> bool {
        let mut p = *after;
        for &x in path {
            if !p.is_legal(x) {
                return false;
            }
            p.play_unchecked(x);
        }
        Identity::of(&p) == Identity::of(before)
    }

    /// Every way back found is replayed move by move; and where a slow
    /// search by playing every reply finds a way back, so does the fast one
    /// (the same first replies are tried).
    #[test]
    fn return_paths_replay_on_random_games() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (mut found, mut checked) = (0, 0);
        for _ in 0..300 {
            let mut pos = Position::standard();
            for _ in 0..300 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.gen_range(0..moves.len())];
                let before = pos;
                pos.play_unchecked(m);
                checked += 1;
                let fast = return_path(&before, m, &pos);
                if let Some(path) = fast {
                    found += 1;
                    assert!(
                        replays_to(&pos, &path, &before),
                        "{} {m:?}: {path:?} does not lead back",
                        before.fen()
                    );
                }
                // The slow way: try every reply, play all three moves.
                let slow = is_reversible(&before, m, &pos)
                    && pos.legal_moves().iter().any(|&y| {
                        let path = [y, Move::new(m.to, m.from), Move::new(y.to, y.from)];
                        !pos.board().occupied().contains(y.to)
                            && pos.role_at(y.from) != Some(Role::Pawn)
                            && replays_to(&pos, &path, &before)
                    });
                assert_eq!(fast.is_some(), slow, "{} {m:?}", before.fen());
            }
        }
        assert!(found > checked / 2, "{found} of {checked}");
    }

    #[test]
    fn irreversible_moves_have_no_way_back() {
        let p = Position::standard();
        for san in ["e4", "Nf3"] {
            let m = p.parse_san(san).unwrap();
            let mut q = p;
            q.play_unchecked(m);
            assert_eq!(return_path(&p, m, &q).is_some(), san == "Nf3", "{san}");
        }
        // A capture cannot be taken back.
        let p = Position::from_fen_auto("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1").unwrap();
        let m = p.parse_san("Qxd5").unwrap();
        let mut q = p;
        q.play_unchecked(m);
        assert!(return_path(&p, m, &q).is_none());
        // Moving the king gives up castling rights: no way back.
        let p = Position::from_fen_auto("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let m = p.parse_san("Kd1").unwrap();
        let mut q = p;
        q.play_unchecked(m);
        assert!(return_path(&p, m, &q).is_none());
    }

    #[test]
    fn a_reply_costing_a_castling_right_is_no_way_back() {
        // Black can move only the king and the rooks (castling rights), or
        // pawns: no reply can be taken back to the same position (Art. 9.2).
        let p = Position::from_fen_auto("r3k2r/pppppppp/8/8/8/8/8/4K1N1 w kq - 0 1").unwrap();
        let m = p.parse_san("Nf3").unwrap();
        let mut q = p;
        q.play_unchecked(m);
        assert!(is_reversible(&p, m, &q));
        assert!(return_path(&p, m, &q).is_none());
        // Without the rights, Kd8 and back is a way.
        let p = Position::from_fen_auto("r3k2r/pppppppp/8/8/8/8/8/4K1N1 w - - 0 1").unwrap();
        let mut q = p;
        q.play_unchecked(m);
        let path = return_path(&p, m, &q).unwrap();
        assert!(replays_to(&q, &path, &p));
    }
}
