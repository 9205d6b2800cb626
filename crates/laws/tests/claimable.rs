//! `Game::claimable` answers exactly what a claim would be ruled (FIDE 2014
//! Art. 9.2, 9.3): for the position on the board and for every legal
//! intended move, over random games steered into repetitions (seeded), a
//! claim of the kind it names is upheld and a claim it does not name is not.

use arbiter_chess::Move;
use arbiter_laws::{ClaimKind, Event, Game, Start, Termination};
use rand::{Rng, SeedableRng};

fn claim(game: &Game, kind: ClaimKind, intended: Option<Move>) -> bool {
    let mut g = game.clone();
    let e = Event::claim(0, g.turn(), kind, intended);
    g.apply(e).is_ok()
        && matches!(
            g.outcome().map(|o| o.termination),
            Some(Termination::ThreefoldRepetition | Termination::FiftyMoves)
        )
}

#[test]
fn claimable_agrees_with_the_ruling_on_claims() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    let mut upheld = [0u32; 2];
    for i in 0..60 {
        // Few pieces, so positions repeat and the 50-move count grows.
        let fen = [
            "4k3/8/8/8/8/8/8/R3K3 w Q - 90 60",
            "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
            "4k3/2n5/8/8/8/8/5N2/4K3 w - - 95 80",
        ][i % 3];
        let start = Start {
            fen: Some(fen.into()),
            ..Start::default()
        };
        let mut game = Game::new(start).unwrap();
        let mut plies = 0;
        while !game.is_over() && plies < 120 {
            let kinds = [ClaimKind::Threefold, ClaimKind::Fifty];
            match game.claimable(None) {
                Some(k) => {
                    assert!(claim(&game, k, None), "{k:?}, {}", game.position().fen());
                    upheld[0] += 1;
                }
                None => {
                    for k in kinds {
                        assert!(
                            !claim(&game, k, None),
                            "{k:?} upheld, {}",
                            game.position().fen()
                        );
                    }
                }
            }
            for m in game.legal_moves() {
                let san = game.position().san(m);
                match game.claimable(Some(m)) {
                    Some(k) => {
                        assert!(claim(&game, k, Some(m)), "{san}, {}", game.position().fen());
                        upheld[1] += 1;
                    }
                    None => {
                        for k in kinds {
                            assert!(
                                !claim(&game, k, Some(m)),
                                "{k:?} {san} upheld, {}",
                                game.position().fen()
                            );
                        }
                    }
                }
            }
            // Mostly shuffle back and forth; sometimes anything.
            let moves = game.legal_moves();
            let width = if rng.gen_bool(0.8) { 2 } else { 64 };
            let m = moves[rng.gen_range(0..moves.len().min(width))];
            let by = game.turn();
            game.apply(Event::play(0, by, m)).unwrap();
            plies += 1;
        }
    }
    assert!(
        upheld[0] > 20 && upheld[1] > 20,
        "too few claims tried: {upheld:?}"
    );
}
