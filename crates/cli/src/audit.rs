//! `arbiter audit FILE…`: judge game records by the FIDE Laws — every result
//! the Laws would change, at database scale.
//!
//! Each game is read, replayed and judged by `arbiter_laws::audit`; this
//! file adds the inputs (files, `-`, `.pgn.zst` / `.pgn.bz2` / `.pgn.gz`
//! recognised by their first bytes), the threads, `--shard K/N`, the
//! progress bar (a terminal only), `--annotate` and the exit status.
//!
//! The threads (`--threads N`, the output always in input order, games
//! numbered across all inputs, memory flat whatever the input's size):
//!
//! - A regular file, not compressed, is mapped into memory and read by the
//!   `N` workers at once, in chunks cut at guessed game starts, with no
//!   thread cutting it into games for the others ([`chunks`]: a guess that
//!   fell inside a game is found out and its chunk read again from the true
//!   start, so the output is the one-thread output for any input).
//! - Standard input and compressed files, and every input under
//!   `--shard` (whose games are chosen by their numbers): one reader thread
//!   cuts the stream into games (`Splitter`), `N` workers read and judge
//!   them in batches, at most [`IN_FLIGHT_PER_THREAD`] × `N` batches in
//!   flight.
//! - One thread (`--threads 1`) reads a regular file mapped, as the
//!   workers do, and a stream through the reader's buffer.

use anyhow::{bail, Context, Result};
use arbiter_laws::audit::split::{RawGame, Splitter};
use arbiter_laws::audit::{
    annotated_pgn, audit, audit_transcript, Audit, AuditLine, Options, Summary, Transcript,
    TranscriptReader,
};
use arbiter_laws::Edition;
use arbiter_pgn::{GameBuilder, PassOver, Reader, WriteOptions};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Instant;

mod chunks;

/// Options of `arbiter audit`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 when the Laws give every game the recorded result, 1 when they give another for at least one (\"disagree\" in the summary), 2 on bad usage or an input that cannot be opened."
)]
pub struct Args {
    /// PGN files (`-` for standard input); zstd, bzip2 and gzip
    /// compression (`.pgn.zst`, `.pgn.bz2`, `.pgn.gz`) are read directly.
    #[arg(required = true)]
    files: Vec<String>,
    /// The edition of the Laws: 2014, 2018 or 2023.
    #[arg(long, default_value = "2014", value_parser = parse_edition)]
    edition: Edition,
    /// Worker threads (default: every core; at most 1024).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Audit only every N-th game from game K (K = 1..N): `--shard 3/8`.
    /// The outputs of the N shards merge by concatenation.
    #[arg(long, value_parser = parse_shard, value_name = "K/N")]
    shard: Option<(u64, u64)>,
    /// Write every audited game to this PGN file, with a `LawsResult` tag
    /// beside its `Result` and a comment where the Laws ended it (not one
    /// of the inputs: that is refused).
    #[arg(long, value_name = "OUT.pgn")]
    annotate: Option<PathBuf>,
    /// Print only the games that have findings (and the summary).
    #[arg(long)]
    findings_only: bool,
    /// The size of the chunks the threads read a regular file in (for
    /// tests: tiny chunks put many chunk ends inside games).
    #[arg(long, hide = true, value_name = "BYTES")]
    chunk_bytes: Option<usize>,
}

fn parse_edition(s: &str) -> Result<Edition, String> {
    s.parse::<Edition>().map_err(|e| e.to_string())
}

/// The most worker threads `--threads` may ask for: far more than any
/// machine's cores, far fewer than a process may start (20,000 aborted the
/// process when the system refused a thread).
const MAX_THREADS: usize = 1024;

fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "{s:?}: a number of threads from 1 to {MAX_THREADS}"
        )),
    }
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("{s:?}: write K/N with 1 <= K <= N, e.g. 3/8");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let k: u64 = k.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// Whether game `number` (1-based, across all inputs) is in the shard.
fn in_shard(shard: Option<(u64, u64)>, number: u64) -> bool {
    shard.is_none_or(|(k, n)| (number - 1) % n == k - 1)
}

