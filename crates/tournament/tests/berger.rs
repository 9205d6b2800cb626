//! Round-robin pairings against the Berger tables as the FIDE Handbook prints
//! them (C.05 Annex 1). The tables below were transcribed from printed copies
//! of Annex 1 (Chris Fox's chess pages and the Crenshaw–Berger sheet, which
//! reproduce the Handbook's tables for 3–14 players); for 15–24 players, where
//! no printed copy was at hand, the schedule is checked against the rule every
//! printed table follows (round 1 `k`–`n+1−k`, each next round the one before
//! advanced by `n/2`, board 1's colours swapped) and for the properties the
//! tables have (every pair meets once, colours alternate, the dummy is the bye).

use arbiter_tournament::berger::{self, Board};
use std::collections::HashSet;

const PRINTED: &[(u16, &str)] = &[
    (4, "1-4 2-3 / 4-3 1-2 / 2-4 3-1"),
    (6, "1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1"),
    (8, "1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / 8-6 7-5 1-4 2-3 / 3-8 4-2 5-1 6-7 / 8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1"),
    (10, "1-10 2-9 3-8 4-7 5-6 / 10-6 7-5 8-4 9-3 1-2 / 2-10 3-1 4-9 5-8 6-7 / 10-7 8-6 9-5 1-4 2-3 / 3-10 4-2 5-1 6-9 7-8 / 10-8 9-7 1-6 2-5 3-4 / 4-10 5-3 6-2 7-1 8-9 / 10-9 1-8 2-7 3-6 4-5 / 5-10 6-4 7-3 8-2 9-1"),
    (12, "1-12 2-11 3-10 4-9 5-8 6-7 / 12-7 8-6 9-5 10-4 11-3 1-2 / 2-12 3-1 4-11 5-10 6-9 7-8 / 12-8 9-7 10-6 11-5 1-4 2-3 / 3-12 4-2 5-1 6-11 7-10 8-9 / 12-9 10-8 11-7 1-6 2-5 3-4 / 4-12 5-3 6-2 7-1 8-11 9-10 / 12-10 11-9 1-8 2-7 3-6 4-5 / 5-12 6-4 7-3 8-2 9-1 10-11 / 12-11 1-10 2-9 3-8 4-7 5-6 / 6-12 7-5 8-4 9-3 10-2 11-1"),
    (14, "1-14 2-13 3-12 4-11 5-10 6-9 7-8 / 14-8 9-7 10-6 11-5 12-4 13-3 1-2 / 2-14 3-1 4-13 5-12 6-11 7-10 8-9 / 14-9 10-8 11-7 12-6 13-5 1-4 2-3 / 3-14 4-2 5-1 6-13 7-12 8-11 9-10 / 14-10 11-9 12-8 13-7 1-6 2-5 3-4 / 4-14 5-3 6-2 7-1 8-13 9-12 10-11 / 14-11 12-10 13-9 1-8 2-7 3-6 4-5 / 5-14 6-4 7-3 8-2 9-1 10-13 11-12 / 14-12 13-11 1-10 2-9 3-8 4-7 5-6 / 6-14 7-5 8-4 9-3 10-2 11-1 12-13 / 14-13 1-12 2-11 3-10 4-9 5-8 6-7 / 7-14 8-6 9-5 10-4 11-3 12-2 13-1"),
];

