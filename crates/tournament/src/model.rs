//! The event: players, rounds, results, byes and the point system — what a FIDE
//! Tournament Report File holds (TRF-16 / TRF-2026 player record `001`).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A number of points in tenths, so that ½ and 3/1/0 scoring stay exact
/// (Laws of Chess Art. 10/11: 1, ½, 0 by default).
///
/// ```
/// use arbiter_tournament::Points;
/// assert_eq!(Points::from_tenths(35).to_string(), "3.5");
/// assert_eq!("2.5".parse::<Points>().unwrap(), Points::from_tenths(25));
/// ```
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Points(pub i32);

impl Points {
    /// Zero points.
    pub const ZERO: Points = Points(0);
    /// Points given in tenths (`15` is 1.5).
    pub const fn from_tenths(t: i32) -> Points {
        Points(t)
    }
    /// The value in tenths.
    pub const fn tenths(self) -> i32 {
        self.0
    }
    /// The value as a float (for ratings and display only).
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, o: Points) -> Points {
        Points(self.0 + o.0)
    }
}
impl std::ops::AddAssign for Points {
    fn add_assign(&mut self, o: Points) {
        self.0 += o.0;
    }
}
impl std::ops::Sub for Points {
    type Output = Points;
    fn sub(self, o: Points) -> Points {
        Points(self.0 - o.0)
    }
}
impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(it: I) -> Points {
        Points(it.map(|p| p.0).sum())
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.abs();
        let s = format!("{sign}{}.{}", a / 10, a % 10);
        f.pad(&s)
    }
}

/// A points field that could not be read (`"1.25"`, `"x"`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a number of points with at most one decimal: {0:?}")]
pub struct PointsError(pub String);

impl std::str::FromStr for Points {
    type Err = PointsError;
    fn from_str(s: &str) -> Result<Points, PointsError> {
        let t = s.trim();
        let err = || PointsError(s.to_string());
        let (neg, body) = match t.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, t),
        };
        let (int, frac) = match body.split_once('.') {
            Some((i, f)) => (i, f),
            None => (body, ""),
        };
        if int.is_empty() && frac.is_empty() {
            return Err(err());
        }
        if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let frac = frac.trim_end_matches('0');
        if frac.len() > 1 || int.len() > 6 {
            return Err(err());
        }
        let i: i32 = if int.is_empty() {
            0
        } else {
            int.parse().map_err(|_| err())?
        };
        let f: i32 = if frac.is_empty() {
            0
        } else {
            frac.parse().map_err(|_| err())?
        };
        let v = i * 10 + f;
        Ok(Points(if neg { -v } else { v }))
    }
}

/// A colour in a game (Laws Art. 2.1).
///
/// Not `arbiter_chess::Color`, on purpose: this crate knows results, not
/// moves, and depends on no crate of the board (a pairing program or a rating
/// officer's tool takes it without the move generator); the event's JSON model
/// serialises this enum, which the chess crate's `Color` does only behind a
/// feature.
///
/// ```
/// use arbiter_tournament::Colour;
/// assert_eq!(Colour::White.opposite(), Colour::Black);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// The outcome of one round for one player, as the TRF result column codes it
/// (TRF-16/TRF-2026 player record, columns 99 + 10(r − 1)).
///
/// ```
/// use arbiter_tournament::RoundResult;
/// assert_eq!(RoundResult::from_code('=').unwrap(), RoundResult::Draw);
/// assert!(!RoundResult::ForfeitWin.is_played());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RoundResult {
    /// `1`: a game won.
    Win,
    /// `=`: a game drawn.
    Draw,
    /// `0`: a game lost.
    Loss,
    /// `W`: won in a game of less than one move (not rated).
    WinShort,
    /// `D`: drawn in a game of less than one move (not rated).
    DrawShort,
    /// `L`: lost in a game of less than one move (not rated).
    LossShort,
    /// `+`: a forfeit win (the opponent did not appear).
    ForfeitWin,
    /// `-`: a forfeit loss, or an absence without a bye.
    ForfeitLoss,
    /// `H`: a half-point bye (requested in advance).
    HalfBye,
    /// `F`: a full-point bye (arbiter's decision; deprecated by C.04.1).
    FullBye,
    /// `U`: the pairing-allocated bye (C.04.1 rule 3).
    PairingBye,
    /// `Z` or blank: a zero-point bye or known absence.
    ZeroBye,
    /// Blank with an opponent: paired, result not yet known (an event in progress).
    Pending,
}

