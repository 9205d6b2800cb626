//! How games end under the Laws, as the match runner needs it: automatic
//! ends, draws a player could claim, and the flag fall rule.
//!
//! [`Adjudicator`] is the seam where `arbiter-laws` plugs in (its exact dead
//! position and unwinnability analysis, Art. 5.2 b and 6.9). Until then
//! [`BuiltinAdjudicator`] decides dead positions and flag falls by material
//! only, which is always right when it says "dead" but can miss dead
//! positions such as locked pawn walls (then the game simply goes on to the
//! 75-move rule).

use crate::search::insufficient_material;
use arbiter_chess::{Color, Position, Role};

/// The result of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
}

impl GameResult {
    /// The PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Art. 5.1 a.
    Checkmate,
    /// Art. 5.2 a.
    Stalemate,
    /// Art. 5.2 b: no series of legal moves can lead to mate.
    DeadPosition,
    /// Art. 9.6 a: the same position for the fifth time.
    FivefoldRepetition,
    /// Art. 9.6 b: 75 moves each without capture or pawn move.
    SeventyFiveMoves,
    /// Art. 9.2, claimed on the engine's behalf.
    ThreefoldRepetition,
    /// Art. 9.3, claimed on the engine's behalf.
    FiftyMoves,
    /// Art. 6.9: the flag fell and the opponent can mate.
    TimeForfeit,
    /// Art. 6.9: the flag fell but the opponent cannot mate.
    TimeoutVsInsufficientMaterial,
    /// The engine sent an illegal move (or none that can be read).
    IllegalMove(String),
    /// The engine stopped working.
    EngineFailure(String),
    /// Adjudicated by score: the losing engine's and the winner's evaluations agreed.
    AdjudicatedWin,
    /// Adjudicated by score: both evaluations near zero for long.
    AdjudicatedDraw,
    /// The game reached the runner's move limit.
    MoveLimit,
}

impl Termination {
    /// The PGN `Termination` tag value.
    pub fn pgn_tag(&self) -> &'static str {
        match self {
            Termination::TimeForfeit | Termination::TimeoutVsInsufficientMaterial => "time forfeit",
            Termination::IllegalMove(_) => "rules infraction",
            Termination::EngineFailure(_) => "abandoned",
            Termination::AdjudicatedWin | Termination::AdjudicatedDraw | Termination::MoveLimit => {
                "adjudication"
            }
            _ => "normal",
        }
    }

    /// A sentence for the final PGN comment.
    pub fn describe(&self) -> String {
        match self {
            Termination::Checkmate => "checkmate (Art. 5.1 a)".into(),
            Termination::Stalemate => "stalemate (Art. 5.2 a)".into(),
            Termination::DeadPosition => "dead position (Art. 5.2 b)".into(),
            Termination::FivefoldRepetition => "fivefold repetition (Art. 9.6 a)".into(),
            Termination::SeventyFiveMoves => "75-move rule (Art. 9.6 b)".into(),
            Termination::ThreefoldRepetition => "threefold repetition claimed (Art. 9.2)".into(),
            Termination::FiftyMoves => "50-move rule claimed (Art. 9.3)".into(),
            Termination::TimeForfeit => "lost on time (Art. 6.9)".into(),
            Termination::TimeoutVsInsufficientMaterial => {
                "flag fell, but the opponent cannot checkmate: draw (Art. 6.9)".into()
            }
            Termination::IllegalMove(m) => format!("illegal move {m:?}: loss"),
            Termination::EngineFailure(e) => format!("engine failure: {e}"),
            Termination::AdjudicatedWin => "adjudicated by score".into(),
            Termination::AdjudicatedDraw => "adjudicated draw by score".into(),
            Termination::MoveLimit => "move limit reached: draw".into(),
        }
    }
}

/// Decides the ends of games under the Laws.
pub trait Adjudicator: Send + Sync {
    /// An automatic end in the last position of `history` (mate, stalemate,
    /// dead position, fivefold repetition, 75-move rule).
    fn automatic_end(&self, history: &[Position]) -> Option<(GameResult, Termination)>;
    /// A draw a player may claim in the last position (threefold, fifty moves).
    fn claimable_draw(&self, history: &[Position]) -> Option<Termination>;
    /// The result when `flagged`'s flag falls in `pos` (Art. 6.9).
    fn flag_fall(&self, pos: &Position, flagged: Color) -> (GameResult, Termination);
}

/// Material-based adjudication (see the module documentation).
#[derive(Copy, Clone, Debug, Default)]
pub struct BuiltinAdjudicator;

fn occurrences(history: &[Position]) -> usize {
    let Some(last) = history.last() else {
        return 0;
    };
    let key = last.zobrist();
    // Only positions since the last capture or pawn move can repeat.
    let reach = (last.halfmoves() as usize + 1).min(history.len());
    history[history.len() - reach..]
        .iter()
        .filter(|p| p.zobrist() == key && p.turn() == last.turn())
        .count()
}

