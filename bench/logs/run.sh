#!/usr/bin/env bash
# Log engine on a 10 000 000-line, ~1 GB log (bench-log-generate: timestamps in four styles,
# JSON lines, ~5% ANSI colour, five 1-4 MB lines, some CRLF, and the marker needle-7f3a only in
# the last 0.1% of the lines), beside lnav 0.11 (headless) and grep on the same file in the same
# run, page cache warm:
#  1. index the whole file and show its last line: ours index_s; lnav wall time (see below);
#  2. whole-process peak RSS with the file open: ours rss_mb; lnav's max RSS;
#  3. fixed-string and regex search for the marker: ours vs grep -F -c / grep -E -c (best of
#     RUNS, default 3; goal: ours within 2x of grep), match counts checked against the generator;
#  4. follow input: 1 000 000 lines appended by bench-log-generate --append as fast as one local
#     process can write them (its lines/s is the rate a follower has to keep up with).
# Ours is bench-log-index FILE FIXED REGEX; while it is not built, its column reads "-".
# The file is kept in BENCH_LOGS_DIR (default /tmp/bench-logs) with a stamp and reused while
# stamp, generator version and size agree. LOG_LINES (default 10000000) sets its size.
# Usage: bench/logs/run.sh [BUILD_DIR]
set -euo pipefail
# shellcheck source=bench/lib/summary.sh
source "$(dirname "$0")/../lib/summary.sh"
build=$(cd "${1:-build}" && pwd)
gen="$build/bench/bench-log-generate"
ours_bin="$build/bench/bench-log-index"
[[ -x $gen ]] || { echo "missing $gen (build bench-log-generate)" >&2; exit 2; }
for tool in lnav grep /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "$tool is not installed (packaging/install-deps.sh)" >&2; exit 2; }
done

lines=${LOG_LINES:-10000000}
runs=${RUNS:-3}
fixed='needle-7f3a'
regex='needle-[0-9a-f]{4}\b'
dir=${BENCH_LOGS_DIR:-/tmp/bench-logs}
if ((lines == 10000000)); then file="$dir/log-10m.txt"; else file="$dir/log-$lines.txt"; fi
stamp="$file.stamp"
follow="$dir/follow.txt"
mkdir -p "$dir"
tmp=$(mktemp -d /tmp/bench-logs-run.XXXXXX)
trap 'rm -rf "$tmp" "$follow"' EXIT

field() { # KEY TEXT: the value of KEY=VALUE anywhere in TEXT, or of a line "KEY VALUE"
    local v
    v=$(grep -o "\(^\|[[:space:]]\)$1=[^[:space:]]*" <<<"$2" | head -n 1 | sed 's/.*=//')
    [[ -n $v ]] || v=$(awk -v k="$1" '$1 == k { print $2; exit }' <<<"$2")
    echo "$v"
}

# --- the input: generated once, reused while its stamp says it is what this generator writes.
version=$("$gen" --version)
size=$(stat -c %s "$file" 2>/dev/null || echo 0)
info=
if [[ -f $stamp ]]; then
    info=$(cat "$stamp")
    if [[ $(field version "$info") != "$version" || $(field lines "$info") != "$lines" ||
        $(field bytes "$info") != "$size" ]]; then
        info=
    fi
fi
# ~2.5 GB per 10 M lines: the ~1 GB file, the ~0.1 GB follow file, and room for what the
# engines spill to /tmp meanwhile.
need_kb=$((lines * 262144 / 1000000 + 64 * 1024))
[[ -n $info ]] && need_kb=$((need_kb - size / 1024))
avail_kb=$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')
if ((avail_kb < need_kb)); then
    echo "not enough space in $dir: $((avail_kb / 1024)) MiB free, ~$((need_kb / 1024)) MiB needed" >&2
    exit 2
fi
if [[ -z $info ]]; then
    echo "generating $lines lines into $file"
    rm -f "$stamp"
    out=$("$gen" "$file" "$lines")
    info="version=$version $out"
    echo "$info" >"$stamp"
else
    echo "reusing $file"
