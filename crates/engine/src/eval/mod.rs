//! Static evaluation: a tapered middlegame/endgame sum of material,
//! piece-square tables, mobility, pawn structure, passed pawns, king safety and
//! threats, linear in its weights ([`features`]) so that the tuner can fit them.
//!
//! The same code computes the score (with [`Scorer`]) and, for the tuner, the
//! coefficient of every weight (with [`Trace`]).

pub mod features;
pub mod init;
mod weights;

use arbiter_chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use arbiter_chess::{Bitboard, Color, Position, Role, Square};
use features::*;

pub use weights::WEIGHTS;

/// The weights of the evaluation, one pair per feature.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::eval::features::{NUM_FEATURES, S};
/// use arbiter_engine::eval::{evaluate, evaluate_with, Weights, WEIGHTS};
///
/// let pos = Position::from_fen_auto("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
/// assert_eq!(evaluate_with(&pos, &WEIGHTS), evaluate(&pos));
/// assert!(evaluate(&pos) > 500, "a queen up");
/// // With every weight zero, every position is equal.
/// let zero: Weights = [S::default(); NUM_FEATURES];
/// assert_eq!(evaluate_with(&pos, &zero), 0);
/// ```
pub type Weights = [S; NUM_FEATURES];

/// Receives each feature's count, from White's point of view.
///
/// A sink that only counts the features that fired:
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::eval::{terms, trace, Sink};
///
/// #[derive(Default)]
/// struct Fired(usize);
/// impl Sink for Fired {
///     fn add(&mut self, _index: usize, n: i32) {
///         if n != 0 {
///             self.0 += 1;
///         }
///     }
/// }
///
/// let pos = Position::from_fen_auto("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1").unwrap();
/// let mut fired = Fired::default();
/// let taper = terms(&pos, &mut fired);
/// assert!(fired.0 > 0);
/// // The same walk fills a Trace, with the same taper.
/// assert_eq!(trace(&pos).1, taper);
/// ```
pub trait Sink {
    /// Adds `n` occurrences of feature `index` (negative for Black's).
    fn add(&mut self, index: usize, n: i32);
}

/// Sums weights times counts.
///
/// [`evaluate_with`] sums with a `Scorer`; since the sum is linear, the same
/// score comes from the coefficients of a [`Trace`] times the weights:
///
/// ```
/// use arbiter_chess::{Color, Position};
/// use arbiter_engine::eval::{evaluate_with, trace, WEIGHTS};
///
/// let pos = Position::from_fen_auto(
///     "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4",
/// )
/// .unwrap();
/// let (t, taper) = trace(&pos);
/// let (mut mg, mut eg) = (0, 0);
/// for (w, &c) in WEIGHTS.iter().zip(&t.coeffs) {
///     mg += w.mg * c;
///     eg += w.eg * c;
/// }
/// let white = taper.blend(mg, eg);
/// let to_move = if pos.turn() == Color::White {
///     white
/// } else {
///     -white
/// };
/// assert_eq!(evaluate_with(&pos, &WEIGHTS), to_move);
/// ```
pub struct Scorer<'a> {
    w: &'a Weights,
    mg: i32,
    eg: i32,
}

impl Sink for Scorer<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, n: i32) {
        let w = self.w[index];
        self.mg += w.mg * n;
        self.eg += w.eg * n;
    }
}

/// The coefficient of every weight in one position (White minus Black).
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::eval::features::{MATERIAL, NUM_FEATURES};
/// use arbiter_engine::eval::trace;
///
/// // White has a queen, Black none; a pawn each.
/// let pos = Position::from_fen_auto("4k3/4p3/8/8/8/8/4P3/3QK3 w - - 0 1").unwrap();
/// let (t, _) = trace(&pos);
/// assert_eq!(t.coeffs.len(), NUM_FEATURES);
/// assert_eq!(t.coeffs[MATERIAL], 0, "pawns: one each");
/// assert_eq!(t.coeffs[MATERIAL + 4], 1, "queens: White's only");
/// ```
#[derive(Clone)]
pub struct Trace {
    /// Coefficients, indexed by feature.
    pub coeffs: Vec<i32>,
}

