//! `Game::play_line` (a record's line in one pass, as `arbiter audit` plays
//! it) leaves the game exactly as `Game::apply` of each move does: the same
//! automatic end at the same move (Art. 5.1 a, 5.2 a, 5.2 b, 9.6 a fivefold
//! repetition, 9.6 b 75 moves), the same moves, events, position, clock and
//! repetition history (9.2: the claims open afterwards), the same lapse of a
//! draw offer (9.1 b). The lines shuffle pieces so that positions repeat and
//! the move counters run high.

use arbiter_chess::{Move, Position};
use arbiter_laws::{ClaimKind, Edition, Event, Game, Start};
use arbiter_pgn::TimeControl;
use rand::{Rng, SeedableRng};

/// Random legal moves from `start`, mostly ones that take nothing and move
/// no pawn (knights, bishops, rooks, queens and kings going back and
/// forth), so that positions recur and the 50- and 75-move counts run.
fn shuffling_line(start: &Position, rng: &mut impl Rng, max: usize) -> Vec<Move> {
    let mut p = *start;
    let mut line: Vec<Move> = Vec::new();
    while line.len() < max {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let quiet: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| !p.is_zeroing(m))
            .collect();
        // Undo the own last move half of the time: repetitions.
        let back = line.len().checked_sub(2).map(|i| line[i]).and_then(|m| {
            let undo = Move::new(m.to, m.from);
            quiet.contains(&undo).then_some(undo)
        });
        let m = match back {
            Some(undo) if rng.gen_bool(0.6) => undo,
            _ if !quiet.is_empty() && rng.gen_bool(0.9) => quiet[rng.gen_range(0..quiet.len())],
            _ => moves[rng.gen_range(0..moves.len())],
        };
        p.play_unchecked(m);
        line.push(m);
    }
    line
}

const STARTS: [&str; 7] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // The 75-move count near its end (9.6 b): 140 plies already.
    "r3k2r/pppq1ppp/2n2n2/8/8/2N2N2/PPPQ1PPP/R3K2R w KQkq - 140 40",
    "4k3/8/3n4/8/8/3N4/8/4K3 w - - 120 90",
    // A rook each, kings free: long shuffles.
    "8/8/3k4/8/8/4K3/1r6/6R1 b - - 0 50",
    // Knight and pawn against king: alive until the pawn goes.
    "8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1",
    // King against king and pawn: dead once the pawn is taken (5.2 b).
    "8/8/8/4k3/8/8/4p3/4K3 w - - 0 70",
    // Bishops on squares of one colour: dead at once (5.2 b), no move played.
    "8/8/2b5/4k3/8/4K3/4B3/8 w - - 30 60",
];

/// The state both ways must share.
fn snapshot(g: &Game, t: u64) -> String {
    let claims: Vec<_> = std::iter::once(None)
        .chain(g.legal_moves().into_iter().map(Some))
        .map(|m| g.claimable(m))
        .collect();
    format!(
        "{:?}\n{:?}\n{:?}\n{}\nrepetitions {}\nclaims {:?}\nclock {:?}\noffer {:?}",
        g.outcome(),
        g.moves(),
        g.events(),
        g.position().fen(),
        g.repetitions(),
        claims,
        g.clock_at(t),
        g.draw_offer(),
    )
}

/// The fivefold repetition of the very position a pawn move made (the
/// first of its run since the last irreversible move): the game ends at
/// its fifth appearance (9.6 a / 9.6.1) both ways, under each edition.
#[test]
fn a_fivefold_from_the_position_after_a_pawn_move_ends_the_line() {
    let start = Position::standard();
    let mut p = start;
    let mut line = Vec::new();
    let mut sans = vec!["e4"];
    for _ in 0..4 {
        sans.extend(["Nf6", "Nf3", "Ng8", "Ng1"]);
    }
    sans.extend(["d5", "exd5"]);
    for san in sans {
        let m = p.parse_san(san).unwrap();
        p.play_unchecked(m);
        line.push(m);
    }
    for edition in [Edition::Fide2014, Edition::Fide2018, Edition::Fide2023] {
        let start = Start {
            edition,
            ..Start::default()
        };
        let mut one = Game::new(start.clone()).unwrap();
        let played = one.play_line(&line, &[]);
        assert_eq!(played.plies, 17, "{edition:?}");
        let end = one.outcome().map(|o| format!("{:?}", o.termination));
        assert_eq!(end.as_deref(), Some("FivefoldRepetition"), "{edition:?}");
        let mut each = Game::new(start).unwrap();
        for &m in &line[..17] {
            let by = each.turn();
            each.apply(Event::play(0, by, m)).unwrap();
        }
        assert_eq!(snapshot(&one, 0), snapshot(&each, 0), "{edition:?}");
    }
}