fi
size=$(stat -c %s "$file")
markers=$(field marker_lines "$info")
# lnav may drop the SGR sequences of a line it prints: compare lines without them.
plain() { tr -d '\r' | sed 's/\x1b\[[0-9;]*m//g'; }
last=$(tail -n 1 "$file" | plain)
echo "input: $(field lines "$info") lines, $size bytes ($((size / 1000000)) MB)," \
    "$markers lines with $fixed, $(field long_lines "$info") long lines, $(field crlf_lines "$info") CRLF"

# Page cache warm for every reader; the machine has the RAM to keep the file.
cat "$file" >/dev/null

# Best wall time of $runs runs of a command whose stdout is a count; sets best and count.
best_of() {
    local i t0 t1 t
    best=
    for ((i = 0; i < runs; i++)); do
        t0=$EPOCHREALTIME
        count=$("$@" || true)
        t1=$EPOCHREALTIME
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
        if [[ -z $best ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
    done
}

# --- lnav 0.11, headless. `lnav -n -c ':goto 100%' FILE`: -n runs without the curses UI; lnav
# first loads the file (opens it, detects its format, indexes every line to the end), then runs
# the -c commands; `:goto 100%` moves the top of the log view to the last line, and headless lnav
# then prints the view from its top line down, i.e. the last line, and exits. So the wall time is
# start-up + whole-file index + one screenful, and %M (max RSS) is lnav's whole process with the
# file indexed. The printed line is compared with the file's last line below: if lnav had
# stopped early it would print another line. HOME is a fresh folder so no session or config of
# this machine's user takes part.
lnav_home="$tmp/lnav-home"
lnav_best='' lnav_kb=0 lnav_all=()
for ((i = 0; i < runs; i++)); do
    rm -rf "$lnav_home" && mkdir -p "$lnav_home"
    HOME=$lnav_home XDG_CONFIG_HOME=$lnav_home/.config /usr/bin/time -f '%e %M' -o "$tmp/lnav.time" \
        lnav -n -c ':goto 100%' "$file" >"$tmp/lnav.out" 2>"$tmp/lnav.err" ||
        { echo "lnav failed:" >&2; cat "$tmp/lnav.err" >&2; exit 1; }
    read -r t kb <"$tmp/lnav.time"
    lnav_all+=("$t")
    got=$(tail -n 1 "$tmp/lnav.out" | plain)
    if [[ $got != "$last" ]]; then
        echo "lnav did not show the file's last line; it printed:" >&2
        head -c 600 "$tmp/lnav.out" >&2
        exit 1
    fi
    if [[ -z $lnav_best ]] || awk -v a="$t" -v b="$lnav_best" 'BEGIN { exit !(a < b) }'; then lnav_best=$t; fi
    if ((kb > lnav_kb)); then lnav_kb=$kb; fi
done
lnav_mb=$((lnav_kb / 1024))
# One more run, not timed, asks lnav how many lines its log view holds and where its top is:
# the whole file is indexed when it holds every line and the top is the last one.
read -r top height < <(HOME=$lnav_home XDG_CONFIG_HOME=$lnav_home/.config lnav -n -c ':goto 100%' \
    -c ";SELECT top, inner_height FROM lnav_views WHERE name = 'log'" "$file" 2>/dev/null |
    awk '$1 ~ /^[0-9]+$/ { print $1, $2; exit }')
if [[ ${height:-} != "$(field lines "$info")" || ${top:-} != $((height - 1)) ]]; then
    echo "lnav's log view holds ${height:-?} lines (top ${top:-?}), the file $(field lines "$info")" >&2
    exit 1
fi
echo "lnav -n -c ':goto 100%': index + last line best of $runs ${lnav_best} s, peak RSS $lnav_mb MB" \
    "(runs: ${lnav_all[*]} s; showed the last line; its log view holds all $height lines)"

# --- grep, in the C locale (its fastest: no multibyte decoding), counting matching lines.
best_of env LC_ALL=C grep -F -c "$fixed" "$file"
grep_f=$best grep_f_n=$count
best_of env LC_ALL=C grep -E -c "$regex" "$file"
grep_e=$best grep_e_n=$count
for n in "$grep_f_n" "$grep_e_n"; do
    [[ $n == "$markers" ]] || echo "WARNING: grep counted $n lines, the generator wrote $markers" >&2
done
echo "grep -F -c '$fixed': best of $runs ${grep_f} s, $grep_f_n lines;" \
    "grep -E -c '$regex': ${grep_e} s, $grep_e_n lines"

# --- ours.
o_index=- o_bpl=- o_rss=- o_fixed=- o_regex=- o_matches=-
if [[ -x $ours_bin ]]; then
    ours=$("$ours_bin" "$file" "$fixed" "$regex")
    echo "bench-log-index:"
    while IFS= read -r l; do echo "  $l"; done <<<"$ours"
    for k in index_s bytes_per_line rss_mb search_fixed_s search_regex_s matches; do
        v=$(field "$k" "$ours")
        [[ -n $v ]] || continue
        case $k in
        index_s) o_index=$v ;; bytes_per_line) o_bpl=$v ;; rss_mb) o_rss=$v ;;
        search_fixed_s) o_fixed=$v ;; search_regex_s) o_regex=$v ;; matches) o_matches=$v ;;
        esac
    done
    [[ $o_matches == - || $o_matches == "$markers" ]] ||
        echo "WARNING: bench-log-index reported $o_matches matches, the generator wrote $markers" >&2
