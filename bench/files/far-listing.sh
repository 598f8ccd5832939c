#!/usr/bin/env bash
# Listing a far sandbox: folders of 10 000 and 100 000 empty files behind a 50 ms round trip (a
# delay line, 25 ms each way), through the console's RemoteFileModel in an offscreen tree
# (bench-file-listing, sorted as the Files tab; the console asks for gzip and sandbox-server gives
# it)
# beside curl's POST /v1/file/list through the same path, with --compressed and without:
# medians of RUNS (3) runs, ours and curl's in turn.
# Usage: bench/files/far-listing.sh [BUILD_DIR]
set -euo pipefail
# shellcheck source=bench/files/common.sh
source "$(dirname "$0")/common.sh" "${1:-build}" bench-file-listing
# shellcheck source=bench/lib/summary.sh
source "$(dirname "$0")/../lib/summary.sh"
proxy_bin="$build/bench/bench-delay-proxy"
[[ -x $proxy_bin ]] || { echo "missing $proxy_bin" >&2; exit 2; }

make_workspace bench-far-listing
start_server
port=${url##*:}
"$proxy_bin" "$port" 25 >"$tmp/proxy.out" &
proxy_pid=$!
trap 'kill $proxy_pid 2>/dev/null; cleanup' EXIT
for _ in $(seq 50); do grep -q listening "$tmp/proxy.out" && break; sleep 0.1; done
far=$(sed -n 's/^listening on //p' "$tmp/proxy.out")
[[ -n $far ]] || { echo "the delay proxy did not start" >&2; exit 1; }

runs=${RUNS:-3}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for count in 10000 100000; do
    dir="$ws/many-$count"
    mkdir -p "$dir"
    (cd "$dir" && seq -f 'report-%06g-final.txt' 0 $((count - 1)) | xargs touch)
    body=$(printf '{"include_permissions":true,"include_size":true,"path":"%s","recursive":false,"show_hidden":true}' "$dir")
    # Medians of RUNS runs each, taken in turn: one run of each swung by 0.1 s.
    tz_all=() ours_all=()
    for _ in $(seq "$runs"); do
        read -r t _ sz < <(curl -s --compressed -o /dev/null -w '%{time_total} %{http_code} %{size_download}\n' \
            -H 'Content-Type: application/json' --data-binary "$body" "$far/v1/file/list")
        out=$(SBX_BENCH_FAR=1 "$bench_bin" "$far" "$dir" "$count" sorted)
        tz_all+=("$t") ours_all+=("$(sed -n 's/.* seconds=\([^ ]*\).*/\1/p' <<<" $out")")
    done
    tz=$(median "${tz_all[@]}")
    secs=$(median "${ours_all[@]}")
    read -r tp _ sp < <(curl -s -o /dev/null -w '%{time_total} %{http_code} %{size_download}\n' \
        -H 'Content-Type: application/json' --data-binary "$body" "$far/v1/file/list")
    echo "$count entries at 50 ms RTT, medians of $runs: console (gzip) ${secs}s to every row" \
        "(${ours_all[*]}); curl --compressed ${tz}s (${tz_all[*]}) ($((sz / 1024)) KiB on the wire), curl plain ${tp}s ($((sp / 1024)) KiB)"
    summary_within "far listing $count rows s (50 ms RTT)" "$secs" "$tz" 1.2 "curl --compressed"
    summary_within "far listing $count, curl gzip vs plain s" "$tz" "$tp" 1.0 "curl plain"
done
