//! The audit as JSON: one line per game ([`AuditLine`]) and a last summary
//! line ([`Summary`]).

use super::{Audit, FindingKind};
use serde::Serialize;

#[derive(Serialize)]
struct RecordedOut<'a> {
    result: &'a str,
    termination: Option<&'a str>,
    clock: Option<ClockOut>,
}

#[derive(Serialize)]
struct ClockOut {
    white: Option<u64>,
    black: Option<u64>,
}

#[derive(Serialize)]
struct LawsOut {
    result: String,
    termination: Option<&'static str>,
    article: Option<&'static str>,
    ply: Option<u32>,
}

/// One game's line of `arbiter audit`: `game` (1-based across all inputs),
/// `white`, `black`, `site`, `recorded` (`result`, `termination`, `clock`:
/// the last `[%clk]` of each player or `null`), `laws` (`result`,
/// `termination`, `article`, `ply`: where the Laws ended the game, `null` if
/// it is still going at the end of the record), `agrees`, `plies` and
/// `findings` (each `kind`, `ply`, `article`, `text`, and `place` —
/// `line`, `column` — for a broken record).
///
/// ```
/// use arbiter_laws::audit::{audit, AuditLine, Options};
/// let pgn = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n";
/// let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
/// let json = AuditLine::new(7, &audit(&record, &Options::default())).to_json();
/// assert_eq!(json, concat!(
///     r#"{"game":7,"white":"A","black":"B","site":null,"#,
///     r#""recorded":{"result":"1-0","termination":null,"clock":null},"#,
///     r#""laws":{"result":"1-0","termination":"resignation","article":"5.1 b","ply":2},"#,
///     r#""agrees":true,"plies":2,"findings":[]}"#));
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Serialize)]
pub struct AuditLine<'a> {
    game: u64,
    white: Option<&'a str>,
    black: Option<&'a str>,
    site: Option<&'a str>,
    recorded: RecordedOut<'a>,
    laws: LawsOut,
    agrees: bool,
    plies: u32,
    findings: &'a [super::Finding],
}

impl<'a> AuditLine<'a> {
    /// The line of game number `game` (1-based).
    pub fn new(game: u64, a: &'a Audit) -> AuditLine<'a> {
        let [white, black] = a.recorded.clock;
        AuditLine {
            game,
            white: a.white.as_deref(),
            black: a.black.as_deref(),
            site: a.site.as_deref(),
            recorded: RecordedOut {
                result: &a.recorded.result_text,
                termination: a.recorded.termination.as_deref(),
                clock: (white.is_some() || black.is_some()).then_some(ClockOut { white, black }),
            },
            laws: LawsOut {
                result: a
                    .laws
                    .result
                    .map_or_else(|| "*".to_owned(), |r| r.to_string()),
                termination: a.laws.termination.map(|t| t.name()),
                article: a.laws.article,
                ply: a.laws.ply,
            },
            agrees: a.agrees(),
            plies: a.plies,
            findings: &a.findings,
        }
    }

    /// The line as JSON (no line break).
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(320);
        self.write_json(&mut out);
        out
    }

    /// Appends the line as JSON (no line break) to `out`: the text serde
    /// writes for it (`serde_json::to_string`, the reference a test compares
    /// with), written by hand — the field names fixed, numbers without the
    /// formatter, a string escaped by serde only when it needs escaping.
    ///
    /// ```
    /// use arbiter_laws::audit::{audit, AuditLine, Options};
    /// let pgn = "[White \"A \\\"B\\\"\"]\n[Result \"*\"]\n\n1. e4 *\n";
    /// let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
    /// let a = audit(&record, &Options::default());
    /// let mut out = String::new();
    /// AuditLine::new(1, &a).write_json(&mut out);
    /// assert!(out.starts_with(r#"{"game":1,"white":"A \"B\"","black":null,"#));
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn write_json(&self, out: &mut String) {
        out.push_str("{\"game\":");
        push_number(out, self.game);
        self.write_json_after_number(out);
    }

