//! Results, scores and how a game ended (FIDE Articles 5, 6.9, 7.5, 9 and 10).

use crate::Article;
use arbiter_chess::Color;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One player's score for a game (Art. 10.1: 1, ½ or 0).
///
/// ```
/// use arbiter_laws::{GameResult, Score};
/// let r = GameResult::parse("1/2-0").unwrap(); // one player ½, the other 0
/// assert_eq!((r.white, r.black), (Score::Half, Score::Zero));
/// assert_eq!(r.white.as_str(), "1/2");
/// assert_eq!(r.white.halves() + r.black.halves(), 1);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Score {
    /// Lost: no points.
    Zero,
    /// Drawn: half a point.
    Half,
    /// Won: one point.
    One,
}

impl Score {
    /// `"0"`, `"1/2"` or `"1"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Score::Zero => "0",
            Score::Half => "1/2",
            Score::One => "1",
        }
    }

    /// Points in halves: 0, 1 or 2.
    pub const fn halves(self) -> u32 {
        match self {
            Score::Zero => 0,
            Score::Half => 1,
            Score::One => 2,
        }
    }
}

/// The result of a game as per-player scores. Usually 1–0, 0–1 or ½–½; the
/// Laws also allow both players to lose (0–0, Art. 11.8) or one player to
/// score ½ and the other 0 (Glossary, "score") — never more than the normal
/// total (Art. 10.2).
///
/// ```
/// use arbiter_chess::Color;
/// use arbiter_laws::{GameResult, Score};
/// let r = GameResult::win(Color::Black);
/// assert_eq!(r.to_string(), "0-1");
/// assert_eq!((r.winner(), r.score(Color::White)), (Some(Color::Black), Score::Zero));
/// assert_eq!(GameResult::parse("½-½"), Some(GameResult::DRAW));
/// assert_eq!(GameResult::BOTH_LOSE.to_string(), "0-0"); // Art. 11.8
/// assert_eq!(GameResult::parse("1-1"), None); // more than the normal total (10.2)
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    /// White's score.
    pub white: Score,
    /// Black's score.
    pub black: Score,
}

impl GameResult {
    /// 1–0 or 0–1.
    pub const fn win(winner: Color) -> GameResult {
        match winner {
            Color::White => GameResult {
                white: Score::One,
                black: Score::Zero,
            },
            Color::Black => GameResult {
                white: Score::Zero,
                black: Score::One,
            },
        }
    }

    /// ½–½.
    pub const DRAW: GameResult = GameResult {
        white: Score::Half,
        black: Score::Half,
    };

    /// 0–0: both players lose (Art. 11.8).
    pub const BOTH_LOSE: GameResult = GameResult {
        white: Score::Zero,
        black: Score::Zero,
    };

    /// The winner, if exactly one player scored 1.
    pub fn winner(&self) -> Option<Color> {
        match (self.white, self.black) {
            (Score::One, _) => Some(Color::White),
            (_, Score::One) => Some(Color::Black),
            _ => None,
        }
    }

    /// The score of `color`.
    pub fn score(&self, color: Color) -> Score {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// A PGN result (`1-0`, `0-1`, `1/2-1/2`); `None` for `*`.
    ///
    /// ```
    /// use arbiter_laws::GameResult;
    /// assert_eq!(GameResult::from_pgn(arbiter_pgn::GameResult::Draw), Some(GameResult::DRAW));
    /// assert_eq!(GameResult::from_pgn(arbiter_pgn::GameResult::Unknown), None);
    /// ```
    pub fn from_pgn(r: arbiter_pgn::GameResult) -> Option<GameResult> {
        match r {
            arbiter_pgn::GameResult::WhiteWins => Some(GameResult::win(Color::White)),
            arbiter_pgn::GameResult::BlackWins => Some(GameResult::win(Color::Black)),
            arbiter_pgn::GameResult::Draw => Some(GameResult::DRAW),
            arbiter_pgn::GameResult::Unknown => None,
        }
    }

    /// As PGN writes it: `*` for a result PGN has no word for (both players
    /// losing, a half point to one side only).
    ///
    /// ```
    /// use arbiter_chess::Color;
    /// use arbiter_laws::GameResult;
    /// assert_eq!(GameResult::win(Color::Black).to_pgn(), arbiter_pgn::GameResult::BlackWins);
    /// assert_eq!(GameResult::BOTH_LOSE.to_pgn(), arbiter_pgn::GameResult::Unknown);
    /// ```
    pub fn to_pgn(self) -> arbiter_pgn::GameResult {
        [
            arbiter_pgn::GameResult::WhiteWins,
            arbiter_pgn::GameResult::BlackWins,
            arbiter_pgn::GameResult::Draw,
        ]
        .into_iter()
        .find(|&r| GameResult::from_pgn(r) == Some(self))
        .unwrap_or(arbiter_pgn::GameResult::Unknown)
    }

    /// Parses `1-0`, `0-1`, `1/2-1/2` (also `½-½`), `0-0`, `1/2-0`, `0-1/2`.
    pub fn parse(text: &str) -> Option<GameResult> {
        let t = text.trim().replace('½', "1/2");
        let (w, b) = t.split_once('-')?;
        let score = |s: &str| match s {
            "0" => Some(Score::Zero),
            "1/2" => Some(Score::Half),
            "1" => Some(Score::One),
            _ => None,
        };
        let r = GameResult {
            white: score(w)?,
            black: score(b)?,
        };
        (r.white.halves() + r.black.halves() <= 2).then_some(r)
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.white.as_str(), self.black.as_str())
    }
}

