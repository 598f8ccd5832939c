#!/usr/bin/env bash
# The server's CPU while GET /v1/sandbox/observe/live is polled once a second with 500 sleeping
# processes in the sandbox, as % of one core from /proc/<pid>/stat (utime+stime), beside the
# peer: `ps aux` run once a second over the same processes. Goal: under 2 % of a core.
# Usage: bench/observe/run.sh [build-dir] [seconds]
set -euo pipefail
# shellcheck source=bench/lib/summary.sh
source "$(dirname "$0")/../lib/summary.sh"
build=${1:-build}
seconds=${2:-20}
server="$build/bin/sandbox-server"
[[ -x "$server" ]] || { echo "no $server: build the sandbox-server target first" >&2; exit 1; }

work=$(mktemp -d)
pid=
cleanup() {
  [[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# A fresh HOME, as the test suites use: this machine's login files (pyenv) can hold a shell's
# first prompt back for long.
mkdir -p "$work/home"
HOME="$work/home" "$server" --workspace "$work/ws" >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 300); do
  grep -q listening "$work/out" 2>/dev/null && break
  sleep 0.1
done
url=$(sed -n 's/.*listening on //p' "$work/out")
[[ -n "$url" ]] || { echo "the server did not start" >&2; cat "$work/err" >&2; exit 1; }

ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }

curl -sf -XPOST "$url/v1/shell/exec" -H 'Content-Type: application/json' \
  -d '{"command":"for i in $(seq 500); do sleep 600 & done","async_mode":true}' >/dev/null
count=0
for _ in $(seq 300); do
  count=$(curl -sf "$url/v1/sandbox/observe/live?top_rows=0" |
    sed -n 's/.*"process_count":\([0-9]*\).*/\1/p')
  ((count >= 500)) && break
  sleep 0.1
done
echo "processes in the sandbox: $count"

# The server at rest, for what polling adds.
before=$(cpu_ticks "$pid")
sleep 10
idle=$(($(cpu_ticks "$pid") - before))

before=$(cpu_ticks "$pid")
start=$(date +%s.%N)
for _ in $(seq "$seconds"); do
  curl -sf "$url/v1/sandbox/observe/live?top_rows=10" >/dev/null
  sleep 1
done
end=$(date +%s.%N)
polled=$(($(cpu_ticks "$pid") - before))

# The peer: the same loop running ps aux; its children's CPU (cutime+cstime) once waited for.
peer=$(bash -c 'for _ in $(seq '"$seconds"'); do ps aux >/dev/null; sleep 1; done
  awk "{ sub(/.*\\) /, \"\"); print \$14 + \$15 }" /proc/$$/stat')

awk -v idle="$idle" -v polled="$polled" -v peer="$peer" -v t="$ticks" -v start="$start" \
  -v end="$end" -v n="$seconds" 'BEGIN {
  wall = end - start
  printf "server at rest:               %.2f %% of a core (10 s)\n", 100 * idle / t / 10
  printf "server, live polled 1/s:      %.2f %% of a core (%.1f s, %d polls)\n", 100 * polled / t / wall, wall, n
  printf "peer, ps aux run 1/s:         %.2f %% of a core (%.1f s)\n", 100 * peer / t / wall, wall
}'
polled_pct=$(awk -v p="$polled" -v t="$ticks" -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", 100 * p / t / (e - s) }')
peer_pct=$(awk -v p="$peer" -v t="$ticks" -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", 100 * p / t / (e - s) }')
summary "server CPU, observe/live polled 1/s, % of a core" "$polled_pct" "$peer_pct (ps aux)" \
    "$(awk -v a="$polled_pct" -v b="$peer_pct" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')" \
    "< 2 %" "$(awk -v a="$polled_pct" 'BEGIN { print (a < 2) ? "met" : "missed" }')"
