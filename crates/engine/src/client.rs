//! A UCI client: starts an outside engine (Stockfish, Ethereal, GNU Chess
//! with `-u`, …, or our own), talks to it over pipes with timeouts, and never
//! hangs on a silent or dead engine.

use crate::types::Score;
use std::collections::HashMap;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How to start an engine and what to tell it.
///
/// ```
/// use arbiter_engine::client::EngineSpec;
///
/// // GNU Chess speaks UCI with `-u`; a 16 MiB hash.
/// let spec = EngineSpec {
///     name: "GNU Chess".into(),
///     command: "gnuchess".into(),
///     args: vec!["-u".into()],
///     options: vec![("Hash".into(), "16".into())],
/// };
/// assert_eq!(spec.options[0], ("Hash".to_string(), "16".to_string()));
/// assert_eq!(EngineSpec::default().name, "");
/// ```
///
/// Starting it needs the program installed:
///
/// ```no_run
/// # use arbiter_engine::client::{EngineSpec, UciClient};
/// # let (command, args) = ("gnuchess".to_string(), vec!["-u".to_string()]);
/// # let spec = EngineSpec { command, args, ..EngineSpec::default() };
/// let engine = UciClient::start(&spec)?;
/// println!("{} is ready", engine.name());
/// engine.quit();
/// # Ok::<(), arbiter_engine::client::ClientError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// A display name (the PGN player name); the engine's `id name` if empty.
    pub name: String,
    /// The program.
    pub command: String,
    /// Its arguments (for example `uci` for `arbiter`, `-u` for GNU Chess).
    pub args: Vec<String>,
    /// UCI options to set, in order.
    pub options: Vec<(String, String)>,
}

/// Something went wrong talking to an engine.
///
/// ```
/// use arbiter_engine::client::{ClientError, EngineSpec, UciClient};
///
/// let spec = EngineSpec {
///     command: "/nonexistent/engine".into(),
///     ..EngineSpec::default()
/// };
/// let Err(err) = UciClient::start(&spec) else { panic!("no such program") };
/// assert!(matches!(&err, ClientError::Spawn { command, .. } if command == "/nonexistent/engine"));
/// assert!(err.to_string().starts_with("cannot start engine \"/nonexistent/engine\""));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The program could not be started.
    #[error("cannot start engine {command:?}: {source}")]
    Spawn {
        /// The program.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// Writing to the engine failed (it has probably exited).
    #[error("engine {name}: cannot write: {source}")]
    Write {
        /// The engine.
        name: String,
        /// Why.
        source: std::io::Error,
    },
    /// The engine did not answer in time.
    #[error("engine {name}: no {expected:?} within {waited:?}")]
    Timeout {
        /// The engine.
        name: String,
        /// What we waited for.
        expected: &'static str,
        /// How long.
        waited: Duration,
    },
    /// The engine closed its output.
    #[error("engine {name} exited while we waited for {expected:?}")]
    Exited {
        /// The engine.
        name: String,
        /// What we waited for.
        expected: &'static str,
    },
    /// The engine has no option of that name.
    #[error("engine {name} has no option {option:?}")]
    UnknownOption {
        /// The engine.
        name: String,
        /// The option.
        option: String,
    },
}

/// What came back from one `go`.
///
/// ```no_run
/// use arbiter_engine::client::{EngineSpec, UciClient};
/// use std::time::Duration;
///
/// let spec = EngineSpec {
///     command: "stockfish".into(),
///     ..EngineSpec::default()
/// };
/// let mut engine = UciClient::start(&spec)?;
/// let r = engine.go(
///     "position startpos moves e2e4",
///     "depth 8",
///     Duration::from_secs(10),
/// )?;
/// if r.timed_out {
///     println!("no bestmove within 10 s");
/// } else {
///     println!(
///         "bestmove {:?} ponder {:?}, depth {:?}, score {:?} in {:?}",
///         r.bestmove, r.ponder, r.depth, r.score, r.elapsed
///     );
/// }
/// engine.quit();
/// # Ok::<(), arbiter_engine::client::ClientError>(())
/// ```
#[derive(Clone, Debug)]
pub struct GoResult {
    /// The `bestmove` text, if the engine answered before the deadline.
    pub bestmove: Option<String>,
    /// The `ponder` move, if given.
    pub ponder: Option<String>,
    /// The last score reported (multipv 1, exact or bound).
    pub score: Option<Score>,
    /// The last depth reported.
    pub depth: Option<u32>,
    /// Wall time from sending `go` to receiving `bestmove` (or to the deadline).
    pub elapsed: Duration,
    /// `true` if no `bestmove` came before the deadline (otherwise a
    /// `bestmove` line without a move gives `bestmove: None` too).
    pub timed_out: bool,
}

