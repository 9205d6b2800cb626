//! Clients on any node: a socket's frames go to the game's owner over the
//! bus, and the owner's messages for it come back ([`super::bus`]); an HTTP
//! request about a game owned elsewhere is run by the owner.
//!
//! On the client's node (the *edge*) a socket talks, as on one node, to a
//! [`GameHandle`]: for a game owned elsewhere, a proxy whose task puts the
//! commands on the bus. On the owner, each forwarded socket is a [`Conn`] of
//! the game's task like any other, whose queue is drained onto the bus.
//! Either side drops the connection when the other node is no longer heard
//! ([`super::ALIVE_LAPSE`]), or is heard again as a later incarnation (it
//! was restarted: the process the connection went to is dead): the client
//! reconnects, and lands where the game now runs.
//!
//! ```
//! use arbiter_server::cluster::forward::game_of_path;
//! assert_eq!(game_of_path("/api/games/AbCd1234/pgn"), Some("AbCd1234"));
//! assert_eq!(game_of_path("/api/games/AbCd1234/ws"), None);
//! assert_eq!(game_of_path("/api/games"), None);
//! ```

use super::bus::{
    Attached, HttpReply, HttpRequest, LobbySnapshot, PresenceReport, ToEdge, ToOwner, PRESENCE_PART,
};
use super::{lock, Cluster, ALIVE_EVERY, PRESENCE_FULL_EVERY, SNAPSHOT_WITHIN};
use crate::game::actor::{Command, Conn, GameHandle, Summary, OUTBOUND_QUEUE};
use crate::game::core::SeatSet;
use crate::lobby::LobbyChange;
use crate::protocol::ClientFrame;
use crate::App;
use axum::extract::ws::{Message, Utf8Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use futures_util::StreamExt;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, Notify};

/// How long an owner has to answer an attach or an HTTP request.
const ASK_WITHIN: Duration = Duration::from_secs(5);
/// Largest forwarded HTTP body, either way (NATS's default payload is 1 MiB).
const MAX_FORWARDED_BODY: usize = 512 * 1024;
/// Marks a request already forwarded once (it is never forwarded again).
const FORWARDED: &str = "x-arbiter-forwarded";

/// Ids of the forwarded connections on the owner: apart from the edge's
/// own ids (those count up from 1).
static NEXT_REMOTE: AtomicU64 = AtomicU64::new(1 << 62);

struct EdgeConn {
    tx: mpsc::Sender<Message>,
    dropped: Arc<Notify>,
    owner: String,
    /// The owner's incarnation that attached it (none until it answered).
    incarnation: Option<u64>,
}

struct RemoteConn {
    local: u64,
    game: GameHandle,
    /// The incarnation of the edge node that attached it.
    incarnation: Option<u64>,
}

/// This node's side of the forwarded connections.
#[derive(Default)]
pub struct Tables {
    /// Edge: our connection id → its socket's queue, and the owner.
    edge: std::sync::Mutex<HashMap<u64, EdgeConn>>,
    /// Owner: (edge node, its connection id) → the conn in our game task.
    remote: std::sync::Mutex<HashMap<(String, u64), RemoteConn>>,
}

/// The game id of an HTTP path to forward: `/api/games/{id}/…` and
/// `/api/games/{id}`, but not the WebSocket (forwarded frame by frame).
pub fn game_of_path(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/api/games/")?;
    let (id, tail) = rest.split_once('/').unwrap_or((rest, ""));
    (crate::game::registry::valid_id(id) && tail != "ws").then_some(id)
}

/// A frame as JSON again, for the owner to read with [`ClientFrame::parse`].
fn frame_json(frame: &ClientFrame) -> String {
    let mut v = serde_json::to_value(&frame.msg).unwrap_or_default();
    if let (Some(id), Some(o)) = (frame.id, v.as_object_mut()) {
        o.insert("id".into(), id.into());
    }
    v.to_string()
}

