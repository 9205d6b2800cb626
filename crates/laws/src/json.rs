//! The JSON lines of `arbiter judge` ([`crate::judge`]) as a serde layer on
//! the typed API: [`Start`] and [`Event`] here are the wire forms, with
//! moves, squares and time controls as text; [`Event::to_event`] reads one
//! against the game it is applied to (SAN or UCI moves, square names) and
//! [`Event::from_event`] writes a typed event back (moves in SAN). Colours
//! are arbiter-chess's own serde form (its `serde` feature: `"white"`,
//! `"black"`, also read as `"w"`, `"b"`).
//!
//! ```
//! use arbiter_laws::{json, Game};
//! let start: json::Start = serde_json::from_str(r#"{"time_control": "300+3", "edition": "2023"}"#)?;
//! let mut game = Game::new(start.to_start()?)?;
//! let e: json::Event = serde_json::from_str(r#"{"t": 1500, "by": "white", "do": "move", "move": "e4"}"#)?;
//! assert_eq!(serde_json::to_string(&e)?, r#"{"t":1500,"by":"white","do":"move","move":"e4"}"#);
//! json::apply(&mut game, &e)?;
//! assert_eq!(game.moves()[0].san, "e4");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use crate::clock::Delay;
use crate::edition::{Edition, Rules};
use crate::event::Sanction;
use crate::event::{self as typed, Actor, ClaimKind, Ground, IllegalMove};
use crate::game::{Applied, Game, Rejected, StartError};
use crate::outcome::{GameResult, Score};
use crate::regulations::Regulations;
use arbiter_chess::{CastlingSide, Color, File, Move, Position, Role, San, Square, UciMove};
use arbiter_pgn::TimeControl;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How a game starts, as the first line of `arbiter judge` gives it
/// (`{"start": {…}}`).
///
/// ```
/// use arbiter_laws::json;
/// let s: json::Start = serde_json::from_str(r#"{"fen": "8/8/8/8/8/8/8/K1k5 w - - 0 1"}"#)?;
/// assert!(s.to_start()?.fen.is_some());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// A set-up position in FEN (X-FEN and Shredder-FEN accepted); the
    /// initial position if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// A Chess960 starting position by its number (0–959).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chess960: Option<u32>,
    /// `"standard"` or `"chess960"`: the game declared, which decides how
    /// the FEN's castling rights are read (see [`typed::Start::variant`]);
    /// without it, as the rights need.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<crate::Variant>,
    /// The edition of the Laws (default 2014).
    #[serde(default)]
    pub edition: Edition,
    /// A PGN `TimeControl` value (`40/5400+30:1800+30`, `300+3`, …); no clock if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<String>,
    /// A delay per move (Bronstein or simple).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay: Option<Delay>,
    /// Rapid and blitz under the Competition Rules (adequate supervision).
    #[serde(default)]
    pub supervised: bool,
    /// Touch-move is enforced (4.3–4.4).
    #[serde(default)]
    pub touch_move: bool,
    /// The players not at the board at the scheduled start (t = 0), e.g.
    /// `["black"]`: each must `arrive` (6.7).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<Color>,
    /// The default time in milliseconds (6.7 a / 6.7.1; 0 if the
    /// regulations specify none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub default_time_ms: u64,
    /// A penalty less severe than the loss for an electronic device (11.3 b
    /// / 11.3.2.2): `{"sanction": …, "ms": …, "score": …}` as for the
    /// arbiter's `penalty`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_penalty: Option<PenaltySpec>,
    /// Devices may be kept switched off in the player's bag (2018+ 11.3.2.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub devices_in_bag: bool,
    /// No draw offer or agreement before each player has made this many
    /// moves, without the arbiter's consent (9.1 a / 9.1.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_offers_from_move: Option<u32>,
    /// No draw offer or agreement at all without the arbiter's consent.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub draw_needs_consent: bool,
}

/// A penalty written as a start option (`device_penalty`).
///
/// ```
/// use arbiter_laws::json::PenaltySpec;
/// let p: PenaltySpec = serde_json::from_str(r#"{"sanction": "opponent_time", "ms": 120000}"#)?;
/// assert_eq!(p.ms, Some(120_000));
/// # Ok::<_, serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PenaltySpec {
    /// Which penalty.
    pub sanction: SanctionKind,
    /// Milliseconds, for the time penalties.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
    /// A score, for the penalties that set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
}

