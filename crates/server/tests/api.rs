//! The HTTP and WebSocket API driven end to end against an in-process
//! server: games to mate, agreement, claims (correct and incorrect, with an
//! intended move), time-outs (Art. 6.9), reconnect and catch-up, refusals.

mod common;

use common::{TestServer, WAIT};
use serde_json::json;

/// FIDE 2014, Art. 5.1 a: fool's mate at one screen (local mode).
#[tokio::test]
async fn a_full_game_to_mate() {
    let s = TestServer::start().await;
    let (id, cookie, created) = s
        .create(json!({"mode": "local", "time_control": "300+3", "name": "Anna <b>"}))
        .await;
    assert_eq!(created["seat"], "both");
    assert_eq!(created["state"]["players"]["white"]["name"], "Anna <b>");
    assert_eq!(created["state"]["clocks"]["white_ms"], 303_000);
    // The time control echoed as the PGN text and its periods (§3.1).
    assert_eq!(created["state"]["time_control"], "300+3");
    assert_eq!(
        created["state"]["time_control_periods"],
        json!([{"moves": null, "seconds": 300, "increment": 3}])
    );
    assert_eq!(created["state"]["edition"], "2014");
    let mut p = s.player(&id, Some(&cookie)).await;
    assert_eq!(p.state["seat"], "both");
    for (i, uci) in ["f2f3", "e7e5", "g2g4"].iter().enumerate() {
        let e = p.play(uci).await;
        assert_eq!(e["seq"], i as u64 + 1);
        assert_eq!(e["live"]["ply"], i as u64 + 1);
    }
    // The mate typed in Russian: the server reads it (§5.1).
    p.send(json!({"type": "move", "text": "Фd8–h4"})).await;
    let e = p.event().await;
    assert_eq!(e["event"]["move"]["san"], "Qh4#");
    assert_eq!(e["event"]["move"]["uci"], "d8h4");
    let end = p.event().await;
    assert_eq!(end["seq"], 5);
    assert_eq!(end["event"]["kind"], "end");
    assert_eq!(end["event"]["result"], "0-1");
    assert_eq!(end["event"]["termination"]["kind"], "checkmate");
    assert_eq!(end["event"]["termination"]["article"], "5.1 a");
    assert_eq!(end["event"]["termination"]["winner"], "black");
    assert_eq!(end["live"]["status"], "finished");
    assert_eq!(end["live"]["legal_moves"], json!([]));
    // After the end nothing more is accepted.
    p.send(json!({"type": "move", "uci": "a2a3"})).await;
    assert_eq!(p.error().await["code"], "game_not_active");
    // The snapshot, the list and the PGN agree.
    let snap = s
        .get(&format!("/api/games/{id}"), Some(&cookie))
        .await
        .json();
    assert_eq!(snap["result"], "0-1");
    assert_eq!(snap["moves"].as_array().unwrap().len(), 4);
    let list = s.get("/api/games?status=finished", None).await.json();
    assert_eq!(list["games"][0]["id"], id.as_str());
    assert_eq!(list["games"][0]["termination"]["kind"], "checkmate");
    let pgn = s.get(&format!("/api/games/{id}/pgn"), None).await;
    assert_eq!(pgn.status, 200);
    assert!(pgn
        .header("content-type")
        .unwrap()
        .starts_with("application/x-chess-pgn"));
    assert!(pgn.body.contains("[Result \"0-1\"]"), "{}", pgn.body);
    assert!(pgn.body.contains("[Annotator \"Arbiter, FIDE Laws 2014\"]"));
    assert!(pgn.body.contains("Qh4#"), "{}", pgn.body);
    assert!(pgn.body.contains("[%clk "), "{}", pgn.body);
    // The PGN standard's value in `Termination`, the FIDE detail beside it.
    assert!(
        pgn.body.contains("[Termination \"normal\"]"),
        "{}",
        pgn.body
    );
    assert!(
        pgn.body
            .contains("[FideTermination \"checkmate (FIDE Laws 2014, Art. 5.1 a)\"]"),
        "{}",
        pgn.body
    );
    s.stop().await;
}

