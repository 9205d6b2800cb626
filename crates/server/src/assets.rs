//! The web app, embedded in the binary from `web/dist` (protocol §1): a
//! fresh machine needs no Node.js to serve it.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use include_dir::{include_dir, Dir};

static DIST: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../web/dist");

/// The Content-Security-Policy of every HTML response (§1).
pub const CSP: &str = "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self'; style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

fn mime(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

fn common(resp: &mut Response) {
    let h = resp.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
}

/// `index.html` with the CSP, not cached.
pub fn index() -> Response {
    let body = DIST.get_file("index.html").map(|f| f.contents()).unwrap_or(
        b"<!doctype html><title>Arbiter</title><p>web/dist is missing: run npm run build in web/",
    );
    let mut resp = (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
            (header::CONTENT_SECURITY_POLICY, CSP),
        ],
        body,
    )
        .into_response();
    common(&mut resp);
    resp
}

/// A file of `web/dist` by its URL path (`/app.js`), cached for an hour;
/// `None` if there is no such file.
pub fn file(path: &str) -> Option<Response> {
    let rel = path.strip_prefix('/')?;
    if rel.is_empty()
        || rel
            .split('/')
            .any(|seg| seg.is_empty() || seg == "." || seg == "..")
    {
        return None;
    }
    if rel == "index.html" {
        return Some(index());
    }
    let f = DIST.get_file(rel)?;
    let mut resp = (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, mime(rel)),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        f.contents(),
    )
        .into_response();
    common(&mut resp);
    Some(resp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_app_is_embedded() {
        assert!(DIST.get_file("index.html").is_some());
        assert!(DIST.get_file("app.js").is_some());
        assert!(file("/pieces/wK.svg").is_some());
        assert!(file("/../Cargo.toml").is_none());
        assert!(file("/nothing.js").is_none());
        let r = file("/app.css").unwrap();
        assert_eq!(r.headers()[header::CONTENT_TYPE], "text/css; charset=utf-8");
        let i = index();
        assert_eq!(i.headers()[header::CONTENT_SECURITY_POLICY], CSP);
        assert_eq!(i.headers()[header::CACHE_CONTROL], "no-cache");
    }
}