/// The edge's handle on game `game` owned by `owner`: its task puts the
/// socket's commands on the bus, and ends when the socket drops the handle.
pub fn proxy(app: Arc<App>, c: Arc<Cluster>, game: String, owner: String) -> GameHandle {
    let (tx, mut rx) = mpsc::channel::<Command>(64);
    tokio::spawn(async move {
        while let Some(cmd) = rx.recv().await {
            match cmd {
                Command::Attach { conn, reply } => {
                    lock(&c.forward.edge).insert(
                        conn.id,
                        EdgeConn {
                            tx: conn.tx.clone(),
                            dropped: conn.dropped.clone(),
                            owner: owner.clone(),
                            incarnation: None,
                        },
                    );
                    let ask = ToOwner::Attach {
                        game: game.clone(),
                        edge: c.node.clone(),
                        conn: conn.id,
                        token_hash: conn.token_hash.clone(),
                        client: conn.client,
                        incarnation: Some(c.incarnation),
                    };
                    match c.bus.ask_owner::<Attached>(&owner, &ask, ASK_WITHIN).await {
                        Ok(Attached {
                            seat: Ok(seat),
                            incarnation,
                        }) => {
                            // The owner is alive: it has just answered.
                            c.heard(&owner);
                            if let Some(i) = incarnation {
                                c.heard_incarnation(&owner, i);
                                if let Some(e) = lock(&c.forward.edge).get_mut(&conn.id) {
                                    e.incarnation = Some(i);
                                }
                            }
                            let _ = reply.send(seat.map(|(white, black)| SeatSet { white, black }));
                        }
                        Ok(Attached { seat: Err(why), .. }) => {
                            tracing::warn!("game {game}: a socket's attach at {owner}: {why}");
                            lock(&c.forward.edge).remove(&conn.id);
                        }
                        Err(e) => {
                            tracing::warn!("game {game}: a socket's attach at {owner}: {e}");
                            lock(&c.forward.edge).remove(&conn.id);
                        }
                    }
                }
                Command::Frame { conn_id, frame } => {
                    let m = ToOwner::Frame {
                        edge: c.node.clone(),
                        conn: conn_id,
                        text: frame_json(&frame),
                    };
                    if let Err(e) = c.bus.to_owner(&owner, &m).await {
                        tracing::warn!("game {game}: a frame to {owner}: {e}; dropping the socket");
                        drop_edge(&c, conn_id);
                    }
                }
                Command::Detach { conn_id } => {
                    lock(&c.forward.edge).remove(&conn_id);
                    let m = ToOwner::Detach {
                        edge: c.node.clone(),
                        conn: conn_id,
                    };
                    let _ = c.bus.to_owner(&owner, &m).await;
                }
                // HTTP requests are forwarded whole (`http` below), and the
                // engine's commands never leave the owner: dropping the
                // reply answers "the game task has stopped; retry".
                _ => {}
            }
        }
        drop(app);
    });
    GameHandle {
        tx,
        summary: Arc::new(Summary::default()),
    }
}

fn drop_edge(c: &Cluster, conn: u64) {
    if let Some(e) = lock(&c.forward.edge).get(&conn) {
        e.dropped.notify_one();
    }
}

/// Middleware: an HTTP request about a game owned by another node is run
/// there; its answer is returned as is.
pub async fn http(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let Some(c) = app.cluster.clone() else {
        return next.run(req).await;
    };
    let Some(id) = game_of_path(req.uri().path()).map(str::to_string) else {
        return next.run(req).await;
    };
    if req.headers().contains_key(FORWARDED) {
        return next.run(req).await;
    }
    let owner = match app.registry.locate(&id).await {
        Ok(Some(crate::game::registry::Located::Remote(owner))) => owner,
        _ => return next.run(req).await,
    };
    match forward_http(&c, &owner, req).await {
        Ok(r) => r,
        Err(e) => {
            tracing::debug!("game {id}: forward to {owner}: {e}");
            crate::error::ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "moving",
                "the game is moving to another node; retry in a moment",
            )
            .into_response()
        }
    }
}

