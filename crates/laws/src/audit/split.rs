//! A PGN stream cut into the texts of its games, so that many threads can
//! read and audit them while the output keeps the input's order.
//!
//! The cuts are where [`arbiter_pgn::Reader`] itself ends each game (the
//! reader runs over the stream without building anything), so a game read
//! from its text alone is the game read from the stream; each text carries
//! its number and the line it starts on, to report places in the file.

use arbiter_pgn::reader::MAX_CHUNK;
use arbiter_pgn::{GameError, GameErrorKind, Location, PassOver, Reader, Visitor};
use std::cell::RefCell;
use std::io::{self, Read};
use std::rc::Rc;

/// The most of one game's text a [`Splitter`] holds (32 MiB: twice the
/// longest comment or tag the reader takes, [`MAX_CHUNK`]). A longer game's
/// text is cut there ([`RawGame::length`] says how long it is) and the rest
/// passed over unkept: the game is read from its first 32 MiB as it is from
/// the whole when it breaks within its first 15 MiB (a comment of 1 GB is
/// `comment longer than 16 MiB`, where the reader of the whole input says
/// so), else it is [`GAME_TOO_LONG`].
pub const MAX_GAME_TEXT: usize = 2 * MAX_CHUNK;

/// The error of a game longer than a splitter holds ([`MAX_GAME_TEXT`])
/// that its first part does not show broken.
pub const GAME_TOO_LONG: &str =
    "a game longer than 32 MiB (the most of one game held when threads share a stream)";

/// The bytes a reader may look ahead of where it stands: its buffer
/// (at most [`MAX_CHUNK`]), with room.
const READ_AHEAD: usize = MAX_CHUNK + (1 << 20);

/// The line breaks of a run of bytes, and the characters after its last
/// one (or all of them, without one).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Span {
    lines: u64,
    tail: u64,
}

impl Span {
    fn of(bytes: &[u8]) -> Span {
        // Characters: the bytes that do not continue one.
        let chars = |s: &[u8]| s.iter().filter(|&&b| b & 0xc0 != 0x80).count() as u64;
        match memchr::memrchr(b'\n', bytes) {
            Some(last) => Span {
                lines: memchr::memchr_iter(b'\n', bytes).count() as u64,
                tail: chars(&bytes[last + 1..]),
            },
            None => Span {
                lines: 0,
                tail: chars(bytes),
            },
        }
    }

    /// This run, then `next`.
    fn then(self, next: Span) -> Span {
        Span {
            lines: self.lines + next.lines,
            tail: if next.lines > 0 {
                next.tail
            } else {
                self.tail + next.tail
            },
        }
    }
}

/// One game's text, as it stands in the input.
///
/// ```
/// use arbiter_laws::audit::split::Splitter;
/// let pgn = "[White \"A\"]\n\n1. e4 1-0\n\n[White \"B\"]\n\n1. d4 0-1\n";
/// let games: Vec<_> = Splitter::new(pgn.as_bytes()).collect::<Result<_, _>>()?;
/// assert_eq!(games.len(), 2);
/// // Each text runs up to where the reader ends its game: the second starts on line 5.
/// assert_eq!((games[1].number, games[1].first_line), (2, 5));
/// let second = games[1].read()?;
/// assert_eq!(second.tags.get("White"), Some("B"));
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawGame {
    /// 1-based number of the game in the input.
    pub number: u64,
    /// The 1-based line of the input its text starts on.
    pub first_line: u64,
    /// The 1-based column (in characters) of that line its text starts at:
    /// 1, but where games share a line.
    pub first_column: u64,
    /// The byte offset of its text in the input.
    pub offset: u64,
    /// The length of its text in the input: more than `text.len()` for a
    /// game longer than [`MAX_GAME_TEXT`], whose text is cut there.
    pub length: u64,
    /// The text (its first [`MAX_GAME_TEXT`] bytes at most).
    pub text: Vec<u8>,
}

