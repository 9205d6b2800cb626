//! The reader's two ways through the movetext (the tight loop for the common
//! tokens, the general one for the rest) give every move and comment at the
//! place it stands in the file, whatever the buffer's boundaries: each event's
//! line, column (in characters) and offset are checked against the text itself,
//! and a source that gives a few bytes at a time reads the same events.

use arbiter_pgn::generate::{GenOptions, Generator};
use arbiter_pgn::{Flow, Location, RawText, Reader, SyntaxError, Visitor};
use std::io::Read;

/// Every move, comment and tag as (kind, text, location).
#[derive(Default)]
struct Events(Vec<(char, Vec<u8>, Location)>);

impl Visitor for Events {
    type Output = ();
    fn tag(&mut self, name: &[u8], value: RawText<'_>, at: Location) -> Flow {
        let mut text = name.to_vec();
        text.push(b'=');
        text.extend_from_slice(value.as_bytes());
        self.0.push(('t', text, at));
        Flow::Continue
    }
    fn san(&mut self, text: &[u8], at: Location) -> Flow {
        self.0.push(('m', text.to_vec(), at));
        Flow::Continue
    }
    fn comment(&mut self, text: RawText<'_>, at: Location) -> Flow {
        self.0.push(('c', text.as_bytes().to_vec(), at));
        Flow::Continue
    }
    fn syntax_error(&mut self, e: SyntaxError) {
        self.0
            .push(('e', e.message.as_bytes().to_vec(), e.location));
    }
    fn end_game(&mut self) {}
}

/// Gives at most `step` bytes a read, the steps cycling 1..=7.
struct Trickle<'a> {
    text: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.step = self.step % 7 + 1;
        let n = self.step.min(buf.len()).min(self.text.len());
        buf[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        Ok(n)
    }
}

fn events(source: impl Read) -> Vec<(char, Vec<u8>, Location)> {
    let mut reader = Reader::with_capacity(source, 0);
    let mut events = Events::default();
    while reader.read_game(&mut events).unwrap().is_some() {}
    events.0
}

#[test]
fn every_move_and_comment_is_where_the_text_has_it() {
    let mut generator = Generator::new(GenOptions {
        seed: 14,
        ..GenOptions::default()
    });
    let mut pgn = generator.pgn(60);
    // What the general loop reads beside what the tight one does: wide
    // characters before moves, glued numbers, suffixes, `;` comments, comments
    // over several lines, CRLF, NAGs, results with a dash, a long number.
    pgn += "[White \"Ботвинник\"]\r\n[Black \"Tal\"]\r\n\r\n1. e4 {лучший ход} e5 2.Nf3 Nc6!? \
            3. Bb5 $1 a6 ; Испанская\r\n4. Ba4 {two\r\nlines} 4... Nf6 5. O-O (5. Nc3 Bb4) \
            5... Be7 1234567890. Re1 b5 6.Bb3 d6 7. c3 O-O 1–0\n\n";
    let text = pgn.as_bytes();
    let whole = events(text);
    assert!(whole.iter().filter(|e| e.0 == 'm').count() > 3_000);
    assert!(whole.iter().any(|e| e.0 == 'c'));
    assert!(!whole.iter().any(|e| e.0 == 'e'), "no syntax error");
    for (kind, got, at) in &whole {
        let offset = at.offset as usize;
        let before = &pgn[..offset];
        let line = before.matches('\n').count() as u64 + 1;
        let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count() as u64
            + 1;
        assert_eq!((at.line, at.column), (line, column), "{kind} {got:?}");
        let rest = &text[offset..];
        match kind {
            'm' => assert!(
                rest.starts_with(got),
                "{:?} at {offset}",
                String::from_utf8_lossy(got)
            ),
            'c' => assert!(rest[1..].starts_with(got) && matches!(rest[0], b'{' | b';')),
            _ => assert_eq!(rest[0], b'['),
        }
    }
    assert_eq!(events(Trickle { text, step: 0 }), whole);
}

/// (line, column) of `offset` in `text`, a line ending at an LF, a CR alone
/// or a CRLF.
fn line_column(text: &str, offset: usize) -> (u64, u64) {
    let before = &text[..offset];
    let b = before.as_bytes();
    let breaks: Vec<usize> = (0..b.len())
        .filter(|&i| b[i] == b'\r' || (b[i] == b'\n' && (i == 0 || b[i - 1] != b'\r')))
        .collect();
    let start = match breaks.last() {
        Some(&i) if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') => i + 2,
        Some(&i) => i + 1,
        None => 0,
    };
    let start = start.min(offset);
    (
        breaks.len() as u64 + 1,
        before[start..].chars().count() as u64 + 1,
    )
}

/// Lines ended by a CR alone, as old Mac files have them, count as lines for
/// the locations (found by a tester: an error on line 5 was told at line 1,
/// column 39), also in a file that mixes them with LF and CRLF.
#[test]
fn lines_ended_by_a_cr_alone_are_counted() {
    let mut generator = Generator::new(GenOptions {
        seed: 15,
        ..GenOptions::default()
    });
    let generated = generator.pgn(12);
    let odd = "[White \"Ботвинник\"]\n[Black \"Tal\"]\n\n1. e4 {лучший ход} e5 2.Nf3 Nc6!? \
               3. Bb5 $1 a6 ; Испанская\n4. Ba4 {two\nlines} 4... Nf6 5. O-O (5. Nc3 Bb4) \
               \n% escape\n5... Be7 6. Re1 b5 7.Bb3 d6 8. c3 O-O 1–0\n\n";
    for (what, pgn) in [
        ("CR", format!("{generated}{odd}").replace('\n', "\r")),
        (
            "CR, then LF",
            format!("{}{odd}", generated.replace('\n', "\r")),
        ),
        (
            "LF, then CR",
            format!("{generated}{}", odd.replace('\n', "\r")),
        ),
        (
            "CRLF, then CR",
            format!(
                "{}{}",
                generated.replace('\n', "\r\n"),
                odd.replace('\n', "\r")
            ),
        ),
    ] {
        let text = pgn.as_bytes();
        let whole = events(text);
        assert!(whole.iter().filter(|e| e.0 == 'm').count() > 500, "{what}");
        assert!(!whole.iter().any(|e| e.0 == 'e'), "{what}: no syntax error");
        for (kind, got, at) in &whole {
            let (line, column) = line_column(&pgn, at.offset as usize);
            assert_eq!(
                (at.line, at.column),
                (line, column),
                "{what}: {kind} {got:?}"
            );
        }
        assert_eq!(events(Trickle { text, step: 0 }), whole, "{what}");
        let memory = Reader::from_memory(text.to_vec());
        let mut events = Events::default();
        let mut memory = memory;
        while memory.read_game(&mut events).unwrap().is_some() {}
        assert_eq!(events.0, whole, "{what}");
    }
    // The tester's file: the illegal move is on line 5, column 4.
    let pgn = "[Event \"loc\"]\r\r1. e4 e5\r2. Nf3 Nc6\r3. Ke3 *\r";
    let game = Reader::new(pgn.as_bytes()).next_game().unwrap().unwrap();
    let at = game.error.expect("3. Ke3 is illegal").location;
    assert_eq!((at.line, at.column, at.offset), (5, 4, 38));
}
