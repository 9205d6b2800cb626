//! The audit of game records: one PGN record → the Laws' verdict on it.
//!
//! Each record is replayed through [`Game`](crate::Game) under an
//! [`Edition`], from its start position (set-up positions and Chess960
//! included), its moves timed by their `[%clk]` / `[%emt]` comments under its
//! `TimeControl` tag, the record read ahead so that its own later moves prove
//! positions alive (as `arbiter judge FILE` does). The Laws' result is then
//! compared with the recorded one (`Result`, `Termination`): each
//! difference is a [`Finding`] with its ply, its Article and a sentence an
//! arbiter can paste into a report.
//!
//! - The game went on after the Laws had ended it (checkmate, stalemate,
//!   dead position, fivefold repetition, the 75-move rule): the result is the
//!   one at that ply ([`FindingKind::PlayedOn`]).
//! - A loss on time where the winner could not checkmate by any series of
//!   legal moves (6.9: a draw), and the reverse ([`FindingKind::TimeoutDraw`],
//!   [`FindingKind::TimeoutWin`]).
//! - A result the final position contradicts ([`FindingKind::WrongResult`]).
//! - A termination that did not happen ([`FindingKind::UnfoundedTermination`]):
//!   reported, the result left as recorded (agreement may explain it).
//! - An illegal move or an unreadable record ([`FindingKind::IllegalMove`],
//!   [`FindingKind::Unreadable`]), with its line, column and ply.
//!
//! ```
//! use arbiter_laws::audit::{audit, FindingKind, Options};
//! // Black's flag fell, but White has a lone king: 6.9 makes it a draw.
//! let pgn = r#"[White "A"]
//! [Black "B"]
//! [Result "1-0"]
//! [Termination "Time forfeit"]
//! [FEN "q7/8/8/4k3/8/8/8/4K3 b - - 0 1"]
//! [SetUp "1"]
//!
//! 1... Qa2 2. Kf1 1-0
//! "#;
//! let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
//! let verdict = audit(&record, &Options::default());
//! assert!(!verdict.agrees());
//! assert_eq!(verdict.laws.result.map(|r| r.to_string()).as_deref(), Some("1/2-1/2"));
//! assert_eq!(verdict.findings[0].kind, FindingKind::TimeoutDraw);
//! assert_eq!(verdict.findings[0].article, "6.9");
//! # Ok::<_, std::io::Error>(())
//! ```

mod annotate;
mod finding;
mod recorded;
mod replay;
mod report;
pub mod split;
pub mod times;
mod transcript;

pub use annotate::{annotate, annotated_pgn};
pub use finding::{Finding, FindingKind, Place};
pub use recorded::{Recorded, RecordedEnd};
pub use report::{AuditLine, Summary};
pub use transcript::{Transcript, TranscriptReader};

use crate::dead::Verdict;
use crate::edition::Edition;
use crate::event::ClaimKind;
use crate::outcome::{GameResult, Termination};
use crate::repetition::History;
use arbiter_chess::{Color, FenError, PositionError};
use arbiter_pgn::{Game as Record, GameErrorKind, Node, ReadMoveError};
use replay::{Pass, Played, Replay};

/// How to audit.
///
/// ```
/// use arbiter_laws::{audit::Options, Edition};
/// let options = Options { edition: Edition::Fide2023 };
/// assert_eq!(Options::default().edition, Edition::Fide2014);
/// # let _ = options;
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The edition of the Laws (default 2014).
    pub edition: Edition,
}

/// How the Laws ended a game: the result, why, and the Article.
///
/// ```
/// use arbiter_laws::{audit::LawsEnd, GameResult, Termination};
/// let end = LawsEnd { result: GameResult::DRAW, termination: Termination::Stalemate, article: "5.2 a" };
/// assert_eq!(end.result.to_string(), "1/2-1/2");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LawsEnd {
    /// The scores.
    pub result: GameResult,
    /// How the game ended.
    pub termination: Termination,
    /// The Article of the edition in force.
    pub article: &'static str,
}

