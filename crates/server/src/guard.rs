//! The checks that stand in front of the handlers that change something
//! (protocol §2, §3): one middleware refusing a foreign `Origin`, one
//! limiting how often an address creates or joins games. The routes that
//! need them say so in [`crate::http::router`]; no handler repeats them.
//!
//! ```
//! use axum::http::{header, HeaderMap, HeaderValue};
//! use arbiter_server::guard::same_origin;
//!
//! let mut headers = HeaderMap::new();
//! headers.insert(header::HOST, HeaderValue::from_static("arbiter.example"));
//! assert!(same_origin(&headers)); // no Origin: not a browser's cross-site request
//! headers.insert(header::ORIGIN, HeaderValue::from_static("https://arbiter.example"));
//! assert!(same_origin(&headers));
//! headers.insert(header::ORIGIN, HeaderValue::from_static("https://evil.example"));
//! assert!(!same_origin(&headers));
//! ```

use crate::error::ApiError;
use crate::App;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::sync::Arc;

/// `true` if the request has no `Origin`, or one naming the `Host` it was
/// sent to (§2: a page of another site cannot act for a player).
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let origin = origin.to_str().unwrap_or("");
    origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .is_some_and(|o| o == host)
}

/// Middleware: 403 `forbidden_origin` for a foreign `Origin`.
pub async fn origin(request: Request, next: Next) -> Response {
    if !same_origin(request.headers()) {
        return ApiError::new(StatusCode::FORBIDDEN, "forbidden_origin", "foreign origin")
            .into_response();
    }
    next.run(request).await
}

/// Middleware: 429 `rate_limited` once the client's address has created or
/// joined more games this minute than `--create-per-minute` allows.
pub async fn rate_limit(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    if !app.create_limit.allow(addr.ip()) {
        return ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many games created or joined; try again in a minute",
        )
        .into_response();
    }
    next.run(request).await
}

/// Middleware: 408 `request_timeout` for a request not handled within
/// `limit` (a body announced and never sent), so that it holds no
/// connection for longer.
pub async fn deadline(limit: std::time::Duration, request: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(r) => r,
        Err(_) => {
            let mut r = ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "request_timeout",
                "the request was not received in time",
            )
            .into_response();
            r.headers_mut().insert(
                header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
            r
        }
    }
}
