//! The stored side of accounts (issue 15): users, sessions, the games a
//! user sits in, ratings and their history, and the one rule both backends
//! run when a rated game ends ([`rate_game`]): both players' ratings move
//! in the same transaction as the game's result.
//!
//! The SQL here is written once for both databases: `$1`, `$2` … are
//! PostgreSQL's parameters and SQLite's numbered ones alike (each first
//! used in order).

use super::StoreError;
use crate::account::rating::{self, Rating, TimeClass};

/// A user. `id` is the user name in lower case (names are unique without
/// regard to case); `name` is as the user spelled it.
///
/// ```
/// use arbiter_server::store::account::UserRow;
/// let u = UserRow { id: "anna".into(), name: "Anna".into(), password_hash: "$argon2id$…".into(), created_at: 1 };
/// assert_eq!(u.id, u.name.to_lowercase());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRow {
    /// The name in lower case.
    pub id: String,
    /// The name as chosen.
    pub name: String,
    /// The argon2id hash in PHC form (never the password).
    pub password_hash: String,
    /// Epoch ms.
    pub created_at: u64,
}

/// A session: the SHA-256 of its cookie's token.
///
/// ```
/// use arbiter_server::store::account::SessionRow;
/// let s = SessionRow { token_hash: "ab…".into(), user_id: "anna".into(), created_at: 1, expires_at: 2 };
/// assert!(s.expires_at > s.created_at);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// SHA-256 of the token, hex.
    pub token_hash: String,
    /// The user.
    pub user_id: String,
    /// Epoch ms.
    pub created_at: u64,
    /// Epoch ms after which it is refused.
    pub expires_at: u64,
}

/// A user's seat in a game: the hash of the seat's token, so that any
/// device the user logs in from holds the seat.
///
/// ```
/// use arbiter_server::store::account::UserGameRow;
/// let g = UserGameRow { user_id: "anna".into(), game_id: "abcdefgh".into(), color: "white".into(),
///     token_hash: "…".into(), time_class: "blitz".into(), rated: true, created_at: 1 };
/// assert!(g.rated);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserGameRow {
    /// The user.
    pub user_id: String,
    /// The game.
    pub game_id: String,
    /// `white`, `black` or `both`.
    pub color: String,
    /// The seat's token hash (as in `seats`).
    pub token_hash: String,
    /// `bullet`, `blitz`, `rapid`, `classical` or `untimed`.
    pub time_class: String,
    /// Rated or casual.
    pub rated: bool,
    /// The game's creation, epoch ms.
    pub created_at: u64,
}

/// A user's rating in one time class.
///
/// ```
/// use arbiter_server::store::account::RatingRow;
/// let r = RatingRow { time_class: "blitz".into(), rating: 1500.0, deviation: 350.0, volatility: 0.06, games: 0 };
/// assert_eq!(r.games, 0);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The time class.
    pub time_class: String,
    /// r.
    pub rating: f64,
    /// RD.
    pub deviation: f64,
    /// σ.
    pub volatility: f64,
    /// Rated games played in the class.
    pub games: u64,
}

/// A point of a rating's history: after a rated game.
///
/// ```
/// use arbiter_server::store::account::HistoryRow;
/// let h = HistoryRow { game_id: "abcdefgh".into(), at: 5, rating: 1662.2, deviation: 290.2 };
/// assert!(h.rating > 1500.0);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    /// The game that moved it.
    pub game_id: String,
    /// Epoch ms.
    pub at: u64,
    /// r after the game.
    pub rating: f64,
    /// RD after the game.
    pub deviation: f64,
}

/// Which of a user's games to list (a player's page).
///
/// ```
/// use arbiter_server::store::account::{GamesQuery, Outcome};
/// let q = GamesQuery { user_id: "anna".into(), outcome: Some(Outcome::Win), time_class: None, offset: 0, limit: 20 };
/// assert_eq!(q.limit, 20);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamesQuery {
    /// The user.
    pub user_id: String,
    /// Won, lost or drawn by the user; `None`: every game.
    pub outcome: Option<Outcome>,
    /// One time class; `None`: all.
    pub time_class: Option<TimeClass>,
    /// Rows skipped (newest first).
    pub offset: u32,
    /// Rows returned.
    pub limit: u32,
}

/// A finished game's outcome for one of its players.
///
/// ```
/// use arbiter_server::store::account::Outcome;
/// assert_eq!(Outcome::parse("draw"), Some(Outcome::Draw));
/// assert_eq!(Outcome::parse("lost"), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The user won.
    Win,
    /// The user lost.
    Loss,
    /// Drawn.
    Draw,
}