type Input = Box<dyn Read + Send>;

/// The input, decompressed as its first bytes say (zstd, bzip2, gzip):
/// `arbiter audit`'s, and `arbiter pgn check` and `convert`'s.
pub(crate) fn open(file: &str) -> Result<Input> {
    let raw: Box<dyn Read + Send> = if file == "-" {
        Box::new(io::stdin())
    } else {
        Box::new(File::open(file).with_context(|| format!("cannot open {file}"))?)
    };
    let mut buffered = BufReader::with_capacity(1 << 16, raw);
    let head = buffered
        .fill_buf()
        .with_context(|| format!("cannot read {file}"))?;
    let text: Input = match Compression::of(head) {
        Some(Compression::Zstd) => Box::new(
            zstd::stream::read::Decoder::with_buffer(buffered)
                .with_context(|| format!("{file}: zstd"))?,
        ),
        Some(Compression::Bzip2) => Box::new(bzip2::read::MultiBzDecoder::new(buffered)),
        Some(Compression::Gzip) => Box::new(flate2::read::MultiGzDecoder::new(buffered)),
        None => Box::new(buffered),
    };
    Ok(utf16_as_utf8(text))
}

/// Text as UTF-8: a UTF-16 record, known by its byte-order mark (as some
/// Windows tools write PGN), is decoded into UTF-8 as it is read (the mark
/// dropped, a byte pair that is no character replaced by U+FFFD); any
/// other input is passed as it is, byte for byte (PGN is UTF-8 or, read
/// leniently, Latin-1: those are the reader's).
fn utf16_as_utf8(text: Input) -> Input {
    let mut head = BufReader::with_capacity(1 << 16, text);
    let utf16 = matches!(head.fill_buf(), Ok(b) if is_utf16(b));
    if !utf16 {
        return Box::new(head);
    }
    Box::new(
        encoding_rs_io::DecodeReaderBytesBuilder::new()
            .bom_sniffing(true)
            .bom_override(true)
            .utf8_passthru(true)
            .encoding(None)
            .build(head),
    )
}

/// The compressions an input is read through, known by its first bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Compression {
    Zstd,
    Bzip2,
    Gzip,
}

impl Compression {
    /// The compression whose magic bytes `head` starts with, if any.
    pub(crate) fn of(head: &[u8]) -> Option<Compression> {
        if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Some(Compression::Zstd)
        } else if head.starts_with(b"BZh") {
            Some(Compression::Bzip2)
        } else if head.starts_with(&[0x1f, 0x8b]) {
            Some(Compression::Gzip)
        } else {
            None
        }
    }
}

/// Whether `head` starts with a UTF-16 byte-order mark.
pub(crate) fn is_utf16(head: &[u8]) -> bool {
    head.starts_with(&[0xff, 0xfe]) || head.starts_with(&[0xfe, 0xff])
}

/// A regular file that is not compressed, mapped into memory; `None` for
/// standard input, compressed input, UTF-16 text, an empty file, or a file
/// the system cannot map (these are read as streams).
fn mapped(file: &str) -> Result<Option<Map>> {
    let Some(map) = crate::mapped::map_file(file)? else {
        return Ok(None);
    };
    if Compression::of(&map).is_some() || is_utf16(&map) {
        return Ok(None);
    }
    Ok(Some(Map(Arc::new(map))))
}

/// A file mapped into memory, shared by the readers of its parts.
#[derive(Clone)]
struct Map(Arc<memmap2::Mmap>);

