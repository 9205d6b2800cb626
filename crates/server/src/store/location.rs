//! Where the store is: a SQLite file (the embedded default) or a PostgreSQL
//! database named by its URL (`arbiter serve --database postgres://…`, or
//! `ARBITER_DATABASE_URL`).
//!
//! ```
//! use arbiter_server::store::Location;
//! use std::path::Path;
//! let pg = Location::parse("postgres://arbiter@db:5432/arbiter").unwrap();
//! assert!(matches!(pg, Location::Postgres(_)));
//! let file = Location::parse("sqlite:/var/lib/arbiter/arbiter.sqlite3").unwrap();
//! assert_eq!(file, Location::Sqlite("/var/lib/arbiter/arbiter.sqlite3".into()));
//! assert!(Location::parse("mysql://x").is_err());
//! ```

use super::{postgres::Postgres, sqlite::Sqlite, Store, StoreError};
use std::path::PathBuf;

/// A store's location.
#[derive(Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite database file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection string (URL or `key=value` form).
    Postgres(String),
}

impl std::fmt::Debug for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self}")
    }
}

/// What `--database` does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--database {given:?}: expected postgres://…, postgresql://… or sqlite:PATH")]
pub struct LocationError {
    /// The value given.
    pub given: String,
}

impl Location {
    /// Reads a `--database` value: `postgres://…` or `postgresql://…`
    /// (PostgreSQL), `sqlite:PATH` (a SQLite file).
    pub fn parse(database: &str) -> Result<Location, LocationError> {
        if database.starts_with("postgres://") || database.starts_with("postgresql://") {
            Ok(Location::Postgres(database.to_string()))
        } else if let Some(path) = database.strip_prefix("sqlite:") {
            Ok(Location::Sqlite(PathBuf::from(path)))
        } else {
            Err(LocationError {
                given: database.to_string(),
            })
        }
    }

    /// Opens the connections of a [`Store`] (blocking; [`Store::open`] runs
    /// it on tokio's blocking pool).
    pub fn connect(&self) -> Result<Store, StoreError> {
        self.connect_as(false)
    }

    /// Opens the connections of a [`Store`] that several active nodes
    /// share (a cluster, `crate::cluster`): no node lock, no standby —
    /// each game's lease fences its writes instead ([`super::lease`]).
    pub fn connect_shared(&self) -> Result<Store, StoreError> {
        self.connect_as(true)
    }

    fn connect_as(&self, shared: bool) -> Result<Store, StoreError> {
        match self {
            Location::Postgres(url) if shared => {
                let writer = Postgres::connect(url)?;
                let reader = Postgres::connect(url)?;
                let renewer = Postgres::connect(url)?;
                Ok(Store::start(Box::new(writer), Box::new(reader), None)
                    .with_lease_connection(Box::new(renewer)))
            }
            Location::Sqlite(path) => {
                let writer = Sqlite::open_writer(path)?;
                let reader = Sqlite::open(path)?;
                let checkpointer = Sqlite::open(path)?;
                Ok(Store::start(
                    Box::new(writer),
                    Box::new(reader),
                    Some(Box::new(checkpointer)),
                ))
            }
            Location::Postgres(url) => {
                let writer = Postgres::connect_active(url, || {
                    eprintln!("arbiter: another node is active on {self}; waiting as a standby");
                })?;
                let reader = Postgres::connect(url)?;
                Ok(Store::start(Box::new(writer), Box::new(reader), None))
            }
        }
    }
}

impl std::fmt::Display for Location {
    /// The location without any password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Sqlite(path) => write!(f, "{}", path.display()),
            Location::Postgres(url) => f.write_str(&redact(url)),
        }
    }
}

/// `postgres://user:secret@host/db` as `postgres://user:…@host/db`.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (auth, host) = match rest.rsplit_once('@') {
        Some(parts) => parts,
        None => return url.to_string(),
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:…@{host}"),
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_not_shown() {
        let l = Location::parse("postgres://arbiter:hunter2@db:5432/arbiter").unwrap();
        assert_eq!(l.to_string(), "postgres://arbiter:…@db:5432/arbiter");
        assert_eq!(format!("{l:?}"), "postgres://arbiter:…@db:5432/arbiter");
        let l = Location::parse("postgresql://db/arbiter").unwrap();
        assert_eq!(l.to_string(), "postgresql://db/arbiter");
        let e = Location::parse("/tmp/x.db").unwrap_err();
        assert!(e.to_string().contains("\"/tmp/x.db\""), "{e}");
    }
}
