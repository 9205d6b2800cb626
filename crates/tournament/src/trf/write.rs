//! Writing an [`Event`] as a TRF, column-exact.

use crate::model::{Accelerated, Colour, Event, PairingSystem, Player, PointSystem, Points};
use crate::validate::EventError;
use std::fmt::Write as _;

/// Which edition of the TRF to write.
///
/// ```
/// use arbiter_tournament::trf::TrfVersion;
/// assert_eq!(TrfVersion::default(), TrfVersion::Trf26);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TrfVersion {
    /// TRF-16 with the JaVaFo/bbpPairings extensions (`XXR`, `XXC`, `XXA`, `XXP`, `BB*`).
    Trf16,
    /// TRF-2026 (in force from 1 September 2025): also records 142, 152, 162, 192, 202;
    /// `XXR` and `XXC` are written too, as engines that predate it read only those.
    #[default]
    Trf26,
}

/// Writes an event as a TRF; every line ends with CR LF. An event that does
/// not pass [`Event::validate`] — a value wider than its columns (a rating of
/// 12000, a FIDE id of 12 digits), a line break in a name, an opponent who is
/// no player — is refused: the file would not read back.
///
/// ```
/// use arbiter_tournament::{trf, Event, Player};
/// let mut e = Event::new("Club", 5);
/// e.players.push(Player::new(1, "Doe, John", 2000));
/// let text = trf::write(&e, trf::TrfVersion::Trf16).unwrap();
/// assert!(text.contains("001    1      Doe, John"));
/// assert_eq!(trf::read(&text).unwrap(), e);
/// e.players[0].rating = 12000;
/// assert!(trf::write(&e, trf::TrfVersion::Trf16).is_err());
/// ```
pub fn write(event: &Event, version: TrfVersion) -> Result<String, EventError> {
    event.validate()?;
    // TRF-16 has no record 240: the byes announced for the round to be
    // paired go in its round columns (`0000 - H|F|Z`), which JaVaFo and
    // bbpPairings both read (what `trf16_omissions` lists is lost).
    let with_byes;
    let event = if version == TrfVersion::Trf16 && !event.byes.is_empty() {
        let mut e = event.clone();
        e.enter_announced_byes(event.round_to_pair());
        with_byes = e;
        &with_byes
    } else {
        event
    };
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(s.trim_end());
        out.push_str("\r\n");
    };
    for (code, v) in [
        ("012", &event.name),
        ("022", &event.city),
        ("032", &event.federation),
        ("042", &event.start_date),
        ("052", &event.end_date),
    ] {
        if !v.is_empty() {
            line(format!("{code} {v}"));
        }
    }
    line(format!("062 {}", event.players.len()));
    line(format!(
        "072 {}",
        event.players.iter().filter(|p| p.rating > 0).count()
    ));
    if !event.kind.is_empty() {
        line(format!("092 {}", event.kind));
    }
    if !event.chief_arbiter.is_empty() {
        line(format!("102 {}", event.chief_arbiter));
    }
    for d in &event.deputies {
        line(format!("112 {d}"));
    }
    if !event.time_control.is_empty() {
        line(format!("122 {}", event.time_control));
    }
    let baku = event
        .acceleration
        .as_ref()
        .is_some_and(|a| a.explicit.is_empty());
    if version == TrfVersion::Trf26 {
        if event.total_rounds > 0 {
            line(format!("142 {}", event.total_rounds));
        }
        if let Some(c) = event.initial_colour {
            line(format!(
                "152 {}",
                if c == Colour::White { 'W' } else { 'B' }
            ));
        }
        line(record_162(&event.scoring));
        let sys = match event.system {
            PairingSystem::Dutch2025 => "FIDE_DUTCH",
            PairingSystem::Dutch2017 => "FIDE_DUTCH_2017",
            PairingSystem::RoundRobin => "FIDE_ROUNDROBIN",
            PairingSystem::DoubleRoundRobin => "FIDE_DOUBLEROUNDROBIN",
        };
        let suffix = if baku
            && matches!(
                event.system,
                PairingSystem::Dutch2025 | PairingSystem::Dutch2017
            ) {
            "_BAKU"
        } else {
            ""
        };
        // A pairing system this library does not implement is written back
        // as read, from `other_records`: one 192, not two that contradict.
        if event.declared_system().is_none() {
            line(format!("192 {sys}{suffix}"));
        }
        if !event.tie_breaks.is_empty() {
            line(format!("202 {}", event.tie_breaks.join(",")));
        }
        for b in &event.byes {
            let mut s = format!("240 {} {:>3}", b.result.code(), b.round);
            for id in &b.players {
                let _ = write!(s, " {id:>4}");
            }
            line(s);
        }
        if let Some(a) = &event.acceleration {
            // The Baku rule's records, or the explicit points (read from 250
            // or XXA) as records 250 — TRF-2026's own form; `XXA` follows
            // the player records too, for engines that predate TRF-2026.
            let mut records = a.baku_records(event.scoring);
            records.extend(explicit_records(&a.explicit));
            for r in records {
                line(format!(
                    "250 {:>4} {:>4} {:>3} {:>3} {:>4} {:>4}",
                    "",
                    r.points.to_string(),
                    r.first_round,
                    r.last_round,
                    r.first_id,
                    r.last_id
                ));
            }
        }
        for p in &event.prohibited {
            let mut s = format!("260 {:>3} {:>3}", p.first_round, p.last_round);
            for id in &p.players {
                let _ = write!(s, " {id:>4}");
            }
            line(s);
        }
    }
    for r in &event.other_records {
        line(r.clone());
    }
    if !event.round_dates.is_empty() {
        let mut s = format!("{:<91}", "132");
        for d in &event.round_dates {
            let _ = write!(s, "{d:<8}  ");
        }
        line(s);
    }
    for p in &event.players {
        line(player_line(p, &event.scoring));
    }
    if event.total_rounds > 0 {
        line(format!("XXR {}", event.total_rounds));
    }
    if let Some(c) = event.initial_colour {
        line(format!(
            "XXC {}",
            if c == Colour::White {
                "white1"
            } else {
                "black1"
            }
        ));
    }
    if let Some(a) = &event.acceleration {
        if !a.explicit.is_empty() {
            for (id, pts) in &a.explicit {
                line(xxa(*id, pts));
            }
        } else if version == TrfVersion::Trf16 {
            for p in &event.players {
                let pts: Vec<Points> = (1..=a.rounds as usize)
                    .map(|r| a.virtual_points(p.id, r, event.scoring))
                    .collect();
                if pts.iter().any(|x| *x != Points::ZERO) {
                    line(xxa(p.id, &pts));
                }
            }
        }
    }
    for (a, b) in xxp_pairs(event, version) {
        line(format!("XXP {a} {b}"));
    }
    let s = &event.scoring;
    if !s.is_standard() {
        for (code, v) in [
            ("BBW", s.win),
            ("BBD", s.draw),
            ("BBL", s.loss),
            ("BBZ", s.zero_bye),
            ("BBF", s.forfeit_loss),
            ("BBU", s.pairing_bye),
        ] {
            line(format!("{code} {v:>4}"));
        }
    }
    Ok(out)
}

