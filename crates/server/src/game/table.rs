//! The board an arbiter watches: a Laws [`Game`] plus what the wire needs
//! beside it (move records with clock readings, the touched square). Every
//! rule — legality, SAN, check, clocks, flag fall, claims, results and the
//! Article — comes from `arbiter-laws`; this module only translates.

use super::settings::Settings;
use crate::notation;
use crate::protocol::{
    Clocks, LastMove, LegalMove, Live, MoveRecord, MovesToControl, Status, Termination, Variant,
    WireClaim,
};
use arbiter_chess::{Color, Move, Position, Square};
use arbiter_laws::{
    Action, Applied, ClaimKind, Decision, Delay, DelayKind, Event, Game, Rejected, Start,
};
use arbiter_pgn::TimeControl;

/// A game's board and clock as the Laws keep them, plus wire records.
#[derive(Clone, Debug)]
pub struct Table {
    laws: Game,
    variant: Variant,
    records: Vec<MoveRecord>,
    touched: Option<Square>,
    /// Who acted to end the game (resigned, claimed, flagged), for `Termination.by`.
    ended_by: Option<Color>,
}

/// An action refused: the protocol's error code (§4.7) and an English message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Error code.
    pub code: &'static str,
    /// Message.
    pub message: String,
}

impl Refusal {
    /// A refusal.
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }
}

/// The protocol code (§4.7) for a Laws rejection of `action`: every
/// rejection by name, so a new one is a compile error here, not a silent
/// `bad_message`.
fn refusal(r: Rejected, claim: bool) -> Refusal {
    let code = match &r {
        Rejected::GameOver(_) => "game_not_active",
        Rejected::NotYourMove { .. } if claim => "claim_not_your_move",
        Rejected::NotYourMove { .. } => "not_your_turn",
        Rejected::UnreadableMove { .. } | Rejected::NotLegal { .. } => "illegal_move",
        Rejected::TouchMove { .. } => "touch_move_violation",
        Rejected::TouchMoveOff => "touch_move_off",
        Rejected::UnreadableSquare { .. } => "bad_square",
        Rejected::NoOffer(_) => "no_draw_offer",
        Rejected::AgreementTooEarly(_) => "draw_not_allowed",
        Rejected::ClaimNotOnMove { .. } => "claim_not_your_move",
        Rejected::ClaimAfterTouch => "claim_after_touch",
        Rejected::NoClock => "no_clock",
        Rejected::FlagNotFallen { .. } => "flag_not_fallen",
        Rejected::NoFlagFallen
        | Rejected::NoIllegalMoveWaiting
        | Rejected::NoIllegalMoveToClaim
        | Rejected::NoQuickplayWaiting
        | Rejected::ExtraTimeNotPostponed => "nothing_pending",
        Rejected::Quickplay { .. } | Rejected::QuickplayAlreadyWaiting => {
            "quickplay_not_applicable"
        }
        Rejected::Touch(_) | Rejected::TouchWhileIllegalPending => "touch_move_violation",
        // What the server itself gets wrong (its events' time, actor or
        // fields, events only an over-the-board record or an arbiter
        // sends), never a player's doing.
        Rejected::TimeGoesBack { .. }
        | Rejected::NoPlayer
        | Rejected::NotAQuickplayDecision
        | Rejected::UnreadableIllegalMove { .. }
        | Rejected::NoPieceToMove { .. }
        | Rejected::OwnPieceCaptured { .. }
        | Rejected::NotIllegal { .. }
        | Rejected::IllegalMoveAlreadyWaiting
        | Rejected::IllegalMoveCannotStand
        | Rejected::AddTimeIncomplete
        | Rejected::ForfeitWithoutPlayer
        | Rejected::Refused { .. } => "internal",
    };
    Refusal::new(code, r.to_string())
}

/// Termination `by` (§4.4: who resigned, claimed, flagged, or made the
/// illegal move) of an action that ended the game: the running side for a
/// flag; nobody when the action made a move and the move ended the game (the
/// intended move of a rejected claim, Art. 9.5, that mates, stalemates or
/// leaves a dead position: a game ended by a move, as without the claim);
/// else the actor.
fn ended_by(
    is_flag: bool,
    moved: bool,
    running: Option<Color>,
    by: Option<Color>,
) -> Option<Color> {
    if is_flag {
        running
    } else if moved {
        None
    } else {
        by
    }
}