impl AsRef<[u8]> for Map {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Map {
    /// Gives back the pages of `from..to`, read (the audit does not come
    /// back to them): the process's memory stays that of the parts being
    /// read, whatever the file's size.
    #[allow(unsafe_code)]
    fn release(&self, from: usize, to: usize) {
        let to = to.min(self.0.len());
        if to > from {
            // SAFETY: the map is shared and read-only: a page given back
            // is read again from the file if it is touched again (the
            // first and last pages may be another part's), so no byte
            // seen through the map changes.
            let _ = unsafe {
                self.0
                    .unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, from, to - from)
            };
        }
    }
}

/// What one game (or a batch) gives to the output.
#[derive(Default)]
struct Output {
    lines: String,
    pgn: String,
    summary: Summary,
    /// The places in flight its batch took ([`weight`]; 0 is 1).
    weight: usize,
}

/// A game as read: in full to write it out again (`--annotate`), else
/// only what the audit judges.
enum Record<'a> {
    Full(&'a arbiter_pgn::Game),
    Transcript(&'a Transcript),
}

/// Audits one game into `out`: its line numbered `number`, or without
/// `{"game":N` if `None` (numbered when written).
fn audit_one(number: Option<u64>, record: Record<'_>, args: &Shared, out: &mut Output) {
    let a = match record {
        Record::Full(record) => audit(record, &args.options),
        Record::Transcript(t) => audit_transcript(t, &args.options),
    };
    write_one(number, &a, args, out);
    if let (Record::Full(record), true) = (record, args.annotate) {
        out.pgn.push_str(&annotated_pgn(
            record,
            &a,
            args.options.edition,
            &WriteOptions::default(),
        ));
    }
}

/// Reads the next game of `reader` — in full when the games are written
/// back annotated, else only what the audit judges — and audits it into
/// `out`, numbered `base` + the games read (`None`: numbered when written,
/// its error placed then too). `Ok(false)` at the end of the input.
fn audit_next<R: Read>(
    reader: &mut Reader<R>,
    (full, lean): (&mut GameBuilder, &mut TranscriptReader),
    base: Option<u64>,
    shared: &Shared,
    out: &mut Output,
) -> std::io::Result<bool> {
    let number = |reader: &Reader<R>| base.map(|b| b + reader.games_read());
    if shared.annotate {
        let Some(mut record) = reader.read_game(full)? else {
            return Ok(false);
        };
        let number = number(reader);
        if let (Some(n), Some(e)) = (number, record.error.as_mut()) {
            e.game = n;
        }
        audit_one(number, Record::Full(&record), shared, out);
    } else {
        if reader.read_game(lean)?.is_none() {
            return Ok(false);
        }
        let number = number(reader);
        if let Some(n) = number {
            lean.transcript_mut().place(n, 1, 1, 0);
        }
        audit_one(number, Record::Transcript(lean.transcript()), shared, out);
    }
    Ok(true)
}

/// The audit's line (unless only findings are asked for) and its count.
fn write_one(number: Option<u64>, a: &Audit, args: &Shared, out: &mut Output) {
    out.summary.add(a);
    if !args.findings_only || !a.findings.is_empty() {
        match number {
            Some(n) => AuditLine::new(n, a).write_json(&mut out.lines),
            None => AuditLine::new(0, a).write_json_after_number(&mut out.lines),
        }
        out.lines.push('\n');
    }
}

/// What every thread needs to know.
struct Shared {
    options: Options,
    findings_only: bool,
    annotate: bool,
}

/// A file that could not be read to its end: reported in the output after
/// game `after_game` (numbered as the games are, across all inputs: the last
/// game read whole before the break), and the audit goes on with the next
/// file.
fn input_error_line(file: &str, error: &io::Error, after_game: u64) -> String {
    let line = serde_json::json!({
        "input_error": {"file": file, "message": error.to_string(), "after_game": after_game}
    });
    format!("{line}\n")
}

/// Where the output goes, with the progress bar.
struct Sink {
    out: BufWriter<crate::out::Stdout>,
    pgn: Option<BufWriter<File>>,
    summary: Summary,
    bar: Option<ProgressBar>,
}

impl Sink {
    fn new(annotate: Option<&PathBuf>) -> Result<Sink> {
        let pgn = match annotate {
            Some(p) => Some(BufWriter::new(
                File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
            )),
            None => None,
        };
        let bar = io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} {human_pos} games, {per_sec}, {elapsed}: {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        });
        Ok(Sink {
            out: BufWriter::new(crate::out::stdout()),
            pgn,
            summary: Summary::default(),
            bar,
        })
    }

    fn write(&mut self, o: &Output) -> Result<()> {
        self.out.write_all(o.lines.as_bytes())?;
        self.rest(o)
    }

    /// Writes `o`, whose lines lack their `{"game":N`: the line ending at
    /// `end` in `o.lines` is game `base + 1 + index`'s, for each
    /// `(index, end)` of `marks`.
    fn write_numbered(&mut self, o: &Output, marks: &[(u64, usize)], base: u64) -> Result<()> {
        let mut from = 0;
        let mut number = itoa::Buffer::new();
        for &(index, end) in marks {
            self.out.write_all(b"{\"game\":")?;
            self.out
                .write_all(number.format(base + index + 1).as_bytes())?;
            self.out.write_all(&o.lines.as_bytes()[from..end])?;
            from = end;
        }
        self.rest(o)
    }

    /// The annotated games, the counts and the progress bar of `o`.
    fn rest(&mut self, o: &Output) -> Result<()> {
        if let Some(p) = self.pgn.as_mut() {
            p.write_all(o.pgn.as_bytes())?;
        }
        self.summary.merge(&o.summary);
        if let Some(bar) = &self.bar {
            bar.set_position(self.summary.games);
            let found: u64 = self.summary.findings.iter().sum();
            bar.set_message(format!(
                "{} disagree, {found} findings",
                self.summary.disagree
            ));
        }
        Ok(())
    }

    fn finish(mut self, started: Instant) -> Result<ExitCode> {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        self.summary.seconds = started.elapsed().as_secs_f64();
        writeln!(self.out, "{}", self.summary.to_json())?;
        self.out.flush()?;
        if let Some(mut p) = self.pgn.take() {
            p.flush()?;
        }
        Ok(
            if self.summary.disagree == 0 && self.summary.input_errors == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            },
        )
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let started = Instant::now();
    // Bad usage before any work: every file must open.
    if args.files.iter().filter(|f| *f == "-").count() > 1 {
        bail!("standard input (-) can be given once");
    }
    // Every input checked before any is read; a pipe or a device only
    // looked at (opened and closed here, a pipe would lose its writer).
    for f in args.files.iter().filter(|f| *f != "-") {
        let meta = std::fs::metadata(f).with_context(|| format!("cannot open {f}"))?;
        if meta.is_file() {
            File::open(f).with_context(|| format!("cannot open {f}"))?;
        }
    }
    if let Some(out) = &args.annotate {
        annotate_is_no_input(out, &args.files)?;
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let shared = Shared {
        options: Options {
            edition: args.edition,
        },
        findings_only: args.findings_only,
        annotate: args.annotate.is_some(),
    };
    let mut sink = Sink::new(args.annotate.as_ref())?;
    if threads == 1 {
        sequential(&args.files, args.shard, &shared, &mut sink)?;
    } else if args.shard.is_some() {
        // A shard's games are known by their numbers: one reader numbers
        // them all.
        parallel(
            &args.files,
            0,
            args.shard,
            threads,
            Arc::new(shared),
            &mut sink,
        )?;
    } else {
        // Regular files are read in chunks by every worker at once; the
        // others (standard input, compressed files, a file that cannot be
        // opened: the stream reports it) through one reader. Each input is
        // mapped once, here.
        let shared = Arc::new(shared);
        let maps: Vec<Option<Map>> = args
            .files
            .iter()
            .map(|f| mapped(f).ok().flatten())
            .collect();
        let (mut base, mut at) = (0, 0);
        while at < maps.len() {
            let chunked = maps[at].is_some();
            let n = maps[at..]
                .iter()
                .take_while(|m| m.is_some() == chunked)
                .count();
            let these = &args.files[at..at + n];
            let shared = Arc::clone(&shared);
            base = if chunked {
                let these_maps = maps[at..at + n].iter().flatten().cloned().collect();
                chunks::run(
                    these,
                    these_maps,
                    base,
                    threads,
                    args.chunk_bytes,
                    shared,
                    &mut sink,
                )?
            } else {
                parallel(these, base, None, threads, shared, &mut sink)?
            };
            at += n;
        }
    }
    sink.finish(started)
}

