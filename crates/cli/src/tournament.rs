//! `arbiter tournament`: FIDE events from the command line — the Dutch system
//! as JaVaFo and bbpPairings are called (`pair --dutch FILE.trf -p [OUT]`,
//! `-c`), the free pairings checker, the random tournament generator, and an
//! event kept in one TRF file (`new`, `add-player`, `pair`, `result`, `bye`,
//! `standings`, `export`). See docs/tournament.md.

use crate::BROKEN_PIPE;
use anyhow::Result;
use arbiter_tournament::dutch::{self, Options, PairError, Rules};
use arbiter_tournament::generate::{self, Config};
use arbiter_tournament::tiebreak::{self, Edition, TieBreak};
use arbiter_tournament::trf::{self, TrfVersion};
use arbiter_tournament::{
    berger, Acceleration, Colour, Event, PairingSystem, Player, RoundEntry, RoundResult, Sex, Title,
};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `arbiter tournament`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Pair the next round of FILE.trf and print it as JaVaFo/bbpPairings do
    /// (number of pairs, then `WHITE BLACK` lines, `ID 0` for the bye);
    /// with --record, write the pairing into the event file instead.
    /// Exit codes: 0 paired, 1 no valid pairing exists, 3 bad input.
    Pair(PairArgs),
    /// For each round of FILE.trf: is its pairing the one the Dutch rules give? (C.04 A.4)
    Check(CheckArgs),
    /// Write random complete tournaments as TRF (C.04 A.5).
    Generate(GenerateArgs),
    /// Start an event file (TRF-2026).
    New(NewArgs),
    /// Add a player to an event file (a late entry once rounds are paired).
    AddPlayer(AddPlayerArgs),
    /// Record a result: `result FILE WHITE BLACK 1-0|0-1|1/2|+-|-+|--`.
    Result(ResultArgs),
    /// Record a requested bye or an absence for the next round, or a withdrawal.
    Bye(ByeArgs),
    /// The standings with tie-breaks (C.07).
    Standings(StandingsArgs),
    /// Write the event as TRF, PGN (games without moves) or JSON.
    Export(ExportArgs),
}

#[derive(clap::Args)]
struct PairArgs {
    /// The tournament (TRF-16 or TRF-2026).
    file: PathBuf,
    /// The FIDE Dutch system (the only system; accepted for compatibility).
    #[arg(long)]
    dutch: bool,
    /// Edition of C.04.3: 2025 (in force from 1 February 2026) or 2017.
    #[arg(long, default_value = "2025")]
    rules: String,
    /// Pair the next round; write it to OUT (standard output when absent).
    #[arg(short = 'p', num_args = 0..=1, default_missing_value = "-")]
    pair: Option<String>,
    /// Check the file instead (as `check`).
    #[arg(short = 'c')]
    check: bool,
    /// Write the pairing into FILE as the next round (results pending).
    #[arg(long)]
    record: bool,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// The tournament.
    file: PathBuf,
    /// Edition of C.04.3: 2025 or 2017.
    #[arg(long, default_value = "2025")]
    rules: String,
}

#[derive(clap::Args)]
struct GenerateArgs {
    /// Number of players.
    #[arg(long, default_value_t = 20)]
    players: u16,
    /// Number of rounds.
    #[arg(long, default_value_t = 9)]
    rounds: u16,
    /// Probability of a draw.
    #[arg(long, default_value_t = 0.3)]
    draw_rate: f64,
    /// Probability that a game is forfeited.
    #[arg(long, default_value_t = 0.0)]
    forfeit_rate: f64,
    /// Probability of a requested half-point bye per player and round.
    #[arg(long, default_value_t = 0.0)]
    bye_rate: f64,
    /// Probability of an absence (zero-point bye) per player and round.
    #[arg(long, default_value_t = 0.0)]
    absence_rate: f64,
    /// Probability of a withdrawal per player and round.
    #[arg(long, default_value_t = 0.0)]
    withdraw_rate: f64,
    /// Probability that a player enters late.
    #[arg(long, default_value_t = 0.0)]
    late_rate: f64,
    /// Baku acceleration (C.04.5.1).
    #[arg(long)]
    baku: bool,
    /// Edition of C.04.3: 2025 or 2017.
    #[arg(long, default_value = "2025")]
    rules: String,
    /// The seed (tournament k of --count uses seed + k).
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    /// How many tournaments.
    #[arg(long, default_value_t = 1)]
    count: u32,
    /// Output file (one tournament) or directory (several); standard output when absent.
    #[arg(short = 'o')]
    out: Option<PathBuf>,
    /// Write TRF-16 instead of TRF-2026.
    #[arg(long)]
    trf16: bool,
}

