//! Seeded random games for tests and benchmarks (the data is generated, never
//! stored): standard games, Chess960 games and games from set-up positions,
//! with promotions, en passant and castling as they come, and optionally
//! clock times, comments, NAGs and variations.
//!
//! Moves are random among the legal ones with a bias toward sensible play:
//! castling, captures, promotions and checks are preferred, so games look less like
//! noise and end in mate more often.

use crate::game::{Game, GameResult, Line, Node};
use crate::time_control::TimeControl;
use arbiter_chess::{Color, Move, Position};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Changes whenever the same seed starts giving other games (benchmark data
/// files carry it in their names).
pub const VERSION: u32 = 2;

/// What to generate.
///
/// ```
/// use arbiter_pgn::generate::{GenOptions, Generator};
/// let plain = GenOptions { seed: 7, clocks: 0.0, annotated: 0.0, ..GenOptions::default() };
/// let game = Generator::new(plain).game(1);
/// assert!(game.line.nodes.iter().all(|n| n.clock_ms.is_none() && n.comments.is_empty()));
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GenOptions {
    /// The seed: the same seed gives the same games.
    pub seed: u64,
    /// The longest game, in plies.
    pub max_plies: usize,
    /// Share of Chess960 games (0–1).
    pub chess960: f64,
    /// Share of games from a set-up position (`FEN` tag).
    pub setup: f64,
    /// Share of games with `[%clk]` after every move.
    pub clocks: f64,
    /// Share of games with comments, NAGs and variations.
    pub annotated: f64,
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions {
            seed: 1,
            max_plies: 160,
            chess960: 0.1,
            setup: 0.1,
            clocks: 0.3,
            annotated: 0.1,
        }
    }
}

const NAMES: [&str; 12] = [
    "Ботвинник, Михаил",
    "Smyslov, Vassily",
    "Таль, Михаил",
    "Ljubojević, Ljubomir",
    "Petrosian, Tigran",
    "Капабланка, Хосе Рауль",
    "O'Kelly de Galway, Alberic",
    "Nimzowitsch, \"Aron\"",
    "Spasski, Boris",
    "Карпов, Анатолий",
    "Fischer, Robert J.",
    "Müller, Jörg",
];

const WORDS: [&str; 12] = [
    "лучший ход",
    "a strong move",
    "с угрозой мата",
    "only move",
    "Zugzwang!",
    "weak pawns on c6",
    "слабость поля d5",
    "time trouble",
    "{not a brace}",
    "the point: Nxf7",
    "½ point",
    "50% chance",
];

/// A game generator.
///
/// ```
/// use arbiter_pgn::generate::{GenOptions, Generator};
/// let mut a = Generator::new(GenOptions { seed: 3, ..GenOptions::default() });
/// let mut b = Generator::new(GenOptions { seed: 3, ..GenOptions::default() });
/// assert_eq!(a.game(1).to_pgn(), b.game(1).to_pgn()); // the seed decides
/// ```
pub struct Generator {
    rng: ChaCha8Rng,
    options: GenOptions,
}

/// A [`GenOptions`] share that is no share: not a number from 0 to 1.
///
/// ```
/// use arbiter_pgn::generate::{GenOptions, Generator};
/// let err = Generator::try_new(GenOptions { clocks: 2.0, ..GenOptions::default() }).err().unwrap();
/// assert_eq!(err.to_string(), "GenOptions::clocks is a share from 0 to 1, not 2");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, thiserror::Error)]
#[error("GenOptions::{field} is a share from 0 to 1, not {value}")]
pub struct GenOptionsError {
    /// The field.
    pub field: &'static str,
    /// Its value.
    pub value: f64,
}

impl GenOptions {
    /// The shares (`chess960`, `setup`, `clocks`, `annotated`), each from
    /// 0 to 1; the first that is not is the error.
    pub fn validate(&self) -> Result<(), GenOptionsError> {
        for (field, value) in self.shares() {
            if !(0.0..=1.0).contains(&value) {
                return Err(GenOptionsError { field, value });
            }
        }
        Ok(())
    }

    fn shares(&self) -> [(&'static str, f64); 4] {
        [
            ("chess960", self.chess960),
            ("setup", self.setup),
            ("clocks", self.clocks),
            ("annotated", self.annotated),
        ]
    }

    /// The options with every share brought into 0..=1 (NaN: 0).
    fn clamped(mut self) -> GenOptions {
        for share in [
            &mut self.chess960,
            &mut self.setup,
            &mut self.clocks,
            &mut self.annotated,
        ] {
            *share = if share.is_nan() {
                0.0
            } else {
                share.clamp(0.0, 1.0)
            };
        }
        self
    }
}

impl Generator {
    /// A generator with these options; a share out of 0..=1 is taken as
    /// the nearest of 0 and 1 (NaN as 0). [`Generator::try_new`] refuses it.
    pub fn new(options: GenOptions) -> Generator {
        let options = options.clamped();
        Generator {
            rng: ChaCha8Rng::seed_from_u64(options.seed),
            options,
        }
    }

    /// A generator with these options, refused if a share is not a number
    /// from 0 to 1 (a share of 2 made [`Generator::game`] panic).
    pub fn try_new(options: GenOptions) -> Result<Generator, GenOptionsError> {
        options.validate()?;
        Ok(Generator::new(options))
    }