/// The Laws `Start` for `settings`.
pub fn start_of(settings: &Settings) -> Start {
    Start {
        fen: settings.fen.clone(),
        chess960: match settings.variant {
            Variant::Chess960 => settings.chess960_position,
            Variant::Standard => None,
        },
        // A standard game reads its FEN in standard castling mode (Art. 3.8 a):
        // a right only Chess960 has is refused, not read as Chess960.
        variant: Some(match settings.variant {
            Variant::Chess960 => arbiter_laws::Variant::Chess960,
            Variant::Standard => arbiter_laws::Variant::Standard,
        }),
        edition: settings.edition,
        time_control: (settings.time_control != TimeControl::Untimed)
            .then(|| settings.time_control.clone()),
        delay: settings.delay.map(|d| Delay {
            kind: match d.kind {
                crate::protocol::DelayKindWire::Bronstein => DelayKind::Bronstein,
                crate::protocol::DelayKindWire::Simple => DelayKind::Simple,
            },
            ms: d.ms,
        }),
        supervised: false,
        touch_move: settings.touch_move,
        ..Start::default()
    }
}

/// The wire form of legal move `m` in `pos` (§5).
pub fn legal_move(pos: &Position, m: Move) -> LegalMove {
    let side = pos.castling_side(m);
    LegalMove {
        uci: notation::uci(pos, m),
        san: notation::san(pos, m),
        from: m.from,
        to: if side.is_some() {
            pos.king_destination(m)
        } else {
            m.to
        },
        promotion: m.promotion,
        castle: side,
        rook: side.map(|_| m.to),
    }
}

impl Table {
    /// A new game for `settings`.
    pub fn new(settings: &Settings) -> Result<Table, String> {
        Table::with_start(settings, start_of(settings))
    }

    /// A stored game's table: as [`Table::new`]; but a standard game whose
    /// FEN has castling rights only Chess960 has, stored before such a FEN
    /// was refused (2026-12-07: it was read as Chess960), is rebuilt as it
    /// was played, its FEN's castling read as written, so that no stored
    /// game is lost.
    pub fn stored(settings: &Settings) -> Result<Table, String> {
        Table::new(settings).or_else(|refused| {
            let mut as_played = start_of(settings);
            if settings.variant != Variant::Standard || as_played.fen.is_none() {
                return Err(refused);
            }
            as_played.variant = None;
            Table::with_start(settings, as_played).map_err(|_| refused)
        })
    }

    fn with_start(settings: &Settings, start: Start) -> Result<Table, String> {
        // The exact dead-position analysis leaves the runtime's worker free.
        let laws =
            Game::with_solver(start, super::solver::games_solver()).map_err(|e| e.to_string())?;
        Ok(Table {
            laws,
            variant: settings.variant,
            records: Vec::new(),
            touched: None,
            ended_by: None,
        })
    }

    /// The Laws game.
    pub fn laws(&self) -> &Game {
        &self.laws
    }

    /// The moves made, as sent.
    pub fn records(&self) -> &[MoveRecord] {
        &self.records
    }

    /// Time of the last event (ms since the start).
    pub fn last_t(&self) -> u64 {
        self.laws.events().last().map_or(0, |e| e.t)
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.laws.turn()
    }

    /// `true` once the game has ended.
    pub fn is_over(&self) -> bool {
        self.laws.is_over()
    }

    /// The square touched under Art. 4 this turn.
    pub fn touched(&self) -> Option<Square> {
        self.touched
    }

    /// The initial position's FEN.
    pub fn initial_fen(&self) -> String {
        self.laws.initial_position().fen()
    }

    /// Resolves a move as sent by a client: one of the listed `uci`
    /// encodings; in standard chess castling also as king-takes-rook
    /// (`e1h1`). Distinguishes an illegal move from one touch-move forbids.
    pub fn resolve(&self, uci: &str) -> Result<Move, Refusal> {
        let pos = self.laws.position();
        let all = pos.legal_moves();
        let king_takes_rook = |m: Move| {
            uci.len() == 4
                && uci.get(..2) == Some(notation::square_name(m.from).as_str())
                && uci.get(2..) == Some(notation::square_name(m.to).as_str())
        };
        let found = all.iter().copied().find(|&m| {
            notation::uci(pos, m) == uci
                || (self.variant == Variant::Standard && pos.is_castling(m) && king_takes_rook(m))
        });
        let Some(m) = found else {
            return Err(Refusal::new("illegal_move", format!("illegal move {uci}")));
        };
        self.touch_allows(m, uci)
    }

