#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# The load test of issue 18 side by side, one after the other on this machine (loopback only;
# each run is bounded and stops by itself):
#   1. N games across 3 nodes of a cluster (PostgreSQL + NATS),
#   2. N games on one node on SQLite,
#   3. N games on one node on PostgreSQL.
# Each run prints moves/s, move→ack p50/p99/max and each node's CPU and memory; the JSON lines
# (one per set-up) are kept in $OUT. Needs a release build:
#   cargo build --release -p arbiter-server
# Usage: scripts/cluster-load.sh [GAMES] [SECONDS]   (default 5000 30)
# Environment: ARBITER_LOAD_POSTGRES (default postgres://root@127.0.0.1:5432/test; a scratch
# database is created there per run and dropped after it), ARBITER_LOAD_NATS (default
# nats://127.0.0.1:4222), ARBITER_LOAD_DATA (the servers' data directories' parent, default
# /dev/shm: SQLite without the disk's fsync), OUT (default cluster-load.jsonl in the current
# directory), LOADTEST (default target/release/arbiter-loadtest).
set -euo pipefail
games=${1:-5000}
seconds=${2:-30}
pg=${ARBITER_LOAD_POSTGRES:-postgres://root@127.0.0.1:5432/test}
nats=${ARBITER_LOAD_NATS:-nats://127.0.0.1:4222}
data=${ARBITER_LOAD_DATA:-/dev/shm}
out=${OUT:-cluster-load.jsonl}
bin=${LOADTEST:-target/release/arbiter-loadtest}
[ -x "$bin" ] || { echo "cluster-load: $bin not found: cargo build --release -p arbiter-server" >&2; exit 2; }
: > "$out"
run() {
  echo "== $*" >&2
  "$bin" --games "$games" --seconds "$seconds" --data-parent "$data" "$@" >> "$out" \
    || echo "cluster-load: that run exited $? (not every game connected, or a failure above)" >&2
}
run --nodes 3 --database "$pg" --bus "$nats"
run --nodes 1
run --nodes 1 --database "$pg"
echo "cluster-load: $(wc -l < "$out") runs in $out" >&2
