//! The starting position a game's tags name (PGN §9.7: `SetUp` and `FEN`;
//! `Variant` for Chess960, FIDE 2014 Appendix F).

use crate::game::{GameErrorKind, Tags};
use arbiter_chess::{Bitboard, CastlingMode, Position, PositionError, Setup};

/// The starting position a game's tags name: `FEN` (with `SetUp`), and
/// `Variant` (`Chess960` and its other names select Chess960 castling).
/// Castling rights the FEN gives but its king and rooks cannot have are
/// dropped, as python-chess and scalachess do (the readers warn, see
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

/// The starting position, and the castling rights dropped from the FEN.
pub(crate) fn start_position_of(
    variant: Option<&str>,
    fen: Option<&str>,
) -> Result<(Position, Bitboard), GameErrorKind> {
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
            let mode_of = |setup: &Setup| {
                if chess960 {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::detect(setup)
                }
            };
            match Position::from_setup(setup.clone(), mode_of(&setup)) {
                Ok(pos) => Ok((pos, Bitboard::EMPTY)),
                Err(PositionError::InvalidCastlingRight { .. }) => {
                    // Keep what the king and rooks can still do: in Chess960
                    // mode if the variant says so or no standard reading
                    // keeps a right, else in standard mode.
                    let mode = if chess960 {
                        CastlingMode::Chess960
                    } else {
                        CastlingMode::Standard
                    };
                    let dropped = setup.invalid_castling_rights(mode);
                    setup.castling_rights &= !dropped;
                    Position::from_setup(setup, mode)
                        .map(|pos| (pos, dropped))
                        .map_err(|e| GameErrorKind::Fen(e.into()))
                }
                Err(e) => Err(GameErrorKind::Fen(e.into())),
            }
        }
        _ if chess960 => Position::chess960(518)
            .map(|pos| (pos, Bitboard::EMPTY))
            .ok_or(GameErrorKind::Other("no Chess960 start")),
        _ => Ok((standard(), Bitboard::EMPTY)),
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
        assert_eq!(dropped.count(), 1);
    }
}
