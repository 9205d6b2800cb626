//! The UCI protocol, engine side: a thin layer over [`Engine`].
//!
//! Commands are read on the caller's thread; a search runs on its own thread,
//! so `isready`, `stop`, `ponderhit` and `quit` are answered while it thinks.
//! `bestmove` is written exactly once per `go`, and never before `stop` (or
//! `ponderhit`) after `go infinite` or `go ponder`.

use crate::engine::{Engine, EngineOptions, Limits, ScoreBound, SearchInfo, MAX_ELO, MIN_ELO};
use arbiter_chess::{CastlingMode, Move, Position};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The name the engine gives in `id name`.
pub const NAME: &str = concat!("Arbiter ", env!("CARGO_PKG_VERSION"));

pub use crate::types::MAX_HASH;

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn send(out: &Out, line: &str) {
    if let Ok(mut w) = out.lock() {
        // A closed output (the GUI went away) is not an error worth dying for.
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// An error in a command, reported as `info string` and otherwise ignored.
///
/// For example, an option the engine does not have:
///
/// ```
/// use arbiter_engine::uci::{CommandError, UciEngine};
/// # use std::io::Write;
/// # use std::sync::{Arc, Mutex};
/// # #[derive(Clone, Default)]
/// # struct Shared(Arc<Mutex<Vec<u8>>>);
/// # impl Write for Shared {
/// #     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
/// #         self.0.lock().unwrap().extend_from_slice(b);
/// #         Ok(b.len())
/// #     }
/// #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
/// # }
/// # impl Shared {
/// #     fn text(&self) -> String { String::from_utf8(self.0.lock().unwrap().clone()).unwrap() }
/// # }
/// let out = Shared::default();
/// let mut engine = UciEngine::new(Box::new(out.clone()));
/// assert!(engine.handle("setoption name Nonsense value 1"));
/// let expected = CommandError::Option("no option named \"Nonsense\"".into());
/// assert!(out.text().contains(&format!("info string error: {expected}")), "{}", out.text());
/// assert_eq!(expected.to_string(), "setoption: no option named \"Nonsense\"");
/// ```
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CommandError {
    /// `position` with neither `startpos` nor `fen`.
    #[error("position: expected 'startpos' or 'fen', found {0:?}")]
    PositionKind(String),
    /// A FEN that is not a legal position.
    #[error("position: bad FEN {fen:?}: {message}")]
    Fen {
        /// The FEN given.
        fen: String,
        /// Why.
        message: String,
    },
    /// A move in `position … moves` that is unreadable or illegal.
    #[error("position: move {number} {} is not legal ({message}); position rejected, go answers bestmove (none) until the next position", arbiter_chess::Excerpt(.text))]
    Move {
        /// 1-based index in the move list.
        number: usize,
        /// The text of the move.
        text: String,
        /// Why.
        message: String,
        /// Moves accepted.
        number_kept: usize,
    },
    /// A `go` parameter with a bad value.
    #[error("go: {param} needs a non-negative integer, found {found:?}")]
    GoValue {
        /// The parameter.
        param: String,
        /// What followed it.
        found: String,
    },
    /// `setoption` with an unknown name or bad value.
    #[error("setoption: {0}")]
    Option(String),
}

struct Running {
    handle: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
    ponder: Option<Arc<AtomicBool>>,
    /// `go infinite` or `go ponder`: it ends only on `stop` (or `ponderhit`).
    waits_for_stop: bool,
}

/// The commands [`UciEngine::handle`] knows; any other word before one of
/// them is skipped.
const COMMANDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "bench",
    "debug",
    "register",
];

/// The UCI engine: state between commands.
///
/// One side of a GUI conversation (an output buffer stands for standard output):
///
/// ```
/// use arbiter_engine::uci::UciEngine;
/// # use std::io::Write;
/// # use std::sync::{Arc, Mutex};
/// # #[derive(Clone, Default)]
/// # struct Shared(Arc<Mutex<Vec<u8>>>);
/// # impl Write for Shared {
/// #     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
/// #         self.0.lock().unwrap().extend_from_slice(b);
/// #         Ok(b.len())
/// #     }
/// #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
/// # }
/// # impl Shared {
/// #     fn text(&self) -> String { String::from_utf8(self.0.lock().unwrap().clone()).unwrap() }
/// # }
/// let out = Shared::default();
/// let mut engine = UciEngine::new(Box::new(out.clone()));
/// for line in ["uci", "setoption name Hash value 1", "isready",
///              "position startpos moves e2e4", "go depth 3"] {
///     assert!(engine.handle(line));
/// }
/// engine.wait();
/// let text = out.text();
/// assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
/// let best = text.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap();
/// let mut pos = arbiter_chess::Position::standard();
/// pos.play(pos.parse_uci("e2e4").unwrap()).unwrap();
/// let reply = best.split_whitespace().next().unwrap();
/// assert!(pos.parse_uci(reply).is_ok(), "{reply}");
/// assert!(!engine.handle("quit"));
/// ```
pub struct UciEngine {
    out: Out,
    engine: Option<Engine>,
    running: Option<Running>,
    options: EngineOptions,
    chess960: bool,
    /// The game from the `position` command: start position and moves played.
    start: Position,
    moves: Vec<Move>,
    /// The last `position` command was rejected: `go` must not search the
    /// position before it (nor the moves it accepted), which the GUI did not
    /// send; it answers `bestmove (none)`.
    rejected: bool,
}

impl UciEngine {
    /// A UCI engine writing to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> UciEngine {
        let options = EngineOptions::default();
        UciEngine {
            out: Arc::new(Mutex::new(out)),
            engine: Some(Engine::new(options.clone())),
            running: None,
            options,
            chess960: false,
            start: Position::standard(),
            moves: Vec::new(),
            rejected: false,
        }
    }

    fn say(&self, line: &str) {
        send(&self.out, line);
    }

    /// Handles one line; returns `false` on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut words = line.split_whitespace();
        // "If the engine ... receives an unknown command or token it should
        // just ignore it and try to parse the rest of the string in this
        // line" (UCI): `joho debug on` is `debug on`.
        let Some(cmd) = words.by_ref().find(|w| COMMANDS.contains(w)) else {
            if let Some(first) = line.split_whitespace().next() {
                self.say(&format!("info string unknown command {first:?}"));
            }
            return true;
        };
        let rest: Vec<&str> = words.collect();
        let result = match cmd {
            "uci" => {
                self.identify();
                Ok(())
            }
            "isready" => {
                self.say("readyok");
                Ok(())
            }
            "ucinewgame" => {
                self.finish_search();
                if let Some(e) = self.engine.as_mut() {
                    e.new_game();
                }
                Ok(())
            }
            "setoption" => self.set_option(&rest),
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" => {
                self.finish_search();
                Ok(())
            }
            "ponderhit" => {
                if let Some(r) = &self.running {
                    if let Some(p) = &r.ponder {
                        p.store(false, Ordering::SeqCst);
                    }
                }
                Ok(())
            }
            "quit" => {
                self.finish_search();
                return false;
            }
            "d" => {
                let pos = self.current();
                self.say(&format!("info string fen {}", pos.fen()));
                Ok(())
            }
            "bench" => {
                self.finish_search();
                let depth = rest
                    .first()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(BENCH_DEPTH);
                let r = bench(depth);
                self.say(&format!(
                    "info string bench {} nodes {} nps in {} ms",
                    r.nodes,
                    r.nps(),
                    r.time.as_millis()
                ));
                Ok(())
            }
            // "debug", "register", and any other of COMMANDS.
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.say(&format!("info string error: {e}"));
        }
        true
    }

    fn identify(&self) {
        self.say(&format!("id name {NAME}"));
        self.say("id author The Arbiter developers");
        let o = &self.options;
        self.say(&format!(
            "option name Hash type spin default {} min 1 max {MAX_HASH}",
            EngineOptions::default().hash_mb
        ));
        self.say("option name Threads type spin default 1 min 1 max 1");
        self.say("option name MultiPV type spin default 1 min 1 max 64");
        self.say("option name Ponder type check default false");
        self.say("option name UCI_Chess960 type check default false");
        self.say(&format!(
            "option name Move Overhead type spin default {} min 0 max 5000",
            EngineOptions::default().move_overhead.as_millis()
        ));
        self.say("option name UCI_LimitStrength type check default false");
        self.say(&format!(
            "option name UCI_Elo type spin default {} min {MIN_ELO} max {MAX_ELO}",
            EngineOptions::default().elo
        ));
        self.say("option name Clear Hash type button");
        let _ = o;
        self.say("uciok");
    }

    fn set_option(&mut self, args: &[&str]) -> Result<(), CommandError> {
        // setoption name <id words> [value <value words>]
        let name_at = args.iter().position(|w| w.eq_ignore_ascii_case("name"));
        let value_at = args.iter().position(|w| w.eq_ignore_ascii_case("value"));
        let Some(n) = name_at else {
            return Err(CommandError::Option("expected 'name'".into()));
        };
        let name_end = value_at.unwrap_or(args.len());
        let name = args[n + 1..name_end.max(n + 1)].join(" ");
        let value = value_at
            .map(|v| args[v + 1..].join(" "))
            .unwrap_or_default();
        let lname = name.to_ascii_lowercase();
        let spin = |min: u64, max: u64| -> Result<u64, CommandError> {
            let v: u64 = value.trim().parse().map_err(|_| {
                CommandError::Option(format!("{name} needs an integer, found {value:?}"))
            })?;
            if v < min || v > max {
                return Err(CommandError::Option(format!(
                    "{name} must be between {min} and {max}, found {v}"
                )));
            }
            Ok(v)
        };
        let check = || -> Result<bool, CommandError> {
            match value.trim().to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(CommandError::Option(format!(
                    "{name} needs true or false, found {value:?}"
                ))),
            }
        };
        match lname.as_str() {
            "hash" => self.options.hash_mb = spin(1, MAX_HASH as u64)? as usize,
            "threads" => self.options.threads = spin(1, 1)? as usize,
            "multipv" => self.options.multipv = spin(1, 64)? as usize,
            "ponder" => {
                check()?;
            }
            "uci_chess960" => self.chess960 = check()?,
            "move overhead" => self.options.move_overhead = Duration::from_millis(spin(0, 5000)?),
            "uci_limitstrength" => self.options.limit_strength = check()?,
            "uci_elo" => self.options.elo = spin(MIN_ELO as u64, MAX_ELO as u64)? as u32,
            "clear hash" => {
                self.finish_search();
                if let Some(e) = self.engine.as_mut() {
                    e.clear_hash();
                }
            }
            _ => return Err(CommandError::Option(format!("no option named {name:?}"))),
        }
        Ok(())
    }

    fn mode(&self) -> CastlingMode {
        CastlingMode::from_chess960(self.chess960)
    }

    fn position(&mut self, args: &[&str]) -> Result<(), CommandError> {
        self.rejected = true;
        self.read_position(args)?;
        self.rejected = false;
        Ok(())
    }

    fn read_position(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let moves_at = args.iter().position(|&w| w == "moves");
        let (setup, move_words) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match setup.first() {
            Some(&"startpos") => Position::standard(),
            Some(&"fen") => {
                let fen = setup[1..].join(" ");
                let parsed = Position::from_fen(&fen, self.mode())
                    .or_else(|_| Position::from_fen_auto(&fen));
                parsed.map_err(|e| CommandError::Fen {
                    fen: fen.clone(),
                    message: e.to_string(),
                })?
            }
            other => {
                return Err(CommandError::PositionKind(
                    other.map_or(String::new(), |s| s.to_string()),
                ))
            }
        };
        let mut start = start;
        if self.chess960 {
            let _ = start.set_castling_mode(CastlingMode::Chess960);
        }
        self.start = start;
        self.moves.clear();
        let mut pos = start;
        for (i, w) in move_words.iter().enumerate() {
            match pos.parse_uci(w) {
                Ok(m) => {
                    pos.play_unchecked(m);
                    self.moves.push(m);
                }
                Err(e) => {
                    return Err(CommandError::Move {
                        number: i + 1,
                        text: w.to_string(),
                        message: e.to_string(),
                        number_kept: i,
                    })
                }
            }
        }
        Ok(())
    }

    /// The game so far as positions, first to current.
    fn history(&self) -> Vec<Position> {
        let mut start = self.start;
        let _ = start.set_castling_mode(self.mode());
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(start);
        let mut pos = start;
        for &m in &self.moves {
            pos.play_unchecked(m);
            out.push(pos);
        }
        out
    }

    fn current(&self) -> Position {
        self.history().last().copied().unwrap_or_default()
    }

    fn go(&mut self, args: &[&str]) -> Result<(), CommandError> {
        self.finish_search();
        if self.rejected {
            // Every `go` gets its `bestmove`, but never one for a position the
            // GUI did not send.
            self.say("info string error: go: the last position command was rejected; no position to search");
            self.say("bestmove (none)");
            return Ok(());
        }
        let history = self.history();
        let pos = *history.last().unwrap_or(&self.start);
        let mut limits = Limits::default();
        let mut i = 0;
        // The parameters that take a number, and the others.
        const NUMBERS: [&str; 9] = [
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "depth",
            "nodes",
            "mate",
            "movetime",
        ];
        const WORDS: [&str; 3] = ["searchmoves", "ponder", "infinite"];
        let keyword = |w: &str| NUMBERS.contains(&w) || WORDS.contains(&w);
        let mut ponder = false;
        while i < args.len() {
            let key = args[i];
            if NUMBERS.contains(&key) {
                let found = args.get(i + 1).copied().unwrap_or("");
                // Some GUIs send negative times when a clock has run out.
                let Ok(v) = found.parse::<i64>().map(|v| v.max(0) as u64) else {
                    // Not a number: the parameter is ignored, and the search
                    // still made (every `go` gets its `bestmove`).
                    let e = CommandError::GoValue {
                        param: key.to_string(),
                        found: found.to_string(),
                    };
                    self.say(&format!("info string ignoring it: {e}"));
                    i += if found.is_empty() || keyword(found) {
                        1
                    } else {
                        2
                    };
                    continue;
                };
                let ms = Some(Duration::from_millis(v));
                match key {
                    "wtime" => limits.time[0] = ms,
                    "btime" => limits.time[1] = ms,
                    "winc" => limits.inc[0] = ms,
                    "binc" => limits.inc[1] = ms,
                    "movestogo" => limits.movestogo = Some(u32::try_from(v).unwrap_or(u32::MAX)),
                    "depth" => limits.depth = Some(u32::try_from(v).unwrap_or(u32::MAX)),
                    "nodes" => limits.nodes = Some(v),
                    "mate" => limits.mate = Some(u32::try_from(v).unwrap_or(u32::MAX)),
                    _ => {
                        // "movetime": "search exactly x mseconds".
                        limits.movetime = ms;
                        limits.movetime_exact = true;
                    }
                }
                i += 2;
                continue;
            }
            match key {
                "infinite" => {
                    limits.infinite = true;
                    i += 1;
                }
                "ponder" => {
                    ponder = true;
                    i += 1;
                }
                "searchmoves" => {
                    i += 1;
                    while i < args.len() && !keyword(args[i]) {
                        if let Ok(m) = pos.parse_uci(args[i]) {
                            limits.searchmoves.push(m);
                        } else {
                            self.say(&format!("info string ignoring searchmove {:?}", args[i]));
                        }
                        i += 1;
                    }
                }
                other => {
                    self.say(&format!("info string ignoring go parameter {other:?}"));
                    i += 1;
                }
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let ponder_flag = ponder.then(|| Arc::new(AtomicBool::new(true)));
        limits.ponder = ponder_flag.clone();
        let wait_for_stop = limits.infinite || ponder;
        let mut engine = match self.engine.take() {
            Some(e) => e,
            None => Engine::new(self.options.clone()),
        };
        engine.set_options(self.options.clone());
        let out = self.out.clone();
        let stop2 = stop.clone();
        let ponder2 = ponder_flag.clone();
        let handle = std::thread::spawn(move || {
            let start = Instant::now();
            let mut on_info = |i: &SearchInfo| send(&out, &info_line(i, &pos));
            let result = engine.search(&history, &limits, &stop2, &mut on_info);
            // Never leave `go infinite` or `go ponder` early (UCI).
            if wait_for_stop {
                loop {
                    let pondering = ponder2.as_ref().is_some_and(|p| p.load(Ordering::SeqCst));
                    let stopped = stop2.load(Ordering::SeqCst);
                    if stopped || (!limits.infinite && !pondering) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            let _ = start;
            let line = match result {
                Some(r) => match r.ponder {
                    Some(p) => {
                        let mut after = pos;
                        after.play_unchecked(r.best);
                        format!("bestmove {} ponder {}", pos.uci(r.best), after.uci(p))
                    }
                    None => format!("bestmove {}", pos.uci(r.best)),
                },
                // No legal move (checkmate or stalemate at the root): as
                // Stockfish says it.
                None => "bestmove (none)".to_string(),
            };
            send(&out, &line);
            engine
        });
        self.running = Some(Running {
            handle,
            stop,
            ponder: ponder_flag,
            waits_for_stop: wait_for_stop,
        });
        Ok(())
    }

    /// Stops a running search (if any) and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::SeqCst);
            if let Some(p) = &r.ponder {
                p.store(false, Ordering::SeqCst);
            }
            match r.handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    self.say("info string search thread failed; starting afresh");
                    self.engine = Some(Engine::new(self.options.clone()));
                }
            }
        }
    }

    /// At the end of input: waits for a running search to finish by itself,
    /// or stops it if it would wait for a `stop` that can no longer come
    /// (`go infinite`, `go ponder`); either way its `bestmove` is written.
    pub fn wait(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.waits_for_stop) {
            self.finish_search();
            return;
        }
        if let Some(r) = self.running.take() {
            if let Ok(engine) = r.handle.join() {
                self.engine = Some(engine);
            }
        }
    }
}