fn yes() -> bool {
    true
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Start {
    /// The typed start; the time control read.
    pub fn to_start(&self) -> Result<typed::Start, StartError> {
        let time_control = match &self.time_control {
            Some(text) => Some(TimeControl::parse(text)?),
            None => None,
        };
        Ok(typed::Start {
            fen: self.fen.clone(),
            chess960: self.chess960,
            variant: self.variant,
            edition: self.edition,
            time_control,
            delay: self.delay,
            supervised: self.supervised,
            touch_move: self.touch_move,
            absent: self.absent.clone(),
            regulations: Regulations {
                default_time_ms: self.default_time_ms,
                device_penalty: match &self.device_penalty {
                    None => None,
                    Some(p) => Some(p.to_sanction(self.edition)?),
                },
                devices_in_bag: self.devices_in_bag,
                draw_offers_from_move: self.draw_offers_from_move,
                draw_needs_consent: self.draw_needs_consent,
            },
        })
    }

    /// The wire form of a typed start.
    pub fn from_start(start: &typed::Start) -> Start {
        Start {
            fen: start.fen.clone(),
            chess960: start.chess960,
            variant: start.variant,
            edition: start.edition,
            time_control: start.time_control.as_ref().map(ToString::to_string),
            delay: start.delay,
            supervised: start.supervised,
            touch_move: start.touch_move,
            absent: start.absent.clone(),
            default_time_ms: start.regulations.default_time_ms,
            device_penalty: start.regulations.device_penalty.map(PenaltySpec::of),
            devices_in_bag: start.regulations.devices_in_bag,
            draw_offers_from_move: start.regulations.draw_offers_from_move,
            draw_needs_consent: start.regulations.draw_needs_consent,
        }
    }
}

impl PenaltySpec {
    /// The typed penalty.
    pub fn to_sanction(&self, edition: Edition) -> Result<Sanction, StartError> {
        sanction_of(
            self.sanction,
            self.ms,
            self.score.as_deref(),
            &edition.rules(),
        )
        .map_err(|e| StartError::Regulations(format!("device_penalty: {e}")))
    }

    /// The wire form of a penalty.
    pub fn of(sanction: Sanction) -> PenaltySpec {
        let f = Decision::fields_of(typed::Decision::Penalty {
            offender: Color::White,
            sanction,
        });
        PenaltySpec {
            sanction: f.sanction.unwrap_or(SanctionKind::Warning),
            ms: f.ms,
            score: f.score,
        }
    }
}

/// A result written `"1-0"`, `"0-1"`, `"1/2-1/2"`, `"0-0"`, `"1/2-0"` or `"0-1/2"`.
pub mod result_serde {
    use super::*;

    /// Writes the result as text.
    pub fn serialize<S: Serializer>(r: &GameResult, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&r.to_string())
    }

    /// Reads a result (Art. 10.2: never more than the normal total).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
        let s = String::deserialize(d)?;
        GameResult::parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "result {s:?}: expected \"1-0\", \"0-1\", \"1/2-1/2\", \"0-0\", \"1/2-0\" or \"0-1/2\""
            ))
        })
    }
}

/// One line of `arbiter judge`: something that happened, at `t`
/// milliseconds after the start.
///
/// ```
/// use arbiter_laws::json;
/// let e: json::Event = serde_json::from_str(r#"{"t": 0, "do": "arbiter", "decision": "both_lose"}"#)?;
/// assert_eq!(e.by, None);
/// # Ok::<_, serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Milliseconds since the start of the game (White's clock started at 0).
    pub t: u64,
    /// The player who acts; absent for the arbiter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Color>,
    /// What happened.
    #[serde(flatten)]
    pub action: Action,
}

