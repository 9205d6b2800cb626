//! The account routes (protocol §8): sign up, log in, log out, change the
//! password, who is logged in; the player's pages ([`super::profile`]).
//! Every `POST` checks the `Origin` (`guard::origin`) and is rate-limited
//! per address (`--account-per-minute`); password hashing runs on the
//! blocking pool, [`super::credentials::HASHING_AT_ONCE`] at a time.

use super::credentials::{self, UserName};
use super::session;
use crate::error::ApiError;
use crate::store::account::{SessionRow, UserRow};
use crate::store::WriteOp;
use crate::{guard, App};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::net::SocketAddr;
use std::sync::Arc;

/// The routes of accounts and players' pages.
pub fn router(app: Arc<App>) -> Router<Arc<App>> {
    let origin = middleware::from_fn(guard::origin);
    let limit = middleware::from_fn_with_state(app, rate_limit);
    let acts = Router::new()
        .route("/api/account/signup", post(signup))
        .route("/api/account/login", post(login))
        .route("/api/account/logout", post(logout))
        .route("/api/account/password", post(change_password))
        .route_layer(limit)
        .route_layer(origin);
    Router::new()
        .route("/api/account", get(me))
        .route("/api/users/{name}", get(super::profile::profile))
        .route("/api/users/{name}/games", get(super::profile::games))
        .route(
            "/api/users/{name}/ratings/{class}",
            get(super::profile::history),
        )
        .merge(acts)
}

/// Middleware: 429 `rate_limited` once the address has tried more account
/// actions this minute than allowed (guessing passwords is slow).
async fn rate_limit(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    let what = "too many account requests; try again in a minute";
    if let Some(refused) = crate::guard::per_address(&app, &app.account_limit, addr, &request, what)
    {
        return refused;
    }
    next.run(request).await
}

fn field<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v.get(name).unwrap_or(&serde_json::Value::Null)
}

/// Runs `f` (hashing or verifying) on the blocking pool, a bounded number
/// at a time.
async fn hashing<T: Send + 'static>(
    app: &App,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let _permit = app
        .hashing
        .acquire()
        .await
        .map_err(|_| ApiError::internal("stopping"))?;
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|_| ApiError::internal("the password check failed"))
}

/// The public view of a user.
fn user_json(u: &UserRow) -> serde_json::Value {
    serde_json::json!({ "name": u.name, "url": format!("/@/{}", u.name) })
}

fn with_cookie(status: StatusCode, body: serde_json::Value, cookie: &str) -> Response {
    let mut resp = (status, Json(body)).into_response();
    if let Ok(v) = HeaderValue::from_str(cookie) {
        resp.headers_mut().insert(header::SET_COOKIE, v);
    }
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

/// Opens a session for `user`: its writes and the cookie.
fn open_session(app: &App, user: &UserRow, secure: bool) -> (WriteOp, String) {
    let token = crate::seat::new_token();
    let now = app.clock.now_ms();
    let op = WriteOp::InsertSession(SessionRow {
        token_hash: crate::seat::hash_token(&token),
        user_id: user.id.clone(),
        created_at: now,
        expires_at: now + session::LIFETIME_MS,
    });
    (op, session::set_cookie(&token, secure))
}

/// `POST /api/account/signup` `{name, password}`: 201 and a session.
async fn signup(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let v = crate::error::json_body(&body)?;
    let name = UserName::parse(field(&v, "name"))?;
    let password = credentials::password(field(&v, "password"), "password")?;
    if app.store.user(name.id.clone()).await?.is_some() {
        return Err(name_taken());
    }
    let hash = hashing(&app, move || credentials::hash(&password)).await??;
    let user = UserRow {
        id: name.id,
        name: name.name,
        password_hash: hash,
        created_at: app.clock.now_ms(),
    };
    let (op, cookie) = open_session(&app, &user, app.hosts.is_https(peer.ip(), &headers));
    if let Err(e) = app
        .store
        .write(vec![WriteOp::InsertUser(user.clone()), op])
        .await
    {
        // Two sign-ups with one name at once: the second finds it taken.
        if app.store.user(user.id.clone()).await?.is_some() {
            return Err(name_taken());
        }
        return Err(e.into());
    }
    Ok(with_cookie(
        StatusCode::CREATED,
        serde_json::json!({ "user": user_json(&user) }),
        &cookie,
    ))
}

fn name_taken() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "name_taken",
        "that user name is taken",
    )
}

