//! The HTTP API of events (protocol §9). Every `POST` checks the `Origin`
//! (`guard::origin`) and is rate-limited per address like creating a game
//! (`--create-per-minute`); the organiser's actions answer 403
//! `not_organiser` to anyone else. Each answer names its rule in `rule`.

use super::model::{self, Settings};
use super::run::{self, Loaded};
use crate::account::routes::login_required;
use crate::account::session;
use crate::error::ApiError;
use crate::store::account::UserRow;
use crate::store::tournament::{Op, TournamentRow};
use crate::store::WriteOp;
use crate::{guard, App};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use std::sync::Arc;

/// Most events listed.
const LIST_LIMIT: u32 = 100;
/// Most games in one PGN download.
const PGN_LIMIT: usize = 2_000;

/// The routes of events.
pub fn router(app: Arc<App>) -> Router<Arc<App>> {
    let origin = middleware::from_fn(guard::origin);
    let limit = middleware::from_fn_with_state(app, guard::rate_limit);
    let acts = Router::new()
        .route("/api/events", post(create))
        .route("/api/events/{id}/register", post(register))
        .route("/api/events/{id}/withdraw", post(withdraw))
        .route("/api/events/{id}/bye", post(bye))
        .route("/api/events/{id}/start", post(start))
        .route("/api/events/{id}/pair", post(pair))
        .route("/api/events/{id}/result", post(result))
        .route("/api/events/{id}/forfeit", post(forfeit))
        .route("/api/events/{id}/late_entry", post(late_entry))
        .route("/api/events/{id}/end", post(end))
        .route_layer(limit)
        .route_layer(origin);
    Router::new()
        .route("/api/events", get(list))
        .route("/api/events/{id}", get(show))
        .route("/api/events/{id}/trf", get(trf))
        .route("/api/events/{id}/pgn", get(pgn))
        .merge(acts)
}

/// The body as JSON; an empty body is `{}` (the actions without fields).
fn body_json(body: &Bytes) -> Result<Value, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    crate::error::json_body(body)
}

async fn user(app: &App, headers: &HeaderMap) -> Result<UserRow, ApiError> {
    session::user(app, headers)
        .await?
        .ok_or_else(login_required)
}

/// The logged-in organiser of the event, or 401 / 403.
async fn organiser(app: &App, headers: &HeaderMap, id: &str) -> Result<Loaded, ApiError> {
    let u = user(app, headers).await?;
    let loaded = run::load(app, id).await?;
    if loaded.t.row.organiser != u.id {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "not_organiser",
            "only the event's organiser (its arbiter) may do this",
        ));
    }
    Ok(loaded)
}

fn done(rule: &str, extra: Value) -> Response {
    let mut v = json!({ "ok": true, "rule": rule });
    if let (Some(o), Value::Object(e)) = (v.as_object_mut(), extra) {
        o.extend(e);
    }
    crate::http::no_store(&v)
}

fn small(v: &Value, name: &str) -> Result<u16, ApiError> {
    v.get(name)
        .and_then(Value::as_u64)
        .and_then(|n| u16::try_from(n).ok())
        .filter(|n| *n > 0)
        .ok_or_else(|| ApiError::invalid(name, format!("{name}: a positive integer")))
}

/// `409 too_many_events` (protocol §9.1).
fn too_many_events() -> ApiError {
    run::conflict(
        "too_many_events",
        format!(
            "at most {} unfinished events per organiser",
            model::MAX_OPEN_PER_ORGANISER
        ),
    )
}

/// `POST /api/events`: 201 `{id}`.
async fn create(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let u = user(&app, &headers).await?;
    let v = body_json(&body)?;
    let now = app.clock.now_ms();
    let s = Settings::parse(&v, now)?;
    if app.store.open_tournaments_by(u.id.clone()).await? >= model::MAX_OPEN_PER_ORGANISER {
        return Err(too_many_events());
    }
    let id = crate::http::new_id();
    let row = TournamentRow {
        id: id.clone(),
        organiser: u.id.clone(),
        name: s.name.clone(),
        created_at: now,
        start_at: s.start_at,
        status: "registration".into(),
        settings: serde_json::to_string(&s).map_err(|e| ApiError::internal(e.to_string()))?,
    };
    // Counted again where it is written: creates sent at once (from
    // several nodes too) cannot all pass the check above.
    app.store
        .write(vec![WriteOp::Tournament(Op::Create {
            row,
            max_open: model::MAX_OPEN_PER_ORGANISER,
        })])
        .await?;
    if app.store.tournament(id.clone()).await?.is_none() {
        return Err(too_many_events());
    }
    let rule = s.system.pairing_rule();
    let mut resp = (
        StatusCode::CREATED,
        Json(json!({ "id": id, "url": format!("/event/{id}"), "rule": rule })),
    )
        .into_response();
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(resp)
}

