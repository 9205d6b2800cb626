//! Standings with the FIDE tie-breaks (Handbook C.07: the 2026 edition in
//! force from 1 March 2026, the 2023 rules selectable), including the
//! treatment of unplayed rounds of Art. 16.

use crate::model::{Event, PairingSystem, Points, RoundEntry, RoundResult};

/// Which edition of C.07.
///
/// ```
/// use arbiter_tournament::tiebreak::Edition;
/// assert_eq!(Edition::default(), Edition::Fide2026);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Edition {
    /// C.07 from 1 March 2026: the dummy opponent's score is capped (16.4).
    #[default]
    Fide2026,
    /// C.07 of 2023–2026: the dummy opponent ends with the participant's own score.
    Fide2023,
}

/// A cut or median modifier (C.07 Art. 14).
///
/// ```
/// use arbiter_tournament::tiebreak::Cut;
/// assert_eq!(Cut::default(), Cut::None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Cut {
    /// All values.
    #[default]
    None,
    /// Cut-1: the least significant value dropped.
    Cut1,
    /// Cut-2: the two least significant.
    Cut2,
    /// Median-1: the lowest and the highest.
    Median1,
    /// Median-2: the two lowest and the two highest.
    Median2,
}

impl Cut {
    /// How many of the lowest and of the highest values the cut drops (C.07 14, 16.5).
    ///
    /// ```
    /// use arbiter_tournament::tiebreak::Cut;
    /// assert_eq!(Cut::Median1.dropped(), (1, 1));
    /// assert_eq!(Cut::Cut2.dropped(), (2, 0));
    /// ```
    pub fn dropped(self) -> (usize, usize) {
        match self {
            Cut::None => (0, 0),
            Cut::Cut1 => (1, 0),
            Cut::Cut2 => (2, 0),
            Cut::Median1 => (1, 1),
            Cut::Median2 => (2, 2),
        }
    }
}

/// A tie-break (C.07; the codes are those of TRF-2026 record 202).
///
/// ```
/// use arbiter_tournament::tiebreak::{Cut, TieBreak};
/// assert_eq!("BH/C1".parse::<TieBreak>().unwrap(), TieBreak::Buchholz(Cut::Cut1));
/// assert_eq!(TieBreak::Buchholz(Cut::Median1).code(), "BH/M1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieBreak {
    /// BH (Art. 8.1): the opponents' scores.
    Buchholz(Cut),
    /// FB (8.3): Buchholz with the paired final-round games as draws.
    FideBuchholz(Cut),
    /// SB (9.1): Σ opponent's score × points scored against them.
    SonnebornBerger(Cut),
    /// DE (6): the score in the games among the tied players.
    DirectEncounter,
    /// WIN (7.1): rounds with a win's points, played or not.
    Wins,
    /// WON (7.2): games won over the board.
    WinsOverTheBoard,
    /// BPG (7.3): games played with Black.
    GamesWithBlack,
    /// BWG (7.4): games won with Black.
    WinsWithBlack,
    /// PS (7.5): the sum of the running scores.
    Progressive(Cut),
    /// ARO (10.1): the average rating of the opponents met over the board.
    AverageRatingOfOpponents(Cut),
    /// TPR (10.2): the tournament performance rating.
    PerformanceRating,
    /// KS (9.2): the points against participants with at least half the maximum score.
    Koya,
}

/// A tie-break code that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown tie-break {0:?} (known: BH, FB, SB, DE, WIN, WON, BPG, BWG, PS, ARO, TPR, KS, with /C1 /C2 /M1 /M2 where C.07 allows)")]
pub struct TieBreakError(pub String);

impl std::str::FromStr for TieBreak {
    type Err = TieBreakError;
    fn from_str(s: &str) -> Result<TieBreak, TieBreakError> {
        let err = || TieBreakError(s.to_string());
        let up = s.trim().to_ascii_uppercase();
        let (name, modifier) = match up.split_once('/') {
            Some((n, m)) => (n.to_string(), Some(m.to_string())),
            None => (up.clone(), None),
        };
        let cut = match modifier.as_deref() {
            None => Cut::None,
            Some("C1") => Cut::Cut1,
            Some("C2") => Cut::Cut2,
            Some("M1") => Cut::Median1,
            Some("M2") => Cut::Median2,
            Some(_) => return Err(err()),
        };
        let plain = |t: TieBreak| if cut == Cut::None { Ok(t) } else { Err(err()) };
        // C.07 Art. 14 defines PS's cuts (Cut-1: the round-1 running score)
        // but no most significant value for a median to drop.
        let cuts_only = |t: TieBreak| {
            if matches!(cut, Cut::Median1 | Cut::Median2) {
                Err(err())
            } else {
                Ok(t)
            }
        };
        match name.as_str() {
            "BH" => Ok(TieBreak::Buchholz(cut)),
            "FB" => Ok(TieBreak::FideBuchholz(cut)),
            "SB" => Ok(TieBreak::SonnebornBerger(cut)),
            "PS" => cuts_only(TieBreak::Progressive(cut)),
            "ARO" => Ok(TieBreak::AverageRatingOfOpponents(cut)),
            "DE" => plain(TieBreak::DirectEncounter),
            "WIN" => plain(TieBreak::Wins),
            "WON" => plain(TieBreak::WinsOverTheBoard),
            "BPG" => plain(TieBreak::GamesWithBlack),
            "BWG" => plain(TieBreak::WinsWithBlack),
            "TPR" => plain(TieBreak::PerformanceRating),
            "KS" => plain(TieBreak::Koya),
            _ => Err(err()),
        }
    }
}

