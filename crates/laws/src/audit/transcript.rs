//! What the audit reads of a record ([`Transcript`]), and the visitor that
//! reads it straight from PGN ([`TranscriptReader`]): the main line, the
//! positions it leads to, its clock times and the tags the audit judges —
//! nothing else, into buffers kept from one game to the next.

use arbiter_chess::{Move, Position};
use arbiter_pgn::clock::{clean_comment, decimals_ms, find_time, parse_clock, take_clock};
use arbiter_pgn::{
    Flow, Game as Record, GameError, GameErrorKind, GameResult, Location, MainLine, Node, RawText,
    SyntaxError, Visitor, MAX_NODES,
};
use std::sync::LazyLock;

/// The initial position (made once: [`Position::standard`] builds it).
pub(crate) static STANDARD: LazyLock<Position> = LazyLock::new(Position::standard);

/// What the audit judges of a game record (Art. 8: the moves and the times
/// recorded): the tags it reads (players, site, result, termination, time
/// control), the start position, the main line's moves with the position
/// after each, each move's `[%clk]` (the time left) and `[%emt]` (the time
/// spent), the movetext's result and the first error.
///
/// Read from PGN by [`TranscriptReader`], or taken from a full record by
/// [`Transcript::from_record`]; both audit alike.
///
/// ```
/// use arbiter_laws::audit::Transcript;
/// let pgn = "[White \"A\"]\n\n1. e4 { [%clk 0:01:00] } e5 { [%emt 0:00:02] } *";
/// let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
/// let t = Transcript::from_record(&record);
/// assert_eq!((t.white(), t.plies()), (Some("A"), 2));
/// assert_eq!((t.clock(0), t.elapsed(1)), (Some(60_000), Some(2_000)));
/// assert_eq!(t.position_after(2).map(|p| p.fen()).as_deref(),
///     Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"));
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Transcript {
    pub(crate) white: TagValue,
    pub(crate) black: TagValue,
    pub(crate) site: TagValue,
    pub(crate) result_tag: TagValue,
    pub(crate) termination: TagValue,
    /// TCEC's `TerminationDetails` tag ("3-Fold repetition", "White
    /// mates"), beside a `Termination` of "adjudication".
    pub(crate) termination_details: TagValue,
    /// FICS's `LongResult` tag ("Game drawn by the 50 move rule").
    pub(crate) long_result: TagValue,
    /// ICC's `ICCResult` tag ("Black forfeits on time").
    pub(crate) icc_result: TagValue,
    /// A comment after the last move that is a server's sentence of how
    /// the game ended ([`RecordedEnd::is_server_sentence`]: `{Black
    /// resigns} 1-0`), in a record read without error.
    ///
    /// [`RecordedEnd::is_server_sentence`]: super::RecordedEnd::is_server_sentence
    pub(crate) end_comment: TagValue,
    pub(crate) time_control: TagValue,
    pub(crate) start: Position,
    /// The main line's moves (a null move as [`Node::NULL_MOVE`]).
    pub(crate) moves: Vec<Move>,
    /// The position after each move, up to the first null move (each move
    /// checked legal by the reader).
    pub(crate) after: Vec<Position>,
    /// Per move: the first readable `[%clk]` (while reading: per move read,
    /// the ones refused included).
    pub(crate) clocks: Vec<Option<u64>>,
    /// Per move: the first readable `[%emt]`.
    pub(crate) elapsed: Vec<Option<u64>>,
    /// Where the first null move was written, and how (`--`, `Z0`…): the
    /// Laws refuse it, and the finding names it so.
    pub(crate) null_at: Option<(Location, &'static str)>,
    /// The movetext's result.
    pub(crate) result: Option<GameResult>,
    /// The first error, if any.
    pub(crate) error: Option<GameError>,
}

/// A tag's value, if the record has the tag (its text kept from one game to
/// the next).
#[derive(Clone, Debug, Default)]
pub(crate) struct TagValue {
    text: String,
    set: bool,
}

impl TagValue {
    fn of(value: Option<&str>) -> TagValue {
        TagValue {
            text: value.unwrap_or_default().to_owned(),
            set: value.is_some(),
        }
    }

    /// The value.
    pub(crate) fn get(&self) -> Option<&str> {
        self.set.then_some(self.text.as_str())
    }

    /// The value, unless one is set already (the first of repeated tags
    /// counts, as in `Tags::get`).
    fn set_first(&mut self, value: RawText<'_>) {
        if !self.set {
            self.text.clear();
            self.text.push_str(&value.unescape());
            self.set = true;
        }
    }
}

impl Default for Transcript {
    fn default() -> Transcript {
        Transcript {
            white: TagValue::default(),
            black: TagValue::default(),
            site: TagValue::default(),
            result_tag: TagValue::default(),
            termination: TagValue::default(),
            termination_details: TagValue::default(),
            long_result: TagValue::default(),
            icc_result: TagValue::default(),
            end_comment: TagValue::default(),
            time_control: TagValue::default(),
            start: *STANDARD,
            moves: Vec::new(),
            after: Vec::new(),
            clocks: Vec::new(),
            elapsed: Vec::new(),
            result: None,
            null_at: None,
            error: None,
        }
    }
}

impl Transcript {
    /// What the audit judges of a full record (read with
    /// [`arbiter_pgn::GameBuilder`]).
    pub fn from_record(record: &Record) -> Transcript {
        let tag = |name: &str| TagValue::of(record.tags.get(name));
        let nodes = &record.line.nodes;
        let moves: Vec<Move> = record.mainline().collect();
        // The legal prefix of the line (a record made by hand may hold any
        // move; a null move is none).
        let mut after = Vec::with_capacity(moves.len());
        let mut pos = record.start;
        for &m in &moves {
            if !pos.is_legal(m) || pos.captures_king(m) {
                break;
            }
            pos.play_unchecked(m);
            after.push(pos);
        }
        Transcript {
            white: tag("White"),
            black: tag("Black"),
            site: tag("Site"),
            result_tag: tag("Result"),
            termination: tag("Termination"),
            termination_details: tag("TerminationDetails"),
            long_result: tag("LongResult"),
            icc_result: tag("ICCResult"),
            end_comment: TagValue::of(
                // The comments after the last move (before the first in a
                // game of none).
                record
                    .error
                    .is_none()
                    .then(|| nodes.last().map_or(&record.line.comments, |n| &n.comments))
                    .and_then(|comments| {
                        comments
                            .iter()
                            .find(|c| super::RecordedEnd::is_server_sentence(c))
                    })
                    .map(String::as_str),
            ),
            time_control: tag("TimeControl"),
            start: record.start,
            moves,
            after,
            clocks: nodes.iter().map(|n| n.clock_ms).collect(),
            elapsed: nodes
                .iter()
                .map(|n| super::times::elapsed_in(&n.comments))
                .collect(),
            result: record.result,
            // (A full record keeps no places.)
            null_at: None,
            error: record.error.clone(),
        }
    }

    /// The `White` tag.
    pub fn white(&self) -> Option<&str> {
        self.white.get()
    }

    /// The `Black` tag.
    pub fn black(&self) -> Option<&str> {
        self.black.get()
    }

    /// The main-line moves read.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The main-line moves (a null move as [`Node::NULL_MOVE`]).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position after `ply` moves (0: the start), if the line reaches
    /// it without a null move.
    pub fn position_after(&self, ply: usize) -> Option<&Position> {
        match ply.checked_sub(1) {
            None => Some(&self.start),
            Some(i) => self.after.get(i),
        }
    }

    /// The `[%clk]` time after move `i` (0-based), ms.
    pub fn clock(&self, i: usize) -> Option<u64> {
        self.clocks.get(i).copied().flatten()
    }

    /// The `[%emt]` time of move `i` (0-based), ms.
    pub fn elapsed(&self, i: usize) -> Option<u64> {
        self.elapsed.get(i).copied().flatten()
    }

    /// Some move has a `[%clk]` or `[%emt]` time.
    pub(crate) fn timed(&self) -> bool {
        self.clocks.iter().chain(&self.elapsed).any(Option::is_some)
    }

    /// The first error of the record, if any.
    pub fn error(&self) -> Option<&GameError> {
        self.error.as_ref()
    }

    /// Numbers the game (1-based, across inputs) in its error, and moves
    /// the places of its error and of its first null move to where they are
    /// in a whole input whose text of this game starts on line `first_line`
    /// (1-based), at column `first_column` of it, at byte `offset`.
    ///
    /// ```
    /// use arbiter_laws::audit::Transcript;
    /// let record = arbiter_pgn::Reader::new("1. e4 e5 2. Ke3 *".as_bytes()).next_game()?.expect("a game");
    /// let mut t = Transcript::from_record(&record);
    /// t.place(7, 10, 1, 500);
    /// let e = t.error().expect("2. Ke3 is not legal");
    /// assert_eq!((e.game, e.location.line, e.location.offset), (7, 10, 512));
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn place(&mut self, number: u64, first_line: u64, first_column: u64, offset: u64) {
        if let Some(e) = self.error.as_mut() {
            e.game = number;
            move_location(&mut e.location, first_line, first_column, offset);
        }
        if let Some((at, _)) = self.null_at.as_mut() {
            move_location(at, first_line, first_column, offset);
        }
    }

    /// Leaves the game unread but for its tags, broken by `error` (a game
    /// too long to be read whole, [`super::split::GAME_TOO_LONG`]).
    pub(crate) fn refuse(&mut self, error: GameError) {
        self.end_comment.set = false;
        self.moves.clear();
        self.after.clear();
        self.clocks.clear();
        self.elapsed.clear();
        self.null_at = None;
        self.result = None;
        self.error = Some(error);
    }

    /// The `TimeControl` tag, read.
    pub(crate) fn time_control(
        &self,
    ) -> Option<Result<arbiter_pgn::TimeControl, arbiter_pgn::ParseTimeControlError>> {
        self.time_control.get().map(arbiter_pgn::TimeControl::parse)
    }
}

/// `at`, a place in a game's text read alone, moved to the input's: the
/// text starts on line `first_line`, at column `first_column` of it, at
/// byte `offset`.
pub(crate) fn move_location(at: &mut Location, first_line: u64, first_column: u64, offset: u64) {
    if at.line == 1 {
        at.column += first_column - 1;
    }
    at.line += first_line - 1;
    at.offset += offset;
}

/// The tags [`TranscriptReader`] keeps.
#[derive(Copy, Clone)]
enum Kept {
    White,
    Black,
    Site,
    Result,
    Termination,
    TerminationDetails,
    LongResult,
    IccResult,
    TimeControl,
}

/// The tag's slot, if the audit reads it.
fn kept(name: &[u8]) -> Option<Kept> {
    Some(match name {
        b"White" => Kept::White,
        b"Black" => Kept::Black,
        b"Site" => Kept::Site,
        b"Result" => Kept::Result,
        b"Termination" => Kept::Termination,
        b"TerminationDetails" => Kept::TerminationDetails,
        b"LongResult" => Kept::LongResult,
        b"ICCResult" => Kept::IccResult,
        b"TimeControl" => Kept::TimeControl,
        _ => return None,
    })
}

/// The visitor the audit reads records with: a [`Transcript`] of each
/// game, on the main-line replay core of `pgn check` ([`MainLine`]). Only
/// the tags the audit reads are kept, and those that say how to read the
/// moves (`FEN`, `Variant`, `Notation`) are used; the main line's moves are
/// checked and played once, each position kept; of the comments only the
/// `[%clk …]` and `[%emt …]` commands are read, from the bytes; variations
/// are skipped unread and glyphs dropped. The transcript's buffers are kept
/// from one game to the next. What it reads audits as the full record does
/// ([`Transcript::from_record`]); to write the record out again
/// ([`annotate`](super::annotate)) read it with
/// [`GameBuilder`](arbiter_pgn::GameBuilder).
///
/// ```
/// use arbiter_laws::audit::TranscriptReader;
/// use arbiter_pgn::Reader;
/// let pgn = "[Event \"Open\"]\n[White \"A\"]\n\n1. e4 { [%eval 0.2] [%clk 0:01:00] } (1. d4 d5) e5 $1 { good [%emt 0:00:02] } *";
/// let mut reader = TranscriptReader::new();
/// assert!(Reader::new(pgn.as_bytes()).read_game(&mut reader)?.is_some());
/// let t = reader.transcript();
/// assert_eq!((t.white(), t.plies()), (Some("A"), 2));
/// assert_eq!((t.clock(0), t.clock(1), t.elapsed(1)), (Some(60_000), None, Some(2_000)));
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Default)]
pub struct TranscriptReader {
    line: MainLine,
    transcript: Transcript,
    /// Moves read so far in this game, the ones refused included (a
    /// comment belongs to the last of them).
    read: usize,
    /// A null move was read: the positions stop before it.
    null: bool,
    /// The comments after the last move read so far (the end's sentence
    /// is sought among them once the game is read: [`end_sentence`]), each
    /// with whether the move's clock was taken before it; and that move
    /// ([`Self::read`] then).
    last_comments: Vec<(Vec<u8>, bool)>,
    last_comments_at: usize,
    /// How many of `last_comments` hold this game's comments.
    last_count: usize,
}

