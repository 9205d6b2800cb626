//! `arbiter pgn`: check and convert game records (FIDE Art. 8, Appendix C).

use anyhow::{Context, Result};
use arbiter_chess::FenOptions;
use arbiter_pgn::check::Checker;
use arbiter_pgn::generate::{GenOptions, Generator};
use arbiter_pgn::{
    Dialect, Game, GameBuilder, GameError, GameErrorKind, Notation, Reader, WriteOptions,
};
use serde_json::json;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

/// Options of `arbiter pgn`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Replay and check every move of every game; one JSON line per game,
    /// then a summary line. Exit status 1 if any game has an error.
    Check {
        /// The PGN file (`-` for standard input).
        file: String,
        /// Read moves in this notation (default: the Notation tag, else any).
        #[arg(long)]
        from: Option<Notation>,
    },
    /// Write the games in another notation (standard PGN is `en`).
    Convert {
        /// The PGN file (`-` for standard input).
        file: String,
        /// The notation to write: en, fide, ru, figurine, lan, uci.
        #[arg(long, default_value = "en")]
        to: Notation,
        /// Read moves in this notation (default: the Notation tag, else any).
        #[arg(long)]
        from: Option<Notation>,
        /// Leave out comments.
        #[arg(long)]
        no_comments: bool,
        /// Leave out variations.
        #[arg(long)]
        no_variations: bool,
        /// Leave out `[%clk]` clock times.
        #[arg(long)]
        no_clocks: bool,
    },
    /// Write seeded random games (standard, Chess960, set-up positions; with
    /// clock times, comments and variations) for tests and benchmarks.
    Generate {
        /// How many games.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// The seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where to write (`-` for standard output).
        #[arg(long, default_value = "-")]
        out: String,
    },
}

/// `file` (`-`: standard input) as a stream, decompressed as its first
/// bytes say (zstd, bzip2, gzip), as `arbiter audit` reads it.
fn open(file: &str) -> Result<Box<dyn Read>> {
    Ok(crate::audit::open(file)?)
}

/// One line of `arbiter pgn check` output.
#[derive(serde::Serialize)]
struct GameLine<'a> {
    game: u64,
    white: Option<&'a str>,
    black: Option<&'a str>,
    result: Option<&'a str>,
    plies: u32,
    /// `None` when the game has no position to start from (its `FEN` or
    /// `Variant` tag refused).
    final_fen: Option<&'a str>,
    error: Option<ErrorLine<'a>>,
    /// What the reader changed to go on (castling rights dropped, …); left
    /// out when there is nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

/// Where and why a game is wrong.
#[derive(serde::Serialize)]
struct ErrorLine<'a> {
    line: u64,
    column: u64,
    ply: Option<u32>,
    /// The move's number as the record writes it (`22...`: Black's 22nd
    /// move), from the start position's move number.
    move_number: Option<String>,
    #[serde(rename = "move")]
    text: Option<&'a str>,
    message: String,
}