impl RawGame {
    /// The game, read from its text, with its number and the places of an
    /// error as in the whole input.
    pub fn read(&self) -> io::Result<arbiter_pgn::Game> {
        self.read_with(&mut arbiter_pgn::GameBuilder::new())
    }

    /// As [`RawGame::read`], with `builder`.
    pub fn read_with<V>(&self, builder: &mut V) -> io::Result<arbiter_pgn::Game>
    where
        V: Visitor<Output = arbiter_pgn::Game>,
    {
        // A buffer the size of the text: the whole game in one fill.
        let mut game = Reader::with_capacity(&self.text[..], self.text.len() + 1)
            .read_game(builder)?
            .unwrap_or_default();
        if !self.read_as_whole(game.error.as_ref()) {
            game = arbiter_pgn::Game {
                tags: std::mem::take(&mut game.tags),
                error: Some(self.too_long()),
                ..Default::default()
            };
        }
        if let Some(e) = game.error.as_mut() {
            e.game = self.number;
            super::transcript::move_location(
                &mut e.location,
                self.first_line,
                self.first_column,
                self.offset,
            );
        }
        Ok(game)
    }

    /// Reads the game's [`Transcript`](super::Transcript) into `reader`
    /// (the audit alone needs no more), numbered and with the places of an
    /// error as in the whole input; `false` if the text holds no game.
    ///
    /// ```
    /// use arbiter_laws::audit::{split::Splitter, TranscriptReader};
    /// let pgn = "1. e4 1-0\n\n1. d4 d5 2. Ke3 0-1\n";
    /// let second = Splitter::new(pgn.as_bytes()).nth(1).expect("two games")?;
    /// let mut reader = TranscriptReader::new();
    /// assert!(second.read_transcript(&mut reader)?);
    /// let t = reader.transcript();
    /// assert_eq!(t.plies(), 2);
    /// assert_eq!(t.error().map(|e| (e.game, e.location.line)), Some((2, 3)));
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn read_transcript(&self, reader: &mut super::TranscriptReader) -> io::Result<bool> {
        // A buffer the size of the text: the whole game in one fill.
        let read = Reader::with_capacity(&self.text[..], self.text.len() + 1)
            .read_game(reader)?
            .is_some();
        if !self.read_as_whole(reader.transcript().error()) {
            let too_long = self.too_long();
            reader.transcript_mut().refuse(too_long);
        }
        reader
            .transcript_mut()
            .place(self.number, self.first_line, self.first_column, self.offset);
        Ok(read)
    }
}

impl RawGame {
    /// Whether the game read from `text`, whose first error is `error`, is
    /// the game read from the whole input: always for a text not cut; for a
    /// cut one, when the reading broke off in the main line (nothing after
    /// the error is read) far enough from the cut that the reader, which
    /// looks at most [`MAX_CHUNK`] bytes ahead, never saw it.
    fn read_as_whole(&self, error: Option<&GameError>) -> bool {
        if self.text.len() as u64 >= self.length {
            return true;
        }
        error.is_some_and(|e| {
            !e.in_variation && e.location.offset + (READ_AHEAD as u64) <= self.text.len() as u64
        })
    }

    /// The error of a game too long to be held ([`GAME_TOO_LONG`]), at its
    /// start (in its own text: placed as the others).
    fn too_long(&self) -> GameError {
        GameError {
            game: self.number,
            location: Location {
                line: 1,
                column: 1,
                offset: 0,
            },
            ply: None,
            move_number: None,
            text: None,
            in_variation: false,
            kind: GameErrorKind::Syntax(GAME_TOO_LONG),
        }
    }
}

/// The bytes read from the input; those from `start` on are not yet handed
/// out as a game. The ones before it are dropped only once they are at
/// least half the buffer, so that each byte is moved O(1) times, not once
/// per later game of the buffer (a `drain` from the front per game cost as
/// much as reading the games).
///
/// A game longer than `limit` keeps its first `limit` bytes and the last
/// [`READ_AHEAD`] or more read (where the next game starts: the reader's
/// buffer holds every byte read and not yet passed over); the bytes between
/// are dropped as they come, only their line breaks and characters counted.
struct Capture {
    bytes: Vec<u8>,
    start: usize,
    /// The most of a game's text kept ([`MAX_GAME_TEXT`]).
    limit: usize,
    /// Bytes of the current game dropped, and what they held.
    dropped: u64,
    dropped_span: Span,
}

