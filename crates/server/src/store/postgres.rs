//! The PostgreSQL backend: the same tables as SQLite, from the same schema
//! description ([`super::schema`]), for several nodes on one database.
//!
//! A commit returns once PostgreSQL has flushed it to its write-ahead log
//! (`synchronous_commit` is set `on` for every connection, whatever the
//! server's default). A batch (one group commit) is one transaction of a
//! few statements: the events of all its games go in as one `INSERT …
//! SELECT FROM UNNEST(…)` of arrays, and so do the games' rows, seats and
//! updates, so a batch of thousands of writes costs a handful of round
//! trips. Schema versions are counted in `arbiter_schema`, under an
//! advisory lock so that nodes starting together migrate once.

use super::account::{self as acc, RatingTx};
use super::lease::{self, Attempt, Lease};
use super::row::{self, EVENT_COLUMNS, GAME_COLUMNS, SEAT_COLUMNS};
use super::schema::{Dialect, MIGRATIONS};
use super::{Backend, EventRow, GameRow, ListFilter, LoadedGame, SeatRow, StoreError, WriteOp};
use crate::account::rating::Rating;
use postgres::{Client, NoTls, Statement};
use std::collections::HashMap;

/// The advisory lock key of migrations (`"Arbi"` in ASCII).
const MIGRATION_LOCK: i64 = 0x4172_6269;

/// The advisory lock key held by the writer of the active node
/// (`"ArbiNode"`): one node writes a database at a time; the others wait
/// as standbys and take over (resuming every game from the log) the
/// moment its session ends.
const NODE_LOCK: i64 = 0x4172_6269_4e6f_6465;

/// A lease as it stands (`l`: its row, `n`: its node's row): the
/// columns `row::lease` reads, its expiry the earlier of its own (0 once released,
/// [`lease::HELD`] while held) and its node's.
const LEASE_LIVE: &str = "l.game_id, l.node, l.generation,
    CASE WHEN l.expires_at <= 0 THEN l.expires_at
         ELSE LEAST(l.expires_at, COALESCE(n.expires_at, 0)) END";

/// The stored lease row as it stands: the columns `row::lease_row` reads, its
/// expiry as in [`LEASE_LIVE`], its last renewal its node's (released: the
/// one it had then).
const LEASE_ROW_LIVE: &str = "l.node, l.generation,
    CASE WHEN l.expires_at <= 0 THEN l.expires_at
         ELSE LEAST(l.expires_at, COALESCE(n.expires_at, 0)) END,
    CASE WHEN l.expires_at <= 0 THEN l.renewed_at
         ELSE COALESCE(n.renewed_at, l.renewed_at) END";

/// A node is alive until `$2`, renewed at `$3` (never shortened).
const UPSERT_NODE: &str = "INSERT INTO nodes (node, expires_at, renewed_at) VALUES ($1, $2, $3)
    ON CONFLICT (node) DO UPDATE SET expires_at = GREATEST(nodes.expires_at, excluded.expires_at),
        renewed_at = GREATEST(nodes.renewed_at, excluded.renewed_at)";

/// A connection to a PostgreSQL database.
pub struct Postgres {
    client: Conn,
    statements: Statements,
    /// This connection holds [`NODE_LOCK`]: losing it ends the process.
    active: bool,
}

/// The client, closed on a thread of its own when dropped inside a tokio
/// runtime: the `postgres` client closes through a runtime of its own,
/// which cannot run inside another (the last [`super::Store`] handle may
/// go from a game task).
struct Conn(Option<Client>);

impl std::ops::Deref for Conn {
    type Target = Client;
    fn deref(&self) -> &Client {
        self.0.as_ref().expect("the client is taken only on drop")
    }
}

impl std::ops::DerefMut for Conn {
    fn deref_mut(&mut self) -> &mut Client {
        self.0.as_mut().expect("the client is taken only on drop")
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        if let Some(client) = self.0.take() {
            if tokio::runtime::Handle::try_current().is_ok() {
                let _ = std::thread::Builder::new()
                    .name("arbiter-pg-close".into())
                    .spawn(move || drop(client));
            }
        }
    }
}

/// The statements of the hot path, prepared once per connection.
struct Statements {
    insert_games: Statement,
    update_games: Statement,
    insert_seats: Statement,
    append_events: Statement,
    heartbeat: Statement,
    insert_leases: Statement,
    fence_lock: Statement,
    fence: Statement,
}

