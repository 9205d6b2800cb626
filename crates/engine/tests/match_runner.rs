//! The match runner end to end: real engine processes (our engine, and
//! shell scripts that misbehave), every game an `arbiter_laws::Game`, the PGN
//! read back with `arbiter-pgn` and checked against the Laws' verdict.

use arbiter_chess::Color;
use arbiter_engine::client::EngineSpec;
use arbiter_engine::matches::game::GameSettings;
use arbiter_engine::matches::openings::{self, Opening};
use arbiter_engine::matches::pgn::{pgn_result, write_game, MatchTags};
use arbiter_engine::matches::stats::{Sprt, Tally};
use arbiter_engine::matches::verdict::{describe, pgn_termination};
use arbiter_engine::matches::{self, Finished, MatchConfig, MatchError};
use arbiter_laws::{Delay, DelayKind, Edition, Game, GameResult, Termination, MATCH_RULE};
use arbiter_pgn::TimeControl;
use std::path::PathBuf;
use std::time::Duration;

fn ours(name: &str) -> EngineSpec {
    EngineSpec {
        name: name.into(),
        command: env!("CARGO_BIN_EXE_arbiter-engine-uci").into(),
        args: vec![],
        options: vec![("Hash".into(), "4".into())],
    }
}

/// A shell script speaking just enough UCI; `on_go` is the shell code run
/// for each `go` (with `$n` the number of moves in the last `position`).
fn script(name: &str, on_go: &str) -> EngineSpec {
    script_watching(name, ":", on_go)
}

/// [`script`], running `on_line` first for every line it reads (`$line`);
/// `$c` is 1 while `UCI_Chess960` is set, else 0.
fn script_watching(name: &str, on_line: &str, on_go: &str) -> EngineSpec {
    let script = format!(
        "n=0; c=0; while read -r line; do {on_line}; case \"$line\" in \
         uci) echo 'id name {name}'; echo 'option name UCI_Chess960 type check default false'; echo uciok;; \
         isready) echo readyok;; \
         *UCI_Chess960*true) c=1;; \
         *UCI_Chess960*false) c=0;; \
         position*) n=0; after=0; for w in $line; do \
           if [ $after = 1 ]; then n=$((n + 1)); fi; if [ \"$w\" = moves ]; then after=1; fi; done;; \
         go*) {on_go};; \
         quit) exit 0;; esac; done"
    );
    EngineSpec {
        name: name.into(),
        command: "sh".into(),
        args: vec!["-c".into(), script],
        options: vec![],
    }
}

/// Shell code appending `$line` to `log` when it matches the `case` pattern.
fn log_lines(pattern: &str, log: &std::path::Path) -> String {
    format!(
        "case \"$line\" in {pattern}) echo \"$line\" >> '{}';; esac",
        log.display()
    )
}

/// Plays the game's plies from a list: at ply `n` (counted from the
/// opening position) it answers `moves[n]`, `bestmove (none)` past the end.
fn playing(name: &str, moves: &str) -> EngineSpec {
    script(
        name,
        &format!(
            "set -- {moves}; if [ $n -lt $# ]; then shift $n; echo \"bestmove $1\"; \
             else echo 'bestmove (none)'; fi"
        ),
    )
}

