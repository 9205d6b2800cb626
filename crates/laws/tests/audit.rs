//! The audit of game records (`arbiter_laws::audit`): a hand-written record
//! for every finding, named after its Article, and for the clean cases; real
//! games (the Lichess and TWIC samples shipped inside the `pgn-reader`
//! crate); and a differential test — random games cut at random plies with
//! planted wrong results and terminations, where the audit must find exactly
//! the planted ones.

use arbiter_chess::{Color, Position, Role};
use arbiter_laws::audit::{audit, audit_transcript, Audit, FindingKind, Options, TranscriptReader};
use arbiter_laws::fuzzing::without_null_places;
use arbiter_laws::{Edition, Termination};
use arbiter_pgn::generate::{GenOptions, Generator};
use arbiter_pgn::Reader;
use rand::{Rng, SeedableRng};

fn records(pgn: &str) -> Vec<arbiter_pgn::Game> {
    Reader::new(pgn.as_bytes())
        .games()
        .collect::<Result<_, _>>()
        .expect("in memory")
}

fn audit_in(pgn: &str, edition: Edition) -> Audit {
    let games = records(pgn);
    assert_eq!(games.len(), 1, "one game in {pgn}");
    audit(&games[0], &Options { edition })
}

fn audit_one(pgn: &str) -> Audit {
    audit_in(pgn, Edition::Fide2014)
}

/// The one game of `pgn` read lean (as `arbiter audit` reads it, from the
/// text) and audited under the 2014 Laws.
fn audit_lean(pgn: &str) -> Audit {
    let mut lean = TranscriptReader::new();
    let read = Reader::new(pgn.as_bytes()).read_game(&mut lean).unwrap();
    assert!(read.is_some(), "a game in {pgn}");
    audit_transcript(lean.transcript(), &Options::default())
}

fn kinds(a: &Audit) -> Vec<FindingKind> {
    a.findings.iter().map(|f| f.kind).collect()
}

/// The Laws agree with the record, and nothing is found.
#[track_caller]
fn assert_clean(a: &Audit) {
    assert!(a.agrees() && a.findings.is_empty(), "{:?}", a.findings);
}

/// The record (2014 Laws) agrees, nothing found, the game ended by
/// `termination`.
#[track_caller]
fn assert_agrees_by(pgn: &str, termination: Termination) {
    let a = audit_one(pgn);
    assert_clean(&a);
    assert_eq!(a.laws.termination, Some(termination));
}

/// `a` has exactly one finding, of `kind`, citing `article`, whose text
/// says `says`.
fn assert_one_finding(a: &Audit, kind: FindingKind, article: &str, says: &str) {
    assert_eq!(kinds(a), [kind], "{:?}", a.findings);
    assert_eq!(a.findings[0].article, article);
    assert!(a.findings[0].text.contains(says), "{}", a.findings[0].text);
}

fn laws_result(a: &Audit) -> String {
    a.laws.result.map_or("*".into(), |r| r.to_string())
}

// ----- the game went on after the Laws had ended it ----------------------

#[test]
fn art_5_2_b_a_dead_start_ends_the_game_before_any_move() {
    // The audit leaves the start's dead-position test to the line's own
    // verdicts (a position alive after the first move proves the start
    // alive); a start that is dead must still end the game at ply 0, with
    // or without moves after it, as the move-by-move reference says.
    use arbiter_laws::audit::audit_move_by_move;
    for (fen, moves, dead_at) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "", Some(0)),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "1. Kd2 Kd7 2. Kc3",
            Some(0),
        ),
        (
            "4k3/8/8/8/8/8/8/2B1K3 b - - 0 1",
            "1... Kd7 2. Bd2",
            Some(0),
        ),
        // Bishops on squares of one colour: dead.
        ("4k3/8/8/8/8/8/8/2B1K1b1 w - - 0 1", "1. Bd2 Bh2", Some(0)),
        // Dead and past the 75-move rule at the start: dead position, the
        // end `Game::new` names first.
        ("4k3/8/8/8/8/8/8/4K3 w - - 150 100", "", Some(0)),
        ("4k3/8/8/8/8/8/8/4K3 w - - 150 100", "1. Kd2", Some(0)),
        // On squares of both colours: alive (a helpmate in a corner).
        ("4k3/8/8/8/8/8/8/2B1Kb2 w - - 0 1", "1. Bd2 Be2", None),
        // Alive at the start (a pawn), dead after its capture (ply 1).
        ("4k3/8/8/8/8/8/4p3/2B1K3 w - - 0 1", "1. Kxe2 Kd7", Some(1)),
        ("4k3/8/8/8/8/8/4p3/2B1K3 w - - 0 1", "", None),
        ("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1", "1. Kd2", None),
    ] {
        let pgn = format!("[Result \"1-0\"]\n[FEN \"{fen}\"]\n\n{moves} 1-0\n");
        for edition in [Edition::Fide2014, Edition::Fide2023] {
            let g = &records(&pgn)[0];
            let options = Options { edition };
            let a = audit(g, &options);
            assert_eq!(a, audit_move_by_move(g, &options), "{pgn}");
            if dead_at.is_some() {
                assert_eq!(a.laws.ply, dead_at, "{pgn}");
                assert_eq!(a.laws.termination, Some(Termination::DeadPosition), "{pgn}");
                assert_eq!(laws_result(&a), "1/2-1/2", "{pgn}");
            } else {
                assert_ne!(a.laws.termination, Some(Termination::DeadPosition), "{pgn}");
            }
        }
    }
}

#[test]
fn art_5_2_b_dead_position_then_more_moves() {
    // 1. Kxe2 leaves king and bishop against king: dead (5.2 b); the record
    // goes on and is scored 1-0.
    let a = audit_one(
        "[Result \"1-0\"]\n[FEN \"4k3/8/8/8/8/8/4p3/2B1K3 w - - 0 1\"]\n\n1. Kxe2 Kd7 2. Kd3 Kc6 1-0\n",
    );
    assert_eq!(kinds(&a), [FindingKind::PlayedOn]);
    assert_eq!(a.findings[0].ply, Some(1));
    assert_eq!(a.findings[0].article, "5.2 b");
    assert!(
        a.findings[0].text.contains("ply 1 (1. Kxe2)"),
        "{}",
        a.findings[0].text
    );
    assert_eq!(laws_result(&a), "1/2-1/2");
    assert_eq!(a.laws.termination, Some(Termination::DeadPosition));
    assert_eq!(a.laws.ply, Some(1));
    assert!(!a.agrees());
}

#[test]
fn art_9_6_b_seventyfive_moves_then_more_moves() {
    let a = audit_one(
        "[Result \"1-0\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 149 80\"]\n\n80. Ra2 Kd7 81. Ra3 1-0\n",
    );
    assert_eq!(kinds(&a), [FindingKind::PlayedOn]);
    assert_eq!((a.laws.ply, a.findings[0].article), (Some(1), "9.6 b"));
    assert_eq!(a.laws.termination, Some(Termination::SeventyfiveMoves));
    assert_eq!(laws_result(&a), "1/2-1/2");
}

#[test]
fn art_9_6_fivefold_repetition_then_more_moves_per_edition() {
    let shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(5);
    let pgn = format!("[Result \"1-0\"]\n\n{shuffle}6. e4 e5 1-0\n");
    for (edition, article) in [(Edition::Fide2014, "9.6 a"), (Edition::Fide2018, "9.6.1")] {
        let a = audit_in(&pgn, edition);
        assert_eq!(kinds(&a), [FindingKind::PlayedOn], "{edition:?}");
        assert_eq!(a.laws.termination, Some(Termination::FivefoldRepetition));
        assert_eq!(a.findings[0].article, article);
        // The initial position stands for the fifth time after ply 16
        // (2018: five times); 2014 counts five consecutive alternate moves
        // from a position after a move (plies 1, 5, 9, 13, 17).
        let ply = a.laws.ply.unwrap();
        match edition {
            Edition::Fide2018 => assert_eq!(ply, 16),
            _ => assert!((16..=17).contains(&ply), "{ply}"),
        }
        assert_eq!(laws_result(&a), "1/2-1/2");
    }
}

// ----- a result the final position contradicts ---------------------------

#[test]
fn art_5_1_a_checkmate_scored_as_a_draw() {
    let a = audit_one("[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n");
    assert_eq!(kinds(&a), [FindingKind::WrongResult]);
    assert_eq!((a.laws.ply, a.findings[0].article), (Some(4), "5.1 a"));
    assert_eq!(laws_result(&a), "0-1");
}