impl RoundResult {
    /// Reads a TRF result code (case-insensitive; blank is a zero-point bye).
    pub fn from_code(c: char) -> Option<RoundResult> {
        Some(match c.to_ascii_uppercase() {
            '1' => RoundResult::Win,
            '=' => RoundResult::Draw,
            '0' => RoundResult::Loss,
            'W' => RoundResult::WinShort,
            'D' => RoundResult::DrawShort,
            'L' => RoundResult::LossShort,
            '+' => RoundResult::ForfeitWin,
            '-' => RoundResult::ForfeitLoss,
            'H' => RoundResult::HalfBye,
            'F' => RoundResult::FullBye,
            'U' => RoundResult::PairingBye,
            'Z' | ' ' => RoundResult::ZeroBye,
            _ => return None,
        })
    }

    /// The TRF code written for this result.
    pub fn code(self) -> char {
        match self {
            RoundResult::Win => '1',
            RoundResult::Draw => '=',
            RoundResult::Loss => '0',
            RoundResult::WinShort => 'W',
            RoundResult::DrawShort => 'D',
            RoundResult::LossShort => 'L',
            RoundResult::ForfeitWin => '+',
            RoundResult::ForfeitLoss => '-',
            RoundResult::HalfBye => 'H',
            RoundResult::FullBye => 'F',
            RoundResult::PairingBye => 'U',
            RoundResult::ZeroBye => 'Z',
            RoundResult::Pending => ' ',
        }
    }

    /// Whether a game was played over the board (C.07 Art. 15.1; C.04.2 3.4).
    pub fn is_played(self) -> bool {
        matches!(
            self,
            RoundResult::Win
                | RoundResult::Draw
                | RoundResult::Loss
                | RoundResult::WinShort
                | RoundResult::DrawShort
                | RoundResult::LossShort
        )
    }

    /// Whether the game counts for rating (B.02 5.1: played, at least one move).
    pub fn is_rated(self) -> bool {
        matches!(
            self,
            RoundResult::Win | RoundResult::Draw | RoundResult::Loss
        )
    }

    /// Whether the result needs an opponent (games and forfeit wins).
    pub fn needs_opponent(self) -> bool {
        self.is_played() || self == RoundResult::ForfeitWin
    }

    /// Whether the result is a bye (no opponent allowed).
    pub fn is_bye(self) -> bool {
        matches!(
            self,
            RoundResult::HalfBye
                | RoundResult::FullBye
                | RoundResult::PairingBye
                | RoundResult::ZeroBye
        )
    }

    /// The same result in a game of less than one move, not rated (B.02
    /// 5.1: `1` → `W`, `=` → `D`, `0` → `L`); any other result unchanged.
    ///
    /// ```
    /// use arbiter_tournament::RoundResult;
    /// assert_eq!(RoundResult::Win.short(), RoundResult::WinShort);
    /// assert!(!RoundResult::Draw.short().is_rated());
    /// assert_eq!(RoundResult::ForfeitWin.short(), RoundResult::ForfeitWin);
    /// ```
    pub fn short(self) -> RoundResult {
        match self {
            RoundResult::Win => RoundResult::WinShort,
            RoundResult::Draw => RoundResult::DrawShort,
            RoundResult::Loss => RoundResult::LossShort,
            r => r,
        }
    }

    /// The result of the opponent in the same game (`1` ↔ `0`, `+` ↔ `-`).
    pub fn reversed(self) -> RoundResult {
        match self {
            RoundResult::Win => RoundResult::Loss,
            RoundResult::Loss => RoundResult::Win,
            RoundResult::WinShort => RoundResult::LossShort,
            RoundResult::LossShort => RoundResult::WinShort,
            RoundResult::ForfeitWin => RoundResult::ForfeitLoss,
            RoundResult::ForfeitLoss => RoundResult::ForfeitWin,
            r => r,
        }
    }
}

/// The points each result is worth (TRF-2026 record 162; bbp `BBW`…`BBU`).
/// Default: 1 / ½ / 0, a forfeit win and the pairing-allocated bye worth a win
/// (C.04.1 rule 3), a half-point bye a draw.
///
/// ```
/// use arbiter_tournament::{PointSystem, Points, RoundResult};
/// let p = PointSystem::default();
/// assert_eq!(p.points(RoundResult::HalfBye), Points::from_tenths(5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointSystem {
    /// A win (also `W`, a forfeit win and a full-point bye).
    pub win: Points,
    /// A draw (also `D` and a half-point bye).
    pub draw: Points,
    /// A played loss (also `L`).
    pub loss: Points,
    /// A zero-point bye or absence.
    pub zero_bye: Points,
    /// A forfeit loss.
    pub forfeit_loss: Points,
    /// The pairing-allocated bye.
    pub pairing_bye: Points,
}

