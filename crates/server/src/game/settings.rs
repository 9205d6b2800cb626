//! Creating a game (protocol §3.1): the request, its validation, and the
//! settings stored with the game.

use crate::display_name::check_visible_name;
use crate::error::ApiError;
use crate::protocol::{Color, Mode, Variant, WireDelay};
use arbiter_laws::Edition;
use arbiter_pgn::TimeControl;
use serde::{Deserialize, Serialize};

/// The body of `POST /api/games`. Unknown fields are ignored.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct CreateRequest {
    /// `engine`, `invite`, `local`.
    pub mode: Option<serde_json::Value>,
    /// `{ "level": 1..7 }`.
    pub engine: Option<serde_json::Value>,
    /// `white`, `black`, `random`.
    pub color: Option<serde_json::Value>,
    /// PGN TimeControl subset.
    pub time_control: Option<serde_json::Value>,
    /// Delay.
    pub delay: Option<serde_json::Value>,
    /// `standard` / `chess960`.
    pub variant: Option<serde_json::Value>,
    /// 0..959 or null.
    pub chess960_position: Option<serde_json::Value>,
    /// `2014` / `2018` / `2023`.
    pub edition: Option<serde_json::Value>,
    /// Touch-move.
    pub touch_move: Option<serde_json::Value>,
    /// Display name.
    pub name: Option<serde_json::Value>,
    /// A set-up starting position (FEN), standard variant only (an extension
    /// of protocol §3.1).
    pub fen: Option<serde_json::Value>,
    /// Rated (`true`) or casual: invitations with a clock only, created and
    /// joined from accounts (issue 15; §3.1).
    pub rated: Option<serde_json::Value>,
    /// `true`: list the invitation in the lobby of open seeks (§3.8).
    pub lobby: Option<serde_json::Value>,
}

/// The settings of a game, fixed at creation and stored with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Mode.
    pub mode: Mode,
    /// Engine level 1..7 (engine mode).
    pub engine_level: Option<u8>,
    /// The creator's colour (White in local mode).
    pub creator: Color,
    /// Variant.
    pub variant: Variant,
    /// The Chess960 number (drawn at creation when random).
    pub chess960_position: Option<u32>,
    /// The edition of the Laws the game is played under (stored as
    /// `"2014"`, `"2018"`, `"2023"`).
    pub edition: Edition,
    /// The time control (stored as its PGN text, `"-"` for none).
    #[serde(with = "tc_text")]
    pub time_control: TimeControl,
    /// Delay per move.
    pub delay: Option<WireDelay>,
    /// Touch-move enforced.
    pub touch_move: bool,
    /// A set-up starting position, if not the initial one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// A rated game: its end moves both players' ratings (issue 15).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The account (user id) that created the game, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creator_account: Option<String>,
    /// The event (tournament) this game is a board of (issue 15): its end
    /// writes the board's result in the same transaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
}

/// Longest time-control text accepted.
const MAX_TC_LEN: usize = 64;
/// Most periods accepted.
const MAX_PERIODS: usize = 5;
/// The largest time of a period: 24 hours, in ms.
const MAX_PERIOD_MS: u64 = 86_400_000;
/// The largest increment: one hour, in ms.
const MAX_INCREMENT_MS: u64 = 3_600_000;

/// Reads a time control a game can be played with (§3.1): the PGN
/// `TimeControl` tag read by `arbiter-pgn` (the one parser), then held to
/// what a game under the Laws can run (Art. 6): whole seconds, at least one
/// second per period, every period but the last with a move count, the last
/// without, at most five periods of at most 24 hours. `-` is no clock;
/// `?` (unknown) and the sandglass `*S` are refused.
///
/// ```
/// use arbiter_server::game::settings::playable_time_control;
/// use arbiter_pgn::TimeControl;
///
/// let tc = playable_time_control("40/5400+30:1800+30").unwrap();
/// assert_eq!(tc.periods().len(), 2);
/// assert_eq!(playable_time_control("-").unwrap(), TimeControl::Untimed);
/// assert!(playable_time_control("*60").unwrap_err().contains("sandglass"));
/// ```
pub fn playable_time_control(text: &str) -> Result<TimeControl, String> {
    if text.len() > MAX_TC_LEN {
        return Err(format!("time_control: longer than {MAX_TC_LEN} characters"));
    }
    let tc = TimeControl::parse(text).map_err(|e| format!("time_control: {e}"))?;
    let periods = match &tc {
        TimeControl::Untimed => return Ok(tc),
        TimeControl::Unknown => {
            return Err("time_control: \"?\" (unknown) cannot be played".into());
        }
        TimeControl::Hourglass { .. } => {
            return Err("time_control: the sandglass (*S) is not part of the FIDE Laws".into());
        }
        TimeControl::Periods(p) => p,
    };
    if periods.len() > MAX_PERIODS {
        return Err(format!("time_control: more than {MAX_PERIODS} periods"));
    }
    for (k, p) in periods.iter().enumerate() {
        let i = k + 1;
        if p.time_ms % 1000 != 0 || p.increment_ms % 1000 != 0 {
            return Err(format!("time_control: period {i} is not in whole seconds"));
        }
        if p.time_ms < 1000 {
            return Err(format!("time_control: period {i} has no seconds"));
        }
        if p.time_ms > MAX_PERIOD_MS || p.increment_ms > MAX_INCREMENT_MS {
            return Err(format!("time_control: period {i} is longer than 24 hours"));
        }
        match (p.moves, k + 1 == periods.len()) {
            (None, false) => {
                return Err(format!(
                    "time_control: period {i} needs a move count (\"40/5400\")"
                ))
            }
            (Some(_), true) => return Err("time_control: the last period has no move count".into()),
            _ => {}
        }
    }
    Ok(tc)
}

