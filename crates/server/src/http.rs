//! The HTTP API (protocol §3), the WebSocket endpoint (§4) and the pages (§1).

use crate::error::ApiError;
use crate::game::actor::{Command, Conn, GameHandle, OUTBOUND_QUEUE};
use crate::game::core::GameCore;
use crate::game::settings::{clean_name, CreateRequest};
use crate::limits::Bucket;
use crate::protocol::{ClientFrame, Color, Players, ServerMsg, MAX_CLIENT_FRAME};
use crate::store::ListFilter;
use crate::{assets, guard, seat, App};
use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// Largest HTTP request body accepted.
const MAX_BODY: usize = 16 * 1024;
/// A connection that sends nothing for this long is closed (§4.1).
const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// WebSocket messages per second per connection, and the burst allowed.
const WS_RATE: (f64, f64) = (20.0, 40.0);
/// Most queued messages written to a socket before it is flushed.
const WS_WRITE_BATCH: usize = 32;
/// Refused messages before a connection is closed.
const WS_MAX_REFUSED: u32 = 50;

/// The router of the whole app. The routes that act for a player check the
/// `Origin` ([`guard::origin`]); creating and joining are rate-limited per
/// address ([`guard::rate_limit`]).
pub fn router(app: Arc<App>) -> Router {
    let origin = middleware::from_fn(guard::origin);
    let limit = middleware::from_fn_with_state(app.clone(), guard::rate_limit);
    let timeout = app.request_timeout;
    Router::new()
        .route(
            "/api/games",
            post(create)
                .route_layer(limit.clone())
                .route_layer(origin.clone())
                .get(list),
        )
        .route("/api/games/{id}", get(snapshot))
        .route("/api/lobby", get(lobby))
        .route("/api/lobby/ws", get(lobby_ws))
        .route("/api/games/{id}/pgn", get(pgn))
        .route("/api/games/{id}/positions", get(positions))
        .route(
            "/api/games/{id}/join",
            post(join)
                .route_layer(limit.clone())
                .route_layer(origin.clone()),
        )
        .route(
            "/api/games/{id}/rematch",
            post(rematch)
                .route_layer(limit.clone())
                .route_layer(origin.clone()),
        )
        .route(
            "/api/games/{id}/analysis",
            post(analyse).route_layer(origin.clone()).get(analysis),
        )
        .route(
            "/api/games/{id}/analysis/{ply}",
            post(analyse_deeper).route_layer(origin.clone()),
        )
        .route("/api/games/{id}/ws", get(ws).route_layer(origin))
        .merge(crate::ops::router())
        .merge(crate::account::routes::router(app.clone()))
        .merge(crate::event::routes::router(app.clone()))
        .fallback(fallback)
        // Several nodes: a game owned elsewhere is served there.
        .layer(middleware::from_fn_with_state(
            app.clone(),
            crate::cluster::forward::http,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn(guard::json_errors))
        .layer(middleware::from_fn_with_state(app.clone(), guard::host))
        .layer(middleware::from_fn(move |r, n| {
            guard::deadline(timeout, r, n)
        }))
        .with_state(app)
}

fn json_with_cookie<T: Serialize>(status: StatusCode, body: &T, cookie: &str) -> Response {
    let mut resp = (status, Json(body)).into_response();
    if let Ok(v) = HeaderValue::from_str(cookie) {
        resp.headers_mut().insert(header::SET_COOKIE, v);
    }
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

/// A query string's parameters, read into `T` (its fields `Option<String>`,
/// each checked by the handler, so that an error names the parameter). A
/// query that cannot be read at all (a parameter given twice) is refused
/// with `invalid_request`, field `query` and what is wrong — not the
/// generic answer of axum's `Query`.
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> axum::extract::FromRequestParts<S>
    for Params<T>
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Self, Self::Rejection> {
        Query::<T>::try_from_uri(&parts.uri)
            .map(|Query(q)| Params(q))
            .map_err(|e| {
                ApiError::invalid(
                    "query",
                    format!("the query string cannot be read: {}", e.body_text()),
                )
            })
    }
}

/// The integer query parameter `field`: `default` when absent, else an
/// integer in `range`, or `invalid_request` naming `field` and the range.
///
/// ```
/// use arbiter_server::http::query_int;
/// assert_eq!(query_int("limit", None, 1..=200, 50).unwrap(), 50);
/// assert_eq!(query_int("limit", Some("7"), 1..=200, 50).unwrap(), 7);
/// for bad in ["0", "201", "-1", "x", ""] {
///     let e = query_int("limit", Some(bad), 1..=200, 50).unwrap_err();
///     assert_eq!(e.field.as_deref(), Some("limit"));
///     assert_eq!(e.message, "limit: an integer 1 to 200");
/// }
/// ```
pub fn query_int(
    field: &str,
    value: Option<&str>,
    range: std::ops::RangeInclusive<u32>,
    default: u32,
) -> Result<u32, ApiError> {
    match value {
        None => Ok(default),
        Some(s) => s
            .parse::<u32>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| {
                ApiError::invalid(
                    field,
                    format!("{field}: an integer {} to {}", range.start(), range.end()),
                )
            }),
    }
}

