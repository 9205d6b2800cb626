//! Reading a TRF into an [`Event`].

use super::TrfError;
use crate::model::{
    Accelerated, Acceleration, AnnouncedBye, Colour, Event, PairingSystem, Player, Points,
    Prohibition, RoundEntry, RoundResult, Sex, Title,
};
use crate::validate::Place;

/// The lines the records came from, to name them in errors found once the
/// whole file is read.
#[derive(Default)]
struct Origins {
    records: Vec<(String, usize)>,
    forbidden: Vec<usize>,
    prohibited: Vec<usize>,
    byes: Vec<usize>,
    accelerated: Vec<usize>,
}

impl Origins {
    /// The line of the last record `code` (0 when the file has none).
    fn record(&self, code: &str) -> usize {
        self.records
            .iter()
            .rev()
            .find(|(c, _)| c == code)
            .map_or(0, |(_, l)| *l)
    }
}

/// One line as characters, with 1-based column access.
struct Line<'a> {
    no: usize,
    chars: Vec<char>,
    text: &'a str,
}

impl Line<'_> {
    /// Columns `from..=to` (1-based), as a string (shorter when the line is).
    fn cols(&self, from: usize, to: usize) -> String {
        self.chars
            .iter()
            .skip(from - 1)
            .take(to + 1 - from)
            .collect()
    }
    fn data(&self) -> String {
        self.cols(5, self.chars.len().max(5)).trim_end().to_string()
    }
    fn err(&self, column: usize, message: impl Into<String>) -> TrfError {
        TrfError::new(self.no, column, message)
    }
    fn number<T: std::str::FromStr>(
        &self,
        from: usize,
        to: usize,
        what: &str,
    ) -> Result<Option<T>, TrfError> {
        let s = self.cols(from, to);
        let t = s.trim();
        if t.is_empty() {
            return Ok(None);
        }
        t.parse()
            .map(Some)
            .map_err(|_| self.err(from, format!("{what} is not a number: {t:?}")))
    }
}

/// Reads a TRF from its bytes: as [`read`], and a file that is not UTF-8
/// (Latin-1, Windows-1252) is refused with the line and column (byte, from 1)
/// of the first byte that is not.
///
/// ```
/// let err = arbiter_tournament::trf::read_bytes(b"012 Club\n022 M\xfcnchen\n").unwrap_err();
/// assert_eq!((err.line, err.column), (2, 6));
/// ```
pub fn read_bytes(bytes: &[u8]) -> Result<Event, TrfError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => read(text),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
            let start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            Err(TrfError::new(
                line,
                good.len() - start + 1,
                "not UTF-8 text (a TRF in Latin-1 or Windows-1252? convert it to UTF-8)",
            ))
        }
    }
}

