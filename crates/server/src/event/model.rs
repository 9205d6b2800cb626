//! An event's settings (validated from the organiser's request) and its
//! state as `arbiter-tournament` sees it: the players and their rounds
//! ([`to_tournament`]), the next round's pairing (C.04.3 Dutch or the C.05
//! Berger tables, [`pair_next`]), standings with the event's tie-breaks
//! (C.07) and the rating changes at the end (B.02).

use crate::error::ApiError;
use crate::store::tournament::{BoardRow, LoadedTournament};
use arbiter_laws::Edition;
use arbiter_tournament::tiebreak::{self, TieBreak};
use arbiter_tournament::{
    berger, dutch, Colour, Event, PairingSystem, Player, RoundEntry, RoundResult,
};
use serde::{Deserialize, Serialize};

/// Most players of one event.
pub const MAX_PLAYERS: u32 = 2_000;
/// Most players of a round-robin (every pair meets: n − 1 rounds).
pub const MAX_ROUND_ROBIN_PLAYERS: u32 = 24;
/// Most rounds of a Swiss.
pub const MAX_ROUNDS: u16 = 30;
/// Most unfinished events one account organises at once.
pub const MAX_OPEN_PER_ORGANISER: u32 = 10;
/// Longest event name, characters.
pub const MAX_NAME: usize = 100;
/// The tie-breaks of a Swiss when none are given (those `arbiter
/// tournament standings` uses).
pub const SWISS_TIE_BREAKS: &str = "BH/C1,BH,SB,DE,WIN";
/// The tie-breaks of a round-robin when none are given (C.07 Art. 5).
pub const ROUND_ROBIN_TIE_BREAKS: &str = "DE,SB,WIN,KS";

/// The pairing system of an event.
///
/// ```
/// use arbiter_server::event::model::System;
/// assert_eq!(serde_json::to_string(&System::RoundRobin).unwrap(), "\"round_robin\"");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// The FIDE Dutch system (C.04.3).
    Swiss,
    /// All-play-all by the Berger tables (C.05 Annex 1).
    RoundRobin,
}

impl System {
    /// The FIDE Handbook section its pairings follow, cited in the answers
    /// that pair a round.
    ///
    /// ```
    /// use arbiter_server::event::model::System;
    /// assert_eq!(System::RoundRobin.pairing_rule(), "C.05");
    /// ```
    pub const fn pairing_rule(self) -> &'static str {
        match self {
            System::Swiss => "C.04.3",
            System::RoundRobin => "C.05",
        }
    }
}

/// An event's settings, fixed at creation.
///
/// ```
/// use arbiter_server::event::model::Settings;
/// let s = Settings::parse(&serde_json::json!({"name": "Club", "system": "swiss", "rounds": 5,
///     "initial_s": 60, "increment_s": 0, "start_at": 0}), 0).unwrap();
/// assert_eq!((s.rounds, s.default_time_s, s.auto_pair), (5, 60, true));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The name.
    pub name: String,
    /// Swiss or round-robin.
    pub system: System,
    /// The rounds of a Swiss (a round-robin's follow from its players).
    pub rounds: u16,
    /// A double round-robin (colours reversed in the second cycle).
    pub double: bool,
    /// The time of the game, seconds.
    pub initial_s: u32,
    /// The increment per move, seconds.
    pub increment_s: u32,
    /// The edition of the Laws.
    pub edition: Edition,
    /// The default time (2014 6.7 a, 2018/2023 6.7.1), seconds after a
    /// round's start: a player not at the board by then loses.
    pub default_time_s: u32,
    /// Touch-move enforced (4.3).
    pub touch_move: bool,
    /// The scheduled start, epoch ms.
    pub start_at: u64,
    /// Each round is paired as soon as the last has ended (else at the
    /// organiser's `pair`).
    pub auto_pair: bool,
    /// Rated: each game moves both players' Glicko-2 ratings.
    pub rated: bool,
    /// The tie-breaks, C.07 codes (TRF-2026 record 202).
    pub tie_breaks: Vec<String>,
    /// Half-point byes a player may request in advance (a Swiss only).
    pub half_byes: u16,
}

fn get<'a>(v: &'a serde_json::Value, name: &str) -> Option<&'a serde_json::Value> {
    v.get(name).filter(|x| !x.is_null())
}

