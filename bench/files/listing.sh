#!/usr/bin/env bash
# A folder of 100 000 empty files listed through RemoteFileModel in an offscreen QTreeView
# (bench-file-listing): time until every row is in and the longest GUI event-loop stall (goal
# < 100 ms), three runs each with a plain view and with a sorting proxy like the Files tab's;
# then the same for a refresh of the listed folder (every row known already).
# No peer measures this; curl's time for the same POST /v1/file/list is printed as the
# server+transfer part alone. Needs only a few MiB of /tmp.
# Usage: bench/files/listing.sh [BUILD_DIR]
set -euo pipefail
# shellcheck source=bench/files/common.sh
source "$(dirname "$0")/common.sh" "${1:-build}" bench-file-listing

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

for i in $(seq "$runs"); do
    read -r t code size < <(curl -s -o /dev/null -w '%{time_total} %{http_code} %{size_download}\n' \
        -H 'Content-Type: application/json' --data-binary "$body" "$url/v1/file/list")
    [[ $code == 200 ]] || { echo "curl list: HTTP $code" >&2; exit 1; }
    echo "run $i curl: POST /v1/file/list ${t}s, $((size / 1024)) KiB"
done
for mode in plain sorted plain-refresh sorted-refresh; do
    for i in $(seq "$runs"); do
        out=$("$bench_bin" "$url" "$dir" "$count" "$mode")
        echo "run $i $mode: rows $(field rows "$out") in $(field seconds "$out")s;" \
            "longest stall $(field longest_stall_ms "$out") ms (at $(field stall_at_ms "$out") ms)," \
            "$(field stalls_over_100ms "$out") over 100 ms; with 300 ms after folderListed:" \
            "$(field longest_stall_with_tail_ms "$out") ms, $(field stalls_over_100ms_with_tail "$out") over 100 ms" \
            "-> goal (< 100 ms) $(field goal "$out"); longest stalls ms@start: $(field top_stalls "$out")"
    done
done
echo "no peer measures this figure; curl above is the server+transfer part alone"
