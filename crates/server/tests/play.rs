//! Issue 13, what a Lichess player expects: abort before the first move,
//! the rematch, the lobby of open seeks, and the analysis after the game
//! (protocol §3.7–§3.9, §4.2 `abort`).

mod common;

use common::TestServer;
use serde_json::json;

/// §4.2 `abort`: a player may abort before his own first move; after it he
/// is refused (resign instead); the game is finished with no result, and a
/// spectator cannot abort.
#[tokio::test]
async fn abort_before_the_first_move_only() {
    let s = TestServer::start().await;
    let (id, white_cookie, black_cookie) = s
        .invitation(
            json!({"mode": "invite", "color": "white", "time_control": "300+0"}),
            json!({}),
        )
        .await;
    let mut white = s.player(&id, Some(&white_cookie)).await;
    let mut black = s.player(&id, Some(&black_cookie)).await;
    let mut spectator = s.player(&id, None).await;
    spectator.send(json!({"type": "abort"})).await;
    assert_eq!(spectator.error().await["code"], "not_a_player");
    white.play("e2e4").await;
    white.send(json!({"type": "abort"})).await;
    assert_eq!(white.error().await["code"], "game_started");
    // Black has not moved yet: he may.
    black.event_of("move").await;
    black.send(json!({"type": "abort"})).await;
    let aborted = white.event_of("aborted").await;
    assert_eq!(aborted["event"]["by"], "black");
    assert_eq!(aborted["live"]["status"], "finished");
    assert_eq!(aborted["live"]["result"], "*");
    black.send(json!({"type": "abort"})).await;
    assert_eq!(black.error().await["code"], "game_not_active");
    let game = s.get(&format!("/api/games/{id}"), None).await.json();
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"], "*");
    s.stop().await;
}

/// §3.7: an invitation game's rematch. The first request records an offer
/// that both players see; the opponent's request creates the game, with the
/// colours swapped and the same settings; each player gets his seat cookie
/// for it from his request, and both are seated.
#[tokio::test]
async fn an_invitation_rematch_seats_both_with_colours_swapped() {
    let s = TestServer::start().await;
    let (id, white_cookie, black_cookie) = s
        .invitation(
            json!({"mode": "invite", "color": "white", "time_control": "180+2", "name": "Anna"}),
            json!({"name": "Boris"}),
        )
        .await;
    let mut white = s.player(&id, Some(&white_cookie)).await;
    let mut black = s.player(&id, Some(&black_cookie)).await;
    let early = s
        .post(
            &format!("/api/games/{id}/rematch"),
            &json!({}),
            Some(&white_cookie),
        )
        .await;
    assert_eq!(early.status, 409, "{}", early.body);
    assert_eq!(early.json()["error"]["code"], "game_not_finished");
    white.play("e2e4").await;
    black.play("e7e5").await;
    white.send(json!({"type": "resign"})).await;
    black.event_of("end").await;
    let stranger = s
        .post(&format!("/api/games/{id}/rematch"), &json!({}), None)
        .await;
    assert_eq!(stranger.status, 403, "{}", stranger.body);
    let offer = s
        .post(
            &format!("/api/games/{id}/rematch"),
            &json!({}),
            Some(&white_cookie),
        )
        .await;
    assert_eq!(offer.status, 202, "{}", offer.body);
    let seen = black.event_of("rematch_offer").await;
    assert_eq!(seen["event"]["by"], "white");
    white.event_of("rematch_offer").await;
    let accept = s
        .post(
            &format!("/api/games/{id}/rematch"),
            &json!({}),
            Some(&black_cookie),
        )
        .await;
    assert_eq!(accept.status, 200, "{}", accept.body);
    let new_id = accept.json()["id"].as_str().unwrap().to_owned();
    assert_ne!(new_id, id);
    assert_eq!(
        accept.json()["seat"],
        "white",
        "Black plays White in the rematch"
    );
    let black_new = accept.cookie().unwrap();
    let announced = white.event_of("rematch").await;
    assert_eq!(announced["event"]["game"], new_id);
    let mine = s
        .post(
            &format!("/api/games/{id}/rematch"),
            &json!({}),
            Some(&white_cookie),
        )
        .await;
    assert_eq!(mine.status, 200, "{}", mine.body);
    assert_eq!(mine.json()["id"], new_id);
    assert_eq!(mine.json()["seat"], "black");
    let white_new = mine.cookie().unwrap();
    assert!(white_new.starts_with(&format!("arbiter_seat_{new_id}=")));
    let state = &mine.json()["state"];
    assert_eq!(state["status"], "active");
    assert_eq!(state["time_control"], "180+2");
    assert_eq!(state["players"]["white"]["name"], "Boris");
    assert_eq!(state["players"]["black"]["name"], "Anna");
    // Both are seated: the new White moves, the new Black answers.
    let mut new_white = s.player(&new_id, Some(&black_new)).await;
    let mut new_black = s.player(&new_id, Some(&white_new)).await;
    assert_eq!(new_white.state["seat"], "white");
    assert_eq!(new_black.state["seat"], "black");
    new_white.play("d2d4").await;
    new_black.play("d7d5").await;
    // Survives a restart: the rematch link and the seats are stored.
    let dir = s.stop().await;
    let s = TestServer::start_in(dir).await;
    let again = s
        .post(
            &format!("/api/games/{id}/rematch"),
            &json!({}),
            Some(&white_cookie),
        )
        .await;
    assert_eq!(again.json()["id"], new_id);
    let reloaded = s
        .get(&format!("/api/games/{new_id}"), Some(&white_new))
        .await
        .json();
    assert_eq!(reloaded["seat"], "black");
    assert_eq!(reloaded["status"], "active");
    s.stop().await;
}