/// `true` if `color` has nothing but its king.
fn bare_king(pos: &Position, color: Color) -> bool {
    pos.board().by_color(color).count() == 1
}

/// `true` if `color` has a king and at most one knight or bishop.
fn lone_minor(pos: &Position, color: Color) -> bool {
    let b = pos.board();
    let ours = b.by_color(color);
    let minors = (b.by_role(Role::Knight) | b.by_role(Role::Bishop)) & ours;
    ours.count() == 2 && minors.count() == 1
}

impl Adjudicator for BuiltinAdjudicator {
    fn automatic_end(&self, history: &[Position]) -> Option<(GameResult, Termination)> {
        let pos = history.last()?;
        if !pos.has_legal_moves() {
            return Some(if pos.is_check() {
                (GameResult::win_for(!pos.turn()), Termination::Checkmate)
            } else {
                (GameResult::Draw, Termination::Stalemate)
            });
        }
        if insufficient_material(pos) {
            return Some((GameResult::Draw, Termination::DeadPosition));
        }
        if occurrences(history) >= 5 {
            return Some((GameResult::Draw, Termination::FivefoldRepetition));
        }
        if pos.halfmoves() >= 150 {
            return Some((GameResult::Draw, Termination::SeventyFiveMoves));
        }
        None
    }

    fn claimable_draw(&self, history: &[Position]) -> Option<Termination> {
        let pos = history.last()?;
        if occurrences(history) >= 3 {
            return Some(Termination::ThreefoldRepetition);
        }
        if pos.halfmoves() >= 100 {
            return Some(Termination::FiftyMoves);
        }
        None
    }

    fn flag_fall(&self, pos: &Position, flagged: Color) -> (GameResult, Termination) {
        let opponent = !flagged;
        // The opponent cannot mate with a bare king, nor with a single minor
        // piece against a bare king; with more on the board a helpmate may
        // exist, so the flag decides.
        if bare_king(pos, opponent) || (lone_minor(pos, opponent) && bare_king(pos, flagged)) {
            (GameResult::Draw, Termination::TimeoutVsInsufficientMaterial)
        } else {
            (GameResult::win_for(opponent), Termination::TimeForfeit)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen_auto(fen).unwrap()
    }

    #[test]
    fn automatic_ends() {
        let a = BuiltinAdjudicator;
        let mate = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assert_eq!(
            a.automatic_end(&[mate]),
            Some((GameResult::WhiteWins, Termination::Checkmate))
        );
        let stale = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(a.automatic_end(&[stale]).unwrap().1, Termination::Stalemate);
        let dead = pos("8/8/4k3/8/8/3BK3/8/8 w - - 0 1");
        assert_eq!(
            a.automatic_end(&[dead]).unwrap().1,
            Termination::DeadPosition
        );
        let seventy_five = pos("8/8/4k3/8/8/3RK3/8/8 w - - 150 120");
        assert_eq!(
            a.automatic_end(&[seventy_five]).unwrap().1,
            Termination::SeventyFiveMoves
        );
        let fifty = pos("8/8/4k3/8/8/3RK3/8/8 w - - 100 120");
        assert_eq!(a.automatic_end(&[fifty]), None);
        assert_eq!(a.claimable_draw(&[fifty]), Some(Termination::FiftyMoves));
    }

    #[test]
    fn repetitions() {
        let a = BuiltinAdjudicator;
        let mut p = Position::standard();
        let mut h = vec![p];
        let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        for round in 0..4 {
            for m in cycle {
                p.play(p.parse_uci(m).unwrap()).unwrap();
                h.push(p);
            }
            let n = round + 2;
            if n == 3 {
                assert_eq!(a.claimable_draw(&h), Some(Termination::ThreefoldRepetition));
                assert_eq!(a.automatic_end(&h), None);
            }
            if n == 5 {
                assert_eq!(
                    a.automatic_end(&h).unwrap().1,
                    Termination::FivefoldRepetition
                );
            }
        }
    }

    #[test]
    fn flag_fall_rule() {
        let a = BuiltinAdjudicator;
        // White's flag falls; Black has a bare king: draw (Art. 6.9).
        let p = pos("4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1");
        assert_eq!(a.flag_fall(&p, Color::White).0, GameResult::Draw);
        // Black's flag falls; White has pawns: White wins.
        assert_eq!(a.flag_fall(&p, Color::Black).0, GameResult::WhiteWins);
        // A knight against pawns could still mate (a helpmate exists): the flag decides.
        let n = pos("4k3/4p3/8/8/8/8/8/1N2K3 w - - 0 1");
        assert_eq!(a.flag_fall(&n, Color::Black).0, GameResult::WhiteWins);
    }
}
