//! Reading a TRF into an [`Event`].

use super::TrfError;
use crate::model::{
    Acceleration, Colour, Event, PairingSystem, Player, Points, RoundEntry, RoundResult, Sex, Title,
};

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

/// Reads a TRF-16 or TRF-2026 file (CR, LF or CRLF line ends).
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
    let mut baku = false;
    // Whether the PAB's points are given (162 `P`, `BBU`); else they are a
    // win's (C.04.1 rule 3; TRF-2026 162 "P = W"; bbpPairings' `BBU`).
    let mut pab_given = false;
    let normalised = text.replace("\r\n", "\n").replace('\r', "\n");
    let text = normalised.strip_prefix('\u{feff}').unwrap_or(&normalised);
    let mut player_lines: Vec<usize> = Vec::new();
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
        match code.as_str() {
            "001" => {
                let (p, pts) = read_player(&line)?;
                if event.players.iter().any(|q| q.id == p.id) {
                    return Err(line.err(5, format!("starting rank {} appears twice", p.id)));
                }
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
                    }
                }
            }
            _ => event.other_records.push(raw.to_string()),
        }
        let _ = line.text;
    }
    event.total_rounds = r142.or(xxr).unwrap_or(0);
    if !pab_given {
        event.scoring.pairing_bye = event.scoring.win;
    }
    if !accel_explicit.is_empty() {
        event.acceleration = Some(Acceleration {
            group_a_last: 0,
            rounds: 0,
            explicit: accel_explicit,
        });
    } else if baku {
        let n = event.players.len() as u16;
        event.acceleration = Some(Acceleration::baku(n, event.total_rounds));
    }
    // The file's round columns must agree with each other, and the points
    // column with the results (as bbpPairings checks).
    for (k, p) in event.players.iter().enumerate() {
        let line_no = player_lines[k];
        for (r, e) in p.rounds.iter().enumerate() {
            let col = 92 + 10 * r;
            if let Some(o) = e.opponent {
                let Some(q) = event.player(o) else {
                    return Err(TrfError::new(
                        line_no,
                        col,
                        format!("round {}: no player has starting rank {o}", r + 1),
                    ));
                };
                if o == p.id {
                    return Err(TrfError::new(
                        line_no,
                        col,
                        format!("round {}: a player cannot meet themself", r + 1),
                    ));
                }
                let Some(back) = q.rounds.get(r) else {
                    return Err(TrfError::new(
                        line_no,
                        col,
                        format!("round {}: opponent {o} has no entry for this round", r + 1),
                    ));
                };
                if back.opponent != Some(p.id) {
                    return Err(TrfError::new(
                        line_no,
                        col,
                        format!(
                            "round {}: opponent {o} lists {} as opponent",
                            r + 1,
                            back.opponent.map_or("none".to_string(), |x| x.to_string())
                        ),
                    ));
                }
                let ok_result = back.result == e.result.reversed()
                    || (e.result == RoundResult::ForfeitLoss
                        && back.result == RoundResult::ForfeitLoss)
                    || (!e.result.is_played() && !back.result.is_played());
                if !ok_result {
                    return Err(TrfError::new(
                        line_no,
                        col + 7,
                        format!(
                            "round {}: result {} does not match opponent {o}'s {}",
                            r + 1,
                            e.result.code(),
                            back.result.code()
                        ),
                    ));
                }
                if let (Some(a), Some(b)) = (e.colour, back.colour) {
                    if a == b {
                        return Err(TrfError::new(
                            line_no,
                            col + 5,
                            format!("round {}: both players have the same colour", r + 1),
                        ));
                    }
                }
            }
        }
    }
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
        if opponent.is_none() && result.needs_opponent() {
            return Err(line.err(
                base,
                format!("round {}: result {rc} needs an opponent", r + 1),
            ));
        }
        if opponent.is_some() && result.is_bye() {
            return Err(line.err(
                base,
                format!(
                    "round {}: a bye ({}) has no opponent; write 0000",
                    r + 1,
                    result.code()
                ),
            ));
        }
        if opponent.is_none() && colour.is_some() {
            return Err(line.err(
                base + 5,
                format!("round {}: a colour without an opponent", r + 1),
            ));
        }
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