/// Reads a TRF-16 or TRF-2026 file (CR, LF or CRLF line ends). A text with
/// no TRF record at all (no player record `001`, no header record the TRF
/// defines: a PGN, a README) is refused, naming its first line.
///
/// ```
/// let text = "012 Club\nXXR 3\n\
/// 001    1      Doe, John                         2000                             1.0          2 w 1\n\
/// 001    2      Roe, Jane                         1900                             0.0          1 b 0\n";
/// let event = arbiter_tournament::trf::read(text).unwrap();
/// assert_eq!(event.total_rounds, 3);
/// assert_eq!(event.players[1].rounds[0].opponent, Some(1));
/// ```
pub fn read(text: &str) -> Result<Event, TrfError> {
    let mut event = Event::new("", 0);
    let mut declared: Vec<(usize, Points)> = Vec::new();
    let mut xxr = None;
    let mut r142 = None;
    let mut accel_explicit: Vec<(u16, Vec<Points>)> = Vec::new();
    let mut accel_250: Vec<(usize, Accelerated)> = Vec::new();
    let mut where_ = Origins::default();
    let mut baku = false;
    let mut seen_192: Option<usize> = None;
    // Whether the PAB's points are given (162 `P`, `BBU`); else they are a
    // win's (C.04.1 rule 3; TRF-2026 162 "P = W"; bbpPairings' `BBU`).
    let mut pab_given = false;
    let normalised = text.replace("\r\n", "\n").replace('\r', "\n");
    let text = normalised.strip_prefix('\u{feff}').unwrap_or(&normalised);
    let mut player_lines: Vec<usize> = Vec::new();
    // Whether any line is a record the TRF defines (not kept verbatim).
    let mut any_record = false;
    for (i, raw) in text.split('\n').enumerate() {
        let line = Line {
            no: i + 1,
            chars: raw.chars().collect(),
            text: raw,
        };
        if raw.trim().is_empty() {
            continue;
        }
        if raw.starts_with("###") {
            event.other_records.push(raw.to_string());
            continue;
        }
        let code = line.cols(1, 3);
        where_.records.push((code.clone(), line.no));
        match code.as_str() {
            "001" => {
                let (p, pts) = read_player(&line)?;
                declared.push((event.players.len(), pts));
                player_lines.push(line.no);
                event.players.push(p);
            }
            "012" => event.name = line.data(),
            "022" => event.city = line.data(),
            "032" => event.federation = line.data(),
            "042" => event.start_date = line.data(),
            "052" => event.end_date = line.data(),
            "062" | "072" | "082" => {}
            "092" => event.kind = line.data(),
            "102" => event.chief_arbiter = line.data(),
            "112" => event.deputies.push(line.data()),
            "122" => event.time_control = line.data(),
            "132" => {
                let mut r = 0;
                loop {
                    let from = 92 + 10 * r;
                    if from > line.chars.len() {
                        break;
                    }
                    event
                        .round_dates
                        .push(line.cols(from, from + 7).trim().to_string());
                    r += 1;
                }
            }
            "142" => {
                r142 = line.number::<u16>(5, line.chars.len().max(5), "the number of rounds")?
            }
            "XXR" => {
                xxr = line.number::<u16>(5, line.chars.len().max(5), "the number of rounds")?
            }
            "152" => {
                event.initial_colour = Some(match line.data().trim() {
                    "W" | "w" => Colour::White,
                    "B" | "b" => Colour::Black,
                    d => {
                        return Err(line.err(5, format!("initial colour must be W or B, not {d:?}")))
                    }
                })
            }
            "XXC" => {
                for tok in line.data().split_whitespace() {
                    match tok.to_ascii_lowercase().as_str() {
                        "white1" => event.initial_colour = Some(Colour::White),
                        "black1" => event.initial_colour = Some(Colour::Black),
                        "rank" => {}
                        t => {
                            let col = 5 + line.data().find(tok).unwrap_or(0);
                            return Err(line.err(col, format!("unknown XXC option {t:?}")));
                        }
                    }
                }
            }
            "162" => read_162(&line, &mut event, &mut pab_given)?,
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                let v: Points = line
                    .data()
                    .parse()
                    .map_err(|e: crate::model::PointsError| line.err(5, e.to_string()))?;
                let s = &mut event.scoring;
                match code.as_str() {
                    "BBW" => s.win = v,
                    "BBD" => s.draw = v,
                    "BBL" => s.loss = v,
                    "BBZ" => s.zero_bye = v,
                    "BBF" => s.forfeit_loss = v,
                    _ => {
                        s.pairing_bye = v;
                        pab_given = true;
                    }
                }
            }
            "192" => {
                // ETT26: one record 192 per file. A system this library does
                // not implement (Dubov, Burstein, CUSTOM_…) is kept verbatim
                // and written back as it is, the only 192 (see
                // `Event::declared_system`).
                if let Some(first) = seen_192.replace(line.no) {
                    return Err(line.err(
                        1,
                        format!("record 192 appears twice (line {first} and here): a TRF has one pairing system"),
                    ));
                }
                let d = line.data();
                let t = d.trim().to_ascii_uppercase();
                event.system = match t.as_str() {
                    s if s.starts_with("FIDE_DUTCH_2017") => PairingSystem::Dutch2017,
                    s if s.starts_with("FIDE_DUTCH") => PairingSystem::Dutch2025,
                    "FIDE_DOUBLEROUNDROBIN" => PairingSystem::DoubleRoundRobin,
                    "BERGER_ROUNDROBIN" | "FIDE_ROUNDROBIN" => PairingSystem::RoundRobin,
                    _ => {
                        event.other_records.push(raw.to_string());
                        continue;
                    }
                };
                baku = t.ends_with("_BAKU");
            }
            "202" => {
                event.tie_breaks = line
                    .data()
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect()
            }
            "XXA" => {
                let id = line
                    .number::<u16>(5, 8, "the starting rank")?
                    .ok_or_else(|| line.err(5, "XXA needs a starting rank in columns 5-8"))?;
                let mut pts = Vec::new();
                let mut r = 0;
                loop {
                    let from = 10 + 5 * r;
                    if from > line.chars.len() {
                        break;
                    }
                    let f = line.cols(from, from + 3);
                    let v = if f.trim().is_empty() {
                        Points::ZERO
                    } else {
                        f.parse()
                            .map_err(|e: crate::model::PointsError| line.err(from, e.to_string()))?
                    };
                    pts.push(v);
                    r += 1;
                }
                accel_explicit.push((id, pts));
                where_.accelerated.push(line.no);
            }
            "XXP" => {
                let mut ids = Vec::new();
                let data = line.data();
                let mut col = 5;
                for tok in data.split(' ') {
                    if !tok.is_empty() {
                        ids.push(tok.parse::<u16>().map_err(|_| {
                            line.err(col, format!("XXP lists starting ranks, not {tok:?}"))
                        })?);
                    }
                    col += tok.chars().count() + 1;
                }
                for (k, a) in ids.iter().enumerate() {
                    for b in &ids[k + 1..] {
                        event.forbidden.push((*a, *b));
                        where_.forbidden.push(line.no);
                    }
                }
            }
            "240" => {
                event.byes.push(read_240(&line)?);
                where_.byes.push(line.no);
            }
            "250" => accel_250.push((line.no, read_250(&line)?)),
            "260" => {
                event.prohibited.push(read_260(&line)?);
                where_.prohibited.push(line.no);
            }
            _ => {
                event.other_records.push(raw.to_string());
                continue;
            }
        }
        any_record = true;
        let _ = line.text;
    }
    if !any_record {
        let first = text
            .split('\n')
            .position(|l| !l.trim().is_empty())
            .map_or(1, |i| i + 1);
        return Err(TrfError::new(
            first,
            1,
            "not a TRF: no player record (001) and no TRF header record (012, 042, 142, XXR…)",
        ));
    }
    event.total_rounds = r142.or(xxr).unwrap_or(0);
    if !pab_given {
        event.scoring.pairing_bye = event.scoring.win;
    }
    event.acceleration = acceleration(
        &event,
        baku,
        accel_explicit,
        accel_250,
        &mut where_.accelerated,
    );
    // The file's round columns must agree with each other and every field
    // fit its columns (one home: `Event::validate`), and the points column
    // must match the results (as bbpPairings checks).
    event.validate().map_err(|e| {
        let (line, column) = match e.place {
            Place::Record(code) => (where_.record(code), 5),
            Place::Player { index, column } => (player_lines[index], column),
            Place::Forbidden(k) => (where_.forbidden.get(k).copied().unwrap_or(0), 5),
            Place::Prohibited(k) => (where_.prohibited.get(k).copied().unwrap_or(0), 13),
            Place::Bye(k) => (where_.byes.get(k).copied().unwrap_or(0), 11),
            Place::Accelerated(k) => (where_.accelerated.get(k).copied().unwrap_or(0), 5),
        };
        TrfError::new(line, column, e.message)
    })?;
    for (k, pts) in declared {
        let p = &event.players[k];
        let s = p.score(&event.scoring);
        if s != pts {
            return Err(TrfError::new(
                player_lines[k],
                81,
                format!(
                    "player {}: points {} do not add up to the results ({s})",
                    p.id, pts
                ),
            ));
        }
    }
    event.players.sort_by_key(|p| p.id);
    Ok(event)
}