/// Invitation, join, draw offer and acceptance (2014 Art. 5.2 c, 9.1); in
/// 2018, agreement before both have moved is refused (5.2.3).
#[tokio::test]
async fn draw_by_agreement_through_an_invitation() {
    let s = TestServer::start().await;
    let (id, white_cookie, created) = s
        .create(
            json!({"mode": "invite", "color": "white", "time_control": "600+5", "edition": "2018"}),
        )
        .await;
    assert_eq!(created["invite_url"], format!("/join/{id}"));
    assert_eq!(created["state"]["status"], "waiting");
    let mut white = s.player(&id, Some(&white_cookie)).await;
    let joined = s
        .post(
            &format!("/api/games/{id}/join"),
            &json!({"name": "Boris"}),
            None,
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    assert_eq!(joined.json()["seat"], "black");
    let black_cookie = joined.cookie().unwrap();
    // The first comer took the seat; the next is refused; the holder too.
    let again = s
        .post(&format!("/api/games/{id}/join"), &json!({}), None)
        .await;
    assert_eq!(again.json()["error"]["code"], "seat_taken");
    let mine = s
        .post(
            &format!("/api/games/{id}/join"),
            &json!({}),
            Some(&white_cookie),
        )
        .await;
    assert_eq!(mine.json()["error"]["code"], "already_seated");
    let join = white.event().await;
    assert_eq!(join["event"]["kind"], "join");
    assert_eq!(join["live"]["status"], "active");
    assert_eq!(join["live"]["clocks"]["running"], "white");
    let mut black = s.player(&id, Some(&black_cookie)).await;
    assert_eq!(black.state["seat"], "black");
    assert_eq!(black.state["players"]["black"]["name"], "Boris");
    // 2018 5.2.3: not before both players have moved.
    white.send(json!({"type": "offer_draw"})).await;
    assert_eq!(white.event().await["event"]["kind"], "draw_offer");
    black.event_of("draw_offer").await;
    black.send(json!({"type": "accept_draw"})).await;
    assert_eq!(black.error().await["code"], "draw_not_allowed");
    black.send(json!({"type": "decline_draw"})).await;
    assert_eq!(
        black.event_of("draw_declined").await["live"]["draw_offer"],
        json!(null)
    );
    white.event_of("draw_declined").await;
    white.play("e2e4").await;
    black.event_of("move").await;
    black.play("e7e5").await;
    white.event_of("move").await;
    white.send(json!({"type": "offer_draw"})).await;
    let offer = black.event_of("draw_offer").await;
    assert_eq!(offer["live"]["draw_offer"], "white");
    black.send(json!({"type": "accept_draw"})).await;
    let end = white.event_of("end").await;
    assert_eq!(end["event"]["result"], "1/2-1/2");
    assert_eq!(end["event"]["termination"]["kind"], "agreement");
    assert_eq!(end["event"]["termination"]["article"], "5.2.3");
    s.stop().await;
}

/// Art. 9.2: a correct claim on an intended move ends the game without the
/// move; an incorrect one gives the opponent two minutes (9.5), stands as
/// a draw offer, and the intended move is made.
#[tokio::test]
async fn claims_with_an_intended_move() {
    let s = TestServer::start().await;
    // Standard time control (Appendix A/B do not reduce the penalty).
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "5400+30"}))
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    // Incorrect: threefold on Nf3 from the start.
    p.send(json!({"type": "claim", "claim": "threefold", "move": "g1f3"}))
        .await;
    let rejected = p.event().await;
    assert_eq!(rejected["event"]["kind"], "claim_rejected", "{rejected}");
    assert_eq!(rejected["event"]["by"], "white");
    assert_eq!(rejected["event"]["penalty_ms"], 120_000);
    assert_eq!(rejected["event"]["article"], "9.5 b");
    assert_eq!(rejected["event"]["move"], "g1f3");
    let made = p.event().await;
    assert_eq!(made["event"]["kind"], "move");
    assert_eq!(made["event"]["move"]["san"], "Nf3");
    // Black got two minutes; White's claim stands as a draw offer.
    let clocks = &made["live"]["clocks"];
    assert!(
        clocks["black_ms"].as_u64().unwrap() > 5_430_000 + 110_000,
        "{clocks}"
    );
    assert_eq!(made["live"]["draw_offer"], "white");
    // An illegal intended move: an error, nothing happens.
    p.send(json!({"type": "claim", "claim": "threefold", "move": "e7e4"}))
        .await;
    assert_eq!(p.error().await["code"], "illegal_move");
    for uci in ["g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        p.play(uci).await;
    }
    // Black to move: Ng8 would make the start position appear a third time.
    p.send(json!({"type": "claim", "claim": "threefold", "move": "f6g8"}))
        .await;
    let end = p.event().await;
    assert_eq!(end["event"]["kind"], "end", "{end}");
    assert_eq!(end["event"]["termination"]["kind"], "threefold_repetition");
    assert_eq!(end["event"]["termination"]["by"], "black");
    assert_eq!(end["event"]["intended_move"], "f6g8");
    assert_eq!(end["live"]["ply"], 7, "the intended move is not made");
    s.stop().await;
}

