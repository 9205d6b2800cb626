//! The event as the Handbook and the TRF define it: which round is paired
//! next, what a TRF can hold, the TRF-2026 records 240/250/260, and the
//! public functions that must not panic on values out of range.

use arbiter_tournament::dutch::{self, PairError};
use arbiter_tournament::generate::{self, Config, GenerateError};
use arbiter_tournament::tiebreak::TieBreak;
use arbiter_tournament::trf::{self, TrfVersion};
use arbiter_tournament::{
    berger, check, rating, Acceleration, AnnouncedBye, Colour, Event, Player, Prohibition,
    RoundEntry, RoundResult,
};

fn field(n: u16, rounds: u16) -> Event {
    let mut e = Event::new("Club", rounds);
    for i in 1..=n {
        e.players
            .push(Player::new(i, &format!("Player {i}"), 2400 - i * 20));
    }
    e
}

fn play(e: &mut Event, white: u16, black: u16, result: RoundResult) {
    e.player_mut(white)
        .unwrap()
        .rounds
        .push(RoundEntry::game(black, Colour::White, result));
    e.player_mut(black).unwrap().rounds.push(RoundEntry::game(
        white,
        Colour::Black,
        result.reversed(),
    ));
}

/// Byes requested ahead (C.04.2 3.3: known absentees are not paired) do not
/// make a round paired: two half-point byes for round 1 both stay in round 1
/// (the second landed in round 2), and the next round is still round 1.
#[test]
fn byes_entered_ahead_do_not_count_as_rounds_paired() {
    let mut e = field(7, 5);
    for id in [3, 5] {
        e.player_mut(id)
            .unwrap()
            .rounds
            .push(RoundEntry::bye(RoundResult::HalfBye));
    }
    assert_eq!(e.rounds_paired(), 0);
    assert_eq!(e.round_to_pair(), 1);
    let round = dutch::pair(&e, Default::default()).unwrap();
    assert_eq!(round.round, 1);
    assert_eq!(round.pairs.len() * 2 + usize::from(round.bye.is_some()), 5);
}

/// A withdrawal after round 1 enters zero-point rounds up to the last round
/// (C.04.2 3.2: withdrawn players are not paired): round 2 is still the next
/// round to pair, and `dutch::pair` pairs it (it said "round 6 is past the
/// last").
#[test]
fn a_withdrawal_does_not_move_the_next_round() {
    let mut e = field(6, 5);
    play(&mut e, 1, 4, RoundResult::Win);
    play(&mut e, 5, 2, RoundResult::Win);
    play(&mut e, 3, 6, RoundResult::Win);
    e.player_mut(6).unwrap().fill_absent(5);
    assert_eq!((e.rounds_paired(), e.round_to_pair()), (1, 2));
    let round = dutch::pair(&e, Default::default()).unwrap();
    assert_eq!(round.round, 2);
    assert!(round.pairs.iter().all(|&(w, b)| w != 6 && b != 6));
}

/// A hand-built event (its fields are public) is checked before it is
/// paired: a starting rank twice, an opponent who is no player, a line that
/// disagrees with its opponent's, a round far past the next.
#[test]
fn pairing_refuses_an_event_that_is_not_valid() {
    let mut twice = field(4, 3);
    twice.players[3].id = 1;
    assert!(matches!(
        dutch::pair(&twice, Default::default()),
        Err(PairError::Invalid(e)) if e.message.contains("appears twice")
    ));
    let mut zero = field(4, 3);
    zero.players[0].id = 0;
    assert!(matches!(
        dutch::pair(&zero, Default::default()),
        Err(PairError::Invalid(_))
    ));
    let mut ghost = field(4, 3);
    ghost.players[0]
        .rounds
        .push(RoundEntry::game(9, Colour::White, RoundResult::Win));
    assert!(matches!(
        dutch::pair(&ghost, Default::default()),
        Err(PairError::Invalid(e)) if e.message.contains("no player has starting rank 9")
    ));
    let mut disagree = field(4, 3);
    play(&mut disagree, 1, 2, RoundResult::Win);
    disagree.players[1].rounds[0].opponent = Some(3);
    assert!(matches!(
        dutch::pair(&disagree, Default::default()),
        Err(PairError::Invalid(_))
    ));
    let open = field(4, 0);
    assert!(matches!(
        dutch::pair_round(&open, 100, Default::default()),
        Err(PairError::Event(m)) if m.contains("before round 1")
    ));
}