fn read_162(line: &Line, event: &mut Event, pab_given: &mut bool) -> Result<(), TrfError> {
    let mut col = 6;
    while col <= line.chars.len() {
        let sym = line.cols(col, col);
        if sym.trim().is_empty() {
            col += 9;
            continue;
        }
        let f = line.cols(col + 1, col + 4);
        let v: Points = f
            .parse()
            .map_err(|e: crate::model::PointsError| line.err(col + 1, e.to_string()))?;
        let s = &mut event.scoring;
        match sym.as_str() {
            "W" => s.win = v,
            "D" => s.draw = v,
            "L" => s.loss = v,
            "A" | "Z" => {
                s.zero_bye = v;
                s.forfeit_loss = v
            }
            "P" | "U" => {
                s.pairing_bye = v;
                *pab_given = true;
            }
            "X" => {}
            o => return Err(line.err(col, format!("unknown scoring symbol {o:?}"))),
        }
        col += 9;
    }
    Ok(())
}

fn read_player(line: &Line) -> Result<(Player, Points), TrfError> {
    // A number wider than its columns runs into the blank column after it
    // (a starting rank 12345 read as 1234, a rating 12345 as 1234, a FIDE id
    // of 12 digits): refused, not cut.
    for (col, what) in [
        (9, "the starting rank (columns 5-8)"),
        (53, "the rating (columns 49-52)"),
        (69, "the FIDE id (columns 58-68)"),
    ] {
        let c = line.cols(col, col);
        if c.chars().any(|ch| ch.is_ascii_digit()) {
            return Err(line.err(col, format!("{what} is wider than its columns")));
        }
    }
    let id = line
        .number::<u16>(5, 8, "the starting rank")?
        .filter(|&n| n >= 1)
        .ok_or_else(|| line.err(5, "a player needs a starting rank (1-9999) in columns 5-8"))?;
    let sex = match line.cols(10, 10).as_str() {
        "m" | "M" => Some(Sex::Male),
        "w" | "W" | "f" | "F" => Some(Sex::Female),
        " " | "" => None,
        s => return Err(line.err(10, format!("sex must be m or w, not {s:?}"))),
    };
    let t = line.cols(11, 13);
    let title = if t.trim().is_empty() {
        None
    } else {
        Some(
            t.parse::<Title>()
                .map_err(|_| line.err(11, format!("unknown title {:?}", t.trim())))?,
        )
    };
    let name = line.cols(15, 47).trim().to_string();
    let rating = line.number::<u16>(49, 52, "the rating")?.unwrap_or(0);
    let federation = line.cols(54, 56).trim().to_string();
    let fide_id = line.number::<u64>(58, 68, "the FIDE id")?;
    let birth = line.cols(70, 79).trim().to_string();
    let p = line.cols(81, 84);
    let points: Points = if p.trim().is_empty() {
        Points::ZERO
    } else {
        p.parse()
            .map_err(|e: crate::model::PointsError| line.err(81, e.to_string()))?
    };
    let rank = line.number::<u16>(86, 89, "the rank")?;
    let len = line.text.trim_end().chars().count();
    let mut rounds = Vec::new();
    let mut r = 0;
    while 92 + 10 * r <= len {
        let base = 92 + 10 * r;
        let opp_s = line.cols(base, base + 3);
        let colour_s = line.cols(base + 5, base + 5);
        let res_s = line.cols(base + 7, base + 7);
        let opponent = match opp_s.trim() {
            "" => None,
            s => {
                let n: u16 = s.parse().map_err(|_| {
                    line.err(
                        base,
                        format!("round {}: opponent is not a starting rank: {s:?}", r + 1),
                    )
                })?;
                (n != 0).then_some(n)
            }
        };
        let colour = match colour_s.as_str() {
            "w" | "W" => Some(Colour::White),
            "b" | "B" => Some(Colour::Black),
            "-" | " " | "" => None,
            c => {
                return Err(line.err(
                    base + 5,
                    format!("round {}: colour must be w, b or -, not {c:?}", r + 1),
                ))
            }
        };
        let rc = res_s.chars().next().unwrap_or(' ');
        // A blank result beside an opponent: paired, not yet played (an event in progress).
        let pending = rc == ' ' && opponent.is_some();
        let result = if pending {
            Some(RoundResult::Pending)
        } else {
            RoundResult::from_code(rc)
        }
        .ok_or_else(|| {
            line.err(
                base + 7,
                format!("round {}: unknown result code {rc:?}", r + 1),
            )
        })?;
        // `0000 - +`: a win's points with no opponent, how programs before
        // TRF-16's `U` wrote the pairing-allocated bye; bbpPairings reads it
        // as a round the player was paired in and won without a game, its
        // PAB. Read as `U` (and written back so).
        let result = if opponent.is_none() && result == RoundResult::ForfeitWin {
            RoundResult::PairingBye
        } else {
            result
        };
        // Byes with an opponent, games without one, colours without an
        // opponent: `Event::validate` (one home for the checks).
        if opponent.is_some() && colour.is_none() && result.is_played() {
            return Err(line.err(
                base + 5,
                format!("round {}: a played game needs a colour", r + 1),
            ));
        }
        for (c, what) in [
            (base - 1, "the space before the opponent"),
            (base + 4, "the space after the opponent"),
            (base + 6, "the space after the colour"),
        ] {
            let s = line.cols(c, c);
            if !(s.is_empty() || s == " ") {
                return Err(line.err(c, format!("round {}: {what} holds {s:?}", r + 1)));
            }
        }
        rounds.push(RoundEntry {
            opponent,
            colour,
            result,
        });
        r += 1;
    }
    let player = Player {
        id,
        sex,
        title,
        name,
        rating,
        federation,
        fide_id,
        birth,
        rank,
        rounds,
    };
    Ok((player, points))
}

