//! Tie-breaks (C.07) on events worked by hand; the expected values are
//! computed in the comments, from the definitions of C.07 Art. 6–10 and the
//! unplayed-round rules of Art. 16.

use arbiter_tournament::tiebreak::{standings, Cut, Edition, TieBreak};
use arbiter_tournament::{Colour, Event, Player, RoundEntry, RoundResult};

/// Adds a game of round `r`: white, black, white's result.
fn game(e: &mut Event, r: usize, w: u16, b: u16, res: RoundResult) {
    set(e, r, w, RoundEntry::game(b, Colour::White, res));
    set(e, r, b, RoundEntry::game(w, Colour::Black, res.reversed()));
}
fn set(e: &mut Event, r: usize, id: u16, entry: RoundEntry) {
    let p = e.player_mut(id).unwrap();
    while p.rounds.len() < r {
        p.rounds.push(RoundEntry::bye(RoundResult::ZeroBye));
    }
    p.rounds[r - 1] = entry;
}

fn values(e: &Event, tbs: &[TieBreak], ed: Edition) -> Vec<(u16, u16, f64, Vec<f64>)> {
    standings(e, tbs, ed)
        .into_iter()
        .map(|s| (s.id, s.rank, s.points.as_f64(), s.values))
        .collect()
}

/// A double-checked 4-player round-robin (Berger table, C.05):
/// R1 1-4 1-0, 2-3 ½; R2 4-3 0-1, 1-2 0-1; R3 2-4 ½, 3-1 ½.
/// Scores: 1 1.5, 2 2.0, 3 2.0, 4 0.5. Ratings 2000, 1900, 1800, 1700.
fn round_robin() -> Event {
    let mut e = Event::new("RR", 3);
    for (i, r) in [2000, 1900, 1800, 1700].iter().enumerate() {
        e.players
            .push(Player::new(i as u16 + 1, &format!("P{}", i + 1), *r));
    }
    use RoundResult::*;
    game(&mut e, 1, 1, 4, Win);
    game(&mut e, 1, 2, 3, Draw);
    game(&mut e, 2, 4, 3, Loss);
    game(&mut e, 2, 1, 2, Loss);
    game(&mut e, 3, 2, 4, Draw);
    game(&mut e, 3, 3, 1, Draw);
    e
}

#[test]
fn round_robin_buchholz_sonneborn_berger_koya_and_others() {
    let e = round_robin();
    let tbs = [
        TieBreak::SonnebornBerger(Cut::None),
        TieBreak::Buchholz(Cut::None),
        TieBreak::Buchholz(Cut::Cut1),
        TieBreak::Koya,
        TieBreak::Wins,
        TieBreak::GamesWithBlack,
        TieBreak::WinsWithBlack,
        TieBreak::Progressive(Cut::None),
        TieBreak::AverageRatingOfOpponents(Cut::None),
        TieBreak::PerformanceRating,
    ];
    let v = values(&e, &tbs, Edition::Fide2026);
    // SB: 2 = ½·2 (vs 3) + 1·1.5 (vs 1) + ½·0.5 (vs 4) = 2.75; 3 = ½·2 + 1·0.5 + ½·1.5 = 2.25;
    // 1 = 1·0.5 + 0 + ½·2 = 1.5; 4 = ½·2 = 1.0.
    // BH: 2 = 2 + 1.5 + 0.5 = 4.0; 3 = 4.0; 1 = 0.5 + 2 + 2 = 4.5; 4 = 1.5 + 2 + 2 = 5.5; Cut-1 drops the lowest.
    // KS (≥ 1.5 of 3): 2 = ½ + 1 = 1.5; 3 = ½ + ½ = 1; 1 = 0 + ½; 4 = ½ (vs 2).
    // BPG: 1 (R3), 2 (R2), 3 (R1, R2), 4 (R1, R3); BWG: 2 and 3 won with Black in R2.
    // PS: 1 = 1 + 1 + 1.5 = 3.5; 2 = .5 + 1.5 + 2 = 4; 3 = 4; 4 = 0 + 0 + .5.
    // ARO: 1 = (1700+1900+1800)/3 = 1800, TPR 1800 + dp(.50) = 1800;
    //      2 = (1800+2000+1700)/3 = 1833.3 → 1833, p = .67 → dp 125 → 1958;
    //      3 = 5600/3 → 1867, p = .67 → 1992; 4 = 1900, p = .17 → −273 → 1627.
    assert_eq!(
        v,
        vec![
            (
                2,
                1,
                2.0,
                vec![2.75, 4.0, 3.5, 1.5, 1.0, 1.0, 1.0, 4.0, 1833.0, 1958.0]
            ),
            (
                3,
                2,
                2.0,
                vec![2.25, 4.0, 3.5, 1.0, 1.0, 2.0, 1.0, 4.0, 1867.0, 1992.0]
            ),
            (
                1,
                3,
                1.5,
                vec![1.5, 4.5, 4.0, 0.5, 1.0, 1.0, 0.0, 3.5, 1800.0, 1800.0]
            ),
            (
                4,
                4,
                0.5,
                vec![1.0, 5.5, 4.0, 0.5, 0.0, 2.0, 0.0, 0.5, 1900.0, 1627.0]
            ),
        ]
    );
}

