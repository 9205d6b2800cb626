//! `web/src/protocol.ts` checked against what the server really sends: a
//! game is played end to end (create, state, moves, a draw offer declined,
//! an incorrect claim, an error, a pong, a join, resignation, the list) and
//! every message is type-checked against the TypeScript declarations by a
//! small checker of the subset protocol.ts uses (interfaces, `extends`,
//! aliases, unions of literals and of objects, `T[]`, `T | null`, optional
//! fields). A field the server sends that the web does not declare, a
//! declared field the server does not send, or a value of another type fails
//! the test, so the two cannot drift apart (issue 11 §3).

mod common;

use common::{TestServer, WAIT};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The declarations of protocol.ts: name → type expression (interfaces
/// become an inline object expression, `extends` resolved).
struct Ts {
    types: HashMap<String, String>,
}

/// Splits `s` at `sep` where no bracket is open.
fn split_top(s: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            _ => {}
        }
        if c == sep && depth == 0 {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    out.push(cur);
    out.into_iter()
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

/// The text from the opening `{` at `open` to its matching `}` (exclusive).
fn braced(s: &str, open: usize) -> (&str, usize) {
    let mut depth = 0;
    for (i, c) in s[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return (&s[open + 1..open + i], open + i + 1);
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced braces in protocol.ts")
}

impl Ts {
    fn read(text: &str) -> Ts {
        let text: String = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let mut types = HashMap::new();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("export ") {
            rest = &rest[at + "export ".len()..];
            if let Some(decl) = rest.strip_prefix("interface ") {
                let open = decl.find('{').unwrap();
                let head: Vec<&str> = decl[..open].split_whitespace().collect();
                let (body, end) = braced(decl, open);
                let mut fields = body.to_owned();
                if let [_, "extends", parent] = head[..] {
                    let parent: &String = types.get(parent).expect("parent declared first");
                    fields = format!("{}; {}", &parent[1..parent.len() - 1], fields);
                }
                types.insert(head[0].to_owned(), format!("{{{fields}}}"));
                rest = &decl[end..];
            } else if let Some(decl) = rest.strip_prefix("type ") {
                let eq = decl.find('=').unwrap();
                let name = decl[..eq].trim().to_owned();
                let body = &decl[eq + 1..];
                // The declaration ends at the first `;` outside brackets.
                let mut depth = 0;
                let end = body
                    .char_indices()
                    .find(|&(_, c)| {
                        match c {
                            '{' | '[' | '(' => depth += 1,
                            '}' | ']' | ')' => depth -= 1,
                            _ => {}
                        }
                        c == ';' && depth == 0
                    })
                    .map(|(i, _)| i)
                    .unwrap();
                types.insert(name, body[..end].trim().to_owned());
                rest = &body[end..];
            }
        }
        Ts { types }
    }

    /// The fields of an inline object type `{ a: T; b?: U }`.
    fn fields(obj: &str) -> Vec<(String, bool, String)> {
        split_top(&obj[1..obj.len() - 1], ';')
            .into_iter()
            .flat_map(|f| split_top(&f, ','))
            .map(|f| {
                let (name, ty) = f.split_once(':').expect("field: type");
                let name = name.trim();
                let optional = name.ends_with('?');
                (
                    name.trim_end_matches('?').to_owned(),
                    optional,
                    ty.trim().to_owned(),
                )
            })
            .collect()
    }

    /// `Ok` if `v` is a value of the type expression `ty`.
    fn check(&self, ty: &str, v: &Value, path: &str) -> Result<(), String> {
        let alternatives = split_top(ty.trim().trim_start_matches('|'), '|');
        if alternatives.len() > 1 {
            let mut errors = Vec::new();
            for alt in &alternatives {
                match self.check(alt, v, path) {
                    Ok(()) => return Ok(()),
                    Err(e) => errors.push(e),
                }
            }
            // Report the object alternative whose discriminator matched.
            let deepest = errors.iter().find(|e| !e.contains("not a value of"));
            return Err(deepest
                .cloned()
                .unwrap_or_else(|| format!("{path}: {v} is not a value of {}", ty.trim())));
        }
        let ty = ty.trim();
        let wrong = || Err(format!("{path}: {v} is not a value of {ty}"));
        match ty {
            "null" => return if v.is_null() { Ok(()) } else { wrong() },
            "string" => return if v.is_string() { Ok(()) } else { wrong() },
            "number" => return if v.is_number() { Ok(()) } else { wrong() },
            "boolean" => return if v.is_boolean() { Ok(()) } else { wrong() },
            _ => {}
        }
        if let Some(lit) = ty.strip_prefix('\'') {
            return if v.as_str() == Some(lit.trim_end_matches('\'')) {
                Ok(())
            } else {
                wrong()
            };
        }
        if let Some(inner) = ty.strip_suffix("[]") {
            let Some(items) = v.as_array() else {
                return wrong();
            };
            for (i, item) in items.iter().enumerate() {
                self.check(inner, item, &format!("{path}[{i}]"))?;
            }
            return Ok(());
        }
        if ty.starts_with('{') {
            let Some(obj) = v.as_object() else {
                return wrong();
            };
            let fields = Ts::fields(ty);
            // A discriminator (`type`/`kind` literal) that does not match
            // means another alternative, not an error in this one.
            for (name, _, fty) in &fields {
                if (name == "type" || name == "kind") && fty.starts_with('\'') {
                    self.check(fty, &obj.get(name).cloned().unwrap_or(Value::Null), path)
                        .or_else(|_| wrong())?;
                }
            }
            for key in obj.keys() {
                if !fields.iter().any(|(n, _, _)| n == key) {
                    return Err(format!(
                        "{path}: the server sends {key:?}, which {ty} does not declare"
                    ));
                }
            }
            for (name, optional, fty) in &fields {
                match obj.get(name) {
                    None if *optional => {}
                    None => {
                        return Err(format!(
                            "{path}: {name:?} is declared but the server does not send it"
                        ))
                    }
                    Some(fv) => self.check(fty, fv, &format!("{path}.{name}"))?,
                }
            }
            return Ok(());
        }
        match self.types.get(ty) {
            Some(def) => self.check(def, v, path),
            None => panic!("{path}: protocol.ts uses a type {ty:?} this checker cannot read"),
        }
    }
}

fn protocol_ts() -> Ts {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/src/protocol.ts");
    Ts::read(&std::fs::read_to_string(path).expect("web/src/protocol.ts"))
}

#[track_caller]
fn conforms(ts: &Ts, ty: &str, v: &Value) {
    if let Err(e) = ts.check(ty, v, ty) {
        panic!("{e}\nin {v}");
    }
}

/// The checker itself: it refuses what it should.
#[test]
fn the_checker_refuses_drift() {
    let ts = Ts::read(
        "export type Color = 'white' | 'black';\n\
         export interface A { a: number; b?: Color | null; c: { d: string }[] }\n\
         export interface B extends A { e: boolean }\n\
         export type U = | { type: 'x'; a: A } | { type: 'y' };",
    );
    conforms(&ts, "B", &json!({"a": 1, "c": [{"d": "s"}], "e": true}));
    conforms(&ts, "U", &json!({"type": "y"}));
    for (ty, bad, why) in [
        ("A", json!({"a": 1, "c": [], "z": 0}), "does not declare"),
        ("A", json!({"c": []}), "does not send"),
        ("A", json!({"a": "1", "c": []}), "is not a value of number"),
        (
            "A",
            json!({"a": 1, "b": "red", "c": []}),
            "is not a value of",
        ),
        (
            "B",
            json!({"a": 1, "c": [{"d": 2}]}),
            "is not a value of string",
        ),
        ("U", json!({"type": "x", "a": {"a": 1}}), "does not send"),
        ("U", json!({"type": "z"}), "is not a value of"),
    ] {
        let e = ts.check(ty, &bad, ty).unwrap_err();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

/// Every way the Laws can end a game is declared by the web (a
/// `TerminationKind`) and named in both its languages (`term.<kind>` in
/// the English and the Russian dictionary): a game of an event forfeited
/// by its arbiter (6.7) was shown as the raw key `term.forfeit`.
#[test]
fn every_termination_is_declared_and_named_in_both_languages() {
    let ts = protocol_ts();
    let i18n = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/src/i18n.ts"
    ))
    .expect("web/src/i18n.ts");
    // The Russian dictionary follows the English one.
    let ru_at = i18n.find("const ru").expect("the Russian dictionary");
    let (en, ru) = i18n.split_at(ru_at);
    for t in arbiter_laws::Termination::ALL {
        let kind = json!({"kind": t, "article": "1", "winner": null, "by": null});
        conforms(&ts, "Termination", &kind);
        let key = format!("'term.{}':", t.name());
        assert!(en.contains(&key), "no English string {key}");
        assert!(ru.contains(&key), "no Russian string {key}");
    }
}

/// Everything a game sends, checked against protocol.ts.
#[tokio::test]
async fn the_web_declares_what_the_server_sends() {
    let ts = protocol_ts();
    let s = TestServer::start().await;
    let (id, cookie, created) = s
        .create(json!({"mode": "local", "time_control": "300+3", "name": "Anna"}))
        .await;
    conforms(&ts, "SeatResponse", &created);
    let mut p = s.player(&id, Some(&cookie)).await;
    conforms(&ts, "State", &p.state);
    let mut sent = Vec::new();
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "e2e4"] {
        sent.push(p.play(uci).await);
    }
    p.send(json!({"type": "offer_draw", "color": "white"}))
        .await;
    sent.push(p.event_of("draw_offer").await);
    p.send(json!({"type": "decline_draw", "color": "black"}))
        .await;
    sent.push(p.event_of("draw_declined").await);
    // An incorrect claim: a rejection, and the penalty it costs.
    p.send(json!({"type": "claim", "claim": "fifty"})).await;
    sent.push(p.event_of("claim_rejected").await);
    p.send(json!({"type": "move", "uci": "e2e4"})).await;
    sent.push(p.error().await);
    p.send(json!({"type": "ping", "lag_ms": 3})).await;
    sent.push(
        p.socket
            .recv_until(WAIT, |m| m["type"] == "pong")
            .await
            .unwrap(),
    );
    p.send(json!({"type": "resign", "color": "black"})).await;
    sent.push(p.event_of("end").await);
    // An invitation: the join, and who is online.
    let (inv, inv_cookie, _) = s
        .create(json!({"mode": "invite", "color": "white", "time_control": "-"}))
        .await;
    let mut host = s.player(&inv, Some(&inv_cookie)).await;
    conforms(&ts, "State", &host.state);
    let joined = s
        .post(&format!("/api/games/{inv}/join"), &json!({}), None)
        .await;
    conforms(&ts, "SeatResponse", &joined.json());
    sent.push(host.event_of("join").await);
    let guest = joined.cookie().unwrap();
    let mut guest = s.player(&inv, Some(&guest)).await;
    sent.push(
        host.socket
            .recv_until(WAIT, |m| m["type"] == "presence")
            .await
            .unwrap(),
    );
    guest.send(json!({"type": "hello", "last_seq": 0})).await;
    sent.push(
        guest
            .socket
            .recv_until(WAIT, |m| m["type"] == "ready")
            .await
            .unwrap(),
    );
    let kinds: Vec<String> = sent
        .iter()
        .map(|m| format!("{}/{}", m["type"], m["event"]["kind"]))
        .collect();
    for m in &sent {
        conforms(&ts, "ServerMessage", m);
    }
    assert!(kinds.len() >= 13, "{kinds:?}");
    let list = s.get("/api/games?status=all", None).await.json();
    let games = list["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for g in games {
        conforms(&ts, "GameSummary", g);
    }
    s.stop().await;
}