fn db(e: postgres::Error) -> StoreError {
    // The server's own message (with its detail) says more than the
    // client's summary ("db error").
    match e.as_db_error() {
        Some(d) => StoreError::Database(match d.detail() {
            Some(detail) => format!("{} ({detail})", d.message()),
            None => d.message().to_string(),
        }),
        None => StoreError::Database(e.to_string()),
    }
}

impl Postgres {
    /// Connects to `url` (`postgres://user@host:port/db`, or the `key=value`
    /// form) and runs pending migrations.
    pub fn connect(url: &str) -> Result<Postgres, StoreError> {
        let mut client = Client::connect(url, NoTls).map_err(db)?;
        client
            .batch_execute("SET synchronous_commit = on")
            .map_err(db)?;
        migrate(&mut client)?;
        let statements = Statements {
            insert_games: client
                .prepare(&format!(
                    "INSERT INTO games ({GAME_COLUMNS}) SELECT * FROM UNNEST(
                        $1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[],
                        $6::text[], $7::text[], $8::text[], $9::bigint[], $10::bigint[])"
                ))
                .map_err(db)?,
            update_games: client
                .prepare(
                    "UPDATE games SET updated_at = u.updated_at, status = u.status,
                        players = u.players, result = u.result, termination = u.termination,
                        ply = u.ply, clock_origin = u.clock_origin
                     FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[],
                        $6::text[], $7::bigint[], $8::bigint[])
                        AS u (id, updated_at, status, players, result, termination, ply, clock_origin)
                     WHERE games.id = u.id",
                )
                .map_err(db)?,
            insert_seats: client
                .prepare(
                    "INSERT INTO seats (token_hash, game_id, colors)
                     SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[])",
                )
                .map_err(db)?,
            append_events: client
                .prepare(
                    "INSERT INTO events (game_id, seq, body)
                     SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[])",
                )
                .map_err(db)?,
            heartbeat: client
                .prepare(
                    "INSERT INTO heartbeat (id, at) VALUES (1, $1)
                     ON CONFLICT (id) DO UPDATE SET at = excluded.at",
                )
                .map_err(db)?,
            insert_leases: client
                .prepare(
                    "INSERT INTO leases (game_id, node, generation, expires_at, renewed_at)
                     SELECT * FROM UNNEST($1::text[], $2::text[], $3::bigint[], $4::bigint[],
                        $5::bigint[])",
                )
                .map_err(db)?,
            // The fence: the batch holds its games' buckets shared until it
            // commits (`lease::fence_bucket`); a takeover takes its game's
            // bucket exclusively before it changes the lease, so it waits
            // for this transaction, or this one (a statement later) reads
            // the takeover's new generation. Advisory locks, not row locks:
            // locking a row writes it (and its page goes to the log), and a
            // batch of thousands of games locked thousands of rows.
            fence_lock: client
                .prepare(
                    "SELECT count(pg_advisory_xact_lock_shared($1, b))
                     FROM UNNEST($2::int4[]) AS b",
                )
                .map_err(db)?,
            // A join on the ids, not `game_id = ANY($1)`: with an array of
            // hundreds of ids that compared every row of `leases` with
            // every id (the statement most often running in a load of
            // 5,000 games); the join looks each id up in the key.
            fence: client
                .prepare(
                    "SELECT l.game_id, l.generation FROM UNNEST($1::text[]) AS u (id)
                     JOIN leases l ON l.game_id = u.id",
                )
                .map_err(db)?,
        };
        Ok(Postgres {
            client: Conn(Some(client)),
            statements,
            active: false,
        })
    }

    /// Connects the writer of the active node: waits (a standby) until no
    /// other node's writer holds the database's node lock, then holds it
    /// for as long as this connection lives. `waiting` is called once if
    /// another node holds it.
    ///
    /// The lock is the session's: when the active node dies (`kill -9`,
    /// a crash, its host going) PostgreSQL ends its session and the lock
    /// passes to a standby at once; when it is cut off, once TCP
    /// keepalives (set here to 5 s idle, 2 s apart, 3 probes) find it
    /// gone. Since every write goes through the session that holds the
    /// lock, a node that lost it cannot commit: its connection is closed,
    /// and it stops.
    pub fn connect_active(url: &str, waiting: impl FnOnce()) -> Result<Postgres, StoreError> {
        let mut p = Postgres::connect(url)?;
        p.client
            .batch_execute(
                "SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2;
                 SET tcp_keepalives_count = 3",
            )
            .map_err(db)?;
        let got: bool = p
            .client
            .query_one("SELECT pg_try_advisory_lock($1)", &[&NODE_LOCK])
            .map_err(db)?
            .get(0);
        if !got {
            waiting();
            p.client
                .execute("SELECT pg_advisory_lock($1)", &[&NODE_LOCK])
                .map_err(db)?;
        }
        p.active = true;
        Ok(p)
    }
}