/// A JSON answer that no cache keeps.
pub fn no_store<T: Serialize>(body: &T) -> Response {
    let mut resp = Json(body).into_response();
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

/// A fresh game id: 8 characters `[A-Za-z0-9]` (47 bits).
pub(crate) fn new_id() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rngs::OsRng;
    (0..8)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

#[derive(Serialize)]
struct SeatResponse<'a> {
    id: &'a str,
    seat: Option<crate::protocol::SeatName>,
    url: String,
    invite_url: Option<String>,
    state: &'a crate::protocol::State,
}

async fn create(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: CreateRequest = serde_json::from_slice(&body).map_err(|e| {
        ApiError::invalid(
            "body",
            format!(
                "the body is not a valid request: {}",
                crate::error::public_json_error(&e)
            ),
        )
    })?;
    let (settings, name) = req.validate(
        || {
            if rand::random::<bool>() {
                Color::White
            } else {
                Color::Black
            }
        },
        || rand::rngs::OsRng.gen_range(0..960),
    )?;
    // From an account: the creator's name is the account's, and the seat
    // is the account's too (issue 15).
    let user = crate::account::session::user(&app, &headers).await?;
    let (mut settings, mut name) = (settings, name);
    if settings.rated && user.is_none() {
        return Err(crate::account::routes::login_required());
    }
    if let Some(u) = &user {
        settings.creator_account = Some(u.id.clone());
        name = Some(u.name.clone());
    }
    let listed = req.lobby(settings.mode)?;
    let client = app.hosts.client_ip(peer.ip(), &headers);
    let token = seat::new_token();
    let id = new_id();
    let now = app.clock.now_ms();
    // The seek's place is kept while its game is created: requests at once
    // cannot pass the bounds together (§3.8).
    let reservation = if listed {
        Some(app.lobby.admit(client, now).map_err(lobby_refused)?)
    } else {
        None
    };
    let field = if settings.fen.is_some() {
        "fen"
    } else {
        "time_control"
    };
    let core = GameCore::create(id.clone(), settings, name, seat::hash_token(&token), now)
        .map_err(|e| ApiError::invalid(field, e))?;
    crate::cluster::ownership::create_games(&app, &[&id], core.creation_writes()).await?;
    let seat_set = core.seats.values().next().copied();
    let state = core.state(seat_set, now);
    let seek = listed.then(|| crate::lobby::Seek {
        game: id.clone(),
        name: core.players.get(core.settings.creator).name.clone(),
        color: core.settings.creator,
        time_control: state.time_control.clone(),
        time_control_periods: state.time_control_periods.clone(),
        delay: state.delay,
        variant: state.variant,
        edition: state.edition,
        touch_move: state.touch_move,
        created_at: now,
    });
    app.registry.start(&app, core).await;
    if let (Some(seek), Some(reservation)) = (seek, reservation) {
        app.lobby.list_reserved(seek, reservation);
    }
    let body = SeatResponse {
        id: &id,
        seat: state.seat,
        url: format!("/game/{id}"),
        invite_url: state.invite_url.clone(),
        state: &state,
    };
    Ok(json_with_cookie(
        StatusCode::CREATED,
        &body,
        &seat::set_cookie(&id, &token, app.hosts.is_https(peer.ip(), &headers)),
    ))
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
    limit: Option<String>,
}

