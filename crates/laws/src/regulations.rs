//! [`Regulations`]: what the regulations of an event specify that the Laws
//! leave to them, each with the Article that allows it.

use serde::{Deserialize, Serialize};

/// The regulations of the event, as far as the Laws leave rules to them.
/// Everything defaults to what the Laws say when the regulations are silent.
///
/// ```
/// use arbiter_laws::{Game, Regulations, Start};
/// let start = Start {
///     regulations: Regulations { default_time_ms: 30 * 60_000, ..Regulations::default() },
///     ..Start::default()
/// };
/// let game = Game::new(start)?;
/// assert_eq!(game.start().regulations.default_time_ms, 1_800_000);
/// assert_eq!(Regulations::default().default_time_ms, 0);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Regulations {
    /// The default time (2014 6.7 a, 2018/2023 6.7.1), in milliseconds after
    /// the scheduled start: a player arriving at the chessboard after it
    /// loses unless the arbiter decides otherwise. "If the default time is
    /// not specified, then it is zero."
    pub default_time_ms: u64,
}
