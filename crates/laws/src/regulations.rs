//! [`Regulations`]: what the regulations of an event specify that the Laws
//! leave to them, each with the Article that allows it.

use crate::event::Sanction;

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
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Regulations {
    /// The default time (2014 6.7 a, 2018/2023 6.7.1), in milliseconds after
    /// the scheduled start: a player arriving at the chessboard after it
    /// loses unless the arbiter decides otherwise. "If the default time is
    /// not specified, then it is zero."
    pub default_time_ms: u64,
    /// A penalty less severe than the loss of the game for an electronic
    /// device in the playing venue (2014 11.3 b, 2018/2023 11.3.2.2: "The
    /// regulations of an event may specify a different, less severe,
    /// penalty"). `None`: the game is lost.
    pub device_penalty: Option<Sanction>,
    /// Devices may be kept in the player's bag, completely switched off
    /// (2018/2023 11.3.2.1; not in 2014).
    pub devices_in_bag: bool,
    /// No draw offer or agreement, without the arbiter's consent, before
    /// each player has made this many moves (2014 9.1 a, 2018/2023 9.1.1).
    pub draw_offers_from_move: Option<u32>,
    /// No draw offer or agreement at all without the arbiter's consent
    /// (9.1 a / 9.1.1).
    pub draw_needs_consent: bool,
}