#[derive(Serialize)]
struct Summary {
    id: String,
    mode: crate::protocol::Mode,
    status: String,
    variant: crate::protocol::Variant,
    chess960_position: Option<u32>,
    edition: arbiter_laws::Edition,
    time_control: String,
    time_control_periods: Vec<crate::protocol::WirePeriod>,
    delay: Option<crate::protocol::WireDelay>,
    players: Players,
    result: String,
    termination: Option<crate::protocol::Termination>,
    ply: u32,
    created_at: u64,
    updated_at: u64,
}

async fn list(
    State(app): State<Arc<App>>,
    Params(q): Params<ListQuery>,
) -> Result<Response, ApiError> {
    let filter = match q.status.as_deref() {
        None | Some("all") => ListFilter::All,
        Some("live") => ListFilter::Live,
        Some("finished") => ListFilter::Finished,
        Some(other) => {
            return Err(ApiError::invalid(
                "status",
                format!("status: {other:?} is not live, finished or all"),
            ))
        }
    };
    let limit = query_int("limit", q.limit.as_deref(), 1..=200, 50)?;
    let rows = app.store.list_games(filter, limit).await?;
    let mut games = Vec::with_capacity(rows.len());
    for row in rows {
        let Ok(settings) = serde_json::from_str::<crate::game::settings::Settings>(&row.settings)
        else {
            continue;
        };
        let Ok(mut players) = serde_json::from_str::<Players>(&row.players) else {
            continue;
        };
        // A running game's row may lag behind its log in `ply` and
        // `updated_at`: its task knows them.
        // In a cluster, a game running on another node: its players'
        // presence as its owner last said (`cluster::bus::PresenceReport`).
        let (bits, ply, updated_at) = match app.registry.summary(&row.id).await {
            Some(s) => s,
            None => (
                app.cluster.as_ref().map_or(0, |c| c.presence_of(&row.id)),
                row.ply,
                row.updated_at,
            ),
        };
        for side in Color::ALL {
            let p = players.get_mut(side);
            p.online =
                p.kind == crate::protocol::PlayerKind::Engine || bits & (1 << side.index()) != 0;
        }
        games.push(Summary {
            id: row.id,
            mode: settings.mode,
            status: row.status,
            variant: settings.variant,
            chess960_position: settings.chess960_position,
            edition: settings.edition,
            time_control: settings.time_control.to_string(),
            time_control_periods: crate::protocol::WirePeriod::all(&settings.time_control),
            delay: settings.delay,
            players,
            result: row.result,
            termination: row.termination.and_then(|t| serde_json::from_str(&t).ok()),
            ply: ply.max(row.ply),
            created_at: row.created_at,
            updated_at: updated_at.max(row.updated_at),
        });
    }
    Ok(no_store(&serde_json::json!({ "games": games })))
}

async fn handle_of(app: &App, id: &str) -> Result<GameHandle, ApiError> {
    app.registry
        .get(id)
        .await?
        .ok_or_else(|| ApiError::not_found("no such game"))
}

async fn ask<T>(
    h: &GameHandle,
    make: impl FnOnce(oneshot::Sender<T>) -> Command,
) -> Result<T, ApiError> {
    let (tx, rx) = oneshot::channel();
    h.tx.send(make(tx))
        .await
        .map_err(|_| ApiError::internal("the game task has stopped; retry"))?;
    rx.await
        .map_err(|_| ApiError::internal("the game task has stopped; retry"))
}

