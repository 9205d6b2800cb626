//! `Position`: a validated position; the side to move's checkers and pins are
//! found on demand (move generation asks once per position), so playing a move
//! that nothing is generated from (a perft leaf, a replayed game) costs no more
//! than the move itself.

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_rays,
};
use crate::{
    zobrist, Bitboard, Board, CastlingMode, CastlingSide, Color, Move, Piece, Rank, Role, Setup,
    Square,
};
use std::fmt;

/// Why a [`Setup`] is not a legal position (FIDE Art. 2, 3 and 3.10: a position
/// that cannot have arisen, or cannot be played on).
///
/// ```
/// use arbiter_chess::{Color, Position, PositionError};
/// // Black is in check but White is to move: impossible (Art. 3.9).
/// let err = Position::from_fen_auto("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1").unwrap_err();
/// assert_eq!(
///     err,
///     arbiter_chess::FenError::Position(PositionError::OppositeCheck(Color::Black))
/// );
/// println!("{err}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no king (Art. 2.2).
    #[error("{0} has no king")]
    MissingKing(Color),
    /// A side has more than one king.
    #[error("{0} has {1} kings; each side has exactly one")]
    TooManyKings(Color, u32),
    /// A side has more than 16 pieces (Art. 2.2).
    #[error("{0} has {1} pieces; at most 16 are possible")]
    TooManyPieces(Color, u32),
    /// A side has more than 8 pawns.
    #[error("{0} has {1} pawns; at most 8 are possible")]
    TooManyPawns(Color, u32),
    /// More promoted pieces than missing pawns.
    #[error("{0} has more promoted pieces than missing pawns ({1} pawns, {2} extra pieces)")]
    ImpossibleMaterial(Color, u32, u32),
    /// A pawn stands on the first or last rank.
    #[error("a pawn stands on {0}: pawns can never be on the first or last rank")]
    PawnOnBackrank(Square),
    /// The side not to move is in check: its opponent could capture the king.
    #[error("{0} is in check but it is not {0}'s move")]
    OppositeCheck(Color),
    /// The side to move is in check in a way no legal move can produce.
    #[error("impossible check: {0}")]
    ImpossibleCheck(&'static str),
    /// A castling right without the king or the rook in place.
    #[error("invalid castling right for the rook on {square}: {reason}")]
    InvalidCastlingRight {
        /// The rook square the right names.
        square: Square,
        /// What is wrong.
        reason: &'static str,
    },
    /// An en-passant square that no double step can have produced.
    #[error("invalid en-passant square {square}: {reason}")]
    InvalidEnPassant {
        /// The square given.
        square: Square,
        /// What is wrong.
        reason: &'static str,
    },
    /// The move number is zero.
    #[error("the move number must be at least 1")]
    InvalidFullmoves,
}

/// How strictly [`Position::from_setup_with`] checks a setup.
///
/// The Laws (Art. 3.10) allow only positions that can arise from the initial
/// position; that is the default. Composed problems and other programs' test
/// suites give positions that cannot arise (two line pieces checking along one
/// line, an en-passant square no double step made, ten queens) yet can still
/// be played on: [`Validation::Lenient`] accepts them, as shakmaty's
/// `ignore_*` options do, for perft and analysis.
///
/// ```
/// use arbiter_chess::{CastlingMode, Position, Setup, Validation};
/// // Two rooks checking along the e-file cannot arise in a game.
/// let setup = Setup::from_fen("4R3/8/8/4k3/8/8/8/4R2K b - - 0 1")?;
/// assert!(Position::from_setup(setup.clone(), CastlingMode::Standard).is_err());
/// let pos = Position::from_setup_with(setup, CastlingMode::Standard, Validation::Lenient)?;
/// assert!(pos.is_check());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Validation {
    /// Every check of [`Position::from_setup`]: only positions that can
    /// arise in a game (Art. 3.10).
    #[default]
    Strict,
    /// Only what move generation needs: one king each, no pawn on the first
    /// or last rank, the side not to move not in check. Impossible material
    /// and impossible checks are accepted; castling rights without their king
    /// and rook, and an en-passant square no double step can have made, are
    /// dropped; a move number of 0 is read as 1.
    Lenient,
}

/// A legal position: a [`Setup`] that passed validation, with its Zobrist key
/// kept up to date. Checkers and pinned pieces are computed when asked for.
///
/// Positions are small `Copy` values; play moves with [`Position::play_unchecked`]
/// (copy first to keep the original) or [`Position::play`].
///
/// ```
/// use arbiter_chess::{Position, Square};
/// let mut pos = Position::standard();
/// for uci in ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"] {
///     let m = pos.parse_uci(uci)?;
///     pos.play(m)?;
/// }
/// assert!(pos.is_checkmate()); // the scholar's mate
/// assert_eq!(pos.checkers().single(), Some(Square::F7));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) mode: CastlingMode,
    pub(crate) ep_legal: bool,
    pub(crate) ep_square: Option<Square>,
    pub(crate) castling_rights: Bitboard,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
}

