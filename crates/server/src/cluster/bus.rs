//! The bus between nodes: NATS subjects and the messages on them.
//!
//! Subjects, under the cluster's prefix `P`:
//! - `P.owner.NODE`: to the owner `NODE` of games — a connection attaches
//!   (request/reply), its frames, its detach, HTTP requests (request/reply).
//! - `P.edge.NODE`: to the node `NODE` holding client sockets — messages
//!   for one of its connections, or the end of one.
//! - `P.alive`: every node's name, every [`super::ALIVE_EVERY`], with its
//!   incarnation in the header [`INCARNATION`].
//! - `P.lobby`: the changes of the lobby (§3.8), so that it is the same on
//!   every node.
//! - `P.lobby_snapshot`: a node that joins asks every node for the seeks
//!   it holds (request, many replies: [`LobbySnapshot`]), then follows
//!   `P.lobby`.
//! - `P.presence`: which players of its games are connected, from each
//!   game's owner ([`PresenceReport`]), for the game list on every node.
//!
//! Why NATS and not Redis pub/sub: request/reply with "no responders"
//! answered at once by the server when the owner is gone (a client's
//! request fails fast instead of waiting out a timeout), subjects per node
//! with no polling, and the client reconnects by itself. Nothing on the bus
//! must survive a node (the log is in PostgreSQL), so core NATS without
//! JetStream is enough.
//!
//! ```
//! use arbiter_server::cluster::bus::ToEdge;
//! let m = ToEdge::Out { conn: 7, text: "{}".into() };
//! let json = serde_json::to_string(&m).unwrap();
//! assert_eq!(serde_json::from_str::<ToEdge>(&json).unwrap(), m);
//! ```

use crate::lobby::{Listing, LobbyChange};
use serde::{Deserialize, Serialize};

/// The bus failed.
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    /// Cannot connect.
    #[error("bus {url}: {message}")]
    Connect {
        /// The bus's address.
        url: String,
        /// Why.
        message: String,
    },
    /// A subscription or publication failed.
    #[error("bus: {0}")]
    Io(String),
    /// No answer in time (or nobody listens: the node is gone).
    #[error("bus: no answer from node {0}")]
    NoAnswer(String),
}

/// To the owner of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ToOwner {
    /// A socket on node `edge` opens game `game` (request: [`Attached`]).
    Attach {
        /// The game.
        game: String,
        /// The client's node.
        edge: String,
        /// The connection's id on that node.
        conn: u64,
        /// Its seat token's hash.
        token_hash: Option<String>,
        /// The client's address.
        client: Option<std::net::IpAddr>,
        /// The incarnation of the client's node (none from a version
        /// before incarnations).
        #[serde(default)]
        incarnation: Option<u64>,
    },
    /// A validated client frame (§4.2), as JSON.
    Frame {
        /// The client's node.
        edge: String,
        /// The connection.
        conn: u64,
        /// The frame.
        text: String,
    },
    /// The socket closed.
    Detach {
        /// The client's node.
        edge: String,
        /// The connection.
        conn: u64,
    },
    /// An HTTP request about a game owned there (request: [`HttpReply`]).
    Http(HttpRequest),
}

/// The answer to [`ToOwner::Attach`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attached {
    /// `Ok`: the seat held (none: a spectator) as `(white, black)`;
    /// `Err`: why not (the game moved, is gone).
    pub seat: Result<Option<(bool, bool)>, String>,
    /// The owner's incarnation (none from a version before incarnations).
    #[serde(default)]
    pub incarnation: Option<u64>,
}

/// An HTTP request forwarded to a game's owner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpRequest {
    /// Method.
    pub method: String,
    /// Path and query.
    pub uri: String,
    /// Headers (those in UTF-8).
    pub headers: Vec<(String, String)>,
    /// Body, base64.
    pub body: String,
    /// The client's socket address as the first node saw it.
    pub peer: std::net::SocketAddr,
}

/// The owner's answer to an [`HttpRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpReply {
    /// Status code.
    pub status: u16,
    /// Headers (those in UTF-8).
    pub headers: Vec<(String, String)>,
    /// Body, base64.
    pub body: String,
}

/// To the node holding a client's socket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ToEdge {
    /// A text message for connection `conn`.
    Out {
        /// The connection's id on that node.
        conn: u64,
        /// The message.
        text: String,
    },
    /// The game dropped connection `conn` (or stopped here): close it, so
    /// that its client reconnects.
    Drop {
        /// The connection.
        conn: u64,
    },
}

