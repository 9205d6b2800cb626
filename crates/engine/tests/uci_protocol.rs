//! UCI conversations with the engine, command by command, checking what it
//! answers and when (the UCI essentials of the project brief's `anchors.md`).

use arbiter_chess::Position;
use arbiter_engine::uci::UciEngine;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .map(str::to_owned)
            .collect()
    }
    fn count(&self, prefix: &str) -> usize {
        self.lines()
            .iter()
            .filter(|l| l.starts_with(prefix))
            .count()
    }
    /// Waits until `n` lines start with `prefix`, or panics after `secs`.
    fn wait_for(&self, prefix: &str, n: usize, secs: u64) {
        let start = Instant::now();
        while self.count(prefix) < n {
            assert!(
                start.elapsed() < Duration::from_secs(secs),
                "no {prefix:?} within {secs}s; output:\n{}",
                self.lines().join("\n")
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    fn bestmove(&self) -> String {
        let lines = self.lines();
        let l = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("bestmove"))
            .unwrap();
        l.split_whitespace().nth(1).unwrap().to_owned()
    }
}

fn engine() -> (UciEngine, Shared) {
    let out = Shared::default();
    (UciEngine::new(Box::new(out.clone())), out)
}

#[test]
fn handshake_lists_options() {
    let (mut e, out) = engine();
    e.handle("uci");
    let lines = out.lines();
    assert!(lines[0].starts_with("id name Arbiter"));
    for opt in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "UCI_Chess960",
        "Move Overhead",
        "UCI_LimitStrength",
        "UCI_Elo",
        "Clear Hash",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {opt} type"))),
            "{opt} missing"
        );
    }
    assert_eq!(lines.last().unwrap(), "uciok");
    e.handle("isready");
    assert_eq!(out.lines().last().unwrap(), "readyok");
    assert!(!e.handle("quit"));
}

#[test]
fn go_depth_plays_a_legal_move_with_info() {
    let (mut e, out) = engine();
    e.handle("position startpos moves e2e4 e7e5 g1f3");
    e.handle("go depth 6");
    out.wait_for("bestmove", 1, 30);
    let mut pos = Position::standard();
    for m in ["e2e4", "e7e5", "g1f3"] {
        let mv = pos.parse_uci(m).unwrap();
        pos.play(mv).unwrap();
    }
    assert!(pos.parse_uci(&out.bestmove()).is_ok());
    let info = out
        .lines()
        .into_iter()
        .find(|l| l.starts_with("info depth 6 "))
        .unwrap();
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " hashfull ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} missing in {info}");
    }
    e.handle("quit");
}

#[test]
fn one_clock_only() {
    // Black to move, only White's clock given: still a timely move.
    let (mut e, out) = engine();
    e.handle("position startpos moves e2e4");
    let start = Instant::now();
    e.handle("go wtime 2000");
    out.wait_for("bestmove", 1, 10);
    assert!(start.elapsed() < Duration::from_millis(1500));
    // And our own clock only, no increment.
    e.handle("go btime 1000");
    out.wait_for("bestmove", 2, 10);
    e.handle("quit");
}