/// A move that is not legal in the position.
///
/// ```
/// use arbiter_chess::{Move, Position, Square};
/// let mut pos = Position::standard();
/// let err = pos.play(Move::new(Square::E2, Square::E5)).unwrap_err();
/// assert_eq!(err.mv, Move::new(Square::E2, Square::E5));
/// assert_eq!(pos, Position::standard()); // nothing was played
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv:?} in {fen}")]
pub struct IllegalMoveError {
    /// The move.
    pub mv: Move,
    /// The position, as FEN.
    pub fen: String,
}

impl Default for Position {
    fn default() -> Position {
        Position::standard()
    }
}

impl PartialEq for Position {
    /// Positions are equal when their setups are (placement, turn, rights,
    /// en-passant square as stored, counters) and their castling mode is.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.mode == other.mode
            && self.ep_square == other.ep_square
            && self.castling_rights == other.castling_rights
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl Position {
    /// The initial position of standard chess (Art. 2.3).
    pub fn standard() -> Position {
        match Position::from_setup(Setup::standard(), CastlingMode::Standard) {
            Ok(p) => p,
            Err(_) => unreachable!("the standard position is legal"),
        }
    }

    /// The Chess960 starting position with Scharnagl number `n` (0–959), in
    /// Chess960 mode.
    pub fn chess960(n: u32) -> Option<Position> {
        Position::from_setup(Setup::chess960(n)?, CastlingMode::Chess960).ok()
    }

    /// Validates a setup. Checks, in order: kings, material, pawns on the back
    /// ranks, castling rights, the en-passant square, the move number, the side
    /// not to move being in check, and impossible checks.
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        Position::from_setup_with(setup, mode, Validation::Strict)
    }

    /// Validates a setup as strictly as `validation` says (see [`Validation`]).
    pub fn from_setup_with(
        setup: Setup,
        mode: CastlingMode,
        validation: Validation,
    ) -> Result<Position, PositionError> {
        Position::validated(setup, mode, validation, false)
    }

