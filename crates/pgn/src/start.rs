//! The starting position a game's tags name (PGN §9.7: `SetUp` and `FEN`;
//! `Variant` for Chess960, FIDE 2014 Appendix F).

use crate::game::{GameErrorKind, Tags};
use arbiter_chess::{CastlingMode, Position, PositionError, Setup, Square};

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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Dropped {
    /// Castling rights its king and rooks cannot have, each with why.
    pub castling: Vec<(Square, &'static str)>,
    /// An en-passant square no double step can have produced, and why.
    pub en_passant: Option<(Square, &'static str)>,
}

/// The game a `Variant` tag names: `Some` castling mode when it declares
/// standard chess or Chess960, `None` without the tag (or with an empty one).
fn declared_variant(variant: Option<&str>) -> Result<Option<CastlingMode>, GameErrorKind> {
    let Some(v) = variant else {
        return Ok(None);
    };
    let key: String = v
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    match key.as_str() {
        "" => Ok(None),
        "standard" | "chess" | "normal" | "fromposition" | "classical" => {
            Ok(Some(CastlingMode::Standard))
        }
        // FIDE's own events call Chess960 "Freestyle Chess".
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" | "frc"
        | "freestyle" | "freestylechess" => Ok(Some(CastlingMode::Chess960)),
        _ => Err(GameErrorKind::Variant(v.to_owned())),
    }
}

/// The starting position, and what was dropped from the FEN.
///
/// A `Variant` tag that declares standard chess reads the FEN's castling
/// rights in standard castling mode (Art. 3.8 a: the king on e1/e8, the rook
/// in its corner), one that declares Chess960 in Chess960 mode; rights the
/// declared game cannot have are dropped. Without a `Variant` tag the
/// rights are read as they need (Chess960 when one names a rook or king
/// standard chess cannot castle with, as python-chess's reader does); if
/// that fails, the rights standard chess cannot have are dropped.
pub(crate) fn start_position_of(
    variant: Option<&str>,
    fen: Option<&str>,
) -> Result<(Position, Dropped), GameErrorKind> {
    let declared = declared_variant(variant)?;
    match fen.map(str::trim) {
        Some(fen) if !fen.is_empty() => {
            let mut setup = Setup::from_fen(fen).map_err(|e| GameErrorKind::Fen(e.into()))?;
            let mut dropped = Dropped::default();
            // The castling mode: the declared game's, else as the rights
            // read; once rights are dropped, the declared game's, else
            // standard chess's.
            let mut mode = declared;
            let mut castling_mended = false;
            loop {
                let m = mode.unwrap_or_else(|| CastlingMode::detect(&setup));
                match Position::from_setup(setup.clone(), m) {
                    Ok(pos) => return Ok((pos, dropped)),
                    Err(PositionError::InvalidCastlingRight { .. }) if !castling_mended => {
                        castling_mended = true;
                        let keep = declared.unwrap_or(CastlingMode::Standard);
                        dropped.castling = setup.castling_right_errors(keep);
                        for &(square, _) in &dropped.castling {
                            setup.castling_rights.remove(square);
                        }
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
        _ if declared == Some(CastlingMode::Chess960) => Position::chess960(518)
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

    /// FIDE's events name Chess960 "Freestyle Chess" (a tester's point).
    #[test]
    fn freestyle_is_chess960() {
        for name in ["Freestyle", "Freestyle Chess", "freestyle-chess"] {
            let (pos, _) = start_position_of(Some(name), None).unwrap();
            assert!(pos.castling_mode().is_chess960(), "{name}");
        }
    }

    /// A `Variant` tag declaring standard chess reads the FEN in standard
    /// castling mode (Art. 3.8 a): the b1 rook's `Q` is dropped, not read as
    /// Chess960 castling. Without the tag the rights are read as they need.
    #[test]
    fn a_declared_standard_game_keeps_standard_castling() {
        let fen = "4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1";
        for variant in ["Standard", "From Position"] {
            let (pos, dropped) = start_position_of(Some(variant), Some(fen)).unwrap();
            assert!(!pos.castling_mode().is_chess960(), "{variant}");
            assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/1R2K2R w K - 0 1");
            assert_eq!(dropped.castling.len(), 1);
            assert_eq!(dropped.castling[0].0, Square::B1);
            assert!(dropped.castling[0].1.contains("standard chess"));
        }
        let (pos, dropped) = start_position_of(None, Some(fen)).unwrap();
        assert!(pos.castling_mode().is_chess960());
        assert_eq!(dropped, Dropped::default());
        // Declared Chess960: the same rights, in Chess960 mode.
        let (pos, _) = start_position_of(Some("Chess960"), Some(fen)).unwrap();
        assert!(pos.castling_mode().is_chess960());
        let (pos, _) =
            start_position_of(Some("Chess960"), Some(arbiter_chess::fen::STARTING_FEN)).unwrap();
        assert!(pos.castling_mode().is_chess960());
    }

    #[test]
    fn impossible_castling_rights_are_dropped() {
        // `KQkq` without Black's h-rook: that right goes.
        let (pos, dropped) =
            start_position_of(None, Some("r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1")).unwrap();
        assert_eq!(pos.fen(), "r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1");
        assert_eq!(
            dropped.castling,
            [(Square::H8, "no rook of that colour stands there")]
        );
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
        assert_eq!(dropped.castling.len(), 1);
        assert_eq!(dropped.castling[0].0, Square::H1);
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
