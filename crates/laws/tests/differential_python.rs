//! Differential test against python-chess (GPL-3.0, run as an external test
//! oracle, never linked): repetition counts (Art. 9.2), the half-move count
//! (9.3), fivefold repetition (9.6 a / 9.6.1) and the 75-move rule (9.6 b /
//! 9.6.2) on thousands of seeded random games biased towards repetitions and
//! long quiet stretches. Needs `python3` with `chess` (`pip install chess`).

use arbiter_chess::Color;
use arbiter_laws::json::{self, Event};
use arbiter_laws::{Game, Termination};
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::process::{Command, Stdio};

struct Played {
    uci: Vec<String>,
    /// Per ply: (half-moves, threefold on the board, termination after it).
    ours: Vec<(u32, bool, Option<Termination>)>,
}

fn random_game(edition: &str, rng: &mut impl Rng) -> Played {
    let start: json::Start =
        serde_json::from_str(&format!(r#"{{"edition": "{edition}"}}"#)).unwrap();
    let mut game = Game::new(start.to_start().unwrap()).unwrap();
    let mut played = Played {
        uci: Vec::new(),
        ours: Vec::new(),
    };
    let mut history: Vec<arbiter_chess::Move> = Vec::new();
    let mut t = 0;
    while !game.is_over() && played.uci.len() < 600 {
        let pos = *game.position();
        let moves = pos.legal_moves();
        // Undo our own move of two plies ago (repetitions), or prefer quiet moves.
        let undo = history.len().checked_sub(2).map(|i| {
            let m = history[i];
            arbiter_chess::Move::new(m.to, m.from)
        });
        let m = match undo {
            Some(u) if rng.gen_bool(0.6) && moves.contains(&u) => u,
            _ => {
                let quiet: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|m| !pos.is_zeroing(*m))
                    .collect();
                if !quiet.is_empty() && rng.gen_bool(0.9) {
                    quiet[rng.gen_range(0..quiet.len())]
                } else {
                    moves[rng.gen_range(0..moves.len())]
                }
            }
        };
        let by = if pos.turn() == Color::White {
            "white"
        } else {
            "black"
        };
        let uci = pos.uci(m);
        t += 1;
        let e: Event = serde_json::from_str(&format!(
            r#"{{"t": {t}, "by": "{by}", "do": "move", "move": "{uci}"}}"#
        ))
        .unwrap();
        json::apply(&mut game, &e).unwrap();
        // The SAN recorded for the move (with its check or mate mark) is the core's.
        assert_eq!(
            game.moves().last().map(|p| p.san.as_str()),
            Some(pos.san(m).as_str())
        );
        history.push(m);
        played.uci.push(uci);
        played.ours.push((
            game.position().halfmoves(),
            game.repetitions() >= 3,
            game.outcome().map(|o| o.termination),
        ));
    }
    played
}

#[test]
fn repetition_and_move_counts_agree_with_python_chess() {
    if !arbiter_testkit::python_chess_available("chess") {
        return;
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2014);
    let mut games = Vec::new();
    for i in 0..2000 {
        let edition = ["2014", "2018", "2023"][i % 3];
        games.push((edition, random_game(edition, &mut rng)));
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracle/draws.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 is needed for this test (with `pip install chess`)");
    {
        let mut stdin = child.stdin.take().unwrap();
        let mut input = String::new();
        for (edition, g) in &games {
            input.push_str(edition);
            for u in &g.uci {
                input.push(' ');
                input.push_str(u);
            }
            input.push('\n');
        }
        std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the python-chess oracle failed (pip install chess)"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), games.len());
    let (mut plies, mut threefolds, mut fivefolds, mut seventyfives) = (0, 0, 0, 0);
    for ((edition, g), line) in games.iter().zip(&lines) {
        let codes: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(codes.len(), g.ours.len());
        for (ply, (code, (half, three, term))) in codes.iter().zip(&g.ours).enumerate() {
            let f: Vec<u32> = code.split(':').map(|x| x.parse().unwrap()).collect();
            let ctx = || format!("{edition} game {} ply {}", g.uci.join(" "), ply + 1);
            plies += 1;
            assert_eq!(*half, f[0], "half-move count, {}", ctx());
            assert_eq!(*three, f[1] == 1, "threefold, {}", ctx());
            threefolds += usize::from(*three);
            let mate_or_stalemate = f[4] == 1 || f[5] == 1;
            match term {
                Some(Termination::Checkmate) => assert_eq!(f[4], 1, "mate, {}", ctx()),
                Some(Termination::Stalemate) => assert_eq!(f[5], 1, "stalemate, {}", ctx()),
                Some(Termination::SeventyfiveMoves) => {
                    seventyfives += 1;
                    assert_eq!(f[3], 1, "75 moves, {}", ctx())
                }
                Some(Termination::FivefoldRepetition) => {
                    fivefolds += 1;
                    assert_eq!(f[2], 1, "fivefold, {}", ctx());
                    assert_eq!(f[3], 0, "75 moves take precedence, {}", ctx());
                }
                Some(Termination::DeadPosition) => {}
                None => {
                    assert!(!mate_or_stalemate, "missed mate/stalemate, {}", ctx());
                    assert_eq!(f[3], 0, "missed 75 moves, {}", ctx());
                    assert_eq!(f[2], 0, "missed fivefold, {}", ctx());
                }
                Some(other) => panic!("unexpected {other:?}, {}", ctx()),
            }
        }
    }
    println!("{plies} plies; {threefolds} threefold positions; {fivefolds} fivefold and {seventyfives} 75-move endings");
    assert!(
        fivefolds > 100 && seventyfives > 10 && threefolds > 1000,
        "the games test too little"
    );
}
