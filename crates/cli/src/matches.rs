//! `arbiter match`: plays UCI engines against each other, every game an
//! `arbiter-laws` game (clock, ends, result), and reports the score,
//! Elo ± 95% and SPRT; writes PGN with `arbiter-pgn`.

use anyhow::{bail, Context, Result};
use arbiter_engine::client::EngineSpec;
use arbiter_engine::matches::game::{GameSettings, ScoreAdjudication};
use arbiter_engine::matches::openings::{self, Opening};
use arbiter_engine::matches::pgn::{write_game, MatchTags};
use arbiter_engine::matches::stats::{Sprt, SprtState};
use arbiter_engine::matches::verdict::describe;
use arbiter_engine::matches::{self, MatchConfig};
use arbiter_laws::{Delay, DelayKind, Edition};
use arbiter_pgn::TimeControl;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Options of `arbiter match`.
#[derive(clap::Args)]
pub struct Args {
    /// An engine: `cmd=PROGRAM [name=NAME] [arg=ARG]… [option.NAME=VALUE]…`,
    /// starting with `cmd=`. Give it twice; results are counted for the first.
    #[arg(long = "engine", num_args = 1.., required = true, value_name = "KEY=VALUE")]
    engines: Vec<String>,
    /// Time control in PGN form: `10+0.1`, `40/5400+30:1800+30`, `300`.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Delay per move in milliseconds (Art. 6.3 b "delay mode").
    #[arg(long, default_value_t = 0)]
    delay: u64,
    /// `simple` (the main time starts after the delay) or `bronstein`.
    #[arg(long, default_value = "simple")]
    delay_kind: String,
    /// The edition of the Laws: 2014, 2018 or 2023.
    #[arg(long, default_value = "2014")]
    edition: String,
    /// Games to play (in pairs, colours swapped).
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Opening set: EPD/FEN lines or PGN. Without it, games start from the initial position.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Append the games to this PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Stop early by SPRT: `elo0=0 elo1=5 [alpha=0.05] [beta=0.05]`.
    #[arg(long, num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// Resign adjudication: `movecount=3 score=1000`.
    #[arg(long, num_args = 1..)]
    resign: Option<Vec<String>>,
    /// Draw adjudication: `movenumber=40 movecount=8 score=10`.
    #[arg(long, num_args = 1..)]
    draw: Option<Vec<String>>,
    /// Do not claim threefold repetition and 50-move draws for the engines;
    /// play on to the automatic fivefold and 75-move rules.
    #[arg(long)]
    no_claims: bool,
    /// Lag compensation in milliseconds: up to this much of each move's
    /// measured time is not charged (pipes, scheduling).
    #[arg(long, default_value_t = 0)]
    margin: u64,
    /// Adjudicate a draw after this many moves by each engine (0: never).
    #[arg(long, default_value_t = 0)]
    max_moves: u32,
    /// The PGN `Event` tag.
    #[arg(long, default_value = "Arbiter match")]
    event: String,
}

/// `println!` that ends quietly when standard output is closed (`| head`)
/// instead of panicking; the match itself goes on.
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, $($arg)*).and_then(|()| out.flush());
    }};
}

fn key_values(words: &[String], what: &str) -> Result<Vec<(String, String)>> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) => Ok((k.to_string(), v.to_string())),
            None => bail!("{what}: expected KEY=VALUE, found {w:?}"),
        })
        .collect()
}

fn engine_spec(words: &[String]) -> Result<EngineSpec> {
    let mut spec = EngineSpec::default();
    for (k, v) in key_values(words, "--engine")? {
        match k.as_str() {
            "cmd" => spec.command = v,
            "name" => spec.name = v,
            "arg" => spec.args.push(v),
            _ => match k.strip_prefix("option.") {
                Some(o) => spec.options.push((o.to_string(), v)),
                None => bail!("--engine: unknown key {k:?} (cmd, name, arg, option.NAME)"),
            },
        }
    }
    if spec.command.is_empty() {
        bail!("--engine: cmd=PROGRAM is required");
    }
    Ok(spec)
}

fn number<T: std::str::FromStr>(
    kv: &[(String, String)],
    key: &str,
    what: &str,
) -> Result<Option<T>> {
    match kv.iter().find(|(k, _)| k == key) {
        None => Ok(None),
        Some((_, v)) => v
            .parse()
            .map(Some)
            .map_err(|_| anyhow::anyhow!("{what}: {key}={v:?} is not a number")),
    }
}

fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

