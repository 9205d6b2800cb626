//! What a record says about how its game ended: the `Result` tag (or the
//! movetext's termination marker), the `Termination` tag, the last clocks.

use super::Transcript;
use crate::outcome::GameResult;
use arbiter_chess::Color;
use arbiter_pgn::Game as Record;

/// How the record says the game ended, read from its `Termination` tag
/// (Lichess: `Normal`, `Time forfeit`, `Abandoned`, `Rules infraction`,
/// `Unterminated`; other sites and programs: `White won by checkmate`,
/// `Game drawn by repetition`, `Black won on time`, …).
///
/// ```
/// use arbiter_laws::audit::RecordedEnd;
/// assert_eq!(RecordedEnd::parse(Some("Time forfeit")), RecordedEnd::TimeForfeit);
/// assert_eq!(RecordedEnd::parse(Some("Game drawn by repetition")), RecordedEnd::Repetition);
/// assert_eq!(RecordedEnd::parse(Some("Game drawn by 50-move rule")), RecordedEnd::FiftyMoves);
/// assert_eq!(RecordedEnd::parse(None), RecordedEnd::Unspecified);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RecordedEnd {
    /// No `Termination` tag, or one that says nothing more than "normal":
    /// the result alone tells (a win by resignation or on the board, a draw
    /// by agreement or on the board).
    Unspecified,
    /// A flag fell (Art. 6.9): "Time forfeit", "won on time", "timeout".
    TimeForfeit,
    /// Both flags fell, which first not to be established ("both players
    /// ran out of time"): drawn in the last period (2014 6.11; Guidelines
    /// III.3.1).
    BothFlags,
    /// A draw claimed by threefold repetition (Art. 9.2).
    Repetition,
    /// A draw claimed under the 50-move rule (Art. 9.3).
    FiftyMoves,
    /// Fivefold repetition (Art. 9.6 a / 9.6.1).
    Fivefold,
    /// The 75-move rule (Art. 9.6 b / 9.6.2).
    SeventyFiveMoves,
    /// Checkmate (Art. 5.1 a / 5.1.1).
    Checkmate,
    /// Stalemate (Art. 5.2 a / 5.2.1).
    Stalemate,
    /// A dead position or "insufficient material" (Art. 5.2 b / 5.2.2).
    DeadPosition,
    /// Resignation (Art. 5.1 b / 5.1.2).
    Resignation,
    /// A draw by agreement (Art. 5.2 c / 5.2.3).
    Agreement,
    /// A game abandoned, or lost for an infraction of the rules of the event:
    /// decided by the organiser, not on the board.
    Forfeit,
    /// Lost for an illegal move ("illegal move", as TCEC and engine-match
    /// programs write it; the move itself is not in the record): lost, or
    /// drawn if the opponent cannot checkmate by any series of legal moves
    /// (7.5 b / 7.5.5; rapid and blitz A.4 b / A.4.2).
    IllegalMove,
    /// The record says the game did not finish.
    Unterminated,
}

impl RecordedEnd {
    /// Reads a `Termination` tag value (case and wording as the common
    /// sites and programs write them).
    pub fn parse(tag: Option<&str>) -> RecordedEnd {
        let Some(tag) = tag else {
            return RecordedEnd::Unspecified;
        };
        // Lichess's own values, as the reading below reads them.
        match tag {
            "Normal" => return RecordedEnd::Unspecified,
            "Time forfeit" => return RecordedEnd::TimeForfeit,
            "Abandoned" => return RecordedEnd::Forfeit,
            "Rules infraction" => return RecordedEnd::Forfeit,
            "Unterminated" => return RecordedEnd::Unterminated,
            _ => {}
        }
        RecordedEnd::read(tag)
    }