/// The pairs written as `XXP`: the event's own, and in TRF-16, which has no
/// record 260, the pairs record 260 prohibits in the round to be paired (the
/// round a TRF-16 file is handed to an engine for).
fn xxp_pairs(event: &Event, version: TrfVersion) -> Vec<(u16, u16)> {
    let mut pairs = event.forbidden.clone();
    if version == TrfVersion::Trf16 {
        let round = event.round_to_pair();
        for p in event.prohibited.iter().filter(|p| p.applies(round)) {
            for (k, &a) in p.players.iter().enumerate() {
                for &b in &p.players[k + 1..] {
                    if !pairs.contains(&(a, b)) && !pairs.contains(&(b, a)) {
                        pairs.push((a, b));
                    }
                }
            }
        }
    }
    pairs
}

/// What a TRF-16 file of `event` cannot hold, which [`write`] with
/// [`TrfVersion::Trf16`] leaves out: byes announced (record 240) for a round
/// after the one to be paired, and pairings prohibited (record 260) only in
/// rounds after it. Empty when the TRF-16 file says all the event does about
/// the pairing of the next round and after.
///
/// ```
/// use arbiter_tournament::{trf, AnnouncedBye, Event, Player, RoundResult};
/// let mut e = Event::new("Club", 5);
/// e.players.push(Player::new(1, "A", 2000));
/// e.byes.push(AnnouncedBye { round: 3, result: RoundResult::HalfBye, players: vec![1] });
/// let lost = trf::trf16_omissions(&e);
/// assert_eq!(lost.len(), 1);
/// assert!(lost[0].contains("record 240"));
/// ```
pub fn trf16_omissions(event: &Event) -> Vec<String> {
    let round = event.round_to_pair();
    let mut lost = Vec::new();
    for b in event.byes.iter().filter(|b| usize::from(b.round) > round) {
        let ids: Vec<String> = b.players.iter().map(u16::to_string).collect();
        lost.push(format!(
            "record 240: the {} bye of player(s) {} in round {} (TRF-16 holds only the round to be paired, {round})",
            b.result.code(),
            ids.join(", "),
            b.round
        ));
    }
    for p in &event.prohibited {
        if !p.applies(round) && usize::from(p.last_round) > round {
            let ids: Vec<String> = p.players.iter().map(u16::to_string).collect();
            lost.push(format!(
                "record 260: players {} may not meet in rounds {} to {} (TRF-16's XXP holds only what applies to the round to be paired, {round})",
                ids.join(", "),
                p.first_round,
                p.last_round
            ));
        }
    }
    lost
}

