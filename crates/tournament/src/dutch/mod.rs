//! The FIDE Dutch system (Handbook C.04.3; C.04.1 basic rules, C.04.2 general
//! handling), the 2025 rules in force from 1 February 2026 by default, the 2017
//! rules selectable.
//!
//! Brackets are paired from the top, as the rules order. For each bracket, one
//! maximum-weight matching over every player still unpaired decides it: the
//! weight of an edge holds, most significant first, the completion of the
//! whole round (C4) and the bye (C2, C5), the pairs and scores paired in this
//! bracket (C6, C7; one field per score, so every score is told apart) and in
//! the next (C8), the PAB assignee's unplayed games in a bracket that
//! downfloats exactly one player, who gets the PAB (C9, 2025), the colour
//! criteria (C10–C13) and the
//! float criteria (C14–C17), then the order in which C.04.3 generates its
//! candidates (which MDPs are paired, their opponents, the exchanges in the
//! remainder, then each S1 player's opponent): the best candidate by the
//! criteria, and among equals the one generated first. The idea is the one
//! bbpPairings documents (all criteria in one multi-precision weight); the
//! code is Arbiter's own.

mod state;

pub use state::{entrants, pairing_numbers, Entrant, Float, Rules, Strength};

use crate::matching::{Lex, Rematcher, Solution};
use crate::model::{Colour, Event, Points};
use std::collections::HashMap;

/// Options of the pairing.
///
/// ```
/// use arbiter_tournament::dutch::{Options, Rules};
/// let o = Options { rules: Rules::Fide2017, ..Options::default() };
/// assert_eq!(o.rules, Rules::Fide2017);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The edition of the rules.
    pub rules: Rules,
    /// Compute every matching over the whole field, not over the bracket
    /// and the next score group first: the reference computation, slower
    /// (cubic in the field), with the same pairings (`tests/restricted.rs`).
    pub whole_field: bool,
    /// Start every matching from scratch, not from the matching of the
    /// stage or bracket before (a reference computation, slower, with the
    /// same pairings: `tests/restricted.rs`).
    pub cold_matchings: bool,
}

/// The pairing of one round: pairs `(white, black)` by starting rank in board
/// order (C.04.2 3.6), and the player with the pairing-allocated bye.
///
/// ```
/// use arbiter_tournament::{dutch, Event, Player};
/// let mut e = Event::new("Club", 3);
/// for i in 1..=5 {
///     e.players.push(Player::new(i, &format!("P{i}"), 2000 - i * 10));
/// }
/// let round = dutch::pair(&e, Default::default()).unwrap();
/// assert_eq!(round.pairs.len(), 2);
/// assert_eq!(round.bye, Some(5));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundPairing {
    /// The round paired (1-based).
    pub round: usize,
    /// `(white, black)` by starting rank, board 1 first.
    pub pairs: Vec<(u16, u16)>,
    /// The player with the pairing-allocated bye.
    pub bye: Option<u16>,
}

impl RoundPairing {
    /// The format JaVaFo and bbpPairings write for `-p`: the number of pairs,
    /// then `WHITE BLACK` per line, the bye as `ID 0`.
    ///
    /// ```
    /// use arbiter_tournament::dutch::RoundPairing;
    /// let r = RoundPairing { round: 1, pairs: vec![(1, 3), (4, 2)], bye: Some(5) };
    /// assert_eq!(r.to_engine_format(), "3\n1 3\n4 2\n5 0\n");
    /// ```
    pub fn to_engine_format(&self) -> String {
        let mut s = format!("{}\n", self.pairs.len() + usize::from(self.bye.is_some()));
        for (w, b) in &self.pairs {
            s.push_str(&format!("{w} {b}\n"));
        }
        if let Some(b) = self.bye {
            s.push_str(&format!("{b} 0\n"));
        }
        s
    }
}

/// Why a round could not be paired.
///
/// ```
/// use arbiter_tournament::dutch::PairError;
/// let e = PairError::NoValidPairing("two players who met already".into());
/// assert!(e.to_string().contains("no valid pairing"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    /// No pairing satisfies the absolute criteria C1–C3 (the arbiter decides).
    #[error("no valid pairing exists: {0}")]
    NoValidPairing(String),
    /// The event cannot be paired as it stands.
    #[error("cannot pair: {0}")]
    Event(String),
    /// The event is not a valid event ([`Event::validate`]): a starting rank
    /// twice, an opponent who is no player, two lines that disagree on a game…
    #[error("cannot pair: {0}")]
    Invalid(#[from] crate::EventError),
}

/// Pairs the next round of `event` ([`Event::round_to_pair`]: requested byes
/// and withdrawals entered ahead do not make a round paired).
pub fn pair(event: &Event, options: Options) -> Result<RoundPairing, PairError> {
    pair_round(event, event.round_to_pair(), options)
}