/// Whether `code` is a tie-break of C.07 as record 202 (MTB26) writes it,
/// whether or not [`TieBreak`] computes it: the individual tie-breaks (AOB,
/// REP or GE, STD, TPN, PTP, APRO, APPO, RTNG besides those computed), the
/// team ones (MP, GP, BC, TBR, BBE, MPVGP, ESB, EMMSB, EMGSB, EGMSB, EGGSB,
/// EDE, EDEBT, EDEBB, EDET, EDEB, SSSC), `OTHER_…`, with the modifiers of
/// Art. 14 and MTB26 (`/C1 /C2 /M1 /M2`, `/P`, `/F`, `/R`, `/L±n`, `/Kn`,
/// `:MP`, `:GP`). A code that is one but does not parse as a [`TieBreak`] is
/// valid but not computed here.
///
/// ```
/// use arbiter_tournament::tiebreak::is_c07_code;
/// assert!(is_c07_code("AOB") && is_c07_code("KS/L+1") && is_c07_code("BH/M2/P"));
/// assert!(!is_c07_code("BH/C9") && !is_c07_code("XYZ"));
/// ```
pub fn is_c07_code(code: &str) -> bool {
    const NAMES: &[&str] = &[
        "BH", "FB", "SB", "DE", "WIN", "WON", "BPG", "BWG", "PS", "ARO", "TPR", "KS", "AOB", "REP",
        "GE", "STD", "TPN", "PTP", "APRO", "APPO", "RTNG", "MP", "GP", "BC", "TBR", "BBE", "MPVGP",
        "ESB", "EMMSB", "EMGSB", "EGMSB", "EGGSB", "EDE", "EDEBT", "EDEBB", "EDET", "EDEB", "SSSC",
    ];
    let up = code.trim().to_ascii_uppercase();
    let (body, points) = match up.split_once(':') {
        Some((b, p)) => (b, Some(p)),
        None => (up.as_str(), None),
    };
    if points.is_some_and(|p| p != "MP" && p != "GP") {
        return false;
    }
    let mut parts = body.split('/');
    let name = parts.next().unwrap_or("");
    let named = NAMES.contains(&name)
        || name.strip_prefix("OTHER_").is_some_and(|x| {
            !x.is_empty() && x.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    named
        && parts.all(|m| {
            matches!(m, "C1" | "C2" | "M1" | "M2" | "P" | "F" | "R")
                || m.strip_prefix('L')
                    .and_then(|x| x.strip_prefix('+').or_else(|| x.strip_prefix('-')))
                    .is_some_and(digits)
                || m.strip_prefix('K').is_some_and(digits)
        })
}

impl TieBreak {
    /// The code, as record 202 writes it.
    pub fn code(&self) -> String {
        let with = |n: &str, c: &Cut| {
            let m = match c {
                Cut::None => "",
                Cut::Cut1 => "/C1",
                Cut::Cut2 => "/C2",
                Cut::Median1 => "/M1",
                Cut::Median2 => "/M2",
            };
            format!("{n}{m}")
        };
        match self {
            TieBreak::Buchholz(c) => with("BH", c),
            TieBreak::FideBuchholz(c) => with("FB", c),
            TieBreak::SonnebornBerger(c) => with("SB", c),
            TieBreak::Progressive(c) => with("PS", c),
            TieBreak::AverageRatingOfOpponents(c) => with("ARO", c),
            TieBreak::DirectEncounter => "DE".into(),
            TieBreak::Wins => "WIN".into(),
            TieBreak::WinsOverTheBoard => "WON".into(),
            TieBreak::GamesWithBlack => "BPG".into(),
            TieBreak::WinsWithBlack => "BWG".into(),
            TieBreak::PerformanceRating => "TPR".into(),
            TieBreak::Koya => "KS".into(),
        }
    }
}

/// One line of the standings.
///
/// ```
/// use arbiter_tournament::tiebreak::Standing;
/// let s = Standing { id: 1, rank: 1, points: Default::default(), values: vec![] };
/// assert_eq!(s.rank, 1);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// Starting rank.
    pub id: u16,
    /// Place (tied players share it).
    pub rank: u16,
    /// Points.
    pub points: Points,
    /// The tie-break values, in the order asked.
    pub values: Vec<f64>,
}

/// Art. 16.2 categories of unplayed rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unplayed {
    /// .1 PAB or full-point bye.
    Bye,
    /// .2 forfeit win.
    ForfeitWin,
    /// .3 requested bye followed by a round that is not a VUR.
    RequestedThenPlayed,
    /// .4 forfeit loss.
    ForfeitLoss,
    /// .5 requested bye followed only by VURs, or in the last round.
    RequestedAtEnd,
}

