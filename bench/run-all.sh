#!/usr/bin/env bash
# `make bench`: every benchmark in bench/ against the build in $1 (default build/), each beside
# its peer in the same run, then one table of the figures that have a goal or a peer: the lines
# each benchmark prints as @summary (bench/lib/summary.sh). A benchmark that fails does not stop
# the others; it gets a "failed" row. The whole output is kept in BENCH_LOG (default
# BUILD/bench-results.txt). Peers come from packaging/install-deps.sh (curl, wrk, lnav, node)
# and from npm where a benchmark needs it (xterm.js headless, by bench/terminal/run.sh).
# BENCH_ONLY=terminal,files runs only the named sections.
set -uo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
log=${BENCH_LOG:-$build/bench-results.txt}
: >"$log"

sections=(
  "startup|console cold start|$build/bench/bench-console-startup $build/bin/sandbox-console 7"
  "server|server latency|bench/server/run.sh $build"
  "hostile|server against hostile bodies|bench/server/hostile-bodies.sh $build"
  "faults|server load and faults|bench/server/faults.sh $build"
  "terminal|terminal: throughput, memory, key round trip, beside xterm.js|bench/terminal/run.sh $build"
  "files|files: 100 000-entry listing, 1 GiB upload and download, beside curl|bench/files/run.sh $build"
  "far|far sandbox: listings at 50 ms RTT, gzip and plain, beside curl|bench/files/far-listing.sh $build"
  "observe|observe: server CPU while live is polled, 500 processes|bench/observe/run.sh $build"
  "activity|activity: run output, file events|bench/activity/run.sh $build"
  "logs|logs: index, search, follow, beside lnav and grep|bench/logs/run.sh $build"
  "agent|agent: 1+1 through the console and the server, beside jupyter_client|bench/agent/jupyter.sh $build"
  "traffic|traffic inspector: 1 GiB download open vs closed, memory after 10 000 requests|bench/traffic/run.sh $build"
)

wanted() { [[ -z ${BENCH_ONLY:-} || ",$BENCH_ONLY," == *",$1,"* ]]; }

for section in "${sections[@]}"; do
  IFS='|' read -r key title command <<<"$section"
  wanted "$key" || continue
  echo "== $title" | tee -a "$log"
  started=$(date +%s)
  # The @summary lines go to the log for the table, not to the screen.
  # shellcheck disable=SC2086
  $command 2>&1 | tee -a "$log" | grep -v '^@summary'
  rc=${PIPESTATUS[0]}
  echo "   ($((($(date +%s) - started))) s)"
  if ((rc != 0)); then
    printf '@summary\t%s\t-\t-\t-\t-\tfailed (exit %d)\n' "$title" "$rc" >>"$log"
  fi
done

echo
echo "== summary (also in $log)"
{
  printf 'figure\tours\tpeer\tratio\tgoal\tresult\n'
  grep '^@summary' "$log" | cut -f2-
} | column -t -s $'\t'
met=$(grep -c $'^@summary\t.*\tmet$' "$log")
missed=$(grep -c $'^@summary\t.*\tmissed$' "$log")
failed=$(grep -c $'^@summary\t.*\tfailed' "$log")
echo "goals met: $met, missed: $missed, benchmarks failed: $failed"
