//! What an engine is told about time: the UCI `go` parameters, read from the
//! Laws' chessclock of the game (FIDE Art. 6).

use arbiter_chess::Color;
use arbiter_laws::Game;

/// The `go` parameters for the player having the move at `t` (milliseconds
/// since the start of the game, at or after the last event):
///
/// - `wtime`, `btime`: the clocks as they show at `t`; the increment before
///   every move is already on them (6.3 b / 6.3.2), and with a simple delay
///   they show the main time;
/// - `winc`, `binc`: each player's increment in his current period plus the
///   delay (a delay is worth up to its length on every move; UCI has no word
///   for it);
/// - `movestogo`: the moves the mover must still complete in his period, if
///   it has a move count (6.3 a / 6.3.1).
///
/// `None` if the game has no clock.
pub fn go_params(game: &Game, t: u64) -> Option<String> {
    let clock = game.clock()?;
    let reading = game.clock_at(t)?;
    let delay = clock.delay().map_or(0, |d| d.ms);
    let inc = |c: Color| clock.increment_ms(c).saturating_add(delay);
    let mut s = format!(
        "wtime {} btime {} winc {} binc {}",
        reading.white,
        reading.black,
        inc(Color::White),
        inc(Color::Black)
    );
    if let Some(n) = clock.moves_to_go(game.turn()) {
        s.push_str(&format!(" movestogo {n}"));
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_laws::{Delay, DelayKind, Event, Start};

    fn game(tc: &str, delay: Option<Delay>) -> Game {
        Game::new(Start {
            time_control: Some(arbiter_pgn::TimeControl::parse(tc).unwrap()),
            delay,
            ..Start::default()
        })
        .unwrap()
    }

    fn play(g: &mut Game, t: u64, san: &str) {
        let by = g.turn();
        let mv = g.position().parse_san(san).unwrap();
        g.apply(Event::play(t, by, mv)).unwrap();
    }

    #[test]
    fn the_increment_is_on_the_clock_before_the_first_move() {
        let mut g = game("10+0.1", None);
        assert_eq!(
            go_params(&g, 0).unwrap(),
            "wtime 10100 btime 10100 winc 100 binc 100"
        );
        play(&mut g, 600, "e4");
        // White: 10.1 s - 0.6 s + 0.1 s; Black's clock has run 0.25 s.
        assert_eq!(
            go_params(&g, 850).unwrap(),
            "wtime 9600 btime 9850 winc 100 binc 100"
        );
    }

    #[test]
    fn periods_give_moves_to_go() {
        // Art. 6.3 a: two moves in 60 s, then 30 s for the rest with 2 s a move.
        let mut g = game("2/60:30+2", None);
        assert!(go_params(&g, 0)
            .unwrap()
            .ends_with("winc 0 binc 0 movestogo 2"));
        play(&mut g, 1_000, "e4");
        assert!(go_params(&g, 1_000).unwrap().ends_with("movestogo 2"));
        play(&mut g, 2_000, "e5");
        assert!(go_params(&g, 2_000).unwrap().ends_with("movestogo 1"));
        play(&mut g, 3_000, "Nf3");
        play(&mut g, 4_000, "Nc6");
        // Both are in the second period: its time has been added, no move count.
        assert_eq!(
            go_params(&g, 4_000).unwrap(),
            "wtime 90000 btime 90000 winc 2000 binc 2000"
        );
    }

    #[test]
    fn a_delay_is_passed_as_increment() {
        let d = Delay {
            kind: DelayKind::Simple,
            ms: 2_000,
        };
        let g = game("5", Some(d));
        // The main time does not run during the delay (simple delay).
        assert_eq!(
            go_params(&g, 1_500).unwrap(),
            "wtime 5000 btime 5000 winc 2000 binc 2000"
        );
        assert_eq!(g.next_flag_time(), Some(7_000));
        assert_eq!(go_params(&game("-", None), 0), None);
    }
}