/// Copies what the reader reads.
struct Tee<R> {
    inner: R,
    capture: Rc<RefCell<Capture>>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut capture = self.capture.borrow_mut();
        if capture.start > 0 && capture.start * 2 >= capture.bytes.len() {
            let start = capture.start;
            capture.bytes.drain(..start);
            capture.start = 0;
        }
        capture.bytes.extend_from_slice(&buf[..n]);
        // A game longer than the limit: the bytes past its kept part, but
        // for the last READ_AHEAD, dropped (once 2 × READ_AHEAD have come,
        // so that each byte is moved O(1) times).
        let held = capture.bytes.len() - capture.start;
        if held > capture.limit + 2 * READ_AHEAD {
            let from = capture.start + capture.limit;
            let to = capture.bytes.len() - READ_AHEAD;
            capture.dropped_span = capture
                .dropped_span
                .then(Span::of(&capture.bytes[from..to]));
            capture.dropped += (to - from) as u64;
            capture.bytes.drain(from..to);
        }
        Ok(n)
    }
}

/// Cuts a PGN stream into [`RawGame`]s; memory stays that of one game (at
/// most [`MAX_GAME_TEXT`] of it, and what the reader reads ahead) and the
/// reader's buffer, whatever the input's size.
///
/// ```
/// use arbiter_laws::audit::split::Splitter;
/// let pgn = "1. e4 1-0\n\n1. d4 0-1\n\n1. c4 *\n";
/// let mut games = Splitter::new(pgn.as_bytes());
/// let first = games.next().expect("a game")?;
/// assert!(first.text.starts_with(b"1. e4 1-0"));
/// assert_eq!(first.read()?.mainline().count(), 1);
/// assert_eq!(games.count(), 2);
/// # Ok::<_, std::io::Error>(())
/// ```
pub struct Splitter<R> {
    reader: Reader<Tee<R>>,
    capture: Rc<RefCell<Capture>>,
    /// Offset of `capture.bytes[0]` in the input.
    base: u64,
    /// The line `capture.bytes[start]` stands on.
    line: u64,
    /// Its column (in characters).
    column: u64,
}

impl<R: Read> Splitter<R> {
    /// A splitter over `input`.
    pub fn new(input: R) -> Splitter<R> {
        Splitter::with_limit(input, MAX_GAME_TEXT)
    }

    /// A splitter over `input` that holds at most `limit` bytes of a game's
    /// text (at least [`MAX_CHUNK`] + 1 MiB; [`Splitter::new`]:
    /// [`MAX_GAME_TEXT`]). A game is read from a text cut shorter as from
    /// the whole only when it breaks early enough (see [`MAX_GAME_TEXT`]).
    ///
    /// ```
    /// use arbiter_laws::audit::split::{Splitter, GAME_TOO_LONG};
    /// // A game of 20 MiB of comments of 1 KiB, then a short one.
    /// let comment = format!("{{{}}} ", "c".repeat(1 << 10));
    /// let pgn = format!("1. e4 {}e5 1-0\n\n1. d4 0-1\n", comment.repeat(20 << 10));
    /// let limit = 17 << 20;
    /// let games: Vec<_> = Splitter::with_limit(pgn.as_bytes(), limit).collect::<Result<_, _>>()?;
    /// assert_eq!((games[0].text.len(), games[0].length), (limit, pgn.find("\n\n").unwrap() as u64 + 2));
    /// let first = games[0].read()?;
    /// assert_eq!(first.error.map(|e| e.kind.to_string()), Some(GAME_TOO_LONG.to_owned()));
    /// // The next game is where it stands in the input.
    /// assert_eq!((games[1].first_line, games[1].read()?.mainline().count()), (3, 1));
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn with_limit(input: R, limit: usize) -> Splitter<R> {
        let capture = Rc::new(RefCell::new(Capture {
            bytes: Vec::new(),
            start: 0,
            limit: limit.max(READ_AHEAD),
            dropped: 0,
            dropped_span: Span::default(),
        }));
        let tee = Tee {
            inner: input,
            capture: Rc::clone(&capture),
        };
        Splitter {
            reader: Reader::new(tee),
            capture,
            base: 0,
            line: 1,
            column: 1,
        }
    }