/// Runs the migrations not yet run, each in a transaction of its own.
fn migrate(client: &mut Client) -> Result<(), StoreError> {
    loop {
        let mut tx = client.transaction().map_err(db)?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .map_err(db)?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS arbiter_schema (version BIGINT NOT NULL)")
            .map_err(db)?;
        let done: Option<i64> = tx
            .query_opt("SELECT version FROM arbiter_schema", &[])
            .map_err(db)?
            .map(|r| r.get(0));
        let done = match done {
            Some(v) => usize::try_from(v).unwrap_or(0),
            None => {
                tx.execute("INSERT INTO arbiter_schema (version) VALUES (0)", &[])
                    .map_err(db)?;
                0
            }
        };
        if done > MIGRATIONS.len() {
            return Err(StoreError::Database(format!(
                "the database has schema version {done}, newer than this program's {}",
                MIGRATIONS.len()
            )));
        }
        let Some(migration) = MIGRATIONS.get(done) else {
            return tx.commit().map_err(db);
        };
        for sql in migration.sql(Dialect::Postgres) {
            tx.batch_execute(&sql).map_err(db)?;
        }
        tx.execute(
            "UPDATE arbiter_schema SET version = $1",
            &[&((done + 1) as i64)],
        )
        .map_err(db)?;
        tx.commit().map_err(db)?;
    }
}

/// The writes of a batch, one array per column.
#[derive(Default)]
struct Columns<'a> {
    games: Vec<&'a GameRow>,
    updates: Vec<&'a GameRow>,
    seats: Vec<&'a SeatRow>,
    events: Vec<&'a EventRow>,
    heartbeat: Option<u64>,
    /// New games' first leases, with the time they are taken at.
    leases: Vec<(&'a Lease, u64)>,
    /// The writes of accounts, in order, after the games' (they refer to them).
    accounts: Vec<&'a WriteOp>,
}

impl<'a> Columns<'a> {
    fn of(ops: &'a [WriteOp]) -> Columns<'a> {
        let mut c = Columns::default();
        for op in ops {
            match op {
                WriteOp::InsertGame(g) => c.games.push(g),
                WriteOp::UpdateGame(g) => c.updates.push(g),
                WriteOp::InsertSeat(s) => c.seats.push(s),
                WriteOp::AppendEvent(e) => c.events.push(e),
                WriteOp::Heartbeat(at) => c.heartbeat = Some(c.heartbeat.unwrap_or(0).max(*at)),
                WriteOp::Fence { .. } => {}
                WriteOp::NewLease { lease, renewed_at } => c.leases.push((lease, *renewed_at)),
                other => c.accounts.push(other),
            }
        }
        // An update carries the whole summary: of several updates of one
        // game in a batch, the last is the one that counts (one UPDATE …
        // FROM would apply an arbitrary one of them).
        let mut seen = std::collections::HashSet::new();
        c.updates.reverse();
        c.updates.retain(|g| seen.insert(g.id.as_str()));
        c.updates.reverse();
        c
    }
}

/// The columns of some game rows, one array each: the parameters of the
/// `UNNEST` statements that insert and update them.
struct GameArrays<'a> {
    id: Vec<&'a str>,
    created_at: Vec<i64>,
    updated_at: Vec<i64>,
    status: Vec<&'a str>,
    settings: Vec<&'a str>,
    players: Vec<&'a str>,
    result: Vec<&'a str>,
    termination: Vec<Option<&'a str>>,
    ply: Vec<i64>,
    clock_origin: Vec<Option<i64>>,
}

type Param<'p> = &'p (dyn postgres::types::ToSql + Sync);

