//! Starts one `arbiter-server` process (the real binary) as a node of a
//! cluster for the cluster tests: PostgreSQL `database`, the NATS bus at
//! `bus`, subjects under `prefix`; its log lines go to `node.log` in `dir`.
//! (The test crate declares `mod common;` beside `mod cluster_node;`.)

#![allow(dead_code)]

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The node `node`, its leases of `lease_ms`, with `extra` flags; returns
/// the process and the address it serves.
pub fn start(
    node: &str,
    dir: &std::path::Path,
    database: &str,
    bus: SocketAddr,
    prefix: &str,
    lease_ms: u64,
    extra: &[&str],
) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter-server"))
        .args(["--listen", "127.0.0.1:0", "--create-per-minute", "0"])
        .args([
            "--max-connections-per-address",
            "0",
            "--worker-threads",
            "2",
        ])
        .args(extra)
        .arg(format!("--node-id={node}"))
        .arg(format!("--database={database}"))
        .arg(format!("--bus=nats://{bus}"))
        .arg(format!("--bus-prefix={prefix}"))
        .arg(format!("--lease-ms={lease_ms}"))
        .arg("--data-dir")
        .arg(dir)
        .env("RUST_LOG", "warn")
        .env("NO_COLOR", "1")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("start arbiter-server");
    let (addr, lines) = crate::common::served_addr(&mut child);
    // The node's warnings, kept for a failure's report.
    let log = dir.join("node.log");
    std::thread::spawn(move || {
        use std::io::Write;
        let mut f = std::fs::File::create(log).unwrap();
        for l in lines.map_while(Result::ok) {
            let _ = writeln!(f, "{l}");
        }
    });
    (child, addr)
}

/// The NATS bus of `ARBITER_TEST_NATS`, or `None` (with a message: the
/// test skips).
pub async fn nats(test: &str) -> Option<SocketAddr> {
    let nats = match std::env::var("ARBITER_TEST_NATS") {
        Ok(u) if !u.is_empty() => u,
        _ => {
            eprintln!("{test}: skipped: set ARBITER_TEST_NATS=nats://host:port to run it");
            return None;
        }
    };
    let addr = tokio::net::lookup_host(nats.trim_start_matches("nats://"))
        .await
        .expect("ARBITER_TEST_NATS: host:port")
        .next()
        .expect("ARBITER_TEST_NATS resolves");
    Some(addr)
}

/// A TCP relay to the bus for one node: `cut` drops its connections and
/// refuses new ones until it is cleared.
pub struct Relay {
    /// Where the node connects instead of the bus.
    pub addr: SocketAddr,
    /// Set: cut off; cleared: back.
    pub cut: Arc<AtomicBool>,
}

pub async fn relay(to: SocketAddr) -> Relay {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let cut = Arc::new(AtomicBool::new(false));
    let flag = cut.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut client, _)) = listener.accept().await else {
                return;
            };
            if flag.load(Ordering::SeqCst) {
                continue; // dropped at once
            }
            let flag = flag.clone();
            tokio::spawn(async move {
                let Ok(mut server) = tokio::net::TcpStream::connect(to).await else {
                    return;
                };
                let copy = tokio::io::copy_bidirectional(&mut client, &mut server);
                tokio::pin!(copy);
                loop {
                    tokio::select! {
                        _ = &mut copy => return,
                        _ = tokio::time::sleep(Duration::from_millis(50)) => {
                            if flag.load(Ordering::SeqCst) {
                                return;
                            }
                        }
                    }
                }
            });
        }
    });
    Relay { addr, cut }
}