/// How a game ended.
///
/// ```
/// use arbiter_laws::Termination;
/// assert_eq!(Termination::FivefoldRepetition.name(), "fivefold_repetition");
/// assert_eq!(Termination::Stalemate.to_string(), "stalemate");
/// assert_eq!(Termination::IllegalMove.pgn_tag(), "rules infraction");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// The player checkmated (5.1 a / 5.1.1).
    Checkmate,
    /// Stalemate (5.2 a / 5.2.1).
    Stalemate,
    /// Neither player can checkmate by any series of legal moves (5.2 b / 5.2.2).
    DeadPosition,
    /// A player resigned (5.1 b / 5.1.2).
    Resignation,
    /// Draw by agreement (5.2 c / 5.2.3, 9.1).
    Agreement,
    /// Correct claim of threefold repetition (9.2).
    ThreefoldRepetition,
    /// Correct claim under the 50-move rule (9.3).
    FiftyMoves,
    /// Fivefold repetition, automatic (9.6 a / 9.6.1).
    FivefoldRepetition,
    /// 75 moves by each player without a pawn move or capture, automatic (9.6 b / 9.6.2).
    SeventyfiveMoves,
    /// Flag fall: lost on time (6.9).
    Timeout,
    /// Flag fall, but the opponent cannot checkmate by any series of legal moves: drawn (6.9).
    TimeoutDraw,
    /// Both flags fell and which fell first cannot be established, in the
    /// period in which all remaining moves must be completed: drawn (2014
    /// 6.11 b; Guidelines III.3.1 from 2018). A record's end ("both players
    /// ran out of time"); a game played here knows which fell first.
    BothFlags,
    /// Illegal moves: lost, or drawn if the opponent cannot checkmate (7.5, A.4 b).
    IllegalMove,
    /// An arbiter's decision (quickplay finish G.5 / III.5; both players
    /// losing, 11.8).
    ArbiterDecision,
    /// The arbiter declares the game lost by one player ([`Action::Forfeit`]):
    /// under the regulations of the event (an engine match: an illegal or
    /// unreadable move, an engine that stops working), for persistent refusal
    /// to comply with the Laws (11.7), or as a penalty (12.9).
    ///
    /// [`Action::Forfeit`]: crate::Action::Forfeit
    Forfeit,
    /// The arbiter decides the result ([`Action::Adjudicate`]) under the
    /// regulations of the event (an engine match: adjudication by the
    /// engines' evaluations, a move limit) or as a penalty (11.7, 12.9).
    ///
    /// [`Action::Adjudicate`]: crate::Action::Adjudicate
    Adjudication,
}

impl Termination {
    /// Every termination, in declaration order (for the clients that must
    /// name each one: the web app's strings, the protocol's table).
    ///
    /// ```
    /// use arbiter_laws::Termination;
    /// assert_eq!(Termination::ALL.len(), 16);
    /// assert!(Termination::ALL.iter().any(|t| t.name() == "both_flags"));
    /// ```
    pub const ALL: [Termination; 16] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::DeadPosition,
        Termination::Resignation,
        Termination::Agreement,
        Termination::ThreefoldRepetition,
        Termination::FiftyMoves,
        Termination::FivefoldRepetition,
        Termination::SeventyfiveMoves,
        Termination::Timeout,
        Termination::TimeoutDraw,
        Termination::BothFlags,
        Termination::IllegalMove,
        Termination::ArbiterDecision,
        Termination::Forfeit,
        Termination::Adjudication,
    ];

    /// The snake_case name used by `arbiter judge`.
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::DeadPosition => "dead_position",
            Termination::Resignation => "resignation",
            Termination::Agreement => "agreement",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyfiveMoves => "seventyfive_moves",
            Termination::Timeout => "timeout",
            Termination::TimeoutDraw => "timeout_draw",
            Termination::BothFlags => "both_flags",
            Termination::IllegalMove => "illegal_move",
            Termination::ArbiterDecision => "arbiter_decision",
            Termination::Forfeit => "forfeit",
            Termination::Adjudication => "adjudication",
        }
    }
}

