//! What the Dutch system needs to know of each player before a round:
//! pairing score, colour history and preference, floats, bye eligibility
//! (C.04.1, C.04.2 3.4, C.04.3 Art. 1).

use crate::model::{Colour, Event, Points, RoundResult};
use std::collections::HashSet;

/// Which edition of C.04.3 (and of C.04.1's bye rule) applies.
///
/// ```
/// use arbiter_tournament::dutch::Rules;
/// assert_eq!(Rules::default(), Rules::Fide2025);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rules {
    /// The rules approved in 2025, in force from 1 February 2026 (C5, C9, the
    /// new float and bye definitions).
    #[default]
    Fide2025,
    /// The rules of 2017 (Baku 2016 + Goynuk 2017), in force till 31 January 2026.
    Fide2017,
}

/// A float in an earlier round (C.04.3 1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    /// Paired with a lower score, or scored without playing.
    Down,
    /// Paired with a higher score.
    Up,
    /// Neither.
    None,
}

/// The strength of a colour preference (C.04.3 1.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// No game played yet.
    None,
    /// Colour difference 0: alternate.
    Mild,
    /// Colour difference ±1.
    Strong,
    /// Colour difference beyond ±1, or the same colour twice in a row.
    Absolute,
}

/// One player to be paired.
#[derive(Debug, Clone)]
pub struct Entrant {
    /// Starting rank (TPN).
    pub id: u16,
    /// The pairing number the colour allocation reads (C.04.3 5.2.5): the
    /// rank among the players who have entered the event by this round (see
    /// [`pairing_numbers`]); the starting rank when everyone has.
    pub number: u16,
    /// Pairing score: points plus any acceleration points.
    pub score: Points,
    /// Colours of the games played, in order (unplayed rounds left out, C.04.2 3.4).
    pub colours: Vec<Colour>,
    /// Whites minus blacks.
    pub difference: i32,
    /// The colour preferred, if any.
    pub preference: Option<Colour>,
    /// How strongly.
    pub strength: Strength,
    /// The colour of the last two games when they were the same.
    pub repeated: Option<Colour>,
    /// The float of each earlier round, from round 1.
    pub floats: Vec<Float>,
    /// Opponents met over the board.
    pub met: HashSet<u16>,
    /// May receive the pairing-allocated bye (C.04.1 rule 4; C.04.3 C2).
    pub bye_eligible: bool,
    /// Rounds without a game played.
    pub unplayed: u32,
    /// A topscorer in the final round (C.04.3 1.8).
    pub topscorer: bool,
}

impl Entrant {
    /// The float `back` rounds before the round being paired (1 = the previous round).
    pub fn float(&self, back: usize) -> Float {
        self.floats
            .len()
            .checked_sub(back)
            .map_or(Float::None, |i| self.floats[i])
    }
    /// Whether the colour difference is beyond ±1.
    pub fn absolute_imbalance(&self) -> bool {
        self.difference.abs() > 1
    }
}

/// Whether a round entry is a decision made before the pairing that takes the
/// player out of it (a requested bye, a known absence, a withdrawal).
pub(crate) fn is_absence(e: &crate::RoundEntry) -> bool {
    e.opponent.is_none() && e.result != RoundResult::PairingBye
}

/// The pairing numbers of round `round` (1-based), by index in `event.players`:
/// C.04.3 (2025) 1.2 / (2017) A.2 b number the players by "the initial
/// ranking list and subsequent modifications depending on possible late
/// entries", so a player who has not entered yet holds no number and the
/// players below are numbered without him; when he enters, his starting rank
/// moves them down again. A TRF does not mark late entries: a player counts as
/// not yet entered when he is not paired in this round and was not paired in
/// any round before (no opponent, no pairing-allocated bye, no forfeit win),
/// as bbpPairings reads it (its "effective pairing number").
///
/// ```
/// use arbiter_tournament::{dutch, Event, Player, RoundEntry, RoundResult};
/// let mut e = Event::new("Club", 5);
/// for i in 1..=4 {
///     e.players.push(Player::new(i, &format!("P{i}"), 2000 - i * 10));
/// }
/// // Player 2 enters late: not there in round 1.
/// e.players[1].rounds.push(RoundEntry::bye(RoundResult::ZeroBye));
/// assert_eq!(dutch::pairing_numbers(&e, 1), vec![Some(1), None, Some(2), Some(3)]);
/// ```
pub fn pairing_numbers(event: &Event, round: usize) -> Vec<Option<u16>> {
    let entered = |p: &crate::Player| {
        !p.round(round).is_some_and(is_absence)
            || p.rounds.iter().take(round.saturating_sub(1)).any(|e| {
                e.opponent.is_some()
                    || matches!(e.result, RoundResult::PairingBye | RoundResult::ForfeitWin)
            })
    };
    let mut order: Vec<usize> = (0..event.players.len()).collect();
    order.sort_by_key(|&i| event.players[i].id);
    let mut numbers = vec![None; event.players.len()];
    let mut next = 1u16;
    for i in order {
        if entered(&event.players[i]) {
            numbers[i] = Some(next);
            next += 1;
        }
    }
    numbers
}

