//! Writes finished games as PGN (export format): the seven-tag roster, `FEN`
//! and `SetUp` for other starts, `Variant` for Chess960, `TimeControl`,
//! `Termination`, moves in SAN with `[%clk]` comments and the engine's score,
//! and a final comment saying how the game ended under the Laws.

use super::clock::clk;
use super::game::GameRecord;
use crate::client::InfoScore;
use arbiter_chess::{Color, Position};
use std::fmt::Write as _;

/// Tags that are the same for every game of a match.
#[derive(Clone, Debug)]
pub struct MatchTags {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date` as `YYYY.MM.DD`.
    pub date: String,
    /// `TimeControl` (PGN form).
    pub time_control: String,
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn score_text(s: InfoScore, mover: Color) -> String {
    // From White's point of view, in pawns, as PGN viewers expect.
    let sign = if mover == Color::White { 1 } else { -1 };
    match s {
        InfoScore::Cp(v) => format!("{:+.2}", (sign * v) as f64 / 100.0),
        InfoScore::Mate(n) => format!("#{}", sign * n),
    }
}

/// The PGN text of one game (ends with a blank line).
pub fn write_game(g: &GameRecord, round: u32, tags: &MatchTags) -> String {
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| {
        let _ = writeln!(out, "[{k} \"{}\"]", escape(v));
    };
    tag("Event", &tags.event);
    tag("Site", &tags.site);
    tag("Date", &tags.date);
    tag("Round", &round.to_string());
    tag("White", &g.white);
    tag("Black", &g.black);
    tag("Result", g.result.pgn());
    let start = g.opening.start;
    if start != Position::standard() {
        if g.opening.is_chess960() {
            tag("Variant", "Chess960");
        }
        tag("SetUp", "1");
        tag("FEN", &start.fen());
    }
    tag("TimeControl", &tags.time_control);
    tag("Termination", g.termination.pgn_tag());
    tag(
        "PlyCount",
        &(g.opening.moves.len() + g.moves.len()).to_string(),
    );
    out.push('\n');

    let mut text = String::new();
    let mut pos = start;
    let mut first = true;
    let push_move =
        |text: &mut String, pos: &mut Position, m, first: &mut bool, comment: Option<String>| {
            let number = pos.fullmoves();
            if pos.turn() == Color::White {
                let _ = write!(text, "{number}. ");
            } else if *first {
                let _ = write!(text, "{number}... ");
            }
            *first = false;
            let san = pos.san(m);
            text.push_str(&san);
            text.push(' ');
            if let Some(c) = comment {
                let _ = write!(text, "{{{c}}} ");
            }
            pos.play_unchecked(m);
        };
    for &m in &g.opening.moves {
        push_move(&mut text, &mut pos, m, &mut first, None);
    }
    if !g.opening.moves.is_empty() {
        text.push_str("{end of opening} ");
    }
    for pm in &g.moves {
        let mover = pos.turn();
        let mut c = format!("[%clk {}]", clk(pm.clock));
        if let Some(s) = pm.score {
            let _ = write!(c, " {}", score_text(s, mover));
            if let Some(d) = pm.depth {
                let _ = write!(c, "/{d}");
            }
        }
        let _ = write!(c, " {:.2}s", pm.elapsed.as_secs_f64());
        push_move(&mut text, &mut pos, pm.mv, &mut first, Some(c));
    }
    let _ = write!(text, "{{{}}} {}", g.termination.describe(), g.result.pgn());
    out.push_str(&wrap(&text, 79));
    out.push_str("\n\n");
    out
}

/// Wraps text at spaces (comments may be broken: PGN allows it).
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::adjudication::{GameResult, Termination};
    use crate::matches::game::PlayedMove;
    use crate::matches::openings::Opening;
    use std::time::Duration;

    #[test]
    fn a_short_game() {
        let mut pos = Position::standard();
        let mut moves = Vec::new();
        for (i, m) in ["f2f3", "e7e5", "g2g4", "d8h4"].iter().enumerate() {
            let mv = pos.parse_uci(m).unwrap();
            pos.play_unchecked(mv);
            moves.push(PlayedMove {
                mv,
                clock: Duration::from_millis(9_900 - 100 * i as u64),
                elapsed: Duration::from_millis(200),
                score: if i == 3 {
                    Some(InfoScore::Mate(1))
                } else {
                    None
                },
                depth: Some(5),
            });
        }
        let g = GameRecord {
            white: "A \"quoted\"".into(),
            black: "B".into(),
            opening: Opening::standard(),
            moves,
            result: GameResult::BlackWins,
            termination: Termination::Checkmate,
        };
        let tags = MatchTags {
            event: "Test".into(),
            site: "here".into(),
            date: "2026.11.29".into(),
            time_control: "10+0.1".into(),
        };
        let text = write_game(&g, 3, &tags);
        assert!(text.contains("[White \"A \\\"quoted\\\"\"]"));
        assert!(text.contains("[Round \"3\"]"));
        assert!(text.contains("[Result \"0-1\"]"));
        assert!(text.contains("[Termination \"normal\"]"));
        assert!(text.contains("1. f3 {[%clk 0:00:09.9] 0.20s} e5"));
        assert!(text.contains("Qh4# {[%clk 0:00:09.6] #-1/5 0.20s}"));
        assert!(text
            .replace('\n', " ")
            .trim_end()
            .ends_with("{checkmate (Art. 5.1 a)} 0-1"));
        assert!(text.lines().all(|l| l.len() <= 80));
    }
}