/// What a player or the arbiter does, as `arbiter judge` writes it. A
/// field the action does not have is refused (`"mvoe"`, `"notice"`): the
/// actions without fields are empty structs (`Resign {}`), so that they
/// refuse them too.
///
/// ```
/// use arbiter_laws::json::Action;
/// let a: Action = serde_json::from_str(r#"{"do": "touch", "square": "e2"}"#)?;
/// assert_eq!(a, Action::Touch { square: "e2".into(), piece: None });
/// let typo = serde_json::from_str::<Action>(r#"{"do": "resign", "move": "e4"}"#).unwrap_err();
/// assert!(typo.to_string().starts_with("unknown field `move`"), "{typo}");
/// # Ok::<_, serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// A move, made and completed (the clock pressed), in SAN or UCI.
    Move {
        /// The move as written.
        #[serde(rename = "move")]
        mv: String,
        /// Made with two hands (2018+ 7.5.4: penalised as an illegal move).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        two_hands: bool,
    },
    /// The clock pressed without a move (2018+ 7.5.3).
    PressClock {},
    /// The move sealed for an adjournment, as written (App. E / Guidelines I).
    Seal {
        /// The move as written.
        #[serde(rename = "move")]
        mv: String,
    },
    /// A draw offer (9.1 b / 9.1.2).
    OfferDraw {},
    /// Accepting the opponent's draw offer.
    AcceptDraw {},
    /// Declining the opponent's draw offer.
    DeclineDraw {},
    /// A claim, by the player having the move unless its kind says otherwise.
    Claim {
        /// What is claimed.
        kind: ClaimKind,
        /// The intended move, written first and not played (9.2, 9.3).
        #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
        mv: Option<String>,
    },
    /// Resignation (5.1 b / 5.1.2).
    Resign {},
    /// A claim that the opponent's flag has fallen (6.8).
    Flag {},
    /// The player having the move deliberately touches the piece on `square` (4.3).
    Touch {
        /// The square, e.g. `"e2"`.
        square: String,
        /// With a promotion square: the new piece (`q`, `r`, `b`, `n`) has
        /// touched it, the choice final (4.4 d / 4.4.4).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        piece: Option<String>,
    },
    /// A completed illegal move (7.5), in coordinates: `"e1e3"`; a pawn
    /// reaching the last rank with no piece named (`"e7e8"`) is an
    /// unreplaced promotion (7.5 a / 7.5.2). `"noticed": false`: nobody
    /// notices it, the game goes on until the arbiter finds it (7.5 a /
    /// 7.5.1).
    Illegal {
        /// The move, from and to squares (and a promotion piece).
        #[serde(rename = "move")]
        mv: String,
        /// `false`: unnoticed until the arbiter's `illegal_found`.
        #[serde(default = "yes", skip_serializing_if = "Clone::clone")]
        noticed: bool,
    },
    /// A player absent at the scheduled start arrives at the board (6.7).
    Arrive {},
    /// An arbiter's decision.
    Arbiter {
        /// The decision.
        decision: Decision,
        /// The player concerned, for `add_time`, `excuse_lateness` and
        /// `penalty` (the offender).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<Color>,
        /// Milliseconds, for `add_time` and the time penalties.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ms: Option<u64>,
        /// Which penalty, for `penalty` (12.9).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sanction: Option<SanctionKind>,
        /// A score (`"0"`, `"1/2"`, `"1"`), for the penalties that set one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        score: Option<String>,
        /// For `device`: switched off in the player's bag (2018+ 11.3.2.1).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        in_bag: bool,
        /// For `set_clocks`: White's time, ms.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        white: Option<u64>,
        /// For `set_clocks`: Black's time, ms.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        black: Option<u64>,
        /// For `colours_reversed` (2014): the arbiter rules that a new game
        /// be played.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        restart: bool,
    },
    /// The arbiter declares the game lost by `player` (no `by`).
    Forfeit {
        /// The player who loses.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<Color>,
        /// What the decision rests on (default: the regulations of the event).
        #[serde(default)]
        ground: Ground,
        /// Why, in words.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
    /// The arbiter decides the result (no `by`).
    Adjudicate {
        /// The result: `"1-0"`, `"0-1"`, `"1/2-1/2"`, `"0-0"`, `"1/2-0"`, `"0-1/2"`.
        #[serde(with = "result_serde")]
        result: GameResult,
        /// What the decision rests on (default: the regulations of the event).
        #[serde(default)]
        ground: Ground,
        /// Why, in words.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
}

/// An arbiter's decision as `arbiter judge` names it (`add_time` takes its
/// player and time from the event).
///
/// ```
/// use arbiter_laws::json::Decision;
/// assert_eq!(serde_json::to_string(&Decision::AddTime)?, r#""add_time""#);
/// # Ok::<_, serde_json::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// [`typed::Decision::Upheld`].
    Upheld,
    /// [`typed::Decision::Rejected`].
    Rejected,
    /// [`typed::Decision::Postponed`].
    Postponed,
    /// [`typed::Decision::Flag`].
    Flag,
    /// [`typed::Decision::IllegalMove`].
    IllegalMove,
    /// [`typed::Decision::BothLose`].
    BothLose,
    /// [`typed::Decision::AddTime`].
    AddTime,
    /// [`typed::Decision::DefaultTimePassed`].
    Absent,
    /// [`typed::Decision::ExcuseLateness`].
    ExcuseLateness,
    /// [`typed::Decision::Penalty`].
    Penalty,
    /// [`typed::Decision::Device`].
    Device,
    /// [`typed::Decision::ConsentDraw`].
    ConsentDraw,
    /// [`typed::Decision::IllegalFound`].
    IllegalFound,
    /// [`typed::Decision::SetClocks`] (`"white"`, `"black"`: ms).
    SetClocks,
    /// [`typed::Decision::WrongInitialPosition`].
    WrongInitialPosition,
    /// [`typed::Decision::ColoursReversed`] (`"restart"`).
    ColoursReversed,
    /// [`typed::Decision::Displaced`] (`"player"`).
    Displaced,
    /// [`typed::Decision::Resume`] (`"player"`: one absent at the resumption).
    Resume,
}

/// The penalties of 12.9 as `arbiter judge` names them.
///
/// ```
/// use arbiter_laws::json::SanctionKind;
/// assert_eq!(serde_json::to_string(&SanctionKind::GameLost)?, r#""game_lost""#);
/// # Ok::<_, serde_json::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SanctionKind {
    /// [`Sanction::Warning`].
    Warning,
    /// [`Sanction::OpponentTime`] (`"ms"`).
    OpponentTime,
    /// [`Sanction::OffenderTime`] (`"ms"`).
    OffenderTime,
    /// [`Sanction::OpponentScoreMaximum`].
    OpponentScoreMaximum,
    /// [`Sanction::OffenderScoreReduced`] (`"score"`: the offender's, default 0).
    OffenderScoreReduced,
    /// [`Sanction::GameLost`] (`"score"`: the opponent's, default 1).
    GameLost,
}

impl SanctionKind {
    /// Whether the penalty changes the score (it may come after the end).
    pub const fn changes_score(self) -> bool {
        matches!(
            self,
            SanctionKind::OpponentScoreMaximum
                | SanctionKind::OffenderScoreReduced
                | SanctionKind::GameLost
        )
    }
}

/// The fields of an `arbiter` line, as read, for [`Decision::with`].
///
/// ```
/// use arbiter_laws::json::{Decision, DecisionArgs};
/// use arbiter_laws::Edition;
/// let d = Decision::Flag.with(&DecisionArgs::default(), &Edition::Fide2014.rules())?;
/// assert_eq!(d, arbiter_laws::Decision::Flag);
/// # Ok::<_, arbiter_laws::Rejected>(())
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct DecisionArgs<'a> {
    /// `"player"`.
    pub player: Option<Color>,
    /// `"ms"`.
    pub ms: Option<u64>,
    /// `"sanction"`.
    pub sanction: Option<SanctionKind>,
    /// `"score"`.
    pub score: Option<&'a str>,
    /// `"in_bag"`.
    pub in_bag: bool,
    /// `"white"` and `"black"`.
    pub clocks: Option<(Option<u64>, Option<u64>)>,
    /// `"restart"`.
    pub restart: bool,
}