/// Pairs round `round` (1-based) from the rounds before it; entries already in
/// round `round` count only as absences (requested byes, withdrawals), and so
/// do the byes announced for it (TRF-2026 record 240). Players named together
/// by `XXP` or, for this round, by record 260 are not paired together (C1).
/// An event that fails [`Event::validate`] is refused, and so is a round past
/// [`Event::round_to_pair`].
///
/// ```
/// use arbiter_tournament::dutch::{pair_round, PairError};
/// use arbiter_tournament::{Event, Player};
/// let mut e = Event::new("Club", 0);
/// e.players.push(Player::new(1, "A", 2000));
/// e.players.push(Player::new(1, "B", 1900));
/// assert!(matches!(pair_round(&e, 1, Default::default()), Err(PairError::Invalid(_))));
/// e.players[1].id = 2;
/// assert!(matches!(pair_round(&e, 100, Default::default()), Err(PairError::Event(_))));
/// ```
pub fn pair_round(
    event: &Event,
    round: usize,
    options: Options,
) -> Result<RoundPairing, PairError> {
    if round == 0 {
        return Err(PairError::Event("rounds are numbered from 1".into()));
    }
    if event.total_rounds > 0 && round > event.total_rounds as usize {
        return Err(PairError::Event(format!(
            "the event has {} rounds; round {round} is past the last",
            event.total_rounds
        )));
    }
    event.validate()?;
    let next = event.round_to_pair();
    if round > next {
        return Err(PairError::Event(format!(
            "round {round} cannot be paired before round {next}"
        )));
    }
    let with_byes;
    let event = if event.byes.iter().any(|b| usize::from(b.round) == round) {
        let mut e = event.clone();
        e.enter_announced_byes(round);
        with_byes = e;
        &with_byes
    } else {
        event
    };
    let mut players = entrants(event, round, options.rules);
    players.sort_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
    let forbidden = event.forbidden_in(round);
    // Record 152 / XXC, else the colour round 1 shows (TRF-2026 152).
    let initial = event.initial_colour_in_force();
    let pairer = Pairer {
        p: &players,
        forbidden,
        rules: options.rules,
        whole_field: options.whole_field,
        cold: options.cold_matchings,
    };
    let (pairs, bye) = pairer.run()?;
    // Colours (C.04.3 5.2) and board order (C.04.2 3.6).
    let mut boards: Vec<(u16, u16, Points, Points, u16)> = pairs
        .into_iter()
        .map(|(a, b)| {
            let (hi, lo) = if a < b { (a, b) } else { (b, a) }; // indices: lower index ranks higher
            let (w, bl) = allocate(&players[hi], &players[lo], initial);
            let (s1, s2) = (players[hi].score, players[lo].score);
            (w, bl, s1.max(s2), s1 + s2, players[hi].id)
        })
        .collect();
    boards.sort_by(|x, y| y.2.cmp(&x.2).then(y.3.cmp(&x.3)).then(x.4.cmp(&y.4)));
    Ok(RoundPairing {
        round,
        pairs: boards.into_iter().map(|b| (b.0, b.1)).collect(),
        bye: bye.map(|i| players[i].id),
    })
}

/// Colour allocation, C.04.3 5.2 (D17 E): `hi` ranks higher than `lo`.
fn allocate(hi: &Entrant, lo: &Entrant, initial: Colour) -> (u16, u16) {
    let give = |c: Colour| {
        if c == Colour::White {
            (hi.id, lo.id)
        } else {
            (lo.id, hi.id)
        }
    };
    match (hi.preference, lo.preference) {
        (Some(a), Some(b)) if a != b => return give(a),
        (Some(a), None) => return give(a),
        (None, Some(b)) => return give(b.opposite()),
        _ => {}
    }
    if let (Some(a), Some(_)) = (hi.preference, lo.preference) {
        // 5.2.2: the stronger preference; both absolute: the wider difference.
        if hi.strength != lo.strength {
            return if hi.strength > lo.strength {
                give(a)
            } else {
                give(a.opposite())
            };
        }
        if hi.strength == Strength::Absolute && hi.difference.abs() != lo.difference.abs() {
            return if hi.difference.abs() > lo.difference.abs() {
                give(a)
            } else {
                give(a.opposite())
            };
        }
        // 5.2.3: alternate from the latest round where their colours differed.
        let (x, y) = (&hi.colours, &lo.colours);
        let n = x.len().min(y.len());
        for k in 1..=n {
            let (cx, cy) = (x[x.len() - k], y[y.len() - k]);
            if cx != cy {
                return give(cx.opposite());
            }
        }
        // 5.2.4: the higher-ranked player's preference.
        return give(a);
    }
    // 5.2.5: the initial colour to an odd-numbered higher-ranked player
    // (the pairing number of this round, `pairing_numbers`).
    if hi.number % 2 == 1 {
        give(initial)
    } else {
        give(initial.opposite())
    }
}

const WORDS: usize = 10;
/// The words a bracket's S1-opponent fields may fill the weights up to.
const S1_WORDS: usize = 6;
type W = Lex<WORDS>;