/// The acceleration the file gives: `XXA` lines and record 250 explicitly,
/// else `192 …_BAKU` by the Baku rule. 250 records that are the Baku rule's
/// own (what [`super::write`] writes for a Baku event) keep group A as they
/// name it — fixed when the first round was paired, whatever late entries
/// came after (C.04.5.1: "the last GA player stays the same").
fn acceleration(
    event: &Event,
    baku: bool,
    mut explicit: Vec<(u16, Vec<Points>)>,
    records: Vec<(usize, Accelerated)>,
    lines: &mut Vec<usize>,
) -> Option<Acceleration> {
    let runs: Vec<Accelerated> = records.iter().map(|(_, a)| *a).collect();
    if baku && explicit.is_empty() && !runs.is_empty() {
        let rule = Acceleration {
            group_a_last: runs.iter().map(|a| a.last_id).max().unwrap_or(0),
            rounds: runs.iter().map(|a| a.last_round).max().unwrap_or(0),
            explicit: Vec::new(),
        };
        if rule.baku_records(event.scoring) == runs {
            return Some(rule);
        }
    }
    for (line, a) in &records {
        for id in a.first_id..=a.last_id {
            let k = match explicit.iter().position(|(p, _)| *p == id) {
                Some(k) => k,
                None => {
                    explicit.push((id, Vec::new()));
                    lines.push(*line);
                    explicit.len() - 1
                }
            };
            let pts = &mut explicit[k].1;
            for r in a.first_round..=a.last_round {
                let i = usize::from(r) - 1;
                if pts.len() <= i {
                    pts.resize(i + 1, Points::ZERO);
                }
                pts[i] = a.points;
            }
        }
    }
    if !explicit.is_empty() {
        return Some(Acceleration {
            group_a_last: 0,
            rounds: 0,
            explicit,
        });
    }
    baku.then(|| Acceleration::baku(event.players.len() as u16, event.total_rounds))
}