    /// Bytes of the input read so far.
    pub fn bytes_read(&self) -> u64 {
        self.reader.bytes_read()
    }
}

impl<R: Read> Iterator for Splitter<R> {
    type Item = io::Result<RawGame>;

    fn next(&mut self) -> Option<io::Result<RawGame>> {
        match self.reader.read_game(&mut PassOver) {
            Err(e) => Some(Err(e)),
            Ok(None) => None,
            Ok(Some(())) => {
                let length = self.reader.bytes_read() - self.base;
                let mut capture = self.capture.borrow_mut();
                let start = capture.start;
                // The game's bytes still held: all but those dropped.
                let held = usize::try_from(length - capture.dropped)
                    .unwrap_or(usize::MAX)
                    .min(capture.bytes.len() - start);
                let bytes = &capture.bytes[start..start + held];
                let kept = held.min(capture.limit);
                let span = Span::of(&bytes[..kept])
                    .then(capture.dropped_span)
                    .then(Span::of(&bytes[kept..]));
                let text = bytes[..kept].to_vec();
                capture.start += held;
                capture.dropped = 0;
                capture.dropped_span = Span::default();
                let game = RawGame {
                    number: self.reader.games_read(),
                    first_line: self.line,
                    first_column: self.column,
                    offset: self.base,
                    length,
                    text,
                };
                self.base += length;
                self.line += span.lines;
                self.column = if span.lines > 0 {
                    1 + span.tail
                } else {
                    self.column + span.tail
                };
                Some(Ok(game))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Splitter, MAX_GAME_TEXT, READ_AHEAD};
    use std::io::Read;

    #[test]
    fn games_sharing_a_line_report_the_input_s_columns() {
        // As chess.js's test file writes them, HTML breaks for newlines:
        // each game's error at its column on line 1 of the whole input.
        let pgn = "[Event \"Ä\"]<br />1. e4 *[Event \"Ω\"] 1. Ke3 *[Event \"x\"] 1. d4 d5 2. Kd3 *";
        let mut placed = Vec::new();
        for game in Splitter::new(pgn.as_bytes()) {
            let game = game.unwrap();
            if let Some(e) = game.read().unwrap().error {
                placed.push((e.location.line, e.location.column, e.location.offset));
            }
        }
        let whole: Vec<_> = arbiter_pgn::Reader::new(pgn.as_bytes())
            .games()
            .filter_map(|g| g.unwrap().error)
            .map(|e| (e.location.line, e.location.column, e.location.offset))
            .collect();
        assert_eq!(placed.len(), 3);
        assert_eq!(placed, whole);
    }

    /// A reader handing out at most `n` bytes per call.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// `prefix`, then `lines` lines of 1,000 `c`, then `suffix`, made as
    /// they are read (never held whole).
    struct Bomb {
        parts: [Vec<u8>; 2],
        line: Vec<u8>,
        lines: usize,
        at: usize,
        stage: usize,
    }

    impl Bomb {
        fn new(prefix: &str, lines: usize, suffix: &str) -> Bomb {
            let mut line = vec![b'c'; 1000];
            line.push(b'\n');
            Bomb {
                parts: [prefix.into(), suffix.into()],
                line,
                lines,
                at: 0,
                stage: 0,
            }
        }
    }

    impl Read for Bomb {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            loop {
                let source: &[u8] = match self.stage {
                    0 => &self.parts[0],
                    1 if self.lines > 0 => &self.line,
                    1 => {
                        self.stage = 2;
                        continue;
                    }
                    2 => &self.parts[1],
                    _ => return Ok(0),
                };
                if self.at == source.len() {
                    self.at = 0;
                    match self.stage {
                        1 => self.lines -= 1,
                        _ => self.stage += 1,
                    }
                    continue;
                }
                let n = (source.len() - self.at).min(buf.len());
                buf[..n].copy_from_slice(&source[self.at..self.at + n]);
                self.at += n;
                return Ok(n);
            }
        }
    }

    /// A game with a comment of 100 MB (a hostile or broken `.pgn.zst` of a
    /// few KB) is not held whole: its text is cut at MAX_GAME_TEXT, the
    /// bytes past it dropped as they come, and the game read from its text
    /// as from the whole input (`comment longer than 16 MiB`, where the
    /// reader says so); the next game stands where it does in the input.
    /// Found by a tester: the splitter held the whole game (2 GB of memory
    /// for a comment of 1 GB).
    #[test]
    fn a_game_longer_than_the_limit_is_cut_not_held() {
        let prefix = "[Event \"bomb\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 {\n";
        let suffix = "} Nc6 1-0\n\n[Event \"next\"]\n\n1. d4 d5\n2. Ke3 0-1\n";
        let lines = 100_000;
        let bomb = || Bomb::new(prefix, lines, suffix);
        let mut splitter = Splitter::new(bomb());
        let first = splitter.next().unwrap().unwrap();
        {
            let capture = splitter.capture.borrow();
            assert!(capture.bytes.len() <= MAX_GAME_TEXT + 3 * READ_AHEAD);
        }
        let second = splitter.next().unwrap().unwrap();
        assert!(splitter.next().is_none());
        let length = (prefix.len() + lines * 1001 + suffix.find("[Event").unwrap()) as u64;
        assert_eq!((first.text.len(), first.length), (MAX_GAME_TEXT, length));
        assert_eq!(second.offset, length);
        // Each game as the reader of the whole input reads it.
        let whole: Vec<_> = arbiter_pgn::Reader::new(bomb())
            .games()
            .map(|g| g.unwrap())
            .collect();
        let split = [first.read().unwrap(), second.read().unwrap()];
        assert_eq!(whole.len(), 2);
        for (w, s) in whole.iter().zip(&split) {
            let (we, se) = (w.error.as_ref().unwrap(), s.error.as_ref().unwrap());
            assert_eq!(
                (se.game, se.location, &se.kind),
                (we.game, we.location, &we.kind)
            );
            assert_eq!(s.mainline().count(), w.mainline().count());
        }
        assert_eq!(
            split[0].error.as_ref().unwrap().kind.to_string(),
            "comment longer than 16 MiB"
        );
        assert_eq!(second.first_line, 4 + lines as u64 + 3);
    }

    #[test]
    fn the_texts_are_the_input_cut_whatever_the_reads() {
        let mut pgn = String::new();
        for i in 0..200 {
            pgn += &format!("[Round \"{i}\"]\n\n1. e4 {{ a comment }} e5 2. Nf3 1-0\n\n");
        }
        for chunk in [1, 7, 64, 1 << 16] {
            let games: Vec<_> = Splitter::new(Trickle(pgn.as_bytes(), chunk))
                .collect::<Result<_, _>>()
                .unwrap();
            assert_eq!(games.len(), 200, "reads of {chunk}");
            let joined: Vec<u8> = games.iter().flat_map(|g| g.text.clone()).collect();
            assert_eq!(joined, pgn.as_bytes(), "reads of {chunk}");
            let mut offset = 0;
            for (i, g) in games.iter().enumerate() {
                assert_eq!((g.number, g.offset), (i as u64 + 1, offset));
                assert_eq!((g.first_line, g.first_column), (4 * i as u64 + 1, 1));
                assert_eq!(g.read().unwrap().tags.get("Round"), Some(&*i.to_string()));
                offset += g.text.len() as u64;
            }
        }
    }
}