#[test]
fn art_5_1_a_checkmate_scored_for_the_mated_side() {
    let a = audit_one("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
    assert_eq!(kinds(&a), [FindingKind::WrongResult]);
    assert_eq!(laws_result(&a), "0-1");
}

#[test]
fn art_5_2_a_stalemate_scored_as_a_win() {
    let a = audit_one("[Result \"1-0\"]\n[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n\n1. Qf7 1-0\n");
    assert_eq!(kinds(&a), [FindingKind::WrongResult]);
    assert_eq!(a.laws.termination, Some(Termination::Stalemate));
    assert_eq!(a.findings[0].article, "5.2 a");
    assert_eq!(laws_result(&a), "1/2-1/2");
}

#[test]
fn art_5_2_b_dead_position_at_the_end_scored_as_a_win() {
    let a =
        audit_one("[Result \"1-0\"]\n[FEN \"4k3/8/8/8/8/8/4p3/2B1K3 w - - 0 1\"]\n\n1. Kxe2 1-0\n");
    assert_eq!(kinds(&a), [FindingKind::WrongResult]);
    assert_eq!(a.laws.termination, Some(Termination::DeadPosition));
}

#[test]
fn art_5_1_2_2023_resignation_when_the_opponent_cannot_mate_is_a_draw() {
    // White resigns against a lone king: 2014 scores it 0-1, 2023 a draw.
    let pgn = "[Result \"0-1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n\n1. Ra2 Kd7 0-1\n";
    let a = audit_in(pgn, Edition::Fide2014);
    assert_clean(&a);
    let a = audit_in(pgn, Edition::Fide2023);
    assert_eq!(kinds(&a), [FindingKind::WrongResult]);
    assert_eq!(
        (laws_result(&a).as_str(), a.findings[0].article),
        ("1/2-1/2", "5.1.2")
    );
    let why = "By resignation the result is 1/2-1/2 since the opponent cannot checkmate by any series of legal moves (Art. 5.1.2), not the recorded 0-1.";
    assert_eq!(a.findings[0].text, why);
    // The same resignation with Black to move (White resigns after his own
    // move): the opponent is still Black, whoever has the move.
    let pgn = "[Result \"0-1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n\n1. Ra2 0-1\n";
    let a = audit_in(pgn, Edition::Fide2023);
    assert_eq!(kinds(&a), [FindingKind::WrongResult]);
    assert_eq!(a.findings[0].text, why);
}

// ----- flag fall (6.9) -----------------------------------------------------

const LONE_KING_WINS_ON_TIME: &str = "[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n[TimeControl \"60+0\"]\n[FEN \"q7/8/8/4k3/8/8/8/4K3 b - - 0 1\"]\n\n1... Qa2 { [%clk 0:00:50] } 2. Kf1 { [%clk 0:00:40] } 1-0\n";

#[test]
fn art_6_9_loss_on_time_where_the_winner_cannot_mate_is_a_draw() {
    let a = audit_one(LONE_KING_WINS_ON_TIME);
    assert_eq!(kinds(&a), [FindingKind::TimeoutDraw]);
    assert_eq!((a.findings[0].ply, a.findings[0].article), (Some(2), "6.9"));
    assert_eq!(a.laws.termination, Some(Termination::TimeoutDraw));
    assert_eq!(laws_result(&a), "1/2-1/2");
    assert_eq!(a.recorded.clock, [Some(40_000), Some(50_000)]);
    assert!(
        a.findings[0].text.contains("White cannot checkmate"),
        "{}",
        a.findings[0].text
    );
}

#[test]
fn art_6_9_without_a_clock_the_position_decides() {
    let pgn = LONE_KING_WINS_ON_TIME
        .replace("[TimeControl \"60+0\"]\n", "")
        .replace(" { [%clk 0:00:50] }", "")
        .replace(" { [%clk 0:00:40] }", "");
    let a = audit_one(&pgn);
    assert_eq!(kinds(&a), [FindingKind::TimeoutDraw]);
}

/// chess.com writes its `Termination` tag in the language of the player who
/// downloads the games: "Victoria de A por tiempo" is a flag fall, read as
/// such, so that 6.9 is applied (White's lone knight cannot mate a king and
/// queen: a draw). It was read as a resignation.
#[test]
fn art_6_9_a_time_forfeit_written_in_spanish() {
    let pgn = "[Event \"Live Chess\"]\n[Site \"Chess.com\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/2k5/7q/K1N5 w - - 0 1\"]\n[Termination \"Victoria de A por tiempo\"]\n\n1. Ne2+ Kd3 1-0\n";
    let a = audit_one(pgn);
    assert_eq!(kinds(&a), [FindingKind::TimeoutDraw]);
    assert_eq!(a.laws.termination, Some(Termination::TimeoutDraw));
    assert_eq!(laws_result(&a), "1/2-1/2");
    // "por abandono" is a resignation: the result stands (2014).
    let resigned = audit_one(&pgn.replace("por tiempo", "por abandono"));
    assert!(resigned.findings.is_empty(), "{:?}", kinds(&resigned));
    assert_eq!(resigned.laws.termination, Some(Termination::Resignation));
}

#[test]
fn art_6_9_correct_time_forfeit_agrees() {
    // Black flags; White has a queen.
    assert_agrees_by("[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n[TimeControl \"180+2\"]\n[FEN \"4k3/8/8/8/8/8/8/Q3K3 w - - 0 1\"]\n\n1. Qa2 { [%clk 0:03:01] } Kd7 { [%clk 0:00:00] } 2. Qa3 { [%clk 0:03:02] } 1-0\n", Termination::Timeout);
}

#[test]
fn art_6_9_time_out_scored_as_a_draw_although_the_opponent_could_mate() {
    // Black to move flags; White has a rook, so White wins.
    let a = audit_one("[Result \"1/2-1/2\"]\n[Termination \"Time forfeit\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n\n1. Ra2 1/2-1/2\n");
    assert_eq!(kinds(&a), [FindingKind::TimeoutWin]);
    assert_eq!(laws_result(&a), "1-0");
}

/// 6.9 asks whether the winner can checkmate by any series of legal moves,
/// not how much material he has: a lone knight cannot mate a king and
/// queen (no such checkmate exists), but can mate a king and rook, whose
/// rook may wall its own king in; a lone bishop can mate a king and knight.
/// Each verdict checked with python-chess: an exhaustive mate search, a
/// helpmate line (the rook: 22 plies, ending Nb6#; the knight: 16 plies,
/// ending Bg7#).
#[test]
fn art_6_9_a_minor_piece_mates_by_the_help_of_the_other_sides_pieces() {
    let flag = |fen: &str, moves: &str, result: &str| {
        audit_one(&format!(
            "[Result \"{result}\"]\n[Termination \"Time forfeit\"]\n[FEN \"{fen}\"]\n\n{moves} {result}\n"
        ))
    };
    // Black flags against a lone knight: with a queen, a draw.
    let queen = flag(
        "kq6/8/8/8/8/5N2/8/7K w - - 0 1",
        "1. Nd4 Qb7+ 2. Kg1",
        "1-0",
    );
    assert_eq!(kinds(&queen), [FindingKind::TimeoutDraw]);
    assert_eq!(queen.laws.termination, Some(Termination::TimeoutDraw));
    assert_eq!(laws_result(&queen), "1/2-1/2");
    assert!(
        queen.findings[0].text.contains("White cannot checkmate"),
        "{}",
        queen.findings[0].text
    );
    // With a rook instead, White wins; scored as a draw, the audit says so.
    let rook = "kr6/8/8/8/8/5N2/8/7K w - - 0 1";
    let won = flag(rook, "1. Nd4 Rb7 2. Kg1", "1-0");
    assert_clean(&won);
    assert_eq!(won.laws.termination, Some(Termination::Timeout));
    let drawn = flag(rook, "1. Nd4 Rb7 2. Kg1", "1/2-1/2");
    assert_eq!(kinds(&drawn), [FindingKind::TimeoutWin]);
    assert_eq!(laws_result(&drawn), "1-0");
    // A bishop against a knight: a win.
    let knight = flag(
        "8/8/8/3K3k/8/5n2/1B6/8 w - - 0 1",
        "1. Kc6 Kg5 2. Kd6",
        "1-0",
    );
    assert_clean(&knight);
    assert_eq!(knight.laws.termination, Some(Termination::Timeout));
}

#[test]
fn art_6_9_draw_on_time_against_insufficient_material_agrees() {
    // Black, with a rook, flags against a lone king: a draw.
    assert_agrees_by("[Result \"1/2-1/2\"]\n[Termination \"Game drawn by timeout vs insufficient material\"]\n[FEN \"r3k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kf2 1/2-1/2\n", Termination::TimeoutDraw);
}

#[test]
fn art_6_9_a_day_a_move_as_chess_com_writes_it() {
    // chess.com's daily games: `TimeControl "1/86400"`, a day for each move
    // that does not carry over, the clock after a move what is left of that
    // day. Read as the PGN standard reads the tag (the time saved carries
    // over), White's fourth move seemed to take 97 hours of his 96: a move
    // the record has was completed, so it took at most the time left, and
    // Black's flag fall stands (and the repetition claim of a daily game).
    let flag = "[Result \"1-0\"]\n[TimeControl \"1/86400\"]\n[Termination \"W won on time\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 {[%clk 23:00:00]} 1-0\n";
    assert_agrees_by(flag, Termination::Timeout);
    let claim = "[Result \"1/2-1/2\"]\n[TimeControl \"1/432000\"]\n[Termination \"Game drawn by repetition\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 {[%clk 0:04:00]} Ng8 1/2-1/2\n";
    assert_agrees_by(claim, Termination::ThreefoldRepetition);
}

#[test]
fn art_6_9_time_added_to_a_clock_is_no_flag_fall() {
    // Lichess's "+15 s" (or a penalty's two minutes, 7.5): White's clock
    // goes from 5 s to 20 s. The Laws' clock knows the control alone; it
    // must not find White's flag down for spending the time he was given:
    // Black flags with 1 s, and White, with a queen, wins.
    let pgn = "[Result \"1-0\"]\n[TimeControl \"60+0\"]\n[Termination \"Time forfeit\"]\n\n1. e4 {[%clk 0:01:00]} e5 {[%clk 0:01:00]} 2. Nf3 {[%clk 0:00:05]} Nc6 {[%clk 0:00:58]} 3. Bc4 {[%clk 0:00:20]} Bc5 {[%clk 0:00:57]} 4. c3 {[%clk 0:00:02]} Nf6 {[%clk 0:00:01]} 5. d3 {[%clk 0:00:01]} 1-0\n";
    assert_agrees_by(pgn, Termination::Timeout);
    // The same clocks, White with a queen against a lone king.
    let pgn = "[Result \"1-0\"]\n[TimeControl \"60+0\"]\n[Termination \"Time forfeit\"]\n[FEN \"7k/8/8/8/8/8/8/1Q2K3 w - - 0 1\"]\n\n1. Qb2 {[%clk 0:00:05]} Kg8 {[%clk 0:00:58]} 2. Qb3+ {[%clk 0:00:20]} Kh8 {[%clk 0:00:57]} 3. Qb4 {[%clk 0:00:02]} 1-0\n";
    let a = audit_one(pgn);
    assert_clean(&a);
}

#[test]
fn art_6_11_both_flags_fallen_is_a_draw() {
    // FICS writes "Game drawn because both players ran out of time": which
    // flag fell first cannot be established from the record, so the game
    // is drawn (2014 6.11 b; Guidelines III.3.1 from 2018), whoever has a
    // mate; a win recorded so is a wrong result.
    for (edition, article) in [(Edition::Fide2014, "6.11"), (Edition::Fide2023, "III.3.1")] {
        let pgn = "[Result \"1/2-1/2\"]\n[TimeControl \"180+0\"]\n[Termination \"Game drawn because both players ran out of time\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n";
        let a = audit_in(pgn, edition);
        assert_clean(&a);
        assert_eq!(a.laws.termination, Some(Termination::BothFlags));
        assert_eq!(a.laws.article, Some(article));
        let a = audit_in(&pgn.replace("1/2-1/2", "1-0"), edition);
        assert_eq!(kinds(&a), [FindingKind::WrongResult]);
        assert_eq!(laws_result(&a), "1/2-1/2");
    }
}

#[test]
fn art_6_11_both_flags_before_the_last_period_the_game_goes_on() {
    // Two moves in a minute, then a minute for the rest: both flags down
    // after one move each, in the first period, and the game goes on
    // (2014 6.11 a; III.3.1); the record's draw stands as an agreement
    // may explain it, reported. After three moves each, in the last
    // period: drawn by both flags.
    for (edition, article) in [(Edition::Fide2014, "6.11"), (Edition::Fide2023, "III.3.1")] {
        let head = "[Result \"1/2-1/2\"]\n[TimeControl \"2/60:60\"]\n[Termination \"Both flags fell\"]\n\n";
        let a = audit_in(&format!("{head}1. e4 e5 1/2-1/2\n"), edition);
        assert_one_finding(
            &a,
            FindingKind::UnfoundedTermination,
            article,
            "White had still 1 move to complete in a period before the last",
        );
        assert!(a.agrees());
        assert_eq!(a.laws.termination, Some(Termination::Agreement));
        let a = audit_in(
            &format!("{head}1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 1/2-1/2\n"),
            edition,
        );
        assert_clean(&a);
        assert_eq!(a.laws.termination, Some(Termination::BothFlags));
        assert_eq!(a.laws.article, Some(article));
    }
}

#[test]
fn art_6_9_a_flag_fall_as_fics_writes_it() {
    // FICS's database has no Termination tag: the end is a sentence after
    // the last move, `{White forfeits on time} 0-1` (or, lately, a
    // LongResult tag). Black has a lone king: a draw by 6.9, which a
    // reading as a resignation (it stands in 2014) would miss.
    let head = "[Event \"FICS rated blitz game\"]\n[Result \"0-1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n";
    for pgn in [
        format!("{head}\n1. Kd2 Kd7 2. Kd3 {{White forfeits on time}} 0-1\n"),
        format!(
            "{head}\n1. Kd2 Kd7 2. Kd3 {{Game 12 (alpha vs. beta) alpha forfeits on time}} 0-1\n"
        ),
        format!("{head}[LongResult \"White forfeits on time\"]\n\n1. Kd2 Kd7 2. Kd3 0-1\n"),
        // ICC writes it in a tag of its own.
        format!("{head}[ICCResult \"White forfeits on time\"]\n\n1. Kd2 Kd7 2. Kd3 0-1\n"),
        // With the move's clock in the same comment.
        format!("{head}\n1. Kd2 Kd7 2. Kd3 {{[%clk 0:00:00] White forfeits on time}} 0-1\n"),
    ] {
        let a = audit_one(&pgn);
        assert_eq!(kinds(&a), [FindingKind::TimeoutDraw], "{pgn}");
        assert_eq!(laws_result(&a), "1/2-1/2");
        assert_eq!(
            a.recorded.end,
            arbiter_laws::audit::RecordedEnd::TimeForfeit
        );
        // The lean reading (from the text) reads the same.
        assert_eq!(audit_lean(&pgn), a);
    }
    // An annotator's last comment, or a sentence after an earlier move,
    // says nothing of the end: a resignation.
    for pgn in [
        format!("{head}\n1. Kd2 Kd7 2. Kd3 {{White is short of time}} 0-1\n"),
        format!("{head}\n1. Kd2 Kd7 {{White forfeits on time}} 2. Kd3 0-1\n"),
    ] {
        let a = audit_one(&pgn);
        assert_clean(&a);
        assert_eq!(a.laws.termination, Some(Termination::Resignation), "{pgn}");
    }
    // Where a Termination tag says how, it is read first.
    let pgn = format!("{head}[Termination \"White resigns\"]\n\n1. Kd2 Kd7 2. Kd3 {{White forfeits on time}} 0-1\n");
    assert_eq!(
        audit_one(&pgn).laws.termination,
        Some(Termination::Resignation)
    );
}

#[test]
fn art_6_9_a_drawn_flag_fall_as_fics_writes_it() {
    // "White ran out of time and Black has no material to mate": FICS
    // counts a knight as no mating material; by 6.9 what counts is whether
    // Black can checkmate by any series of legal moves. A lone king
    // cannot: the draw stands. A knight, with a White pawn left to block
    // its king's flight, can: Black wins (White's flag, as the sentence
    // names).
    let sentence = "{White ran out of time and Black has no material to mate} 1/2-1/2";
    for (fen, moves, laws) in [
        (
            "8/8/8/4k3/8/8/8/R6K w - - 0 1",
            "1. Kh2 Kd5 2. Kg3 Ke5",
            "1/2-1/2",
        ),
        // The flag named, not the player having the move, is judged.
        (
            "8/8/8/4k3/8/8/8/R6K w - - 0 1",
            "1. Kh2 Kd5 2. Kg3",
            "1/2-1/2",
        ),
        (
            "8/8/8/4k3/8/8/6nP/7K w - - 0 1",
            "1. Kg1 Nf4 2. Kh1 Ne6",
            "0-1",
        ),
    ] {
        let pgn = format!("[Result \"1/2-1/2\"]\n[FEN \"{fen}\"]\n\n{moves} {sentence}\n");
        let a = audit_one(&pgn);
        assert_eq!(laws_result(&a), laws, "{fen}");
        if laws == "0-1" {
            assert_eq!(kinds(&a), [FindingKind::TimeoutWin], "{fen}");
            assert!(
                a.findings[0].text.contains("White's flag fall"),
                "{}",
                a.findings[0].text
            );
        } else {
            assert_clean(&a);
            assert_eq!(a.laws.termination, Some(Termination::TimeoutDraw));
        }
    }
}

#[test]
fn art_9_2_a_threefold_repetition_not_claimed_in_time() {
    // FICS's "Game drawn by repetition" after the game went on past the
    // repetition (GMMotylev-GMRakhmanov, FICS game 452236710, ends so): the
    // claim at the end is not correct (9.2 b: the position has just
    // appeared, the claimant having the move); the finding says when it was.
    let pgn = "[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nc3 {Game drawn by repetition} 1/2-1/2\n";
    let a = audit_one(pgn);
    assert_eq!(kinds(&a), [FindingKind::UnfoundedTermination]);
    let text = &a.findings[0].text;
    assert!(
        text.contains("the position on the board has not appeared for the third time")
            && text.contains("the position after ply 8 (4... Ng8) had appeared for the third time"),
        "{text}"
    );
    assert!(a.agrees());
    // Claimed in time: correct.
    assert_agrees_by(
        &pgn.replace(" 5. Nc3", ""),
        Termination::ThreefoldRepetition,
    );
}

#[test]
fn art_6_7_a_game_of_no_moves_says_its_end_before_them() {
    // FICS writes a game lost before any move as its sentence alone.
    let pgn = "[Result \"0-1\"]\n\n{White forfeits by disconnection} 0-1\n";
    let a = audit_one(pgn);
    assert_eq!(a.recorded.end, arbiter_laws::audit::RecordedEnd::Forfeit);
    assert_eq!(a.laws.termination, Some(Termination::Forfeit));
    assert_clean(&a);
    assert_eq!(audit_lean(pgn), a);
    // With a move, a comment before it says nothing of the end.
    let a = audit_one("[Result \"0-1\"]\n\n{White forfeits by disconnection} 1. e4 0-1\n");
    assert_eq!(a.laws.termination, Some(Termination::Resignation));
}

#[test]
fn art_7_5_b_a_loss_by_an_illegal_move_the_record_does_not_hold() {
    // TCEC's `Termination "illegal move"`: the loser's illegal move is not
    // in the record. Lost, or drawn if the opponent cannot checkmate by any
    // series of legal moves (7.5 b / 7.5.5): judged on the final position.
    let pgn = "[Result \"0-1\"]\n[Termination \"illegal move\"]\n\n1. e4 e5 0-1\n";
    for (edition, article) in [(Edition::Fide2014, "7.5 b"), (Edition::Fide2023, "7.5.5")] {
        let a = audit_in(pgn, edition);
        assert!(a.findings.is_empty(), "{:?}", a.findings);
        assert_eq!(a.laws.termination, Some(Termination::IllegalMove));
        assert_eq!(a.laws.article, Some(article));
        assert!(a.agrees());
    }
    // Black, the recorded winner, has a lone king (a TCEC record).
    let lone = "[Result \"0-1\"]\n[Termination \"illegal move\"]\n[SetUp \"1\"]\n\
                [FEN \"7k/7P/8/8/8/8/3K4/1B6 b - - 0 60\"]\n\n60... Kg7 0-1\n";
    for a in [audit_one(lone), audit_lean(lone)] {
        assert_eq!(kinds(&a), [FindingKind::WrongResult]);
        assert_eq!(a.laws.termination, Some(Termination::IllegalMove));
        let text = &a.findings[0].text;
        assert!(
            text.starts_with("By an illegal move the result is 1/2-1/2 since the opponent cannot checkmate by any series of legal moves (Art. 7.5 b)"),
            "{text}"
        );
        assert!(!a.agrees());
    }
}

#[test]
fn art_9_2_a_claim_by_a_player_whose_clock_read_zero() {
    // The claimant's last [%clk] read 0:00:00 (whole seconds: the rest of a
    // second cut off): the claim is made as his turn begins, at the instant
    // his flag would fall, and is judged on the board (a TCEC record).
    let pgn = "[Result \"1/2-1/2\"]\n[TimeControl \"40/7200:20/3600:900+30\"]\n[Termination \"3-fold rep\"]\n\n\
               1. Nf3 {[%clk 2:00:00]} Nf6 {[%clk 2:00:00]} 2. Ng1 {[%clk 2:00:00]} Ng8 {[%clk 2:00:00]} \
               3. Nf3 {[%clk 1:00:00]} Nf6 {[%clk 2:00:00]} 4. Ng1 {[%clk 0:00:00]} Ng8 {[%clk 2:00:00]} 1/2-1/2\n";
    for a in [audit_one(pgn), audit_lean(pgn)] {
        assert!(a.findings.is_empty(), "{:?}", a.findings);
        assert_eq!(a.laws.termination, Some(Termination::ThreefoldRepetition));
    }
}

#[test]
fn art_9_2_tcec_ends_read_from_termination_details() {
    // TCEC writes `Termination "adjudication"` (or none) and how the game
    // ended in `TerminationDetails`: read as any other end, both readers.
    let head = "[Result \"1/2-1/2\"]\n[Termination \"adjudication\"]\n";
    let real = format!(
        "{head}[TerminationDetails \"3-Fold repetition\"]\n\n\
         1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n"
    );
    for a in [audit_one(&real), audit_lean(&real)] {
        assert!(a.findings.is_empty(), "{:?}", a.findings);
        assert_eq!(a.laws.termination, Some(Termination::ThreefoldRepetition));
        assert_eq!(a.recorded.termination.as_deref(), Some("3-Fold repetition"));
    }
    // No repetition: the claim did not happen (reported, the draw kept).
    let unfounded =
        format!("{head}[TerminationDetails \"3-Fold repetition\"]\n\n1. e4 e5 1/2-1/2\n");
    for a in [audit_one(&unfounded), audit_lean(&unfounded)] {
        assert_eq!(kinds(&a), [FindingKind::UnfoundedTermination]);
        let text = &a.findings[0].text;
        assert!(
            text.starts_with("The TerminationDetails tag says \"3-Fold repetition\""),
            "{text}"
        );
        assert!(a.agrees());
    }
    // Without a Termination tag too; a mate as TCEC names it.
    let mate =
        "[Result \"0-1\"]\n[TerminationDetails \"Black mates\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    for a in [audit_one(mate), audit_lean(mate)] {
        assert!(a.findings.is_empty(), "{:?}", a.findings);
        assert_eq!(a.laws.termination, Some(Termination::Checkmate));
    }
    // A Termination tag that names the end is read first.
    let both = "[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n[TerminationDetails \"Black mates\"]\n\n1. e4 e5 0-1\n";
    for a in [audit_one(both), audit_lean(both)] {
        assert_eq!(a.recorded.termination.as_deref(), Some("Time forfeit"));
        assert_eq!(a.laws.termination, Some(Termination::Timeout));
    }
}