/// Which rounds without a game over the board still count as games for a
/// tie-break (C.07 15.1–15.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counted {
    /// Games played over the board only (15.1; every Swiss event).
    Played,
    /// Those and forfeit wins (15.2, 2026: type-B tie-breaks of a
    /// round-robin, where forfeit losses stay unplayed).
    ForfeitWins,
    /// Those and every forfeit (15.2: pre-determined pairings).
    Forfeits,
}

impl Counted {
    /// What tie-break `tb` counts as a game, under `edition`, in an event
    /// whose pairings were (`pre_determined`) or were not fixed in advance.
    /// C.07 15.2: in a round-robin forfeits are the only unplayed rounds and
    /// count as games; 2026 excepts the rating tie-breaks of Art. 10 (all
    /// forfeits stay unplayed) and the participant's own results, type B
    /// (forfeit losses stay unplayed).
    fn of(tb: TieBreak, edition: Edition, pre_determined: bool) -> Counted {
        if !pre_determined {
            return Counted::Played;
        }
        match (edition, tb) {
            (Edition::Fide2023, _) => Counted::Forfeits,
            (
                Edition::Fide2026,
                TieBreak::AverageRatingOfOpponents(_) | TieBreak::PerformanceRating,
            ) => Counted::Played,
            (
                Edition::Fide2026,
                TieBreak::Wins
                | TieBreak::WinsOverTheBoard
                | TieBreak::GamesWithBlack
                | TieBreak::WinsWithBlack
                | TieBreak::Progressive(_),
            ) => Counted::ForfeitWins,
            (Edition::Fide2026, _) => Counted::Forfeits,
        }
    }
}

/// Whether the pairings of `event` were pre-determined — a round-robin — so
/// that C.07 15.2 applies to its tie-breaks instead of the Swiss rules for
/// unplayed rounds (15.3, Art. 16). It is one when the pairing system says
/// so (TRF-2026 record 192 `FIDE_ROUNDROBIN`, `BERGER_ROUNDROBIN`,
/// `FIDE_DOUBLEROUNDROBIN`; `arbiter tournament new --system round-robin`);
/// else when the type of tournament (record 092, free text) names a
/// round-robin ("Round Robin", "Berger") and not a Swiss; else, with neither
/// said, when the schedule is a complete round-robin: every two players
/// scheduled to meet (a game or a forfeit) the same number of times, at least
/// once, and no pairing-allocated, half-point or full-point bye (Swiss
/// pairings give those; a round-robin's free round for an odd number is a
/// round without an opponent and without points) — as a TRF-16 file of a
/// finished round-robin shows it. (A Swiss in which every two players met
/// exactly once and nobody had a bye is then read as a round-robin: the two
/// are the same schedule.)
///
/// ```
/// use arbiter_tournament::{tiebreak, Event, PairingSystem};
/// let mut e = Event::new("Club", 5);
/// assert!(!tiebreak::pre_determined(&e));
/// e.system = PairingSystem::RoundRobin;
/// assert!(tiebreak::pre_determined(&e));
/// ```
pub fn pre_determined(event: &Event) -> bool {
    if matches!(
        event.system,
        PairingSystem::RoundRobin | PairingSystem::DoubleRoundRobin
    ) {
        return true;
    }
    let kind = event.kind.to_ascii_lowercase();
    if kind.contains("swiss") {
        return false;
    }
    if kind.contains("robin") || kind.contains("berger") {
        return true;
    }
    complete_round_robin(event)
}

/// Whether every two players of `event` were scheduled to meet the same
/// number of times, at least once, with no bye that a Swiss pairing gives.
fn complete_round_robin(event: &Event) -> bool {
    let n = event.players.len();
    let swiss_bye = |e: &RoundEntry| {
        matches!(
            e.result,
            RoundResult::PairingBye | RoundResult::HalfBye | RoundResult::FullBye
        )
    };
    if n < 2 || event.players.iter().flat_map(|p| &p.rounds).any(swiss_bye) {
        return false;
    }
    let mut times = None;
    for p in &event.players {
        let mut met: std::collections::HashMap<u16, usize> = Default::default();
        for o in p.rounds.iter().filter_map(|e| e.opponent) {
            *met.entry(o).or_default() += 1;
        }
        if met.len() != n - 1 || met.contains_key(&p.id) {
            return false;
        }
        for &k in met.values() {
            if *times.get_or_insert(k) != k {
                return false;
            }
        }
    }
    true
}

