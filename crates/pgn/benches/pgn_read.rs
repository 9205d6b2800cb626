//! Reading speed: arbiter-pgn against pgn-reader (shakmaty), in one run, on
//! the same file, each replaying and checking every move.
//!
//! ```sh
//! cargo bench -p arbiter-pgn --bench pgn_read                  # 100,000 games
//! cargo bench -p arbiter-pgn --bench pgn_read -- --games 300000
//! cargo bench -p arbiter-pgn --bench pgn_read -- --only ours   # one reader; prints peak RSS
//! ```
//!
//! Three files, each read by every reader in the same run (issue 14: the
//! figures come from data Arbiter did not write, beside its own):
//!
//! 1. generated (seeded, `arbiter_pgn::generate`, with clocks, comments and
//!    variations) into `target/bench-data/` when missing;
//! 2. real games: the Lichess and TWIC samples shipped inside the pgn-reader
//!    crate (`benches/lichess_db_1000k.pgn`, `benches/twic1599_1000k.pgn`,
//!    found under `$CARGO_HOME/registry/src/`), concatenated 50 times
//!    (100 MB) into `target/bench-data/real-lichess-twic-x50.pgn`;
//! 3. plain random games written by python-chess (no comments, no clocks),
//!    `target/bench-data/python-chess-random-*.pgn`, made by
//!    `crates/pgn/benches/python_chess_random.py` when python-chess is
//!    installed (skipped with a message otherwise).
//!
//! None is committed. `--file F` reads only F. pgn-reader runs
//! its own `validate` example's visitor (tests/common/oracle.rs); ours runs
//! the `arbiter pgn check` visitor, and a minimal visitor doing exactly what
//! pgn-reader's does (FEN tag, main line replayed).

#[path = "../tests/common/oracle.rs"]
mod oracle;

use arbiter_chess::Position;
use arbiter_pgn::check::Checker;
use arbiter_pgn::generate::{GenOptions, Generator};
use arbiter_pgn::{
    read_move_bytes, read_strict_san_by, Dialect, Flow, Location, RawText, Reader, SyntaxError,
    Visitor,
};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The minimal validating visitor: what pgn-reader's `validate` does.
struct Minimal {
    standard: Position,
    pos: Position,
    fen: Option<Position>,
    errors: u64,
}

impl Visitor for Minimal {
    type Output = ();
    fn begin_game(&mut self, _n: u64, _at: Location) {
        self.fen = None;
    }
    fn tag(&mut self, name: &[u8], value: RawText<'_>, _at: Location) -> Flow {
        if name == b"FEN" {
            match std::str::from_utf8(value.as_bytes())
                .ok()
                .and_then(|f| Position::from_fen_auto(f).ok())
            {
                Some(p) => self.fen = Some(p),
                None => return Flow::Skip,
            }
        }
        Flow::Continue
    }
    fn begin_movetext(&mut self) -> Flow {
        self.pos = self.fen.unwrap_or(self.standard);
        Flow::Continue
    }
    fn begin_variation(&mut self, _at: Location) -> Flow {
        Flow::Skip
    }
    #[inline(always)]
    fn san(&mut self, text: &[u8], _at: Location) -> Flow {
        if let Some((m, role)) = read_strict_san_by(&self.pos, text) {
            self.pos.play_unchecked_by(m, role);
            return Flow::Continue;
        }
        match read_move_bytes(Dialect::Auto, &self.pos, text) {
            Ok(m) => {
                self.pos.play_unchecked(m);
                Flow::Continue
            }
            Err(_) => {
                self.errors += 1;
                Flow::Skip
            }
        }
    }
    fn syntax_error(&mut self, _e: SyntaxError) {
        self.errors += 1;
    }
    fn end_game(&mut self) {}
}

fn data_file(games: u64) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-data");
    let path = dir.join(format!(
        "games-{games}-seed1-v{}.pgn",
        arbiter_pgn::generate::VERSION
    ));
    if !path.exists() {
        std::fs::create_dir_all(&dir).expect("create target/bench-data");
        eprintln!("generating {} ({games} games, seed 1)…", path.display());
        let tmp = path.with_extension("tmp");
        let mut out = BufWriter::new(File::create(&tmp).expect("create data file"));
        let mut g = Generator::new(GenOptions {
            seed: 1,
            ..GenOptions::default()
        });
        for i in 1..=games {
            out.write_all(g.game(i).to_pgn().as_bytes()).expect("write");
        }
        out.flush().expect("flush");
        drop(out);
        std::fs::rename(&tmp, &path).expect("rename");
    }
    path
}

/// Reads a whole file; gives (games, games with errors).
type ReadFn = fn(&PathBuf) -> (u64, u64);

fn ours_check(path: &PathBuf) -> (u64, u64) {
    let mut reader = Reader::new(File::open(path).expect("open"));
    let mut checker = Checker::new();
    let (mut games, mut errors) = (0, 0);
    while let Some(g) = reader.read_game(&mut checker).expect("read") {
        games += 1;
        errors += g.error.is_some() as u64;
    }
    (games, errors)
}

fn ours_minimal(path: &PathBuf) -> (u64, u64) {
    let mut reader = Reader::new(File::open(path).expect("open"));
    let mut v = Minimal {
        standard: Position::standard(),
        pos: Position::standard(),
        fen: None,
        errors: 0,
    };
    let mut games = 0;
    while reader.read_game(&mut v).expect("read").is_some() {
        games += 1;
    }
    (games, v.errors)
}

fn theirs(path: &PathBuf) -> (u64, u64) {
    let mut reader = pgn_reader::Reader::new(File::open(path).expect("open"));
    let mut v = oracle::Validator {
        games: 0,
        errors: 0,
    };
    while reader.read_game(&mut v).expect("read").is_some() {}
    (v.games, v.errors)
}

