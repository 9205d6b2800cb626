//! The PGN download as a full record (protocol §3.4): a draw offer made
//! with a move is that move's `(=)` (FIDE Art. 9.1 b 1, Appendix C.12), a
//! declined offer, an incorrect claim with its penalty (Art. 9.5) and the
//! resignation (Art. 5.1 b) are comments citing their Articles, and the
//! `Termination` tag names how the game ended. The text reads back with
//! `arbiter-pgn` and with python-chess (an oracle nobody here wrote).

mod common;

use arbiter_pgn::Reader;
use common::TestServer;
use serde_json::json;
use std::io::Write;
use std::process::{Command, Stdio};

#[tokio::test]
async fn offers_claims_and_the_end_are_in_the_record() {
    let s = TestServer::start().await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "300+0"}))
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    p.play("e2e4").await;
    // White offers a draw after moving; Black declines.
    p.send(json!({"type": "offer_draw", "color": "white"}))
        .await;
    assert_eq!(p.event().await["event"]["kind"], "draw_offer");
    p.send(json!({"type": "decline_draw", "color": "black"}))
        .await;
    assert_eq!(p.event().await["event"]["kind"], "draw_declined");
    p.play("e7e5").await;
    // White claims a threefold repetition that is not there, writing the
    // intended move Nf3: a minute to Black (blitz, Appendix A.4 c), the
    // claim stands as an offer, and the move is made (Art. 9.5).
    p.send(json!({"type": "claim", "claim": "threefold", "color": "white", "move": "g1f3"}))
        .await;
    let rejected = p.event_of("claim_rejected").await;
    let article = rejected["event"]["article"].as_str().unwrap().to_owned();
    p.event_of("move").await;
    p.send(json!({"type": "resign", "color": "black"})).await;
    p.event_of("end").await;

    let pgn = s.get(&format!("/api/games/{id}/pgn"), None).await.body;
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("{(=)}"), "the offer with 1.e4: {pgn}");
    assert!(
        pgn.contains("{Black declines the draw offer}"),
        "the decline: {pgn}"
    );
    // Words as written, whatever the line breaks.
    let words = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(&format!("(FIDE Laws 2014, Art. {article})")),
        "the rejected claim with its Article: {pgn}"
    );
    // The intended move in SAN, as the moves are (Appendix C), not UCI.
    assert!(
        words.contains("with the intended move Nf3"),
        "the intended move: {pgn}"
    );
    assert!(
        words.contains("{Resignation by Black (FIDE Laws 2014, Art. 5.1 b)}"),
        "the end with its Article: {pgn}"
    );

    // arbiter-pgn reads it back: the moves, the offer on 1.e4, the comments.
    let game = Reader::new(pgn.as_bytes())
        .next_game()
        .expect("readable")
        .expect("a game");
    assert!(game.error.is_none(), "{:?}", game.error);
    let nodes = &game.line.nodes;
    assert_eq!(nodes.len(), 3);
    assert!(nodes[0].draw_offer, "1.e4 carries the offer");
    assert_eq!(nodes[0].comments, ["Black declines the draw offer"]);
    assert!(nodes[1].comments[0].contains("claims a draw by threefold repetition"));
    assert!(nodes[2].comments.last().unwrap().starts_with("Resignation"));
    assert_eq!(game.tags.get("Termination"), Some("normal"));

    // python-chess reads the same moves, comments and result.
    if !arbiter_testkit::python_chess_available("chess.pgn") {
        return;
    }
    let script = r#"
import sys, chess.pgn
game = chess.pgn.read_game(sys.stdin)
assert not game.errors, game.errors
moves = [n.san() for n in game.mainline()]
assert moves == ["e4", "e5", "Nf3"], moves
comments = [n.comment for n in game.mainline()]
assert "Black declines the draw offer" in comments[0], comments
assert "(=)" in comments[0], comments
assert "incorrect" in comments[1], comments
assert "Art. 5.1 b" in comments[2], comments
assert game.headers["Result"] == "1-0"
assert game.headers["Termination"] == "normal"
print("python-chess read", len(moves), "moves")
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(pgn.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "python-chess: {}\n{pgn}",
        String::from_utf8_lossy(&out.stderr)
    );
    s.stop().await;
}

/// Protocol §4.4: `by` is who resigned, claimed, flagged or made the
/// illegal move. A claim rejected (Art. 9.5) whose intended move then mates,
/// stalemates or leaves a dead position ends the game by that move: `by`
/// is null in the `end` event and the PGN comment names nobody, exactly as
/// when the move is played without a claim.
#[tokio::test]
async fn a_game_ended_by_the_move_of_a_rejected_claim_is_ended_by_nobody() {
    let s = TestServer::start().await;
    for (fen, claim, mv, kind, comment) in [
        (
            "6k1/8/6K1/8/8/8/8/R7 w - - 97 100",
            "fifty",
            "a1a8",
            "checkmate",
            "{Checkmate (FIDE Laws 2018, Art. 5.1.1)}",
        ),
        (
            "7k/8/5K2/8/8/8/8/6Q1 w - - 90 100",
            "fifty",
            "g1g6",
            "stalemate",
            "{Stalemate (FIDE Laws 2018, Art. 5.2.1)}",
        ),
        (
            "4k3/8/8/8/8/8/3b4/3NK3 w - - 0 1",
            "threefold",
            "e1d2",
            "dead_position",
            "{Dead position (FIDE Laws 2018, Art. 5.2.2)}",
        ),
    ] {
        let (id, cookie, _) = s
            .create(
                json!({"mode": "local", "time_control": "900+0", "edition": "2018",
                "fen": fen}),
            )
            .await;
        let mut p = s.player(&id, Some(&cookie)).await;
        p.send(json!({"type": "claim", "claim": claim, "move": mv, "color": "white"}))
            .await;
        let rejected = p.event_of("claim_rejected").await;
        assert_eq!(rejected["event"]["by"], "white", "{rejected}");
        let end = p.event_of("end").await;
        let termination = &end["event"]["termination"];
        assert_eq!(termination["kind"], kind, "{end}");
        assert!(termination["by"].is_null(), "{fen}: {end}");
        let snapshot = s.get(&format!("/api/games/{id}"), None).await.json();
        assert!(snapshot["termination"]["by"].is_null(), "{snapshot}");
        let pgn = s.get(&format!("/api/games/{id}/pgn"), None).await.body;
        assert!(pgn.contains(comment), "{fen}: {pgn}");
    }
    s.stop().await;
}