    /// A random legal move, biased toward captures, promotions and checks.
    pub fn pick_move(&mut self, pos: &Position) -> Option<Move> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        // Castle when possible, half of the time, as players do.
        let castles: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_castling(m))
            .collect();
        if !castles.is_empty() && self.rng.gen_bool(0.5) {
            return castles.choose(&mut self.rng).copied();
        }
        let roll: f64 = self.rng.r#gen();
        if roll < 0.5 {
            let good: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m) || m.promotion.is_some())
                .collect();
            if let Some(&m) = good.choose(&mut self.rng) {
                return Some(m);
            }
        } else if roll < 0.6 {
            let checks: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let mut after = *pos;
                    after.play_unchecked(m);
                    after.is_check()
                })
                .collect();
            if let Some(&m) = checks.choose(&mut self.rng) {
                return Some(m);
            }
        }
        moves.choose(&mut self.rng).copied()
    }

    fn start(&mut self) -> (Position, Option<&'static str>) {
        let roll: f64 = self.rng.r#gen();
        if roll < self.options.chess960 {
            let n = self.rng.gen_range(0..960);
            match Position::chess960(n) {
                Some(p) => (p, Some("Chess960")),
                None => (Position::standard(), None),
            }
        } else if roll < self.options.chess960 + self.options.setup {
            let mut pos = Position::standard();
            for _ in 0..self.rng.gen_range(6..60) {
                match self.pick_move(&pos) {
                    Some(m) => pos.play_unchecked(m),
                    None => break,
                }
            }
            if pos.legal_moves().is_empty() {
                pos = Position::standard();
            }
            (pos, None)
        } else {
            (Position::standard(), None)
        }
    }

    fn random_line(&mut self, mut pos: Position, len: usize) -> Line {
        let mut line = Line::default();
        for _ in 0..len {
            let Some(m) = self.pick_move(&pos) else { break };
            line.nodes.push(Node::new(m));
            pos.play_unchecked(m);
        }
        line
    }

    /// Games 1 to `games` ([`Generator::game`]) written one after the other
    /// as PGN, as `arbiter pgn generate` writes them.
    ///
    /// ```
    /// use arbiter_pgn::generate::{GenOptions, Generator};
    /// let text = Generator::new(GenOptions::default()).pgn(3);
    /// let games = arbiter_pgn::Reader::new(text.as_bytes()).games().count();
    /// assert_eq!(games, 3);
    /// ```
    pub fn pgn(&mut self, games: u64) -> String {
        (1..=games).map(|i| self.game(i).to_pgn()).collect()
    }

    /// One random game.
    pub fn game(&mut self, number: u64) -> Game {
        let (start, variant) = self.start();
        let mut game = Game::new(start);
        let white = NAMES[self.rng.gen_range(0..NAMES.len())];
        let black = NAMES[self.rng.gen_range(0..NAMES.len())];
        game.tags.set("Event", "Arbiter random games");
        game.tags.set("Site", "Generated");
        game.tags.set(
            "Date",
            format!(
                "{}.{:02}.{:02}",
                self.rng.gen_range(1950..2026),
                self.rng.gen_range(1..13),
                self.rng.gen_range(1..29)
            ),
        );
        game.tags.set("Round", number.to_string());
        game.tags.set("White", white);
        game.tags.set("Black", black);
        if let Some(v) = variant {
            game.tags.set("Variant", v);
        }
        if start != Position::standard() {
            game.tags.set("SetUp", "1");
            game.tags.set("FEN", start.fen());
        }
        let clocks = self.rng.gen_bool(self.options.clocks);
        let annotated = self.rng.gen_bool(self.options.annotated);
        if clocks {
            game.tags
                .set("TimeControl", TimeControl::fischer(3, 2).to_string());
        }
        let limit = self.rng.gen_range(10..=self.options.max_plies.max(10));
        let mut pos = start;
        let mut clock = [180_000u64, 180_000u64];
        for _ in 0..limit {
            let Some(m) = self.pick_move(&pos) else { break };
            let mut node = Node::new(m);
            if clocks {
                let side = pos.turn().index();
                let spent = self.rng.gen_range(0..8_000u64);
                clock[side] = (clock[side] + 2_000).saturating_sub(spent);
                node.clock_ms = Some(clock[side] / 1000 * 1000);
            }
            if annotated {
                if self.rng.gen_bool(0.1) {
                    node.nags.push(self.rng.gen_range(1..20));
                }
                if self.rng.gen_bool(0.1) {
                    node.comments
                        .push(WORDS[self.rng.gen_range(0..WORDS.len())].to_owned());
                }
                if self.rng.gen_bool(0.05) {
                    let len = self.rng.gen_range(1..6);
                    let mut v = self.random_line(pos, len);
                    if v.nodes.first().map(|n| n.mv) != Some(m) && !v.nodes.is_empty() {
                        if self.rng.gen_bool(0.3) {
                            v.comments.push("или".to_owned());
                        }
                        node.variations.push(v);
                    }
                }
            }
            game.line.nodes.push(node);
            pos.play_unchecked(m);
        }
        let result = if pos.is_checkmate() {
            match pos.turn() {
                Color::White => GameResult::BlackWins,
                Color::Black => GameResult::WhiteWins,
            }
        } else if pos.is_stalemate() {
            GameResult::Draw
        } else {
            [
                GameResult::WhiteWins,
                GameResult::BlackWins,
                GameResult::Draw,
                GameResult::Unknown,
            ][self.rng.gen_range(0..4)]
        };
        game.result = Some(result);
        game.tags.set("Result", result.as_str());
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_games() {
        let mut a = Generator::new(GenOptions::default());
        let mut b = Generator::new(GenOptions::default());
        for i in 0..20 {
            assert_eq!(a.game(i), b.game(i));
        }
    }
}
