//! Sessions (protocol §8): a 128-bit token in the HttpOnly, `SameSite=Strict`
//! cookie `arbiter_session` on the whole site; only its SHA-256 is stored.
//! Every route that acts with a session checks the `Origin` as the seats'
//! do (`guard::origin`), so another site cannot act for a logged-in user.

use crate::store::account::UserRow;
use crate::store::StoreError;
use crate::App;
use axum::http::{header, HeaderMap};

/// The cookie's name.
pub const COOKIE: &str = "arbiter_session";
/// A session lasts 30 days.
pub const LIFETIME_MS: u64 = 30 * 24 * 3600 * 1000;

/// The `Set-Cookie` of a new session; `secure` over HTTPS.
///
/// ```
/// let c = arbiter_server::account::session::set_cookie("tok", false);
/// assert_eq!(c, "arbiter_session=tok; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000");
/// ```
pub fn set_cookie(token: &str, secure: bool) -> String {
    format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}{}",
        LIFETIME_MS / 1000,
        if secure { "; Secure" } else { "" }
    )
}

/// The `Set-Cookie` that ends the session in the browser.
pub fn clear_cookie(secure: bool) -> String {
    format!(
        "{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0{}",
        if secure { "; Secure" } else { "" }
    )
}

/// The `Cookie` headers of a request.
pub fn cookie_headers(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
}

/// The session token of a request, if any.
pub fn token(headers: &HeaderMap) -> Option<String> {
    crate::seat::token_cookie(cookie_headers(headers), COOKIE)
}

/// The user logged in on the request, if its session is live.
pub async fn user(app: &App, headers: &HeaderMap) -> Result<Option<UserRow>, StoreError> {
    let Some(t) = token(headers) else {
        return Ok(None);
    };
    app.store
        .session_user(crate::seat::hash_token(&t), app.clock.now_ms())
        .await
}