impl TranscriptReader {
    /// A reader taking moves in any notation (or the one the `Notation`
    /// tag names).
    pub fn new() -> TranscriptReader {
        TranscriptReader::default()
    }

    /// The transcript of the last game read.
    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    /// The transcript of the last game read, to number it
    /// ([`Transcript::place`]).
    pub fn transcript_mut(&mut self) -> &mut Transcript {
        &mut self.transcript
    }

    fn slot(&mut self, kept: Kept) -> &mut TagValue {
        let t = &mut self.transcript;
        match kept {
            Kept::White => &mut t.white,
            Kept::Black => &mut t.black,
            Kept::Site => &mut t.site,
            Kept::Result => &mut t.result_tag,
            Kept::Termination => &mut t.termination,
            Kept::TerminationDetails => &mut t.termination_details,
            Kept::LongResult => &mut t.long_result,
            Kept::IccResult => &mut t.icc_result,
            Kept::TimeControl => &mut t.time_control,
        }
    }

    /// Keeps a copy of a comment after move `i` (0-based; `None` before
    /// the first move), the move read last so far: those of the last move
    /// are read for its end once the game is read ([`end_sentence`]). (A
    /// copy into buffers kept from one game to the next: cheaper than
    /// reading each comment as a sentence.)
    fn keep_last(&mut self, text: &[u8], i: Option<usize>) {
        if self.last_comments_at != self.read {
            self.last_comments_at = self.read;
            self.last_count = 0;
        }
        // (No move, no clock to take.)
        let clock_taken = i.is_none_or(|i| self.transcript.clocks[i].is_some());
        if self.last_count == self.last_comments.len() {
            self.last_comments.push((Vec::new(), false));
        }
        let (kept, taken) = &mut self.last_comments[self.last_count];
        kept.clear();
        kept.extend_from_slice(text);
        *taken = clock_taken;
        self.last_count += 1;
    }