/// The fields of an `arbiter` line.
///
/// ```
/// use arbiter_laws::json::{ArbiterFields, Decision};
/// let f = ArbiterFields { decision: Decision::Flag, player: None, ms: None, sanction: None, score: None, in_bag: false, clocks: None, restart: false };
/// assert_eq!(f.decision, Decision::Flag);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArbiterFields {
    /// The decision.
    pub decision: Decision,
    /// The player, where the decision names one.
    pub player: Option<Color>,
    /// Milliseconds, where it takes them.
    pub ms: Option<u64>,
    /// The penalty.
    pub sanction: Option<SanctionKind>,
    /// A score.
    pub score: Option<String>,
    /// A device in the bag.
    pub in_bag: bool,
    /// The clocks the arbiter sets (White, Black).
    pub clocks: Option<(u64, u64)>,
    /// A new game ruled (colours reversed, 2014).
    pub restart: bool,
}

fn score_text(s: Score) -> String {
    s.as_str().to_owned()
}

fn read_score(text: &str) -> Option<Score> {
    match text.trim() {
        "0" => Some(Score::Zero),
        "1/2" | "½" => Some(Score::Half),
        "1" => Some(Score::One),
        _ => None,
    }
}

impl Decision {
    /// The typed decision, with the event's `player` and `ms` where it
    /// takes them (`rules`: the Articles of the refusals).
    pub fn to_typed(
        self,
        player: Option<Color>,
        ms: Option<u64>,
        rules: &Rules,
    ) -> Result<typed::Decision, Rejected> {
        let args = DecisionArgs {
            player,
            ms,
            ..DecisionArgs::default()
        };
        self.with(&args, rules)
    }

    /// [`Decision::to_typed`] with all the fields an `arbiter` line may give.
    pub fn with(self, args: &DecisionArgs<'_>, rules: &Rules) -> Result<typed::Decision, Rejected> {
        let DecisionArgs {
            player,
            ms,
            sanction,
            score,
            in_bag,
            clocks,
            restart,
        } = *args;
        use typed::Decision as D;
        Ok(match self {
            Decision::WrongInitialPosition => D::WrongInitialPosition,
            Decision::Resume => D::Resume { absent: player },
            Decision::ColoursReversed => D::ColoursReversed { restart },
            Decision::Displaced => D::Displaced {
                player: player
                    .ok_or_else(|| needs_player("arbiter displaced", rules.articles.displaced))?,
            },
            Decision::IllegalFound => D::IllegalFound,
            Decision::SetClocks => match clocks {
                Some((Some(white), Some(black))) => D::SetClocks { white, black },
                _ => {
                    return Err(Rejected::Refused {
                        event: "arbiter set_clocks",
                        article: rules.articles.set_clocks.into(),
                        reason: "give both times: \"white\" and \"black\" in ms".into(),
                    })
                }
            },
            Decision::Device => D::Device {
                player: player
                    .ok_or_else(|| needs_player("arbiter device", rules.articles.device))?,
                in_bag,
            },
            Decision::ConsentDraw => D::ConsentDraw,
            Decision::Penalty => {
                let offender = player.ok_or_else(|| {
                    refuse_penalty(
                        "12.9",
                        "say who is penalised: \"player\": \"white\" or \"black\"",
                    )
                })?;
                let kind = sanction.ok_or_else(|| {
                    refuse_penalty("12.9", "say which penalty: \"sanction\": warning, opponent_time, offender_time, opponent_score_maximum, offender_score_reduced or game_lost")
                })?;
                D::Penalty {
                    offender,
                    sanction: sanction_of(kind, ms, score, rules)?,
                }
            }
            Decision::Upheld => D::Upheld,
            Decision::Rejected => D::Rejected,
            Decision::Postponed => D::Postponed,
            Decision::Flag => D::Flag,
            Decision::IllegalMove => D::IllegalMove,
            Decision::BothLose => D::BothLose,
            Decision::AddTime => {
                let (Some(player), Some(ms)) = (player, ms) else {
                    return Err(Rejected::AddTimeIncomplete);
                };
                D::AddTime { player, ms }
            }
            Decision::Absent => D::DefaultTimePassed,
            Decision::ExcuseLateness => D::ExcuseLateness {
                player: player
                    .ok_or_else(|| needs_player("excuse_lateness", rules.articles.late_arrival))?,
            },
        })
    }

    /// The wire form of a typed decision: the name, the player, the time.
    pub fn of(decision: typed::Decision) -> (Decision, Option<Color>, Option<u64>) {
        let f = Decision::fields_of(decision);
        (f.decision, f.player, f.ms)
    }