#[test]
fn art_9_3_an_unfounded_claim_as_fics_writes_it() {
    // The finding names where the record says it.
    let pgn = "[Result \"1/2-1/2\"]\n[LongResult \"Game drawn by the 50 move rule\"]\n\n1. e4 e5 {Game drawn by the 50 move rule} 1/2-1/2\n";
    let a = audit_one(pgn);
    assert_eq!(kinds(&a), [FindingKind::UnfoundedTermination]);
    assert!(
        a.findings[0].text.starts_with("The LongResult tag says"),
        "{}",
        a.findings[0].text
    );
    let a = audit_one(&pgn.replace("[LongResult \"Game drawn by the 50 move rule\"]\n", ""));
    assert_eq!(kinds(&a), [FindingKind::UnfoundedTermination]);
    assert!(
        a.findings[0]
            .text
            .starts_with("The comment after the last move says"),
        "{}",
        a.findings[0].text
    );
    assert!(a.agrees());
    // ICC's "White stalemated" (its ICCResult tag) on a position that is not.
    let a =
        audit_one("[Result \"1/2-1/2\"]\n[ICCResult \"White stalemated\"]\n\n1. e4 e5 1/2-1/2\n");
    assert_eq!(kinds(&a), [FindingKind::UnfoundedTermination]);
    let text = &a.findings[0].text;
    assert!(
        text.starts_with(
            "The ICCResult tag says \"White stalemated\", but the final position is not stalemate"
        ),
        "{text}"
    );
}