#[derive(clap::Args)]
struct NewArgs {
    /// The event file to create (it must not exist).
    file: PathBuf,
    /// Tournament name.
    #[arg(long)]
    name: String,
    /// Number of rounds (a round-robin takes it from the players at the first pairing).
    #[arg(long, default_value_t = 0)]
    rounds: u16,
    /// dutch, dutch2017, round-robin or double-round-robin.
    #[arg(long, default_value = "dutch")]
    system: String,
    /// The colour of the first player of board 1 in round 1 (drawn by lot before round 1).
    #[arg(long, default_value = "white")]
    initial_colour: String,
    /// Tie-breaks, comma-separated (C.07 codes: BH/C1,BH,SB,DE,WIN,…).
    #[arg(long, default_value = "BH/C1,BH,SB,DE,WIN")]
    tie_breaks: String,
    /// Baku acceleration (C.04.5.1).
    #[arg(long)]
    baku: bool,
    /// City.
    #[arg(long, default_value = "")]
    city: String,
    /// Chief arbiter.
    #[arg(long, default_value = "")]
    arbiter: String,
}

#[derive(clap::Args)]
struct AddPlayerArgs {
    /// The event file.
    file: PathBuf,
    /// "Last, First".
    #[arg(long)]
    name: String,
    /// FIDE rating (0 = unrated).
    #[arg(long, default_value_t = 0)]
    rating: u16,
    /// Title: GM IM WGM FM WIM CM WFM WCM.
    #[arg(long)]
    title: Option<String>,
    /// Federation (3 letters).
    #[arg(long, default_value = "")]
    federation: String,
    /// FIDE id.
    #[arg(long)]
    fide_id: Option<u64>,
    /// Birth date (YYYY/MM/DD).
    #[arg(long, default_value = "")]
    birth: String,
    /// m or w.
    #[arg(long)]
    sex: Option<String>,
}

#[derive(clap::Args)]
struct ResultArgs {
    /// The event file.
    file: PathBuf,
    /// White's starting rank.
    white: u16,
    /// Black's starting rank.
    black: u16,
    /// 1-0, 0-1, 1/2 (or ½-½, =), +- / -+ (forfeits), -- (both forfeit).
    result: String,
    /// The round (default: the last round paired).
    #[arg(long)]
    round: Option<usize>,
}

#[derive(clap::Args)]
struct ByeArgs {
    /// The event file.
    file: PathBuf,
    /// The player's starting rank.
    player: u16,
    /// half (requested half-point bye), zero (absence), or withdraw (zero for every remaining round).
    #[arg(long, default_value = "half")]
    kind: String,
}

#[derive(clap::Args)]
struct StandingsArgs {
    /// The event file.
    file: PathBuf,
    /// Tie-breaks, comma-separated (default: the event's, else BH/C1,BH,SB,DE,WIN).
    #[arg(long)]
    tie_breaks: Option<String>,
    /// Edition of C.07: 2026 or 2023.
    #[arg(long, default_value = "2026")]
    edition: String,
    /// JSON lines instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct ExportArgs {
    /// The event file.
    file: PathBuf,
    /// TRF-2026.
    #[arg(long)]
    trf: bool,
    /// TRF-16 (with XXR/XXC, for JaVaFo and bbpPairings).
    #[arg(long)]
    trf16: bool,
    /// PGN: one game per pairing, without moves.
    #[arg(long)]
    pgn: bool,
    /// JSON: the event as the library's typed model.
    #[arg(long)]
    json: bool,
}

/// A failure with the exit code of JaVaFo/bbpPairings.
struct Failure(u8, String);