async fn snapshot(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let h = handle_of(&app, &id).await?;
    let token_hash = crate::account::seat_hash(&app, &headers, &id).await;
    let state = ask(&h, |reply| Command::Snapshot { token_hash, reply }).await?;
    Ok(no_store(&state))
}

async fn pgn(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let h = handle_of(&app, &id).await?;
    let core = ask(&h, |reply| Command::Read { reply }).await?;
    let text = crate::pgn::export(&core);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_owned(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"arbiter-{id}.pgn\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        text,
    )
        .into_response())
}

/// Every position of the game, for the replay (§3.4.1).
async fn positions(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let h = handle_of(&app, &id).await?;
    let core = ask(&h, |reply| Command::Read { reply }).await?;
    Ok(no_store(&crate::positions::of(&core)))
}

async fn join(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let value: serde_json::Value = if body.is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_slice(&body).map_err(|e| {
            ApiError::invalid(
                "body",
                format!(
                    "the body is not JSON: {}",
                    crate::error::public_json_error(&e)
                ),
            )
        })?
    };
    let mut name = clean_name(value.get("name"))?;
    let h = handle_of(&app, &id).await?;
    let existing = crate::account::seat_hash(&app, &headers, &id).await;
    let user = crate::account::session::user(&app, &headers).await?;
    if let Some(u) = &user {
        name = Some(u.name.clone());
    }
    let account = user.map(|u| u.id);
    let token = seat::new_token();
    let token_hash = seat::hash_token(&token);
    let state = ask(&h, |reply| Command::Join {
        token_hash,
        existing,
        name,
        account,
        reply,
    })
    .await??;
    let body = SeatResponse {
        id: &id,
        seat: state.seat,
        url: format!("/game/{id}"),
        invite_url: state.invite_url.clone(),
        state: &state,
    };
    Ok(json_with_cookie(
        StatusCode::OK,
        &body,
        &seat::set_cookie(&id, &token, app.hosts.is_https(peer.ip(), &headers)),
    ))
}

/// The seat token of game `id` in the request's seat cookie.
fn token_of(headers: &HeaderMap, id: &str) -> Option<String> {
    seat::token_from_cookies(crate::account::session::cookie_headers(headers), id)
}

/// `POST /api/games/{id}/rematch` (§3.7): offers a rematch, or, once it
/// exists, seats the caller in it (the same seat token, in a cookie for the
/// new game). 202 with `{"offered":true}` while the opponent has not offered.
async fn rematch(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let h = handle_of(&app, &id).await?;
    let token = token_of(&headers, &id);
    let outcome = ask(&h, |reply| Command::Rematch {
        token: token.clone(),
        reply,
    })
    .await??;
    let (new_id, new_seat) = match outcome {
        crate::game::rematch::Rematch::Offered => {
            return Ok((
                StatusCode::ACCEPTED,
                Json(serde_json::json!({ "offered": true })),
            )
                .into_response())
        }
        crate::game::rematch::Rematch::Created { game, seat } => (game, seat),
    };
    let (Some(old_token), Some(h)) = (token, app.registry.get(&new_id).await?) else {
        return Err(ApiError::not_found("the rematch game is gone"));
    };
    let token = seat::rematch_token(&old_token, &new_id);
    let token_hash = seat::hash_token(&token);
    ask(&h, |reply| Command::SeatRematch {
        token_hash: token_hash.clone(),
        seat: new_seat,
        reply,
    })
    .await??;
    let token_hash = Some(token_hash);
    let state = ask(&h, |reply| Command::Snapshot { token_hash, reply }).await?;
    let body = SeatResponse {
        id: &new_id,
        seat: state.seat,
        url: format!("/game/{new_id}"),
        invite_url: state.invite_url.clone(),
        state: &state,
    };
    Ok(json_with_cookie(
        StatusCode::OK,
        &body,
        &seat::set_cookie(&new_id, &token, app.hosts.is_https(peer.ip(), &headers)),
    ))
}

