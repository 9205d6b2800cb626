//! A small client of the protocol for the integration tests, the crash
//! test and the load test: HTTP/1.1 requests over a plain TCP connection and
//! a WebSocket (tokio-tungstenite) carrying the seat cookie.

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// A client failure.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Network.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    /// The answer is not HTTP as expected.
    #[error("bad response: {0}")]
    Protocol(String),
    /// WebSocket.
    #[error("websocket: {0}")]
    Ws(#[from] tokio_tungstenite::tungstenite::Error),
    /// Nothing arrived in time.
    #[error("timed out waiting for {0}")]
    Timeout(String),
}

/// An HTTP response.
#[derive(Clone, Debug)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Headers, names lowercase.
    pub headers: Vec<(String, String)>,
    /// Body text.
    pub body: String,
}

impl Response {
    /// The first header `name` (lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON (`Null` if it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// `name=value` of the `Set-Cookie` header, to send back as `Cookie`.
    pub fn cookie(&self) -> Option<String> {
        self.header("set-cookie")
            .and_then(|c| c.split(';').next())
            .map(str::to_owned)
    }
}

/// Sends one request (`Connection: close`) and reads the whole answer.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    extra_headers: &[(&str, &str)],
) -> Result<Response, ClientError> {
    let mut stream = TcpStream::connect(addr).await?;
    let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    // The address's own `Host` unless the caller names one.
    if !extra_headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("host"))
    {
        req.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in extra_headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    req.push_str("\r\n");
    if let Some(b) = body {
        req.push_str(b);
    }
    stream.write_all(req.as_bytes()).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| ClientError::Protocol("no header end".into()))?;
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| ClientError::Protocol("no status".into()))?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect::<Vec<_>>();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Ok(Response {
        status,
        headers,
        body,
    })
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A WebSocket connection to a game.
pub struct Socket {
    ws: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
}

impl Socket {
    /// Connects to game `id`'s socket with an optional seat cookie (`name=value`).
    pub async fn connect(
        addr: SocketAddr,
        id: &str,
        cookie: Option<&str>,
    ) -> Result<Socket, ClientError> {
        Socket::connect_path(addr, &format!("/api/games/{id}/ws"), cookie).await
    }

    /// Connects to the WebSocket at `path` (such as `/api/lobby/ws`).
    pub async fn connect_path(
        addr: SocketAddr,
        path: &str,
        cookie: Option<&str>,
    ) -> Result<Socket, ClientError> {
        let mut req = format!("ws://{addr}{path}").into_client_request()?;
        if let Some(c) = cookie {
            if let Ok(v) = c.parse() {
                req.headers_mut().insert("cookie", v);
            }
        }
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(4 * 1024)
            .write_buffer_size(0);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(req, Some(config), true).await?;
        Ok(Socket { ws })
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, v: &Value) -> Result<(), ClientError> {
        self.ws.send(Message::text(v.to_string())).await?;
        Ok(())
    }

    /// Sends raw text.
    pub async fn send_text(&mut self, s: &str) -> Result<(), ClientError> {
        self.ws.send(Message::text(s.to_owned())).await?;
        Ok(())
    }

    /// The next text message, waiting at most `wait`.
    pub async fn recv_text(&mut self, wait: Duration) -> Result<String, ClientError> {
        loop {
            let next = tokio::time::timeout(wait, self.ws.next())
                .await
                .map_err(|_| ClientError::Timeout("a message".into()))?;
            match next {
                None | Some(Ok(Message::Close(_))) => {
                    return Err(ClientError::Protocol("closed".into()))
                }
                Some(Err(e)) => return Err(e.into()),
                Some(Ok(Message::Text(t))) => return Ok(t.as_str().to_owned()),
                Some(Ok(_)) => continue,
            }
        }
    }

    /// The next JSON message, waiting at most `wait`.
    pub async fn recv(&mut self, wait: Duration) -> Result<Value, ClientError> {
        loop {
            let next = tokio::time::timeout(wait, self.ws.next())
                .await
                .map_err(|_| ClientError::Timeout("a message".into()))?;
            match next {
                None => return Err(ClientError::Protocol("closed".into())),
                Some(Err(e)) => return Err(e.into()),
                Some(Ok(Message::Text(t))) => {
                    return serde_json::from_str(t.as_str())
                        .map_err(|e| ClientError::Protocol(format!("not JSON: {e}")))
                }
                Some(Ok(Message::Close(_))) => return Err(ClientError::Protocol("closed".into())),
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Reads messages until one satisfies `pred`, returning it; the others
    /// are dropped.
    pub async fn recv_until(
        &mut self,
        wait: Duration,
        mut pred: impl FnMut(&Value) -> bool,
    ) -> Result<Value, ClientError> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                return Err(ClientError::Timeout("a matching message".into()));
            }
            let v = self.recv(left).await?;
            if pred(&v) {
                return Ok(v);
            }
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
