//! The arbiter's actions on an event, each under the event's lock and
//! committed before it is answered: registration, withdrawal, requested
//! byes (C.04.1), the start (pairing numbers by rating, C.04.2 A.2), the
//! pairing of a round with its games, results and their corrections,
//! forfeits (Art. 10.1, 6.7), the end.

use super::model::{self, PairRefused, Settings, System};
use crate::error::ApiError;
use crate::game::core::GameCore;
use crate::protocol::{Color, Mode, Variant};
use crate::store::account::UserRow;
use crate::store::tournament::{BoardRow, LoadedTournament, Op, PlayerRow};
use crate::store::WriteOp;
use crate::App;
use axum::http::StatusCode;
use std::sync::Arc;

/// An event's stored state and its settings.
pub struct Loaded {
    /// The stored state.
    pub t: LoadedTournament,
    /// Its settings.
    pub s: Settings,
}

/// 409 with `code`.
pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, code, message)
}

/// The event `id`, or 404.
pub async fn load(app: &App, id: &str) -> Result<Loaded, ApiError> {
    if !crate::game::registry::valid_id(id) {
        return Err(ApiError::not_found("no such event"));
    }
    let t = app
        .store
        .tournament(id.to_owned())
        .await?
        .ok_or_else(|| ApiError::not_found("no such event"))?;
    let s = model::settings_of(&t)?;
    Ok(Loaded { t, s })
}

fn write(op: Op) -> WriteOp {
    WriteOp::Tournament(op)
}

/// A user's rating in the event's time class, rounded (0: none yet).
async fn rating_of(app: &App, user: &str, s: &Settings) -> Result<u16, ApiError> {
    let class = crate::account::rating::TimeClass::of(&s.time_control());
    let rows = app.store.ratings(user.to_owned()).await?;
    Ok(rows
        .iter()
        .find(|r| r.time_class == class.as_str() && r.games > 0)
        .map_or(0, |r| r.rating.round().clamp(0.0, 3000.0) as u16))
}

/// `user` registers (or, `late`, is entered by the organiser into a
/// running Swiss: paired from the next round, C.04.1); returns his number.
pub async fn register(app: &App, id: &str, user: &UserRow, late: bool) -> Result<u16, ApiError> {
    let _lock = app.events.lock(id).await;
    let Loaded { t, s } = load(app, id).await?;
    match (t.row.status.as_str(), late) {
        ("registration", false) => {}
        ("registration", true) => {
            return Err(conflict(
                "late_entry_refused",
                "the event has not started: players register themselves (§9.3); a late entry is for a running Swiss",
            ))
        }
        ("running", true) if s.system == System::Swiss => {}
        ("running", true) => {
            return Err(conflict(
                "late_entry_refused",
                "a round-robin takes no late entries (C.05: its pairings are fixed at the start)",
            ))
        }
        _ => return Err(conflict("registration_closed", "registration is closed")),
    }
    if let Some(p) = t.players.iter().find(|p| p.user_id == user.id) {
        return Err(conflict(
            "already_registered",
            format!("already registered as number {}", p.no),
        ));
    }
    let max = match s.system {
        System::Swiss => model::MAX_PLAYERS,
        System::RoundRobin => model::MAX_ROUND_ROBIN_PLAYERS,
    };
    if t.players.len() as u32 >= max {
        return Err(conflict(
            "event_full",
            format!("the event has its {max} players"),
        ));
    }
    let player = PlayerRow {
        tournament_id: id.to_owned(),
        user_id: user.id.clone(),
        no: 0,
        name: user.name.clone(),
        rating: rating_of(app, &user.id, &s).await?,
        withdrawn: false,
        registered_at: app.clock.now_ms(),
    };
    app.store
        .write(vec![write(Op::Register { player, max })])
        .await?;
    let t = load(app, id).await?.t;
    t.players
        .iter()
        .find(|p| p.user_id == user.id)
        .map(|p| p.no)
        .ok_or_else(|| conflict("event_full", format!("the event has its {max} players")))
}

/// `user` withdraws: before the start his registration is cancelled; in a
/// running event he is paired no more (C.04.1; in a round-robin his games
/// still to come are forfeits).
pub async fn withdraw(app: &App, id: &str, user: &UserRow) -> Result<(), ApiError> {
    let _lock = app.events.lock(id).await;
    let Loaded { t, .. } = load(app, id).await?;
    if !t.players.iter().any(|p| p.user_id == user.id) {
        return Err(conflict("not_registered", "not registered in this event"));
    }
    let op = match t.row.status.as_str() {
        "registration" => Op::Unregister {
            id: id.to_owned(),
            user_id: user.id.clone(),
        },
        "running" => Op::SetWithdrawn {
            id: id.to_owned(),
            user_id: user.id.clone(),
            withdrawn: true,
        },
        _ => return Err(conflict("event_finished", "the event is over")),
    };
    app.store.write(vec![write(op)]).await?;
    Ok(())
}

