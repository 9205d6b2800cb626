//! TRF-16 / TRF-2026 reading and writing: column positions from the
//! specifications (C.04 Annex 2 TRF16; TRF26), round trips byte for byte, and
//! errors that name the line and column.

use arbiter_tournament::trf::{self, TrfVersion};
use arbiter_tournament::{Colour, Points, RoundResult, Title};

/// Written by hand after the TRF-16 column table (player record 001).
const SAMPLE: &str = "012 Arbiter Open\r\n\
022 Utrecht\r\n\
062 4\r\n\
072 4\r\n\
092 Swiss\r\n\
102 Doe, Jane\r\n\
001    1 m GM Doe, John                         2412 NED     1234567 1990/05/17  2.5    1     3 w 1     2 b =  0000 - U\r\n\
001    2 w IM Roe, Ann                          2390 ENG      234567 1995/01/02  1.0    2     4 b =     1 w =     3 b -\r\n\
001    3      Poe, Ed                           2001 USA                         2.0    3     1 b 0     4 w 1     2 w +\r\n\
001    4 m    Moe, Kim                          1800                             1.0    4     2 w =     3 b 0  0000 - H\r\n\
XXR 5\r\n\
XXC white1\r\n";

#[test]
fn player_record_columns_are_read_as_the_specification_places_them() {
    let e = trf::read(SAMPLE).unwrap();
    assert_eq!(e.name, "Arbiter Open");
    assert_eq!(e.total_rounds, 5);
    assert_eq!(e.initial_colour, Some(Colour::White));
    let p = &e.players[0];
    assert_eq!((p.id, p.title, p.rating), (1, Some(Title::GM), 2412));
    assert_eq!(p.name, "Doe, John");
    assert_eq!(p.federation, "NED");
    assert_eq!(p.fide_id, Some(1234567));
    assert_eq!(p.birth, "1990/05/17");
    assert_eq!(p.rounds.len(), 3);
    assert_eq!(p.rounds[2].result, RoundResult::PairingBye);
    assert_eq!(e.players[1].rounds[2].result, RoundResult::ForfeitLoss);
    assert_eq!(e.players[2].rounds[2].result, RoundResult::ForfeitWin);
    assert_eq!(e.players[3].rounds[2].result, RoundResult::HalfBye);
}

#[test]
fn a_file_we_wrote_reads_back_and_writes_again_byte_for_byte() {
    let e = trf::read(SAMPLE).unwrap();
    for v in [TrfVersion::Trf16, TrfVersion::Trf26] {
        let text = trf::write(&e, v).unwrap();
        let again = trf::read(&text).unwrap();
        assert_eq!(trf::write(&again, v).unwrap(), text);
    }
    // The sample is canonical TRF-16: written back unchanged.
    assert_eq!(trf::write(&e, TrfVersion::Trf16).unwrap(), SAMPLE);
}

#[test]
fn lf_and_cr_line_ends_read_the_same() {
    let a = trf::read(SAMPLE).unwrap();
    let b = trf::read(&SAMPLE.replace("\r\n", "\n")).unwrap();
    let c = trf::read(&SAMPLE.replace("\r\n", "\r")).unwrap();
    assert_eq!(a, b);
    assert_eq!(a, c);
}

#[test]
fn trf26_records_carry_rounds_colour_scoring_and_system() {
    let mut e = trf::read(SAMPLE).unwrap();
    e.scoring.win = "3".parse().unwrap();
    e.scoring.draw = "1".parse().unwrap();
    e.scoring.pairing_bye = "3".parse().unwrap();
    for p in &mut e.players {
        p.rounds.truncate(2);
    }
    let text = trf::write(&e, TrfVersion::Trf26).unwrap();
    assert!(text.contains("142 5\r\n"));
    assert!(text.contains("152 W\r\n"));
    // TRF-2026 162: symbols at columns 6, 15, 24, … (9 apart), points in the 4 columns after.
    assert!(text.contains("162  W 3.0    D 1.0    L 0.0    A 0.0    P 3.0\r\n"));
    assert!(text.contains("192 FIDE_DUTCH\r\n"));
    assert!(text.contains("BBW  3.0\r\n"));
    assert_eq!(trf::read(&text).unwrap(), e);
}