async fn forward_http(c: &Cluster, owner: &str, req: Request) -> Result<Response, String> {
    let peer = req
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|ci| ci.0)
        .ok_or("no peer address")?;
    let (parts, body) = req.into_parts();
    let body = axum::body::to_bytes(body, MAX_FORWARDED_BODY)
        .await
        .map_err(|e| e.to_string())?;
    let b64 = base64::engine::general_purpose::STANDARD;
    let ask = ToOwner::Http(HttpRequest {
        method: parts.method.to_string(),
        uri: parts
            .uri
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_string(),
        headers: parts
            .headers
            .iter()
            .filter_map(|(k, v)| Some((k.to_string(), v.to_str().ok()?.to_string())))
            .collect(),
        body: b64.encode(&body),
        peer,
    });
    let reply: HttpReply = c
        .bus
        .ask_owner(owner, &ask, ASK_WITHIN)
        .await
        .map_err(|e| e.to_string())?;
    let mut resp = Response::builder().status(reply.status);
    for (k, v) in &reply.headers {
        resp = resp.header(k, v);
    }
    let body = b64.decode(reply.body).map_err(|e| e.to_string())?;
    resp.body(axum::body::Body::from(body))
        .map_err(|e| e.to_string())
}

/// Runs a forwarded HTTP request through this node's router.
async fn serve_http(app: &Arc<App>, r: HttpRequest) -> HttpReply {
    use tower::ServiceExt;
    let b64 = base64::engine::general_purpose::STANDARD;
    let fail = |status: u16, why: &str| HttpReply {
        status,
        headers: vec![("content-type".into(), "application/json".into())],
        body: b64
            .encode(serde_json::json!({"error": {"code": "forward", "message": why}}).to_string()),
    };
    let mut req = axum::http::Request::builder()
        .method(r.method.as_str())
        .uri(r.uri.as_str());
    for (k, v) in &r.headers {
        req = req.header(k, v);
    }
    let body = b64.decode(&r.body).unwrap_or_default();
    let Ok(mut req) = req
        .header(FORWARDED, "1")
        .body(axum::body::Body::from(body))
    else {
        return fail(400, "bad forwarded request");
    };
    req.extensions_mut()
        .insert(axum::extract::ConnectInfo(r.peer));
    let router = crate::http::router(app.clone());
    let Ok(resp) = router.oneshot(req).await;
    let (parts, body) = resp.into_parts();
    let Ok(body) = axum::body::to_bytes(body, MAX_FORWARDED_BODY).await else {
        return fail(502, "the answer is too large to forward");
    };
    HttpReply {
        status: parts.status.as_u16(),
        headers: parts
            .headers
            .iter()
            .filter_map(|(k, v)| Some((k.to_string(), v.to_str().ok()?.to_string())))
            .collect(),
        body: b64.encode(&body),
    }
}

/// Which connection of which node a forwarded socket is.
struct EdgeSide {
    node: String,
    conn: u64,
    incarnation: Option<u64>,
}