    /// The wire fields of a typed decision.
    pub fn fields_of(decision: typed::Decision) -> ArbiterFields {
        use typed::Decision as D;
        let restart = matches!(decision, D::ColoursReversed { restart: true });
        let (decision, player, ms) = match decision {
            D::Penalty { offender, sanction } => {
                let (kind, ms, score) = match sanction {
                    Sanction::Warning => (SanctionKind::Warning, None, None),
                    Sanction::OpponentTime { ms } => (SanctionKind::OpponentTime, Some(ms), None),
                    Sanction::OffenderTime { ms } => (SanctionKind::OffenderTime, Some(ms), None),
                    Sanction::OpponentScoreMaximum => {
                        (SanctionKind::OpponentScoreMaximum, None, None)
                    }
                    Sanction::OffenderScoreReduced { score } => (
                        SanctionKind::OffenderScoreReduced,
                        None,
                        Some(score_text(score)),
                    ),
                    Sanction::GameLost { opponent_score } => (
                        SanctionKind::GameLost,
                        None,
                        Some(score_text(opponent_score)),
                    ),
                };
                return ArbiterFields {
                    decision: Decision::Penalty,
                    player: Some(offender),
                    ms,
                    sanction: Some(kind),
                    score,
                    in_bag: false,
                    clocks: None,
                    restart: false,
                };
            }
            D::Device { player, in_bag } => {
                return ArbiterFields {
                    decision: Decision::Device,
                    player: Some(player),
                    ms: None,
                    sanction: None,
                    score: None,
                    in_bag,
                    clocks: None,
                    restart: false,
                }
            }
            D::SetClocks { white, black } => {
                return ArbiterFields {
                    decision: Decision::SetClocks,
                    player: None,
                    ms: None,
                    sanction: None,
                    score: None,
                    in_bag: false,
                    clocks: Some((white, black)),
                    restart: false,
                }
            }
            other => Decision::plain(other),
        };
        ArbiterFields {
            decision,
            player,
            ms,
            sanction: None,
            score: None,
            in_bag: false,
            clocks: None,
            restart,
        }
    }

    fn plain(decision: typed::Decision) -> (Decision, Option<Color>, Option<u64>) {
        use typed::Decision as D;
        match decision {
            D::Penalty { offender, .. } => (Decision::Penalty, Some(offender), None),
            D::Device { player, .. } => (Decision::Device, Some(player), None),
            D::ConsentDraw => (Decision::ConsentDraw, None, None),
            D::IllegalFound => (Decision::IllegalFound, None, None),
            D::SetClocks { .. } => (Decision::SetClocks, None, None),
            D::WrongInitialPosition => (Decision::WrongInitialPosition, None, None),
            D::Resume { absent } => (Decision::Resume, absent, None),
            D::ColoursReversed { .. } => (Decision::ColoursReversed, None, None),
            D::Displaced { player } => (Decision::Displaced, Some(player), None),
            D::Upheld => (Decision::Upheld, None, None),
            D::Rejected => (Decision::Rejected, None, None),
            D::Postponed => (Decision::Postponed, None, None),
            D::Flag => (Decision::Flag, None, None),
            D::IllegalMove => (Decision::IllegalMove, None, None),
            D::BothLose => (Decision::BothLose, None, None),
            D::AddTime { player, ms } => (Decision::AddTime, Some(player), Some(ms)),
            D::DefaultTimePassed => (Decision::Absent, None, None),
            D::ExcuseLateness { player } => (Decision::ExcuseLateness, Some(player), None),
        }
    }
}

/// The penalty of `kind` with its fields (ms, score).
fn sanction_of(
    kind: SanctionKind,
    ms: Option<u64>,
    score: Option<&str>,
    rules: &Rules,
) -> Result<Sanction, Rejected> {
    let sanctions = rules.articles.sanctions;
    let score = match score {
        None => None,
        Some(text) => Some(read_score(text).ok_or_else(|| {
            refuse_penalty(
                "10.2",
                &format!(
                    "score {}: expected \"0\", \"1/2\" or \"1\"",
                    arbiter_chess::Excerpt(text)
                ),
            )
        })?),
    };
    let ms = |i: usize| ms.ok_or_else(|| refuse_penalty(sanctions[i], "say how much time: \"ms\""));
    Ok(match kind {
        SanctionKind::Warning => Sanction::Warning,
        SanctionKind::OpponentTime => Sanction::OpponentTime { ms: ms(1)? },
        SanctionKind::OffenderTime => Sanction::OffenderTime { ms: ms(2)? },
        SanctionKind::OpponentScoreMaximum => Sanction::OpponentScoreMaximum,
        SanctionKind::OffenderScoreReduced => Sanction::OffenderScoreReduced {
            score: score.unwrap_or(Score::Zero),
        },
        SanctionKind::GameLost => Sanction::GameLost {
            opponent_score: score.unwrap_or(Score::One),
        },
    })
}

fn refuse_penalty(article: &'static str, reason: &str) -> Rejected {
    Rejected::Refused {
        event: "arbiter penalty",
        article: article.into(),
        reason: reason.to_owned(),
    }
}

/// An arbiter's decision that names no player.
fn needs_player(event: &'static str, article: &'static str) -> Rejected {
    Rejected::Refused {
        event,
        article: article.into(),
        reason: "say which player: \"player\": \"white\" or \"black\"".to_owned(),
    }
}

