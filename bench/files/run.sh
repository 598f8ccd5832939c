#!/usr/bin/env bash
# 1 GiB upload and download over loopback: UploadJob/DownloadJob (bench-file-transfer, one
# process per transfer so its VmHWM is that transfer's) vs curl, against the same sandbox-server
# build in the same run. The server is restarted for every transfer so its VmHWM is per transfer.
# Downloads run DOWNLOAD_ROUNDS (3) rounds; peak RSS figures are the rounds' highest.
# Runs listing.sh (a 100 000-file folder in RemoteFileModel) first.
# Usage: bench/files/run.sh [BUILD_DIR]
set -euo pipefail
# shellcheck source=bench/files/common.sh
source "$(dirname "$0")/common.sh" "${1:-build}" bench-file-transfer
# shellcheck source=bench/lib/summary.sh
source "$(dirname "$0")/../lib/summary.sh"

# The 100 000-file listing needs no free space to speak of: run it first, on its own server.
# SKIP_LISTING=1 leaves it out (to repeat the transfers alone).
[[ -n ${SKIP_LISTING:-} ]] || "$(dirname "$0")/listing.sh" "$build"

size=$((1024 * 1024 * 1024))
need_kb=$((4 * 1024 * 1024)) # the source, two copies in the workspace, one download
avail_kb=$(df -Pk /tmp | awk 'NR == 2 { print $4 }')
if ((avail_kb < need_kb)); then
    echo "not enough space in /tmp: $((avail_kb / 1024)) MiB free, ~4096 MiB needed" >&2
    exit 1
fi