#[test]
fn direct_encounter_separates_only_players_who_met() {
    // 2 and 3 drew each other: DE leaves them tied (shared rank) until SB.
    let e = round_robin();
    let v = values(&e, &[TieBreak::DirectEncounter], Edition::Fide2026);
    assert_eq!((v[0].0, v[0].1, v[1].0, v[1].1), (2, 1, 3, 1));
    assert_eq!(v[0].3, vec![0.5]);
    // 3 beats 2 in R1, 4-3 ½ in R2, 2 beats 4 in R3: 2 and 3 tie on 2.0, DE puts 3 first.
    let mut e2 = round_robin();
    game(&mut e2, 1, 2, 3, RoundResult::Loss);
    game(&mut e2, 2, 4, 3, RoundResult::Draw);
    game(&mut e2, 3, 2, 4, RoundResult::Win);
    let v = values(
        &e2,
        &[
            TieBreak::DirectEncounter,
            TieBreak::SonnebornBerger(Cut::None),
        ],
        Edition::Fide2026,
    );
    assert_eq!(v[0].0, 3);
    assert_eq!(v[0].3[0], 1.0);
}

/// A 5-player Swiss where player 1 takes a requested half-point bye in round
/// 1 and then plays: R1 1 H, 2-3 1-0, 4-5 ½; R2 1-2 1-0, 3-4 0-1, 5 PAB;
/// R3 1-3 1-0, 2-5 1-0, 4 PAB; R4 1-4 ½, 3-5 1-0, 2 PAB; R5 1-5 ½, 2-4 ½, 3 PAB.
/// Scores: 1 3.5; 2 1+0+1+1+½ = 3.5; 3 0+0+0+1+1 = 2; 4 ½+1+1+½+½ = 3.5; 5 ½+1+0+0+½ = 2.
fn swiss_with_bye() -> Event {
    let mut e = Event::new("Swiss", 5);
    for i in 1..=5 {
        e.players.push(Player::new(i, &format!("P{i}"), 2000));
    }
    use RoundResult::*;
    set(&mut e, 1, 1, RoundEntry::bye(HalfBye));
    game(&mut e, 1, 2, 3, Win);
    game(&mut e, 1, 4, 5, Draw);
    game(&mut e, 2, 1, 2, Win);
    game(&mut e, 2, 3, 4, Loss);
    set(&mut e, 2, 5, RoundEntry::bye(PairingBye));
    game(&mut e, 3, 1, 3, Win);
    game(&mut e, 3, 2, 5, Win);
    set(&mut e, 3, 4, RoundEntry::bye(PairingBye));
    game(&mut e, 4, 1, 4, Draw);
    game(&mut e, 4, 3, 5, Win);
    set(&mut e, 4, 2, RoundEntry::bye(PairingBye));
    game(&mut e, 5, 1, 5, Draw);
    game(&mut e, 5, 2, 4, Draw);
    set(&mut e, 5, 3, RoundEntry::bye(PairingBye));
    e
}

