//! Development tool: checks the cheap certificate of mating chances
//! (`arbiter_laws::dead::certainly_can_mate`) against labelled positions —
//! chasolver's corpora, or files written by the `certificate_data` example —
//! and reports false positives (it claims a side can mate where the solver
//! says it cannot) and how many positions it settles.
//!
//! `cargo run --release -p arbiter-laws --example certificate_check -- FILE…`
//! (lines `WB fen`, `W-`, `-B` or `--`).

use arbiter_chess::{Color, Position};
use arbiter_laws::dead::certainly_can_mate;

fn main() {
    let mut false_positives = 0;
    let mut settled = 0;
    let mut total = 0;
    for f in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{f}: {e}"));
        for l in text.lines() {
            if l.starts_with('#') || l.trim().is_empty() || l.len() < 3 {
                continue;
            }
            let (label, fen) = l.split_at(2);
            let Ok(pos) = Position::from_fen_auto(fen.trim()) else {
                continue;
            };
            total += 1;
            let expected = [label.starts_with('W'), label.ends_with('B')];
            let mut any = false;
            for (i, c) in Color::ALL.into_iter().enumerate() {
                if certainly_can_mate(&pos, c) {
                    any = true;
                    if !expected[i] {
                        false_positives += 1;
                        println!("false positive for {c}: {l}");
                    }
                }
            }
            settled += usize::from(any);
        }
    }
    println!(
        "{total} positions: the certificate settles {settled}, false positives {false_positives}"
    );
}