/// Packs criteria (each a non-negative field of a known width) into a `Lex`
/// weight, the first field most significant.
struct Packer {
    slots: Vec<(usize, u32)>,
}

impl Packer {
    fn new(widths: &[u32]) -> Option<Packer> {
        let mut slots = Vec::with_capacity(widths.len());
        let mut word = 0;
        let mut used = 0u32;
        for &w in widths {
            if used + w > 120 {
                word += 1;
                used = 0;
            }
            if word >= WORDS || w > 120 {
                return None;
            }
            used += w;
            slots.push((word, used));
        }
        Some(Packer { slots })
    }
    /// The words the fields take.
    fn words(&self) -> usize {
        self.slots.last().map_or(0, |s| s.0 + 1)
    }
    fn pack(&self, values: &[i128]) -> W {
        let mut out = [0i128; WORDS];
        for (i, &v) in values.iter().enumerate() {
            let (word, end) = self.slots[i];
            out[word] += v << (120 - end);
        }
        Lex(out)
    }
}

/// The matchings of one bracket's stages, each started from the one before
/// ([`Rematcher`]): computed over only as many words of the weights as some
/// edge, or the duals carried over, use (the words after them are zero in
/// every weight and dual, so every comparison, and hence the matching, is
/// the same).
#[derive(Default)]
struct Stages {
    /// The last matching, its duals widened to every word.
    last: Option<Solution<W>>,
    /// The words its weights used.
    words: usize,
    /// The players of the last matching, by index in pairing order.
    players: Vec<usize>,
    /// Every matching from scratch.
    cold: bool,
    /// The matchers, their buffers kept between matchings of one width.
    matchers: Matchers,
    /// The edges of the next matching (a buffer `Pairer::decide` fills).
    edges: Vec<(usize, usize, W)>,
    /// The graph of `Pairer::complete` (a buffer).
    graph: petgraph::graph::UnGraph<(), ()>,
}

/// A matcher per width of the weights (the words used), each keeping its
/// buffers from one matching to the next (a large bracket's graph takes
/// tens of megabytes).
#[derive(Default)]
struct Matchers {
    r1: Rematcher<Lex<1>>,
    r2: Rematcher<Lex<2>>,
    r3: Rematcher<Lex<3>>,
    r4: Rematcher<Lex<4>>,
    r6: Rematcher<Lex<6>>,
    r8: Rematcher<Lex<8>>,
    r10: Rematcher<Lex<WORDS>>,
}

impl Stages {
    /// A maximum-weight matching of `players` (indices in pairing order)
    /// by `edges` (between positions in `players`), whose weights use the
    /// first `used` words.
    fn solve(
        &mut self,
        players: &[usize],
        edges: &[(usize, usize, W)],
        used: usize,
    ) -> Vec<Option<usize>> {
        fn run<const K: usize>(
            r: &mut Rematcher<Lex<K>>,
            last: Option<Solution<W>>,
            edges: &[(usize, usize, W)],
            n: usize,
            carry: &[Option<usize>],
        ) -> (Vec<Option<usize>>, Option<Solution<W>>) {
            let short = |w: W| Lex(std::array::from_fn(|i| w.0[i]));
            r.restart_from(last.map(|s| s.map(short)));
            let mates = r.solve(n, edges.iter().map(|&(a, b, w)| (a, b, short(w))), carry);
            let wide = r.take().map(|s| {
                s.map(|w: Lex<K>| Lex(std::array::from_fn(|i| if i < K { w.0[i] } else { 0 })))
            });
            (mates, wide)
        }
        if self.cold {
            self.last = None;
            self.words = 0;
        }
        let mut at = HashMap::new();
        for (k, &i) in self.players.iter().enumerate() {
            at.insert(i, k);
        }
        let carry: Vec<Option<usize>> = players.iter().map(|i| at.get(i).copied()).collect();
        let words = match used.max(self.words) {
            0..=1 => 1,
            2 => 2,
            3 => 3,
            4 => 4,
            5..=6 => 6,
            7..=8 => 8,
            _ => WORDS,
        };
        let n = players.len();
        let last = self.last.take();
        if words != self.words {
            // One width's buffers at a time: memory freed is memory the
            // next buffers reuse (fresh pages cost their zeroing).
            self.matchers = Matchers::default();
        }
        let (mates, last) = match words {
            1 => run(&mut self.matchers.r1, last, edges, n, &carry),
            2 => run(&mut self.matchers.r2, last, edges, n, &carry),
            3 => run(&mut self.matchers.r3, last, edges, n, &carry),
            4 => run(&mut self.matchers.r4, last, edges, n, &carry),
            6 => run(&mut self.matchers.r6, last, edges, n, &carry),
            8 => run(&mut self.matchers.r8, last, edges, n, &carry),
            _ => run(&mut self.matchers.r10, last, edges, n, &carry),
        };
        self.last = last;
        self.words = words;
        self.players = players.to_vec();
        mates
    }
}

fn bits(x: u64) -> u32 {
    64 - x.leading_zeros()
}

