//! The stored side of events (issue 15; Swiss and round-robin tournaments,
//! `crate::event`): the event, its registrations, its paired rounds and
//! their boards (games and byes), and the half-point byes requested in
//! advance. The tables are named `tournament*` (the game log's table is
//! already `events`).
//!
//! Written once for both databases, like [`super::account`] (`$1`, `$2` …
//! each first used in order: SQLite numbers them so); every write
//! is a plain statement ([`statements`]); every read is one `SELECT` run by
//! the backend's [`super::Backend::select`] and read here.
//!
//! Pairing a round is idempotent: its row in `tournament_rounds` is keyed
//! by (event, round), so a second pairing of the same round fails as a
//! whole (its games with it) and the first stands.

use super::account::Arg;
use super::StoreError;

/// An event (a tournament).
///
/// ```
/// use arbiter_server::store::tournament::TournamentRow;
/// let t = TournamentRow { id: "abcdefgh".into(), organiser: "anna".into(), name: "Club".into(),
///     created_at: 1, start_at: 2, status: "registration".into(), settings: "{}".into() };
/// assert_eq!(t.status, "registration");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// 8 characters `[A-Za-z0-9]`.
    pub id: String,
    /// The organiser (the event's arbiter), a user id.
    pub organiser: String,
    /// Its name.
    pub name: String,
    /// Epoch ms.
    pub created_at: u64,
    /// The scheduled start, epoch ms.
    pub start_at: u64,
    /// `registration`, `running`, `finished`.
    pub status: String,
    /// The settings, JSON (`event::model::Settings`).
    pub settings: String,
}

/// A registered player.
///
/// ```
/// use arbiter_server::store::tournament::PlayerRow;
/// let p = PlayerRow { tournament_id: "abcdefgh".into(), user_id: "anna".into(), no: 1,
///     name: "Anna".into(), rating: 1500, withdrawn: false, registered_at: 3 };
/// assert!(!p.withdrawn);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// The event.
    pub tournament_id: String,
    /// The account.
    pub user_id: String,
    /// The registration number until the start; from the start, the
    /// pairing number (starting rank, C.04.2 A.2).
    pub no: u16,
    /// The name shown (the account's).
    pub name: String,
    /// The rating at registration (0: unrated).
    pub rating: u16,
    /// Withdrawn: paired no more.
    pub withdrawn: bool,
    /// Epoch ms.
    pub registered_at: u64,
}

/// A board of a paired round: a game (`black` set) or a bye.
///
/// ```
/// use arbiter_server::store::tournament::BoardRow;
/// let b = BoardRow { round: 1, board: 1, white: 1, black: Some(4), game_id: Some("gameid01".into()), result: String::new(), short: false };
/// assert!(b.result.is_empty()); // pending
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRow {
    /// The round, from 1.
    pub round: u16,
    /// The board, from 1 (byes after the games).
    pub board: u16,
    /// White's pairing number (the player with the bye, for a bye).
    pub white: u16,
    /// Black's pairing number; `None` for a bye.
    pub black: Option<u16>,
    /// The server game, if one is played.
    pub game_id: Option<String>,
    /// Empty while pending; a game's `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`,
    /// `--`; a bye's `U` (pairing-allocated), `H` (half point), `Z` (zero).
    pub result: String,
    /// The board's game ended before both players had made a move: its
    /// result stands but is not rated (B.02 5.1; TRF `W`, `D`, `L`). Read
    /// from the game when loaded, never written.
    pub short: bool,
}

/// An event as loaded: its row, players (by number), boards (by round
/// and board) and the byes requested, as (account, round).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedTournament {
    /// The row.
    pub row: TournamentRow,
    /// Its players, by number.
    pub players: Vec<PlayerRow>,
    /// Its boards.
    pub boards: Vec<BoardRow>,
    /// Requested half-point byes: (account, round).
    pub byes: Vec<(String, u16)>,
    /// The rounds paired: (round, epoch ms of the pairing).
    pub rounds: Vec<(u16, u64)>,
}