    /// A `[%clk]` (`clk`) or `[%emt]` time read after move `i`: the first
    /// readable one of each counts.
    fn note_time(&mut self, i: usize, clk: bool, time: Option<u64>) {
        let slot = if clk {
            self.clock_slot(i)
        } else {
            let elapsed = &mut self.transcript.elapsed;
            if elapsed.len() <= i {
                elapsed.resize(i + 1, None);
            }
            &mut elapsed[i]
        };
        if slot.is_none() {
            *slot = time;
        }
    }

    /// The clock slot of move `i` (each move read has one).
    #[inline]
    fn clock_slot(&mut self, i: usize) -> &mut Option<u64> {
        &mut self.transcript.clocks[i]
    }
}

/// The `[%clk …]` and `[%emt …]` commands of a comment, each up to its `]`.
/// A plain scan: a move's comment is a few dozen bytes, too short for
/// `memchr`'s set-up to pay (measured: a third of the cost of reading a
/// Lichess record's comments).
fn clock_commands(text: &[u8]) -> impl Iterator<Item = &[u8]> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || loop {
        let start = at + text.get(at..)?.iter().position(|&b| b == b'[')?;
        let rest = &text[start..];
        if rest.len() < 5 {
            return None;
        }
        at = start + 1;
        if rest.starts_with(b"[%clk") || rest.starts_with(b"[%emt") {
            // (A command inside another's brackets is found too.)
            let end = rest.iter().position(|&b| b == b']')?;
            return Some(&rest[..=end]);
        }
    })
}