/// The owner's side of [`ToOwner::Attach`]: the socket becomes a [`Conn`]
/// of the game's task, whose queue is drained onto the bus.
async fn attach(
    app: &Arc<App>,
    c: &Arc<Cluster>,
    game: String,
    from: EdgeSide,
    token_hash: Option<String>,
    client: Option<std::net::IpAddr>,
) -> Attached {
    let EdgeSide {
        node: edge,
        conn,
        incarnation,
    } = from;
    let refused = |why: String| Attached {
        seat: Err(why),
        incarnation: Some(c.incarnation),
    };
    let handle = match app.registry.locate(&game).await {
        Ok(Some(crate::game::registry::Located::Local(h))) => h,
        Ok(Some(crate::game::registry::Located::Remote(n))) => {
            return refused(format!("owned by {n}"));
        }
        Ok(None) => return refused("no such game".into()),
        Err(e) => return refused(e.to_string()),
    };
    let local = NEXT_REMOTE.fetch_add(1, Ordering::Relaxed);
    let (tx, mut rx) = mpsc::channel::<Message>(OUTBOUND_QUEUE);
    let dropped = Arc::new(Notify::new());
    let (seat_tx, seat_rx) = tokio::sync::oneshot::channel();
    let cmd = Command::Attach {
        conn: Conn {
            id: local,
            token_hash,
            tx,
            dropped: dropped.clone(),
            client,
        },
        reply: seat_tx,
    };
    if handle.tx.send(cmd).await.is_err() {
        return refused("the game stopped".into());
    }
    let Ok(seat) = seat_rx.await else {
        return refused("the game stopped".into());
    };
    let earlier = lock(&c.forward.remote).insert(
        (edge.clone(), conn),
        RemoteConn {
            local,
            game: handle,
            incarnation,
        },
    );
    if let Some(r) = earlier {
        // The same id from the edge's earlier incarnation (its ids count
        // from 1 again): that connection is dead.
        let _ = r.game.tx.try_send(Command::Detach { conn_id: r.local });
    }
    let ours = c.incarnation;
    let c = c.clone();
    tokio::spawn(async move {
        loop {
            let m = tokio::select! {
                m = rx.recv() => m,
                _ = dropped.notified() => None,
            };
            let text = match m {
                Some(Message::Text(t)) => t.as_str().to_string(),
                Some(Message::Close(_)) | None => break,
                Some(_) => continue,
            };
            if let Err(e) = c.bus.to_edge(&edge, &ToEdge::Out { conn, text }).await {
                tracing::warn!("game {game}: to {edge}: {e}; dropping its socket");
                break;
            }
        }
        // The game dropped it, or stopped here: the socket closes and its
        // client reconnects.
        let _ = c.bus.to_edge(&edge, &ToEdge::Drop { conn }).await;
        let still = {
            let mut remote = lock(&c.forward.remote);
            // Not an attach of the same id that replaced it.
            match remote.get(&(edge.clone(), conn)) {
                Some(r) if r.local == local => remote.remove(&(edge.clone(), conn)),
                _ => None,
            }
        };
        if let Some(r) = still {
            // Not detached by its client: dropped by the game (its queue
            // was full) or by the bus, or the game stopped here.
            tracing::warn!("game {game}: a socket of {edge} dropped");
            let _ = r.game.tx.try_send(Command::Detach { conn_id: r.local });
        }
    });
    Attached {
        seat: Ok(seat.map(|s| (s.white, s.black))),
        incarnation: Some(ours),
    }
}

fn on_frame(c: &Cluster, edge: String, conn: u64, text: &str) {
    let key = (edge, conn);
    let table = lock(&c.forward.remote);
    let Some(r) = table.get(&key) else { return };
    let Ok(frame) = ClientFrame::parse(text) else {
        return;
    };
    let cmd = Command::Frame {
        conn_id: r.local,
        frame,
    };
    if r.game.tx.try_send(cmd).is_err() {
        // The game is far behind: the client reconnects and catches up.
        tracing::warn!("a forwarded frame: the game's queue is full; dropping the socket");
        let game = r.game.clone();
        let local = r.local;
        drop(table);
        tokio::spawn(async move {
            let _ = game.tx.send(Command::Detach { conn_id: local }).await;
        });
        lock(&c.forward.remote).remove(&key);
    }
}

fn on_detach(c: &Cluster, edge: String, conn: u64) {
    if let Some(r) = lock(&c.forward.remote).remove(&(edge, conn)) {
        tokio::spawn(async move {
            let _ = r.game.tx.send(Command::Detach { conn_id: r.local }).await;
        });
    }
}

