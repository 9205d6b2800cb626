//! Round-robin pairings by the FIDE Berger tables (Handbook C.05, Annex 1).
//!
//! For `n` players (an odd number gets a dummy, the highest number, who is the
//! bye), round `r` of `n − 1`: the numbers `1 … n−1` rotated left by
//! `(r − 1)·n/2`; board 1 pairs the first of them with `n` (`n` has Black in
//! odd rounds, White in even ones); board `k` pairs the `k`-th with the
//! `(n − k + 1)`-th, the first of each pair with White. This reproduces the
//! printed tables (tested against them for 3–14 players; for 15–24, of which
//! no printed copy was found, against the rule the printed tables follow).

use crate::model::Colour;

/// One pairing of a round-robin round: `white` against `black` by pairing
/// number, or `black == None` for the bye of an odd-sized event.
///
/// ```
/// let round1 = arbiter_tournament::berger::round(4, 1);
/// assert_eq!(round1[0].white, 1);
/// assert_eq!(round1[0].black, Some(4));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// The player with White (or the player with the bye).
    pub white: u16,
    /// The player with Black, `None` for the bye.
    pub black: Option<u16>,
}

/// The number of rounds of one cycle for `players` players.
///
/// ```
/// assert_eq!(arbiter_tournament::berger::rounds(5), 5);
/// assert_eq!(arbiter_tournament::berger::rounds(6), 5);
/// ```
pub fn rounds(players: u16) -> u16 {
    // In u32: 65535 players and their dummy make 65536 (no overflow).
    let n = u32::from(players) + u32::from(players % 2);
    n.saturating_sub(1) as u16
}

/// Round `round` (1-based) of a single round-robin for `players` players, board
/// by board as the Berger table prints it; with an odd number of players the
/// pairing against the dummy becomes the bye (listed last).
///
/// ```
/// use arbiter_tournament::berger::{round, Board};
/// // C.05 Annex 1, 4 players, round 2: 4-3, 1-2.
/// assert_eq!(round(4, 2), vec![Board { white: 4, black: Some(3) }, Board { white: 1, black: Some(2) }]);
/// ```
pub fn round(players: u16, round: u16) -> Vec<Board> {
    // In u32: the dummy of 65535 players is number 65536 (no u16 overflow);
    // every real number fits a u16.
    let n = u32::from(players) + u32::from(players % 2);
    let round = u32::from(round);
    if n < 2 || round == 0 || round > n - 1 {
        return Vec::new();
    }
    let m = n - 1;
    let shift = ((u64::from(round) - 1) * u64::from(n / 2) % u64::from(m)) as u32;
    let list: Vec<u32> = (0..m).map(|i| (i + shift) % m + 1).collect();
    let mut boards = Vec::with_capacity((n / 2) as usize);
    let first = if round % 2 == 1 {
        (list[0], n)
    } else {
        (n, list[0])
    };
    boards.push(first);
    for k in 2..=n / 2 {
        boards.push((list[(k - 1) as usize], list[(n - k) as usize]));
    }
    let mut out: Vec<Board> = Vec::new();
    let mut bye = None;
    for (w, b) in boards {
        if players % 2 == 1 && (w == n || b == n) {
            bye = Some(if w == n { b } else { w } as u16);
        } else {
            out.push(Board {
                white: w as u16,
                black: Some(b as u16),
            });
        }
    }
    if let Some(p) = bye {
        out.push(Board {
            white: p,
            black: None,
        });
    }
    out
}

/// Round `round` of a double round-robin: the first cycle, then the same
/// rounds with colours reversed (C.05: "repeat with colours reversed").
///
/// ```
/// use arbiter_tournament::berger::{double_round, round};
/// let r = double_round(4, 4);
/// assert_eq!(r[0].white, 4);
/// assert_eq!(r[0].black, Some(1));
/// assert_eq!(round(4, 1)[0].white, 1);
/// ```
pub fn double_round(players: u16, r: u16) -> Vec<Board> {
    let per = rounds(players);
    if r <= per {
        return round(players, r);
    }
    round(players, r - per)
        .into_iter()
        .map(|b| match b.black {
            Some(bl) => Board {
                white: bl,
                black: Some(b.white),
            },
            None => b,
        })
        .collect()
}

/// The colour pairing number `player` has in round `r` of a single cycle
/// (`None` for the bye).
///
/// ```
/// use arbiter_tournament::{berger, Colour};
/// assert_eq!(berger::colour(4, 1, 4), Some(Colour::Black));
/// ```
pub fn colour(players: u16, r: u16, player: u16) -> Option<Colour> {
    round(players, r).iter().find_map(|b| {
        if b.white == player {
            b.black.map(|_| Colour::White)
        } else if b.black == Some(player) {
            Some(Colour::Black)
        } else {
            None
        }
    })
}

/// Draws the pairing numbers by lot (C.05: the numbers are drawn before the
/// first round): a permutation of `1..=players`, element `i` being the number
/// of the player with starting rank `i + 1`, reproducible from `seed`.
///
/// ```
/// let lots = arbiter_tournament::berger::draw_lots(6, 42);
/// let mut sorted = lots.clone();
/// sorted.sort();
/// assert_eq!(sorted, vec![1, 2, 3, 4, 5, 6]);
/// assert_eq!(lots, arbiter_tournament::berger::draw_lots(6, 42));
/// ```
pub fn draw_lots(players: u16, seed: u64) -> Vec<u16> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut v: Vec<u16> = (1..=players).collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    v.shuffle(&mut rng);
    v
}
