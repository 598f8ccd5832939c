#!/usr/bin/env bash
# Load and fault runs of the server against the build in $1 (default build/): ticket minting,
# 100 terminals under load with GET /v1/sandbox latency and RSS, 1000 connections opened and
# dropped with descriptors, threads and children before and after. Loopback only; each run
# starts its own sandbox-server and stops by itself.
# Usage: bench/server/faults.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
server="$build/bin/sandbox-server"
echo "-- ticket minting"
"$build/bench/bench-server-tickets"
echo "-- 100 terminals under load"
timeout 300 "$build/bench/bench-server-terminals" --server "$server"
echo "-- 1000 connections opened and dropped"
timeout 120 "$build/bench/bench-server-churn" --server "$server"