/// The players of round `round` (1-based) with the state the rounds before it give.
pub fn entrants(event: &Event, round: usize, rules: Rules) -> Vec<Entrant> {
    let numbers = pairing_numbers(event, round);
    let scoring = event.scoring;
    let virt = |id: u16, r: usize| {
        event
            .acceleration
            .as_ref()
            .map_or(Points::ZERO, |a| a.virtual_points(id, r, scoring))
    };
    let before = round - 1;
    // pairing scores before each round k (index k-1), with acceleration
    let pre: Vec<Vec<Points>> = event
        .players
        .iter()
        .map(|p| {
            let mut s = Points::ZERO;
            let mut v = Vec::with_capacity(round);
            for k in 1..=round {
                v.push(s + virt(p.id, k));
                if let Some(e) = p.round(k) {
                    s += scoring.points(e.result);
                }
            }
            v
        })
        .collect();
    let index_of = |id: u16| event.players.iter().position(|p| p.id == id);
    let max_unit = scoring.win.max(scoring.draw);
    let threshold = Points(before as i32 * max_unit.0);
    let final_round = before + 1 >= event.total_rounds as usize && event.total_rounds > 0;
    let mut out = Vec::new();
    for (pi, p) in event.players.iter().enumerate() {
        if p.round(round).is_some_and(is_absence) {
            continue;
        }
        let mut colours = Vec::new();
        let mut floats = Vec::new();
        let mut met = HashSet::new();
        let mut bye_eligible = true;
        let mut unplayed = 0;
        for k in 1..=before {
            let e = p
                .round(k)
                .copied()
                .unwrap_or(crate::RoundEntry::bye(RoundResult::ZeroBye));
            let pts = scoring.points(e.result);
            if e.is_played() {
                if let Some(c) = e.colour {
                    colours.push(c);
                }
                let o = e.opponent.expect("played");
                met.insert(o);
                let os = index_of(o).map_or(Points::ZERO, |oi| pre[oi][k - 1]);
                let ms = pre[pi][k - 1];
                floats.push(if ms > os {
                    Float::Down
                } else if ms < os {
                    Float::Up
                } else {
                    Float::None
                });
            } else {
                unplayed += 1;
                let down = match rules {
                    Rules::Fide2025 => pts > scoring.loss,
                    Rules::Fide2017 => true,
                };
                floats.push(if down { Float::Down } else { Float::None });
                match rules {
                    Rules::Fide2025 => {
                        if pts >= scoring.win || e.result == RoundResult::PairingBye {
                            bye_eligible = false;
                        }
                    }
                    Rules::Fide2017 => {
                        if matches!(e.result, RoundResult::PairingBye | RoundResult::ForfeitWin) {
                            bye_eligible = false;
                        }
                    }
                }
            }
        }
        let whites = colours.iter().filter(|&&c| c == Colour::White).count() as i32;
        let difference = whites - (colours.len() as i32 - whites);
        let last = colours.last().copied();
        let repeated = match colours.as_slice() {
            [.., a, b] if a == b => Some(*a),
            _ => None,
        };
        let (preference, strength) = if colours.is_empty() {
            (None, Strength::None)
        } else if difference > 1 {
            (Some(Colour::Black), Strength::Absolute)
        } else if difference < -1 {
            (Some(Colour::White), Strength::Absolute)
        } else if let Some(c) = repeated {
            (Some(c.opposite()), Strength::Absolute)
        } else if difference == 1 {
            (Some(Colour::Black), Strength::Strong)
        } else if difference == -1 {
            (Some(Colour::White), Strength::Strong)
        } else {
            (last.map(Colour::opposite), Strength::Mild)
        };
        let score = pre[pi][round - 1];
        out.push(Entrant {
            id: p.id,
            number: numbers[pi].unwrap_or(p.id),
            score,
            colours,
            difference,
            preference,
            strength,
            repeated,
            floats,
            met,
            bye_eligible,
            unplayed,
            topscorer: final_round && score > Points(threshold.0 / 2),
        });
    }
    out
}