#[test]
fn art_5_1_b_a_resignation_stands_whatever_the_winner_is_called() {
    // chess.com writes the winner's name in the Termination tag: the words
    // of a name ("TimeLord", "qwest50", "deadpool") are not the end's. Black
    // resigns; under the 2014 Laws it stands even against a lone king.
    for (name, fen) in [
        ("TimeLord", "4k3/8/8/8/8/8/3p4/7K w - - 0 1"),
        ("qwest50", "4k3/8/8/8/8/8/3p4/7K w - - 0 1"),
        ("deadpool", "4k3/8/8/8/8/8/3p4/Q6K w - - 0 1"),
    ] {
        let pgn = format!("[White \"{name}\"]\n[Result \"1-0\"]\n[FEN \"{fen}\"]\n[Termination \"{name} won by resignation\"]\n\n1. Kg2 Ke7 1-0\n");
        let a = audit_one(&pgn);
        assert_eq!(a.laws.termination, Some(Termination::Resignation), "{name}");
        assert_eq!(laws_result(&a), "1-0", "{name}");
        assert!(a.findings.is_empty(), "{name}: {:?}", a.findings);
    }
}

// ----- terminations that did not happen ----------------------------------

#[test]
fn art_9_2_repetition_without_a_threefold_repetition() {
    let a = audit_one("[Result \"1/2-1/2\"]\n[Termination \"Game drawn by repetition\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n");
    assert_eq!(kinds(&a), [FindingKind::UnfoundedTermination]);
    assert_eq!(a.findings[0].article, "9.2 b");
    // The result is left as recorded: agreement may explain it.
    assert!(a.agrees());
    assert_eq!(a.laws.termination, Some(Termination::Agreement));
}

