//! The checks an [`Event`] must pass to be paired, ranked and written as a
//! TRF — one home for them: [`crate::trf::read`] reports them by line and
//! column, [`crate::trf::write`] and [`crate::dutch::pair_round`] refuse an
//! event built by hand that fails them.

use crate::model::{Event, Player, RoundResult};

/// Where in an [`Event`] a problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A header record (its TRF code: `012`, `042`, `142`…).
    Record(&'static str),
    /// Field `column` (the TRF column where it starts) of the player at
    /// `index` in [`Event::players`].
    Player {
        /// The index in `players`.
        index: usize,
        /// The first TRF column of the field (5 starting rank, 15 name, 49
        /// rating, 58 FIDE id, 92 + 10(r − 1) round r's opponent…).
        column: usize,
    },
    /// Entry `index` of [`Event::forbidden`] (`XXP`).
    Forbidden(usize),
    /// Entry `index` of [`Event::prohibited`] (record 260).
    Prohibited(usize),
    /// Entry `index` of [`Event::byes`] (record 240).
    Bye(usize),
    /// Entry `index` of the explicit acceleration (`XXA`, record 250).
    Accelerated(usize),
}

/// Why an event cannot be used as it stands, and where.
///
/// ```
/// use arbiter_tournament::{Event, Player, Place};
/// let mut e = Event::new("Club", 3);
/// e.players.push(Player::new(1, "A", 12000));
/// let err = e.validate().unwrap_err();
/// assert_eq!(err.place, Place::Player { index: 0, column: 49 });
/// assert!(err.to_string().contains("rating"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct EventError {
    /// Where.
    pub place: Place,
    /// What is wrong (naming the player, round and field).
    pub message: String,
}

/// The widest values the TRF player record holds (C.04 Annex 2 / TRF-2026).
const MAX_RANK: u64 = 9999;
const MAX_RATING: u64 = 9999;
const MAX_FIDE_ID: u64 = 99_999_999_999;
/// Points in columns 81–84: `-99.9` to `999.9`, in tenths.
const POINTS_RANGE: std::ops::RangeInclusive<i32> = -999..=9999;

/// A calendar date as a TRF writes one (`YYYY/MM/DD`, also `YY/MM/DD`,
/// `DD.MM.YYYY` and `-` or `.` as separators); a month or day of `00` (or
/// `XX`) is unknown, as birth dates are often written.
///
/// ```
/// use arbiter_tournament::TrfDate;
/// let d = TrfDate::parse("2026/02/28").unwrap().unwrap();
/// assert_eq!((d.year, d.month, d.day), (2026, 2, 28));
/// assert!(TrfDate::parse("2026/13/45").is_err());
/// assert_eq!(TrfDate::parse("Sept 2026").unwrap(), None);
/// assert_eq!(d.pgn(), "2026.02.28");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrfDate {
    /// The year (two digits stay as written).
    pub year: u16,
    /// The month, 0 when unknown.
    pub month: u8,
    /// The day, 0 when unknown.
    pub day: u8,
}