/// A write of an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// A new event, unless its organiser has `max_open` unfinished events
    /// already (then nothing is written; the caller reads back). The count
    /// and the insert are one statement of the writer's transaction, and on
    /// PostgreSQL that transaction first takes the organiser's lock
    /// (an advisory lock of its own), so creates from several nodes at once are
    /// counted one after another too.
    Create {
        /// The event.
        row: TournamentRow,
        /// Most unfinished events of its organiser.
        max_open: u32,
    },
    /// Its status changes.
    SetStatus {
        /// The event.
        id: String,
        /// The new status.
        status: String,
    },
    /// A player registers, numbered after the last, unless `max` are
    /// registered already (then nothing is written; the caller reads back).
    Register {
        /// The player (its `no` is assigned by the database).
        player: PlayerRow,
        /// Most players of the event.
        max: u32,
    },
    /// A player withdraws (or comes back).
    SetWithdrawn {
        /// The event.
        id: String,
        /// The account.
        user_id: String,
        /// Withdrawn.
        withdrawn: bool,
    },
    /// The pairing numbers fixed at the start: (account, number).
    Number {
        /// The event.
        id: String,
        /// Every player's number.
        numbers: Vec<(String, u16)>,
    },
    /// A round is paired, once: its boards (their games are created in the
    /// same transaction, before this).
    Pair {
        /// The event.
        id: String,
        /// The round.
        round: u16,
        /// Epoch ms.
        at: u64,
        /// The boards.
        boards: Vec<BoardRow>,
    },
    /// The organiser enters or corrects a board's result.
    SetResult {
        /// The event.
        id: String,
        /// The round.
        round: u16,
        /// The board.
        board: u16,
        /// The result code.
        result: String,
    },
    /// An event's game ended (written by the game, in the transaction of
    /// its end): its board's result, unless one was entered already.
    GameEnded {
        /// The game.
        game_id: String,
        /// The result code.
        result: String,
    },
    /// A registration is cancelled (before the start).
    Unregister {
        /// The event.
        id: String,
        /// The account.
        user_id: String,
    },
    /// A half-point bye requested for a round.
    RequestBye {
        /// The event.
        id: String,
        /// The player's account.
        user_id: String,
        /// The round.
        round: u16,
    },
}

/// A value read by [`super::Backend::select`].
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// SQL NULL.
    Null,
    /// An integer.
    Int(i64),
    /// A float.
    Real(f64),
    /// Text.
    Text(String),
}

fn bad(what: &str) -> StoreError {
    StoreError::Database(format!("stored event data: {what} does not read back"))
}

fn text(row: &[Cell], i: usize) -> Result<String, StoreError> {
    match row.get(i) {
        Some(Cell::Text(s)) => Ok(s.clone()),
        _ => Err(bad("a text column")),
    }
}

fn opt_text(row: &[Cell], i: usize) -> Result<Option<String>, StoreError> {
    match row.get(i) {
        Some(Cell::Null) => Ok(None),
        _ => text(row, i).map(Some),
    }
}

fn int(row: &[Cell], i: usize) -> Result<i64, StoreError> {
    match row.get(i) {
        Some(Cell::Int(v)) => Ok(*v),
        _ => Err(bad("an integer column")),
    }
}

fn small(row: &[Cell], i: usize) -> Result<u16, StoreError> {
    u16::try_from(int(row, i)?).map_err(|_| bad("a number"))
}

/// The columns of `tournaments`, in the order read.
const TOURNAMENT_COLUMNS: &str = "id, organiser, name, created_at, start_at, status, settings";

fn tournament_row(r: &[Cell]) -> Result<TournamentRow, StoreError> {
    Ok(TournamentRow {
        id: text(r, 0)?,
        organiser: text(r, 1)?,
        name: text(r, 2)?,
        created_at: int(r, 3)? as u64,
        start_at: int(r, 4)? as u64,
        status: text(r, 5)?,
        settings: text(r, 6)?,
    })
}