/// Explicit virtual points (by player and round) as records 250: runs of
/// consecutive rounds with the same points, then runs of consecutive
/// starting ranks with the same rounds and points; rounds without virtual
/// points are not written (250's game points are never 0 for individuals).
fn explicit_records(explicit: &[(u16, Vec<Points>)]) -> Vec<Accelerated> {
    let mut runs: Vec<(u16, u16, Points, u16)> = Vec::new();
    for (id, pts) in explicit {
        let mut r = 0;
        while r < pts.len() {
            let v = pts[r];
            let mut end = r;
            while end + 1 < pts.len() && pts[end + 1] == v {
                end += 1;
            }
            if v != Points::ZERO {
                runs.push((r as u16 + 1, end as u16 + 1, v, *id));
            }
            r = end + 1;
        }
    }
    runs.sort();
    let mut out: Vec<Accelerated> = Vec::new();
    for (first_round, last_round, points, id) in runs {
        if let Some(a) = out.last_mut() {
            if (a.first_round, a.last_round, a.points) == (first_round, last_round, points)
                && a.last_id.checked_add(1) == Some(id)
            {
                a.last_id = id;
                continue;
            }
        }
        out.push(Accelerated {
            points,
            first_round,
            last_round,
            first_id: id,
            last_id: id,
        });
    }
    out
}

fn xxa(id: u16, pts: &[Points]) -> String {
    let mut s = format!("XXA {id:>4}");
    for p in pts {
        let _ = write!(s, " {p:>4}");
    }
    s
}

/// Record 162 (TRF-2026): symbol at column 6, points at 7–10, each next pair
/// 9 columns on (symbols at 6, 15, 24, …; points at 7–10, 16–19, 25–28, …).
fn record_162(s: &PointSystem) -> String {
    let mut out = String::from("162 ");
    for (sym, v) in [
        ('W', s.win),
        ('D', s.draw),
        ('L', s.loss),
        ('A', s.zero_bye),
        ('P', s.pairing_bye),
    ] {
        // column 6 + 9k: one space, the symbol, 4 columns of points, 3 spaces.
        let _ = write!(out, " {sym}{:>4}   ", v.to_string());
    }
    out
}

/// A player record `001`, columns as TRF-16 and TRF-2026 define them.
pub(crate) fn player_line(p: &Player, scoring: &PointSystem) -> String {
    let sex = p.sex.map_or(' ', |s| s.code());
    let title = p.title.map_or("", |t| t.as_str());
    let name: String = p.name.chars().take(33).collect();
    let rating = if p.rating == 0 {
        String::new()
    } else {
        p.rating.to_string()
    };
    let fed: String = p.federation.chars().take(3).collect();
    let fide = p.fide_id.map_or(String::new(), |i| i.to_string());
    let birth: String = p.birth.chars().take(10).collect();
    let rank = p.rank.map_or(String::new(), |r| r.to_string());
    let mut s = format!(
        "001 {:>4} {sex}{title:>3} {name:<33} {rating:>4} {fed:<3} {fide:>11} {birth:<10} {:>4} {rank:>4}",
        p.id,
        p.score(scoring).to_string(),
    );
    for e in &p.rounds {
        let opp = e.opponent.map_or("0000".to_string(), |o| o.to_string());
        let col = match e.colour {
            Some(Colour::White) => 'w',
            Some(Colour::Black) => 'b',
            None => '-',
        };
        let _ = write!(s, "  {opp:>4} {col} {}", e.result.code());
    }
    s
}
