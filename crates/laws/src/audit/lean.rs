//! The visitor the audit reads records with: the main line, its clock
//! times and nothing else.

use arbiter_pgn::clock::parse_clock;
use arbiter_pgn::{
    Flow, Game as Record, GameBuilder, GameResult, Location, RawText, SyntaxError, Visitor,
};

/// A [`GameBuilder`] keeping only what the audit judges: the tags, the main
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
/// let pgn = "1. e4 { [%eval 0.2] [%clk 0:01:00] } (1. d4 d5) e5 $1 { good [%emt 0:00:02] } *";
/// let g = Reader::new(pgn.as_bytes()).read_game(&mut LeanBuilder::new())?.expect("a game");
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
fn clock_commands(text: &[u8]) -> impl Iterator<Item = &[u8]> + '_ {
    memchr::memchr_iter(b'%', text).filter_map(move |at| {
        let rest = &text[at.checked_sub(1)?..];
        if !(rest.starts_with(b"[%clk") || rest.starts_with(b"[%emt")) {
            return None;
        }
        memchr::memchr(b']', rest).map(|end| &rest[..=end])
    })
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
        self.inner.tag(name, value, at)
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
        for command in clock_commands(text.as_bytes()) {
            let Ok(command) = std::str::from_utf8(command) else {
                continue;
            };
            if command.starts_with("[%clk") {
                if self.clocks.len() <= ply {
                    self.clocks.resize(ply + 1, None);
                }
                if self.clocks[ply].is_none() {
                    self.clocks[ply] = parse_clock(command[5..command.len() - 1].trim());
                }
            } else {
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