fn uint(
    v: &serde_json::Value,
    name: &str,
    default: Option<u64>,
    max: u64,
) -> Result<u64, ApiError> {
    match get(v, name) {
        None => default.ok_or_else(|| ApiError::invalid(name, format!("{name}: required"))),
        Some(x) => x
            .as_u64()
            .filter(|n| *n <= max)
            .ok_or_else(|| ApiError::invalid(name, format!("{name}: an integer 0 to {max}"))),
    }
}

fn flag(v: &serde_json::Value, name: &str, default: bool) -> Result<bool, ApiError> {
    match get(v, name) {
        None => Ok(default),
        Some(x) => x
            .as_bool()
            .ok_or_else(|| ApiError::invalid(name, format!("{name}: true or false"))),
    }
}

impl Settings {
    /// The settings of `POST /api/events` (protocol §9.1), each field
    /// checked; `now` is the default start.
    pub fn parse(v: &serde_json::Value, now: u64) -> Result<Settings, ApiError> {
        let name = get(v, "name")
            .and_then(|x| x.as_str())
            .map(str::trim)
            .filter(|s| !s.is_empty() && s.chars().count() <= MAX_NAME)
            .filter(|s| !s.chars().any(char::is_control))
            .ok_or_else(|| {
                ApiError::invalid(
                    "name",
                    format!("name: 1 to {MAX_NAME} characters, no control characters"),
                )
            })?;
        // Shown to everyone, and written into the TRF and PGN: nothing
        // hidden, reordered or blank (§2.1, as a display name).
        let name = crate::display_name::check_visible_name("name", name)?.to_owned();
        let system = match get(v, "system").and_then(|x| x.as_str()) {
            Some("swiss") => System::Swiss,
            Some("round_robin") => System::RoundRobin,
            _ => {
                return Err(ApiError::invalid(
                    "system",
                    "system: \"swiss\" or \"round_robin\"",
                ))
            }
        };
        let rounds = match system {
            System::Swiss => {
                let r = uint(v, "rounds", None, u64::from(MAX_ROUNDS))? as u16;
                if r == 0 {
                    return Err(ApiError::invalid(
                        "rounds",
                        format!("rounds: 1 to {MAX_ROUNDS}"),
                    ));
                }
                r
            }
            System::RoundRobin => 0,
        };
        let initial_s = uint(v, "initial_s", None, 6 * 3600)? as u32;
        let increment_s = uint(v, "increment_s", Some(0), 600)? as u32;
        let tc = format!("{initial_s}+{increment_s}");
        crate::game::settings::playable_time_control(&tc)
            .map_err(|e| ApiError::invalid("initial_s", e))?;
        let edition = match get(v, "edition") {
            None => Edition::Fide2023,
            Some(x) => x
                .as_str()
                .and_then(|s| s.parse::<Edition>().ok())
                .ok_or_else(|| {
                    ApiError::invalid("edition", "edition: \"2014\", \"2018\" or \"2023\"")
                })?,
        };
        let default_time_s = uint(v, "default_time_s", Some(60), 3600)? as u32;
        if default_time_s == 0 {
            return Err(ApiError::invalid(
                "default_time_s",
                "default_time_s: 1 to 3600 (online a player needs a moment to reach the board; Art. 6.7)",
            ));
        }
        let tie_breaks = match get(v, "tiebreaks").or_else(|| get(v, "tie_breaks")) {
            None => match system {
                System::Swiss => SWISS_TIE_BREAKS,
                System::RoundRobin => ROUND_ROBIN_TIE_BREAKS,
            }
            .split(',')
            .map(str::to_owned)
            .collect(),
            Some(x) => {
                let list = x.as_array().filter(|a| a.len() <= 12).ok_or_else(|| {
                    ApiError::invalid("tiebreaks", "tiebreaks: a list of at most 12 C.07 codes")
                })?;
                let mut out = Vec::new();
                for t in list {
                    let code = t.as_str().unwrap_or("");
                    let tb = code
                        .parse::<TieBreak>()
                        .map_err(|e| ApiError::invalid("tiebreaks", format!("tiebreaks: {e}")))?;
                    out.push(tb.code());
                }
                out
            }
        };
        Ok(Settings {
            name,
            system,
            rounds,
            double: flag(v, "double", false)?,
            initial_s,
            increment_s,
            edition,
            default_time_s,
            touch_move: flag(v, "touch_move", false)?,
            start_at: uint(v, "start_at", Some(now), u64::MAX)?,
            auto_pair: flag(v, "auto_pair", true)?,
            rated: flag(v, "rated", false)?,
            tie_breaks,
            half_byes: match system {
                System::Swiss => uint(v, "half_byes", Some(1), 5)? as u16,
                System::RoundRobin => 0,
            },
        })
    }

