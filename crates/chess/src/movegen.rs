//! Legal move generation (FIDE Art. 3): bulk, per piece, without allocation.
//!
//! Checkers and pinned pieces are found first, once per position, so every generated
//! move is legal: no make/test/unmake. Moves are handed out per piece as a
//! [`PieceMoves`] whose destinations stay a bitboard, so counting moves (perft at
//! the last ply, mobility) costs one popcount per piece.

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks,
    queen_attacks, rook_attacks, rook_rays,
};
use crate::position::ChecksAndPins;
use crate::{
    Bitboard, CastlingMode, CastlingSide, Color, Move, MoveList, Position, Rank, Role, Square,
};

/// The legal moves of one piece: its role, its square and the set of squares it
/// may go to. For a king the set includes the square of a rook it may castle with.
///
/// ```
/// use arbiter_chess::{Position, Role};
/// // Bulk generation: one call per piece with a set of destinations.
/// let mut knight_moves = 0;
/// Position::standard().for_each_piece_moves(|pm| {
///     if pm.role == Role::Knight {
///         knight_moves += pm.to.count();
///     }
///     false // false: go on
/// });
/// assert_eq!(knight_moves, 4);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// The moving piece's role.
    pub role: Role,
    /// Its square.
    pub from: Square,
    /// Its legal destinations.
    pub to: Bitboard,
    /// `true` if every destination is a promotion (a pawn on its seventh rank):
    /// each stands for four moves.
    pub promotion: bool,
}

impl PieceMoves {
    /// The number of moves (promotions count four times).
    #[inline]
    pub fn len(&self) -> usize {
        let n = self.to.count() as usize;
        if self.promotion {
            4 * n
        } else {
            n
        }
    }

    /// `true` if there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// The moves one by one (promotions queen first).
    pub fn iter(&self) -> impl Iterator<Item = Move> + use<> {
        let from = self.from;
        let promos: &'static [Option<Role>] = if self.promotion {
            &[
                Some(Role::Queen),
                Some(Role::Rook),
                Some(Role::Bishop),
                Some(Role::Knight),
            ]
        } else {
            &[None]
        };
        self.to.into_iter().flat_map(move |to| {
            promos.iter().map(move |&promotion| Move {
                from,
                to,
                promotion,
            })
        })
    }
}

impl Position {
    /// Calls `f` with the legal moves of each piece of the side to move that has
    /// any; stops early and returns `true` as soon as `f` returns `true`.
    #[inline]
    pub fn for_each_piece_moves<F: FnMut(PieceMoves) -> bool>(&self, mut f: F) -> bool {
        self.generate(Bitboard::FULL, Bitboard::FULL, &mut f)
    }

    /// Like [`Position::for_each_piece_moves`], restricted to pieces on `from`
    /// and destinations in `to` (castling is listed under its rook square).
    #[inline]
    pub fn for_each_piece_moves_masked<F: FnMut(PieceMoves) -> bool>(
        &self,
        from: Bitboard,
        to: Bitboard,
        mut f: F,
    ) -> bool {
        self.generate(from, to, &mut f)
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_piece_moves(|pm| {
            for m in pm.iter() {
                list.push(m);
            }
            false
        });
        list
    }

    /// The number of legal moves. Pawns that are not pinned are counted set-wise,
    /// without visiting them one by one.
    ///
    /// ```
    /// use arbiter_chess::Position;
    /// assert_eq!(Position::standard().count_legal_moves(), 20);
    /// ```
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        // Counting is mostly popcounts: use the CPU's instruction where it
        // has one (checked once per process by std; the result is cached).
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("popcnt") {
            #[allow(unsafe_code)]
            // SAFETY: the CPU supports popcnt, checked just above.
            return unsafe { self.count_legal_moves_popcnt() };
        }
        self.count_legal_moves_body()
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    #[allow(unsafe_code)]
    unsafe fn count_legal_moves_popcnt(&self) -> usize {
        self.count_legal_moves_body()
    }