/// `user` asks in advance for a half-point bye in `round` of a Swiss
/// (C.04.1: allowed up to the event's `half_byes`, for a round not yet
/// paired, never the last).
pub async fn request_bye(app: &App, id: &str, user: &UserRow, round: u16) -> Result<(), ApiError> {
    let _lock = app.events.lock(id).await;
    let Loaded { t, s } = load(app, id).await?;
    if s.system != System::Swiss || s.half_byes == 0 {
        return Err(conflict(
            "bye_not_allowed",
            "this event allows no half-point byes",
        ));
    }
    if t.row.status == "finished" {
        return Err(conflict("event_finished", "the event is over"));
    }
    if !t
        .players
        .iter()
        .any(|p| p.user_id == user.id && !p.withdrawn)
    {
        return Err(conflict("not_registered", "not registered in this event"));
    }
    let paired = model::rounds_paired(&t);
    if round <= paired || round == 0 || round >= s.rounds {
        return Err(ApiError::invalid(
            "round",
            format!(
                "round: a round not yet paired and not the last: {} to {}",
                paired + 1,
                s.rounds.saturating_sub(1)
            ),
        ));
    }
    let mine: Vec<u16> = t
        .byes
        .iter()
        .filter(|(u, _)| *u == user.id)
        .map(|(_, r)| *r)
        .collect();
    if mine.contains(&round) {
        return Ok(());
    }
    if mine.len() >= usize::from(s.half_byes) {
        return Err(conflict(
            "bye_not_allowed",
            format!("at most {} half-point byes per player", s.half_byes),
        ));
    }
    app.store
        .write(vec![write(Op::RequestBye {
            id: id.to_owned(),
            user_id: user.id.clone(),
            round,
        })])
        .await?;
    Ok(())
}

/// The event starts: pairing numbers by rating (then name, then
/// registration; C.04.2 A.2), and round 1 is paired. Returns the round.
pub async fn start(app: &Arc<App>, id: &str) -> Result<u16, ApiError> {
    let _lock = app.events.lock(id).await;
    start_locked(app, id).await
}

async fn start_locked(app: &Arc<App>, id: &str) -> Result<u16, ApiError> {
    let Loaded { t, .. } = load(app, id).await?;
    if t.row.status != "registration" {
        return Err(conflict("already_started", "the event has started"));
    }
    if t.players.len() < 2 {
        return Err(conflict(
            "too_few_players",
            "an event needs at least 2 players",
        ));
    }
    let mut order: Vec<&PlayerRow> = t.players.iter().collect();
    order.sort_by(|a, b| {
        b.rating
            .cmp(&a.rating)
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
            .then(a.registered_at.cmp(&b.registered_at))
    });
    let numbers = order
        .iter()
        .enumerate()
        .map(|(i, p)| (p.user_id.clone(), i as u16 + 1))
        .collect();
    app.store
        .write(vec![
            write(Op::Number {
                id: id.to_owned(),
                numbers,
            }),
            write(Op::SetStatus {
                id: id.to_owned(),
                status: "running".into(),
            }),
        ])
        .await?;
    let loaded = load(app, id).await?;
    pair_locked(app, &loaded, None).await
}

/// A Swiss round as the arbiter pairs it by hand (protocol §9.4).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandPairing {
    /// (white, black) by pairing number, board by board.
    pub pairs: Vec<(u16, u16)>,
    /// The player given the pairing-allocated bye.
    pub bye: Option<u16>,
}

/// The organiser pairs the next round (C.04.3 / C.05), or pairs it by
/// `hand`. Returns it.
pub async fn pair(app: &Arc<App>, id: &str, hand: Option<&HandPairing>) -> Result<u16, ApiError> {
    let _lock = app.events.lock(id).await;
    let loaded = load(app, id).await?;
    if loaded.t.row.status != "running" {
        return Err(conflict("not_running", "the event is not running"));
    }
    pair_locked(app, &loaded, hand).await
}

