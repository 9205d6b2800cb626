//! python-chess's own PGN test files (`data/pgn` of
//! https://github.com/niklasf/python-chess, GPL: read at test time, never
//! committed) read by Arbiter and by python-chess: the same games, main
//! lines and final positions.
//!
//! Set `ARBITER_PYTHON_CHESS_PGN` to that `data/pgn` directory; with python3
//! and `chess` installed (`pip install chess`) the test compares; otherwise it
//! says what is missing and passes.

use arbiter_pgn::{GameErrorKind, Reader};
use std::path::PathBuf;
use std::process::Command;

const ORACLE: &str = r#"
import sys, chess, chess.pgn
with open(sys.argv[1], encoding="utf-8-sig", errors="replace") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        board = game.board()
        n = 0
        for move in game.mainline_moves():
            board.push(move)
            n += 1
        variant = game.headers.get("Variant", "Standard")
        print(f"{n}\t{board.board_fen()}\t{variant}\t{len(game.errors)}")
"#;

fn python_chess() -> Option<()> {
    let ok = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .ok()?
        .status
        .success();
    ok.then_some(())
}

#[test]
fn python_chess_data_pgn_reads_the_same() {
    let Some(dir) = std::env::var_os("ARBITER_PYTHON_CHESS_PGN").map(PathBuf::from) else {
        eprintln!("skipped: set ARBITER_PYTHON_CHESS_PGN to python-chess's data/pgn directory");
        return;
    };
    if python_chess().is_none() {
        eprintln!("skipped: python3 with python-chess (pip install chess) not found");
        return;
    }
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("ARBITER_PYTHON_CHESS_PGN is a directory")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .pgn files in {}", dir.display());
    let (mut games_equal, mut other_variants) = (0, 0);
    for file in &files {
        let out = Command::new("python3")
            .args(["-c", ORACLE])
            .arg(file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let theirs: Vec<Vec<String>> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| l.split('\t').map(str::to_owned).collect())
            .collect();
        let bytes = std::fs::read(file).unwrap();
        let ours: Vec<_> = Reader::new(&bytes[..])
            .games()
            .map(Result::unwrap)
            .collect();
        assert_eq!(ours.len(), theirs.len(), "{}: games", file.display());
        for (i, (g, t)) in ours.iter().zip(&theirs).enumerate() {
            let what = format!("{} game {}", file.display(), i + 1);
            let variant = t[2].to_ascii_lowercase();
            if !matches!(
                variant.as_str(),
                "standard" | "chess960" | "fischerandom" | "from position"
            ) {
                // Crazyhouse, antichess …: not chess under the Laws; named.
                assert!(
                    matches!(
                        g.error.as_ref().map(|e| &e.kind),
                        Some(GameErrorKind::Variant(_))
                    ),
                    "{what}: {:?}",
                    g.error
                );
                other_variants += 1;
                continue;
            }
            assert_eq!(g.error, None, "{what}");
            assert_eq!(g.mainline().count().to_string(), t[0], "{what}: plies");
            let fen = g.final_position().fen();
            assert_eq!(
                fen.split(' ').next().unwrap(),
                t[1],
                "{what}: final position"
            );
            games_equal += 1;
        }
    }
    eprintln!(
        "python-chess data/pgn: {} files, {games_equal} games equal, {other_variants} in other variants (rejected by name)",
        files.len()
    );
    assert!(games_equal > 0);
}