struct Pairer<'a> {
    /// Players in pairing order (score, then TPN); indices are "ranks".
    p: &'a [Entrant],
    forbidden: std::collections::HashSet<(u16, u16)>,
    rules: Rules,
    whole_field: bool,
    /// Every matching from scratch ([`Options::cold_matchings`]).
    cold: bool,
}

/// Which role a player has in the bracket being decided.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Zone {
    Bracket,
    Next,
    Below,
}

/// The pairs (by index in pairing order) and the index of the player with the bye.
type Outcome = (Vec<(usize, usize)>, Option<usize>);

impl Pairer<'_> {
    /// C1 (not met before, not forbidden) and C3 (same absolute preference,
    /// unless a topscorer in the final round).
    fn compatible(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.p[a], &self.p[b]);
        if x.met.contains(&y.id) || self.forbidden.contains(&(x.id, y.id)) {
            return false;
        }
        !(x.strength == Strength::Absolute
            && y.strength == Strength::Absolute
            && x.preference == y.preference
            && !(x.topscorer || y.topscorer))
    }

    fn run(&self) -> Result<Outcome, PairError> {
        let n = self.p.len();
        if n == 0 {
            return Ok((Vec::new(), None));
        }
        if !self.whole_field {
            if let Some(outcome) = self.without_history() {
                return Ok(outcome);
            }
        }
        let compat: Vec<Vec<bool>> = (0..n)
            .map(|a| (0..n).map(|b| a != b && self.compatible(a, b)).collect())
            .collect();
        // C5: the lowest score the bye can go to, from one global matching.
        let bye_limit = if n % 2 == 1 {
            Some(self.bye_score(&compat)?)
        } else {
            None
        };
        let candidate = |i: usize| -> bool {
            let e = &self.p[i];
            e.bye_eligible
                && match (self.rules, bye_limit) {
                    (Rules::Fide2025, Some(s)) => e.score <= s,
                    _ => true,
                }
        };
        let mut remaining: Vec<usize> = (0..n).collect();
        let mut mdps: Vec<usize> = Vec::new();
        let mut result = Vec::new();
        let mut fixed: HashMap<usize, usize> = HashMap::new();
        let mut stages = Stages {
            cold: self.cold,
            ..Stages::default()
        };
        while !remaining.is_empty() {
            // The bracket: MDPs plus the residents of the highest score left.
            let top_resident = remaining.iter().copied().find(|i| !mdps.contains(i));
            let Some(top) = top_resident else {
                break;
            };
            let score = self.p[top].score;
            let residents: Vec<usize> = remaining
                .iter()
                .copied()
                .filter(|&i| !mdps.contains(&i) && self.p[i].score == score)
                .collect();
            let next_score = remaining
                .iter()
                .map(|&i| self.p[i].score)
                .filter(|&s| s < score)
                .max();
            let mut zone = vec![Zone::Below; n];
            let mut bracket: Vec<usize> = mdps
                .iter()
                .copied()
                .chain(residents.iter().copied())
                .collect();
            bracket.sort();
            for &i in &bracket {
                zone[i] = Zone::Bracket;
            }
            if let Some(ns) = next_score {
                for &i in &remaining {
                    if zone[i] == Zone::Below && self.p[i].score == ns {
                        zone[i] = Zone::Next;
                    }
                }
            }
            // C9 (2025) may apply: the bracket downfloats one player at least
            // (odd), and no player below it can get the PAB (C5), so a
            // single downfloater is the PAB assignee; `decide` checks that
            // the bracket downfloats exactly one.
            let c9 = self.rules == Rules::Fide2025
                && bracket.len() % 2 == 1
                && bye_limit.is_some_and(|s| score <= s);
            let mates = self.decide(
                &remaining,
                &bracket,
                &mdps,
                &zone,
                &compat,
                &candidate,
                c9,
                &mut fixed,
                &mut stages,
            )?;
            let mut floaters = Vec::new();
            for &i in &bracket {
                match mates[i] {
                    Some(j) if zone[j] == Zone::Bracket => {
                        if i < j {
                            result.push((i, j));
                        }
                    }
                    _ => floaters.push(i),
                }
            }
            remaining.retain(|&i| !matches!(mates[i], Some(j) if zone[i] == Zone::Bracket && zone[j] == Zone::Bracket));
            fixed.clear();
            if next_score.is_none() {
                // The last bracket: whoever is left gets the bye.
                if floaters.len() > 1 {
                    return Err(PairError::NoValidPairing(format!(
                        "players {} cannot all be paired under C1-C3",
                        floaters
                            .iter()
                            .map(|&i| self.p[i].id.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                }
                if let Some(&b) = floaters.first() {
                    if !self.p[b].bye_eligible {
                        return Err(PairError::NoValidPairing(format!(
                            "player {} would get the pairing-allocated bye but already had one or a win without playing (C2)",
                            self.p[b].id
                        )));
                    }
                    return Ok((result, Some(b)));
                }
                return Ok((result, None));
            }
            mdps = floaters;
        }
        Ok((result, None))
    }

    /// One homogeneous bracket of players with no history (a first round
    /// without acceleration): every candidate meets every criterion alike,
    /// so the first one generated is the pairing, S1\[i\]–S2\[i\], and the
    /// last player, when their number is odd, gets the PAB (C.04.3).
    /// `tests/restricted.rs` checks it against the general computation.
    fn without_history(&self) -> Option<Outcome> {
        let first = self.p.first()?;
        let plain = self.forbidden.is_empty()
            && self.p.iter().all(|e| {
                e.score == first.score
                    && e.colours.is_empty()
                    && e.preference.is_none()
                    && e.met.is_empty()
                    && e.bye_eligible
                    && e.unplayed == first.unplayed
                    && e.float(1) == Float::None
                    && e.float(2) == Float::None
            });
        if !plain {
            return None;
        }
        let n = self.p.len();
        let half = n / 2;
        let pairs = (0..half).map(|i| (i, half + i)).collect();
        Some((pairs, (n % 2 == 1).then_some(n - 1)))
    }

    /// The lowest score a bye-eligible player can have while the rest is
    /// paired (C4, C5): the lowest score `s` for which the players and a
    /// dummy joined to every eligible player scoring at most `s` have a
    /// perfect matching (cardinality matchings, petgraph).
    fn bye_score(&self, compat: &[Vec<bool>]) -> Result<Points, PairError> {
        use petgraph::algo::maximum_matching;
        let n = self.p.len();
        let mut g = petgraph::graph::UnGraph::<(), ()>::with_capacity(n + 1, 0);
        let nodes: Vec<_> = (0..n).map(|_| g.add_node(())).collect();
        for (a, row) in compat.iter().enumerate() {
            for (b, _) in row.iter().enumerate().skip(a + 1).filter(|&(_, &ok)| ok) {
                g.add_edge(nodes[a], nodes[b], ());
            }
        }
        let (paired, unmatched) = {
            let base = maximum_matching(&g);
            let unmatched: Vec<usize> = (0..n).filter(|&i| !base.contains_node(nodes[i])).collect();
            (2 * base.len(), unmatched)
        };
        let mut scores: Vec<Points> = self
            .p
            .iter()
            .filter(|e| e.bye_eligible)
            .map(|e| e.score)
            .collect();
        scores.sort();
        scores.dedup();
        if paired + 1 == n {
            let dummy = g.add_node(());
            for s in scores {
                for (i, e) in self.p.iter().enumerate() {
                    if e.bye_eligible && e.score == s {
                        g.add_edge(nodes[i], dummy, ());
                    }
                }
                if maximum_matching(&g).is_perfect() {
                    return Ok(s);
                }
            }
        }
        match unmatched.as_slice() {
            // No maximum matching leaves an eligible player unpaired.
            [b] => Err(PairError::NoValidPairing(format!(
                "only player {} can be left unpaired, and may not get the bye (C2)",
                self.p[*b].id
            ))),
            _ => Err(PairError::NoValidPairing(format!(
                "at most {} of {} players can be paired under C1-C3",
                paired, n
            ))),
        }
    }

    /// Whether the players of `remaining` that `local` leaves unmatched can
    /// all be paired with each other by `allowed` edges, all but one
    /// bye candidate when their number is odd.
    ///
    /// The matching over the bracket and the next score group maximises the
    /// criteria from C6 down, which only pairs among those players score, so
    /// no matching of the whole field scores more in them; when it can be
    /// completed this way it also meets C4 (every player paired) and C2/C5
    /// (the bye to a candidate) as well as any can, so it is a best matching
    /// of the whole field, the one the full computation would find. (bbpPairings
    /// likewise matches the bracket and the next score group.)
    fn complete(
        &self,
        remaining: &[usize],
        local: &[Option<usize>],
        allowed: &dyn Fn(usize, usize) -> bool,
        candidate: &dyn Fn(usize) -> bool,
        g: &mut petgraph::graph::UnGraph<(), ()>,
    ) -> bool {
        let rest: Vec<usize> = remaining
            .iter()
            .copied()
            .filter(|&i| local[i].is_none())
            .collect();
        g.clear();
        let nodes: Vec<_> = rest.iter().map(|_| g.add_node(())).collect();
        for (a, &x) in rest.iter().enumerate() {
            for (b, &y) in rest.iter().enumerate().skip(a + 1) {
                if allowed(x, y) {
                    g.add_edge(nodes[a], nodes[b], ());
                }
            }
        }
        if rest.len() % 2 == 1 {
            let dummy = g.add_node(());
            for (a, &x) in rest.iter().enumerate() {
                if candidate(x) {
                    g.add_edge(nodes[a], dummy, ());
                }
            }
        }
        petgraph::algo::maximum_matching(&*g).is_perfect()
    }

    #[allow(clippy::too_many_arguments)]
    fn decide(
        &self,
        remaining: &[usize],
        bracket: &[usize],
        mdps: &[usize],
        zone: &[Zone],
        compat: &[Vec<bool>],
        candidate: &dyn Fn(usize) -> bool,
        c9_may_apply: bool,
        fixed: &mut HashMap<usize, usize>,
        stages: &mut Stages,
    ) -> Result<Vec<Option<usize>>, PairError> {
        let n = self.p.len();
        let pairs_max = remaining.len() as u64 / 2 + 1;
        let bsize = bracket.len() as u64 + 1;
        // Score levels in this bracket and the next, highest first: one
        // field each, so that C7 and C8 (the scores of the downfloaters,
        // in descending order) and C18-C21 tell every score apart.
        let mut levels: Vec<Points> = remaining
            .iter()
            .filter(|&&i| zone[i] != Zone::Below)
            .map(|&i| self.p[i].score)
            .collect();
        levels.sort_by(|a, b| b.cmp(a));
        levels.dedup();
        let nlev = levels.len().max(1);
        let level = |s: Points| levels.iter().position(|&l| l == s).unwrap_or(0);
        // Position lookups by player index, as vectors (they are read per edge).
        let position = |of: &[usize]| {
            let mut at = vec![None; n];
            for (k, &i) in of.iter().enumerate() {
                at[i] = Some(k);
            }
            at
        };
        let bsn = position(bracket);
        let is_mdp = |i: usize| mdps.contains(&i);
        let residents: Vec<usize> = bracket.iter().copied().filter(|&i| !is_mdp(i)).collect();
        let wb = bits(bsize) + 1;
        let wp = bits(pairs_max) + 2;
        let wbsn = bits(bsize * bsize) + 2;
        // Field widths, most significant first.
        let mut widths = vec![wp, wp + 2, wp];
        widths.extend(std::iter::repeat_n(wp, nlev));
        widths.push(wp);
        widths.extend(std::iter::repeat_n(wp, nlev));
        // C9 (2025): the PAB to a player with as few unplayed games as
        // possible, in a bracket that downfloats exactly one player, who gets
        // the PAB: each pair in the bracket scores its players' unplayed
        // games, so the one left over has the fewest. Whether the bracket
        // downfloats exactly one is known from its first matching (C6 comes
        // first, so the number does not depend on this field).
        let max_unplayed = self.p.iter().map(|e| e.unplayed).max().unwrap_or(0);
        widths.push(wp + bits(u64::from(max_unplayed) * 2 + 1) + 1);
        let c9 = widths.len() - 1;
        let mut c9_on = c9_may_apply && max_unplayed > 0;
        let mut c9_checked = !c9_on;
        widths.extend([wb; 8]); // C10-C13, C14-C17
        widths.extend(std::iter::repeat_n(wb, 4 * nlev)); // C18-C21, by score level
                                                          // The exchange order D.2 (c) and (d) compares sets of BSNs: exact as
                                                          // sums of powers of two while the bracket is small, by plain sums beyond.
        let exact_sets = bsize <= 100;
        let wset = if exact_sets {
            bsize as u32 + wb + 2
        } else {
            wbsn
        };
        // MDP set, exchanges (a)-(d).
        widths.extend([wb + 66, wb + 1, wbsn, wset, wset]);
        // The opponents of as many S1 players as the weight has room for are
        // decided by one matching (each in its own field, the first most
        // significant); the rest by the next matchings of this bracket (the
        // same pairing whatever their number). Room: six words of the ten
        // when the rest fits in them (measured, 2,000 players under load:
        // 6.9-7.0 s with six, 7.5-8.2 s with eight, 8.9 s with five,
        // `docs/performance.md` 2026-12-05), else all ten.
        let fits = |tops: usize, words: usize| {
            let mut all = widths.clone();
            all.extend(std::iter::repeat_n(wb + 1, tops));
            Packer::new(&all)
                .filter(|p| p.words() <= words)
                .map(|p| (p, all))
        };
        let room = if fits(1, S1_WORDS).is_some() {
            S1_WORDS
        } else {
            WORDS
        };
        let (mut lo, mut hi) = (1, bracket.len().max(1));
        if fits(lo, room).is_none() {
            return Err(PairError::Event(
                "the bracket is too large for the pairing weights".into(),
            ));
        }
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if fits(mid, room).is_some() {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let tops = lo;
        let (packer, all) = fits(tops, room).expect("fits");
        widths = all;
        let base = widths.len() - tops - 5;
        let mdp_rank: HashMap<usize, usize> =
            mdps.iter().enumerate().map(|(k, &i)| (i, k)).collect();

        // The stages of the generation order: the MDP set and their
        // opponents, then the remainder's exchanges and S1 opponents.
        let mut mdp_done = mdps.is_empty();
        let mut rem_pairs: Option<usize> = None;
        let mut floating: std::collections::HashSet<usize> = std::collections::HashSet::new();
        let mut remainder: Vec<usize> = residents.clone();
        let near: Vec<usize> = remaining
            .iter()
            .copied()
            .filter(|&i| zone[i] != Zone::Below)
            .collect();
        let mut whole = self.whole_field || near.len() == remaining.len();
        loop {
            let unfixed_tops: Vec<usize> = if !mdp_done {
                mdps.iter()
                    .copied()
                    .filter(|i| !fixed.contains_key(i) && !floating.contains(i))
                    .take(tops)
                    .collect()
            } else {
                remainder
                    .iter()
                    .copied()
                    .filter(|i| !fixed.contains_key(i) && !floating.contains(i))
                    .take(tops)
                    .collect()
            };
            // The remainder's S1/S2 split (homogeneous part).
            let rem_set = position(&remainder);
            let s1_len = rem_pairs.unwrap_or(remainder.len() / 2);
            // An edge the matching may use: C1, C3, the opponents fixed by
            // earlier stages, and no pair in the bracket for a player
            // decided to float.
            // (Fixed opponents and floaters by player: read per pair.)
            let mut fixed_to = vec![None; n];
            for (&a, &b) in fixed.iter() {
                fixed_to[a] = Some(b);
            }
            let mut floats = vec![false; n];
            for &i in &floating {
                floats[i] = true;
            }
            let allowed = |a: usize, b: usize| -> bool {
                if !compat[a][b] {
                    return false;
                }
                if fixed_to[a].is_some_and(|m| m != b) || fixed_to[b].is_some_and(|m| m != a) {
                    return false;
                }
                !(zone[a] == Zone::Bracket && zone[b] == Zone::Bracket && (floats[a] || floats[b]))
            };
            // The players the matching is computed over: first the bracket
            // and the next score group only (see `complete`), else everyone.
            // The pairs fixed by earlier stages have one edge each and are
            // in every best matching: they are left out and put back.
            let players: Vec<usize> = if whole { remaining } else { &near[..] }
                .iter()
                .copied()
                .filter(|i| !fixed.contains_key(i))
                .collect();
            let mut edges = std::mem::take(&mut stages.edges);
            edges.clear();
            let mut used = 0;
            let mut vals = vec![0i128; widths.len()];
            for (ai, &a) in players.iter().enumerate() {
                for (bj, &b) in players[ai + 1..].iter().enumerate() {
                    if !allowed(a, b) {
                        continue;
                    }
                    let (hi, lo) = (a.min(b), a.max(b));
                    vals.iter_mut().for_each(|v| *v = 0);
                    if whole {
                        vals[0] = 1;
                        vals[1] = i128::from(!candidate(hi)) + i128::from(!candidate(lo));
                    }
                    let in_b = zone[hi] == Zone::Bracket && zone[lo] == Zone::Bracket;
                    let in_next = zone[lo] == Zone::Next && zone[hi] != Zone::Below;
                    if in_b {
                        vals[2] = 1;
                        vals[3 + level(self.p[hi].score)] = 1;
                    }
                    if in_next {
                        vals[3 + nlev] = 1;
                        vals[4 + nlev + level(self.p[hi].score)] = 1;
                    }
                    if in_b && c9_on {
                        vals[c9] = i128::from(self.p[hi].unplayed + self.p[lo].unplayed);
                    }
                    let c = c9 + 1;
                    if in_b {
                        let (x, y) = (&self.p[hi], &self.p[lo]);
                        // C10: topscorers (or their opponents) with |CD| > 2.
                        vals[c] = i128::from(
                            !x.absolute_imbalance()
                                || !y.absolute_imbalance()
                                || x.preference != y.preference,
                        );
                        // C11: the same colour three times in a row.
                        vals[c + 1] = i128::from(
                            x.strength != Strength::Absolute
                                || y.strength != Strength::Absolute
                                || x.preference != y.preference
                                || if x.difference == y.difference {
                                    x.repeated.is_none() || x.repeated != y.repeated
                                } else {
                                    let weaker = if x.difference > y.difference { y } else { x };
                                    weaker.repeated != x.preference.map(Colour::opposite)
                                },
                        );
                        // C12: both preferences granted.
                        vals[c + 2] = i128::from(
                            x.preference != y.preference
                                || x.preference.is_none()
                                || y.preference.is_none(),
                        );
                        // C13: strong preferences granted.
                        let strongish = |e: &Entrant| e.strength >= Strength::Strong;
                        vals[c + 3] = i128::from(
                            !strongish(x)
                                || !strongish(y)
                                || (x.strength == Strength::Absolute
                                    && y.strength == Strength::Absolute)
                                || x.preference != y.preference,
                        );
                        // C14-C17: repeated floats (1 and 2 rounds before).
                        for (k, back) in [(0usize, 1usize), (2, 2)] {
                            vals[c + 4 + k] = i128::from(y.float(back) == Float::Down)
                                + i128::from(x.score <= y.score && x.float(back) == Float::Down);
                            vals[c + 5 + k] =
                                i128::from(!(x.score > y.score && y.float(back) == Float::Up));
                        }
                        // C18-C21: the scores of repeated floaters (as levels, highest first).
                        let f = c + 8;
                        for (k, back) in [(0usize, 1usize), (2, 2)] {
                            if y.float(back) == Float::Down {
                                vals[f + k * nlev + level(y.score)] += 1;
                            }
                            if x.float(back) == Float::Down {
                                vals[f + k * nlev + level(x.score)] += 1;
                            }
                            if !(x.score > y.score && y.float(back) == Float::Up) {
                                vals[f + (k + 1) * nlev + level(x.score)] += 1;
                            }
                        }
                        // Ordering: the MDP set (higher MDPs first, D26 4.4).
                        if let Some(&r) = mdp_rank.get(&hi) {
                            if !mdp_done && r < 64 {
                                vals[base] = 1i128 << (63 - r);
                            }
                        }
                        // Ordering: exchanges in the remainder (fewest, then smallest BSN difference).
                        if mdp_done {
                            if let (Some(ra), Some(rb)) = (rem_set[hi], rem_set[lo]) {
                                // (a) fewest exchanges = fewest pairs inside S2;
                                // (b) Σ moved S1→S2 − Σ moved S2→S1 = −Σ BSN of each pair's lower player;
                                // (c) the highest moved S1→S2; (d) the lowest moved S2→S1.
                                let both_s2 = ra >= s1_len && rb >= s1_len;
                                let big = bsize as i128;
                                vals[base + 1] = i128::from(!both_s2);
                                vals[base + 2] = big - ra as i128;
                                if ra < s1_len {
                                    vals[base + 3] = if exact_sets {
                                        (1i128 << s1_len) - (1i128 << ra)
                                    } else {
                                        big - ra as i128
                                    };
                                } else {
                                    let k = ra - s1_len;
                                    let m = remainder.len() - s1_len;
                                    vals[base + 4] = if exact_sets {
                                        1i128 << (m - k)
                                    } else {
                                        big - k as i128
                                    };
                                }
                            }
                        }
                        // Ordering: the opponent of each S1 player, lowest BSN first.
                        if let Some(t) = unfixed_tops.iter().position(|&u| u == hi) {
                            let allowed = if mdp_done {
                                rem_set[lo].is_some()
                            } else {
                                !is_mdp(lo)
                            };
                            if allowed {
                                vals[base + 5 + t] = bsize as i128 - bsn[lo].unwrap_or(0) as i128;
                            }
                        }
                    }
                    let w = packer.pack(&vals);
                    used = used.max(w.0.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1));
                    edges.push((ai, ai + 1 + bj, w));
                }
            }
            let mut local = vec![None; n];
            for (k, m) in stages.solve(&players, &edges, used).into_iter().enumerate() {
                local[players[k]] = m.map(|j| players[j]);
            }
            stages.edges = edges;
            for (&a, &b) in fixed.iter() {
                local[a] = Some(b);
            }
            if !whole && !self.complete(remaining, &local, &allowed, candidate, &mut stages.graph) {
                // The best pairing of the bracket and the next group leaves
                // the rest unpairable (C4) or the bye to a non-candidate
                // (C2, C5): decide this bracket over every player.
                whole = true;
                continue;
            }
            if !c9_checked {
                c9_checked = true;
                let downfloaters = bracket
                    .iter()
                    .filter(|&&i| !matches!(local[i], Some(j) if zone[j] == Zone::Bracket))
                    .count();
                if downfloaters != 1 {
                    // More than one downfloater: C9 does not apply here.
                    c9_on = false;
                    continue;
                }
            }
            if unfixed_tops.is_empty() {
                return Ok(local);
            }
            if mdp_done && rem_pairs.is_none() {
                // S1 of the remainder has as many players as it gets pairs.
                let got = remainder
                    .iter()
                    .filter(|&&i| local[i].is_some_and(|j| rem_set[j].is_some()))
                    .count()
                    / 2;
                rem_pairs = Some(got);
                if got != s1_len {
                    continue;
                }
            }
            for &t in &unfixed_tops {
                match local[t] {
                    Some(j) if zone[j] == Zone::Bracket => {
                        fixed.insert(t, j);
                        fixed.insert(j, t);
                    }
                    // t floats down: from now on it has no edge inside the bracket.
                    _ => {
                        floating.insert(t);
                    }
                }
            }
            if !mdp_done
                && mdps
                    .iter()
                    .all(|i| fixed.contains_key(i) || floating.contains(i))
            {
                mdp_done = true;
                remainder = residents
                    .iter()
                    .copied()
                    .filter(|i| !fixed.contains_key(i))
                    .collect();
            }
            // Every player of the bracket decided (paired or floating): a
            // next matching would repeat this one's pairs in the bracket, and
            // nothing else of it is read, so this one is the answer.
            if mdp_done
                && remainder
                    .iter()
                    .all(|i| fixed.contains_key(i) || floating.contains(i))
            {
                return Ok(local);
            }
        }
    }
}
