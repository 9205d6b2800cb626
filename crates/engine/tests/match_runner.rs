//! The match runner end to end: real engine processes, the Laws' clock and
//! adjudication, PGN output; and engines that misbehave.

use arbiter_engine::client::EngineSpec;
use arbiter_engine::matches::adjudication::Termination;
use arbiter_engine::matches::game::GameSettings;
use arbiter_engine::matches::laws::LawsAdjudicator;
use arbiter_engine::matches::openings::{self, Opening};
use arbiter_engine::matches::pgn::{write_game, MatchTags};
use arbiter_engine::matches::{self, MatchConfig};
use arbiter_laws::{DelayKind, Edition};
use arbiter_pgn::TimeControl;
use std::sync::Arc;
use std::time::Duration;

fn ours(name: &str) -> EngineSpec {
    EngineSpec {
        name: name.into(),
        command: env!("CARGO_BIN_EXE_arbiter-engine-uci").into(),
        args: vec![],
        options: vec![("Hash".into(), "4".into())],
    }
}

/// A shell script speaking just enough UCI, then answering `bestmove MOVE`.
fn scripted(name: &str, reply: &str) -> EngineSpec {
    let script = format!(
        "while read line; do case \"$line\" in \
         uci) echo 'id name {name}'; echo uciok;; \
         isready) echo readyok;; \
         go*) echo 'bestmove {reply}';; \
         quit) exit 0;; esac; done"
    );
    EngineSpec {
        name: name.into(),
        command: "sh".into(),
        args: vec!["-c".into(), script],
        options: vec![],
    }
}

fn config(engines: [EngineSpec; 2], openings: Vec<Opening>, games: u32) -> MatchConfig {
    MatchConfig {
        engines,
        time_control: TimeControl::parse("1+0.03").unwrap(),
        delay: Duration::ZERO,
        delay_kind: DelayKind::Simple,
        laws_clock: true,
        openings,
        games,
        concurrency: 1,
        settings: GameSettings {
            max_moves: 40,
            margin: Duration::from_millis(200),
            ..GameSettings::default()
        },
        sprt: None,
    }
}

#[test]
fn two_engines_play_a_pair_with_colours_swapped() {
    let openings =
        openings::read("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n")
            .unwrap();
    let cfg = config([ours("A"), ours("B")], openings, 2);
    let mut seen = Vec::new();
    let tally = matches::run(
        &cfg,
        Arc::new(LawsAdjudicator::new(Edition::Fide2014)),
        &mut |f, _, _| {
            seen.push(f.clone());
        },
    )
    .unwrap();
    assert_eq!(tally.games(), 2);
    assert_eq!(seen.len(), 2);
    assert!(seen.iter().any(|f| f.first_is_white) && seen.iter().any(|f| !f.first_is_white));
    let tags = MatchTags {
        event: "test".into(),
        site: "here".into(),
        date: "2026.11.29".into(),
        time_control: "1+0.03".into(),
    };
    for f in &seen {
        let r = &f.record;
        assert!(!r.moves.is_empty());
        assert!(!matches!(
            r.termination,
            Termination::IllegalMove(_) | Termination::EngineFailure(_)
        ));
        let pgn = write_game(r, f.round, &tags);
        assert!(pgn.contains("[%clk 0:00:0"), "{pgn}");
        assert!(pgn.contains(
            "[FEN \"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\"]"
        ));
        // The PGN reads back with arbiter-pgn's reader and replays legally.
        let games = openings::read_pgn(&pgn).unwrap();
        assert_eq!(games[0].moves.len(), r.moves.len());
    }
}

#[test]
fn an_illegal_move_loses() {
    let cfg = config(
        [ours("Good"), scripted("Bad", "e2e5")],
        vec![Opening::standard()],
        2,
    );
    let mut results = Vec::new();
    let tally = matches::run(
        &cfg,
        Arc::new(LawsAdjudicator::new(Edition::Fide2014)),
        &mut |f, _, _| {
            results.push(f.record.termination.clone());
        },
    )
    .unwrap();
    // Bad plays e2e5 whether White (illegal) or Black (illegal): it loses both.
    assert_eq!(tally.wins, 2, "{results:?}");
    assert!(results
        .iter()
        .all(|t| matches!(t, Termination::IllegalMove(m) if m == "e2e5")));
}

#[test]
fn a_missing_move_loses_on_time() {
    // An engine that never answers `go`: its flag falls (Art. 6.9).
    let silent = EngineSpec {
        name: "Silent".into(),
        command: "sh".into(),
        args: vec![
            "-c".into(),
            "while read line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; quit) exit 0;; esac; done".into(),
        ],
        options: vec![],
    };
    let mut cfg = config([ours("Good"), silent], vec![Opening::standard()], 1);
    cfg.time_control = TimeControl::parse("0.3+0").unwrap();
    let mut terms = Vec::new();
    let tally = matches::run(
        &cfg,
        Arc::new(LawsAdjudicator::new(Edition::Fide2014)),
        &mut |f, _, _| {
            terms.push(f.record.termination.clone());
        },
    )
    .unwrap();
    assert_eq!(tally.wins, 1, "{terms:?}");
    assert_eq!(terms, vec![Termination::TimeForfeit]);
}
