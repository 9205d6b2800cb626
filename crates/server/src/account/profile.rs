//! A player's page (protocol §8): the ratings per time class, the
//! results by colour, the games played (paginated, filtered by outcome and
//! time class), and a rating's history.

use super::rating::TimeClass;
use crate::error::ApiError;
use crate::protocol::Players;
use crate::store::account::{GamesQuery, Outcome, UserRow};
use crate::App;
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// Games on a page of the list.
pub const PER_PAGE: u32 = 20;
/// The last page reachable (offsets stay bounded).
pub const MAX_PAGE: u32 = 500;
/// Most points of a rating's history returned (the newest).
pub const MAX_HISTORY: u32 = 500;
/// A rating whose deviation is above this is provisional (Lichess's "?").
pub const PROVISIONAL_RD: f64 = 110.0;

async fn user_named(app: &App, name: &str) -> Result<UserRow, ApiError> {
    let id = name.to_ascii_lowercase();
    if id.len() > 20 {
        return Err(ApiError::not_found("no such player"));
    }
    app.store
        .user(id)
        .await?
        .ok_or_else(|| ApiError::not_found("no such player"))
}

/// `GET /api/users/{name}`.
pub async fn profile(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let user = user_named(&app, &name).await?;
    let stored = app.store.ratings(user.id.clone()).await?;
    let mut ratings = serde_json::Map::new();
    for class in TimeClass::RATED {
        let r = stored.iter().find(|r| r.time_class == class.as_str());
        ratings.insert(
            class.as_str().to_owned(),
            r.map_or(Value::Null, |r| {
                json!({
                    "rating": r.rating.round(),
                    "deviation": r.deviation.round(),
                    "games": r.games,
                    "provisional": r.deviation > PROVISIONAL_RD,
                })
            }),
        );
    }
    let mut results = json!({
        "white": {"win": 0, "draw": 0, "loss": 0},
        "black": {"win": 0, "draw": 0, "loss": 0},
    });
    for (color, result, n) in app.store.results_by_colour(user.id.clone()).await? {
        let outcome = match (color.as_str(), result.as_str()) {
            (_, "1/2-1/2") => "draw",
            ("white", "1-0") | ("black", "0-1") => "win",
            ("white", "0-1") | ("black", "1-0") => "loss",
            _ => continue,
        };
        if let Some(c) = results.get_mut(&color) {
            c[outcome] = json!(c[outcome].as_u64().unwrap_or(0) + n);
        }
    }
    Ok(crate::http::no_store(&json!({
        "name": user.name,
        "created_at": user.created_at,
        "ratings": ratings,
        "results": results,
    })))
}

/// The query of `GET /api/users/{name}/games`.
#[derive(Deserialize)]
pub struct GamesParams {
    page: Option<String>,
    result: Option<String>,
    time_class: Option<String>,
}

/// `GET /api/users/{name}/games?page=&result=win|loss|draw&time_class=`.
pub async fn games(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    crate::http::Params(p): crate::http::Params<GamesParams>,
) -> Result<Response, ApiError> {
    let user = user_named(&app, &name).await?;
    let page = crate::http::query_int("page", p.page.as_deref(), 1..=MAX_PAGE, 1)?;
    let outcome = match p.result.as_deref() {
        None | Some("") | Some("all") => None,
        Some(s) => Some(Outcome::parse(s).ok_or_else(|| {
            ApiError::invalid("result", format!("result: {s:?} is not win, loss or draw"))
        })?),
    };
    let time_class = match p.time_class.as_deref() {
        None | Some("") | Some("all") => None,
        Some(s) => Some(TimeClass::parse(s).ok_or_else(|| {
            ApiError::invalid(
                "time_class",
                format!("time_class: {s:?} is not bullet, blitz, rapid, classical or untimed"),
            )
        })?),
    };
    let rows = app
        .store
        .user_games(GamesQuery {
            user_id: user.id.clone(),
            outcome,
            time_class,
            offset: (page - 1) * PER_PAGE,
            limit: PER_PAGE + 1,
        })
        .await?;
    let more = rows.len() > PER_PAGE as usize;
    let games: Vec<Value> = rows
        .into_iter()
        .take(PER_PAGE as usize)
        .map(|(ug, g)| {
            let players: Option<Players> = serde_json::from_str(&g.players).ok();
            let opponent = players.and_then(|p| match ug.color.as_str() {
                "white" => p.black.name,
                "black" => p.white.name,
                _ => None,
            });
            let outcome = match (ug.color.as_str(), g.result.as_str()) {
                (_, "1/2-1/2") => Some("draw"),
                ("white", "1-0") | ("black", "0-1") => Some("win"),
                ("white", "0-1") | ("black", "1-0") => Some("loss"),
                _ => None,
            };
            json!({
                "id": g.id,
                "url": format!("/game/{}", g.id),
                "color": ug.color,
                "opponent": opponent,
                "status": g.status,
                "result": g.result,
                "outcome": outcome,
                "time_class": ug.time_class,
                "rated": ug.rated,
                "ply": g.ply,
                "created_at": g.created_at,
            })
        })
        .collect();
    Ok(crate::http::no_store(&json!({
        "page": page,
        "per_page": PER_PAGE,
        "more": more,
        "games": games,
    })))
}

/// `GET /api/users/{name}/ratings/{class}`: the rating after each rated
/// game, oldest first (the newest [`MAX_HISTORY`]).
pub async fn history(
    State(app): State<Arc<App>>,
    Path((name, class)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let user = user_named(&app, &name).await?;
    let class = TimeClass::parse(&class)
        .filter(|c| *c != TimeClass::Untimed)
        .ok_or_else(|| ApiError::not_found("no such time class"))?;
    let points: Vec<Value> = app
        .store
        .rating_history(user.id, class.as_str().to_owned(), MAX_HISTORY)
        .await?
        .into_iter()
        .map(|h| {
            json!({
                "game_id": h.game_id,
                "at": h.at,
                "rating": h.rating.round(),
                "deviation": h.deviation.round(),
            })
        })
        .collect();
    Ok(crate::http::no_store(&json!({
        "time_class": class.as_str(),
        "points": points,
    })))
}
