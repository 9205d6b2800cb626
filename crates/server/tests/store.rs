//! The store suite: the same checks against SQLite and PostgreSQL (the
//! latter when `ARBITER_TEST_POSTGRES` names a server; see `pg_scratch`).
//! Each backend test is one function `check_*` run by a `sqlite_*` and a
//! `postgres_*` test.

mod pg_scratch;

use arbiter_server::store::lease::{Attempt, Lease};
use arbiter_server::store::postgres::Postgres;
use arbiter_server::store::sqlite::Sqlite;
use arbiter_server::store::{
    Backend, EventRow, GameRow, ListFilter, Location, SeatRow, Store, StoreError, WriteOp,
};
use pg_scratch::Scratch;

/// A database for one test and a way to open connections to it.
enum Db {
    Sqlite(tempfile::TempDir),
    Postgres(Scratch),
}

impl Db {
    fn location(&self) -> Location {
        match self {
            Db::Sqlite(dir) => Location::Sqlite(dir.path().join("arbiter.sqlite3")),
            Db::Postgres(s) => Location::Postgres(s.url.clone()),
        }
    }

    /// A new connection (a thread of its own for PostgreSQL: its client
    /// must not be made inside a tokio runtime).
    fn connect(&self) -> Box<dyn Backend> {
        match self.location() {
            Location::Sqlite(path) => Box::new(Sqlite::open(&path).unwrap()),
            Location::Postgres(url) => std::thread::spawn(move || {
                Box::new(Postgres::connect(&url).unwrap()) as Box<dyn Backend>
            })
            .join()
            .unwrap(),
        }
    }
}

fn game(id: &str, status: &str, created: u64) -> GameRow {
    GameRow {
        settings: "{\"tc\":\"600+0\"}".into(),
        ..GameRow::new(id, status, created)
    }
}

fn event(game: &str, seq: u64, body: &str) -> WriteOp {
    WriteOp::AppendEvent(EventRow {
        game_id: game.into(),
        seq,
        body: body.into(),
    })
}

macro_rules! on_both {
    ($check:ident, $sqlite:ident, $postgres:ident) => {
        #[test]
        fn $sqlite() {
            $check(&Db::Sqlite(tempfile::tempdir().unwrap()));
        }
        #[test]
        fn $postgres() {
            if let Some(s) = Scratch::new(stringify!($postgres)) {
                $check(&Db::Postgres(s));
            }
        }
    };
}

fn check_writes_read_back_and_survive_reopening(db: &Db) {
    {
        let mut s = db.connect();
        s.write_batch(&[
            WriteOp::InsertGame(game("aaaaaaaa", "active", 1)),
            WriteOp::InsertGame(game("bbbbbbbb", "waiting", 2)),
            WriteOp::InsertGame(game("cccccccc", "finished", 3)),
            WriteOp::InsertSeat(SeatRow {
                game_id: "aaaaaaaa".into(),
                token_hash: "h1".into(),
                colors: "white".into(),
            }),
            event("aaaaaaaa", 1, "{\"a\":1}"),
            event("aaaaaaaa", 2, "{\"a\":\"ü €\"}"),
            WriteOp::Heartbeat(42),
        ])
        .unwrap();
    }
    let mut s = db.connect();
    let g = s.load_game("aaaaaaaa").unwrap().unwrap();
    assert_eq!(g.row, game("aaaaaaaa", "active", 1));
    assert_eq!(
        g.seats,
        vec![SeatRow {
            game_id: "aaaaaaaa".into(),
            token_hash: "h1".into(),
            colors: "white".into(),
        }]
    );
    let bodies: Vec<_> = g.events.iter().map(|e| (e.seq, e.body.as_str())).collect();
    assert_eq!(bodies, vec![(1, "{\"a\":1}"), (2, "{\"a\":\"ü €\"}")]);
    assert_eq!(s.last_heartbeat().unwrap(), Some(42));
    assert_eq!(s.unfinished_games().unwrap(), vec!["aaaaaaaa", "bbbbbbbb"]);
    let ids = |f| -> Vec<String> {
        db.connect()
            .list_games(f, 10)
            .unwrap()
            .into_iter()
            .map(|g| g.id)
            .collect()
    };
    assert_eq!(ids(ListFilter::All), vec!["cccccccc", "aaaaaaaa"]);
    assert_eq!(ids(ListFilter::Live), vec!["aaaaaaaa"]);
    assert_eq!(ids(ListFilter::Finished), vec!["cccccccc"]);
    assert_eq!(s.list_games(ListFilter::All, 1).unwrap().len(), 1);
    assert!(s.load_game("zzzzzzzz").unwrap().is_none());
}
on_both!(
    check_writes_read_back_and_survive_reopening,
    sqlite_writes_read_back_and_survive_reopening,
    postgres_writes_read_back_and_survive_reopening
);