/// Art. 6.9: the flag falls on the server; with mating material left to the
/// opponent the game is lost, against a lone king it is drawn.
#[tokio::test]
async fn time_out_with_and_without_mating_material() {
    let s = TestServer::start().await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "1"}))
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    let end = p.event().await;
    assert_eq!(end["event"]["kind"], "end", "{end}");
    assert_eq!(end["event"]["result"], "0-1");
    assert_eq!(end["event"]["termination"]["kind"], "timeout");
    assert_eq!(end["event"]["termination"]["article"], "6.9");
    assert_eq!(end["event"]["termination"]["by"], "white");
    assert_eq!(end["live"]["clocks"]["white_ms"], 0);
    let pgn = s.get(&format!("/api/games/{id}/pgn"), None).await.body;
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    assert!(
        pgn.contains("[FideTermination \"timeout (FIDE Laws 2014, Art. 6.9)\"]"),
        "{pgn}"
    );

    let (id, cookie, _) = s
        .create(
            json!({"mode": "local", "time_control": "1", "fen": "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"}),
        )
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    let end = p.event().await;
    assert_eq!(end["event"]["result"], "1/2-1/2", "{end}");
    assert_eq!(end["event"]["termination"]["kind"], "timeout_draw");
    assert_eq!(end["event"]["termination"]["winner"], json!(null));
    let pgn = s.get(&format!("/api/games/{id}/pgn"), None).await.body;
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    s.stop().await;
}