impl Outcome {
    /// From `win`, `loss`, `draw`.
    pub fn parse(s: &str) -> Option<Outcome> {
        match s {
            "win" => Some(Outcome::Win),
            "loss" => Some(Outcome::Loss),
            "draw" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// The SQL condition on `ug.color` and `g.result`.
    fn condition(self) -> &'static str {
        match self {
            Outcome::Win => {
                "((ug.color = 'white' AND g.result = '1-0') OR (ug.color = 'black' AND g.result = '0-1'))"
            }
            Outcome::Loss => {
                "((ug.color = 'white' AND g.result = '0-1') OR (ug.color = 'black' AND g.result = '1-0'))"
            }
            Outcome::Draw => "g.result = '1/2-1/2'",
        }
    }
}

/// The columns of `users`, in the order the backends read them.
pub(crate) const USER_COLUMNS: &str = "id, name, password_hash, created_at";

/// The columns of `user_games` (as `ug`), in the order read.
pub(crate) const USER_GAME_COLUMNS: &str =
    "ug.user_id, ug.game_id, ug.color, ug.token_hash, ug.time_class, ug.rated, ug.created_at";

/// The user of a live session: `$1` the token hash, `$2` now.
pub(crate) const SESSION_USER: &str = "SELECT u.id, u.name, u.password_hash, u.created_at
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.expires_at > $2";

/// A user's seat in a game: `$1` user, `$2` game.
pub(crate) const USER_SEAT: &str =
    "SELECT token_hash FROM user_games WHERE user_id = $1 AND game_id = $2";

/// A user's ratings.
pub(crate) const RATINGS: &str = "SELECT time_class, rating, deviation, volatility, games
     FROM ratings WHERE user_id = $1 ORDER BY time_class";

/// A rating's history, oldest first: `$1` user, `$2` class, `$3` limit
/// (the newest `$3` points).
pub(crate) const HISTORY: &str = "SELECT game_id, at, rating, deviation FROM (
        SELECT id, game_id, at, rating, deviation FROM rating_history
        WHERE user_id = $1 AND time_class = $2 ORDER BY id DESC LIMIT $3) h
     ORDER BY id";

/// Finished games by the user's colour and the result: `$1` user.
pub(crate) const RESULTS_BY_COLOUR: &str = "SELECT ug.color, g.result, COUNT(*)
     FROM user_games ug JOIN games g ON g.id = ug.game_id
     WHERE ug.user_id = $1 AND g.status = 'finished' AND ug.color != 'both'
     GROUP BY ug.color, g.result";

/// The players of a rated game, White's row first: `$1` game.
pub(crate) const RATED_PLAYERS: &str = "SELECT user_id, color FROM user_games
     WHERE game_id = $1 AND rated = 1 AND color IN ('white', 'black') ORDER BY color DESC";

/// A user's rating in a class: `$1` user, `$2` class.
pub(crate) const RATING_OF: &str =
    "SELECT rating, deviation, volatility, games FROM ratings WHERE user_id = $1 AND time_class = $2";

/// Sets a rating: `$1` user, `$2` class, `$3`–`$5` r, RD, σ, `$6` games.
pub(crate) const PUT_RATING: &str =
    "INSERT INTO ratings (user_id, time_class, rating, deviation, volatility, games)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (user_id, time_class) DO UPDATE SET rating = excluded.rating,
        deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games";

/// A point of history: `$1` user, `$2` class, `$3` game, `$4` at, `$5` r, `$6` RD.
pub(crate) const ADD_HISTORY: &str =
    "INSERT INTO rating_history (user_id, time_class, game_id, at, rating, deviation)
     VALUES ($1, $2, $3, $4, $5, $6)";

/// The official result of an event's game (its board's): `$1` game.
pub(crate) const BOARD_RESULT: &str = "SELECT result FROM tournament_boards WHERE game_id = $1";

/// The class a game was rated in (its first point of history): `$1` game.
pub(crate) const RATED_CLASS: &str =
    "SELECT time_class FROM rating_history WHERE game_id = $1 ORDER BY id LIMIT 1";

/// A user's rating and deviation just before a game (the point before the
/// game's first): `$1` user, `$2` class, `$3` game.
pub(crate) const RATING_BEFORE: &str = "SELECT h.rating, h.deviation FROM rating_history h
     WHERE h.user_id = $1 AND h.time_class = $2 AND h.id < (SELECT MIN(f.id)
        FROM rating_history f WHERE f.user_id = $1 AND f.time_class = $2 AND f.game_id = $3)
     ORDER BY h.id DESC LIMIT 1";

/// Marks a game rated (once): `$1` game, `$2` at.
pub(crate) const MARK_RATED: &str =
    "INSERT INTO rated_games (game_id, at) VALUES ($1, $2) ON CONFLICT (game_id) DO NOTHING";

