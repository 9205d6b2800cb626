//! A PGN stream cut into the texts of its games, so that many threads can
//! read and audit them while the output keeps the input's order.
//!
//! The cuts are where [`arbiter_pgn::Reader`] itself ends each game (the
//! reader runs over the stream without building anything), so a game read
//! from its text alone is the game read from the stream; each text carries
//! its number and the line it starts on, to report places in the file.

use arbiter_pgn::{PassOver, Reader, Visitor};
use std::cell::RefCell;
use std::io::{self, Read};
use std::rc::Rc;

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
    /// The text.
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
        reader
            .transcript_mut()
            .place(self.number, self.first_line, self.first_column, self.offset);
        Ok(read)
    }
}

/// The bytes read from the input; those from `start` on are not yet handed
/// out as a game. The ones before it are dropped only once they are at
/// least half the buffer, so that each byte is moved O(1) times, not once
/// per later game of the buffer (a `drain` from the front per game cost as
/// much as reading the games).
#[derive(Default)]
struct Capture {
    bytes: Vec<u8>,
    start: usize,
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
        Ok(n)
    }
}

/// Cuts a PGN stream into [`RawGame`]s; memory stays that of one game and
/// the reader's buffer, whatever the input's size.
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
        let capture = Rc::new(RefCell::new(Capture::default()));
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
                let end = self.reader.bytes_read();
                let mut capture = self.capture.borrow_mut();
                let start = capture.start;
                let len = usize::try_from(end - self.base)
                    .unwrap_or(usize::MAX)
                    .min(capture.bytes.len() - start);
                let text = capture.bytes[start..start + len].to_vec();
                capture.start += len;
                let game = RawGame {
                    number: self.reader.games_read(),
                    first_line: self.line,
                    first_column: self.column,
                    offset: self.base,
                    text,
                };
                self.base += len as u64;
                self.line += memchr::memchr_iter(b'\n', &game.text).count() as u64;
                // Characters: the bytes that do not continue one.
                let chars = |s: &[u8]| s.iter().filter(|&&b| b & 0xc0 != 0x80).count() as u64;
                self.column = match memchr::memrchr(b'\n', &game.text) {
                    Some(last) => 1 + chars(&game.text[last + 1..]),
                    None => self.column + chars(&game.text),
                };
                Some(Ok(game))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Splitter;
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
