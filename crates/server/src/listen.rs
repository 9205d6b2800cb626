//! The accept loop (protocol §2, "Connections"): every TCP connection is
//! served by hyper's HTTP/1.1 with a header-read timeout (which also bounds
//! how long a kept-alive connection may sit idle before its next request),
//! each client address holds at most a bounded number of connections
//! (WebSockets included: the count is released when the socket itself
//! closes), and an accept error pauses the loop instead of spinning on it.
//!
//! ```
//! use arbiter_server::listen::PerAddressConnections;
//! let limit = PerAddressConnections::new(2);
//! let a = "192.0.2.1".parse().unwrap();
//! let first = limit.admit(a).unwrap();
//! let _second = limit.admit(a).unwrap();
//! assert!(limit.admit(a).is_none()); // a third from the same address waits
//! drop(first);
//! assert!(limit.admit(a).is_some());
//! ```

use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;

/// The bounds on connections.
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    /// A request's headers must arrive within this time of the connection
    /// opening or of the previous response (keep-alive idle bound too).
    pub header_timeout: Duration,
    /// A request, its body included, must be handled within this time
    /// (408 `request_timeout` otherwise, and the connection is closed).
    pub request_timeout: Duration,
    /// Connections one client address may hold at once (0: no limit).
    pub per_address: u32,
    /// How long the loop pauses after an accept error (such as too many
    /// open files) before accepting again.
    pub accept_pause: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(10),
            per_address: 256,
            accept_pause: Duration::from_millis(100),
        }
    }
}

/// Counts of open connections per client address.
pub struct PerAddressConnections {
    limit: u32,
    open: Arc<Mutex<HashMap<IpAddr, u32>>>,
}

/// One admitted connection's place in its address's count; freed on drop.
pub struct Slot {
    addr: IpAddr,
    open: Option<Arc<Mutex<HashMap<IpAddr, u32>>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let Some(open) = self.open.take() else {
            return;
        };
        if let Ok(mut map) = open.lock() {
            if let Some(n) = map.get_mut(&self.addr) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&self.addr);
                }
            }
        };
    }
}

impl PerAddressConnections {
    /// At most `limit` connections per address (0: no limit).
    pub fn new(limit: u32) -> PerAddressConnections {
        PerAddressConnections {
            limit,
            open: Arc::default(),
        }
    }

    /// A slot for one more connection from `addr`, or `None` if it holds
    /// its limit already.
    pub fn admit(&self, addr: IpAddr) -> Option<Slot> {
        if self.limit == 0 {
            return Some(Slot { addr, open: None });
        }
        let mut map = self.open.lock().ok()?;
        let n = map.entry(addr).or_insert(0);
        if *n >= self.limit {
            return None;
        }
        *n += 1;
        Some(Slot {
            addr,
            open: Some(self.open.clone()),
        })
    }
}

/// A TCP stream holding its address's [`Slot`] for as long as it lives,
/// through an upgrade to a WebSocket.
struct Counted {
    tcp: TcpStream,
    _slot: Slot,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
}

/// What the accept loop counted (exposed for tests and metrics).
#[derive(Default)]
pub struct AcceptStats {
    /// Accept calls that failed.
    pub errors: AtomicU64,
    /// Connections refused for their address's limit.
    pub refused: AtomicU64,
}

/// The answer to a connection over its address's limit, written without
/// waiting (the socket is fresh: its buffer has room) before it is closed.
fn too_many() -> Vec<u8> {
    let body = r#"{"error":{"code":"too_many_connections","message":"too many connections from this address"}}"#;
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Accepts connections until `stop` turns `true`, then asks each open
/// connection to finish its request and waits for them (the caller bounds
/// the wait).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    stats: Arc<AcceptStats>,
    mut stop: watch::Receiver<bool>,
) {
    let per_address = PerAddressConnections::new(limits.per_address);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let mut conns = JoinSet::new();
    loop {
        while conns.try_join_next().is_some() {}
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.wait_for(|s| *s) => break,
        };
        let (tcp, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                if !is_connection_error(&e) {
                    // Too many open files and the like: not better at once.
                    tracing::error!("accept error: {e}");
                    tokio::time::sleep(limits.accept_pause).await;
                }
                continue;
            }
        };
        let Some(slot) = per_address.admit(peer.ip()) else {
            stats.refused.fetch_add(1, Ordering::Relaxed);
            let _ = tcp.try_write(&too_many());
            continue;
        };
        // Small messages must leave at once: no Nagle delay.
        let _ = tcp.set_nodelay(true);
        let io = TokioIo::new(Counted { tcp, _slot: slot });
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<_>| {
            req.extensions_mut()
                .insert(ConnectInfo::<std::net::SocketAddr>(peer));
            tower::ServiceExt::oneshot(router.clone(), req.map(axum::body::Body::new))
        });
        let conn = http.serve_connection(io, service).with_upgrades();
        let mut stop = stop.clone();
        conns.spawn(async move {
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = stop.wait_for(|s| *s) => {}
            }
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        });
    }
    while conns.join_next().await.is_some() {}
}

/// Errors of one connection (the next accept may well succeed).
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}