make_workspace bench-files
# Reads the server's peak RSS (MiB) into server_hwm and stops it.
stop_server() {
    server_hwm=$(awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$server_pid/status")
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
}

check_size() { # FILE WHAT
    local got
    got=$(stat -c %s "$1" 2>/dev/null || echo missing)
    if [[ $got != "$size" ]]; then
        echo "$2: $1 has $got bytes, expected $size" >&2
        exit 1
    fi
}

mbps() { awk -v b="$size" -v s="$1" 'BEGIN { printf "%.1f", b / 1e6 / s }'; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

echo "creating a 1 GiB file of random bytes in $tmp"
src="$tmp/source.bin"
head -c "$size" /dev/urandom >"$src"
src_sha=$(sha256sum "$src" | cut -d' ' -f1)

# (1)+(2) uploads through UploadJob and curl, in rounds that alternate who goes first (medians
# compared), and (2a) a plain cp of the file into the workspace: the disk's own ceiling for
# writing 1 GiB, which bounds every upload to this server.
upload_ours() {
    rm -f "$ws/up-ours.bin" # kept from the last round: the downloads' source
    out=$("$bench_bin" upload "$url" "$src" "$ws/up-ours.bin")
    stop_server
    check_size "$ws/up-ours.bin" "our upload"
    up_ours_all+=("$(field MBps "$out")")
    up_ours_hwms+=("$(awk -v k="$(field vmhwm_kb "$out")" 'BEGIN { printf "%.1f", k / 1024 }')")
    up_ours_srvs+=("$server_hwm")
}
upload_curl() {
    read -r t code < <(curl -s -o /dev/null -w '%{time_total} %{http_code}\n' \
        -F "path=$ws/up-curl.bin" -F "file=@$src" "$url/v1/file/upload")
    stop_server
    [[ $code == 200 ]] || { echo "curl upload: HTTP $code" >&2; exit 1; }
    check_size "$ws/up-curl.bin" "curl upload"
    rm -f "$ws/up-curl.bin"
    up_curl_all+=("$(mbps "$t")")
    up_curl_srvs+=("$server_hwm")
}
# Runs KIND_ours and KIND_curl ROUNDS times each, alternating who goes first, each on a server
# of its own after a sync (no transfer pays for the writeback of the 1 GiB written before it).
alternate() { # KIND ROUNDS
    local round who order
    for ((round = 1; round <= $2; round++)); do
        order=(ours curl)
        ((round % 2)) || order=(curl ours)
        for who in "${order[@]}"; do
            sync
            start_server
            "$1_$who"
        done
    done
}
up_ours_all=() up_curl_all=() up_ours_hwms=() up_ours_srvs=() up_curl_srvs=()
alternate upload "${UPLOAD_ROUNDS:-3}"
sync
t0=$(date +%s.%N)
cp "$src" "$ws/cp.bin"
t1=$(date +%s.%N)
rm -f "$ws/cp.bin"
disk_copy=$(mbps "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")

# (2b) the same multipart through a bare QNetworkAccessManager: Qt's HTTP stack alone
sync
start_server
out=$("$bench_bin" qt-upload "$url" "$src" "$ws/up-qt.bin")
stop_server
check_size "$ws/up-qt.bin" "Qt upload"
rm -f "$ws/up-qt.bin"
up_qt=$(field MBps "$out")

# (2c) the same body as one QBuffer, the file mapped into it: Qt's fastest upload path, to show
# where Qt's HTTP stack itself stops
sync
start_server
out=$("$bench_bin" qt-upload-mapped "$url" "$src" "$ws/up-qtm.bin")
stop_server
check_size "$ws/up-qtm.bin" "Qt upload from one buffer"
rm -f "$ws/up-qtm.bin"
up_qt_mapped=$(field MBps "$out")

# (3)+(4) downloads through DownloadJob and curl, in rounds that alternate who goes first; the
# medians are compared. A single pair measured anything from 0.6x to 1.3x on a shared machine.
rounds=${DOWNLOAD_ROUNDS:-3}
down_ours_all=() down_curl_all=() down_ours_hwms=() down_ours_srvs=() down_curl_srvs=()
download_ours() {
    out=$("$bench_bin" download "$url" "$ws/up-ours.bin" "$tmp/down-ours.bin")
    stop_server
    check_size "$tmp/down-ours.bin" "our download"
    [[ $(sha256sum "$tmp/down-ours.bin" | cut -d' ' -f1) == "$src_sha" ]] ||
        { echo "our download: SHA-256 differs from the source" >&2; exit 1; }
    rm -f "$tmp/down-ours.bin"
    down_ours_all+=("$(field MBps "$out")")
    down_ours_hwms+=("$(awk -v k="$(field vmhwm_kb "$out")" 'BEGIN { printf "%.1f", k / 1024 }')")
    down_ours_srvs+=("$server_hwm")
}
download_curl() {
    read -r t code < <(curl -s -o "$tmp/down-curl.bin" -w '%{time_total} %{http_code}\n' -G \
        --data-urlencode "path=$ws/up-ours.bin" --data-urlencode "change_policy=abort" \
        "$url/v1/file/download")
    stop_server
    [[ $code == 200 ]] || { echo "curl download: HTTP $code" >&2; exit 1; }
    check_size "$tmp/down-curl.bin" "curl download"
    rm -f "$tmp/down-curl.bin"
    down_curl_all+=("$(mbps "$t")")
    down_curl_srvs+=("$server_hwm")
}
alternate download "$rounds"
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
most() { printf '%s\n' "$@" | sort -g | tail -n 1; }
up_ours=$(median "${up_ours_all[@]}")
up_curl=$(median "${up_curl_all[@]}")
up_ours_hwm=$(most "${up_ours_hwms[@]}")
up_ours_srv=$(most "${up_ours_srvs[@]}")
up_curl_srv=$(most "${up_curl_srvs[@]}")
down_ours=$(median "${down_ours_all[@]}")
down_curl=$(median "${down_curl_all[@]}")
down_ours_hwm=$(most "${down_ours_hwms[@]}")
down_ours_srv=$(most "${down_ours_srvs[@]}")
down_curl_srv=$(most "${down_curl_srvs[@]}")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "upload   1 GiB: ours $up_ours MB/s, curl $up_curl MB/s, ratio $(ratio "$up_ours" "$up_curl") (goal >= 0.95, both >= 400 MB/s);" \
    "medians of ${UPLOAD_ROUNDS:-3} rounds: ours ${up_ours_all[*]}, curl ${up_curl_all[*]};" \
    "a bare QNetworkAccessManager $up_qt MB/s, with the body as one mapped buffer $up_qt_mapped MB/s;" \
    "cp of the file on the same disk $disk_copy MB/s"
echo "download 1 GiB: ours $down_ours MB/s, curl $down_curl MB/s, ratio $(ratio "$down_ours" "$down_curl") (goal >= 0.9);" \
    "medians of $rounds rounds: ours ${down_ours_all[*]}, curl ${down_curl_all[*]}"
echo "client peak RSS (VmHWM): upload $up_ours_hwm MiB, download $down_ours_hwm MiB (goal < 80)"
echo "server peak RSS (VmHWM): upload ours $up_ours_srv / curl $up_curl_srv MiB," \
    "download ours $down_ours_srv / curl $down_curl_srv MiB (goal < 64)"
up_met=$(awk -v a="$up_ours" -v b="$up_curl" 'BEGIN { print (a >= 0.95 * b && a >= 400) ? "met" : "missed" }')
summary "upload 1 GiB MB/s" "$up_ours" "$up_curl (curl)" "$(ratio "$up_ours" "$up_curl")x" \
    ">= 400 MB/s, >= 0.95x curl" "$up_met"
curl_met=$(awk -v b="$up_curl" 'BEGIN { print (b >= 400) ? "met" : "missed" }')
summary "upload 1 GiB MB/s, curl to our server" "$up_curl" "-" "-" ">= 400 MB/s" "$curl_met"
summary_ratio "upload 1 GiB MB/s, ours vs a bare QNetworkAccessManager" "$up_ours" "$up_qt" 0.95 "Qt"
summary "upload 1 GiB MB/s, cp on the same disk (the ceiling)" "$disk_copy" "-" "-" "-" "-"
summary_ratio "upload 1 GiB MB/s, Qt's best path (one mapped buffer)" "$up_qt_mapped" "$up_curl" 0.95 "curl"
summary_ratio "download 1 GiB MB/s" "$down_ours" "$down_curl" 0.9 "curl"
summary_below "upload 1 GiB, server peak RSS" "$(most "$up_ours_srv" "$up_curl_srv")" 64 MiB