/// TRF player record (C.04 Annex 2): rating in columns 49–52, FIDE id in
/// 58–68, starting rank in 5–8. Wider values are refused, not cut (12345
/// was written 1234, a 12-digit FIDE id shifted the line).
#[test]
fn the_writer_refuses_values_wider_than_their_columns() {
    for change in [
        (|p: &mut Player| p.rating = 12000) as fn(&mut Player),
        |p| p.fide_id = Some(123_456_789_012),
        |p| p.id = 12345,
        |p| p.name = "Doe, John\n001    2      Injected".into(),
    ] {
        let mut e = field(2, 3);
        change(&mut e.players[0]);
        let err = trf::write(&e, TrfVersion::Trf26).unwrap_err();
        assert!(err.message.contains("player"), "{err}");
    }
    let mut e = field(2, 3);
    e.name = "Club\r\n001    3".into();
    assert!(trf::write(&e, TrfVersion::Trf16).is_err());
    // Files written by others: a number that runs into the blank column
    // after its field is refused where it overflows (it was read cut).
    let text = trf::write(&field(2, 3), TrfVersion::Trf16).unwrap();
    for (from, to, col) in [("001    1 ", "001 12345", 9), ("2380 ", "23805", 53)] {
        let err = trf::read(&text.replacen(from, to, 1)).unwrap_err();
        assert_eq!(err.column, col, "{err}");
    }
}

/// TRF-2026 record 240 (byes: type in column 5, round in 7–9, starting ranks
/// from 11) takes its players out of the round it names; record 260
/// (rounds 5–7 / 9–11, starting ranks from 13) forbids the pairs it names in
/// its rounds only (C.04.3 C1), as `XXP` does in every round.
#[test]
fn records_240_and_260_are_honoured_and_written_back() {
    let mut e = field(8, 5);
    let trf16 = trf::write(&e, TrfVersion::Trf16).unwrap();
    let plain = dutch::pair(&e, Default::default()).unwrap();
    assert!(plain.pairs.contains(&(1, 5)), "{plain:?}");
    let text = trf16.replace(
        "XXR 5",
        "240 H   1    1    5\r\n260   1   1    1    5\r\nXXR 5",
    );
    let read = trf::read(&text).unwrap();
    assert_eq!(
        read.byes,
        vec![AnnouncedBye {
            round: 1,
            result: RoundResult::HalfBye,
            players: vec![1, 5]
        }]
    );
    assert_eq!(
        read.prohibited,
        vec![Prohibition {
            first_round: 1,
            last_round: 1,
            players: vec![1, 5]
        }]
    );
    let with_byes = dutch::pair(&read, Default::default()).unwrap();
    assert!(with_byes
        .pairs
        .iter()
        .all(|&(w, b)| ![w, b].contains(&1) && ![w, b].contains(&5)));
    assert_eq!(with_byes.pairs.len(), 3);
    e.prohibited = read.prohibited.clone();
    let prohibited = dutch::pair(&e, Default::default()).unwrap();
    assert!(!prohibited.pairs.contains(&(1, 5)) && !prohibited.pairs.contains(&(5, 1)));
    // In round 2 the prohibition of round 1 no longer applies.
    assert!(e.forbidden_in(2).is_empty());
    let again = trf::write(&read, TrfVersion::Trf26).unwrap();
    assert!(again.contains("240 H   1    1    5\r\n"), "{again}");
    assert!(again.contains("260   1   1    1    5\r\n"), "{again}");
    assert_eq!(trf::read(&again).unwrap(), read);
}

/// C.04.5.1: group A is "the first half of the players, rounded up to the
/// nearest even number", fixed at the start: late entries are placed by
/// C.04.2 and "the last GA player stays the same". The file says so (records
/// 250) and reads back with the same group, whatever the players now are.
#[test]
fn baku_group_a_stays_as_fixed_at_the_start() {
    let mut e = field(8, 5);
    e.system = arbiter_tournament::PairingSystem::Dutch2025;
    e.acceleration = Some(Acceleration::baku(8, 5));
    let text = trf::write(&e, TrfVersion::Trf26).unwrap();
    assert!(text.contains("192 FIDE_DUTCH_BAKU\r\n"));
    assert!(
        text.contains("250       1.0   1   2    1    4\r\n"),
        "{text}"
    );
    assert!(
        text.contains("250       0.5   3   3    1    4\r\n"),
        "{text}"
    );
    assert_eq!(trf::read(&text).unwrap(), e);
    // A late entry: the 9th player would make group A 1–6 by the count.
    let mut late = e.clone();
    late.players.push(Player::new(9, "Late", 1500));
    let back = trf::read(&trf::write(&late, TrfVersion::Trf26).unwrap()).unwrap();
    assert_eq!(back.acceleration.unwrap().group_a_last, 4);
}