/// Refuses `--annotate OUT` when `OUT` is one of the inputs, under any of
/// its names (`./g.pgn`, a symbolic or hard link; standard input redirected
/// from it): creating `OUT` would empty the input before a game of it was
/// read. The same file is the same device and inode (on Unix; elsewhere the
/// same canonical path).
fn annotate_is_no_input(out: &Path, files: &[String]) -> Result<()> {
    // A file that does not exist yet is none of the inputs (they exist).
    // (Nor is anything but a regular file emptied: `/dev/null`.)
    let Ok(target) = std::fs::metadata(out) else {
        return Ok(());
    };
    if !target.is_file() {
        return Ok(());
    }
    for f in files {
        let input = if f == "-" {
            stdin_metadata()
        } else {
            std::fs::metadata(f).ok()
        };
        if input.is_some_and(|input| same_file(&target, &input, out, f)) {
            let name = if f == "-" { "standard input" } else { f };
            bail!(
                "--annotate {} is the input {name}: it would be emptied before it is read; write the annotated games to another file",
                out.display()
            );
        }
    }
    Ok(())
}

/// What standard input is (a file redirected to it, a pipe, a terminal).
fn stdin_metadata() -> Option<std::fs::Metadata> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
        File::from(fd).metadata().ok()
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Whether `a` (at path `a_path`) and `b` (at `b_path`) are one file.
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata, a_path: &Path, b_path: &str) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = (a_path, b_path);
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        match (std::fs::canonicalize(a_path), std::fs::canonicalize(b_path)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

/// One thread: read, judge and write each game in turn (a regular file
/// read where it lies, mapped, as the threads read it).
fn sequential(
    files: &[String],
    shard: Option<(u64, u64)>,
    shared: &Shared,
    sink: &mut Sink,
) -> Result<()> {
    // The audit alone needs only the main line and its clock times; the
    // annotated copy needs the whole record.
    let mut builders = (GameBuilder::new(), TranscriptReader::new());
    let mut base = 0u64;
    for file in files {
        let mut one = One {
            file,
            base,
            shard,
            shared,
            builders: &mut builders,
        };
        base += match mapped(file)? {
            Some(map) => one.read(Reader::from_memory(map.clone()), Some(&map), sink)?,
            None => one.read(Reader::new(open(file)?), None, sink)?,
        };
    }
    Ok(())
}

/// The one-thread audit of one input.
struct One<'a> {
    file: &'a str,
    /// Games in the inputs before.
    base: u64,
    shard: Option<(u64, u64)>,
    shared: &'a Shared,
    builders: &'a mut (GameBuilder, TranscriptReader),
}