/// A fresh log file path in the temporary directory.
fn temp_log(tag: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("arbiter-match-{}-{tag}.log", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Answers every `go` with `bestmove REPLY`.
fn replying(name: &str, reply: &str) -> EngineSpec {
    script(name, &format!("echo 'bestmove {reply}'"))
}

/// Never answers `go`.
fn silent(name: &str) -> EngineSpec {
    script(name, ":")
}

/// Knights out and back (Ng1-f3-g1 for White, Ng8-f6-g8 for Black, whatever
/// colour it has), reporting `score cp SCORE`; appends each `go` line to `log`.
fn shuffler(name: &str, score: i32, log: Option<&PathBuf>) -> EngineSpec {
    let log = log.map_or(String::new(), |p| {
        format!("echo \"$line\" >> '{}'; ", p.display())
    });
    script(
        name,
        &format!(
            "{log}if [ $((n % 2)) -eq 0 ]; then \
             if [ $((n / 2 % 2)) -eq 0 ]; then m=g1f3; else m=f3g1; fi; \
             else if [ $(((n - 1) / 2 % 2)) -eq 0 ]; then m=g8f6; else m=f6g8; fi; fi; \
             echo 'info depth 1 score cp {score}'; echo \"bestmove $m\""
        ),
    )
}

fn config(engines: [EngineSpec; 2], openings: Vec<Opening>, games: u32, tc: &str) -> MatchConfig {
    MatchConfig {
        engines,
        time_control: TimeControl::parse(tc).unwrap(),
        delay: None,
        edition: Edition::Fide2014,
        openings,
        games,
        concurrency: 1,
        settings: GameSettings::default(),
        sprt: None,
    }
}

fn run(cfg: &MatchConfig) -> (Tally, Vec<Finished>) {
    let mut seen = Vec::new();
    let tally = matches::run(cfg, &mut |f, _, _| seen.push(f.clone())).unwrap();
    seen.sort_by_key(|f| f.round);
    for f in &seen {
        check_pgn_and_log(f);
    }
    (tally, seen)
}

fn opening(fen: &str) -> Vec<Opening> {
    openings::read(&format!("{fen}\n")).unwrap()
}

/// The PGN reads back with `arbiter-pgn`, its moves, clocks, result and
/// termination are the Laws'; the stored log replays to the same outcome.
fn check_pgn_and_log(f: &Finished) {
    let tags = MatchTags {
        event: "test".into(),
        site: "here".into(),
        date: "2026.11.29".into(),
    };
    let game = &f.record.game;
    let outcome = game.outcome().expect("every game ends");
    let text = write_game(&f.record, f.round, &tags);
    let back = arbiter_pgn::Reader::new(text.as_bytes())
        .next_game()
        .unwrap()
        .unwrap();
    assert!(back.error.is_none(), "{:?}\n{text}", back.error);
    assert_eq!(back.result(), pgn_result(outcome.result), "{text}");
    assert_eq!(
        back.tags.get("Termination"),
        Some(pgn_termination(game)),
        "{text}"
    );
    assert_eq!(back.start, f.record.opening.start);
    let moves: Vec<_> = game.moves().iter().map(|p| p.mv).collect();
    assert_eq!(back.mainline().collect::<Vec<_>>(), moves, "{text}");
    let clocks: Vec<_> = back.line.nodes.iter().map(|n| n.clock_ms).collect();
    let laws: Vec<_> = f.record.notes.iter().map(|n| n.clock_ms).collect();
    assert_eq!(clocks, laws, "{text}");
    assert!(clocks.iter().all(Option::is_some));
    let verdict = describe(game).unwrap();
    let last_comments = match back.line.nodes.last() {
        Some(n) => n.comments.join(" "),
        None => back.line.comments.join(" "),
    };
    assert!(last_comments.contains(&verdict), "{verdict:?} in\n{text}");
    assert!(verdict.contains(outcome.article.as_str()), "{verdict}");
    let again = Game::replay(game.start().clone(), game.events()).unwrap();
    assert_eq!(again.outcome(), game.outcome());
    assert_eq!(again.outcome_reason(), game.outcome_reason());
}

fn termination(f: &Finished) -> Termination {
    f.record.game.outcome().unwrap().termination
}

fn result(f: &Finished) -> String {
    f.record.game.outcome().unwrap().result.to_string()
}

#[test]
fn two_engines_play_a_pair_with_colours_swapped() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let mut cfg = config([ours("A"), ours("B")], opening(fen), 2, "1+0.03");
    cfg.settings.max_moves = 40;
    cfg.settings.margin = Duration::from_millis(200);
    let (tally, seen) = run(&cfg);
    assert_eq!(tally.games(), 2);
    assert!(seen[0].first_is_white && !seen[1].first_is_white);
    assert_eq!(
        (seen[0].record.white.as_str(), seen[1].record.white.as_str()),
        ("A", "B")
    );
    for f in &seen {
        assert!(!f.record.game.moves().is_empty());
        assert!(!matches!(termination(f), Termination::Forfeit));
        let text = write_game(
            &f.record,
            f.round,
            &MatchTags {
                event: "e".into(),
                site: "s".into(),
                date: "2026.11.29".into(),
            },
        );
        assert!(text.contains(&format!("[FEN \"{fen}\"]")), "{text}");
        assert!(text.contains("[TimeControl \"1+0.03\"]"), "{text}");
    }
}

#[test]
fn an_illegal_move_forfeits_by_match_rule() {
    let cfg = config(
        [ours("Good"), replying("Bad", "e2e5")],
        vec![Opening::standard()],
        2,
        "2+0.05",
    );
    let (tally, seen) = run(&cfg);
    // Bad plays e2e5 whether White (illegal) or Black (not its pawn): it forfeits both.
    assert_eq!(tally.wins, 2);
    for f in &seen {
        let o = f.record.game.outcome().unwrap();
        assert_eq!(
            (o.termination, o.article.as_str()),
            (Termination::Forfeit, MATCH_RULE)
        );
        let reason = f.record.game.outcome_reason().unwrap();
        assert!(reason.contains("Bad sent bestmove e2e5"), "{reason}");
        assert_eq!(pgn_termination(&f.record.game), "rules infraction");
    }
    assert_eq!(result(&seen[0]), "1-0");
    assert_eq!(result(&seen[1]), "0-1");
}

#[test]
fn no_move_or_no_engine_forfeits() {
    for (bad, says) in [
        (replying("Empty", ""), "without a move"),
        (replying("None", "(none)"), "bestmove (none)"),
        (script("Crash", "exit 3"), "stopped working"),
    ] {
        let name = bad.name.clone();
        let cfg = config([bad, ours("Good")], vec![Opening::standard()], 2, "2+0.05");
        let (tally, seen) = run(&cfg);
        // The engine that failed is restarted for the second game.
        assert_eq!((tally.losses, tally.games()), (2, 2), "{name}");
        for f in &seen {
            assert_eq!(termination(f), Termination::Forfeit, "{name}");
            let reason = f.record.game.outcome_reason().unwrap();
            assert!(reason.contains(says), "{name}: {reason}");
        }
    }
}

#[test]
fn a_flag_falls_at_the_time_the_laws_say_and_6_9_decides() {
    // White: king and pawn; Black: a bare king.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let cfg = config(
        [replying("Pawn", "e2e3"), silent("Silent")],
        opening(fen),
        2,
        "0.3",
    );
    let (_, seen) = run(&cfg);
    // Game 1: Pawn (White) moves, Silent (Black) never answers; White can
    // still checkmate: Black loses on time, at the move's time + 300 ms.
    let g = &seen[0].record.game;
    let o = g.outcome().unwrap();
    assert_eq!(g.moves().len(), 1);
    assert_eq!(
        (o.termination, o.article.as_str()),
        (Termination::Timeout, "6.9")
    );
    assert_eq!(o.result, GameResult::win(Color::White));
    assert_eq!(o.at, g.moves()[0].t + 300);
    assert_eq!(g.clock_at(o.at).unwrap().black, 0);
    // Game 2: Silent has White; Black has no mating material: drawn (6.9).
    let g = &seen[1].record.game;
    let o = g.outcome().unwrap();
    assert!(g.moves().is_empty());
    assert_eq!((o.termination, o.at), (Termination::TimeoutDraw, 300));
    assert_eq!(o.result, GameResult::DRAW);
    assert!(describe(g).unwrap().contains("Black cannot checkmate"));
}

