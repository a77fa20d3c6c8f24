#!/usr/bin/env bash
# Measures every row of issue 9's table (docs/performance.md), median of 3 runs each, with a
# fresh server per run. Usage: crates/loadtest/measure.sh [SERVER_BIN] [OUT_DIR]
#   SERVER_BIN: the `dames` binary to serve (default target/release/dames); the client is always
#   target/release/dames (build it first: cargo build --release -p dames).
# Each run's text report goes to OUT_DIR/<row>.txt and its JSON to OUT_DIR/<row>.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
client=target/release/dames
server=${1:-$client}
out=${2:-target/loadtest-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
runs=${RUNS:-3}

row() {
  local name=$1; shift
  echo "== $name: $* ($(uptime))" | tee "$out/$name.txt"
  "$client" loadtest "$@" --server-bin "$server" --runs "${RUNS_OVERRIDE:-$runs}" --json >"$out/$name.json" || true
  jq -c '.median // .' "$out/$name.json" >>"$out/$name.txt"
}

row moves-20     play --games 10  --duration 10s
row moves-100    play --games 50  --duration 10s
row moves-500    play --games 250 --duration 10s
row paced-1000   play --games 500 --duration 20s --warmup 4s --pace 2s
row quiet-2      play --games 1   --duration 10s --pace 500ms
row memory-1000  connections --sockets 1000 --rooms 100 --hold 10s
row sockets-15k  connections --sockets 15000 --rooms 1000 --hold 20s
row reconnect    reconnect --games 50 --duration 10s
row crash        crash --games 25 --kills 3
RUNS_OVERRIDE=1 row self-test crash --games 5 --kills 1 --self-test
echo "results in $out"