/// A move as players write it, legal in `pos`: every notation the records
/// crate reads ([`arbiter_pgn::read_move`]: SAN, UCI, Russian `Кf3`,
/// figurine `♘f3`, long algebraic `Ng1-f3`, FIDE style `0-0` and `e8Q`,
/// Cyrillic look-alikes); the SAN reading's error otherwise.
///
/// ```
/// use arbiter_laws::json::read_move;
/// use arbiter_chess::Position;
/// let pos = Position::standard();
/// let nf3 = pos.parse_san("Nf3")?;
/// for text in ["Nf3", "g1f3", "Кf3", "♘f3", "Ng1-f3"] {
///     assert_eq!(read_move(&pos, text)?, nf3);
/// }
/// assert!(read_move(&pos, "Zz9").is_err());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn read_move(pos: &Position, text: &str) -> Result<Move, Rejected> {
    if let Ok(m) = arbiter_pgn::read_move(pos, text) {
        return Ok(m);
    }
    pos.parse_san(text).or_else(|error| {
        pos.parse_uci(text).map_err(|_| Rejected::UnreadableMove {
            text: text.to_owned(),
            fullmove: pos.fullmoves(),
            error,
        })
    })
}

/// The intended move of a draw claim (9.2, 9.3), written and not played:
/// a legal move in SAN or UCI, or — since a written move cannot be changed
/// (9.5 a / 9.5.1) and an illegal one makes the claim incorrect — a move
/// that is not legal, read in coordinates (`e1e3`) or as SAN naming the
/// claimant's piece (`Nf3`: the only knight that is written; with no such
/// piece, or several, the move runs from its own arrival square and names
/// no piece). Only text that is not a move at all is refused.
///
/// ```
/// use arbiter_laws::json::read_intended_move;
/// use arbiter_chess::{Position, Square};
/// let pos = Position::standard();
/// let m = read_intended_move(&pos, "Nbd4")?;
/// assert_eq!((m.from, m.to, pos.is_legal(m)), (Square::B1, Square::D4, false));
/// assert_eq!(read_intended_move(&pos, "Nd4")?.from, Square::D4); // two knights: no piece named
/// assert!(read_intended_move(&pos, "Zz9").is_err());
/// # Ok::<_, arbiter_laws::Rejected>(())
/// ```
pub fn read_intended_move(pos: &Position, text: &str) -> Result<Move, Rejected> {
    let error = match read_move(pos, text) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    if let Ok(m) = read_illegal_move(text) {
        return Ok(Move {
            from: m.from,
            to: m.to,
            promotion: m.promotion,
        });
    }
    let us = pos.turn();
    match San::parse(text.trim()) {
        Ok(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        }) => {
            // A pawn's move without capture stays on its file.
            let file = match (role, capture) {
                (Role::Pawn, false) => file.or(Some(to.file())),
                _ => file,
            };
            let mut pieces = pos.board().pieces().filter(|(sq, p)| {
                p.color == us
                    && p.role == role
                    && file.is_none_or(|f| sq.file() == f)
                    && rank.is_none_or(|r| sq.rank() == r)
            });
            let from = match (pieces.next(), pieces.next()) {
                (Some((sq, _)), None) => sq,
                _ => to,
            };
            Ok(Move {
                from,
                to,
                promotion,
            })
        }
        Ok(San::Castle(side)) => Ok(castling_king_move(pos, side)),
        _ => Err(error),
    }
}

/// Castling on `side` as the king's move of two squares (`e1g1`, `e1c1`),
/// legal or not: the king of the player to move in `pos` to the g- or
/// c-file of its rank (3.8; the rook follows it, see the illegal move's
/// position).
fn castling_king_move(pos: &Position, side: CastlingSide) -> Move {
    let king = pos.king_of(pos.turn());
    let file = match side {
        CastlingSide::KingSide => File::G,
        CastlingSide::QueenSide => File::C,
    };
    Move::new(king, Square::from_coords(file, king.rank()))
}

/// An illegal move as an `illegal` line writes it, on the board `pos` it
/// was made on: in coordinates ([`read_illegal_move`]), or castling written
/// `O-O` / `O-O-O` (`0-0`, `0-0-0`), the king's two squares (`e1g1`).
///
/// ```
/// use arbiter_laws::{json::read_illegal_move_on, IllegalMove};
/// use arbiter_chess::{Position, Square};
/// let pos = Position::from_fen_auto("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1")?;
/// assert_eq!(read_illegal_move_on(&pos, "0-0")?, IllegalMove::new(Square::E1, Square::G1));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn read_illegal_move_on(pos: &Position, text: &str) -> Result<IllegalMove, Rejected> {
    let error = match read_illegal_move(text) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    let written = text.trim().replace('0', "O");
    match San::parse(&written) {
        Ok(San::Castle(side)) => {
            let m = castling_king_move(pos, side);
            Ok(IllegalMove::new(m.from, m.to))
        }
        _ => Err(error),
    }
}

/// An illegal move in coordinates (`e1e3`, `e7e8q`, also `e1-e3`), read by
/// the UCI reader of arbiter-chess.
pub fn read_illegal_move(text: &str) -> Result<IllegalMove, Rejected> {
    let unreadable = || Rejected::UnreadableIllegalMove {
        text: text.to_owned(),
    };
    let t: String = text.trim().chars().filter(|&c| c != '-').collect();
    match UciMove::parse(&t.to_ascii_lowercase()) {
        Ok(UciMove::Normal {
            from,
            to,
            promotion,
        }) => Ok(IllegalMove {
            from,
            to,
            promotion,
        }),
        _ => Err(unreadable()),
    }
}

