#!/usr/bin/env bash
# The browser tests of web/ in Debian's Chromium against a real `arbiter serve` (the
# arbiter-server binary: $ARBITER_SERVER when set, as by tests/browser.rs under
# `cargo test --workspace`; else a debug build made here), on a free port with a temporary
# data directory. Needs chromium, node and npm.
set -euxo pipefail
cd "$(dirname "$0")/../../.."
command -v chromium >/dev/null || { echo "browser.sh: chromium not found (apt install chromium)" >&2; exit 1; }
(cd web && npm ci --no-audit --no-fund)
server="${ARBITER_SERVER:-}"
if [ -z "$server" ]; then
  cargo build -p arbiter-server --bin arbiter-server
  server="${CARGO_TARGET_DIR:-target}/debug/arbiter-server"
fi
serve_dir=$(mktemp -d)
# Every page of the suite comes from 127.0.0.1: no per-address bounds (tests/hardening.rs checks them).
"$server" --listen 127.0.0.1:0 --data-dir "$serve_dir" --create-per-minute 0 \
  --max-connections-per-address 0 --max-spectators-per-address 0 2> "$serve_dir/log" &
serve_pid=$!
trap 'kill $serve_pid 2>/dev/null || true; rm -rf "$serve_dir"' EXIT
for _ in $(seq 150); do grep -q 'serving http://' "$serve_dir/log" && break; kill -0 $serve_pid; sleep 0.2; done
serve_url=$(grep -o 'http://[0-9.:]*' "$serve_dir/log" | head -1)
[ -n "$serve_url" ] || { cat "$serve_dir/log"; exit 1; }
# $BROWSER_TESTS: the test files to run (web/tests/…), else npm test's own list.
# play.test.mjs starts, kills and restarts its own server with this binary (a reconnect mid-move).
(cd web && BASE_URL="$serve_url" ARBITER_SERVER="$(realpath "$server")" npm test -- ${BROWSER_TESTS:-})