    /// Reads a move as a player typed it, in any notation `arbiter-pgn`
    /// reads (SAN, Russian, figurine, long algebraic, coordinates, `0-0`,
    /// `e8Ф`; protocol §5.1): the browser has no chess logic of its own.
    /// A pawn move to the last rank without a piece is `promotion_needed`.
    pub fn read_typed(&self, text: &str) -> Result<Move, Refusal> {
        let pos = self.laws.position();
        let text = text.trim();
        match arbiter_pgn::read_move(pos, text) {
            Ok(m) => self.touch_allows(m, text),
            Err(e) => {
                use arbiter_pgn::ReadMoveError as E;
                let (code, message) = match &e {
                    E::PromotionMissing { text, .. } => {
                        let art = self.laws.rules().articles.promotion;
                        let message =
                            format!("{text}: name the piece the pawn becomes (Art. {art})");
                        ("promotion_needed", message)
                    }
                    E::Syntax { .. } => ("unreadable_move", e.to_string()),
                    E::Illegal { .. } => ("illegal_move", e.to_string()),
                    E::Ambiguous { .. } => ("ambiguous_move", e.to_string()),
                };
                Err(Refusal::new(code, message))
            }
        }
    }

    /// `m` (legal in the position) unless touch-move obliges another move.
    fn touch_allows(&self, m: Move, text: &str) -> Result<Move, Refusal> {
        if !self.laws.legal_moves().contains(&m) {
            return Err(Refusal::new(
                "touch_move_violation",
                format!("{text}: the touched piece must be moved or taken (Art. 4.3)"),
            ));
        }
        Ok(m)
    }

    /// Applies a Laws event; on refusal nothing changed. Keeps the move
    /// records and the touched square in step.
    pub fn apply(&mut self, event: Event) -> Result<Applied, Refusal> {
        let claim = matches!(event.action, Action::Claim { .. });
        let by = event.by.player();
        let t = event.t;
        let before = *self.laws.position();
        let moves_before = self.laws.moves().len();
        let since = self.laws.moves().last().map_or(0, |m| m.t);
        let touch = match &event.action {
            Action::Touch { square } => Some(*square),
            _ => None,
        };
        let ending = matches!(
            event.action,
            Action::Resign | Action::Claim { .. } | Action::Flag | Action::Arbiter { .. }
        );
        let running = self.laws.clock().and_then(|c| c.running());
        let is_flag = matches!(
            event.action,
            Action::Flag
                | Action::Arbiter {
                    decision: Decision::Flag,
                    ..
                }
        );
        let applied = self.laws.apply(event).map_err(|r| refusal(r, claim))?;
        if let Some(sq) = touch {
            if self.touched.is_none() {
                self.touched = Some(sq);
            }
        }
        let moved = self.laws.moves().len() > moves_before;
        if moved {
            self.touched = None;
            let played = &self.laws.moves()[moves_before];
            let m = played.mv;
            let side = played.by;
            let lm = legal_move(&before, m);
            let clock_ms = self.laws.clock_at(t).map(|r| {
                if side == Color::White {
                    r.white
                } else {
                    r.black
                }
            });
            self.records.push(MoveRecord {
                ply: self.records.len() as u32 + 1,
                color: side,
                uci: lm.uci.as_str().to_owned(),
                san: played.san.clone(),
                from: lm.from.to_string(),
                to: lm.to.to_string(),
                promotion: lm
                    .promotion
                    .map(|p| notation::promotion_name(p).to_string()),
                clock_ms,
                spent_ms: self.laws.clock().map(|_| t.saturating_sub(since)),
            });
        }
        if self.laws.is_over() && self.ended_by.is_none() && ending {
            self.ended_by = ended_by(is_flag, moved, running, by);
        }
        Ok(applied)
    }

    /// A Laws event of `by` at `t`.
    pub fn event(t: u64, by: Option<Color>, action: Action) -> Event {
        Event {
            t,
            by: by.into(),
            action,
        }
    }

