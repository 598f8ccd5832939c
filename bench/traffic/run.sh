#!/usr/bin/env bash
# The traffic inspector's cost. (1) A 1 GiB download through DownloadJob with the inspector open
# (headers kept, its models attached), closed (metadata only) and with no recorder at all, in
# DOWNLOAD_ROUNDS (5) rounds that rotate the order; the medians are compared (goal: open at
# least 0.95x closed). (2) REQUESTS (10 000) GET /v1/sandbox with the inspector open: the ring's
# bytes and the process's RSS growth (beside the growth of the same run with no recorder), and
# the ring's bytes once it is closed.
# Usage: bench/traffic/run.sh [BUILD_DIR]
set -euo pipefail
# shellcheck source=bench/files/common.sh
source "$(dirname "$0")/../files/common.sh" "${1:-build}" bench-traffic
# shellcheck source=bench/lib/summary.sh
source "$(dirname "$0")/../lib/summary.sh"

size=$((1024 * 1024 * 1024))
need_kb=$((2300 * 1024)) # the source and one download
avail_kb=$(df -Pk /tmp | awk 'NR == 2 { print $4 }')
if ((avail_kb < need_kb)); then
    echo "not enough space in /tmp: $((avail_kb / 1024)) MiB free, ~2300 MiB needed" >&2
    exit 1
fi
make_workspace bench-traffic
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "creating a 1 GiB file of random bytes in $ws"
head -c "$size" /dev/urandom >"$ws/source.bin"
start_server
rounds=${DOWNLOAD_ROUNDS:-5}
declare -A speeds=([open]="" [closed]="" [none]="")
for ((round = 0; round < rounds; round++)); do
    modes=(open closed none)
    order=("${modes[@]:round % 3}" "${modes[@]:0:round % 3}")
    for mode in "${order[@]}"; do
        sync # no download pays for the writeback of the one before
        out=$("$bench_bin" download "$url" "$ws/source.bin" "$tmp/down.bin" "$mode")
        got=$(stat -c %s "$tmp/down.bin" 2>/dev/null || echo missing)
        [[ $got == "$size" ]] || { echo "$mode: downloaded $got bytes of $size" >&2; exit 1; }
        rm -f "$tmp/down.bin"
        speeds[$mode]+="$(field MBps "$out") "
    done
done
# shellcheck disable=SC2086
open=$(median ${speeds[open]})
# shellcheck disable=SC2086
closed=$(median ${speeds[closed]})
# shellcheck disable=SC2086
none=$(median ${speeds[none]})
ratio=$(awk -v a="$open" -v b="$closed" 'BEGIN { printf "%.2f", a / b }')
echo "download 1 GiB: inspector open $open MB/s, closed $closed MB/s, no recorder $none MB/s;" \
    "open/closed $ratio (goal >= 0.95); rounds: open ${speeds[open]}closed ${speeds[closed]}none ${speeds[none]}"
summary_ratio "download 1 GiB, inspector open, MB/s" "$open" "$closed" 0.95 closed

count=${REQUESTS:-10000}
out=$("$bench_bin" requests "$url" "$count" open)
open_line=$(head -n 1 <<<"$out")
closed_line=$(grep '^closed:' <<<"$out")
base=$("$bench_bin" requests "$url" "$count" none | head -n 1)
echo "$count requests with the inspector open: $(field entries "$open_line") entries kept," \
    "ring $(field ring_kib "$open_line") KiB (headers and bodies $(field details_kib "$open_line") KiB);" \
    "RSS growth $(field rss_growth_kib "$open_line") KiB, without a recorder $(field rss_growth_kib "$base") KiB;" \
    "$(field seconds "$open_line") s vs $(field seconds "$base") s"
echo "after closing it: ring $(field ring_kib "$closed_line") KiB (headers and bodies $(field details_kib "$closed_line") KiB)"
summary "inspector RSS growth, 10 000 requests, KiB" "$(field rss_growth_kib "$open_line")" \
    "$(field rss_growth_kib "$base") (no recorder)" - "bounded ring" -
