#!/usr/bin/env bash
# Activity benchmarks against a sandbox-server of their own:
#  1. run output: `head -c 1G /dev/zero | tr '\0' x | fold -w 100` through BashRun into a
#     following LogView (bench-run-output): MB/s and the longest GUI stall (goal under 50 ms),
#     live and re-reading the finished output; beside curl reading the same finished output
#     through /v1/bash/output in 4 MiB answers (goal: ours at least 0.8x curl).
#  2. file events: 10 000 files created in one burst in a watched folder (bench-file-events,
#     50 ms debounce): how many reached the tree, overflow, creation-to-row delay p50 / p99
#     (goal p50 under 150 ms).
# RUN_MB (default 1024) sets the run's size, EVENT_FILES (default 10000) the burst.
# Usage: bench/activity/run.sh [BUILD_DIR]
set -euo pipefail
# shellcheck source=bench/files/common.sh
source "$(dirname "$0")/../files/common.sh" "${1:-build}" bench-run-output
# shellcheck source=bench/lib/summary.sh
source "$(dirname "$0")/../lib/summary.sh"
events_bin="$build/bench/bench-file-events"
[[ -x $events_bin ]] || { echo "missing $events_bin (build bench-file-events)" >&2; exit 2; }
mb=${RUN_MB:-1024}
files=${EVENT_FILES:-10000}
make_workspace bench-activity
start_server
field() { grep -o "\(^\|[[:space:]]\)$1=[^[:space:]]*" <<<"$2" | head -n 1 | sed 's/.*=//'; }

echo "== run output: $mb MiB of 100-character lines"
out=$(HOME="$tmp" "$bench_bin" "$url" "$mb")
echo "$out" | grep -v '^ours_mbps\|^session_id'
session=$(field session_id "$out")
command=$(field command_id "$out")
bytes=$(field bytes "$out")
chunk=$((4 * 1024 * 1024))
start=$(date +%s.%N)
got=0
for ((offset = 0; offset < bytes; offset += chunk)); do
    n=$(curl -s -o /dev/null -w '%{size_download}' -H 'Content-Type: application/json' \
        --data-binary "{\"session_id\":\"$session\",\"command_id\":\"$command\",\"offset\":$offset}" \
        "$url/v1/bash/output")
    ((n > 1000)) || { echo "curl got $n bytes at offset $offset" >&2; exit 1; }
    got=$((got + n))
done
end=$(date +%s.%N)
curl_mbps=$(awk -v b="$bytes" -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", b / 1e6 / (e - s) }')
ours=$(field ours_mbps "$out")
echo "curl, the same output through /v1/bash/output: $curl_mbps MB/s ($((got / 1000000)) MB of JSON)"
awk -v o="$ours" -v c="$curl_mbps" -v s="$(field stall_ms "$out")" 'BEGIN {
    printf "ours re-read %.1f MB/s = %.2fx curl (goal >= 0.8x), longest stall %.1f ms (goal < 50)\n",
        o, o / c, s }'
summary_ratio "run output re-read, MB/s" "$ours" "$curl_mbps" 0.8 curl
summary_below "run output, longest GUI stall" "$(field stall_ms "$out")" 50 ms
summary_below "run output live, longest GUI stall" "$(field live_stall_ms "$out")" 50 ms

echo "== file events: $files files created in a burst"
mkdir -p "$ws/events"
events_rc=0
events=$("$events_bin" "$url" "$ws/events" "$files") || events_rc=$?
echo "$events"
summary_below "file events, creation to row p50" "$(field p50_ms "$events")" 150 ms
exit "$events_rc"