    /// A position in which the side *not* to move is in check too: what a
    /// completed illegal move leaves on the board in rapid and blitz without
    /// adequate supervision, where it stands unless the opponent claims it
    /// before his next move, and "both kings are in check" until that move is
    /// completed (FIDE 2014 A.4 d, 2018 A.4.4, 2023 A.5.4). Only for that:
    /// every other check is [`Validation::Lenient`]'s.
    ///
    /// No move may capture a king, yet move generation (which assumes the
    /// opponent's king safe) offers such captures in these positions:
    /// callers refuse them with [`Position::captures_king`].
    ///
    /// ```
    /// use arbiter_chess::{CastlingMode, Color, Move, Position, Setup, Square};
    /// // White, in check from the rook on e8, has played Qb3+ anyway: both kings in check.
    /// let setup = Setup::from_fen("4r3/1k6/8/8/8/1Q6/8/4K3 b - - 1 1")?;
    /// assert!(Position::from_setup(setup.clone(), CastlingMode::Standard).is_err());
    /// let pos = Position::from_setup_opponent_in_check(setup, CastlingMode::Standard)?;
    /// assert!(pos.is_check());
    /// assert!(pos.is_attacked(pos.king_of(Color::White), Color::Black));
    /// let takes_king = Move::new(Square::E8, Square::E1);
    /// assert!(pos.captures_king(takes_king));
    /// assert!(!pos.is_legal(takes_king)); // Black must meet his own check
    /// assert!(pos.legal_moves().iter().all(|&m| !pos.captures_king(m)));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_setup_opponent_in_check(
        setup: Setup,
        mode: CastlingMode,
    ) -> Result<Position, PositionError> {
        Position::validated(setup, mode, Validation::Lenient, true)
    }

    /// `true` if `m` would take the opponent's king: never a legal move; only
    /// generated in positions of [`Position::from_setup_opponent_in_check`].
    #[inline]
    pub fn captures_king(&self, m: Move) -> bool {
        m.to == self.king_of(!self.turn) && self.them().contains(m.to)
    }

    fn validated(
        mut setup: Setup,
        mode: CastlingMode,
        validation: Validation,
        opposite_check_allowed: bool,
    ) -> Result<Position, PositionError> {
        let lenient = validation == Validation::Lenient;
        let board = setup.board;
        for color in Color::ALL {
            let kings = (board.kings() & board.by_color(color)).count();
            match kings {
                0 => return Err(PositionError::MissingKing(color)),
                1 => {}
                n => return Err(PositionError::TooManyKings(color, n)),
            }
            if lenient {
                continue;
            }
            let pieces = board.by_color(color).count();
            if pieces > 16 {
                return Err(PositionError::TooManyPieces(color, pieces));
            }
            let m = board.material(color);
            let pawns = m[Role::Pawn.index()];
            if pawns > 8 {
                return Err(PositionError::TooManyPawns(color, pawns));
            }
            let extra = m[Role::Knight.index()].saturating_sub(2)
                + m[Role::Bishop.index()].saturating_sub(2)
                + m[Role::Rook.index()].saturating_sub(2)
                + m[Role::Queen.index()].saturating_sub(1);
            if pawns + extra > 8 {
                return Err(PositionError::ImpossibleMaterial(color, pawns, extra));
            }
        }
        if let Some(sq) = (board.pawns() & Bitboard::BACKRANKS).first() {
            return Err(PositionError::PawnOnBackrank(sq));
        }
        if lenient {
            setup.castling_rights &= !setup.invalid_castling_rights(mode);
            setup.fullmoves = setup.fullmoves.max(1);
        }
        validate_castling(&board, setup.castling_rights, mode)?;
        if setup.fullmoves == 0 {
            return Err(PositionError::InvalidFullmoves);
        }

        let mut pos = Position {
            board,
            turn: setup.turn,
            mode,
            ep_legal: false,
            ep_square: setup.ep_square,
            castling_rights: setup.castling_rights,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            hash: 0,
        };
        if let Some(ep) = setup.ep_square {
            match pos.validate_ep(ep) {
                Err(_) if lenient => pos.ep_square = None,
                other => other?,
            }
        }
        let them = !pos.turn;
        let their_king = pos.king_of(them);
        if !opposite_check_allowed
            && pos
                .attackers_to(their_king, pos.board.occupied())
                .intersects(pos.us())
        {
            return Err(PositionError::OppositeCheck(them));
        }
        if !lenient {
            pos.validate_checkers()?;
        }
        pos.ep_legal = pos.compute_ep_legal();
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    fn validate_ep(&self, ep: Square) -> Result<(), PositionError> {
        let us = self.turn;
        let err = |reason| Err(PositionError::InvalidEnPassant { square: ep, reason });
        if ep.rank() != Rank::SIXTH.relative_to(us) {
            return err(match us {
                Color::White => "with White to move it must be on rank 6",
                Color::Black => "with Black to move it must be on rank 3",
            });
        }
        let forward = us.fold(8, -8);
        let (Some(pushed), Some(origin)) = (ep.offset(-forward), ep.offset(forward)) else {
            return err("off the board");
        };
        if self.board.occupied().contains(ep) || self.board.occupied().contains(origin) {
            return err("the pawn's path is not empty");
        }
        if !self.board.by_piece(Role::Pawn.of(!us)).contains(pushed) {
            return err("no pawn stands just past it");
        }
        Ok(())
    }

    fn validate_checkers(&self) -> Result<(), PositionError> {
        let checkers = self.checkers();
        let king = self.king_of(self.turn);
        if checkers.count() > 2 {
            return Err(PositionError::ImpossibleCheck(
                "more than two pieces give check",
            ));
        }
        if let Some(ep) = self.ep_square {
            // The last move was a double step: every checker must be the pushed
            // pawn, or a slider that the pawn uncovered.
            let forward = self.turn.fold(8, -8);
            if let (Some(pushed), Some(origin)) = (ep.offset(-forward), ep.offset(forward)) {
                for checker in checkers {
                    if checker != pushed && !between(king, checker).contains(origin) {
                        return Err(PositionError::ImpossibleCheck(
                            "a check that the last move, a double pawn step, cannot have given",
                        ));
                    }
                }
            }
        }
        if checkers.more_than_one() {
            let sliders = self.board.bishops_and_queens() | self.board.rooks();
            if !checkers.intersects(sliders) {
                return Err(PositionError::ImpossibleCheck(
                    "a double check needs a line piece among the checkers",
                ));
            }
            let mut it = checkers.into_iter();
            if let (Some(a), Some(b)) = (it.next(), it.next()) {
                if crate::attacks::aligned(a, king, b)
                    && (sliders.contains(a) && sliders.contains(b))
                {
                    return Err(PositionError::ImpossibleCheck(
                        "two line pieces check along the same line",
                    ));
                }
            }
            if !self.double_check_has_last_move(checkers) {
                return Err(PositionError::ImpossibleCheck(
                    "no last move can have given both checks",
                ));
            }
        }
        Ok(())
    }

    /// `true` if some last move of the side not to move can have given the
    /// double check `checkers` (two pieces) from a position in which the
    /// side to move was not in check (Art. 3.10: a position that can arise;
    /// Art. 3.9: no move may leave one's own king attacked). A double check
    /// is given only by a piece that moves, or a pawn that is promoted
    /// (Art. 3.7 e), uncovering a line piece behind it, or by an en-passant
    /// capture (Art. 3.7 d) that empties two squares. Castling cannot give
    /// one: the squares it empties lie on the first rank, with no line piece
    /// beyond them that could reach the king.
    ///
    /// Each candidate move is taken back on a copy of the board (a capture
    /// puts a piece of the side to move back on the square: it can only
    /// shield the king), and the king must then be safe. Only positions with
    /// two checkers come here, so normal positions pay nothing.
    fn double_check_has_last_move(&self, checkers: Bitboard) -> bool {
        let us = self.turn;
        let them = !us;
        let king = self.king_of(us);
        let occupied = self.board.occupied();
        // One step of their pawns backwards, towards their first rank.
        let back = them.fold(-8, 8);
        // The position before `from` -> `to`: the mover back on `from` as
        // `before` (a pawn, if it was promoted), a taken piece of ours back
        // on `taken` (on `to`, or beside it after an en-passant capture).
        let explains = |to: Square, from: Square, before: Role, taken: Option<Square>| {
            if occupied.contains(from)
                || (before == Role::Pawn && Bitboard::BACKRANKS.contains(from))
            {
                return false;
            }
            let mut board = self.board;
            board.clear(to);
            board.set(from, before.of(them));
            if let Some(sq) = taken {
                if sq != to && occupied.contains(sq) {
                    return false;
                }
                board.set(sq, Role::Knight.of(us));
            }
            !attacked_on(&board, king, them)
        };
        let ep_rank = Rank::SIXTH.relative_to(them);
        for to in checkers {
            let Some(role) = self.board.role_at(to) else {
                continue;
            };
            let pawn_from = to.offset(back);
            if role == Role::Pawn {
                let pushed = pawn_from.is_some_and(|from| explains(to, from, Role::Pawn, None));
                let double = to.rank() == Rank::FOURTH.relative_to(them)
                    && pawn_from.is_some_and(|mid| !occupied.contains(mid))
                    && to
                        .offset(2 * back)
                        .is_some_and(|from| explains(to, from, Role::Pawn, None));
                let captured = pawn_attacks(us, to).into_iter().any(|from| {
                    explains(to, from, Role::Pawn, Some(to))
                        || (to.rank() == ep_rank
                            && pawn_from.is_some_and(|c| explains(to, from, Role::Pawn, Some(c))))
                });
                if pushed || double || captured {
                    return true;
                }
                continue;
            }
            let piece = role.of(them);
            let moved = (crate::attacks::attacks(piece, to, occupied) & !occupied)
                .into_iter()
                .any(|from| explains(to, from, role, Some(to)));
            let promoted = to.rank() == Rank::EIGHTH.relative_to(them)
                && (pawn_from.is_some_and(|from| explains(to, from, Role::Pawn, None))
                    || pawn_attacks(us, to)
                        .into_iter()
                        .any(|from| explains(to, from, Role::Pawn, Some(to))));
            if moved || promoted {
                return true;
            }
        }
        // An en-passant capture by a pawn that gives no check itself,
        // uncovering one line through the square it left and another
        // through the square of the pawn it took.
        let their_pawns = self.board.by_piece(Role::Pawn.of(them)) & !checkers;
        (their_pawns & Bitboard::rank(ep_rank))
            .into_iter()
            .any(|to| {
                let taken = to.offset(back);
                pawn_attacks(us, to)
                    .into_iter()
                    .any(|from| taken.is_some_and(|c| explains(to, from, Role::Pawn, Some(c))))
            })
    }

    /// The position as plain data.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling_rights: self.castling_rights,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    // ----- accessors -------------------------------------------------------

    /// The placement of the pieces.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move ("has the move", Art. 1.1).
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Standard chess or Chess960 notation for castling.
    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// Switches how castling is written (UCI, FEN). Fails if a castling right
    /// cannot be expressed in standard chess.
    pub fn set_castling_mode(&mut self, mode: CastlingMode) -> Result<(), PositionError> {
        validate_castling(&self.board, self.castling_rights, mode)?;
        self.mode = mode;
        Ok(())
    }

    /// The rooks that still have castling rights (Art. 3.8 b.1), by square.
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling_rights
    }

    /// The rook square of `color`'s castling right on `side`, if the right remains.
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        let king = self.king_of(color);
        let rights = self.castling_rights & Bitboard::rank(Rank::FIRST.relative_to(color));
        rights
            .into_iter()
            .find(|&rook| CastlingSide::of_rook(king, rook) == side)
    }

    /// The en-passant target square as stored: after every double step, or as
    /// given in FEN, whether or not a capture is possible.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The en-passant square only if an en-passant capture is legal (Art. 9.2:
    /// the only case where it makes positions different).
    #[inline]
    pub fn legal_ep_square(&self) -> Option<Square> {
        if self.ep_legal {
            self.ep_square
        } else {
            None
        }
    }

    /// Half-moves since the last capture or pawn move (Art. 9.3, 9.6 b).
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number (starting at 1, incremented after Black's move).
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Sets the move counters (for example when a game starts from a position).
    pub fn set_counters(&mut self, halfmoves: u32, fullmoves: u32) {
        self.halfmoves = halfmoves;
        self.fullmoves = fullmoves.max(1);
    }

    /// The Zobrist key: equal for positions that are the same under Art. 9.2.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// The pieces giving check to the side to move (Art. 3.9).
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let us = self.turn;
        let king = self.king_of(us);
        let b = &self.board;
        let occupied = b.occupied();
        ((knight_attacks(king) & b.knights())
            | (pawn_attacks(us, king) & b.pawns())
            | (rook_attacks(king, occupied) & b.rooks_and_queens())
            | (bishop_attacks(king, occupied) & b.bishops_and_queens()))
            & b.by_color(!us)
    }

    /// The side to move's pieces pinned to its king (they still attack, Art. 3.9).
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.checks_and_pins().pinned
    }

    /// `true` if the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        match (self.board.kings() & self.board.by_color(color)).first() {
            Some(sq) => sq,
            None => Square::A1, // unreachable: validated positions have both kings
        }
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// The role of the piece on `sq`.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.board.role_at(sq)
    }

    #[inline]
    pub(crate) fn us(&self) -> Bitboard {
        self.board.by_color(self.turn)
    }

    #[inline]
    pub(crate) fn them(&self) -> Bitboard {
        self.board.by_color(!self.turn)
    }

    /// Pieces of both colours that attack `sq`, given the occupied squares `occupied`
    /// (pinned pieces attack too, Art. 3.9).
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let b = &self.board;
        (rook_attacks(sq, occupied) & b.rooks_and_queens())
            | (bishop_attacks(sq, occupied) & b.bishops_and_queens())
            | (knight_attacks(sq) & b.knights())
            | (king_attacks(sq) & b.kings())
            | (pawn_attacks(Color::White, sq) & b.by_piece(Role::Pawn.of(Color::Black)))
            | (pawn_attacks(Color::Black, sq) & b.by_piece(Role::Pawn.of(Color::White)))
    }

    /// `true` if a piece of `by` attacks `sq` with the current occupancy.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.is_attacked_with(sq, by, self.board.occupied())
    }

    #[inline]
    pub(crate) fn is_attacked_with(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let b = &self.board;
        let them = b.by_color(by);
        ((knight_attacks(sq) & b.knights())
            | (king_attacks(sq) & b.kings())
            | (pawn_attacks(!by, sq) & b.pawns())
            | (rook_attacks(sq, occupied) & b.rooks_and_queens())
            | (bishop_attacks(sq, occupied) & b.bishops_and_queens()))
        .intersects(them)
    }

    // ----- move properties -------------------------------------------------

    /// `true` if `m` (legal here) is castling: the king "takes" its own rook.
    #[inline]
    pub fn is_castling(&self, m: Move) -> bool {
        self.board.kings().contains(m.from) && self.us().intersects(Bitboard::from(m.to))
    }

    /// `true` if `m` (legal here) is an en-passant capture (Art. 3.7 d).
    #[inline]
    pub fn is_en_passant(&self, m: Move) -> bool {
        Some(m.to) == self.ep_square
            && self.board.pawns().contains(m.from)
            && m.from.file() != m.to.file()
    }

    /// `true` if `m` (legal here) captures, en passant included.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.them().contains(m.to) || self.is_en_passant(m)
    }

    /// The role captured by `m`, if any (a pawn for en passant).
    #[inline]
    pub fn captured_role(&self, m: Move) -> Option<Role> {
        if self.them().contains(m.to) {
            self.board.role_at(m.to)
        } else if self.is_en_passant(m) {
            Some(Role::Pawn)
        } else {
            None
        }
    }

    /// The castling side of `m`, if it is castling.
    #[inline]
    pub fn castling_side(&self, m: Move) -> Option<CastlingSide> {
        if self.is_castling(m) {
            Some(CastlingSide::of_rook(m.from, m.to))
        } else {
            None
        }
    }

    /// `true` if `m` resets the 50-move count: a pawn move or a capture (Art. 9.3).
    #[inline]
    pub fn is_zeroing(&self, m: Move) -> bool {
        self.board.pawns().contains(m.from) || (self.them().contains(m.to))
    }

    /// Where the king ends up for move `m` (differs from `m.to` only for castling).
    pub fn king_destination(&self, m: Move) -> Square {
        match self.castling_side(m) {
            Some(side) => side.king_to(self.turn),
            None => m.to,
        }
    }

    // ----- playing moves ---------------------------------------------------

    /// Plays `m` if it is legal; the position is unchanged otherwise.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMoveError {
                mv: m,
                fen: self.fen(),
            })
        }
    }

    /// Plays a move known to be legal (from move generation). Playing an
    /// illegal move leaves a meaningless position but is memory-safe.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        if let Some(role) = self.board.role_at(m.from) {
            self.do_move::<true>(m, role);
        }
    }

    /// Plays a move known to be legal, of a piece of `role` (as move generation
    /// or a SAN reader knows it): [`Position::play_unchecked`] without looking
    /// the piece up. A wrong role leaves a meaningless position but is memory-safe.
    ///
    /// ```
    /// use arbiter_chess::{Move, Position, Role, Square};
    /// let mut pos = Position::standard();
    /// pos.play_unchecked_by(Move::new(Square::G1, Square::F3), Role::Knight);
    /// assert_eq!(pos.role_at(Square::F3), Some(Role::Knight));
    /// ```
    #[inline]
    pub fn play_unchecked_by(&mut self, m: Move, role: Role) {
        self.do_move::<true>(m, role);
    }

    /// Plays a legal move of a piece of the given role without updating the
    /// Zobrist key: for perft and other counting, where keys are not needed.
    /// The key of the resulting position is meaningless.
    #[inline]
    pub(crate) fn play_unhashed(&mut self, m: Move, role: Role) {
        self.do_move::<false>(m, role);
    }

    #[inline(always)]
    fn do_move<const HASH: bool>(&mut self, m: Move, role: Role) {
        let us = self.turn;
        let them = !us;
        let (from, to) = (m.from, m.to);
        let mut hash = self.hash;
        if HASH {
            hash ^= zobrist::turn_key(Color::Black);
            if self.ep_legal {
                if let Some(ep) = self.ep_square {
                    hash ^= zobrist::en_passant_key(ep.file());
                }
            }
        }
        let old_rights = self.castling_rights;
        let mut rights = old_rights;
        let mut new_ep = None;
        self.halfmoves = self.halfmoves.saturating_add(1);

        if role == Role::King && self.board.by_color(us).contains(to) {
            // Castling (Art. 3.8 b; Appendix F): king and rook to their final squares.
            let side = CastlingSide::of_rook(from, to);
            let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
            let king = Role::King.of(us);
            let rook = Role::Rook.of(us);
            self.board.toggle(from, king);
            self.board.toggle(to, rook);
            self.board.toggle(king_to, king);
            self.board.toggle(rook_to, rook);
            if HASH {
                hash ^= zobrist::piece_key(king, from)
                    ^ zobrist::piece_key(king, king_to)
                    ^ zobrist::piece_key(rook, to)
                    ^ zobrist::piece_key(rook, rook_to);
            }
            rights &= !Bitboard::rank(Rank::FIRST.relative_to(us));
        } else {
            let piece = role.of(us);
            if self.board.by_color(them).contains(to) {
                if let Some(captured) = self.board.role_at(to) {
                    let cp = captured.of(them);
                    self.board.toggle(to, cp);
                    if HASH {
                        hash ^= zobrist::piece_key(cp, to);
                    }
                    self.halfmoves = 0;
                }
            }
            self.board.toggle(from, piece);
            if HASH {
                hash ^= zobrist::piece_key(piece, from);
            }
            let mut placed = piece;
            if role == Role::Pawn {
                self.halfmoves = 0;
                let forward = us.fold(8i32, -8);
                let delta = to.index() as i32 - from.index() as i32;
                if delta == 2 * forward {
                    new_ep = from.offset(forward);
                } else if Some(to) == self.ep_square && from.file() != to.file() {
                    if let Some(victim) = to.offset(-forward) {
                        let vp = Role::Pawn.of(them);
                        self.board.toggle(victim, vp);
                        if HASH {
                            hash ^= zobrist::piece_key(vp, victim);
                        }
                    }
                }
                if let Some(promo) = m.promotion {
                    placed = promo.of(us);
                }
            } else if role == Role::King {
                rights &= !Bitboard::rank(Rank::FIRST.relative_to(us));
            }
            self.board.toggle(to, placed);
            if HASH {
                hash ^= zobrist::piece_key(placed, to);
            }
            rights &= !(Bitboard::from(from) | to);
        }

        if HASH {
            let lost = old_rights & !rights;
            for sq in lost {
                hash ^= zobrist::castling_key(sq);
            }
        }
        self.castling_rights = rights;
        if us == Color::Black {
            self.fullmoves = next_fullmove(self.fullmoves);
        }
        self.turn = them;
        self.ep_square = new_ep;
        self.ep_legal = new_ep.is_some() && self.compute_ep_legal();
        if HASH {
            if self.ep_legal {
                if let Some(ep) = new_ep {
                    hash ^= zobrist::en_passant_key(ep.file());
                }
            }
            self.hash = hash;
        }
    }

    /// Passes the move to the opponent without moving (a "null move", used by
    /// search; not a legal move under the Laws). Must not be used in check.
    pub fn play_null(&mut self) {
        let mut hash = self.hash ^ zobrist::turn_key(Color::Black);
        if self.ep_legal {
            if let Some(ep) = self.ep_square {
                hash ^= zobrist::en_passant_key(ep.file());
            }
        }
        self.hash = hash;
        self.ep_square = None;
        self.ep_legal = false;
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = next_fullmove(self.fullmoves);
        }
        self.turn = !self.turn;
    }

    /// The side to move's checkers and pinned pieces in one pass over the lines
    /// through its king: what move generation needs (Art. 3.9).
    #[inline]
    pub(crate) fn checks_and_pins(&self) -> ChecksAndPins {
        let us = self.turn;
        let king = self.king_of(us);
        let b = &self.board;
        let their = b.by_color(!us);
        let occupied = b.occupied();
        let mut checkers = (knight_attacks(king) & b.knights() & their)
            | (pawn_attacks(us, king) & b.pawns() & their);
        // Sliders on the king's lines, whatever stands between (the empty-board
        // rays: a small table where the slider table would miss the cache); a
        // line with only one piece between holds a pin if that piece is ours.
        let snipers = ((rook_rays(king) & b.rooks_and_queens())
            | (bishop_rays(king) & b.bishops_and_queens()))
            & their;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers.add(sniper);
            } else if !blockers.more_than_one() {
                pinned |= blockers & b.by_color(us);
            }
        }
        ChecksAndPins { checkers, pinned }
    }

    /// `true` if the side to move has a legal en-passant capture.
    pub(crate) fn compute_ep_legal(&self) -> bool {
        let Some(ep) = self.ep_square else {
            return false;
        };
        let candidates = pawn_attacks(!self.turn, ep) & self.board.pawns() & self.us();
        candidates
            .into_iter()
            .any(|from| self.is_legal_ep(from, ep))
    }

    /// Full legality test for an en-passant capture from `from` to `ep`: after
    /// removing both pawns and placing the capturer, the king must be safe.
    #[inline]
    pub(crate) fn is_legal_ep(&self, from: Square, ep: Square) -> bool {
        let us = self.turn;
        let Some(victim) = ep.offset(us.fold(-8, 8)) else {
            return false;
        };
        let king = self.king_of(us);
        let occupied = (self.board.occupied() ^ from ^ victim) | ep;
        let their = self.them() & !Bitboard::from(victim);
        let b = &self.board;
        let attackers = ((rook_attacks(king, occupied) & b.rooks_and_queens())
            | (bishop_attacks(king, occupied) & b.bishops_and_queens())
            | (knight_attacks(king) & b.knights())
            | (pawn_attacks(us, king) & b.pawns()))
            & their;
        attackers.is_empty()
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = zobrist::turn_key(self.turn);
        for (sq, piece) in self.board.pieces() {
            h ^= zobrist::piece_key(piece, sq);
        }
        for sq in self.castling_rights {
            h ^= zobrist::castling_key(sq);
        }
        if let Some(ep) = self.legal_ep_square() {
            h ^= zobrist::en_passant_key(ep.file());
        }
        h
    }
}