/// What a backend can run: one `SELECT` with `$n` parameters.
pub trait Select {
    /// Every row of `sql` with `args`.
    fn select(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Vec<Cell>>, StoreError>;
}

impl<B: super::Backend + ?Sized> Select for B {
    fn select(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Vec<Cell>>, StoreError> {
        super::Backend::select(self, sql, args)
    }
}

/// An event with everything it holds.
pub fn load(
    b: &mut (impl Select + ?Sized),
    id: &str,
) -> Result<Option<LoadedTournament>, StoreError> {
    let rows = b.select(
        &format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1"),
        &[Arg::Text(id)],
    )?;
    let Some(row) = rows.first() else {
        return Ok(None);
    };
    let row = tournament_row(row)?;
    let players = b
        .select(
            "SELECT tournament_id, user_id, no, name, rating, withdrawn, registered_at
             FROM tournament_players WHERE tournament_id = $1 ORDER BY no, registered_at",
            &[Arg::Text(id)],
        )?
        .iter()
        .map(|r| {
            Ok(PlayerRow {
                tournament_id: text(r, 0)?,
                user_id: text(r, 1)?,
                no: small(r, 2)?,
                name: text(r, 3)?,
                rating: small(r, 4)?,
                withdrawn: int(r, 5)? != 0,
                registered_at: int(r, 6)? as u64,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let boards = b
        .select(
            // A finished game's row has its final ply (rewritten at the
            // end); a running one's may lag, so it is never read as short.
            "SELECT tb.round, tb.board, tb.white, tb.black, tb.game_id, tb.result,
                    CASE WHEN g.status = 'finished' AND g.ply < 2 THEN 1 ELSE 0 END
             FROM tournament_boards tb LEFT JOIN games g ON g.id = tb.game_id
             WHERE tb.tournament_id = $1 ORDER BY tb.round, tb.board",
            &[Arg::Text(id)],
        )?
        .iter()
        .map(|r| {
            Ok(BoardRow {
                round: small(r, 0)?,
                board: small(r, 1)?,
                white: small(r, 2)?,
                black: match r.get(3) {
                    Some(Cell::Null) => None,
                    _ => Some(small(r, 3)?),
                },
                game_id: opt_text(r, 4)?,
                result: text(r, 5)?,
                short: int(r, 6)? != 0,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let byes = b
        .select(
            "SELECT user_id, round FROM tournament_byes WHERE tournament_id = $1 ORDER BY round, user_id",
            &[Arg::Text(id)],
        )?
        .iter()
        .map(|r| Ok((text(r, 0)?, small(r, 1)?)))
        .collect::<Result<Vec<_>, StoreError>>()?;
    let rounds = b
        .select(
            "SELECT round, paired_at FROM tournament_rounds WHERE tournament_id = $1 ORDER BY round",
            &[Arg::Text(id)],
        )?
        .iter()
        .map(|r| Ok((small(r, 0)?, int(r, 1)? as u64)))
        .collect::<Result<Vec<_>, StoreError>>()?;
    Ok(Some(LoadedTournament {
        row,
        players,
        boards,
        byes,
        rounds,
    }))
}

/// A line of the list of events: the row, its players and rounds paired.
pub type Listed = (TournamentRow, u32, u16);

/// The newest `limit` events.
pub fn list(b: &mut (impl Select + ?Sized), limit: u32) -> Result<Vec<Listed>, StoreError> {
    b.select(
        &format!(
            "SELECT {TOURNAMENT_COLUMNS},
               (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id),
               (SELECT COUNT(*) FROM tournament_rounds r WHERE r.tournament_id = t.id)
             FROM tournaments t ORDER BY created_at DESC, id LIMIT $1"
        ),
        &[Arg::Int(i64::from(limit))],
    )?
    .iter()
    .map(|r| Ok((tournament_row(r)?, int(r, 7)? as u32, small(r, 8)?)))
    .collect()
}

/// Ids of the events not finished (the scheduler's).
pub fn unfinished(b: &mut (impl Select + ?Sized)) -> Result<Vec<String>, StoreError> {
    b.select(
        "SELECT id FROM tournaments WHERE status != 'finished' ORDER BY created_at",
        &[],
    )?
    .iter()
    .map(|r| text(r, 0))
    .collect()
}

/// The players' ratings now in a time class: (account, rating).
pub fn ratings_now(
    b: &mut (impl Select + ?Sized),
    id: &str,
    class: &str,
) -> Result<Vec<(String, f64)>, StoreError> {
    b.select(
        "SELECT r.user_id, r.rating FROM ratings r
         JOIN tournament_players p ON p.user_id = r.user_id
         WHERE p.tournament_id = $1 AND r.time_class = $2",
        &[Arg::Text(id), Arg::Text(class)],
    )?
    .iter()
    .map(|r| match r.get(1) {
        Some(Cell::Real(v)) => Ok((text(r, 0)?, *v)),
        _ => Err(bad("a rating")),
    })
    .collect()
}

/// Events of an organiser not finished.
pub fn open_by(b: &mut (impl Select + ?Sized), organiser: &str) -> Result<u32, StoreError> {
    let rows = b.select(
        "SELECT COUNT(*) FROM tournaments WHERE organiser = $1 AND status != 'finished'",
        &[Arg::Text(organiser)],
    )?;
    Ok(rows.first().map(|r| int(r, 0)).transpose()?.unwrap_or(0) as u32)
}

/// The organisers whose events `ops` create, sorted, each once: on
/// PostgreSQL the writer's transaction locks each
/// ([`ORGANISER_LOCK_SPACE`]) before anything else, in this order.
pub(crate) fn creating_organisers(ops: &[super::WriteOp]) -> Vec<&str> {
    let mut v: Vec<&str> = ops
        .iter()
        .filter_map(|op| match op {
            super::WriteOp::Tournament(Op::Create { row, .. }) => Some(row.organiser.as_str()),
            _ => None,
        })
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The first key of an organiser's advisory lock on PostgreSQL (`"Evnt"`);
/// the second is `hashtext(organiser)`.
pub(crate) const ORGANISER_LOCK_SPACE: i32 = 0x4576_6e74;

/// The statements of a write, in order (SQL in `$n` form for both
/// dialects, and their parameters).
pub(crate) fn statements(op: &Op) -> Vec<(&'static str, Vec<Arg<'_>>)> {
    use Arg::{Int, Text};
    let t = |v: u64| Int(v as i64);
    let n = |v: u16| Int(i64::from(v));
    match op {
        Op::Create { row: r, max_open } => vec![(
            "INSERT INTO tournaments (id, organiser, name, created_at, start_at, status, settings)
             SELECT $1, $2, $3, CAST($4 AS BIGINT), CAST($5 AS BIGINT), $6, $7
             WHERE (SELECT COUNT(*) FROM tournaments
                    WHERE organiser = $2 AND status != 'finished') < CAST($8 AS BIGINT)",
            vec![
                Text(&r.id),
                Text(&r.organiser),
                Text(&r.name),
                t(r.created_at),
                t(r.start_at),
                Text(&r.status),
                Text(&r.settings),
                Int(i64::from(*max_open)),
            ],
        )],
        Op::SetStatus { id, status } => vec![(
            "UPDATE tournaments SET status = $1 WHERE id = $2",
            vec![Text(status), Text(id)],
        )],
        Op::Register { player: p, max } => vec![(
            "INSERT INTO tournament_players
               (tournament_id, user_id, no, name, rating, withdrawn, registered_at)
             SELECT $1, $2, COALESCE(MAX(no), 0) + 1, $3, CAST($4 AS BIGINT), 0, CAST($5 AS BIGINT)
             FROM tournament_players WHERE tournament_id = $1
             HAVING COUNT(*) < CAST($6 AS BIGINT)",
            vec![
                Text(&p.tournament_id),
                Text(&p.user_id),
                Text(&p.name),
                n(p.rating),
                t(p.registered_at),
                Int(i64::from(*max)),
            ],
        )],
        Op::Unregister { id, user_id } => vec![
            (
                "DELETE FROM tournament_byes WHERE tournament_id = $1 AND user_id = $2",
                vec![Text(id), Text(user_id)],
            ),
            (
                "DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2",
                vec![Text(id), Text(user_id)],
            ),
        ],
        Op::SetWithdrawn {
            id,
            user_id,
            withdrawn,
        } => vec![(
            "UPDATE tournament_players SET withdrawn = $1 WHERE tournament_id = $2 AND user_id = $3",
            vec![Int(i64::from(*withdrawn)), Text(id), Text(user_id)],
        )],
        Op::Number { id, numbers } => numbers
            .iter()
            .map(|(user, no)| {
                (
                    "UPDATE tournament_players SET no = $1 WHERE tournament_id = $2 AND user_id = $3",
                    vec![n(*no), Text(id), Text(user)],
                )
            })
            .collect(),
        Op::Pair {
            id,
            round,
            at,
            boards,
        } => {
            let mut v = vec![(
                "INSERT INTO tournament_rounds (tournament_id, round, paired_at) VALUES ($1, $2, $3)",
                vec![Text(id), n(*round), t(*at)],
            )];
            for b in boards {
                v.push((
                    "INSERT INTO tournament_boards
                       (tournament_id, round, board, white, black, game_id, result)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    vec![
                        Text(id),
                        n(b.round),
                        n(b.board),
                        n(b.white),
                        b.black.map_or(Arg::NullInt, n),
                        b.game_id.as_deref().map_or(Arg::NullText, Text),
                        Text(&b.result),
                    ],
                ));
            }
            v
        }
        Op::SetResult {
            id,
            round,
            board,
            result,
        } => vec![(
            "UPDATE tournament_boards SET result = $1
             WHERE tournament_id = $2 AND round = $3 AND board = $4",
            vec![Text(result), Text(id), n(*round), n(*board)],
        )],
        Op::GameEnded { game_id, result } => vec![(
            "UPDATE tournament_boards SET result = $1 WHERE game_id = $2 AND result = ''",
            vec![Text(result), Text(game_id)],
        )],
        Op::RequestBye { id, user_id, round } => vec![(
            "INSERT INTO tournament_byes (tournament_id, user_id, round) VALUES ($1, $2, $3)
             ON CONFLICT (tournament_id, user_id, round) DO NOTHING",
            vec![Text(id), Text(user_id), n(*round)],
        )],
    }
}
