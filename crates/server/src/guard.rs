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
    let limit = &app.create_limit;
    let what = "too many games created or joined; try again in a minute";
    if let Some(refused) = per_address(&app, limit, addr, &request, what) {
        return refused;
    }
    next.run(request).await
}

/// 429 `rate_limited` (saying `what`) when the request's client (behind a
/// trusted proxy, the real one) has used up `limit` this minute; `None`
/// lets it through. The one check behind every per-address middleware.
pub(crate) fn per_address(
    app: &App,
    limit: &crate::limits::PerAddress,
    addr: SocketAddr,
    request: &Request,
    what: &'static str,
) -> Option<Response> {
    if limit.allow(app.hosts.client_ip(addr.ip(), request.headers())) {
        return None;
    }
    Some(ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", what).into_response())
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

/// Middleware: the answers axum's extractors give on their own (413 for a
/// body over the limit, 415, 400 for a bad path) are plain text; the
/// protocol promises JSON errors (§3), so they are rewritten as such.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (code, message) = match status {
        StatusCode::PAYLOAD_TOO_LARGE => ("too_large", "the request body is too large"),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ("invalid_request", "unsupported content type"),
        StatusCode::METHOD_NOT_ALLOWED => ("not_found", "method not allowed here"),
        s if s.is_server_error() => ("internal", "internal error"),
        _ => ("invalid_request", "the request cannot be read"),
    };
    let mut error = ApiError::new(status, code, message);
    if code == "invalid_request" {
        // Protocol §3: `field` is present for `invalid_request`; here
        // nothing more precise than the request is known.
        error.field = Some("request".into());
    }
    error.into_response()
}

/// Who may name the server in `Host` (issue 13, defect 7: DNS rebinding):
/// the authority of `--public-url` if set; always an IP literal and
/// `localhost` (a rebinding attack needs a domain name of its own).
///
/// ```
/// use arbiter_server::guard::HostPolicy;
/// let p = HostPolicy::new(Some("https://chess.example/".into()), vec![]);
/// assert!(p.allows(Some("chess.example")));
/// assert!(p.allows(Some("127.0.0.1:8080")));
/// assert!(p.allows(Some("[::1]:8080")));
/// assert!(!p.allows(Some("evil.example")));
/// ```
#[derive(Clone, Debug, Default)]
pub struct HostPolicy {
    public_host: Option<String>,
    /// Proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed.
    pub trusted_proxies: Vec<std::net::IpAddr>,
}

impl HostPolicy {
    /// From `--public-url` (e.g. `https://chess.example`) and `--trusted-proxy`.
    pub fn new(public_url: Option<String>, trusted_proxies: Vec<std::net::IpAddr>) -> HostPolicy {
        let public_host = public_url.map(|u| {
            let rest = u
                .strip_prefix("https://")
                .or_else(|| u.strip_prefix("http://"))
                .unwrap_or(&u);
            rest.split('/').next().unwrap_or("").to_ascii_lowercase()
        });
        HostPolicy {
            public_host,
            trusted_proxies,
        }
    }

    /// May a request carry this `Host`? (None: no header, not a browser.)
    pub fn allows(&self, host: Option<&str>) -> bool {
        let Some(host) = host else {
            return true;
        };
        let host = host.to_ascii_lowercase();
        if self.public_host.as_deref() == Some(host.as_str()) {
            return true;
        }
        let name = if let Some(v6) = host.strip_prefix('[') {
            return v6
                .split(']')
                .next()
                .is_some_and(|a| a.parse::<std::net::Ipv6Addr>().is_ok());
        } else {
            host.rsplit_once(':')
                .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
                .map_or(host.as_str(), |(n, _)| n)
        };
        name == "localhost" || name.parse::<std::net::Ipv4Addr>().is_ok()
    }

    /// The client's address: the peer's, or, from a trusted proxy, the last
    /// address in `X-Forwarded-For` that is not itself a trusted proxy.
    pub fn client_ip(&self, peer: std::net::IpAddr, headers: &HeaderMap) -> std::net::IpAddr {
        if !self.trusted_proxies.contains(&peer) {
            return peer;
        }
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|a| a.trim().parse::<std::net::IpAddr>().ok())
            .collect::<Vec<_>>();
        forwarded
            .into_iter()
            .rev()
            .find(|a| !self.trusted_proxies.contains(a))
            .unwrap_or(peer)
    }

    /// Did the request come over HTTPS? Only a trusted proxy can say so.
    pub fn is_https(&self, peer: std::net::IpAddr, headers: &HeaderMap) -> bool {
        self.trusted_proxies.contains(&peer)
            && headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.eq_ignore_ascii_case("https"))
    }
}

/// Middleware: 421 `forbidden_host` for a `Host` the server does not answer
/// to ([`HostPolicy`]).
pub async fn host(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or("\u{0}"));
    if !app.hosts.allows(host) {
        return ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            "forbidden_host",
            "this server does not answer to that host name (see --public-url)",
        )
        .into_response();
    }
    next.run(request).await
}