/// The time of a comment that is one `[%clk h:mm:ss]` and nothing else (as
/// Lichess writes most of them), or one `[%clk h:mm:ss.f]` with one to three
/// decimals (as chess.com writes them), read directly; `None` for any other
/// comment, which [`clock_commands`] and [`parse_clock`] then read (to the
/// same time for this one).
#[inline]
fn lone_clock(text: &[u8]) -> Option<u64> {
    // Lichess writes ` [%clk h:mm:ss] `: one space each side.
    let t = match text {
        [b' ', inner @ .., b' '] if inner.len() == 14 => inner,
        _ => text.trim_ascii(),
    };
    // `[%clk h:` and `h:mm:ss]` (or `h:mm:ss.`) as two words: the fixed
    // bytes compared at once, the digits after; then the decimals and `]`.
    let (end, decimals) = match t.len() {
        14 => (b']', &[][..]),
        16..=18 if t[t.len() - 1] == b']' => (b'.', &t[14..t.len() - 1]),
        _ => return None,
    };
    let head = u64::from_le_bytes(t[..8].try_into().ok()?);
    let tail = u64::from_le_bytes(t[6..14].try_into().ok()?);
    const HEAD_FIXED: u64 = 0xff00_ffff_ffff_ffff;
    const TAIL_FIXED: u64 = 0xff00_00ff_0000_ff00;
    if head & HEAD_FIXED != u64::from_le_bytes(*b"[%clk \0:")
        || tail & TAIL_FIXED != u64::from_le_bytes([0, b':', 0, 0, b':', 0, 0, end])
    {
        return None;
    }
    let digit = |i: usize| t[i].wrapping_sub(b'0');
    let (h, m1, m2, s1, s2) = (digit(6), digit(8), digit(9), digit(11), digit(12));
    if h > 9 || m1 > 9 || m2 > 9 || s1 > 9 || s2 > 9 {
        return None;
    }
    let minutes = u64::from(m1 * 10 + m2);
    let seconds = u64::from(s1 * 10 + s2);
    // One to three decimals (the length above), read as `parse_clock` reads
    // them.
    Some(u64::from(h) * 3_600_000 + minutes * 60_000 + seconds * 1000 + decimals_ms(decimals)?)
}

