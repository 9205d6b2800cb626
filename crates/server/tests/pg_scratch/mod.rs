//! A scratch PostgreSQL database for one test: created on the server named
//! by `ARBITER_TEST_POSTGRES` (e.g. `postgres://root@127.0.0.1:5432/test`),
//! dropped when the test ends. Without the variable, tests skip with a
//! message (so `cargo test --workspace` passes on a bare machine); `.ci/run`
//! sets it after checking the server answers.

#![allow(dead_code)]

use std::sync::atomic::{AtomicU32, Ordering};

/// A database of its own.
pub struct Scratch {
    admin: String,
    name: String,
    /// Its URL.
    pub url: String,
}

static NEXT: AtomicU32 = AtomicU32::new(0);

/// The admin URL, or `None` (with a message) when PostgreSQL tests are off.
pub fn admin_url(test: &str) -> Option<String> {
    match std::env::var("ARBITER_TEST_POSTGRES") {
        Ok(u) if !u.is_empty() => Some(u),
        _ => {
            eprintln!("{test}: skipped: set ARBITER_TEST_POSTGRES=postgres://user@host:port/db to run it against PostgreSQL");
            None
        }
    }
}

/// `url` with its database name replaced by `db`.
fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let base = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{db}?{q}"),
        None => format!("{base}/{db}"),
    }
}

/// Runs `f` on a thread of its own (the `postgres` client runs its own
/// runtime, which cannot start inside a tokio test's).
fn apart<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f)
        .join()
        .expect("scratch database thread")
}

impl Scratch {
    /// A new empty database, or `None` when PostgreSQL tests are off.
    pub fn new(test: &str) -> Option<Scratch> {
        let admin = admin_url(test)?;
        let name = format!(
            "arbiter_test_{}_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .subsec_nanos()
        );
        let (a, n) = (admin.clone(), name.clone());
        apart(move || {
            let mut c = postgres::Client::connect(&a, postgres::NoTls)
                .unwrap_or_else(|e| panic!("ARBITER_TEST_POSTGRES={a}: {e}"));
            c.batch_execute(&format!("CREATE DATABASE {n}")).unwrap();
        });
        let url = with_database(&admin, &name);
        Some(Scratch { admin, name, url })
    }

    /// Runs `sql` in the scratch database; returns the first column of
    /// each row as text.
    pub fn query(&self, sql: &str) -> Vec<String> {
        let (url, sql) = (self.url.clone(), sql.to_string());
        apart(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            c.simple_query(&sql)
                .unwrap()
                .into_iter()
                .filter_map(|m| match m {
                    postgres::SimpleQueryMessage::Row(r) => {
                        Some(r.get(0).unwrap_or("NULL").to_string())
                    }
                    _ => None,
                })
                .collect()
        })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let (a, n) = (self.admin.clone(), self.name.clone());
        apart(move || {
            if let Ok(mut c) = postgres::Client::connect(&a, postgres::NoTls) {
                let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {n} WITH (FORCE)"));
            }
        });
    }
}

#[test]
fn urls_get_the_scratch_name() {
    assert_eq!(
        with_database("postgres://root@127.0.0.1:5432/test", "x"),
        "postgres://root@127.0.0.1:5432/x"
    );
    assert_eq!(
        with_database("postgres://root@h/test?sslmode=disable", "x"),
        "postgres://root@h/x?sslmode=disable"
    );
    assert_eq!(
        with_database("postgres://root@h", "x"),
        "postgres://root@h/x"
    );
}