impl<'a> GameArrays<'a> {
    fn of(g: &[&'a GameRow]) -> GameArrays<'a> {
        GameArrays {
            id: texts(g, |g| &g.id),
            created_at: ints(g, |g| g.created_at),
            updated_at: ints(g, |g| g.updated_at),
            status: texts(g, |g| &g.status),
            settings: texts(g, |g| &g.settings),
            players: texts(g, |g| &g.players),
            result: texts(g, |g| &g.result),
            termination: g.iter().map(|g| g.termination.as_deref()).collect(),
            ply: ints(g, |g| u64::from(g.ply)),
            clock_origin: g.iter().map(|g| g.clock_origin.map(|v| v as i64)).collect(),
        }
    }

    /// The parameters of `insert_games`: the [`GAME_COLUMNS`] in order.
    fn insert_params(&self) -> [Param<'_>; 10] {
        [
            &self.id,
            &self.created_at,
            &self.updated_at,
            &self.status,
            &self.settings,
            &self.players,
            &self.result,
            &self.termination,
            &self.ply,
            &self.clock_origin,
        ]
    }

    /// The parameters of `update_games`: the id and the summary kept up to
    /// date with each event (not the creation time and settings).
    fn update_params(&self) -> [Param<'_>; 8] {
        [
            &self.id,
            &self.updated_at,
            &self.status,
            &self.players,
            &self.result,
            &self.termination,
            &self.ply,
            &self.clock_origin,
        ]
    }
}

fn ints<T>(rows: &[&T], f: impl Fn(&T) -> u64) -> Vec<i64> {
    rows.iter().map(|r| f(r) as i64).collect()
}

fn texts<'a, T>(rows: &[&'a T], f: impl Fn(&'a T) -> &'a str) -> Vec<&'a str> {
    rows.iter().map(|r| f(r)).collect()
}

/// The writes of accounts (rare beside a game's: plain statements,
/// [`acc::statement`]).
fn write_account(tx: &mut postgres::Transaction<'_>, op: &WriteOp) -> Result<(), StoreError> {
    if let WriteOp::RateGame {
        game_id,
        result,
        time_class,
        at,
    } = op
    {
        return acc::rate_game(&mut PgTx(tx), game_id, result, time_class, *at);
    }
    if let WriteOp::RerateGame {
        game_id,
        from,
        to,
        at,
    } = op
    {
        return acc::rerate_game(&mut PgTx(tx), game_id, from, to, *at);
    }
    let statements = match op {
        WriteOp::Tournament(t) => super::tournament::statements(t),
        _ => acc::statement(op).into_iter().collect(),
    };
    for (sql, args) in statements {
        tx.execute(sql, &pg_args(&args)).map_err(db)?;
    }
    Ok(())
}

/// NULL of an integer column.
const NULL_INT: Option<i64> = None;
/// NULL of a text column.
const NULL_TEXT: Option<&str> = None;

