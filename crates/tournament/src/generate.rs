//! A random tournament generator (C.04 A.5, "RTG"): complete Swiss events
//! paired round by round with the Dutch system, results drawn from the
//! players' ratings (the FIDE expected score), with draws, forfeits, requested
//! byes, absences, withdrawals, late entries and Baku acceleration at given
//! rates; reproducible from a seed.

use crate::dutch::{self, Options, Rules};
use crate::model::{
    Acceleration, Colour, Event, PairingSystem, Player, RoundEntry, RoundResult, Sex,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What to generate.
///
/// ```
/// let c = arbiter_tournament::generate::Config::default();
/// assert_eq!((c.players, c.rounds), (20, 9));
/// ```
#[derive(Debug, Clone)]
pub struct Config {
    /// Number of players.
    pub players: u16,
    /// Number of rounds.
    pub rounds: u16,
    /// Probability that a game is drawn.
    pub draw_rate: f64,
    /// Probability that a paired game is forfeited (one side, at random).
    pub forfeit_rate: f64,
    /// Probability that a player requests a half-point bye for a round.
    pub half_bye_rate: f64,
    /// Probability that a player is absent for a round (zero-point bye).
    pub absence_rate: f64,
    /// Probability that a player withdraws after a round.
    pub withdraw_rate: f64,
    /// Probability that a player enters late (misses the first rounds).
    pub late_rate: f64,
    /// Acceleration, if any ([`Acceleration::baku`] for C.04.5.1).
    pub acceleration: Option<Acceleration>,
    /// The rules to pair with.
    pub rules: Rules,
    /// The seed.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            players: 20,
            rounds: 9,
            draw_rate: 0.3,
            forfeit_rate: 0.0,
            half_bye_rate: 0.0,
            absence_rate: 0.0,
            withdraw_rate: 0.0,
            late_rate: 0.0,
            acceleration: None,
            rules: Rules::Fide2025,
            seed: 1,
        }
    }
}

/// A [`Config`] that cannot be generated.
///
/// ```
/// use arbiter_tournament::generate::{generate, Config, GenerateError};
/// let err = generate(&Config { forfeit_rate: 2.0, ..Config::default() }).unwrap_err();
/// assert_eq!(err, GenerateError::Rate { field: "forfeit_rate", value: 2.0 });
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GenerateError {
    /// A probability outside 0–1 (or not a number).
    #[error("{field} is a probability, between 0 and 1, not {value}")]
    Rate {
        /// The field of [`Config`].
        field: &'static str,
        /// Its value.
        value: f64,
    },
    /// Fewer than 2 players, or more than a TRF numbers (9999).
    #[error("a tournament needs 2 to 9999 players, not {0}")]
    Players(u16),
}

impl Config {
    /// Checks the rates (probabilities, 0–1) and the number of players (0
    /// rounds gives the players only).
    pub fn validate(&self) -> Result<(), GenerateError> {
        for (field, value) in [
            ("draw_rate", self.draw_rate),
            ("forfeit_rate", self.forfeit_rate),
            ("half_bye_rate", self.half_bye_rate),
            ("absence_rate", self.absence_rate),
            ("withdraw_rate", self.withdraw_rate),
            ("late_rate", self.late_rate),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return Err(GenerateError::Rate { field, value });
            }
        }
        if !(2..=9999).contains(&self.players) {
            return Err(GenerateError::Players(self.players));
        }
        Ok(())
    }
}