impl<'a> ErrorLine<'a> {
    fn new(e: &'a GameError) -> ErrorLine<'a> {
        ErrorLine {
            line: e.location.line,
            column: e.location.column,
            ply: e.ply,
            move_number: e.move_number.map(|n| n.to_string()),
            text: e.text.as_deref(),
            message: e.message(),
        }
    }
}

/// `true` if JSON escapes a byte of `s`: a control character, `"` or `\`
/// (serde_json writes every other byte as it is). Eight bytes at a time:
/// a byte below 0x20, or equal to `"` or `\`, sets its top bit in the
/// usual has-zero-byte test.
fn needs_escape(s: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOPS: u64 = 0x8080_8080_8080_8080;
    let special = |x: u64| {
        let below_space = x.wrapping_sub(ONES * 0x20) & !x;
        let quote = x ^ (ONES * u64::from(b'"'));
        let backslash = x ^ (ONES * u64::from(b'\\'));
        (below_space
            | (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash))
            & TOPS
            != 0
    };
    let mut chunks = s.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        if special(u64::from_le_bytes(word)) {
            return true;
        }
    }
    chunks
        .remainder()
        .iter()
        .any(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

/// Writes `line` as JSON, as serde would: the common line (no error, no
/// warning) by hand, the field names fixed and the strings escaped by serde
/// only when they need it; any other line through serde.
fn write_game_line(out: &mut impl Write, line: &GameLine<'_>) -> io::Result<()> {
    if line.error.is_some() || !line.warnings.is_empty() {
        return Ok(serde_json::to_writer(out, line)?);
    }
    fn string(out: &mut impl Write, s: Option<&str>) -> io::Result<()> {
        match s {
            None => out.write_all(b"null"),
            Some(s) if !needs_escape(s.as_bytes()) => {
                out.write_all(b"\"")?;
                out.write_all(s.as_bytes())?;
                out.write_all(b"\"")
            }
            Some(s) => Ok(serde_json::to_writer(out, s)?),
        }
    }
    /// A number in decimal, without the formatting machinery.
    fn number(out: &mut impl Write, n: u64) -> io::Result<()> {
        out.write_all(itoa::Buffer::new().format(n).as_bytes())
    }
    out.write_all(b"{\"game\":")?;
    number(out, line.game)?;
    out.write_all(b",\"white\":")?;
    string(out, line.white)?;
    out.write_all(b",\"black\":")?;
    string(out, line.black)?;
    out.write_all(b",\"result\":")?;
    string(out, line.result)?;
    out.write_all(b",\"plies\":")?;
    number(out, u64::from(line.plies))?;
    // A FEN is letters, digits, `/`, `-` and spaces: nothing to escape.
    out.write_all(b",\"final_fen\":")?;
    string(out, line.final_fen)?;
    out.write_all(b",\"error\":null}")
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Command::Check { file, from } => check(&file, from.map(Notation::dialect)),
        Command::Convert {
            file,
            to,
            from,
            no_comments,
            no_variations,
            no_clocks,
        } => {
            let options = WriteOptions {
                notation: to,
                comments: !no_comments,
                variations: !no_variations,
                clocks: !no_clocks,
                ..WriteOptions::default()
            };
            convert(&file, from.map(Notation::dialect), &options)
        }
        Command::Generate { games, seed, out } => generate(games, seed, &out),
    }
}

/// The input of `pgn check`: a regular file mapped into memory, read where
/// it lies ([`Reader::from_memory`]: no copy into the reader's buffer), or
/// a stream read through the buffer — standard input, a pipe, a device, an
/// empty file, or a file the system cannot map.
enum Input {
    Mapped(memmap2::Mmap),
    Stream(Box<dyn Read>),
}

/// `file` (`-`: standard input), mapped when it can be; compressed input
/// (zstd, bzip2, gzip, known by its first bytes) read through its decoder.
fn input(file: &str) -> Result<Input> {
    Ok(match crate::mapped::map_file(file)? {
        Some(map)
            if crate::audit::Compression::of(&map).is_some() || crate::audit::is_utf16(&map) =>
        {
            Input::Stream(open(file)?)
        }
        Some(map) => {
            let _ = map.advise(memmap2::Advice::Sequential);
            Input::Mapped(map)
        }
        None => Input::Stream(open(file)?),
    })
}

fn check(file: &str, dialect: Option<Dialect>) -> Result<ExitCode> {
    match input(file)? {
        Input::Mapped(map) => check_with(Reader::from_memory(map), dialect, file),
        Input::Stream(stream) => check_with(Reader::new(stream), dialect, file),
    }
}

/// Checks the games of `reader`, read from `file`.
fn check_with<R: Read>(
    mut reader: Reader<R>,
    dialect: Option<Dialect>,
    file: &str,
) -> Result<ExitCode> {
    let mut checker = dialect.map_or_else(Checker::new, Checker::with_dialect);
    let mut out = BufWriter::new(crate::out::stdout());
    let (mut games, mut errors, mut plies) = (0u64, 0u64, 0u64);
    let mut fen = String::new();
    while let Some(g) = reader
        .read_game(&mut checker)
        .with_context(|| format!("cannot read {file}"))?
    {
        games += 1;
        plies += u64::from(g.plies);
        if g.error.is_some() {
            errors += 1;
        }
        let line = GameLine {
            game: g.number,
            white: g.white.as_deref(),
            black: g.black.as_deref(),
            result: g.result.map(|r| r.as_str()),
            plies: g.plies,
            final_fen: if g.error.as_ref().is_some_and(|e| {
                matches!(e.kind, GameErrorKind::Fen(_) | GameErrorKind::Variant(_))
            }) {
                None
            } else {
                fen.clear();
                g.final_position.write_fen(FenOptions::default(), &mut fen);
                Some(&fen)
            },
            error: g.error.as_ref().map(ErrorLine::new),
            warnings: g.warnings.iter().map(|w| w.kind.to_string()).collect(),
        };
        write_game_line(&mut out, &line)?;
        out.write_all(b"\n")?;
    }
    let summary = json!({
        "summary": { "games": games, "errors": errors, "plies": plies, "bytes": reader.bytes_read() }
    });
    writeln!(out, "{summary}")?;
    out.flush()?;
    Ok(if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn convert(file: &str, dialect: Option<Dialect>, options: &WriteOptions) -> Result<ExitCode> {
    let mut reader = Reader::new(open(file)?);
    let mut builder = dialect.map_or_else(GameBuilder::new, GameBuilder::with_dialect);
    let mut out = BufWriter::new(crate::out::stdout());
    let mut failed = false;
    while let Some(game) = reader
        .read_game(&mut builder)
        .with_context(|| format!("cannot read {file}"))?
    {
        for w in &game.warnings {
            eprintln!("arbiter: warning: {w}");
        }
        match &game.error {
            // A wrong move in a variation cut that variation short; the main
            // line is whole, so the game is written.
            Some(e) if e.in_variation => {
                failed = true;
                eprintln!("arbiter: variation cut short: {e}");
                out.write_all(game.to_pgn_with(options).as_bytes())?;
            }
            // A wrong move (or tag) in the main line: the game is written up
            // to it, as `audit --annotate` writes it.
            Some(e) => {
                failed = true;
                eprintln!("arbiter: {e} (the game written up to it)");
                out.write_all(up_to_error(game).to_pgn_with(options).as_bytes())?;
            }
            None => out.write_all(game.to_pgn_with(options).as_bytes())?,
        }
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `game`, whose main line broke, as it is written: its tags, its result,
/// and the moves read before the error, after which a comment names the
/// error and its place (`{Read up to here: line 9, column 7, ply 2, at
/// "Ke7": illegal move …}`).
fn up_to_error(mut game: Game) -> Game {
    let Some(e) = &game.error else {
        return game;
    };
    let text = e.to_string();
    // Its place in the input, without the game's number.
    let place = text
        .strip_prefix(&format!("game {}, ", e.game))
        .unwrap_or(&text);
    game.line
        .comment_at_end(format!("Read up to here: {place}"));
    game
}

fn generate(games: u64, seed: u64, out: &str) -> Result<ExitCode> {
    let sink: Box<dyn Write> = if out == "-" {
        Box::new(crate::out::stdout())
    } else {
        crate::create_parent_dir(std::path::Path::new(out))?;
        Box::new(File::create(out).with_context(|| format!("cannot create {out}"))?)
    };
    let mut sink = BufWriter::new(sink);
    let mut generator = Generator::new(GenOptions {
        seed,
        ..GenOptions::default()
    });
    let written = (|| {
        for i in 1..=games {
            sink.write_all(generator.game(i).to_pgn().as_bytes())?;
        }
        sink.flush()
    })();
    written.with_context(|| format!("cannot write {out}"))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_escape_finds_every_byte_json_escapes_wherever_it_stands() {
        for len in 1..=17 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut text = vec![b'a'; len];
                    text[at] = b;
                    // Bytes of every kind around it: none may hide it or be taken for it.
                    if len > 2 {
                        text[(at + 1) % len] = 0xff;
                    }
                    let expected = b < 0x20 || b == b'"' || b == b'\\';
                    assert_eq!(
                        needs_escape(&text),
                        expected,
                        "byte {b:#x} at {at} of {len}"
                    );
                }
            }
        }
        assert!(!needs_escape(b""));
        assert!(!needs_escape("Ботвинник, Михаил €".as_bytes()));
    }

    #[test]
    fn a_line_written_by_hand_is_the_line_serde_writes() {
        let names = [
            None,
            Some(""),
            Some("Carlsen, Magnus"),
            Some("Ботвинник"),
            Some("a \"quoted\" name"),
            Some("back\\slash"),
            Some("tab\there\u{1}\u{7f}"),
            Some("€ ½ 🙂 </script>"),
            Some("Kasparov, Garry \"Gazza\""),
            Some("Smith, Jo\u{1}hn, Jr."),
            Some("Smith, John\\ Jr."),
            Some("Nakamura, Hikaru\u{1f}"),
        ];
        let error = GameError {
            game: 1,
            location: arbiter_pgn::Location {
                line: 3,
                column: 7,
                offset: 40,
            },
            ply: Some(5),
            move_number: Some(arbiter_pgn::MoveNumber {
                number: 3,
                color: arbiter_chess::Color::White,
            }),
            text: Some("Nf9".into()),
            kind: arbiter_pgn::GameErrorKind::Syntax("a test"),
            in_variation: false,
        };
        let mut lines = 0;
        for white in names {
            for black in names {
                for (result, with_error) in [(None, false), (Some("1-0"), false), (Some("*"), true)]
                {
                    let line = GameLine {
                        game: [0, 7, 12_345_678_901, u64::MAX][lines % 4],
                        white,
                        black,
                        result,
                        plies: [0, 81, 10, u32::MAX][lines % 4],
                        final_fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1"),
                        error: with_error.then(|| ErrorLine::new(&error)),
                        warnings: Vec::new(),
                    };
                    let mut ours = Vec::new();
                    write_game_line(&mut ours, &line).unwrap();
                    let theirs = serde_json::to_vec(&line).unwrap();
                    assert_eq!(
                        String::from_utf8(ours).unwrap(),
                        String::from_utf8(theirs).unwrap()
                    );
                    lines += 1;
                }
            }
        }
        assert_eq!(lines, 12 * 12 * 3);
    }
}