/// The page of a user's games: the SQL (parameters `$1` user, `$2` class
/// if any, then limit and offset) and whether `$2` is the class.
pub(crate) fn games_sql(q: &GamesQuery, game_columns: &str) -> String {
    let mut cond = String::from("ug.user_id = $1 AND g.status != 'waiting'");
    let mut next = 2;
    if q.time_class.is_some() {
        cond.push_str(" AND ug.time_class = $2");
        next = 3;
    }
    if let Some(o) = q.outcome {
        cond.push_str(" AND g.status = 'finished' AND ");
        cond.push_str(o.condition());
    }
    let cols = game_columns
        .split(", ")
        .map(|c| format!("g.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "SELECT {USER_GAME_COLUMNS}, {cols} FROM user_games ug JOIN games g ON g.id = ug.game_id
         WHERE {cond} ORDER BY ug.created_at DESC, ug.game_id LIMIT ${next} OFFSET ${}",
        next + 1
    )
}

/// A parameter of an account write ([`statement`]), bound by each backend.
#[derive(Debug, Clone, Copy)]
pub enum Arg<'a> {
    /// A text column.
    Text(&'a str),
    /// An integer column (times in ms, flags as 0/1).
    Int(i64),
    /// SQL NULL in an integer column.
    NullInt,
    /// SQL NULL in a text column.
    NullText,
}

/// The plain statement (SQL, in `$n` form for both dialects, and its
/// parameters) of an account write, one home for both backends; `None`
/// for writes that are not plain statements (the rating: [`rate_game`]) or
/// not an account's.
pub(crate) fn statement(op: &super::WriteOp) -> Option<(&'static str, Vec<Arg<'_>>)> {
    use super::WriteOp;
    use Arg::{Int, Text};
    let t = |v: &u64| Int(*v as i64);
    Some(match op {
        WriteOp::InsertUser(u) => (
            "INSERT INTO users (id, name, password_hash, created_at) VALUES ($1, $2, $3, $4)",
            vec![Text(&u.id), Text(&u.name), Text(&u.password_hash), t(&u.created_at)],
        ),
        WriteOp::SetPassword {
            user_id,
            password_hash,
        } => (
            "UPDATE users SET password_hash = $1 WHERE id = $2",
            vec![Text(password_hash), Text(user_id)],
        ),
        WriteOp::InsertSession(s) => (
            "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
            vec![Text(&s.token_hash), Text(&s.user_id), t(&s.created_at), t(&s.expires_at)],
        ),
        WriteOp::DeleteSession { token_hash } => (
            "DELETE FROM sessions WHERE token_hash = $1",
            vec![Text(token_hash)],
        ),
        WriteOp::DeleteOtherSessions { user_id, keep } => (
            "DELETE FROM sessions WHERE user_id = $1 AND token_hash != $2",
            vec![Text(user_id), Text(keep)],
        ),
        WriteOp::DeleteExpiredSessions { user_id, now } => (
            "DELETE FROM sessions WHERE user_id = $1 AND expires_at <= $2",
            vec![Text(user_id), t(now)],
        ),
        WriteOp::InsertUserGame(g) => (
            "INSERT INTO user_games (user_id, game_id, color, token_hash, time_class, rated, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            vec![
                Text(&g.user_id),
                Text(&g.game_id),
                Text(&g.color),
                Text(&g.token_hash),
                Text(&g.time_class),
                Int(i64::from(g.rated)),
                t(&g.created_at),
            ],
        ),
        _ => return None,
    })
}

/// What [`rate_game`] needs of a transaction, in each backend's terms.
pub(crate) trait RatingTx {
    /// The rated game's players: (White's user, Black's user), if both
    /// sides are accounts.
    fn rated_players(&mut self, game_id: &str) -> Result<Option<(String, String)>, StoreError>;
    /// A rating and its game count, if the user has one in the class.
    fn rating(&mut self, user: &str, class: &str) -> Result<Option<(Rating, u64)>, StoreError>;
    /// Sets a rating and its game count.
    fn put_rating(
        &mut self,
        user: &str,
        class: &str,
        r: Rating,
        games: u64,
    ) -> Result<(), StoreError>;
    /// Appends a point of history.
    fn add_history(
        &mut self,
        user: &str,
        class: &str,
        game_id: &str,
        at: u64,
        r: Rating,
    ) -> Result<(), StoreError>;
    /// Marks the game rated; `false` if it already was.
    fn mark_rated(&mut self, game_id: &str, at: u64) -> Result<bool, StoreError>;
    /// The game's board result in an event, if it is an event's game and
    /// the board has one ([`BOARD_RESULT`]).
    fn board_result(&mut self, game_id: &str) -> Result<Option<String>, StoreError>;
    /// The class the game was rated in; `None` if it was not rated
    /// ([`RATED_CLASS`]).
    fn rated_class(&mut self, game_id: &str) -> Result<Option<String>, StoreError>;
    /// A user's (rating, deviation) before the game; `None` if the game
    /// was his first in the class ([`RATING_BEFORE`]).
    fn rating_before(
        &mut self,
        user: &str,
        class: &str,
        game_id: &str,
    ) -> Result<Option<(f64, f64)>, StoreError>;
}