impl Default for PointSystem {
    fn default() -> Self {
        PointSystem {
            win: Points(10),
            draw: Points(5),
            loss: Points(0),
            zero_bye: Points(0),
            forfeit_loss: Points(0),
            pairing_bye: Points(10),
        }
    }
}

impl PointSystem {
    /// The points a result is worth.
    pub fn points(&self, r: RoundResult) -> Points {
        match r {
            RoundResult::Win | RoundResult::WinShort | RoundResult::ForfeitWin => self.win,
            RoundResult::FullBye => self.win,
            RoundResult::Draw | RoundResult::DrawShort | RoundResult::HalfBye => self.draw,
            RoundResult::Loss | RoundResult::LossShort => self.loss,
            RoundResult::ForfeitLoss => self.forfeit_loss,
            RoundResult::ZeroBye | RoundResult::Pending => self.zero_bye,
            RoundResult::PairingBye => self.pairing_bye,
        }
    }

    /// Whether this is the standard 1 / ½ / 0 scoring (Baku acceleration needs it).
    pub fn is_standard(&self) -> bool {
        *self == PointSystem::default()
    }
}

/// A FIDE title (TRF columns 11–13).
///
/// ```
/// use arbiter_tournament::Title;
/// assert_eq!("WGM".parse::<Title>().unwrap(), Title::WGM);
/// assert!(Title::GM < Title::IM);
/// ```
#[allow(clippy::upper_case_acronyms)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Title {
    /// Grandmaster.
    GM,
    /// International Master.
    IM,
    /// Woman Grandmaster.
    WGM,
    /// FIDE Master.
    FM,
    /// Woman International Master.
    WIM,
    /// Candidate Master.
    CM,
    /// Woman FIDE Master.
    WFM,
    /// Woman Candidate Master.
    WCM,
}

impl Title {
    /// The title as written in the TRF.
    pub fn as_str(self) -> &'static str {
        match self {
            Title::GM => "GM",
            Title::IM => "IM",
            Title::WGM => "WGM",
            Title::FM => "FM",
            Title::WIM => "WIM",
            Title::CM => "CM",
            Title::WFM => "WFM",
            Title::WCM => "WCM",
        }
    }
}

/// Reads a title as TRF-16 writes it (`GM IM WGM FM WIM CM WFM WCM`), in
/// either case, and the old one- and two-letter codes that Swiss-Manager and
/// Vega wrote in lower case before TRF-16: `g` GM, `m` IM, `f` FM, `c` CM,
/// `wg` WGM, `wm` WIM, `wf` WFM, `wc` WCM (also `i` and `wi`). The TRF is
/// written back with the canonical code.
///
/// ```
/// use arbiter_tournament::Title;
/// assert_eq!("m".parse::<Title>(), Ok(Title::IM));
/// assert_eq!("wm".parse::<Title>(), Ok(Title::WIM));
/// assert_eq!(Title::WIM.as_str(), "WIM");
/// ```
impl std::str::FromStr for Title {
    type Err = ();
    fn from_str(s: &str) -> Result<Title, ()> {
        Ok(match s.trim().to_ascii_uppercase().as_str() {
            "GM" | "G" => Title::GM,
            "IM" | "M" | "I" => Title::IM,
            "WGM" | "WG" => Title::WGM,
            "FM" | "F" => Title::FM,
            "WIM" | "WM" | "WI" => Title::WIM,
            "CM" | "C" => Title::CM,
            "WFM" | "WF" => Title::WFM,
            "WCM" | "WC" => Title::WCM,
            _ => return Err(()),
        })
    }
}

/// Sex as the TRF records it (column 10: `m` / `w`).
///
/// ```
/// use arbiter_tournament::Sex;
/// assert_eq!(Sex::Female.code(), 'w');
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sex {
    /// `m`.
    Male,
    /// `w` (or `f`).
    Female,
}

impl Sex {
    /// The TRF code.
    pub fn code(self) -> char {
        match self {
            Sex::Male => 'm',
            Sex::Female => 'w',
        }
    }
}

