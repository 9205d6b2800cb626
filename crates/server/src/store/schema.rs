//! The one schema description of every store: the migrations, in order, as
//! typed steps, rendered into each database's SQL by [`Dialect`].
//!
//! SQLite counts the migrations that have run in `PRAGMA user_version`,
//! PostgreSQL in the table `arbiter_schema`; both run each migration in a
//! transaction of its own (DDL is transactional in both), so a crash leaves
//! the schema at a whole version.
//!
//! ```
//! use arbiter_server::store::schema::{Dialect, MIGRATIONS};
//! let sqlite = MIGRATIONS[0].sql(Dialect::Sqlite);
//! let postgres = MIGRATIONS[0].sql(Dialect::Postgres);
//! assert!(sqlite[0].starts_with("CREATE TABLE games"));
//! assert!(postgres[0].contains("created_at BIGINT NOT NULL"));
//! ```

/// The SQL a store speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite 3.35 or later (`RETURNING`, `ON CONFLICT`).
    Sqlite,
    /// PostgreSQL 12 or later (identity columns).
    Postgres,
}

/// A column's type: the two every stored value needs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// UTF-8 text (ids, JSON).
    Text,
    /// A signed 64-bit integer (epoch ms, counts, sequence numbers).
    Integer,
    /// A 64-bit float (a Glicko-2 rating, deviation, volatility).
    Real,
}

/// A column of a table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub ty: Type,
    /// Whether it may be NULL.
    pub nullable: bool,
    /// `table (column)` it refers to, if any.
    pub references: Option<&'static str>,
    /// A `CHECK` expression in SQL both dialects read.
    pub check: Option<&'static str>,
}

const fn col(name: &'static str, ty: Type) -> Column {
    Column {
        name,
        ty,
        nullable: false,
        references: None,
        check: None,
    }
}

const fn nullable(c: Column) -> Column {
    Column {
        nullable: true,
        ..c
    }
}

const fn refs(c: Column, target: &'static str) -> Column {
    Column {
        references: Some(target),
        ..c
    }
}

const fn check(c: Column, expr: &'static str) -> Column {
    Column {
        check: Some(expr),
        ..c
    }
}

/// How a table's rows are keyed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// A primary key of these columns.
    Columns(&'static [&'static str]),
    /// The same, with the rows stored in key order (SQLite `WITHOUT
    /// ROWID`; PostgreSQL always stores rows apart from their key).
    Clustered(&'static [&'static str]),
    /// An integer key of this name given in insertion order (SQLite
    /// `INTEGER PRIMARY KEY`, PostgreSQL an identity column).
    Serial(&'static str),
}

/// One step of a migration.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A new table.
    CreateTable {
        /// Its name.
        name: &'static str,
        /// Its columns (a [`Key::Serial`] column comes first, implicitly).
        columns: &'static [Column],
        /// Its key.
        key: Key,
    },
    /// A new index.
    CreateIndex {
        /// Its name.
        name: &'static str,
        /// The table.
        table: &'static str,
        /// The columns, in order.
        columns: &'static [&'static str],
        /// Whether two rows may not share its columns.
        unique: bool,
    },
    /// `table` is rebuilt as `columns` keyed by `key`: the rows are copied
    /// over (the columns of the old table named in `copy`, ordered by
    /// `order_by`), then the new table takes the old name.
    Rebuild {
        /// The table.
        table: &'static str,
        /// The new columns.
        columns: &'static [Column],
        /// The new key.
        key: Key,
        /// Columns copied over.
        copy: &'static [&'static str],
        /// The order rows are copied in.
        order_by: &'static [&'static str],
    },
}

/// A migration: steps that run in one transaction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Migration {
    /// What it is for.
    pub purpose: &'static str,
    /// Its steps.
    pub steps: &'static [Step],
}

const GAMES: &[Column] = &[
    col("id", Type::Text),
    col("created_at", Type::Integer),
    col("updated_at", Type::Integer),
    col("status", Type::Text),
    col("settings", Type::Text),
    col("players", Type::Text),
    col("result", Type::Text),
    nullable(col("termination", Type::Text)),
    col("ply", Type::Integer),
    nullable(col("clock_origin", Type::Integer)),
];

const EVENTS: &[Column] = &[
    refs(col("game_id", Type::Text), "games (id)"),
    col("seq", Type::Integer),
    col("body", Type::Text),
];