/// A number in columns `from..=to` that must be there.
fn required<T: std::str::FromStr>(
    line: &Line,
    from: usize,
    to: usize,
    what: &str,
) -> Result<T, TrfError> {
    line.number::<T>(from, to, what)?
        .ok_or_else(|| line.err(from, format!("{what} is missing (columns {from}-{to})")))
}

/// Starting ranks in fields of 4 columns from `from`, 5 columns apart.
fn ids_from(line: &Line, from: usize) -> Result<Vec<u16>, TrfError> {
    let mut ids = Vec::new();
    let mut col = from;
    while col <= line.chars.len() {
        if let Some(id) = line.number::<u16>(col, col + 3, "a starting rank")? {
            ids.push(id);
        }
        col += 5;
    }
    if ids.is_empty() {
        return Err(line.err(from, format!("no starting rank from column {from}")));
    }
    Ok(ids)
}

/// Record 240 (TRF-2026): bye type in column 5 (`F`, `H`, `Z`), the round in
/// 7–9, starting ranks in 11–14, 16–19, …
fn read_240(line: &Line) -> Result<AnnouncedBye, TrfError> {
    let t = line.cols(5, 5);
    let result = match t.to_ascii_uppercase().as_str() {
        "F" => RoundResult::FullBye,
        "H" => RoundResult::HalfBye,
        "Z" => RoundResult::ZeroBye,
        _ => {
            return Err(line.err(
                5,
                format!("record 240: the bye type is F, H or Z, not {t:?}"),
            ))
        }
    };
    let round = required::<u16>(line, 7, 9, "the round")?;
    Ok(AnnouncedBye {
        round,
        result,
        players: ids_from(line, 11)?,
    })
}

