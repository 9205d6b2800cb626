//! The one mapping between the stored columns and the row types, for every
//! backend: which columns a query selects ([`GAME_COLUMNS`], …) and how a
//! result row becomes a [`GameRow`], [`SeatRow`], [`EventRow`] or
//! [`Lease`]. A backend only says how to read one column of its row type
//! ([`Columns`]); a column that is missing or of another type is an error,
//! never a panic.

use super::account::{HistoryRow, RatingRow, UserGameRow, UserRow};
use super::lease::{self, Lease};
use super::{EventRow, GameRow, SeatRow};

/// The columns of `games`, in the order [`game`] reads them.
pub(crate) const GAME_COLUMNS: &str =
    "id, created_at, updated_at, status, settings, players, result, termination, ply, clock_origin";

/// The columns of `seats`, in the order [`seat`] reads them.
pub(crate) const SEAT_COLUMNS: &str = "game_id, token_hash, colors";

/// The columns of `events`, in the order [`event`] reads them.
pub(crate) const EVENT_COLUMNS: &str = "game_id, seq, body";

/// One result row of a backend: its columns by 0-based index. Integers are
/// stored as SQL `BIGINT`/`INTEGER` (`i64`).
pub(crate) trait Columns {
    /// The backend's error.
    type Error;
    /// A `TEXT NOT NULL` column.
    fn text(&self, i: usize) -> Result<String, Self::Error>;
    /// A nullable `TEXT` column.
    fn opt_text(&self, i: usize) -> Result<Option<String>, Self::Error>;
    /// An integer `NOT NULL` column.
    fn int(&self, i: usize) -> Result<i64, Self::Error>;
    /// A nullable integer column.
    fn opt_int(&self, i: usize) -> Result<Option<i64>, Self::Error>;
    /// A float `NOT NULL` column.
    fn real(&self, i: usize) -> Result<f64, Self::Error>;
}

/// A user, from the [`super::account::USER_COLUMNS`].
pub(crate) fn user<R: Columns>(r: &R) -> Result<UserRow, R::Error> {
    Ok(UserRow {
        id: r.text(0)?,
        name: r.text(1)?,
        password_hash: r.text(2)?,
        created_at: r.int(3)? as u64,
    })
}

/// A user's game and the game, from the
/// [`super::account::USER_GAME_COLUMNS`] then the [`GAME_COLUMNS`].
pub(crate) fn user_game<R: Columns>(r: &R) -> Result<(UserGameRow, GameRow), R::Error> {
    let ug = UserGameRow {
        user_id: r.text(0)?,
        game_id: r.text(1)?,
        color: r.text(2)?,
        token_hash: r.text(3)?,
        time_class: r.text(4)?,
        rated: r.int(5)? != 0,
        created_at: r.int(6)? as u64,
    };
    let g = GameRow {
        id: r.text(7)?,
        created_at: r.int(8)? as u64,
        updated_at: r.int(9)? as u64,
        status: r.text(10)?,
        settings: r.text(11)?,
        players: r.text(12)?,
        result: r.text(13)?,
        termination: r.opt_text(14)?,
        ply: r.int(15)? as u32,
        clock_origin: r.opt_int(16)?.map(|v| v as u64),
    };
    Ok((ug, g))
}

/// A rating, from [`super::account::RATINGS`].
pub(crate) fn rating<R: Columns>(r: &R) -> Result<RatingRow, R::Error> {
    Ok(RatingRow {
        time_class: r.text(0)?,
        rating: r.real(1)?,
        deviation: r.real(2)?,
        volatility: r.real(3)?,
        games: r.int(4)? as u64,
    })
}

/// A point of history, from [`super::account::HISTORY`].
pub(crate) fn history<R: Columns>(r: &R) -> Result<HistoryRow, R::Error> {
    Ok(HistoryRow {
        game_id: r.text(0)?,
        at: r.int(1)? as u64,
        rating: r.real(2)?,
        deviation: r.real(3)?,
    })
}

/// A rating and its games, from [`super::account::RATING_OF`].
pub(crate) fn rating_of<R: Columns>(
    r: &R,
) -> Result<(arbiter_tournament::glicko2::Rating, u64), R::Error> {
    Ok((
        arbiter_tournament::glicko2::Rating {
            rating: r.real(0)?,
            deviation: r.real(1)?,
            volatility: r.real(2)?,
        },
        r.int(3)? as u64,
    ))
}