/// Every migration, in order. A store at version `n` has run the first `n`.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        purpose: "games, seats, events, heartbeat",
        steps: &[
            Step::CreateTable {
                name: "games",
                columns: GAMES,
                key: Key::Columns(&["id"]),
            },
            Step::CreateIndex {
                name: "games_status_created",
                table: "games",
                columns: &["status", "created_at"],
                unique: false,
            },
            Step::CreateIndex {
                name: "games_created",
                table: "games",
                columns: &["created_at"],
                unique: false,
            },
            Step::CreateTable {
                name: "seats",
                columns: &[
                    col("token_hash", Type::Text),
                    refs(col("game_id", Type::Text), "games (id)"),
                    col("colors", Type::Text),
                ],
                key: Key::Columns(&["token_hash"]),
            },
            Step::CreateIndex {
                name: "seats_game",
                table: "seats",
                columns: &["game_id"],
                unique: false,
            },
            Step::CreateTable {
                name: "events",
                columns: EVENTS,
                key: Key::Clustered(&["game_id", "seq"]),
            },
            Step::CreateTable {
                name: "heartbeat",
                columns: &[
                    check(col("id", Type::Integer), "id = 1"),
                    col("at", Type::Integer),
                ],
                key: Key::Columns(&["id"]),
            },
        ],
    },
    // Events appended in commit order (an integer key: every commit adds to
    // the same last pages of the table, and a full page is simply followed
    // by a new one), found by a small index on (game, seq). Keyed by (game,
    // seq) itself, every event landed in its game's own page of the table
    // and split it every few events; SQLite rescans its whole page cache
    // after any transaction that split a page.
    Migration {
        purpose: "events in commit order",
        steps: &[
            Step::Rebuild {
                table: "events",
                columns: EVENTS,
                key: Key::Serial("id"),
                copy: &["game_id", "seq", "body"],
                order_by: &["game_id", "seq"],
            },
            Step::CreateIndex {
                name: "events_game_seq",
                table: "events",
                columns: &["game_id", "seq"],
                unique: true,
            },
        ],
    },
    // Several nodes: one owner per live game, fenced by a generation
    // (see `store::lease`).
    Migration {
        purpose: "leases of live games",
        steps: &[
            Step::CreateTable {
                name: "leases",
                columns: &[
                    refs(col("game_id", Type::Text), "games (id)"),
                    col("node", Type::Text),
                    col("generation", Type::Integer),
                    col("expires_at", Type::Integer),
                    col("renewed_at", Type::Integer),
                ],
                key: Key::Columns(&["game_id"]),
            },
            Step::CreateIndex {
                name: "leases_node",
                table: "leases",
                columns: &["node"],
                unique: false,
            },
        ],
    },
    // Accounts (issue 15): users, their sessions, the games they sit in
    // (their seats follow them across devices), and their Glicko-2 ratings
    // per time class with the history of every rated game.
    Migration {
        purpose: "accounts, sessions, their games and ratings",
        steps: &[
            Step::CreateTable {
                name: "users",
                columns: &[
                    col("id", Type::Text),
                    col("name", Type::Text),
                    col("password_hash", Type::Text),
                    col("created_at", Type::Integer),
                ],
                key: Key::Columns(&["id"]),
            },
            Step::CreateTable {
                name: "sessions",
                columns: &[
                    col("token_hash", Type::Text),
                    refs(col("user_id", Type::Text), "users (id)"),
                    col("created_at", Type::Integer),
                    col("expires_at", Type::Integer),
                ],
                key: Key::Columns(&["token_hash"]),
            },
            Step::CreateIndex {
                name: "sessions_user",
                table: "sessions",
                columns: &["user_id"],
                unique: false,
            },
            Step::CreateTable {
                name: "user_games",
                columns: &[
                    refs(col("user_id", Type::Text), "users (id)"),
                    refs(col("game_id", Type::Text), "games (id)"),
                    col("color", Type::Text),
                    col("token_hash", Type::Text),
                    col("time_class", Type::Text),
                    col("rated", Type::Integer),
                    col("created_at", Type::Integer),
                ],
                key: Key::Columns(&["user_id", "game_id"]),
            },
            Step::CreateIndex {
                name: "user_games_game",
                table: "user_games",
                columns: &["game_id"],
                unique: false,
            },
            Step::CreateIndex {
                name: "user_games_user_created",
                table: "user_games",
                columns: &["user_id", "created_at"],
                unique: false,
            },
            Step::CreateTable {
                name: "ratings",
                columns: &[
                    refs(col("user_id", Type::Text), "users (id)"),
                    col("time_class", Type::Text),
                    col("rating", Type::Real),
                    col("deviation", Type::Real),
                    col("volatility", Type::Real),
                    col("games", Type::Integer),
                ],
                key: Key::Columns(&["user_id", "time_class"]),
            },
            Step::CreateTable {
                name: "rating_history",
                columns: &[
                    refs(col("user_id", Type::Text), "users (id)"),
                    col("time_class", Type::Text),
                    refs(col("game_id", Type::Text), "games (id)"),
                    col("at", Type::Integer),
                    col("rating", Type::Real),
                    col("deviation", Type::Real),
                ],
                key: Key::Serial("id"),
            },
            Step::CreateIndex {
                name: "rating_history_user",
                table: "rating_history",
                columns: &["user_id", "time_class", "id"],
                unique: false,
            },
            Step::CreateTable {
                name: "rated_games",
                columns: &[
                    refs(col("game_id", Type::Text), "games (id)"),
                    col("at", Type::Integer),
                ],
                key: Key::Columns(&["game_id"]),
            },
        ],
    },
    // Events (issue 15): Swiss and round-robin tournaments, their players,
    // their rounds (one row per round paired: pairing is idempotent, keyed
    // by (event, round)) with the boards, and the byes requested. Named
    // `tournament*`: the game log's table is `events`.
    Migration {
        purpose: "tournaments, their players, rounds, boards and byes",
        steps: &[
            Step::CreateTable {
                name: "tournaments",
                columns: &[
                    col("id", Type::Text),
                    refs(col("organiser", Type::Text), "users (id)"),
                    col("name", Type::Text),
                    col("created_at", Type::Integer),
                    col("start_at", Type::Integer),
                    col("status", Type::Text),
                    col("settings", Type::Text),
                ],
                key: Key::Columns(&["id"]),
            },
            Step::CreateIndex {
                name: "tournaments_organiser",
                table: "tournaments",
                columns: &["organiser", "status"],
                unique: false,
            },
            Step::CreateTable {
                name: "tournament_players",
                columns: &[
                    refs(col("tournament_id", Type::Text), "tournaments (id)"),
                    refs(col("user_id", Type::Text), "users (id)"),
                    col("no", Type::Integer),
                    col("name", Type::Text),
                    col("rating", Type::Integer),
                    col("withdrawn", Type::Integer),
                    col("registered_at", Type::Integer),
                ],
                key: Key::Columns(&["tournament_id", "user_id"]),
            },
            Step::CreateTable {
                name: "tournament_rounds",
                columns: &[
                    refs(col("tournament_id", Type::Text), "tournaments (id)"),
                    col("round", Type::Integer),
                    col("paired_at", Type::Integer),
                ],
                key: Key::Columns(&["tournament_id", "round"]),
            },
            Step::CreateTable {
                name: "tournament_boards",
                columns: &[
                    refs(col("tournament_id", Type::Text), "tournaments (id)"),
                    col("round", Type::Integer),
                    col("board", Type::Integer),
                    col("white", Type::Integer),
                    nullable(col("black", Type::Integer)),
                    nullable(refs(col("game_id", Type::Text), "games (id)")),
                    col("result", Type::Text),
                ],
                key: Key::Columns(&["tournament_id", "round", "board"]),
            },
            Step::CreateIndex {
                name: "tournament_boards_game",
                table: "tournament_boards",
                columns: &["game_id"],
                unique: false,
            },
            Step::CreateTable {
                name: "tournament_byes",
                columns: &[
                    refs(col("tournament_id", Type::Text), "tournaments (id)"),
                    refs(col("user_id", Type::Text), "users (id)"),
                    col("round", Type::Integer),
                ],
                key: Key::Columns(&["tournament_id", "user_id", "round"]),
            },
        ],
    },
    // A node's leases live while the node does (`store::lease`): a node
    // renews its one row here, not every lease it holds.
    Migration {
        purpose: "nodes' liveness",
        steps: &[Step::CreateTable {
            name: "nodes",
            columns: &[
                col("node", Type::Text),
                col("expires_at", Type::Integer),
                col("renewed_at", Type::Integer),
            ],
            key: Key::Columns(&["node"]),
        }],
    },
];

