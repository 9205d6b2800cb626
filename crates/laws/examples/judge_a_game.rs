//! Judge a game from Rust: a rapid game under the 2023 Laws with a draw
//! offer, an incorrect claim and a flag fall, each event built with the
//! typed API, and what the Laws say after each.
//!
//! `cargo run -p arbiter-laws --example judge_a_game`

use arbiter_chess::Color;
use arbiter_laws::{Edition, Event, Game, Start};
use arbiter_pgn::TimeControl;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for line in transcript()? {
        println!("{line}");
    }
    Ok(())
}

/// What the example prints, line by line: each move numbered as a record
/// numbers it (`1. e4`, `1... e5`), then the rulings.
pub fn transcript() -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    let start = Start {
        edition: Edition::Fide2023,
        time_control: Some(TimeControl::parse("900+0")?),
        ..Start::default()
    };
    let mut game = Game::new(start)?;
    out.push(format!(
        "{} game under the {} Laws",
        game.time_class().name(),
        game.rules().edition.year()
    ));
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"];
    let mut t = 0;
    for uci in moves {
        t += 20_000;
        let mv = game.position().parse_uci(uci)?;
        let (by, number) = (game.turn(), game.position().fullmoves());
        let applied = game.apply(Event::play(t, by, mv))?;
        // White's move "1. e4", Black's "1... e5".
        let dots = if by == Color::White { "." } else { "..." };
        out.push(format!(
            "{number}{dots} {}",
            applied.san.unwrap_or_default()
        ));
    }
    // White offers a draw; Black declines.
    game.apply(Event::offer_draw(t + 1_000, Color::White))?;
    game.apply(Event::decline_draw(t + 2_000, Color::Black))?;
    // White claims the 50-move rule: incorrect (Art. 9.5.3), and Black gets time.
    let applied = game.apply(Event::claim_fifty(t + 3_000, Color::White, None))?;
    if let (Some(verdict), Some(p)) = (applied.claim, applied.penalty) {
        out.push(format!(
            "claim {verdict}: {} ms to {} ({})",
            p.ms,
            p.to,
            p.article.cite()
        ));
    }
    // A claim by the player not having the move is refused, and changes nothing.
    if let Err(refused) = game.apply(Event::claim_threefold(t + 4_000, Color::Black, None)) {
        out.push(format!("refused: {refused}"));
    }
    // White lets the clock run out; Black claims the flag (Art. 6.8, 6.9).
    let flag_at = game.next_flag_time().unwrap_or(t);
    game.apply(Event::flag(flag_at, Color::Black))?;
    if let Some(o) = game.outcome() {
        out.push(format!(
            "{} by {} ({})",
            o.result,
            o.termination,
            o.article.cite()
        ));
    }
    Ok(out)
}