/// The parameters of a shared statement, as postgres binds them.
fn pg_args<'a>(args: &'a [acc::Arg<'_>]) -> Vec<Param<'a>> {
    args.iter()
        .map(|a| match a {
            acc::Arg::Text(v) => v as Param<'_>,
            acc::Arg::Int(v) => v as Param<'_>,
            acc::Arg::NullInt => &NULL_INT as Param<'_>,
            acc::Arg::NullText => &NULL_TEXT as Param<'_>,
        })
        .collect()
}

/// [`RatingTx`] on a PostgreSQL transaction.
struct PgTx<'t, 'c>(&'t mut postgres::Transaction<'c>);

impl RatingTx for PgTx<'_, '_> {
    fn rated_players(&mut self, game_id: &str) -> Result<Option<(String, String)>, StoreError> {
        let rows = self
            .0
            .query(acc::RATED_PLAYERS, &[&game_id])
            .map_err(db)?
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<Vec<(String, String)>, postgres::Error>>()
            .map_err(db)?;
        Ok(match rows.as_slice() {
            [(w, wc), (b, bc)] if wc == "white" && bc == "black" => Some((w.clone(), b.clone())),
            _ => None,
        })
    }
    fn rating(&mut self, user: &str, class: &str) -> Result<Option<(Rating, u64)>, StoreError> {
        self.0
            .query_opt(acc::RATING_OF, &[&user, &class])
            .map_err(db)?
            .map(|r| row::rating_of(&r))
            .transpose()
            .map_err(db)
    }
    fn put_rating(
        &mut self,
        user: &str,
        class: &str,
        r: Rating,
        games: u64,
    ) -> Result<(), StoreError> {
        self.0
            .execute(
                acc::PUT_RATING,
                &[
                    &user,
                    &class,
                    &r.rating,
                    &r.deviation,
                    &r.volatility,
                    &(games as i64),
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
        r: Rating,
    ) -> Result<(), StoreError> {
        self.0
            .execute(
                acc::ADD_HISTORY,
                &[
                    &user,
                    &class,
                    &game_id,
                    &(at as i64),
                    &r.rating,
                    &r.deviation,
                ],
            )
            .map(|_| ())
            .map_err(db)
    }
    fn mark_rated(&mut self, game_id: &str, at: u64) -> Result<bool, StoreError> {
        self.0
            .execute(acc::MARK_RATED, &[&game_id, &(at as i64)])
            .map(|n| n == 1)
            .map_err(db)
    }
    fn board_result(&mut self, game_id: &str) -> Result<Option<String>, StoreError> {
        self.0
            .query_opt(acc::BOARD_RESULT, &[&game_id])
            .and_then(|r| r.map(|r| r.try_get(0)).transpose())
            .map_err(db)
    }
    fn rated_class(&mut self, game_id: &str) -> Result<Option<String>, StoreError> {
        self.0
            .query_opt(acc::RATED_CLASS, &[&game_id])
            .and_then(|r| r.map(|r| r.try_get(0)).transpose())
            .map_err(db)
    }
    fn rating_before(
        &mut self,
        user: &str,
        class: &str,
        game_id: &str,
    ) -> Result<Option<(f64, f64)>, StoreError> {
        self.0
            .query_opt(acc::RATING_BEFORE, &[&user, &class, &game_id])
            .and_then(|r| r.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose())
            .map_err(db)
    }
}

impl Backend for Postgres {
    fn user(&mut self, id: &str) -> Result<Option<acc::UserRow>, StoreError> {
        self.client
            .query_opt(
                &format!("SELECT {} FROM users WHERE id = $1", acc::USER_COLUMNS),
                &[&id],
            )
            .map_err(db)?
            .map(|r| row::user(&r))
            .transpose()
            .map_err(db)
    }

    fn session_user(
        &mut self,
        token_hash: &str,
        now: u64,
    ) -> Result<Option<acc::UserRow>, StoreError> {
        self.client
            .query_opt(acc::SESSION_USER, &[&token_hash, &(now as i64)])
            .map_err(db)?
            .map(|r| row::user(&r))
            .transpose()
            .map_err(db)
    }

    fn user_seat(&mut self, user_id: &str, game_id: &str) -> Result<Option<String>, StoreError> {
        self.client
            .query_opt(acc::USER_SEAT, &[&user_id, &game_id])
            .map_err(db)?
            .map(|r| r.try_get(0))
            .transpose()
            .map_err(db)
    }

    fn user_games(
        &mut self,
        q: &acc::GamesQuery,
    ) -> Result<Vec<(acc::UserGameRow, GameRow)>, StoreError> {
        let sql = acc::games_sql(q, GAME_COLUMNS);
        let (limit, offset) = (i64::from(q.limit), i64::from(q.offset));
        let rows = match q.time_class {
            Some(c) => self
                .client
                .query(&sql, &[&q.user_id, &c.as_str(), &limit, &offset]),
            None => self.client.query(&sql, &[&q.user_id, &limit, &offset]),
        }
        .map_err(db)?;
        rows.iter()
            .map(row::user_game)
            .collect::<Result<_, _>>()
            .map_err(db)
    }

    fn ratings(&mut self, user_id: &str) -> Result<Vec<acc::RatingRow>, StoreError> {
        self.client
            .query(acc::RATINGS, &[&user_id])
            .map_err(db)?
            .iter()
            .map(row::rating)
            .collect::<Result<_, _>>()
            .map_err(db)
    }

    fn rating_history(
        &mut self,
        user_id: &str,
        time_class: &str,
        limit: u32,
    ) -> Result<Vec<acc::HistoryRow>, StoreError> {
        self.client
            .query(acc::HISTORY, &[&user_id, &time_class, &i64::from(limit)])
            .map_err(db)?
            .iter()
            .map(row::history)
            .collect::<Result<_, _>>()
            .map_err(db)
    }

    fn results_by_colour(
        &mut self,
        user_id: &str,
    ) -> Result<Vec<(String, String, u64)>, StoreError> {
        self.client
            .query(acc::RESULTS_BY_COLOUR, &[&user_id])
            .map_err(db)?
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get::<_, i64>(2)? as u64)))
            .collect::<Result<_, postgres::Error>>()
            .map_err(db)
    }

    fn select(
        &mut self,
        sql: &str,
        args: &[acc::Arg<'_>],
    ) -> Result<Vec<Vec<super::tournament::Cell>>, StoreError> {
        use super::tournament::Cell;
        use postgres::types::Type;
        let rows = self.client.query(sql, &pg_args(args)).map_err(db)?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let mut cells = Vec::with_capacity(r.len());
            for (i, c) in r.columns().iter().enumerate() {
                let ty = c.type_();
                let cell = if *ty == Type::INT8 {
                    r.try_get::<_, Option<i64>>(i).map(|v| v.map(Cell::Int))
                } else if *ty == Type::INT4 {
                    r.try_get::<_, Option<i32>>(i)
                        .map(|v| v.map(|v| Cell::Int(i64::from(v))))
                } else if *ty == Type::FLOAT8 {
                    r.try_get::<_, Option<f64>>(i).map(|v| v.map(Cell::Real))
                } else {
                    r.try_get::<_, Option<String>>(i).map(|v| v.map(Cell::Text))
                };
                cells.push(cell.map_err(db)?.unwrap_or(Cell::Null));
            }
            out.push(cells);
        }
        Ok(out)
    }

    fn write_batch(&mut self, ops: &[WriteOp]) -> Result<(), StoreError> {
        if self.active && self.client.is_closed() {
            // The node lock went with the session: a standby may own the
            // games now. Stop, so that a supervisor restarts this node
            // (as a standby).
            tracing::error!(
                "storage: the connection holding this node's database lock is lost; stopping"
            );
            std::process::exit(75);
        }
        let st = &self.statements;
        let mut tx = self.client.transaction().map_err(db)?;
        // An organiser's events are counted and created one transaction at
        // a time across nodes (`tournament::Op::Create`): his lock first,
        // before any other lock of the transaction, in one order.
        for organiser in super::tournament::creating_organisers(ops) {
            tx.execute(
                "SELECT pg_advisory_xact_lock($1, hashtext($2))",
                &[&super::tournament::ORGANISER_LOCK_SPACE, &organiser],
            )
            .map_err(db)?;
        }
        let fenced: Vec<&str> = ops
            .iter()
            .filter_map(|op| match op {
                WriteOp::Fence { game_id, .. } => Some(game_id.as_str()),
                _ => None,
            })
            .collect();
        if !fenced.is_empty() {
            let mut buckets: Vec<i32> = fenced.iter().map(|g| lease::fence_bucket(g)).collect();
            buckets.sort_unstable();
            buckets.dedup();
            tx.query_one(&st.fence_lock, &[&lease::FENCE_LOCK_SPACE, &buckets])
                .map_err(db)?;
            let generations: HashMap<String, i64> = tx
                .query(&st.fence, &[&fenced])
                .map_err(db)?
                .iter()
                .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                .collect::<Result<_, postgres::Error>>()
                .map_err(db)?;
            lease::check_fences(ops, |game_id| Ok(generations.get(game_id).copied()))?;
        }
        let c = Columns::of(ops);
        if !c.games.is_empty() {
            let g = GameArrays::of(&c.games);
            tx.execute(&st.insert_games, &g.insert_params())
                .map_err(db)?;
        }
        if !c.updates.is_empty() {
            let g = GameArrays::of(&c.updates);
            tx.execute(&st.update_games, &g.update_params())
                .map_err(db)?;
        }
        if !c.seats.is_empty() {
            let s = &c.seats;
            tx.execute(
                &st.insert_seats,
                &[
                    &texts(s, |s| &s.token_hash),
                    &texts(s, |s| &s.game_id),
                    &texts(s, |s| &s.colors),
                ],
            )
            .map_err(db)?;
        }
        if !c.events.is_empty() {
            let e = &c.events;
            tx.execute(
                &st.append_events,
                &[
                    &texts(e, |e| &e.game_id),
                    &ints(e, |e| e.seq),
                    &texts(e, |e| &e.body),
                ],
            )
            .map_err(db)?;
        }
        if let Some(at) = c.heartbeat {
            tx.execute(&st.heartbeat, &[&(at as i64)]).map_err(db)?;
        }
        if !c.leases.is_empty() {
            let l = &c.leases;
            let ids: Vec<&str> = l.iter().map(|(l, _)| l.game_id.as_str()).collect();
            let nodes: Vec<&str> = l.iter().map(|(l, _)| l.node.as_str()).collect();
            let generations: Vec<i64> = l.iter().map(|(l, _)| l.generation as i64).collect();
            let held: Vec<i64> = vec![lease::HELD; l.len()];
            let taken: Vec<i64> = l.iter().map(|(_, at)| *at as i64).collect();
            tx.execute(
                &st.insert_leases,
                &[&ids, &nodes, &generations, &held, &taken],
            )
            .map_err(db)?;
            // The creating node is alive (its leases live while its row does).
            if let Some((first, at)) = l.iter().max_by_key(|(l, _)| l.expires_at) {
                tx.execute(
                    UPSERT_NODE,
                    &[&first.node, &(first.expires_at as i64), &(*at as i64)],
                )
                .map_err(db)?;
            }
        }
        for op in c.accounts {
            write_account(&mut tx, op)?;
        }
        tx.commit().map_err(db)
    }

    fn load_game(&mut self, id: &str) -> Result<Option<LoadedGame>, StoreError> {
        let Some(row) = self
            .client
            .query_opt(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"),
                &[&id],
            )
            .map_err(db)?
        else {
            return Ok(None);
        };
        let seats = self
            .client
            .query(
                &format!("SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1"),
                &[&id],
            )
            .map_err(db)?
            .iter()
            .map(row::seat)
            .collect::<Result<_, _>>()
            .map_err(db)?;
        let events = self
            .client
            .query(
                &format!("SELECT {EVENT_COLUMNS} FROM events WHERE game_id = $1 ORDER BY seq"),
                &[&id],
            )
            .map_err(db)?
            .iter()
            .map(row::event)
            .collect::<Result<_, _>>()
            .map_err(db)?;
        Ok(Some(LoadedGame {
            row: row::game(&row).map_err(db)?,
            seats,
            events,
        }))
    }

    fn unfinished_games(&mut self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .client
            .query(
                "SELECT id FROM games WHERE status != 'finished' ORDER BY created_at, id",
                &[],
            )
            .map_err(db)?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    fn list_games(&mut self, filter: ListFilter, limit: u32) -> Result<Vec<GameRow>, StoreError> {
        let cond = match filter {
            ListFilter::Live => "status = 'active'",
            ListFilter::Finished => "status = 'finished'",
            ListFilter::All => "status != 'waiting'",
        };
        self.client
            .query(
                &format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE {cond} ORDER BY created_at DESC, id LIMIT $1"
                ),
                &[&i64::from(limit)],
            )
            .map_err(db)?
            .iter()
            .map(row::game)
            .collect::<Result<_, _>>()
            .map_err(db)
    }

    fn last_heartbeat(&mut self) -> Result<Option<u64>, StoreError> {
        Ok(self
            .client
            .query_opt("SELECT at FROM heartbeat WHERE id = 1", &[])
            .map_err(db)?
            .map(|r| r.get::<_, i64>(0) as u64))
    }

    fn acquire_lease(
        &mut self,
        game_id: &str,
        node: &str,
        now: u64,
        ttl: u64,
    ) -> Result<Attempt, StoreError> {
        let mut tx = self.client.transaction().map_err(db)?;
        // The game's fence bucket, exclusively: the batches in flight that
        // write this game (or another of its bucket) commit first, and
        // those after read the new generation (`fence_lock`).
        tx.execute(
            "SELECT pg_advisory_xact_lock($1, $2)",
            &[&lease::FENCE_LOCK_SPACE, &lease::fence_bucket(game_id)],
        )
        .map_err(db)?;
        // A row to lock even for a game never leased (generation 0, long
        // expired); two nodes asking at once then queue on it.
        tx.execute(
            "INSERT INTO leases (game_id, node, generation, expires_at, renewed_at)
             VALUES ($1, '', 0, 0, 0) ON CONFLICT (game_id) DO NOTHING",
            &[&game_id],
        )
        .map_err(db)?;
        let row = tx
            .query_one(
                &format!(
                    "SELECT {LEASE_ROW_LIVE} FROM leases l LEFT JOIN nodes n ON n.node = l.node
                     WHERE l.game_id = $1 FOR UPDATE OF l"
                ),
                &[&game_id],
            )
            .map_err(db)?;
        let row = row::lease_row(&row).map_err(db)?;
        let row = (row.1 > 0).then_some(row);
        let generation = match lease::decide(row.as_ref(), node, now) {
            Ok(g) => g,
            Err((node, until)) => return Ok(Attempt::Held { node, until }),
        };
        let expires_at = now + ttl;
        tx.execute(UPSERT_NODE, &[&node, &(expires_at as i64), &(now as i64)])
            .map_err(db)?;
        tx.execute(
            "UPDATE leases SET node = $2, generation = $3, expires_at = $4, renewed_at = $5
             WHERE game_id = $1",
            &[
                &game_id,
                &node,
                &(generation as i64),
                &lease::HELD,
                &(now as i64),
            ],
        )
        .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(lease::acquired(game_id, node, generation, expires_at, row))
    }

    fn renew_leases(&mut self, node: &str, now: u64, ttl: u64) -> Result<Vec<Lease>, StoreError> {
        // One row renews them all: the node's.
        let mut tx = self.client.transaction().map_err(db)?;
        tx.execute(
            "INSERT INTO nodes (node, expires_at, renewed_at) VALUES ($1, $2, $3)
             ON CONFLICT (node) DO UPDATE SET expires_at = excluded.expires_at,
                renewed_at = excluded.renewed_at",
            &[&node, &((now + ttl) as i64), &(now as i64)],
        )
        .map_err(db)?;
        let held = tx
            .query(
                "SELECT game_id, node, generation, $2::bigint FROM leases
                 WHERE node = $1 AND expires_at > $3",
                &[&node, &((now + ttl) as i64), &(now as i64)],
            )
            .map_err(db)?
            .iter()
            .map(row::lease)
            .collect::<Result<_, _>>()
            .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(held)
    }

    fn release_lease(&mut self, lease: &Lease) -> Result<bool, StoreError> {
        // Its last sign of life: its node's last renewal.
        self.client
            .execute(
                "UPDATE leases SET expires_at = 0, renewed_at = COALESCE(
                    (SELECT renewed_at FROM nodes WHERE node = $2), renewed_at)
                 WHERE game_id = $1 AND node = $2 AND generation = $3",
                &[&lease.game_id, &lease.node, &(lease.generation as i64)],
            )
            .map(|n| n == 1)
            .map_err(db)
    }

    fn release_earlier_incarnation(&mut self, node: &str) -> Result<u64, StoreError> {
        // As `release_lease`, for every lease still held under the name;
        // the generation stays (a takeover adds one, under its fence lock).
        self.client
            .execute(
                "UPDATE leases SET expires_at = 0, renewed_at = COALESCE(
                    (SELECT renewed_at FROM nodes WHERE node = $1), renewed_at)
                 WHERE node = $1 AND expires_at > 0 AND generation > 0",
                &[&node],
            )
            .map_err(db)
    }

    fn lease(&mut self, game_id: &str) -> Result<Option<Lease>, StoreError> {
        self.client
            .query_opt(
                &format!(
                    "SELECT {LEASE_LIVE} FROM leases l LEFT JOIN nodes n ON n.node = l.node
                     WHERE l.game_id = $1 AND l.generation > 0"
                ),
                &[&game_id],
            )
            .map_err(db)?
            .map(|r| row::lease(&r))
            .transpose()
            .map_err(db)
    }

    fn orphaned_games(&mut self, now: u64) -> Result<Vec<String>, StoreError> {
        Ok(self
            .client
            .query(
                "SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id
                    LEFT JOIN nodes n ON n.node = l.node
                 WHERE g.status != 'finished' AND (l.game_id IS NULL OR l.expires_at <= $1
                    OR n.expires_at IS NULL OR n.expires_at <= $1)
                 ORDER BY g.created_at, g.id",
                &[&(now as i64)],
            )
            .map_err(db)?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }
}