#[test]
fn a_requested_bye_is_a_game_against_a_dummy_whose_score_2026_caps() {
    let e = swiss_with_bye();
    let find =
        |v: &[(u16, u16, f64, Vec<f64>)], id: u16| v.iter().find(|x| x.0 == id).unwrap().3.clone();
    let tbs = [
        TieBreak::Buchholz(Cut::None),
        TieBreak::SonnebornBerger(Cut::None),
        TieBreak::Buchholz(Cut::Cut1),
    ];
    // Player 1's opponents in rounds 2-5: 2 (3.5), 3 (2), 4 (3.5), 5 (2) = 11.0.
    // Round 1 (Art. 16.2.3, a requested bye followed by games): a dummy opponent.
    // 2023: the dummy ends on the participant's own score, 3.5 → BH 14.5;
    //       SB = 3.5·½ + 3.5·1 + 2·1 + 3.5·½ + 2·½ = 10.0.
    // 2026: capped at the draw points × rounds, 2.5 → BH 13.5; SB 9.5;
    //       Cut-1 with a VUR cuts the VUR's contribution (16.5): 13.5 − 2.5 = 11.0.
    let v23 = values(&e, &tbs, Edition::Fide2023);
    let v26 = values(&e, &tbs, Edition::Fide2026);
    assert_eq!(find(&v23, 1)[..2], [14.5, 10.0]);
    assert_eq!(find(&v26, 1), vec![13.5, 9.5, 11.0]);
    // Player 2's PAB (Art. 16.2.1) in round 4: dummy = own 3.5 (2023), 2.5 (2026).
    // Opponents 3 (2), 1 (3.5), 5 (2), 4 (3.5) = 11.0.
    assert_eq!(find(&v23, 2)[0], 14.5);
    assert_eq!(find(&v26, 2)[0], 13.5);
}

#[test]
fn a_withdrawn_player_is_seen_by_the_opponents_as_drawing_the_rest() {
    // 4 players: R1 1-4 0-1, 2-3 ½; R2 1-2 1-0, 3 PAB, 4 withdrawn (Z);
    // R3 1-3 ½, 2 PAB, 4 Z. Player 4's score is 1.0, seen as 1 + ½ + ½ = 2.0
    // (Art. 16.2.5/16.3.5). BH(1) = 2.0 (4) + 1.5 (2: ½+0+1) + 2.0 (3: ½+1+½) = 5.5.
    let mut e = Event::new("W", 3);
    for i in 1..=4 {
        e.players.push(Player::new(i, &format!("P{i}"), 2000));
    }
    use RoundResult::*;
    game(&mut e, 1, 1, 4, Loss);
    game(&mut e, 1, 2, 3, Draw);
    game(&mut e, 2, 1, 2, Win);
    set(&mut e, 2, 3, RoundEntry::bye(PairingBye));
    set(&mut e, 2, 4, RoundEntry::bye(ZeroBye));
    game(&mut e, 3, 1, 3, Draw);
    set(&mut e, 3, 2, RoundEntry::bye(PairingBye));
    set(&mut e, 3, 4, RoundEntry::bye(ZeroBye));
    let v = values(&e, &[TieBreak::Buchholz(Cut::None)], Edition::Fide2026);
    let p1 = v.iter().find(|x| x.0 == 1).unwrap();
    assert_eq!((p1.2, p1.3[0]), (1.5, 5.5));
    // Counting 4's actual 1.0 instead would give 4.5.
}

#[test]
fn codes_read_and_write() {
    for code in [
        "BH", "BH/C1", "BH/C2", "BH/M1", "BH/M2", "FB", "SB/C1", "DE", "WIN", "WON", "BPG", "BWG",
        "PS", "ARO/C1", "TPR", "KS",
    ] {
        assert_eq!(code.parse::<TieBreak>().unwrap().code(), code);
    }
    assert!("XYZ".parse::<TieBreak>().is_err());
    assert!("DE/C1".parse::<TieBreak>().is_err());
}

/// C.07 6.3 (Swiss, not every two of the tied players met): 1, 2 and 3 end on
/// 2 points of 3; 1 beat 2 and 3, who never met. 1 is first whatever 2-3
/// would have been (2 points against at most 1), so DE ranks 1 first; 2 and
/// 3 stay tied (either could have won their game).
/// R1 1-2 1-0, 3-5 1-0, 4-6 ½; R2 1-3 1-0, 2-4 1-0, 5-6 ½; R3 1-4 0-1, 2-6 1-0, 3-5 1-0.
#[test]
fn direct_encounter_when_not_all_met_ranks_whoever_is_first_whatever_the_missing_results() {
    let mut e = Event::new("Swiss", 3);
    for i in 1..=6u16 {
        e.players
            .push(Player::new(i, &format!("P{i}"), 2000 - i * 10));
    }
    use RoundResult::*;
    game(&mut e, 1, 1, 2, Win);
    game(&mut e, 1, 3, 5, Win);
    game(&mut e, 1, 4, 6, Draw);
    game(&mut e, 2, 1, 3, Win);
    game(&mut e, 2, 2, 4, Win);
    game(&mut e, 2, 5, 6, Draw);
    game(&mut e, 3, 1, 4, Loss);
    game(&mut e, 3, 2, 6, Win);
    game(&mut e, 3, 3, 5, Win);
    let v = values(&e, &[TieBreak::DirectEncounter], Edition::Fide2026);
    let top: Vec<(u16, u16, f64)> = v.iter().take(3).map(|x| (x.0, x.1, x.2)).collect();
    assert_eq!(top, vec![(1, 1, 2.0), (2, 2, 2.0), (3, 2, 2.0)]);
    assert!(v[0].3[0] > v[1].3[0]);
    assert_eq!(v[1].3[0], v[2].3[0]);
}