/// Formats an `info` line.
pub fn info_line(i: &SearchInfo, root: &Position) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        i.depth, i.seldepth, i.multipv, i.score
    );
    match i.bound {
        ScoreBound::Lower => s.push_str(" lowerbound"),
        ScoreBound::Upper => s.push_str(" upperbound"),
        ScoreBound::Exact => {}
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} time {}",
        i.nodes,
        i.nps,
        i.hashfull,
        i.time.as_millis()
    ));
    if !i.pv.is_empty() {
        s.push_str(" pv");
        let mut pos = *root;
        for &m in &i.pv {
            if !pos.is_legal(m) {
                break;
            }
            s.push(' ');
            s.push_str(&pos.uci(m));
            pos.play_unchecked(m);
        }
    }
    s
}

/// Runs the UCI protocol on `input` and `output` until `quit` or end of input.
pub fn run<R: BufRead>(input: R, output: Box<dyn Write + Send>) -> io::Result<()> {
    let mut uci = UciEngine::new(output);
    let mut input = input;
    let mut buf = Vec::new();
    while let Some(line) = read_line_lossy(&mut input, &mut buf)? {
        if !uci.handle(&line) {
            return Ok(());
        }
    }
    // End of input without quit: let a finite search finish, as a pipe user
    // expects; an infinite or pondering one is stopped (no `stop` can come).
    uci.wait();
    Ok(())
}