/// A running UCI engine.
///
/// Our own engine, the `arbiter-engine-uci` binary of this crate, on the
/// `PATH` (any UCI engine works the same way):
///
/// ```no_run
/// use arbiter_engine::client::{EngineSpec, UciClient};
/// use std::time::Duration;
///
/// let spec = EngineSpec {
///     name: "Arbiter".into(),
///     command: "arbiter-engine-uci".into(),
///     options: vec![("Hash".into(), "8".into())],
///     ..EngineSpec::default()
/// };
/// let mut engine = UciClient::start(&spec)?;
/// assert!(engine.has_option("hash"));
/// engine.new_game()?;
/// let r = engine.go("position startpos", "depth 4", Duration::from_secs(5))?;
/// assert!(!r.timed_out && r.bestmove.is_some());
/// engine.quit();
/// # Ok::<(), arbiter_engine::client::ClientError>(())
/// ```
pub struct UciClient {
    name: String,
    id_name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    options: HashMap<String, String>,
    /// `UCI_Chess960` as last set (`false`, the UCI default, until then).
    chess960: bool,
}

/// How long an engine may take to start, answer `uci` or `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(20);

/// How long an engine that ran out of time has to answer `stop`.
pub const STOP_GRACE: Duration = Duration::from_secs(2);