fn lobby_refused(e: crate::lobby::Refused) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_seeks",
        e.to_string(),
    )
}

/// `GET /api/lobby` (§3.8): the open seeks.
async fn lobby(State(app): State<Arc<App>>) -> Response {
    no_store(&serde_json::json!({ "seeks": app.lobby.seeks(app.clock.now_ms()) }))
}

/// `GET /api/lobby/ws` (§3.8): `{"type":"seeks","seeks":[…]}` now and on
/// every change. Watching is bounded per address; the client sends nothing.
async fn lobby_ws(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let client = app.hosts.client_ip(peer.ip(), &headers);
    let slot = app.lobby_watchers.admit(client).ok_or_else(|| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_watchers",
            "too many lobby connections from this address",
        )
    })?;
    Ok(upgrade
        .max_message_size(1024)
        .max_frame_size(1024)
        .read_buffer_size(1024)
        .write_buffer_size(0)
        .max_write_buffer_size(256 * 1024)
        .on_upgrade(move |socket| async move {
            let _slot = slot;
            let (mut sink, mut stream) = socket.split();
            let mut changes = app.lobby.subscribe();
            // Expiry of unopened seeks is checked now and then.
            let mut tick = tokio::time::interval(crate::lobby::OPEN_WITHIN / 3);
            let mut last = None;
            let mut received = 0u32;
            loop {
                let seeks = app.lobby.seeks(app.clock.now_ms());
                if last.as_ref() != Some(&seeks) {
                    let msg = serde_json::json!({ "type": "seeks", "seeks": &seeks });
                    let send = sink.send(Message::Text(msg.to_string().into()));
                    match tokio::time::timeout(Duration::from_secs(10), send).await {
                        Ok(Ok(())) => {}
                        _ => break,
                    }
                    last = Some(seeks);
                }
                tokio::select! {
                    c = changes.changed() => if c.is_err() { break },
                    _ = tick.tick() => {}
                    m = stream.next() => match m {
                        None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                        // Pings and the odd message are tolerated, a flood is not.
                        Some(Ok(_)) => {
                            received += 1;
                            if received > 100 {
                                break;
                            }
                        }
                    },
                }
            }
            let _ = sink.close().await;
        }))
}

/// The positions of finished game `id`, for its analysis (§3.9).
async fn finished_line(app: &App, id: &str) -> Result<crate::analysis::GameLine, ApiError> {
    let h = handle_of(app, id).await?;
    let core = ask(&h, |reply| Command::Read { reply }).await?;
    if core.status != crate::protocol::Status::Finished {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "game_not_finished",
            "a game is analysed after it ends",
        ));
    }
    Ok(crate::analysis::GameLine::of(core.table.laws()))
}

fn analysis_answer(report: crate::analysis::Report) -> Response {
    let status = match report.status {
        crate::analysis::Progress::Running => StatusCode::ACCEPTED,
        crate::analysis::Progress::Done if !report.deep_pending.is_empty() => StatusCode::ACCEPTED,
        crate::analysis::Progress::Done => StatusCode::OK,
    };
    let mut resp = (status, Json(report)).into_response();
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

fn analysis_refused(e: crate::analysis::Refused) -> ApiError {
    match e {
        crate::analysis::Refused::Busy => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "analysis_busy",
            e.to_string(),
        ),
        crate::analysis::Refused::NoSuchPly(_) => ApiError::invalid("ply", e.to_string()),
    }
}

/// `POST /api/games/{id}/analysis` (§3.9): starts the analysis of a
/// finished game (or returns it): 202 while it runs, 200 when done.
async fn analyse(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(r) = app.analyses.report(&id) {
        return Ok(analysis_answer(r));
    }
    let line = finished_line(&app, &id).await?;
    let client = crate::engine::Client::from(app.hosts.client_ip(peer.ip(), &headers).to_string());
    let report = app
        .analyses
        .start(&app.engine, client, &id, line)
        .map_err(analysis_refused)?;
    Ok(analysis_answer(report))
}

