//! Which colours a seat holds (protocol §2).

use crate::protocol::{Color, SeatName};

/// Which colours a seat holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SeatSet {
    /// White.
    pub white: bool,
    /// Black.
    pub black: bool,
}

impl SeatSet {
    /// One colour.
    pub fn one(side: Color) -> SeatSet {
        SeatSet {
            white: side == Color::White,
            black: side == Color::Black,
        }
    }

    /// Both colours (local mode).
    pub const BOTH: SeatSet = SeatSet {
        white: true,
        black: true,
    };

    /// Does it hold `side`?
    pub fn holds(self, side: Color) -> bool {
        match side {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The wire name.
    pub fn name(self) -> Option<SeatName> {
        match (self.white, self.black) {
            (true, true) => Some(SeatName::Both),
            (true, false) => Some(SeatName::White),
            (false, true) => Some(SeatName::Black),
            (false, false) => None,
        }
    }

    /// Stored form.
    pub fn stored(self) -> &'static str {
        match (self.white, self.black) {
            (true, true) => "both",
            (false, true) => "black",
            _ => "white",
        }
    }

    /// From the stored form.
    pub fn parse(s: &str) -> Option<SeatSet> {
        match s {
            "both" => Some(SeatSet::BOTH),
            "white" => Some(SeatSet::one(Color::White)),
            "black" => Some(SeatSet::one(Color::Black)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_forms_read_back() {
        for seat in [
            SeatSet::BOTH,
            SeatSet::one(Color::White),
            SeatSet::one(Color::Black),
        ] {
            assert_eq!(SeatSet::parse(seat.stored()), Some(seat));
        }
        assert_eq!(SeatSet::parse("nobody"), None);
        assert_eq!(SeatSet::BOTH.name(), Some(SeatName::Both));
        assert!(SeatSet::one(Color::Black).holds(Color::Black));
        assert!(!SeatSet::one(Color::Black).holds(Color::White));
    }
}