impl TrfDate {
    /// Reads a date: `Ok(None)` when the text is no numeric date (free text,
    /// a localized form), an error when it is one with a month or day that
    /// does not exist.
    pub fn parse(s: &str) -> Result<Option<TrfDate>, String> {
        let t = s.trim();
        if t.is_empty() {
            return Ok(None);
        }
        if t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()) {
            let year = t.parse().map_err(|_| format!("{t:?} is not a year"))?;
            return Ok(Some(TrfDate {
                year,
                month: 0,
                day: 0,
            }));
        }
        let Some(sep) = t.chars().find(|c| matches!(c, '/' | '.' | '-')) else {
            return Ok(None);
        };
        let parts: Vec<&str> = t.split(sep).collect();
        let field = |p: &str| -> Option<Option<u16>> {
            if !p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit()) {
                p.parse().ok().map(Some)
            } else if !p.is_empty() && p.bytes().all(|b| b == b'X' || b == b'x') {
                Some(None)
            } else {
                None
            }
        };
        let [a, b, c] = parts.as_slice() else {
            return Ok(None);
        };
        let (Some(fa), Some(fb), Some(fc)) = (field(a), field(b), field(c)) else {
            return Ok(None);
        };
        let bad = || format!("{t:?} is not a date (year/month/day)");
        if c.len() == 4 && a.len() <= 2 {
            // DD.MM.YYYY, or MM/DD/YYYY as some localized writers put it.
            let dmy = Self::check(fc, fb, fa);
            return dmy
                .or_else(|_| Self::check(fc, fa, fb))
                .map(Some)
                .map_err(|_| bad());
        }
        Self::check(fa, fb, fc).map(Some).map_err(|_| bad())
    }

    fn check(y: Option<u16>, m: Option<u16>, d: Option<u16>) -> Result<TrfDate, ()> {
        let year = y.unwrap_or(0);
        let month = m.unwrap_or(0);
        let day = d.unwrap_or(0);
        let days = match month {
            0 => 31,
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if y.is_some() && (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) => 29,
            2 if y.is_none() => 29,
            2 => 28,
            _ => return Err(()),
        };
        if day > days {
            return Err(());
        }
        Ok(TrfDate {
            year,
            month: month as u8,
            day: day as u8,
        })
    }

    /// The date as the PGN `Date` tag writes it (`YYYY.MM.DD`, `??` for what
    /// is unknown, a two-digit year as `????`).
    pub fn pgn(&self) -> String {
        let y = if self.year >= 1000 {
            format!("{:04}", self.year)
        } else {
            "????".into()
        };
        let two = |v: u8| {
            if v == 0 {
                "??".to_string()
            } else {
                format!("{v:02}")
            }
        };
        format!("{y}.{}.{}", two(self.month), two(self.day))
    }
}

fn control(s: &str) -> bool {
    s.chars().any(char::is_control)
}

impl Event {
    /// Checks what the TRF columns hold and what the Dutch system and the
    /// tie-breaks assume of an event (the checks [`crate::trf::read`] makes):
    /// starting ranks 1–9999 and unique, every field within its TRF columns
    /// (rating 4 digits, FIDE id 11, rank 4, name 33 characters) and free of
    /// control characters, dates that exist, no player line longer than the
    /// rounds declared (142 / `XXR`), every opponent a player of the event
    /// whose line names the same game back, at most one pairing-allocated
    /// bye per round, and every starting rank named by `XXP`, 260, 240 and
    /// `XXA` a player's.
    ///
    /// ```
    /// use arbiter_tournament::{Colour, Event, Player, RoundEntry, RoundResult};
    /// let mut e = Event::new("Club", 3);
    /// e.players.push(Player::new(1, "A", 2000));
    /// e.players[0].rounds.push(RoundEntry::game(7, Colour::White, RoundResult::Win));
    /// assert!(e.validate().unwrap_err().message.contains("no player has starting rank 7"));
    /// ```
    pub fn validate(&self) -> Result<(), EventError> {
        self.validate_header()?;
        for (index, p) in self.players.iter().enumerate() {
            self.validate_player(index, p)?;
        }
        for (index, p) in self.players.iter().enumerate() {
            self.validate_rounds(index, p)?;
        }
        self.validate_pairing_byes()?;
        self.validate_lists()
    }

    /// At most one pairing-allocated bye per round (C.04.1 rule 3; TRF-16
    /// `U`: "at most one per round"): the second is refused, at its result.
    fn validate_pairing_byes(&self) -> Result<(), EventError> {
        let mut first: Vec<Option<u16>> = Vec::new();
        for (index, p) in self.players.iter().enumerate() {
            for (r, e) in p.rounds.iter().enumerate() {
                if e.result != RoundResult::PairingBye {
                    continue;
                }
                if first.len() <= r {
                    first.resize(r + 1, None);
                }
                match first[r] {
                    None => first[r] = Some(p.id),
                    Some(other) => {
                        return Err(EventError {
                            place: Place::Player {
                                index,
                                column: 99 + 10 * r,
                            },
                            message: format!(
                                "player {}, round {}: a second pairing-allocated bye (U) in the round; player {other} has it (C.04.1: at most one per round)",
                                p.id,
                                r + 1
                            ),
                        })
                    }
                }
            }
        }
        Ok(())
    }