#[test]
fn art_9_2_correct_repetition_claims_agree() {
    // The initial position for the third time on the board ...
    assert_agrees_by("[Result \"1/2-1/2\"]\n[Termination \"Game drawn by repetition\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n", Termination::ThreefoldRepetition);
    // ... or by the move Black intends (9.2 a): Ng8, written, not played.
    assert_agrees_by("[Result \"1/2-1/2\"]\n[Termination \"Game drawn by repetition\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 1/2-1/2\n", Termination::ThreefoldRepetition);
}

#[test]
fn art_9_3_fifty_moves_without_them() {
    let a = audit_one(
        "[Result \"1/2-1/2\"]\n[Termination \"Game drawn by 50-move rule\"]\n\n1. e4 e5 1/2-1/2\n",
    );
    assert_eq!(kinds(&a), [FindingKind::UnfoundedTermination]);
    assert_eq!(a.findings[0].article, "9.3 b");
    assert!(a.agrees());
}

#[test]
fn art_9_3_correct_fifty_move_claim_agrees() {
    assert_agrees_by("[Result \"1/2-1/2\"]\n[Termination \"Game drawn by 50-move rule\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 99 60\"]\n\n60. Ra2 1/2-1/2\n", Termination::FiftyMoves);
}

#[test]
fn art_5_2_b_insufficient_material_named_in_a_live_position() {
    // As older chess.com records end a flag fall against a lone king (our
    // own game): "drawn by insufficient material", White to move with a
    // rook. Not dead (5.2 b), so reported; the draw is left as recorded,
    // and the finding says that White's flag fall would give it too (6.9:
    // Black's lone king cannot mate).
    let pgn = "[Result \"1/2-1/2\"]\n[Termination \"Game drawn by insufficient material\"]\n[FEN \"8/8/8/4k3/8/2KR4/8/8 b - - 0 1\"]\n\n1... Kf4 2. Rd5 Ke4 1/2-1/2\n";
    for edition in [Edition::Fide2014, Edition::Fide2023] {
        let article = if edition == Edition::Fide2014 {
            "5.2 b"
        } else {
            "5.2.2"
        };
        let a = audit_in(pgn, edition);
        assert_one_finding(
            &a,
            FindingKind::UnfoundedTermination,
            article,
            "the final position is not dead: a player can still checkmate by a series of legal moves",
        );
        assert!(
            a.findings[0].text.ends_with("is left as recorded, as an agreement may explain it, or White's flag fall: White has the move, and Black cannot checkmate by any series of legal moves (Art. 6.9)."),
            "{}",
            a.findings[0].text
        );
        assert!(a.agrees());
    }
    assert_eq!(audit_lean(pgn), audit_one(pgn));
    // The rook Black's, White to move at the end: White's flag fall would
    // lose (Black can mate), so nothing is added.
    let a = audit_one(
        &pgn.replace("2KR4/8/8 b", "2K5/8/3r4 b")
            .replace("Kf4 2. Rd5 Ke4", "Rd2 2. Kb3 Ke4"),
    );
    assert_one_finding(
        &a,
        FindingKind::UnfoundedTermination,
        "5.2 b",
        "as an agreement may explain it.",
    );
}

#[test]
fn art_5_1_a_checkmate_named_but_not_on_the_board() {
    let a =
        audit_one("[Result \"1-0\"]\n[Termination \"White won by checkmate\"]\n\n1. e4 e5 1-0\n");
    assert_eq!(kinds(&a), [FindingKind::UnfoundedTermination]);
    assert_eq!(a.findings[0].article, "5.1 a");
    assert!(a.agrees());
}

// ----- clean cases ----------------------------------------------------------