/// A node's answer to a lobby snapshot request: the seeks it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbySnapshot {
    /// The answering node.
    pub node: String,
    /// Its seeks.
    pub seeks: Vec<Listing>,
}

/// Which players are connected to the games a node owns (bit 0 White,
/// bit 1 Black), and each game's ply and last event, sent by the owner: the
/// changes every [`super::ALIVE_EVERY`], and all of them (`full`, in parts
/// of at most [`PRESENCE_PART`] games) every [`super::PRESENCE_FULL_EVERY`]
/// beats. The game list of every node shows them (the stored row of a
/// game is not written at each move).
///
/// ```
/// use arbiter_server::cluster::bus::PresenceReport;
/// let r = PresenceReport {
///     node: "n1".into(),
///     full: false,
///     games: vec![("AbCd1234".into(), 0b01)],
///     live: vec![("AbCd1234".into(), 10, 1_767_225_912_000)],
/// };
/// let json = serde_json::to_string(&r).unwrap();
/// assert_eq!(serde_json::from_str::<PresenceReport>(&json).unwrap(), r);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresenceReport {
    /// The owner.
    pub node: String,
    /// Every game with someone connected (else: only the changes, a game
    /// whose players all left with 0).
    pub full: bool,
    /// Game → presence bits.
    pub games: Vec<(String, u8)>,
    /// Game → its ply and the epoch ms of its last event (every game the
    /// node runs, not only those with a player connected; none from a
    /// version before them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub live: Vec<(String, u32, u64)>,
}

/// Games in one presence message at most (about 16 bytes each, and 40 for
/// their ply and last event: far below NATS's 1 MiB payload).
pub const PRESENCE_PART: usize = 8_192;

/// The header of a beat on `P.alive` carrying the node's incarnation (a
/// header, not the payload: a node of an earlier version reads the name
/// alone as before).
pub const INCARNATION: &str = "Arbiter-Incarnation";

/// The connection to NATS.
pub struct Bus {
    client: async_nats::Client,
    prefix: String,
    /// Counts the connections made (the first one, then each one made again
    /// after the connection dropped).
    connections: tokio::sync::watch::Receiver<u64>,
}

/// The subscriptions a node reads.
pub struct Inboxes {
    /// `P.owner.NODE`.
    pub owner: async_nats::Subscriber,
    /// `P.edge.NODE`.
    pub edge: async_nats::Subscriber,
    /// `P.alive`.
    pub alive: async_nats::Subscriber,
    /// `P.lobby`.
    pub lobby: async_nats::Subscriber,
    /// `P.lobby_snapshot`.
    pub lobby_snapshot: async_nats::Subscriber,
    /// `P.presence`.
    pub presence: async_nats::Subscriber,
}

fn io(e: impl std::fmt::Display) -> BusError {
    BusError::Io(e.to_string())
}

impl Bus {
    /// Connects (the client reconnects by itself when the connection drops).
    pub async fn connect(url: &str, prefix: &str, node: &str) -> Result<Bus, BusError> {
        let (connected_tx, connections) = tokio::sync::watch::channel(0u64);
        let client = async_nats::ConnectOptions::new()
            .name(format!("arbiter {node}"))
            .connection_timeout(std::time::Duration::from_secs(3))
            .max_reconnects(None)
            .reconnect_delay_callback(|attempts| {
                std::time::Duration::from_millis((100 * attempts as u64).min(1_000))
            })
            // What the client sees of the bus (a slow subscription drops
            // messages; a lost connection is mended by itself): logged, as
            // the evidence of a node's trouble on the bus.
            .event_callback(move |event| {
                let connected_tx = connected_tx.clone();
                async move {
                    match event {
                        async_nats::Event::Connected => {
                            tracing::info!("bus: connected");
                            connected_tx.send_modify(|n| *n += 1);
                        }
                        other => tracing::warn!("bus: {other}"),
                    }
                }
            })
            .connect(url)
            .await
            .map_err(|e| BusError::Connect {
                url: url.to_string(),
                message: e.to_string(),
            })?;
        Ok(Bus {
            client,
            prefix: prefix.to_string(),
            connections,
        })
    }

    /// Told each time the connection to the bus is made again after it
    /// dropped (its count of connections; the messages sent meanwhile were
    /// lost to this node).
    pub fn connections(&self) -> tokio::sync::watch::Receiver<u64> {
        self.connections.clone()
    }

    /// Is the connection up now?
    pub fn connected(&self) -> bool {
        self.client.connection_state() == async_nats::connection::State::Connected
    }

    fn subject(&self, kind: &str, node: Option<&str>) -> String {
        match node {
            Some(n) => format!("{}.{kind}.{n}", self.prefix),
            None => format!("{}.{kind}", self.prefix),
        }
    }