impl Event {
    /// The typed event, its text read against `game` (on the board the move
    /// will be played on). The Laws' refusals that come before reading
    /// (the game over, out of turn, …) come first, as [`Game::apply`] would
    /// give them.
    pub fn to_event(&self, game: &Game) -> Result<typed::Event, Rejected> {
        match &self.action {
            Action::Arbiter {
                decision: Decision::Penalty,
                sanction: Some(kind),
                ..
            } if kind.changes_score() => {
                game.check_time_for(
                    self.t,
                    &typed::Action::Arbiter {
                        decision: typed::Decision::Penalty {
                            offender: Color::White,
                            sanction: typed::Sanction::GameLost {
                                opponent_score: Score::One,
                            },
                        },
                    },
                )?;
            }
            _ => game.check_time(self.t)?,
        }
        let by = Actor::from(self.by);
        if let (Some(c), false) = (self.by, matches!(self.action, Action::Arrive {})) {
            game.require_present(c)?;
        }
        let player = || self.by.ok_or(Rejected::NoPlayer);
        let action = match &self.action {
            Action::Move { mv, two_hands } => {
                let board = game.move_board(player()?)?;
                let mv = read_move(&board, mv)?;
                if *two_hands {
                    typed::Action::MoveTwoHands { mv }
                } else {
                    typed::Action::Move { mv }
                }
            }
            Action::PressClock {} => typed::Action::PressClock,
            Action::Seal { mv } => typed::Action::Seal { text: mv.clone() },
            Action::OfferDraw {} => typed::Action::OfferDraw,
            Action::AcceptDraw {} => typed::Action::AcceptDraw,
            Action::DeclineDraw {} => typed::Action::DeclineDraw,
            Action::Claim { kind, mv } => {
                let draw = matches!(kind, ClaimKind::Threefold | ClaimKind::Fifty);
                let mv = match mv {
                    Some(text) if draw => {
                        game.may_claim_draw(player()?, *kind, true)?;
                        Some(read_intended_move(game.position(), text)?)
                    }
                    _ => None,
                };
                typed::Action::Claim { kind: *kind, mv }
            }
            Action::Resign {} => typed::Action::Resign,
            Action::Flag {} => typed::Action::Flag,
            Action::Touch {
                square,
                piece: Some(piece),
            } => {
                game.may_touch(player()?)?;
                let sq = square
                    .parse::<Square>()
                    .map_err(|_| Rejected::UnreadableSquare {
                        text: square.clone(),
                    })?;
                let mut chars = piece.trim().chars();
                let role = match (chars.next(), chars.next()) {
                    (Some(c), None) => Role::from_char(c.to_ascii_lowercase()),
                    _ => None,
                };
                let piece = role.ok_or_else(|| Rejected::Refused {
                    event: "touch",
                    article: game.rules().articles.promotion_choice.into(),
                    reason: format!("{piece:?} is not a piece: q, r, b or n"),
                })?;
                typed::Action::TouchPromotionPiece { square: sq, piece }
            }
            Action::Touch {
                square,
                piece: None,
            } => {
                game.may_touch(player()?)?;
                let square = square
                    .parse::<Square>()
                    .map_err(|_| Rejected::UnreadableSquare {
                        text: square.clone(),
                    })?;
                typed::Action::Touch { square }
            }
            Action::Illegal { mv, noticed } => {
                game.may_move_illegally(player()?)?;
                let mv = read_illegal_move_on(game.position(), mv)?;
                if *noticed {
                    typed::Action::Illegal { mv }
                } else {
                    typed::Action::IllegalUnnoticed { mv }
                }
            }
            Action::Arbiter {
                decision,
                player,
                ms,
                sanction,
                score,
                in_bag,
                white,
                black,
                restart,
            } => typed::Action::Arbiter {
                decision: decision.with(
                    &DecisionArgs {
                        player: *player,
                        ms: *ms,
                        sanction: *sanction,
                        score: score.as_deref(),
                        in_bag: *in_bag,
                        clocks: Some((*white, *black)),
                        restart: *restart,
                    },
                    game.rules(),
                )?,
            },
            Action::Arrive {} => typed::Action::Arrive,
            Action::Forfeit {
                player,
                ground,
                reason,
            } => typed::Action::Forfeit {
                player: player.ok_or(Rejected::ForfeitWithoutPlayer)?,
                ground: *ground,
                reason: reason.clone(),
            },
            Action::Adjudicate {
                result,
                ground,
                reason,
            } => typed::Action::Adjudicate {
                result: *result,
                ground: *ground,
                reason: reason.clone(),
            },
        };
        Ok(typed::Event {
            t: self.t,
            by,
            action,
        })
    }

