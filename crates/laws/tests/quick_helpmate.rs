//! The quick helpmate line (`arbiter_laws::dead::quick_helpmate`) against
//! exact verdicts (FIDE Art. 5.2 b / 5.2.2, 6.9: "could checkmate by any
//! possible series of legal moves"):
//!
//! - chasolver's corpora (`tests/positions.txt`, `tests/lichess.txt` in its
//!   crate package: both colours' verdicts for 68,950 positions): every line
//!   the quick search gives replays to a checkmate by its side, and the
//!   corpus says that side can mate; it finds lines for nearly all the
//!   sides that can;
//! - the final positions of real games (the Lichess and TWIC samples inside
//!   the `pgn-reader` crate) and of generated games, against chasolver
//!   itself: the same, and the detector with the quick line gives the
//!   verdict the detector without it gives. Every 8th game by default;
//!   `ARBITER_QUICK_ALL=1` (with `--release`) takes them all.

use arbiter_chess::{Color, Position};
use arbiter_laws::dead::{is_helpmate, quick_helpmate, DeadPositionDetector, Reason};
use arbiter_laws::{ChaSolver, Unwinnability, Verdict};
use arbiter_pgn::check::Checker;
use arbiter_pgn::generate::{GenOptions, Generator};
use arbiter_pgn::Reader;
use std::sync::Arc;

#[test]
fn every_quick_line_is_a_helpmate_the_corpora_confirm() {
    let (mut sides, mut can, mut found, mut errors) = (0, 0, 0, Vec::new());
    for name in ["positions.txt", "lichess.txt"] {
        let text = arbiter_testkit::registry_file("chasolver-3.0", &format!("tests/{name}"))
            .unwrap_or_else(|| panic!("chasolver's {name} not found in Cargo's registry"));
        let text = String::from_utf8(text).unwrap();
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .step_by(4)
        {
            let (label, fen) = line.split_at(2);
            let Ok(pos) = Position::from_fen_auto(fen.trim()) else {
                continue;
            };
            let expected = [label.starts_with('W'), label.ends_with('B')];
            for (i, color) in Color::ALL.into_iter().enumerate() {
                sides += 1;
                can += usize::from(expected[i]);
                if let Some(l) = quick_helpmate(&pos, color) {
                    found += 1;
                    if !expected[i] || !is_helpmate(&pos, color, &l) {
                        errors.push(format!("{color}: {l:?}: {line}"));
                    }
                }
            }
        }
    }
    println!("{sides} sides, {can} can mate, quick lines for {found}");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // A proof for nearly all the sides that can mate (measured: 0.96).
    assert!(found * 10 >= can * 9, "quick lines for {found} of {can}");
}

/// Every 8th game's final position (all with `ARBITER_QUICK_ALL`), with a
/// legal move left and mating material: the real samples and 400 generated
/// games.
fn final_positions() -> Vec<Position> {
    let every = if std::env::var_os("ARBITER_QUICK_ALL").is_some() {
        1
    } else {
        8
    };
    let mut texts = Vec::new();
    for name in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
        match arbiter_testkit::registry_file("pgn-reader-", &format!("benches/{name}")) {
            Some(bytes) => texts.push(bytes),
            None => {
                eprintln!("skipped: {name} (the pgn-reader crate's sample) not in Cargo's registry")
            }
        }
    }
    let mut generator = Generator::new(GenOptions::default());
    let text = generator.pgn(400);
    texts.push(text.into_bytes());
    let mut out = Vec::new();
    for bytes in texts {
        let mut reader = Reader::new(&bytes[..]);
        let mut checker = Checker::new();
        let mut n = 0;
        while let Some(g) = reader.read_game(&mut checker).unwrap() {
            n += 1;
            let pos = g.final_position;
            if n % every == 0 && pos.has_legal_moves() && !pos.is_insufficient_material() {
                out.push(pos);
            }
        }
    }
    out
}

/// chasolver, not sharing its verdicts with the process's other detectors.
struct Unshared;

impl Unwinnability for Unshared {
    fn solve(&self, pos: &Position, winner: Color) -> (Verdict, Option<Vec<arbiter_chess::Move>>) {
        ChaSolver.solve(pos, winner)
    }
}

#[test]
fn on_final_positions_of_games_the_verdicts_are_the_solvers() {
    let positions = final_positions();
    let (mut sides, mut found, mut quick_settled, mut errors) = (0, 0, 0, Vec::new());
    let mut plain = DeadPositionDetector::new(Arc::new(Unshared));
    plain.effort.quick_plies = 0;
    let mut quick = DeadPositionDetector::new(Arc::new(Unshared));
    for pos in &positions {
        for color in Color::ALL {
            sides += 1;
            if let Some(l) = quick_helpmate(pos, color) {
                found += 1;
                let exact = ChaSolver.can_checkmate(pos, color);
                if exact != Verdict::Winnable || !is_helpmate(pos, color, &l) {
                    errors.push(format!("{color}: {l:?} (solver: {exact:?}): {}", pos.fen()));
                }
            }
        }
        let a = plain.is_dead(pos, None);
        let b = quick.is_dead(pos, None);
        quick_settled += usize::from(b.1 == Reason::Search);
        if a.0 != b.0 {
            errors.push(format!("without {a:?}, with {b:?}: {}", pos.fen()));
        }
    }
    println!(
        "{} positions, {sides} sides: quick lines for {found}; dead-position checks settled by them: {quick_settled}",
        positions.len()
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(positions.len() >= 200, "{} positions", positions.len());
    // The quick line settles nearly all final positions (measured: 0.99).
    assert!(quick_settled * 10 >= positions.len() * 9);
}
