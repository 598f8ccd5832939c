#!/usr/bin/env bash
# Hostile request bodies against a sandbox-server it starts itself on a free loopback port:
# for each body, the server's peak RSS growth against the body's size, and the latency of
# GET /v1/sandbox that another client sees meanwhile (p50 / p99 / max over keep-alive, curl's
# own timings) beside the same figures with no hostile client. Bounded; loopback only.
# Usage: bench/server/hostile-bodies.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
server="$build/bin/sandbox-server"
work=$(mktemp -d /tmp/bench-hostile-XXXXXX)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

pid=
# A fresh server for each body: peak RSS is a high-water mark.
start_server() {
  if [[ -n "$pid" ]]; then kill "$pid"; wait "$pid" || true; fi
  : >"$work/out"
  "$server" --port 0 --workspace "$work/ws" >"$work/out" 2>"$work/err" &
  pid=$!
  for _ in $(seq 100); do
    grep -q listening "$work/out" 2>/dev/null && break
    sleep 0.1
  done
  url=$(sed -n 's/^sandbox-server listening on //p' "$work/out")
  [[ -n "$url" ]] || { echo "server did not start: $(cat "$work/err")" >&2; exit 1; }
}
start_server

hwm() { awk '/VmHWM/ {print $2}' "/proc/$pid/status"; }

# Writes N keep-alive GET timings (ms) to $1 until the file $2 exists or N requests are done.
probe() {
  local out=$1 stop=$2 args=()
  for _ in $(seq 200); do args+=(-o /dev/null "$url/v1/sandbox"); done
  : >"$out"
  for _ in $(seq 40); do
    [[ -e "$stop" ]] && break
    curl -s -w '%{time_total}\n' "${args[@]}" | awk '{printf "%.3f\n", $1 * 1000}' >>"$out"
  done
}

stats() {
  sort -n "$1" | awk '{v[NR]=$1} END {
    if (NR == 0) { print "no samples"; exit }
    printf "p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms  (%d requests)", v[int(NR*0.5)+1], v[int(NR*0.99)+1], v[NR], NR }'
}

probe "$work/idle.txt" "$work/never" &
probe_pid=$!
sleep 2; touch "$work/never"; wait "$probe_pid"
echo "no hostile client:        GET /v1/sandbox $(stats "$work/idle.txt")"

python3 - "$work" <<'PY'
import sys
w = sys.argv[1]
open(f"{w}/deep.json", "wb").write(b"[" * (60 << 20))
with open(f"{w}/wide.json", "wb") as f:
    f.write(b'{"file":"wide.txt","content":"x","junk":[' + b"1," * (4 << 20) + b"1]}")
with open(f"{w}/content.json", "wb") as f:
    f.write(b'{"file":"content.txt","content":"' + b"a" * (60 << 20) + b'"}')
PY

for body in deep wide content; do
  file="$work/$body.json"
  size=$(stat -c %s "$file")
  start_server
  before=$(hwm)
  rm -f "$work/stop"
  probe "$work/$body.txt" "$work/stop" &
  probe_pid=$!
  sleep 0.3
  start=$(date +%s%N)
  status=$(curl -s -o "$work/$body.reply" -w '%{http_code}' -H 'Content-Type: application/json' \
    --data-binary @"$file" "$url/v1/file/write")
  took=$(( ($(date +%s%N) - start) / 1000000 ))
  sleep 0.3
  touch "$work/stop"; wait "$probe_pid"
  after=$(hwm)
  printf '%-7s %3d MiB -> %s in %5d ms; peak RSS +%4d MiB (%.2fx the body); meanwhile GET %s\n' \
    "$body" $((size >> 20)) "$status" "$took" $(( (after - before) >> 10 )) \
    "$(echo "($after - $before) * 1024 / $size" | bc -l)" "$(stats "$work/$body.txt")"
done