/// A rated game has ended with `result` (PGN) at `at`: both players'
/// Glicko-2 ratings in `class` move ([`rating::rate`]), each from the
/// other's rating before the game, and a point is added to each history.
/// Run inside the transaction that stores the result; a game is rated
/// once, however often this runs.
pub(crate) fn rate_game(
    tx: &mut impl RatingTx,
    game_id: &str,
    result: &str,
    class: &str,
    at: u64,
) -> Result<(), StoreError> {
    // An event's game is rated with its board's result, the official one:
    // the organiser may have set it while the game went on (§9.4).
    let official = tx.board_result(game_id)?.filter(|r| !r.is_empty());
    let Some(score) = rating::white_score(official.as_deref().unwrap_or(result)) else {
        return Ok(());
    };
    let Some((white, black)) = tx.rated_players(game_id)? else {
        return Ok(());
    };
    if white == black || !tx.mark_rated(game_id, at)? {
        return Ok(());
    }
    let (w, wn) = tx.rating(&white, class)?.unwrap_or_default();
    let (b, bn) = tx.rating(&black, class)?.unwrap_or_default();
    let (w2, b2) = rating::rate(w, b, score);
    tx.put_rating(&white, class, w2, wn + 1)?;
    tx.put_rating(&black, class, b2, bn + 1)?;
    tx.add_history(&white, class, game_id, at, w2)?;
    tx.add_history(&black, class, game_id, at, b2)?;
    Ok(())
}

/// A rated game's official result changes from `from` to `to` at `at` (an
/// event organiser's correction or forfeit, protocol §9.4): each player's
/// rating moves by what `to` gives minus what `from` gave, both computed
/// from his rating and deviation before the game (its history) — as the
/// result had been `to` from the start, the games played since left as
/// they were. A forfeit code rates nothing (B.02 5.1): `to` a forfeit
/// takes the game's effect back, `from` one puts it in. The volatility
/// before the game is not kept; the current one stands for it. Nothing if
/// the game was never rated (unrated, less than a move each, or a
/// forfeit at its end: it is rated, if at all, when it ends).
pub(crate) fn rerate_game(
    tx: &mut impl RatingTx,
    game_id: &str,
    from: &str,
    to: &str,
    at: u64,
) -> Result<(), StoreError> {
    let (was, now) = (rating::white_score(from), rating::white_score(to));
    if was == now {
        return Ok(());
    }
    let Some(class) = tx.rated_class(game_id)? else {
        return Ok(());
    };
    let Some((white, black)) = tx.rated_players(game_id)? else {
        return Ok(());
    };
    let (w, wn) = tx.rating(&white, &class)?.unwrap_or_default();
    let (b, bn) = tx.rating(&black, &class)?.unwrap_or_default();
    let mut before = |user: &str, current: Rating| -> Result<Rating, StoreError> {
        Ok(match tx.rating_before(user, &class, game_id)? {
            Some((rating, deviation)) => Rating {
                rating,
                deviation,
                volatility: current.volatility,
            },
            None => Rating::default(),
        })
    };
    let (wb, bb) = (before(&white, w)?, before(&black, b)?);
    let after = |score: Option<f64>| score.map_or((wb, bb), |s| rating::rate(wb, bb, s));
    let ((wf, bf), (wt, bt)) = (after(was), after(now));
    let games = |n: u64| (n + u64::from(now.is_some())).saturating_sub(u64::from(was.is_some()));
    for (user, current, n, moved) in [
        (&white, w, wn, wt.rating - wf.rating),
        (&black, b, bn, bt.rating - bf.rating),
    ] {
        let r = Rating {
            rating: current.rating + moved,
            ..current
        };
        tx.put_rating(user, &class, r, games(n))?;
        tx.add_history(user, &class, game_id, at, r)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_query_numbers_its_parameters_in_order() {
        let mut q = GamesQuery {
            user_id: "anna".into(),
            outcome: None,
            time_class: None,
            offset: 0,
            limit: 20,
        };
        let sql = games_sql(&q, "id, result");
        assert!(sql.contains("g.id, g.result FROM"), "{sql}");
        assert!(sql.ends_with("LIMIT $2 OFFSET $3"), "{sql}");
        q.time_class = Some(TimeClass::Blitz);
        q.outcome = Some(Outcome::Loss);
        let sql = games_sql(&q, "id");
        assert!(sql.contains("ug.time_class = $2"), "{sql}");
        assert!(sql.contains("g.result = '0-1'"), "{sql}");
        assert!(sql.ends_with("LIMIT $3 OFFSET $4"), "{sql}");
    }
}