/// `GET /api/games/{id}/analysis` (§3.9): the analysis so far.
async fn analysis(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    app.analyses
        .report(&id)
        .map(analysis_answer)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "no_analysis",
                "this game has not been analysed; POST to start",
            )
        })
}

/// `POST /api/games/{id}/analysis/{ply}` (§3.9): a deeper look at one
/// position of an analysed game, from the replay.
async fn analyse_deeper(
    State(app): State<Arc<App>>,
    Path((id, ply)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let ply: u32 = ply
        .parse()
        .map_err(|_| ApiError::invalid("ply", "ply: an integer, 0 for the initial position"))?;
    if app.analyses.report(&id).is_none() {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "no_analysis",
            "analyse the game first (POST /api/games/{id}/analysis)",
        ));
    }
    let line = finished_line(&app, &id).await?;
    let report = app
        .analyses
        .deep(&app.engine, &id, line, ply)
        .map_err(analysis_refused)?;
    Ok(analysis_answer(report))
}

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

async fn ws(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let h = handle_of(&app, &id).await?;
    let token_hash = crate::account::seat_hash(&app, &headers, &id).await;
    Ok(upgrade
        .max_message_size(MAX_CLIENT_FRAME)
        .max_frame_size(MAX_CLIENT_FRAME)
        // Small buffers: thousands of sockets, small messages.
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(1024 * 1024)
        .on_upgrade(move |socket| {
            let client = app.hosts.client_ip(peer.ip(), &headers);
            run_socket(socket, h, token_hash, app, client)
        }))
}