/// One round of one player: the scheduled opponent (by starting rank), the
/// colour and the result (TRF columns 92–99 + 10(r − 1)).
///
/// ```
/// use arbiter_tournament::{Colour, RoundEntry, RoundResult};
/// let e = RoundEntry::game(7, Colour::White, RoundResult::Win);
/// assert_eq!(e.opponent, Some(7));
/// assert_eq!(RoundEntry::bye(RoundResult::PairingBye).opponent, None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoundEntry {
    /// The opponent's starting rank, `None` for a bye or absence.
    pub opponent: Option<u16>,
    /// The colour, `None` when there was no opponent (or a forfeit written `-`).
    pub colour: Option<Colour>,
    /// The result.
    pub result: RoundResult,
}

impl RoundEntry {
    /// A game (or forfeit) against `opponent` with `colour`.
    pub fn game(opponent: u16, colour: Colour, result: RoundResult) -> RoundEntry {
        RoundEntry {
            opponent: Some(opponent),
            colour: Some(colour),
            result,
        }
    }
    /// A round without opponent.
    pub fn bye(result: RoundResult) -> RoundEntry {
        RoundEntry {
            opponent: None,
            colour: None,
            result,
        }
    }
    /// Whether a game was played over the board against an opponent.
    pub fn is_played(&self) -> bool {
        self.opponent.is_some() && self.result.is_played()
    }
}

/// A participant (TRF-16/TRF-2026 record `001`, columns 5–89).
///
/// ```
/// use arbiter_tournament::Player;
/// let p = Player::new(1, "Doe, John", 2412);
/// assert_eq!(p.rating, 2412);
/// assert!(p.rounds.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Starting rank (tournament pairing number, TPN), columns 5–8.
    pub id: u16,
    /// Sex, column 10.
    pub sex: Option<Sex>,
    /// Title, columns 11–13.
    pub title: Option<Title>,
    /// Name "Last, First", columns 15–47.
    pub name: String,
    /// FIDE rating, columns 49–52 (0 = unrated).
    pub rating: u16,
    /// Federation, columns 54–56.
    pub federation: String,
    /// FIDE id, columns 58–68.
    pub fide_id: Option<u64>,
    /// Birth date as written (`YYYY/MM/DD` or a year), columns 70–79.
    pub birth: String,
    /// The rank written in columns 86–89 (TRF-2026 allows ties).
    pub rank: Option<u16>,
    /// One entry per round, from round 1; shorter than the event when the
    /// later rounds are not yet paired.
    pub rounds: Vec<RoundEntry>,
}

impl Player {
    /// Rounds this player's line holds no entry for, up to round `upto`,
    /// entered as rounds he was not paired in: zero-point byes (a blank
    /// TRF-16 entry, or `0000 - Z`).
    ///
    /// ```
    /// use arbiter_tournament::{Player, RoundResult};
    /// let mut p = Player::new(1, "A", 2000);
    /// p.fill_absent(2);
    /// assert_eq!(p.rounds.len(), 2);
    /// assert_eq!(p.rounds[1].result, RoundResult::ZeroBye);
    /// ```
    pub fn fill_absent(&mut self, upto: usize) {
        while self.rounds.len() < upto {
            self.rounds.push(RoundEntry::bye(RoundResult::ZeroBye));
        }
    }

    /// A player with a starting rank, a name and a rating, nothing else known.
    pub fn new(id: u16, name: &str, rating: u16) -> Player {
        Player {
            id,
            sex: None,
            title: None,
            name: name.to_string(),
            rating,
            federation: String::new(),
            fide_id: None,
            birth: String::new(),
            rank: None,
            rounds: Vec::new(),
        }
    }

    /// Points scored after the first `rounds` rounds.
    pub fn score_after(&self, scoring: &PointSystem, rounds: usize) -> Points {
        self.rounds
            .iter()
            .take(rounds)
            .map(|e| scoring.points(e.result))
            .sum()
    }

    /// Points scored in all rounds recorded.
    pub fn score(&self, scoring: &PointSystem) -> Points {
        self.score_after(scoring, self.rounds.len())
    }

    /// The entry for round `round` (1-based).
    pub fn round(&self, round: usize) -> Option<&RoundEntry> {
        round.checked_sub(1).and_then(|i| self.rounds.get(i))
    }
}