/// The move number after Black's move: one more, but at most
/// [`crate::fen::MAX_FULLMOVES`], so that every FEN a position writes is one
/// [`Setup::from_fen`] reads (a number set larger by hand is kept).
#[inline]
fn next_fullmove(n: u32) -> u32 {
    if n < crate::fen::MAX_FULLMOVES {
        n + 1
    } else {
        n
    }
}

/// The side to move's checkers and pinned pieces, as move generation uses them.
#[derive(Copy, Clone)]
pub(crate) struct ChecksAndPins {
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
}

impl Setup {
    /// The castling rights that [`Position::from_setup`] would reject in
    /// `mode` (no rook or king in place, two on one side, …): the ones a
    /// lenient reader drops, as python-chess and scalachess do with a FEN
    /// whose rooks cannot castle.
    ///
    /// ```
    /// use arbiter_chess::{Bitboard, CastlingMode, Setup, Square};
    /// // `KQkq`, but White's h-rook is gone.
    /// let setup = Setup::from_fen("r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1")?;
    /// let bad = setup.invalid_castling_rights(CastlingMode::Standard);
    /// assert_eq!(bad, Bitboard::from_square(Square::H1));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn invalid_castling_rights(&self, mode: CastlingMode) -> Bitboard {
        let mut dropped = Bitboard::EMPTY;
        for (square, _) in self.castling_right_errors(mode) {
            dropped.add(square);
        }
        dropped
    }

    /// The castling rights of [`Setup::invalid_castling_rights`], each with
    /// why [`Position::from_setup`] rejects it, in the order it would.
    ///
    /// ```
    /// use arbiter_chess::{CastlingMode, Setup, Square};
    /// // `K`, but no rook at all.
    /// let setup = Setup::from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1")?;
    /// let errors = setup.castling_right_errors(CastlingMode::Standard);
    /// assert_eq!(errors, [(Square::H1, "no rook of that colour stands there")]);
    /// // In standard chess a rook on b1 has no right (Art. 3.8 a).
    /// let setup = Setup::from_fen("4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1")?;
    /// let errors = setup.castling_right_errors(CastlingMode::Standard);
    /// assert_eq!(errors.len(), 1);
    /// assert_eq!(errors[0].0, Square::B1);
    /// assert!(setup.castling_right_errors(CastlingMode::Chess960).is_empty());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn castling_right_errors(&self, mode: CastlingMode) -> Vec<(Square, &'static str)> {
        let mut rights = self.castling_rights;
        let mut errors = Vec::new();
        while let Err(PositionError::InvalidCastlingRight { square, reason }) =
            validate_castling(&self.board, rights, mode)
        {
            rights.remove(square);
            errors.push((square, reason));
        }
        errors
    }
}

