//! Replaying a game's moves as the reader gives them: the one core under
//! [`crate::GameBuilder`] (which keeps the game) and [`crate::check::Checker`]
//! (which keeps a summary). It knows the start position from the tags, the
//! notation, the position in every line (main line and variations), and the
//! first error; the visitors add only what they keep.

use crate::game::{GameError, GameErrorKind, GameResult, GameWarning, MoveNumber, WarningKind};
use crate::notation::{read_move_bytes, read_strict_san_by, Dialect, Notation, ReadMoveError};
use crate::reader::{Flow, Location, RawText, SyntaxError};
use crate::start::{standard, start_position_of};
use arbiter_chess::{Color, Move, Position};

/// The most moves (all lines together) one game may hold: the next is an
/// error ("too many moves in one game"), for [`crate::GameBuilder`] and
/// [`crate::check::Checker`] alike.
pub const MAX_NODES: usize = 200_000;

/// Where a line stands.
#[derive(Clone, Copy)]
pub(crate) struct Cursor {
    /// The position before the last move of the line (a variation starts
    /// here).
    pub before: Position,
    /// The position now.
    pub pos: Position,
    /// Plies from the game's start to `pos`.
    pub ply: u32,
    /// Moves played in this line.
    pub moves: u32,
}

impl Cursor {
    fn new(pos: Position, ply: u32) -> Cursor {
        Cursor {
            before: pos,
            pos,
            ply,
            moves: 0,
        }
    }
}

impl Default for Cursor {
    fn default() -> Cursor {
        Cursor::new(standard(), 0)
    }
}

/// A move read and played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A move, legal in the position before it.
    Move(Move),
    /// A null move (`--`, `Z0`).
    Null,
}

/// How records write a null move: ChessBase's `Z0`, `--`, UCI's `0000`,
/// `@@@@`.
const NULL_MOVES: [&str; 4] = ["--", "Z0", "0000", "@@@@"];

/// What to do with a null move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum NullMoves {
    /// Keep it, as analysis writes it (the game builder).
    #[default]
    Keep,
    /// Play it but report it: not a move under the Laws (the checker).
    Report,
}

/// The replay state of one game.
#[derive(Default)]
pub(crate) struct Replay {
    forced: Option<Dialect>,
    dialect: Dialect,
    /// The dialect is Russian because a move had a Cyrillic piece letter
    /// (not by the `Notation` tag or the caller): a Latin letter may still
    /// mean what it means in English ([`Replay::read_by_script`]).
    russian_inferred: bool,
    /// Where the game starts (for what concerns it whole).
    begin: Location,
    /// The start position's side to move and move number (they number the
    /// moves of errors); set when the movetext starts.
    start: Option<(Color, u32)>,
    nulls: NullMoves,
    /// 1-based number of the game in the input.
    pub number: u64,
    fen: Option<(Location, String)>,
    variant: Option<(Location, String)>,
    /// The line being read (the main line or the innermost variation).
    pub cur: Cursor,
    /// The lines around it, outermost (the main line) first.
    pub parents: Vec<Cursor>,
    /// The movetext has started from a known position.
    pub started: bool,
    /// A move in the variation at this depth was wrong: the rest of that
    /// variation is passed over, the lines around it read on.
    dead: Option<usize>,
    /// Moves may take the fast path while the line holds fewer: the moves
    /// it may still hold under [`MAX_NODES`] when the movetext started, the
    /// line is not dead and the notation is not Russian, else 0 (kept by
    /// [`Replay::refresh`]). One test a move for both.
    fast_below: u32,
    /// Moves played in the other lines than the current one (all together
    /// at most [`MAX_NODES`] with its own).
    played_elsewhere: u32,
    /// Where the main line's first null move was written, and how (`--`,
    /// `Z0`, `0000`, `@@@@`).
    pub first_null: Option<(Location, &'static str)>,
    /// The first error (one in the main line replaces one in a variation).
    pub error: Option<GameError>,
    /// What was changed to go on.
    pub warnings: Vec<GameWarning>,
}

impl Replay {
    pub fn new(forced: Option<Dialect>, nulls: NullMoves) -> Replay {
        Replay {
            forced,
            nulls,
            ..Replay::default()
        }
    }

    pub fn begin_game(&mut self, number: u64, at: Location) {
        self.number = number;
        self.begin = at;
        self.start = None;
        self.dialect = self.forced.unwrap_or(Dialect::Auto);
        self.russian_inferred = false;
        self.fen = None;
        self.variant = None;
        self.cur = Cursor::default();
        self.parents.clear();
        self.started = false;
        self.dead = None;
        self.played_elsewhere = 0;
        self.first_null = None;
        self.error = None;
        self.warnings.clear();
        self.refresh();
    }

