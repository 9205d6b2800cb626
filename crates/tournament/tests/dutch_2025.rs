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
