//! The game is a fold over its log: storing the events as JSON and replaying
//! them gives the same state (position, clocks, offers, result) — what the
//! server does after a restart. Also FIDE Art. 6.3 a / 6.3.1: a period starts
//! when its move count is reached (the 40th move), time saved carries over.

use arbiter_chess::Color;
use arbiter_laws::json::{self, Event};
use arbiter_laws::{Game, Start};
use rand::{Rng, SeedableRng};

fn ev(json: String) -> Event {
    serde_json::from_str(&json).unwrap()
}

fn tc(text: &str) -> Start {
    Start {
        time_control: Some(arbiter_pgn::TimeControl::parse(text).unwrap()),
        ..Start::default()
    }
}

fn name(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

#[test]
fn replaying_the_stored_log_gives_the_same_state() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    for i in 0..300 {
        let start: json::Start = serde_json::from_str(&format!(
            r#"{{"time_control": "{}", "edition": "{}"}}"#,
            ["180+2", "40/5400+30:1800+30", "900+10", "60"][i % 4],
            ["2014", "2018", "2023"][i % 3]
        ))
        .unwrap();
        let start = start.to_start().unwrap();
        let mut game = Game::new(start.clone()).unwrap();
        let mut log = Vec::new();
        let mut t = 0;
        while !game.is_over() && game.moves().len() < 200 {
            t += rng.gen_range(0..5_000);
            let turn = game.turn();
            let roll = rng.gen_range(0..100);
            let e = if roll < 3 {
                ev(format!(
                    r#"{{"t": {t}, "by": "{}", "do": "offer_draw"}}"#,
                    name(turn)
                ))
            } else if roll < 5 {
                ev(format!(
                    r#"{{"t": {t}, "by": "{}", "do": "claim", "kind": "threefold"}}"#,
                    name(turn)
                ))
            } else if roll < 6 {
                ev(format!(
                    r#"{{"t": {t}, "by": "{}", "do": "flag"}}"#,
                    name(!turn)
                ))
            } else if roll < 7 {
                ev(format!(
                    r#"{{"t": {t}, "by": "{}", "do": "accept_draw"}}"#,
                    name(turn)
                ))
            } else {
                let moves = game.legal_moves();
                let m = moves[rng.gen_range(0..moves.len())];
                let uci = game.position().uci(m);
                ev(format!(
                    r#"{{"t": {t}, "by": "{}", "do": "move", "move": "{uci}"}}"#,
                    name(turn)
                ))
            };
            // The typed event, written back as JSON (moves in SAN), is what is
            // stored; rejected events are not logged.
            if let Ok(typed) = e.to_event(&game) {
                let wire = Event::from_event(&typed, &game);
                if game.apply(typed).is_ok() {
                    log.push(wire);
                }
            }
        }
        let stored = serde_json::to_string(&log).unwrap();
        let events: Vec<Event> = serde_json::from_str(&stored).unwrap();
        let mut again = Game::new(start.clone()).unwrap();
        for e in &events {
            json::apply(&mut again, e).unwrap();
        }
        assert_eq!(
            Game::replay(start, game.events()).unwrap().events(),
            game.events()
        );
        assert_eq!(again.position(), game.position());
        assert_eq!(again.outcome(), game.outcome());
        assert_eq!(again.clock_at(t), game.clock_at(t));
        assert_eq!(again.draw_offer(), game.draw_offer());
        assert_eq!(again.next_flag_time(), game.next_flag_time());
        assert_eq!(again.events(), game.events());
    }
}

#[test]
fn art_6_3_period_change_after_the_40th_move() {
    // FIDE classical control: 90 minutes for 40 moves, then 30 minutes, 30 s per move from move 1.
    let start = tc("40/5400+30:1800+30");
    let mut game = Game::new(start).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(40);
    let mut t = 0;
    let mut white_before_40th = 0;
    while game.moves().len() < 80 {
        let turn = game.turn();
        let moves = game.legal_moves();
        // Quiet moves keep the game going; avoid ending it early.
        let m = moves[rng.gen_range(0..moves.len())];
        let uci = game.position().uci(m);
        t += 10_000;
        if turn == Color::White && game.moves().len() == 78 {
            white_before_40th = game.clock_at(t).unwrap().white;
        }
        let e = ev(format!(
            r#"{{"t": {t}, "by": "{}", "do": "move", "move": "{uci}"}}"#,
            name(turn)
        ));
        json::apply(&mut game, &e).unwrap();
        if game.is_over() {
            // Rare: start again with another seed stream.
            game = Game::new(tc("40/5400+30:1800+30")).unwrap();
            t = 0;
        }
    }
    let clock = game.clock().unwrap();
    assert_eq!(clock.moves(Color::White), 40);
    assert_eq!(clock.period(Color::White), 1);
    assert_eq!(clock.period(Color::Black), 1);
    let white = game.clock_at(t).unwrap().white;
    // After the 40th move: the 30 minutes of the second period and the increment are added.
    assert_eq!(white, white_before_40th + 1_800_000 + 30_000);
    // 40 moves of 10 s each with 30 s increments (41 of them, one before move 1) from 90 minutes.
    assert_eq!(white, 5_400_000 + 41 * 30_000 - 40 * 10_000 + 1_800_000);
}

#[test]
fn next_flag_time_and_clock_at() {
    let start = tc("60+1");
    let mut game = Game::new(start).unwrap();
    assert_eq!(game.next_flag_time(), Some(61_000));
    json::apply(
        &mut game,
        &ev(r#"{"t": 5000, "by": "white", "do": "move", "move": "e4"}"#.into()),
    )
    .unwrap();
    assert_eq!(game.next_flag_time(), Some(5_000 + 61_000));
    let r = game.clock_at(10_000).unwrap();
    assert_eq!(
        (r.white, r.black, r.running),
        (57_000, 56_000, Some(Color::Black))
    );
}
