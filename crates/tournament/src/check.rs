//! The free pairings checker (C.04 A.4): rebuild the event round by round,
//! pair each round with the Dutch system, and say whether the pairing in the
//! file is the one the rules give, and where not, what differs.

use crate::dutch::{self, Options, PairError};
use crate::model::{Event, RoundResult};
use std::collections::BTreeSet;

/// A pairing as a set: unordered pairs (lower id first) and the PAB.
type PairSet = (BTreeSet<(u16, u16)>, Option<u16>);

/// The verdict on one round.
///
/// ```
/// use arbiter_tournament::check::RoundCheck;
/// let r = RoundCheck { round: 1, ok: true, only_in_file: vec![], only_by_rules: vec![], error: None };
/// assert!(r.ok);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundCheck {
    /// The round.
    pub round: usize,
    /// Whether the file's pairing is the one the rules give.
    pub ok: bool,
    /// Pairs in the file the rules do not give (`(a, 0)` is a PAB).
    pub only_in_file: Vec<(u16, u16)>,
    /// Pairs the rules give that the file does not have.
    pub only_by_rules: Vec<(u16, u16)>,
    /// When the round could not be paired at all.
    pub error: Option<String>,
}

/// The pairing recorded in the file for round `round`.
fn recorded(event: &Event, round: usize) -> PairSet {
    let mut pairs = BTreeSet::new();
    let mut bye = None;
    for p in &event.players {
        if let Some(e) = p.round(round) {
            match e.opponent {
                Some(o) => {
                    pairs.insert((p.id.min(o), p.id.max(o)));
                }
                None if e.result == RoundResult::PairingBye => bye = Some(p.id),
                None => {}
            }
        }
    }
    (pairs, bye)
}

/// Checks every round of the event against the Dutch system.
///
/// ```
/// use arbiter_tournament::{check, generate};
/// let e = generate::generate(&generate::Config { players: 9, rounds: 4, seed: 3, ..Default::default() });
/// assert!(check::check(&e, Default::default()).iter().all(|r| r.ok));
/// ```
pub fn check(event: &Event, options: Options) -> Vec<RoundCheck> {
    (1..=event.rounds_played())
        .map(|round| {
            let (file_pairs, file_bye) = recorded(event, round);
            match dutch::pair_round(event, round, options) {
                Ok(p) => {
                    let ours: BTreeSet<(u16, u16)> =
                        p.pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
                    let mut only_in_file: Vec<(u16, u16)> =
                        file_pairs.difference(&ours).copied().collect();
                    let mut only_by_rules: Vec<(u16, u16)> =
                        ours.difference(&file_pairs).copied().collect();
                    if file_bye != p.bye {
                        if let Some(b) = file_bye {
                            only_in_file.push((b, 0));
                        }
                        if let Some(b) = p.bye {
                            only_by_rules.push((b, 0));
                        }
                    }
                    RoundCheck {
                        round,
                        ok: only_in_file.is_empty() && only_by_rules.is_empty(),
                        only_in_file,
                        only_by_rules,
                        error: None,
                    }
                }
                Err(e) => RoundCheck {
                    round,
                    ok: false,
                    only_in_file: file_pairs.into_iter().collect(),
                    only_by_rules: Vec::new(),
                    error: Some(match e {
                        PairError::NoValidPairing(m) | PairError::Event(m) => m,
                    }),
                },
            }
        })
        .collect()
}
