//! `arbiter judge` answers a move in the notation asked (`--notation`,
//! `judge::Options::notation`), whatever notation it was written in; the
//! default is English SAN.

use arbiter_laws::judge::{run, Options};
use arbiter_pgn::Notation;
use serde_json::Value;

const GAME: &str = r#"{"start": {}}
{"t": 1, "by": "white", "do": "move", "move": "Ng1-f3"}
{"t": 2, "by": "black", "do": "move", "move": "Кf6"}
{"t": 3, "by": "white", "do": "move", "move": "e2e4"}
{"t": 4, "by": "black", "do": "move", "move": "♞xe4"}
"#;

fn moves(notation: Notation) -> Vec<String> {
    let mut out = Vec::new();
    let opts = Options {
        notation,
        ..Options::default()
    };
    run(GAME.as_bytes(), &mut out, opts).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["move"].as_str().unwrap().to_owned()
        })
        .collect()
}

#[test]
fn moves_answered_in_the_notation_asked() {
    assert_eq!(moves(Notation::San), ["Nf3", "Nf6", "e4", "Nxe4"]);
    assert_eq!(moves(Notation::Russian), ["Кf3", "Кf6", "e4", "Кxe4"]);
    assert_eq!(moves(Notation::Figurine), ["♘f3", "♘f6", "e4", "♘xe4"]);
    assert_eq!(
        moves(Notation::Long),
        ["Ng1-f3", "Ng8-f6", "e2-e4", "Nf6xe4"]
    );
    assert_eq!(moves(Notation::Uci), ["g1f3", "g8f6", "e2e4", "f6e4"]);
}

#[test]
fn fide_style_castling_and_promotion() {
    let game = r#"{"start": {"fen": "4k3/P7/8/8/8/8/8/R3K3 w Q - 0 1"}}
{"t": 1, "by": "white", "do": "move", "move": "O-O-O"}
{"t": 2, "by": "black", "do": "move", "move": "Kf7"}
{"t": 3, "by": "white", "do": "move", "move": "a8=Q"}
"#;
    let mut out = Vec::new();
    let opts = Options {
        notation: Notation::Fide,
        ..Options::default()
    };
    run(game.as_bytes(), &mut out, opts).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(r#""move":"0-0-0""#), "{text}");
    assert!(text.contains(r#""move":"a8Q""#), "{text}");
}