    /// The time control, as games take it.
    pub fn time_control(&self) -> arbiter_pgn::TimeControl {
        arbiter_pgn::TimeControl::Periods(vec![arbiter_pgn::Period {
            moves: None,
            time_ms: u64::from(self.initial_s) * 1000,
            increment_ms: u64::from(self.increment_s) * 1000,
        }])
    }

    /// The number of rounds with `players` players.
    pub fn total_rounds(&self, players: usize) -> u16 {
        match self.system {
            System::Swiss => self.rounds,
            System::RoundRobin => berger::rounds(players as u16) * if self.double { 2 } else { 1 },
        }
    }

    /// The tie-breaks, parsed.
    pub fn tie_breaks(&self) -> Vec<TieBreak> {
        self.tie_breaks
            .iter()
            .filter_map(|c| c.parse().ok())
            .collect()
    }
}

/// A board's result code for each side: White's and Black's round
/// results (C.04 / TRF codes).
///
/// ```
/// use arbiter_server::event::model::sides;
/// use arbiter_tournament::RoundResult::*;
/// assert_eq!(sides("+-"), Some((ForfeitWin, ForfeitLoss)));
/// assert_eq!(sides(""), Some((Pending, Pending)));
/// assert_eq!(sides("2-0"), None);
/// ```
pub fn sides(code: &str) -> Option<(RoundResult, RoundResult)> {
    use RoundResult::*;
    Some(match code {
        "" => (Pending, Pending),
        "1-0" => (Win, Loss),
        "0-1" => (Loss, Win),
        "1/2-1/2" => (Draw, Draw),
        "+-" => (ForfeitWin, ForfeitLoss),
        "-+" => (ForfeitLoss, ForfeitWin),
        "--" => (ForfeitLoss, ForfeitLoss),
        _ => return None,
    })
}

/// A bye's round result (`U`, `H`, `Z`).
pub fn bye(code: &str) -> Option<RoundResult> {
    match code {
        "U" => Some(RoundResult::PairingBye),
        "H" => Some(RoundResult::HalfBye),
        "Z" => Some(RoundResult::ZeroBye),
        "F" => Some(RoundResult::FullBye),
        _ => None,
    }
}

/// The settings stored with an event.
pub fn settings_of(t: &LoadedTournament) -> Result<Settings, crate::store::StoreError> {
    serde_json::from_str(&t.row.settings).map_err(|e| crate::store::StoreError::Corrupt {
        game: t.row.id.clone(),
        message: format!("event settings: {e}"),
    })
}

/// The rounds paired so far.
pub fn rounds_paired(t: &LoadedTournament) -> u16 {
    t.boards.iter().map(|b| b.round).max().unwrap_or(0)
}

/// The boards of round `r`.
pub fn boards_of(t: &LoadedTournament, r: u16) -> impl Iterator<Item = &BoardRow> {
    t.boards.iter().filter(move |b| b.round == r)
}

/// Whether every board of round `r` has its result.
pub fn round_complete(t: &LoadedTournament, r: u16) -> bool {
    boards_of(t, r).all(|b| !b.result.is_empty())
}