else
    echo "bench-log-index not built"
fi

# --- follow: the rate a follower must keep up with.
rm -f "$follow"
writer=$("$gen" --append "$follow" 1000000)
echo "follow writer: $writer"
w_rate=$(field lines_per_s "$writer")
w_mbps=$(field MBps "$writer")

# Ours following the same writer: an offscreen LogView fed as the bytes come.
f_rate=- f_stall=-
follow_bin="$build/bench/bench-log-follow"
if [[ -x $follow_bin ]]; then
    followed=$(QT_QPA_PLATFORM=offscreen "$follow_bin" "$gen" 1000000 2>/dev/null)
    echo "bench-log-follow:"
    while IFS= read -r l; do echo "  $l"; done <<<"$followed"
    f_rate=$(field follow_lines_per_s "$followed")
    f_stall=$(field follow_longest_stall_ms "$followed")
else
    echo "bench-log-follow not built"
fi

ratio() {
    if [[ $1 == - ]]; then echo -; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; fi
}
echo
printf '%-40s %12s %12s %12s\n' measure ours lnav grep
printf '%-40s %12s %12s %12s\n' "index + show last line (s)" "$o_index" "$lnav_best" -
printf '%-40s %12s %12s %12s\n' "peak RSS, file open (MB)" "$o_rss" "$lnav_mb" -
printf '%-40s %12s %12s %12s\n' "line index (bytes/line)" "$o_bpl" - -
printf '%-40s %12s %12s %12s\n' "search -F $fixed (s)" "$o_fixed" - "$grep_f"
printf '%-40s %12s %12s %12s\n' "  ours/grep (goal <= 2.00x)" "$(ratio "$o_fixed" "$grep_f")" - -
printf '%-40s %12s %12s %12s\n' "search -E $regex (s)" "$o_regex" - "$grep_e"
printf '%-40s %12s %12s %12s\n' "  ours/grep (goal <= 2.00x)" "$(ratio "$o_regex" "$grep_e")" - -
printf '%-40s %12s %12s %12s\n' "matching lines (expected $markers)" "$o_matches" - "$grep_f_n"
printf '%-40s %12s %12s %12s\n' "follow 1 M lines (lines/s)" "$f_rate" - -
printf '%-40s %12s %12s %12s\n' "  longest GUI stall (goal < 50 ms)" "$f_stall" - -
[[ $o_fixed == - ]] || summary_within "log search -F, s" "$o_fixed" "$grep_f" 2 grep
[[ $o_regex == - ]] || summary_within "log search -E, s" "$o_regex" "$grep_e" 2 grep
[[ $o_index == - ]] || summary "log index + last line, s" "$o_index" "$lnav_best (lnav)" \
    "$(awk -v a="$o_index" -v b="$lnav_best" 'BEGIN { printf "%.2fx", a / b }')" - -
[[ $f_stall == - ]] || summary_below "log follow, longest GUI stall" "$f_stall" 50 ms
echo "follow input: 1000000 lines appended at $w_rate lines/s ($w_mbps MB/s) by one writer"
echo "file: $file, $size bytes, $(field lines "$info") lines; lnav $(lnav -V | head -n 1 | cut -d' ' -f2)"
