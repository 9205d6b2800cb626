//! The visitor the audit reads records with: the main line, its clock
//! times and nothing else.

use arbiter_pgn::clock::parse_clock;
use arbiter_pgn::{
    Flow, Game as Record, GameBuilder, GameResult, Location, RawText, SyntaxError, Visitor,
};

/// The tags the audit reads (the players and the game's address for its
/// line, the recorded end, the clock's control) and those that say how the
/// moves are to be read (the start position, the variant, the notation);
/// [`LeanBuilder`] keeps no other.
const AUDITED_TAGS: [&[u8]; 10] = [
    b"White",
    b"Black",
    b"Site",
    b"Result",
    b"Termination",
    b"TimeControl",
    b"FEN",
    b"SetUp",
    b"Variant",
    b"Notation",
];

/// A [`GameBuilder`] keeping only what the audit judges: the tags it reads
/// (players, site, result, termination, time control,
/// start position, variant, notation), the main
/// line's moves (each still checked) and, of the comments, the `[%clk …]`
/// and `[%emt …]` commands (Art. 6: the clocks). Variations are skipped
/// unread, annotation glyphs and other comment text dropped, so a record
/// costs little more than checking its moves. What it builds audits as the
/// full record does; to write the record out again
/// ([`annotate`](super::annotate)) read it with [`GameBuilder`].
///
/// ```
/// use arbiter_laws::audit::LeanBuilder;
/// use arbiter_pgn::Reader;
/// let pgn = "[Event \"Open\"]\n[White \"A\"]\n\n1. e4 { [%eval 0.2] [%clk 0:01:00] } (1. d4 d5) e5 $1 { good [%emt 0:00:02] } *";
/// let g = Reader::new(pgn.as_bytes()).read_game(&mut LeanBuilder::new())?.expect("a game");
/// assert_eq!((g.tags.get("White"), g.tags.get("Event")), (Some("A"), None));
/// assert_eq!(g.line.nodes.len(), 2);
/// assert!(g.line.nodes[0].variations.is_empty() && g.line.nodes[1].nags.is_empty());
/// assert_eq!(g.line.nodes[0].clock_ms, Some(60_000));
/// assert_eq!(g.line.nodes[1].comments, vec!["[%emt 0:00:02]".to_owned()]);
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Default)]
pub struct LeanBuilder {
    inner: GameBuilder,
    /// Main-line moves read so far in this game.
    plies: usize,
    /// Per ply (1-based, index `ply - 1`): the first readable `[%clk]`.
    clocks: Vec<Option<u64>>,
    /// `[%emt]` commands, with the ply they follow.
    elapsed: Vec<(usize, String)>,
}

impl LeanBuilder {
    /// A builder reading moves in any notation, as [`GameBuilder::new`].
    pub fn new() -> LeanBuilder {
        LeanBuilder::default()
    }
}

/// The `[%clk …]` and `[%emt …]` commands of a comment, each up to its `]`.
/// A plain scan: a move's comment is a few dozen bytes, too short for
/// `memchr`'s set-up to pay (measured: a third of the cost of reading a
/// Lichess record's comments).
fn clock_commands(text: &[u8]) -> impl Iterator<Item = &[u8]> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        while at + 5 <= text.len() {
            let rest = &text[at..];
            at += 1;
            if rest[0] != b'[' || rest[1] != b'%' {
                continue;
            }
            if !(rest.starts_with(b"[%clk") || rest.starts_with(b"[%emt")) {
                continue;
            }
            // (A command inside another's brackets is found too.)
            if let Some(end) = rest.iter().position(|&b| b == b']') {
                return Some(&rest[..=end]);
            }
            return None;
        }
        None
    })
}

