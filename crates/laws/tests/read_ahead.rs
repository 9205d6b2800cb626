//! Reading a game record ahead (Art. 5.2 b / 5.2.2 decided by the record's
//! own continuation, `Game::read_ahead`, `arbiter judge FILE`): positions
//! are proven alive only when they are, and the judge's verdicts are the
//! same, byte for byte, whether it reads ahead or answers line by line.

use arbiter_chess::{Color, Position};
use arbiter_laws::dead::{DeadPositionDetector, Reason};
use arbiter_laws::judge::{run, Options};
use arbiter_laws::{ChaSolver, Unwinnability, Verdict};
use rand::{Rng, SeedableRng};

fn solver_says_dead(pos: &Position) -> bool {
    Color::ALL
        .into_iter()
        .all(|c| ChaSolver.can_checkmate(pos, c) == Verdict::Unwinnable)
}

/// Random legal moves from `start` until no move is left or `max` plies.
fn random_line(start: &Position, rng: &mut impl Rng, max: usize) -> Vec<arbiter_chess::Move> {
    let mut p = *start;
    let mut line = Vec::new();
    while line.len() < max {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        p.play_unchecked(m);
        line.push(m);
    }
    line
}

const STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // K+N v K+P: alive (a helpmate exists for both) until the pawn goes.
    "8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1",
    // K+B+P v K+N.
    "8/2n5/8/3k4/8/5P2/2B5/4K3 b - - 0 1",
    // A few pieces each.
    "r3k3/1p6/8/8/8/8/6P1/2B1K2N w q - 0 1",
];

/// Art. 5.2 b: every position a continuation proves alive is alive for the
/// exact solver; every position it leaves out is decided as before.
#[test]
fn continuations_prove_only_live_positions() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut proven_total = 0;
    for (g, fen) in STARTS.iter().cycle().take(24).enumerate() {
        let start = Position::from_fen_auto(fen).unwrap();
        let line = random_line(&start, &mut rng, 300);
        let mut d = DeadPositionDetector::default();
        let proven = d.prove_continuation(&start, &line);
        assert!(proven <= line.len() + 1);
        proven_total += proven;
        let mut p = start;
        for (i, &m) in line.iter().enumerate() {
            let (dead, reason) = d.is_dead(&p, None);
            if i < proven {
                assert_eq!(
                    reason,
                    Reason::Continuation,
                    "game {g} ply {i}: {}",
                    p.fen()
                );
                assert!(!dead);
                // Sampled against the solver (every position near the end).
                if i % 16 == 0 || i + 8 >= proven {
                    assert!(
                        !solver_says_dead(&p),
                        "game {g} ply {i}: {} is dead",
                        p.fen()
                    );
                }
            } else {
                assert_ne!(reason, Reason::Continuation, "game {g} ply {i}");
            }
            p.play_unchecked(m);
            if dead {
                break;
            }
        }
    }
    assert!(proven_total > 1000, "{proven_total}");
}

/// A dead position stays dead whatever is played from it: no continuation
/// proves anything (Art. 5.2 b: locked pawns, kings that cannot cross).
#[test]
fn nothing_is_proven_from_a_dead_position() {
    let start = Position::from_fen_auto("8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/8 w - - 0 1").unwrap();
    assert!(solver_says_dead(&start));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let line = random_line(&start, &mut rng, 120);
    assert_eq!(line.len(), 120);
    let mut d = DeadPositionDetector::default();
    assert_eq!(d.prove_continuation(&start, &line), 0);
    assert_eq!(d.is_dead(&start, None), (true, Reason::Solver));
}

/// A checkmate at the end of a record proves every position before it.
#[test]
fn a_checkmate_proves_the_whole_record() {
    let start = Position::standard();
    let mut p = start;
    let mut line = Vec::new();
    for san in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7"] {
        let m = p.parse_san(san).unwrap();
        p.play_unchecked(m);
        line.push(m);
    }
    assert!(p.is_checkmate());
    let mut d = DeadPositionDetector::default();
    assert_eq!(d.prove_continuation(&start, &line), 7);
    assert_eq!(d.stats().solver_calls, 0);
}