/// DE re-applied to the sub-groups still tied (C.07 6.1, "reapply"), worked
/// by hand. Players 1-4 all score 3 and all met: 2 beat 1, 4 beat 3, 3 beat
/// 2, 1 beat 4, 2 beat 4, 1 beat 3. Among the four: 2 and 1 have 2 points,
/// 4 and 3 have 1. Re-applied to {1, 2}: 2 beat 1, so 2 is first, 1 second;
/// to {3, 4}: 4 beat 3, so 4 is third, 3 fourth. (Without re-application 1
/// and 2 would share first place, 3 and 4 third.) Players 5-8 score 0 or 1
/// against them.
#[test]
fn direct_encounter_is_reapplied_to_the_sub_groups_still_tied() {
    let mut e = Event::new("DE", 5);
    for id in 1..=8u16 {
        e.players
            .push(Player::new(id, &format!("P{id}"), 2100 - id * 10));
    }
    use RoundResult::*;
    game(&mut e, 1, 2, 1, Win);
    game(&mut e, 1, 4, 3, Win);
    game(&mut e, 2, 3, 2, Win);
    game(&mut e, 2, 1, 4, Win);
    game(&mut e, 3, 2, 4, Win);
    game(&mut e, 3, 1, 3, Win);
    game(&mut e, 4, 2, 5, Win);
    game(&mut e, 4, 1, 6, Win);
    game(&mut e, 4, 3, 7, Win);
    game(&mut e, 4, 4, 8, Win);
    game(&mut e, 5, 3, 5, Win);
    game(&mut e, 5, 4, 6, Win);
    game(&mut e, 5, 2, 7, Loss);
    game(&mut e, 5, 1, 8, Loss);
    let v = values(&e, &[TieBreak::DirectEncounter], Edition::Fide2026);
    let top: Vec<(u16, u16, f64, Vec<f64>)> = v.into_iter().take(4).collect();
    assert_eq!(
        top,
        vec![
            (2, 1, 3.0, vec![2.0]),
            (1, 2, 3.0, vec![2.0]),
            (4, 3, 3.0, vec![1.0]),
            (3, 4, 3.0, vec![1.0]),
        ]
    );
}

/// C.07 14.1 (Cut-1 for SB) and 16.5 (the VUR exception), worked by hand on
/// a 6-player Swiss of 3 rounds: R1 1-2 0-1, 3-4 1-0, 5-6 1-0; R2 1-6 1-0,
/// 2-3 forfeit (2 wins, 3 does not appear), 4-5 ½; R3 1-4 1-0, 2-5 1-0, 3-6 ½.
/// Scores: 1 2.0, 2 3.0, 3 1.5, 4 0.5, 5 1.5, 6 0.5.
fn swiss_for_sonneborn_berger_cuts() -> Event {
    let mut e = Event::new("SB cuts", 3);
    for i in 1..=6 {
        e.players.push(Player::new(i, &format!("P{i}"), 2000));
    }
    use RoundResult::*;
    game(&mut e, 1, 1, 2, Loss);
    game(&mut e, 1, 3, 4, Win);
    game(&mut e, 1, 5, 6, Win);
    game(&mut e, 2, 1, 6, Win);
    game(&mut e, 2, 2, 3, ForfeitWin);
    game(&mut e, 2, 4, 5, Draw);
    game(&mut e, 3, 1, 4, Win);
    game(&mut e, 3, 2, 5, Win);
    game(&mut e, 3, 3, 6, Draw);
    e
}

