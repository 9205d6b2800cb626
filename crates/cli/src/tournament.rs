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
    berger, Acceleration, Colour, Event, PairingSystem, Player, RoundEntry, RoundResult, Sex,
    Title, TrfDate,
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
    /// (number of pairs, then `WHITE BLACK` lines, `ID 0` for the bye), to
    /// standard output or to the file given after -p; with --record, write
    /// the pairing into FILE instead (and print `WHITE BLACK` lines).
    /// Exit codes: 0 paired, 1 no valid pairing exists, 3 bad input (a file
    /// that is no valid TRF, missing results, bad options), 5 a file that
    /// cannot be read or written.
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
    /// Pair the next round and write the pairing to the file PAIR (`-p`
    /// alone, or `-p -`: standard output, also the default).
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
    // `-+` is a value (allow_hyphen_values); `--` is taken by the argument
    // parser as the end of the options, so a missing result after a `--`
    // is the result `--` (see `result_text`).
    #[arg(allow_hyphen_values = true)]
    result: Option<String>,
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

impl Failure {
    /// The message with the event file named first (unless it names a file
    /// already, or is empty: a closed pipe says nothing).
    fn in_file(self, file: &Path) -> Failure {
        let name = file.display().to_string();
        if self.1.is_empty() || self.1.starts_with(&name) || self.0 == BROKEN_PIPE {
            return self;
        }
        Failure(self.0, format!("{name}: {}", self.1))
    }
}

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
        Command::Pair(a) => {
            let f = a.file.clone();
            pair(a).map_err(|e| e.in_file(&f))
        }
        Command::Check(a) => check_cmd(&a.file, &a.rules).map_err(|e| e.in_file(&a.file)),
        Command::Generate(a) => generate_cmd(a),
        Command::New(a) => {
            let f = a.file.clone();
            new_cmd(a).map_err(|e| e.in_file(&f))
        }
        Command::AddPlayer(a) => {
            let f = a.file.clone();
            add_player(a).map_err(|e| e.in_file(&f))
        }
        Command::Result(a) => {
            let f = a.file.clone();
            result_cmd(a).map_err(|e| e.in_file(&f))
        }
        Command::Bye(a) => {
            let f = a.file.clone();
            bye_cmd(a).map_err(|e| e.in_file(&f))
        }
        Command::Standings(a) => {
            let f = a.file.clone();
            standings_cmd(a).map_err(|e| e.in_file(&f))
        }
        Command::Export(a) => {
            let f = a.file.clone();
            export(a).map_err(|e| e.in_file(&f))
        }
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

/// Reads an event file: a file that cannot be read is exit 5; one that is no
/// valid TRF (not UTF-8, no TRF record, a bad field) exit 3, with the line
/// and column.
fn read_event(path: &Path) -> Result<Event, Failure> {
    let bytes = std::fs::read(path).map_err(|e| Failure(5, format!("{}: {e}", path.display())))?;
    trf::read_bytes(&bytes).map_err(|e| bad(format!("{}: {e}", path.display())))
}

/// The first record `code` of the file (`192`, `202`): its line number (from
/// 1) and text, to name a field the reader kept but a command cannot use.
fn record_line(path: &Path, code: &str) -> Option<(usize, String)> {
    let bytes = std::fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
    text.split(['\n', '\r'])
        .enumerate()
        .find(|(_, l)| {
            l.strip_prefix(code)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
        })
        .map(|(i, l)| (i + 1, l.to_string()))
}

/// The event as TRF text; an event the TRF cannot hold (a value wider than
/// its columns, a control character in a name) is bad input, exit 3.
fn trf_text(event: &Event, version: TrfVersion) -> Result<String, Failure> {
    trf::write(event, version).map_err(bad)
}