/// The Laws' verdict on a record.
///
/// ```
/// use arbiter_laws::audit::LawsVerdict;
/// let ongoing = LawsVerdict::default();
/// assert!(ongoing.result.is_none() && ongoing.ply.is_none());
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LawsVerdict {
    /// The result (`None`: the game is still going at the end of the record,
    /// or the record cannot be judged past a broken move).
    pub result: Option<GameResult>,
    /// How the game ended.
    pub termination: Option<Termination>,
    /// The Article that decides it.
    pub article: Option<&'static str>,
    /// The ply at which the game ended (0: before any move), `None` if it is
    /// still going at the end of the record.
    pub ply: Option<u32>,
}

impl LawsVerdict {
    fn ended(end: LawsEnd, ply: u32) -> LawsVerdict {
        LawsVerdict {
            result: Some(end.result),
            termination: Some(end.termination),
            article: Some(end.article),
            ply: Some(ply),
        }
    }
}

/// The audit of one record.
///
/// ```
/// use arbiter_laws::audit::{audit, Options};
/// let pgn = "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
/// let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
/// let a = audit(&record, &Options::default());
/// assert!(a.agrees() && a.findings.is_empty());
/// assert_eq!(a.laws.ply, Some(4));
/// assert_eq!(a.laws.article, Some("5.1 a"));
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Audit {
    /// The `White` tag.
    pub white: Option<String>,
    /// The `Black` tag.
    pub black: Option<String>,
    /// The `Site` tag (on Lichess, the game's address).
    pub site: Option<String>,
    /// What the record says.
    pub recorded: Recorded,
    /// What the Laws say.
    pub laws: LawsVerdict,
    /// The main-line moves of the record that could be read.
    pub plies: u32,
    /// What differs, in order of ply.
    pub findings: Vec<Finding>,
}