/// A game's row, from the [`GAME_COLUMNS`].
pub(crate) fn game<R: Columns>(r: &R) -> Result<GameRow, R::Error> {
    Ok(GameRow {
        id: r.text(0)?,
        created_at: r.int(1)? as u64,
        updated_at: r.int(2)? as u64,
        status: r.text(3)?,
        settings: r.text(4)?,
        players: r.text(5)?,
        result: r.text(6)?,
        termination: r.opt_text(7)?,
        ply: r.int(8)? as u32,
        clock_origin: r.opt_int(9)?.map(|v| v as u64),
    })
}

/// A seat, from the [`SEAT_COLUMNS`].
pub(crate) fn seat<R: Columns>(r: &R) -> Result<SeatRow, R::Error> {
    Ok(SeatRow {
        game_id: r.text(0)?,
        token_hash: r.text(1)?,
        colors: r.text(2)?,
    })
}

/// An event, from the [`EVENT_COLUMNS`].
pub(crate) fn event<R: Columns>(r: &R) -> Result<EventRow, R::Error> {
    Ok(EventRow {
        game_id: r.text(0)?,
        seq: r.int(1)? as u64,
        body: r.text(2)?,
    })
}

/// A lease, from its columns `game_id, node, generation, expires_at` (the
/// expiry as it stands: the backends join the node's row).
pub(crate) fn lease<R: Columns>(r: &R) -> Result<Lease, R::Error> {
    Ok(Lease {
        game_id: r.text(0)?,
        node: r.text(1)?,
        generation: r.int(2)? as u64,
        expires_at: r.int(3)? as u64,
    })
}

/// The stored lease row, from the columns that decide who may take it:
/// `node, generation, expires_at, renewed_at` (as they stand).
pub(crate) fn lease_row<R: Columns>(r: &R) -> Result<lease::Row, R::Error> {
    Ok((
        r.text(0)?,
        r.int(1)? as u64,
        r.int(2)? as u64,
        r.int(3)? as u64,
    ))
}

impl Columns for rusqlite::Row<'_> {
    type Error = rusqlite::Error;
    fn text(&self, i: usize) -> rusqlite::Result<String> {
        self.get(i)
    }
    fn opt_text(&self, i: usize) -> rusqlite::Result<Option<String>> {
        self.get(i)
    }
    fn int(&self, i: usize) -> rusqlite::Result<i64> {
        self.get(i)
    }
    fn opt_int(&self, i: usize) -> rusqlite::Result<Option<i64>> {
        self.get(i)
    }
    fn real(&self, i: usize) -> rusqlite::Result<f64> {
        self.get(i)
    }
}

impl Columns for postgres::Row {
    type Error = postgres::Error;
    fn text(&self, i: usize) -> Result<String, postgres::Error> {
        self.try_get(i)
    }
    fn opt_text(&self, i: usize) -> Result<Option<String>, postgres::Error> {
        self.try_get(i)
    }
    fn int(&self, i: usize) -> Result<i64, postgres::Error> {
        self.try_get(i)
    }
    fn opt_int(&self, i: usize) -> Result<Option<i64>, postgres::Error> {
        self.try_get(i)
    }
    fn real(&self, i: usize) -> Result<f64, postgres::Error> {
        self.try_get(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::Connection;

    #[test]
    fn a_game_row_reads_back_as_written() {
        let conn = Connection::open_in_memory().unwrap();
        let row = conn
            .query_row(
                "SELECT 'abcdefgh', 1, 2, 'active', '{}', '{}', '*', NULL, 7, 40",
                [],
                |r| game(r),
            )
            .unwrap();
        assert_eq!(row.id, "abcdefgh");
        assert_eq!((row.created_at, row.updated_at, row.ply), (1, 2, 7));
        assert_eq!((row.termination, row.clock_origin), (None, Some(40)));
    }

    #[test]
    fn a_column_of_another_type_is_an_error_not_a_panic() {
        let conn = Connection::open_in_memory().unwrap();
        let got = conn.query_row("SELECT 'g', 'not a number', 'body'", [], |r| event(r));
        assert!(got.is_err());
        let got = conn.query_row("SELECT 'g', 1", [], |r| event(r));
        assert!(got.is_err(), "a missing column");
    }
}