impl Termination {
    /// The PGN `Termination` tag (PGN standard §9.8.1): `normal` for an end
    /// on the board or by agreement, `time forfeit`, `rules infraction` (an
    /// illegal move, a forfeit) or `adjudication` (an arbiter's decision).
    /// A game still in progress is `unterminated` ([`Termination::pgn_tag_of`]).
    ///
    /// ```
    /// use arbiter_laws::Termination;
    /// assert_eq!(Termination::Timeout.pgn_tag(), "time forfeit");
    /// assert_eq!(Termination::pgn_tag_of(None), "unterminated");
    /// ```
    pub const fn pgn_tag(self) -> &'static str {
        match self {
            Termination::Checkmate
            | Termination::Stalemate
            | Termination::DeadPosition
            | Termination::Resignation
            | Termination::Agreement
            | Termination::ThreefoldRepetition
            | Termination::FiftyMoves
            | Termination::FivefoldRepetition
            | Termination::SeventyfiveMoves => "normal",
            Termination::Timeout | Termination::TimeoutDraw | Termination::BothFlags => {
                "time forfeit"
            }
            Termination::IllegalMove | Termination::Forfeit => "rules infraction",
            Termination::ArbiterDecision | Termination::Adjudication => "adjudication",
        }
    }

    /// The PGN `Termination` tag of a game that ended this way, or
    /// `unterminated` while it goes on.
    pub const fn pgn_tag_of(termination: Option<Termination>) -> &'static str {
        match termination {
            Some(t) => t.pgn_tag(),
            None => "unterminated",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A finished game: the result, why, and the Article that decides it.
///
/// ```
/// use arbiter_laws::{Event, Game, Start, Termination};
/// use arbiter_chess::Color;
/// let mut game = Game::new(Start::default())?;
/// game.apply(Event::resign(4000, Color::Black))?;
/// let o = game.outcome().unwrap();
/// assert_eq!((o.result.to_string().as_str(), o.termination, o.at), ("1-0", Termination::Resignation, 4000));
/// assert_eq!(o.article.cite(), "Art. 5.1 b");
/// assert_eq!(o.reason, None);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The scores.
    pub result: GameResult,
    /// How the game ended.
    pub termination: Termination,
    /// The Article of the edition in force, e.g. `"9.6 a"`, or the
    /// regulations of the event ([`Article::MATCH_RULE`]).
    pub article: Article,
    /// The time of the event that ended the game (ms since the start).
    pub at: u64,
    /// The arbiter's reason, in words, for a forfeit or an adjudication
    /// that gave one ([`crate::Action::Forfeit`], [`crate::Action::Adjudicate`]).
    pub reason: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_round_trip() {
        for s in ["1-0", "0-1", "1/2-1/2", "0-0", "1/2-0", "0-1/2"] {
            assert_eq!(GameResult::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(GameResult::parse("½-½"), Some(GameResult::DRAW));
        assert_eq!(GameResult::parse("1-1"), None);
        assert_eq!(GameResult::parse("3/4-1/4"), None);
    }

    /// The serde form (used on the server's wire, protocol §4.6) is the
    /// name `arbiter judge` prints, for every termination.
    #[test]
    fn termination_serde_form_is_its_name() {
        use Termination::*;
        for t in Termination::ALL {
            // Exhaustive: a new variant fails to compile until listed here
            // (and then in ALL, whose length the compiler checks).
            match t {
                Checkmate | Stalemate | DeadPosition | Resignation | Agreement
                | ThreefoldRepetition | FiftyMoves | FivefoldRepetition | SeventyfiveMoves
                | Timeout | TimeoutDraw | BothFlags | IllegalMove | ArbiterDecision | Forfeit
                | Adjudication => {}
            }
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(json, format!("\"{}\"", t.name()));
            assert_eq!(serde_json::from_str::<Termination>(&json).unwrap(), t);
        }
        // Each once.
        let names: std::collections::HashSet<_> =
            Termination::ALL.iter().map(|t| t.name()).collect();
        assert_eq!(names.len(), Termination::ALL.len());
    }
}