/// The time of a comment that is one `[%eval …]` then one lone clock
/// ([`lone_clock`]), as Lichess writes the moves of its analysed games
/// (`[%eval 0.17] [%clk 0:03:00]`, `[%eval #-3] [%clk 0:00:41]`); `None`
/// for any other comment. The evaluation is ASCII with no `[` in it, so the
/// comment holds no other command and no sentence, and [`clock_commands`]
/// would read the same time from it.
#[inline]
fn eval_then_clock(text: &[u8]) -> Option<u64> {
    let t = text.trim_ascii_start().strip_prefix(b"[%eval ")?;
    let end = t.iter().position(|&b| b == b']')?;
    let (eval, rest) = (&t[..end], &t[end + 1..]);
    if !eval.is_ascii() || eval.contains(&b'[') {
        return None;
    }
    lone_clock(rest)
}

/// The server's sentence of how its game ended that a comment is
/// ([`RecordedEnd::is_server_sentence`]), as the game builder keeps the
/// comment: decoded, whitespace collapsed, and the move's `[%clk]` taken
/// out unless `clock_taken` (by an earlier comment of the move). Comments
/// of more words than a sentence and a clock command have (prose) are
/// passed over unread.
///
/// [`RecordedEnd::is_server_sentence`]: super::RecordedEnd::is_server_sentence
fn end_sentence(text: &[u8], clock_taken: bool) -> Option<String> {
    // A sentence has at most 17 words, a clock command 3 (decoding and
    // collapsing the whitespace only ever split words further).
    if text
        .split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty())
        .nth(20)
        .is_some()
    {
        return None;
    }
    let cleaned = clean_comment(&RawText(text).decode());
    let kept = if clock_taken {
        cleaned
    } else {
        take_clock(&cleaned).1
    };
    super::RecordedEnd::is_server_sentence(&kept).then_some(kept)
}

/// The time of a command's text between its name and its `]`.
fn command_time(command: &[u8]) -> Option<u64> {
    let time = std::str::from_utf8(&command[5..command.len() - 1]).ok()?;
    parse_clock(time.trim())
}