/// The event as `arbiter-tournament` sees it, its players by pairing number
/// with an entry for each of the first `upto` rounds (a round a player has
/// no board in is a zero-point bye: not yet entered, or withdrawn).
pub fn to_tournament(t: &LoadedTournament, s: &Settings, upto: u16) -> Event {
    let mut ev = Event::new(&s.name, s.total_rounds(t.players.len()));
    ev.system = match (s.system, s.double) {
        (System::Swiss, _) => PairingSystem::Dutch2025,
        (System::RoundRobin, false) => PairingSystem::RoundRobin,
        (System::RoundRobin, true) => PairingSystem::DoubleRoundRobin,
    };
    ev.time_control = format!("{}+{}", s.initial_s, s.increment_s);
    ev.tie_breaks = s.tie_breaks.clone();
    ev.kind = match s.system {
        System::Swiss => "Swiss (FIDE Dutch, C.04.3)".into(),
        System::RoundRobin => "Round-robin (C.05)".into(),
    };
    let mut players: Vec<Player> = t
        .players
        .iter()
        .map(|p| {
            let mut pl = Player::new(p.no, &p.name, p.rating);
            pl.rounds = vec![RoundEntry::bye(RoundResult::ZeroBye); usize::from(upto)];
            pl
        })
        .collect();
    let index = |no: u16| players_index(t, no);
    for b in t.boards.iter().filter(|b| b.round <= upto && b.round > 0) {
        let r = usize::from(b.round) - 1;
        match b.black {
            Some(black) => {
                let (w, bl) = sides(&b.result)
                    .map(|(w, bl)| {
                        if b.short {
                            (w.short(), bl.short())
                        } else {
                            (w, bl)
                        }
                    })
                    .unwrap_or((RoundResult::Pending, RoundResult::Pending));
                if let Some(i) = index(b.white) {
                    players[i].rounds[r] = RoundEntry::game(black, Colour::White, w);
                }
                if let Some(i) = index(black) {
                    players[i].rounds[r] = RoundEntry::game(b.white, Colour::Black, bl);
                }
            }
            None => {
                if let (Some(i), Some(res)) = (index(b.white), bye(&b.result)) {
                    players[i].rounds[r] = RoundEntry::bye(res);
                }
            }
        }
    }
    ev.players = std::mem::take(&mut players);
    ev
}

/// The event with the next round's entries made ahead of its pairing
/// (C.04.1: a half-point bye requested in advance, a withdrawn player's
/// zero-point bye), and those players' numbers with their entry — the
/// input of the next round's pairing, and what the TRF download carries
/// so that any pairing program pairs that round as the server does.
pub fn with_entries_ahead(t: &LoadedTournament, s: &Settings) -> (Event, Vec<(u16, RoundResult)>) {
    let done = rounds_paired(t);
    let round = done + 1;
    let mut ev = to_tournament(t, s, done);
    let mut absent = Vec::new();
    if s.system != System::Swiss || round > s.total_rounds(t.players.len()) {
        return (ev, absent);
    }
    for (i, p) in t.players.iter().enumerate() {
        let requested = t.byes.iter().any(|(u, r)| *u == p.user_id && *r == round);
        let entry = if p.withdrawn {
            RoundResult::ZeroBye
        } else if requested {
            RoundResult::HalfBye
        } else {
            continue;
        };
        ev.players[i].rounds.push(RoundEntry::bye(entry));
        absent.push((p.no, entry));
    }
    (ev, absent)
}

fn players_index(t: &LoadedTournament, no: u16) -> Option<usize> {
    t.players.iter().position(|p| p.no == no)
}

/// Why a round cannot be paired.
#[derive(Debug, thiserror::Error)]
pub enum PairRefused {
    /// The last round is paired.
    #[error("all {0} rounds are paired")]
    Done(u16),
    /// The round before has games without a result.
    #[error("round {0} has games without a result")]
    Unfinished(u16),
    /// Too few players.
    #[error("an event needs at least 2 players present")]
    TooFew,
    /// The pairing rules found no pairing (C.04.3: the arbiter decides).
    #[error("{0}")]
    Pairing(String),
    /// The arbiter's own pairing is not one of the round's players.
    #[error("{0}")]
    Hand(String),
}

