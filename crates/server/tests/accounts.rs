//! Accounts over HTTP (issue 15; protocol §8): sign up, log in, a wrong
//! password, the rate limit, the session cookie's flags, a foreign origin
//! refused, the password changed, seats following the account to another
//! device, and a rated game moving both ratings (Glicko-2) while casual,
//! engine and one-screen games move none.

mod common;

use arbiter_server::account::rating::{rate, Rating};
use arbiter_server::client::request;
use common::TestServer;
use serde_json::{json, Value};

async fn post(
    s: &TestServer,
    path: &str,
    body: &Value,
    cookie: Option<&str>,
) -> (u16, Value, Option<String>, String) {
    let r = s.post(path, body, cookie).await;
    let set = r.header("set-cookie").map(str::to_owned);
    (r.status, r.json(), r.cookie(), set.unwrap_or_default())
}

async fn signup(s: &TestServer, name: &str) -> String {
    let (status, body, cookie, _) = post(
        s,
        "/api/account/signup",
        &json!({"name": name, "password": "correct horse"}),
        None,
    )
    .await;
    assert_eq!(status, 201, "{body}");
    cookie.expect("session cookie")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_log_in_wrong_password_log_out() {
    let s = TestServer::start().await;
    let (status, body, cookie, set) = post(
        &s,
        "/api/account/signup",
        &json!({"name": "Anna", "password": "correct horse"}),
        None,
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["user"]["name"], "Anna");
    // The session cookie: HttpOnly, SameSite=Strict, the whole site.
    assert!(set.starts_with("arbiter_session="), "{set}");
    for flag in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(set.split("; ").any(|f| f == flag), "{flag} missing: {set}");
    }
    let session = cookie.unwrap();
    let me = s.get("/api/account", Some(&session)).await.json();
    assert_eq!(me["user"]["name"], "Anna");
    assert_eq!(
        s.get("/api/account", None).await.json()["user"],
        Value::Null
    );
    // The name is taken whatever its case.
    let (status, body, _, _) = post(
        &s,
        "/api/account/signup",
        &json!({"name": "anna", "password": "another one"}),
        None,
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("name_taken"))
    );
    // Bad input names its field.
    for (bad, field) in [
        (json!({"name": "a", "password": "correct horse"}), "name"),
        (
            json!({"name": "x y z", "password": "correct horse"}),
            "name",
        ),
        (json!({"name": "Boris", "password": "short"}), "password"),
        (
            json!({"name": "Boris", "password": "x".repeat(129)}),
            "password",
        ),
    ] {
        let (status, body, _, _) = post(&s, "/api/account/signup", &bad, None).await;
        assert_eq!(
            (status, body["error"]["field"].as_str()),
            (400, Some(field)),
            "{bad}"
        );
    }
    // A wrong password and an unknown name get the same answer.
    for bad in [
        json!({"name": "Anna", "password": "wrong horse"}),
        json!({"name": "Nobody", "password": "correct horse"}),
    ] {
        let (status, body, cookie, _) = post(&s, "/api/account/login", &bad, None).await;
        assert_eq!(status, 401, "{body}");
        assert_eq!(body["error"]["code"], "wrong_credentials");
        assert!(cookie.is_none());
    }
    let (status, _, second, _) = post(
        &s,
        "/api/account/login",
        &json!({"name": "ANNA", "password": "correct horse"}),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let second = second.unwrap();
    assert_ne!(second, session);
    // Log out: the session ends on the server, not only in the browser.
    let (status, _, _, set) = post(&s, "/api/account/logout", &json!({}), Some(&session)).await;
    assert_eq!(status, 200);
    assert!(set.contains("Max-Age=0"), "{set}");
    assert_eq!(
        s.get("/api/account", Some(&session)).await.json()["user"],
        Value::Null
    );
    assert_eq!(
        s.get("/api/account", Some(&second)).await.json()["user"]["name"],
        "Anna"
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_origin_is_refused_and_attempts_are_rate_limited() {
    let s =
        TestServer::start_with(tempfile::tempdir().unwrap(), |c| c.account_per_minute = 3).await;
    let body = json!({"name": "Anna", "password": "correct horse"}).to_string();
    let r = request(
        s.addr,
        "POST",
        "/api/account/signup",
        Some(&body),
        &[("Origin", "https://evil.example")],
    )
    .await
    .unwrap();
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.header("set-cookie").is_none());
    let wrong = json!({"name": "Anna", "password": "wrong horse"});
    for _ in 0..3 {
        assert_eq!(s.post("/api/account/login", &wrong, None).await.status, 401);
    }
    let r = s.post("/api/account/login", &wrong, None).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.json()["error"]["code"], "rate_limited");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_password_is_changed_and_other_sessions_end() {
    let s = TestServer::start().await;
    let a = signup(&s, "Anna").await;
    let (_, _, b, _) = post(
        &s,
        "/api/account/login",
        &json!({"name": "Anna", "password": "correct horse"}),
        None,
    )
    .await;
    let b = b.unwrap();
    let change = |current: &str| json!({"current": current, "new": "battery staple"});
    let (status, body, _, _) = post(
        &s,
        "/api/account/password",
        &change("wrong horse"),
        Some(&a),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("wrong_credentials"))
    );
    let (status, _, _, _) = post(&s, "/api/account/password", &change("correct horse"), None).await;
    assert_eq!(status, 401, "not logged in");
    let (status, body, _, _) = post(
        &s,
        "/api/account/password",
        &change("correct horse"),
        Some(&a),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        s.get("/api/account", Some(&a)).await.json()["user"]["name"],
        "Anna"
    );
    assert_eq!(
        s.get("/api/account", Some(&b)).await.json()["user"],
        Value::Null
    );
    let login = |p: &str| json!({"name": "Anna", "password": p});
    assert_eq!(
        s.post("/api/account/login", &login("correct horse"), None)
            .await
            .status,
        401
    );
    assert_eq!(
        s.post("/api/account/login", &login("battery staple"), None)
            .await
            .status,
        200
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_follow_the_account_to_another_device() {
    let s = TestServer::start().await;
    let laptop = signup(&s, "Anna").await;
    let r = s
        .post(
            "/api/games",
            &json!({"mode": "invite", "color": "white", "time_control": "300+0", "name": "ignored"}),
            Some(&laptop),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_owned();
    assert_eq!(r.json()["state"]["players"]["white"]["name"], "Anna");
    // The phone: the same account, no seat cookie.
    let (_, _, phone, _) = post(
        &s,
        "/api/account/login",
        &json!({"name": "Anna", "password": "correct horse"}),
        None,
    )
    .await;
    let phone = phone.unwrap();
    let snap = s
        .get(&format!("/api/games/{id}"), Some(&phone))
        .await
        .json();
    assert_eq!(snap["seat"], "white", "{snap}");
    // Logged out, the same browser is a spectator.
    assert_eq!(
        s.get(&format!("/api/games/{id}"), None).await.json()["seat"],
        Value::Null
    );
    // The phone's socket plays White's moves.
    let mut p = s.player(&id, Some(&phone)).await;
    assert_eq!(p.state["seat"], "white");
    let joiner = s
        .post(&format!("/api/games/{id}/join"), &json!({}), None)
        .await;
    assert_eq!(joiner.status, 200, "{}", joiner.body);
    p.event_of("join").await;
    p.play("e2e4").await;
    // The games of the player's page.
    let games = s.get("/api/users/anna/games", None).await.json();
    assert_eq!(games["games"][0]["id"], id.as_str());
    assert_eq!(games["games"][0]["color"], "white");
    assert_eq!(games["games"][0]["time_class"], "blitz");
    s.stop().await;
}

/// Fool's mate: Black (Boris) mates on move 2.
async fn play_fools_mate(s: &TestServer, anna: &str, boris: &str, body: Value) -> String {
    let r = s.post("/api/games", &body, Some(anna)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_owned();
    let j = s
        .post(&format!("/api/games/{id}/join"), &json!({}), Some(boris))
        .await;
    assert_eq!(j.status, 200, "{}", j.body);
    let mut w = s.player(&id, Some(anna)).await;
    let mut b = s.player(&id, Some(boris)).await;
    w.play("f2f3").await;
    b.event_of("move").await;
    b.play("e7e5").await;
    w.event_of("move").await;
    w.play("g2g4").await;
    b.event_of("move").await;
    b.play("d8h4").await;
    let end = w.event_of("end").await;
    assert_eq!(end["event"]["result"], "0-1");
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_moves_both_ratings_and_a_casual_one_none() {
    let s = TestServer::start().await;
    let anna = signup(&s, "Anna").await;
    let boris = signup(&s, "Boris").await;
    let rated = json!({"mode": "invite", "color": "white", "time_control": "60+0", "rated": true});
    // Rated play needs accounts: to create, and to join.
    let r = s.post("/api/games", &rated, None).await;
    assert_eq!(
        (r.status, r.json()["error"]["code"].clone()),
        (401, json!("login_required"))
    );
    let r = s.post("/api/games", &rated, Some(&anna)).await;
    let id = r.json()["id"].as_str().unwrap().to_owned();
    let j = s
        .post(&format!("/api/games/{id}/join"), &json!({}), None)
        .await;
    assert_eq!(
        (j.status, j.json()["error"]["code"].clone()),
        (409, json!("login_required"))
    );
    let r = s
        .post(
            "/api/games",
            &json!({"mode": "local", "time_control": "60+0", "rated": true}),
            Some(&anna),
        )
        .await;
    assert_eq!(r.json()["error"]["field"], "rated");

    play_fools_mate(
        &s,
        &anna,
        &boris,
        json!({"mode": "invite", "color": "white", "time_control": "60+0"}),
    )
    .await;
    let p = s.get("/api/users/anna", None).await.json();
    assert_eq!(p["ratings"]["bullet"], Value::Null, "casual: unrated {p}");
    let id = play_fools_mate(&s, &anna, &boris, rated.clone()).await;
    // The ratings are committed with the result, before the end is announced.
    let (w, b) = rate(Rating::default(), Rating::default(), 0.0);
    let anna_p = s.get("/api/users/Anna", None).await.json();
    let boris_p = s.get("/api/users/boris", None).await.json();
    assert_eq!(
        anna_p["ratings"]["bullet"]["rating"],
        json!(w.rating.round()),
        "{anna_p}"
    );
    assert_eq!(
        boris_p["ratings"]["bullet"]["rating"],
        json!(b.rating.round()),
        "{boris_p}"
    );
    assert_eq!(anna_p["ratings"]["bullet"]["games"], 1);
    assert_eq!(anna_p["ratings"]["blitz"], Value::Null);
    assert_eq!(anna_p["results"]["white"]["loss"], 2);
    assert_eq!(boris_p["results"]["black"]["win"], 2);
    let h = s.get("/api/users/boris/ratings/bullet", None).await.json();
    assert_eq!(h["points"].as_array().unwrap().len(), 1);
    assert_eq!(h["points"][0]["game_id"], id.as_str());
    let wins = s
        .get("/api/users/boris/games?result=win&time_class=bullet", None)
        .await
        .json();
    assert_eq!(wins["games"].as_array().unwrap().len(), 2);
    assert_eq!(wins["games"][0]["rated"], true);
    assert_eq!(wins["games"][0]["opponent"], "Anna");
    let none = s
        .get("/api/users/boris/games?result=loss", None)
        .await
        .json();
    assert_eq!(none["games"].as_array().unwrap().len(), 0);
    for bad in ["?page=0", "?result=lost", "?time_class=hyper"] {
        let r = s.get(&format!("/api/users/boris/games{bad}"), None).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
    }
    assert_eq!(s.get("/api/users/nobody", None).await.status, 404);
    // A restart keeps everything.
    let dir = s.stop().await;
    let s = TestServer::start_in(dir).await;
    let again = s.get("/api/users/anna", None).await.json();
    assert_eq!(again["ratings"], anna_p["ratings"]);
    assert_eq!(
        s.get("/api/account", Some(&anna)).await.json()["user"]["name"],
        "Anna"
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_sign_ups_of_one_name_make_one_account() {
    let s =
        TestServer::start_with(tempfile::tempdir().unwrap(), |c| c.account_per_minute = 0).await;
    let addr = s.addr;
    let tries: Vec<_> = (0..6)
        .map(|i| {
            tokio::spawn(async move {
                let body = json!({"name": if i % 2 == 0 { "Anna" } else { "ANNA" }, "password": format!("password {i}")});
                request(addr, "POST", "/api/account/signup", Some(&body.to_string()), &[])
                    .await
                    .unwrap()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for t in tries {
        let r = t.await.unwrap();
        if r.status == 409 {
            assert_eq!(r.json()["error"]["code"], "name_taken");
        }
        statuses.push(r.status);
    }
    statuses.sort();
    assert_eq!(statuses, [201, 409, 409, 409, 409, 409], "{statuses:?}");
    s.stop().await;
}