struct Table<'a> {
    event: &'a Event,
    /// Pre-determined pairings (a round-robin): C.07 15.2, not Art. 16.
    pre_determined: bool,
    rounds: usize,
    /// entries[player][round]
    entries: Vec<Vec<RoundEntry>>,
    /// vur_after[player][round]: every round after this one is a VUR (16.2.5),
    /// computed once per line (a scan per round would be quadratic).
    vur_after: Vec<Vec<bool>>,
    scores: Vec<Points>,
    /// Scores as the opponents see them (16.3).
    adjusted: Vec<Points>,
    edition: Edition,
}

fn is_requested(r: RoundResult) -> bool {
    matches!(r, RoundResult::HalfBye | RoundResult::ZeroBye)
}
fn is_vur(e: &RoundEntry) -> bool {
    is_requested(e.result) || (e.result == RoundResult::ForfeitLoss)
}

impl<'a> Table<'a> {
    fn new(event: &'a Event, edition: Edition) -> Table<'a> {
        let rounds = event.rounds_played();
        let entries: Vec<Vec<RoundEntry>> = event
            .players
            .iter()
            .map(|p| {
                (1..=rounds)
                    .map(|r| {
                        p.round(r)
                            .copied()
                            .unwrap_or(RoundEntry::bye(RoundResult::ZeroBye))
                    })
                    .collect()
            })
            .collect();
        let vur_after = entries
            .iter()
            .map(|es| {
                let mut after = vec![true; es.len()];
                for r in (0..es.len().saturating_sub(1)).rev() {
                    after[r] = after[r + 1] && is_vur(&es[r + 1]);
                }
                after
            })
            .collect();
        let s = &event.scoring;
        let scores: Vec<Points> = entries
            .iter()
            .map(|es| es.iter().map(|e| s.points(e.result)).sum())
            .collect();
        let mut t = Table {
            event,
            pre_determined: pre_determined(event),
            rounds,
            entries,
            vur_after,
            scores: scores.clone(),
            adjusted: scores,
            edition,
        };
        if t.pre_determined {
            // Art. 16 is for Swiss events (15.3): the scores stand as they are.
            return t;
        }
        t.adjusted = (0..t.entries.len())
            .map(|i| {
                (0..rounds)
                    .map(|r| {
                        let e = &t.entries[i][r];
                        if t.category(i, r) == Some(Unplayed::RequestedAtEnd) {
                            s.draw
                        } else {
                            s.points(e.result)
                        }
                    })
                    .sum()
            })
            .collect();
        t
    }

    fn category(&self, i: usize, r: usize) -> Option<Unplayed> {
        let e = &self.entries[i][r];
        if e.is_played() {
            return None;
        }
        Some(match e.result {
            RoundResult::PairingBye | RoundResult::FullBye => Unplayed::Bye,
            RoundResult::ForfeitWin => Unplayed::ForfeitWin,
            RoundResult::ForfeitLoss if e.opponent.is_some() => Unplayed::ForfeitLoss,
            _ => {
                if self.vur_after[i][r] {
                    Unplayed::RequestedAtEnd
                } else {
                    Unplayed::RequestedThenPlayed
                }
            }
        })
    }

    /// Whether round entry `e` counts as a game, as `counted` says for the
    /// tie-break (C.07 15.1–15.2).
    fn is_game(&self, e: &RoundEntry, counted: Counted) -> bool {
        if e.is_played() {
            return true;
        }
        if !self.pre_determined || e.opponent.is_none() {
            return false;
        }
        matches!(
            (counted, e.result),
            (
                Counted::Forfeits,
                RoundResult::ForfeitWin | RoundResult::ForfeitLoss
            ) | (Counted::ForfeitWins, RoundResult::ForfeitWin)
        )
    }

    fn index(&self, id: u16) -> Option<usize> {
        self.event.players.iter().position(|p| p.id == id)
    }

    /// Per round: the opponent's score as counted for player `i` (16.3/16.4),
    /// whether the round is a VUR, and the points `i` scored.
    fn opponent_values(&self, i: usize, scores: &[Points]) -> Vec<(Points, bool, Points)> {
        let s = &self.event.scoring;
        if self.pre_determined {
            // 15.2: the games, forfeits included, against their opponents'
            // scores; a round without an opponent (an odd number's free
            // round) is no game and adds nothing.
            return self.entries[i]
                .iter()
                .filter(|e| self.is_game(e, Counted::Forfeits))
                .filter_map(|e| {
                    let o = self.index(e.opponent?)?;
                    Some((scores[o], false, s.points(e.result)))
                })
                .collect();
        }
        (0..self.rounds)
            .map(|r| {
                let e = &self.entries[i][r];
                let pts = s.points(e.result);
                let vur = is_vur(e);
                if e.is_played() {
                    let o = e
                        .opponent
                        .and_then(|o| self.index(o))
                        .map_or(Points::ZERO, |o| scores[o]);
                    return (o, vur, pts);
                }
                let own = self.scores[i];
                let cat = self.category(i, r).expect("unplayed");
                let dummy = match self.edition {
                    Edition::Fide2023 => own,
                    Edition::Fide2026 => match cat {
                        Unplayed::ForfeitWin | Unplayed::ForfeitLoss => {
                            let opp = e
                                .opponent
                                .and_then(|o| self.index(o))
                                .map_or(own, |o| self.adjusted[o]);
                            own.min(opp)
                        }
                        _ => own.min(Points(s.draw.0 * self.rounds as i32)),
                    },
                };
                (dummy, vur, pts)
            })
            .collect()
    }
}

/// One round's contribution to BH, FB or SB: the opponent's score as counted
/// for the participant (16.3/16.4), the value summed (that score for BH and
/// FB, score × points scored for SB), and whether the round is a VUR (16.1).
#[derive(Debug, Clone, Copy)]
struct Contribution {
    score: i64,
    value: i64,
    vur: bool,
}

/// Sums contributions after a cut or median (Art. 14, 16.5). The least
/// significant value is the one of the lowest-scoring opponent, on equal
/// scores the lower value (14.1: BH-C1 drops the lowest opponent score; SB-C1
/// the product of the lowest-scoring opponent — 2024-08: on equal lowest
/// scores the lowest product, 2023: "the one with which the worst result was
/// achieved", the same one); the most significant, which a median also drops,
/// the one of the highest-scoring opponent, then the higher value. 16.5: with
/// VURs each low cut removes the lowest VUR contribution instead, as long as
/// it is not lower than the least significant value (for SB: the higher of
/// the two).
fn cut_sum(mut v: Vec<Contribution>, cut: Cut) -> i64 {
    let (low, high) = cut.dropped();
    let order = |c: &Contribution| (c.score, c.value);
    for _ in 0..low {
        let Some(least) = (0..v.len()).min_by_key(|&k| order(&v[k])) else {
            break;
        };
        let vur = (0..v.len())
            .filter(|&k| v[k].vur)
            .min_by_key(|&k| order(&v[k]));
        let k = match vur {
            Some(u) if v[u].value >= v[least].value => u,
            _ => least,
        };
        v.remove(k);
    }
    for _ in 0..high {
        let Some(most) = (0..v.len()).max_by_key(|&k| order(&v[k])) else {
            break;
        };
        v.remove(most);
    }
    v.iter().map(|c| c.value).sum()
}

/// The standings of `event`: by points, then the tie-breaks in the order given
/// (each applied to the players still tied, C.07 4.1–4.2); players tied on all
/// share the place. A round paired whose games have no result yet counts
/// nothing: the standings are those after the rounds before it.
///
/// ```
/// use arbiter_tournament::tiebreak::{standings, Edition, TieBreak};
/// use arbiter_tournament::{Colour, Event, Player, RoundEntry, RoundResult};
/// let mut e = Event::new("Match", 1);
/// let mut a = Player::new(1, "A", 2000);
/// let mut b = Player::new(2, "B", 2000);
/// a.rounds.push(RoundEntry::game(2, Colour::White, RoundResult::Loss));
/// b.rounds.push(RoundEntry::game(1, Colour::Black, RoundResult::Win));
/// e.players = vec![a, b];
/// let s = standings(&e, &[TieBreak::WinsOverTheBoard], Edition::Fide2026);
/// assert_eq!((s[0].id, s[0].rank, s[0].values[0]), (2, 1, 1.0));
/// ```
pub fn standings(event: &Event, tie_breaks: &[TieBreak], edition: Edition) -> Vec<Standing> {
    let as_paired = event;
    let finished;
    let (event, final_round_pending) = match completed(event) {
        Some((e, round)) => {
            finished = e;
            let last = usize::from(as_paired.total_rounds);
            (
                &finished,
                round == last && as_paired.rounds_played() == last,
            )
        }
        None => (event, false),
    };
    let t = Table::new(event, edition);
    // FB is BH in the world where every paired final-round game was a draw:
    // with the final round paired and not yet played, that world is known
    // already (its games not yet played count as draws, whatever they end).
    let fore_event = tie_breaks
        .iter()
        .any(|tb| matches!(tb, TieBreak::FideBuchholz(_)))
        .then(|| {
            fore(if final_round_pending {
                as_paired
            } else {
                event
            })
        });
    let fore_table = fore_event.as_ref().map(|e| Table::new(e, edition));
    let n = event.players.len();
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); n];
    for tb in tie_breaks {
        if *tb == TieBreak::DirectEncounter {
            continue;
        }
        let (table, tb) = match (tb, &fore_table) {
            (TieBreak::FideBuchholz(cut), Some(f)) => (f, TieBreak::Buchholz(*cut)),
            _ => (&t, *tb),
        };
        for (i, v) in values.iter_mut().enumerate() {
            // + 0.0 turns a negative zero into zero: no "-0" in any output.
            v.push(value(table, i, tb) + 0.0);
        }
    }
    // Order: points, then each tie-break; DE computed within the group tied so far.
    let mut order: Vec<usize> = (0..n).collect();
    let key = |i: usize, upto: usize, de: &[f64]| -> Vec<f64> {
        let mut k = vec![t.scores[i].as_f64()];
        let mut vi = 0;
        for (j, tb) in tie_breaks.iter().enumerate().take(upto) {
            if *tb == TieBreak::DirectEncounter {
                k.push(de[i]);
            } else {
                k.push(values[i][vi]);
                vi += 1;
            }
            let _ = j;
        }
        k
    };
    let mut de = vec![0.0; n];
    let mut de_place = vec![0.0; n];
    for (j, tb) in tie_breaks.iter().enumerate() {
        if *tb != TieBreak::DirectEncounter {
            continue;
        }
        // Groups tied on points and the tie-breaks before this one.
        let mut groups: std::collections::BTreeMap<Vec<i64>, Vec<usize>> = Default::default();
        for i in 0..n {
            let k: Vec<i64> = key(i, j, &de_place)
                .iter()
                .map(|x| (x * 1000.0).round() as i64)
                .collect();
            groups.entry(k).or_default().push(i);
        }
        for g in groups.values() {
            for &i in g {
                de[i] = direct_encounter(&t, i, g);
            }
            for (place, class) in de_classes(&t, g).iter().rev().scan(0usize, |below, c| {
                let p = *below;
                *below += c.len();
                Some((p, c))
            }) {
                for &i in class {
                    de_place[i] = place as f64;
                }
            }
        }
    }
    // The order: DE by its place after re-application to sub-groups (6.1).
    let full = |i: usize| key(i, tie_breaks.len(), &de_place);
    order.sort_by(|&a, &b| {
        full(b)
            .partial_cmp(&full(a))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(event.players[a].id.cmp(&event.players[b].id))
    });
    let mut out: Vec<Standing> = Vec::with_capacity(n);
    for (pos, &i) in order.iter().enumerate() {
        let rank = match out.last() {
            Some(prev) if full(order[pos - 1]) == full(i) => prev.rank,
            _ => pos as u16 + 1,
        };
        let mut vals = Vec::new();
        let mut vi = 0;
        for tb in tie_breaks {
            if *tb == TieBreak::DirectEncounter {
                vals.push(de[i]);
            } else {
                vals.push(values[i][vi]);
                vi += 1;
            }
        }
        out.push(Standing {
            id: event.players[i].id,
            rank,
            points: t.scores[i],
            values: vals,
        });
    }
    out
}

