//! The threads' reading of regular files: no thread cuts the file into
//! games for the others. The file is mapped into memory and cut into chunks
//! at guessed game starts; each worker reads a chunk with the real reader
//! from its guessed start and judges its games, on past the chunk's end up
//! to the first game that starts at or after the next chunk's guessed start.
//! Where that game starts is where the next chunk starts truly: if it is the
//! guess (the reader there in the same state: same line, column 1), the
//! next chunk's reading stands; if not (the guess fell inside a game, in a
//! comment holding a blank line and a `[`, in a broken record), the next
//! chunk is read again from that true start, by the reader that found it.
//! The output is so the one-thread output for any input, read by the same
//! reader; games are numbered as the chunks are written in order.
//!
//! Memory stays flat: the chunks read ahead of the one being written hold
//! at most [`WINDOW_BYTES`] of text a worker (4 to 64 chunks), and the
//! pages of the chunks written are given back to the system.

use super::{audit_next, input_error_line, Map, Output, Shared, Sink};
use anyhow::Result;
use arbiter_laws::audit::TranscriptReader;
use arbiter_pgn::{GameBuilder, Location, Reader};
use std::collections::BTreeMap;
use std::io;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex};

/// Text read ahead of the chunk being written, per worker: enough that
/// the workers keep busy while one chunk holds a slow game (a dead-position
/// proof can take tens of milliseconds: 4 MiB is thousands of games),
/// little enough that memory stays small (a chunk's output is about a
/// third of its text; the pages read are given back once written).
const WINDOW_BYTES: usize = 4 << 20;
/// The chunks read ahead per worker, at least and at most.
const WINDOW_CHUNKS: (usize, usize) = (4, 64);

/// The largest and the smallest chunk (without `--chunk-bytes`): the file
/// is cut into about 64 chunks per worker, within these (the last chunk read
/// while the other workers have nothing left is then a small part of the work).
const MAX_CHUNK: usize = 1 << 20;
const MIN_CHUNK: usize = 64 << 10;

/// The chunk size for a file of `len` bytes.
fn chunk_size(len: usize, threads: usize, chunk_bytes: Option<usize>) -> usize {
    chunk_bytes
        .unwrap_or_else(|| (len / (threads * 64)).clamp(MIN_CHUNK, MAX_CHUNK))
        .max(1)
}

/// The chunks read ahead of the one being written, for chunks of `size`.
fn window(size: usize, threads: usize) -> u64 {
    let (least, most) = WINDOW_CHUNKS;
    (threads * (WINDOW_BYTES / size).clamp(least, most)) as u64
}

/// A place in a file where a line starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Bound {
    offset: usize,
    line: u64,
}

/// Where a reading starts: a game's start as a reader stands at it.
/// Two readers at the same key read the same from there on.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Key {
    offset: u64,
    line: u64,
    column: u64,
}

impl Key {
    fn of(at: Location) -> Key {
        Key {
            offset: at.offset,
            line: at.line,
            column: at.column,
        }
    }

    /// A guessed start (a line's first byte).
    fn guessed(b: Bound) -> Key {
        Key {
            offset: b.offset as u64,
            line: b.line,
            column: 1,
        }
    }
}

/// The first line at or after `from` that starts with `[` after a blank
/// line: a guess at a game's start.
fn guess(text: &[u8], from: usize) -> Option<usize> {
    let from = from.max(1);
    if from >= text.len() {
        return None;
    }
    memchr::memmem::find_iter(&text[from - 1..], b"\n[")
        .map(|i| from + i)
        .find(|&p| {
            let nl = p - 1;
            let start = memchr::memrchr(b'\n', &text[..nl]).map_or(0, |i| i + 1);
            text[start..nl]
                .iter()
                .all(|b| matches!(b, b' ' | b'\t' | b'\r'))
        })
}

/// The line breaks in `text` (`bytecount`: at memory speed).
fn line_breaks(text: &[u8]) -> u64 {
    bytecount::count(text, b'\n') as u64
}

/// A chunk of a mapped file, in the inputs' order: the games that start
/// from `start` up to the next chunk's `end` (the end of the file if
/// `None`).
struct Piece {
    file: usize,
    map: Map,
    start: Bound,
    end: Option<Bound>,
}