impl Default for Trace {
    fn default() -> Trace {
        Trace {
            coeffs: vec![0; NUM_FEATURES],
        }
    }
}

impl Sink for Trace {
    #[inline]
    fn add(&mut self, index: usize, n: i32) {
        self.coeffs[index] += n;
    }
}

/// Game phase and endgame scaling of a position.
///
/// ```
/// use arbiter_chess::Position;
/// use arbiter_engine::eval::{trace, MAX_PHASE};
///
/// let (_, full) = trace(&Position::standard());
/// assert_eq!(full.phase, MAX_PHASE);
/// // All pieces on the board: the middlegame sum alone.
/// assert_eq!(full.blend(100, -300), 100);
///
/// let pawns = Position::from_fen_auto("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
/// let (_, end) = trace(&pawns);
/// assert_eq!(end.phase, 0);
/// // Pawns and kings only: the endgame sum, scaled.
/// assert_eq!(end.blend(100, 64), end.scale_white);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Taper {
    /// 24 with all pieces on the board, 0 with pawns and kings only.
    pub phase: i32,
    /// Endgame scale (out of 64) when White is ahead in the endgame term.
    pub scale_white: i32,
    /// Endgame scale (out of 64) when Black is ahead.
    pub scale_black: i32,
}

/// The maximum phase.
pub const MAX_PHASE: i32 = 24;

impl Taper {
    /// Blends middlegame and endgame sums (White's view) into one score.
    #[inline]
    pub fn blend(&self, mg: i32, eg: i32) -> i32 {
        let scale = if eg > 0 {
            self.scale_white
        } else {
            self.scale_black
        };
        let eg = eg * scale / 64;
        (mg * self.phase + eg * (MAX_PHASE - self.phase)) / MAX_PHASE
    }
}

/// The evaluation of `pos` in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// The evaluation with the given weights, from the side to move's point of view.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let mut scorer = Scorer { w, mg: 0, eg: 0 };
    let taper = terms(pos, &mut scorer);
    let v = taper.blend(scorer.mg, scorer.eg);
    match pos.turn() {
        Color::White => v,
        Color::Black => -v,
    }
}

/// The feature coefficients of `pos` (White's view) and its taper.
pub fn trace(pos: &Position) -> (Trace, Taper) {
    let mut t = Trace::default();
    let taper = terms(pos, &mut t);
    (t, taper)
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

#[inline]
fn pawn_attack_set(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => ((pawns << 7) & !FILE_H) | ((pawns << 9) & !FILE_A),
        Color::Black => ((pawns >> 9) & !FILE_H) | ((pawns >> 7) & !FILE_A),
    }
}

struct Tables {
    /// Squares ahead on the same file.
    front: [[u64; 64]; 2],
    /// Squares ahead on the same and adjacent files (a passed pawn has no enemy pawn there).
    passed: [[u64; 64]; 2],
    /// Squares on the adjacent files at the same rank or behind (supporting pawns).
    behind_adjacent: [[u64; 64]; 2],
    /// The adjacent files.
    adjacent: [u64; 8],
}

const fn build_tables() -> Tables {
    let mut t = Tables {
        front: [[0; 64]; 2],
        passed: [[0; 64]; 2],
        behind_adjacent: [[0; 64]; 2],
        adjacent: [0; 8],
    };
    let mut f = 0;
    while f < 8 {
        let mut m = 0u64;
        if f > 0 {
            m |= FILE_A << (f - 1);
        }
        if f < 7 {
            m |= FILE_A << (f + 1);
        }
        t.adjacent[f] = m;
        f += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        let file = sq % 8;
        let rank = sq / 8;
        let mut c = 0;
        while c < 2 {
            let mut r = 0;
            while r < 8 {
                let ahead = if c == 0 { r > rank } else { r < rank };
                let behind_or_level = if c == 0 { r <= rank } else { r >= rank };
                let rank_mask = 0xffu64 << (8 * r);
                if ahead {
                    t.front[c][sq] |= rank_mask & (FILE_A << file);
                    t.passed[c][sq] |= rank_mask & ((FILE_A << file) | t.adjacent[file]);
                }
                if behind_or_level {
                    t.behind_adjacent[c][sq] |= rank_mask & t.adjacent[file];
                }
                r += 1;
            }
            c += 1;
        }
        sq += 1;
    }
    t
}