/// §3.7: against the engine the rematch is made at once, the engine on the
/// other colour; an aborted engine game can be replayed too.
#[tokio::test]
async fn an_engine_rematch_is_created_at_once() {
    let s = TestServer::start().await;
    let (id, cookie, _) = s
        .create(json!({"mode": "engine", "engine": {"level": 1}, "color": "white", "time_control": "300+0"}))
        .await;
    let mut me = s.player(&id, Some(&cookie)).await;
    me.send(json!({"type": "abort"})).await;
    me.event_of("aborted").await;
    let r = s
        .post(
            &format!("/api/games/{id}/rematch"),
            &json!({}),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["seat"], "black");
    let state = &r.json()["state"];
    assert_eq!(state["players"]["white"]["kind"], "engine");
    assert_eq!(state["players"]["white"]["engine_level"], 1);
    let new_id = r.json()["id"].as_str().unwrap().to_owned();
    let new_cookie = r.cookie().unwrap();
    let mut me = s.player(&new_id, Some(&new_cookie)).await;
    // The engine, White now, moves first.
    let first = me.event_of("move").await;
    assert_eq!(first["event"]["move"]["color"], "white");
    s.stop().await;
}

/// Game `id`'s analysis report, from `report`, polled until `done` holds
/// (at most 30 s).
async fn analysis_until(
    s: &TestServer,
    id: &str,
    mut report: serde_json::Value,
    done: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    for _ in 0..600 {
        if done(&report) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        report = s
            .get(&format!("/api/games/{id}/analysis"), None)
            .await
            .json();
    }
    report
}

