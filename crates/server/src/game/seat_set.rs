//! Which colours a seat holds (protocol §2).

use crate::protocol::{SeatName, Side};

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
    pub fn one(side: Side) -> SeatSet {
        SeatSet {
            white: side == Side::White,
            black: side == Side::Black,
        }
    }

    /// Both colours (local mode).
    pub const BOTH: SeatSet = SeatSet {
        white: true,
        black: true,
    };

    /// Does it hold `side`?
    pub fn holds(self, side: Side) -> bool {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
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
            "white" => Some(SeatSet::one(Side::White)),
            "black" => Some(SeatSet::one(Side::Black)),
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
            SeatSet::one(Side::White),
            SeatSet::one(Side::Black),
        ] {
            assert_eq!(SeatSet::parse(seat.stored()), Some(seat));
        }
        assert_eq!(SeatSet::parse("nobody"), None);
        assert_eq!(SeatSet::BOTH.name(), Some(SeatName::Both));
        assert!(SeatSet::one(Side::Black).holds(Side::Black));
        assert!(!SeatSet::one(Side::Black).holds(Side::White));
    }
}
