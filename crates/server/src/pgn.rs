//! PGN download (protocol §3.4), written by `arbiter-pgn`: the seven-tag
//! roster, `TimeControl`, `Termination` with the PGN standard's values and
//! `FideTermination` with the FIDE termination and its Article, Chess960
//! tags, the Annotator naming the edition, and `[%clk]` after every move in
//! timed games; draw offers as `(=)` (Art. 9.1, Appendix C.12) and
//! declined offers, rejected claims, time penalties and the end of the
//! game as comments citing their Articles ([`record_comments`]).

use crate::game::core::GameCore;
use crate::game::core::LogEntry;
use crate::protocol::{Color, Event, Player, PlayerKind, Variant};
use arbiter_chess::Position;
use arbiter_laws::Termination;
use arbiter_pgn::{Game, Line, Node};

fn name(p: &Player) -> String {
    match p.kind {
        PlayerKind::Engine => match p.engine_level {
            Some(l) if p.engine_elo.is_some() => format!("Arbiter engine, level {l}"),
            _ => "Arbiter engine".to_owned(),
        },
        PlayerKind::Human => p.name.clone().unwrap_or_else(|| "Anonymous".to_owned()),
    }
}

fn date(epoch_ms: u64) -> String {
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let days = (epoch_ms / 86_400_000) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}.{m:02}.{d:02}")
}

/// The PGN standard's `Termination` value (PGN spec 9.8.1) for how a game
/// ended, `None` while it goes on: every ending on the board or by the
/// players is `normal`; a flag fall (Art. 6.9), drawn or not, is
/// `time forfeit`; a loss under Art. 7.5 or a forfeit declared by the
/// arbiter is `rules infraction`; an arbiter's decision or adjudication is
/// `adjudication`; a game not finished is `unterminated` (the same values
/// as `arbiter match` writes).
pub fn pgn_termination(termination: Option<Termination>) -> &'static str {
    Termination::pgn_tag_of(termination)
}

/// The game as PGN text.
pub fn export(core: &GameCore) -> String {
    export_game(core).to_pgn()
}