    /// [`RecordedEnd::parse`] of any value, by its words (runs of letters
    /// and digits, lower-cased): `50` is a word of "50-move rule", not of
    /// a puzzle's "+500cp in 2". A player's name comes before what he did
    /// ("qwest50 won by resignation", as chess.com writes it): only the
    /// words after the last "won", "wins", "lost", "loses" or "drawn" are
    /// read when there is one. A puzzle's goal ("mate in 2", "+500cp in
    /// 3") says nothing of an end.
    fn read(tag: &str) -> RecordedEnd {
        let lower = tag.to_lowercase();
        let all = words(&lower);
        let after = all
            .iter()
            .rposition(|w| matches!(*w, "won" | "wins" | "lost" | "loses" | "drawn"))
            .map_or(0, |i| i + 1);
        let words = &all[after..];
        // "mate in 2", "+500cp in 3": a puzzle's goal (Lichess studies), not
        // how a game ended.
        let goal = words
            .windows(2)
            .any(|p| p[0] == "in" && p[1].bytes().all(|b| b.is_ascii_digit()));
        if goal {
            return RecordedEnd::Unspecified;
        }
        let has = |w: &str| words.contains(&w);
        let starts = |w: &str| words.iter().any(|x| x.starts_with(w));
        // "3-fold", "five-fold": a number and "fold".
        let fold = |n: &[&str]| {
            words
                .windows(2)
                .any(|p| n.contains(&p[0]) && p[1] == "fold")
        };
        let timed = has("time") || has("timeout") || starts("flag");
        if timed && has("both") {
            RecordedEnd::BothFlags
        } else if timed {
            RecordedEnd::TimeForfeit
        } else if has("fivefold") || fold(&["5", "five"]) {
            RecordedEnd::Fivefold
        } else if has("repetition") || has("threefold") || fold(&["3", "three"]) {
            RecordedEnd::Repetition
        } else if has("75") || has("seventy") {
            RecordedEnd::SeventyFiveMoves
        } else if has("50") || has("fifty") {
            RecordedEnd::FiftyMoves
        } else if starts("stalemate") {
            RecordedEnd::Stalemate
        } else if has("insufficient") || has("dead") || (has("neither") && has("material")) {
            RecordedEnd::DeadPosition
        } else if ["mate", "mates", "mated", "checkmate", "checkmated"]
            .iter()
            .any(|w| has(w))
        {
            RecordedEnd::Checkmate
        } else if starts("resign") {
            RecordedEnd::Resignation
        } else if starts("agree") {
            RecordedEnd::Agreement
        } else if has("unterminated") || has("unfinished") || starts("adjourn") {
            // (Before the forfeits: "Game adjourned when White disconnected",
            // as ICC writes it, is no forfeit.)
            RecordedEnd::Unterminated
        } else if has("illegal") {
            RecordedEnd::IllegalMove
        } else if words
            .iter()
            // (French "abandon", Spanish and Portuguese "abandono": a
            // resignation, read by `read_translated`.)
            .any(|w| w.starts_with("abandon") && !matches!(*w, "abandon" | "abandono"))
            || has("infraction")
            || starts("forfeit")
            || starts("disconnect")
        {
            RecordedEnd::Forfeit
        } else {
            RecordedEnd::read_translated(&all)
        }
    }

    /// [`RecordedEnd::read`] of a tag that has none of its English words:
    /// the ends as chess.com writes them in the language of the player who
    /// downloaded the games ("Victoria de X por tiempo", "X a gagné par
    /// abandon", "X gewinnt durch Aufgabe", "Победа X по времени"), read by
    /// their words in Spanish, Portuguese, French, Italian, German and
    /// Russian. Only the words after the last verb of winning or the last
    /// "by" (`por`, `par`, `per`, `durch`, `по`) are read, so that a name
    /// before them says nothing. In the Romance languages `abandon(o)` is
    /// the word for a resignation, not a game abandoned; a game left by a
    /// player is Spanish `desistimiento`. Words not known leave the end
    /// [`RecordedEnd::Unspecified`], judged by the result alone. `all`: the
    /// tag's words ([`words`]).
    fn read_translated(all: &[&str]) -> RecordedEnd {
        let after = all
            .iter()
            .rposition(|w| TRANSLATED_MARKERS.contains(w))
            .map_or(0, |i| i + 1);
        let words = &all[after..];
        TRANSLATED_ENDS
            .iter()
            .find(|(_, said)| words.iter().any(|w| said.contains(w)))
            .map_or(RecordedEnd::Unspecified, |(end, _)| *end)
    }

