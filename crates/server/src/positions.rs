//! The positions of a game, for the replay on the game page (protocol
//! §3.4.1): the FEN before the first move and after every move, with the
//! check flag of each, as the Laws' own board computes them. The client
//! keeps no chess rules of its own (web/README.md), so it asks here.

use crate::game::core::GameCore;
use serde::Serialize;

/// Every position of the game, `fens[0]` the initial one, `fens[n]` after
/// the `n`th half-move.
#[derive(Debug, Serialize)]
pub(crate) struct Positions {
    /// FEN of each position.
    pub fens: Vec<String>,
    /// Whether the side to move is in check (Art. 3.9) in each position.
    pub checks: Vec<bool>,
}

/// The positions of `core`'s game so far.
pub(crate) fn of(core: &GameCore) -> Positions {
    let laws = core.table.laws();
    let mut pos = *laws.initial_position();
    let n = laws.moves().len() + 1;
    let mut fens = Vec::with_capacity(n);
    let mut checks = Vec::with_capacity(n);
    fens.push(pos.fen());
    checks.push(pos.is_check());
    for played in laws.moves() {
        pos.play_unchecked(played.mv);
        fens.push(pos.fen());
        checks.push(pos.is_check());
    }
    Positions { fens, checks }
}