    #[inline(always)]
    fn count_legal_moves_body(&self) -> usize {
        let us = self.turn;
        let b = &self.board;
        let ours = b.by_color(us);
        let theirs = b.by_color(!us);
        let occupied = ours | theirs;
        let king = self.king_of(us);
        let ChecksAndPins { checkers, pinned } = self.checks_and_pins();

        let mut king_to = king_attacks(king) & !ours;
        let occ_without_king = occupied ^ king;
        let open = if checkers.is_empty() {
            self.open_castlings(occupied)
        } else {
            0
        };
        let may_castle = open > 0;
        if king_to.count() + 2 * open >= 3 {
            // Several squares to test: the opponent's attacks once, set-wise
            // (with the king gone, Art. 3.8 a), are cheaper than each square.
            let danger = self.attacks_by(!us, occ_without_king);
            king_to = king_to - danger;
            if may_castle {
                king_to |= self.castling_targets_with(king, occupied, Some(danger));
            }
        } else {
            for sq in king_to {
                if self.is_attacked_with(sq, !us, occ_without_king) {
                    king_to.remove(sq);
                }
            }
            if may_castle {
                king_to |= self.castling_targets(king, occupied);
            }
        }
        let mut n = king_to.count() as usize;
        if checkers.more_than_one() {
            return n;
        }
        let target = match checkers.first() {
            Some(checker) => between(king, checker) | checker,
            None => Bitboard::FULL,
        } & !ours;

        for from in b.knights() & ours & !pinned {
            n += (knight_attacks(from) & target).count() as usize;
        }
        for from in b.bishops_and_queens() & ours {
            let mut to = bishop_attacks(from, occupied) & target;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            n += to.count() as usize;
        }
        for from in b.rooks_and_queens() & ours {
            let mut to = rook_attacks(from, occupied) & target;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            n += to.count() as usize;
        }

        let pawns = b.pawns() & ours;
        if pawns.is_empty() {
            return n;
        }
        let empty = !occupied;
        let last = Bitboard::rank(Rank::EIGHTH.relative_to(us));
        let free = pawns & !pinned;
        let (single, double, left, right) = match us {
            Color::White => {
                let s = free.shift_up() & empty;
                let d = (s & Bitboard::rank(Rank::THIRD)).shift_up() & empty;
                let l = Bitboard((free.0 & !Bitboard::file(crate::File::A).0) << 7) & theirs;
                let r = Bitboard((free.0 & !Bitboard::file(crate::File::H).0) << 9) & theirs;
                (s, d, l, r)
            }
            Color::Black => {
                let s = free.shift_down() & empty;
                let d = (s & Bitboard::rank(Rank::SIXTH)).shift_down() & empty;
                let l = Bitboard((free.0 & !Bitboard::file(crate::File::A).0) >> 9) & theirs;
                let r = Bitboard((free.0 & !Bitboard::file(crate::File::H).0) >> 7) & theirs;
                (s, d, l, r)
            }
        };
        // Pushes go to empty squares, captures to occupied ones, and a single
        // and a double push never share a destination (the double needs the
        // square in front empty): only the two capture sets can overlap, so
        // two popcounts count all but the promotions (three more each).
        let quiet_or_left = (single | double | left) & target;
        let right = right & target;
        n += quiet_or_left.count() as usize + right.count() as usize;
        let promoting = (quiet_or_left | right) & last;
        if promoting.any() {
            n += 3 * ((quiet_or_left & last).count() + (right & last).count()) as usize;
        }
        for from in pawns & pinned {
            let fwd = Bitboard::from(from);
            let one = match us {
                Color::White => fwd.shift_up(),
                Color::Black => fwd.shift_down(),
            } & empty;
            let two = match us {
                Color::White => (one & Bitboard::rank(Rank::THIRD)).shift_up(),
                Color::Black => (one & Bitboard::rank(Rank::SIXTH)).shift_down(),
            } & empty;
            let to = (one | two | (pawn_attacks(us, from) & theirs)) & target & line(king, from);
            n += (to - last).count() as usize + 4 * (to & last).count() as usize;
        }
        if self.ep_legal {
            if let Some(ep) = self.ep_square {
                for from in pawn_attacks(!us, ep) & pawns {
                    n += self.is_legal_ep(from, ep) as usize;
                }
            }
        }
        n
    }