/// Several updates of one game in a batch: the last one counts; an update
/// keeps the settings and creation time.
fn check_the_last_update_wins(db: &Db) {
    let mut s = db.connect();
    let mut g = game("aaaaaaaa", "waiting", 5);
    s.write_batch(&[WriteOp::InsertGame(g.clone())]).unwrap();
    let mut ops = Vec::new();
    for ply in 1..=3 {
        g.status = "active".into();
        g.ply = ply;
        g.updated_at = 100 + u64::from(ply);
        g.clock_origin = Some(7);
        g.settings = "ignored".into();
        ops.push(WriteOp::UpdateGame(g.clone()));
        ops.push(event("aaaaaaaa", u64::from(ply), "m"));
    }
    g.status = "finished".into();
    g.result = "1-0".into();
    g.termination = Some("{\"kind\":\"checkmate\"}".into());
    ops.push(WriteOp::UpdateGame(g.clone()));
    s.write_batch(&ops).unwrap();
    let row = s.load_game("aaaaaaaa").unwrap().unwrap().row;
    assert_eq!(row.ply, 3);
    assert_eq!(row.status, "finished");
    assert_eq!(row.result, "1-0");
    assert_eq!(row.termination.as_deref(), Some("{\"kind\":\"checkmate\"}"));
    assert_eq!(row.clock_origin, Some(7));
    assert_eq!(row.updated_at, 103);
    assert_eq!(row.created_at, 5);
    assert_eq!(row.settings, "{\"tc\":\"600+0\"}");
}
on_both!(
    check_the_last_update_wins,
    sqlite_the_last_update_wins,
    postgres_the_last_update_wins
);

fn check_a_failing_batch_changes_nothing(db: &Db) {
    let mut s = db.connect();
    s.write_batch(&[WriteOp::InsertGame(game("aaaaaaaa", "active", 1))])
        .unwrap();
    for bad in [
        // Duplicate seq.
        vec![event("aaaaaaaa", 1, "{}"), event("aaaaaaaa", 1, "{}")],
        // An event of a game that does not exist.
        vec![event("aaaaaaaa", 1, "{}"), event("nosuchgm", 1, "{}")],
        // A game twice.
        vec![
            WriteOp::Heartbeat(9),
            WriteOp::InsertGame(game("bbbbbbbb", "active", 1)),
            WriteOp::InsertGame(game("bbbbbbbb", "active", 1)),
        ],
    ] {
        let err = s.write_batch(&bad).unwrap_err();
        assert!(matches!(err, StoreError::Database(_)), "{err}");
    }
    assert!(s.load_game("aaaaaaaa").unwrap().unwrap().events.is_empty());
    assert!(s.load_game("bbbbbbbb").unwrap().is_none());
    assert_eq!(s.last_heartbeat().unwrap(), None);
    // And the connection still works.
    s.write_batch(&[event("aaaaaaaa", 1, "{}")]).unwrap();
}
on_both!(
    check_a_failing_batch_changes_nothing,
    sqlite_a_failing_batch_changes_nothing,
    postgres_a_failing_batch_changes_nothing
);

