//! Static exchange evaluation: does a capture sequence on one square win at
//! least a given amount of material, if both sides always recapture with their
//! least valuable piece and may stop when it suits them?

use arbiter_chess::attacks::{bishop_attacks, rook_attacks};
use arbiter_chess::{Move, Position, Role};

/// Exchange values of the roles in centipawns (the king is priceless).
pub const VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The exchange value of `role`.
#[inline]
pub fn value(role: Role) -> i32 {
    VALUE[role.index()]
}

/// `true` if playing `m` (legal in `pos`) wins at least `threshold`
/// centipawns by the static exchange. Pins are ignored. Castling is worth 0.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if pos.is_castling(m) {
        return threshold <= 0;
    }
    let b = pos.board();
    let (from, to) = (m.from, m.to);
    let Some(mover) = b.role_at(from) else {
        return false;
    };
    let ep = pos.is_en_passant(m);
    let mut gain = pos.captured_role(m).map_or(0, value);
    let mut on_square = value(mover);
    if let Some(p) = m.promotion {
        gain += value(p) - VALUE[0];
        on_square = value(p);
    }
    // Even if the opponent does not recapture, is it enough?
    let mut swap = gain - threshold;
    if swap < 0 {
        return false;
    }
    // Even if the opponent takes the piece now on the square for free, is it enough?
    swap = on_square - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = b.occupied() ^ from;
    if ep {
        if let Some(v) = to.offset(if pos.turn().is_white() { -8 } else { 8 }) {
            occ ^= v;
        }
    }
    occ |= to;
    let diag = b.bishops_and_queens();
    let orth = b.rooks_and_queens();
    let mut attackers = pos.attackers_to(to, occ) & occ;
    let mut side = pos.turn();
    // `wins`: whether the side to move in `pos` comes out at or above the
    // threshold if the exchange stops here.
    let mut wins = true;
    loop {
        side = !side;
        let theirs = attackers & b.by_color(side);
        if theirs.is_empty() {
            break;
        }
        wins = !wins;
        let mut chosen = None;
        for role in Role::ALL {
            if let Some(sq) = (theirs & b.by_role(role)).first() {
                chosen = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = chosen else {
            break;
        };
        if role == Role::King {
            // A king may only recapture if the square is no longer defended.
            return if (attackers & b.by_color(!side)).any() {
                !wins
            } else {
                wins
            };
        }
        swap = value(role) - swap;
        if swap < i32::from(wins) {
            break;
        }
        occ ^= sq;
        attackers |= (bishop_attacks(to, occ) & diag) | (rook_attacks(to, occ) & orth);
        attackers &= occ;
    }
    wins
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos = Position::from_fen_auto(fen).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        see_ge(&pos, m, threshold)
    }

    #[test]
    fn simple_exchanges() {
        // Rook takes an undefended pawn: +100.
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(check(fen, "e1e5", 100));
        assert!(!check(fen, "e1e5", 101));
        // Knight takes a pawn defended by a pawn: 100 - 320 < 0.
        let fen2 = "4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1";
        assert!(!check(fen2, "f3e5", 0));
        assert!(check(fen2, "f3e5", -220));
        assert!(!check(fen2, "f3e5", -219));
        // A quiet move to a square a pawn attacks loses the piece.
        let fen5 = "4k3/8/7p/8/8/5N2/8/4K3 w - - 0 1";
        assert!(!check(fen5, "f3g5", 0));
        assert!(check(fen5, "f3e5", 0));
        // Queen takes a rook defended by a bishop: 500 - 950 = -450.
        let fen3 = "4k3/8/2b5/3r4/8/8/8/3QK3 w - - 0 1";
        assert!(check(fen3, "d1d5", -450));
        assert!(!check(fen3, "d1d5", -449));
        // Pawn takes a knight defended once, attacked twice: +320.
        let fen4 = "4k3/8/4p3/3n4/4P3/8/8/3RK3 w - - 0 1";
        assert!(check(fen4, "e4d5", 220));
    }

    #[test]
    fn xray_recaptures() {
        // Two rooks on the file against one defender: RxP, RxR, RxR wins a pawn.
        let fen = "3r2k1/8/8/3p4/8/8/3R4/3R2K1 w - - 0 1";
        assert!(check(fen, "d2d5", 100));
        assert!(!check(fen, "d2d5", 101));
    }
}
