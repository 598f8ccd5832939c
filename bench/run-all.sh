#!/usr/bin/env bash
# Runs every benchmark against the build in $1 (default build/) and prints their figures.
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
echo "== console cold start"
"$build/bench/bench-console-startup" "$build/bin/sandbox-console" 7
if [[ -x bench/server/run.sh ]]; then
  echo "== server latency"
  bench/server/run.sh "$build"
fi
echo "== server against hostile bodies"
bench/server/hostile-bodies.sh "$build"
if [[ -x bench/server/faults.sh ]]; then
  echo "== server load and faults"
  bench/server/faults.sh "$build"
fi
echo "== observe: server CPU while live is polled, 500 processes"
bench/observe/run.sh "$build"
echo "== activity: run output, file events"
bench/activity/run.sh "$build"
echo "== logs"
bench/logs/run.sh "$build"
echo "== agent: 1+1 through /v1/jupyter/execute, beside jupyter_client"
bench/agent/jupyter.sh "$build"
