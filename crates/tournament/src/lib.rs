//! # arbiter-tournament
//!
//! Chess competitions by the FIDE Handbook, as a library that knows results,
//! not moves:
//!
//! - the event ([`Event`], [`Player`], [`RoundEntry`]): players, rounds,
//!   results including forfeits and byes, the point system (Laws Art. 10/11);
//! - the Tournament Report File, TRF-16 and TRF-2026 ([`trf`]), column-exact;
//! - round-robin pairings by the Berger tables (C.05 Annex 1, [`berger`]);
//! - the FIDE Dutch system (C.04.1–C.04.3, [`dutch`]) as one maximum-weight
//!   matching per bracket ([`matching`]), with Baku acceleration (C.04.5.1);
//! - a pairing checker and a random tournament generator (C.04 A.4/A.5,
//!   [`check`], [`generate`]);
//! - tie-breaks (C.07, [`tiebreak`]), FIDE rating changes (B.02, [`rating`])
//!   and Glicko-2 ([`glicko2`]).
//!
//! ```
//! use arbiter_tournament::{trf, Event, Player};
//! let mut event = Event::new("Club", 5);
//! for (i, r) in [2100, 2000, 1900, 1800].iter().enumerate() {
//!     event.players.push(Player::new(i as u16 + 1, &format!("Player {}", i + 1), *r));
//! }
//! let round = arbiter_tournament::dutch::pair(&event, Default::default()).unwrap();
//! assert_eq!(round.pairs, vec![(1, 3), (4, 2)]);
//! let text = trf::write(&event, trf::TrfVersion::Trf26).unwrap();
//! assert_eq!(trf::read(&text).unwrap(), event);
//! ```
#![deny(missing_docs)]

pub mod berger;
pub mod check;
pub mod dutch;
pub mod generate;
pub mod glicko2;
pub mod matching;
mod model;
pub mod rating;
pub mod tiebreak;
pub mod trf;
mod validate;

pub use model::{
    Acceleration, AnnouncedBye, Colour, Event, PairingSystem, Player, PointSystem, Points,
    PointsError, Prohibition, RoundEntry, RoundResult, Sex, Title,
};
pub use validate::{EventError, Place, TrfDate};