/// `POST /api/account/login` `{name, password}`: a session, or 401
/// `wrong_credentials` (the same answer, and the same time, for an unknown
/// name as for a wrong password).
async fn login(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let v = crate::error::json_body(&body)?;
    let wrong = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "wrong_credentials",
            "wrong user name or password",
        )
    };
    let name = UserName::parse(field(&v, "name")).map_err(|_| wrong())?;
    let password = field(&v, "password").as_str().unwrap_or("").to_owned();
    if password.len() > credentials::MAX_PASSWORD {
        return Err(wrong());
    }
    let user = app.store.user(name.id).await?;
    let stored = user.as_ref().map_or_else(
        || credentials::decoy().to_owned(),
        |u| u.password_hash.clone(),
    );
    let ok = hashing(&app, move || credentials::verify(&password, &stored)).await?;
    let Some(user) = user.filter(|_| ok) else {
        return Err(wrong());
    };
    let (op, cookie) = open_session(&app, &user, app.hosts.is_https(peer.ip(), &headers));
    let expired = WriteOp::DeleteExpiredSessions {
        user_id: user.id.clone(),
        now: app.clock.now_ms(),
    };
    app.store.write(vec![expired, op]).await?;
    Ok(with_cookie(
        StatusCode::OK,
        serde_json::json!({ "user": user_json(&user) }),
        &cookie,
    ))
}

/// `POST /api/account/logout`: the session ends (also in the database).
async fn logout(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(t) = session::token(&headers) {
        app.store
            .write(vec![WriteOp::DeleteSession {
                token_hash: crate::seat::hash_token(&t),
            }])
            .await?;
    }
    Ok(with_cookie(
        StatusCode::OK,
        serde_json::json!({ "user": null }),
        &session::clear_cookie(app.hosts.is_https(peer.ip(), &headers)),
    ))
}

/// `POST /api/account/password` `{current, new}`: the new password; every
/// other session of the account ends.
async fn change_password(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let Some(user) = session::user(&app, &headers).await? else {
        return Err(login_required());
    };
    let v = crate::error::json_body(&body)?;
    let current = field(&v, "current").as_str().unwrap_or("").to_owned();
    let new = credentials::password(field(&v, "new"), "new")?;
    if current.len() > credentials::MAX_PASSWORD {
        return Err(wrong_password());
    }
    let stored = user.password_hash.clone();
    let new_hash = hashing(&app, move || {
        credentials::verify(&current, &stored).then(|| credentials::hash(&new))
    })
    .await?
    .ok_or_else(wrong_password)??;
    let keep = session::token(&headers)
        .map(|t| crate::seat::hash_token(&t))
        .unwrap_or_default();
    app.store
        .write(vec![
            WriteOp::SetPassword {
                user_id: user.id.clone(),
                password_hash: new_hash,
            },
            WriteOp::DeleteOtherSessions {
                user_id: user.id.clone(),
                keep,
            },
        ])
        .await?;
    Ok(crate::http::no_store(
        &serde_json::json!({ "user": user_json(&user) }),
    ))
}

fn wrong_password() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "wrong_credentials",
        "the current password is wrong",
    )
}

/// 401 `login_required`.
pub fn login_required() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "login_required",
        "log in to do this",
    )
}

/// `GET /api/account`: who is logged in (`{"user": null}` if nobody).
async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let user = session::user(&app, &headers).await?;
    Ok(crate::http::no_store(
        &serde_json::json!({ "user": user.as_ref().map(user_json) }),
    ))
}