pub fn run(args: Args) -> Result<ExitCode> {
    // Each engine's words begin with `cmd=`.
    let mut groups: Vec<Vec<String>> = Vec::new();
    for w in &args.engines {
        if w.starts_with("cmd=") || groups.is_empty() {
            groups.push(Vec::new());
        }
        if let Some(g) = groups.last_mut() {
            g.push(w.clone());
        }
    }
    if groups.len() != 2 {
        bail!("give exactly two --engine, each starting with cmd=PROGRAM");
    }
    let engines = [engine_spec(&groups[0])?, engine_spec(&groups[1])?];
    let time_control = TimeControl::parse(&args.tc)?;
    let opening_set = match &args.openings {
        Some(p) => {
            let text =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            openings::read(&text).with_context(|| p.display().to_string())?
        }
        None => vec![Opening::standard()],
    };
    let sprt = match &args.sprt {
        None => None,
        Some(w) => {
            let kv = key_values(w, "--sprt")?;
            let (Some(e0), Some(e1)) = (
                number(&kv, "elo0", "--sprt")?,
                number(&kv, "elo1", "--sprt")?,
            ) else {
                bail!("--sprt needs elo0= and elo1=");
            };
            let mut s = Sprt::new(e0, e1);
            if let Some(a) = number(&kv, "alpha", "--sprt")? {
                s.alpha = a;
            }
            if let Some(b) = number(&kv, "beta", "--sprt")? {
                s.beta = b;
            }
            Some(s)
        }
    };
    let resign = match &args.resign {
        None => None,
        Some(w) => {
            let kv = key_values(w, "--resign")?;
            Some((
                number(&kv, "movecount", "--resign")?.unwrap_or(3),
                number(&kv, "score", "--resign")?.unwrap_or(1000),
            ))
        }
    };
    let draw = match &args.draw {
        None => None,
        Some(w) => {
            let kv = key_values(w, "--draw")?;
            Some((
                number(&kv, "movenumber", "--draw")?.unwrap_or(40),
                number(&kv, "movecount", "--draw")?.unwrap_or(8),
                number(&kv, "score", "--draw")?.unwrap_or(10),
            ))
        }
    };
    let edition: Edition = args.edition.parse().context("--edition")?;
    let delay_kind = match args.delay_kind.as_str() {
        "simple" => DelayKind::Simple,
        "bronstein" => DelayKind::Bronstein,
        other => bail!("--delay-kind: expected simple or bronstein, found {other:?}"),
    };
    let delay = (args.delay > 0).then_some(Delay {
        kind: delay_kind,
        ms: args.delay,
    });
    let config = MatchConfig {
        engines,
        time_control,
        delay,
        edition,
        openings: opening_set,
        games: args.games,
        concurrency: args.concurrency,
        settings: GameSettings {
            claims: !args.no_claims,
            adjudication: ScoreAdjudication { resign, draw },
            margin: Duration::from_millis(args.margin),
            max_moves: args.max_moves,
        },
        sprt,
    };
    let tags = MatchTags {
        event: args.event.clone(),
        site: "arbiter match".into(),
        date: today(),
    };
    let mut pgn = match &args.pgn {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("opening {}", p.display()))?,
        ),
        None => None,
    };
    let mut names = (String::new(), String::new());
    let tally = matches::run(&config, &mut |f, t, sprt_state| {
        let r = &f.record;
        let (first, second) = if f.first_is_white {
            (&r.white, &r.black)
        } else {
            (&r.black, &r.white)
        };
        names = (first.clone(), second.clone());
        say!(
            "Game {} {} - {}: {} ({})",
            f.round,
            r.white,
            r.black,
            r.result().map_or_else(|| "*".to_owned(), |x| x.to_string()),
            describe(&r.game).unwrap_or_default()
        );
        let e = t.elo();
        say!(
            "Score of {first} vs {second}: {} - {} - {} [{:.3}] {}; Elo {:+.1} ± {:.1} (95%), LOS {:.1}%",
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games(),
            e.elo,
            e.margin(),
            100.0 * t.los()
        );
        if let (Some(s), Some(state)) = (config.sprt, sprt_state) {
            let (lo, hi) = s.bounds();
            say!(
                "SPRT elo0={} elo1={}: LLR {:.2} ({:.2}, {:.2}){}",
                s.elo0,
                s.elo1,
                s.llr(t),
                lo,
                hi,
                match state {
                    SprtState::Continue => "",
                    SprtState::AcceptH0 => " - H0 accepted",
                    SprtState::AcceptH1 => " - H1 accepted",
                }
            );
        }
        if let Some(file) = pgn.as_mut() {
            if let Err(e) = file.write_all(write_game(r, f.round, &tags).as_bytes()) {
                eprintln!("arbiter: writing PGN: {e}");
            }
        }
    })?;
    let e = tally.elo();
    say!(
        "Finished: {} vs {}: +{} ={} -{} ({} games), score {:.3}, Elo {:+.1} [{:+.1}, {:+.1}]",
        names.0,
        names.1,
        tally.wins,
        tally.draws,
        tally.losses,
        tally.games(),
        tally.score(),
        e.elo,
        e.low,
        e.high
    );
    Ok(ExitCode::SUCCESS)
}