/// The rounds the standings are for: those before the first round with a
/// game still without a result (a round paired, `pair --record`, and not yet
/// played). A game not yet played is neither a game nor an unplayed round
/// (C.07 15.1 is about rounds *played*; PS, 7.5, sums the running scores
/// "after each round"): the standings with round r paired are those after
/// round r − 1, as the arbiter publishes them before round r (FB aside: see
/// `standings`). The event cut before round r, and r; `None` when every game
/// has its result (the event as it is).
fn completed(event: &Event) -> Option<(Event, usize)> {
    let first_pending = event
        .players
        .iter()
        .filter_map(|p| {
            p.rounds
                .iter()
                .position(|e| e.result == RoundResult::Pending)
        })
        .min()?;
    let mut e = event.clone();
    for p in &mut e.players {
        p.rounds.truncate(first_pending);
    }
    Some((e, first_pending + 1))
}

/// The event as Fore Buchholz sees it (C.07 8.3: "BH as if all paired
/// final-round games were draws"): every final-round entry with an opponent —
/// a game, a forfeit, a game not yet played — becomes a draw against that
/// opponent. Everything FB reads is taken in this world, as the TEC's
/// TieBreakServer and Held's exercises do: the opponents' scores and their
/// Art. 16.3 adjustments (a requested bye before a paired final round is no
/// longer followed only by VURs), the dummy opponent's score for the
/// participant's own unplayed rounds (16.4: the participant's FB-adjusted
/// score) and the 2026 caps (a forfeit's scheduled opponent's FB-adjusted
/// score).
fn fore(event: &Event) -> Event {
    let mut fore = event.clone();
    let last = event.rounds_played();
    for p in &mut fore.players {
        if let Some(e) = last.checked_sub(1).and_then(|r| p.rounds.get_mut(r)) {
            if e.opponent.is_some() {
                e.result = RoundResult::Draw;
            }
        }
    }
    fore
}

