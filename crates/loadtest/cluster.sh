#!/usr/bin/env bash
# The 2-node rows of docs/performance.md (issue 13) and the same rows on one SQLite node, one run
# each (each run ≤ 2 min; the machine is shared). Usage:
#   crates/loadtest/cluster.sh [DAMES_BIN] [OUT_DIR]
# Needs PostgreSQL (DAMES_TEST_POSTGRES, default postgres://postgres@127.0.0.1:5432, trust) and
# Redis (DAMES_TEST_REDIS, default redis://127.0.0.1:6379). A scratch database is made with
# createdb and dropped at the end.
# 20,000 sockets: each side of a socket is a file, and a process may hold 20,000 files here; so
# the two nodes are started by this script (ulimit -n 20000 each) and two load generators of
# 10,000 sockets each run side by side, one per node.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/dames}
out=${2:-target/loadtest-cluster-$(date +%Y%m%d-%H%M%S)}
pg=${DAMES_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432}
redis=${DAMES_TEST_REDIS:-redis://127.0.0.1:6379}
sockets=${SOCKETS:-20000}
spread=${SPREAD:-seats}
mkdir -p "$out"
db="dames_cluster_$$"
createdb -h 127.0.0.1 -U postgres "$db"
nodes=()
cleanup() {
  for pid in "${nodes[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  dropdb -h 127.0.0.1 -U postgres --force "$db" 2>/dev/null || true
  redis-cli --scan --pattern "dames-cluster-$$:*" | xargs -r redis-cli del >/dev/null || true
}
trap cleanup EXIT
url="$pg/$db"
cluster=(--nodes 2 --database "$url" --redis "$redis" --spread "$spread")

# ONLY=substring runs only the rows whose name has it (e.g. ONLY=sockets, ONLY=-2n).
want() { [[ -z ${ONLY:-} || $1 == *"$ONLY"* ]]; }

row() {
  local name=$1; shift
  want "$name" || return 0
  echo "== $name: $* ($(uptime))" | tee "$out/$name.txt"
  "$bin" loadtest "$@" --json >"$out/$name.json" || true
  jq -c '.' "$out/$name.json" >>"$out/$name.txt"
  tail -1 "$out/$name.txt"
}

# Moves per second and latency, flat out (100 games) and paced (1,000 games, a move every 2 s).
row moves-100-2n   play --games 50 --duration 10s "${cluster[@]}"
row moves-100-1    play --games 50 --duration 10s
row paced-1000-2n  play --games 500 --duration 20s --warmup 4s --pace 2s "${cluster[@]}"
row paced-1000-1   play --games 500 --duration 20s --warmup 4s --pace 2s
# kill -9 under load: the nodes in turn, then the single node.
row crash-2n       crash --games 25 --kills 3 "${cluster[@]}"
row crash-1        crash --games 25 --kills 3

# 20,000 simultaneous WebSockets over 2 nodes.
want "sockets-2n" || exit 0
for port in 0 1; do
  ( ulimit -n 20000; exec "$bin" serve --addr 127.0.0.1:0 --database "$url" --redis "$redis" \
      --redis-prefix "dames-cluster-$$:" --no-rate-limits --log error ) >"$out/node$port.out" &
  nodes+=($!)
done
for n in 0 1; do
  until grep -q "listening on" "$out/node$n.out" 2>/dev/null; do sleep 0.2; done
done
half=$((sockets / 2))
echo "== sockets-${sockets}-2n: 2 × connections --sockets $half --rooms 500 --hold 20s ($(uptime))" \
  | tee "$out/sockets-2n.txt"
gens=()
for n in 0 1; do
  base=$(sed -n 's/^listening on //p' "$out/node$n.out")
  "$bin" loadtest connections --url "$base" --pid "${nodes[$n]}" --sockets "$half" --rooms 500 \
    --hold 20s --json >"$out/sockets-2n-$n.json" &
  gens+=($!)
done
for g in "${gens[@]}"; do wait "$g" || true; done
for n in 0 1; do jq -c '.' "$out/sockets-2n-$n.json" | tee -a "$out/sockets-2n.txt"; done
echo "results in $out"