#[test]
fn infinite_waits_for_stop_and_isready_is_answered_meanwhile() {
    let (mut e, out) = engine();
    // (Mate in one, Ra8#. The FEN here was once 7k/8/8/8/8/8/8/K6R w, Black in
    // check with White to move: rejected, and the search ran on the previous
    // position, issue 14.)
    e.handle("position fen 6k1/8/6K1/8/8/8/8/R7 w - - 0 1");
    e.handle("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    // Mate is found at once, yet no bestmove before stop.
    assert_eq!(out.count("bestmove"), 0);
    e.handle("isready");
    // Answered at once (info lines from the search may follow it).
    assert_eq!(out.count("readyok"), 1);
    assert_eq!(out.count("bestmove"), 0);
    e.handle("stop");
    out.wait_for("bestmove", 1, 5);
    e.handle("isready");
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(out.count("bestmove"), 1, "bestmove exactly once per go");
    e.handle("quit");
}

#[test]
fn ponder_then_ponderhit() {
    let (mut e, out) = engine();
    e.handle("position startpos moves d2d4 d7d5");
    e.handle("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(out.count("bestmove"), 0, "pondering must not end by itself");
    e.handle("ponderhit");
    out.wait_for("bestmove", 1, 5);
    e.handle("quit");
}

#[test]
fn stop_during_ponder() {
    let (mut e, out) = engine();
    e.handle("position startpos");
    e.handle("go ponder movetime 100");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(out.count("bestmove"), 0);
    e.handle("stop");
    out.wait_for("bestmove", 1, 5);
    e.handle("quit");
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    // Only castling is allowed (searchmoves); its output follows the mode.
    let (mut e, out) = engine();
    e.handle("position fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    e.handle("go depth 3 searchmoves e1g1");
    out.wait_for("bestmove", 1, 10);
    assert_eq!(out.bestmove(), "e1g1");
    e.handle("setoption name UCI_Chess960 value true");
    e.handle("position fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    e.handle("go depth 3 searchmoves e1h1");
    out.wait_for("bestmove", 2, 10);
    assert_eq!(out.bestmove(), "e1h1");
    // A Chess960 start (Shredder-FEN castling letters) with the king on b1.
    e.handle("position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1");
    e.handle("go depth 3 searchmoves b1a1");
    out.wait_for("bestmove", 3, 10);
    assert_eq!(out.bestmove(), "b1a1");
    e.handle("quit");
}

#[test]
fn bad_input_is_reported_and_keeps_what_was_accepted() {
    let (mut e, out) = engine();
    e.handle("position startpos moves e2e4 e7e5 e1e3 d7d5");
    let lines = out.lines();
    let err = lines.last().unwrap();
    assert!(err.starts_with("info string error"), "{err}");
    assert!(err.contains("move 3") && err.contains("e1e3"), "{err}");
    e.handle("d");
    let fen = out.lines().last().unwrap().clone();
    assert!(
        fen.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"),
        "{fen}"
    );
    // The rejected position is not searched, nor the moves before the bad one.
    e.handle("go depth 1");
    out.wait_for("bestmove", 1, 5);
    assert_eq!(out.bestmove(), "(none)");
    e.handle("position fen not a fen");
    assert!(out.lines().last().unwrap().contains("bad FEN"));
    // After a rejected FEN, `go` does not search the previous position.
    e.handle("go depth 1");
    out.wait_for("bestmove", 2, 5);
    assert_eq!(out.bestmove(), "(none)");
    // A good position makes `go` search again.
    e.handle("position startpos moves e2e4");
    e.handle("go depth 1");
    out.wait_for("bestmove", 3, 5);
    assert_ne!(out.bestmove(), "(none)");
    e.handle("go depth x");
    assert!(out.lines().last().unwrap().contains("depth"));
    e.handle("setoption name Hash value 0");
    assert!(out.lines().last().unwrap().contains("between"));
    e.handle("setoption name Nonsense value 1");
    assert!(out.lines().last().unwrap().contains("no option"));
    e.handle("quit");
}

#[test]
fn go_mate_multipv_nodes_and_limit_strength() {
    let (mut e, out) = engine();
    e.handle("position fen k7/8/2K5/8/8/8/8/7R w - - 0 1");
    e.handle("go mate 2");
    out.wait_for("bestmove", 1, 10);
    assert!(out.lines().iter().any(|l| l.contains("score mate 2")));

    e.handle("setoption name MultiPV value 3");
    e.handle("position startpos");
    e.handle("go depth 5");
    out.wait_for("bestmove", 2, 20);
    for k in 1..=3 {
        assert!(out
            .lines()
            .iter()
            .any(|l| l.starts_with("info depth 5 ") && l.contains(&format!(" multipv {k} "))));
    }
    e.handle("setoption name MultiPV value 1");
    e.handle("go nodes 2000");
    out.wait_for("bestmove", 3, 20);

    e.handle("setoption name UCI_LimitStrength value true");
    e.handle("setoption name UCI_Elo value 1200");
    e.handle("position startpos moves e2e4");
    e.handle("go movetime 200");
    out.wait_for("bestmove", 4, 10);
    let mut pos = Position::standard();
    pos.play(pos.parse_uci("e2e4").unwrap()).unwrap();
    assert!(pos.parse_uci(&out.bestmove()).is_ok());
    e.handle("setoption name Clear Hash");
    e.handle("ucinewgame");
    e.handle("quit");
}

#[test]
fn no_legal_move_gives_bestmove_none_as_stockfish() {
    let (mut e, out) = engine();
    // Black is checkmated.
    e.handle("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    e.handle("go depth 3");
    out.wait_for("bestmove", 1, 5);
    assert_eq!(out.bestmove(), "(none)");
    // Stalemate too.
    e.handle("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.handle("go depth 3");
    out.wait_for("bestmove", 2, 5);
    assert_eq!(out.bestmove(), "(none)");
    e.handle("quit");
}

#[test]
fn multipv_lines_are_ranked_by_score() {
    let (mut e, out) = engine();
    e.handle("setoption name MultiPV value 3");
    // Issue 14: at depth 10 multipv 2 scored 5 cp and multipv 3 scored 20.
    e.handle("position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    e.handle("go depth 8");
    out.wait_for("bestmove", 1, 120);
    // The exact lines of every depth, in the order written.
    let mut by_depth: std::collections::BTreeMap<u32, Vec<(u32, i64)>> = Default::default();
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.first() != Some(&"info") || line.contains("bound") {
            continue;
        }
        let get = |key: &str| w.iter().position(|&x| x == key).map(|i| w[i + 1]);
        let (Some(depth), Some(k), Some("cp")) = (get("depth"), get("multipv"), get("score"))
        else {
            continue;
        };
        let cp = w[w.iter().position(|&x| x == "cp").unwrap() + 1];
        by_depth
            .entry(depth.parse().unwrap())
            .or_default()
            .push((k.parse().unwrap(), cp.parse().unwrap()));
    }
    assert!(by_depth.len() >= 4, "{by_depth:?}");
    for (depth, lines) in &by_depth {
        assert_eq!(
            lines.iter().map(|l| l.0).collect::<Vec<_>>(),
            [1, 2, 3],
            "depth {depth}"
        );
        assert!(
            lines.windows(2).all(|w| w[0].1 >= w[1].1),
            "depth {depth}: {lines:?}"
        );
    }
    e.handle("quit");
}

/// The end of input during `go infinite` or `go ponder` (the GUI gone): no
/// `stop` can come, so the search is stopped, its `bestmove` written and the
/// engine ends (it searched on for ever); a finite search ends by itself.
#[test]
fn end_of_input_stops_an_infinite_or_pondering_search() {
    for go in [
        "go infinite",
        "go ponder wtime 1000 btime 1000",
        "go depth 3",
    ] {
        let out = Shared::default();
        let input = format!("position startpos moves e2e4\n{go}\n");
        let (done, finished) = std::sync::mpsc::channel();
        let sink = out.clone();
        std::thread::spawn(move || {
            let r = arbiter_engine::uci::run(input.as_bytes(), Box::new(sink));
            let _ = done.send(r.is_ok());
        });
        let ended = finished.recv_timeout(Duration::from_secs(20));
        assert_eq!(ended, Ok(true), "{go}: the engine did not end");
        assert_eq!(out.count("bestmove"), 1, "{go}");
    }
}

/// "If the engine ... receives an unknown command or token it should just
/// ignore it and try to parse the rest of the string in this line" (UCI);
/// a `go` parameter whose value is not a number is ignored, and the `go`
/// still gets its `bestmove` (a GUI waits for it).
#[test]
fn unknown_tokens_and_bad_go_values_are_skipped() {
    let (mut e, out) = engine();
    e.handle("joho isready");
    assert_eq!(out.count("readyok"), 1);
    e.handle("joho");
    assert_eq!(out.count("readyok"), 1);
    e.handle("position startpos");
    e.handle("go wtime abc btime 1000 depth 2");
    out.wait_for("bestmove", 1, 10);
    e.handle("go movetime btime 1000 depth 2");
    out.wait_for("bestmove", 2, 10);
    e.handle("quit");
}

/// `go movetime x`: "search exactly x mseconds" (UCI). The search used to end
/// between iterations at about half of it; the `bestmove` may come later than
/// asked on a busy machine, never much sooner (the move overhead, 10 ms, is
/// kept for the answer to travel).
#[test]
fn movetime_is_used_whole() {
    let (mut e, out) = engine();
    e.handle("position startpos moves e2e4 e7e5 g1f3 b8c6");
    let start = Instant::now();
    e.handle("go movetime 400");
    out.wait_for("bestmove", 1, 20);
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(370), "{took:?}");
    e.handle("quit");
}

/// A line that is not UTF-8 (a `setoption` with a Latin-1 byte, sent while
/// the engine searches) is refused like any value it does not understand;
/// the conversation goes on: `isready` is answered and the `go` gets its
/// `bestmove` (the engine ended at that line before).
#[test]
fn a_line_not_utf8_is_refused_and_the_conversation_goes_on() {
    let out = Shared::default();
    let input: &[u8] =
        b"uci\nposition startpos\ngo depth 4\nsetoption name Hash value 1\xe9\nisready\nquit\n";
    arbiter_engine::uci::run(input, Box::new(out.clone())).unwrap();
    out.wait_for("readyok", 1, 10);
    let lines = out.lines();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains('\u{FFFD}')),
        "{lines:?}"
    );
    let pos = Position::standard();
    out.wait_for("bestmove", 1, 10);
    assert!(pos.parse_uci(&out.bestmove()).is_ok(), "{lines:?}");
}

/// `go depth N` with N beyond 32 bits is the deepest search, not N modulo
/// 2^32 (`depth 4294967297` searched depth 1 and answered at once).
#[test]
fn a_depth_beyond_32_bits_is_not_wrapped() {
    let (mut e, out) = engine();
    e.handle("position startpos");
    e.handle("go depth 4294967297");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(out.count("bestmove"), 0, "{:?}", out.lines());
    e.handle("stop");
    out.wait_for("bestmove", 1, 5);
    e.handle("quit");
}