impl One<'_> {
    /// Reads, judges and writes each game of `reader` (reading `map`, if
    /// mapped: its pages given back as they are read); the games read.
    fn read<R: Read>(
        &mut self,
        mut reader: Reader<R>,
        map: Option<&Map>,
        sink: &mut Sink,
    ) -> Result<u64> {
        let mut released = 0;
        let (shared, base, shard, file) = (self.shared, self.base, self.shard, self.file);
        let (full, lean) = &mut *self.builders;
        let mut out = Output::default();
        // The games of this input read whole (a game broken off by an
        // input error is not one: the threads do not number it either).
        let mut games = 0;
        loop {
            // Another shard's game is only passed over (read as the
            // splitter reads, building nothing).
            let read = if in_shard(shard, base + reader.games_read() + 1) {
                audit_next(&mut reader, (full, lean), Some(base), shared, &mut out)
            } else {
                reader.read_game(&mut PassOver).map(|g| g.is_some())
            };
            match read {
                Ok(true) => {
                    games = reader.games_read();
                    if out.lines.len() + out.pgn.len() > 1 << 16 {
                        sink.write(&out)?;
                        out = Output::default();
                        if let Some(map) = map {
                            let read = reader.bytes_read() as usize;
                            if read - released > 4 << 20 {
                                map.release(released, read);
                                released = read;
                            }
                        }
                    }
                }
                Ok(false) => break,
                Err(e) => {
                    eprintln!("arbiter: {file}: {e}");
                    out.lines
                        .push_str(&input_error_line(file, &e, base + games));
                    out.summary.input_errors += 1;
                    break;
                }
            }
        }
        out.summary.bytes += reader.bytes_read();
        sink.write(&out)?;
        Ok(games)
    }
}