/// A failed write to standard output.
fn unwritten(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Failure(BROKEN_PIPE, String::new())
    } else {
        Failure(5, format!("standard output: {e}"))
    }
}

/// `print!` that returns the failure of the write (a closed pipe quietly).
macro_rules! out {
    ($($arg:tt)*) => {
        write!(std::io::stdout().lock(), $($arg)*).map_err(unwritten)?
    };
}

/// `println!` that returns the failure of the write (a closed pipe quietly).
macro_rules! outln {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*).map_err(unwritten)?
    };
}

pub fn run(args: Args) -> Result<ExitCode> {
    let r = match args.command {
        Command::Pair(a) => pair(a),
        Command::Check(a) => check_cmd(&a.file, &a.rules),
        Command::Generate(a) => generate_cmd(a),
        Command::New(a) => new_cmd(a),
        Command::AddPlayer(a) => add_player(a),
        Command::Result(a) => result_cmd(a),
        Command::Bye(a) => bye_cmd(a),
        Command::Standings(a) => standings_cmd(a),
        Command::Export(a) => export(a),
    };
    match r {
        Ok(code) => Ok(code),
        Err(Failure(code, msg)) => {
            if code != BROKEN_PIPE {
                eprintln!("arbiter tournament: {msg}");
            }
            Ok(ExitCode::from(code))
        }
    }
}

fn bad(e: impl std::fmt::Display) -> Failure {
    Failure(3, e.to_string())
}

fn read_event(path: &Path) -> Result<Event, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure(5, format!("{}: {e}", path.display())))?;
    trf::read(&text).map_err(|e| bad(format!("{}: {e}", path.display())))
}