#[test]
fn art_5_1_a_correct_checkmate_agrees() {
    let a = audit_one("[Result \"0-1\"]\n[Termination \"Normal\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
    assert!(a.agrees() && a.findings.is_empty());
    assert_eq!((a.laws.ply, a.laws.article), (Some(4), Some("5.1 a")));
}

#[test]
fn art_5_1_b_resignation_agrees() {
    let a = audit_one("[Result \"0-1\"]\n\n1. e4 e5 2. Qh5 Nc6 0-1\n");
    assert!(a.agrees() && a.findings.is_empty());
    assert_eq!(a.laws.termination, Some(Termination::Resignation));
    assert_eq!(a.laws.ply, Some(4));
}

#[test]
fn art_5_2_c_agreement_agrees_and_2018_needs_a_move_each() {
    let a = audit_one("[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n");
    assert!(a.agrees() && a.findings.is_empty());
    assert_eq!(a.laws.termination, Some(Termination::Agreement));
    let a = audit_in("[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2\n", Edition::Fide2018);
    assert_eq!(kinds(&a), [FindingKind::WrongResult]);
    assert_eq!(a.findings[0].article, "5.2.3");
}

/// NUL bytes after the result (two real games of the pgnmentor files end
/// `1/2-1/2\0\0`, `0-1\0\0`) are whitespace: the result is the record's
/// (Art. 8.7: the result the players sign), not an illegal move.
#[test]
fn nul_bytes_after_the_result_are_not_a_move() {
    let pgn = "[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\0\0\n";
    for a in [audit_one(pgn), audit_lean(pgn)] {
        assert_clean(&a);
        assert_eq!(a.laws.termination, Some(Termination::Agreement));
        assert_eq!(a.plies, 2);
    }
}

#[test]
fn an_unfinished_game_is_still_going() {
    let a = audit_one("[Result \"*\"]\n\n1. e4 e5 *\n");
    assert!(a.agrees() && a.findings.is_empty());
    assert_eq!(a.laws, Default::default());
}

#[test]
fn chess960_castling_is_replayed() {
    // Kings on c1 and c8: castling king-side takes the king to g1, the rook to f1.
    let a = audit_one("[Variant \"Chess960\"]\n[FEN \"r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w HAha - 0 1\"]\n[Result \"1-0\"]\n\n1. O-O O-O 2. e4 e5 1-0\n");
    assert_clean(&a);
    assert_eq!(a.plies, 4);
}

// ----- broken records ---------------------------------------------------------

#[test]
fn art_7_5_an_illegal_move_is_reported_and_the_next_game_audited() {
    let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    let games = records(pgn);
    assert_eq!(games.len(), 2);
    let a = audit(&games[0], &Options::default());
    assert_eq!(kinds(&a), [FindingKind::IllegalMove]);
    let f = &a.findings[0];
    assert_eq!(f.ply, Some(3));
    let place = f.place.unwrap();
    assert_eq!((place.line, place.column), (3, 13));
    assert!(f.text.contains("Ke3"), "{}", f.text);
    assert!(!a.agrees());
    let b = audit(&games[1], &Options::default());
    assert!(b.agrees() && b.findings.is_empty());
}

#[test]
fn art_1_1_a_null_move_is_refused_where_it_is_written() {
    // ChessBase writes `Z0` for a move not made (python-chess's
    // anastasian-lewis.pgn has one at move 41): no move under the Laws, the
    // players move alternately (1.1), refused as an illegal move (7.5).
    let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3\nZ0 3. Bc4 1-0\n\n[Result \"1-0\"]\n\n1. e4 -- 2. d4 1-0\n";
    let mut reader = Reader::new(pgn.as_bytes());
    let mut lean = TranscriptReader::new();
    for (written, ply, line, column) in [("Z0", 4, 4, 1), ("--", 2, 8, 7)] {
        assert!(reader.read_game(&mut lean).unwrap().is_some());
        let a = audit_transcript(lean.transcript(), &Options::default());
        assert_eq!(kinds(&a), [FindingKind::IllegalMove], "{written}");
        let f = &a.findings[0];
        assert_eq!(f.ply, Some(ply), "{written}");
        let place = f.place.expect("where it is written");
        assert_eq!((place.line, place.column), (line, column), "{written}");
        assert!(
            f.text
                .contains(&format!("({written}, line {line}, column {column})")),
            "{}",
            f.text
        );
        assert!(
            f.text.contains("null move") && f.text.contains("1.1"),
            "{}",
            f.text
        );
        assert!(!a.agrees());
    }
}

#[test]
fn art_8_1_a_result_tag_the_movetext_contradicts_is_reported() {
    // The tag is judged (Black mates: 0-1 agrees with the Laws), the
    // contradiction reported; a `*` on either side is no contradiction.
    let a = audit_one("[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
    assert_eq!(kinds(&a), [FindingKind::Unreadable]);
    assert!(
        a.findings[0]
            .text
            .contains("says 0-1 but the movetext ends 1-0"),
        "{}",
        a.findings[0].text
    );
    assert_eq!(laws_result(&a), "0-1");
    assert!(!a.agrees());
    for pgn in [
        "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
        "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# *\n",
    ] {
        let a = audit_one(pgn);
        assert!(a.findings.is_empty(), "{pgn}: {:?}", a.findings);
    }
}

#[test]
fn art_8_1_a_termination_naming_the_winner_as_loser_is_reported() {
    // "White lost on time" with 1-0: the record contradicts itself; the
    // result is judged (Black flags), the contradiction reported.
    let pgn = "[Result \"1-0\"]\n[Termination \"White lost on time\"]\n\n1. e4 e5 2. Nf3 1-0\n";
    let a = audit_one(pgn);
    assert_eq!(kinds(&a), [FindingKind::Unreadable]);
    assert!(
        a.findings[0].text.contains("says White lost"),
        "{}",
        a.findings[0].text
    );
    assert_eq!(laws_result(&a), "1-0");
    let a = audit_one(&pgn.replace("1-0", "0-1"));
    assert!(a.findings.is_empty() && a.agrees(), "{:?}", a.findings);
}

#[test]
fn the_annotated_record_audits_as_the_record_did() {
    // The Result written is the one judged: the tag, whatever the movetext
    // ends with (`*` against 1/2-1/2 either way round), so that auditing
    // the annotated file gives the same verdict.
    use arbiter_laws::audit::annotate;
    for pgn in [
        "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n",
        "[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
        "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n",
    ] {
        let record = &records(pgn)[0];
        let options = Options::default();
        let first = audit(record, &options);
        let text = annotate(record, &first, options.edition).to_pgn();
        let again = audit(&records(&text)[0], &options);
        assert_eq!(
            (
                first.recorded.result,
                first.laws.result,
                first.laws.termination
            ),
            (
                again.recorded.result,
                again.laws.result,
                again.laws.termination
            ),
            "{pgn} -> {text}"
        );
    }
}

/// Art. 8.1 (the record): a record whose `Result` tag its movetext's
/// marker contradicts, or whose movetext has no marker, is reported
/// `unreadable`; its annotated copy keeps the marker as written, so that
/// auditing the copy gives the same findings (docs/audit.md: "The annotated
/// file audits as the record did"). Found by a tester: the copy was written
/// with the tag's result as its marker and audited with no finding.
#[test]
fn art_8_1_the_annotated_copy_keeps_a_contradicted_or_missing_marker() {
    use arbiter_laws::audit::annotated_pgn;
    for pgn in [
        "[Result \"1-0\"]\n\n1. e4 e5 0-1\n",
        "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n",
        "[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n",
        "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3\n",
    ] {
        let record = &records(pgn)[0];
        let options = Options::default();
        let first = audit(record, &options);
        assert!(kinds(&first).contains(&FindingKind::Unreadable), "{pgn}");
        let text = annotated_pgn(record, &first, options.edition, &Default::default());
        let copy = records(&text);
        assert_eq!(copy.len(), 1, "{text}");
        let again = audit(&copy[0], &options);
        let said = |a: &arbiter_laws::audit::Audit| -> Vec<(FindingKind, String)> {
            a.findings
                .iter()
                .map(|f| (f.kind, f.text.clone()))
                .collect()
        };
        assert_eq!(said(&again), said(&first), "{pgn} -> {text}");
        assert_eq!(
            (again.agrees(), again.recorded.result, again.laws.result),
            (first.agrees(), first.recorded.result, first.laws.result),
            "{pgn} -> {text}"
        );
    }
}

/// Art. 8.1 against 7.5: a file that is no PGN (a web page saved as
/// `.pgn`, the byte-order mark of a UTF-16 export, which is not UTF-8) is
/// an unreadable record, not a player's illegal
/// move; a move in the notation that the position refuses (`Ke3`), or one
/// mistyped in it (`Ke9`, the null move `Z0`), stays an illegal move.
/// Found by a tester: every such file was reported as illegal moves.
#[test]
fn art_8_1_text_that_is_no_chess_is_unreadable_not_an_illegal_move() {
    let html = "<!DOCTYPE html>\n<html><head><title>Games</title></head></html>\n";
    let mut utf16 = vec![0xff, 0xfe];
    for unit in "[White \"A\"]\n\n1. e4 e5 1-0\n".encode_utf16() {
        utf16.extend(unit.to_le_bytes());
    }
    // (The UTF-16 export's first game, which starts with the mark: its
    // later text, read with its NUL bytes as whitespace, is letters apart.)
    for (bytes, games) in [(html.as_bytes(), usize::MAX), (&utf16[..], 1)] {
        for record in Reader::new(bytes).games().take(games) {
            let record = record.unwrap();
            let a = audit(&record, &Options::default());
            let kinds = kinds(&a);
            assert!(kinds.contains(&FindingKind::Unreadable), "{kinds:?}");
            assert!(!kinds.contains(&FindingKind::IllegalMove), "{kinds:?}");
            let t = arbiter_laws::audit::Transcript::from_record(&record);
            assert_eq!(
                kinds,
                self::kinds(&audit_transcript(&t, &Options::default()))
            );
        }
    }
    for pgn in [
        "[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n",
        "[Result \"1-0\"]\n\n1. e4 e5 2. Ke9 1-0\n",
        "[Result \"1-0\"]\n\n1. e4 e5 2. Z0 1-0\n",
    ] {
        assert!(
            kinds(&audit_one(pgn)).contains(&FindingKind::IllegalMove),
            "{pgn}"
        );
    }
}

#[test]
fn art_8_1_an_unreadable_fen_is_reported() {
    let a = audit_one("[FEN \"8/8/8/8 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n");
    assert_eq!(kinds(&a), [FindingKind::Unreadable]);
    assert_eq!(a.findings[0].place.map(|p| p.line), Some(1));
    assert!(!a.agrees());
}

/// A variant's record (as Lichess exports a user's Crazyhouse games among
/// the others) is reported as not chess, not as a record broken somewhere;
/// the next game is audited as ever, in the lean reading too.
#[test]
fn art_1_a_variant_is_not_judged_by_the_laws_of_chess() {
    let pgn = "[Event \"Rated Crazyhouse game\"]\n[Variant \"Crazyhouse\"]\n[Result \"1-0\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qd8 4. P@d5 1-0\n\n[Event \"Rated Blitz game\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    for games in [
        records(pgn)
            .iter()
            .map(|g| audit(g, &Options::default()))
            .collect::<Vec<_>>(),
        vec![audit_lean(
            pgn.split("\n\n[Event \"Rated Blitz").next().unwrap(),
        )],
    ] {
        let a = &games[0];
        assert_one_finding(
            a,
            FindingKind::Unreadable,
            "1.1",
            "The record is of \"Crazyhouse\" (line 2, column 1), not of chess",
        );
        assert_eq!(a.findings[0].place.map(|p| p.line), Some(2));
        assert_eq!(a.laws.result, None);
        if let Some(b) = games.get(1) {
            assert_clean(b);
            assert_eq!(b.laws.termination, Some(Termination::Checkmate));
        }
    }
}

#[test]
fn art_3_10_c_a_game_from_an_illegal_position_is_not_judged() {
    // An odds game as chess.com sets it up (our own: seven white queens and
    // eight pawns, more promoted pieces than missing pawns): a position no
    // series of legal moves reaches, so no game of the Laws, however legal
    // its moves. Said so, not as a record broken somewhere.
    let odds = "[Event \"Odds Chess\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/QQQKQQQQ w kq - 0 1\"]\n\n1. Qxb8 Rxb8 2. Qxb8 1-0\n";
    for (edition, article) in [(Edition::Fide2014, "3.10 c"), (Edition::Fide2023, "3.10.3")] {
        let a = audit_in(odds, edition);
        assert_one_finding(
            &a,
            FindingKind::Unreadable,
            article,
            "The record starts from an illegal position, one that cannot have been reached by any series of legal moves (the FEN tag, line 4, column 1: white has more promoted pieces than missing pawns (8 pawns, 6 extra pieces)): the Laws judge no game from it.",
        );
        assert_eq!(a.findings[0].place.map(|p| p.line), Some(4));
        assert_eq!(a.laws.result, None);
    }
    assert_eq!(audit_lean(odds), audit_one(odds));
    // A FEN tag that is no position at all: no start, no move judged.
    let broken = odds.replace("QQQKQQQQ w", "QQQKQQQQQ w");
    let a = audit_one(&broken);
    assert_eq!(kinds(&a), [FindingKind::Unreadable]);
    assert_eq!(a.findings[0].article, "8.1 a");
    let text = &a.findings[0].text;
    assert!(
        text.starts_with("The FEN tag \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/QQQKQQQQQ w kq - 0 1\" (line 4, column 1) is not a position to start a game from: ")
            && text.ends_with(". The Laws judge no move of the record."),
        "{text}"
    );
    assert_eq!(audit_lean(&broken), a);
}

#[test]
fn a_fen_tag_s_impossible_fields_are_dropped_and_the_game_judged() {
    // The pawn's own square written for the en-passant square, and a
    // castling right for a rook that is gone: fields at odds with the tag's
    // own board, not an illegal position. Dropped (the reader warns), as
    // python-chess and scalachess ignore them, and the game judged: here
    // Scholar's mate, a correct win (Art. 5.1 a / 5.1.1).
    let pgn = "[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBN1 b Qkq e4 0 1\"]\n\n1... e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    for edition in [Edition::Fide2014, Edition::Fide2023] {
        let a = audit_in(pgn, edition);
        assert!(a.findings.is_empty(), "{:?}", a.findings);
        assert!(a.agrees());
        assert_eq!(a.laws.ply, Some(6));
        assert_eq!(a.laws.termination, Some(Termination::Checkmate));
    }
    assert_eq!(audit_lean(pgn), audit_one(pgn));
}

// ----- real games --------------------------------------------------------------

/// The benchmark samples shipped inside the `pgn-reader` crate (a
/// dev-dependency of `arbiter-pgn`), found in Cargo's registry.
fn sample(name: &str) -> Option<Vec<u8>> {
    arbiter_testkit::registry_file("pgn-reader-", &format!("benches/{name}"))
}

#[test]
fn real_games_agree() {
    for name in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
        let Some(bytes) = sample(name) else {
            eprintln!("skipped: {name} (the pgn-reader crate's samples) not in Cargo's registry");
            continue;
        };
        let text = String::from_utf8(bytes).unwrap();
        let games = records(&text);
        assert!(games.len() > 400, "{name}: {} games", games.len());
        let mut disagree = Vec::new();
        let mut played_on = Vec::new();
        for (i, g) in games.iter().enumerate() {
            let a = audit(g, &Options::default());
            if !a.agrees() {
                disagree.push((i + 1, a.findings.clone()));
            }
            for f in &a.findings {
                // Over-the-board games that went on a move past a dead
                // position, drawn all the same: the one finding expected.
                assert_eq!(
                    f.kind,
                    FindingKind::PlayedOn,
                    "{name}, game {}: {f:?}",
                    i + 1
                );
                assert_eq!(a.laws.termination, Some(Termination::DeadPosition));
                let mut dead = g.start;
                for m in g.mainline().take(f.ply.unwrap() as usize) {
                    dead.play_unchecked(m);
                }
                played_on.push((i + 1, f.ply.unwrap(), dead.fen()));
            }
        }
        assert!(disagree.is_empty(), "{name}: {disagree:#?}");
        eprintln!(
            "{name}: {} games agree; played on past a dead position: {played_on:?}",
            games.len()
        );
        let expected: &[(usize, u32)] = if name.starts_with("twic") {
            &[(2, 114), (67, 147), (828, 133), (871, 154)]
        } else {
            &[]
        };
        let found: Vec<(usize, u32)> = played_on.iter().map(|(g, p, _)| (*g, *p)).collect();
        assert_eq!(found, expected, "{name}");
    }
}