/// CPU time of this thread (less disturbed by other processes than wall time).
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let mut games = 100_000u64;
    let mut rounds = 3;
    let mut only: Option<String> = None;
    let mut file: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--games" => games = args.next().and_then(|v| v.parse().ok()).expect("--games N"),
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--rounds N")
            }
            "--only" => only = args.next(),
            "--file" => file = args.next().map(PathBuf::from),
            _ => {} // cargo bench passes --bench
        }
    }
    let paths = match file {
        Some(f) => vec![f],
        None => {
            let mut v = vec![data_file(games)];
            v.extend(real_games_file());
            v.extend(python_chess_file());
            v
        }
    };
    for path in paths {
        bench_file(&path, rounds, only.as_deref());
    }
    if let Some(kib) = peak_rss_kib() {
        println!("peak RSS of this process: {:.1} MiB", kib as f64 / 1024.0);
    }
}

/// The pgn-reader crate's own sample files, from the cargo registry.
fn pgn_reader_samples() -> Option<[PathBuf; 2]> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    for index in std::fs::read_dir(home.join("registry/src")).ok()? {
        let dir = index.ok()?.path().join("pgn-reader-0.29.0/benches");
        let files = [
            dir.join("lichess_db_1000k.pgn"),
            dir.join("twic1599_1000k.pgn"),
        ];
        if files.iter().all(|f| f.exists()) {
            return Some(files);
        }
    }
    None
}

fn bench_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-data")
}

/// The real-games file (made once), or `None` with a message.
fn real_games_file() -> Option<PathBuf> {
    let path = bench_dir().join("real-lichess-twic-x50.pgn");
    if path.exists() {
        return Some(path);
    }
    let Some(samples) = pgn_reader_samples() else {
        eprintln!(
            "skipped real games: pgn-reader 0.29.0's benches/ not found in the cargo registry"
        );
        return None;
    };
    std::fs::create_dir_all(bench_dir()).expect("create target/bench-data");
    let mut text = Vec::new();
    for f in &samples {
        text.extend(std::fs::read(f).expect("read sample"));
        text.extend(b"\n\n");
    }
    let tmp = path.with_extension("tmp");
    let mut out = BufWriter::new(File::create(&tmp).expect("create"));
    for _ in 0..50 {
        out.write_all(&text).expect("write");
    }
    out.flush().expect("flush");
    drop(out);
    std::fs::rename(&tmp, &path).expect("rename");
    Some(path)
}

/// Plain random games written by python-chess, or `None` with a message.
fn python_chess_file() -> Option<PathBuf> {
    const GAMES: u32 = 100_000;
    let path = bench_dir().join(format!("python-chess-random-{GAMES}-seed1.pgn"));
    if path.exists() {
        return Some(path);
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/python_chess_random.py");
    let tmp = path.with_extension("tmp");
    eprintln!(
        "writing {} with python-chess (about 15 minutes of CPU)…",
        path.display()
    );
    let ok = std::process::Command::new("python3")
        .arg(&script)
        .arg(GAMES.to_string())
        .arg("1")
        .arg(&tmp)
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!(
            "skipped python-chess games: python3 with python-chess (pip install chess) not found"
        );
        return None;
    }
    std::fs::rename(&tmp, &path).expect("rename");
    Some(path)
}

fn bench_file(path: &PathBuf, rounds: usize, only: Option<&str>) {
    let bytes = std::fs::metadata(path).expect("stat").len();
    let readers: [(&str, ReadFn); 3] = [
        ("arbiter-pgn (pgn check visitor)", ours_check),
        ("arbiter-pgn (minimal visitor)", ours_minimal),
        ("pgn-reader 0.29 + shakmaty 0.30", theirs),
    ];
    let selected: Vec<_> = readers
        .iter()
        .filter(|(name, _)| match only {
            None => true,
            Some("ours") => name.starts_with("arbiter-pgn (pgn"),
            Some("minimal") => name.contains("minimal"),
            Some("theirs") => name.starts_with("pgn-reader"),
            Some(other) => panic!("--only ours|minimal|theirs, not {other}"),
        })
        .collect();
    println!("file: {} ({:.1} MB)", path.display(), bytes as f64 / 1e6);
    let mut best = vec![Duration::MAX; selected.len()];
    let mut best_cpu = vec![Duration::MAX; selected.len()];
    let mut counts = vec![(0, 0); selected.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in selected.iter().enumerate() {
            let (t, c) = (Instant::now(), thread_cpu());
            counts[i] = f(path);
            best[i] = best[i].min(t.elapsed());
            best_cpu[i] = best_cpu[i].min(thread_cpu().saturating_sub(c));
        }
    }
    for (i, (name, _)) in selected.iter().enumerate() {
        let s = best_cpu[i].as_secs_f64();
        println!(
            "{name:34} {:7.1} MB/s {:8.0} games/s  (CPU {:.3} s, wall {:.3} s, best of {rounds}; {} games, {} errors)",
            bytes as f64 / 1e6 / s,
            counts[i].0 as f64 / s,
            s,
            best[i].as_secs_f64(),
            counts[i].0,
            counts[i].1,
        );
    }
    if selected.len() == readers.len() {
        let theirs = best_cpu[2].as_secs_f64();
        println!(
            "speed ratio ours/pgn-reader (CPU time): pgn check visitor {:.2}x, minimal visitor {:.2}x",
            theirs / best_cpu[0].as_secs_f64(),
            theirs / best_cpu[1].as_secs_f64()
        );
    }
    println!();
}