/// Cuts the files into pieces, one file after another, as they are asked
/// for.
struct Cutter {
    /// The files, mapped.
    maps: Vec<Map>,
    next_file: usize,
    /// The file being cut and where its next chunk starts.
    current: Option<(usize, Map, Bound)>,
    size: Option<usize>,
    threads: usize,
}

impl Cutter {
    fn next(&mut self) -> Option<Piece> {
        loop {
            if let Some((file, map, start)) = self.current.take() {
                let text: &[u8] = map.as_ref();
                let size = chunk_size(text.len(), self.threads, self.size);
                let end = guess(text, start.offset.saturating_add(size)).map(|o| Bound {
                    offset: o,
                    line: start.line + line_breaks(&text[start.offset..o]),
                });
                if let Some(end) = end {
                    self.current = Some((file, map.clone(), end));
                }
                return Some(Piece {
                    file,
                    map,
                    start,
                    end,
                });
            }
            let file = self.next_file;
            let map = self.maps.get(file)?.clone();
            self.next_file += 1;
            self.current = Some((file, map, Bound { offset: 0, line: 1 }));
        }
    }
}

/// Where a worker starts reading.
enum Start {
    /// At a guessed start.
    Guess(Bound),
    /// Where another reading stopped, with its reader.
    Resume(Box<Reader<io::Empty>>),
}

/// A chunk to read from one start.
struct Task {
    chunk: u64,
    key: Key,
    map: Map,
    start: Start,
    end: Option<Bound>,
    cancel: Arc<AtomicBool>,
}

/// What a chunk gives before its games are numbered: each game's line
/// without `{"game":N` (those with a line: `--findings-only` drops some),
/// with the game's index in the chunk and where its line ends.
#[derive(Default)]
struct Part {
    games: u64,
    out: Output,
    marks: Vec<(u64, usize)>,
    error: Option<io::Error>,
}

/// Where a reading stopped.
enum Stop {
    /// At the end of the file.
    End,
    /// At the start of the first game at or after the next chunk's guessed
    /// start; the reader, if that is not the guess.
    At(Key, Option<Box<Reader<io::Empty>>>),
}

/// A task done (`part` is `None` if it was called off, or failed: a
/// panic in the audit of one of its games).
struct Done {
    chunk: u64,
    key: Key,
    part: Option<Part>,
    stop: Stop,
    failed: bool,
}

/// The tasks waiting for a worker, the earliest chunk first; and the
/// parts written, their buffers kept for the next chunks (fresh memory for
/// each chunk's output cost a tenth of the time, the system clearing it).
#[derive(Default)]
struct Queue {
    tasks: Mutex<Waiting>,
    ready: Condvar,
    spare: Mutex<Vec<Part>>,
}

/// The tasks by chunk and order of giving; `closed` once all is written.
#[derive(Default)]
struct Waiting {
    tasks: BTreeMap<(u64, u64), Task>,
    closed: bool,
}

impl Queue {
    fn push(&self, seq: u64, task: Task) {
        if let Ok(mut q) = self.tasks.lock() {
            q.tasks.insert((task.chunk, seq), task);
            self.ready.notify_one();
        }
    }

    /// The next task; `None` once closed.
    fn pop(&self) -> Option<Task> {
        let mut q = self.tasks.lock().ok()?;
        loop {
            if q.closed {
                return None;
            }
            if let Some((_, task)) = q.tasks.pop_first() {
                return Some(task);
            }
            q = self.ready.wait(q).ok()?;
        }
    }

    /// An empty part, with the buffers of one written if there is one.
    fn part(&self) -> Part {
        self.spare
            .lock()
            .ok()
            .and_then(|mut spare| spare.pop())
            .unwrap_or_default()
    }

    /// Keeps a written part's buffers.
    fn recycle(&self, mut part: Part) {
        part.games = 0;
        part.out.lines.clear();
        part.out.pgn.clear();
        part.out.summary = Default::default();
        part.marks.clear();
        part.error = None;
        if let Ok(mut spare) = self.spare.lock() {
            spare.push(part);
        }
    }

    fn close(&self) {
        if let Ok(mut q) = self.tasks.lock() {
            q.tasks.clear();
            q.closed = true;
            self.ready.notify_all();
        }
    }
}