/// Writes the event atomically (a temporary file renamed over it), so that a
/// failing command leaves the file as it was.
fn save(path: &Path, event: &Event) -> Result<(), Failure> {
    let text = trf_text(event, TrfVersion::Trf26)?;
    let tmp = path.with_extension("trf.tmp");
    std::fs::write(&tmp, text).map_err(|e| Failure(5, format!("{}: {e}", tmp.display())))?;
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
    // Record 192 naming a system Arbiter does not implement (Dubov,
    // Burstein, CUSTOM_…): only `--dutch` asks for the Dutch system instead.
    if let (Some(system), false) = (event.declared_system(), a.dutch) {
        let line = record_line(&a.file, "192").map_or(0, |(l, _)| l);
        return Err(bad(format!(
            "line {line}, column 5: record 192: the pairing system {system:?} is not one Arbiter implements (FIDE_DUTCH, FIDE_DUTCH_2017, FIDE_ROUNDROBIN, FIDE_DOUBLEROUNDROBIN); `pair --dutch` pairs the event by the Dutch system"
        )));
    }
    let round = event.round_to_pair();
    // The byes announced for the round (TRF-2026 record 240) take their
    // players out of it, as entries in the round columns do.
    event.enter_announced_byes(round);
    let mut unplayed = Vec::new();
    let pairing = match event.system {
        PairingSystem::RoundRobin | PairingSystem::DoubleRoundRobin => {
            let (pairing, games_not_played) = round_robin(&event, round)?;
            unplayed = games_not_played;
            pairing
        }
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
                PairError::Invalid(e) => bad(e),
            })?
        }
    };
    if a.record {
        record(&mut event, &pairing);
        for (player, entry) in unplayed {
            if let Some(p) = event.player_mut(player) {
                set_entry(p, round, entry);
            }
        }
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

/// The Berger round `round` (C.05 Annex 1): the games to play, and the
/// entries of the games that will not be played because one player has an
/// entry for the round already. A withdrawal or absence (`Z`) becomes a
/// forfeit against the scheduled opponent (`-` / `+`, opponent and colour
/// kept, as the TRF writes forfeits; C.07 15.2 counts them as games in a
/// round-robin); against a requested bye (`H`, `F`) the opponent, who was
/// there, gets a full-point bye (`F`). Every entry reads back.
#[allow(clippy::type_complexity)]
fn round_robin(
    event: &Event,
    round: usize,
) -> Result<(dutch::RoundPairing, Vec<(u16, RoundEntry)>), Failure> {
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
    let ahead = |id: u16| {
        event
            .player(id)
            .and_then(|p| p.round(round))
            .map(|e| e.result)
    };
    let mut pairs = Vec::new();
    let mut unplayed = Vec::new();
    for (w, b) in boards
        .into_iter()
        .filter_map(|b| b.black.map(|bl| (b.white, bl)))
    {
        match (ahead(w), ahead(b)) {
            (None, None) => pairs.push((w, b)),
            (Some(_), Some(_)) => {}
            (absent_result, _) => {
                let (absent, present, absent_colour) = if absent_result.is_some() {
                    (w, b, Colour::White)
                } else {
                    (b, w, Colour::Black)
                };
                match ahead(absent) {
                    Some(RoundResult::ZeroBye) => {
                        unplayed.push((
                            absent,
                            RoundEntry::game(present, absent_colour, RoundResult::ForfeitLoss),
                        ));
                        unplayed.push((
                            present,
                            RoundEntry::game(
                                absent,
                                absent_colour.opposite(),
                                RoundResult::ForfeitWin,
                            ),
                        ));
                    }
                    _ => unplayed.push((present, RoundEntry::bye(RoundResult::FullBye))),
                }
            }
        }
    }
    Ok((
        dutch::RoundPairing {
            round,
            pairs,
            bye: None,
        },
        unplayed,
    ))
}

/// Sets the entry of round `round` (1-based), rounds before it without an
/// entry becoming zero-point rounds.
fn set_entry(p: &mut Player, round: usize, entry: RoundEntry) {
    p.fill_absent(round - 1);
    if p.rounds.len() >= round {
        p.rounds[round - 1] = entry;
    } else {
        p.rounds.push(entry);
    }
}

fn record(event: &mut Event, pairing: &dutch::RoundPairing) {
    let round = pairing.round;
    for (w, b) in &pairing.pairs {
        for (me, opp, c) in [(*w, *b, Colour::White), (*b, *w, Colour::Black)] {
            if let Some(p) = event.player_mut(me) {
                set_entry(p, round, RoundEntry::game(opp, c, RoundResult::Pending));
            }
        }
    }
    if let Some(b) = pairing.bye {
        if let Some(p) = event.player_mut(b) {
            set_entry(p, round, RoundEntry::bye(RoundResult::PairingBye));
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
    if a.rounds == 0 {
        return Err(bad("--rounds must be at least 1"));
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
        let event = generate::generate(&c).map_err(|e| bad(option_name(e)))?;
        if event.rounds_paired() < usize::from(event.total_rounds) {
            eprintln!(
                "arbiter tournament: seed {}: round {} cannot be paired; the event stops after round {} of {} (a ### record says so)",
                c.seed,
                event.rounds_paired() + 1,
                event.rounds_paired(),
                event.total_rounds
            );
        }
        texts.push((c.seed, trf_text(&event, version)?));
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

/// A generator error in the words of the command line (`--forfeit-rate`, not
/// `forfeit_rate`).
fn option_name(e: generate::GenerateError) -> String {
    match e {
        generate::GenerateError::Rate { field, value } => {
            let flag = match field {
                "half_bye_rate" => "bye-rate".to_string(),
                f => f.replace('_', "-"),
            };
            format!("--{flag} must be between 0 and 1, not {value}")
        }
        e => format!("--players: {e}"),
    }
}

fn parse_tie_breaks(s: &str) -> Result<Vec<TieBreak>, Failure> {
    s.split(',')
        .filter(|x| !x.trim().is_empty())
        .map(|x| x.parse::<TieBreak>().map_err(bad))
        .collect()
}

/// The tie-breaks of the file's record 202; a code that cannot be used is
/// named by line and column: one that is no C.07 code, or one C.07 defines
/// that Arbiter does not compute (`--tie-breaks` then chooses others).
fn record_202(file: &Path, codes: &[String]) -> Result<Vec<TieBreak>, Failure> {
    let found = record_line(file, "202");
    codes
        .iter()
        .map(|code| {
            code.parse::<TieBreak>().map_err(|e| {
                let (line, column) = found.as_ref().map_or((0, 5), |(l, text)| {
                    // The code's first column: after column 4, among the commas.
                    let data: String = text.chars().skip(4).collect();
                    let mut col = 5;
                    for field in data.split(',') {
                        let lead = field.chars().take_while(|c| c.is_whitespace()).count();
                        if field.trim() == code {
                            return (*l, col + lead);
                        }
                        col += field.chars().count() + 1;
                    }
                    (*l, 5)
                });
                let why = if tiebreak::is_c07_code(code) {
                    format!("the tie-break {code:?} is one C.07 defines that Arbiter does not compute (it computes BH, FB, SB, DE, WIN, WON, BPG, BWG, PS, ARO, TPR, KS, with /C1 /C2 /M1 /M2 where C.07 allows); choose others with --tie-breaks")
                } else {
                    e.to_string()
                };
                bad(format!("line {line}, column {column}: record 202: {why}"))
            })
        })
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
    if a.name.trim().is_empty()
        || a.name.chars().count() > 33
        || a.name.chars().any(char::is_control)
    {
        return Err(bad(
            "--name must have 1 to 33 characters (TRF columns 15-47), no line break or other control character",
        ));
    }
    if a.rating > 9999 {
        return Err(bad(format!(
            "--rating {} is wider than the TRF's 4 columns (49-52)",
            a.rating
        )));
    }
    if let Some(id) = a.fide_id.filter(|&i| i > 99_999_999_999) {
        return Err(bad(format!(
            "--fide-id {id} is wider than the TRF's 11 columns (58-68)"
        )));
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
    // A mark no starting rank has (at most 9999), to find the new player after the sort.
    const NEW: u16 = u16::MAX;
    let mut p = Player::new(NEW, a.name.trim(), a.rating);
    p.title = title;
    p.sex = sex;
    p.federation = a.federation;
    p.fide_id = a.fide_id;
    p.birth = a.birth;
    let started = e.rounds_paired();
    // C.05: a round-robin's whole schedule is the Berger table for its
    // number of players, fixed before round 1; a player added later would
    // re-cut it mid-event (games never scheduled, others twice).
    if started > 0
        && matches!(
            e.system,
            PairingSystem::RoundRobin | PairingSystem::DoubleRoundRobin
        )
    {
        return Err(bad(format!(
            "a round-robin's schedule (C.05, the Berger table for {} players) is fixed before round 1; no player can enter after round {started} is paired",
            e.players.len()
        )));
    }
    let new_id;
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
        let rank = e.players.iter().position(|q| q.id == NEW).unwrap_or(0);
        for (i, q) in e.players.iter_mut().enumerate() {
            q.id = i as u16 + 1;
        }
        new_id = rank as u16 + 1;
    } else {
        // A late entry: the next number, zero points for the rounds missed (C.04.2 2.4).
        p.id = e.players.iter().map(|q| q.id).max().unwrap_or(0) + 1;
        new_id = p.id;
        p.fill_absent(started);
        e.players.push(p);
    }
    if let Some(acc) = &mut e.acceleration {
        if acc.explicit.is_empty() && started == 0 {
            *acc = Acceleration::baku(e.players.len() as u16, e.total_rounds);
        }
    }
    save(&a.file, &e)?;
    outln!("{}", new_id);
    Ok(ExitCode::SUCCESS)
}

fn result_cmd(a: ResultArgs) -> Result<ExitCode, Failure> {
    let mut e = read_event(&a.file)?;
    let round = a.round.unwrap_or(e.rounds_paired());
    if round == 0 {
        return Err(bad("no round is paired yet"));
    }
    let (w, b) = match result_text(a.result.as_deref())? {
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

/// The result as typed: clap takes `--` for the end of the options, so when
/// no result follows and the command line holds a `--`, the result is `--`
/// (both players forfeited).
fn result_text(given: Option<&str>) -> Result<&str, Failure> {
    match given {
        Some(r) => Ok(r),
        None if std::env::args_os().skip(1).any(|x| x == "--") => Ok("--"),
        None => Err(bad(
            "a result is needed: 1-0, 0-1, 1/2, +-, -+ or -- (both forfeited)",
        )),
    }
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
    let tbs = match &a.tie_breaks {
        Some(codes) => parse_tie_breaks(codes)?,
        None if e.tie_breaks.is_empty() => parse_tie_breaks("BH/C1,BH,SB,DE,WIN")?,
        None => record_202(&a.file, &e.tie_breaks)?,
    };
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
    // −0 (a direct encounter of no games, negated) is 0.
    let v = v + 0.0;
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
        let version = if a.trf16 {
            TrfVersion::Trf16
        } else {
            TrfVersion::Trf26
        };
        out!("{}", trf_text(&e, version)?);
        if a.trf16 {
            // What TRF-16 cannot hold is said, not dropped silently.
            for lost in trf::trf16_omissions(&e) {
                eprintln!("arbiter tournament: warning: not in the TRF-16 file: {lost}");
            }
        }
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
            // The reader refused a date that does not exist; free text is unknown.
            let date = TrfDate::parse(&e.start_date)
                .ok()
                .flatten()
                .map_or("????.??.??".to_string(), |d| d.pgn());
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

#[cfg(test)]
mod tests {
    use super::trim_number;

    /// A tie-break of −0 was printed "-0" in the standings.
    #[test]
    fn numbers_are_written_short_and_without_a_negative_zero() {
        assert_eq!(trim_number(-0.0), "0");
        assert_eq!(trim_number(2.0), "2");
        assert_eq!(trim_number(2.5), "2.5");
        assert_eq!(trim_number(-1.25), "-1.25");
    }
}
