#!/usr/bin/env bash
# Runs the server latency benchmark against the build in $1 (default build/).
# Usage: bench/server/run.sh [BUILD_DIR] [bench-server-latency options...]
set -euo pipefail
build=${1:-build}
shift || true
"$build/bench/bench-server-latency" --server "$build/bin/sandbox-server" "$@"