/// One owner per game: a lease is taken only when free, expired or the
/// taker's own; every taking is a new generation; a write fenced by an old
/// generation commits nothing.
fn check_leases_fence_writes(db: &Db) {
    let mut a = db.connect();
    let mut b = db.connect();
    a.write_batch(&[
        WriteOp::InsertGame(game("aaaaaaaa", "active", 1)),
        WriteOp::InsertGame(game("bbbbbbbb", "active", 2)),
        WriteOp::InsertGame(game("cccccccc", "finished", 3)),
    ])
    .unwrap();
    assert_eq!(a.lease("aaaaaaaa").unwrap(), None);
    assert_eq!(
        a.orphaned_games(1_000).unwrap(),
        vec!["aaaaaaaa", "bbbbbbbb"]
    );
    let Attempt::Acquired(first) = a.acquire_lease("aaaaaaaa", "n1", 1_000, 500).unwrap() else {
        panic!("a free lease is refused");
    };
    assert_eq!(first.lease.generation, 1);
    assert_eq!(first.lease.expires_at, 1_500);
    assert_eq!(first.previous, None);
    assert_eq!(a.orphaned_games(1_000).unwrap(), vec!["bbbbbbbb"]);
    // n2 cannot take it before it expires.
    assert_eq!(
        b.acquire_lease("aaaaaaaa", "n2", 1_499, 500).unwrap(),
        Attempt::Held {
            node: "n1".into(),
            until: 1_500
        }
    );
    // n1 writes under its generation.
    let fence = |g| WriteOp::Fence {
        game_id: "aaaaaaaa".into(),
        generation: g,
    };
    a.write_batch(&[fence(1), event("aaaaaaaa", 1, "e1")])
        .unwrap();
    // n1 renews at 1,400 (until 1,900); then it stalls.
    let renewed = a.renew_leases("n1", 1_400, 500).unwrap();
    assert_eq!(renewed.len(), 1);
    assert_eq!(renewed[0].expires_at, 1_900);
    assert_eq!(
        b.acquire_lease("aaaaaaaa", "n2", 1_899, 500).unwrap(),
        Attempt::Held {
            node: "n1".into(),
            until: 1_900
        }
    );
    assert_eq!(
        a.orphaned_games(1_900).unwrap(),
        vec!["aaaaaaaa", "bbbbbbbb"]
    );
    let Attempt::Acquired(second) = b.acquire_lease("aaaaaaaa", "n2", 1_900, 500).unwrap() else {
        panic!("an expired lease is refused");
    };
    assert_eq!(second.lease.generation, 2);
    assert_eq!(second.previous, Some(("n1".into(), 1_400)));
    // n1 wakes up: its write is refused, with the batch around it.
    let err = a
        .write_batch(&[
            event("bbbbbbbb", 1, "other game"),
            fence(1),
            event("aaaaaaaa", 2, "stale"),
        ])
        .unwrap_err();
    assert!(
        matches!(err, StoreError::Fenced { ref game, generation: 1 } if game == "aaaaaaaa"),
        "{err}"
    );
    // Its renewal no longer holds the game.
    assert!(a.renew_leases("n1", 2_000, 500).unwrap().is_empty());
    assert!(!a.release_lease(&first.lease).unwrap());
    b.write_batch(&[fence(2), event("aaaaaaaa", 2, "e2")])
        .unwrap();
    let log = a.load_game("aaaaaaaa").unwrap().unwrap().events;
    let bodies: Vec<_> = log.iter().map(|e| e.body.as_str()).collect();
    assert_eq!(bodies, vec!["e1", "e2"]);
    assert!(a.load_game("bbbbbbbb").unwrap().unwrap().events.is_empty());
    // A game never leased fences every writer off.
    let err = a
        .write_batch(&[
            WriteOp::Fence {
                game_id: "bbbbbbbb".into(),
                generation: 1,
            },
            event("bbbbbbbb", 1, "x"),
        ])
        .unwrap_err();
    assert!(matches!(err, StoreError::Fenced { .. }), "{err}");
    // A clean stop releases the lease: anyone may take it at once, and
    // the same node coming back gets a new generation.
    assert!(b.release_lease(&second.lease).unwrap());
    assert_eq!(
        b.lease("aaaaaaaa").unwrap(),
        Some(Lease {
            expires_at: 0,
            ..second.lease.clone()
        })
    );
    let Attempt::Acquired(third) = b.acquire_lease("aaaaaaaa", "n2", 2_000, 500).unwrap() else {
        panic!("a released lease is refused");
    };
    assert_eq!(third.lease.generation, 3);
    assert_eq!(third.previous, Some(("n2".into(), 1_900)));
}
on_both!(
    check_leases_fence_writes,
    sqlite_leases_fence_writes,
    postgres_leases_fence_writes
);

/// Two nodes race for the same 20 leases from their own threads: each
/// lease goes to exactly one, at generation 1.
fn check_a_lease_has_one_owner(db: &Db) {
    let ids: Vec<String> = (0..20).map(|i| format!("game{i:04}")).collect();
    db.connect()
        .write_batch(
            &ids.iter()
                .map(|id| WriteOp::InsertGame(game(id, "active", 1)))
                .collect::<Vec<_>>(),
        )
        .unwrap();
    let won: Vec<Vec<String>> = ["n1", "n2"]
        .map(|node| {
            let mut conn = db.connect();
            let ids = ids.clone();
            std::thread::spawn(move || {
                ids.iter()
                    .filter(|id| {
                        matches!(
                            conn.acquire_lease(id, node, 10, 60_000).unwrap(),
                            Attempt::Acquired(a) if a.lease.generation == 1
                        )
                    })
                    .cloned()
                    .collect()
            })
        })
        .into_iter()
        .map(|t| t.join().unwrap())
        .collect();
    assert_eq!(won[0].len() + won[1].len(), ids.len(), "{won:?}");
    assert!(won[0].iter().all(|id| !won[1].contains(id)), "{won:?}");
}
on_both!(
    check_a_lease_has_one_owner,
    sqlite_a_lease_has_one_owner,
    postgres_a_lease_has_one_owner
);