    /// Recomputes [`Replay::fast_below`] after `started`, `dead`, the
    /// dialect or the line changed.
    fn refresh(&mut self) {
        let fast = self.started && self.dead.is_none() && self.dialect != Dialect::Russian;
        self.fast_below = if fast {
            MAX_NODES as u32 - self.played_elsewhere
        } else {
            0
        };
    }

    /// Notes the tags replay needs: `FEN`, `Variant` (the first of each) and
    /// `Notation`.
    #[inline]
    pub fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) {
        if matches!(name, b"FEN" | b"Variant" | b"Notation") {
            self.note_tag(name, value, at);
        }
    }

    /// [`Replay::tag`] for the three tags it keeps (apart, so that the
    /// others cost no more than their names' test).
    #[inline(never)]
    fn note_tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) {
        let slot = match name {
            b"FEN" => &mut self.fen,
            b"Variant" => &mut self.variant,
            b"Notation" => {
                if self.forced.is_none() {
                    if let Ok(n) = Notation::from_name(&value.unescape()) {
                        self.dialect = n.dialect();
                        self.russian_inferred = false;
                        self.refresh();
                    }
                }
                return;
            }
            _ => return,
        };
        if slot.is_none() {
            *slot = Some((at, value.unescape().into_owned()));
        }
    }

    /// The movetext starts: the start position from the tags.
    pub fn begin_movetext(&mut self) -> Flow {
        let fen = self.fen.as_ref().map(|(_, v)| v.as_str());
        let variant = self.variant.as_ref().map(|(_, v)| v.as_str());
        match start_position_of(variant, fen) {
            Ok((pos, dropped)) => {
                self.cur = Cursor::new(pos, 0);
                self.start = Some((pos.turn(), pos.fullmoves()));
                self.started = true;
                self.refresh();
                let location = self.fen.as_ref().map(|(at, _)| *at).unwrap_or_default();
                // One warning per reason, its rooks together.
                let mut reasons: Vec<&'static str> = Vec::new();
                for &(_, reason) in &dropped.castling {
                    if !reasons.contains(&reason) {
                        reasons.push(reason);
                    }
                }
                for reason in reasons {
                    let mut rooks = arbiter_chess::Bitboard::EMPTY;
                    for &(square, _) in dropped.castling.iter().filter(|d| d.1 == reason) {
                        rooks.add(square);
                    }
                    self.warnings.push(GameWarning {
                        game: self.number,
                        location,
                        kind: WarningKind::CastlingRightsDropped { rooks, reason },
                    });
                }
                if let Some((square, reason)) = dropped.en_passant {
                    self.warnings.push(GameWarning {
                        game: self.number,
                        location,
                        kind: WarningKind::EnPassantDropped { square, reason },
                    });
                }
                Flow::Continue
            }
            Err(kind) => {
                let at = match kind {
                    GameErrorKind::Variant(_) => &self.variant,
                    _ => &self.fen,
                };
                let (location, text) = match at {
                    Some((location, value)) => (*location, Some(value.clone())),
                    None => (Location::default(), None),
                };
                self.fail(location, None, text, kind);
                Flow::Skip
            }
        }
    }

    /// `true` while moves are replayed: the movetext started and the current
    /// variation has not gone wrong.
    #[inline]
    pub fn live(&self) -> bool {
        self.started && self.dead.is_none()
    }

    /// `true` in the main line.
    #[inline]
    pub fn in_main_line(&self) -> bool {
        self.parents.is_empty()
    }

    /// The main line's cursor.
    pub fn main(&self) -> &Cursor {
        self.parents.first().unwrap_or(&self.cur)
    }

    /// Reads and plays a move; `Err` with what the reader should do when
    /// there is nothing to keep (the move is wrong, or passed over in a
    /// variation gone wrong).
    #[inline(always)]
    pub fn play(&mut self, text: &[u8], at: Location) -> Result<Step, Flow> {
        // The common case: strict SAN in a live line, under the limit.
        if self.cur.moves < self.fast_below {
            if let Some((m, role)) = read_strict_san_by(&self.cur.pos, text) {
                let cur = &mut self.cur;
                cur.before = cur.pos;
                cur.pos.play_unchecked_by(m, role);
                cur.ply += 1;
                cur.moves += 1;
                return Ok(Step::Move(m));
            }
        }
        self.play_general(text, at)
    }

    /// [`Replay::play`] for the moves the fast path does not take: before
    /// the movetext, in a dead variation, in Russian notation, and any text
    /// that is not strict SAN naming one legal move.
    #[inline(never)]
    fn play_general(&mut self, text: &[u8], at: Location) -> Result<Step, Flow> {
        if !self.started {
            return Err(Flow::Skip);
        }
        if self.dead.is_some() {
            return Err(Flow::Continue);
        }
        if (self.played_elsewhere + self.cur.moves) as usize >= MAX_NODES {
            let ply = Some(self.cur.ply + 1);
            let kind = GameErrorKind::Other("too many moves in one game");
            self.fail(at, ply, None, kind);
            return Err(Flow::Skip);
        }
        // Strict SAN was tried (and failed) unless the notation is Russian.
        let step = self.read_slow(text, at)?;
        let role = match step {
            Step::Move(m) => self.cur.pos.role_at(m.from),
            Step::Null => None,
        };
        let cur = &mut self.cur;
        cur.before = cur.pos;
        match (step, role) {
            (Step::Move(m), Some(role)) => cur.pos.play_unchecked_by(m, role),
            (Step::Move(_), None) => {} // unreachable: a legal move has a piece
            (Step::Null, _) => cur.pos.play_null(),
        }
        cur.ply += 1;
        cur.moves += 1;
        Ok(step)
    }

    #[inline(never)]
    fn read_slow(&mut self, text: &[u8], at: Location) -> Result<Step, Flow> {
        if let Some(&written) = NULL_MOVES.iter().find(|w| w.as_bytes() == text) {
            if self.cur.pos.is_check() {
                let e = ReadMoveError::Illegal {
                    text: String::from_utf8_lossy(text).into_owned(),
                    reason: "a null move in check leaves the king attacked",
                };
                return Err(self.move_error(at, Some(e.text().to_owned()), GameErrorKind::Move(e)));
            }
            if self.first_null.is_none() && self.parents.is_empty() {
                self.first_null = Some((at, written));
            }
            if self.nulls == NullMoves::Report {
                let ply = Some(self.cur.ply + 1);
                let text = Some(String::from_utf8_lossy(text).into_owned());
                self.fail(at, ply, text, GameErrorKind::NullMove);
            }
            return Ok(Step::Null);
        }
        let read = if self.russian_inferred && has_latin_lookalike(text) {
            self.read_by_script(text, at)
        } else {
            read_move_bytes(self.dialect, &self.cur.pos, text)
        };
        match read {
            Ok(m) => {
                if self.dialect == Dialect::Auto && has_russian_piece(text) {
                    // A game written in Russian: from now on Latin look-alikes
                    // (`Cc1-f4`, `Kpe2`) are the Russian letters they resemble
                    // (but see `read_by_script`).
                    self.dialect = Dialect::Russian;
                    self.russian_inferred = true;
                    self.refresh();
                }
                Ok(Step::Move(m))
            }
            Err(e) => {
                let text = Some(e.text().to_owned());
                Err(self.move_error(at, text, GameErrorKind::Move(e)))
            }
        }
    }

    /// A move with a Latin look-alike letter (`K`, `C`) in a game read as
    /// Russian only because of a Cyrillic letter before: read as Russian
    /// (`Kf3` the knight, `Cc4` the bishop) when only that reading is
    /// legal, as English when only that one is; when both are legal and
    /// differ, as its letters' script says (English: `Kd2` the king), with
    /// a warning naming the other reading.
    #[inline(never)]
    fn read_by_script(&mut self, text: &[u8], at: Location) -> Result<Move, ReadMoveError> {
        let pos = self.cur.pos;
        let russian = read_move_bytes(Dialect::Russian, &pos, text);
        let english = read_move_bytes(Dialect::English, &pos, text);
        match (russian, english) {
            (Ok(r), Ok(e)) if r != e => {
                self.warnings.push(GameWarning {
                    game: self.number,
                    location: at,
                    kind: WarningKind::LatinLetterReadAsEnglish {
                        text: String::from_utf8_lossy(text).into_owned(),
                        read: pos.san(e),
                        other: pos.san(r),
                    },
                });
                Ok(e)
            }
            (Ok(r), _) => Ok(r),
            (Err(_), Ok(e)) => Ok(e),
            (Err(r), Err(_)) => Err(r),
        }
    }

    /// A reader's mended syntax error: a warning.
    pub fn syntax_warning(&mut self, warning: SyntaxError) {
        self.warnings.push(GameWarning {
            game: self.number,
            location: warning.location,
            kind: WarningKind::Syntax {
                message: warning.message,
                found: warning.found,
            },
        });
    }

    /// The game's result, from its `Result` tag (read, if it reads) and
    /// its movetext's termination marker (if any, and where): warnings
    /// when they differ or the marker is missing (PGN §8.2.6). No warning
    /// for a game cut short by an error (its marker was not read).
    pub fn check_result(
        &mut self,
        tag: Option<GameResult>,
        marker: Option<(GameResult, Location)>,
    ) {
        let (kind, location) = match (tag, marker) {
            (Some(tag), Some((marker, at))) if tag != marker => {
                (WarningKind::ResultMismatch { tag, marker }, at)
            }
            (_, None) if self.error.is_none() => (WarningKind::NoTerminationMarker, self.begin),
            _ => return,
        };
        self.warnings.push(GameWarning {
            game: self.number,
            location,
            kind,
        });
    }

    /// A wrong move: in the main line the rest of the game is skipped; in a
    /// variation only the rest of that variation.
    fn move_error(&mut self, at: Location, text: Option<String>, kind: GameErrorKind) -> Flow {
        let ply = Some(self.cur.ply + 1);
        self.fail(at, ply, text, kind);
        if self.in_main_line() {
            Flow::Skip
        } else {
            self.dead = Some(self.parents.len());
            self.refresh();
            Flow::Continue
        }
    }

    /// A variation starts: `Err` with what the reader should do when it is
    /// not followed (before any move, or inside a variation gone wrong).
    pub fn begin_variation(&mut self, at: Location) -> Result<(), Flow> {
        if !self.live() {
            return Err(Flow::Skip);
        }
        if self.refuse_variation_before_any_move(at) {
            return Err(Flow::Skip);
        }
        let parent = self.cur;
        self.parents.push(parent);
        self.played_elsewhere += parent.moves;
        self.cur = Cursor::new(parent.before, parent.ply - 1);
        self.refresh();
        Ok(())
    }

    /// A variation where the line has no move yet (an alternative to no
    /// move) is an error: recorded, and `true` then.
    pub fn refuse_variation_before_any_move(&mut self, at: Location) -> bool {
        if self.cur.moves != 0 {
            return false;
        }
        let ply = Some(self.cur.ply + 1);
        let kind = GameErrorKind::Syntax("a variation before any move");
        self.fail(at, ply, Some("(".into()), kind);
        true
    }

    /// A variation ends; `true` if it was one [`Replay::begin_variation`]
    /// opened.
    pub fn end_variation(&mut self) -> bool {
        match self.parents.pop() {
            Some(parent) => {
                if self.dead == Some(self.parents.len() + 1) {
                    self.dead = None;
                }
                self.played_elsewhere += self.cur.moves;
                self.played_elsewhere -= parent.moves;
                self.cur = parent;
                self.refresh();
                true
            }
            None => false,
        }
    }

    /// A termination marker after the game's own: a warning.
    pub fn stray_result(&mut self, result: GameResult, at: Location) {
        self.warnings.push(GameWarning {
            game: self.number,
            location: at,
            kind: WarningKind::StrayResult(result),
        });
    }

    /// The game breaks the PGN syntax: the reader skips the rest of it, so
    /// the main line ends here even inside a variation.
    pub fn syntax_error(&mut self, error: SyntaxError) {
        // The main line's next ply, inside a variation too: the record
        // breaks there (and readers that skip variations know no other).
        let ply = self.started.then_some(self.main().ply + 1);
        let text = (!error.found.is_empty()).then_some(error.found);
        self.record(
            error.location,
            ply,
            text,
            GameErrorKind::Syntax(error.message),
            false,
        );
    }

    /// Records an error where the reader is.
    pub fn fail(
        &mut self,
        location: Location,
        ply: Option<u32>,
        text: Option<String>,
        kind: GameErrorKind,
    ) {
        let in_variation = !self.in_main_line();
        self.record(location, ply, text, kind, in_variation);
    }

    /// The first error is kept, unless a main-line error comes after one in
    /// a variation.
    fn record(
        &mut self,
        location: Location,
        ply: Option<u32>,
        text: Option<String>,
        kind: GameErrorKind,
        in_variation: bool,
    ) {
        let replace = match &self.error {
            None => true,
            Some(e) => e.in_variation && !in_variation,
        };
        if replace {
            let move_number = self
                .start
                .zip(ply)
                .map(|(start, p)| MoveNumber::of_ply_from(start, p));
            self.error = Some(GameError {
                game: self.number,
                location,
                ply,
                move_number,
                text,
                in_variation,
                kind,
            });
        }
    }
}

/// Whether a move holds a Latin letter that Russian text uses for a
/// Cyrillic look-alike: `K` (К, the knight; `Kp`, the king) or `C` (С, the
/// bishop).
fn has_latin_lookalike(text: &[u8]) -> bool {
    text.iter().any(|&b| matches!(b, b'K' | b'C'))
}

/// Whether a move names a piece with a Russian letter (`К`, `Кр`, `Ф`, `Л`,
/// `С`).
/// `К Ф Л С` or lowercase `к ф л` (UTF-8) in the move text.
fn has_russian_piece(text: &[u8]) -> bool {
    text.windows(2).any(|w| {
        (w[0] == 0xd0 && matches!(w[1], 0x9a | 0xa4 | 0x9b | 0xa1 | 0xba | 0xbb))
            || (w[0] == 0xd1 && w[1] == 0x84)
    })
}
