//! One game between two UCI engines under the runner's clock and the Laws.

use super::adjudication::{Adjudicator, GameResult, Termination};
use super::clock::MatchClock;
use super::openings::Opening;
use crate::client::{ClientError, InfoScore, UciClient};
use arbiter_chess::{Color, Move, Position};
use std::time::Duration;

/// Optional adjudication by the engines' own scores.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScoreAdjudication {
    /// Resign: one engine at or below `-resign_score` and its opponent at or
    /// above `resign_score` for `resign_moves` consecutive moves each.
    pub resign: Option<(u32, i32)>,
    /// Draw: from move `draw_from`, both within `draw_score` for `draw_moves`
    /// consecutive moves each: `(draw_from, draw_moves, draw_score)`.
    pub draw: Option<(u32, u32, i32)>,
}

/// Settings of a game.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Draw claims (threefold, fifty moves) made for the engines as soon as
    /// possible; otherwise games go on to the automatic fivefold / 75-move rules.
    pub claims: bool,
    /// Score adjudication.
    pub adjudication: ScoreAdjudication,
    /// Extra time tolerated beyond a flag fall (communication delays).
    pub margin: Duration,
    /// A draw is declared after this many moves (a safety net; 0 = none).
    pub max_moves: u32,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            claims: true,
            adjudication: ScoreAdjudication {
                resign: None,
                draw: None,
            },
            margin: Duration::ZERO,
            max_moves: 0,
        }
    }
}

/// One move as played.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The mover's clock after the move.
    pub clock: Duration,
    /// Time the move took.
    pub elapsed: Duration,
    /// The mover's last reported score.
    pub score: Option<InfoScore>,
    /// The mover's last reported depth.
    pub depth: Option<u32>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The opening played.
    pub opening: Opening,
    /// The moves after the opening.
    pub moves: Vec<PlayedMove>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
}

fn position_command(opening: &Opening, played: &[Move]) -> String {
    let start = opening.start;
    let mut s = if start == Position::standard() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", start.fen())
    };
    let all: Vec<Move> = opening.moves.iter().chain(played.iter()).copied().collect();
    if !all.is_empty() {
        s.push_str(" moves");
        let mut p = start;
        for m in all {
            s.push(' ');
            // Castling as e1g1 or e1h1 according to the position's mode.
            s.push_str(&p.uci(m));
            p.play_unchecked(m);
        }
    }
    s
}

/// Plays one game. `engines[0]` plays White. Engine failures end the game
/// (a loss for the failing engine) and are returned with the record so the
/// runner can restart that engine.
pub fn play(
    engines: [&mut UciClient; 2],
    opening: &Opening,
    clock: &mut dyn MatchClock,
    adjudicator: &dyn Adjudicator,
    settings: &GameSettings,
) -> (GameRecord, Option<(Color, ClientError)>) {
    let [white, black] = engines;
    let names = [white.name().to_string(), black.name().to_string()];
    let clients = [white, black];
    let mut history: Vec<Position> = vec![opening.start];
    {
        let mut p = opening.start;
        for &m in &opening.moves {
            p.play_unchecked(m);
            history.push(p);
        }
    }
    let mut played: Vec<Move> = Vec::new();
    let mut moves: Vec<PlayedMove> = Vec::new();
    let mut failure = None;
    // Consecutive moves per colour: [losing, winning, near zero][colour].
    let mut streaks = [[0u32; 2]; 3];

    for color in Color::ALL {
        if let Err(e) = clients[color.index()].new_game() {
            let t = Termination::EngineFailure(e.to_string());
            let record = finish(&names, opening, moves, GameResult::win_for(!color), t);
            return (record, Some((color, e)));
        }
    }

    let (result, termination) = loop {
        let pos = *history.last().unwrap_or(&opening.start);
        if let Some(end) = adjudicator.automatic_end(&history) {
            break end;
        }
        if settings.claims {
            if let Some(t) = adjudicator.claimable_draw(&history) {
                break (GameResult::Draw, t);
            }
        }
        if settings.max_moves > 0 && moves.len() as u32 >= 2 * settings.max_moves {
            break (GameResult::Draw, Termination::MoveLimit);
        }
        let color = pos.turn();
        let ci = color.index();
        clock.start_move(color);
        let cmd = position_command(opening, &played);
        let params = clock.go_params(color);
        let allowance = clock.allowance(color) + settings.margin;
        let r = match clients[ci].go(&cmd, &params, allowance + Duration::from_millis(1)) {
            Ok(r) => r,
            Err(e) => {
                let t = Termination::EngineFailure(e.to_string());
                failure = Some((color, e));
                break (GameResult::win_for(!color), t);
            }
        };
        let Some(text) = r.bestmove.clone() else {
            break adjudicator.flag_fall(&pos, color);
        };
        if r.elapsed > allowance {
            break adjudicator.flag_fall(&pos, color);
        }
        let mv = match pos.parse_uci(&text) {
            Ok(m) => m,
            Err(_) => break (GameResult::win_for(!color), Termination::IllegalMove(text)),
        };
        if clock
            .end_move(
                color,
                r.elapsed.saturating_sub(settings.margin.min(r.elapsed)),
            )
            .is_err()
        {
            break adjudicator.flag_fall(&pos, color);
        }
        let mut next = pos;
        next.play_unchecked(mv);
        history.push(next);
        played.push(mv);
        moves.push(PlayedMove {
            mv,
            clock: clock.remaining(color),
            elapsed: r.elapsed,
            score: r.score,
            depth: r.depth,
        });

        // Adjudication by score.
        if let Some(score) = r.score.map(InfoScore::centipawns) {
            let adj = settings.adjudication;
            if let Some((n, s)) = adj.resign {
                streaks[0][ci] = if score <= -s { streaks[0][ci] + 1 } else { 0 };
                streaks[1][ci] = if score >= s { streaks[1][ci] + 1 } else { 0 };
                let other = 1 - ci;
                if streaks[0][ci] >= n && streaks[1][other] >= n {
                    break (GameResult::win_for(!color), Termination::AdjudicatedWin);
                }
                if streaks[1][ci] >= n && streaks[0][other] >= n {
                    break (GameResult::win_for(color), Termination::AdjudicatedWin);
                }
            }
            if let Some((from, n, s)) = adj.draw {
                let within = next.fullmoves() >= from && score.abs() <= s;
                streaks[2][ci] = if within { streaks[2][ci] + 1 } else { 0 };
                if streaks[2][0] >= n && streaks[2][1] >= n {
                    break (GameResult::Draw, Termination::AdjudicatedDraw);
                }
            }
        }
    };
    (finish(&names, opening, moves, result, termination), failure)
}

fn finish(
    names: &[String; 2],
    opening: &Opening,
    moves: Vec<PlayedMove>,
    result: GameResult,
    termination: Termination,
) -> GameRecord {
    GameRecord {
        white: names[0].clone(),
        black: names[1].clone(),
        opening: opening.clone(),
        moves,
        result,
        termination,
    }
}