/// `true` if a piece of `by` attacks `sq` on `board`.
fn attacked_on(board: &Board, sq: Square, by: Color) -> bool {
    let occupied = board.occupied();
    ((rook_attacks(sq, occupied) & board.rooks_and_queens())
        | (bishop_attacks(sq, occupied) & board.bishops_and_queens())
        | (knight_attacks(sq) & board.knights())
        | (king_attacks(sq) & board.kings())
        | (pawn_attacks(!by, sq) & board.pawns()))
    .intersects(board.by_color(by))
}

fn validate_castling(
    board: &Board,
    rights: Bitboard,
    mode: CastlingMode,
) -> Result<(), PositionError> {
    // Each right on its own first (a rook and its king in place), then the
    // rights together: a right without a rook is the one named (and the one
    // a lenient reader drops), not a valid right on the same side of the
    // king (`qc` with a rook on a8 only: c8 is wrong, not a8).
    for square in rights {
        castling_rook_and_king(board, square)?;
    }
    for square in rights {
        let err = |reason| Err(PositionError::InvalidCastlingRight { square, reason });
        let king = castling_rook_and_king(board, square)?;
        let side = CastlingSide::of_rook(king, square);
        let same_side = (rights & Bitboard::rank(square.rank()))
            .into_iter()
            .filter(|&r| CastlingSide::of_rook(king, r) == side)
            .count();
        if same_side > 1 {
            return err("two castling rights on the same side of the king");
        }
        if mode == CastlingMode::Standard {
            let expected = match side {
                CastlingSide::KingSide => File::H,
                CastlingSide::QueenSide => File::A,
            };
            if king.file() != File::E || square.file() != expected {
                return err("in standard chess the king castles from e1/e8 with a rook in its corner (Art. 3.8 a); other castling rights exist only in Chess960");
            }
        }
    }
    Ok(())
}

/// The king that a castling right for the rook on `square` castles with:
/// a rook of its colour on that square, its king on the same (first or
/// last) rank, not in a corner.
fn castling_rook_and_king(board: &Board, square: Square) -> Result<Square, PositionError> {
    let err = |reason| Err(PositionError::InvalidCastlingRight { square, reason });
    let color = if square.rank() == Rank::FIRST {
        Color::White
    } else if square.rank() == Rank::EIGHTH {
        Color::Black
    } else {
        return err("castling rooks stand on the first or last rank");
    };
    if board.piece_at(square) != Some(Role::Rook.of(color)) {
        return err("no rook of that colour stands there");
    }
    let Some(king) = board.king_of(color) else {
        return err("the king is missing");
    };
    if king.rank() != square.rank() {
        return err("the king is not on its first rank");
    }
    if king.file() == File::A || king.file() == File::H {
        return err("the king stands in a corner, with no room for a rook beside it");
    }
    Ok(king)
}

use crate::File;