/// The time control in storage: its PGN text.
mod tc_text {
    use arbiter_pgn::TimeControl;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(tc: &TimeControl, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(tc)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TimeControl, D::Error> {
        let text = String::deserialize(d)?;
        TimeControl::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// A display name (§3.1): control characters stripped, then
/// [`check_visible_name`] (§2.1: nothing invisible, nothing blank), 1–40
/// characters; `None` when absent.
pub fn clean_name(value: Option<&serde_json::Value>) -> Result<Option<String>, ApiError> {
    match value {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(s)) => {
            let cleaned: String = s.chars().filter(|c| !c.is_control()).collect();
            let name = check_visible_name("name", &cleaned)?;
            if name.chars().count() > 40 {
                return Err(ApiError::invalid("name", "name: at most 40 characters"));
            }
            Ok(Some(name.to_owned()))
        }
        Some(_) => Err(ApiError::invalid("name", "name: a string")),
    }
}

fn string_field<'a>(
    v: Option<&'a serde_json::Value>,
    field: &str,
    default: &'a str,
) -> Result<&'a str, ApiError> {
    match v {
        None | Some(serde_json::Value::Null) => Ok(default),
        Some(serde_json::Value::String(s)) => Ok(s.as_str()),
        Some(_) => Err(ApiError::invalid(field, format!("{field}: a string"))),
    }
}

impl CreateRequest {
    /// Is the game to be listed in the lobby (§3.8)? Only an invitation.
    pub fn lobby(&self, mode: Mode) -> Result<bool, ApiError> {
        match &self.lobby {
            None | Some(serde_json::Value::Null) | Some(serde_json::Value::Bool(false)) => {
                Ok(false)
            }
            Some(serde_json::Value::Bool(true)) if mode == Mode::Invite => Ok(true),
            Some(serde_json::Value::Bool(true)) => Err(ApiError::invalid(
                "lobby",
                "lobby: only an invitation game is listed in the lobby",
            )),
            Some(_) => Err(ApiError::invalid("lobby", "lobby: true or false")),
        }
    }