/// The pairing system of an event (TRF-2026 record 192).
///
/// ```
/// use arbiter_tournament::PairingSystem;
/// assert_eq!(PairingSystem::default(), PairingSystem::Dutch2025);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum PairingSystem {
    /// FIDE Dutch system, C.04.3 in force from 1 February 2026 ("2025 rules").
    #[default]
    Dutch2025,
    /// FIDE Dutch system as approved in 2017 (till 31 January 2026).
    Dutch2017,
    /// Round-robin by the Berger tables (C.05 Annex 1).
    RoundRobin,
    /// Double round-robin, colours reversed in the second cycle.
    DoubleRoundRobin,
}

/// Baku acceleration (C.04.5.1; C.04.7 §1 from 2026): virtual points for the
/// pairing of the first rounds, for the players of group A.
///
/// ```
/// use arbiter_tournament::Acceleration;
/// let a = Acceleration::baku(161, 9);
/// assert_eq!(a.group_a_last, 82);
/// assert_eq!(a.virtual_points(1, 1, Default::default()).tenths(), 10);
/// assert_eq!(a.virtual_points(1, 4, Default::default()).tenths(), 5);
/// assert_eq!(a.virtual_points(1, 6, Default::default()).tenths(), 0);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Acceleration {
    /// The last starting rank in group A (2·⌈N/4⌉).
    pub group_a_last: u16,
    /// The number of accelerated rounds (⌈R/2⌉).
    pub rounds: u16,
    /// Explicit virtual points read from `XXA` lines, by player and round;
    /// they replace the Baku rule for the players listed.
    pub explicit: Vec<(u16, Vec<Points>)>,
}

impl Acceleration {
    /// The Baku rule for `players` players and `rounds` rounds.
    pub fn baku(players: u16, rounds: u16) -> Acceleration {
        Acceleration {
            group_a_last: 2 * players.div_ceil(4),
            rounds: rounds.div_ceil(2),
            explicit: Vec::new(),
        }
    }

    /// The Baku rule as records 250: a win's points for group A in the
    /// first half of the accelerated rounds, half a win's in the rest (none
    /// when group A is not fixed yet, or for explicit points).
    pub(crate) fn baku_records(&self, scoring: PointSystem) -> Vec<Accelerated> {
        if !self.explicit.is_empty() || self.group_a_last == 0 || self.rounds == 0 {
            return Vec::new();
        }
        let full = self.rounds.div_ceil(2);
        let run = |points, first_round, last_round| Accelerated {
            points,
            first_round,
            last_round,
            first_id: 1,
            last_id: self.group_a_last,
        };
        let mut v = vec![run(scoring.win, 1, full)];
        if self.rounds > full {
            v.push(run(Points(scoring.win.0 / 2), full + 1, self.rounds));
        }
        v
    }

    /// The virtual points of player `id` for the pairing of round `round`.
    pub fn virtual_points(&self, id: u16, round: usize, scoring: PointSystem) -> Points {
        if let Some((_, pts)) = self.explicit.iter().find(|(p, _)| *p == id) {
            return round
                .checked_sub(1)
                .and_then(|i| pts.get(i).copied())
                .unwrap_or(Points::ZERO);
        }
        if !self.explicit.is_empty() || id > self.group_a_last || round > self.rounds as usize {
            return Points::ZERO;
        }
        let full = (self.rounds as usize).div_ceil(2);
        if round <= full {
            scoring.win
        } else {
            Points(scoring.win.0 / 2)
        }
    }
}

/// One record 250 (TRF-2026): `points` virtual points for the pairing of
/// rounds `first_round..=last_round`, for starting ranks `first_id..=last_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Accelerated {
    pub(crate) points: Points,
    pub(crate) first_round: u16,
    pub(crate) last_round: u16,
    pub(crate) first_id: u16,
    pub(crate) last_id: u16,
}

/// Players who may not be paired with each other from round `first_round`
/// to round `last_round` (TRF-2026 record 260; `XXP` is the same for every
/// round).
///
/// ```
/// use arbiter_tournament::Prohibition;
/// let p = Prohibition { first_round: 3, last_round: 4, players: vec![1, 3] };
/// assert!(p.applies(3) && !p.applies(5));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prohibition {
    /// The first round it applies to.
    pub first_round: u16,
    /// The last round it applies to.
    pub last_round: u16,
    /// The starting ranks of the players, no two of whom may meet.
    pub players: Vec<u16>,
}

