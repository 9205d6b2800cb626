//! Writes finished games as PGN with `arbiter-pgn`: the seven-tag roster,
//! `Variant`, `SetUp` and `FEN` for other starts, `TimeControl`,
//! `Termination`; every move with the mover's `[%clk]` as the Laws' clock
//! showed it and the engine's score, depth and time as a comment; a final
//! comment saying how the game ended under the Laws.

use super::game::GameRecord;
use super::verdict::{describe, pgn_termination};
use crate::types::Score;
use arbiter_chess::Color;
use arbiter_laws::GameResult;
use std::fmt::Write as _;

/// Tags that are the same for every game of a match.
///
/// ```
/// use arbiter_engine::matches::pgn::{write_game, MatchTags};
/// # use arbiter_engine::matches::game::{GameRecord, MoveNote};
/// # use arbiter_engine::matches::openings::Opening;
/// # use arbiter_laws::{Event, Game, Start};
/// # use std::time::Duration;
/// # fn fools_mate() -> GameRecord {
/// #     let tc = arbiter_pgn::TimeControl::parse("10+0.1").unwrap();
/// #     let mut game = Game::new(Start { time_control: Some(tc), ..Start::default() }).unwrap();
/// #     let mut notes = Vec::new();
/// #     for (i, san) in ["f3", "e5", "g4", "Qh4#"].into_iter().enumerate() {
/// #         let (by, t) = (game.turn(), 200 * (i as u64 + 1));
/// #         let mv = game.position().parse_san(san).unwrap();
/// #         game.apply(Event::play(t, by, mv)).unwrap();
/// #         let clock = game.clock_at(t).unwrap();
/// #         let white = by == arbiter_chess::Color::White;
/// #         let clock_ms = Some(if white { clock.white } else { clock.black });
/// #         let elapsed = Duration::from_millis(200);
/// #         notes.push(MoveNote { clock_ms, elapsed, ..MoveNote::default() });
/// #     }
/// #     let (white, black) = ("A".to_string(), "B".to_string());
/// #     GameRecord { white, black, opening: Opening::standard(), game, notes }
/// # }
/// let tags = MatchTags {
///     event: "Engine match".into(),
///     site: "Tallinn".into(),
///     date: "2026.12.07".into(),
/// };
/// let pgn = write_game(&fools_mate(), 3, &tags);
/// assert!(pgn.contains("[Event \"Engine match\"]"));
/// assert!(pgn.contains("[Site \"Tallinn\"]"));
/// assert!(pgn.contains("[Date \"2026.12.07\"]"));
/// assert!(pgn.contains("[Round \"3\"]"));
/// assert!(pgn.contains("[Result \"0-1\"]"));
/// ```
#[derive(Clone, Debug)]
pub struct MatchTags {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date` as `YYYY.MM.DD`.
    pub date: String,
}

/// The PGN result of the Laws' result; `*` for scores PGN cannot write
/// (0–0, ½–0).
pub fn pgn_result(r: GameResult) -> arbiter_pgn::GameResult {
    if r == GameResult::win(Color::White) {
        arbiter_pgn::GameResult::WhiteWins
    } else if r == GameResult::win(Color::Black) {
        arbiter_pgn::GameResult::BlackWins
    } else if r == GameResult::DRAW {
        arbiter_pgn::GameResult::Draw
    } else {
        arbiter_pgn::GameResult::Unknown
    }
}

/// A score from White's point of view, in pawns, as PGN viewers expect.
fn score_text(s: Score, mover: Color) -> String {
    let sign = if mover == Color::White { 1 } else { -1 };
    match s {
        Score::Cp(v) => format!("{:+.2}", f64::from(sign * v) / 100.0),
        Score::Mate(n) => format!("#{}", sign * n),
    }
}

/// The game as an `arbiter-pgn` record.
pub fn to_pgn_game(record: &GameRecord, round: u32, tags: &MatchTags) -> arbiter_pgn::Game {
    let game = &record.game;
    let mut pgn = arbiter_pgn::Game::new(record.opening.start);
    pgn.tags.set("Event", tags.event.as_str());
    pgn.tags.set("Site", tags.site.as_str());
    pgn.tags.set("Date", tags.date.as_str());
    pgn.tags.set("Round", round.to_string());
    pgn.tags.set("White", record.white.as_str());
    pgn.tags.set("Black", record.black.as_str());
    let result = game
        .outcome()
        .map_or(arbiter_pgn::GameResult::Unknown, |o| pgn_result(o.result));
    pgn.set_result(result);
    if let Some(tc) = game.time_control() {
        pgn.tags.set("TimeControl", tc.to_string());
    }
    pgn.tags.set("Termination", pgn_termination(game));
    pgn.tags.set("PlyCount", game.moves().len().to_string());
    let played = game.moves();
    for (i, (pm, note)) in played.iter().zip(&record.notes).enumerate() {
        // The Laws played these moves: they are legal.
        let Ok(node) = pgn.push(pm.mv) else { break };
        node.clock_ms = note.clock_ms;
        if note.book {
            let next_is_book = record.notes.get(i + 1).is_some_and(|n| n.book);
            if !next_is_book {
                node.comments.push("end of opening".into());
            }
            continue;
        }
        let mut c = String::new();
        if let Some(s) = note.score {
            c.push_str(&score_text(s, pm.by));
            if let Some(d) = note.depth {
                let _ = write!(c, "/{d}");
            }
            c.push(' ');
        }
        let _ = write!(c, "{:.2}s", note.elapsed.as_secs_f64());
        node.comments.push(c);
    }
    if let Some(text) = describe(game) {
        if let Some(o) = game.outcome() {
            if pgn_result(o.result) == arbiter_pgn::GameResult::Unknown {
                // PGN has no token for these scores: say them.
                pgn.line.comments.push(format!("result {}", o.result));
            }
        }
        pgn.line.comment_at_end(text);
    }
    pgn
}

/// The PGN text of one game (export format, ends with a blank line).
pub fn write_game(record: &GameRecord, round: u32, tags: &MatchTags) -> String {
    to_pgn_game(record, round, tags).to_pgn()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::game::MoveNote;
    use crate::matches::openings::Opening;
    use arbiter_laws::{Event, Game, Start};
    use std::time::Duration;

    fn tags() -> MatchTags {
        MatchTags {
            event: "Test".into(),
            site: "here".into(),
            date: "2026.11.29".into(),
        }
    }

    #[test]
    fn a_short_game_reads_back_with_its_clocks_and_result() {
        let mut game = Game::new(Start {
            time_control: Some(arbiter_pgn::TimeControl::parse("10+0.1").unwrap()),
            ..Start::default()
        })
        .unwrap();
        let mut notes = Vec::new();
        for (i, san) in ["f3", "e5", "g4", "Qh4#"].iter().enumerate() {
            let by = game.turn();
            let t = 200 * (i as u64 + 1);
            let mv = game.position().parse_san(san).unwrap();
            game.apply(Event::play(t, by, mv)).unwrap();
            let c = game.clock_at(t).unwrap();
            notes.push(MoveNote {
                book: i == 0,
                clock_ms: Some(if by == Color::White { c.white } else { c.black }),
                elapsed: Duration::from_millis(200),
                score: (i == 3).then_some(Score::Mate(1)),
                depth: Some(5),
            });
        }
        let record = GameRecord {
            white: "A \"quoted\"".into(),
            black: "B".into(),
            opening: Opening::standard(),
            game,
            notes,
        };
        let text = write_game(&record, 3, &tags());
        assert!(text.contains("[White \"A \\\"quoted\\\"\"]"), "{text}");
        assert!(text.contains("[Round \"3\"]"));
        assert!(text.contains("[Result \"0-1\"]"));
        assert!(text.contains("[TimeControl \"10+0.1\"]"));
        assert!(text.contains("[Termination \"normal\"]"));
        // 10 s + 0.1 s before the first move, 0.2 s a move (FIDE Art. 6.3).
        let flat = text.replace('\n', " ");
        let opening = "1. f3 {[%clk 0:00:10]} {end of opening} 1... e5 {[%clk 0:00:10]} {0.20s}";
        assert!(flat.contains(opening), "{text}");
        let end = "Qh4# {[%clk 0:00:09.9]} {#-1/5 0.20s} {checkmate (Art. 5.1 a)} 0-1";
        assert!(flat.contains(end), "{text}");
        assert!(text.lines().all(|l| l.chars().count() < 80));
        let back = arbiter_pgn::Reader::new(text.as_bytes())
            .next_game()
            .unwrap()
            .unwrap();
        assert!(back.error.is_none());
        assert_eq!(back.result(), arbiter_pgn::GameResult::BlackWins);
        assert_eq!(back.line.nodes.len(), 4);
        let clocks: Vec<_> = back.line.nodes.iter().map(|n| n.clock_ms).collect();
        let ours: Vec<_> = record.notes.iter().map(|n| n.clock_ms).collect();
        assert_eq!(clocks, ours);
    }
}