/// DE (Art. 6.1) with its re-application: the group split by the points
/// scored among its players, then each part still tied split again by the
/// games among its own players only, until no part splits. The classes, best
/// first; the players of a class stay tied for the next tie-break.
fn de_classes(t: &Table, group: &[usize]) -> Vec<Vec<usize>> {
    if group.len() < 2 {
        return vec![group.to_vec()];
    }
    let mut values: Vec<(f64, usize)> = group
        .iter()
        .map(|&i| (direct_encounter(t, i, group), i))
        .collect();
    values.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
    let mut parts: Vec<Vec<usize>> = Vec::new();
    let mut last = f64::NAN;
    for (v, i) in values {
        if parts.is_empty() || (v - last).abs() > 1e-9 {
            parts.push(Vec::new());
            last = v;
        }
        if let Some(p) = parts.last_mut() {
            p.push(i);
        }
    }
    if parts.len() == 1 {
        return parts;
    }
    parts.iter().flat_map(|p| de_classes(t, p)).collect()
}

/// DE (Art. 6): the points scored against the others of the group when every
/// two of them met; when not (6.3, Swiss), the places that are certain
/// whatever the missing results.
fn direct_encounter(t: &Table, i: usize, group: &[usize]) -> f64 {
    if group.len() < 2 {
        return 0.0;
    }
    let s = &t.event.scoring;
    let counted = Counted::of(TieBreak::DirectEncounter, t.edition, t.pre_determined);
    let ids: Vec<u16> = group.iter().map(|&g| t.event.players[g].id).collect();
    // Each player's points against the others of the group (6.1.2: repeated
    // meetings count as their average), and how many of them they did not meet.
    let score = |g: usize| -> (f64, usize) {
        let mut per_opp: std::collections::HashMap<u16, (f64, u32)> = Default::default();
        for e in &t.entries[g] {
            if let Some(o) = e.opponent {
                if t.is_game(e, counted) && ids.contains(&o) {
                    let x = per_opp.entry(o).or_default();
                    x.0 += s.points(e.result).as_f64();
                    x.1 += 1;
                }
            }
        }
        let total = per_opp.values().map(|(sum, k)| sum / f64::from(*k)).sum();
        (total, ids.len() - 1 - per_opp.len())
    };
    let scores: Vec<(f64, usize)> = group.iter().map(|&g| score(g)).collect();
    // In a round-robin the games among them are all the DE there is (15.2;
    // 6.3 is for Swiss events); one still in progress counts those played.
    if t.pre_determined || scores.iter().all(|x| x.1 == 0) {
        return scores[group.iter().position(|&g| g == i).unwrap_or(0)].0;
    }
    // 6.3 (Swiss, not all met): a player who is first whatever the missing
    // results ranks first, then the same for second among the rest, and so
    // on; those left are not separated. The value is the place from the
    // bottom (higher is better), 0 for those left tied.
    let win = s.win.as_f64();
    let mut left: Vec<usize> = (0..group.len()).collect();
    let mut place = group.len();
    while left.len() > 1 {
        // The lowest a player can end with, against the highest any other can.
        let first = left.iter().copied().find(|&a| {
            left.iter()
                .all(|&b| b == a || scores[a].0 > scores[b].0 + win * scores[b].1 as f64)
        });
        let Some(a) = first else { break };
        if group[a] == i {
            return place as f64;
        }
        left.retain(|&x| x != a);
        place -= 1;
    }
    0.0
}

