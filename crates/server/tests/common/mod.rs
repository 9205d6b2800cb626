//! Shared helpers: an in-process server on a free port with a temporary
//! data directory, and a player (HTTP cookie + WebSocket).

#![allow(dead_code)]

use arbiter_server::client::{request, Response, Socket};
use arbiter_server::{Config, Server};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

pub const WAIT: Duration = Duration::from_secs(10);

pub struct TestServer {
    pub addr: SocketAddr,
    pub app: std::sync::Arc<arbiter_server::App>,
    pub dir: tempfile::TempDir,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl TestServer {
    pub async fn start() -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        TestServer::start_in(dir).await
    }

    pub async fn start_in(dir: tempfile::TempDir) -> TestServer {
        TestServer::start_with(dir, |_| {}).await
    }

    /// A server whose configuration `tune` changes first.
    pub async fn start_with(dir: tempfile::TempDir, tune: impl FnOnce(&mut Config)) -> TestServer {
        let mut config = Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            data_dir: dir.path().to_owned(),
            create_per_minute: 0,
            engine_threads: 1,
            heartbeat: Duration::from_millis(200),
            ..Config::default()
        };
        tune(&mut config);
        let server = Server::bind(config).await.unwrap();
        let addr = server.local_addr().unwrap();
        let app = server.app();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server
                .run(async move {
                    let _ = rx.await;
                })
                .await
                .unwrap();
        });
        TestServer {
            addr,
            app,
            dir,
            stop: Some(tx),
            task: Some(task),
        }
    }

    /// Stops gracefully and returns the data directory.
    pub async fn stop(mut self) -> tempfile::TempDir {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.task.take() {
            let _ = t.await;
        }
        self.dir
    }

    pub async fn post(&self, path: &str, body: &Value, cookie: Option<&str>) -> Response {
        let mut headers = vec![];
        if let Some(c) = cookie {
            headers.push(("Cookie", c));
        }
        request(self.addr, "POST", path, Some(&body.to_string()), &headers)
            .await
            .unwrap()
    }

    pub async fn get(&self, path: &str, cookie: Option<&str>) -> Response {
        let mut headers = vec![];
        if let Some(c) = cookie {
            headers.push(("Cookie", c));
        }
        request(self.addr, "GET", path, None, &headers)
            .await
            .unwrap()
    }

    /// Creates a game; returns (id, cookie, response body).
    pub async fn create(&self, body: Value) -> (String, String, Value) {
        let r = self.post("/api/games", &body, None).await;
        assert_eq!(r.status, 201, "{}", r.body);
        let cookie = r.cookie().expect("seat cookie");
        let v = r.json();
        (v["id"].as_str().unwrap().to_owned(), cookie, v)
    }

    /// An invitation game (`body` holds `"mode": "invite"`) and a guest who
    /// joined it with `join` (e.g. his name); returns (id, the creator's
    /// seat cookie, the guest's seat cookie).
    pub async fn invitation(&self, body: Value, join: Value) -> (String, String, String) {
        let (id, host, _) = self.create(body).await;
        let joined = self
            .post(&format!("/api/games/{id}/join"), &join, None)
            .await;
        assert_eq!(joined.status, 200, "{}", joined.body);
        let guest = joined.cookie().expect("the guest's seat cookie");
        (id, host, guest)
    }

    /// A connected player (or spectator without cookie), after hello/ready.
    pub async fn player(&self, id: &str, cookie: Option<&str>) -> Player {
        let mut socket = Socket::connect(self.addr, id, cookie).await.unwrap();
        socket
            .send(&json!({"type": "hello", "last_seq": 0}))
            .await
            .unwrap();
        let state = socket
            .recv_until(WAIT, |m| m["type"] == "state")
            .await
            .unwrap();
        socket
            .recv_until(WAIT, |m| m["type"] == "ready")
            .await
            .unwrap();
        Player {
            socket,
            state: state["state"].clone(),
            next_id: 1,
        }
    }
}

pub struct Player {
    pub socket: Socket,
    pub state: Value,
    next_id: i64,
}

impl Player {
    /// Sends an action with a fresh id; returns the id.
    pub async fn send(&mut self, mut msg: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        msg["id"] = json!(id);
        self.socket.send(&msg).await.unwrap();
        id
    }

    /// The next event message (skipping presence and pongs).
    pub async fn event(&mut self) -> Value {
        self.socket
            .recv_until(WAIT, |m| m["type"] == "event" || m["type"] == "error")
            .await
            .unwrap()
    }

    /// The next event of `kind`, skipping other events.
    pub async fn event_of(&mut self, kind: &str) -> Value {
        let kind = kind.to_owned();
        self.socket
            .recv_until(WAIT, move |m| {
                m["type"] == "event" && m["event"]["kind"] == kind
            })
            .await
            .unwrap()
    }

    /// The next error.
    pub async fn error(&mut self) -> Value {
        self.socket
            .recv_until(WAIT, |m| m["type"] == "error")
            .await
            .unwrap()
    }

    /// Plays `uci` and waits for its move event.
    pub async fn play(&mut self, uci: &str) -> Value {
        self.send(json!({"type": "move", "uci": uci})).await;
        let e = self.event().await;
        assert_eq!(e["type"], "event", "move {uci} refused: {e}");
        assert_eq!(e["event"]["kind"], "move", "{e}");
        e
    }
}

/// Waits for a started `arbiter-server` process to print the address it
/// serves on (the "serving http://ADDR/" line on its stderr); returns it
/// with the rest of stderr, which the caller must keep draining (the
/// server blocks once the pipe is full).
pub fn served_addr(
    child: &mut std::process::Child,
) -> (
    SocketAddr,
    std::io::Lines<std::io::BufReader<std::process::ChildStderr>>,
) {
    use std::io::BufRead;
    let stderr = child.stderr.take().expect("the server's stderr is piped");
    let mut lines = std::io::BufReader::new(stderr).lines();
    let addr = loop {
        let line = lines.next().expect("server output").expect("read");
        if let Some(rest) = line.split("serving http://").nth(1) {
            break rest.split('/').next().unwrap().parse().unwrap();
        }
    };
    (addr, lines)
}