/// TRF-2026 record 162 alone carries a 3/1/0 point system: symbols at
/// columns 6, 15, 24, 33, 42 (9 apart). Arbiter wrote them 10 apart, so that
/// without the `BB*` lines the file read back with a draw of 0.5 and its
/// points column did not add up.
#[test]
fn record_162_alone_reads_back() {
    let mut e = trf::read(SAMPLE).unwrap();
    e.scoring.win = "3".parse().unwrap();
    e.scoring.draw = "1".parse().unwrap();
    e.scoring.pairing_bye = "3".parse().unwrap();
    let text = trf::write(&e, TrfVersion::Trf26).unwrap();
    let line = text.lines().find(|l| l.starts_with("162")).unwrap();
    let symbols: Vec<usize> = line
        .char_indices()
        .filter(|(_, c)| "WDLAP".contains(*c))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(symbols, vec![6, 15, 24, 33, 42]);
    let without_bb: String = text
        .split_inclusive("\r\n")
        .filter(|l| !l.starts_with("BB"))
        .collect();
    assert_eq!(trf::read(&without_bb).unwrap(), e);
}

#[test]
fn errors_name_line_and_column() {
    let bad_result = SAMPLE.replace("    3 w 1     2 b =", "    3 w 1     2 b ?");
    let err = trf::read(&bad_result).unwrap_err();
    assert_eq!((err.line, err.column), (7, 109), "{err}");
    let bad_points = SAMPLE.replace("1990/05/17  2.5", "1990/05/17  3.5");
    let err = trf::read(&bad_points).unwrap_err();
    assert_eq!((err.line, err.column), (7, 81), "{err}");
    let bad_opp = SAMPLE.replace("     3 w 1     2 b =", "     9 w 1     2 b =");
    let err = trf::read(&bad_opp).unwrap_err();
    assert_eq!((err.line, err.column), (7, 92), "{err}");
    let bye_with_opponent = SAMPLE.replace("  0000 - U", "     3 w U");
    let err = trf::read(&bye_with_opponent).unwrap_err();
    assert_eq!((err.line, err.column), (7, 112), "{err}");
    let err = trf::read("001    1      A                                 12x4").unwrap_err();
    assert_eq!((err.line, err.column), (1, 49), "{err}");
}

#[test]
fn unknown_records_and_comments_are_kept() {
    let text = format!("### made by hand\r\n{SAMPLE}222 5400+30\r\n");
    let e = trf::read(&text).unwrap();
    assert_eq!(
        e.other_records,
        vec!["### made by hand".to_string(), "222 5400+30".to_string()]
    );
    let out = trf::write(&e, TrfVersion::Trf16).unwrap();
    assert!(out.contains("222 5400+30\r\n"));
}

/// A point system given by its win (`BBW`, or 162 `W`) and no PAB value: the
/// PAB is worth a win (C.04.1 rule 3; TRF-2026 162 "P = W"; bbpPairings'
/// README: BBU "defaults to the score for a win"). Arbiter kept 1.0 and
/// refused the file (the points column counts the PAB as 3).
#[test]
fn the_pab_is_worth_a_win_unless_its_points_are_given() {
    let players = "\
001    1      Player 1                          2100                             3.0    1     2 w 1
001    2      Player 2                          2080                             0.0    2     1 b 0
001    3      Player 3                          2060                             3.0    3  0000 - U
XXR 3
";
    for header in ["BBW  3.0\nBBD  1.0\n", "162  W 3.0    D 1.0    L 0.0\n"] {
        let event = trf::read(&format!("012 Three-one-nothing\n{header}{players}")).unwrap();
        assert_eq!(event.scoring.win, Points::from_tenths(30));
        assert_eq!(
            event.scoring.pairing_bye,
            Points::from_tenths(30),
            "{header}"
        );
    }
    // Given explicitly, in either order, the PAB keeps its own value.
    let text = format!(
        "012 x\nBBU  1.0\nBBW  3.0\nBBD  1.0\n{}",
        players.replace("3.0    3", "1.0    3")
    );
    assert_eq!(
        trf::read(&text).unwrap().scoring.pairing_bye,
        Points::from_tenths(10)
    );
}