fn value(t: &Table, i: usize, tb: TieBreak) -> f64 {
    let s = &t.event.scoring;
    let entries = &t.entries[i];
    let counted = Counted::of(tb, t.edition, t.pre_determined);
    let game = |e: &&RoundEntry| t.is_game(e, counted);
    let won = |e: &RoundEntry| {
        matches!(
            e.result,
            RoundResult::Win | RoundResult::WinShort | RoundResult::ForfeitWin
        )
    };
    let tenths = |x: i64| x as f64 / 10.0;
    match tb {
        TieBreak::Buchholz(cut) => {
            let v = t.opponent_values(i, &t.adjusted);
            tenths(cut_sum(buchholz_contributions(&v), cut))
        }
        // `standings` computes FB as BH of the event `fore` makes.
        TieBreak::FideBuchholz(cut) => value(t, i, TieBreak::Buchholz(cut)),
        TieBreak::SonnebornBerger(cut) => {
            let v = t.opponent_values(i, &t.adjusted);
            // opponent score × points scored, in hundredths of a point²
            let c: Vec<Contribution> = v
                .iter()
                .map(|x| Contribution {
                    score: i64::from(x.0 .0),
                    value: i64::from(x.0 .0) * i64::from(x.2 .0),
                    vur: x.1,
                })
                .collect();
            cut_sum(c, cut) as f64 / (10.0 * f64::from(s.win.0.max(1)))
        }
        TieBreak::Wins => entries
            .iter()
            .filter(|e| s.points(e.result) >= s.win && s.win > s.draw)
            .count() as f64,
        TieBreak::WinsOverTheBoard => entries.iter().filter(game).filter(|e| won(e)).count() as f64,
        TieBreak::GamesWithBlack => entries
            .iter()
            .filter(game)
            .filter(|e| e.colour == Some(crate::Colour::Black))
            .count() as f64,
        TieBreak::WinsWithBlack => entries
            .iter()
            .filter(game)
            .filter(|e| e.colour == Some(crate::Colour::Black) && won(e))
            .count() as f64,
        TieBreak::Progressive(cut) => {
            let mut run = 0i64;
            let mut c = Vec::new();
            for e in entries {
                run += i64::from(s.points(e.result).0);
                c.push(run);
            }
            // Cut-1 drops the first running score (the least significant).
            let drop = match cut {
                Cut::Cut1 => 1,
                Cut::Cut2 => 2,
                _ => 0,
            };
            tenths(c.iter().skip(drop).sum())
        }
        TieBreak::AverageRatingOfOpponents(cut) => {
            let mut r = opponents_ratings(t, i, counted);
            if r.is_empty() {
                return 0.0;
            }
            r.sort();
            let (low, high) = cut.dropped();
            let kept: Vec<i64> = r
                .iter()
                .copied()
                .skip(low)
                .take(r.len().saturating_sub(low + high))
                .collect();
            if kept.is_empty() {
                return 0.0;
            }
            round_half_up(kept.iter().sum::<i64>() as f64 / kept.len() as f64) as f64
        }
        TieBreak::PerformanceRating => {
            // 10.2: p is the score against the opponents ARO averages, the
            // rated ones; points against an unrated opponent count for neither.
            // p is a game score (B.02 8.1.1: 1 a win, ½ a draw, 0 a loss),
            // whatever points the event gives: under 3/1/0 a draw is ½, not ⅓.
            let rated: Vec<(i64, f64)> = t.entries[i]
                .iter()
                .filter(|e| t.is_game(e, counted))
                .filter_map(|e| {
                    let rating = e.opponent.and_then(|o| t.event.player(o))?.rating;
                    (rating > 0).then(|| (i64::from(rating), game_score(e.result)))
                })
                .collect();
            if rated.is_empty() {
                return 0.0;
            }
            let n = rated.len();
            let aro = round_half_up(rated.iter().map(|r| r.0).sum::<i64>() as f64 / n as f64);
            let pts: f64 = rated.iter().map(|r| r.1).sum();
            f64::from(crate::rating::performance(aro as i32, pts, n as u32).unwrap_or(0))
        }
        TieBreak::Koya => {
            // The maximum possible score: a win in every round; in a
            // round-robin in every scheduled game (an odd number's free
            // round is no game, 15.2).
            let games = if t.pre_determined {
                t.entries
                    .iter()
                    .map(|es| es.iter().filter(|e| e.opponent.is_some()).count())
                    .max()
                    .unwrap_or(0)
            } else {
                t.rounds
            };
            let max = s.win.0 * games as i32;
            // Summed in tenths: a float sum of no games would be −0.0.
            let points: Points = entries
                .iter()
                .filter(game)
                .filter(|e| {
                    e.opponent
                        .and_then(|o| t.index(o))
                        .is_some_and(|o| t.scores[o].0 * 2 >= max)
                })
                .map(|e| s.points(e.result))
                .sum();
            points.as_f64()
        }
        TieBreak::DirectEncounter => 0.0,
    }
}