/// §4.1: a client that missed events gets exactly those on `hello`.
#[tokio::test]
async fn reconnect_and_catch_up() {
    let s = TestServer::start().await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "-"}))
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    let mut watcher = s.player(&id, None).await;
    assert_eq!(watcher.state["seat"], json!(null));
    p.play("e2e4").await;
    p.play("e7e5").await;
    watcher.event_of("move").await;
    let second = watcher.event_of("move").await;
    assert_eq!(second["seq"], 2);
    watcher.socket.close().await;
    for uci in ["g1f3", "b8c6", "f1b5"] {
        p.play(uci).await;
    }
    let mut socket = arbiter_server::client::Socket::connect(s.addr, &id, None)
        .await
        .unwrap();
    socket
        .send(&json!({"type": "hello", "last_seq": 2}))
        .await
        .unwrap();
    let mut seqs = vec![];
    loop {
        let m = socket.recv(WAIT).await.unwrap();
        match m["type"].as_str() {
            Some("event") => {
                seqs.push(m["seq"].as_u64().unwrap());
                // Deltas, and the live state after the last (issue 13, defect 5).
                if m["seq"] == 5 {
                    assert_eq!(m["live"]["seq"], 5);
                    assert_eq!(
                        m["live"]["ply"], 5,
                        "live is the state after the last event"
                    );
                } else {
                    assert!(m.get("live").is_none(), "{m}");
                }
            }
            Some("ready") => {
                assert_eq!(m["seq"], 5);
                break;
            }
            Some("state") => panic!("expected events, got a state"),
            _ => {}
        }
    }
    assert_eq!(seqs, vec![3, 4, 5]);
    // A client ahead of the server (or with nothing) gets a state.
    socket
        .send(&json!({"type": "hello", "last_seq": 99}))
        .await
        .unwrap();
    let st = socket
        .recv_until(WAIT, |m| m["type"] == "state")
        .await
        .unwrap();
    assert_eq!(st["state"]["ply"], 5);
    // A game in progress: PGN `Termination` "unterminated", result "*";
    // the list shows its current ply.
    let pgn = s.get(&format!("/api/games/{id}/pgn"), None).await.body;
    assert!(pgn.contains("[Termination \"unterminated\"]"), "{pgn}");
    assert!(!pgn.contains("FideTermination"), "{pgn}");
    let list = s.get("/api/games?status=live", None).await.json();
    let row = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .unwrap()
        .clone();
    assert_eq!(row["ply"], 5, "{row}");
    assert!(row["updated_at"].as_u64().unwrap() >= row["created_at"].as_u64().unwrap());
    s.stop().await;
}

