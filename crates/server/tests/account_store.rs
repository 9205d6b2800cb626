//! Accounts in both stores (issue 15): the migration from the schema before
//! accounts keeps every game; a rated game's result and both ratings commit
//! together or not at all; a user's games are listed by outcome and time
//! class. Each check runs on SQLite and, with `ARBITER_TEST_POSTGRES`, on a
//! scratch PostgreSQL database.

mod pg_scratch;

use arbiter_server::account::rating::{rate, Rating, TimeClass};
use arbiter_server::store::account::{GamesQuery, Outcome, UserGameRow, UserRow};
use arbiter_server::store::postgres::Postgres;
use arbiter_server::store::schema::{Dialect, MIGRATIONS};
use arbiter_server::store::sqlite::Sqlite;
use arbiter_server::store::{Backend, EventRow, GameRow, SeatRow, WriteOp};
use pg_scratch::Scratch;

enum Db {
    Sqlite(tempfile::TempDir),
    Postgres(Scratch),
}

impl Db {
    fn connect(&self) -> Box<dyn Backend> {
        match self {
            Db::Sqlite(dir) => Box::new(Sqlite::open(&dir.path().join("a.sqlite3")).unwrap()),
            Db::Postgres(s) => {
                let url = s.url.clone();
                std::thread::spawn(move || {
                    Box::new(Postgres::connect(&url).unwrap()) as Box<dyn Backend>
                })
                .join()
                .unwrap()
            }
        }
    }