/// SB with Cut-1 drops the product of the lowest-scoring opponent, not the
/// smallest product (C.07 14.1; 2024-08: on equal lowest scores the lowest
/// product); Cut-2 the two lowest-scoring opponents'. With a VUR, Cut-1 cuts
/// the VUR's product only when it is not lower than that least significant
/// value: "SB: cut the higher of the two" (16.5).
#[test]
fn sb_cut_drops_the_lowest_scoring_opponents_product_c07_14_1_and_16_5() {
    let e = swiss_for_sonneborn_berger_cuts();
    let tbs = [
        TieBreak::SonnebornBerger(Cut::None),
        TieBreak::SonnebornBerger(Cut::Cut1),
        TieBreak::SonnebornBerger(Cut::Cut2),
        TieBreak::SonnebornBerger(Cut::Median1),
    ];
    for edition in [Edition::Fide2023, Edition::Fide2026] {
        let v = values(&e, &tbs, edition);
        let find = |id: u16| v.iter().find(|x| x.0 == id).unwrap().3.clone();
        // Player 1: lost to 2 (3.0 × 0 = 0), beat 6 (0.5 × 1) and 4 (0.5 × 1): SB 1.0.
        // The lowest-scoring opponents are 6 and 4 (0.5 each): Cut-1 drops one
        // of their 0.5 products (not the loss's 0) → 0.5; Cut-2 both → 0.0;
        // Median-1 also drops the highest-scoring opponent's (2: 0) → 0.5.
        assert_eq!(find(1), vec![1.0, 0.5, 0.0, 0.5], "{edition:?}");
        // Player 3: beat 4 (0.5 × 1 = 0.5), a forfeit loss to 2 (a VUR: the
        // dummy's 1.5 × 0 = 0; 16.4, the 2026 cap min(1.5, 3.0) the same),
        // drew 6 (0.5 × ½ = 0.25): SB 0.75. The least significant value is
        // 6's 0.25 (lowest score, then lowest product); the VUR's 0 is lower,
        // so Cut-1 cuts 0.25, the higher of the two (16.5) → 0.5.
        assert_eq!(find(3)[..2], [0.75, 0.5], "{edition:?}");
    }
}

/// KS (C.07 9.2) of a player with no game against a participant with half
/// the maximum score is zero — not the negative zero a float sum of nothing
/// gives, which printed as "-0" (table) and "-0.0" (JSON). 3 players, 1
/// round: 1-2 1-0, 3 the PAB; 3 has no game at all.
#[test]
fn koya_without_qualifying_games_is_zero_not_negative_zero_c07_9_2() {
    let mut e = Event::new("KS", 1);
    for i in 1..=3 {
        e.players.push(Player::new(i, &format!("P{i}"), 2000));
    }
    game(&mut e, 1, 1, 2, RoundResult::Win);
    set(&mut e, 1, 3, RoundEntry::bye(RoundResult::PairingBye));
    for edition in [Edition::Fide2023, Edition::Fide2026] {
        for s in standings(&e, &[TieBreak::Koya, TieBreak::WinsOverTheBoard], edition) {
            for v in s.values {
                assert!(v.is_sign_positive(), "player {}: {v}", s.id);
            }
        }
    }
}

/// Fore Buchholz (C.07 8.3) is "BH as if all paired final-round games were
/// draws", and everything it reads is taken in that world, the dummy
/// opponent of an unplayed round included (16.4). 5 players, 3 rounds:
/// R1 1-2 1-0, 3-4 ½, 5 PAB; R2 1-3 1-0, 5-4 forfeit (5 wins), 2 PAB;
/// R3 1-5 1-0, 4-2 1-0, 3 PAB. Scores 1 3.0, 2 1.0, 3 1.5, 4 1.5, 5 2.0;
/// with R3's games as draws (1-5 ½, 4-2 ½): 1 2.5, 2 1.5, 3 1.5, 4 1.0, 5 2.5.
/// Player 5: the PAB (R1) and the forfeit win (R2) are games against a dummy,
/// then 1 (2.5).
/// - 2023: the dummy ends on 5's own FB score, 2.5 (not his actual 2.0):
///   FB = 2.5 + 2.5 + 2.5 = 7.5 (the old reading gave 6.5).
/// - 2026: the PAB's dummy is capped at the draw points × rounds, 1.5; the
///   forfeit's at the scheduled opponent 4's FB-adjusted score, 1.0 (not his
///   actual 1.5): FB = 1.5 + 1.0 + 2.5 = 5.0 (the old reading gave 5.5).
///
/// The TEC's TieBreakServer (Otto Milvang, upstream of 2026-07) gives these
/// numbers for every player of this event, under the 2024 and 2026 rules.
#[test]
fn fore_buchholz_dummy_and_caps_are_taken_in_the_fore_world_c07_8_3_and_16_4() {
    let mut e = Event::new("FB", 3);
    for i in 1..=5 {
        e.players.push(Player::new(i, &format!("P{i}"), 2000));
    }
    use RoundResult::*;
    game(&mut e, 1, 1, 2, Win);
    game(&mut e, 1, 3, 4, Draw);
    set(&mut e, 1, 5, RoundEntry::bye(PairingBye));
    game(&mut e, 2, 1, 3, Win);
    game(&mut e, 2, 5, 4, ForfeitWin);
    set(&mut e, 2, 2, RoundEntry::bye(PairingBye));
    game(&mut e, 3, 1, 5, Win);
    game(&mut e, 3, 4, 2, Win);
    set(&mut e, 3, 3, RoundEntry::bye(PairingBye));
    let fb = |edition| {
        let mut v = values(&e, &[TieBreak::FideBuchholz(Cut::None)], edition);
        v.sort_by_key(|x| x.0);
        v.into_iter().map(|x| x.3[0]).collect::<Vec<f64>>()
    };
    assert_eq!(fb(Edition::Fide2023), vec![5.5, 5.0, 5.0, 4.0, 7.5]);
    assert_eq!(fb(Edition::Fide2026), vec![5.5, 5.0, 5.0, 4.0, 5.0]);
}

