//! The cheap proofs of the dead-position check (Art. 5.2 b / 5.2.2) against
//! the exact solver, on seeded random games played move by move as `Game`
//! plays them: a position found dead must be dead for the solver (neither
//! side can mate), a position found alive by a way back ([`Reason::Return`])
//! or a carried-over helpmate line ([`Reason::Witness`]) must not be, and the
//! line kept for the position on the board must replay to a checkmate.

use arbiter_chess::{Color, Position};
use arbiter_laws::dead::{is_helpmate, DeadPositionDetector, Reason};
use arbiter_laws::{ChaSolver, Unwinnability, Verdict};
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

fn solver_says_dead(pos: &Position) -> bool {
    Color::ALL
        .into_iter()
        .all(|c| ChaSolver.can_checkmate(pos, c) == Verdict::Unwinnable)
}

#[test]
fn cheap_proofs_agree_with_the_solver() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut settled: HashMap<Reason, usize> = HashMap::new();
    let mut checked = 0;
    for _ in 0..40 {
        let mut d = DeadPositionDetector::default();
        let mut pos = Position::standard();
        let mut alive = d.is_dead(&pos, None).1 != Reason::Undecided;
        for ply in 0..400 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            let before = pos;
            pos.play_unchecked(m);
            if !pos.has_legal_moves() {
                break;
            }
            let (dead, reason) = d.is_dead(&pos, alive.then_some((&before, m)));
            *settled.entry(reason).or_default() += 1;
            if let Some(w) = d.witness() {
                if w.starts_at(&pos) {
                    assert!(
                        is_helpmate(&pos, w.winner, &w.line),
                        "{}: the kept line does not mate: {:?}",
                        pos.fen(),
                        w.line
                    );
                }
            }
            let cheap = matches!(reason, Reason::Return | Reason::Witness);
            if dead || (cheap && ply % 4 == 0) {
                checked += 1;
                assert_eq!(
                    dead,
                    solver_says_dead(&pos),
                    "{} after {m:?}: found {} by {reason:?}",
                    pos.fen(),
                    if dead { "dead" } else { "alive" }
                );
            }
            if dead {
                break;
            }
            alive = reason != Reason::Undecided;
        }
    }
    // Every way of deciding was exercised.
    for reason in [
        Reason::Material,
        Reason::Return,
        Reason::Witness,
        Reason::Solver,
    ] {
        assert!(
            settled.get(&reason).copied().unwrap_or(0) > 0,
            "{reason:?}: {settled:?}"
        );
    }
    assert!(checked > 500, "{checked}");
}

/// A line followed over its own first move stays a proof without replay;
/// a line for the previous position is repaired for the next one.
#[test]
fn lines_are_followed_and_repaired() {
    let mut d = DeadPositionDetector::default();
    let start = Position::standard();
    assert!(!d.is_dead(&start, None).0);
    let w = d.witness().expect("the solver's line is kept").clone();
    assert!(w.starts_at(&start));
    // Play the line's own first move: followed.
    let m = w.line[0];
    let mut pos = start;
    pos.play_unchecked(m);
    let (dead, reason) = d.is_dead(&pos, Some((&start, m)));
    assert!(!dead);
    assert_eq!(reason, Reason::Witness);
    let kept = d.witness().unwrap();
    assert!(kept.starts_at(&pos));
    assert_eq!(&kept.line[..], &w.line[1..]);
}

/// Which side the solver is asked about first (`prefer_winner`, the
/// audit's cost hint) never changes a verdict: on random games cut at
/// random plies, detectors preferring White, Black or neither agree on
/// every position after a capture or pawn move, and with the solver.
#[test]
fn the_side_asked_first_changes_no_verdict() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let mut checked = 0;
    for _ in 0..30 {
        let mut pos = Position::standard();
        let cut = rng.gen_range(20..300);
        for _ in 0..cut {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        }
        if !pos.has_legal_moves() {
            continue;
        }
        let verdicts: Vec<bool> = [None, Some(Color::White), Some(Color::Black)]
            .into_iter()
            .map(|prefer| {
                let mut d = DeadPositionDetector::default();
                d.prefer_winner(prefer);
                d.is_dead(&pos, None).0
            })
            .collect();
        assert!(verdicts.iter().all(|&v| v == verdicts[0]), "{}", pos.fen());
        assert_eq!(verdicts[0], solver_says_dead(&pos), "{}", pos.fen());
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}
