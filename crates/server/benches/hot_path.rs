//! The server's cost per move without the network: what a game task does
//! for one `move` frame, stage by stage, over random games (seed 1).
//!
//! - `parse`: the client frame, validated (`ClientFrame::parse`);
//! - `act`: the Laws apply the move; the event and its storage writes are
//!   made (`GameCore::act`);
//! - `encode`: the `event` message with its `live` part, as JSON text
//!   (`Task::commit` does the same for every event);
//! - `store`: the writes committed through the server's [`Store`] (its
//!   group-commit writer thread and its checkpointer beside it) in batches
//!   of 25 moves (a group commit at 5,000 moves/s), the database on a tmpfs
//!   (`/dev/shm` where there is one) so that the disk's flush does not hide
//!   the CPU cost.
//!
//! `cargo bench -p arbiter-server --bench hot_path [-- GAMES]` (default
//! 1,000, all played at once, one move of each in turn).

use arbiter_server::game::core::GameCore;
use arbiter_server::game::settings::Settings;
use arbiter_server::protocol::{ClientFrame, Color, Mode, Variant};
use arbiter_server::store::sqlite::Sqlite;
use arbiter_server::store::{Store, WriteOp};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::time::{Duration, Instant};

fn settings() -> Settings {
    Settings {
        mode: Mode::Local,
        engine_level: None,
        creator: Color::White,
        variant: Variant::Standard,
        chess960_position: None,
        edition: arbiter_laws::Edition::Fide2014,
        time_control: arbiter_pgn::TimeControl::fischer(60, 0),
        delay: None,
        touch_move: false,
        fen: None,
        rated: false,
        creator_account: None,
        event: None,
    }
}

fn main() {
    let games: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1000);
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let shm = std::path::Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        tempfile::tempdir_in(shm)
    } else {
        tempfile::tempdir()
    }
    .expect("temp dir");
    let path = dir.path().join("bench.sqlite3");
    let store = Store::new(
        Box::new(Sqlite::open_writer(&path).expect("database")),
        Box::new(Sqlite::open(&path).expect("database")),
        Box::new(Sqlite::open(&path).expect("database")),
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let write = |ops: Vec<WriteOp>| runtime.block_on(store.write(ops)).expect("write");
    let seat = Some(arbiter_server::game::core::SeatSet::BOTH);
    let [mut parse, mut act, mut encode, mut store] = [Duration::ZERO; 4];
    let mut moves = 0u64;
    let mut bytes = 0usize;
    let mut batch: Vec<WriteOp> = Vec::new();
    let mut batches = 0u64;
    let mut in_batch = 0;
    let mut now = 1_767_225_600_000u64;
    // All games at once, a move of each in turn (as on a busy server:
    // every commit touches many games' pages).
    let mut tables = Vec::with_capacity(games);
    for g in 0..games {
        let id = format!("bench{g:04}");
        let core = GameCore::create(id, settings(), None, format!("token{g}"), now);
        let core = core.expect("game");
        write(core.creation_writes());
        let live = core.live(now);
        tables.push((core, live));
    }
    while !tables.is_empty() {
        for (core, live) in tables.iter_mut() {
            let Some(pick) = live.legal_moves.choose(&mut rng) else {
                continue;
            };
            let text = format!(r#"{{"type":"move","uci":"{}","id":{moves}}}"#, pick.uci);
            now += 1;
            let t0 = Instant::now();
            let frame = ClientFrame::parse(&text).expect("frame");
            let t1 = Instant::now();
            let out = core
                .act(seat, &frame.msg, now)
                .expect("legal move")
                .expect("an event");
            let (writes, announce) = out.into_parts();
            let t2 = Instant::now();
            let msgs = announce.encode(core, now);
            let t3 = Instant::now();
            bytes += msgs.iter().map(String::len).sum::<usize>();
            batch.extend(writes);
            in_batch += 1;
            if in_batch == 25 {
                in_batch = 0;
                write(std::mem::take(&mut batch));
                batches += 1;
            }
            let t4 = Instant::now();
            parse += t1 - t0;
            act += t2 - t1;
            encode += t3 - t2;
            store += t4 - t3;
            moves += 1;
            *live = core.live(now);
        }
        tables.retain(|(_, live)| !live.legal_moves.is_empty());
    }
    let per = |d: Duration| d.as_secs_f64() * 1e6 / moves as f64;
    println!(
        "{games} games, {moves} moves ({batches} batches): per move parse {:.2} µs, act {:.2} µs, encode {:.2} µs ({} bytes), store {:.2} µs; total {:.2} µs",
        per(parse),
        per(act),
        per(encode),
        bytes / moves.max(1) as usize,
        per(store),
        per(parse + act + encode + store),
    );
}