    /// Whether a comment after the last move is how a chess server writes
    /// the end of its games before the result (FICS, whose database has no
    /// `Termination` tag, and ICC): `{Black resigns} 1-0`, `{White forfeits
    /// on time} 0-1`, `{Game drawn by mutual agreement} 1/2-1/2`, also after
    /// the server's own `Game 42 (A vs. B)`. Only these whole sentences
    /// count: an annotator's last comment ("White is lost", "threatening
    /// mate") says nothing of how the game ended.
    ///
    /// ```
    /// use arbiter_laws::audit::RecordedEnd;
    /// assert!(RecordedEnd::is_server_sentence("White forfeits on time"));
    /// assert!(RecordedEnd::is_server_sentence("Game 70 (a vs. b) Game drawn because both players ran out of time"));
    /// assert!(!RecordedEnd::is_server_sentence("White is lost: threatening mate"));
    /// ```
    pub fn is_server_sentence(comment: &str) -> bool {
        // At most 17 words are looked at (the longest sentence has 12, the
        // server's "Game 42 (A vs. B)" 5 more).
        let mut all = [""; 17];
        let mut n = 0;
        for w in comment.split_ascii_whitespace() {
            if n == all.len() {
                return false;
            }
            all[n] = w;
            n += 1;
        }
        let mut words = &all[..n];
        // The server's "Game 42 (A vs. B)" first.
        if let ["Game", number, open, ..] = words {
            if number.bytes().all(|b| b.is_ascii_digit()) && open.starts_with('(') {
                let Some(close) = words.iter().position(|w| w.ends_with(')')) else {
                    return false;
                };
                words = &words[close + 1..];
            }
        }
        matches!(
            words,
            [_, "resigns"]
                | [_, "checkmated"]
                | [_, "stalemated"]
                | [_, "forfeits", "on", "time"]
                | [_, "forfeits", "by", "disconnection"]
                | [
                    _,
                    "ran",
                    "out",
                    "of",
                    "time",
                    "and",
                    _,
                    "has",
                    "no",
                    "material",
                    "to",
                    "mate"
                ]
                | ["Game", "drawn", "because", "both", "players", "ran", "out", "of", "time"]
                | ["Game", "drawn", "by", "mutual", "agreement"]
                | ["Game", "drawn", "by", "repetition"]
                | ["Game", "drawn", "by", "stalemate"]
                | ["Game", "drawn", "by", "the", "50", "move", "rule"]
                | ["Game", "drawn", "because", "neither", "player", "has", "mating", "material"]
                | ["Neither", "player", "has", "mating", "material"]
        )
    }

    /// The player a `Termination` tag names as the loser, if it names one by
    /// colour: "White lost on time", "Black resigns", "White forfeits on
    /// time", "Black ran out of time"; or as the winner: "White won by
    /// checkmate", "Black wins", "White mates" (the other one lost).
    ///
    /// ```
    /// use arbiter_chess::Color;
    /// use arbiter_laws::audit::RecordedEnd;
    /// assert_eq!(RecordedEnd::named_loser("White lost on time"), Some(Color::White));
    /// assert_eq!(RecordedEnd::named_loser("Black won by resignation"), Some(Color::White));
    /// assert_eq!(RecordedEnd::named_loser("qwest50 won by resignation"), None);
    /// assert_eq!(RecordedEnd::named_loser("Game drawn by repetition"), None);
    /// ```
    pub fn named_loser(tag: &str) -> Option<Color> {
        // Most tags name no colour (Lichess's "Normal", "Time forfeit"):
        // no words made for them.
        let named = tag
            .as_bytes()
            .windows(5)
            .any(|w| w.eq_ignore_ascii_case(b"white") || w.eq_ignore_ascii_case(b"black"));
        if !named {
            return None;
        }
        let lower = tag.to_ascii_lowercase();
        words(&lower).windows(2).find_map(|p| {
            let color = match p[0] {
                "white" => Color::White,
                "black" => Color::Black,
                _ => return None,
            };
            match p[1] {
                "lost" | "loses" | "resigns" | "resigned" | "forfeits" | "flagged" | "ran"
                | "abandoned" | "disconnected" | "checkmated" => Some(color),
                "won" | "wins" | "mates" => Some(!color),
                _ => None,
            }
        })
    }