// ----- the planted differential test -------------------------------------------

/// What is planted into a random game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Plant {
    /// A win by resignation, or a draw by agreement: nothing to find.
    Clean,
    /// "Game drawn by repetition" where no position has appeared twice.
    Repetition,
    /// "Game drawn by 50-move rule" with fewer than 98 reversible plies.
    Fifty,
    /// A flag fall by the player to move, scored as a draw, although the
    /// opponent has a queen or a rook (he can mate).
    TimeoutAsDraw,
    /// A checkmate or stalemate at the end, scored otherwise.
    WrongResult,
}

#[test]
fn planted_results_and_terminations_are_found_exactly() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    let mut generator = Generator::new(GenOptions {
        seed: 12,
        ..GenOptions::default()
    });
    let mut counts = std::collections::BTreeMap::new();
    let mut pgn = String::new();
    let mut planted = Vec::new();
    while planted.len() < 300 {
        // A random game, played until mate, stalemate or a cut.
        let cut = rng.gen_range(1..120);
        let mut pos = Position::standard();
        let mut moves = Vec::new();
        let mut seen = std::collections::HashMap::from([(pos.zobrist(), 1)]);
        let mut repeated = false;
        while moves.len() < cut {
            let Some(m) = generator.pick_move(&pos) else {
                break;
            };
            moves.push(pos.san(m));
            pos.play_unchecked(m);
            let n = seen.entry(pos.zobrist()).or_insert(0);
            *n += 1;
            repeated |= *n > 1;
        }
        let over = pos.legal_moves().is_empty();
        let material = |c: Color| {
            [
                Role::Pawn,
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
            ]
            .iter()
            .map(|&r| pos.board().by_piece(r.of(c)).count() as usize)
            .sum::<usize>()
        };
        let heavy = |c: Color| {
            pos.board().by_piece(Role::Queen.of(c)).count()
                + pos.board().by_piece(Role::Rook.of(c)).count()
        };
        let turn = pos.turn();
        // Games whose end the Laws would decide in other ways (a dead or
        // nearly dead position, repetitions, long reversible runs) are not
        // used: the plant alone must decide.
        if repeated
            || pos.halfmoves() >= 98
            || material(Color::White) < 3
            || material(Color::Black) < 3
        {
            continue;
        }
        let plant = if over {
            Plant::WrongResult
        } else {
            match rng.gen_range(0..4) {
                0 => Plant::Clean,
                1 => Plant::Repetition,
                2 => Plant::Fifty,
                _ if heavy(!turn) > 0 => Plant::TimeoutAsDraw,
                _ => Plant::Clean,
            }
        };
        let (result, termination) = match plant {
            Plant::Clean if rng.gen_bool(0.5) => ("1/2-1/2", None),
            Plant::Clean => (
                if turn == Color::White { "0-1" } else { "1-0" },
                Some("Normal"),
            ),
            Plant::Repetition => ("1/2-1/2", Some("Game drawn by repetition")),
            Plant::Fifty => ("1/2-1/2", Some("Game drawn by 50-move rule")),
            Plant::TimeoutAsDraw => ("1/2-1/2", Some("Time forfeit")),
            Plant::WrongResult if pos.is_check() => {
                // Mated: score it as a draw or for the mated side.
                if rng.gen_bool(0.5) {
                    ("1/2-1/2", None)
                } else if turn == Color::White {
                    ("1-0", None)
                } else {
                    ("0-1", None)
                }
            }
            Plant::WrongResult => (if rng.gen_bool(0.5) { "1-0" } else { "0-1" }, None),
        };
        let mut text = format!("[Result \"{result}\"]\n");
        if let Some(t) = termination {
            text += &format!("[Termination \"{t}\"]\n");
        }
        text += "\n";
        for (i, san) in moves.iter().enumerate() {
            if i % 2 == 0 {
                text += &format!("{}. ", i / 2 + 1);
            }
            text += san;
            text += " ";
        }
        text += result;
        text += "\n\n";
        pgn += &text;
        *counts.entry(format!("{plant:?}")).or_insert(0) += 1;
        planted.push((plant, moves.len() as u32));
    }
    let games = records(&pgn);
    assert_eq!(games.len(), planted.len());
    for (i, (g, (plant, plies))) in games.iter().zip(&planted).enumerate() {
        let a = audit(g, &Options::default());
        let expected: Vec<FindingKind> = match plant {
            Plant::Clean => vec![],
            Plant::Repetition | Plant::Fifty => vec![FindingKind::UnfoundedTermination],
            Plant::TimeoutAsDraw => vec![FindingKind::TimeoutWin],
            Plant::WrongResult => vec![FindingKind::WrongResult],
        };
        assert_eq!(
            kinds(&a),
            expected,
            "game {}: {plant:?}\n{:?}",
            i + 1,
            a.findings
        );
        let ends_the_game = matches!(plant, Plant::TimeoutAsDraw | Plant::WrongResult);
        assert_eq!(a.agrees(), !ends_the_game, "game {}", i + 1);
        for f in &a.findings {
            assert_eq!(f.ply, Some(*plies), "game {}", i + 1);
        }
    }
    eprintln!("planted: {counts:?}");
    for kind in [
        "Clean",
        "Repetition",
        "Fifty",
        "TimeoutAsDraw",
        "WrongResult",
    ] {
        assert!(
            counts.get(kind).copied().unwrap_or(0) >= 5,
            "too few {kind}: {counts:?}"
        );
    }
}