/// A player absent at the start may not move (6.7): his first move is
/// refused, both ways, with the moves before it played.
#[test]
fn the_first_move_of_an_absent_player_is_refused_both_ways() {
    let start_pos = Position::standard();
    let mut p = start_pos;
    let mut line = Vec::new();
    for san in ["e4", "e5", "Nf3", "Nc6"] {
        let m = p.parse_san(san).unwrap();
        p.play_unchecked(m);
        line.push(m);
    }
    for (absent, plies) in [
        (arbiter_chess::Color::White, 0),
        (arbiter_chess::Color::Black, 1),
    ] {
        let start = Start {
            absent: vec![absent],
            ..Start::default()
        };
        let mut one = Game::new(start.clone()).unwrap();
        let played = one.play_line(&line, &[1000, 2000, 3000, 4000]);
        let mut each = Game::new(start).unwrap();
        let mut refused = None;
        for (&m, t) in line.iter().zip([1000, 2000, 3000, 4000]) {
            let by = each.turn();
            if let Err(e) = each.apply(Event::play(t, by, m)) {
                refused = Some(e);
                break;
            }
        }
        assert_eq!(played.plies, plies, "{absent:?}");
        assert_eq!(played.refused, refused, "{absent:?}");
        assert!(played.refused.is_some(), "{absent:?}");
        assert_eq!(snapshot(&one, 5000), snapshot(&each, 5000), "{absent:?}");
    }
}

#[test]
fn one_pass_leaves_the_game_as_move_by_move() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut ends = std::collections::BTreeMap::new();
    for round in 0..400 {
        let fen = STARTS[round % STARTS.len()];
        let start_pos: Position = fen.parse().unwrap();
        let max = rng.gen_range(0..=220);
        let line = shuffling_line(&start_pos, &mut rng, max);
        let edition = [Edition::Fide2014, Edition::Fide2018, Edition::Fide2023][round % 3];
        let start = Start {
            fen: Some(fen.to_owned()),
            edition,
            time_control: (round % 2 == 0).then(|| "300+2".parse::<TimeControl>().unwrap()),
            ..Start::default()
        };
        let times: Vec<u64> = (1..=line.len() as u64).map(|i| i * 1500).collect();
        let mut one = Game::new(start.clone()).unwrap();
        let mut each = Game::new(start).unwrap();
        // Half of the games begin with a draw offer standing: it lapses at
        // the opponent's move (9.1 b / 9.1.2.1).
        if round % 4 == 1 && !one.is_over() {
            let offerer = !one.turn();
            one.apply(Event::offer_draw(0, offerer)).unwrap();
            each.apply(Event::offer_draw(0, offerer)).unwrap();
        }
        let played = one.play_line(&line, &times);
        let mut plies = 0;
        for (&m, &t) in line.iter().zip(&times) {
            if each.is_over() {
                break;
            }
            let by = each.turn();
            each.apply(Event::play(t, by, m)).unwrap();
            plies += 1;
        }
        assert!(played.refused.is_none(), "{fen}: {played:?}");
        assert_eq!(played.plies, plies, "{fen}, round {round}");
        let t = times.last().copied().unwrap_or(0) + 700;
        assert_eq!(
            snapshot(&one, t),
            snapshot(&each, t),
            "{fen}, round {round}"
        );
        // The claims the history allows, made: the same answers.
        for kind in [ClaimKind::Threefold, ClaimKind::Fifty] {
            if one.is_over() {
                break;
            }
            let by = one.turn();
            let a = one
                .clone()
                .apply(Event::claim(t, by, kind, None))
                .map(|a| a.note);
            let b = each
                .clone()
                .apply(Event::claim(t, by, kind, None))
                .map(|a| a.note);
            assert_eq!(a, b, "{fen}, round {round}, {kind:?}");
        }
        let end = one.outcome().map(|o| format!("{:?}", o.termination));
        *ends.entry(end).or_insert(0) += 1;
    }
    // The lines reach the ends this test is about.
    for end in ["FivefoldRepetition", "SeventyfiveMoves", "DeadPosition"] {
        assert!(
            ends.get(&Some(end.to_owned())).is_some_and(|&n| n > 3),
            "{end}: {ends:?}"
        );
    }
    assert!(ends.get(&None).is_some_and(|&n| n > 20), "{ends:?}");
}