impl Prohibition {
    /// Whether the prohibition applies to round `round`.
    pub fn applies(&self, round: usize) -> bool {
        (usize::from(self.first_round)..=usize::from(self.last_round)).contains(&round)
    }
}

/// Byes announced before round `round` is paired (TRF-2026 record 240: type
/// `F`, `H` or `Z`, the round, the players): the players are not paired in
/// that round and get the bye's points.
///
/// ```
/// use arbiter_tournament::{AnnouncedBye, RoundResult};
/// let b = AnnouncedBye { round: 3, result: RoundResult::HalfBye, players: vec![1, 3] };
/// assert_eq!(b.result.code(), 'H');
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnnouncedBye {
    /// The round.
    pub round: u16,
    /// `HalfBye`, `FullBye` or `ZeroBye`.
    pub result: RoundResult,
    /// The starting ranks of the players.
    pub players: Vec<u16>,
}

/// A tournament: header facts, players and their rounds.
///
/// ```
/// use arbiter_tournament::{Event, Player};
/// let mut e = Event::new("Club championship", 5);
/// e.players.push(Player::new(1, "Doe, John", 2000));
/// assert_eq!(e.rounds_played(), 0);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Tournament name (record 012).
    pub name: String,
    /// City (022).
    pub city: String,
    /// Federation (032).
    pub federation: String,
    /// Start date (042).
    pub start_date: String,
    /// End date (052).
    pub end_date: String,
    /// Type of tournament, free text (092).
    pub kind: String,
    /// Chief arbiter (102).
    pub chief_arbiter: String,
    /// Deputy arbiters (112, one line each).
    pub deputies: Vec<String>,
    /// Time control text (122).
    pub time_control: String,
    /// Round dates (132), as written.
    pub round_dates: Vec<String>,
    /// The number of rounds (142 / `XXR`).
    pub total_rounds: u16,
    /// The colour the highest-ranked player of the first board gets in round 1
    /// (152 / `XXC`), drawn by lot before round 1.
    pub initial_colour: Option<Colour>,
    /// The point system (162 / `BB*`).
    pub scoring: PointSystem,
    /// The pairing system (192).
    pub system: PairingSystem,
    /// Baku acceleration, if used (`XXA`, 250, or `_BAKU` in 192).
    pub acceleration: Option<Acceleration>,
    /// Pairs that may not meet in any round (`XXP`).
    pub forbidden: Vec<(u16, u16)>,
    /// Players who may not meet each other in some rounds (TRF-2026 record 260).
    #[serde(default)]
    pub prohibited: Vec<Prohibition>,
    /// Byes announced ahead of the pairing (TRF-2026 record 240).
    #[serde(default)]
    pub byes: Vec<AnnouncedBye>,
    /// The tie-break list (202), as codes.
    pub tie_breaks: Vec<String>,
    /// Players, in starting-rank order.
    pub players: Vec<Player>,
    /// Records this library does not interpret, kept verbatim and written back.
    pub other_records: Vec<String>,
}

impl Event {
    /// An empty event with a name and a number of rounds.
    pub fn new(name: &str, total_rounds: u16) -> Event {
        Event {
            name: name.to_string(),
            city: String::new(),
            federation: String::new(),
            start_date: String::new(),
            end_date: String::new(),
            kind: String::new(),
            chief_arbiter: String::new(),
            deputies: Vec::new(),
            time_control: String::new(),
            round_dates: Vec::new(),
            total_rounds,
            initial_colour: None,
            scoring: PointSystem::default(),
            system: PairingSystem::default(),
            acceleration: None,
            forbidden: Vec::new(),
            prohibited: Vec::new(),
            byes: Vec::new(),
            tie_breaks: Vec::new(),
            players: Vec::new(),
            other_records: Vec::new(),
        }
    }

    /// The length of the longest player line: the rounds with at least one
    /// entry, byes and withdrawals entered ahead of the pairing included.
    /// Not the rounds paired: see [`Event::rounds_paired`] and
    /// [`Event::round_to_pair`].
    pub fn rounds_played(&self) -> usize {
        self.players
            .iter()
            .map(|p| p.rounds.len())
            .max()
            .unwrap_or(0)
    }