/// Record 250 (TRF-2026): match points 5–8 (teams), game points 10–13, first
/// and last round 15–17 / 19–21, first and last starting rank 23–26 / 28–31.
fn read_250(line: &Line) -> Result<Accelerated, TrfError> {
    let gp = line.cols(10, 13);
    let points: Points = gp
        .parse()
        .map_err(|e: crate::model::PointsError| line.err(10, format!("record 250: {e}")))?;
    let a = Accelerated {
        points,
        first_round: required(line, 15, 17, "the first round")?,
        last_round: required(line, 19, 21, "the last round")?,
        first_id: required(line, 23, 26, "the first starting rank")?,
        last_id: required(line, 28, 31, "the last starting rank")?,
    };
    if a.first_round == 0 || a.first_round > a.last_round {
        return Err(line.err(
            15,
            "record 250: the first round must be 1 to the last round",
        ));
    }
    if a.first_id == 0 || a.first_id > a.last_id {
        return Err(line.err(
            23,
            "record 250: the first starting rank must be 1 to the last",
        ));
    }
    Ok(a)
}

/// Record 260 (TRF-2026): first and last round 5–7 / 9–11, starting ranks
/// in 13–16, 18–21, …
fn read_260(line: &Line) -> Result<Prohibition, TrfError> {
    let first_round = required(line, 5, 7, "the first round")?;
    let last_round = required(line, 9, 11, "the last round")?;
    let players = ids_from(line, 13)?;
    if players.len() < 2 {
        return Err(line.err(13, "record 260 names at least two players"));
    }
    Ok(Prohibition {
        first_round,
        last_round,
        players,
    })
}