/// BH and FB: each round contributes the opponent's score itself.
fn buchholz_contributions(v: &[(Points, bool, Points)]) -> Vec<Contribution> {
    v.iter()
        .map(|x| Contribution {
            score: i64::from(x.0 .0),
            value: i64::from(x.0 .0),
            vur: x.1,
        })
        .collect()
}

/// The score of a game counted for TPR (C.07 10.2, B.02 8.1.1): 1 for a
/// win, ½ for a draw, 0 for a loss, over the board or (where C.07 15.2 counts
/// forfeits as games) by forfeit — not the event's points for it.
fn game_score(r: RoundResult) -> f64 {
    match r {
        RoundResult::Win | RoundResult::WinShort | RoundResult::ForfeitWin => 1.0,
        RoundResult::Draw | RoundResult::DrawShort => 0.5,
        _ => 0.0,
    }
}

fn opponents_ratings(t: &Table, i: usize, counted: Counted) -> Vec<i64> {
    t.entries[i]
        .iter()
        .filter(|e| t.is_game(e, counted))
        .filter_map(|e| e.opponent.and_then(|o| t.event.player(o)))
        .filter(|p| p.rating > 0)
        .map(|p| i64::from(p.rating))
        .collect()
}

fn round_half_up(x: f64) -> i64 {
    (x + 0.5 + 1e-9).floor() as i64
}
