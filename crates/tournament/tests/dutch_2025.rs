//! Criteria of the 2025 Dutch rules (C.04.3, in force from 1 February 2026)
//! on small hand-made events whose pairing the rules fix.

use arbiter_tournament::dutch::{self, Options};
use arbiter_tournament::{Colour, Event, Player, RoundEntry, RoundResult};

fn game(e: &mut Event, round: usize, white: u16, black: u16, result: RoundResult) {
    for (me, opp, c, r) in [
        (white, black, Colour::White, result),
        (black, white, Colour::Black, result.reversed()),
    ] {
        let p = e.player_mut(me).unwrap();
        assert_eq!(p.rounds.len(), round - 1);
        p.rounds.push(RoundEntry::game(opp, c, r));
    }
}

/// Five players; #5 was absent in round 1 (`0000 - Z`); #1 and #2 won.
fn c9_event() -> Event {
    let mut e = Event::new("C9", 5);
    for i in 1..=5u16 {
        e.players
            .push(Player::new(i, &format!("P{i}"), 2100 - i * 20));
    }
    e.player_mut(5)
        .unwrap()
        .rounds
        .push(RoundEntry::bye(RoundResult::ZeroBye));
    game(&mut e, 1, 1, 3, RoundResult::Win);
    game(&mut e, 1, 4, 2, RoundResult::Loss);
    e
}

#[test]
fn c9_the_pab_goes_to_a_player_with_fewest_unplayed_games() {
    // #3, #4 and #5 are on 0 points; C5 leaves all three; C9 (fewest unplayed
    // games) rules out #5, who missed round 1; the lowest of #3/#4 gets it.
    let round = dutch::pair(&c9_event(), Options::default()).unwrap();
    assert_eq!(round.pairs, vec![(2, 1), (3, 5)]);
    assert_eq!(round.bye, Some(4));
}

/// Generated tournament `t00500` of the oracle test (16 players), rounds 1-9;
/// round 10 is the last. Before it, the 3.5 bracket holds the MDPs 3 (8½),
/// 6 and 2 (6), 4 (5½), 7 (4) and the residents 11 and 9 (3½); below are
/// 16, 15, 13, 12 (3) and 14 (2½), none of whom may meet another, so C4
/// leaves one pair to the bracket, and 11 (who can meet none of the five)
/// must be in it: 11-7 or 11-9. C7 (the downfloaters' scores, in descending
/// order) chooses 11-7: 8½ 6 6 5½ 3½ floats rather than 8½ 6 6 5½ 4. Six
/// scores meet in that bracket and the next; C7 must tell all apart.
#[test]
fn c7_the_lower_scored_downfloater_with_six_scores_in_the_bracket() {
    let text = include_str!("fixtures/c7_t00500_round10.trf");
    let event = arbiter_tournament::trf::read(text).unwrap();
    let round = dutch::pair(&event, Options::default()).unwrap();
    assert_eq!(round.round, 10);
    assert_eq!(round.bye, None);
    let mut pairs: Vec<(u16, u16)> = round
        .pairs
        .iter()
        .map(|&(w, b)| (w.min(b), w.max(b)))
        .collect();
    pairs.sort();
    // caissify-pairings' pairing of the round.
    assert_eq!(
        pairs,
        vec![
            (1, 10),
            (2, 12),
            (3, 16),
            (4, 14),
            (5, 8),
            (6, 15),
            (7, 11),
            (9, 13)
        ]
    );
}

/// Hand-made, round 4 of 5: players 6-10 are absent, so 1, 2, 3 (2½) and
/// 4, 5 (1) are paired. 4 and 5 scored a forfeit win, so may not get the PAB
/// (C2); the PAB goes to a 2½ player (C5), and the top bracket {1, 2, 3},
/// where nobody has met, downfloats exactly one player, who gets it, while
/// 4-5 is the last bracket. #3 missed round 1 (half-point bye); C9 (fewest
/// unplayed games) keeps #3 out of the PAB, where the order of generation
/// alone (1-2, #3 floating) would give it. Then C12: 3-1 grants both
/// preferences (2-3 would not), so the PAB goes to #2.
#[test]
fn c9_applies_in_a_bracket_above_the_last() {
    let text = include_str!("fixtures/c9_top_bracket.trf");
    let event = arbiter_tournament::trf::read(text).unwrap();
    let round = dutch::pair_round(&event, 4, Options::default()).unwrap();
    assert_eq!(round.pairs, vec![(3, 1), (5, 4)]);
    assert_eq!(round.bye, Some(2));
}

/// Found by the comparison with bbpPairings (generated events with late
/// entries and absences, 2026-12-04): #2 enters in round 2, so round 1 pairs
/// 1, 3, 4, 5, 6. C.04.3 5.2.5 gives the initial colour to a higher-ranked
/// player with an odd pairing number, and the pairing numbers follow "the
/// initial ranking list and subsequent modifications depending on possible
/// late entries" (1.2; 2017 A.2 b): until #2 enters, #3 holds number 2, so
/// #3 gets Black against #5 (Arbiter gave White by the starting rank 3).
#[test]
fn e5_a_late_entry_holds_no_pairing_number_before_entering() {
    let text = include_str!("fixtures/late_entry_round1.trf");
    let event = arbiter_tournament::trf::read(text).unwrap();
    let round = dutch::pair_round(&event, 1, Options::default()).unwrap();
    assert_eq!(round.pairs, vec![(1, 4), (5, 3)]);
    assert_eq!(round.bye, Some(6));
}

/// Once #2 of the event above has been paired, he holds his number, also in
/// a round he misses.
#[test]
fn e5_a_player_once_paired_keeps_his_pairing_number() {
    let text = include_str!("fixtures/late_entry_round1.trf");
    let event = arbiter_tournament::trf::read(text).unwrap();
    assert_eq!(
        dutch::pairing_numbers(&event, 1),
        vec![Some(1), None, Some(2), Some(3), Some(4), Some(5)]
    );
    let mut later = event.clone();
    let played = RoundEntry::game(6, Colour::White, RoundResult::Win);
    later.player_mut(2).unwrap().rounds = vec![RoundEntry::bye(RoundResult::ZeroBye), played];
    later
        .player_mut(2)
        .unwrap()
        .rounds
        .push(RoundEntry::bye(RoundResult::ZeroBye));
    let numbers = dutch::pairing_numbers(&later, 3);
    assert_eq!(
        numbers,
        vec![Some(1), Some(2), Some(3), Some(4), Some(5), Some(6)]
    );
}