/// One WebSocket: a writer task draining the game's queue, and this reader
/// validating every frame (size, schema, rate) before the game sees it.
async fn run_socket(
    socket: WebSocket,
    game: GameHandle,
    token_hash: Option<String>,
    app: Arc<App>,
    peer: std::net::IpAddr,
) {
    let conn_id = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let (out_tx, mut out_rx) = mpsc::channel::<Message>(OUTBOUND_QUEUE);
    let (mut sink, mut stream) = socket.split();
    let (seat_tx, seat_rx) = oneshot::channel();
    let dropped = Arc::new(tokio::sync::Notify::new());
    let attach = Command::Attach {
        conn: Conn {
            id: conn_id,
            token_hash,
            tx: out_tx.clone(),
            dropped: dropped.clone(),
            client: Some(peer),
        },
        reply: seat_tx,
    };
    if game.tx.send(attach).await.is_err() {
        let _ = sink.send(Message::Close(None)).await;
        return;
    }
    let Ok(seat) = seat_rx.await else {
        let _ = sink.send(Message::Close(None)).await;
        return;
    };
    // A spectator holds one of its address's spectator slots while open
    // (issue 13, defect 5): watching is bounded per address.
    let _spectator_slot = if seat.is_none() {
        match app.spectators.admit(peer) {
            Some(slot) => Some(slot),
            None => {
                let _ = game.tx.send(Command::Detach { conn_id }).await;
                let refusal = ServerMsg::Error {
                    code: "too_many_spectators",
                    message: "too many games watched from this address",
                    reply_to: None,
                };
                let _ = sink.send(Message::Text(refusal.to_json().into())).await;
                let _ = sink.send(Message::Close(None)).await;
                return;
            }
        }
    } else {
        None
    };
    let mut writer = tokio::spawn(async move {
        // What is queued goes out in one flush (a catch-up, a pong beside an
        // event): one write to the socket, not one per message.
        'out: while let Some(first) = out_rx.recv().await {
            let mut next = Some(first);
            let mut fed = 0;
            while let Some(msg) = next.take() {
                let close = matches!(msg, Message::Close(_));
                if sink.feed(msg).await.is_err() || close {
                    break 'out;
                }
                fed += 1;
                // Taken from the queue only if it will be written.
                if fed < WS_WRITE_BATCH {
                    next = out_rx.try_recv().ok();
                }
            }
            if sink.flush().await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut bucket = Bucket::new(WS_RATE.0, WS_RATE.1);
    let mut refused = 0u32;
    let mut last_lag = 0u64;
    let error = |code: &str, message: &str, reply_to: Option<i64>| {
        Message::Text(
            ServerMsg::Error {
                code,
                message,
                reply_to,
            }
            .to_json()
            .into(),
        )
    };
    // A refused frame is answered; past WS_MAX_REFUSED the socket closes
    // (`true`: stop reading).
    let mut refuse = |answer: Message| {
        refused += 1;
        let _ = out_tx.try_send(answer);
        refused > WS_MAX_REFUSED
    };
    // Idleness is checked by one periodic timer, not a timeout per message.
    let mut idle_check = tokio::time::interval(IDLE_TIMEOUT / 3);
    idle_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_seen = tokio::time::Instant::now();
    loop {
        let next = tokio::select! {
            m = stream.next() => m,
            // The game dropped this connection: close, so the client reconnects.
            _ = dropped.notified() => break,
            _ = idle_check.tick() => {
                if last_seen.elapsed() > IDLE_TIMEOUT {
                    break;
                }
                continue;
            }
        };
        let msg = match next {
            None | Some(Err(_)) => break,
            Some(Ok(m)) => m,
        };
        last_seen = tokio::time::Instant::now();
        let text = match msg {
            Message::Text(t) => t,
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
            Message::Binary(_) => {
                if refuse(error("bad_message", "text frames only", None)) {
                    break;
                }
                continue;
            }
        };
        if !bucket.take() {
            let id = ClientFrame::id_of(text.as_str());
            if refuse(error("rate_limited", "too many messages; slow down", id)) {
                break;
            }
            continue;
        }
        let forward = match ClientFrame::parse(text.as_str()) {
            // Pings are answered here; only a changed lag report goes to the game.
            Ok(ClientFrame {
                id,
                msg: crate::protocol::ClientMsg::Ping { lag_ms },
            }) => {
                let pong = ServerMsg::Pong {
                    id,
                    server_time: app.clock.now_ms(),
                };
                let _ = out_tx.try_send(Message::Text(pong.to_json().into()));
                let lag = lag_ms.unwrap_or(0);
                (lag.abs_diff(last_lag) > 5).then(|| {
                    last_lag = lag;
                    ClientFrame {
                        id: None,
                        msg: crate::protocol::ClientMsg::Ping { lag_ms: Some(lag) },
                    }
                })
            }
            Ok(frame) => Some(frame),
            Err(bad) => {
                if refuse(error("bad_message", &bad.message, bad.id)) {
                    break;
                }
                None
            }
        };
        if let Some(frame) = forward {
            if game
                .tx
                .send(Command::Frame { conn_id, frame })
                .await
                .is_err()
            {
                break;
            }
        }
    }
    let _ = game.tx.send(Command::Detach { conn_id }).await;
    let _ = out_tx.try_send(Message::Close(None));
    drop(out_tx);
    // A client that does not read would hold the writer (and the socket)
    // forever: after two seconds it is stopped and the socket closed.
    if tokio::time::timeout(Duration::from_secs(2), &mut writer)
        .await
        .is_err()
    {
        writer.abort();
    }
}

async fn fallback(method: Method, uri: Uri) -> Response {
    let path = uri.path();
    if path.starts_with("/api/") || path == "/api" {
        return ApiError::not_found("no such endpoint").into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        return ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "not_found", "no such page")
            .into_response();
    }
    let page = path == "/"
        || path.trim_end_matches('/') == "/events"
        || ["/game/", "/join/", "/@/", "/event/"].iter().any(|p| {
            path.strip_prefix(p).is_some_and(|rest| {
                !rest.is_empty()
                    && rest
                        .trim_end_matches('/')
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            })
        });
    if page {
        return assets::index();
    }
    assets::file(path).unwrap_or_else(|| ApiError::not_found("no such file").into_response())
}