    /// The snake_case name used in the audit's JSON.
    ///
    /// ```
    /// use arbiter_laws::audit::RecordedEnd;
    /// assert_eq!(RecordedEnd::parse(Some("Rules infraction")).name(), "forfeit");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            RecordedEnd::Unspecified => "unspecified",
            RecordedEnd::TimeForfeit => "time_forfeit",
            RecordedEnd::BothFlags => "both_flags",
            RecordedEnd::Repetition => "repetition",
            RecordedEnd::FiftyMoves => "fifty_moves",
            RecordedEnd::Fivefold => "fivefold_repetition",
            RecordedEnd::SeventyFiveMoves => "seventyfive_moves",
            RecordedEnd::Checkmate => "checkmate",
            RecordedEnd::Stalemate => "stalemate",
            RecordedEnd::DeadPosition => "dead_position",
            RecordedEnd::Resignation => "resignation",
            RecordedEnd::Agreement => "agreement",
            RecordedEnd::Forfeit => "forfeit",
            RecordedEnd::IllegalMove => "illegal_move",
            RecordedEnd::Unterminated => "unterminated",
        }
    }
}

/// The words after which a translated `Termination` tag says how the game
/// ended ([`RecordedEnd::read_translated`]): verbs of winning, and "by".
const TRANSLATED_MARKERS: &[&str] = &[
    // Spanish, Portuguese
    "ganó",
    "gana",
    "ganado",
    "ganhou",
    "venceu",
    "vence",
    "por",
    // French, Italian
    "gagné",
    "gagne",
    "par",
    "vinto",
    "vince",
    "per",
    // German
    "gewinnt",
    "gewonnen",
    "durch",
    // Russian
    "выиграл",
    "выиграла",
    "выиграли",
    "победил",
    "победила",
    "по",
];

/// The words of each end in Spanish, Portuguese, French, Italian, German
/// and Russian, in the order [`RecordedEnd::read`] tries the English ones:
/// a flag fall before anything else ("por tiempo, material insuficiente").
const TRANSLATED_ENDS: &[(RecordedEnd, &[&str])] = &[
    (
        RecordedEnd::TimeForfeit,
        &[
            "tiempo",
            "tempo",
            "temps",
            "zeit",
            "zeitüberschreitung",
            "времени",
            "время",
        ],
    ),
    (
        RecordedEnd::Repetition,
        &[
            "repetición",
            "repetição",
            "répétition",
            "ripetizione",
            "wiederholung",
            "stellungswiederholung",
            "повторение",
            "повторения",
            "повторению",
            "повторением",
        ],
    ),
    (
        RecordedEnd::Stalemate,
        &[
            "ahogado",
            "afogamento",
            "afogado",
            "pat",
            "stallo",
            "patt",
            "пат",
        ],
    ),
    (
        RecordedEnd::DeadPosition,
        &[
            "insuficiente",
            "insuficiencia",
            "insuffisant",
            "insuffisance",
            "insufficiente",
            "ungenügend",
            "ungenügendes",
            "unzureichend",
            "unzureichendes",
            "недостаточно",
            "недостаточного",
            "недостаток",
            "недостатка",
        ],
    ),
    (
        RecordedEnd::Checkmate,
        &["mat", "matto", "matt", "schachmatt", "мат", "матом"],
    ),
    (
        RecordedEnd::Resignation,
        &[
            "abandono",
            "rendición",
            "abandon",
            "abbandono",
            "aufgabe",
            "сдался",
            "сдалась",
            "сдача",
            "сдачи",
            "сдаче",
        ],
    ),
    (
        RecordedEnd::Agreement,
        &[
            "acuerdo",
            "acordo",
            "accord",
            "accordo",
            "einigung",
            "vereinbarung",
            "соглашению",
            "соглашение",
            "согласию",
        ],
    ),
    (RecordedEnd::Forfeit, &["desistimiento"]),
];