    /// The last round paired: the highest round in which some player has an
    /// opponent or the pairing-allocated bye (0 before round 1 is paired).
    /// Requested byes and withdrawals entered ahead (`0000 - H`, `0000 - Z`)
    /// do not make a round paired.
    ///
    /// ```
    /// use arbiter_tournament::{Event, Player, RoundEntry, RoundResult};
    /// let mut e = Event::new("Club", 5);
    /// let mut p = Player::new(1, "A", 2000);
    /// // A withdrawal before round 1: zero-point byes for every round.
    /// p.fill_absent(5);
    /// e.players.push(p);
    /// e.players.push(Player::new(2, "B", 1900));
    /// assert_eq!(e.rounds_paired(), 0);
    /// assert_eq!(e.round_to_pair(), 1);
    /// ```
    pub fn rounds_paired(&self) -> usize {
        self.players
            .iter()
            .filter_map(|p| {
                p.rounds
                    .iter()
                    .rposition(|e| e.opponent.is_some() || e.result == RoundResult::PairingBye)
            })
            .max()
            .map_or(0, |i| i + 1)
    }

    /// The round about to be paired: the first round after
    /// [`Event::rounds_paired`] that some player has no entry for (the
    /// players with an entry there already — a requested bye, a withdrawal —
    /// are not paired in it).
    ///
    /// ```
    /// use arbiter_tournament::{Event, Player, RoundEntry, RoundResult};
    /// let mut e = Event::new("Club", 5);
    /// for i in 1..=3 {
    ///     e.players.push(Player::new(i, "P", 2000));
    /// }
    /// // Two requested half-point byes for round 1: still round 1 to pair.
    /// e.players[0].rounds.push(RoundEntry::bye(RoundResult::HalfBye));
    /// e.players[2].rounds.push(RoundEntry::bye(RoundResult::HalfBye));
    /// assert_eq!(e.round_to_pair(), 1);
    /// ```
    pub fn round_to_pair(&self) -> usize {
        let next = self.rounds_paired() + 1;
        // The shortest line ends before the round to pair (an empty event: round 1).
        let shortest = self.players.iter().map(|p| p.rounds.len()).min();
        shortest.map_or(next, |len| next.max(len + 1))
    }

    /// The pairs that may not meet in round `round`, both ways round: `XXP`
    /// for every round, record 260 for its rounds.
    ///
    /// ```
    /// use arbiter_tournament::{Event, Prohibition};
    /// let mut e = Event::new("Club", 5);
    /// e.prohibited.push(Prohibition { first_round: 3, last_round: 4, players: vec![1, 3] });
    /// assert!(e.forbidden_in(3).contains(&(3, 1)));
    /// assert!(e.forbidden_in(5).is_empty());
    /// ```
    pub fn forbidden_in(&self, round: usize) -> std::collections::HashSet<(u16, u16)> {
        let groups = self
            .prohibited
            .iter()
            .filter(|p| p.applies(round))
            .flat_map(|p| {
                p.players
                    .iter()
                    .enumerate()
                    .flat_map(move |(k, &a)| p.players[k + 1..].iter().map(move |&b| (a, b)))
            });
        self.forbidden
            .iter()
            .copied()
            .chain(groups)
            .flat_map(|(a, b)| [(a, b), (b, a)])
            .collect()
    }

    /// Enters the byes announced for round `round` (record 240) in the round
    /// columns of the players who have no entry for it yet, so that they are
    /// not paired in it.
    ///
    /// ```
    /// use arbiter_tournament::{AnnouncedBye, Event, Player, RoundResult};
    /// let mut e = Event::new("Club", 5);
    /// e.players.push(Player::new(1, "A", 2000));
    /// e.byes.push(AnnouncedBye { round: 1, result: RoundResult::HalfBye, players: vec![1] });
    /// e.enter_announced_byes(1);
    /// assert_eq!(e.players[0].rounds[0].result, RoundResult::HalfBye);
    /// ```
    pub fn enter_announced_byes(&mut self, round: usize) {
        let due: Vec<(u16, RoundResult)> = self
            .byes
            .iter()
            .filter(|b| usize::from(b.round) == round)
            .flat_map(|b| b.players.iter().map(move |&id| (id, b.result)))
            .collect();
        for (id, result) in due {
            if let Some(p) = self.player_mut(id) {
                if p.rounds.len() < round {
                    p.fill_absent(round - 1);
                    p.rounds.push(RoundEntry::bye(result));
                }
            }
        }
    }