/// Files written before TRF-16 by Swiss-Manager and Vega carry the titles as
/// lower-case letters right-aligned in columns 11-13 (`g` GM, `m` IM, `f`
/// FM, `c` CM, `wg`, `wm`, `wf`, `wc` the women's titles) and the
/// pairing-allocated bye as `0000 - +` (a win without an opponent). Both are
/// read — the titles as TRF-16 names them, the bye as `U` (C.04.1 rule 3,
/// TRF-16 code `U`) — and written back in the canonical form. Hand-made
/// after the columns of TRF-16's record 001.
#[test]
fn old_title_letters_and_a_plus_without_opponent_read_as_title_and_pab() {
    let text = "012 Old Open\n\
001    1 m  g Alpha, A                          2500                             2.0    1     2 w 1  0000 - +\n\
001    2 m  m Beta, B                           2400                             1.0    2     1 b 0     3 w 1\n\
001    3 w wm Gamma, C                          2300                             1.0    3  0000 - +     2 b 0\n\
001    4 m  f Delta, D                          2200                             0.0    4  0000 - Z  0000 - Z\n\
001    5 w wg Eps, E                            2100                             0.0    5\n\
001    6 m  c Zeta, F                           2000                             0.0    6\n\
001    7 w wf Eta, G                            1900                             0.0    7\n\
001    8 w wc Theta, H                          1800                             0.0    8\n\
XXR 2\n";
    let e = trf::read(text).unwrap();
    let titles: Vec<Option<Title>> = e.players.iter().map(|p| p.title).collect();
    use Title::*;
    assert_eq!(
        titles,
        [GM, IM, WIM, FM, WGM, CM, WFM, WCM].map(Some).to_vec()
    );
    assert_eq!(e.players[0].rounds[1].result, RoundResult::PairingBye);
    assert_eq!(e.players[0].rounds[1].opponent, None);
    assert_eq!(e.players[2].rounds[0].result, RoundResult::PairingBye);
    let out = trf::write(&e, TrfVersion::Trf16).unwrap();
    assert!(out.contains("001    1 m GM Alpha, A"));
    assert!(out.contains("001    3 wWIM Gamma, C"));
    assert!(out.contains("     2 w 1  0000 - U"));
    assert_eq!(trf::read(&out).unwrap(), e);
}

/// Round 1 played, round 2 to pair: players 3 and 4 announced half-point
/// byes for round 2 (record 240), player 1 a zero-point bye for round 3, and
/// players 1 and 2 may not meet in rounds 1-5 (record 260).
const ANNOUNCED: &str = "012 Byes announced\n\
142 5\n\
152 B\n\
192 FIDE_DUTCH\n\
240 H   2    3    4\n\
240 Z   3    1\n\
260   1   5    1    2\n\
001    1 m GM Alpha, A                          2400 BEL     1000001 1990/01/01  1.0    1     3 b 1\n\
001    2 w IM Beta, B                           2300 NED     1000002 1991/02/03  1.0    2     4 w 1\n\
001    3 m    Gamma, C                          2200 GER     1000003 1992/03/04  0.0    3     1 w 0\n\
001    4 m    Delta, D                          2100 FRA     1000004 1993/04/05  0.0    4     2 b 0\n\
001    5 m    Eps, E                            2000 FRA     1000005 1994/05/06  1.0    5  0000 - U\n";

/// TRF-16 has no records 240 and 260; JaVaFo and bbpPairings read the byes
/// of the round to be paired in its round columns (`0000 - H`) and forbidden
/// pairs as `XXP`. The TRF-16 export carries them so, and pairs as the
/// TRF-2026 file does (before: both dropped, 3 and 4 paired, 4 given the
/// PAB, 1-2 allowed); what it cannot hold (the round-3 bye) is listed by
/// `trf16_omissions`. Found by a tester.
#[test]
fn trf16_export_keeps_the_announced_byes_and_prohibitions_of_the_next_round() {
    use arbiter_tournament::dutch;
    let e = trf::read(ANNOUNCED).unwrap();
    let text = trf::write(&e, TrfVersion::Trf16).unwrap();
    assert!(!text.contains("\r\n240") && !text.contains("\r\n260"));
    assert!(text.contains("XXP 1 2\r\n"), "{text}");
    let back = trf::read(&text).unwrap();
    for id in [3, 4] {
        let entry = back.player(id).unwrap().rounds[1];
        assert_eq!((entry.opponent, entry.result), (None, RoundResult::HalfBye));
    }
    assert_eq!(back.player(1).unwrap().rounds.len(), 1);
    let ours = dutch::pair_round(&e, 2, Default::default()).unwrap();
    let theirs = dutch::pair_round(&back, 2, Default::default()).unwrap();
    assert_eq!((ours.pairs, ours.bye), (theirs.pairs, theirs.bye));
    let lost = trf::trf16_omissions(&e);
    assert_eq!(lost.len(), 1, "{lost:?}");
    assert!(lost[0].contains("record 240") && lost[0].contains("round 3"));
    // TRF-2026 keeps them as records.
    let t26 = trf::write(&e, TrfVersion::Trf26).unwrap();
    assert!(t26.contains("240 H   2    3    4\r\n") && t26.contains("260   1   5    1    2\r\n"));
}

