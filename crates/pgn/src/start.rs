//! The starting position a game's tags name (PGN §9.7: `SetUp` and `FEN`;
//! `Variant` for Chess960, FIDE 2014 Appendix F).

use crate::game::{GameErrorKind, Tags};
use arbiter_chess::{Bitboard, CastlingMode, Position, PositionError, Setup, Square};

/// The starting position a game's tags name: `FEN` (with `SetUp`), and
/// `Variant` (`Chess960` and its other names select Chess960 castling).
/// Castling rights the FEN gives but its king and rooks cannot have, and an
/// en-passant square no double step can have produced, are dropped, as
/// python-chess and scalachess do (the readers warn, see
/// [`crate::GameWarning`]).
///
/// ```
/// use arbiter_pgn::{start_position, Tags};
/// let mut tags = Tags::new();
/// tags.set("FEN", "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
/// assert_eq!(start_position(&tags)?.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
/// // `KQ`, but no rook on a1: the queen-side right goes.
/// tags.set("FEN", "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1");
/// assert_eq!(start_position(&tags)?.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
/// # Ok::<_, arbiter_pgn::GameErrorKind>(())
/// ```
pub fn start_position(tags: &Tags) -> Result<Position, GameErrorKind> {
    start_position_of(tags.get("Variant"), tags.get("FEN")).map(|(pos, _)| pos)
}

/// What the reader dropped from a `FEN` tag to go on: fields at odds with
/// the tag's own board, which the position can do without (python-chess
/// and scalachess ignore them too).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Dropped {
    /// Castling rights its king and rooks cannot have.
    pub castling: Bitboard,
    /// An en-passant square no double step can have produced, and why.
    pub en_passant: Option<(Square, &'static str)>,
}

/// The starting position, and what was dropped from the FEN.
pub(crate) fn start_position_of(
    variant: Option<&str>,
    fen: Option<&str>,
) -> Result<(Position, Dropped), GameErrorKind> {
    let chess960 = match variant {
        None => false,
        Some(v) => {
            let key: String = v
                .chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect();
            match key.as_str() {
                "" | "standard" | "chess" | "normal" | "fromposition" | "classical" => false,
                "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess"
                | "frc" => true,
                _ => return Err(GameErrorKind::Variant(v.to_owned())),
            }
        }
    };
    match fen.map(str::trim) {
        Some(fen) if !fen.is_empty() => {
            let mut setup = Setup::from_fen(fen).map_err(|e| GameErrorKind::Fen(e.into()))?;
            let mut dropped = Dropped::default();
            // The castling mode: Chess960 if the variant says so, else as
            // the rights read; once rights are dropped, kept in Chess960
            // mode if the variant says so, else in standard mode.
            let mut mode = None;
            loop {
                let m = mode.unwrap_or_else(|| {
                    if chess960 {
                        CastlingMode::Chess960
                    } else {
                        CastlingMode::detect(&setup)
                    }
                });
                match Position::from_setup(setup.clone(), m) {
                    Ok(pos) => return Ok((pos, dropped)),
                    Err(PositionError::InvalidCastlingRight { .. }) if mode.is_none() => {
                        let keep = if chess960 {
                            CastlingMode::Chess960
                        } else {
                            CastlingMode::Standard
                        };
                        dropped.castling = setup.invalid_castling_rights(keep);
                        setup.castling_rights &= !dropped.castling;
                        mode = Some(keep);
                    }
                    Err(PositionError::InvalidEnPassant { square, reason })
                        if dropped.en_passant.is_none() =>
                    {
                        dropped.en_passant = Some((square, reason));
                        setup.ep_square = None;
                    }
                    Err(e) => return Err(GameErrorKind::Fen(e.into())),
                }
            }
        }
        _ if chess960 => Position::chess960(518)
            .map(|pos| (pos, Dropped::default()))
            .ok_or(GameErrorKind::Other("no Chess960 start")),
        _ => Ok((standard(), Dropped::default())),
    }
}

/// The standard starting position, validated once.
pub(crate) fn standard() -> Position {
    static STANDARD: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
    *STANDARD.get_or_init(Position::standard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants() {
        assert!(start_position_of(Some("Chess960"), None)
            .unwrap()
            .0
            .castling_mode()
            .is_chess960());
        assert!(start_position_of(Some("Fischerandom"), None).is_ok());
        assert!(!start_position_of(Some("Standard"), None)
            .unwrap()
            .0
            .castling_mode()
            .is_chess960());
        assert!(matches!(
            start_position_of(Some("Crazyhouse"), None),
            Err(GameErrorKind::Variant(_))
        ));
        assert!(matches!(
            start_position_of(None, Some("8/8/8/8/8/8/8/8 w - - 0 1")),
            Err(GameErrorKind::Fen(_))
        ));
    }

    #[test]
    fn impossible_castling_rights_are_dropped() {
        // `KQkq` without Black's h-rook: that right goes.
        let (pos, dropped) =
            start_position_of(None, Some("r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1")).unwrap();
        assert_eq!(pos.fen(), "r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1");
        assert_eq!(dropped.castling.count(), 1);
        assert_eq!(dropped.en_passant, None);
    }

    #[test]
    fn an_impossible_en_passant_square_is_dropped() {
        // The pawn's own square written for the square it passed over, and a
        // bad castling right beside it: both go, the rest stays.
        let (pos, dropped) = start_position_of(
            None,
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBN1 b KQkq e4 0 1"),
        )
        .unwrap();
        assert_eq!(
            pos.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBN1 b Qkq - 0 1"
        );
        assert_eq!(dropped.castling, Bitboard::from_square(Square::H1));
        let (square, reason) = dropped.en_passant.unwrap();
        assert_eq!(square, Square::E4);
        assert!(reason.contains("rank 3"), "{reason}");
        // A right square stays.
        let (pos, dropped) = start_position_of(
            None,
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        )
        .unwrap();
        assert_eq!(pos.ep_square(), Some(Square::E3));
        assert_eq!(dropped, Dropped::default());
        // A position wrong otherwise is still refused.
        assert!(start_position_of(None, Some("4k3/8/8/8/4P3/8/8/8 w - e3 0 1")).is_err());
    }
}