#[test]
fn delays_move_the_flag_as_the_laws_say() {
    // Art. 6.3 b / 6.3.2: a simple delay runs before the main time; a
    // Bronstein delay gives time back only after the move.
    for (kind, flag_at) in [(DelayKind::Simple, 500), (DelayKind::Bronstein, 300)] {
        let mut cfg = config(
            [silent("Silent"), ours("Good")],
            vec![Opening::standard()],
            1,
            "0.3",
        );
        cfg.delay = Some(Delay { kind, ms: 200 });
        let (tally, seen) = run(&cfg);
        assert_eq!(tally.losses, 1);
        let o = seen[0].record.game.outcome().unwrap().clone();
        assert_eq!(
            (o.termination, o.at),
            (Termination::Timeout, flag_at),
            "{kind:?}"
        );
    }
}

#[test]
fn multi_period_controls_tell_moves_to_go_and_draws_are_claimed() {
    let dir = std::env::temp_dir().join(format!("arbiter-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let logs = [dir.join("white.log"), dir.join("black.log")];
    for l in &logs {
        let _ = std::fs::remove_file(l);
    }
    // Two moves in 10 s, then 10 s more for the rest with 0.1 s a move (6.3 a).
    let cfg = config(
        [
            shuffler("W", 0, Some(&logs[0])),
            shuffler("B", 0, Some(&logs[1])),
        ],
        vec![Opening::standard()],
        1,
        "2/10:10+0.1",
    );
    let (_, seen) = run(&cfg);
    let g = &seen[0].record.game;
    // Black's fourth move, Ng8, would bring back the initial position a
    // third time: Black claims on it without playing it (9.2 a).
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.termination, o.article.as_str()),
        (Termination::ThreefoldRepetition, "9.2 a")
    );
    assert_eq!(g.moves().len(), 7);
    assert!(describe(g)
        .unwrap()
        .contains("claimed by Black on the intended move Ng8"));
    for log in &logs {
        let text = std::fs::read_to_string(log).unwrap();
        let gos: Vec<&str> = text.lines().collect();
        assert_eq!(gos.len(), 4, "{text}");
        // Each player's period: White's second starts after his second move,
        // before Black's second.
        assert!(gos[0].ends_with("winc 0 binc 0 movestogo 2"), "{text}");
        assert!(gos[1].ends_with("binc 0 movestogo 1"), "{text}");
        // The second period: its time added, its increment, no move count.
        assert!(gos[2].ends_with("winc 100 binc 100"), "{text}");
        assert!(gos[3].ends_with("winc 100 binc 100"), "{text}");
        let time = |line: &str, key: &str| -> u64 {
            let w: Vec<&str> = line.split_whitespace().collect();
            let i = w.iter().position(|x| *x == key).unwrap();
            w[i + 1].parse().unwrap()
        };
        let key = if log == &logs[0] { "wtime" } else { "btime" };
        assert!(
            time(gos[1], key) <= 10_000 && time(gos[2], key) > 19_000,
            "{text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_claims_fivefold_repetition_ends_the_game() {
    let mut cfg = config(
        [shuffler("W", 0, None), shuffler("B", 0, None)],
        vec![Opening::standard()],
        1,
        "10+0.1",
    );
    cfg.settings.claims = false;
    cfg.edition = Edition::Fide2018;
    let (_, seen) = run(&cfg);
    let g = &seen[0].record.game;
    let o = g.outcome().unwrap();
    // The initial position for the fifth time after 16 plies (9.6.1).
    assert_eq!(
        (o.termination, o.article.as_str()),
        (Termination::FivefoldRepetition, "9.6.1")
    );
    assert_eq!(g.moves().len(), 16);
}

#[test]
fn scores_and_move_limits_are_adjudicated_by_match_rule() {
    // Resign: the loser's and the winner's scores agree for two moves each.
    let mut cfg = config(
        [shuffler("Up", 1500, None), shuffler("Down", -1500, None)],
        vec![Opening::standard()],
        2,
        "10+0.1",
    );
    cfg.settings.adjudication.resign = Some((2, 1000));
    let (tally, seen) = run(&cfg);
    assert_eq!(tally.wins, 2);
    for f in &seen {
        let o = f.record.game.outcome().unwrap();
        assert_eq!(
            (o.termination, o.article.as_str()),
            (Termination::Adjudication, MATCH_RULE)
        );
        assert_eq!(f.record.game.moves().len(), 4);
        let reason = f.record.game.outcome_reason().unwrap();
        assert!(
            reason.starts_with("Down at or below -10.00 pawns"),
            "{reason}"
        );
        assert_eq!(pgn_termination(&f.record.game), "adjudication");
    }
    // Draw: both near zero from move 1 for two moves each.
    let mut cfg = config(
        [shuffler("A", 3, None), shuffler("B", -5, None)],
        vec![Opening::standard()],
        1,
        "10+0.1",
    );
    cfg.settings.adjudication.draw = Some((1, 2, 10));
    let (tally, seen) = run(&cfg);
    assert_eq!(tally.draws, 1);
    assert_eq!(termination(&seen[0]), Termination::Adjudication);
    assert_eq!(seen[0].record.game.moves().len(), 4);
    // A move limit of one move each.
    let mut cfg = config(
        [shuffler("A", 0, None), shuffler("B", 0, None)],
        vec![Opening::standard()],
        1,
        "10+0.1",
    );
    cfg.settings.max_moves = 1;
    let (_, seen) = run(&cfg);
    assert_eq!(result(&seen[0]), "1/2-1/2");
    assert_eq!(seen[0].record.game.moves().len(), 2);
    let reason = seen[0].record.game.outcome_reason().unwrap();
    assert!(reason.contains("move limit"), "{reason}");
}

#[test]
fn castling_is_converted_per_uci_chess960_game_by_game() {
    // A Chess960 start (king b1, rooks a1 and e1; Shredder-FEN rights),
    // then a standard one: O-O is b1e1 (king takes rook) in the first,
    // e1g1 in the second, and each engine is told `UCI_Chess960` before
    // the game that changes it.
    let c960 = "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1";
    let standard = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let set = openings::read(&format!("{c960}\n{standard}\n")).unwrap();
    assert!(set[0].is_chess960() && !set[1].is_chess960());
    let log = temp_log("960");
    // The castler answers in the notation it was told to use; a wrong
    // notation is illegal in the other mode and forfeits.
    let castler = script_watching(
        "Castler",
        "case \"$line\" in \"position fen rk2r3\"*) p=960;; \"position fen r3k2r\"*) p=std;; esac",
        "case $p$c in 9601) m=b1e1;; 9600) m=b1g1;; std1) m=e1h1;; *) m=e1g1;; esac; \
         echo \"bestmove $m\"",
    );
    let watcher = script_watching(
        "Watcher",
        &log_lines("position*|setoption*", &log),
        "echo 'bestmove (none)'",
    );
    let cfg = config([castler, watcher], set, 4, "10");
    let (tally, seen) = run(&cfg);
    // The Watcher never moves: it forfeits every game.
    assert_eq!(tally.wins, 4);
    for i in [0, 2] {
        let g = &seen[i].record.game;
        assert_eq!(g.moves()[0].san, "O-O", "game {}", i + 1);
        assert_eq!(termination(&seen[i]), Termination::Forfeit);
    }
    // X-FEN (the outermost rooks as KQkq) for the Chess960 start.
    let xfen = "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1";
    let text = std::fs::read_to_string(&log).unwrap();
    let expected = [
        "setoption name UCI_Chess960 value true".to_owned(),
        format!("position fen {xfen} moves b1e1"),
        format!("position fen {xfen}"),
        "setoption name UCI_Chess960 value false".to_owned(),
        format!("position fen {standard} moves e1g1"),
        format!("position fen {standard}"),
    ];
    assert_eq!(text.lines().collect::<Vec<_>>(), expected, "{text}");
    let _ = std::fs::remove_file(&log);
}

#[test]
fn the_laws_end_games_on_the_board_citing_the_edition() {
    // (start, the game's plies, claims made, how it ends, result, the
    // Article in 2014 and in 2018, plies played)
    let draw = "1/2-1/2";
    let cases = [
        // 5.1: fool's mate.
        (
            None,
            "f2f3 e7e5 g2g4 d8h4",
            true,
            Termination::Checkmate,
            "0-1",
            "5.1 a",
            "5.1.1",
            4,
        ),
        // 5.2: the black king has no legal move and is not in check.
        (
            Some("k7/8/8/1Q6/8/8/8/7K w - - 0 1"),
            "b5b6",
            true,
            Termination::Stalemate,
            draw,
            "5.2 a",
            "5.2.1",
            1,
        ),
        // 5.2 b / 5.2.2: Kxd2 leaves the bare kings: a dead position.
        (
            Some("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1"),
            "e1d2",
            true,
            Termination::DeadPosition,
            draw,
            "5.2 b",
            "5.2.2",
            1,
        ),
        // 9.6 b / 9.6.2: the 75th move of each player without a capture
        // or a pawn move ends the game when no one claims.
        (
            Some("r3k3/8/8/8/8/8/8/R3K3 w - - 148 90"),
            "a1a2 a8a7 a2a1",
            false,
            Termination::SeventyfiveMoves,
            draw,
            "9.6 b",
            "9.6.2",
            2,
        ),
        // 9.3 a / 9.3.1: White's intended move would be the 50th: claimed
        // without playing it.
        (
            Some("r3k3/8/8/8/8/8/8/R3K3 w - - 99 90"),
            "a1a2",
            true,
            Termination::FiftyMoves,
            draw,
            "9.3 a",
            "9.3.1",
            0,
        ),
        // 5.1 a / 5.1.1: the 50th move would allow a claim (9.3 a), but it
        // mates: it is played and wins, never written for a draw.
        (
            Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80"),
            "a1a8",
            true,
            Termination::Checkmate,
            "1-0",
            "5.1 a",
            "5.1.1",
            1,
        ),
        // 9.3 b / 9.3.2: 50 moves already made: White claims at once.
        (
            Some("r3k3/8/8/8/8/8/8/R3K3 w - - 100 90"),
            "a1a2",
            true,
            Termination::FiftyMoves,
            draw,
            "9.3 b",
            "9.3.2",
            0,
        ),
    ];
    for (fen, plies, claims, how, res, art2014, art2018, played) in cases {
        for (edition, article) in [(Edition::Fide2014, art2014), (Edition::Fide2018, art2018)] {
            let set = fen.map_or_else(|| vec![Opening::standard()], opening);
            let mut cfg = config([playing("W", plies), playing("B", plies)], set, 1, "10+0.1");
            cfg.edition = edition;
            cfg.settings.claims = claims;
            let (_, seen) = run(&cfg);
            let g = &seen[0].record.game;
            let o = g.outcome().unwrap();
            assert_eq!(
                (
                    o.termination,
                    o.article.as_str(),
                    o.result.to_string(),
                    g.moves().len()
                ),
                (how, article, res.to_owned(), played),
                "{plies} under {edition:?}"
            );
            assert_eq!(pgn_termination(g), "normal");
        }
    }
}

#[test]
fn a_hung_engine_loses_on_time_and_is_restarted() {
    // It never answers `go`, nor `stop`: its flag falls (6.9; the opponent
    // has mating material) and a new process plays the next game.
    let log = temp_log("hung");
    let hung = script_watching(
        "Hung",
        &format!(
            "case \"$line\" in ucinewgame) echo $$ >> '{}';; esac",
            log.display()
        ),
        ":",
    );
    let cfg = config([hung, ours("Good")], vec![Opening::standard()], 2, "0.2");
    let (tally, seen) = run(&cfg);
    assert_eq!(tally.losses, 2);
    for f in &seen {
        let o = f.record.game.outcome().unwrap();
        assert_eq!(
            (o.termination, o.article.as_str()),
            (Termination::Timeout, "6.9")
        );
        assert!(describe(&f.record.game).unwrap().contains("lost on time"));
        assert_eq!(pgn_termination(&f.record.game), "time forfeit");
    }
    // Game 1: White never moves; its flag falls at 200 ms.
    assert_eq!(seen[0].record.game.outcome().unwrap().at, 200);
    let text = std::fs::read_to_string(&log).unwrap();
    let pids: Vec<&str> = text.lines().collect();
    assert_eq!(pids.len(), 2, "{text}");
    assert_ne!(pids[0], pids[1], "the hung engine was not restarted");
    let _ = std::fs::remove_file(&log);
}

#[test]
fn an_untimed_control_is_refused() {
    let cfg = config([ours("A"), ours("B")], vec![Opening::standard()], 2, "-");
    let err = matches::run(&cfg, &mut |_, _, _| {}).unwrap_err();
    assert!(err.to_string().contains("runs no clock"), "{err}");
}

/// An engine whose output holds bytes that are not UTF-8 (a Latin-1
/// `id author`, an `info string` in the middle of the game) is alive: its
/// lines are read with the bytes replaced, and the game is played out (it
/// was forfeited as "stopped working", or the match refused to start).
#[test]
fn an_engine_writing_latin1_is_not_taken_for_dead() {
    let mut garbled = shuffler("Garbled", 0, None);
    let script = &mut garbled.args[1];
    *script = script
        .replace(
            "echo 'id name Garbled';",
            "echo 'id name Garbled'; printf 'id author J\\351r\\364me\\n';",
        )
        .replace(
            "echo 'info depth 1",
            "printf 'info string caf\\351\\n'; echo 'info depth 1",
        );
    assert!(script.contains("\\351r") && script.contains("caf\\351"));
    let cfg = config(
        [garbled, shuffler("B", 0, None)],
        vec![Opening::standard()],
        2,
        "10+0.1",
    );
    let (_, seen) = run(&cfg);
    for f in &seen {
        let o = f.record.game.outcome().unwrap();
        assert_eq!(o.termination, Termination::ThreefoldRepetition, "{o:?}");
    }
}

/// An engine that fails (here an illegal `bestmove`) against an opponent
/// who cannot checkmate by any series of legal moves draws, as the Laws
/// rule a game lost by an illegal move (2014 7.5 b) or on time (6.9); the
/// same failure by the bare king loses.
#[test]
fn a_forfeit_against_a_bare_king_is_a_draw() {
    let cfg = config(
        [replying("Bad", "e2e5"), ours("Good")],
        opening("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"),
        2,
        "2+0.05",
    );
    let (_, seen) = run(&cfg);
    // Game 1: Bad has the rook: drawn by the match rule, the reason said.
    let o = seen[0].record.game.outcome().unwrap();
    assert_eq!(
        (result(&seen[0]).as_str(), o.article.as_str()),
        ("1/2-1/2", MATCH_RULE)
    );
    let reason = seen[0].record.game.outcome_reason().unwrap();
    assert!(
        reason.contains("Bad sent bestmove e2e5")
            && reason.contains("cannot checkmate by any series of legal moves")
            && reason.contains("7.5 b"),
        "{reason}"
    );
    // Game 2: Bad has the bare king: it loses.
    assert_eq!(result(&seen[1]), "1-0");
    assert_eq!(termination(&seen[1]), Termination::Forfeit);
}

/// A line that only starts with the letters of `bestmove` (`bestmovex`) is
/// not the engine's answer: the runner waits for the true one (it read
/// `bestmove x` and forfeited the engine).
#[test]
fn bestmove_is_a_whole_word() {
    let mut chatty = shuffler("Chatty", 0, None);
    let script = &mut chatty.args[1];
    *script = script.replace(
        "echo \"bestmove $m\"",
        "echo bestmovex; echo \"bestmove $m\"",
    );
    assert!(script.contains("echo bestmovex;"));
    let cfg = config(
        [chatty, shuffler("B", 0, None)],
        vec![Opening::standard()],
        1,
        "10+0.1",
    );
    let (_, seen) = run(&cfg);
    assert_eq!(termination(&seen[0]), Termination::ThreefoldRepetition);
}

/// A match that could only mislead is refused before any engine starts: no
/// games (`--games 0` printed a result of blank names), a time control with
/// no time for the first move (`--tc 0`: every game lost on time at its
/// start), an SPRT with elo0 not below elo1.
#[test]
fn a_match_that_cannot_mean_anything_is_refused() {
    let base = config(
        [ours("A"), ours("B")],
        vec![Opening::standard()],
        2,
        "10+0.1",
    );
    let refused = |cfg: &MatchConfig| {
        matches::run(cfg, &mut |_, _, _| panic!("no game may be played")).unwrap_err()
    };
    let mut no_games = base.clone();
    no_games.games = 0;
    assert!(matches!(refused(&no_games), MatchError::NoGames));
    for tc in ["0", "0+0"] {
        let mut zero = base.clone();
        zero.time_control = TimeControl::parse(tc).unwrap();
        let e = refused(&zero);
        assert!(matches!(e, MatchError::NoTime(_)), "{tc}: {e}");
    }
    let mut sprt = base.clone();
    sprt.sprt = Some(Sprt::new(5.0, 0.0));
    let e = refused(&sprt);
    assert_eq!(
        e.to_string(),
        "the SPRT's elo0 (5) must be below its elo1 (0)"
    );
    // An increment alone is time enough: 0+1 is played.
    let inc = config(
        [shuffler("A", 0, None), shuffler("B", 0, None)],
        vec![Opening::standard()],
        1,
        "0+1",
    );
    assert!(matches::run(&inc, &mut |_, _, _| {}).is_ok());
}