/// `GET /api/events`: the newest events.
async fn list(State(app): State<Arc<App>>) -> Result<Response, ApiError> {
    let rows = app.store.tournaments(LIST_LIMIT).await?;
    let events: Vec<Value> = rows
        .into_iter()
        .filter_map(|(row, players, round)| {
            let s: Settings = serde_json::from_str(&row.settings).ok()?;
            Some(json!({
                "id": row.id,
                "name": row.name,
                "system": s.system,
                "status": row.status,
                "players": players,
                "round": round,
                "rounds": s.total_rounds(players as usize),
                "start_at": row.start_at,
            }))
        })
        .collect();
    Ok(crate::http::no_store(&json!({ "events": events })))
}

/// The event as `GET /api/events/{id}` shows it to `viewer`.
async fn view(app: &App, loaded: &Loaded, viewer: Option<&UserRow>) -> Result<Value, ApiError> {
    let Loaded { t, s } = loaded;
    let paired = model::rounds_paired(t);
    let ev = model::to_tournament(t, s, paired);
    let name_of = |no: u16| {
        t.players
            .iter()
            .find(|p| p.no == no)
            .map_or("", |p| p.name.as_str())
    };
    let players: Vec<Value> = t
        .players
        .iter()
        .map(
            |p| json!({ "no": p.no, "name": p.name, "rating": p.rating, "withdrawn": p.withdrawn }),
        )
        .collect();
    let rounds: Vec<Value> = (1..=paired)
        .map(|r| {
            let boards: Vec<_> = model::boards_of(t, r).collect();
            json!({
                "round": r,
                "paired_at": t.rounds.iter().find(|(x, _)| *x == r).map(|(_, at)| at),
                "games": boards.iter().filter(|b| b.black.is_some()).map(|b| json!({
                    "board": b.board,
                    "white": b.white,
                    "black": b.black,
                    "white_name": name_of(b.white),
                    "black_name": b.black.map(name_of),
                    "game_id": b.game_id,
                    "result": if b.result.is_empty() { Value::Null } else { json!(b.result) },
                })).collect::<Vec<_>>(),
                "byes": boards.iter().filter(|b| b.black.is_none()).map(|b| json!({
                    "player": b.white,
                    "name": name_of(b.white),
                    "kind": match b.result.as_str() { "U" => "pairing", "H" => "half", _ => "zero" },
                    "code": b.result,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let codes = s.tie_breaks.clone();
    let standings: Vec<Value> = model::standings(&ev, s)
        .iter()
        .map(|st| {
            json!({
                "rank": st.rank,
                "no": st.id,
                "name": name_of(st.id),
                "points": st.points.as_f64(),
                "tiebreaks": codes.iter().zip(&st.values)
                    .map(|(c, v)| json!({ "name": c, "value": v })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let rating_changes = if t.row.status == "finished" {
        let class = crate::account::rating::TimeClass::of(&s.time_control());
        let now = app
            .store
            .tournament_ratings(t.row.id.clone(), class.as_str().to_owned())
            .await?;
        let changes: Vec<Value> = t
            .players
            .iter()
            .map(|p| {
                let after = now.iter().find(|(u, _)| *u == p.user_id).map(|(_, r)| r.round());
                json!({
                    "no": p.no,
                    "name": p.name,
                    "rating_before": p.rating,
                    "rating_after": after,
                    "glicko_change": after.filter(|_| p.rating > 0).map(|a| a - f64::from(p.rating)),
                    "fide_change": model::fide_change(&ev, p.no),
                })
            })
            .collect();
        json!(changes)
    } else {
        Value::Null
    };
    let me = viewer.and_then(|u| t.players.iter().find(|p| p.user_id == u.id));
    let your_game = me.and_then(|p| {
        model::boards_of(t, paired)
            .find(|b| b.white == p.no || b.black == Some(p.no))
            .and_then(|b| b.game_id.clone())
    });
    let your_byes: Vec<u16> = viewer
        .map(|u| {
            t.byes
                .iter()
                .filter(|(x, _)| *x == u.id)
                .map(|(_, r)| *r)
                .collect()
        })
        .unwrap_or_default();
    Ok(json!({
        "id": t.row.id,
        "name": t.row.name,
        "system": s.system,
        "status": t.row.status,
        "organiser": t.row.organiser,
        "created_at": t.row.created_at,
        "settings": {
            "rounds": s.total_rounds(t.players.len()),
            "double": s.double,
            "initial_s": s.initial_s,
            "increment_s": s.increment_s,
            "time_control": format!("{}+{}", s.initial_s, s.increment_s),
            "edition": s.edition,
            "default_time_s": s.default_time_s,
            "touch_move": s.touch_move,
            "start_at": s.start_at,
            "auto_pair": s.auto_pair,
            "rated": s.rated,
            "tiebreaks": s.tie_breaks,
            "half_byes": s.half_byes,
        },
        "players": players,
        "rounds": rounds,
        "current_round": paired,
        // The next round could not be paired by the rules (C.04.3): the
        // arbiter pairs it by hand (§9.4).
        "pairing_problem": app.events.pairing_problem(&t.row.id)
            .filter(|p| p.round == paired + 1 && t.row.status == "running")
            .map(|p| json!({"round": p.round, "message": p.message})),
        "standings": standings,
        "standings_rule": "C.07",
        "rating_changes": rating_changes,
        "you": {
            "registered": me.is_some(),
            "no": me.map(|p| p.no),
            "your_game": your_game,
            "byes": your_byes,
            "organiser": viewer.is_some_and(|u| u.id == t.row.organiser),
        },
    }))
}

/// `GET /api/events/{id}`.
async fn show(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let loaded = run::load(&app, &id).await?;
    let viewer = session::user(&app, &headers).await?;
    Ok(crate::http::no_store(
        &view(&app, &loaded, viewer.as_ref()).await?,
    ))
}

/// `POST /api/events/{id}/register`.
async fn register(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let u = user(&app, &headers).await?;
    let no = run::register(&app, &id, &u, false).await?;
    Ok(done("C.04.2 A.2", json!({ "no": no })))
}

/// `POST /api/events/{id}/withdraw`.
async fn withdraw(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let u = user(&app, &headers).await?;
    run::withdraw(&app, &id, &u).await?;
    Ok(done("C.04.1", json!({})))
}

/// `POST /api/events/{id}/bye` `{round}`.
async fn bye(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let u = user(&app, &headers).await?;
    let v = body_json(&body)?;
    let round = small(&v, "round")?;
    run::request_bye(&app, &id, &u, round).await?;
    Ok(done("C.04.1", json!({ "round": round })))
}

/// `POST /api/events/{id}/start`.
async fn start(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Loaded { s, .. } = organiser(&app, &headers, &id).await?;
    let round = run::start(&app, &id).await?;
    let rule = s.system.pairing_rule();
    Ok(done(rule, json!({ "round": round })))
}

/// `POST /api/events/{id}/pair`.
async fn pair(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let Loaded { s, .. } = organiser(&app, &headers, &id).await?;
    let hand = hand_pairing(&body_json(&body)?)?;
    let round = run::pair(&app, &id, hand.as_ref()).await?;
    let rule = match hand {
        Some(_) => "C.04.3 (the arbiter's pairing)",
        None => s.system.pairing_rule(),
    };
    Ok(done(rule, json!({ "round": round })))
}

/// The body of a pairing by hand: `{"boards": [[white, black], …], "bye"?:
/// n}` by pairing numbers (at most [`model::MAX_PLAYERS`] boards); `None`
/// without `boards` (the pairing rules pair the round).
fn hand_pairing(v: &Value) -> Result<Option<run::HandPairing>, ApiError> {
    let Some(boards) = v.get("boards") else {
        return Ok(None);
    };
    let bad = || ApiError::invalid("boards", "boards: a list of [white, black] pairing numbers");
    let list = boards.as_array().ok_or_else(bad)?;
    if list.len() > model::MAX_PLAYERS as usize {
        return Err(bad());
    }
    let no = |x: &Value| {
        x.as_u64()
            .and_then(|n| u16::try_from(n).ok())
            .filter(|n| *n > 0)
    };
    let pairs = list
        .iter()
        .map(|b| match b.as_array().map(Vec::as_slice) {
            Some([w, b]) => Some((no(w)?, no(b)?)),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(bad)?;
    let bye = match v.get("bye") {
        None | Some(Value::Null) => None,
        Some(_) => Some(small(v, "bye")?),
    };
    Ok(Some(run::HandPairing { pairs, bye }))
}

/// `POST /api/events/{id}/result` `{round, board, result}`.
async fn result(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    organiser(&app, &headers, &id).await?;
    let v = body_json(&body)?;
    let round = small(&v, "round")?;
    let board = small(&v, "board")?;
    let result = run::parse_result(v.get("result").unwrap_or(&Value::Null))?;
    run::set_result(&app, &id, round, board, result).await?;
    Ok(done("C.07", json!({ "round": round, "board": board })))
}

/// `POST /api/events/{id}/forfeit` `{player, round?}`.
async fn forfeit(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    organiser(&app, &headers, &id).await?;
    let v = body_json(&body)?;
    let player = small(&v, "player")?;
    let round = match v.get("round") {
        None | Some(Value::Null) => None,
        Some(_) => Some(small(&v, "round")?),
    };
    run::forfeit(&app, &id, player, round).await?;
    Ok(done("Art. 10.1", json!({ "player": player })))
}

/// `POST /api/events/{id}/late_entry` `{user}`.
async fn late_entry(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    organiser(&app, &headers, &id).await?;
    let v = body_json(&body)?;
    let name = v.get("user").and_then(Value::as_str).unwrap_or("");
    let Some(entrant) = app.store.user(name.to_lowercase()).await? else {
        return Err(ApiError::invalid(
            "user",
            format!("user: no account {name:?}"),
        ));
    };
    let no = run::register(&app, &id, &entrant, true).await?;
    Ok(done("C.04.1", json!({ "no": no })))
}

/// `POST /api/events/{id}/end`.
async fn end(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    organiser(&app, &headers, &id).await?;
    run::end(&app, &id).await?;
    Ok(done("C.07", json!({})))
}

fn download(body: String, mime: &'static str, file: String) -> Response {
    let mut resp = body.into_response();
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{file}\"")) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    resp
}

/// `GET /api/events/{id}/trf`: TRF-2026, every round paired, and the next
/// round's byes and withdrawals entered ahead ([`model::with_entries_ahead`]).
async fn trf(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let loaded = run::load(&app, &id).await?;
    let (ev, _) = model::with_entries_ahead(&loaded.t, &loaded.s);
    // An event the TRF cannot hold (a value wider than its columns) is an
    // error, not a file that does not read back.
    let text = arbiter_tournament::trf::write(&ev, arbiter_tournament::trf::TrfVersion::Trf26)
        .map_err(|e| ApiError::internal(format!("the event as TRF: {e}")))?;
    Ok(download(
        text,
        "text/plain; charset=utf-8",
        format!("{id}.trf"),
    ))
}

/// The query of the PGN download.
#[derive(serde::Deserialize)]
struct PgnQuery {
    round: Option<String>,
}

/// The board's result `code` (§9.2), when the organiser has set one other
/// than the game's `recorded`, becomes the game's `Result` (a forfeit `+-`
/// / `-+` as `1-0` / `0-1`; `--`, which PGN cannot write, `*`), with a
/// closing comment saying so: one official result everywhere.
fn official_result(pgn: &mut arbiter_pgn::Game, code: &str, recorded: &str) {
    let result = match code {
        "" => return,
        "+-" => "1-0",
        "-+" => "0-1",
        "--" => "*",
        other => other,
    };
    if result == recorded {
        return;
    }
    pgn.tags.set("Result", result);
    pgn.result = arbiter_pgn::GameResult::from_pgn(result);
    pgn.line.comment_at_end(format!(
        "Result set by the arbiter: {code} (the game ended {recorded})"
    ));
}

/// `GET /api/events/{id}/pgn[?round=N]`: the games (at most
/// [`PGN_LIMIT`]), with the Event, Round ("round.board") and Board tags.
async fn pgn(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    crate::http::Params(q): crate::http::Params<PgnQuery>,
) -> Result<Response, ApiError> {
    // A round is 1 to 65535 (rounds are numbered from 1); absent, all.
    let round = match q.round.as_deref() {
        None => None,
        Some(r) => {
            Some(crate::http::query_int("round", Some(r), 1..=u32::from(u16::MAX), 1)? as u16)
        }
    };
    let loaded = run::load(&app, &id).await?;
    let mut out = String::new();
    let games = loaded
        .t
        .boards
        .iter()
        .filter(|b| round.is_none_or(|r| r == b.round))
        .filter_map(|b| b.game_id.as_ref().map(|g| (b, g)))
        .take(PGN_LIMIT);
    for (b, game) in games {
        let Some(stored) = app.store.load_game(game.clone()).await? else {
            continue;
        };
        let core = crate::game::core::GameCore::load(stored)?;
        let mut pgn = crate::pgn::export_game(&core);
        pgn.tags.set("Event", loaded.t.row.name.clone());
        pgn.tags.set("Round", format!("{}.{}", b.round, b.board));
        pgn.tags.set("Board", b.board.to_string());
        official_result(&mut pgn, &b.result, &core.table.result());
        out.push_str(&pgn.to_pgn());
        if !out.ends_with("\n\n") {
            out.push('\n');
        }
    }
    Ok(download(
        out,
        "application/vnd.chess-pgn; charset=utf-8",
        format!("{id}.pgn"),
    ))
}
