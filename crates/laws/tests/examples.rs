//! The crate's examples, run as tests: what they print is what they claim.

#[allow(dead_code)]
#[path = "../examples/judge_a_game.rs"]
mod judge_a_game;

/// The example numbers Black's moves as a record does (`1... e5`, Appendix
/// C / PGN movetext), not as White's (`1. e5`).
#[test]
fn judge_a_game_numbers_blacks_moves_with_an_ellipsis() {
    let lines = judge_a_game::transcript().unwrap();
    let moves: Vec<&str> = lines[1..7].iter().map(String::as_str).collect();
    assert_eq!(
        moves,
        ["1. e4", "1... e5", "2. Nf3", "2... Nc6", "3. Bb5", "3... a6"]
    );
}
