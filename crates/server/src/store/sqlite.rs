//! The SQLite backend: one file in the data directory, created on first run,
//! WAL journal with `synchronous = FULL` (a commit is on disk when it
//! returns), schema migrations ([`super::schema`]) counted by `PRAGMA
//! user_version`.

use super::account::{self as acc, RatingTx};
use super::lease::{self, Attempt, Lease};
use super::row::{self, EVENT_COLUMNS, GAME_COLUMNS, SEAT_COLUMNS};
use super::schema::{Dialect, MIGRATIONS};
use super::{Backend, GameRow, ListFilter, LoadedGame, StoreError, WriteOp};
use crate::account::rating as acc_rating;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::path::Path;

/// The writer's page cache, KiB (SQLite's default is 2,000 KiB).
pub const WRITER_CACHE_KIB: i64 = 64 * 1024;

/// A connection to the database file.
pub struct Sqlite {
    conn: Connection,
}

fn db(e: rusqlite::Error) -> StoreError {
    StoreError::Database(e.to_string())
}

impl Sqlite {
    /// Opens (creating if needed) the database at `path` and runs pending migrations.
    pub fn open(path: &Path) -> Result<Sqlite, StoreError> {
        let conn = Connection::open(path).map_err(db)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(db)?;
        // Two connections opening a new file at once: switching it to WAL
        // takes an exclusive lock for which SQLite may answer "database is
        // locked" without waiting on the busy timeout; retry for a while.
        let mut tries = 0;
        while let Err(e) = conn.pragma_update(None, "journal_mode", "WAL") {
            let busy = matches!(
                e.sqlite_error_code(),
                Some(rusqlite::ErrorCode::DatabaseBusy)
            );
            tries += 1;
            if !busy || tries >= 200 {
                return Err(db(e));
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(db)?;
        conn.pragma_update(None, "foreign_keys", "ON").map_err(db)?;
        let mut s = Sqlite { conn };
        s.migrate()?;
        Ok(s)
    }

    /// Opens the connection that writes: it does not checkpoint by itself
    /// (a checkpoint inside a commit would stall every game waiting on it);
    /// another connection runs [`Backend::checkpoint`] beside it.
    pub fn open_writer(path: &Path) -> Result<Sqlite, StoreError> {
        let s = Sqlite::open(path)?;
        s.conn
            .pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(db)?;
        // Every live game appends to its own page of the events table: keep
        // them all in memory (up to WRITER_CACHE_KIB), or each commit reads
        // them back from the file first.
        s.conn
            .pragma_update(None, "cache_size", -WRITER_CACHE_KIB)
            .map_err(db)?;
        // When the log starts again from its beginning, cut the file back.
        s.conn
            .pragma_update(None, "journal_size_limit", 64 * 1024 * 1024)
            .map_err(db)?;
        Ok(s)
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        let version: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(db)?;
        let done = usize::try_from(version).unwrap_or(0);
        if done > MIGRATIONS.len() {
            return Err(StoreError::Database(format!(
                "the database has schema version {done}, newer than this program's {}",
                MIGRATIONS.len()
            )));
        }
        for (i, migration) in MIGRATIONS.iter().enumerate().skip(done) {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(db)?;
            // Another connection may have run it meanwhile.
            let now: i64 = tx
                .pragma_query_value(None, "user_version", |r| r.get(0))
                .map_err(db)?;
            if now as usize > i {
                continue;
            }
            for sql in migration.sql(Dialect::Sqlite) {
                tx.execute_batch(&sql).map_err(db)?;
            }
            tx.pragma_update(None, "user_version", (i + 1) as i64)
                .map_err(db)?;
            tx.commit().map_err(db)?;
        }
        Ok(())
    }
}

/// A lease as it stands (`l`: its row, `n`: its node's row): the
/// columns `row::lease` reads, its expiry the earlier of its own (0 once released,
/// [`lease::HELD`] while held) and its node's.
const LEASE_LIVE: &str = "l.game_id, l.node, l.generation,
    CASE WHEN l.expires_at <= 0 THEN l.expires_at
         ELSE MIN(l.expires_at, COALESCE(n.expires_at, 0)) END";

/// A node is alive until `?2`, renewed at `?3` (never shortened).
const UPSERT_NODE: &str = "INSERT INTO nodes (node, expires_at, renewed_at) VALUES (?1, ?2, ?3)
    ON CONFLICT (node) DO UPDATE SET expires_at = MAX(nodes.expires_at, excluded.expires_at),
        renewed_at = MAX(nodes.renewed_at, excluded.renewed_at)";

/// The stored lease row as it stands (`row::lease_row`): its expiry as
/// in [`LEASE_LIVE`], its last renewal its node's (released: the one it
/// had then).
fn read_lease_row(conn: &Connection, game_id: &str) -> Result<Option<lease::Row>, StoreError> {
    conn.prepare_cached(
        "SELECT l.node, l.generation,
            CASE WHEN l.expires_at <= 0 THEN l.expires_at
                 ELSE MIN(l.expires_at, COALESCE(n.expires_at, 0)) END,
            CASE WHEN l.expires_at <= 0 THEN l.renewed_at
                 ELSE COALESCE(n.renewed_at, l.renewed_at) END
         FROM leases l LEFT JOIN nodes n ON n.node = l.node WHERE l.game_id = ?1",
    )
    .map_err(db)?
    .query_row(params![game_id], |r| row::lease_row(r))
    .optional()
    .map_err(db)
}

/// A game's row as the parameters `?1`–`?10` of the insert and the update
/// of `games`, in the order of the [`GAME_COLUMNS`].
fn game_params(g: &GameRow) -> impl rusqlite::Params + '_ {
    (
        &g.id,
        g.created_at as i64,
        g.updated_at as i64,
        &g.status,
        &g.settings,
        &g.players,
        &g.result,
        &g.termination,
        i64::from(g.ply),
        g.clock_origin.map(|v| v as i64),
    )
}

/// Every row `sql` (with `params`) returns, each read by `read`.
fn all<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    read: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>, StoreError> {
    conn.prepare_cached(sql)
        .map_err(db)?
        .query_map(params, read)
        .map_err(db)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(db)
}

/// The writes of accounts (rare beside a game's: plain statements,
/// [`acc::statement`]).
fn write_account(conn: &Connection, op: &WriteOp) -> Result<(), StoreError> {
    if let WriteOp::RateGame {
        game_id,
        result,
        time_class,
        at,
    } = op
    {
        return acc::rate_game(&mut SqliteTx(conn), game_id, result, time_class, *at);
    }
    if let WriteOp::RerateGame {
        game_id,
        from,
        to,
        at,
    } = op
    {
        return acc::rerate_game(&mut SqliteTx(conn), game_id, from, to, *at);
    }
    let statements = match op {
        WriteOp::Tournament(t) => super::tournament::statements(t),
        _ => acc::statement(op).into_iter().collect(),
    };
    for (sql, args) in statements {
        let args = sql_args(&args);
        conn.prepare_cached(sql)
            .and_then(|mut st| st.execute(args.as_slice()))
            .map_err(db)?;
    }
    Ok(())
}

/// The parameters of a shared statement, as rusqlite binds them.
fn sql_args<'a>(args: &'a [acc::Arg<'_>]) -> Vec<&'a dyn rusqlite::ToSql> {
    args.iter()
        .map(|a| match a {
            acc::Arg::Text(v) => v as &dyn rusqlite::ToSql,
            acc::Arg::Int(v) => v as &dyn rusqlite::ToSql,
            acc::Arg::NullInt | acc::Arg::NullText => {
                &rusqlite::types::Null as &dyn rusqlite::ToSql
            }
        })
        .collect()
}

/// [`RatingTx`] on a SQLite transaction.
struct SqliteTx<'c>(&'c Connection);

impl RatingTx for SqliteTx<'_> {
    fn rated_players(&mut self, game_id: &str) -> Result<Option<(String, String)>, StoreError> {
        let rows: Vec<(String, String)> = all(self.0, acc::RATED_PLAYERS, params![game_id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        Ok(match rows.as_slice() {
            [(w, wc), (b, bc)] if wc == "white" && bc == "black" => Some((w.clone(), b.clone())),
            _ => None,
        })
    }
    fn rating(
        &mut self,
        user: &str,
        class: &str,
    ) -> Result<Option<(acc_rating::Rating, u64)>, StoreError> {
        self.0
            .prepare_cached(acc::RATING_OF)
            .map_err(db)?
            .query_row(params![user, class], |r| row::rating_of(r))
            .optional()
            .map_err(db)
    }
    fn put_rating(
        &mut self,
        user: &str,
        class: &str,
        r: acc_rating::Rating,
        games: u64,
    ) -> Result<(), StoreError> {
        self.0
            .execute(
                acc::PUT_RATING,
                params![
                    user,
                    class,
                    r.rating,
                    r.deviation,
                    r.volatility,
                    games as i64
                ],
            )
            .map(|_| ())
            .map_err(db)
    }
    fn add_history(
        &mut self,
        user: &str,
        class: &str,
        game_id: &str,
        at: u64,
        r: acc_rating::Rating,
    ) -> Result<(), StoreError> {
        self.0
            .execute(
                acc::ADD_HISTORY,
                params![user, class, game_id, at as i64, r.rating, r.deviation],
            )
            .map(|_| ())
            .map_err(db)
    }
    fn mark_rated(&mut self, game_id: &str, at: u64) -> Result<bool, StoreError> {
        self.0
            .execute(acc::MARK_RATED, params![game_id, at as i64])
            .map(|n| n == 1)
            .map_err(db)
    }
    fn board_result(&mut self, game_id: &str) -> Result<Option<String>, StoreError> {
        self.0
            .prepare_cached(acc::BOARD_RESULT)
            .and_then(|mut st| st.query_row(params![game_id], |r| r.get(0)).optional())
            .map_err(db)
    }
    fn rated_class(&mut self, game_id: &str) -> Result<Option<String>, StoreError> {
        self.0
            .prepare_cached(acc::RATED_CLASS)
            .and_then(|mut st| st.query_row(params![game_id], |r| r.get(0)).optional())
            .map_err(db)
    }
    fn rating_before(
        &mut self,
        user: &str,
        class: &str,
        game_id: &str,
    ) -> Result<Option<(f64, f64)>, StoreError> {
        self.0
            .prepare_cached(acc::RATING_BEFORE)
            .and_then(|mut st| {
                st.query_row(params![user, class, game_id], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .optional()
            })
            .map_err(db)
    }
}

impl Backend for Sqlite {
    fn user(&mut self, id: &str) -> Result<Option<acc::UserRow>, StoreError> {
        self.conn
            .prepare_cached(&format!(
                "SELECT {} FROM users WHERE id = $1",
                acc::USER_COLUMNS
            ))
            .map_err(db)?
            .query_row(params![id], |r| row::user(r))
            .optional()
            .map_err(db)
    }

    fn session_user(
        &mut self,
        token_hash: &str,
        now: u64,
    ) -> Result<Option<acc::UserRow>, StoreError> {
        self.conn
            .prepare_cached(acc::SESSION_USER)
            .map_err(db)?
            .query_row(params![token_hash, now as i64], |r| row::user(r))
            .optional()
            .map_err(db)
    }

    fn user_seat(&mut self, user_id: &str, game_id: &str) -> Result<Option<String>, StoreError> {
        self.conn
            .prepare_cached(acc::USER_SEAT)
            .map_err(db)?
            .query_row(params![user_id, game_id], |r| r.get(0))
            .optional()
            .map_err(db)
    }

    fn user_games(
        &mut self,
        q: &acc::GamesQuery,
    ) -> Result<Vec<(acc::UserGameRow, GameRow)>, StoreError> {
        let sql = acc::games_sql(q, GAME_COLUMNS);
        let (limit, offset) = (i64::from(q.limit), i64::from(q.offset));
        match q.time_class {
            Some(c) => all(
                &self.conn,
                &sql,
                params![q.user_id, c.as_str(), limit, offset],
                |r| row::user_game(r),
            ),
            None => all(&self.conn, &sql, params![q.user_id, limit, offset], |r| {
                row::user_game(r)
            }),
        }
    }

    fn ratings(&mut self, user_id: &str) -> Result<Vec<acc::RatingRow>, StoreError> {
        all(&self.conn, acc::RATINGS, params![user_id], |r| {
            row::rating(r)
        })
    }

    fn rating_history(
        &mut self,
        user_id: &str,
        time_class: &str,
        limit: u32,
    ) -> Result<Vec<acc::HistoryRow>, StoreError> {
        all(
            &self.conn,
            acc::HISTORY,
            params![user_id, time_class, i64::from(limit)],
            |r| row::history(r),
        )
    }

    fn results_by_colour(
        &mut self,
        user_id: &str,
    ) -> Result<Vec<(String, String, u64)>, StoreError> {
        all(&self.conn, acc::RESULTS_BY_COLOUR, params![user_id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)? as u64))
        })
    }

