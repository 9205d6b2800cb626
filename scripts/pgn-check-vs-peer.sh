#!/usr/bin/env bash
# `arbiter pgn check` beside pgn-reader's own `validate` example, each as its
# users run it: our release binary (`cargo build --release -p arbiter`, JSON
# lines out) and pgn-reader 0.29's example built as its README says
# (`cargo run --release --example validate`, from the crate's source in the
# cargo registry, copied to a temporary directory: nothing of it is kept).
# Both read the same files; CPU time (user + system) of each process, the
# best of ROUNDS runs, the two run one after the other in each round.
#
#   scripts/pgn-check-vs-peer.sh [ROUNDS] [FILE...]
#
# Default files: target/bench-data/real-lichess-twic-x50.pgn (the Lichess and
# TWIC samples shipped in pgn-reader, 50 times) and the python-chess random
# games file, as `cargo bench -p arbiter-pgn --bench pgn_read` makes them
# (under $CARGO_TARGET_DIR when it is set).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
rounds=${1:-5}
shift || true
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=("$target"/bench-data/real-lichess-twic-x50.pgn)
  for f in "$target"/bench-data/python-chess-random-*.pgn; do [ -e "$f" ] && files+=("$f"); done
fi
for f in "${files[@]}"; do
  [ -e "$f" ] || { echo "missing $f: run cargo bench -p arbiter-pgn --bench pgn_read once" >&2; exit 2; }
done
cargo build --release -q -p arbiter
ours=$target/release/arbiter
home=${CARGO_HOME:-$HOME/.cargo}
src=$(ls -d "$home"/registry/src/*/pgn-reader-0.29.0 2>/dev/null | head -1)
[ -n "$src" ] || cargo fetch -q
src=$(ls -d "$home"/registry/src/*/pgn-reader-0.29.0 | head -1)
peer_dir=$target/bench-data/pgn-reader-validate
if [ ! -x "$peer_dir/validate" ]; then
  tmp=$(mktemp -d)
  cp -r "$src" "$tmp/pgn-reader"
  (cd "$tmp/pgn-reader" && CARGO_TARGET_DIR="$tmp/target" cargo build -q --release --example validate)
  mkdir -p "$peer_dir"
  cp "$tmp/target/release/examples/validate" "$peer_dir/validate"
  rm -rf "$tmp"
fi
peer=$peer_dir/validate
python3 - "$rounds" "$ours" "$peer" "${files[@]}" <<'PY'
import os, resource, subprocess, sys
rounds, ours, peer, files = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
def cpu(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
for f in files:
    mb = os.path.getsize(f) / 1e6
    best = {"ours": float("inf"), "peer": float("inf")}
    for _ in range(rounds):
        best["ours"] = min(best["ours"], cpu([ours, "pgn", "check", f]))
        best["peer"] = min(best["peer"], cpu([peer, f]))
    print(f"{f} ({mb:.1f} MB), best of {rounds}:")
    print(f"  arbiter pgn check          {best['ours']:.3f} s CPU  {mb / best['ours']:6.1f} MB/s")
    print(f"  pgn-reader validate        {best['peer']:.3f} s CPU  {mb / best['peer']:6.1f} MB/s")
    print(f"  ratio (pgn-reader / ours)  {best['peer'] / best['ours']:.2f}x")
PY