impl UciClient {
    /// Starts the engine, runs the `uci` handshake and sets the options.
    pub fn start(spec: &EngineSpec) -> Result<UciClient, ClientError> {
        let mut child = Command::new(&spec.command)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| ClientError::Spawn {
                command: spec.command.clone(),
                source,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(ClientError::Spawn {
                command: spec.command.clone(),
                source: std::io::Error::other("no pipes"),
            });
        };
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            while let Ok(Some(line)) = crate::uci::read_line_lossy(&mut reader, &mut buf) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut client = UciClient {
            name: if spec.name.is_empty() {
                spec.command.clone()
            } else {
                spec.name.clone()
            },
            id_name: String::new(),
            child,
            stdin,
            lines: rx,
            options: HashMap::new(),
            chess960: false,
        };
        client.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = client.recv_until(deadline, "uciok")?;
            let line = line.trim();
            if line == "uciok" {
                break;
            }
            if let Some(rest) = line.strip_prefix("id name ") {
                client.id_name = rest.trim().to_string();
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                client
                    .options
                    .insert(name.to_ascii_lowercase(), name.to_string());
            }
        }
        if spec.name.is_empty() && !client.id_name.is_empty() {
            client.name = client.id_name.clone();
        }
        for (k, v) in &spec.options {
            client.set_option(k, v)?;
        }
        client.is_ready()?;
        Ok(client)
    }

    /// The display name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The engine's own `id name`.
    pub fn id_name(&self) -> &str {
        &self.id_name
    }

    /// `true` if the engine declared an option of this name (any case).
    pub fn has_option(&self, name: &str) -> bool {
        self.options.contains_key(&name.to_ascii_lowercase())
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|source| ClientError::Write {
                name: self.name.clone(),
                source,
            })
    }

    fn recv_until(
        &mut self,
        deadline: Instant,
        expected: &'static str,
    ) -> Result<String, ClientError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout {
                name: self.name.clone(),
                expected,
                waited: HANDSHAKE_TIMEOUT,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Exited {
                name: self.name.clone(),
                expected,
            }),
        }
    }

    /// `setoption name … value …`, using the engine's spelling of the name.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        let Some(real) = self.options.get(&name.to_ascii_lowercase()).cloned() else {
            return Err(ClientError::UnknownOption {
                name: self.name.clone(),
                option: name.to_string(),
            });
        };
        if real.eq_ignore_ascii_case("UCI_Chess960") {
            self.chess960 = value.eq_ignore_ascii_case("true");
        }
        if value.is_empty() {
            self.send(&format!("setoption name {real}"))
        } else {
            self.send(&format!("setoption name {real} value {value}"))
        }
    }

    /// Tells an engine that has the option `UCI_Chess960` whether castling
    /// is written king-takes-rook (`e1h1`, Chess960) or by the king's two
    /// squares (`e1g1`), if that differs from what it was last told. An
    /// engine without the option is told nothing.
    pub fn set_chess960(&mut self, on: bool) -> Result<(), ClientError> {
        if self.chess960 == on || !self.has_option("UCI_Chess960") {
            return Ok(());
        }
        self.set_option("UCI_Chess960", if on { "true" } else { "false" })
    }

    /// `isready`, waiting for `readyok`.
    pub fn is_ready(&mut self) -> Result<(), ClientError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            if self.recv_until(deadline, "readyok")?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// `ucinewgame` then `isready`.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send("ucinewgame")?;
        self.is_ready()
    }

    /// Sends `position` and `go <params>`, then waits for `bestmove` until
    /// `deadline` after the `go`. Past the deadline (a flag fall) `stop` is
    /// sent and the late `bestmove` is read and discarded: the result has
    /// `timed_out`. An engine that does not answer `stop` within
    /// [`STOP_GRACE`] is hung: [`ClientError::Timeout`] (restart it; a late
    /// answer would confuse the next `go`).
    pub fn go(
        &mut self,
        position: &str,
        params: &str,
        deadline: Duration,
    ) -> Result<GoResult, ClientError> {
        self.send(position)?;
        let start = Instant::now();
        self.send(&format!("go {params}"))?;
        let mut score = None;
        let mut depth = None;
        let end = start + deadline;
        loop {
            let wait = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(line) => {
                    let line = line.trim();
                    // `bestmove` as a word: `bestmovex` is no answer.
                    let first = line.split_whitespace().next();
                    if let Some(rest) = line
                        .strip_prefix("bestmove")
                        .filter(|_| first == Some("bestmove"))
                    {
                        let elapsed = start.elapsed();
                        let mut words = rest.split_whitespace();
                        let best = words.next().map(str::to_string);
                        let ponder = match (words.next(), words.next()) {
                            (Some("ponder"), Some(p)) => Some(p.to_string()),
                            _ => None,
                        };
                        return Ok(GoResult {
                            bestmove: best,
                            ponder,
                            score,
                            depth,
                            elapsed,
                            timed_out: false,
                        });
                    }
                    if line.starts_with("info") {
                        let (s, d) = parse_info(line);
                        if s.is_some() {
                            score = s;
                        }
                        if d.is_some() {
                            depth = d;
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    let elapsed = start.elapsed();
                    // Out of time: stop it and wait briefly for the late answer
                    // so the next `go` is not confused by it.
                    self.send("stop")?;
                    let grace = Instant::now() + STOP_GRACE;
                    loop {
                        let wait = grace.saturating_duration_since(Instant::now());
                        match self.lines.recv_timeout(wait) {
                            Ok(l) if l.trim_start().starts_with("bestmove") => break,
                            Ok(_) => {}
                            Err(RecvTimeoutError::Timeout) => {
                                return Err(ClientError::Timeout {
                                    name: self.name.clone(),
                                    expected: "bestmove after stop",
                                    waited: deadline + STOP_GRACE,
                                })
                            }
                            Err(RecvTimeoutError::Disconnected) => {
                                return Err(ClientError::Exited {
                                    name: self.name.clone(),
                                    expected: "bestmove after stop",
                                })
                            }
                        }
                    }
                    return Ok(GoResult {
                        bestmove: None,
                        ponder: None,
                        score,
                        depth,
                        elapsed,
                        timed_out: true,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(ClientError::Exited {
                        name: self.name.clone(),
                        expected: "bestmove",
                    })
                }
            }
        }
    }

    /// `quit`, then kills the process if it has not exited within a second.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The score (multipv 1 only) and depth of an `info` line.
pub fn parse_info(line: &str) -> (Option<Score>, Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut score = None;
    let mut depth = None;
    let mut multipv = 1;
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => {
                depth = words.get(i + 1).and_then(|w| w.parse().ok());
                i += 2;
            }
            "multipv" => {
                multipv = words.get(i + 1).and_then(|w| w.parse().ok()).unwrap_or(1);
                i += 2;
            }
            "score" => {
                let kind = words.get(i + 1).copied();
                let v: Option<i32> = words.get(i + 2).and_then(|w| w.parse().ok());
                score = match (kind, v) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
                i += 3;
            }
            "pv" | "string" => break,
            _ => i += 1,
        }
    }
    if multipv != 1 {
        return (None, None);
    }
    (score, depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        assert_eq!(
            parse_info("info depth 12 seldepth 18 multipv 1 score cp -35 nodes 1 pv e2e4"),
            (Some(Score::Cp(-35)), Some(12))
        );
        assert_eq!(
            parse_info("info depth 3 score mate -2 lowerbound pv a1a2"),
            (Some(Score::Mate(-2)), Some(3))
        );
        assert_eq!(
            parse_info("info depth 5 multipv 2 score cp 10"),
            (None, None)
        );
        assert_eq!(parse_info("info string score cp 5"), (None, None));
        assert!(Score::Mate(3).centipawns() > Score::Cp(5000).centipawns());
        assert!(Score::Mate(-1).centipawns() < Score::Mate(-5).centipawns());
    }

    #[test]
    fn missing_program_is_an_error() {
        let spec = EngineSpec {
            command: "/nonexistent/engine".into(),
            ..EngineSpec::default()
        };
        assert!(matches!(
            UciClient::start(&spec),
            Err(ClientError::Spawn { .. })
        ));
    }
}
