#!/usr/bin/env bash
# The browser tests of web/ in Debian's Chromium against a real `arbiter serve` (the
# arbiter-server binary, debug build: `cargo test --workspace` has built it already), on a free
# port with a temporary data directory. Run from the repository root; .ci/run calls it.
set -euxo pipefail
cd "$(dirname "$0")/../../.."
command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium; }
(cd web && npm ci --no-audit --no-fund)
cargo build -p arbiter-server --bin arbiter-server
serve_dir=$(mktemp -d)
"${CARGO_TARGET_DIR:-target}/debug/arbiter-server" --listen 127.0.0.1:0 --data-dir "$serve_dir" --create-per-minute 0 2> "$serve_dir/log" &
serve_pid=$!
trap 'kill $serve_pid 2>/dev/null || true; rm -rf "$serve_dir"' EXIT
for _ in $(seq 150); do grep -q 'serving http://' "$serve_dir/log" && break; kill -0 $serve_pid; sleep 0.2; done
serve_url=$(grep -o 'http://[0-9.:]*' "$serve_dir/log" | head -1)
[ -n "$serve_url" ] || { cat "$serve_dir/log"; exit 1; }
(cd web && BASE_URL="$serve_url" npm test)