static TABLES: Tables = build_tables();

#[inline]
fn bits(b: u64) -> impl Iterator<Item = Square> {
    Bitboard(b).into_iter()
}

#[inline]
fn popcnt(b: u64) -> i32 {
    b.count_ones() as i32
}

/// King-zone attack weights per role (knight, bishop, rook, queen).
const ZONE_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Computes every feature of `pos`, feeding `sink`, and returns the taper.
pub fn terms<K: Sink>(pos: &Position, k: &mut K) -> Taper {
    let b = pos.board();
    let occ = b.occupied().0;
    let colors = [Color::White, Color::Black];
    let by_color = [b.by_color(Color::White).0, b.by_color(Color::Black).0];
    let pawns = [
        b.by_piece(Role::Pawn.of(Color::White)).0,
        b.by_piece(Role::Pawn.of(Color::Black)).0,
    ];
    let all_pawns = pawns[0] | pawns[1];
    let pawn_att = [
        pawn_attack_set(Color::White, pawns[0]),
        pawn_attack_set(Color::Black, pawns[1]),
    ];
    let kings = [pos.king_of(Color::White), pos.king_of(Color::Black)];
    let zones = [
        king_attacks(kings[0]).0 | (1u64 << kings[0].index()),
        king_attacks(kings[1]).0 | (1u64 << kings[1].index()),
    ];

    // attacked[c][role], attacked_all[c], attacked_twice[c]
    let mut att = [[0u64; 6]; 2];
    let mut att_all = [pawn_att[0], pawn_att[1]];
    let mut att2 = [0u64; 2];
    let mut units = [0i32; 2];
    let mut minor_count = [[0i32; 2]; 2];
    for ci in 0..2 {
        att[ci][0] = pawn_att[ci];
    }
    let mut phase = 0;

    // Pass 1: pieces (material, squares, mobility, attacks).
    for (ci, &c) in colors.iter().enumerate() {
        let sign = if ci == 0 { 1 } else { -1 };
        let them = 1 - ci;
        let flip = if ci == 0 { 0 } else { 56 };
        let own = by_color[ci];
        let mob_area = !(pawns[ci] | (1u64 << kings[ci].index()) | pawn_att[them]);
        let outpost_ranks: u64 = if ci == 0 {
            0x0000_ffff_ff00_0000
        } else {
            0x0000_00ff_ffff_0000
        };
        for (ri, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .enumerate()
        {
            let role_index = ri + 1;
            for sq in bits(b.by_piece(role.of(c)).0 & own) {
                k.add(MATERIAL + role_index, sign);
                k.add(pst_index(role_index, sq.index() ^ flip), sign);
                let a = match role {
                    Role::Knight => knight_attacks(sq).0,
                    Role::Bishop => bishop_attacks(sq, Bitboard(occ)).0,
                    Role::Rook => rook_attacks(sq, Bitboard(occ)).0,
                    _ => queen_attacks(sq, Bitboard(occ)).0,
                };
                let mob = popcnt(a & mob_area) as usize;
                let mob_index = match role {
                    Role::Knight => MOBILITY_KNIGHT + mob,
                    Role::Bishop => MOBILITY_BISHOP + mob,
                    Role::Rook => MOBILITY_ROOK + mob,
                    _ => MOBILITY_QUEEN + mob,
                };
                k.add(mob_index, sign);
                att2[ci] |= att_all[ci] & a;
                att_all[ci] |= a;
                att[ci][role_index] |= a;
                let zone_hits = popcnt(a & zones[them]);
                if zone_hits > 0 {
                    units[ci] += ZONE_WEIGHT[role_index] * zone_hits;
                }
                match role {
                    Role::Knight | Role::Bishop => {
                        if role == Role::Knight {
                            minor_count[ci][0] += 1;
                        } else {
                            minor_count[ci][1] += 1;
                        }
                        let bb = 1u64 << sq.index();
                        let outpost = bb & outpost_ranks != 0
                            && pawn_att[ci] & bb != 0
                            && TABLES.passed[ci][sq.index()]
                                & !(FILE_A << sq.file().index())
                                & pawns[them]
                                == 0;
                        if outpost {
                            k.add(
                                if role == Role::Knight {
                                    KNIGHT_OUTPOST
                                } else {
                                    BISHOP_OUTPOST
                                },
                                sign,
                            );
                        }
                        phase += 1;
                    }
                    Role::Rook => {
                        let file = FILE_A << sq.file().index();
                        if file & all_pawns == 0 {
                            k.add(ROOK_OPEN, sign);
                        } else if file & pawns[ci] == 0 {
                            k.add(ROOK_SEMI_OPEN, sign);
                        }
                        let rel_rank = (sq.index() ^ flip) / 8;
                        if rel_rank == 6 {
                            let their_seventh = if ci == 0 { 0xffu64 << 48 } else { 0xffu64 << 8 };
                            let their_eighth = if ci == 0 { 0xffu64 << 56 } else { 0xffu64 };
                            if pawns[them] & their_seventh != 0
                                || (1u64 << kings[them].index()) & their_eighth != 0
                            {
                                k.add(ROOK_ON_SEVENTH, sign);
                            }
                        }
                        phase += 2;
                    }
                    _ => phase += 4,
                }
            }
        }
        if minor_count[ci][1] >= 2 {
            k.add(BISHOP_PAIR, sign);
        }
        let ka = king_attacks(kings[ci]).0;
        att2[ci] |= att_all[ci] & ka;
        att_all[ci] |= ka;
        att[ci][5] = ka;
        k.add(pst_index(5, kings[ci].index() ^ flip), sign);
    }

    // Pass 2: pawns, passed pawns, king safety, threats.
    for (ci, &c) in colors.iter().enumerate() {
        let sign = if ci == 0 { 1 } else { -1 };
        let them = 1 - ci;
        let flip = if ci == 0 { 0 } else { 56 };
        let forward: i32 = if ci == 0 { 8 } else { -8 };
        for sq in bits(pawns[ci]) {
            let i = sq.index();
            let rel = i ^ flip;
            let rel_rank = rel / 8;
            k.add(MATERIAL, sign);
            k.add(pst_index(0, rel), sign);
            let file = sq.file().index();
            let bb = 1u64 << i;
            if TABLES.front[ci][i] & pawns[ci] != 0 {
                k.add(DOUBLED, sign);
            }
            let isolated = TABLES.adjacent[file] & pawns[ci] == 0;
            if isolated {
                k.add(ISOLATED, sign);
            }
            let supported = pawn_attacks(!c, sq).0 & pawns[ci] != 0;
            let level = 0xffu64 << (8 * (i / 8));
            let phalanx = TABLES.adjacent[file] & level & pawns[ci] != 0;
            if supported || phalanx {
                k.add(CONNECTED + rel_rank, sign);
            }
            let stop = (i as i32 + forward) as usize; // pawns never stand on the last rank
            let stop_bb = 1u64 << stop;
            if !isolated
                && !supported
                && !phalanx
                && TABLES.behind_adjacent[ci][i] & pawns[ci] == 0
                && stop_bb & pawn_att[them] != 0
            {
                k.add(BACKWARD, sign);
            }
            if TABLES.passed[ci][i] & pawns[them] == 0 && TABLES.front[ci][i] & pawns[ci] == 0 {
                k.add(PASSED + rel_rank, sign);
                if stop_bb & occ != 0 {
                    k.add(PASSED_BLOCKED + rel_rank, sign);
                }
                if TABLES.front[ci][i] & (occ | att_all[them]) == 0 {
                    k.add(PASSED_FREE + rel_rank, sign);
                }
                let w = rel_rank as i32 - 2;
                if w > 0 {
                    let stop_sq = Square::new(stop as u32);
                    k.add(
                        PASSED_OWN_KING,
                        sign * w * kings[ci].distance(stop_sq) as i32,
                    );
                    k.add(
                        PASSED_THEIR_KING,
                        sign * w * kings[them].distance(stop_sq) as i32,
                    );
                }
                if supported {
                    k.add(PASSED_PROTECTED, sign);
                }
            }
            let _ = bb;
        }

        // King shelter of our own king.
        let ksq = kings[ci];
        let kfile = ksq.file().index() as i32;
        let (rank2, rank3) = if ci == 0 {
            (0xffu64 << 8, 0xffu64 << 16)
        } else {
            (0xffu64 << 48, 0xffu64 << 40)
        };
        for f in (kfile - 1).max(0)..=(kfile + 1).min(7) {
            let file = FILE_A << f;
            let own_on_file = pawns[ci] & file;
            k.add(SHIELD, sign * popcnt(own_on_file & rank2));
            k.add(SHIELD + 1, sign * popcnt(own_on_file & rank3));
            if own_on_file == 0 {
                if pawns[them] & file == 0 {
                    k.add(KING_OPEN_FILE, sign);
                } else {
                    k.add(KING_SEMI_OPEN_FILE, sign);
                }
            }
        }

        // Our attack on their king.
        let tk = kings[them];
        let safe = !att_all[them] & !by_color[ci];
        let occ_bb = Bitboard(occ);
        let knight_checks = knight_attacks(tk).0 & att[ci][1] & safe;
        let bishop_rays = bishop_attacks(tk, occ_bb).0;
        let rook_rays = rook_attacks(tk, occ_bb).0;
        let bishop_checks = bishop_rays & att[ci][2] & safe;
        let rook_checks = rook_rays & att[ci][3] & safe;
        let queen_checks = (bishop_rays | rook_rays) & att[ci][4] & safe;
        let checks = [knight_checks, bishop_checks, rook_checks, queen_checks];
        let mut u = units[ci];
        for (j, ch) in checks.iter().enumerate() {
            let n = popcnt(*ch);
            if n > 0 {
                k.add(SAFE_CHECK + j, sign * n);
                u += 3 * n;
            }
        }
        // Squares around their king we attack and they defend only with the king.
        u += popcnt(zones[them] & att_all[ci] & !att2[them] & !(att_all[them] & !att[them][5]));
        if b.by_piece(Role::Queen.of(c)).0 == 0 {
            u /= 2;
        }
        k.add(KING_DANGER, sign * u);
        k.add(KING_DANGER + 1, sign * (u * u / 16));

        // Threats against their pieces.
        let their_pieces = by_color[them] & !(1u64 << tk.index());
        let their_non_pawns = their_pieces & !pawns[them];
        k.add(
            THREAT_BY_PAWN,
            sign * popcnt(pawn_att[ci] & their_non_pawns),
        );
        let heavy = (b.rooks().0 | b.queens().0) & by_color[them];
        let weak = their_pieces & (!pawn_att[them] | heavy);
        for sq in bits((att[ci][1] | att[ci][2]) & weak) {
            if let Some(r) = b.role_at(sq) {
                k.add(THREAT_BY_MINOR + r.index(), sign);
            }
        }
        let weak_for_rook = their_pieces & (!pawn_att[them] | (b.queens().0 & by_color[them]));
        for sq in bits(att[ci][3] & weak_for_rook) {
            if let Some(r) = b.role_at(sq) {
                k.add(THREAT_BY_ROOK + r.index(), sign);
            }
        }
        k.add(
            HANGING,
            sign * popcnt(their_non_pawns & att_all[ci] & !att_all[them]),
        );
    }

    k.add(
        TEMPO,
        match pos.turn() {
            Color::White => 1,
            Color::Black => -1,
        },
    );

    let phase = phase.min(MAX_PHASE);
    Taper {
        phase,
        scale_white: endgame_scale(pos, 0, &minor_count),
        scale_black: endgame_scale(pos, 1, &minor_count),
    }
}

/// How much of the endgame score the side `ci` keeps when it is ahead (out
/// of 64): material edges that cannot win without pawns, and bishops of
/// opposite colours.
fn endgame_scale(pos: &Position, ci: usize, minors: &[[i32; 2]; 2]) -> i32 {
    let b = pos.board();
    let colors = [Color::White, Color::Black];
    let c = colors[ci];
    let o = colors[1 - ci];
    let count = |role: Role, col: Color| b.by_piece(role.of(col)).count() as i32;
    let npm = |col: Color| {
        3 * (count(Role::Knight, col) + count(Role::Bishop, col))
            + 5 * count(Role::Rook, col)
            + 9 * count(Role::Queen, col)
    };
    let our_pawns = count(Role::Pawn, c);
    let (ours, theirs) = (npm(c), npm(o));
    if our_pawns == 0 && ours - theirs <= 3 {
        // A minor piece up, or less, with no pawn: rarely enough to win.
        return if ours <= 3 { 0 } else { 8 };
    }
    // Bishops of opposite colours and nothing else but pawns.
    let bw = b.by_piece(Role::Bishop.of(Color::White)).0;
    let bb = b.by_piece(Role::Bishop.of(Color::Black)).0;
    if ours == 3
        && theirs == 3
        && minors[0][1] == 1
        && minors[1][1] == 1
        && ((bw & Bitboard::LIGHT.0 != 0) != (bb & Bitboard::LIGHT.0 != 0))
    {
        return 32;
    }
    64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen_auto(fen).unwrap())
    }

    fn mirror(fen: &str) -> String {
        let pos = Position::from_fen_auto(fen).unwrap();
        let mut setup = pos.to_setup();
        let mut board = arbiter_chess::Board::empty();
        for (sq, p) in pos.board().pieces() {
            board.set(sq.flip_vertical(), p.role.of(!p.color));
        }
        setup.board = board;
        setup.turn = !setup.turn;
        setup.castling_rights = Bitboard(setup.castling_rights.0.swap_bytes());
        setup.ep_square = setup.ep_square.map(|s| s.flip_vertical());
        Position::from_setup(setup, pos.castling_mode())
            .unwrap()
            .fen()
    }

    #[test]
    fn symmetric_under_colour_flip() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "6k1/5ppp/8/8/8/8/1B3PPP/6K1 w - - 0 1",
        ] {
            let m = mirror(fen);
            assert_eq!(eval_fen(fen), eval_fen(&m), "{fen} vs {m}");
        }
    }

    #[test]
    fn material_counts() {
        // White a queen up is far ahead; Black to move sees it negative.
        assert!(eval_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 700);
        assert!(eval_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -700);
        // A lone minor piece cannot win: scaled to zero.
        assert!(eval_fen("4k3/8/8/8/8/8/8/3NK3 w - - 0 1").abs() < 50);
    }

    #[test]
    fn trace_reproduces_score() {
        let pos = Position::from_fen_auto(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let (t, taper) = trace(&pos);
        let (mut mg, mut eg) = (0, 0);
        for (i, &c) in t.coeffs.iter().enumerate() {
            mg += WEIGHTS[i].mg * c;
            eg += WEIGHTS[i].eg * c;
        }
        assert_eq!(taper.blend(mg, eg), evaluate(&pos));
    }
}