    /// The Laws action of a claim.
    pub fn claim_action(claim: WireClaim, intended: Option<Move>) -> Action {
        Action::Claim {
            kind: match claim {
                WireClaim::Threefold => ClaimKind::Threefold,
                WireClaim::Fifty => ClaimKind::Fifty,
            },
            mv: intended,
        }
    }

    /// The arbiter observes the flag (6.8, 6.9).
    pub fn flag_action() -> Action {
        Action::Arbiter {
            decision: Decision::Flag,
        }
    }

    /// When the running player's flag falls, if a clock runs.
    pub fn next_flag_time(&self) -> Option<u64> {
        self.laws.next_flag_time()
    }

    /// Has `side`'s flag fallen by `t`?
    pub fn flag_fallen(&self, side: Color, t: u64) -> bool {
        self.laws
            .clock()
            .is_some_and(|c| c.flag_fell_at(side, t).is_some())
    }

    /// The termination, once over.
    pub fn termination(&self) -> Option<Termination> {
        let o = self.laws.outcome()?;
        Some(Termination {
            kind: o.termination,
            article: o.article.to_string(),
            winner: o.result.winner(),
            by: self.ended_by,
        })
    }

    /// PGN result.
    pub fn result(&self) -> String {
        self.laws
            .outcome()
            .map_or_else(|| "*".to_owned(), |o| o.result.to_string())
    }

    /// The clocks at game time `t`, stamped `server_time`.
    pub fn clocks(&self, t: u64, server_time: u64) -> Option<Clocks> {
        let clock = self.laws.clock()?;
        let reading = self.laws.clock_at(t)?;
        let running = if self.laws.is_over() {
            None
        } else {
            reading.running
        };
        let since = self.laws.moves().last().map_or(0, |m| m.t);
        let delay_left_ms = match (running, clock.delay()) {
            // Simple delay: the main time waits until the delay has passed.
            (
                Some(_),
                Some(Delay {
                    kind: DelayKind::Simple,
                    ms,
                }),
            ) => ms.saturating_sub(t.saturating_sub(since)),
            // Bronstein: the main time runs at once; the time used, up to the
            // delay, is given back after the move (the Laws' clock does it).
            _ => 0,
        };
        let periods = clock.periods();
        let to_control = |c: Color| -> Option<u32> {
            let p = clock.period(c);
            let mut done = clock.moves(c);
            for q in &periods[..p.min(periods.len())] {
                done = done.saturating_sub(q.moves.unwrap_or(0));
            }
            periods
                .get(p)
                .and_then(|q| q.moves)
                .map(|n| n.saturating_sub(done))
        };
        Some(Clocks {
            white_ms: reading.white,
            black_ms: reading.black,
            running,
            server_time,
            delay_left_ms,
            moves_to_control: MovesToControl {
                white: to_control(Color::White),
                black: to_control(Color::Black),
            },
        })
    }