fn side(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

/// `arbiter judge` gives the same output, byte for byte, reading ahead or
/// line by line: random records with moves (SAN and UCI), draw offers and
/// declines, claims (some on an intended move), events after the end and
/// out of turn, from several starts and editions.
#[test]
fn judge_reading_ahead_answers_the_same() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    let mut lines_total = 0;
    let mut ended = 0;
    for (g, fen) in STARTS.iter().cycle().take(40).enumerate() {
        let edition = ["2014", "2018", "2023"][g % 3];
        let mut input = format!(
            "{{\"start\": {{\"fen\": \"{fen}\", \"edition\": \"{edition}\", \"time_control\": \"600+5\"}}}}\n"
        );
        let mut p = Position::from_fen_auto(fen).unwrap();
        let mut t = 0;
        for _ in 0..rng.gen_range(20..400) {
            t += rng.gen_range(100..3000);
            let by = side(p.turn());
            let roll = rng.gen_range(0..100);
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            let text = if rng.gen_bool(0.5) {
                p.san(m).to_string()
            } else {
                p.uci(m).to_string()
            };
            match roll {
                0..=3 => input.push_str(&format!(
                    "{{\"t\": {t}, \"by\": \"{by}\", \"do\": \"offer_draw\"}}\n"
                )),
                4..=5 => input.push_str(&format!(
                    "{{\"t\": {t}, \"by\": \"{}\", \"do\": \"decline_draw\"}}\n",
                    side(!p.turn())
                )),
                6..=7 => input.push_str(&format!(
                    "{{\"t\": {t}, \"by\": \"{by}\", \"do\": \"claim\", \"kind\": \"threefold\", \"move\": \"{text}\"}}\n"
                )),
                8 => input.push_str(&format!(
                    "{{\"t\": {t}, \"by\": \"{}\", \"do\": \"move\", \"move\": \"{text}\"}}\n",
                    side(!p.turn())
                )),
                9 => input.push_str("# a comment\n\n"),
                _ => {}
            }
            // A claim on an intended move: the move is played by the claim
            // itself when the claim is incorrect (9.4 / 9.5).
            if !(6..=7).contains(&roll) {
                input.push_str(&format!(
                    "{{\"t\": {t}, \"by\": \"{by}\", \"do\": \"move\", \"move\": \"{text}\"}}\n"
                ));
            }
            p.play_unchecked(m);
        }
        let mut online = Vec::new();
        let a = run(input.as_bytes(), &mut online, Options::default()).unwrap();
        let mut ahead = Vec::new();
        let b = run(
            input.as_bytes(),
            &mut ahead,
            Options {
                read_ahead: true,
                ..Options::default()
            },
        )
        .unwrap();
        assert_eq!(a, b, "game {g}");
        let (online, ahead) = (
            String::from_utf8(online).unwrap(),
            String::from_utf8(ahead).unwrap(),
        );
        for (i, (x, y)) in online.lines().zip(ahead.lines()).enumerate() {
            assert_eq!(x, y, "game {g}, output line {}:\n{input}", i + 1);
        }
        assert_eq!(online.lines().count(), ahead.lines().count(), "game {g}");
        lines_total += online.lines().count();
        ended += usize::from(a.result.is_some());
    }
    assert!(lines_total > 2000, "{lines_total}");
    assert!(ended > 5, "{ended}");
}

/// A line that cannot be read (not UTF-8) is refused, naming its line and
/// byte, as a line that is not an event is, and the judging goes on with
/// the next, reading ahead or not (docs/judge.md).
#[test]
fn an_unreadable_line_is_refused_and_the_judging_goes_on() {
    let mut input =
        b"{\"start\": {}}\n{\"t\": 1, \"by\": \"white\", \"do\": \"move\", \"move\": \"e4\"}\n"
            .to_vec();
    input.extend_from_slice(
        b"{\"t\": 2, \"by\": \"black\", \"do\": \"move\", \"move\": \"e\xff5\"}\n",
    );
    input.extend_from_slice(b"{\"t\": 3, \"by\": \"black\", \"do\": \"move\", \"move\": \"e5\"}\n");
    for read_ahead in [false, true] {
        let mut out = Vec::new();
        let options = Options {
            read_ahead,
            ..Options::default()
        };
        let summary = run(&input[..], &mut out, options).unwrap();
        assert_eq!((summary.events, summary.rejected), (3, 1));
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert!(lines[1].contains("\"move\":\"e4\""), "{out}");
        assert!(
            lines[2].contains("\"error\":\"line 3: not UTF-8 text (byte 49, 0xff)\""),
            "{out}"
        );
        assert!(lines[3].contains("\"move\":\"e5\""), "{out}");
    }
}