/// §3.9: a finished game's analysis: every position evaluated (the
/// graph), the best line, the moves judged; a mate on the board is mate;
/// the blunder that allows mate is marked; a deeper look at one position
/// from the replay; a game in progress is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed() {
    let s = TestServer::start().await;
    let (id, cookie, _) = s.create(json!({"mode": "local"})).await;
    let early = s
        .post(&format!("/api/games/{id}/analysis"), &json!({}), None)
        .await;
    assert_eq!(early.status, 409, "{}", early.body);
    assert_eq!(early.json()["error"]["code"], "game_not_finished");
    let none = s.get(&format!("/api/games/{id}/analysis"), None).await;
    assert_eq!(none.json()["error"]["code"], "no_analysis");
    let mut p = s.player(&id, Some(&cookie)).await;
    for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        p.play(uci).await;
    }
    let started = s
        .post(&format!("/api/games/{id}/analysis"), &json!({}), None)
        .await;
    assert!(matches!(started.status, 200 | 202), "{}", started.body);
    assert_eq!(started.json()["total"], 5);
    let report = analysis_until(&s, &id, started.json(), |r| r["status"] == "done").await;
    assert_eq!(report["status"], "done", "{report}");
    let positions = report["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 5);
    // Mate on the board: White is mated.
    assert_eq!(positions[4]["eval"]["mate"], 0);
    assert_eq!(positions[4]["eval"]["cp"], -1000);
    // After 2.g4 Black mates in one, and the line says how.
    assert_eq!(positions[3]["eval"]["mate"], -1, "{}", positions[3]);
    assert_eq!(positions[3]["best"], "Qh4#");
    assert_eq!(positions[3]["line"][0], "Qh4#");
    let moves = report["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[2]["san"], "g4");
    assert_eq!(moves[2]["judgement"], "blunder", "{}", moves[2]);
    assert_eq!(moves[3]["judgement"], json!(null), "mating is no mistake");
    assert_eq!(report["thresholds"], json!([50, 100, 300]));
    // A deeper look from the replay.
    let bad = s
        .post(&format!("/api/games/{id}/analysis/9"), &json!({}), None)
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    let deep = s
        .post(&format!("/api/games/{id}/analysis/1"), &json!({}), None)
        .await;
    assert!(matches!(deep.status, 200 | 202), "{}", deep.body);
    let report = analysis_until(&s, &id, deep.json(), |r| r["deep"]["1"].is_object()).await;
    let one = &report["deep"]["1"];
    assert_eq!(one["ply"], 1, "{report}");
    assert!(one["nodes"].as_u64().unwrap() > report["nodes_per_position"].as_u64().unwrap());
    s.stop().await;
}

/// §3.9: a game drawn by the position itself (here the fivefold
/// repetition, Art. 9.6) ends there: its last position reads as a draw with
/// no best move and no line, and the move that drew it is no blunder.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_that_ended_the_game_in_a_draw_is_read_as_one() {
    let s = TestServer::start().await;
    let (id, cookie, _) = s
        .create(json!({"mode": "local", "fen": "k7/8/8/8/8/8/7Q/K7 w - - 0 1"}))
        .await;
    let mut p = s.player(&id, Some(&cookie)).await;
    for _ in 0..4 {
        for uci in ["h2h3", "a8b7", "h3h2", "b7a8"] {
            p.play(uci).await;
        }
    }
    let st = s.get(&format!("/api/games/{id}"), None).await.json();
    assert_eq!(st["termination"]["kind"], "fivefold_repetition", "{st}");
    let started = s
        .post(&format!("/api/games/{id}/analysis"), &json!({}), None)
        .await
        .json();
    let report = analysis_until(&s, &id, started, |r| r["status"] == "done").await;
    assert_eq!(report["status"], "done", "{report}");
    let positions = report["positions"].as_array().unwrap();
    let last = &positions[16];
    assert_eq!(last["eval"], json!({"cp": 0, "mate": null}), "{last}");
    assert_eq!(
        (last["best"].clone(), last["line"].clone()),
        (json!(null), json!([])),
        "{last}"
    );
    let moves = report["moves"].as_array().unwrap();
    assert_eq!(moves[15]["judgement"], json!(null), "{}", moves[15]);
    // Nothing deeper to see there.
    let deep = s
        .post(&format!("/api/games/{id}/analysis/16"), &json!({}), None)
        .await
        .json();
    assert_eq!(deep["deep"]["16"]["eval"]["cp"], 0, "{deep}");
    s.stop().await;
}