/// The words of a lower-cased tag: its runs of letters and digits, in any
/// alphabet ("repetición", "времени").
fn words(lower: &str) -> Vec<&str> {
    lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

/// What the record says: its result, its termination and the last clock
/// times it gives.
///
/// ```
/// use arbiter_laws::audit::{Recorded, RecordedEnd};
/// let pgn = "[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n\n1. e4 { [%clk 0:00:59] } e5 { [%clk 0:00:58] } 0-1\n";
/// let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
/// let recorded = Recorded::of(&record);
/// assert_eq!(recorded.result.map(|r| r.to_string()).as_deref(), Some("0-1"));
/// assert_eq!(recorded.end, RecordedEnd::TimeForfeit);
/// assert_eq!(recorded.clock, [Some(59_000), Some(58_000)]);
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// The `Result` tag, else the movetext's termination marker; `None` for
    /// `*` (unknown or unfinished) or a value that is not a result.
    pub result: Option<GameResult>,
    /// The `Result` as written (`"*"` if absent).
    pub result_text: String,
    /// How the record names its end, as written: the `Termination` tag;
    /// where it says no more than "Normal" or "adjudication" or is absent,
    /// TCEC's `TerminationDetails` tag, FICS's `LongResult` tag or ICC's
    /// `ICCResult`, else a server's sentence after the last move
    /// ([`RecordedEnd::is_server_sentence`]).
    pub termination: Option<String>,
    /// Where [`Recorded::termination`] was read, for the findings' sentences:
    /// `"Termination tag"`, `"TerminationDetails tag"`, `"LongResult tag"`,
    /// `"ICCResult tag"` or
    /// `"comment after the last move"`.
    pub termination_from: &'static str,
    /// [`Recorded::termination`], read.
    pub end: RecordedEnd,
    /// The last `[%clk]` time recorded for White and for Black, ms.
    pub clock: [Option<u64>; 2],
}

impl Recorded {
    /// Reads what `record` says about its end.
    pub fn of(record: &Record) -> Recorded {
        Recorded::of_transcript(&Transcript::from_record(record))
    }

