//! The search never returns an illegal move: positions from seeded random
//! play (standard and Chess960), searched with small node budgets, with and
//! without the weakened mode, from positions with repetitions in the history.

use arbiter_chess::Position;
use arbiter_engine::{Engine, EngineOptions, Limits, Score};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[test]
fn best_and_ponder_moves_are_legal() {
    let mut rng = ChaCha8Rng::seed_from_u64(20_261_129);
    let stop = Arc::new(AtomicBool::new(false));
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 4,
        ..EngineOptions::default()
    });
    let mut weak = Engine::new(EngineOptions {
        hash_mb: 4,
        limit_strength: true,
        elo: 1400,
        ..EngineOptions::default()
    });
    weak.set_seed(7);
    let mut searched = 0;
    for game in 0..24 {
        let mut pos = if game % 3 == 2 {
            Position::chess960(rng.gen_range(0..960)).unwrap()
        } else {
            Position::standard()
        };
        let mut history = vec![pos];
        for ply in 0..rng.gen_range(10..120) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply % 7 == 3 {
                let e = if ply % 2 == 0 { &mut engine } else { &mut weak };
                let limits = Limits {
                    nodes: Some(rng.gen_range(1..3_000)),
                    ..Limits::default()
                };
                let r = e.search(&history, &limits, &stop, &mut |_| {}).unwrap();
                assert!(pos.is_legal(r.best), "{} in {}", r.best, pos.fen());
                if let Some(p) = r.ponder {
                    let mut after = pos;
                    after.play_unchecked(r.best);
                    assert!(
                        after.is_legal(p),
                        "ponder {p} after {} in {}",
                        r.best,
                        pos.fen()
                    );
                }
                let mut line = pos;
                for &m in &r.pv {
                    assert!(line.is_legal(m), "pv move {m} in {}", line.fen());
                    line.play_unchecked(m);
                }
                searched += 1;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            pos.play_unchecked(m);
            history.push(pos);
        }
    }
    assert!(searched > 50, "only {searched} searches");
}

#[test]
fn checkmated_or_stalemated_side_has_no_result() {
    let stop = Arc::new(AtomicBool::new(false));
    let mut engine = Engine::new(EngineOptions::default());
    for fen in [
        "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        let pos = Position::from_fen_auto(fen).unwrap();
        assert!(engine
            .search(&[pos], &Limits::default(), &stop, &mut |_| {})
            .is_none());
    }
}

fn play_line(fen: &str, moves: &[&str]) -> Vec<Position> {
    let mut pos = Position::from_fen_auto(fen).unwrap();
    let mut history = vec![pos];
    for m in moves {
        pos.play(pos.parse_uci(m).unwrap()).unwrap();
        history.push(pos);
    }
    history
}

fn search_history(history: &[Position], depth: u32) -> arbiter_engine::SearchResult {
    let stop = Arc::new(AtomicBool::new(false));
    let mut engine = Engine::new(EngineOptions::default());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    engine.search(history, &limits, &stop, &mut |_| {}).unwrap()
}

/// King and rook against king: Black wins, White's king shuffles e1–d1.
const KRK: &str = "8/8/8/4k3/8/8/r7/4K3 w - - 0 1";
const CYCLE: [&str; 8] = [
    "e1d1", "a2a3", "d1e1", "a3a2", "e1d1", "a2a3", "d1e1", "a3a2",
];

#[test]
fn the_losing_side_claims_threefold_repetition() {
    // After two cycles the start position stands for the third time; Kd1
    // would bring the position after Kd1 for the third time too: a draw
    // White can claim (Art. 9.2), better than losing.
    let history = play_line(KRK, &CYCLE);
    let r = search_history(&history, 8);
    assert_eq!(r.score, Score::Cp(0), "{:?}", r);
    assert_eq!(history.last().unwrap().uci(r.best), "e1d1");
}

#[test]
fn the_winning_side_avoids_threefold_repetition() {
    // Black to move; Ra3-a2 would repeat the start position a third time.
    let history = play_line(KRK, &CYCLE[..7]);
    let pos = *history.last().unwrap();
    let r = search_history(&history, 8);
    assert_ne!(pos.uci(r.best), "a3a2");
    assert!(
        matches!(r.score, Score::Cp(v) if v > 300) || matches!(r.score, Score::Mate(n) if n > 0),
        "{:?}",
        r.score
    );
}

#[test]
fn the_fifty_move_rule_is_seen() {
    // 99 half-moves without capture or pawn move: any king move reaches 100
    // and White may claim (Art. 9.3), so the lost position scores 0.
    let drawn = Position::from_fen_auto("8/8/8/4k3/8/8/r7/4K3 w - - 99 80").unwrap();
    let r = search_history(&[drawn], 6);
    assert_eq!(r.score, Score::Cp(0));
    let lost = Position::from_fen_auto("8/8/8/4k3/8/8/r7/4K3 w - - 0 80").unwrap();
    let r = search_history(&[lost], 6);
    assert!(
        matches!(r.score, Score::Cp(v) if v < -300) || matches!(r.score, Score::Mate(n) if n < 0)
    );
}

#[test]
fn search_on_another_thread_stops_on_the_flag() {
    // The web server's use: search in a thread, stop it from outside.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let handle = std::thread::spawn(move || {
        let mut engine = Engine::new(EngineOptions::default());
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let mut infos = 0;
        let r = engine.search(&[Position::standard()], &limits, &flag, &mut |_| infos += 1);
        (r, infos)
    });
    std::thread::sleep(std::time::Duration::from_millis(200));
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let (r, infos) = handle.join().unwrap();
    let r = r.unwrap();
    assert!(Position::standard().is_legal(r.best));
    assert!(infos > 0 && r.depth >= 1);
}