    /// The pairing system record 192 names when it is one this library does
    /// not implement (`FIDE_DUBOV`, `FIDE_BURSTEIN`, `FIDE_DOUBLESWISS`,
    /// `CUSTOM_…`): the record is kept in [`Event::other_records`] and
    /// written back as read; [`Event::system`] is then the default, which
    /// only an explicit request for the Dutch system should pair by.
    ///
    /// ```
    /// let e = arbiter_tournament::trf::read("012 Club\n192 FIDE_BURSTEIN\n").unwrap();
    /// assert_eq!(e.declared_system(), Some("FIDE_BURSTEIN"));
    /// let e = arbiter_tournament::trf::read("012 Club\n192 FIDE_DUTCH\n").unwrap();
    /// assert_eq!(e.declared_system(), None);
    /// ```
    pub fn declared_system(&self) -> Option<&str> {
        self.other_records
            .iter()
            .find_map(|r| r.strip_prefix("192"))
            .filter(|rest| rest.is_empty() || rest.starts_with(' '))
            .map(str::trim)
    }

    /// The initial colour the pairing uses (C.04.3 5.2.5: the colour the
    /// higher-ranked player gets in a pair with an odd pairing number when
    /// nothing else decides): record 152 / `XXC` when the file gives it; else
    /// the one round 1 shows, as TRF-2026 defines 152 — "needed if it differs
    /// from the colour of the highest-ranked participant paired in round 1":
    /// without it, that player's round-1 colour (bbpPairings infers it the
    /// same way). When he has no colour (a forfeit written `-`), the next
    /// player paired with a colour tells it: the higher-ranked player of his
    /// pair got the initial colour with an odd pairing number, the other one
    /// with an even. White when neither says (round 1 not paired).
    ///
    /// ```
    /// use arbiter_tournament::{Colour, Event, Player, RoundEntry, RoundResult};
    /// let mut e = Event::new("Club", 5);
    /// for i in 1..=2 {
    ///     e.players.push(Player::new(i, "P", 2000));
    /// }
    /// assert_eq!(e.initial_colour_in_force(), Colour::White);
    /// e.players[0].rounds.push(RoundEntry::game(2, Colour::Black, RoundResult::Win));
    /// e.players[1].rounds.push(RoundEntry::game(1, Colour::White, RoundResult::Loss));
    /// assert_eq!(e.initial_colour_in_force(), Colour::Black);
    /// e.initial_colour = Some(Colour::White);
    /// assert_eq!(e.initial_colour_in_force(), Colour::White);
    /// ```
    pub fn initial_colour_in_force(&self) -> Colour {
        if let Some(c) = self.initial_colour {
            return c;
        }
        self.initial_colour_of_round_1().unwrap_or(Colour::White)
    }

    /// The initial colour round 1 shows (see [`Event::initial_colour_in_force`]).
    fn initial_colour_of_round_1(&self) -> Option<Colour> {
        // Round 1's pairing numbers: the players paired in it (a game, a
        // forfeit or the PAB), by starting rank.
        let mut paired: Vec<&Player> = self
            .players
            .iter()
            .filter(|p| {
                p.round(1)
                    .is_some_and(|e| e.opponent.is_some() || e.result == RoundResult::PairingBye)
            })
            .collect();
        paired.sort_by_key(|p| p.id);
        let number = |id: u16| paired.iter().position(|p| p.id == id).map(|k| k + 1);
        for p in &paired {
            let Some(e) = p.round(1) else { continue };
            let (Some(o), Some(colour)) = (e.opponent, e.colour) else {
                continue;
            };
            // The higher-ranked of the pair, his pairing number and colour.
            let (hi, hi_colour) = if p.id < o {
                (p.id, colour)
            } else {
                (o, colour.opposite())
            };
            let n = number(hi)?;
            return Some(if n % 2 == 1 {
                hi_colour
            } else {
                hi_colour.opposite()
            });
        }
        None
    }

    /// The player with starting rank `id`.
    pub fn player(&self, id: u16) -> Option<&Player> {
        self.players
            .get(usize::from(id).wrapping_sub(1))
            .filter(|p| p.id == id)
            .or_else(|| self.players.iter().find(|p| p.id == id))
    }

    /// The player with starting rank `id`, mutable.
    pub fn player_mut(&mut self, id: u16) -> Option<&mut Player> {
        self.players.iter_mut().find(|p| p.id == id)
    }

    /// Every player's points after the first `rounds` rounds, by index.
    pub fn scores_after(&self, rounds: usize) -> Vec<Points> {
        self.players
            .iter()
            .map(|p| p.score_after(&self.scoring, rounds))
            .collect()
    }
}
