//! Accounts (issue 15; protocol §8): a user name and a password (argon2id,
//! [`credentials`]), sessions in an HttpOnly cookie ([`session`]), the
//! user's seats following the account across devices, a Glicko-2 rating
//! per time class ([`rating`]) moved by rated games, and a player's page
//! ([`profile`]). Anonymous play is unchanged: an account is never needed
//! but for rated games.

pub mod credentials;
pub mod profile;
pub mod rating;
pub mod routes;
pub mod session;

use crate::App;
use axum::http::HeaderMap;

/// The hash of the seat token the request holds in game `id`: its seat
/// cookie's, else (logged in) the seat the account holds in the game.
pub async fn seat_hash(app: &App, headers: &HeaderMap, id: &str) -> Option<String> {
    if let Some(t) = crate::seat::token_from_cookies(session::cookie_headers(headers), id) {
        return Some(crate::seat::hash_token(&t));
    }
    let user = session::user(app, headers).await.ok().flatten()?;
    app.store
        .user_seat(user.id, id.to_owned())
        .await
        .ok()
        .flatten()
}
