//! The free pairings checker (C.04 A.4): rebuild the event round by round,
//! pair each round with the Dutch system, and say whether the pairing in the
//! file is the one the rules give, colours included (C.04.3 Art. 5), and
//! where not, what differs.

use crate::dutch::{self, Options, PairError};
use crate::model::{Colour, Event, RoundResult};
use std::collections::BTreeSet;

/// A pairing as a set: pairs `(white, black)` and the PAB. A pair whose
/// colours the file does not give (a forfeit written without colours) is kept
/// apart, lower id first, and compared without colours.
struct PairSet {
    coloured: BTreeSet<(u16, u16)>,
    uncoloured: BTreeSet<(u16, u16)>,
    bye: Option<u16>,
}

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
    /// Pairs `(white, black)` in the file the rules do not give (`(a, 0)` is
    /// a PAB); a pair with the colours the other way round is in both lists.
    pub only_in_file: Vec<(u16, u16)>,
    /// Pairs `(white, black)` the rules give that the file does not have.
    pub only_by_rules: Vec<(u16, u16)>,
    /// When the round could not be paired at all.
    pub error: Option<String>,
}

/// The pairing recorded in the file for round `round`.
fn recorded(event: &Event, round: usize) -> PairSet {
    let mut set = PairSet {
        coloured: BTreeSet::new(),
        uncoloured: BTreeSet::new(),
        bye: None,
    };
    let colour_of = |id: u16| {
        event
            .player(id)
            .and_then(|p| p.round(round))
            .and_then(|e| e.colour)
    };
    for p in &event.players {
        if let Some(e) = p.round(round) {
            match e.opponent {
                Some(o) => match (e.colour, colour_of(o)) {
                    (Some(Colour::White), _) => {
                        set.coloured.insert((p.id, o));
                    }
                    (None, Some(Colour::Black)) => {
                        set.coloured.insert((p.id, o));
                    }
                    (Some(Colour::Black), _) | (None, Some(Colour::White)) => {}
                    (None, None) => {
                        set.uncoloured.insert((p.id.min(o), p.id.max(o)));
                    }
                },
                None if e.result == RoundResult::PairingBye => set.bye = Some(p.id),
                None => {}
            }
        }
    }
    set
}

/// Checks every round of the event against the Dutch system.
///
/// ```
/// use arbiter_tournament::{check, generate};
/// let e = generate::generate(&generate::Config { players: 9, rounds: 4, seed: 3, ..Default::default() }).unwrap();
/// assert!(check::check(&e, Default::default()).iter().all(|r| r.ok));
/// ```
pub fn check(event: &Event, options: Options) -> Vec<RoundCheck> {
    // A round a player's line holds no entry for (it ends before the round,
    // as a withdrawn player's often does) is a round he was not paired in:
    // absent, as a blank entry or `0000 - Z` says (TRF-16). `pair_round`
    // counts a missing entry as present — right for the round about to be
    // paired, where nobody has one yet — so the rounds the file holds are
    // filled with zero-point byes first. The standings read a missing entry
    // as a zero-point round already.
    let mut event = event.clone();
    let rounds = event.rounds_played();
    for p in &mut event.players {
        p.fill_absent(rounds);
    }
    let event = &event;
    (1..=event.rounds_played())
        .map(|round| {
            let file = recorded(event, round);
            match dutch::pair_round(event, round, options) {
                Ok(p) => {
                    // The rules' pairs, compared with colours where the file
                    // gives them and without where it does not.
                    let unordered = |&(a, b): &(u16, u16)| (a.min(b), a.max(b));
                    let ours: BTreeSet<(u16, u16)> = p
                        .pairs
                        .iter()
                        .copied()
                        .filter(|q| !file.uncoloured.contains(&unordered(q)))
                        .chain(
                            p.pairs
                                .iter()
                                .map(unordered)
                                .filter(|q| file.uncoloured.contains(q)),
                        )
                        .collect();
                    let file_pairs: BTreeSet<(u16, u16)> =
                        file.coloured.union(&file.uncoloured).copied().collect();
                    let mut only_in_file: Vec<(u16, u16)> =
                        file_pairs.difference(&ours).copied().collect();
                    let mut only_by_rules: Vec<(u16, u16)> =
                        ours.difference(&file_pairs).copied().collect();
                    if file.bye != p.bye {
                        if let Some(b) = file.bye {
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
                    only_in_file: file.coloured.union(&file.uncoloured).copied().collect(),
                    only_by_rules: Vec::new(),
                    error: Some(match e {
                        PairError::NoValidPairing(m) | PairError::Event(m) => m,
                        PairError::Invalid(e) => e.to_string(),
                    }),
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, Config};

    /// A player whose line ends before a round was not paired in it: the
    /// checker treats him as absent (C.04.2 3.2: withdrawn players are not
    /// paired; TRF-16: a blank round entry is a zero-point bye), as it does
    /// `0000 - Z`. A generated event where some players withdraw, checked
    /// with the withdrawn rounds written as zero-point byes and with the
    /// lines cut short after the last round played: the same verdict, every
    /// round as the rules give. (Before, the cut lines' players were paired
    /// again and the rounds after their withdrawal differed.)
    #[test]
    fn a_line_that_ends_early_is_absent_from_the_rounds_after_it() {
        let mut found = false;
        for seed in 0..40 {
            let e = generate(&Config {
                players: 12,
                rounds: 5,
                withdraw_rate: 0.1,
                seed,
                ..Default::default()
            })
            .unwrap();
            let mut cut = e.clone();
            let mut any = false;
            for p in &mut cut.players {
                let last = p
                    .rounds
                    .iter()
                    .rposition(|r| r.opponent.is_some() || r.result != RoundResult::ZeroBye);
                let keep = last.map_or(0, |k| k + 1);
                if keep >= 1 && keep < p.rounds.len() {
                    p.rounds.truncate(keep);
                    any = true;
                }
            }
            if !any || cut.rounds_played() != e.rounds_played() {
                continue;
            }
            found = true;
            assert!(check(&e, Options::default()).iter().all(|r| r.ok));
            let report = check(&cut, Options::default());
            assert!(report.iter().all(|r| r.ok), "seed {seed}: {report:?}");
        }
        assert!(found, "no generated event had a line to cut");
    }

    /// The right pairs with one board's colours the other way round are not
    /// the pairing the rules give (C.04.3 Art. 5 allocates the colours).
    #[test]
    fn colours_the_other_way_round_are_a_difference() {
        let mut e = generate(&Config {
            players: 10,
            rounds: 3,
            seed: 11,
            ..Default::default()
        })
        .unwrap();
        assert!(check(&e, Options::default()).iter().all(|r| r.ok));
        let p = e
            .players
            .iter()
            .find(|p| p.rounds[1].opponent.is_some())
            .unwrap();
        let (a, b) = (p.id, p.rounds[1].opponent.unwrap());
        for id in [a, b] {
            let entry = &mut e.player_mut(id).unwrap().rounds[1];
            entry.colour = entry.colour.map(Colour::opposite);
        }
        let report = check(&e, Options::default());
        let r2 = &report[1];
        assert!(!r2.ok);
        let white = if e.player(a).unwrap().rounds[1].colour == Some(Colour::White) {
            a
        } else {
            b
        };
        let black = if white == a { b } else { a };
        assert_eq!(r2.only_in_file, vec![(white, black)]);
        assert_eq!(r2.only_by_rules, vec![(black, white)]);
    }
}