/// A 5-player round-robin by the Berger table (C.05; the player drawn
/// against the dummy 6 has a free round), ratings 2100 … 1700:
/// R1 2-5 1-0, 3-4 ½ (1 free); R2 5-3 1-0, 1-2 1-0 (4 free); R3 3-1 ½, 4-5 ½
/// (2 free); R4 1-4 0-1, 2-3 forfeit, 3 wins (5 free); R5 4-2 0-1, 5-1 0-1
/// (3 free). Scores: 1 2.5; 2, 3, 4 2.0; 5 1.5.
fn round_robin_with_a_forfeit() -> Event {
    let mut e = Event::new("RR", 5);
    for (i, r) in [2100, 2000, 1900, 1800, 1700].iter().enumerate() {
        e.players
            .push(Player::new(i as u16 + 1, &format!("P{}", i + 1), *r));
    }
    use RoundResult::*;
    game(&mut e, 1, 2, 5, Win);
    game(&mut e, 1, 3, 4, Draw);
    game(&mut e, 2, 5, 3, Win);
    game(&mut e, 2, 1, 2, Win);
    game(&mut e, 3, 3, 1, Draw);
    game(&mut e, 3, 4, 5, Draw);
    game(&mut e, 4, 1, 4, Loss);
    game(&mut e, 4, 2, 3, ForfeitLoss);
    game(&mut e, 5, 4, 2, Loss);
    game(&mut e, 5, 5, 1, Loss);
    for p in &mut e.players {
        while p.rounds.len() < 5 {
            p.rounds.push(RoundEntry::bye(ZeroBye));
        }
    }
    e
}