/// The boards of the next round (C.04.3 Dutch with the requested
/// half-point byes and withdrawals entered ahead, C.04.1; or the Berger
/// table's round, C.05), games first, board 1 first, then the byes. A
/// round-robin game of a withdrawn player is a forfeit at once.
pub fn pair_next(t: &LoadedTournament, s: &Settings) -> Result<(u16, Vec<BoardRow>), PairRefused> {
    let done = rounds_paired(t);
    let total = s.total_rounds(t.players.len());
    if done >= total {
        return Err(PairRefused::Done(total));
    }
    if done > 0 && !round_complete(t, done) {
        return Err(PairRefused::Unfinished(done));
    }
    let round = done + 1;
    let withdrawn = |no: u16| t.players.iter().any(|p| p.no == no && p.withdrawn);
    let mut boards = Vec::new();
    match s.system {
        System::Swiss => {
            let (ev, absent) = with_entries_ahead(t, s);
            if t.players.len() - absent.len() < 2 {
                return Err(PairRefused::TooFew);
            }
            let pairing = dutch::pair_round(&ev, usize::from(round), dutch::Options::default())
                .map_err(|e| PairRefused::Pairing(e.to_string()))?;
            for (w, b) in pairing.pairs {
                boards.push((w, Some(b), String::new()));
            }
            if let Some(p) = pairing.bye {
                boards.push((p, None, "U".to_owned()));
            }
            for (no, entry) in absent {
                boards.push((no, None, entry.code().to_string()));
            }
        }
        System::RoundRobin => {
            let n = t.players.len() as u16;
            if n < 2 {
                return Err(PairRefused::TooFew);
            }
            let table = if s.double {
                berger::double_round(n, round)
            } else {
                berger::round(n, round)
            };
            for b in table {
                match b.black {
                    Some(black) => {
                        let result = match (withdrawn(b.white), withdrawn(black)) {
                            (false, false) => "",
                            (true, false) => "-+",
                            (false, true) => "+-",
                            (true, true) => "--",
                        };
                        boards.push((b.white, Some(black), result.to_owned()));
                    }
                    None => boards.push((b.white, None, "Z".to_owned())),
                }
            }
        }
    }
    Ok((round, numbered(round, boards)))
}

/// The next round of a Swiss as the arbiter pairs it by hand (when C.04.3
/// finds no pairing, or he decides otherwise: protocol §9.4): `pairs` as
/// (white, black) by pairing number, board by board, and `bye` the player
/// given the pairing-allocated bye. Every player to be paired (not
/// withdrawn, no half-point bye asked for the round) appears exactly once;
/// the arbiter's pairing is his decision, so a rematch is not refused.
pub fn pair_by_hand(
    t: &LoadedTournament,
    s: &Settings,
    pairs: &[(u16, u16)],
    bye: Option<u16>,
) -> Result<(u16, Vec<BoardRow>), PairRefused> {
    let done = rounds_paired(t);
    let total = s.total_rounds(t.players.len());
    if s.system != System::Swiss {
        return Err(PairRefused::Hand(
            "a round-robin's rounds are the Berger tables' (C.05)".into(),
        ));
    }
    if done >= total {
        return Err(PairRefused::Done(total));
    }
    if done > 0 && !round_complete(t, done) {
        return Err(PairRefused::Unfinished(done));
    }
    let round = done + 1;
    let (_, absent) = with_entries_ahead(t, s);
    let mut to_pair: Vec<u16> = t
        .players
        .iter()
        .map(|p| p.no)
        .filter(|no| !absent.iter().any(|(a, _)| a == no))
        .collect();
    let named = pairs.iter().flat_map(|&(w, b)| [w, b]).chain(bye);
    for no in named {
        match to_pair.iter().position(|&p| p == no) {
            Some(i) => {
                to_pair.swap_remove(i);
            }
            None if absent.iter().any(|(a, _)| *a == no) => {
                return Err(PairRefused::Hand(format!(
                    "player {no} is not to be paired in round {round} (withdrawn or a half-point bye)"
                )))
            }
            None if t.players.iter().any(|p| p.no == no) => {
                return Err(PairRefused::Hand(format!("player {no} is named twice")))
            }
            None => return Err(PairRefused::Hand(format!("there is no player {no}"))),
        }
    }
    if !to_pair.is_empty() {
        to_pair.sort_unstable();
        let left: Vec<String> = to_pair.iter().map(u16::to_string).collect();
        return Err(PairRefused::Hand(format!(
            "players {} are not paired",
            left.join(", ")
        )));
    }
    let boards = pairs
        .iter()
        .map(|&(w, b)| (w, Some(b), String::new()))
        .chain(bye.map(|p| (p, None, "U".to_owned())))
        .chain(
            absent
                .into_iter()
                .map(|(no, e)| (no, None, e.code().to_string())),
        );
    Ok((round, numbered(round, boards)))
}