/// Creates the game of a board: an invitation already joined, White's
/// seat the white player's account's, Black's the black player's; White's
/// clock runs from now (6.5 / 6.6).
fn board_game(
    s: &Settings,
    event: &str,
    white: &PlayerRow,
    black: &PlayerRow,
    now: u64,
) -> Result<(GameCore, Vec<WriteOp>), ApiError> {
    let settings = crate::game::settings::Settings {
        mode: Mode::Invite,
        engine_level: None,
        creator: Color::White,
        variant: Variant::Standard,
        chess960_position: None,
        edition: s.edition,
        time_control: s.time_control(),
        delay: None,
        touch_move: s.touch_move,
        fen: None,
        rated: s.rated,
        creator_account: Some(white.user_id.clone()),
        event: Some(event.to_owned()),
    };
    let hash = || crate::seat::hash_token(&crate::seat::new_token());
    let mut core = GameCore::create(
        crate::http::new_id(),
        settings,
        Some(white.name.clone()),
        hash(),
        now,
    )
    .map_err(ApiError::internal)?;
    let mut ops = core.creation_writes();
    let joined = core
        .join(
            hash(),
            Some(black.name.clone()),
            Some(black.user_id.clone()),
            now,
        )
        .map_err(|(_, m)| ApiError::internal(m))?;
    ops.extend(joined.into_parts().0);
    Ok((core, ops))
}

async fn pair_locked(
    app: &Arc<App>,
    loaded: &Loaded,
    hand: Option<&HandPairing>,
) -> Result<u16, ApiError> {
    let Loaded { t, s } = loaded;
    let paired = match hand {
        None => model::pair_next(t, s),
        Some(h) => model::pair_by_hand(t, s, &h.pairs, h.bye),
    };
    let (round, mut boards) = paired.map_err(|e| match e {
        PairRefused::Pairing(m) => conflict(
            "no_valid_pairing",
            format!("C.04.3: {m}; the arbiter pairs the round by hand (§9.4)"),
        ),
        PairRefused::Hand(m) => ApiError::invalid("boards", m),
        e => conflict("cannot_pair", e.to_string()),
    })?;
    let now = app.clock.now_ms();
    let player = |no: u16| t.players.iter().find(|p| p.no == no);
    let mut ops = Vec::new();
    let mut cores = Vec::new();
    for b in boards.iter_mut() {
        let (Some(black), true) = (b.black, b.result.is_empty()) else {
            continue;
        };
        let (Some(w), Some(bl)) = (player(b.white), player(black)) else {
            return Err(ApiError::internal("a paired player is missing"));
        };
        let (core, writes) = board_game(s, &t.row.id, w, bl, now)?;
        b.game_id = Some(core.id.clone());
        ops.extend(writes);
        cores.push(core);
    }
    ops.push(write(Op::Pair {
        id: t.row.id.clone(),
        round,
        at: now,
        boards,
    }));
    // In a cluster the node that paired the round owns its games (as a
    // game created over HTTP, `http::create`).
    let ids: Vec<&str> = cores.iter().map(|c| c.id.as_str()).collect();
    crate::cluster::ownership::create_games(app, &ids, ops).await?;
    for core in cores {
        app.registry.start(app, core).await;
    }
    app.events.paired(&t.row.id);
    app.events.wake.notify_one();
    Ok(round)
}

/// A result code the organiser may enter.
pub fn parse_result(v: &serde_json::Value) -> Result<String, ApiError> {
    let s = v.as_str().unwrap_or("");
    model::sides(s)
        .filter(|_| !s.is_empty())
        .map(|_| s.to_owned())
        .ok_or_else(|| {
            ApiError::invalid(
                "result",
                "result: \"1-0\", \"0-1\", \"1/2-1/2\", \"+-\", \"-+\" or \"--\"",
            )
        })
}

/// The organiser enters or corrects the result of a board (Art. 12: the
/// arbiter's record; the standings follow, C.07).
pub async fn set_result(
    app: &Arc<App>,
    id: &str,
    round: u16,
    board: u16,
    result: String,
) -> Result<(), ApiError> {
    let _lock = app.events.lock(id).await;
    let Loaded { t, .. } = load(app, id).await?;
    let Some(b) = t
        .boards
        .iter()
        .find(|b| b.round == round && b.board == board)
    else {
        return Err(ApiError::invalid(
            "board",
            format!("round {round} has no board {board}"),
        ));
    };
    if b.black.is_none() {
        return Err(ApiError::invalid(
            "board",
            format!("board {board} of round {round} is a bye"),
        ));
    }
    let rerate = rerate(b, &result, app.clock.now_ms());
    app.store
        .write(
            [write(Op::SetResult {
                id: id.to_owned(),
                round,
                board,
                result,
            })]
            .into_iter()
            .chain(rerate)
            .collect(),
        )
        .await?;
    app.events.wake.notify_one();
    Ok(())
}

/// A board's official result changes to `to`: its game, if rated, is rated
/// again by it in the same transaction (one result everywhere, §9.4).
fn rerate(b: &BoardRow, to: &str, at: u64) -> Option<WriteOp> {
    Some(WriteOp::RerateGame {
        game_id: b.game_id.clone()?,
        from: b.result.clone(),
        to: to.to_owned(),
        at,
    })
}