/// Work for the workers, numbered in input order.
enum Work {
    /// Games to audit, with their numbers across all inputs, and the places
    /// in flight the batch takes ([`weight`], counted once, by the reader).
    Games { games: Vec<RawGame>, weight: usize },
    /// Passed through as it is (an input error, a file's byte count).
    Done(Output),
}

/// Games per batch, and the most text a batch holds.
const BATCH_GAMES: usize = 64;
const BATCH_BYTES: usize = 1 << 19;

/// The places in flight a batch of `bytes` of text takes, of `in_flight`:
/// one for each [`BATCH_BYTES`] (a batch of one long game, up to
/// [`arbiter_laws::audit::split::MAX_GAME_TEXT`], takes as many as it
/// holds), all of them at most.
fn weight(bytes: usize, in_flight: usize) -> usize {
    bytes.div_ceil(BATCH_BYTES).clamp(1, in_flight)
}

/// Batches in flight per worker: enough that the others keep working while
/// one batch waits on a slow game (a dead-position proof can take the
/// solver tens of milliseconds; 32 batches of 64 games are ~100 ms of
/// ordinary games), few enough that memory stays small (each batch holds
/// at most [`BATCH_BYTES`] of text: 16 MiB a worker at most).
const IN_FLIGHT_PER_THREAD: usize = 32;

/// One reader thread cuts the inputs into games; `threads` workers read and
/// judge them; this thread writes their output in input order. At most
/// [`IN_FLIGHT_PER_THREAD`] × `threads` batches are in flight (read, judged
/// or waiting for an earlier one to be written), so memory does not grow
/// with the input; a batch holding more than [`BATCH_BYTES`] (one long
/// game) counts as the batches it could hold ([`weight`]).
///
/// The games are numbered from `base + 1`; the games read, with `base`.
fn parallel(
    files: &[String],
    base: u64,
    shard: Option<(u64, u64)>,
    threads: usize,
    shared: Arc<Shared>,
    sink: &mut Sink,
) -> Result<u64> {
    let in_flight = IN_FLIGHT_PER_THREAD * threads;
    let (work_tx, work_rx) = sync_channel::<(u64, Work)>(in_flight);
    let (done_tx, done_rx) = sync_channel::<(u64, Output)>(in_flight);
    let (token_tx, token_rx) = sync_channel::<()>(in_flight);
    let files = files.to_vec();
    let reader = std::thread::spawn(move || {
        read_inputs(&files, base, shard, in_flight, &work_tx, &token_tx)
    });
    let work_rx = Arc::new(Mutex::new(work_rx));
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            let work_rx = Arc::clone(&work_rx);
            let done_tx = done_tx.clone();
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || work(&work_rx, &done_tx, &shared))
        })
        .collect();
    drop(done_tx);
    let mut pending = BTreeMap::new();
    let mut next = 0u64;
    let mut result = Ok(());
    for (seq, out) in done_rx.iter() {
        pending.insert(seq, out);
        while let Some(out) = pending.remove(&next) {
            if result.is_ok() {
                result = sink.write(&out);
            }
            next += 1;
            for _ in 0..out.weight.max(1) {
                let _ = token_rx.recv();
            }
        }
    }
    drop(token_rx);
    for w in workers {
        let _ = w.join();
    }
    let games = reader
        .join()
        .map_err(|_| anyhow::anyhow!("the reader thread failed"))??;
    result.map(|()| games)
}

