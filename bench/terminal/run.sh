#!/usr/bin/env bash
# Terminal throughput: ours (emulation alone, emulation + offscreen view) next to xterm.js's
# headless parser on the same four 8 MiB streams, in one run. Usage: run.sh BUILD_DIR
set -euo pipefail
build=$(realpath "${1:-build}")
here=$(cd "$(dirname "$0")" && pwd)
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

if [[ ! -d "$here/node_modules/@xterm/headless" ]]; then
  (cd "$here" && npm install --no-save --silent @xterm/headless >/dev/null)
fi

ours=$(QT_QPA_PLATFORM=offscreen "$build/bench/bench-terminal-throughput" "$data")
theirs=$(cd "$here" && node xterm-throughput.mjs "$data")

echo "terminal throughput, 8 MiB per stream, 120x40, 16 KiB chunks (MB/s, best of two)"
echo "vtermstate: libvterm's parser+state with no-op callbacks, the ceiling of any emulation on it"
printf '%-8s %10s %10s %10s %8s %10s %8s %6s\n' stream vtermstate emulation view paints \
  xterm.js ratio goal
goal_for() { [[ $1 == unicode ]] && echo 1.0 || echo 1.5; }
while read -r name state emu view paints; do
  [[ $name == stream ]] && continue
  x=$(awk -v n="$name" '$1 == n { print $2 }' <<<"$theirs")
  goal=$(goal_for "$name")
  # The goal is judged on the view, painting included: that is what a person sees.
  read -r ratio met < <(awk -v v="$view" -v x="$x" -v g="$goal" \
    'BEGIN { r = v / x; printf "%.2f %s\n", r, (r >= g ? "met" : "MISSED") }')
  printf '%-8s %10s %10s %10s %8s %10s %7sx %6s (>= %sx)\n' "$name" "$state" "$emu" "$view" \
    "$paints" "$x" "$ratio" "$met" "$goal"
done <<<"$ours"