    /// Subscribes to this node's subjects.
    pub async fn inboxes(&self, node: &str) -> Result<Inboxes, BusError> {
        let c = &self.client;
        Ok(Inboxes {
            owner: c
                .subscribe(self.subject("owner", Some(node)))
                .await
                .map_err(io)?,
            edge: c
                .subscribe(self.subject("edge", Some(node)))
                .await
                .map_err(io)?,
            alive: c.subscribe(self.subject("alive", None)).await.map_err(io)?,
            lobby: c.subscribe(self.subject("lobby", None)).await.map_err(io)?,
            lobby_snapshot: c
                .subscribe(self.subject("lobby_snapshot", None))
                .await
                .map_err(io)?,
            presence: c
                .subscribe(self.subject("presence", None))
                .await
                .map_err(io)?,
        })
    }

    async fn publish_json(&self, subject: String, m: &impl Serialize) -> Result<(), BusError> {
        let body = serde_json::to_vec(m).map_err(io)?;
        self.client.publish(subject, body.into()).await.map_err(io)
    }

    /// Sends `m` to the owner `node` (no answer).
    pub async fn to_owner(&self, node: &str, m: &ToOwner) -> Result<(), BusError> {
        self.publish_json(self.subject("owner", Some(node)), m)
            .await
    }

    /// Asks the owner `node`; fails at once if nobody listens there, and
    /// after `within` if nobody answers.
    pub async fn ask_owner<R: for<'de> Deserialize<'de>>(
        &self,
        node: &str,
        m: &ToOwner,
        within: std::time::Duration,
    ) -> Result<R, BusError> {
        let body = serde_json::to_vec(m).map_err(io)?;
        let subject = self.subject("owner", Some(node));
        let answer = tokio::time::timeout(within, self.client.request(subject, body.into()))
            .await
            .map_err(|_| BusError::NoAnswer(node.to_string()))?
            .map_err(|_| BusError::NoAnswer(node.to_string()))?;
        serde_json::from_slice(&answer.payload).map_err(io)
    }

    /// Answers a request.
    pub async fn reply(&self, to: async_nats::Subject, m: &impl Serialize) -> Result<(), BusError> {
        let body = serde_json::to_vec(m).map_err(io)?;
        self.client.publish(to, body.into()).await.map_err(io)
    }

    /// Sends `m` to the node `node` holding the client's socket.
    pub async fn to_edge(&self, node: &str, m: &ToEdge) -> Result<(), BusError> {
        self.publish_json(self.subject("edge", Some(node)), m).await
    }

    /// Says that `node`, incarnation `incarnation`, is alive.
    pub async fn alive(&self, node: &str, incarnation: u64) -> Result<(), BusError> {
        let mut headers = async_nats::HeaderMap::new();
        headers.insert(INCARNATION, incarnation.to_string().as_str());
        self.client
            .publish_with_headers(
                self.subject("alive", None),
                headers,
                node.to_string().into(),
            )
            .await
            .map_err(io)
    }

    /// Tells every node of a lobby change made by `node`.
    pub async fn lobby(&self, node: &str, change: &LobbyChange) -> Result<(), BusError> {
        let body = serde_json::to_vec(&(node, change)).map_err(io)?;
        self.client
            .publish(self.subject("lobby", None), body.into())
            .await
            .map_err(io)
    }

    /// Asks every node for the seeks it holds, and gathers the answers
    /// that come within `within` (but `node`'s own).
    pub async fn lobby_snapshots(
        &self,
        node: &str,
        within: std::time::Duration,
    ) -> Result<Vec<LobbySnapshot>, BusError> {
        let inbox = self.client.new_inbox();
        let mut answers = self.client.subscribe(inbox.clone()).await.map_err(io)?;
        self.client
            .publish_with_reply(
                self.subject("lobby_snapshot", None),
                inbox,
                node.to_string().into(),
            )
            .await
            .map_err(io)?;
        let mut got = Vec::new();
        let deadline = tokio::time::Instant::now() + within;
        use futures_util::StreamExt;
        while let Ok(Some(m)) = tokio::time::timeout_at(deadline, answers.next()).await {
            if let Ok(s) = serde_json::from_slice::<LobbySnapshot>(&m.payload) {
                if s.node != node {
                    got.push(s);
                }
            }
        }
        Ok(got)
    }

    /// Sends a presence report.
    pub async fn presence(&self, r: &PresenceReport) -> Result<(), BusError> {
        self.publish_json(self.subject("presence", None), r).await
    }
}
