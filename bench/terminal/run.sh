#!/usr/bin/env bash
# Terminal benchmarks next to xterm.js's headless parser on the same bytes, in one run:
# throughput (emulation alone, emulation + offscreen view) on four 8 MiB streams, and memory of
# the whole process with 100 000 lines of scrollback; and the round trip of a typed key
# through sandbox-server (no peer). Usage: run.sh BUILD_DIR
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

# Memory: each stream in its own process, so one run's heap does not count for the other.
echo
echo "terminal memory, whole process, 100 000 lines of scrollback, offscreen (MB; goal on ours after)"
printf '%-8s %5s %9s %9s %9s %9s %9s %9s %6s\n' stream cols "rss0" "rss" "hwm" "xt.rss0" \
  "xt.rss" "xt.hwm" goal
for name in plain sgr; do
  "$build/bench/bench-terminal-memory" "$name" --dump "$data/mem-$name.bin"
  read -r _ lines _ cols rss0 _ rss hwm < <(QT_QPA_PLATFORM=offscreen \
    "$build/bench/bench-terminal-memory" "$name" 2>/dev/null)
  read -r xlines xrss0 _ xrss xhwm < <(cd "$here" && node xterm-memory.mjs "$data/mem-$name.bin" "$cols")
  goal=$([[ $name == plain ]] && echo 60 || echo 150)
  awk -v n="$name" -v c="$cols" -v a="$rss0" -v b="$rss" -v h="$hwm" -v xa="$xrss0" -v xb="$xrss" \
    -v xh="$xhwm" -v g="$goal" -v l="$lines" -v xl="$xlines" 'BEGIN {
      m = h / 1024; printf "%-8s %5d %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %6s (< %d MB; %d vs %d lines)\n",
      n, c, a / 1024, b / 1024, m, xa / 1024, xb / 1024, xh / 1024, (m < g ? "met" : "MISSED"), g, l, xl }'
done

# Round trip: keys typed into a TerminalPane against a sandbox-server on loopback.
echo
QT_QPA_PLATFORM=offscreen "$build/bench/bench-terminal-roundtrip" "$build/bin/sandbox-server" \
  2> >(grep -v -e propagateSizeHints -e XDG_RUNTIME_DIR >&2)