fn parse(table: &str) -> Vec<Vec<(u16, u16)>> {
    table
        .split(" / ")
        .map(|r| {
            r.split_whitespace()
                .map(|p| {
                    let (a, b) = p.split_once('-').unwrap();
                    (a.parse().unwrap(), b.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

#[test]
fn even_sizes_match_the_printed_tables_board_by_board() {
    for &(n, table) in PRINTED {
        let rounds = parse(table);
        assert_eq!(rounds.len() as u16, berger::rounds(n));
        for (r, printed) in rounds.iter().enumerate() {
            let ours: Vec<(u16, u16)> = berger::round(n, r as u16 + 1)
                .iter()
                .map(|b| (b.white, b.black.unwrap()))
                .collect();
            assert_eq!(&ours, printed, "{n} players, round {}", r + 1);
        }
    }
}

#[test]
fn odd_sizes_use_the_next_table_with_the_highest_number_as_the_bye() {
    // C.05: "If there is an odd number of players, the highest number counts as a bye."
    for &(n, table) in PRINTED {
        let odd = n - 1;
        for (r, printed) in parse(table).iter().enumerate() {
            let ours = berger::round(odd, r as u16 + 1);
            let games: Vec<(u16, u16)> = ours
                .iter()
                .filter_map(|b| b.black.map(|bl| (b.white, bl)))
                .collect();
            let expected: Vec<(u16, u16)> = printed
                .iter()
                .copied()
                .filter(|&(a, b)| a != n && b != n)
                .collect();
            assert_eq!(games, expected, "{odd} players, round {}", r + 1);
            let bye = printed.iter().find_map(|&(a, b)| {
                if a == n {
                    Some(b)
                } else if b == n {
                    Some(a)
                } else {
                    None
                }
            });
            assert_eq!(
                ours.last().copied(),
                Some(Board {
                    white: bye.unwrap(),
                    black: None
                })
            );
        }
    }
}

#[test]
fn sizes_3_to_24_meet_every_opponent_once_with_balanced_colours() {
    for n in 3..=24u16 {
        let mut met = HashSet::new();
        let mut whites = vec![0i32; usize::from(n) + 1];
        for r in 1..=berger::rounds(n) {
            let round = berger::round(n, r);
            let mut seen = HashSet::new();
            for b in &round {
                assert!(seen.insert(b.white));
                if let Some(bl) = b.black {
                    assert!(seen.insert(bl));
                    assert!(
                        met.insert((b.white.min(bl), b.white.max(bl))),
                        "{n}: repeated pairing"
                    );
                    whites[usize::from(b.white)] += 1;
                    whites[usize::from(bl)] -= 1;
                }
            }
            assert_eq!(
                seen.len(),
                usize::from(n),
                "{n} players, round {r}: everyone placed"
            );
        }
        assert_eq!(met.len(), usize::from(n) * usize::from(n - 1) / 2);
        for w in &whites[1..] {
            assert!(w.abs() <= 1, "{n} players: colours balanced within one");
        }
    }
}

/// The rule every printed table follows (C.05 Annex 1, 4–14 players): round 1
/// pairs `k` with `n + 1 − k` on board `k`, the lower number White; each next
/// round is the one before with every number but `n` advanced by `n/2`
/// (counted round `1 … n−1`), board by board, with the colours of board 1
/// (the one with `n`) swapped and the others kept.
fn by_the_printed_rule(n: u16) -> Vec<Vec<(u16, u16)>> {
    let advance = |x: u16| {
        if x == n {
            n
        } else {
            (x - 1 + n / 2) % (n - 1) + 1
        }
    };
    let mut round: Vec<(u16, u16)> = (1..=n / 2).map(|k| (k, n + 1 - k)).collect();
    let mut rounds = vec![round.clone()];
    for _ in 2..n {
        round = round
            .iter()
            .enumerate()
            .map(|(k, &(w, b))| {
                let (w, b) = (advance(w), advance(b));
                if k == 0 {
                    (b, w)
                } else {
                    (w, b)
                }
            })
            .collect();
        rounds.push(round.clone());
    }
    rounds
}

#[test]
fn the_printed_rule_gives_the_printed_tables_and_ours_for_15_to_24_players() {
    // The rule reproduces every printed table ...
    for &(n, table) in PRINTED {
        assert_eq!(by_the_printed_rule(n), parse(table), "{n} players");
    }
    // ... and the tables for 15-24 players, of which no printed copy was
    // found, follow it board by board (odd sizes: the next even table with
    // the pairing against the highest number as the bye, listed last).
    for n in 15..=24u16 {
        let even = n + n % 2;
        for (r, rule) in by_the_printed_rule(even).into_iter().enumerate() {
            let mut expected: Vec<Board> = rule
                .iter()
                .filter(|&&(w, b)| w != n + 1 && b != n + 1)
                .map(|&(w, b)| Board {
                    white: w,
                    black: Some(b),
                })
                .collect();
            if let Some(&(w, b)) = rule.iter().find(|&&(w, b)| w == n + 1 || b == n + 1) {
                expected.push(Board {
                    white: if w == n + 1 { b } else { w },
                    black: None,
                });
            }
            assert_eq!(
                berger::round(n, r as u16 + 1),
                expected,
                "{n} players, round {}",
                r + 1
            );
        }
    }
}

#[test]
fn double_round_robin_reverses_colours_in_the_second_cycle() {
    for n in 3..=24u16 {
        let per = berger::rounds(n);
        for r in 1..=per {
            let first = berger::round(n, r);
            let second = berger::double_round(n, r + per);
            assert_eq!(first.len(), second.len());
            for (a, b) in first.iter().zip(&second) {
                match a.black {
                    Some(bl) => assert_eq!((b.white, b.black), (bl, Some(a.white))),
                    None => assert_eq!(a, b),
                }
            }
        }
    }
}