/// The game as a PGN [`Game`] (its tags, moves and comments), for callers
/// that set tags of their own (an event's download).
pub fn export_game(core: &GameCore) -> Game {
    let laws = core.table.laws();
    let mut game = Game::new(*laws.initial_position());
    let tags = &mut game.tags;
    tags.set("Event", "Arbiter game");
    tags.set("Site", "?");
    tags.set("Date", date(core.created_at));
    tags.set("Round", "-");
    tags.set("White", name(&core.players.white));
    tags.set("Black", name(&core.players.black));
    tags.set("Result", core.table.result());
    tags.set("TimeControl", core.settings.time_control.to_string());
    tags.set(
        "Termination",
        pgn_termination(laws.outcome().map(|o| o.termination)),
    );
    if let Some(t) = core.table.termination() {
        tags.set(
            "FideTermination",
            format!(
                "{} (FIDE Laws {}, Art. {})",
                t.kind,
                core.settings.edition.year(),
                t.article
            ),
        );
    }
    if core.settings.variant == Variant::Chess960 {
        tags.set("Variant", "Chess960");
    }
    if core.settings.variant == Variant::Chess960 || core.settings.fen.is_some() {
        tags.set("SetUp", "1");
        tags.set("FEN", core.table.initial_fen());
    }
    tags.set(
        "Annotator",
        format!("Arbiter, FIDE Laws {}", core.settings.edition.year()),
    );
    for (played, record) in laws.moves().iter().zip(core.table.records()) {
        let mut node = Node::new(played.mv);
        // [%clk h:mm:ss] in whole seconds (protocol §3.4).
        node.clock_ms = record.clock_ms.map(|ms| ms / 1000 * 1000);
        game.line.nodes.push(node);
    }
    let start = *laws.initial_position();
    record_comments(
        &mut game.line,
        &start,
        &core.log,
        core.settings.edition.year(),
    );
    game.result = arbiter_pgn::GameResult::from_pgn(&core.table.result());
    game
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A claim's name in the log (`threefold` / `fifty`) in words.
fn claim_words(claim: &str) -> &str {
    match claim {
        "threefold" => "threefold repetition",
        "fifty" => "the fifty-move rule",
        other => other,
    }
}

/// How a game ended, in words, for the closing comment.
fn termination_words(kind: Termination) -> String {
    kind.name().replace('_', " ")
}

/// Puts what happened between the moves into `line` (whose nodes are the
/// game's moves in order), from the game's log: a draw offer made by the
/// player who has just moved is that move's `(=)` (Art. 9.1 b 1, recorded as
/// Appendix C.12 asks); any other offer, a declined offer, a rejected claim
/// with the time it cost (Art. 9.5), a time penalty (Art. 7.5) and the end
/// of the game with its Article become comments after the move they
/// followed (before the first move: comments of the line). A claim's
/// intended move is written in SAN from `start`, the line's first position,
/// as the moves are (Appendix C). `year` is the edition of the Laws cited.
pub fn record_comments(line: &mut Line, start: &Position, log: &[LogEntry], year: &str) {
    let mut ply = 0usize;
    let mut last_mover = None;
    // The position the next event happens in.
    let mut pos = *start;
    let san = |pos: &Position, uci: &str| {
        pos.parse_uci(uci)
            .map_or_else(|_| uci.to_owned(), |m| pos.san(m))
    };
    for entry in log {
        let comment = match &entry.event {
            Event::Move { record } => {
                if let Some(node) = line.nodes.get(ply) {
                    pos.play_unchecked(node.mv);
                }
                ply += 1;
                last_mover = Some(record.color);
                None
            }
            Event::DrawOffer { by } => {
                if last_mover == Some(*by) && ply <= line.nodes.len() {
                    line.nodes[ply - 1].draw_offer = true;
                    None
                } else {
                    Some(format!("{} offers a draw", side(*by)))
                }
            }
            Event::DrawDeclined { by } => Some(format!("{} declines the draw offer", side(*by))),
            Event::ClaimRejected {
                by,
                claim,
                mv,
                penalty_ms,
                article,
            } => {
                let with_move = mv
                    .as_deref()
                    .map(|m| format!(" with the intended move {}", san(&pos, m)))
                    .unwrap_or_default();
                Some(format!(
                    "{} claims a draw by {}{with_move}: the claim is incorrect; {} s added to {}'s clock (FIDE Laws {year}, Art. {article})",
                    side(*by),
                    claim_words(claim),
                    penalty_ms / 1000,
                    side(!*by),
                ))
            }
            Event::Penalty {
                to,
                ms,
                reason,
                article,
            } => Some(format!(
                "{} s added to {}'s clock for {} (FIDE Laws {year}, Art. {article})",
                ms / 1000,
                side(*to),
                reason.replace('_', " "),
            )),
            Event::End {
                termination,
                intended_move,
                ..
            } => {
                let by = termination
                    .by
                    .map(|c| format!(" by {}", side(c)))
                    .unwrap_or_default();
                let with_move = intended_move
                    .as_deref()
                    .map(|m| format!(", intended move {}", san(&pos, m)))
                    .unwrap_or_default();
                Some(format!(
                    "{}{by}{with_move} (FIDE Laws {year}, Art. {})",
                    capitalised(&termination_words(termination.kind)),
                    termination.article
                ))
            }
            Event::Aborted { by: None } => {
                Some("Aborted: no first move in time; no result".to_owned())
            }
            Event::Aborted { by: Some(by) } => {
                Some(format!("Aborted by {by} before the first move; no result"))
            }
            Event::Join { .. }
            | Event::Touch { .. }
            | Event::RematchOffer { .. }
            | Event::Rematch { .. } => None,
        };
        if let Some(text) = comment {
            match ply.checked_sub(1).and_then(|i| line.nodes.get_mut(i)) {
                Some(node) => {
                    // Keep the order: the offer, then what followed it.
                    if node.draw_offer {
                        node.draw_offer = false;
                        node.comments.push("(=)".to_owned());
                    }
                    node.comments.push(text);
                }
                None => line.comments.push(text),
            }
        }
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each FIDE termination maps to a value of the PGN standard.
    #[test]
    fn terminations_use_the_pgn_standard_values() {
        use Termination::*;
        let cases = [
            (Checkmate, "normal"),
            (Resignation, "normal"),
            (Stalemate, "normal"),
            (DeadPosition, "normal"),
            (Agreement, "normal"),
            (ThreefoldRepetition, "normal"),
            (FiftyMoves, "normal"),
            (FivefoldRepetition, "normal"),
            (SeventyfiveMoves, "normal"),
            (Timeout, "time forfeit"),
            (TimeoutDraw, "time forfeit"),
            (IllegalMove, "rules infraction"),
            (ArbiterDecision, "adjudication"),
            (Forfeit, "rules infraction"),
            (Adjudication, "adjudication"),
        ];
        for (t, pgn) in cases {
            assert_eq!(pgn_termination(Some(t)), pgn, "{t}");
        }
        assert_eq!(pgn_termination(None), "unterminated");
    }

    #[test]
    fn dates() {
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(1_767_225_600_000), "2026.01.01");
        assert_eq!(date(951_782_400_000), "2000.02.29");
    }
}
