//! Writing games as PGN in export format (PGN standard §8): the seven-tag
//! roster first, lines shorter than 80 characters, escaped strings, the
//! result; comments, annotations, `[%clk]` times and variations on request;
//! movetext in any [`Notation`] (standard PGN is SAN; other notations are for
//! people and are marked with a `Notation` tag).

use crate::clock::format_clock;
use crate::game::{Game, Line};
use crate::notation::Notation;
use arbiter_chess::{CastlingMode, Color, Position};
use std::io;

/// What to write.
///
/// ```
/// use arbiter_pgn::{Notation, Reader, WriteOptions};
/// let game = Reader::new("1. e4 {best} (1. d4) e5 *".as_bytes()).next_game()?.expect("a game");
/// let bare = WriteOptions { comments: false, variations: false, ..WriteOptions::notation(Notation::Fide) };
/// assert!(game.to_pgn_with(&bare).ends_with("1. e4 e5 *\n\n"));
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct WriteOptions {
    /// The notation of the moves.
    pub notation: Notation,
    /// Write comments.
    pub comments: bool,
    /// Write variations.
    pub variations: bool,
    /// Write `[%clk]` clock times.
    pub clocks: bool,
    /// Write numeric annotation glyphs.
    pub nags: bool,
    /// Lines are kept shorter than this many characters (80 in export format).
    pub width: usize,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            notation: Notation::San,
            comments: true,
            variations: true,
            clocks: true,
            nags: true,
            width: 80,
        }
    }
}

impl WriteOptions {
    /// Default options with another notation.
    pub fn notation(notation: Notation) -> WriteOptions {
        WriteOptions {
            notation,
            ..WriteOptions::default()
        }
    }
}

/// The seven-tag roster (PGN §8.1.1) with the values written when unknown.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => s.push_str("\\\\"),
            '"' => s.push_str("\\\""),
            '\n' | '\r' | '\t' => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

fn tag_line(out: &mut String, name: &str, value: &str) {
    out.push('[');
    // A name set by hand that is not a PGN symbol (`Bad Name]`) is written
    // as one its reader reads (`Bad_Name_`).
    out.push_str(&crate::game::tag_symbol(name));
    out.push_str(" \"");
    out.push_str(&escape(value));
    out.push_str("\"]\n");
}

/// Movetext with line wrapping.
struct Wrap<'a> {
    out: &'a mut String,
    /// Characters on the current line.
    column: usize,
    /// No space before the next token (after `(`).
    glue: bool,
    max: usize,
}

impl Wrap<'_> {
    fn token(&mut self, t: &str) {
        let len = t.chars().count();
        if self.column > 0 && self.column + 1 + len > self.max {
            self.out.push('\n');
            self.column = 0;
        } else if self.column > 0 && !self.glue {
            self.out.push(' ');
            self.column += 1;
        }
        self.glue = false;
        self.out.push_str(t);
        self.column += len;
    }

    fn open(&mut self) {
        self.token("(");
        self.glue = true;
    }

    fn close(&mut self) {
        if self.column + 1 > self.max {
            self.out.push('\n');
            self.column = 0;
        }
        self.out.push(')');
        self.column += 1;
    }

    fn comment(&mut self, text: &str) {
        if text.contains('}') {
            // A brace comment cannot hold `}`: a rest-of-line comment can.
            self.token(&format!(";{text}"));
            self.out.push('\n');
            self.column = 0;
            return;
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.len() {
            0 => self.token("{}"),
            1 => self.token(&format!("{{{}}}", words[0])),
            n => {
                for (i, w) in words.iter().enumerate() {
                    if i == 0 {
                        self.token(&format!("{{{w}"));
                    } else if i == n - 1 {
                        self.token(&format!("{w}}}"));
                    } else {
                        self.token(w);
                    }
                }
            }
        }
    }
}

