//! What the audit finds: each finding with its ply, its Article and a
//! sentence an arbiter can paste into a report.

use serde::Serialize;

/// The kinds of finding.
///
/// ```
/// use arbiter_laws::audit::FindingKind;
/// assert_eq!(FindingKind::TimeoutDraw.name(), "timeout_draw");
/// assert!(FindingKind::TimeoutDraw.changes_result());
/// assert!(!FindingKind::UnfoundedTermination.changes_result());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// The game went on after the Laws had ended it (checkmate 5.1 a,
    /// stalemate 5.2 a, dead position 5.2 b, fivefold repetition 9.6 a, the
    /// 75-move rule 9.6 b — per edition): the result is the one at that ply.
    PlayedOn,
    /// A loss on time where the winner could not checkmate by any series of
    /// legal moves: a draw (6.9).
    TimeoutDraw,
    /// A time-out scored as a draw although the opponent could checkmate:
    /// he wins (6.9).
    TimeoutWin,
    /// A result the final position contradicts (a mate scored as a draw or
    /// for the mated side, a stalemate or dead position scored as a win), or
    /// an end off the board the edition scores otherwise (2023 5.1.2).
    WrongResult,
    /// A termination that did not happen ("repetition" with no threefold
    /// repetition, "50 moves" without them, "checkmate" with no mate): the
    /// result is left as recorded, since agreement may explain it.
    UnfoundedTermination,
    /// A move of the record is not legal (or cannot be read as a move).
    IllegalMove,
    /// The record cannot be read (PGN syntax, the FEN or Variant tag).
    Unreadable,
}

impl FindingKind {
    /// All kinds, in the order of the summary.
    pub const ALL: [FindingKind; 7] = [
        FindingKind::PlayedOn,
        FindingKind::TimeoutDraw,
        FindingKind::TimeoutWin,
        FindingKind::WrongResult,
        FindingKind::UnfoundedTermination,
        FindingKind::IllegalMove,
        FindingKind::Unreadable,
    ];

    /// The snake_case name used in the JSON.
    pub const fn name(self) -> &'static str {
        match self {
            FindingKind::PlayedOn => "played_on",
            FindingKind::TimeoutDraw => "timeout_draw",
            FindingKind::TimeoutWin => "timeout_win",
            FindingKind::WrongResult => "wrong_result",
            FindingKind::UnfoundedTermination => "unfounded_termination",
            FindingKind::IllegalMove => "illegal_move",
            FindingKind::Unreadable => "unreadable",
        }
    }

    /// Whether a finding of this kind means the Laws' result is not the
    /// recorded one (or cannot be known, for a broken record).
    pub const fn changes_result(self) -> bool {
        !matches!(self, FindingKind::UnfoundedTermination)
    }
}

/// Where in the input a finding points (for broken records).
///
/// ```
/// use arbiter_laws::audit::{audit, FindingKind, Options, Place};
/// let pgn = "[White \"A\"]\n\n1. e4 e5 2. Ke3 1-0\n";
/// let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
/// let finding = &audit(&record, &Options::default()).findings[0];
/// assert_eq!(finding.kind, FindingKind::IllegalMove);
/// assert_eq!(finding.place, Some(Place { line: 3, column: 13 }));
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Place {
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
}

/// One finding.
///
/// ```
/// use arbiter_laws::audit::{Finding, FindingKind};
/// let f = Finding {
///     kind: FindingKind::TimeoutDraw,
///     ply: Some(80),
///     article: "6.9",
///     text: "…".into(),
///     place: None,
/// };
/// assert_eq!(f.kind.name(), "timeout_draw");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// What was found.
    pub kind: FindingKind,
    /// The ply it concerns (1 = the first move of the record), if any.
    pub ply: Option<u32>,
    /// The Article of the edition in force.
    pub article: &'static str,
    /// A sentence for the arbiter's report.
    pub text: String,
    /// Where in the input, for a broken record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<Place>,
}