fn on_edge(c: &Cluster, m: ToEdge) {
    match m {
        ToEdge::Out { conn, text } => {
            let table = lock(&c.forward.edge);
            if let Some(e) = table.get(&conn) {
                match e.tx.try_send(Message::Text(Utf8Bytes::from(text))) {
                    Ok(()) => {}
                    // Its client is far behind: it reconnects and catches up.
                    Err(mpsc::error::TrySendError::Full(_)) => {
                        tracing::warn!("a forwarded socket's queue is full: dropping it");
                        e.dropped.notify_one();
                    }
                    // The socket is closing (its Detach is on its way).
                    Err(mpsc::error::TrySendError::Closed(_)) => {}
                }
            }
        }
        ToEdge::Drop { conn } => drop_edge(c, conn),
    }
}

/// Drops the forwarded connections whose other node is no longer heard,
/// or was restarted since (a later incarnation of it was heard).
fn drop_unheard(c: &Cluster) {
    let mut unheard = 0;
    for e in lock(&c.forward.edge).values() {
        if !c.is_alive(&e.owner) || c.is_stale(&e.owner, e.incarnation) {
            unheard += 1;
            e.dropped.notify_one();
        }
    }
    let gone: Vec<(String, u64)> = lock(&c.forward.remote)
        .iter()
        .filter(|((edge, _), r)| !c.is_alive(edge) || c.is_stale(edge, r.incarnation))
        .map(|(k, _)| k.clone())
        .collect();
    if unheard + gone.len() > 0 {
        tracing::warn!(
            "dropping {unheard} sockets forwarded to owners and {} from clients' nodes not heard for {} ms or restarted since",
            gone.len(),
            super::ALIVE_LAPSE.as_millis()
        );
    }
    for (edge, conn) in gone {
        on_detach(c, edge, conn);
    }
}

/// What this node last told the others of its games' presence, ply and
/// last event.
#[derive(Default)]
struct PresenceSent {
    games: HashMap<String, u8>,
    live: HashMap<String, (u32, u64)>,
    beats: u32,
}

/// Tells the other nodes which players of this node's games are connected,
/// and their games' ply and last event: the changes since the last beat,
/// or all of them every [`PRESENCE_FULL_EVERY`] beats (in parts of
/// [`PRESENCE_PART`] games).
async fn send_presence(app: &App, c: &Cluster, sent: &mut PresenceSent) {
    let (now, live_now) = app.registry.reports().await;
    let full = sent.beats % PRESENCE_FULL_EVERY == 0;
    sent.beats = sent.beats.wrapping_add(1);
    let games: Vec<(String, u8)> = if full {
        now.iter().map(|(g, b)| (g.clone(), *b)).collect()
    } else {
        let mut changed: Vec<(String, u8)> = now
            .iter()
            .filter(|&(g, b)| sent.games.get(g) != Some(b))
            .map(|(g, b)| (g.clone(), *b))
            .collect();
        changed.extend(
            sent.games
                .keys()
                .filter(|g| !now.contains_key(*g))
                .map(|g| (g.clone(), 0)),
        );
        changed
    };
    sent.games = now;
    let live: Vec<(String, u32, u64)> = live_now
        .iter()
        .filter(|&(g, l)| full || sent.live.get(g) != Some(l))
        .map(|(g, &(ply, at))| (g.clone(), ply, at))
        .collect();
    sent.live = live_now;
    if games.is_empty() && live.is_empty() && !full {
        return;
    }
    let parts = games.len().max(live.len()).div_ceil(PRESENCE_PART).max(1);
    for i in 0..parts {
        let r = PresenceReport {
            node: c.node.clone(),
            full,
            games: part(&games, i),
            live: part(&live, i),
        };
        if c.bus.presence(&r).await.is_err() {
            // Sent again in full within PRESENCE_FULL_EVERY beats.
            sent.beats = 0;
            return;
        }
    }
}

/// The `i`th part of `v` in a presence report.
fn part<T: Clone>(v: &[T], i: usize) -> Vec<T> {
    v.iter()
        .skip(i * PRESENCE_PART)
        .take(PRESENCE_PART)
        .cloned()
        .collect()
}