/// C.07 15.2: with pre-determined pairings (a round-robin) forfeits are the
/// only unplayed rounds and count as games; Art. 16 and DE's Swiss rule
/// (6.3) are not for them. 2026 excepts the rating tie-breaks (Art. 10: all
/// forfeits stay unplayed) and type B (forfeit losses stay unplayed).
/// Worked by hand on `round_robin_with_a_forfeit`:
/// - DE among 2, 3, 4 (2.0 each): 3 beat 2 by forfeit and drew 4 = 1.5;
///   2 beat 4 = 1; 4 drew 3 = ½. So 3, 2, 4 — as Held's exercise 26 and the
///   TieBreakServer in pre-determined mode rank such a group. Read as a
///   Swiss (the forfeit left out, 2 and 3 "never met", 6.3) nobody is
///   certain of a place and all three stayed tied.
/// - BH of 3: 4 (2.0) + 5 (1.5) + 1 (2.5) + 2 (2.0, the forfeit) = 8.0; the
///   free round adds nothing (no dummy; and 3's score as others see it is
///   2.0, not 2.5 with the free round "drawn").
/// - KS: the maximum possible score is 4 games, limit 2.0: 1, 2, 3, 4
///   qualify; 3 scored ½ + ½ + 1 (the forfeit) = 2.0.
/// - WON of 3: the forfeit win counts (both editions: 2026 keeps forfeit
///   wins for type B). ARO of 3: 2023 (1800 + 1700 + 2100 + 2000) / 4 =
///   1900; 2026 without the forfeit, 5600 / 3 → 1867.
///
/// The same from the pairing system (TRF 192 `FIDE_ROUNDROBIN`), and not
/// when the event says it is a Swiss (record 092).
#[test]
fn round_robin_forfeits_count_as_games_c07_15_2() {
    let tbs = [
        TieBreak::DirectEncounter,
        TieBreak::Buchholz(Cut::None),
        TieBreak::Koya,
        TieBreak::WinsOverTheBoard,
        TieBreak::AverageRatingOfOpponents(Cut::None),
    ];
    let mut by_system = round_robin_with_a_forfeit();
    by_system.system = arbiter_tournament::PairingSystem::RoundRobin;
    for e in [round_robin_with_a_forfeit(), by_system] {
        assert!(arbiter_tournament::tiebreak::pre_determined(&e));
        for (edition, aro) in [(Edition::Fide2023, 1900.0), (Edition::Fide2026, 1867.0)] {
            let v = values(&e, &tbs, edition);
            let order: Vec<(u16, u16)> = v.iter().map(|x| (x.0, x.1)).collect();
            assert_eq!(order, vec![(1, 1), (3, 2), (2, 3), (4, 4), (5, 5)]);
            let p3 = v.iter().find(|x| x.0 == 3).unwrap();
            assert_eq!(p3.3, vec![1.5, 8.0, 2.0, 1.0, aro], "{edition:?}");
        }
    }
    let mut swiss = round_robin_with_a_forfeit();
    swiss.kind = "Individual: Swiss-System".into();
    assert!(!arbiter_tournament::tiebreak::pre_determined(&swiss));
    let v = values(&swiss, &[TieBreak::DirectEncounter], Edition::Fide2026);
    assert!(v.iter().filter(|x| x.2 == 2.0).all(|x| x.1 == 2));
}

/// C.07 10.2: TPR = ARO + dp(p), p the score against the rated opponents ARO
/// averages. A 2-round Swiss of two rated and two unrated players: 1 (rated)
/// loses to 2 (1338) and beats 3 (unrated), so ARO = 1338, p = 0/1 and TPR =
/// 1338 − 800 = 538 (the win against the unrated player is in neither). 2
/// beats 1 (1662) and loses to 4 (unrated): TPR 1662 + 800 = 2462. The
/// old reading divided all points by the rated games: 1 had 2138.
/// R1 1-2 0-1, 3-4 ½; R2 1-3 1-0, 4-2 1-0.
#[test]
fn tpr_counts_only_the_points_against_rated_opponents_c07_10_2() {
    let mut e = Event::new("Swiss", 2);
    for (id, r) in [(1, 1662), (2, 1338), (3, 0), (4, 0)] {
        e.players.push(Player::new(id, &format!("P{id}"), r));
    }
    use RoundResult::*;
    game(&mut e, 1, 1, 2, Loss);
    game(&mut e, 1, 3, 4, Draw);
    game(&mut e, 2, 1, 3, Win);
    game(&mut e, 2, 4, 2, Win);
    let v = values(&e, &[TieBreak::PerformanceRating], Edition::Fide2026);
    let tpr = |id: u16| v.iter().find(|s| s.0 == id).unwrap().3[0];
    assert_eq!(tpr(1), 538.0);
    assert_eq!(tpr(2), 2462.0);
    // 3 (unrated) lost to 1: 1662 − 800; 4 beat 2: 1338 + 800.
    assert_eq!(tpr(3), 862.0);
    assert_eq!(tpr(4), 2138.0);
}

/// After round 1 of a 4-player Swiss: 1-3 1-0, 2-4 1-0 (players 1 and 2 on
/// 1 point, 3 and 4 on 0).
fn after_round_1() -> Event {
    let mut e = Event::new("Swiss", 3);
    for (i, r) in [2400, 2300, 2200, 2100].iter().enumerate() {
        e.players
            .push(Player::new(i as u16 + 1, &format!("P{}", i + 1), *r));
    }
    game(&mut e, 1, 1, 3, RoundResult::Win);
    game(&mut e, 1, 2, 4, RoundResult::Win);
    e
}

