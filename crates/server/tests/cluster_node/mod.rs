//! Starts one `arbiter-server` process (the real binary) as a node of a
//! cluster for the cluster tests: PostgreSQL `database`, the NATS bus at
//! `bus`, subjects under `prefix`; its log lines go to `node.log` in `dir`.
//! (The test crate declares `mod common;` beside `mod cluster_node;`.)

#![allow(dead_code)]

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

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
