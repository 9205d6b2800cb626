//! Round trips (FIDE Art. 8, Appendix C; PGN export format): for generated
//! games and the hand-written oddities, `read(write(game))` gives back the
//! same moves, tags, comments, NAGs, clock times and variations, in every
//! notation; every notation converts to every other and back; and our reading
//! of the generated PGN agrees with pgn-reader + shakmaty (the oracle).

mod common;

use arbiter_pgn::generate::{GenOptions, Generator};
use arbiter_pgn::{Game, Notation, Reader, WriteOptions};

fn generated(seed: u64, n: u64) -> Vec<Game> {
    let mut g = Generator::new(GenOptions {
        seed,
        annotated: 0.5,
        ..GenOptions::default()
    });
    (1..=n).map(|i| g.game(i)).collect()
}

fn read_all(text: &str) -> Vec<Game> {
    Reader::new(text.as_bytes())
        .games()
        .collect::<std::io::Result<Vec<_>>>()
        .unwrap()
}

fn sorted_tags(g: &Game) -> Vec<(String, String)> {
    let mut t: Vec<_> = g
        .tags
        .iter()
        .filter(|(n, _)| *n != "Notation")
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect();
    t.sort();
    t
}

fn assert_same(a: &Game, b: &Game, what: &str) {
    assert!(b.error.is_none(), "{what}: {:?}", b.error);
    assert_eq!(a.start.fen(), b.start.fen(), "{what}");
    assert_eq!(a.line, b.line, "{what}");
    assert_eq!(a.result(), b.result(), "{what}");
    assert_eq!(sorted_tags(a), sorted_tags(b), "{what}");
}

#[test]
fn generated_games_round_trip_in_every_notation() {
    let games = generated(7, 150);
    for n in Notation::ALL {
        let mut text = String::new();
        for g in &games {
            text.push_str(&g.to_pgn_with(&WriteOptions::notation(n)));
        }
        let back = read_all(&text);
        assert_eq!(back.len(), games.len(), "{n}");
        for (i, (a, b)) in games.iter().zip(&back).enumerate() {
            assert_same(a, b, &format!("{n} game {}", i + 1));
        }
        // Export format: every line shorter than 80 characters (a `;` comment
        // may not be split, and our generated ones are short).
        for line in text.lines() {
            assert!(line.chars().count() < 80, "{n}: {line}");
        }
    }
}

#[test]
fn every_notation_converts_to_every_other_and_back() {
    let games = generated(11, 40);
    for from in Notation::ALL {
        for to in Notation::ALL {
            for g in &games {
                let first = g.to_pgn_with(&WriteOptions::notation(from));
                let a = read_all(&first).remove(0);
                let second = a.to_pgn_with(&WriteOptions::notation(to));
                let b = read_all(&second).remove(0);
                let third = b.to_pgn_with(&WriteOptions::notation(from));
                assert_eq!(first, third, "{from} -> {to} -> {from}");
                assert_same(g, &b, &format!("{from} -> {to}"));
            }
        }
    }
}

#[test]
fn oddities_round_trip() {
    let text = include_str!("data/oddities.pgn");
    for g in read_all(text).iter().filter(|g| g.error.is_none()) {
        for n in Notation::ALL {
            let out = g.to_pgn_with(&WriteOptions::notation(n));
            let back = read_all(&out).remove(0);
            assert_eq!(back.line, g.line, "{n}:\n{out}");
            assert_eq!(back.start, g.start);
            assert_eq!(back.result(), g.result());
            assert_eq!(
                back.to_pgn_with(&WriteOptions::notation(n)),
                out,
                "writing is stable"
            );
        }
    }
}

#[test]
fn writer_options_leave_out_what_is_not_wanted() {
    let games = generated(3, 30);
    let o = WriteOptions {
        comments: false,
        variations: false,
        clocks: false,
        nags: false,
        ..WriteOptions::default()
    };
    for g in &games {
        let text = g.to_pgn_with(&o);
        let movetext = text.split("\n\n").nth(1).unwrap();
        assert!(!movetext.contains('{') && !movetext.contains('(') && !movetext.contains('$'));
        let back = read_all(&text).remove(0);
        assert_eq!(
            back.mainline().collect::<Vec<_>>(),
            g.mainline().collect::<Vec<_>>()
        );
    }
}

#[test]
fn agrees_with_pgn_reader() {
    let games = generated(5, 300);
    let mut text = String::new();
    for g in &games {
        text.push_str(&g.to_pgn());
    }
    let oracle = common::oracle::oracle_games(text.as_bytes());
    let ours = read_all(&text);
    assert_eq!(oracle.len(), ours.len());
    for (i, (o, g)) in oracle.iter().zip(&ours).enumerate() {
        assert!(o.ok && g.error.is_none(), "game {}", i + 1);
        let moves: Vec<String> = g.mainline().map(|m| m.to_string()).collect();
        assert_eq!(moves, o.moves, "game {}", i + 1);
        let fen = g.final_position().fen();
        assert_eq!(fen.split(' ').next().unwrap(), o.board, "game {}", i + 1);
    }
}

#[test]
fn generated_games_cover_every_kind_of_move() {
    // The round-trip corpus must contain what notations differ on: promotion
    // to every piece (Art. 3.7 e), en passant (3.7 d), both castlings (3.8 b)
    // in standard chess and in Chess960, games from set-up positions.
    use arbiter_chess::{CastlingSide, Role};
    let games = generated(7, 150);
    let mut promotions = [0; 6];
    let (mut ep, mut set_up) = (0, 0);
    let mut castles = [[0; 2]; 2]; // [standard, chess960][king side, queen side]
    for g in &games {
        if g.tags.get("FEN").is_some() {
            set_up += 1;
        }
        let mode = g.start.castling_mode().is_chess960() as usize;
        let mut pos = g.start;
        for m in g.mainline() {
            if let Some(r) = m.promotion {
                promotions[r.index()] += 1;
            }
            if pos.is_en_passant(m) {
                ep += 1;
            }
            match pos.castling_side(m) {
                Some(CastlingSide::KingSide) => castles[mode][0] += 1,
                Some(CastlingSide::QueenSide) => castles[mode][1] += 1,
                None => {}
            }
            pos.play_unchecked(m);
        }
    }
    for r in Role::PROMOTIONS {
        assert!(promotions[r.index()] > 0, "no promotion to {r:?}");
    }
    assert!(ep > 0 && set_up > 0, "ep {ep}, set-up {set_up}");
    assert!(
        castles.iter().flatten().all(|&n| n > 0),
        "castling {castles:?}"
    );
}