/// C.04.1 rule 1: the number of rounds is declared beforehand. When the
/// generator cannot pair a round it keeps the rounds declared (it set
/// `XXR` to the rounds paired, making the last one "final" and the file
/// fail the checker) and says so in a `###` record.
#[test]
fn a_generated_event_that_stops_keeps_its_rounds_and_checks() {
    let c = Config {
        players: 11,
        rounds: 10,
        seed: 147,
        absence_rate: 0.1,
        late_rate: 0.1,
        ..Config::default()
    };
    let e = generate::generate(&c).unwrap();
    assert_eq!(e.total_rounds, 10);
    assert!(e.rounds_paired() < 10, "seed 147 stops early");
    assert!(e.other_records.iter().any(|r| r.starts_with("### round")));
    let text = trf::write(&e, TrfVersion::Trf16).unwrap();
    let back = trf::read(&text).unwrap();
    assert!(check::check(&back, Default::default()).iter().all(|r| r.ok));
}

/// A TRF in Latin-1 is named by line and column (byte), as other errors.
#[test]
fn a_file_that_is_not_utf8_is_named_by_line_and_column() {
    let err = trf::read_bytes(b"012 Open\r\n001    1      M\xfcller, A").unwrap_err();
    assert_eq!((err.line, err.column), (2, 16), "{err}");
}

/// A PGN or a README is no TRF: nothing in it is a TRF record.
#[test]
fn a_text_without_trf_records_is_refused() {
    let err = trf::read("[Event \"Club\"]\n[White \"A\"]\n\n1. e4 e5 1-0\n").unwrap_err();
    assert_eq!(err.line, 1);
    assert!(err.message.contains("not a TRF"), "{err}");
}

/// Player lines longer than the rounds declared (142 / `XXR`) are refused,
/// with the line and the column where the extra rounds start.
#[test]
fn lines_with_more_rounds_than_declared_are_refused() {
    let mut e = field(2, 3);
    play(&mut e, 1, 2, RoundResult::Win);
    let text = trf::write(&e, TrfVersion::Trf16)
        .unwrap()
        .replace("XXR 3", "XXR 0");
    assert!(trf::read(&text).is_ok());
    let mut long = text.replace("XXR 0", "XXR 1");
    long = long.replace("     2 w 1", "     2 w 1     2 w 1");
    long = long.replace("     1 b 0", "     1 b 0     1 b 0");
    let long = long.replace(" 1.0  ", " 2.0  ");
    let err = trf::read(&long).unwrap_err();
    assert!(err.message.contains("the event has 1"), "{err}");
    assert_eq!(err.column, 102, "{err}");
}

/// Dates that do not exist are refused where they are read (`042
/// 2026/13/45` went into the PGN as 2026.13.45); the forms real files use
/// are read.
#[test]
fn dates_must_exist() {
    let base = trf::write(&field(2, 3), TrfVersion::Trf16).unwrap();
    let err = trf::read(&format!("042 2026/13/45\r\n{base}")).unwrap_err();
    assert_eq!((err.line, err.column), (1, 5), "{err}");
    for ok in [
        "2026/02/28",
        "26/02/28",
        "28.02.2026",
        "2024-02-29",
        "2026",
        "Feb 2026",
    ] {
        assert!(trf::read(&format!("042 {ok}\r\n{base}")).is_ok(), "{ok}");
    }
    // A birth date with an unknown month and day, as rating lists write it.
    let mut e = field(2, 3);
    e.players[0].birth = "1990/00/00".into();
    let unknown_day = trf::write(&e, TrfVersion::Trf16).unwrap();
    assert!(trf::read(&unknown_day).is_ok());
    let err = trf::read(&unknown_day.replace("1990/00/00", "XXXX/99/99")).unwrap_err();
    assert_eq!(err.column, 70, "{err}");
}