impl Type {
    fn sql(self, dialect: Dialect) -> &'static str {
        match (self, dialect) {
            (Type::Text, _) => "TEXT",
            (Type::Integer, Dialect::Sqlite) => "INTEGER",
            (Type::Integer, Dialect::Postgres) => "BIGINT",
            (Type::Real, Dialect::Sqlite) => "REAL",
            (Type::Real, Dialect::Postgres) => "DOUBLE PRECISION",
        }
    }
}

fn create_table(dialect: Dialect, name: &str, columns: &[Column], key: Key) -> String {
    let mut parts = Vec::new();
    if let Key::Serial(id) = key {
        parts.push(match dialect {
            Dialect::Sqlite => format!("{id} INTEGER PRIMARY KEY"),
            Dialect::Postgres => {
                format!("{id} BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
            }
        });
    }
    for c in columns {
        let mut s = format!("{} {}", c.name, c.ty.sql(dialect));
        if !c.nullable {
            s.push_str(" NOT NULL");
        }
        if let Some(r) = c.references {
            s.push_str(&format!(" REFERENCES {r}"));
        }
        if let Some(e) = c.check {
            s.push_str(&format!(" CHECK ({e})"));
        }
        parts.push(s);
    }
    let (Key::Columns(k) | Key::Clustered(k)) = key else {
        return format!("CREATE TABLE {name} ({})", parts.join(", "));
    };
    parts.push(format!("PRIMARY KEY ({})", k.join(", ")));
    let clustered = matches!(key, Key::Clustered(_)) && dialect == Dialect::Sqlite;
    format!(
        "CREATE TABLE {name} ({}){}",
        parts.join(", "),
        if clustered { " WITHOUT ROWID" } else { "" }
    )
}

impl Step {
    /// The statements of this step, in order.
    pub fn sql(&self, dialect: Dialect) -> Vec<String> {
        match *self {
            Step::CreateTable { name, columns, key } => {
                vec![create_table(dialect, name, columns, key)]
            }
            Step::CreateIndex {
                name,
                table,
                columns,
                unique,
            } => vec![format!(
                "CREATE {}INDEX {name} ON {table} ({})",
                if unique { "UNIQUE " } else { "" },
                columns.join(", ")
            )],
            Step::Rebuild {
                table,
                columns,
                key,
                copy,
                order_by,
            } => {
                let new = format!("{table}_rebuilt");
                let copy = copy.join(", ");
                vec![
                    create_table(dialect, &new, columns, key),
                    format!(
                        "INSERT INTO {new} ({copy}) SELECT {copy} FROM {table} ORDER BY {}",
                        order_by.join(", ")
                    ),
                    format!("DROP TABLE {table}"),
                    format!("ALTER TABLE {new} RENAME TO {table}"),
                ]
            }
        }
    }
}

impl Migration {
    /// The statements of this migration, in order.
    pub fn sql(&self, dialect: Dialect) -> Vec<String> {
        self.steps.iter().flat_map(|s| s.sql(dialect)).collect()
    }
}

/// The newest schema version.
pub fn latest() -> usize {
    MIGRATIONS.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every migration renders in both dialects, and SQLite runs it (the
    /// PostgreSQL run is in `tests/store.rs`, against a real server).
    #[test]
    fn every_migration_runs_on_sqlite() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        for m in MIGRATIONS {
            for s in m.sql(Dialect::Sqlite) {
                conn.execute_batch(&s)
                    .unwrap_or_else(|e| panic!("{s}: {e}"));
            }
            assert_eq!(m.sql(Dialect::Sqlite).len(), m.sql(Dialect::Postgres).len());
        }
        let sql: String = conn
            .query_row(
                "SELECT sql FROM sqlite_master WHERE name = 'events'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert!(sql.contains("id INTEGER PRIMARY KEY"), "{sql}");
    }

    #[test]
    fn dialects_differ_where_the_databases_do() {
        let events = MIGRATIONS[0].steps[5];
        assert!(events.sql(Dialect::Sqlite)[0].ends_with("WITHOUT ROWID"));
        assert!(!events.sql(Dialect::Postgres)[0].contains("WITHOUT ROWID"));
        let rebuilt = MIGRATIONS[1].steps[0].sql(Dialect::Postgres);
        assert!(rebuilt[0].contains("GENERATED BY DEFAULT AS IDENTITY"));
        assert_eq!(rebuilt[3], "ALTER TABLE events_rebuilt RENAME TO events");
    }
}