impl Visitor for TranscriptReader {
    type Output = ();

    fn begin_game(&mut self, number: u64, _at: Location) {
        self.line.begin_game(number);
        let t = &mut self.transcript;
        for slot in [
            &mut t.white,
            &mut t.black,
            &mut t.site,
            &mut t.result_tag,
            &mut t.termination,
            &mut t.termination_details,
            &mut t.long_result,
            &mut t.icc_result,
            &mut t.end_comment,
            &mut t.time_control,
        ] {
            slot.set = false;
        }
        t.start = *STANDARD;
        t.moves.clear();
        t.after.clear();
        t.clocks.clear();
        t.elapsed.clear();
        t.result = None;
        t.error = None;
        self.read = 0;
        self.null = false;
        self.last_comments_at = 0;
        self.last_count = 0;
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) -> Flow {
        match kept(name) {
            Some(kept) => self.slot(kept).set_first(value),
            None => self.line.tag(name, value, at),
        }
        Flow::Continue
    }

    fn begin_movetext(&mut self) -> Flow {
        let flow = self.line.begin_movetext();
        if self.line.started() {
            self.transcript.start = *self.line.position();
        }
        flow
    }

    #[inline(always)]
    fn san(&mut self, text: &[u8], at: Location) -> Flow {
        self.read += 1;
        let t = &mut self.transcript;
        // Its clock slot, for the comments after it.
        t.clocks.push(None);
        if t.moves.len() >= MAX_NODES {
            let ply = Some(self.line.ply() + 1);
            let kind = GameErrorKind::Other("too many moves in one game");
            self.line.fail(at, ply, None, kind);
            return Flow::Skip;
        }
        match self.line.play(text, at) {
            Ok(m) => {
                t.moves.push(m);
                self.null |= m == Node::NULL_MOVE;
                if !self.null {
                    t.after.push(*self.line.position());
                }
                Flow::Continue
            }
            Err(flow) => flow,
        }
    }

    fn comment(&mut self, text: RawText<'_>, _at: Location) -> Flow {
        // Before the first move: no move's time (as in the full record);
        // kept as the comments after the last move of a game of none
        // (`{White forfeits by disconnection} 0-1`), as the game builder
        // keeps them, no clock taken.
        let Some(i) = self.read.checked_sub(1) else {
            self.keep_last(text.as_bytes(), None);
            return Flow::Continue;
        };
        let text = text.as_bytes();
        if let Some(ms) = lone_clock(text).or_else(|| eval_then_clock(text)) {
            self.clock_slot(i).get_or_insert(ms);
            return Flow::Continue;
        }
        self.keep_last(text, Some(i));
        if !text.is_ascii() {
            // Read as the game builder reads it: decoded (Latin-1 if not
            // UTF-8: a byte 0xA0 is then a space), whitespace collapsed.
            let cleaned = clean_comment(&RawText(text).decode());
            for (clk, command) in [(true, "[%clk"), (false, "[%emt")] {
                let time = find_time(&cleaned, command).map(|(_, ms)| ms);
                self.note_time(i, clk, time);
            }
            return Flow::Continue;
        }
        for command in clock_commands(text) {
            let clk = command.starts_with(b"[%clk");
            self.note_time(i, clk, command_time(command));
        }
        Flow::Continue
    }

    fn begin_variation(&mut self, at: Location) -> Flow {
        self.line.begin_variation(at)
    }

    fn result(&mut self, result: GameResult, _at: Location) -> Flow {
        self.transcript.result = Some(result);
        Flow::Continue
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        self.line.syntax_error(error);
    }

    fn end_game(&mut self) {
        self.transcript.null_at = self.line.first_null();
        let t = &mut self.transcript;
        // The first sentence among the comments after the last move, in a
        // record that does not break (the full reading cannot tell whether
        // a sentence came before or after the break).
        if self.last_comments_at == self.read && self.line.error().is_none() {
            let found = self.last_comments[..self.last_count]
                .iter()
                .find_map(|(text, clock_taken)| end_sentence(text, *clock_taken));
            if let Some(sentence) = found {
                t.end_comment.text = sentence;
                t.end_comment.set = true;
            }
        }
        let n = t.moves.len();
        // Times of moves not read (a refused one) are dropped.
        t.clocks.truncate(n);
        t.elapsed.resize(n, None);
        t.error = self.line.take_error();
    }
}

