//! The quick greedy Swiss history shared by the pairing bench
//! (`benches/pairing.rs`) and the `pairdump` example, so that both pair
//! the same events.

use arbiter_tournament::generate::played_result;
use arbiter_tournament::{Colour, Event, RoundEntry, RoundResult};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Plays `rounds` rounds of a quick greedy Swiss on `event` (players only):
/// in score order, each unpaired player meets the next one it has not met
/// (anyone left if none); white to the one with fewer whites; the bye to the
/// lowest player without one; results drawn from the ratings (30 % draws).
pub fn swiss_history(event: &mut Event, rounds: usize, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = event.players.len();
    for round in 0..rounds {
        let scores = event.scores_after(round);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| scores[b].cmp(&scores[a]).then(a.cmp(&b)));
        let met = |e: &Event, a: usize, b: usize| {
            e.players[a]
                .rounds
                .iter()
                .any(|r| r.opponent == Some(e.players[b].id))
        };
        if n % 2 == 1 {
            let bye = *order
                .iter()
                .rev()
                .find(|&&i| !event.players[i].rounds.iter().any(|r| r.result.is_bye()))
                .unwrap_or(&order[n - 1]);
            order.retain(|&i| i != bye);
            event.players[bye]
                .rounds
                .push(RoundEntry::bye(RoundResult::PairingBye));
        }
        while let Some(a) = order.first().copied() {
            order.remove(0);
            let k = order.iter().position(|&b| !met(event, a, b)).unwrap_or(0);
            let b = order.remove(k);
            let whites = |i: usize| {
                event.players[i]
                    .rounds
                    .iter()
                    .filter(|r| r.colour == Some(Colour::White))
                    .count()
            };
            let (w, bl) = if whites(a) <= whites(b) {
                (a, b)
            } else {
                (b, a)
            };
            let (rw, rb) = (event.players[w].rating, event.players[bl].rating);
            let result = played_result(&mut rng, rw, rb, 0.3);
            let (iw, ib) = (event.players[w].id, event.players[bl].id);
            event.players[w]
                .rounds
                .push(RoundEntry::game(ib, Colour::White, result));
            event.players[bl]
                .rounds
                .push(RoundEntry::game(iw, Colour::Black, result.reversed()));
        }
    }
}
