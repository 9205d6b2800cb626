//! Issue 13, defect 3: when accepting fails (here: too many open files,
//! the process's limit lowered to a few descriptors above what it uses),
//! the accept loop pauses instead of spinning, and serves again once
//! descriptors are free. Its own test binary: the limit is per process.

mod common;

use common::TestServer;
use std::sync::atomic::Ordering;
use std::time::Duration;

#[tokio::test]
async fn accept_errors_pause_and_recover() {
    let s = TestServer::start_with(tempfile::tempdir().unwrap(), |c| {
        c.connections.per_address = 0;
        c.connections.accept_pause = Duration::from_millis(100);
    })
    .await;
    assert_eq!(s.get("/healthz", None).await.status, 200);
    let (soft, hard) = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap();
    let open = std::fs::read_dir("/proc/self/fd").map_or(64, |d| d.count() as u64);
    rlimit::setrlimit(rlimit::Resource::NOFILE, open + 24, hard).unwrap();
    // Client sockets use descriptors of this same process: open until the
    // limit is reached, leaving the server's accepts failing.
    let mut held = Vec::new();
    while let Ok(Ok(c)) = tokio::time::timeout(
        Duration::from_secs(1),
        tokio::net::TcpStream::connect(s.addr),
    )
    .await
    {
        held.push(c);
        if held.len() > 200 {
            break;
        }
    }
    let before = s_errors(&s);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let during = s_errors(&s) - before;
    assert!(
        before + during > 0,
        "the accepts never failed: the test proves nothing"
    );
    assert!(
        during <= 15,
        "{during} accept errors in one second: a busy loop"
    );
    drop(held);
    rlimit::setrlimit(rlimit::Resource::NOFILE, soft, hard).unwrap();
    let mut ok = false;
    for _ in 0..30 {
        if let Ok(Ok(r)) = tokio::time::timeout(
            Duration::from_secs(2),
            arbiter_server::client::request(s.addr, "GET", "/healthz", None, &[]),
        )
        .await
        {
            ok = r.status == 200;
            if ok {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        ok,
        "the server does not serve again once descriptors are free"
    );
    s.stop().await;
}

fn s_errors(s: &TestServer) -> u64 {
    s.app.accepts.errors.load(Ordering::Relaxed)
}