#[cfg(test)]
mod tests {
    use super::{clock_commands, command_time, eval_then_clock, lone_clock};
    use arbiter_pgn::clock::parse_clock;

    #[test]
    fn a_lone_clock_reads_as_parse_clock_reads_it() {
        for text in [
            "[%clk 0:05:00]",
            " [%clk 1:59:07] ",
            "[%clk 9:00:59]",
            "[%clk 0:00:59.9]",
            "[%clk 0:05:00.5]",
            " [%clk 1:02:03.45] ",
            "[%clk 0:00:00.125]",
            "[%clk 0:00:07.0]",
        ] {
            let inner = text
                .trim()
                .strip_prefix("[%clk ")
                .unwrap()
                .strip_suffix(']')
                .unwrap();
            assert_eq!(lone_clock(text.as_bytes()), parse_clock(inner), "{text}");
            assert!(lone_clock(text.as_bytes()).is_some());
        }
        for other in [
            " [%clk 0:05:00]x",
            "[%clk 0:05:00.]",
            "[%clk 0:05:00.1234]",
            "[%clk 0:05:00,5]",
            "[%clk 0:05:00.5x]",
            "[%clk 0:05:00.a]",
            "[%clk 0:05:00.5",
            "[%clk 0:05:00]]",
            "[%clk 0:05:00",
            "[%clk 0;05:00]",
            "[%clk 0:05 00]",
            "(%clk 0:05:00]",
            "[%clk 0:05:0/]",
            "[%emt 0:05:00]",
            "[%clk 10:05:00]",
            "[%clk 0:05:00] [%emt 0:00:01]",
            "[%clk 0:5:00]",
            "[%clk 0:0a:00]",
            "x",
        ] {
            assert_eq!(lone_clock(other.as_bytes()), None, "{other}");
        }
    }

    #[test]
    fn an_evaluation_then_a_clock_reads_as_the_commands_read_it() {
        for text in [
            " [%eval 0.17] [%clk 0:03:00] ",
            "[%eval -1.5] [%clk 1:02:03]",
            "[%eval #-3] [%clk 0:00:41]",
            "[%eval #2]  [%clk 0:00:41.5] ",
            "[%eval 0.17,23] [%clk 0:03:00]",
        ] {
            let general: Vec<_> = clock_commands(text.as_bytes()).map(command_time).collect();
            assert_eq!(general.len(), 1, "{text}");
            assert_eq!(eval_then_clock(text.as_bytes()), general[0], "{text}");
            assert!(general[0].is_some(), "{text}");
        }
        for other in [
            // Words or other commands beside them: the general reading.
            "[%eval 0.17] [%clk 0:03:00] White resigns",
            "[%eval 0.17] good [%clk 0:03:00]",
            "[%eval 0.17] [%clk 0:03:00] [%emt 0:00:02]",
            "[%eval [%emt 0:00:02] 0.1] [%clk 0:03:00]",
            "[%eval 0.17\u{e9}] [%clk 0:03:00]",
            "[%eval 0.17 [%clk 0:03:00]",
            "[%clk 0:03:00] [%eval 0.17]",
            "[%evaluation 0.17] [%clk 0:03:00]",
            "[%eval 0.17]",
        ] {
            assert_eq!(eval_then_clock(other.as_bytes()), None, "{other}");
        }
    }

    fn commands(text: &str) -> Vec<&str> {
        clock_commands(text.as_bytes())
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect()
    }

    #[test]
    fn clock_and_elapsed_commands_are_found_art_6() {
        assert_eq!(
            commands("[%eval 0.2] [%clk 0:01:00] good [%emt 0:00:02]"),
            ["[%clk 0:01:00]", "[%emt 0:00:02]"]
        );
        assert_eq!(commands("[%clk 0:01:00"), Vec::<&str>::new());
        assert_eq!(commands("%clk [%cl"), Vec::<&str>::new());
        assert_eq!(commands("[%clk [%emt 1]"), ["[%clk [%emt 1]", "[%emt 1]"]);
        assert_eq!(commands("x[%emt 5]"), ["[%emt 5]"]);
    }
}