/// The time of a comment that is one `[%clk h:mm:ss]` and nothing else (as
/// Lichess writes most of them), read directly; `None` for any other
/// comment, which [`clock_commands`] and [`parse_clock`] then read (to the
/// same time for this one).
fn lone_clock(text: &[u8]) -> Option<u64> {
    let inner = text
        .trim_ascii()
        .strip_prefix(b"[%clk ")?
        .strip_suffix(b"]")?;
    let digit = |b: u8| b.is_ascii_digit().then(|| u64::from(b - b'0'));
    match *inner {
        [h, b':', m1, m2, b':', s1, s2] => {
            let minutes = digit(m1)? * 10 + digit(m2)?;
            let seconds = digit(s1)? * 10 + digit(s2)?;
            Some(digit(h)? * 3_600_000 + minutes * 60_000 + seconds * 1000)
        }
        _ => None,
    }
}

impl Visitor for LeanBuilder {
    type Output = Record;

    fn begin_game(&mut self, number: u64, at: Location) {
        self.inner.begin_game(number, at);
        self.plies = 0;
        self.clocks.clear();
        self.elapsed.clear();
    }

    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) -> Flow {
        if AUDITED_TAGS.contains(&name) {
            self.inner.tag(name, value, at)
        } else {
            Flow::Continue
        }
    }

    fn begin_movetext(&mut self) -> Flow {
        self.inner.begin_movetext()
    }

    fn san(&mut self, text: &[u8], at: Location) -> Flow {
        self.plies += 1;
        self.inner.san(text, at)
    }

    fn nag(&mut self, _nag: u8, _at: Location) -> Flow {
        Flow::Continue
    }

    fn comment(&mut self, text: RawText<'_>, _at: Location) -> Flow {
        // Before the first move: no move's time (as in the full record).
        let Some(ply) = self.plies.checked_sub(1) else {
            return Flow::Continue;
        };
        let text = text.as_bytes();
        if let Some(ms) = lone_clock(text) {
            if self.clocks.len() <= ply {
                self.clocks.resize(ply + 1, None);
            }
            self.clocks[ply].get_or_insert(ms);
            return Flow::Continue;
        }
        for command in clock_commands(text) {
            if command.starts_with(b"[%clk") {
                if self.clocks.len() <= ply {
                    self.clocks.resize(ply + 1, None);
                }
                if self.clocks[ply].is_none() {
                    // The time between `[%clk` and `]`, as `parse_clock` reads it.
                    let time = std::str::from_utf8(&command[5..command.len() - 1]);
                    self.clocks[ply] = time.ok().and_then(|t| parse_clock(t.trim()));
                }
            } else if let Ok(command) = std::str::from_utf8(command) {
                self.elapsed.push((ply, command.to_owned()));
            }
        }
        Flow::Continue
    }

    fn begin_variation(&mut self, _at: Location) -> Flow {
        Flow::Skip
    }

    fn end_variation(&mut self, _at: Location) -> Flow {
        Flow::Continue
    }

    fn result(&mut self, result: GameResult, at: Location) -> Flow {
        self.inner.result(result, at)
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        self.inner.syntax_error(error);
    }

    fn end_game(&mut self) -> Record {
        let mut record = self.inner.end_game();
        let nodes = &mut record.line.nodes;
        for (node, clock) in nodes.iter_mut().zip(&self.clocks) {
            node.clock_ms = *clock;
        }
        for (ply, command) in self.elapsed.drain(..) {
            if let Some(node) = nodes.get_mut(ply) {
                node.comments.push(command);
            }
        }
        record
    }
}

#[cfg(test)]
mod tests {
    use super::{clock_commands, lone_clock};
    use arbiter_pgn::clock::parse_clock;

    #[test]
    fn a_lone_clock_reads_as_parse_clock_reads_it() {
        for text in ["[%clk 0:05:00]", " [%clk 1:59:07] ", "[%clk 9:00:59]"] {
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
            "[%clk 0:05:00.5]",
            "[%clk 10:05:00]",
            "[%clk 0:05:00] [%emt 0:00:01]",
            "[%clk 0:5:00]",
            "[%clk 0:0a:00]",
            "x",
        ] {
            assert_eq!(lone_clock(other.as_bytes()), None, "{other}");
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