/// Generates one tournament. When a round cannot be paired under the
/// absolute criteria, the event stops after the round before: the rounds
/// declared stay (C.04.1 rule 1: they are declared beforehand; the last
/// round paired was paired as a non-final round), the later rounds are not
/// paired, and a `###` comment record says where and why it stopped.
///
/// ```
/// use arbiter_tournament::generate::{generate, Config};
/// let e = generate(&Config { players: 10, rounds: 5, seed: 7, ..Config::default() }).unwrap();
/// assert_eq!(e.players.len(), 10);
/// assert_eq!(e.rounds_played(), 5);
/// assert_eq!(e, generate(&Config { players: 10, rounds: 5, seed: 7, ..Config::default() }).unwrap());
/// ```
pub fn generate(config: &Config) -> Result<Event, GenerateError> {
    config.validate()?;
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut event = Event::new(&format!("Random tournament {}", config.seed), config.rounds);
    event.initial_colour = Some(if rng.gen_bool(0.5) {
        Colour::White
    } else {
        Colour::Black
    });
    event.system = match config.rules {
        Rules::Fide2025 => PairingSystem::Dutch2025,
        Rules::Fide2017 => PairingSystem::Dutch2017,
    };
    let mut ratings: Vec<u16> = (0..config.players)
        .map(|_| rng.gen_range(1400..2800))
        .collect();
    ratings.sort_by(|a, b| b.cmp(a));
    for (i, r) in ratings.iter().enumerate() {
        let id = i as u16 + 1;
        let mut p = Player::new(id, &format!("Player {id:04}"), *r);
        p.sex = Some(if rng.gen_bool(0.8) {
            Sex::Male
        } else {
            Sex::Female
        });
        event.players.push(p);
    }
    event.acceleration = config.acceleration.clone();
    let n = usize::from(config.players);
    let late: Vec<usize> = (0..n)
        .map(|_| {
            if config.rounds > 2 && rng.gen_bool(config.late_rate) {
                rng.gen_range(1..=usize::from(config.rounds / 2).max(1))
            } else {
                0
            }
        })
        .collect();
    let mut withdrawn = vec![false; n];
    for round in 1..=usize::from(config.rounds) {
        // Decisions before the pairing: late entries, withdrawals, byes.
        for i in 0..n {
            let entry = if round <= late[i] || withdrawn[i] {
                Some(RoundResult::ZeroBye)
            } else if rng.gen_bool(config.half_bye_rate) && round < usize::from(config.rounds) {
                Some(RoundResult::HalfBye)
            } else if rng.gen_bool(config.absence_rate) {
                Some(RoundResult::ZeroBye)
            } else {
                None
            };
            if let Some(r) = entry {
                event.players[i].rounds.push(RoundEntry::bye(r));
            }
        }
        let pairing = match dutch::pair_round(
            &event,
            round,
            Options {
                rules: config.rules,
                ..Options::default()
            },
        ) {
            Ok(p) => p,
            Err(e) => {
                for p in &mut event.players {
                    p.rounds.truncate(round - 1);
                }
                event.other_records.push(format!(
                    "### round {round} of {} cannot be paired ({e}); the event stops after round {}",
                    config.rounds,
                    round - 1
                ));
                return Ok(event);
            }
        };
        for (w, b) in pairing.pairs {
            let (wi, bi) = (usize::from(w) - 1, usize::from(b) - 1);
            let (rw, rb) = (event.players[wi].rating, event.players[bi].rating);
            let result = if rng.gen_bool(config.forfeit_rate) {
                if rng.gen_bool(0.5) {
                    RoundResult::ForfeitWin
                } else {
                    RoundResult::ForfeitLoss
                }
            } else {
                played_result(&mut rng, rw, rb, config.draw_rate)
            };
            event.players[wi]
                .rounds
                .push(RoundEntry::game(b, Colour::White, result));
            event.players[bi]
                .rounds
                .push(RoundEntry::game(w, Colour::Black, result.reversed()));
        }
        if let Some(b) = pairing.bye {
            event.players[usize::from(b) - 1]
                .rounds
                .push(RoundEntry::bye(RoundResult::PairingBye));
        }
        for (i, w) in withdrawn.iter_mut().enumerate() {
            if !*w && round > late[i] && rng.gen_bool(config.withdraw_rate) {
                *w = true;
            }
        }
    }
    Ok(event)
}

/// White's result of a game played between players rated `white` and
/// `black`: a draw with probability `draw_rate`, otherwise a win with White's
/// expected score of the logistic rating curve.
///
/// ```
/// use arbiter_tournament::generate::played_result;
/// use arbiter_tournament::RoundResult;
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// assert_eq!(played_result(&mut rng, 2800, 1000, 0.0), RoundResult::Win);
/// assert_eq!(played_result(&mut rng, 1500, 1500, 1.0), RoundResult::Draw);
/// ```
pub fn played_result(rng: &mut impl Rng, white: u16, black: u16, draw_rate: f64) -> RoundResult {
    if rng.gen_bool(draw_rate) {
        return RoundResult::Draw;
    }
    let expected = 1.0 / (1.0 + 10f64.powf((f64::from(black) - f64::from(white)) / 400.0));
    if rng.gen_bool(expected) {
        RoundResult::Win
    } else {
        RoundResult::Loss
    }
}