/// C.07 15.1 / 7.5: a round paired whose games have no result yet (as
/// `pair --record` leaves it) is neither a game nor an unplayed round, and PS
/// sums the running scores after each round *played*: the standings with
/// round 2 paired are those after round 1. (Before, every pending game was
/// taken as a requested bye at the end, 16.2.5: BH of player 1 went 0 → 1.5,
/// PS 1 → 2, FB 0.5 → 2.) Found by a tester.
#[test]
fn a_round_paired_without_results_counts_nothing_yet() {
    let tbs = [
        TieBreak::Buchholz(Cut::None),
        TieBreak::SonnebornBerger(Cut::None),
        TieBreak::Progressive(Cut::None),
        TieBreak::FideBuchholz(Cut::None),
    ];
    let done = after_round_1();
    let before = values(&done, &tbs, Edition::Fide2026);
    // Player 1: BH = 3's score 0; SB 0; PS 1; FB with round 1 drawn: 3 has ½.
    assert_eq!(before[0], (1, 1, 1.0, vec![0.0, 0.0, 1.0, 0.5]));
    let mut paired = done.clone();
    game(&mut paired, 2, 2, 1, RoundResult::Pending);
    game(&mut paired, 2, 3, 4, RoundResult::Pending);
    assert_eq!(values(&paired, &tbs, Edition::Fide2026), before);
    assert_eq!(
        values(&paired, &tbs, Edition::Fide2023),
        values(&done, &tbs, Edition::Fide2023)
    );
}

/// C.07 10.2: TPR = ARO + dp(p), p the game score (B.02 8.1.1: a draw is
/// ½) whatever the event's points: two players rated 2000 who draw under
/// 3/1/0 perform at 2000 (before: p = 1/3, 1875); a win and a draw against
/// two 2000s is p = 0.75, dp 193. Found by a tester.
#[test]
fn tpr_counts_a_draw_as_half_a_game_under_three_one_zero() {
    let mut e = Event::new("Football", 2);
    for i in 1..=3 {
        e.players.push(Player::new(i, &format!("P{i}"), 2000));
    }
    e.scoring.win = arbiter_tournament::Points::from_tenths(30);
    e.scoring.draw = arbiter_tournament::Points::from_tenths(10);
    e.scoring.pairing_bye = e.scoring.win;
    game(&mut e, 1, 1, 2, RoundResult::Draw);
    game(&mut e, 2, 1, 3, RoundResult::Win);
    let tpr = |e: &Event, id: u16| {
        standings(e, &[TieBreak::PerformanceRating], Edition::Fide2026)
            .into_iter()
            .find(|s| s.id == id)
            .unwrap()
            .values[0]
    };
    assert_eq!(
        tpr(&e, 1),
        2000.0 + f64::from(arbiter_tournament::rating::dp(0.75))
    );
    assert_eq!(tpr(&e, 1), 2193.0);
    assert_eq!(tpr(&e, 2), 2000.0);
    let mut standard = e.clone();
    standard.scoring = Default::default();
    for id in 1..=3 {
        assert_eq!(tpr(&e, id), tpr(&standard, id), "player {id}");
    }
}

/// C.07 8.3: FB is "BH as if all paired final-round games were draws", so
/// with the final round paired and not yet played it is already the value
/// the event will end with, whatever the results; the rest of the standings
/// are those after the round before.
#[test]
fn fore_buchholz_with_the_final_round_paired_is_its_final_value() {
    let fb = [
        TieBreak::FideBuchholz(Cut::None),
        TieBreak::Buchholz(Cut::None),
    ];
    let mut paired = after_round_1();
    paired.total_rounds = 2;
    game(&mut paired, 2, 2, 1, RoundResult::Pending);
    game(&mut paired, 2, 3, 4, RoundResult::Pending);
    let now = values(&paired, &fb, Edition::Fide2026);
    // Round 2 drawn: 1 and 2 on 1.5, 3 and 4 on 0.5; FB(1) = 0.5 + 1.5.
    let one = now.iter().find(|v| v.0 == 1).unwrap();
    assert_eq!((one.2, one.3[0], one.3[1]), (1.0, 2.0, 0.0));
    for (r12, r34) in [
        (RoundResult::Win, RoundResult::Loss),
        (RoundResult::Loss, RoundResult::Draw),
    ] {
        let mut played = after_round_1();
        played.total_rounds = 2;
        game(&mut played, 2, 2, 1, r12);
        game(&mut played, 2, 3, 4, r34);
        let end = values(&played, &fb, Edition::Fide2026);
        for id in 1..=4 {
            let a = now.iter().find(|v| v.0 == id).unwrap();
            let b = end.iter().find(|v| v.0 == id).unwrap();
            assert_eq!(a.3[0], b.3[0], "player {id}");
        }
    }
}