    /// Runs the first `n` migrations only (a database of an older program).
    fn old_schema(&self, n: usize, sql: &[&str]) {
        match self {
            Db::Sqlite(dir) => {
                let conn = rusqlite::Connection::open(dir.path().join("a.sqlite3")).unwrap();
                for m in &MIGRATIONS[..n] {
                    for s in m.sql(Dialect::Sqlite) {
                        conn.execute_batch(&s).unwrap();
                    }
                }
                conn.pragma_update(None, "user_version", n as i64).unwrap();
                for s in sql {
                    conn.execute_batch(s).unwrap();
                }
            }
            Db::Postgres(p) => {
                let mut all: Vec<String> = MIGRATIONS[..n]
                    .iter()
                    .flat_map(|m| m.sql(Dialect::Postgres))
                    .collect();
                all.push("CREATE TABLE arbiter_schema (version BIGINT NOT NULL)".into());
                all.push(format!("INSERT INTO arbiter_schema VALUES ({n})"));
                all.extend(sql.iter().map(|s| s.to_string()));
                p.query(&all.join(";\n"));
            }
        }
    }
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

fn game(id: &str, status: &str, result: &str, created: u64) -> GameRow {
    GameRow {
        result: result.into(),
        clock_origin: Some(created),
        ..GameRow::new(id, status, created)
    }
}

fn user(id: &str) -> WriteOp {
    WriteOp::InsertUser(UserRow {
        id: id.into(),
        name: id.to_uppercase(),
        password_hash: "$argon2id$x".into(),
        created_at: 1,
    })
}

fn seat(user: &str, game: &str, color: &str, class: TimeClass, rated: bool) -> WriteOp {
    WriteOp::InsertUserGame(UserGameRow {
        user_id: user.into(),
        game_id: game.into(),
        color: color.into(),
        token_hash: format!("{user}-{game}"),
        time_class: class.as_str().into(),
        rated,
        created_at: 1,
    })
}

/// A database of the schema before accounts (version 3), with games,
/// seats and events, migrates to the newest: every game is there with its
/// log, and accounts work beside them.
fn check_migration_keeps_every_game(db: &Db) {
    let before = MIGRATIONS
        .iter()
        .position(|m| m.purpose.starts_with("accounts"))
        .expect("the accounts migration");
    assert_eq!(before, 3);
    let mut sql = Vec::new();
    for i in 0..25 {
        let status = if i % 3 == 0 { "finished" } else { "active" };
        sql.push(format!(
            "INSERT INTO games (id, created_at, updated_at, status, settings, players, result, termination, ply, clock_origin)
             VALUES ('game{i:04}', {i}, {i}, '{status}', '{{}}', '{{}}', '*', NULL, 2, {i})"
        ));
        sql.push(format!(
            "INSERT INTO seats (token_hash, game_id, colors) VALUES ('h{i}', 'game{i:04}', 'white')"
        ));
        for seq in 1..=2 {
            sql.push(format!(
                "INSERT INTO events (game_id, seq, body) VALUES ('game{i:04}', {seq}, 'e{i}.{seq}')"
            ));
        }
    }
    let refs: Vec<&str> = sql.iter().map(String::as_str).collect();
    db.old_schema(before, &refs);
    let mut b = db.connect();
    for i in 0..25 {
        let g = b.load_game(&format!("game{i:04}")).unwrap().expect("kept");
        assert_eq!(g.events.len(), 2);
        assert_eq!(g.events[1].body, format!("e{i}.2"));
        assert_eq!(g.seats.len(), 1);
    }
    assert_eq!(b.unfinished_games().unwrap().len(), 16);
    b.write_batch(&[
        user("anna"),
        seat("anna", "game0001", "white", TimeClass::Blitz, false),
    ])
    .unwrap();
    assert_eq!(
        b.user_seat("anna", "game0001").unwrap().as_deref(),
        Some("anna-game0001")
    );
}
on_both!(
    check_migration_keeps_every_game,
    sqlite_migration_keeps_every_game,
    postgres_migration_keeps_every_game
);

/// The end of a rated game: the result and both ratings in one
/// transaction. A batch that fails after the rating writes leaves neither
/// the result nor any rating; the batch that commits leaves both, the
/// ratings equal to Glicko-2's, once however often the end is written.
fn check_rating_is_atomic_with_the_result(db: &Db) {
    let mut b = db.connect();
    b.write_batch(&[
        WriteOp::InsertGame(game("ratedaaa", "active", "*", 1)),
        user("anna"),
        user("boris"),
        seat("anna", "ratedaaa", "white", TimeClass::Blitz, true),
        seat("boris", "ratedaaa", "black", TimeClass::Blitz, true),
        WriteOp::AppendEvent(EventRow {
            game_id: "ratedaaa".into(),
            seq: 1,
            body: "{}".into(),
        }),
    ])
    .unwrap();
    let end = [
        WriteOp::UpdateGame(game("ratedaaa", "finished", "1-0", 1)),
        WriteOp::RateGame {
            game_id: "ratedaaa".into(),
            result: "1-0".into(),
            time_class: "blitz".into(),
            at: 9,
        },
    ];
    let mut failing = end.to_vec();
    // The same seq again: the transaction fails after the rating.
    failing.push(WriteOp::AppendEvent(EventRow {
        game_id: "ratedaaa".into(),
        seq: 1,
        body: "{}".into(),
    }));
    assert!(b.write_batch(&failing).is_err());
    assert_eq!(
        b.load_game("ratedaaa").unwrap().unwrap().row.status,
        "active"
    );
    assert!(b.ratings("anna").unwrap().is_empty());
    assert!(b.ratings("boris").unwrap().is_empty());
    b.write_batch(&end).unwrap();
    b.write_batch(&end).unwrap();
    let (w, l) = rate(Rating::default(), Rating::default(), 1.0);
    let anna = b.ratings("anna").unwrap();
    let boris = b.ratings("boris").unwrap();
    assert_eq!((anna.len(), boris.len()), (1, 1));
    assert_eq!((anna[0].games, boris[0].games), (1, 1), "rated once");
    assert!((anna[0].rating - w.rating).abs() < 1e-9, "{anna:?}");
    assert!((boris[0].rating - l.rating).abs() < 1e-9, "{boris:?}");
    assert!((boris[0].deviation - l.deviation).abs() < 1e-9);
    let h = b.rating_history("anna", "blitz", 10).unwrap();
    assert_eq!(h.len(), 1);
    assert_eq!((h[0].game_id.as_str(), h[0].at), ("ratedaaa", 9));
    assert!(b.rating_history("anna", "bullet", 10).unwrap().is_empty());
}
on_both!(
    check_rating_is_atomic_with_the_result,
    sqlite_rating_is_atomic_with_the_result,
    postgres_rating_is_atomic_with_the_result
);

/// A user's games by outcome and class, newest first, a page at a time;
/// the results by colour.
fn check_games_are_listed_by_outcome_and_class(db: &Db) {
    let mut b = db.connect();
    let mut ops = vec![user("anna")];
    // Anna: white wins (blitz) 0..5, black losses (rapid) 5..8, a draw, one live.
    for i in 0..10u64 {
        let id = format!("g{i:07}");
        let (status, result, color, class) = match i {
            0..=4 => ("finished", "1-0", "white", TimeClass::Blitz),
            5..=7 => ("finished", "1-0", "black", TimeClass::Rapid),
            8 => ("finished", "1/2-1/2", "black", TimeClass::Blitz),
            _ => ("active", "*", "white", TimeClass::Bullet),
        };
        ops.push(WriteOp::InsertGame(game(&id, status, result, 100 + i)));
        ops.push(WriteOp::InsertSeat(SeatRow {
            game_id: id.clone(),
            token_hash: format!("anna-{id}"),
            colors: color.into(),
        }));
        let mut s = seat("anna", &id, color, class, false);
        if let WriteOp::InsertUserGame(row) = &mut s {
            row.created_at = 100 + i;
        }
        ops.push(s);
    }
    b.write_batch(&ops).unwrap();
    let q = |outcome, time_class, offset, limit| GamesQuery {
        user_id: "anna".into(),
        outcome,
        time_class,
        offset,
        limit,
    };
    let ids = |rows: Vec<(UserGameRow, GameRow)>| -> Vec<String> {
        rows.into_iter().map(|(_, g)| g.id).collect()
    };
    assert_eq!(b.user_games(&q(None, None, 0, 100)).unwrap().len(), 10);
    assert_eq!(
        ids(b.user_games(&q(None, None, 0, 3)).unwrap()),
        ["g0000009", "g0000008", "g0000007"]
    );
    assert_eq!(
        ids(b.user_games(&q(None, None, 3, 2)).unwrap()),
        ["g0000006", "g0000005"]
    );
    assert_eq!(
        b.user_games(&q(Some(Outcome::Win), None, 0, 100))
            .unwrap()
            .len(),
        5
    );
    assert_eq!(
        b.user_games(&q(Some(Outcome::Loss), Some(TimeClass::Rapid), 0, 100))
            .unwrap()
            .len(),
        3
    );
    assert_eq!(
        ids(b.user_games(&q(Some(Outcome::Draw), None, 0, 100)).unwrap()),
        ["g0000008"]
    );
    assert_eq!(
        b.user_games(&q(None, Some(TimeClass::Blitz), 0, 100))
            .unwrap()
            .len(),
        6
    );
    let mut by_colour = b.results_by_colour("anna").unwrap();
    by_colour.sort();
    assert_eq!(
        by_colour,
        [
            ("black".to_string(), "1-0".to_string(), 3),
            ("black".to_string(), "1/2-1/2".to_string(), 1),
            ("white".to_string(), "1-0".to_string(), 5),
        ]
    );
}
on_both!(
    check_games_are_listed_by_outcome_and_class,
    sqlite_games_are_listed_by_outcome_and_class,
    postgres_games_are_listed_by_outcome_and_class
);

/// Sessions: live ones name their user, expired ones nobody; a log-in
/// removes the user's expired sessions; a log-out removes its own.
fn check_sessions_expire_and_are_removed(db: &Db) {
    use arbiter_server::store::account::SessionRow;
    let mut b = db.connect();
    let session = |hash: &str, expires_at| {
        WriteOp::InsertSession(SessionRow {
            token_hash: hash.into(),
            user_id: "anna".into(),
            created_at: 1,
            expires_at,
        })
    };
    b.write_batch(&[user("anna"), session("old", 100), session("new", 1000)])
        .unwrap();
    assert_eq!(b.session_user("new", 500).unwrap().unwrap().name, "ANNA");
    assert!(b.session_user("old", 500).unwrap().is_none(), "expired");
    assert!(b.session_user("old", 50).unwrap().is_some(), "still stored");
    b.write_batch(&[WriteOp::DeleteExpiredSessions {
        user_id: "anna".into(),
        now: 500,
    }])
    .unwrap();
    assert!(b.session_user("old", 50).unwrap().is_none(), "removed");
    assert!(b.session_user("new", 500).unwrap().is_some());
    b.write_batch(&[WriteOp::DeleteSession {
        token_hash: "new".into(),
    }])
    .unwrap();
    assert!(b.session_user("new", 500).unwrap().is_none());
    assert!(b.user("nobody").unwrap().is_none());
}
on_both!(
    check_sessions_expire_and_are_removed,
    sqlite_sessions_expire_and_are_removed,
    postgres_sessions_expire_and_are_removed
);

/// Two rated games of one player ending in one group commit: the second is
/// rated from the rating the first left (no update is lost).
fn check_two_ends_in_one_batch_both_count(db: &Db) {
    let mut b = db.connect();
    let mut ops = vec![user("anna"), user("boris"), user("vera")];
    for (id, opponent) in [("game000b", "boris"), ("game000v", "vera")] {
        ops.push(WriteOp::InsertGame(game(id, "active", "*", 1)));
        ops.push(seat("anna", id, "white", TimeClass::Rapid, true));
        ops.push(seat(opponent, id, "black", TimeClass::Rapid, true));
    }
    b.write_batch(&ops).unwrap();
    let end = |id: &str| {
        [
            WriteOp::UpdateGame(game(id, "finished", "1-0", 1)),
            WriteOp::RateGame {
                game_id: id.into(),
                result: "1-0".into(),
                time_class: "rapid".into(),
                at: 5,
            },
        ]
    };
    let batch: Vec<WriteOp> = end("game000b").into_iter().chain(end("game000v")).collect();
    b.write_batch(&batch).unwrap();
    let (first, _) = rate(Rating::default(), Rating::default(), 1.0);
    let (second, _) = rate(first, Rating::default(), 1.0);
    let anna = b.ratings("anna").unwrap();
    assert_eq!(anna[0].games, 2);
    assert!(
        (anna[0].rating - second.rating).abs() < 1e-9,
        "{anna:?} vs {second:?}"
    );
    assert_eq!(b.rating_history("anna", "rapid", 10).unwrap().len(), 2);
    // The newest 1 point only, and it is the second game's.
    let last = b.rating_history("anna", "rapid", 1).unwrap();
    assert_eq!(last[0].game_id, "game000v");
}
on_both!(
    check_two_ends_in_one_batch_both_count,
    sqlite_two_ends_in_one_batch_both_count,
    postgres_two_ends_in_one_batch_both_count
);

/// Protocol §9.4: a rated game's official result changes after later games
/// (`RerateGame`): each rating moves by what the new result gives minus
/// what the old one gave, from the ratings before the game; a forfeit
/// takes the game's effect and its count back; an unrated game is left.
fn check_a_corrected_result_is_rated_again(db: &Db) {
    let mut b = db.connect();
    let mut ops = vec![user("anna"), user("boris"), user("vera")];
    for (id, opponent) in [
        ("game000b", "boris"),
        ("game000v", "vera"),
        ("game000u", "vera"),
    ] {
        ops.push(WriteOp::InsertGame(game(id, "active", "*", 1)));
        ops.push(seat(
            "anna",
            id,
            "white",
            TimeClass::Rapid,
            id != "game000u",
        ));
        ops.push(seat(
            opponent,
            id,
            "black",
            TimeClass::Rapid,
            id != "game000u",
        ));
    }
    b.write_batch(&ops).unwrap();
    for id in ["game000b", "game000v"] {
        b.write_batch(&[
            WriteOp::UpdateGame(game(id, "finished", "1-0", 1)),
            WriteOp::RateGame {
                game_id: id.into(),
                result: "1-0".into(),
                time_class: "rapid".into(),
                at: 5,
            },
        ])
        .unwrap();
    }
    let rating = |b: &mut Box<dyn Backend>, u: &str| {
        let r = b.ratings(u).unwrap();
        (r[0].rating, r[0].games)
    };
    let (anna, _) = rating(&mut b, "anna");
    let (boris, _) = rating(&mut b, "boris");
    let rerate = |id: &str, from: &str, to: &str| WriteOp::RerateGame {
        game_id: id.into(),
        from: from.into(),
        to: to.into(),
        at: 7,
    };
    b.write_batch(&[rerate("game000b", "1-0", "0-1")]).unwrap();
    let (won_w, won_b) = rate(Rating::default(), Rating::default(), 1.0);
    let (lost_w, lost_b) = rate(Rating::default(), Rating::default(), 0.0);
    let (a, an) = rating(&mut b, "anna");
    let (o, on) = rating(&mut b, "boris");
    assert!(
        (a - (anna + lost_w.rating - won_w.rating)).abs() < 1e-9,
        "{a}"
    );
    assert!(
        (o - (boris + lost_b.rating - won_b.rating)).abs() < 1e-9,
        "{o}"
    );
    assert_eq!((an, on), (2, 1));
    assert_eq!(b.rating_history("anna", "rapid", 10).unwrap().len(), 3);
    // A forfeit: the game rates nothing (B.02 5.1).
    b.write_batch(&[rerate("game000b", "0-1", "+-")]).unwrap();
    let (a, an) = rating(&mut b, "anna");
    let (o, on) = rating(&mut b, "boris");
    assert!((a - (anna + 1500.0 - won_w.rating)).abs() < 1e-9, "{a}");
    assert!((o - 1500.0).abs() < 1e-9, "{o}");
    assert_eq!((an, on), (1, 0));
    // A game never rated stays so.
    b.write_batch(&[rerate("game000u", "1-0", "0-1")]).unwrap();
    assert_eq!(rating(&mut b, "vera").1, 1);
}
on_both!(
    check_a_corrected_result_is_rated_again,
    sqlite_a_corrected_result_is_rated_again,
    postgres_a_corrected_result_is_rated_again
);