    /// The live part of the state (§4.4) at game time `t` (`None`: the
    /// clocks are not running yet, as in a waiting game).
    pub fn live(&self, seq: u64, status: Status, t: Option<u64>, server_time: u64) -> Live {
        let pos = self.laws.position();
        let active = status == Status::Active && !self.laws.is_over();
        let legal_moves = if active {
            self.laws
                .legal_moves()
                .iter()
                .map(|&m| legal_move(pos, m))
                .collect()
        } else {
            Vec::new()
        };
        let clocks = match t {
            Some(t) => self.clocks(t, server_time),
            None => self.clocks(0, server_time).map(|mut c| {
                c.running = None;
                c
            }),
        };
        Live {
            seq,
            status: if self.laws.is_over() {
                Status::Finished
            } else {
                status
            },
            fen: pos.fen(),
            turn: self.turn(),
            ply: self.records.len() as u32,
            check: pos.is_check(),
            last_move: self.records.last().map(|r| LastMove {
                from: r.from.clone(),
                to: r.to.clone(),
            }),
            legal_moves,
            touched: if active {
                self.touched.map(|s| s.to_string())
            } else {
                None
            },
            draw_offer: if active { self.laws.draw_offer() } else { None },
            clocks,
            result: self.result(),
            termination: self.termination(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Mode;
    use arbiter_laws::Edition;

    fn settings(fen: Option<&str>, variant: Variant, n960: Option<u32>) -> Settings {
        Settings {
            mode: Mode::Local,
            engine_level: None,
            creator: Color::White,
            variant,
            chess960_position: n960,
            edition: Edition::Fide2014,
            time_control: arbiter_pgn::TimeControl::fischer(5, 3),
            delay: None,
            touch_move: false,
            fen: fen.map(str::to_owned),
            rated: false,
            creator_account: None,
            event: None,
        }
    }

    /// A new standard game refuses a FEN whose castling right only Chess960
    /// has (Art. 3.8 a); a game stored with one before that rule is rebuilt
    /// as it was played, not lost as corrupt.
    #[test]
    fn a_stored_game_with_a_chess960_right_is_rebuilt_as_played() {
        let s = settings(
            Some("4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1"),
            Variant::Standard,
            None,
        );
        assert!(Table::new(&s).is_err());
        let t = Table::stored(&s).unwrap();
        assert!(t.laws().position().castling_rights().contains(Square::B1));
        // Anything else wrong with a stored start is still refused.
        let bad = settings(
            Some("4k3/8/8/8/8/8/8/4K3 w Q - 0 1"),
            Variant::Standard,
            None,
        );
        assert!(Table::stored(&bad).is_err());
    }

    /// Protocol §5: standard castling is listed as `e1g1`, and `e1h1` is accepted too.
    #[test]
    fn standard_castling_both_encodings() {
        let t = Table::new(&settings(
            Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
            Variant::Standard,
            None,
        ))
        .unwrap();
        let live = serde_json::to_value(t.live(0, Status::Active, Some(0), 0)).unwrap();
        let short = live["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["castle"] == "short")
            .unwrap();
        assert_eq!(
            short,
            &serde_json::json!({"uci": "e1g1", "san": "O-O", "from": "e1", "to": "g1",
                "castle": "short", "rook": "h1"})
        );
        let long = live["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["castle"] == "long")
            .unwrap();
        assert_eq!(long["rook"], "a1");
        assert_eq!(long["uci"], "e1c1");
        assert_eq!(t.resolve("e1g1").unwrap(), t.resolve("e1h1").unwrap());
        assert_eq!(t.resolve("e1e3").unwrap_err().code, "illegal_move");
    }

    /// Protocol §5.1: typed text in any notation names the move the listed
    /// UCI names; what cannot be read is refused by kind.
    #[test]
    fn typed_moves_are_read_by_the_server() {
        let t = Table::new(&settings(None, Variant::Standard, None)).unwrap();
        let nf3 = t.resolve("g1f3").unwrap();
        for text in ["Nf3", "Кf3", "♘f3", "Ng1-f3", "Кg1–f3", "g1f3", " Nf3+ "] {
            assert_eq!(t.read_typed(text).unwrap(), nf3, "{text}");
        }
        assert_eq!(t.read_typed("е4").unwrap(), t.resolve("e2e4").unwrap());
        // What the web app's own reader took before the server read typed text.
        let t2 = Table::new(&settings(
            Some("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
            Variant::Standard,
            None,
        ))
        .unwrap();
        for (text, uci) in [
            ("Nc3", "b1c3"),
            ("Ne5", "f3e5"),
            ("Bf7", "c4f7"),
            ("Bxf7+", "c4f7"),
            ("b4", "b2b4"),
            ("d2-d4", "d2d4"),
            ("O-O", "e1g1"),
            ("0-0", "e1g1"),
            ("О-О", "e1g1"),
            ("e1h1", "e1g1"),
            ("Кc3", "b1c3"),
            ("К:е5", "f3e5"),
            ("Сf7", "c4f7"),
            ("Фe2", "d1e2"),
            ("Лf1", "h1f1"),
            ("Крf1", "e1f1"),
            ("Вхf7", "c4f7"),
            ("♘c3", "b1c3"),
        ] {
            let expected = t2.resolve(uci).unwrap();
            match t2.read_typed(text) {
                Ok(m) => assert_eq!(m, expected, "{text}"),
                Err(e) => panic!("{text}: {} {}", e.code, e.message),
            }
        }
        assert_eq!(t.read_typed("Nf6").unwrap_err().code, "illegal_move");
        assert_eq!(t.read_typed("hello").unwrap_err().code, "unreadable_move");
        let t = Table::new(&settings(
            Some("4k3/P7/8/8/8/8/8/R3K2R w KQ - 0 1"),
            Variant::Standard,
            None,
        ))
        .unwrap();
        for text in ["a8", "a7a8", "a7-a8"] {
            let e = t.read_typed(text).unwrap_err();
            assert_eq!(e.code, "promotion_needed", "{text}");
            assert!(e.message.contains("(Art. 3.7"), "{text}: {}", e.message);
        }
        // A piece that cannot be named is not a missing promotion.
        assert_ne!(t.read_typed("a8=K").unwrap_err().code, "promotion_needed");
        assert_eq!(t.read_typed("a8Ф").unwrap(), t.resolve("a7a8q").unwrap());
        assert_eq!(t.read_typed("a8=N").unwrap(), t.resolve("a7a8n").unwrap());
        assert_eq!(t.read_typed("0-0").unwrap(), t.resolve("e1g1").unwrap());
        assert_eq!(t.read_typed("O-O-O").unwrap(), t.resolve("e1c1").unwrap());
        assert_eq!(t.read_typed("Rd1").unwrap(), t.resolve("a1d1").unwrap());
        let t = Table::new(&settings(
            Some("4k3/8/8/8/8/8/K7/R6R w - - 0 1"),
            Variant::Standard,
            None,
        ))
        .unwrap();
        let e = t.read_typed("Rd1").unwrap_err();
        assert_eq!(e.code, "ambiguous_move", "{}", e.message);
    }

    /// Protocol §4.4: one entry per promotion piece, with its letter.
    #[test]
    fn promotions_are_listed_once_per_piece() {
        let t = Table::new(&settings(
            Some("8/P7/8/8/8/8/8/k6K w - - 0 1"),
            Variant::Standard,
            None,
        ))
        .unwrap();
        let live = serde_json::to_value(t.live(0, Status::Active, Some(0), 0)).unwrap();
        let promotions: Vec<_> = live["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["from"] == "a7")
            .cloned()
            .collect();
        assert_eq!(promotions.len(), 4);
        assert_eq!(
            promotions[0],
            serde_json::json!({"uci": "a7a8q", "san": "a8=Q+", "from": "a7", "to": "a8",
                "promotion": "q"})
        );
        let letters: Vec<_> = promotions.iter().map(|m| m["promotion"].clone()).collect();
        assert_eq!(letters, ["q", "r", "b", "n"]);
        assert_eq!(
            t.resolve("a7a8n").unwrap().promotion,
            Some(arbiter_chess::Role::Knight)
        );
    }

    /// Protocol §5: Chess960 lists king-takes-rook and accepts only that.
    #[test]
    fn chess960_lists_king_takes_rook() {
        let mut t = Table::new(&settings(None, Variant::Chess960, Some(518))).unwrap();
        for (i, san) in ["Nf3", "Nf6", "g3", "g6", "Bg2", "Bg7"].iter().enumerate() {
            let by = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let mv = t.laws().position().parse_san(san).unwrap();
            t.apply(Table::event(i as u64 * 10, Some(by), Action::Move { mv }))
                .unwrap();
        }
        let live = serde_json::to_value(t.live(6, Status::Active, Some(60), 0)).unwrap();
        let short = live["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| !m["castle"].is_null())
            .unwrap();
        assert_eq!(
            short,
            &serde_json::json!({"uci": "e1h1", "san": "O-O", "from": "e1", "to": "g1",
                "castle": "short", "rook": "h1"})
        );
        assert!(t.resolve("e1h1").is_ok());
        assert_eq!(t.resolve("e1g1").unwrap_err().code, "illegal_move");
    }

    /// The clock fields: increment before the first move (FIDE 2014 Art. 6
    /// as the Laws crate applies it), the mover's clock after a move.
    #[test]
    fn move_records_carry_the_clock() {
        let mut t = Table::new(&settings(None, Variant::Standard, None)).unwrap();
        assert_eq!(t.clocks(0, 0).unwrap().white_ms, 303_000);
        let mv = t.laws().position().parse_san("e4").unwrap();
        t.apply(Table::event(2_000, Some(Color::White), Action::Move { mv }))
            .unwrap();
        let r = &t.records()[0];
        assert_eq!((r.clock_ms, r.spent_ms), (Some(304_000), Some(2_000)));
        let c = t.clocks(5_000, 99).unwrap();
        assert_eq!(
            (c.running, c.black_ms, c.server_time),
            (Some(Color::Black), 300_000, 99)
        );
    }
}