/// The next line of `input` without its end, bytes that are not UTF-8
/// replaced by U+FFFD (`None` at the end): a line the other side garbled is
/// read, and ignored or refused as UCI says of what it does not understand,
/// instead of ending the conversation. `buf` is the caller's scratch space.
///
/// ```
/// use arbiter_engine::uci::read_line_lossy;
/// let mut input: &[u8] = b"id author J\xe9r\xf4me\r\nuciok\n";
/// let mut buf = Vec::new();
/// let first = read_line_lossy(&mut input, &mut buf)?.unwrap();
/// assert_eq!(first, "id author J\u{FFFD}r\u{FFFD}me");
/// assert_eq!(read_line_lossy(&mut input, &mut buf)?.as_deref(), Some("uciok"));
/// assert_eq!(read_line_lossy(&mut input, &mut buf)?, None);
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn read_line_lossy<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> io::Result<Option<String>> {
    buf.clear();
    if input.read_until(b'\n', buf)? == 0 {
        return Ok(None);
    }
    let text = buf.strip_suffix(b"\n").unwrap_or(buf);
    let text = text.strip_suffix(b"\r").unwrap_or(text);
    Ok(Some(String::from_utf8_lossy(text).into_owned()))
}

/// The default depth of `bench`.
pub const BENCH_DEPTH: u32 = 11;