    /// Appends the line as JSON from what follows the game's number on:
    /// [`AuditLine::write_json`] is `{"game":`, the number, then this. For
    /// writers that number games only once they are in order (the threads
    /// of `arbiter audit` read a file's parts at once, not knowing how many
    /// games come before theirs).
    ///
    /// ```
    /// use arbiter_laws::audit::{audit, AuditLine, Options};
    /// let pgn = "[Result \"*\"]\n\n1. e4 *\n";
    /// let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
    /// let a = audit(&record, &Options::default());
    /// let mut tail = String::new();
    /// AuditLine::new(0, &a).write_json_after_number(&mut tail);
    /// assert_eq!(format!("{{\"game\":12{tail}"), AuditLine::new(12, &a).to_json());
    /// # Ok::<_, std::io::Error>(())
    /// ```
    pub fn write_json_after_number(&self, out: &mut String) {
        out.push_str(",\"white\":");
        push_string(out, self.white);
        out.push_str(",\"black\":");
        push_string(out, self.black);
        out.push_str(",\"site\":");
        push_string(out, self.site);
        out.push_str(",\"recorded\":{\"result\":");
        push_string(out, Some(self.recorded.result));
        out.push_str(",\"termination\":");
        push_string(out, self.recorded.termination);
        out.push_str(",\"clock\":");
        match &self.recorded.clock {
            None => out.push_str("null"),
            Some(c) => {
                out.push_str("{\"white\":");
                push_optional(out, c.white);
                out.push_str(",\"black\":");
                push_optional(out, c.black);
                out.push('}');
            }
        }
        out.push_str("},\"laws\":{\"result\":");
        push_string(out, Some(&self.laws.result));
        out.push_str(",\"termination\":");
        push_string(out, self.laws.termination);
        out.push_str(",\"article\":");
        push_string(out, self.laws.article);
        out.push_str(",\"ply\":");
        push_optional(out, self.laws.ply.map(u64::from));
        out.push_str("},\"agrees\":");
        out.push_str(if self.agrees { "true" } else { "false" });
        out.push_str(",\"plies\":");
        push_number(out, u64::from(self.plies));
        out.push_str(",\"findings\":[");
        for (i, f) in self.findings.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"kind\":");
            push_string(out, Some(f.kind.name()));
            out.push_str(",\"ply\":");
            push_optional(out, f.ply.map(u64::from));
            out.push_str(",\"article\":");
            push_string(out, Some(f.article));
            out.push_str(",\"text\":");
            push_string(out, Some(&f.text));
            if let Some(p) = &f.place {
                out.push_str(",\"place\":{\"line\":");
                push_number(out, p.line);
                out.push_str(",\"column\":");
                push_number(out, p.column);
                out.push('}');
            }
            out.push('}');
        }
        out.push_str("]}");
    }
}

/// `n` in decimal.
fn push_number(out: &mut String, n: u64) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// `n`, or `null`.
fn push_optional(out: &mut String, n: Option<u64>) {
    match n {
        Some(n) => push_number(out, n),
        None => out.push_str("null"),
    }
}

/// `s` as a JSON string, or `null`: copied as it is when nothing in it
/// needs escaping (no `"`, `\` or control character), else as serde
/// escapes it.
fn push_string(out: &mut String, s: Option<&str>) {
    match s {
        None => out.push_str("null"),
        Some(s) if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        Some(s) => out.push_str(&serde_json::to_string(s).expect("a string is always JSON")),
    }
}

/// What a run found, counted: the last line of `arbiter audit`.
///
/// ```
/// use arbiter_laws::audit::{audit, Options, Summary};
/// let pgn = "[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n";
/// let record = arbiter_pgn::Reader::new(pgn.as_bytes()).next_game()?.expect("a game");
/// let mut summary = Summary::default();
/// summary.add(&audit(&record, &Options::default()));
/// assert_eq!((summary.games, summary.disagree, summary.findings_of("wrong_result")), (1, 1, 1));
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Games audited.
    pub games: u64,
    /// Games whose Laws result differs from the recorded one (or could not
    /// be judged).
    pub disagree: u64,
    /// Games with at least one finding.
    pub with_findings: u64,
    /// Findings by kind, in the order of [`FindingKind::ALL`].
    pub findings: [u64; 7],
    /// Main-line plies read.
    pub plies: u64,
    /// Bytes of input read (decompressed).
    pub bytes: u64,
    /// Input errors (a file that cannot be read to its end).
    pub input_errors: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Summary {
    /// Counts one game.
    pub fn add(&mut self, a: &Audit) {
        self.games += 1;
        self.disagree += u64::from(!a.agrees());
        self.with_findings += u64::from(!a.findings.is_empty());
        for f in &a.findings {
            let i = FindingKind::ALL
                .iter()
                .position(|k| *k == f.kind)
                .unwrap_or(0);
            self.findings[i] += 1;
        }
        self.plies += u64::from(a.plies);
    }

    /// Adds another summary's counts (a shard, a thread).
    pub fn merge(&mut self, other: &Summary) {
        self.games += other.games;
        self.disagree += other.disagree;
        self.with_findings += other.with_findings;
        for (a, b) in self.findings.iter_mut().zip(other.findings) {
            *a += b;
        }
        self.plies += other.plies;
        self.bytes += other.bytes;
        self.input_errors += other.input_errors;
    }

    /// The findings of the kind named `name` (`"played_on"`, …).
    pub fn findings_of(&self, name: &str) -> u64 {
        FindingKind::ALL
            .iter()
            .position(|k| k.name() == name)
            .map_or(0, |i| self.findings[i])
    }

    /// The summary line: `{"summary": {"games", "agree", "disagree",
    /// "with_findings", "findings": {kind: n}, "plies", "bytes",
    /// "input_errors", "seconds", "games_per_s", "mb_per_s"}}`.
    pub fn to_json(&self) -> String {
        let mut findings = serde_json::Map::new();
        for (k, n) in FindingKind::ALL.iter().zip(self.findings) {
            findings.insert(k.name().to_owned(), n.into());
        }
        let secs = self.seconds.max(1e-9);
        let round = |x: f64| (x * 10.0).round() / 10.0;
        serde_json::json!({
            "summary": {
                "games": self.games,
                "agree": self.games - self.disagree,
                "disagree": self.disagree,
                "with_findings": self.with_findings,
                "findings": findings,
                "plies": self.plies,
                "bytes": self.bytes,
                "input_errors": self.input_errors,
                "seconds": (self.seconds * 1000.0).round() / 1000.0,
                "games_per_s": round(self.games as f64 / secs),
                "mb_per_s": round(self.bytes as f64 / secs / 1e6),
            }
        })
        .to_string()
    }
}