/// The transcript reader (main line, its positions and clock times only)
/// audits every record as the full record does: the real samples, and
/// generated games with comments, annotation glyphs, variations, set-up
/// positions, Chess960 and `[%clk]` / `[%emt]` times, and hand-written
/// records with null moves, bad moves and a bad start position.
#[test]
fn lean_reading_audits_as_the_full_record() {
    let mut texts = Vec::new();
    for name in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
        match sample(name) {
            Some(bytes) => texts.push(String::from_utf8(bytes).unwrap()),
            None => eprintln!(
                "skipped: {name} (the pgn-reader crate's samples) not in Cargo's registry"
            ),
        }
    }
    let mut generator = Generator::new(GenOptions::default());
    let mut generated = generator.pgn(300);
    // Hand-written: the clocks in comments among other text, a variation
    // holding an illegal move, glyphs, a flag fall under `[%emt]` times.
    generated += "[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n[TimeControl \"60+0\"]\n\n1. e4 $1 { fine [%eval 0.3] [%clk 0:00:50] } (1. d4 Qxh7 2. Ke9) e5 { [%emt 0:00:05] later } 2. Nf3 { [%clk 0:00:01] } (2. Bc4 {!?}) Nc6 { [%clk 0:00:40] } 0-1\n\n";
    // A null move (kept, then refused by the Laws), a move the reader
    // cannot play, a start position that cannot be read, clocks that do not
    // parse, `[%emt]` only, a repeated tag.
    generated += "[White \"A\"]\n[White \"B\"]\n[Result \"1-0\"]\n\n1. e4 { [%clk 0:0x:50] } { [%clk 0:00:49] } e5 2. -- { [%emt 0:00:03] } Nc6 3. Nf3 1-0\n\n";
    generated += "[Result \"0-1\"]\n\n1. e4 e5 2. Qh5 Ke7 3. Qxe5+ Kd6 4. Qd5+ Ke7 5. Ke9 0-1\n\n";
    generated += "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n[Result \"*\"]\n\n1. e4 *\n\n";
    generated += "[TimeControl \"40/7200:3600\"]\n[Result \"1/2-1/2\"]\n\n1. d4 { [%emt 0:01:00] } d5 { [%emt x] [%emt 0:00:30] } 2. c4 1/2-1/2\n\n";
    // How FICS writes ends: a LongResult tag, a sentence after the last
    // move (those after earlier moves say nothing).
    generated += "[LongResult \"Game drawn by repetition\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 {Game drawn by mutual agreement} 2. Nf3 {White resigns} {Black forfeits on time} 1/2-1/2\n\n";
    generated += "[Result \"0-1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. Kd2 {Black resigns} Kd7 { Game 3 (a vs. b) White forfeits on time } 2. Kd3 {a note} {White forfeits on time} 0-1\n\n";
    generated += "[Result \"1-0\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. Kd2 Kd7 {Black forfeits on time} 2. Kd3 1-0\n";
    texts.push(generated);
    for text in texts {
        let mut full_reader = Reader::new(text.as_bytes());
        let mut lean_reader = Reader::new(text.as_bytes());
        let mut lean = TranscriptReader::new();
        let mut games = 0;
        while let Some(full) = full_reader.next_game().unwrap() {
            assert!(
                lean_reader.read_game(&mut lean).unwrap().is_some(),
                "the same games"
            );
            games += 1;
            for edition in [Edition::Fide2014, Edition::Fide2023] {
                let options = Options { edition };
                let (a, b) = (
                    audit(&full, &options),
                    audit_transcript(lean.transcript(), &options),
                );
                assert_eq!(a, without_null_places(b), "game {games}");
            }
        }
        assert!(lean_reader.read_game(&mut lean).unwrap().is_none());
        assert!(games > 0);
    }
}

// ----- one pass and move by move give the same output -----------------------

/// The audit plays each record's line in one pass (`Game::play_line`: each
/// position made once, the dead-position test of Art. 5.2 b settled from the
/// line's end by monotonicity); `audit_move_by_move` applies each move as an
/// event with the test after each. Their outputs must be identical, on real
/// games read lean and in full, under each edition (9.6: the fivefold rule
/// differs), and on generated games cut at random plies with random
/// results, terminations and clock times.
#[test]
fn one_pass_gives_the_move_by_move_output() {
    use arbiter_laws::audit::audit_move_by_move;
    let mut compared = 0;
    for name in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
        let Some(text) = sample(name) else {
            eprintln!("skipped: {name} (the pgn-reader crate's samples) not in Cargo's registry");
            continue;
        };
        let mut reader = Reader::new(&text[..]);
        let mut lean = TranscriptReader::new();
        let full = records(&String::from_utf8_lossy(&text));
        for (i, g) in full.iter().enumerate() {
            assert!(reader.read_game(&mut lean).unwrap().is_some());
            for edition in [Edition::Fide2014, Edition::Fide2023] {
                let options = Options { edition };
                let reference = audit_move_by_move(g, &options);
                assert_eq!(
                    audit(g, &options),
                    reference,
                    "{name}, record {i}, {edition:?}"
                );
                assert_eq!(
                    audit_transcript(lean.transcript(), &options),
                    reference,
                    "{name}, record {i} read lean, {edition:?}"
                );
                compared += 1;
            }
        }
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut generator = Generator::new(GenOptions {
        seed: 7,
        ..GenOptions::default()
    });
    let results = ["1-0", "0-1", "1/2-1/2", "*"];
    let terminations = [
        None,
        Some("Normal"),
        Some("Time forfeit"),
        Some("Game drawn by repetition"),
        Some("Game drawn by 50-move rule"),
        Some("Abandoned"),
    ];
    for i in 1..=1500 {
        let mut g = generator.game(i);
        let n = g.line.nodes.len();
        g.line.nodes.truncate(rng.gen_range(0..=n));
        g.tags
            .set("Result", results[rng.gen_range(0..results.len())]);
        if let Some(t) = terminations[rng.gen_range(0..terminations.len())] {
            g.tags.set("Termination", t);
        }
        if rng.gen_bool(0.5) {
            g.tags.set("TimeControl", "60+1");
            let mut left = [60_000u64, 60_000];
            for (ply, node) in g.line.nodes.iter_mut().enumerate() {
                let c = &mut left[ply % 2];
                *c = (*c + 1000).saturating_sub(rng.gen_range(0..4000));
                node.clock_ms = Some(*c);
            }
        }
        let edition = [Edition::Fide2014, Edition::Fide2018, Edition::Fide2023][i as usize % 3];
        let options = Options { edition };
        assert_eq!(
            audit(&g, &options),
            audit_move_by_move(&g, &options),
            "generated game {i}: {}",
            g.to_pgn()
        );
        compared += 1;
    }
    assert!(compared >= 1500, "{compared} audits compared");
}

/// The JSON line written by hand is the one serde writes for the same
/// `AuditLine`: every kind of finding (with and without a place), clocks,
/// names that need escaping, and generated games.
#[test]
fn the_json_line_is_the_one_serde_writes() {
    use arbiter_laws::audit::AuditLine;
    let mut pgn = String::from(concat!(
        "[White \"Quote \\\"me\\\" \\\\ back\"]\n[Black \"Tab\there \u{e9}\u{4e2d}\"]\n",
        "[Site \"line\u{1}feed\"]\n[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n",
        "[FEN \"q7/8/8/4k3/8/8/8/4K3 b - - 0 1\"]\n[SetUp \"1\"]\n\n",
        "1... Qa2 {[%clk 0:00:10]} 2. Kf1 {[%clk 0:00:00]} 1-0\n\n",
        "[Result \"1/2-1/2\"]\n[Termination \"repetition\"]\n\n1. e4 e5 2. Nf3 1/2-1/2\n\n",
        "[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n",
        "[FEN \"not a fen\"]\n[Result \"*\"]\n\n1. e4 *\n\n",
        "[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n\n",
        "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5\n",
    ));
    let mut generator = Generator::new(GenOptions {
        seed: 5,
        ..GenOptions::default()
    });
    pgn += &generator.pgn(150);
    let mut kinds_seen = std::collections::BTreeSet::new();
    for (i, g) in records(&pgn).iter().enumerate() {
        for edition in [Edition::Fide2014, Edition::Fide2023] {
            let a = audit_in_record(g, edition);
            kinds_seen.extend(a.findings.iter().map(|f| f.kind));
            let line = AuditLine::new(i as u64 + 1, &a);
            assert_eq!(
                line.to_json(),
                serde_json::to_string(&line).unwrap(),
                "game {}",
                i + 1
            );
        }
    }
    assert!(kinds_seen.len() >= 5, "{kinds_seen:?}");
}

fn audit_in_record(g: &arbiter_pgn::Game, edition: Edition) -> Audit {
    audit(g, &Options { edition })
}
