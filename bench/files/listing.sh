#!/usr/bin/env bash
# A folder of 100 000 empty files listed through RemoteFileModel in an offscreen QTreeView
# (bench-file-listing): time until every row is in and the longest GUI event-loop stall (goal
# < 50 ms), RUNS (3) runs each with a plain view and sorted by name as the Files tab is (then a
# click on the Size header, timed); then the same for a refresh of the listed folder (every row
# known already).
# Peers, in the same run: curl's POST /v1/file/list of the same folder (the server and the
# transfer alone) for the rows in the tree (goal <= 1.2x, the Files tab's sorted view), and
# Python's os.scandir + an lstat per entry (timed inside, warm cache; `find -printf` took longer
# than the server) for the server's listing (goal <= 2x). Medians of the runs; needs only a few
# MiB of /tmp.
# Usage: bench/files/listing.sh [BUILD_DIR]
set -euo pipefail
# shellcheck source=bench/files/common.sh
source "$(dirname "$0")/common.sh" "${1:-build}" bench-file-listing
# shellcheck source=bench/lib/summary.sh
source "$(dirname "$0")/../lib/summary.sh"

count=100000
runs=${RUNS:-3}
make_workspace bench-listing
dir="$ws/many"
mkdir -p "$dir"

echo "creating $count empty files in $dir"
(cd "$dir" && seq -f 'report-%06g-final.txt' 0 $((count - 1)) | xargs touch)
[[ $(find "$dir" -maxdepth 1 -type f | wc -l) == "$count" ]] ||
    { echo "could not create $count files" >&2; exit 1; }

start_server

# The body ListFilesJob sends.
body=$(printf '{"include_permissions":true,"include_size":true,"path":"%s","recursive":false,"show_hidden":true}' "$dir")
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
most() { printf '%s\n' "$@" | sort -g | tail -n 1; }

curl_all=() find_all=()
for i in $(seq "$runs"); do
    read -r t code size < <(curl -s -o /dev/null -w '%{time_total} %{http_code} %{size_download}\n' \
        -H 'Content-Type: application/json' --data-binary "$body" "$url/v1/file/list")
    [[ $code == 200 ]] || { echo "curl list: HTTP $code" >&2; exit 1; }
    read -r n f < <(python3 -c '
import os, sys, time
t = time.perf_counter()
n = sum(1 for e in os.scandir(sys.argv[1]) if e.stat(follow_symlinks=False))
print(n, "%.3f" % (time.perf_counter() - t))' "$dir")
    [[ $n == "$count" ]] || { echo "scandir listed $n entries, expected $count" >&2; exit 1; }
    curl_all+=("$t") find_all+=("$f")
    echo "run $i curl: POST /v1/file/list ${t}s, $((size / 1024)) KiB; scandir + lstat ${f}s"
done
declare -A seconds_all=()
stall_all=() sizesort_all=()
for mode in plain sorted plain-refresh sorted-refresh; do
    for i in $(seq "$runs"); do
        out=$("$bench_bin" "$url" "$dir" "$count" "$mode")
        echo "run $i $mode: rows $(field rows "$out") in $(field seconds "$out")s;" \
            "longest stall $(field longest_stall_ms "$out") ms (at $(field stall_at_ms "$out") ms)," \
            "$(field stalls_over_50ms "$out") over 50 ms; with 300 ms after folderListed:" \
            "$(field longest_stall_with_tail_ms "$out") ms, $(field stalls_over_50ms_with_tail "$out") over 50 ms" \
            "-> goal (< 50 ms) $(field goal "$out"); longest stalls ms@start: $(field top_stalls "$out")"
        seconds_all[$mode]+="$(field seconds "$out") "
        if [[ $mode == sorted ]]; then
            echo "run $i sorted: a click on the Size header took $(field size_sort_ms "$out") ms"
            sizesort_all+=("$(field size_sort_ms "$out")")
        fi
        stall_all+=("$(field longest_stall_with_tail_ms "$out")")
    done
done
for i in $(seq "$runs"); do
    out=$("$bench_bin" "$url" "$dir" "$count" phases) || break # a baseline has no phases
    echo "run $i phases: ListFilesJob $(field job_s "$out")s = transfer through Qt" \
        "$(field transfer_s "$out")s + parse $(field parse_s "$out")s (fast $(field fast "$out"));" \
        "then in the model: collation keys $(field keys_s "$out")s, sorted by $(field collate_s "$out")s"
done
curl_s=$(median "${curl_all[@]}")
find_s=$(median "${find_all[@]}")
# shellcheck disable=SC2086 # the lists are space-separated numbers
{
    plain_s=$(median ${seconds_all[plain]})
    sorted_s=$(median ${seconds_all[sorted]})
    sorted_refresh_s=$(median ${seconds_all[sorted-refresh]})
    plain_refresh_s=$(median ${seconds_all[plain-refresh]})
}
stall_ms=$(most "${stall_all[@]}")
echo "medians of $runs runs: curl ${curl_s}s, scandir + lstat ${find_s}s; rows in the tree: plain ${plain_s}s," \
    "sorted ${sorted_s}s; refresh: plain ${plain_refresh_s}s, sorted ${sorted_refresh_s}s;" \
    "longest stall of all runs ${stall_ms} ms"
summary_within "100 000 rows in the Files tree s" "$sorted_s" "$curl_s" 1.2 "curl"
summary_within "100 000 rows, server listing s" "$curl_s" "$find_s" 2 "scandir + lstat"
summary_within "100 000 rows, refresh s" "$sorted_refresh_s" "$sorted_s" 1.0 "first listing"
summary_below "100 000 rows, longest GUI stall" "$stall_ms" 50 ms
summary_below "100 000 rows, sort by size (GUI busy)" "$(most "${sizesort_all[@]}")" 50 ms