/// Group commit through [`Store`]: 400 writers at once, each acknowledged
/// only once its event is durable; one fenced writer among them fails
/// alone (the group is retried request by request); the events are there
/// exactly once when the store is opened again.
fn check_group_commit(db: &Db) {
    let location = db.location();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = Store::open(&location).await.unwrap();
        let ids: Vec<String> = (0..40).map(|i| format!("game{i:04}")).collect();
        let mut ops: Vec<WriteOp> = ids
            .iter()
            .map(|id| WriteOp::InsertGame(game(id, "active", 1)))
            .collect();
        ops.push(WriteOp::InsertGame(game("fencedgm", "active", 1)));
        store.write(ops).await.unwrap();
        let Attempt::Acquired(_) = store
            .acquire_lease("fencedgm".into(), "n1".into(), 0, 1_000_000)
            .await
            .unwrap()
        else {
            panic!("lease refused");
        };
        let mut tasks = Vec::new();
        for round in 1..=10u64 {
            for id in &ids {
                let store = store.clone();
                let id = id.clone();
                tasks.push(tokio::spawn(async move {
                    store
                        .write(vec![event(&id, round, &format!("{id} {round}"))])
                        .await
                }));
            }
            if round == 5 {
                let store = store.clone();
                tasks.push(tokio::spawn(async move {
                    let r = store
                        .write(vec![
                            WriteOp::Fence {
                                game_id: "fencedgm".into(),
                                generation: 7,
                            },
                            event("fencedgm", 1, "stale"),
                        ])
                        .await;
                    assert!(matches!(r, Err(StoreError::Fenced { .. })), "{r:?}");
                    Ok(())
                }));
            }
            // Rounds in order: seq n of a game after seq n − 1.
            for t in tasks.drain(..) {
                t.await.unwrap().unwrap();
            }
        }
        let stats = &store.stats;
        let transactions = stats
            .transactions
            .load(std::sync::atomic::Ordering::Relaxed);
        let requests = stats.requests.load(std::sync::atomic::Ordering::Relaxed);
        assert!(requests >= 402, "{requests} requests");
        assert!(transactions >= 1);
        drop(store);
        let store = Store::open(&location).await.unwrap();
        for id in &ids {
            let g = store.load_game(id.clone()).await.unwrap().unwrap();
            let seqs: Vec<u64> = g.events.iter().map(|e| e.seq).collect();
            assert_eq!(seqs, (1..=10).collect::<Vec<_>>(), "{id}");
            assert_eq!(g.events[9].body, format!("{id} 10"));
        }
        let fenced = store.load_game("fencedgm".into()).await.unwrap().unwrap();
        assert!(fenced.events.is_empty());
    });
}
on_both!(
    check_group_commit,
    sqlite_group_commit,
    postgres_group_commit
);

/// Migrations: a store opened twice (and by two connections at once)
/// migrates once; the schema version is the newest.
fn check_migrations_run_once(db: &Db) {
    let location = db.location();
    let both: Vec<_> = (0..2)
        .map(|_| {
            let l = location.clone();
            std::thread::spawn(move || match l {
                Location::Sqlite(p) => Sqlite::open(&p).map(|_| ()),
                Location::Postgres(u) => Postgres::connect(&u).map(|_| ()),
            })
        })
        .collect();
    for t in both {
        t.join().unwrap().unwrap();
    }
    let latest = arbiter_server::store::schema::latest();
    match db {
        Db::Sqlite(dir) => {
            let c = rusqlite_version(&dir.path().join("arbiter.sqlite3"));
            assert_eq!(c, latest as i64);
        }
        Db::Postgres(s) => {
            assert_eq!(
                s.query("SELECT version FROM arbiter_schema"),
                vec![latest.to_string()]
            );
            let mut tables = s.query(
                "SELECT table_name FROM information_schema.tables
                 WHERE table_schema = 'public' ORDER BY table_name",
            );
            tables.sort();
            assert_eq!(
                tables,
                [
                    "arbiter_schema",
                    "events",
                    "games",
                    "heartbeat",
                    "leases",
                    "nodes",
                    "rated_games",
                    "rating_history",
                    "ratings",
                    "seats",
                    "sessions",
                    "tournament_boards",
                    "tournament_byes",
                    "tournament_players",
                    "tournament_rounds",
                    "tournaments",
                    "user_games",
                    "users"
                ]
            );
            // A database newer than the program is refused, not damaged.
            s.query("UPDATE arbiter_schema SET version = 99");
            let url = s.url.clone();
            let err = std::thread::spawn(move || Postgres::connect(&url).map(|_| ()))
                .join()
                .unwrap()
                .unwrap_err();
            assert!(err.to_string().contains("newer than this program"), "{err}");
        }
    }
}
on_both!(
    check_migrations_run_once,
    sqlite_migrations_run_once,
    postgres_migrations_run_once
);

fn rusqlite_version(path: &std::path::Path) -> i64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap()
}