/// The rows of `round`'s boards, numbered in order from 1: (white, black,
/// result) each, a bye without black.
fn numbered(
    round: u16,
    boards: impl IntoIterator<Item = (u16, Option<u16>, String)>,
) -> Vec<BoardRow> {
    boards
        .into_iter()
        .enumerate()
        .map(|(i, (white, black, result))| BoardRow {
            round,
            board: i as u16 + 1,
            white,
            black,
            game_id: None,
            result,
            short: false,
        })
        .collect()
}

/// The standings (C.07) with the event's tie-breaks, over every round
/// paired (a game without a result counts nothing yet).
pub fn standings(ev: &Event, s: &Settings) -> Vec<tiebreak::Standing> {
    tiebreak::standings(ev, &s.tie_breaks(), tiebreak::Edition::Fide2026)
}

/// A player's B.02 rating change over the event (the rated games against
/// rated opponents), rounded (8.3.4); `None` if unrated. A game's score is
/// 1, ½ or 0 by its result (8.3.2), not the event's points for it. K by
/// 8.3.3 for an established adult player, the only facts the server has
/// being the rating: 20, or 10 from 2400 (a published rating of 2400 has
/// reached it); the 40 of a new or young player is not known here.
pub fn fide_change(ev: &Event, no: u16) -> Option<i32> {
    use arbiter_tournament::rating;
    let p = ev.player(no)?;
    if p.rating == 0 {
        return None;
    }
    let games: Vec<rating::Game> = p
        .rounds
        .iter()
        .filter_map(|e| {
            let score = rating::game_score(e.result)?;
            let o = ev.player(e.opponent?)?;
            (o.rating > 0).then(|| rating::Game {
                opponent: i32::from(o.rating),
                score,
            })
        })
        .collect();
    let own = i32::from(p.rating);
    let established = rating::Player {
        rating: own,
        games_before: 30,
        young: false,
        ever_2400: own >= 2400,
    };
    let k = rating::k_factor(&established, games.len() as u32);
    Some(rating::rounded_change(own, k, &games))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tournament::{PlayerRow, TournamentRow};

    fn event(n: u16, settings: &Settings) -> LoadedTournament {
        LoadedTournament {
            row: TournamentRow {
                id: "evt00001".into(),
                organiser: "o".into(),
                name: "Test".into(),
                created_at: 0,
                start_at: 0,
                status: "running".into(),
                settings: serde_json::to_string(settings).unwrap(),
            },
            players: (1..=n)
                .map(|no| PlayerRow {
                    tournament_id: "evt00001".into(),
                    user_id: format!("u{no}"),
                    no,
                    name: format!("Player {no}"),
                    rating: 2000 - 10 * no,
                    withdrawn: false,
                    registered_at: 0,
                })
                .collect(),
            boards: Vec::new(),
            byes: Vec::new(),
            rounds: Vec::new(),
        }
    }

    fn swiss(rounds: u16) -> Settings {
        Settings::parse(
            &serde_json::json!({"name": "Test", "system": "swiss", "rounds": rounds, "initial_s": 60}),
            0,
        )
        .unwrap()
    }

    /// C.04.3: round 1 pairs the top half against the bottom half; the odd
    /// player out gets the pairing-allocated bye (C.04.1 c), a requested
    /// half-point bye is entered ahead (C.04.1).
    #[test]
    fn round_one_of_a_swiss() {
        let s = swiss(3);
        let mut t = event(7, &s);
        t.byes.push(("u2".into(), 1));
        let (round, boards) = pair_next(&t, &s).unwrap();
        assert_eq!(round, 1);
        let games: Vec<_> = boards.iter().filter(|b| b.black.is_some()).collect();
        assert_eq!(games.len(), 3);
        assert!(boards.iter().any(|b| b.white == 2 && b.result == "H"));
        assert_eq!(
            boards.iter().filter(|b| b.result == "U").count(),
            0,
            "6 present"
        );
        // Round 2 waits for round 1's results.
        t.boards = boards;
        assert!(matches!(pair_next(&t, &s), Err(PairRefused::Unfinished(1))));
        for b in t.boards.iter_mut().filter(|b| b.black.is_some()) {
            b.result = "1-0".into();
        }
        let (round, boards) = pair_next(&t, &s).unwrap();
        assert_eq!(round, 2);
        assert_eq!(
            boards.iter().filter(|b| b.result == "U").count(),
            1,
            "7 present"
        );
    }

    /// Two rated players, `a` beating `b`, under 3/1/0 points.
    fn one_win(a: u16, b: u16) -> Event {
        use arbiter_tournament::{Colour, Player, Points, RoundEntry, RoundResult};
        let mut ev = Event::new("3-1-0", 1);
        ev.scoring.win = Points::from_tenths(30);
        ev.scoring.draw = Points::from_tenths(10);
        ev.scoring.pairing_bye = Points::from_tenths(30);
        let mut a = Player::new(1, "A", a);
        let mut b = Player::new(2, "B", b);
        a.rounds
            .push(RoundEntry::game(2, Colour::White, RoundResult::Win));
        b.rounds
            .push(RoundEntry::game(1, Colour::Black, RoundResult::Loss));
        ev.players = vec![a, b];
        ev
    }

    /// B.02 8.3.2: a rated game scores 1, ½ or 0 for the rating whatever
    /// the event's point system: with 3/1/0 a win vs an opponent 113 points
    /// lower (PD .65) is 20 × (1 − 0.65) = +7, not 20 × (3 − 0.65) = +47.
    #[test]
    fn fide_change_scores_a_win_as_one_under_any_point_system() {
        let ev = one_win(2350, 2237);
        assert_eq!(fide_change(&ev, 1), Some(7));
        assert_eq!(fide_change(&ev, 2), Some(-7));
    }

    /// B.02 8.3.3: K = 10 for a player whose rating has reached 2400 (it
    /// was 20 for everyone): a win 113 points above, PD .65, is
    /// 10 × 0.35 = +3.5, rounded away from zero (8.3.4) to +4, for the
    /// 2450 player; his opponent keeps K = 20.
    #[test]
    fn fide_change_uses_k_10_from_2400() {
        let ev = one_win(2450, 2337);
        assert_eq!(fide_change(&ev, 1), Some(4));
        assert_eq!(fide_change(&ev, 2), Some(-7));
    }

    /// C.05 Annex 1: 4 players, 3 rounds; a withdrawn player's games are
    /// forfeits.
    #[test]
    fn round_robin_by_berger() {
        let s = Settings::parse(
            &serde_json::json!({"name": "RR", "system": "round_robin", "initial_s": 60}),
            0,
        )
        .unwrap();
        let mut t = event(4, &s);
        assert_eq!(s.total_rounds(4), 3);
        t.players[3].withdrawn = true;
        let (_, boards) = pair_next(&t, &s).unwrap();
        assert_eq!((boards[0].white, boards[0].black), (1, Some(4)));
        assert_eq!(boards[0].result, "+-");
        assert_eq!(boards[1].result, "");
    }

    #[test]
    fn settings_say_which_field_is_wrong() {
        let bad = |v: serde_json::Value| Settings::parse(&v, 0).unwrap_err().field;
        let base =
            serde_json::json!({"name": "X", "system": "swiss", "rounds": 3, "initial_s": 60});
        let with = |k: &str, v: serde_json::Value| {
            let mut b = base.clone();
            b[k] = v;
            b
        };
        assert_eq!(
            bad(with("system", "knockout".into())),
            Some("system".into())
        );
        assert_eq!(bad(with("rounds", 0.into())), Some("rounds".into()));
        assert_eq!(bad(with("rounds", 31.into())), Some("rounds".into()));
        assert_eq!(bad(with("edition", "2019".into())), Some("edition".into()));
        assert_eq!(
            bad(with("default_time_s", 0.into())),
            Some("default_time_s".into())
        );
        assert_eq!(
            bad(with("tiebreaks", serde_json::json!(["XX"]))),
            Some("tiebreaks".into())
        );
        assert_eq!(bad(with("name", "".into())), Some("name".into()));
        assert_eq!(bad(with("initial_s", 0.into())), Some("initial_s".into()));
    }
}