    /// `true` if the side to move has at least one legal move.
    #[inline]
    pub fn has_legal_moves(&self) -> bool {
        self.for_each_piece_moves(|pm| !pm.is_empty())
    }

    /// Checkmate: in check with no legal move (Art. 1.2, 3.9, 5.1 a).
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Stalemate: not in check and no legal move (Art. 5.2 a).
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// `true` if `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        let Some(role) = self.board.role_at(m.from) else {
            return false;
        };
        if !self.us().contains(m.from) {
            return false;
        }
        let promotion_rank = Rank::EIGHTH.relative_to(self.turn);
        let needs_promotion = role == Role::Pawn && m.to.rank() == promotion_rank;
        match m.promotion {
            None if needs_promotion => return false,
            Some(_) if !needs_promotion => return false,
            Some(Role::Pawn | Role::King) => return false,
            _ => {}
        }
        let mut found = false;
        self.generate(Bitboard::from(m.from), Bitboard::from(m.to), &mut |pm| {
            found = pm.to.contains(m.to);
            found
        });
        found
    }

    /// The squares of the side to move's pieces of `role`, among `from_mask`,
    /// that have a legal move to `to` (castling excluded: it is named by
    /// [`CastlingSide`], not by a square). Found backwards from `to` with
    /// attack tables, without generating moves: what reading and writing SAN
    /// need (Appendix C.9–C.10).
    ///
    /// A non-king move is legal when it leaves no check (Art. 3.9): in check it
    /// must take the single checker or step between it and the king, and a
    /// pinned piece must stay on its line. En passant gets the full test.
    ///
    /// ```
    /// use arbiter_chess::{Bitboard, Position, Role, Square};
    /// let pos = Position::standard();
    /// assert_eq!(pos.legal_movers_to(Role::Knight, Square::F3, Bitboard::FULL), Bitboard::from(Square::G1));
    /// assert!(pos.legal_movers_to(Role::Pawn, Square::E5, Bitboard::FULL).is_empty());
    /// ```
    #[inline(always)]
    pub fn legal_movers_to(&self, role: Role, to: Square, from_mask: Bitboard) -> Bitboard {
        let us = self.turn;
        let ours = self.us();
        if ours.contains(to) {
            return Bitboard::EMPTY;
        }
        let theirs = self.them();
        let occupied = ours | theirs;
        let pieces = self.board.by_piece(role.of(us)) & from_mask;
        let king = self.king_of(us);
        let mut en_passant = Bitboard::EMPTY;
        let mut movers = match role {
            Role::King => {
                // Art. 3.8 a: not onto an attacked square, judged with the king gone.
                let movers = king_attacks(to) & pieces;
                return match movers.single() {
                    Some(from)
                        if (self.attackers_to(to, occupied.without(from)) & theirs).is_empty() =>
                    {
                        movers
                    }
                    _ => Bitboard::EMPTY,
                };
            }
            Role::Pawn => {
                let back = us.fold(-8, 8);
                if theirs.contains(to) {
                    pawn_attacks(!us, to) & pieces
                } else if occupied.contains(to) {
                    Bitboard::EMPTY
                } else {
                    let mut pushers = Bitboard::EMPTY;
                    if let Some(one) = to.offset(back) {
                        if pieces.contains(one) {
                            pushers.add(one);
                        } else if !occupied.contains(one)
                            && to.rank() == Rank::FOURTH.relative_to(us)
                        {
                            if let Some(two) = one.offset(back) {
                                pushers |= pieces & Bitboard::from(two);
                            }
                        }
                    }
                    if self.ep_square == Some(to) {
                        // Art. 3.7 d: the full test, as the captured pawn leaves another square.
                        for from in pawn_attacks(!us, to) & pieces {
                            if self.is_legal_ep(from, to) {
                                en_passant.add(from);
                            }
                        }
                    }
                    pushers
                }
            }
            Role::Knight => knight_attacks(to) & pieces,
            Role::Bishop => bishop_attacks(to, occupied) & pieces,
            // Rooks and queens: the few on `to`'s lines, each with nothing
            // between (Art. 3.3-3.5), rather than a lookup in the large slider
            // table, which misses the cache when a record is replayed.
            Role::Rook => slid_to(to, rook_rays(to) & pieces, occupied),
            Role::Queen => slid_to(to, (rook_rays(to) | bishop_rays(to)) & pieces, occupied),
        };
        if movers.is_empty() {
            return en_passant;
        }
        let ChecksAndPins { checkers, pinned } = self.checks_and_pins();
        if checkers.any() {
            match checkers.single() {
                Some(checker) if between(king, checker).with(checker).contains(to) => {}
                _ => return en_passant,
            }
        }
        for from in movers & pinned {
            if !line(king, from).contains(to) {
                movers.remove(from);
            }
        }
        movers | en_passant
    }

    /// The castling move on `side` (king to the rook's square) if it is legal
    /// now (Art. 3.8 a–b): the right remains, the squares between are empty,
    /// the king is not in check and crosses or reaches no attacked square.
    /// Found from the right itself, without generating moves (what SAN's
    /// `O-O` needs, Appendix C.13).
    ///
    /// ```
    /// use arbiter_chess::{CastlingSide, Position};
    /// let pos = Position::from_fen_auto("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    /// let m = pos.legal_castling(CastlingSide::KingSide).expect("O-O is legal");
    /// assert!(pos.legal_moves().contains(&m));
    /// assert_eq!(Position::standard().legal_castling(CastlingSide::QueenSide), None);
    /// ```
    pub fn legal_castling(&self, side: CastlingSide) -> Option<Move> {
        let us = self.turn;
        let rook = self.castling_rook(us, side)?;
        let king = self.king_of(us);
        let occupied = self.board.by_color(us) | self.board.by_color(!us);
        if self.castling_targets(king, occupied).contains(rook) && !self.is_check() {
            Some(Move::new(king, rook))
        } else {
            None
        }
    }

    /// The legal moves of the piece on `from`.
    pub fn moves_from(&self, from: Square) -> MoveList {
        let mut list = MoveList::new();
        self.generate(Bitboard::from(from), Bitboard::FULL, &mut |pm| {
            list.extend(pm.iter());
            false
        });
        list
    }

    fn generate<F: FnMut(PieceMoves) -> bool>(
        &self,
        from_mask: Bitboard,
        to_mask: Bitboard,
        f: &mut F,
    ) -> bool {
        let us = self.turn;
        let b = &self.board;
        let ours = b.by_color(us);
        let theirs = b.by_color(!us);
        let occupied = ours | theirs;
        let king = self.king_of(us);
        let ChecksAndPins { checkers, pinned } = self.checks_and_pins();

        // King: steps to squares not attacked once the king has left its square.
        if from_mask.contains(king) {
            let mut to = king_attacks(king) & !ours & to_mask;
            let occ_without_king = occupied ^ king;
            for sq in to {
                if self.is_attacked_with(sq, !us, occ_without_king) {
                    to.remove(sq);
                }
            }
            if checkers.is_empty() {
                to |= self.castling_targets(king, occupied) & to_mask;
            }
            if to.any()
                && f(PieceMoves {
                    role: Role::King,
                    from: king,
                    to,
                    promotion: false,
                })
            {
                return true;
            }
        }
        if checkers.more_than_one() {
            return false;
        }
        // In check: capture the checker or block the line (Art. 3.9).
        let target = match checkers.first() {
            Some(checker) => between(king, checker) | checker,
            None => Bitboard::FULL,
        } & !ours
            & to_mask;
        let movable = ours & from_mask;

        for from in b.knights() & movable & !pinned {
            let to = knight_attacks(from) & target;
            if to.any()
                && f(PieceMoves {
                    role: Role::Knight,
                    from,
                    to,
                    promotion: false,
                })
            {
                return true;
            }
        }
        for (role, pieces) in [
            (Role::Bishop, b.bishops()),
            (Role::Rook, b.rooks()),
            (Role::Queen, b.queens()),
        ] {
            for from in pieces & movable {
                let mut to = match role {
                    Role::Bishop => bishop_attacks(from, occupied),
                    Role::Rook => rook_attacks(from, occupied),
                    _ => queen_attacks(from, occupied),
                } & target;
                if pinned.contains(from) {
                    to &= line(king, from);
                }
                if to.any()
                    && f(PieceMoves {
                        role,
                        from,
                        to,
                        promotion: false,
                    })
                {
                    return true;
                }
            }
        }
        self.generate_pawns(king, pinned, movable, target, to_mask, occupied, theirs, f)
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn generate_pawns<F: FnMut(PieceMoves) -> bool>(
        &self,
        king: Square,
        pinned: Bitboard,
        movable: Bitboard,
        target: Bitboard,
        to_mask: Bitboard,
        occupied: Bitboard,
        theirs: Bitboard,
        f: &mut F,
    ) -> bool {
        let us = self.turn;
        let pawns = self.board.pawns() & movable;
        if pawns.is_empty() {
            return false;
        }
        let empty = !occupied;
        // Destinations of single and double pushes, computed set-wise.
        let (single, double) = match us {
            Color::White => {
                let s = pawns.shift_up() & empty;
                (s, (s & Bitboard::rank(Rank::THIRD)).shift_up() & empty)
            }
            Color::Black => {
                let s = pawns.shift_down() & empty;
                (s, (s & Bitboard::rank(Rank::SIXTH)).shift_down() & empty)
            }
        };
        let seventh = Bitboard::rank(Rank::SEVENTH.relative_to(us));
        let ep_target = match self.ep_square {
            Some(ep) if self.ep_legal => Bitboard::from(ep) & to_mask,
            _ => Bitboard::EMPTY,
        };
        for from in pawns {
            let fwd = Bitboard::from(from);
            let (one, two) = match us {
                Color::White => (fwd.shift_up(), fwd.shift_up().shift_up()),
                Color::Black => (fwd.shift_down(), fwd.shift_down().shift_down()),
            };
            let attacks = pawn_attacks(us, from);
            let mut to = ((one & single) | (two & double) | (attacks & theirs)) & target;
            if attacks.intersects(ep_target) {
                if let Some(ep) = ep_target.first() {
                    if self.is_legal_ep(from, ep) {
                        to.add(ep);
                    }
                }
            }
            if pinned.contains(from) {
                to &= line(king, from);
            }
            if to.any()
                && f(PieceMoves {
                    role: Role::Pawn,
                    from,
                    to,
                    promotion: seventh.contains(from),
                })
            {
                return true;
            }
        }
        false
    }

    /// Rook squares of the castling moves legal now (Art. 3.8 b; Appendix F):
    /// the squares between king and its destination and between rook and its
    /// destination are empty but for king and rook, and no square the king stands
    /// on, crosses or reaches is attacked. The caller checks "not in check".
    #[inline(always)]
    fn castling_targets(&self, king: Square, occupied: Bitboard) -> Bitboard {
        self.castling_targets_with(king, occupied, None)
    }

    /// How many castling rights of the side to move have an empty path
    /// (in Chess960: how many rights), so that castling may be legal.
    #[inline(always)]
    fn open_castlings(&self, occupied: Bitboard) -> u32 {
        let us = self.turn;
        let rights = self.castling_rights & Bitboard::rank(Rank::FIRST.relative_to(us));
        if rights.is_empty() {
            return 0;
        }
        if self.mode != CastlingMode::Standard {
            return rights.count();
        }
        let shift = us.fold(0u32, 56);
        let h = rights.contains(Square::new(7 + shift))
            && !occupied.intersects(Bitboard(0x60 << shift));
        let a =
            rights.contains(Square::new(shift)) && !occupied.intersects(Bitboard(0x0e << shift));
        h as u32 + a as u32
    }

    /// The squares `by`'s pieces attack with `occupied` as the blockers.
    #[inline(always)]
    fn attacks_by(&self, by: Color, occupied: Bitboard) -> Bitboard {
        let b = &self.board;
        let them = b.by_color(by);
        let pawns = (b.pawns() & them).0;
        let (not_a, not_h) = (
            !Bitboard::file(crate::File::A).0,
            !Bitboard::file(crate::File::H).0,
        );
        let mut attacked = Bitboard(match by {
            Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
            Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
        });
        for sq in b.knights() & them {
            attacked |= knight_attacks(sq);
        }
        for sq in b.bishops_and_queens() & them {
            attacked |= bishop_attacks(sq, occupied);
        }
        for sq in b.rooks_and_queens() & them {
            attacked |= rook_attacks(sq, occupied);
        }
        attacked | king_attacks(self.king_of(by))
    }

    /// [`Position::castling_targets`], given (if known) the squares the
    /// opponent attacks with the king gone.
    #[inline(always)]
    fn castling_targets_with(
        &self,
        king: Square,
        occupied: Bitboard,
        danger: Option<Bitboard>,
    ) -> Bitboard {
        let us = self.turn;
        let rights = self.castling_rights & Bitboard::rank(Rank::FIRST.relative_to(us));
        if rights.is_empty() {
            return Bitboard::EMPTY;
        }
        if self.mode != CastlingMode::Standard {
            return self.castling_targets_960(king, occupied, rights);
        }
        // Standard chess: king on e1/e8 and rooks in the corners (validated;
        // a right goes when king or rook moves or the rook is taken), so the
        // squares are fixed: f, g empty and safe for O-O; b, c, d empty and
        // c, d safe for O-O-O.
        let shift = us.fold(0u32, 56);
        let mut out = Bitboard::EMPTY;
        let h = Square::new(7 + shift);
        // (With king and rook gone no other line reaches these squares: the
        // rook stands in the corner, so `danger` answers for them.)
        let safe = |rook: Square, crossed: Bitboard| match danger {
            Some(d) if d.intersects(crossed) => Bitboard::EMPTY,
            Some(_) => Bitboard::from(rook),
            None => self.safe_castling(king, rook, crossed, occupied),
        };
        if rights.contains(h) && !occupied.intersects(Bitboard(0x60 << shift)) {
            out |= safe(h, Bitboard(0x60 << shift));
        }
        let a = Square::new(shift);
        if rights.contains(a) && !occupied.intersects(Bitboard(0x0e << shift)) {
            out |= safe(a, Bitboard(0x0c << shift));
        }
        out
    }

    /// `rook` if no square of `crossed` is attacked with king and rook gone.
    #[inline(never)]
    fn safe_castling(
        &self,
        king: Square,
        rook: Square,
        crossed: Bitboard,
        occupied: Bitboard,
    ) -> Bitboard {
        let others = occupied ^ king ^ rook;
        if crossed
            .into_iter()
            .any(|sq| self.is_attacked_with(sq, !self.turn, others))
        {
            Bitboard::EMPTY
        } else {
            Bitboard::from(rook)
        }
    }

    /// [`Position::castling_targets`] for any setup (Chess960).
    #[inline(never)]
    fn castling_targets_960(&self, king: Square, occupied: Bitboard, rights: Bitboard) -> Bitboard {
        let us = self.turn;
        let mut out = Bitboard::EMPTY;
        for rook in rights {
            // The squares between king and rook lie on the king's or the
            // rook's path whatever the setup: a quick refusal.
            if between(king, rook).intersects(occupied) {
                continue;
            }
            let side = CastlingSide::of_rook(king, rook);
            let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
            let others = occupied ^ king ^ rook;
            let path = between(king, king_to) | king_to | between(rook, rook_to) | rook_to;
            if path.intersects(others) {
                continue;
            }
            let king_path = between(king, king_to) | king_to;
            if king_path
                .into_iter()
                .any(|sq| self.is_attacked_with(sq, !us, others))
            {
                continue;
            }
            out.add(rook);
        }
        out
    }
}

/// Those of `candidates` (sliders on lines through `to`) with nothing in
/// `occupied` between them and `to`.
#[inline(always)]
fn slid_to(to: Square, candidates: Bitboard, occupied: Bitboard) -> Bitboard {
    let mut movers = Bitboard::EMPTY;
    for from in candidates {
        if (between(to, from) & occupied).is_empty() {
            movers.add(from);
        }
    }
    movers
}