/// TRF-2026 acceleration is record 250 (`XXA` is the TRF-16 engines'
/// extension): a 250 read is written back as 250 (and `XXA` for the engines
/// that predate TRF-2026, as `XXR` and `XXC` are), and the file reads back
/// into the same event. Before, the 250 record became `XXA` lines only.
/// Found by a tester.
#[test]
fn a_record_250_is_written_back_as_250() {
    let text = "012 Accelerated by hand\n142 5\n192 FIDE_DUTCH\n\
250       1.0   1   2    1    2\n\
250       0.5   3   3    1    1\n\
001    1      Alpha, A                          2400                             0.0    1\n\
001    2      Beta, B                           2300                             0.0    2\n\
001    3      Gamma, C                          2200                             0.0    3\n\
001    4      Delta, D                          2100                             0.0    4\n";
    let e = trf::read(text).unwrap();
    let out = trf::write(&e, TrfVersion::Trf26).unwrap();
    let records: Vec<&str> = out.lines().filter(|l| l.starts_with("250")).collect();
    assert_eq!(
        records,
        [
            "250       1.0   1   2    1    2",
            "250       0.5   3   3    1    1"
        ]
    );
    let back = trf::read(&out).unwrap();
    assert_eq!(back, e);
    assert_eq!(trf::write(&back, TrfVersion::Trf26).unwrap(), out);
}

/// ETT26: one record 192. A system Arbiter does not implement is kept and
/// written back as the only 192 (before: `192 FIDE_DUTCH` was written beside
/// it); a file with two 192 records is refused at the second. Found by a
/// tester.
#[test]
fn a_pairing_system_not_implemented_is_written_back_alone() {
    let text = "012 Burstein event\n142 3\n192 FIDE_BURSTEIN\n\
001    1      Alpha, A                          2400                             0.0    1\n\
001    2      Beta, B                           2300                             0.0    2\n";
    let e = trf::read(text).unwrap();
    assert_eq!(e.declared_system(), Some("FIDE_BURSTEIN"));
    let out = trf::write(&e, TrfVersion::Trf26).unwrap();
    let sys: Vec<&str> = out.lines().filter(|l| l.starts_with("192")).collect();
    assert_eq!(sys, ["192 FIDE_BURSTEIN"]);
    assert_eq!(trf::read(&out).unwrap(), e);
    let twice = text.replace("142 3\n", "142 3\n192 FIDE_DUTCH\n");
    let err = trf::read(&twice).unwrap_err();
    assert_eq!((err.line, err.column), (4, 1), "{err}");
    assert!(err.message.contains("192"));
}

/// C.04.1 rule 3 / TRF-16 `U`: at most one pairing-allocated bye per round.
/// A file with two in round 1 is refused at the second one's result column
/// (before: read without complaint, the checker dropping one of them).
/// Found by a tester.
#[test]
fn two_pairing_allocated_byes_in_one_round_are_refused() {
    let text = "012 Bad input\nXXR 3\n\
001    1 m    Alpha, A                          2400 BEL     1000001 1990/01/01  1.0    1     2 w 1\n\
001    2 m    Beta, B                           2300 BEL     1000002 1990/01/01  0.0    2     1 b 0\n\
001    3 m    Gamma, C                          2200 BEL     1000003 1990/01/01  1.0    3  0000 - U\n\
001    4 m    Delta, D                          2100 BEL     1000004 1990/01/01  1.0    4  0000 - U\n";
    let err = trf::read(text).unwrap_err();
    assert_eq!((err.line, err.column), (6, 99), "{err}");
    assert!(err.message.contains("player 3 has it"), "{err}");
    // One is fine.
    assert!(trf::read(&text.replace("1.0    4  0000 - U", "0.0    4  0000 - Z")).is_ok());
}
