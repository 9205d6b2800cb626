//! A game as a PGN record ([`to_pgn`]): the moves, the `Result` and
//! `Termination` tags, the arbiter's rulings as comments after the move they
//! follow (12.9 penalties, …), and a closing comment with how the game ended
//! and the Article. A result PGN cannot write (`1/2-0`, `0-1/2`, `0-0`,
//! Art. 10.2) is `*` in the tag and the movetext, with the scores in the
//! closing comment.

use crate::game::Game;
use crate::outcome::Termination;
use arbiter_pgn::{Game as Record, GameResult as PgnResult};

/// The record of `game` as arbiter-pgn's game, ready to write.
///
/// ```
/// use arbiter_laws::{record, Decision, Event, Game, Sanction, Score, Start};
/// use arbiter_chess::{Color, Move, Square};
/// let mut game = Game::new(Start::default())?;
/// game.apply(Event::play(0, Color::White, Move::new(Square::E2, Square::E4)))?;
/// let reduce = Sanction::GameLost { opponent_score: Score::Half };
/// game.apply(Event::arbiter(5, Decision::Penalty { offender: Color::Black, sanction: reduce }))?;
/// let pgn = record::to_pgn(&game).to_pgn();
/// assert!(pgn.contains("[Result \"*\"]"));
/// assert!(pgn.contains("[Termination \"rules infraction\"]"));
/// let pgn = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
/// assert!(pgn.contains("1. e4 {the game is declared lost by black; the arbiter gives white 1/2: 1/2-0 (Art. 12.9 f)}"));
/// assert!(pgn.contains("{1/2-0: forfeit (Art. 12.9 f)} *"), "{pgn}");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn to_pgn(game: &Game) -> Record {
    let mut rec = Record::new(*game.initial_position());
    if let Some(tc) = game.time_control() {
        rec.tags.set("TimeControl", tc.to_string());
    }
    let mut pushed = 0;
    for m in game.moves() {
        if rec.push(m.mv).is_err() {
            rec.line.comments.push(
                "the record stops here: the position on the board was left by an illegal move that stood"
                    .to_owned(),
            );
            break;
        }
        pushed += 1;
    }
    for r in game.remarks() {
        let at = r.after_moves.min(pushed);
        match at.checked_sub(1) {
            Some(i) => rec.line.nodes[i].comments.push(r.text.clone()),
            None => rec.line.comments.push(r.text.clone()),
        }
    }
    rec.tags.set(
        "Termination",
        Termination::pgn_tag_of(game.outcome().map(|o| o.termination)),
    );
    match game.outcome() {
        Some(o) => {
            let result = PgnResult::from_pgn(&o.result.to_string()).unwrap_or_default();
            rec.set_result(result);
            let mut text = format!("{}: {} ({})", o.result, o.termination, o.article.cite());
            if let Some(reason) = &o.reason {
                text = format!("{text}: {reason}");
            }
            rec.line.comment_at_end(text);
        }
        None => rec.set_result(PgnResult::Unknown),
    }
    rec
}