/// Writes the event atomically (a temporary file renamed over it), so that a
/// failing command leaves the file as it was.
fn save(path: &Path, event: &Event) -> Result<(), Failure> {
    let tmp = path.with_extension("trf.tmp");
    std::fs::write(&tmp, trf::write(event, TrfVersion::Trf26))
        .map_err(|e| Failure(5, format!("{}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, path).map_err(|e| Failure(5, format!("{}: {e}", path.display())))
}

fn rules(s: &str) -> Result<Rules, Failure> {
    match s {
        "2025" | "2026" => Ok(Rules::Fide2025),
        "2017" => Ok(Rules::Fide2017),
        _ => Err(bad(format!("--rules must be 2025 or 2017, not {s:?}"))),
    }
}

fn event_rules(e: &Event, given: &str) -> Result<Rules, Failure> {
    if e.system == PairingSystem::Dutch2017 && given == "2025" {
        return Ok(Rules::Fide2017);
    }
    rules(given)
}

fn pair(a: PairArgs) -> Result<ExitCode, Failure> {
    if a.check {
        return check_cmd(&a.file, &a.rules);
    }
    let mut event = read_event(&a.file)?;
    if event
        .players
        .iter()
        .any(|p| p.rounds.iter().any(|e| e.result == RoundResult::Pending))
    {
        return Err(bad("results are missing: record them with `arbiter tournament result` before pairing the next round"));
    }
    let round = event.round_to_pair();
    let pairing = match event.system {
        PairingSystem::RoundRobin | PairingSystem::DoubleRoundRobin => round_robin(&event, round)?,
        _ => {
            if event.total_rounds == 0 {
                return Err(bad("the number of rounds is not given (TRF 142 or XXR)"));
            }
            let options = Options {
                rules: event_rules(&event, &a.rules)?,
                ..Options::default()
            };
            dutch::pair_round(&event, round, options).map_err(|e| match e {
                PairError::NoValidPairing(m) => Failure(1, format!("No valid pairing exists: {m}")),
                PairError::Event(m) => bad(m),
            })?
        }
    };
    if a.record {
        record(&mut event, &pairing);
        save(&a.file, &event)?;
        for (w, b) in &pairing.pairs {
            outln!("{w} {b}");
        }
        if let Some(b) = pairing.bye {
            outln!("{b} 0");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let text = pairing.to_engine_format();
    match a.pair.as_deref() {
        None | Some("-") => out!("{text}"),
        Some(out) => std::fs::write(out, text).map_err(|e| Failure(5, format!("{out}: {e}")))?,
    }
    Ok(ExitCode::SUCCESS)
}

fn round_robin(event: &Event, round: usize) -> Result<dutch::RoundPairing, Failure> {
    let n = event.players.len() as u16;
    let per = berger::rounds(n);
    let double = event.system == PairingSystem::DoubleRoundRobin;
    let total = if double { 2 * per } else { per };
    if round as u16 > total {
        return Err(bad(format!(
            "a round-robin of {n} players has {total} rounds"
        )));
    }
    let boards = if double {
        berger::double_round(n, round as u16)
    } else {
        berger::round(n, round as u16)
    };
    // With an odd number the player paired with the dummy has no game: a
    // zero-point round, not a pairing-allocated bye.
    let pairs = boards
        .into_iter()
        .filter_map(|b| b.black.map(|bl| (b.white, bl)))
        .collect();
    Ok(dutch::RoundPairing {
        round,
        pairs,
        bye: None,
    })
}

fn record(event: &mut Event, pairing: &dutch::RoundPairing) {
    let round = pairing.round;
    for (w, b) in &pairing.pairs {
        for (me, opp, c) in [(*w, *b, Colour::White), (*b, *w, Colour::Black)] {
            if let Some(p) = event.player_mut(me) {
                p.fill_absent(round - 1);
                p.rounds
                    .push(RoundEntry::game(opp, c, RoundResult::Pending));
            }
        }
    }
    if let Some(b) = pairing.bye {
        if let Some(p) = event.player_mut(b) {
            p.fill_absent(round - 1);
            p.rounds.push(RoundEntry::bye(RoundResult::PairingBye));
        }
    }
    // Everyone else (absent, or the round-robin's dummy): a zero-point round.
    for p in &mut event.players {
        p.fill_absent(round);
    }
    if event.total_rounds == 0 {
        let n = event.players.len() as u16;
        let per = berger::rounds(n);
        event.total_rounds = if event.system == PairingSystem::DoubleRoundRobin {
            2 * per
        } else {
            per
        };
    }
}

fn check_cmd(file: &Path, given: &str) -> Result<ExitCode, Failure> {
    let event = read_event(file)?;
    let options = Options {
        rules: event_rules(&event, given)?,
        ..Options::default()
    };
    let report = arbiter_tournament::check::check(&event, options);
    let fmt = |v: &[(u16, u16)]| {
        v.iter()
            .map(|(a, b)| {
                if *b == 0 {
                    format!("{a} bye")
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut all = true;
    for r in &report {
        if r.ok {
            outln!("round {}: ok", r.round);
        } else if let Some(e) = &r.error {
            all = false;
            outln!("round {}: cannot be paired by the rules: {e}", r.round);
        } else {
            all = false;
            outln!(
                "round {}: differs — the file has {}; the rules give {}",
                r.round,
                fmt(&r.only_in_file),
                fmt(&r.only_by_rules)
            );
        }
    }
    let ok = report.iter().filter(|r| r.ok).count();
    outln!("{ok} of {} rounds as the rules give", report.len());
    Ok(if all {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn generate_cmd(a: GenerateArgs) -> Result<ExitCode, Failure> {
    let r = rules(&a.rules)?;
    for (name, v) in [
        ("--draw-rate", a.draw_rate),
        ("--forfeit-rate", a.forfeit_rate),
        ("--bye-rate", a.bye_rate),
        ("--absence-rate", a.absence_rate),
        ("--withdraw-rate", a.withdraw_rate),
        ("--late-rate", a.late_rate),
    ] {
        if !(0.0..=1.0).contains(&v) {
            return Err(bad(format!("{name} must be between 0 and 1, not {v}")));
        }
    }
    if a.players < 2 || a.rounds == 0 {
        return Err(bad("--players must be at least 2 and --rounds at least 1"));
    }
    let version = if a.trf16 {
        TrfVersion::Trf16
    } else {
        TrfVersion::Trf26
    };
    let mut texts = Vec::new();
    for k in 0..a.count {
        let c = Config {
            players: a.players,
            rounds: a.rounds,
            draw_rate: a.draw_rate,
            forfeit_rate: a.forfeit_rate,
            half_bye_rate: a.bye_rate,
            absence_rate: a.absence_rate,
            withdraw_rate: a.withdraw_rate,
            late_rate: a.late_rate,
            acceleration: a.baku.then(|| Acceleration::baku(a.players, a.rounds)),
            rules: r,
            seed: a.seed + u64::from(k),
        };
        texts.push((c.seed, trf::write(&generate::generate(&c), version)));
    }
    match (&a.out, a.count) {
        (None, _) => {
            for (_, t) in &texts {
                out!("{t}");
            }
        }
        (Some(p), 1) => std::fs::write(p, &texts[0].1)
            .map_err(|e| Failure(5, format!("{}: {e}", p.display())))?,
        (Some(dir), _) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| Failure(5, format!("{}: {e}", dir.display())))?;
            for (seed, t) in &texts {
                let p = dir.join(format!("tournament-{seed}.trf"));
                std::fs::write(&p, t).map_err(|e| Failure(5, format!("{}: {e}", p.display())))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn parse_tie_breaks(s: &str) -> Result<Vec<TieBreak>, Failure> {
    s.split(',')
        .filter(|x| !x.trim().is_empty())
        .map(|x| x.parse::<TieBreak>().map_err(bad))
        .collect()
}

fn new_cmd(a: NewArgs) -> Result<ExitCode, Failure> {
    if a.file.exists() {
        return Err(bad(format!("{} exists already", a.file.display())));
    }
    let mut e = Event::new(&a.name, a.rounds);
    e.city = a.city;
    e.chief_arbiter = a.arbiter;
    e.system = match a.system.as_str() {
        "dutch" => PairingSystem::Dutch2025,
        "dutch2017" => PairingSystem::Dutch2017,
        "round-robin" => PairingSystem::RoundRobin,
        "double-round-robin" => PairingSystem::DoubleRoundRobin,
        s => {
            return Err(bad(format!(
                "--system must be dutch, dutch2017, round-robin or double-round-robin, not {s:?}"
            )))
        }
    };
    if matches!(
        e.system,
        PairingSystem::Dutch2025 | PairingSystem::Dutch2017
    ) && a.rounds == 0
    {
        return Err(bad("a Swiss event needs --rounds"));
    }
    e.initial_colour = Some(match a.initial_colour.as_str() {
        "white" | "w" => Colour::White,
        "black" | "b" => Colour::Black,
        s => {
            return Err(bad(format!(
                "--initial-colour must be white or black, not {s:?}"
            )))
        }
    });
    e.tie_breaks = parse_tie_breaks(&a.tie_breaks)?
        .iter()
        .map(|t| t.code())
        .collect();
    if a.baku {
        // Group A is fixed when the first round is paired; 0 players for now.
        e.acceleration = Some(Acceleration::baku(0, a.rounds));
    }
    save(&a.file, &e)?;
    Ok(ExitCode::SUCCESS)
}

fn add_player(a: AddPlayerArgs) -> Result<ExitCode, Failure> {
    let mut e = read_event(&a.file)?;
    if a.name.trim().is_empty() || a.name.chars().count() > 33 {
        return Err(bad(
            "--name must have 1 to 33 characters (TRF columns 15-47)",
        ));
    }
    let title = match &a.title {
        Some(t) => Some(
            t.parse::<Title>()
                .map_err(|_| bad(format!("unknown title {t:?}")))?,
        ),
        None => None,
    };
    let sex = match a.sex.as_deref() {
        None => None,
        Some("m") => Some(Sex::Male),
        Some("w") | Some("f") => Some(Sex::Female),
        Some(s) => return Err(bad(format!("--sex must be m or w, not {s:?}"))),
    };
    let mut p = Player::new(0, a.name.trim(), a.rating);
    p.title = title;
    p.sex = sex;
    p.federation = a.federation;
    p.fide_id = a.fide_id;
    p.birth = a.birth;
    let started = e.rounds_paired();
    if started == 0 {
        // C.04.2 2.2: the initial order — rating, then title, then name.
        e.players.push(p);
        e.players.sort_by(|x, y| {
            y.rating
                .cmp(&x.rating)
                .then(
                    x.title
                        .map_or(99, |t| t as u8)
                        .cmp(&y.title.map_or(99, |t| t as u8)),
                )
                .then(x.name.cmp(&y.name))
        });
        for (i, q) in e.players.iter_mut().enumerate() {
            q.id = i as u16 + 1;
        }
    } else {
        // A late entry: the next number, zero points for the rounds missed (C.04.2 2.4).
        p.id = e.players.iter().map(|q| q.id).max().unwrap_or(0) + 1;
        p.fill_absent(started);
        e.players.push(p);
    }
    if let Some(acc) = &mut e.acceleration {
        if acc.explicit.is_empty() && started == 0 {
            *acc = Acceleration::baku(e.players.len() as u16, e.total_rounds);
        }
    }
    save(&a.file, &e)?;
    let id = e
        .players
        .iter()
        .find(|q| q.name == a.name.trim())
        .map_or(0, |q| q.id);
    outln!("{id}");
    Ok(ExitCode::SUCCESS)
}

fn result_cmd(a: ResultArgs) -> Result<ExitCode, Failure> {
    let mut e = read_event(&a.file)?;
    let round = a.round.unwrap_or(e.rounds_paired());
    if round == 0 {
        return Err(bad("no round is paired yet"));
    }
    let (w, b) = match a.result.as_str() {
        "1-0" => (RoundResult::Win, RoundResult::Loss),
        "0-1" => (RoundResult::Loss, RoundResult::Win),
        "1/2" | "½-½" | "1/2-1/2" | "=" => (RoundResult::Draw, RoundResult::Draw),
        "+-" | "+:-" => (RoundResult::ForfeitWin, RoundResult::ForfeitLoss),
        "-+" | "-:+" => (RoundResult::ForfeitLoss, RoundResult::ForfeitWin),
        "--" | "-:-" => (RoundResult::ForfeitLoss, RoundResult::ForfeitLoss),
        s => {
            return Err(bad(format!(
                "result must be 1-0, 0-1, 1/2, +-, -+ or --, not {s:?}"
            )))
        }
    };
    for (me, opp, colour, res) in [
        (a.white, a.black, Colour::White, w),
        (a.black, a.white, Colour::Black, b),
    ] {
        let p = e
            .player_mut(me)
            .ok_or_else(|| bad(format!("no player has starting rank {me}")))?;
        let entry = p
            .rounds
            .get_mut(round - 1)
            .filter(|x| x.opponent == Some(opp) && x.colour == Some(colour))
            .ok_or_else(|| {
                bad(format!(
                    "round {round} has no game {} (White) - {} (Black)",
                    a.white, a.black
                ))
            })?;
        entry.result = res;
    }
    save(&a.file, &e)?;
    Ok(ExitCode::SUCCESS)
}

fn bye_cmd(a: ByeArgs) -> Result<ExitCode, Failure> {
    let mut e = read_event(&a.file)?;
    let next = e.round_to_pair();
    let total = usize::from(e.total_rounds.max(1));
    if e.total_rounds > 0 && next > total {
        return Err(bad(format!(
            "{}: the event has {total} rounds, all paired",
            a.file.display()
        )));
    }
    let (result, upto) = match a.kind.as_str() {
        "half" => (RoundResult::HalfBye, next),
        "zero" => (RoundResult::ZeroBye, next),
        "withdraw" => (RoundResult::ZeroBye, total),
        s => {
            return Err(bad(format!(
                "--kind must be half, zero or withdraw, not {s:?}"
            )))
        }
    };
    let p = e
        .player_mut(a.player)
        .ok_or_else(|| bad(format!("no player has starting rank {}", a.player)))?;
    if p.rounds.len() >= next {
        return Err(bad(format!(
            "player {} has an entry for round {next} already",
            a.player
        )));
    }
    p.fill_absent(next - 1);
    while p.rounds.len() < upto {
        p.rounds.push(RoundEntry::bye(result));
    }
    save(&a.file, &e)?;
    Ok(ExitCode::SUCCESS)
}

fn standings_cmd(a: StandingsArgs) -> Result<ExitCode, Failure> {
    let e = read_event(&a.file)?;
    let codes = a.tie_breaks.clone().unwrap_or_else(|| {
        if e.tie_breaks.is_empty() {
            "BH/C1,BH,SB,DE,WIN".into()
        } else {
            e.tie_breaks.join(",")
        }
    });
    let tbs = parse_tie_breaks(&codes)?;
    let edition = match a.edition.as_str() {
        "2026" => Edition::Fide2026,
        "2023" | "2024" => Edition::Fide2023,
        s => return Err(bad(format!("--edition must be 2026 or 2023, not {s:?}"))),
    };
    let table = tiebreak::standings(&e, &tbs, edition);
    if a.json {
        for s in &table {
            let p = e.player(s.id).map_or("", |p| p.name.as_str());
            let values: serde_json::Map<String, serde_json::Value> = tbs
                .iter()
                .zip(&s.values)
                .map(|(t, v)| (t.code(), serde_json::json!(v)))
                .collect();
            outln!(
                "{}",
                serde_json::json!({"rank": s.rank, "id": s.id, "name": p, "points": s.points.as_f64(), "tie_breaks": values})
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut head = format!("{:>4} {:>4}  {:<33} {:>5}", "Rk", "SNo", "Name", "Pts");
    for t in &tbs {
        head.push_str(&format!(" {:>7}", t.code()));
    }
    outln!("{head}");
    for s in &table {
        let p = e.player(s.id).map_or("", |p| p.name.as_str());
        let mut line = format!(
            "{:>4} {:>4}  {:<33} {:>5}",
            s.rank,
            s.id,
            p,
            s.points.to_string()
        );
        for v in &s.values {
            line.push_str(&format!(" {:>7}", trim_number(*v)));
        }
        outln!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

fn trim_number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}").trim_end_matches('0').to_string()
    }
}

fn export(a: ExportArgs) -> Result<ExitCode, Failure> {
    let e = read_event(&a.file)?;
    let chosen = [a.trf, a.trf16, a.pgn, a.json]
        .iter()
        .filter(|x| **x)
        .count();
    if chosen != 1 {
        return Err(bad("choose one of --trf, --trf16, --pgn, --json"));
    }
    if a.trf || a.trf16 {
        out!(
            "{}",
            trf::write(
                &e,
                if a.trf16 {
                    TrfVersion::Trf16
                } else {
                    TrfVersion::Trf26
                }
            )
        );
    } else if a.json {
        outln!("{}", serde_json::to_string_pretty(&e).map_err(bad)?);
    } else {
        out!("{}", pgn(&e));
    }
    Ok(ExitCode::SUCCESS)
}

/// One PGN game per pairing, without moves (Seven Tag Roster, Appendix C).
fn pgn(e: &Event) -> String {
    let mut out = String::new();
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    for r in 1..=e.rounds_played() {
        for p in &e.players {
            let Some(entry) = p.round(r) else { continue };
            let (Some(o), Some(Colour::White)) = (entry.opponent, entry.colour) else {
                continue;
            };
            let black = e.player(o).map_or(String::new(), |q| q.name.clone());
            let result = match entry.result {
                RoundResult::Win | RoundResult::WinShort | RoundResult::ForfeitWin => "1-0",
                RoundResult::Loss | RoundResult::LossShort => "0-1",
                RoundResult::ForfeitLoss
                    if e.player(o)
                        .and_then(|q| q.round(r))
                        .is_some_and(|x| x.result == RoundResult::ForfeitWin) =>
                {
                    "0-1"
                }
                RoundResult::Draw | RoundResult::DrawShort => "1/2-1/2",
                _ => "*",
            };
            let site = if e.city.is_empty() {
                "?"
            } else {
                e.city.as_str()
            };
            let date = if e.start_date.is_empty() {
                "????.??.??".to_string()
            } else {
                e.start_date.replace('/', ".")
            };
            out.push_str(&format!(
                "[Event \"{}\"]\n[Site \"{}\"]\n[Date \"{}\"]\n[Round \"{r}\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n",
                esc(&e.name),
                esc(site),
                date,
                esc(&p.name),
                esc(&black)
            ));
            let forfeit = !entry.result.is_played() && entry.result != RoundResult::Pending;
            out.push_str(&format!(
                "\n{}{result}\n\n",
                if forfeit { "{forfeit} " } else { "" }
            ));
        }
    }
    out
}