impl Game {
    /// The game as PGN in export format, SAN, with everything.
    ///
    /// ```
    /// use arbiter_pgn::{Game, Notation, WriteOptions};
    /// let mut game = Game::default();
    /// for san in ["e4", "e5", "Nf3"] {
    ///     let m = game.final_position().parse_san(san)?;
    ///     game.push(m)?.clock_ms = Some(60_000);
    /// }
    /// game.tags.set("White", "Таль, Михаил");
    /// let pgn = game.to_pgn();
    /// assert!(pgn.contains("[White \"Таль, Михаил\"]"));
    /// assert!(pgn.contains("1. e4 {[%clk 0:01:00]} 1... e5 {[%clk 0:01:00]} 2. Nf3"));
    /// let ru = game.to_pgn_with(&WriteOptions::notation(Notation::Russian));
    /// assert!(ru.contains("[Notation \"Russian\"]"));
    /// assert!(ru.contains("2. Кf3"));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_pgn(&self) -> String {
        self.to_pgn_with(&WriteOptions::default())
    }

    /// The game as PGN with the given options.
    pub fn to_pgn_with(&self, options: &WriteOptions) -> String {
        let mut out = String::with_capacity(1024);
        self.write_into(options, &mut out);
        out
    }

    /// Writes the game as PGN to `out`.
    pub fn write_pgn<W: io::Write>(&self, options: &WriteOptions, mut out: W) -> io::Result<()> {
        out.write_all(self.to_pgn_with(options).as_bytes())
    }

    fn write_into(&self, o: &WriteOptions, out: &mut String) {
        let result = self.result();
        for (name, default) in ROSTER {
            let value = if name == "Result" {
                result.as_str()
            } else {
                self.tags.get(name).unwrap_or(default)
            };
            tag_line(out, name, value);
        }
        let standard = self.start == Position::standard();
        let chess960 = self.start.castling_mode() == CastlingMode::Chess960;
        if chess960 && self.tags.get("Variant").is_none() {
            tag_line(out, "Variant", "Chess960");
        }
        if !standard && self.tags.get("FEN").is_none() {
            if self.tags.get("SetUp").is_none() {
                tag_line(out, "SetUp", "1");
            }
            tag_line(out, "FEN", &self.start.fen());
        }
        if o.notation != Notation::San {
            tag_line(out, "Notation", o.notation.name());
        }
        let set_up = self.tags.get("SetUp").is_some();
        for (name, value) in self.tags.iter() {
            if ROSTER.iter().any(|(n, _)| *n == name) || name == "Notation" {
                continue;
            }
            if name == "FEN" && !set_up {
                // PGN §9.7.1: a FEN tag goes with SetUp "1".
                tag_line(out, "SetUp", "1");
            }
            tag_line(out, name, value);
        }
        out.push('\n');
        let mut w = Wrap {
            out,
            column: 0,
            glue: false,
            max: o.width.max(2) - 1,
        };
        write_line(&mut w, o, &self.line, self.start);
        w.token(result.as_str());
        w.out.push_str("\n\n");
    }
}

fn write_line(w: &mut Wrap<'_>, o: &WriteOptions, line: &Line, start: Position) {
    if o.comments {
        for c in &line.comments {
            w.comment(c);
        }
    }
    let mut pos = start;
    let mut number = true;
    let mut text = String::with_capacity(16);
    for node in &line.nodes {
        if pos.turn() == Color::White {
            w.token(&format!("{}.", pos.fullmoves()));
        } else if number {
            w.token(&format!("{}...", pos.fullmoves()));
        }
        number = false;
        text.clear();
        // Writing to a String cannot fail.
        if node.is_null() {
            // A null move, in analysis only; `--` is what readers take.
            text.push_str("--");
        } else {
            let _ = o.notation.write_to(&pos, node.mv, &mut text);
        }
        w.token(&text);
        if o.nags {
            for n in &node.nags {
                w.token(&format!("${n}"));
            }
        }
        if o.clocks {
            if let Some(ms) = node.clock_ms {
                w.token(&format!("{{[%clk {}]}}", format_clock(ms)));
                number = true;
            }
        }
        if o.comments {
            for c in &node.comments {
                w.comment(c);
                number = true;
            }
        }
        if node.draw_offer {
            match o.notation {
                Notation::Fide | Notation::Russian => w.token("(=)"),
                _ => w.comment("(=)"),
            }
            number = true;
        }
        if o.variations {
            for v in &node.variations {
                w.open();
                write_line(w, o, v, pos);
                w.close();
                number = true;
            }
        }
        if node.is_null() {
            pos.play_null();
        } else {
            pos.play_unchecked(node.mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reader;

    fn game_with(comment: &str) -> Game {
        let mut g = Game::default();
        for san in ["e4", "e5", "Nf3"] {
            let m = g.final_position().parse_san(san).unwrap();
            g.push(m).unwrap();
        }
        g.line.nodes[1].comments.push(comment.to_owned());
        g.tags.set("Event", "A \"quoted\" \\ event");
        g
    }

    #[test]
    fn long_comments_wrap_under_80_columns_and_read_back() {
        let long = "слово ".repeat(60).trim().to_owned();
        let g = game_with(&long);
        let pgn = g.to_pgn();
        assert!(pgn.lines().all(|l| l.chars().count() < 80), "{pgn}");
        let back = Reader::new(pgn.as_bytes()).next_game().unwrap().unwrap();
        assert_eq!(back.line, g.line);
        assert_eq!(back.tags.get("Event"), Some("A \"quoted\" \\ event"));
        assert!(pgn.starts_with(
            "[Event \"A \\\"quoted\\\" \\\\ event\"]\n[Site \"?\"]\n[Date \"????.??.??\"]"
        ));
    }

    #[test]
    fn a_closing_brace_in_a_comment_uses_a_line_comment() {
        let g = game_with("a } brace");
        let pgn = g.to_pgn();
        assert!(pgn.contains(";a } brace\n"), "{pgn}");
        let back = Reader::new(pgn.as_bytes()).next_game().unwrap().unwrap();
        assert_eq!(back.line, g.line);
    }

    #[test]
    fn set_up_and_chess960_games_get_their_tags() {
        let start = Position::chess960(0).unwrap();
        let g = Game::new(start);
        let pgn = g.to_pgn();
        assert!(
            pgn.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \""),
            "{pgn}"
        );
        let back = Reader::new(pgn.as_bytes()).next_game().unwrap().unwrap();
        assert_eq!(back.start, start);
    }
}