/// The organiser forfeits player `no` in `round` (Art. 10.1; the opponent
/// wins): a game in progress ends so, else the board's result is set.
pub async fn forfeit(
    app: &Arc<App>,
    id: &str,
    no: u16,
    round: Option<u16>,
) -> Result<(), ApiError> {
    let _lock = app.events.lock(id).await;
    let Loaded { t, .. } = load(app, id).await?;
    let round = round.unwrap_or_else(|| model::rounds_paired(&t));
    let Some(b) = model::boards_of(&t, round)
        .find(|b| b.black.is_some() && (b.white == no || b.black == Some(no)))
        .cloned()
    else {
        return Err(ApiError::invalid(
            "player",
            format!("player {no} has no game in round {round}"),
        ));
    };
    let loser = if b.white == no {
        Color::White
    } else {
        Color::Black
    };
    if let (Some(game), true) = (&b.game_id, b.result.is_empty()) {
        if let Some(h) = app.registry.get(game).await? {
            let (tx, rx) = tokio::sync::oneshot::channel();
            let sent =
                h.tx.send(crate::game::actor::Command::Forfeit {
                    loser: Some(loser),
                    reply: tx,
                })
                .await;
            if sent.is_ok() && rx.await.unwrap_or(false) {
                app.events.wake.notify_one();
                return Ok(());
            }
        }
    }
    let result = match (loser, b.result.as_str()) {
        (Color::White, "+-" | "--") | (Color::Black, "-+" | "--") => "--",
        (Color::White, _) => "-+",
        (Color::Black, _) => "+-",
    };
    app.store
        .write(
            [write(Op::SetResult {
                id: id.to_owned(),
                round,
                board: b.board,
                result: result.to_owned(),
            })]
            .into_iter()
            .chain(rerate(&b, result, app.clock.now_ms()))
            .collect(),
        )
        .await?;
    app.events.wake.notify_one();
    Ok(())
}

/// The organiser ends the event (games still running keep their boards).
pub async fn end(app: &Arc<App>, id: &str) -> Result<(), ApiError> {
    let _lock = app.events.lock(id).await;
    let Loaded { t, .. } = load(app, id).await?;
    if t.row.status == "finished" {
        return Ok(());
    }
    app.store
        .write(vec![write(Op::SetStatus {
            id: id.to_owned(),
            status: "finished".into(),
        })])
        .await?;
    Ok(())
}

/// What the scheduler does for an event at `now`: the start when its time
/// has come; the default time (6.7) of the current round's games; the
/// next round once the last has ended (with `auto_pair`); the end after
/// the last round.
pub async fn advance(app: &Arc<App>, id: &str, now: u64) -> Result<(), ApiError> {
    let _lock = app.events.lock(id).await;
    let loaded = load(app, id).await?;
    let Loaded { t, s } = &loaded;
    match t.row.status.as_str() {
        "registration" if now >= t.row.start_at && t.players.len() >= 2 => {
            start_locked(app, id).await?;
        }
        "running" => {
            let done = model::rounds_paired(t);
            if done == 0 {
                return pair_locked(app, &loaded, None).await.map(|_| ());
            }
            if model::round_complete(t, done) {
                if done >= s.total_rounds(t.players.len()) {
                    app.store
                        .write(vec![write(Op::SetStatus {
                            id: id.to_owned(),
                            status: "finished".into(),
                        })])
                        .await?;
                } else if s.auto_pair && app.events.may_pair(id, done + 1, now) {
                    if let Err(e) = pair_locked(app, &loaded, None).await {
                        if e.code == "no_valid_pairing" {
                            app.events.pairing_failed(id, done + 1, &e.message, now);
                        }
                        return Err(e);
                    }
                }
                return Ok(());
            }
            let paired_at = t
                .rounds
                .iter()
                .find(|(r, _)| *r == done)
                .map_or(0, |(_, at)| *at);
            if now >= paired_at + u64::from(s.default_time_s) * 1000 {
                default_time(app, model::boards_of(t, done)).await?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The default time has passed for these boards: each game still going
/// asks its task who is absent (2014 6.7 a, 2018/2023 6.7.1), once.
async fn default_time<'a>(
    app: &Arc<App>,
    boards: impl Iterator<Item = &'a BoardRow>,
) -> Result<(), ApiError> {
    for b in boards {
        let (Some(game), true) = (&b.game_id, b.result.is_empty()) else {
            continue;
        };
        if !app.events.first_default_check(game) {
            continue;
        }
        if let Some(h) = app.registry.get(game).await? {
            let (tx, rx) = tokio::sync::oneshot::channel();
            if h.tx
                .send(crate::game::actor::Command::Forfeit {
                    loser: None,
                    reply: tx,
                })
                .await
                .is_ok()
            {
                let _ = rx.await;
            }
        }
    }
    Ok(())
}