    /// The wire form of `event`, about to be applied to `game` (moves in SAN
    /// on the board they are played on).
    pub fn from_event(event: &typed::Event, game: &Game) -> Event {
        let san = |pos: &Position, m: Move| pos.san(m);
        let action = match &event.action {
            typed::Action::Move { mv } => {
                let board = event
                    .by
                    .player()
                    .and_then(|by| game.move_board(by).ok())
                    .unwrap_or(*game.position());
                Action::Move {
                    mv: san(&board, *mv),
                    two_hands: false,
                }
            }
            typed::Action::MoveTwoHands { mv } => Action::Move {
                mv: san(game.position(), *mv),
                two_hands: true,
            },
            typed::Action::PressClock => Action::PressClock {},
            typed::Action::Seal { text } => Action::Seal { mv: text.clone() },
            typed::Action::OfferDraw => Action::OfferDraw {},
            typed::Action::AcceptDraw => Action::AcceptDraw {},
            typed::Action::DeclineDraw => Action::DeclineDraw {},
            typed::Action::Claim { kind, mv } => Action::Claim {
                kind: *kind,
                mv: mv.map(|m| {
                    if game.position().is_legal(m) {
                        san(game.position(), m)
                    } else {
                        IllegalMove {
                            from: m.from,
                            to: m.to,
                            promotion: m.promotion,
                        }
                        .to_string()
                    }
                }),
            },
            typed::Action::Resign => Action::Resign {},
            typed::Action::Flag => Action::Flag {},
            typed::Action::TouchPromotionPiece { square, piece } => Action::Touch {
                square: square.to_string(),
                piece: Some(piece.char().to_string()),
            },
            typed::Action::Touch { square } => Action::Touch {
                piece: None,
                square: square.to_string(),
            },
            typed::Action::Illegal { mv } => Action::Illegal {
                mv: mv.to_string(),
                noticed: true,
            },
            typed::Action::IllegalUnnoticed { mv } => Action::Illegal {
                mv: mv.to_string(),
                noticed: false,
            },
            typed::Action::Arrive => Action::Arrive {},
            typed::Action::Arbiter { decision } => {
                let f = Decision::fields_of(*decision);
                Action::Arbiter {
                    decision: f.decision,
                    player: f.player,
                    ms: f.ms,
                    sanction: f.sanction,
                    score: f.score,
                    in_bag: f.in_bag,
                    white: f.clocks.map(|c| c.0),
                    black: f.clocks.map(|c| c.1),
                    restart: f.restart,
                }
            }
            typed::Action::Forfeit {
                player,
                ground,
                reason,
            } => Action::Forfeit {
                player: Some(*player),
                ground: *ground,
                reason: reason.clone(),
            },
            typed::Action::Adjudicate {
                result,
                ground,
                reason,
            } => Action::Adjudicate {
                result: *result,
                ground: *ground,
                reason: reason.clone(),
            },
        };
        Event {
            t: event.t,
            by: event.by.player(),
            action,
        }
    }
}

/// Reads `event` against `game` and applies it. On `Err` nothing has changed.
pub fn apply(game: &mut Game, event: &Event) -> Result<Applied, Rejected> {
    let typed = event.to_event(game)?;
    let written = match &event.action {
        Action::Claim { mv: Some(text), .. } => Some(text.as_str()),
        _ => None,
    };
    game.apply_as_written(typed, written)
}

/// [`Game::read_ahead`] on a record's lines: the moves (and intended moves
/// of claims) read from the position on the board while they are legal, up
/// to an `illegal` line. Returns how many positions were proven alive.
pub fn read_ahead<'a>(game: &mut Game, events: impl IntoIterator<Item = &'a Event>) -> usize {
    let mut p = *game.position();
    let mut line = Vec::new();
    for e in events {
        let text = match &e.action {
            Action::Move { mv, .. } | Action::Claim { mv: Some(mv), .. } | Action::Seal { mv } => {
                mv
            }
            Action::Illegal { .. } => break,
            _ => continue,
        };
        let Ok(m) = read_move(&p, text) else {
            break;
        };
        p.play_unchecked(m);
        line.push(m);
    }
    game.read_ahead_line(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Event {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn out_of_turn_comes_before_the_unreadable_move() {
        let game = Game::new(typed::Start::default()).unwrap();
        let e = line(r#"{"t": 0, "by": "black", "do": "move", "move": "Zz9"}"#);
        assert!(matches!(
            e.to_event(&game),
            Err(Rejected::NotYourMove { .. })
        ));
        let e = line(r#"{"t": 0, "by": "white", "do": "move", "move": "Zz9"}"#);
        assert!(matches!(
            e.to_event(&game),
            Err(Rejected::UnreadableMove { .. })
        ));
    }

    #[test]
    fn typed_and_wire_round_trip() {
        let start = typed::Start {
            touch_move: true,
            ..typed::Start::default()
        };
        let game = Game::new(start).unwrap();
        for text in [
            r#"{"t":5,"by":"white","do":"move","move":"Nf3"}"#,
            r#"{"t":5,"by":"white","do":"claim","kind":"threefold","move":"e4"}"#,
            r#"{"t":5,"by":"white","do":"touch","square":"e2"}"#,
            r#"{"t":5,"by":"white","do":"illegal","move":"e1e3"}"#,
            r#"{"t":5,"do":"arbiter","decision":"add_time","player":"black","ms":1000}"#,
            r#"{"t":5,"do":"forfeit","player":"black","ground":"penalty","reason":"r"}"#,
            r#"{"t":5,"do":"adjudicate","result":"1/2-0","ground":"match_rule"}"#,
        ] {
            let wire = line(text);
            let typed = wire.to_event(&game).unwrap();
            let back = Event::from_event(&typed, &game);
            assert_eq!(serde_json::to_string(&back).unwrap(), text);
        }
    }

    #[test]
    fn illegal_moves_read_in_coordinates() {
        assert_eq!(
            read_illegal_move("e7-e8").unwrap(),
            IllegalMove::new(Square::E7, Square::E8)
        );
        assert!(matches!(
            read_illegal_move("Ke3"),
            Err(Rejected::UnreadableIllegalMove { .. })
        ));
    }
}