/// Reads and judges one chunk.
fn read_chunk(
    task: Task,
    mut part: Part,
    shared: &Shared,
    lean: &mut TranscriptReader,
    full: &mut GameBuilder,
) -> Done {
    let mut reader = match task.start {
        Start::Guess(b) => Reader::from_memory_at(task.map, b.offset, b.line),
        Start::Resume(reader) => *reader,
    };
    let stop = loop {
        if task.cancel.load(Ordering::Relaxed) {
            return Done {
                chunk: task.chunk,
                key: task.key,
                part: None,
                stop: Stop::End,
                failed: false,
            };
        }
        let at = match reader.next_game_start() {
            Ok(Some(at)) => at,
            Ok(None) => break Stop::End,
            Err(e) => {
                part.error = Some(e);
                break Stop::End;
            }
        };
        if let Some(end) = task.end {
            if at.offset >= end.offset as u64 {
                let key = Key::of(at);
                let resume = (key != Key::guessed(end)).then(|| Box::new(reader));
                break Stop::At(key, resume);
            }
        }
        let before = part.out.lines.len();
        match audit_next(&mut reader, (full, lean), None, shared, &mut part.out) {
            Ok(true) => {}
            Ok(false) => break Stop::End,
            Err(e) => {
                part.error = Some(e);
                break Stop::End;
            }
        }
        if part.out.lines.len() > before {
            part.marks.push((part.games, part.out.lines.len()));
        }
        part.games += 1;
    };
    Done {
        chunk: task.chunk,
        key: task.key,
        part: Some(part),
        stop,
        failed: false,
    }
}

/// The writer's side: which chunks are read, which read ahead, which wait.
struct Scheduler {
    cutter: Cutter,
    /// The pieces from `next` on, as far as cut.
    pieces: std::collections::VecDeque<Piece>,
    cut_all: bool,
    /// The piece to write next, and where its reading must start (`None`:
    /// at its start, the file's first or a guess confirmed).
    next: u64,
    need: Option<Key>,
    /// The tasks given out, each with its flag to call it off.
    given: BTreeMap<(u64, Key), Arc<AtomicBool>>,
    /// The pieces with their guessed-start tasks given out: up to here.
    guessed_to: u64,
    /// Tasks done, waiting to be written (or dropped).
    done: BTreeMap<(u64, Key), Done>,
    in_flight: usize,
    window: u64,
    seq: u64,
    queue: Arc<Queue>,
    /// Games written before this piece (numbering across all inputs).
    base: u64,
    /// The current file.
    file: Option<usize>,
    /// The bytes of the current file written, whose pages are released.
    released: usize,
    /// A worker failed (a panic: the message is on standard error).
    failed: bool,
}

impl Scheduler {
    /// The piece at `index` (≥ `next`), cutting as far as needed.
    fn piece(&mut self, index: u64) -> Option<&Piece> {
        let i = usize::try_from(index - self.next).ok()?;
        while self.pieces.len() <= i && !self.cut_all {
            match self.cutter.next() {
                Some(p) => self.pieces.push_back(p),
                None => self.cut_all = true,
            }
        }
        self.pieces.get(i)
    }

    fn give(&mut self, chunk: u64, key: Key, map: Map, start: Start, end: Option<Bound>) {
        if self.given.contains_key(&(chunk, key)) {
            return;
        }
        let cancel = Arc::new(AtomicBool::new(false));
        self.given.insert((chunk, key), Arc::clone(&cancel));
        self.in_flight += 1;
        self.seq += 1;
        let task = Task {
            chunk,
            key,
            map,
            start,
            end,
            cancel,
        };
        self.queue.push(self.seq, task);
    }

    /// Gives out the guessed-start tasks of the window.
    fn fill_window(&mut self) {
        self.guessed_to = self.guessed_to.max(self.next);
        while self.guessed_to < self.next + self.window {
            let index = self.guessed_to;
            let Some(Piece {
                map, start, end, ..
            }) = self.piece(index)
            else {
                return;
            };
            let (map, start, end) = (map.clone(), *start, *end);
            self.give(index, Key::guessed(start), map, Start::Guess(start), end);
            self.guessed_to += 1;
        }
    }