/// §2, §4.7: spectators and the wrong seat cannot act; foreign origins are refused.
#[tokio::test]
async fn refusals() {
    let s = TestServer::start().await;
    let (id, white_cookie, black_cookie) = s
        .invitation(
            json!({"mode": "invite", "color": "white", "time_control": "300+3"}),
            json!({}),
        )
        .await;
    let mut spectator = s.player(&id, None).await;
    spectator.send(json!({"type": "move", "uci": "e2e4"})).await;
    let e = spectator.error().await;
    assert_eq!(e["code"], "not_a_player");
    assert_eq!(e["reply_to"], 1);
    spectator.send(json!({"type": "resign"})).await;
    assert_eq!(spectator.error().await["code"], "not_a_player");
    let mut black = s.player(&id, Some(&black_cookie)).await;
    black.send(json!({"type": "move", "uci": "e7e5"})).await;
    assert_eq!(black.error().await["code"], "not_your_turn");
    // A cookie of another game is no seat here.
    let (_, other_cookie, _) = s.create(json!({"mode": "local"})).await;
    let mut stranger = s.player(&id, Some(&other_cookie)).await;
    assert_eq!(stranger.state["seat"], json!(null));
    stranger.send(json!({"type": "offer_draw"})).await;
    assert_eq!(stranger.error().await["code"], "not_a_player");
    let mut white = s.player(&id, Some(&white_cookie)).await;
    white.send(json!({"type": "move", "uci": "e2e5"})).await;
    assert_eq!(white.error().await["code"], "illegal_move");
    // Typed text is read by the server (§5.1), in any notation.
    white.send(json!({"type": "move", "text": "Кf6"})).await;
    assert_eq!(white.error().await["code"], "illegal_move");
    white.send(json!({"type": "move", "text": "e2?e4"})).await;
    assert_eq!(white.error().await["code"], "unreadable_move");
    white.send(json!({"type": "touch", "square": "e2"})).await;
    assert_eq!(white.error().await["code"], "touch_move_off");
    white.socket.send_text("{not json").await.unwrap();
    assert_eq!(white.error().await["code"], "bad_message");
    white.send(json!({"type": "claim", "claim": "sixty"})).await;
    assert_eq!(white.error().await["code"], "bad_message");
    // Foreign origin: POST and upgrade refused.
    let r = arbiter_server::client::request(
        s.addr,
        "POST",
        "/api/games",
        Some(r#"{"mode":"local"}"#),
        &[("Origin", "http://evil.example")],
    )
    .await
    .unwrap();
    assert_eq!(r.status, 403);
    assert_eq!(r.json()["error"]["code"], "forbidden_origin");
    // Bad requests name their field; unknown API paths are JSON 404s.
    let bad = s
        .post(
            "/api/games",
            &json!({"mode": "local", "time_control": "*60"}),
            None,
        )
        .await;
    assert_eq!(bad.status, 400);
    assert_eq!(bad.json()["error"]["field"], "time_control");
    let nf = s.get("/api/nothing", None).await;
    assert_eq!(nf.status, 404);
    assert_eq!(nf.json()["error"]["code"], "not_found");
    assert_eq!(s.get("/api/games/zzzzzzzz", None).await.status, 404);
    s.stop().await;
}

/// §3.1: `fen` is read for a standard game in standard castling mode (Art.
/// 3.8 a: the king on e1/e8, the rook in its corner): a castling right only
/// Chess960 can have is refused naming `fen`, not played as Chess960 castling
/// (a tester's game castled e1b1, its PGN said Chess960 and `e1g1` was refused).
#[tokio::test]
async fn a_standard_game_reads_its_fen_in_standard_castling_mode() {
    let s = TestServer::start().await;
    for (fen, rook) in [
        // The a-rook moved to b1, `Q` kept.
        ("4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1", "b1"),
        // A Chess960 array in Shredder-FEN, king on b1.
        ("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", "a1"),
    ] {
        let r = s
            .post(
                "/api/games",
                &json!({"mode": "local", "variant": "standard", "fen": fen}),
                None,
            )
            .await;
        assert_eq!(r.status, 400, "{fen}: {}", r.body);
        let error = &r.json()["error"];
        assert_eq!(error["code"], "invalid_request", "{fen}");
        assert_eq!(error["field"], "fen", "{fen}");
        let message = error["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("rook on {rook}")) && message.contains("standard chess"),
            "{fen}: {message}"
        );
    }
    // The rights standard chess has stay, castling written king-to-square.
    let (_, _, v) = s
        .create(json!({"mode": "local", "fen": "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"}))
        .await;
    let castles: Vec<&str> = v["state"]["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| !m["castle"].is_null())
        .map(|m| m["uci"].as_str().unwrap())
        .collect();
    assert_eq!(castles.len(), 2, "{castles:?}");
    assert!(
        castles.contains(&"e1g1") && castles.contains(&"e1c1"),
        "{castles:?}"
    );
    s.stop().await;
}

/// §1: pages carry the CSP and are not cached; assets are.
#[tokio::test]
async fn pages_and_assets() {
    let s = TestServer::start().await;
    for path in [
        "/",
        "/game/abcdEFGH",
        "/join/abcdEFGH",
        "/@/anna",
        "/events",
        "/event/abcdEFGH",
    ] {
        let r = s.get(path, None).await;
        assert_eq!(r.status, 200, "{path}");
        assert!(r
            .header("content-security-policy")
            .unwrap()
            .contains("frame-ancestors 'none'"));
        assert_eq!(r.header("cache-control"), Some("no-cache"));
        assert!(r.body.contains("/app.js"));
    }
    let js = s.get("/app.js", None).await;
    assert_eq!(js.status, 200);
    assert_eq!(js.header("cache-control"), Some("public, max-age=3600"));
    assert!(js
        .header("content-type")
        .unwrap()
        .starts_with("text/javascript"));
    assert_eq!(
        s.get("/pieces/wN.svg", None).await.header("content-type"),
        Some("image/svg+xml")
    );
    assert_eq!(s.get("/nope.js", None).await.status, 404);
    // An event's page needs its id; ids are letters, digits, - and _.
    assert_eq!(s.get("/event/", None).await.status, 404);
    assert_eq!(s.get("/event/a.b", None).await.status, 404);
    s.stop().await;
}

/// Against the engine: it moves first as White, answers a move, and
/// declines a draw offer made too early (before move 20).
#[tokio::test]
async fn the_engine_plays_and_declines_a_draw() {
    let s = TestServer::start().await;
    let (id, cookie, created) = s
        .create(json!({"mode": "engine", "engine": {"level": 1}, "color": "black", "time_control": "60+1"}))
        .await;
    assert_eq!(created["state"]["players"]["white"]["kind"], "engine");
    assert_eq!(created["state"]["players"]["white"]["engine_elo"], 1350);
    let mut p = s.player(&id, Some(&cookie)).await;
    let first = p.event_of("move").await;
    assert_eq!(first["event"]["move"]["color"], "white");
    let legal = first["live"]["legal_moves"].as_array().unwrap().clone();
    let uci = legal[0]["uci"].as_str().unwrap();
    p.play(uci).await;
    let reply = p.event_of("move").await;
    assert_eq!(reply["event"]["move"]["ply"], 3);
    p.send(json!({"type": "offer_draw"})).await;
    p.event_of("draw_offer").await;
    let declined = p.event_of("draw_declined").await;
    assert_eq!(declined["event"]["by"], "white");
    s.stop().await;
}

/// Art. 9.1, 5.2 c: the engine answers a draw offer by its own evaluation.
/// From move 20 on it accepts in a level position (kings and two pawns
/// each, symmetrical) and declines when it is clearly better (two queens up).
#[tokio::test]
async fn the_engine_weighs_a_draw_offer() {
    let s = TestServer::start().await;
    for level in [1, 7] {
        let (id, cookie, _) = s
            .create(
                json!({"mode": "engine", "engine": {"level": level}, "color": "white",
                "time_control": "600+0", "fen": "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 40"}),
            )
            .await;
        let mut p = s.player(&id, Some(&cookie)).await;
        p.send(json!({"type": "offer_draw"})).await;
        p.event_of("draw_offer").await;
        let end = p.event_of("end").await;
        assert_eq!(end["event"]["result"], "1/2-1/2", "level {level}: {end}");
        assert_eq!(end["event"]["termination"]["kind"], "agreement");
        assert_eq!(end["event"]["termination"]["article"], "5.2 c");
    }
    let (id, cookie, _) = s
        .create(
            json!({"mode": "engine", "engine": {"level": 1}, "color": "white",
            "time_control": "600+0", "fen": "qq2k3/8/8/8/8/8/8/4K3 w - - 0 40"}),
        )
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    p.send(json!({"type": "offer_draw"})).await;
    p.event_of("draw_offer").await;
    let declined = p.event_of("draw_declined").await;
    assert_eq!(declined["event"]["by"], "black");
    assert_eq!(declined["live"]["status"], "active");
    s.stop().await;
}

/// Protocol §2 and §3: one guard in front of creating, joining and the
/// WebSocket. A foreign `Origin` is refused before the rate limit counts it;
/// creating and joining share the per-address limit.
#[tokio::test]
async fn origin_and_rate_limit_guard_every_route_that_acts() {
    let s = TestServer::start_with(tempfile::tempdir().unwrap(), |c| c.create_per_minute = 2).await;
    let evil = [("Origin", "http://evil.example")];
    for _ in 0..3 {
        let body = Some(r#"{"mode":"invite"}"#);
        let r = arbiter_server::client::request(s.addr, "POST", "/api/games", body, &evil)
            .await
            .unwrap();
        assert_eq!(r.status, 403, "{}", r.body);
        assert_eq!(r.json()["error"]["code"], "forbidden_origin");
    }
    let (id, _, _) = s.create(json!({"mode": "invite"})).await;
    let r = arbiter_server::client::request(
        s.addr,
        "POST",
        &format!("/api/games/{id}/join"),
        Some("{}"),
        &evil,
    )
    .await
    .unwrap();
    assert_eq!(r.status, 403, "{}", r.body);
    // The second token of the minute goes to the join; then both are refused.
    let joined = s
        .post(&format!("/api/games/{id}/join"), &json!({}), None)
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    let again = s.post("/api/games", &json!({"mode": "local"}), None).await;
    assert_eq!(again.status, 429, "{}", again.body);
    assert_eq!(again.json()["error"]["code"], "rate_limited");
    let join = s
        .post(&format!("/api/games/{id}/join"), &json!({}), None)
        .await;
    assert_eq!(join.status, 429, "{}", join.body);
    // Reading is never limited.
    assert_eq!(s.get(&format!("/api/games/{id}"), None).await.status, 200);
    s.stop().await;
}

/// Protocol §3.5: a finished game has no seat to take, `409 game_finished`:
/// an invitation whose set-up position is dead (Art. 5.2 b) is over at its
/// creation, and an aborted invitation is over too (it answered 200 and
/// seated the joiner, and `seat_taken`). A game that is not an invitation
/// stays `not_invitation`.
#[tokio::test]
async fn a_finished_game_cannot_be_joined() {
    let s = TestServer::start().await;
    // King and bishop each, the bishops on squares of one colour: dead.
    let (dead, _, created) = s
        .create(
            json!({"mode": "invite", "color": "white", "time_control": "600+0",
            "fen": "4k3/8/8/8/3b4/4B3/8/4K3 w - - 0 1"}),
        )
        .await;
    assert_eq!(created["state"]["status"], "finished");
    assert_eq!(created["state"]["termination"]["kind"], "dead_position");
    let (aborted, cookie, _) = s
        .create(json!({"mode": "invite", "color": "white", "time_control": "600+0"}))
        .await;
    let mut host = s.player(&aborted, Some(&cookie)).await;
    host.send(json!({"type": "abort"})).await;
    host.event_of("aborted").await;
    for id in [&dead, &aborted] {
        let r = s
            .post(&format!("/api/games/{id}/join"), &json!({}), None)
            .await;
        assert_eq!(r.status, 409, "{id}: {}", r.body);
        assert_eq!(r.json()["error"]["code"], "game_finished", "{}", r.body);
        assert!(r.cookie().is_none(), "no seat for the joiner");
        let snapshot = s.get(&format!("/api/games/{id}"), None).await.json();
        assert_eq!(snapshot["players"]["black"]["joined"], false, "{snapshot}");
    }
    let (local, _, _) = s
        .create(json!({"mode": "local", "time_control": "600+0",
            "fen": "4k3/8/8/8/3b4/4B3/8/4K3 w - - 0 1"}))
        .await;
    let r = s
        .post(&format!("/api/games/{local}/join"), &json!({}), None)
        .await;
    assert_eq!(r.json()["error"]["code"], "not_invitation", "{}", r.body);
    s.stop().await;
}

/// Art. 4.3 and protocol §4.2, "Touching again changes nothing": a second
/// touch after a touch records nothing, but is answered like every client
/// message with an `id` (found by a tester: it got no reply at all, so a
/// client waiting for one waited for ever). The first touch still binds.
#[tokio::test]
async fn touching_again_is_answered_and_changes_nothing() {
    let s = TestServer::start().await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "time_control": "300+3", "touch_move": true}))
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    p.send(json!({"type": "touch", "square": "g1"})).await;
    let touch = p.event().await;
    assert_eq!(touch["event"]["kind"], "touch", "{touch}");
    let again = p.send(json!({"type": "touch", "square": "e2"})).await;
    let answer = p.event().await;
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "already_touched", "{answer}");
    assert_eq!(answer["reply_to"], again, "{answer}");
    assert!(
        answer["message"].as_str().unwrap().contains("g1"),
        "{answer}"
    );
    // Nothing changed: the knight on g1 must still be moved.
    p.send(json!({"type": "move", "uci": "e2e4"})).await;
    assert_eq!(p.error().await["code"], "touch_move_violation");
    p.play("g1f3").await;
    s.stop().await;
}