    /// Reads what a [`Transcript`] says about its game's end.
    pub(crate) fn of_transcript(t: &Transcript) -> Recorded {
        let text = t
            .result_tag
            .get()
            .map(str::trim)
            .filter(|t| !t.is_empty() && *t != "?")
            .map(str::to_owned)
            .unwrap_or_else(|| t.result.unwrap_or_default().as_str().to_owned());
        // The Termination tag; where it says no more than "Normal" or
        // "adjudication" (or is absent), TCEC's TerminationDetails tag,
        // FICS's LongResult tag or ICC's ICCResult, else a server's sentence
        // after the last move.
        const TAG: &str = "Termination tag";
        let (termination, termination_from, end) = [
            (&t.termination, TAG),
            (&t.termination_details, "TerminationDetails tag"),
            (&t.long_result, "LongResult tag"),
            (&t.icc_result, "ICCResult tag"),
            (&t.end_comment, "comment after the last move"),
        ]
        .into_iter()
        .find_map(|(v, from)| {
            let v = v.get()?;
            let end = RecordedEnd::parse(Some(v));
            (end != RecordedEnd::Unspecified).then_some((Some(v), from, end))
        })
        .unwrap_or((t.termination.get(), TAG, RecordedEnd::Unspecified));
        let mut clock = [None, None];
        let first = t.start.turn();
        for (i, ms) in t.clocks.iter().enumerate() {
            if let Some(ms) = *ms {
                let mover = if i % 2 == 0 { first } else { !first };
                clock[mover.index()] = Some(ms);
            }
        }
        Recorded {
            result: GameResult::parse(&text),
            result_text: text,
            end,
            termination: termination.map(str::to_owned),
            termination_from,
            clock,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RecordedEnd;

    #[test]
    fn server_sentences_are_read_and_nothing_else() {
        use RecordedEnd::*;
        // FICS's and ICC's sentences (as ficsgames.org's exports and the
        // servers themselves write them), and how each reads.
        for (text, end) in [
            ("Black resigns", Resignation),
            ("White checkmated", Checkmate),
            ("Black stalemated", Stalemate),
            ("White forfeits on time", TimeForfeit),
            ("Black forfeits by disconnection", Forfeit),
            (
                "White ran out of time and Black has no material to mate",
                TimeForfeit,
            ),
            ("Game drawn because both players ran out of time", BothFlags),
            ("Game drawn by mutual agreement", Agreement),
            ("Game drawn by repetition", Repetition),
            ("Game drawn by stalemate", Stalemate),
            ("Game drawn by the 50 move rule", FiftyMoves),
            ("Neither player has mating material", DeadPosition),
            (
                "Game drawn because neither player has mating material",
                DeadPosition,
            ),
            (
                "Game 42 (Svag vs. SapceBoy) Game drawn by repetition",
                Repetition,
            ),
            (
                "Game 70 (a vs. b)  Game drawn because both players ran out of time",
                BothFlags,
            ),
            ("Game 1 (x vs. y) y resigns", Resignation),
            // The server's own announcements.
            ("Game 81 (jeremya vs. SuperSkeelos) jeremya checkmated", Checkmate),
            ("Game 96 (badcoffee vs. Ferox) Ferox forfeits on time", TimeForfeit),
            (
                "Game 16 (OJSimpson vs. DynamoK) DynamoK ran out of time and OJSimpson has no material to mate",
                TimeForfeit,
            ),
            ("  White   resigns ", Resignation),
        ] {
            assert!(RecordedEnd::is_server_sentence(text), "{text}");
            assert_eq!(RecordedEnd::parse(Some(text)), end, "{text}");
        }
        for text in [
            "White is lost",
            "threatening mate",
            "White resigns here, but could have played on",
            "Black forfeits on time?",
            "Game drawn",
            "Game 42 (a vs. b",
            "Game 42 (a vs. b)",
            "Mickster wins by losing all material",
            "reuss lost connection and too few moves; game aborted",
            // Bughouse, an adjournment, an abort: no end under the Laws.
            "Game 79 (PVFLU vs. cowchess) PVFLU's partner won",
            "Game 32 (Axxe vs. Gianmarco) Game courtesyadjourned by Gianmarco",
            "Game 44 (franky vs. FoxyFiddler) Game aborted on move 1",
            "",
        ] {
            assert!(!RecordedEnd::is_server_sentence(text), "{text}");
        }
        assert_eq!(
            RecordedEnd::named_loser("Black checkmated"),
            Some(arbiter_chess::Color::Black)
        );
    }

    #[test]
    fn terminations_as_sites_and_programs_write_them() {
        use RecordedEnd::*;
        for (tag, end) in [
            // chess.com: the winner's name first.
            ("qwest50 won by resignation", Resignation),
            // ICC's ICCResult tag.
            ("Black forfeits on time", TimeForfeit),
            ("White stalemated", Stalemate),
            ("White checkmated", Checkmate),
            ("Game adjourned when White disconnected", Unterminated),
            ("1197531 won by resignation", Resignation),
            ("TimeLord won by resignation", Resignation),
            ("deadpool won by checkmate", Checkmate),
            ("stalematey won on time", TimeForfeit),
            ("mate75 won - game abandoned", Forfeit),
            // TCEC, cutechess.
            ("illegal move", IllegalMove),
            ("White makes an illegal move: Nf3", IllegalMove),
            ("Game drawn by repetition", Repetition),
            ("Game drawn by agreement", Agreement),
            ("Game drawn by stalemate", Stalemate),
            ("Game drawn by insufficient material", DeadPosition),
            (
                "Game drawn by timeout vs insufficient material",
                TimeForfeit,
            ),
            ("Game drawn by 50-move rule", FiftyMoves),
            // FICS.
            ("Game drawn because both players ran out of time", BothFlags),
            ("Both flags fell", BothFlags),
            // Lichess, the PGN standard, programs.
            ("Time forfeit", TimeForfeit),
            ("time forfeit", TimeForfeit),
            ("Rules infraction", Forfeit),
            ("abandoned", Forfeit),
            ("White flagged", TimeForfeit),
            ("Black resigns", Resignation),
            ("White mates", Checkmate),
            ("Draw by 3-fold repetition", Repetition),
            ("Draw by five-fold repetition", Fivefold),
            ("Draw by fifty moves rule", FiftyMoves),
            ("75-move rule", SeventyFiveMoves),
            ("Draw by insufficient mating material", DeadPosition),
            ("adjudication", Unspecified),
            ("normal", Unspecified),
            // A Lichess study's puzzle labels: no claim.
            ("+500cp in 2", Unspecified),
            ("-500cp in 3", Unspecified),
            ("+50cp in 1", Unspecified),
            ("mate in 2", Unspecified),
            ("untimed", Unspecified),
        ] {
            assert_eq!(RecordedEnd::parse(Some(tag)), end, "{tag}");
        }
    }

    #[test]
    fn terminations_in_other_languages() {
        use RecordedEnd::*;
        for (tag, end) in [
            // chess.com in Spanish (as a player's download writes them).
            ("Victoria de TiempoLoco por tiempo", TimeForfeit),
            ("Victoria de Pat por abandono", Resignation),
            ("Fulano ha ganado por desistimiento de su oponente", Forfeit),
            ("Partida tablas por repetición", Repetition),
            ("Partida tablas por acuerdo", Agreement),
            ("Partida tablas por rey ahogado", Stalemate),
            ("Partida tablas por material insuficiente", DeadPosition),
            ("Victoria de X por jaque mate", Checkmate),
            ("Partida tablas por regla de 50 movimientos", FiftyMoves),
            // Portuguese, French, Italian.
            ("Fulano venceu por tempo", TimeForfeit),
            ("Fulano venceu por abandono", Resignation),
            ("Partida empatada por afogamento", Stalemate),
            ("Dupont a gagné au temps", TimeForfeit),
            ("Dupont a gagné par abandon", Resignation),
            ("Dupont a gagné par échec et mat", Checkmate),
            ("Partie nulle par répétition", Repetition),
            ("Rossi ha vinto per abbandono", Resignation),
            ("Patta per stallo", Stalemate),
            // German.
            ("Müller gewinnt durch Zeitüberschreitung", TimeForfeit),
            ("Matt gewinnt durch Aufgabe", Resignation),
            ("Remis durch Stellungswiederholung", Repetition),
            ("Remis durch Einigung", Agreement),
            ("Remis durch ungenügendes Material", DeadPosition),
            ("Patt", Stalemate),
            // Russian.
            ("Иванов выиграл по времени", TimeForfeit),
            ("Иванов выиграл: соперник сдался", Resignation),
            ("Ничья по соглашению", Agreement),
            ("Ничья: пат", Stalemate),
            ("Ничья по повторению позиции", Repetition),
            ("Иванов победил, мат", Checkmate),
            // Nothing known: the result alone.
            ("Partida terminada", Unspecified),
        ] {
            assert_eq!(RecordedEnd::parse(Some(tag)), end, "{tag}");
        }
    }

    #[test]
    fn lichess_terminations_read_as_any_value() {
        for tag in [
            "Normal",
            "Time forfeit",
            "Abandoned",
            "Rules infraction",
            "Unterminated",
        ] {
            assert_eq!(
                RecordedEnd::parse(Some(tag)),
                RecordedEnd::read(tag),
                "{tag}"
            );
        }
    }
}