    /// A task done: kept to be written, its reader given the next chunk
    /// if it stopped off the guess (ahead, within the window).
    fn take(&mut self, mut d: Done) {
        self.in_flight -= 1;
        self.failed |= d.failed;
        let Some(flag) = self.given.get(&(d.chunk, d.key)) else {
            return;
        };
        if d.chunk < self.next || flag.load(Ordering::Relaxed) || d.part.is_none() {
            return;
        }
        if let Stop::At(key, resume) = &mut d.stop {
            let next = d.chunk + 1;
            if next < self.next + self.window && !self.given.contains_key(&(next, *key)) {
                if let Some(reader) = resume.take() {
                    self.resume(next, *key, reader);
                }
            }
        }
        self.done.insert((d.chunk, d.key), d);
    }

    /// Gives out chunk `chunk`'s reading from `key` with `reader`.
    fn resume(&mut self, chunk: u64, key: Key, reader: Box<Reader<io::Empty>>) {
        if let Some(Piece { map, end, .. }) = self.piece(chunk) {
            let (map, end) = (map.clone(), *end);
            self.give(chunk, key, map, Start::Resume(reader), end);
        }
    }

    /// Calls off the tasks of chunks before `next`, and those of `next`
    /// from another start than `need`.
    fn call_off(&mut self) {
        let keep = self.given.split_off(&(self.next, Key::default()));
        for flag in std::mem::replace(&mut self.given, keep).values() {
            flag.store(true, Ordering::Relaxed);
        }
        let keep = self.done.split_off(&(self.next, Key::default()));
        self.done = keep;
        if let Some(need) = self.need {
            for ((c, k), flag) in self.given.range((self.next, Key::default())..) {
                if *c > self.next {
                    break;
                }
                if *k != need {
                    flag.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    /// Writes what is ready, in order; `false` once all is written.
    fn write_ready(&mut self, files: &[String], sink: &mut Sink) -> Result<bool> {
        loop {
            let index = self.next;
            let Some(piece) = self.piece(index) else {
                return Ok(false);
            };
            let (file, bytes) = (piece.file, piece.map.0.len() as u64);
            if self.file != Some(file) {
                self.file = Some(file);
                self.released = 0;
                let threads = self.cutter.threads;
                let size = chunk_size(bytes as usize, threads, self.cutter.size);
                self.window = window(size, threads);
                self.fill_window();
                let mut out = Output::default();
                out.summary.bytes = bytes;
                sink.write(&out)?;
            }
            let need = self.need;
            let Some(Piece {
                map, start, end, ..
            }) = self.piece(index)
            else {
                return Ok(false);
            };
            let (key, map, end) = (need.unwrap_or(Key::guessed(*start)), map.clone(), *end);
            let Some(mut d) = self.done.remove(&(index, key)) else {
                // Not read yet: make sure it is being read.
                if !self.given.contains_key(&(index, key)) {
                    if key == self.piece_start(index) {
                        let start = Bound {
                            offset: key.offset as usize,
                            line: key.line,
                        };
                        self.give(index, key, map, Start::Guess(start), end);
                    } else {
                        anyhow::bail!("chunk {index}: no reader at {key:?}");
                    }
                }
                return Ok(true);
            };
            let mut part = d.part.take().unwrap_or_default();
            sink.write_numbered(&part.out, &part.marks, self.base)?;
            self.base += part.games;
            let error = part.error.take();
            self.queue.recycle(part);
            if let Some(e) = &error {
                let name = &files[file];
                eprintln!("arbiter: {name}: {e}");
                let mut out = Output::default();
                out.lines.push_str(&input_error_line(name, e, self.base));
                out.summary.input_errors += 1;
                sink.write(&out)?;
            }
            let written = match &d.stop {
                Stop::End => map.0.len(),
                Stop::At(key, _) => key.offset as usize,
            };
            map.release(self.released, written);
            self.released = written;
            match d.stop {
                Stop::End => {
                    // The file is read to its end: its later chunks hold no
                    // game of their own.
                    self.advance(None);
                    while self.piece(self.next).is_some_and(|p| p.file == file) {
                        self.advance(None);
                    }
                }
                Stop::At(key, resume) => {
                    self.advance(Some(key));
                    if !self.given.contains_key(&(self.next, key)) {
                        if let Some(reader) = resume {
                            self.resume(self.next, key, reader);
                        }
                    }
                }
            }
        }
    }

    /// The guessed-start key of chunk `index`.
    fn piece_start(&mut self, index: u64) -> Key {
        self.piece(index)
            .map_or(Key::default(), |p| Key::guessed(p.start))
    }

    /// On to the next piece, to be read from `need` (its guess if `None`).
    fn advance(&mut self, need: Option<Key>) {
        self.pieces.pop_front();
        self.next += 1;
        self.need = need.filter(|&k| k != self.piece_start(self.next));
        self.call_off();
        self.fill_window();
    }
}

/// Audits `files` (regular files, mapped: `maps`, one each) with `threads` workers reading
/// chunks of them at once; the games numbered from `base + 1`. The games
/// audited, with `base`.
pub(super) fn run(
    files: &[String],
    maps: Vec<Map>,
    base: u64,
    threads: usize,
    chunk_bytes: Option<usize>,
    shared: Arc<Shared>,
    sink: &mut Sink,
) -> Result<u64> {
    let queue = Arc::new(Queue::default());
    let (done_tx, done_rx) = channel::<Done>();
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            let queue = Arc::clone(&queue);
            let done_tx: Sender<Done> = done_tx.clone();
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || {
                let mut lean = TranscriptReader::new();
                let mut full = GameBuilder::new();
                while let Some(task) = queue.pop() {
                    let (chunk, key) = (task.chunk, task.key);
                    let part = queue.part();
                    let read = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        read_chunk(task, part, &shared, &mut lean, &mut full)
                    }));
                    let failed = read.is_err();
                    let d = read.unwrap_or(Done {
                        chunk,
                        key,
                        part: None,
                        stop: Stop::End,
                        failed: true,
                    });
                    if done_tx.send(d).is_err() || failed {
                        return;
                    }
                }
            })
        })
        .collect();
    drop(done_tx);
    let mut s = Scheduler {
        cutter: Cutter {
            maps,
            next_file: 0,
            current: None,
            size: chunk_bytes,
            threads,
        },
        pieces: Default::default(),
        cut_all: false,
        next: 0,
        need: None,
        given: BTreeMap::new(),
        guessed_to: 0,
        done: BTreeMap::new(),
        in_flight: 0,
        window: window(MAX_CHUNK, threads),
        seq: 0,
        queue: Arc::clone(&queue),
        base,
        file: None,
        released: 0,
        failed: false,
    };
    s.fill_window();
    let result = loop {
        match s.write_ready(files, sink) {
            Ok(true) => {}
            Ok(false) => break Ok(()),
            Err(e) => break Err(e),
        }
        if s.failed {
            break Err(anyhow::anyhow!("a worker failed"));
        }
        if s.in_flight == 0 {
            break Err(anyhow::anyhow!("chunk {}: nothing left to read it", s.next));
        }
        match done_rx.recv() {
            Ok(d) => s.take(d),
            Err(_) => break Err(anyhow::anyhow!("the workers stopped")),
        }
    };
    for flag in s.given.values() {
        flag.store(true, Ordering::Relaxed);
    }
    queue.close();
    drop(done_rx);
    for w in workers {
        let _ = w.join();
    }
    result.map(|()| s.base)
}

#[cfg(test)]
mod tests {
    use super::{guess, line_breaks};

    #[test]
    fn guesses_are_tags_after_a_blank_line() {
        let text = b"[A \"1\"]\n\n1. e4 *\n\n[B \"2\"]\r\n\r\n[C \"3\"]\n[D \"4\"]\n";
        // `[B` at 18 follows a blank line, `[C` at 29 a blank CRLF line,
        // `[D` at 37 a tag.
        assert_eq!(guess(text, 0), Some(18));
        assert_eq!(guess(text, 18), Some(18));
        assert_eq!(guess(text, 19), Some(29));
        assert_eq!(guess(text, 30), None);
        assert_eq!(guess(text, 1000), None);
    }

    #[test]
    fn line_breaks_are_counted() {
        let text: Vec<u8> = (0..10_000u32)
            .map(|i| if i % 7 == 0 { b'\n' } else { b'x' })
            .collect();
        for cut in [0, 1, 254, 255, 256, 9_999, 10_000] {
            let expected = text[..cut].iter().filter(|&&b| b == b'\n').count() as u64;
            assert_eq!(line_breaks(&text[..cut]), expected, "{cut}");
        }
    }
}