/// Asks the nodes already running for their seeks (a node that joins
/// late shows the open seeks at once), then the lobby follows the changes
/// (`P.lobby`, subscribed before the question: a change made meanwhile is
/// replayed after the snapshot, and a seek withdrawn meanwhile is not
/// brought back, [`crate::lobby::Lobby::merge`]).
async fn lobby_on_join(app: &App, c: &Cluster) {
    match c.bus.lobby_snapshots(&c.node, SNAPSHOT_WITHIN).await {
        Ok(answers) => {
            let n = answers.len();
            let seeks: Vec<_> = answers.into_iter().flat_map(|a| a.seeks).collect();
            tracing::debug!("lobby: {} seeks from {n} nodes on joining", seeks.len());
            app.lobby.merge(seeks, app.clock.now_ms());
        }
        Err(e) => tracing::warn!("lobby snapshot on joining: {e}"),
    }
}

/// Reads each of `sub`'s messages with `each`, on a task of its own: a
/// subject whose messages are slow to handle (or many) does not hold up
/// another's (a node's "alive" must be heard on time whatever else the
/// bus carries).
fn each_message<F>(mut sub: async_nats::Subscriber, mut each: F)
where
    F: FnMut(async_nats::Message) + Send + 'static,
{
    tokio::spawn(async move {
        while let Some(m) = sub.next().await {
            each(m);
        }
    });
}