    /// Validates the request; `random` picks for the colour and the Chess960
    /// number are drawn by `pick_color` / `pick_960`. Returns the settings
    /// and the creator's name.
    pub fn validate(
        &self,
        pick_color: impl FnOnce() -> Color,
        pick_960: impl FnOnce() -> u32,
    ) -> Result<(Settings, Option<String>), ApiError> {
        let mode = match string_field(self.mode.as_ref(), "mode", "")? {
            "engine" => Mode::Engine,
            "invite" => Mode::Invite,
            "local" => Mode::Local,
            other => {
                return Err(ApiError::invalid(
                    "mode",
                    format!("mode: {other:?} is not engine, invite or local"),
                ))
            }
        };
        let engine_level = match (mode, &self.engine) {
            (Mode::Engine, Some(e)) => {
                let level = e.get("level").and_then(serde_json::Value::as_u64);
                match level {
                    Some(l @ 1..=7) => Some(l as u8),
                    _ => return Err(ApiError::invalid("engine", "engine.level: 1 to 7")),
                }
            }
            (Mode::Engine, None) => {
                return Err(ApiError::invalid(
                    "engine",
                    "engine: required in engine mode",
                ))
            }
            _ => None,
        };
        let creator = match string_field(self.color.as_ref(), "color", "random")? {
            _ if mode == Mode::Local => Color::White,
            "white" => Color::White,
            "black" => Color::Black,
            "random" => pick_color(),
            other => {
                return Err(ApiError::invalid(
                    "color",
                    format!("color: {other:?} is not white, black or random"),
                ))
            }
        };
        let time_control = string_field(self.time_control.as_ref(), "time_control", "-")?;
        let time_control = playable_time_control(time_control)
            .map_err(|m| ApiError::invalid("time_control", m))?;
        let delay = match &self.delay {
            None | Some(serde_json::Value::Null) => None,
            Some(v) => {
                let d: WireDelay = serde_json::from_value(v.clone()).map_err(|_| {
                    ApiError::invalid(
                        "delay",
                        "delay: { \"kind\": \"bronstein\" | \"simple\", \"ms\": 1..600000 }",
                    )
                })?;
                if !(1..=600_000).contains(&d.ms) {
                    return Err(ApiError::invalid("delay", "delay: ms must be 1 to 600000"));
                }
                if time_control.periods().is_empty() {
                    return Err(ApiError::invalid("delay", "delay: needs a time control"));
                }
                if time_control.periods().iter().any(|p| p.increment_ms > 0) {
                    return Err(ApiError::invalid(
                        "delay",
                        "delay: every period's increment must be 0 with a delay",
                    ));
                }
                Some(d)
            }
        };
        let variant = match string_field(self.variant.as_ref(), "variant", "standard")? {
            "standard" => Variant::Standard,
            "chess960" => Variant::Chess960,
            other => {
                return Err(ApiError::invalid(
                    "variant",
                    format!("variant: {other:?} is not standard or chess960"),
                ))
            }
        };
        let chess960_position = match variant {
            Variant::Standard => None,
            Variant::Chess960 => match &self.chess960_position {
                None | Some(serde_json::Value::Null) => Some(pick_960()),
                Some(v) => match v.as_u64() {
                    Some(n @ 0..=959) => Some(n as u32),
                    _ => {
                        return Err(ApiError::invalid(
                            "chess960_position",
                            "chess960_position: an integer 0 to 959 or null",
                        ))
                    }
                },
            },
        };
        let edition = match string_field(self.edition.as_ref(), "edition", "2014")? {
            "2014" => Edition::Fide2014,
            "2018" => Edition::Fide2018,
            "2023" => Edition::Fide2023,
            other => {
                return Err(ApiError::invalid(
                    "edition",
                    format!("edition: {other:?} is not 2014, 2018 or 2023"),
                ))
            }
        };
        let touch_move = match &self.touch_move {
            None | Some(serde_json::Value::Null) => false,
            Some(serde_json::Value::Bool(b)) => *b,
            Some(_) => return Err(ApiError::invalid("touch_move", "touch_move: true or false")),
        };
        let name = clean_name(self.name.as_ref())?;
        let fen = match &self.fen {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(f))
                if f.len() <= 120 && variant == Variant::Standard =>
            {
                Some(f.trim().to_owned())
            }
            Some(_) => {
                return Err(ApiError::invalid(
                    "fen",
                    "fen: a FEN of at most 120 characters, standard variant only",
                ))
            }
        };
        let rated = match &self.rated {
            None | Some(serde_json::Value::Null) | Some(serde_json::Value::Bool(false)) => false,
            Some(serde_json::Value::Bool(true)) => true,
            Some(_) => return Err(ApiError::invalid("rated", "rated: true or false")),
        };
        if rated && mode != Mode::Invite {
            return Err(ApiError::invalid(
                "rated",
                "rated: engine and one-screen games are unrated",
            ));
        }
        if rated && time_control.periods().is_empty() {
            return Err(ApiError::invalid(
                "rated",
                "rated: a rated game needs a clock (its time class)",
            ));
        }
        if rated && fen.is_some() {
            return Err(ApiError::invalid(
                "rated",
                "rated: a game from a set-up position is unrated",
            ));
        }
        Ok((
            Settings {
                mode,
                engine_level,
                creator,
                variant,
                chess960_position,
                edition,
                time_control,
                delay,
                touch_move,
                fen,
                rated,
                creator_account: None,
                event: None,
            },
            name,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_of_the_protocol() {
        for ok in [
            "60+0",
            "180+2",
            "300",
            "5400+30",
            "40/5400+30:1800+30",
            "40/7200:20/3600:900+30",
        ] {
            let tc = playable_time_control(ok).unwrap();
            assert!(!tc.periods().is_empty(), "{ok}");
            // The text read back is the same control.
            assert_eq!(playable_time_control(&tc.to_string()).unwrap(), tc, "{ok}");
        }
        assert_eq!(playable_time_control("-").unwrap(), TimeControl::Untimed);
        let tc = playable_time_control("40/5400+30:1800+30").unwrap();
        assert_eq!(
            tc.periods(),
            [
                arbiter_pgn::Period {
                    moves: Some(40),
                    time_ms: 5_400_000,
                    increment_ms: 30_000
                },
                arbiter_pgn::Period {
                    moves: None,
                    time_ms: 1_800_000,
                    increment_ms: 30_000
                }
            ]
        );
        for (bad, why) in [
            ("?", "unknown"),
            ("*60", "sandglass"),
            ("", "empty"),
            ("0+2", "period 1 has no seconds"),
            ("300:60", "period 1 needs a move count"),
            ("40/300", "last period has no move count"),
            ("a+b", "character 1"),
            ("60+", "character 4"),
            ("1.5+0", "whole seconds"),
            ("40/0+1:60", "period 1 has no seconds"),
            ("0/60:60", "character 1"),
            ("99999999999", "longer than 24 hours"),
            ("40/5400+30:1800+30:", "character 20"),
            ("1/1:1/1:1/1:1/1:1/1:60", "more than 5 periods"),
        ] {
            let e = playable_time_control(bad).unwrap_err();
            assert!(
                e.starts_with("time_control: ") && e.contains(why),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn settings_are_stored_as_before() {
        let (s, _) =
            req(r#"{"mode":"local","time_control":"40/5400+30:1800+30","edition":"2023"}"#)
                .validate(|| Color::White, || 0)
                .unwrap();
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["time_control"], "40/5400+30:1800+30");
        assert_eq!(json["edition"], "2023");
        let back: Settings = serde_json::from_value(json).unwrap();
        assert_eq!(back, s);
        // A row written before the settings were typed.
        let old = r#"{"mode":"local","engine_level":null,"creator":"white","variant":"standard","chess960_position":null,"edition":"2018","time_control":"600+0","delay":null,"touch_move":false}"#;
        let old: Settings = serde_json::from_str(old).unwrap();
        assert_eq!(old.edition, Edition::Fide2018);
        assert_eq!(old.time_control, TimeControl::fischer(10, 0));
    }

    fn req(json: &str) -> CreateRequest {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn requests_are_validated_field_by_field() {
        let (s, name) = req(r#"{"mode":"engine","engine":{"level":3},"color":"white","time_control":"300+3","name":"  Anna\u0007 "}"#)
            .validate(|| Color::Black, || 0)
            .unwrap();
        assert_eq!(s.mode, Mode::Engine);
        assert_eq!(s.engine_level, Some(3));
        assert_eq!(s.creator, Color::White);
        assert_eq!(s.edition, Edition::Fide2014);
        assert_eq!(name.as_deref(), Some("Anna"));
        let (s, _) =
            req(r#"{"mode":"invite","color":"random","variant":"chess960","time_control":"-"}"#)
                .validate(|| Color::Black, || 7)
                .unwrap();
        assert_eq!((s.creator, s.chess960_position), (Color::Black, Some(7)));
        let cases = [
            (r#"{"mode":"bot"}"#, "mode"),
            (r#"{"mode":"engine"}"#, "engine"),
            (r#"{"mode":"engine","engine":{"level":9}}"#, "engine"),
            (r#"{"mode":"local","time_control":"*60"}"#, "time_control"),
            (
                r#"{"mode":"local","time_control":"60+1","delay":{"kind":"simple","ms":5000}}"#,
                "delay",
            ),
            (
                r#"{"mode":"local","time_control":"60","delay":{"kind":"hourglass","ms":5000}}"#,
                "delay",
            ),
            (
                r#"{"mode":"local","variant":"chess960","chess960_position":960}"#,
                "chess960_position",
            ),
            (r#"{"mode":"local","edition":"2020"}"#, "edition"),
            (r#"{"mode":"local","touch_move":"yes"}"#, "touch_move"),
            (
                r#"{"mode":"local","name":"0123456789012345678901234567890123456789x"}"#,
                "name",
            ),
            (r#"{"mode":"invite","color":"green"}"#, "color"),
            (
                r#"{"mode":"engine","engine":{"level":1},"time_control":"60+0","rated":true}"#,
                "rated",
            ),
            (
                r#"{"mode":"local","time_control":"60+0","rated":true}"#,
                "rated",
            ),
            (
                r#"{"mode":"invite","time_control":"-","rated":true}"#,
                "rated",
            ),
            (
                r#"{"mode":"invite","time_control":"60+0","rated":"yes"}"#,
                "rated",
            ),
        ];
        for (json, field) in cases {
            let e = req(json).validate(|| Color::White, || 0).unwrap_err();
            assert_eq!(e.field.as_deref(), Some(field), "{json}: {}", e.message);
        }
    }
}