/// `XXP` and `XXA` name starting ranks; one that is no player's is refused
/// with its line and column.
#[test]
fn xxp_and_xxa_name_players_of_the_event() {
    let base = trf::write(&field(2, 3), TrfVersion::Trf16).unwrap();
    let lines = base.lines().count();
    let err = trf::read(&format!("{base}XXP 1 7\r\n")).unwrap_err();
    assert_eq!((err.line, err.column), (lines + 1, 5), "{err}");
    let err = trf::read(&format!("{base}XXA    9  1.0\r\n")).unwrap_err();
    assert_eq!(err.line, lines + 1, "{err}");
}

/// C.07 Art. 14 defines Cut-1 for PS (the round-1 running score) and no
/// median: `PS/M1`, `PS/M2` are refused as `DE/C1` is (they were computed as
/// plain PS).
#[test]
fn progressive_score_has_cuts_but_no_median() {
    assert!("PS/C1".parse::<TieBreak>().is_ok());
    assert!("PS/M1".parse::<TieBreak>().is_err());
    assert!("PS/M2".parse::<TieBreak>().is_err());
}

/// Public functions with values at the ends of their types: no overflow
/// panic (a debug build panicked in each).
#[test]
fn extreme_values_do_not_panic() {
    assert_eq!(berger::rounds(65535), 65535);
    let r = berger::round(65535, 1);
    assert_eq!(r.len(), 32768);
    assert_eq!(r.last().unwrap().black, None);
    // Beyond the table of B.02 8.1.2, as for any difference past its end.
    assert_eq!(
        rating::expected_hundredths(i32::MIN, 1),
        rating::expected_hundredths(0, 5000)
    );
    assert_eq!(
        rating::expected_hundredths(i32::MAX, i32::MIN),
        rating::expected_hundredths(5000, 0)
    );
    assert_eq!(rating::performance(i32::MAX, 1.0, 1), Some(i32::MAX));
    assert_eq!(rating::counted_difference(i32::MAX, i32::MIN), i32::MAX);
    assert_eq!(
        generate::generate(&Config {
            forfeit_rate: 2.0,
            ..Config::default()
        })
        .unwrap_err(),
        GenerateError::Rate {
            field: "forfeit_rate",
            value: 2.0
        }
    );
    assert!(generate::generate(&Config {
        draw_rate: f64::NAN,
        ..Config::default()
    })
    .is_err());
}

/// TRF-2026 record 152 is "needed if it differs from the colour of the
/// highest-ranked participant paired in round 1": without 152 or `XXC`, the
/// initial colour is what round 1 shows. Player 1 had Black in round 1: the
/// checker finds round 1 as the rules give (before: White assumed, every
/// board reported reversed); with players 1 and 2 on requested byes, the
/// highest paired (3, pairing number 1) tells it. Found by a tester.
#[test]
fn without_152_the_initial_colour_is_read_from_round_1() {
    let text = "012 Initial colour not given\nXXR 3\n\
001    1      A                                 2400                             0.0    3     3 b 0\n\
001    2      B                                 2300                             1.0    1     4 w 1\n\
001    3      C                                 2200                             1.0    2     1 w 1\n\
001    4      D                                 2100                             0.0    4     2 b 0\n";
    let e = trf::read(text).unwrap();
    assert_eq!(e.initial_colour, None);
    assert_eq!(e.initial_colour_in_force(), Colour::Black);
    let report = check::check(&e, Default::default());
    assert!(report.iter().all(|r| r.ok), "{report:?}");
    let byes = "012 Two players without games\nXXR 3\n\
001    1      A                                 2400                             0.5    1  0000 - H\n\
001    2      B                                 2300                             0.5    2  0000 - H\n\
001    3      C                                 2200                             1.0    3     5 b 1\n\
001    4      D                                 2100                             0.5    4     6 w =\n\
001    5      E                                 2000                             0.0    5     3 w 0\n\
001    6      F                                 1900                             0.5    6     4 b =\n";
    let e = trf::read(byes).unwrap();
    assert_eq!(e.initial_colour_in_force(), Colour::Black);
    assert!(check::check(&e, Default::default()).iter().all(|r| r.ok));
    // 152 given: it stands.
    let mut given = e.clone();
    given.initial_colour = Some(Colour::White);
    assert_eq!(given.initial_colour_in_force(), Colour::White);
}