    fn write_batch(&mut self, ops: &[WriteOp]) -> Result<(), StoreError> {
        // Immediate: the fences below read leases that another connection
        // may change; taking the write lock first makes the check and the
        // writes one step.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        lease::check_fences(ops, |game_id| {
            tx.prepare_cached("SELECT generation FROM leases WHERE game_id = ?1")
                .map_err(db)?
                .query_row(params![game_id], |r| r.get(0))
                .optional()
                .map_err(db)
        })?;
        {
            let mut insert_game = tx
                .prepare_cached(&format!(
                    "INSERT INTO games ({GAME_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
                ))
                .map_err(db)?;
            let mut update_game = tx
                .prepare_cached(
                    // The parameters of the insert; the creation time (?2) and
                    // the settings (?5) do not change.
                    "UPDATE games SET updated_at = ?3, status = ?4, players = ?6, result = ?7,
                     termination = ?8, ply = ?9, clock_origin = ?10 WHERE id = ?1",
                )
                .map_err(db)?;
            let mut insert_seat = tx
                .prepare_cached(
                    "INSERT INTO seats (token_hash, game_id, colors) VALUES (?1, ?2, ?3)",
                )
                .map_err(db)?;
            let mut append = tx
                .prepare_cached("INSERT INTO events (game_id, seq, body) VALUES (?1, ?2, ?3)")
                .map_err(db)?;
            let mut beat = tx
                .prepare_cached(
                    "INSERT INTO heartbeat (id, at) VALUES (1, ?1)
                     ON CONFLICT (id) DO UPDATE SET at = excluded.at",
                )
                .map_err(db)?;
            for op in ops {
                match op {
                    WriteOp::InsertGame(g) => insert_game.execute(game_params(g)).map(|_| ()),
                    WriteOp::UpdateGame(g) => update_game.execute(game_params(g)).map(|_| ()),
                    WriteOp::InsertSeat(s) => insert_seat
                        .execute(params![s.token_hash, s.game_id, s.colors])
                        .map(|_| ()),
                    WriteOp::AppendEvent(e) => append
                        .execute(params![e.game_id, e.seq as i64, e.body])
                        .map(|_| ()),
                    WriteOp::Heartbeat(at) => beat.execute(params![*at as i64]).map(|_| ()),
                    WriteOp::Fence { .. } => Ok(()),
                    WriteOp::NewLease { lease, renewed_at } => tx
                        .prepare_cached(
                            "INSERT INTO leases (game_id, node, generation, expires_at, renewed_at)
                             VALUES (?1, ?2, ?3, ?4, ?5)",
                        )
                        .and_then(|mut st| {
                            st.execute(params![
                                lease.game_id,
                                lease.node,
                                lease.generation as i64,
                                lease::HELD,
                                *renewed_at as i64
                            ])
                        })
                        // The creating node is alive (its leases live
                        // while its row does).
                        .and_then(|_| {
                            tx.execute(
                                UPSERT_NODE,
                                params![lease.node, lease.expires_at as i64, *renewed_at as i64],
                            )
                        })
                        .map(|_| ()),
                    other => {
                        write_account(&tx, other)?;
                        Ok(())
                    }
                }
                .map_err(db)?;
            }
        }
        tx.commit().map_err(db)
    }

    fn load_game(&mut self, id: &str) -> Result<Option<LoadedGame>, StoreError> {
        let row = self
            .conn
            .prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"))
            .map_err(db)?
            .query_row(params![id], |r| row::game(r))
            .optional()
            .map_err(db)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let seats = all(
            &self.conn,
            &format!("SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ?1"),
            params![id],
            |r| row::seat(r),
        )?;
        let events = all(
            &self.conn,
            &format!("SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ?1 ORDER BY seq"),
            params![id],
            |r| row::event(r),
        )?;
        Ok(Some(LoadedGame { row, seats, events }))
    }

    fn unfinished_games(&mut self) -> Result<Vec<String>, StoreError> {
        all(
            &self.conn,
            "SELECT id FROM games WHERE status != 'finished' ORDER BY created_at",
            [],
            |r| r.get(0),
        )
    }

    fn list_games(&mut self, filter: ListFilter, limit: u32) -> Result<Vec<GameRow>, StoreError> {
        let cond = match filter {
            ListFilter::Live => "status = 'active'",
            ListFilter::Finished => "status = 'finished'",
            ListFilter::All => "status != 'waiting'",
        };
        all(&self.conn, &format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE {cond} ORDER BY created_at DESC, id LIMIT ?1"
            ), params![limit as i64], |r| row::game(r))
    }

    fn select(
        &mut self,
        sql: &str,
        args: &[acc::Arg<'_>],
    ) -> Result<Vec<Vec<super::tournament::Cell>>, StoreError> {
        use super::tournament::Cell;
        use rusqlite::types::ValueRef;
        let mut st = self.conn.prepare_cached(sql).map_err(db)?;
        let n = st.column_count();
        let mut rows = st.query(sql_args(args).as_slice()).map_err(db)?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(db)? {
            let mut cells = Vec::with_capacity(n);
            for i in 0..n {
                cells.push(match r.get_ref(i).map_err(db)? {
                    ValueRef::Null => Cell::Null,
                    ValueRef::Integer(v) => Cell::Int(v),
                    ValueRef::Real(v) => Cell::Real(v),
                    ValueRef::Text(t) => Cell::Text(String::from_utf8_lossy(t).into_owned()),
                    ValueRef::Blob(_) => Cell::Null,
                });
            }
            out.push(cells);
        }
        Ok(out)
    }

    fn checkpoint(&mut self) -> Result<(), StoreError> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
            .map_err(db)
    }

    fn acquire_lease(
        &mut self,
        game_id: &str,
        node: &str,
        now: u64,
        ttl: u64,
    ) -> Result<Attempt, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let row = read_lease_row(&tx, game_id)?;
        let generation = match lease::decide(row.as_ref(), node, now) {
            Ok(g) => g,
            Err((node, until)) => return Ok(Attempt::Held { node, until }),
        };
        let expires_at = now + ttl;
        tx.execute(UPSERT_NODE, params![node, expires_at as i64, now as i64])
            .map_err(db)?;
        tx.execute(
            "INSERT INTO leases (game_id, node, generation, expires_at, renewed_at)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (game_id) DO UPDATE SET node = excluded.node,
                generation = excluded.generation, expires_at = excluded.expires_at,
                renewed_at = excluded.renewed_at",
            params![game_id, node, generation as i64, lease::HELD, now as i64],
        )
        .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(lease::acquired(game_id, node, generation, expires_at, row))
    }

    fn renew_leases(&mut self, node: &str, now: u64, ttl: u64) -> Result<Vec<Lease>, StoreError> {
        // One row renews them all: the node's.
        self.conn
            .execute(
                "INSERT INTO nodes (node, expires_at, renewed_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (node) DO UPDATE SET expires_at = excluded.expires_at,
                    renewed_at = excluded.renewed_at",
                params![node, (now + ttl) as i64, now as i64],
            )
            .map_err(db)?;
        all(
            &self.conn,
            "SELECT game_id, node, generation, ?2 FROM leases WHERE node = ?1 AND expires_at > ?3",
            params![node, (now + ttl) as i64, now as i64],
            |r| row::lease(r),
        )
    }

    fn release_lease(&mut self, lease: &Lease) -> Result<bool, StoreError> {
        self.conn
            .execute(
                "UPDATE leases SET expires_at = 0, renewed_at = COALESCE(
                    (SELECT renewed_at FROM nodes WHERE node = ?2), renewed_at)
                 WHERE game_id = ?1 AND node = ?2 AND generation = ?3",
                params![lease.game_id, lease.node, lease.generation as i64],
            )
            .map(|n| n == 1)
            .map_err(db)
    }

    fn release_earlier_incarnation(&mut self, node: &str) -> Result<u64, StoreError> {
        self.conn
            .execute(
                "UPDATE leases SET expires_at = 0, renewed_at = COALESCE(
                    (SELECT renewed_at FROM nodes WHERE node = ?1), renewed_at)
                 WHERE node = ?1 AND expires_at > 0",
                params![node],
            )
            .map(|n| n as u64)
            .map_err(db)
    }

    fn lease(&mut self, game_id: &str) -> Result<Option<Lease>, StoreError> {
        self.conn
            .prepare_cached(&format!(
                "SELECT {LEASE_LIVE} FROM leases l LEFT JOIN nodes n ON n.node = l.node
                 WHERE l.game_id = ?1"
            ))
            .map_err(db)?
            .query_row(params![game_id], |r| row::lease(r))
            .optional()
            .map_err(db)
    }

    fn orphaned_games(&mut self, now: u64) -> Result<Vec<String>, StoreError> {
        all(
            &self.conn,
            "SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id
                LEFT JOIN nodes n ON n.node = l.node
             WHERE g.status != 'finished' AND (l.game_id IS NULL OR l.expires_at <= ?1
                OR n.expires_at IS NULL OR n.expires_at <= ?1)
             ORDER BY g.created_at, g.id",
            params![now as i64],
            |r| r.get(0),
        )
    }

    fn last_heartbeat(&mut self) -> Result<Option<u64>, StoreError> {
        self.conn
            .query_row("SELECT at FROM heartbeat WHERE id = 1", [], |r| {
                r.get::<_, i64>(0)
            })
            .optional()
            .map(|v| v.map(|x| x as u64))
            .map_err(db)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{EventRow, SeatRow};
    use super::*;

    fn game(id: &str, status: &str, created: u64) -> GameRow {
        GameRow::new(id, status, created)
    }

    #[test]
    fn writes_read_back_and_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("arbiter.db");
        {
            let mut s = Sqlite::open(&path).unwrap();
            s.write_batch(&[
                WriteOp::InsertGame(game("aaaaaaaa", "active", 1)),
                WriteOp::InsertGame(game("bbbbbbbb", "waiting", 2)),
                WriteOp::InsertGame(game("cccccccc", "finished", 3)),
                WriteOp::InsertSeat(SeatRow {
                    game_id: "aaaaaaaa".into(),
                    token_hash: "h1".into(),
                    colors: "white".into(),
                }),
                WriteOp::AppendEvent(EventRow {
                    game_id: "aaaaaaaa".into(),
                    seq: 1,
                    body: "{\"a\":1}".into(),
                }),
                WriteOp::Heartbeat(42),
            ])
            .unwrap();
        }
        let mut s = Sqlite::open(&path).unwrap();
        let g = s.load_game("aaaaaaaa").unwrap().unwrap();
        assert_eq!(g.seats.len(), 1);
        assert_eq!(g.events[0].body, "{\"a\":1}");
        assert_eq!(s.last_heartbeat().unwrap(), Some(42));
        assert_eq!(s.unfinished_games().unwrap(), vec!["aaaaaaaa", "bbbbbbbb"]);
        let all: Vec<String> = s
            .list_games(ListFilter::All, 10)
            .unwrap()
            .into_iter()
            .map(|g| g.id)
            .collect();
        assert_eq!(all, vec!["cccccccc", "aaaaaaaa"]);
        assert!(s.load_game("zzzzzzzz").unwrap().is_none());
    }

    /// A database of schema 1 (events keyed by game and seq) opens with its
    /// events intact and in order under schema 2.
    #[test]
    fn schema_1_is_migrated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let conn = Connection::open(&path).unwrap();
            for sql in MIGRATIONS[0].sql(Dialect::Sqlite) {
                conn.execute_batch(&sql).unwrap();
            }
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute_batch(
                "INSERT INTO games VALUES ('aaaaaaaa', 1, 1, 'active', '{}', '{}', '*', NULL, 2, 1);
                 INSERT INTO games VALUES ('bbbbbbbb', 2, 2, 'active', '{}', '{}', '*', NULL, 1, 2);
                 INSERT INTO events VALUES ('bbbbbbbb', 1, 'b1');
                 INSERT INTO events VALUES ('aaaaaaaa', 2, 'a2');
                 INSERT INTO events VALUES ('aaaaaaaa', 1, 'a1');",
            )
            .unwrap();
        }
        let mut s = Sqlite::open(&path).unwrap();
        let a = s.load_game("aaaaaaaa").unwrap().unwrap();
        let bodies: Vec<_> = a.events.iter().map(|e| (e.seq, e.body.as_str())).collect();
        assert_eq!(bodies, vec![(1, "a1"), (2, "a2")]);
        assert_eq!(s.load_game("bbbbbbbb").unwrap().unwrap().events.len(), 1);
        // The (game, seq) key still refuses a duplicate.
        assert!(s
            .write_batch(&[WriteOp::AppendEvent(EventRow {
                game_id: "aaaaaaaa".into(),
                seq: 2,
                body: "again".into(),
            })])
            .is_err());
    }

    #[test]
    fn a_failing_batch_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Sqlite::open(&dir.path().join("a.db")).unwrap();
        s.write_batch(&[WriteOp::InsertGame(game("aaaaaaaa", "active", 1))])
            .unwrap();
        let err = s.write_batch(&[
            WriteOp::AppendEvent(EventRow {
                game_id: "aaaaaaaa".into(),
                seq: 1,
                body: "{}".into(),
            }),
            // Duplicate seq: the whole batch must roll back.
            WriteOp::AppendEvent(EventRow {
                game_id: "aaaaaaaa".into(),
                seq: 1,
                body: "{}".into(),
            }),
        ]);
        assert!(err.is_err());
        assert!(s.load_game("aaaaaaaa").unwrap().unwrap().events.is_empty());
    }
}