/// The reader thread: cuts every input into games, in batches; the games
/// read, with `base` (the games before).
fn read_inputs(
    files: &[String],
    mut base: u64,
    shard: Option<(u64, u64)>,
    in_flight: usize,
    work: &SyncSender<(u64, Work)>,
    tokens: &SyncSender<()>,
) -> Result<u64> {
    let mut seq = 0u64;
    let mut send = |w: Work| -> Result<()> {
        let places = match &w {
            Work::Games { weight, .. } => *weight,
            Work::Done(_) => 1,
        };
        for _ in 0..places {
            tokens.send(()).context("the output stopped")?;
        }
        work.send((seq, w)).context("the workers stopped")?;
        seq += 1;
        Ok(())
    };
    for file in files {
        let mut splitter = Splitter::new(open(file)?);
        let mut batch = Vec::new();
        let mut batch_bytes = 0;
        // The games of this input read whole.
        let mut games = 0u64;
        let mut tail = Output::default();
        for raw in splitter.by_ref() {
            match raw {
                Ok(mut raw) => {
                    games = raw.number;
                    raw.number += base;
                    if !in_shard(shard, raw.number) {
                        continue;
                    }
                    batch_bytes += raw.text.len();
                    batch.push(raw);
                    if batch.len() >= BATCH_GAMES || batch_bytes >= BATCH_BYTES {
                        send(Work::Games {
                            games: std::mem::take(&mut batch),
                            weight: weight(batch_bytes, in_flight),
                        })?;
                        batch_bytes = 0;
                    }
                }
                Err(e) => {
                    eprintln!("arbiter: {file}: {e}");
                    tail.lines
                        .push_str(&input_error_line(file, &e, base + games));
                    tail.summary.input_errors += 1;
                    break;
                }
            }
        }
        if !batch.is_empty() {
            send(Work::Games {
                games: batch,
                weight: weight(batch_bytes, in_flight),
            })?;
        }
        tail.summary.bytes = splitter.bytes_read();
        base += games;
        send(Work::Done(tail))?;
    }
    Ok(base)
}

/// A worker: reads and judges batches until the work runs out.
fn work(work: &Mutex<Receiver<(u64, Work)>>, done: &SyncSender<(u64, Output)>, shared: &Shared) {
    let mut lean = TranscriptReader::new();
    loop {
        let next = match work.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok((seq, w)) = next else {
            return;
        };
        let out = match w {
            Work::Done(out) => out,
            Work::Games { games, weight } => {
                let mut out = Output {
                    weight,
                    ..Output::default()
                };
                let mut full = GameBuilder::new();
                for raw in &games {
                    // A game's text is in memory: reading it cannot fail.
                    if shared.annotate {
                        let record = raw.read_with(&mut full).unwrap_or_default();
                        audit_one(Some(raw.number), Record::Full(&record), shared, &mut out);
                    } else if matches!(raw.read_transcript(&mut lean), Ok(true)) {
                        audit_one(
                            Some(raw.number),
                            Record::Transcript(lean.transcript()),
                            shared,
                            &mut out,
                        );
                    } else {
                        let empty = Transcript::default();
                        audit_one(
                            Some(raw.number),
                            Record::Transcript(&empty),
                            shared,
                            &mut out,
                        );
                    }
                }
                out
            }
        };
        if done.send((seq, out)).is_err() {
            return;
        }
    }
}