impl Audit {
    /// `true` when the Laws' result is the recorded one and the record could
    /// be judged to its end (no illegal move, nothing unreadable).
    pub fn agrees(&self) -> bool {
        self.laws.result == self.recorded.result
            && !self
                .findings
                .iter()
                .any(|f| matches!(f.kind, FindingKind::IllegalMove | FindingKind::Unreadable))
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The last ply before the record's `plies`-th after which the position
/// on the board had appeared for at least the third time (9.2 b: a claim
/// then would have been correct), if any.
fn last_threefold(record: &Transcript, plies: u32) -> Option<u32> {
    let mut history = History::new(&record.start);
    let mut last = None;
    for ply in 1..plies {
        let Some(pos) = record.position_after(ply as usize) else {
            break;
        };
        // (After a capture or a pawn move no earlier position recurs.)
        history.push(pos, pos.halfmoves() == 0);
        if history.count_current() >= 3 {
            last = Some(ply);
        }
    }
    last
}

/// "ply 57 (29... Qxf2#)".
fn ply_text(ply: u32, first: Color, first_number: u32, san: Option<String>) -> String {
    // The move number of ply `ply`, counting from the start position's.
    let offset = u32::from(first == Color::Black);
    let index = ply - 1 + offset;
    let number = first_number + index / 2;
    let dots = if index % 2 == 0 { "." } else { "..." };
    match san {
        Some(san) => format!("ply {ply} ({number}{dots} {san})"),
        None => format!("ply {ply}"),
    }
}

fn termination_words(t: Termination) -> &'static str {
    match t {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::DeadPosition => {
            "a dead position (neither player can checkmate by any series of legal moves)"
        }
        Termination::FivefoldRepetition => "fivefold repetition",
        Termination::SeventyfiveMoves => "the 75-move rule",
        Termination::Resignation => "resignation",
        Termination::Agreement => "agreement",
        Termination::ThreefoldRepetition => "a claim of threefold repetition",
        Termination::FiftyMoves => "a claim under the 50-move rule",
        Termination::Timeout => "a flag fall",
        Termination::TimeoutDraw => "a flag fall with no possible checkmate by the opponent",
        Termination::BothFlags => "both flags fallen, which first not to be established",
        Termination::IllegalMove => "an illegal move",
        Termination::ArbiterDecision => "the arbiter's decision",
        Termination::Forfeit => "forfeit",
        Termination::Adjudication => "adjudication",
    }
}

/// Whether a FEN tag's fault is a position no game reaches (Art. 3.10 c /
/// 3.10.3), not a field at odds with its own board (castling rights, the
/// en-passant square, the move number).
fn unreachable(cause: &PositionError) -> bool {
    !matches!(
        cause,
        PositionError::InvalidCastlingRight { .. }
            | PositionError::InvalidEnPassant { .. }
            | PositionError::InvalidFullmoves
    )
}

/// Audits one record under the Laws: replays it, judges its end, and lists
/// what differs from what it records.
pub fn audit(record: &Record, options: &Options) -> Audit {
    audit_by(&Transcript::from_record(record), options, Pass::Once)
}

/// [`audit`] of a record read by [`TranscriptReader`] (as `arbiter audit`
/// reads them): the same audit, without building the record.
///
/// ```
/// use arbiter_laws::audit::{audit_transcript, Options, TranscriptReader};
/// let pgn = "[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n";
/// let mut reader = TranscriptReader::new();
/// arbiter_pgn::Reader::new(pgn.as_bytes()).read_game(&mut reader)?;
/// let a = audit_transcript(reader.transcript(), &Options::default());
/// assert_eq!(a.findings[0].kind.name(), "wrong_result");
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn audit_transcript(record: &Transcript, options: &Options) -> Audit {
    audit_by(record, options, Pass::Once)
}

/// [`audit`] the slow way, kept as the reference the fast one is tested
/// against: each move of the record applied to the [`Game`](crate::Game)
/// as an event, the dead-position test (5.2 b / 5.2.2) after each, where
/// [`audit`] plays the line in one pass
/// ([`Game::play_line`](crate::Game::play_line)). Same output.
///
/// ```
/// use arbiter_laws::audit::{audit, audit_move_by_move, Options};
/// let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
/// let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
/// let options = Options::default();
/// assert_eq!(audit(&record, &options), audit_move_by_move(&record, &options));
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn audit_move_by_move(record: &Record, options: &Options) -> Audit {
    audit_by(&Transcript::from_record(record), options, Pass::MoveByMove)
}

thread_local! {
    /// The buffer of the moves' times, kept from one record to the next.
    static TIMES: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

fn audit_by(record: &Transcript, options: &Options, pass: Pass) -> Audit {
    // The edition's Articles, cited by every finding below.
    let a = options.edition.rules().articles;
    let recorded = Recorded::of_transcript(record);
    // The recorded winner, asked below of the replay and of the record.
    let winner = recorded.result.and_then(|r| r.winner());
    let mut out = Audit {
        white: record.white.get().map(str::to_owned),
        black: record.black.get().map(str::to_owned),
        site: record.site.get().map(str::to_owned),
        recorded,
        laws: LawsVerdict::default(),
        plies: record.moves.len() as u32,
        findings: Vec::new(),
    };
    // A wrong move in a variation is the annotator's, not the game's: the
    // Laws judge the main line (Art. 7.5 concerns moves played).
    let main_error = record.error.as_ref().filter(|e| !e.in_variation);
    let broken = main_error.map(|e| {
        let at = match e.ply {
            Some(p) => format!(
                "ply {p}, line {}, column {}",
                e.location.line, e.location.column
            ),
            None => format!("line {}, column {}", e.location.line, e.location.column),
        };
        // A move or a place the Laws judge the record up to.
        let up_to = |what: String| {
            format!(
                "{what} ({at}) cannot be played: {}. The Laws judge the record only up to it.",
                e.kind
            )
        };
        let (kind, article, text) = match &e.kind {
            // Text that is no move in any notation, nor chess text at all
            // (a web page saved as .pgn, a UTF-16 export): the record is
            // unreadable there (8.1), no player's illegal move (7.5).
            GameErrorKind::Move(ReadMoveError::Syntax { text, message, .. })
                if not_chess_text(text, message) =>
            {
                (
                    FindingKind::Unreadable,
                    a.recording,
                    format!(
                        "The record at {} ({at}) is not a move in any notation, nor chess text ({message}): the file is unreadable there, not a player's illegal move. The Laws judge the record only up to it.",
                        arbiter_chess::Excerpt(text)
                    ),
                )
            }
            GameErrorKind::Move(_) => (
                FindingKind::IllegalMove,
                a.illegal_move,
                up_to(e.text.as_ref().map_or("The record".to_owned(), |t| format!("The move {t:?}"))),
            ),
            // Another game than chess (Lichess's Crazyhouse, Atomic…): the
            // Laws have nothing of it to judge. 1.1 in every edition: chess
            // is played on a chessboard with the pieces of Article 2.
            GameErrorKind::Variant(name) => (FindingKind::Unreadable, "1.1", format!(
                "The record is of {name:?} ({at}), not of chess: the Laws of Chess (and the Chess960 rules of their Guidelines) do not judge it."
            )),
            // A start no game can reach (chess.com's odds games: seven
            // knights): an illegal position, from which the Laws judge no game.
            GameErrorKind::Fen(FenError::Position(cause)) if unreachable(cause) => (
                FindingKind::Unreadable,
                a.unreachable_position,
                format!(
                    "The record starts from an illegal position, one that cannot have been reached by any series of legal moves (the FEN tag, {at}: {cause}): the Laws judge no game from it."
                ),
            ),
            // Any other FEN tag: no start, so no move judged.
            GameErrorKind::Fen(fault) => (FindingKind::Unreadable, a.recording, format!(
                "The FEN tag{} ({at}) is not a position to start a game from: {fault}. The Laws judge no move of the record.",
                e.text.as_ref().map_or(String::new(), |t| format!(" {t:?}"))
            )),
            _ => (
                FindingKind::Unreadable,
                a.recording,
                up_to(e.text.as_ref().map_or("The record".to_owned(), |t| format!("The record at {t:?}"))),
            ),
        };
        Finding {
            kind,
            ply: e.ply,
            article,
            text,
            place: Some(Place {
                line: e.location.line,
                column: e.location.column,
            }),
        }
    });
    let mut replay = match Replay::new(record, options.edition) {
        Ok(r) => r,
        Err(message) => {
            out.findings.extend(broken);
            if out.findings.is_empty() {
                out.findings.push(Finding {
                    kind: FindingKind::Unreadable,
                    ply: None,
                    article: a.recording,
                    text: format!("The record cannot start a game: {message}."),
                    place: None,
                });
            }
            return out;
        }
    };
    let mut times = TIMES.with(|t| t.take());
    times::timestamps_into(record, replay.time_control(), &mut times);
    let first = record.start.turn();
    let first_number = record.start.fullmoves();
    match replay.play(record, &times, winner, pass) {
        Played::Refused(ply, message) => {
            // The reader checked every other move: a refused one is the
            // first null move, or a move the Laws refuse for another reason
            // (a player who may not move).
            let null = record
                .null_at
                .as_ref()
                .filter(|_| record.moves.get(ply as usize - 1) == Some(&Node::NULL_MOVE));
            let (written, place) = match null {
                Some((at, text)) => (
                    format!(" ({text}, line {}, column {})", at.line, at.column),
                    Some(Place {
                        line: at.line,
                        column: at.column,
                    }),
                ),
                None => (String::new(), None),
            };
            out.findings.push(Finding {
                kind: FindingKind::IllegalMove,
                ply: Some(ply),
                article: replay.rules().articles.illegal_move,
                text: format!("The Laws refuse the move at ply {ply}{written}: {message}."),
                place,
            });
        }
        Played::All(Some(ply)) => {
            if let Some(end) = replay.end() {
                out.laws = LawsVerdict::ended(end, ply);
                let san = || replay.san_at(record, ply);
                judge_automatic_end(&mut out, san, end, ply, first, first_number);
            }
        }
        Played::All(None) if broken.is_some() => {}
        Played::All(None) => {
            judge_recorded_end(&mut out, &mut replay, record, winner, options.edition);
        }
    }
    replay.recycle();
    let _ = TIMES.try_with(|t| t.replace(times));
    out.findings.extend(broken);
    if record.result.is_none() && main_error.is_none() {
        out.findings.push(Finding {
            kind: FindingKind::Unreadable,
            ply: Some(out.plies),
            article: a.recording,
            text: format!(
                "The movetext ends after ply {} without its result (1-0, 0-1, 1/2-1/2 or *): the record may be cut short. The Laws judge it as far as it goes.",
                out.plies
            ),
            place: None,
        });
    }
    // The record contradicts itself: the Termination tag names by colour a
    // loser the result does not, or the Result tag and the movetext's
    // marker, both results, differ (the tag is judged).
    let recorded = &out.recorded;
    let named = recorded
        .termination
        .as_deref()
        .and_then(RecordedEnd::named_loser);
    let mut contradictions = Vec::new();
    if let (Some(named), Some(winner)) = (named, winner) {
        if named == winner {
            contradictions.push(format!(
                "The {} says {} lost ({:?}), but the result {} says {} won: the record contradicts itself. The Laws' result is compared with the result's.",
                recorded.termination_from,
                color_name(named),
                recorded.termination.as_deref().unwrap_or_default(),
                recorded.result_text,
                color_name(winner)
            ));
        }
    }
    if let (Some(tag), Some(marker)) = (recorded.result, record.result) {
        if GameResult::from_pgn(marker).is_some_and(|m| m != tag) {
            contradictions.push(format!(
                "The Result tag says {} but the movetext ends {}: the record contradicts itself. The Laws' result is compared with the tag's.",
                recorded.result_text,
                marker.as_str()
            ));
        }
    }
    for text in contradictions {
        out.findings.push(Finding {
            kind: FindingKind::Unreadable,
            ply: Some(out.plies),
            article: a.recording,
            text,
            place: None,
        });
    }
    out.findings.sort_by_key(|f| f.ply.unwrap_or(u32::MAX));
    out
}

/// Whether a move's text that no notation reads (`text`, refused for
/// `message`) is no chess text at all: not UTF-8, or starting with a
/// character no move of any notation of Appendix C starts with (a letter
/// or digit, a figurine, `-` of a null move).
fn not_chess_text(text: &str, message: &str) -> bool {
    message.starts_with("not UTF-8")
        || text.chars().next().is_some_and(|c| {
            !(c.is_alphanumeric() || c == '-' || ('\u{2654}'..='\u{265f}').contains(&c))
        })
}

/// The Laws ended the game at `ply` on the board: did the record go on, or
/// give another result?
fn judge_automatic_end(
    out: &mut Audit,
    san: impl FnOnce() -> Option<String>,
    end: LawsEnd,
    ply: u32,
    first: Color,
    first_number: u32,
) {
    let how = termination_words(end.termination);
    let result = end.result.to_string();
    let recorded = out.recorded.result_text.clone();
    if ply < out.plies {
        let at = if ply == 0 {
            "before any move".to_owned()
        } else {
            format!("at {}", ply_text(ply, first, first_number, san()))
        };
        let more = out.plies - ply;
        out.findings.push(Finding {
            kind: FindingKind::PlayedOn,
            ply: Some(ply),
            article: end.article,
            text: format!(
                "The game ended {at} by {how} (Art. {}); the record goes on for {more} more {}. The result is {result}{}.",
                end.article,
                if more == 1 { "ply" } else { "plies" },
                if out.recorded.result == Some(end.result) {
                    String::new()
                } else {
                    format!(", not the recorded {recorded}")
                }
            ),
            place: None,
        });
    } else if out.recorded.result != Some(end.result) {
        out.findings.push(Finding {
            kind: FindingKind::WrongResult,
            ply: Some(ply),
            article: end.article,
            text: format!(
                "The final position is {how} (Art. {}): the result is {result}, not the recorded {recorded}.",
                end.article
            ),
            place: None,
        });
    }
}

/// The record ends with the game still on the board: judge its end off the
/// board (a flag, a claim, a resignation, an agreement, a forfeit) as the
/// record gives it; `winner` is the recorded result's.
fn judge_recorded_end(
    out: &mut Audit,
    replay: &mut Replay,
    record: &Transcript,
    winner: Option<Color>,
    edition: Edition,
) {
    let rules = edition.rules();
    let a = rules.articles;
    let recorded = out.recorded.result;
    let recorded_text = out.recorded.result_text.clone();
    let tag = out.recorded.termination.clone().unwrap_or_default();
    let from = out.recorded.termination_from;
    let plies = out.plies;
    let unfounded = |out: &mut Audit, article: &'static str, what: &str, or: &str| {
        out.findings.push(Finding {
            kind: FindingKind::UnfoundedTermination,
            ply: Some(plies),
            article,
            text: format!(
                "The {from} says {tag:?}, but {what} (Art. {article}); the result {recorded_text} is left as recorded, as an agreement may explain it{or}."
            ),
            place: None,
        });
    };
    let end = match out.recorded.end {
        RecordedEnd::TimeForfeit => {
            let loser = match winner {
                Some(w) => Some(!w),
                // A drawn flag fall: the player it names ("White ran out of
                // time and Black has no material to mate", as FICS writes
                // it), else the player having the move.
                None if recorded == Some(GameResult::DRAW) => {
                    Some(RecordedEnd::named_loser(&tag).unwrap_or(replay.turn()))
                }
                None => None,
            };
            loser.map(|l| {
                let (end, flagged) = replay.flag(l);
                (end, l, flagged)
            })
        }
        _ => None,
    };
    let before_last = if out.recorded.end == RecordedEnd::BothFlags {
        replay.before_last_period()
    } else {
        None
    };
    if let Some((player, to_go)) = before_last {
        // Both flags down in a period before the last: the game goes on
        // (6.11 a; III.3.1). The record ends there all the same: its result
        // stands as an agreement or a resignation may explain it (below).
        unfounded(
            out,
            a.both_flags,
            &format!(
                "{} had still {to_go} {} to complete in a period before the last, and when both flags fall in such a period the game goes on",
                color_name(player),
                if to_go == 1 { "move" } else { "moves" }
            ),
            "",
        );
    } else if out.recorded.end == RecordedEnd::BothFlags {
        // Which flag fell first cannot be established from the record:
        // drawn (in the last period, or with no clock to tell: the record
        // ends there).
        let end = LawsEnd {
            result: GameResult::DRAW,
            termination: Termination::BothFlags,
            article: a.both_flags,
        };
        out.laws = LawsVerdict::ended(end, plies);
        if recorded != Some(GameResult::DRAW) {
            out.findings.push(Finding {
                kind: FindingKind::WrongResult,
                ply: Some(plies),
                article: a.both_flags,
                text: format!(
                    "The {from} says both flags fell ({tag:?}); which fell first cannot be established from the record, so the game is drawn (Art. {}), not {recorded_text}.",
                    a.both_flags
                ),
                place: None,
            });
        }
        return;
    }
    if let Some((end, loser, flagged)) = end {
        out.laws = LawsVerdict::ended(end, plies);
        if Some(end.result) != recorded {
            let winner = !loser;
            let (kind, text) = if flagged != loser {
                // The record's clocks show the claimant's own flag down
                // first.
                (
                    FindingKind::WrongResult,
                    format!(
                        "The record scores {}'s flag fall ({recorded_text}), but by the record's clocks {}'s flag fell first: {} (Art. {}).",
                        color_name(loser),
                        color_name(flagged),
                        end.result,
                        end.article
                    ),
                )
            } else if end.termination == Termination::TimeoutDraw {
                (
                    FindingKind::TimeoutDraw,
                    format!(
                        "{} lost on time by the record ({recorded_text}), but {} cannot checkmate by any series of legal moves in the final position ({}): the game is drawn (Art. {}).",
                        color_name(loser),
                        color_name(winner),
                        replay.position().fen(),
                        end.article
                    ),
                )
            } else if end.result.winner() == Some(winner) {
                (
                    FindingKind::TimeoutWin,
                    format!(
                        "The record scores {}'s flag fall as a draw ({recorded_text}), but {} can checkmate by a series of legal moves in the final position ({}): {} wins, {} (Art. {}).",
                        color_name(loser),
                        color_name(winner),
                        replay.position().fen(),
                        color_name(winner),
                        end.result,
                        end.article
                    ),
                )
            } else {
                (
                    FindingKind::WrongResult,
                    format!(
                        "The record scores {}'s flag fall ({recorded_text}); the Laws give {} (Art. {}).",
                        color_name(loser),
                        end.result,
                        end.article
                    ),
                )
            };
            out.findings.push(Finding {
                kind,
                ply: Some(plies),
                article: end.article,
                text,
                place: None,
            });
        }
        return;
    }
    // Claims and ends on the board that the record names: did they happen?
    let claimed = match out.recorded.end {
        RecordedEnd::Repetition => Some((ClaimKind::Threefold, a.threefold_current)),
        RecordedEnd::FiftyMoves => Some((ClaimKind::Fifty, a.fifty_current)),
        _ => None,
    };
    if let Some((kind, article)) = claimed {
        if let Some(end) = replay.claim(kind) {
            out.laws = LawsVerdict::ended(end, plies);
            if Some(end.result) != recorded {
                out.findings.push(Finding {
                    kind: FindingKind::WrongResult,
                    ply: Some(plies),
                    article: end.article,
                    text: format!(
                        "The draw claimed ({tag:?}) is correct (Art. {}): the result is 1/2-1/2, not the recorded {recorded_text}.",
                        end.article
                    ),
                    place: None,
                });
            }
            return;
        }
        let what = if kind == ClaimKind::Threefold {
            // A position that had appeared for the third time earlier: the
            // claim was correct then (9.2 b), not once the game went on.
            let earlier = match last_threefold(record, plies) {
                Some(p) => {
                    let (first, number) = (record.start.turn(), record.start.fullmoves());
                    format!(
                        " (the position after {} had appeared for the third time: a claim then, by the player having the move, would have been correct, but the game went on)",
                        ply_text(p, first, number, replay.san_at(record, p))
                    )
                }
                None => String::new(),
            };
            format!("the position on the board has not appeared for the third time, nor would it by a move the player having the move could write as intended{earlier}")
        } else {
            "the last 50 moves by each player were not all without a pawn move or a capture"
                .to_owned()
        };
        unfounded(out, article, &what, "");
    }
    let on_board = match out.recorded.end {
        RecordedEnd::Checkmate => Some((a.checkmate, "the final position is not checkmate")),
        RecordedEnd::Stalemate => Some((a.stalemate, "the final position is not stalemate")),
        RecordedEnd::DeadPosition => Some((
            a.dead_position,
            "the final position is not dead: a player can still checkmate by a series of legal moves",
        )),
        RecordedEnd::Fivefold => Some((a.fivefold, "no position was repeated five times as the Laws require")),
        RecordedEnd::SeventyFiveMoves => Some((
            a.seventyfive,
            "the last 75 moves by each player were not all without a pawn move or a capture",
        )),
        _ => None,
    };
    if let Some((article, what)) = on_board {
        // A draw "by insufficient material" in a live position is also what
        // a flag fall gives when the other player cannot mate (older
        // chess.com records say no more): the player having the move is the
        // one whose clock ran. Said when material alone proves it (a lone
        // king, as in those records), not asked of the exact solver: a
        // sentence of the finding, not a verdict, is not worth its cost.
        let mover = replay.turn();
        let or = if out.recorded.end == RecordedEnd::DeadPosition
            && recorded == Some(GameResult::DRAW)
            && replay.position().cannot_mate_by_material(!mover)
        {
            let (flagged, other) = (color_name(mover), color_name(!mover));
            format!(
                ", or {flagged}'s flag fall: {flagged} has the move, and {other} cannot checkmate by any series of legal moves (Art. {})",
                a.flag_fall
            )
        } else {
            String::new()
        };
        unfounded(out, article, what, &or);
    }
    // The rest is off the board: a resignation, an agreement, a forfeit, an
    // illegal move not recorded.
    let end = match winner {
        Some(w) if out.recorded.end == RecordedEnd::Forfeit => {
            replay.forfeit(!w, &format!("recorded: {tag}"))
        }
        Some(w) if out.recorded.end == RecordedEnd::IllegalMove => Some(replay.illegal_move(!w)),
        Some(w) => replay.resign(!w),
        None if recorded == Some(GameResult::DRAW) => match replay.agree() {
            Some(end) => Some(end),
            None => {
                out.findings.push(Finding {
                    kind: FindingKind::WrongResult,
                    ply: Some(plies),
                    article: a.agreement,
                    text: format!(
                        "A draw by agreement needs both players to have made at least one move (Art. {}): the record's draw cannot stand.",
                        a.agreement
                    ),
                    place: None,
                });
                None
            }
        },
        None => None,
    };
    let Some(end) = end else {
        return;
    };
    out.laws = LawsVerdict::ended(end, plies);
    if Some(end.result) != recorded {
        // The opponent of the player who resigned or forfeited: the
        // recorded winner, whoever has the move.
        let cannot_mate = winner.is_some_and(|w| replay.can_checkmate(w) == Verdict::Unwinnable);
        let note = if cannot_mate {
            " since the opponent cannot checkmate by any series of legal moves"
        } else {
            ""
        };
        out.findings.push(Finding {
            kind: FindingKind::WrongResult,
            ply: Some(plies),
            article: end.article,
            text: format!(
                "By {} the result is {}{note} (Art. {}), not the recorded {recorded_text}.",
                termination_words(end.termination),
                end.result,
                end.article
            ),
            place: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::unreachable;
    use arbiter_chess::{Color, PositionError, Square};

    #[test]
    fn only_faults_of_the_board_make_an_illegal_position() {
        // Art. 3.10 c / 3.10.3: a board no series of legal moves reaches.
        for cause in [
            PositionError::MissingKing(Color::White),
            PositionError::ImpossibleMaterial(Color::Black, 8, 5),
            PositionError::PawnOnBackrank(Square::A1),
            PositionError::OppositeCheck(Color::Black),
        ] {
            assert!(unreachable(&cause), "{cause}");
        }
        // A field at odds with its own board (the reader drops the first two
        // and reads a move number 0 as 1, so none reaches the audit today):
        // a record fault (8.1 a / 8.1.1), not a position.
        for cause in [
            PositionError::InvalidCastlingRight {
                square: Square::H1,
                reason: "no rook of that colour stands there",
            },
            PositionError::InvalidEnPassant {
                square: Square::E4,
                reason: "with Black to move it must be on rank 3",
            },
            PositionError::InvalidFullmoves,
        ] {
            assert!(!unreachable(&cause), "{cause}");
        }
    }
}