/// Positions of `bench`: written by hand to cover openings, middlegames with
/// both kings castled, and endgames.
pub const BENCH_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/2RQ1RK1 w - - 0 11",
    "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NPP2/1BN1B3/PPPQ2PP/2KR3R w - - 2 12",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
    "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
];

/// The result of [`bench()`].
///
/// ```
/// use arbiter_engine::uci::bench;
///
/// let a = bench(2);
/// let b = bench(2);
/// assert!(a.nodes > 0);
/// // The node count is a fingerprint of the search: the same every run.
/// assert_eq!(a.nodes, b.nodes);
/// assert!(a.nps() > 0);
/// ```
#[derive(Copy, Clone, Debug)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// Searches every bench position to `depth` with a fresh 16 MiB table; the node
/// count is a fingerprint of the search (it changes when the search does).
pub fn bench(depth: u32) -> BenchResult {
    let mut nodes = 0;
    let start = Instant::now();
    let mut engine = Engine::new(EngineOptions::default());
    let stop = Arc::new(AtomicBool::new(false));
    for fen in BENCH_FENS {
        let Ok(pos) = Position::from_fen_auto(fen) else {
            continue;
        };
        engine.new_game();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        if let Some(r) = engine.search(&[pos], &limits, &stop, &mut |_| {}) {
            nodes += r.nodes;
        }
    }
    BenchResult {
        nodes,
        time: start.elapsed(),
    }
}