    fn validate_header(&self) -> Result<(), EventError> {
        let err = |code, message: String| EventError {
            place: Place::Record(code),
            message,
        };
        let mut texts: Vec<(&'static str, &str)> = vec![
            ("012", &self.name),
            ("022", &self.city),
            ("032", &self.federation),
            ("042", &self.start_date),
            ("052", &self.end_date),
            ("092", &self.kind),
            ("102", &self.chief_arbiter),
            ("122", &self.time_control),
        ];
        texts.extend(self.deputies.iter().map(|d| ("112", d.as_str())));
        texts.extend(self.round_dates.iter().map(|d| ("132", d.as_str())));
        texts.extend(self.tie_breaks.iter().map(|d| ("202", d.as_str())));
        for (code, t) in texts {
            if control(t) {
                return Err(err(
                    code,
                    format!("record {code}: a control character (a line break?) in {t:?}"),
                ));
            }
        }
        for (code, d) in [("042", &self.start_date), ("052", &self.end_date)] {
            TrfDate::parse(d).map_err(|m| err(code, format!("record {code}: {m}")))?;
        }
        if let Some(d) = self.round_dates.iter().find(|d| d.chars().count() > 8) {
            return Err(err(
                "132",
                format!("record 132: a round date has at most 8 characters, not {d:?}"),
            ));
        }
        Ok(())
    }

    fn validate_player(&self, index: usize, p: &Player) -> Result<(), EventError> {
        let err = |column, message: String| EventError {
            place: Place::Player { index, column },
            message: format!("player {}: {message}", p.id),
        };
        if p.id == 0 || u64::from(p.id) > MAX_RANK {
            return Err(err(5, "the starting rank must be 1 to 9999".into()));
        }
        if self.players[..index].iter().any(|q| q.id == p.id) {
            return Err(err(5, format!("starting rank {} appears twice", p.id)));
        }
        if p.name.chars().count() > 33 || control(&p.name) {
            return Err(err(
                15,
                format!(
                    "the name has at most 33 characters and no control character (columns 15-47): {:?}",
                    p.name
                ),
            ));
        }
        if u64::from(p.rating) > MAX_RATING {
            return Err(err(
                49,
                format!("the rating {} is wider than columns 49-52", p.rating),
            ));
        }
        if p.federation.chars().count() > 3 || control(&p.federation) {
            return Err(err(
                54,
                format!(
                    "the federation has 3 letters (columns 54-56): {:?}",
                    p.federation
                ),
            ));
        }
        if let Some(f) = p.fide_id.filter(|&f| f > MAX_FIDE_ID) {
            return Err(err(
                58,
                format!("the FIDE id {f} is wider than columns 58-68 (11 digits)"),
            ));
        }
        if p.birth.chars().count() > 10 || control(&p.birth) {
            return Err(err(
                70,
                format!(
                    "the birth date has at most 10 characters (columns 70-79): {:?}",
                    p.birth
                ),
            ));
        }
        TrfDate::parse(&p.birth).map_err(|m| err(70, format!("birth date: {m}")))?;
        if let Some(r) = p.rank.filter(|&r| u64::from(r) > MAX_RANK) {
            return Err(err(86, format!("the rank {r} is wider than columns 86-89")));
        }
        let score = p.score(&self.scoring);
        if !POINTS_RANGE.contains(&score.tenths()) {
            return Err(err(
                81,
                format!("the points {score} are wider than columns 81-84"),
            ));
        }
        if self.total_rounds > 0 && p.rounds.len() > usize::from(self.total_rounds) {
            return Err(err(
                92 + 10 * usize::from(self.total_rounds),
                format!(
                    "the line has {} rounds; the event has {} (record 142 / XXR)",
                    p.rounds.len(),
                    self.total_rounds
                ),
            ));
        }
        Ok(())
    }