/// Reads this node's subjects, says it is alive, replays the lobby changes
/// of other nodes (after their snapshot, on joining) and tells them the
/// presence of its games. Runs for the life of the server.
///
/// Each subject is read on a task of its own ([`each_message`]), and the
/// node's beat (alive, presence, dropping what is no longer heard) runs on
/// one more, from the start: a node is heard before it has gathered the
/// lobby, and a burst of frames never delays a beat.
pub async fn run(app: Arc<App>, c: Arc<Cluster>) {
    let inboxes = match c.bus.inboxes(&c.node).await {
        Ok(i) => i,
        Err(e) => {
            tracing::error!("cluster: {e}");
            return;
        }
    };
    {
        let c = c.clone();
        each_message(inboxes.alive, move |m| {
            if let Ok(node) = std::str::from_utf8(&m.payload) {
                c.heard(node);
                let incarnation = m
                    .headers
                    .as_ref()
                    .and_then(|h| h.get(super::bus::INCARNATION))
                    .and_then(|v| v.as_str().parse::<u64>().ok());
                if let Some(i) = incarnation {
                    if c.heard_incarnation(node, i) {
                        tracing::warn!(
                            "node {node} was restarted (incarnation {i}): dropping what was forwarded to or from its earlier one"
                        );
                        drop_unheard(&c);
                    }
                }
            }
        });
    }
    let beat = {
        let (app, c) = (app.clone(), c.clone());
        tokio::spawn(async move {
            let mut beat = tokio::time::interval(ALIVE_EVERY);
            beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut presence = PresenceSent::default();
            loop {
                beat.tick().await;
                if c.bus_up() {
                    let _ = c.bus.alive(&c.node, c.incarnation).await;
                    send_presence(&app, &c, &mut presence).await;
                }
                drop_unheard(&c);
                c.expire_presence();
            }
        })
    };
    // Other nodes' snapshot requests are answered from the start: a node
    // that joins at the same time as this one must not wait out this
    // node's own join.
    {
        let (app, c) = (app.clone(), c.clone());
        let mut snapshots = inboxes.lobby_snapshot;
        tokio::spawn(async move {
            while let Some(m) = snapshots.next().await {
                if let Some(to) = m.reply {
                    let answer = LobbySnapshot {
                        node: c.node.clone(),
                        seeks: app.lobby.snapshot(app.clock.now_ms()),
                    };
                    let _ = c.bus.reply(to, &answer).await;
                }
            }
        });
    }
    {
        let c = c.clone();
        each_message(inboxes.presence, move |m| {
            if let Ok(r) = serde_json::from_slice::<PresenceReport>(&m.payload) {
                c.heard_presence(r);
            }
        });
    }
    {
        let c = c.clone();
        each_message(inboxes.edge, move |m| {
            if let Ok(e) = serde_json::from_slice::<ToEdge>(&m.payload) {
                on_edge(&c, e);
            }
        });
    }
    {
        let (app, c) = (app.clone(), c.clone());
        each_message(inboxes.owner, move |m| {
            let Ok(msg) = serde_json::from_slice::<ToOwner>(&m.payload) else {
                return;
            };
            on_owner(&app, &c, msg, m.reply);
        });
    }
    let (lobby_tx, mut lobby_rx) = mpsc::unbounded_channel::<LobbyChange>();
    app.lobby.replicate_to(lobby_tx);
    {
        let c = c.clone();
        tokio::spawn(async move {
            while let Some(change) = lobby_rx.recv().await {
                let _ = c.bus.lobby(&c.node, &change).await;
            }
        });
    }
    // The lobby's changes are applied only after the snapshot (they are
    // queued in the subscription meanwhile).
    let mut connections = c.bus.connections();
    connections.borrow_and_update();
    lobby_on_join(&app, &c).await;
    // Back from a cut: the lobby's changes sent meanwhile were lost here,
    // so the lobby is asked for again, as on joining.
    {
        let (app, c) = (app.clone(), c.clone());
        tokio::spawn(async move {
            while connections.changed().await.is_ok() {
                connections.borrow_and_update();
                let asked = app.clock.now_ms();
                match c.bus.lobby_snapshots(&c.node, SNAPSHOT_WITHIN).await {
                    Ok(answers) => {
                        let n = answers.len();
                        let seeks: Vec<_> = answers.into_iter().flat_map(|a| a.seeks).collect();
                        tracing::info!(
                            "lobby: back on the bus, {} seeks from {n} nodes",
                            seeks.len()
                        );
                        app.lobby.resync(seeks, asked, app.clock.now_ms());
                        app.lobby.announce_here();
                    }
                    Err(e) => tracing::warn!("lobby snapshot on coming back: {e}"),
                }
            }
        });
    }
    {
        let (app, c) = (app.clone(), c.clone());
        each_message(inboxes.lobby, move |m| {
            if let Ok((node, change)) = serde_json::from_slice::<(String, LobbyChange)>(&m.payload)
            {
                if node != c.node {
                    app.lobby.apply(change, app.clock.now_ms());
                }
            }
        });
    }
    let _ = beat.await;
}

/// A message to this node as the owner of games.
fn on_owner(app: &Arc<App>, c: &Arc<Cluster>, msg: ToOwner, reply: Option<async_nats::Subject>) {
    match msg {
        ToOwner::Frame { edge, conn, text } => on_frame(c, edge, conn, &text),
        ToOwner::Detach { edge, conn } => on_detach(c, edge, conn),
        ToOwner::Attach {
            game,
            edge,
            conn,
            token_hash,
            client,
            incarnation,
        } => {
            // The client's node is alive: it has just asked.
            c.heard(&edge);
            if let Some(i) = incarnation {
                c.heard_incarnation(&edge, i);
            }
            let (app, c) = (app.clone(), c.clone());
            tokio::spawn(async move {
                let from = EdgeSide {
                    node: edge,
                    conn,
                    incarnation,
                };
                let answer = attach(&app, &c, game, from, token_hash, client).await;
                if let Some(to) = reply {
                    let _ = c.bus.reply(to, &answer).await;
                }
            });
        }
        ToOwner::Http(r) => {
            let (app, c) = (app.clone(), c.clone());
            tokio::spawn(async move {
                let answer = serve_http(&app, r).await;
                if let Some(to) = reply {
                    let _ = c.bus.reply(to, &answer).await;
                }
            });
        }
    }
}
