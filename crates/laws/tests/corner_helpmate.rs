//! The mate in a corner, constructed (`arbiter_laws::dead::corner_helpmate`),
//! against exact verdicts (FIDE Art. 5.2 b / 5.2.2, 6.9: "could checkmate
//! by any possible series of legal moves"):
//!
//! - chasolver's corpora (`tests/positions.txt`, `tests/lichess.txt` in its
//!   crate package: both colours' verdicts): for every position of kings
//!   and at most three minor pieces, every line given replays to a
//!   checkmate by its side, and the corpus says that side can mate;
//! - the final positions of 1,000 generated games (`Generator`, the
//!   generator `arbiter pgn generate` uses) against chasolver itself: the
//!   same, and the detector gives the verdict the exact solver gives for
//!   both sides.

use arbiter_chess::{Color, Position};
use arbiter_laws::dead::{corner_helpmate, is_helpmate, DeadPositionDetector};
use arbiter_laws::{ChaSolver, Unwinnability, Verdict};
use arbiter_pgn::check::Checker;
use arbiter_pgn::generate::{GenOptions, Generator};
use arbiter_pgn::Reader;

/// Kings and at most three minor pieces: what the construction tries.
fn sparse_minor(pos: &Position) -> bool {
    let b = pos.board();
    (b.pawns() | b.rooks_and_queens()).is_empty() && b.occupied().count() <= 5
}

#[test]
fn every_corner_line_is_a_helpmate_the_corpora_confirm() {
    let (mut sides, mut can, mut found, mut errors) = (0, 0, 0, Vec::new());
    for name in ["positions.txt", "lichess.txt"] {
        let text = arbiter_testkit::registry_file("chasolver-3.0", &format!("tests/{name}"))
            .unwrap_or_else(|| panic!("chasolver's {name} not found in Cargo's registry"));
        let text = String::from_utf8(text).unwrap();
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let (label, fen) = line.split_at(2);
            let Ok(pos) = Position::from_fen_auto(fen.trim()) else {
                continue;
            };
            if !sparse_minor(&pos) {
                continue;
            }
            let expected = [label.starts_with('W'), label.ends_with('B')];
            for (i, color) in Color::ALL.into_iter().enumerate() {
                sides += 1;
                can += usize::from(expected[i]);
                if let Some(l) = corner_helpmate(&pos, color) {
                    found += 1;
                    if !expected[i] || !is_helpmate(&pos, color, &l) {
                        errors.push(format!("{color}: {l:?}: {line}"));
                    }
                }
            }
        }
    }
    println!(
        "{sides} sides of sparse minor-piece positions, {can} can mate, corner lines for {found}"
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(sides > 0 && found > 0, "no sparse positions tried");
}

#[test]
fn generated_finals_get_the_solvers_verdicts() {
    let mut generator = Generator::new(GenOptions::default());
    let text = generator.pgn(1000);
    let mut reader = Reader::new(text.as_bytes());
    let mut checker = Checker::new();
    let (mut tried, mut found, mut errors) = (0, 0, Vec::new());
    while let Some(g) = reader.read_game(&mut checker).unwrap() {
        let pos = g.final_position;
        if !pos.has_legal_moves() || pos.is_insufficient_material() || !sparse_minor(&pos) {
            continue;
        }
        let mut verdicts = [Verdict::Unknown; 2];
        for (i, color) in Color::ALL.into_iter().enumerate() {
            tried += 1;
            verdicts[i] = ChaSolver.can_checkmate(&pos, color);
            if let Some(l) = corner_helpmate(&pos, color) {
                found += 1;
                if verdicts[i] != Verdict::Winnable || !is_helpmate(&pos, color, &l) {
                    errors.push(format!("{color}: {l:?}: {}", pos.fen()));
                }
            }
        }
        let dead = !verdicts.contains(&Verdict::Winnable);
        let (detected, _) = DeadPositionDetector::default().is_dead(&pos, None);
        if dead != detected {
            errors.push(format!("dead {dead}, detector {detected}: {}", pos.fen()));
        }
    }
    println!("{tried} sides of generated finals, corner lines for {found}");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(found > 0);
}