/// §3.8: the bound of seeks per address holds for requests sent at once:
/// six together, two listed and answered 201, four refused 429 (all six
/// were created, four silently unlisted).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_sent_at_once_keep_the_bound() {
    let s = TestServer::start_with(tempfile::tempdir().unwrap(), |c| c.create_per_minute = 0).await;
    let body = json!({"mode": "invite", "time_control": "300+3", "lobby": true});
    let answers =
        futures_util::future::join_all((0..6).map(|_| s.post("/api/games", &body, None))).await;
    let mut codes: Vec<u16> = answers.iter().map(|r| r.status).collect();
    codes.sort_unstable();
    assert_eq!(codes, [201, 201, 429, 429, 429, 429], "{codes:?}");
    let listed = s.get("/api/lobby", None).await.json();
    assert_eq!(listed["seeks"].as_array().unwrap().len(), 2, "{listed}");
    s.stop().await;
}

/// §3.8: a seek is listed live for other visitors; accepting it seats both
/// in its game; it leaves the lobby when taken or when its creator leaves;
/// seeks are bounded per address; only invitations are listed.
#[tokio::test]
async fn the_lobby_lists_seeks_live() {
    use arbiter_server::client::Socket;
    let s = TestServer::start().await;
    let engine = s
        .post(
            "/api/games",
            &json!({"mode": "engine", "engine": {"level": 1}, "lobby": true}),
            None,
        )
        .await;
    assert_eq!(engine.status, 400, "{}", engine.body);
    assert_eq!(engine.json()["error"]["field"], "lobby");
    let mut watcher = Socket::connect_path(s.addr, "/api/lobby/ws", None)
        .await
        .unwrap();
    let first = watcher.recv(common::WAIT).await.unwrap();
    assert_eq!(first, json!({"type": "seeks", "seeks": []}));
    let (id, cookie, _) = s
        .create(json!({"mode": "invite", "color": "black", "time_control": "300+3", "name": "Anna", "lobby": true}))
        .await;
    let listed = watcher.recv(common::WAIT).await.unwrap();
    assert_eq!(listed["seeks"][0]["game"], id);
    assert_eq!(listed["seeks"][0]["color"], "black");
    assert_eq!(listed["seeks"][0]["time_control"], "300+3");
    assert_eq!(listed["seeks"][0]["name"], "Anna");
    let http = s.get("/api/lobby", None).await.json();
    assert_eq!(http["seeks"][0]["game"], id);
    // The creator waits on the game's page; a visitor accepts.
    let mut creator = s.player(&id, Some(&cookie)).await;
    let joined = s
        .post(
            &format!("/api/games/{id}/join"),
            &json!({"name": "Boris"}),
            None,
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    assert_eq!(joined.json()["seat"], "white");
    let join = creator.event_of("join").await;
    assert_eq!(join["live"]["status"], "active");
    let taken = watcher.recv(common::WAIT).await.unwrap();
    assert_eq!(taken["seeks"], json!([]));
    // A creator who leaves withdraws his seek.
    let (id2, cookie2, _) = s.create(json!({"mode": "invite", "lobby": true})).await;
    assert_eq!(
        watcher.recv(common::WAIT).await.unwrap()["seeks"][0]["game"],
        id2
    );
    let (id3, _, _) = s.create(json!({"mode": "invite", "lobby": true})).await;
    assert_eq!(
        watcher.recv(common::WAIT).await.unwrap()["seeks"][1]["game"],
        id3
    );
    let third = s
        .post(
            "/api/games",
            &json!({"mode": "invite", "lobby": true}),
            None,
        )
        .await;
    assert_eq!(third.status, 429, "{}", third.body);
    assert_eq!(third.json()["error"]["code"], "too_many_seeks");
    let p = s.player(&id2, Some(&cookie2)).await;
    p.socket.close().await;
    let left = watcher.recv(common::WAIT).await.unwrap();
    let games: Vec<&str> = left["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["game"].as_str().unwrap())
        .collect();
    assert_eq!(games, [id3.as_str()]);
    s.stop().await;
}