    /// Every opponent a player whose line names the same game back
    /// (opponent, reversed result, the other colour).
    fn validate_rounds(&self, index: usize, p: &Player) -> Result<(), EventError> {
        for (r, e) in p.rounds.iter().enumerate() {
            let col = 92 + 10 * r;
            let err = |column, message: String| EventError {
                place: Place::Player { index, column },
                message: format!("player {}, round {}: {message}", p.id, r + 1),
            };
            if e.opponent.is_none() && e.result.needs_opponent() {
                return Err(err(
                    col,
                    format!("result {} needs an opponent", e.result.code()),
                ));
            }
            if e.opponent.is_some() && e.result.is_bye() {
                return Err(err(
                    col,
                    format!("a bye ({}) has no opponent", e.result.code()),
                ));
            }
            if e.opponent.is_none() && e.colour.is_some() {
                return Err(err(col + 5, "a colour without an opponent".into()));
            }
            let Some(o) = e.opponent else { continue };
            if o == p.id {
                return Err(err(col, "a player cannot meet themself".into()));
            }
            let Some(q) = self.player(o) else {
                return Err(err(col, format!("no player has starting rank {o}")));
            };
            let Some(back) = q.rounds.get(r) else {
                return Err(err(
                    col,
                    format!("opponent {o} has no entry for this round"),
                ));
            };
            if back.opponent != Some(p.id) {
                return Err(err(
                    col,
                    format!(
                        "opponent {o} lists {} as opponent",
                        back.opponent.map_or("none".to_string(), |x| x.to_string())
                    ),
                ));
            }
            let ok_result = back.result == e.result.reversed()
                || (e.result == RoundResult::ForfeitLoss
                    && back.result == RoundResult::ForfeitLoss)
                || (!e.result.is_played() && !back.result.is_played());
            if !ok_result {
                return Err(err(
                    col + 7,
                    format!(
                        "result {} does not match opponent {o}'s {}",
                        e.result.code(),
                        back.result.code()
                    ),
                ));
            }
            if let (Some(a), Some(b)) = (e.colour, back.colour) {
                if a == b {
                    return Err(err(col + 5, "both players have the same colour".into()));
                }
            }
        }
        Ok(())
    }

    /// Every starting rank named by `XXP`, 260, 240 and `XXA` is a player's.
    fn validate_lists(&self) -> Result<(), EventError> {
        let unknown = |ids: &[u16]| ids.iter().copied().find(|&id| self.player(id).is_none());
        for (k, (a, b)) in self.forbidden.iter().enumerate() {
            if let Some(id) = unknown(&[*a, *b]) {
                return Err(EventError {
                    place: Place::Forbidden(k),
                    message: format!("XXP: no player has starting rank {id}"),
                });
            }
        }
        for (k, p) in self.prohibited.iter().enumerate() {
            if let Some(id) = unknown(&p.players) {
                return Err(EventError {
                    place: Place::Prohibited(k),
                    message: format!("record 260: no player has starting rank {id}"),
                });
            }
            if p.first_round == 0 || p.first_round > p.last_round {
                return Err(EventError {
                    place: Place::Prohibited(k),
                    message: format!(
                        "record 260: rounds {} to {} are no range of rounds",
                        p.first_round, p.last_round
                    ),
                });
            }
        }
        for (k, b) in self.byes.iter().enumerate() {
            let err = |message: String| EventError {
                place: Place::Bye(k),
                message: format!("record 240: {message}"),
            };
            if let Some(id) = unknown(&b.players) {
                return Err(err(format!("no player has starting rank {id}")));
            }
            if !matches!(
                b.result,
                RoundResult::HalfBye | RoundResult::FullBye | RoundResult::ZeroBye
            ) {
                return Err(err(format!("a bye is F, H or Z, not {}", b.result.code())));
            }
            if b.round == 0 || (self.total_rounds > 0 && b.round > self.total_rounds) {
                return Err(err(format!(
                    "round {} is not a round of the event ({} rounds)",
                    b.round, self.total_rounds
                )));
            }
            for &id in &b.players {
                let entry = self.player(id).and_then(|p| p.round(usize::from(b.round)));
                if let Some(o) = entry.and_then(|e| e.opponent) {
                    return Err(err(format!(
                        "player {id} has a bye in round {} but meets {o} in it",
                        b.round
                    )));
                }
            }
        }
        if let Some(a) = &self.acceleration {
            for (k, (id, _)) in a.explicit.iter().enumerate() {
                if self.player(*id).is_none() {
                    return Err(EventError {
                        place: Place::Accelerated(k),
                        message: format!("XXA: no player has starting rank {id}"),
                    });
                }
            }
        }
        Ok(())
    }
}
