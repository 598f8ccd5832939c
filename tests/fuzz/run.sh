#!/usr/bin/env bash
# Runs libFuzzer targets for a bounded time on a copy of their seed corpus.
#
#   run.sh all FUZZ_BUILD_DIR SECONDS        every target (`make fuzz`), then a summary
#   run.sh one BINARY SEED_DIR WORK_DIR SECONDS   one target (the ctest hook); exits 125, which
#                                           ctest reports as skipped, when BINARY is not built
#
# Findings (crash, leak, UB, timeout, out of memory) are written under the work folder's
# artifacts/ and make the run fail. Exit codes are set explicitly: libFuzzer's default for an
# error is 77, which must never be mistaken for a skip.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
skip_code=125

# run_one NAME BINARY SEED_DIR WORK_DIR SECONDS: prints one result line; 0 when nothing found.
run_one() {
    local name=$1 binary=$2 seeds=$3 work=$4 seconds=$5
    local corpus=$work/corpus/$name artifacts=$work/artifacts/$name log=$work/logs/$name.log
    mkdir -p "$corpus" "$artifacts" "$work/logs"
    cp "$seeds"/* "$corpus"/
    "$binary" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -error_exitcode=1 -timeout_exitcode=1 -artifact_prefix="$artifacts/" \
        -print_final_stats=1 >"$log" 2>&1
    local rc=$?
    local runs
    runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
    if [[ -z "$runs" ]]; then
        runs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$log" | tail -n 1)
    fi
    if ((rc == 0)); then
        printf '%-24s %10s executions in %ss, nothing found\n' "$name" "${runs:-?}" "$seconds"
        return 0
    fi
    local summary artifact
    summary=$(grep -m 1 -E '^SUMMARY:|^==[0-9]+== ?ERROR:|ERROR: libFuzzer|runtime error' "$log")
    artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
    printf '%-24s %10s executions, FOUND (exit %d): %s\n' "$name" "${runs:-?}" "$rc" \
        "${summary:-see $log}"
    [[ -n "$artifact" ]] && printf '%-24s input: %s\n' "" "$artifact"
    printf '%-24s log: %s\n' "" "$log"
    return 1
}

case "${1:-}" in
all)
    build=$2
    seconds=$3
    mapfile -t targets < <(sed -n 's/^set(SBX_FUZZ_TARGETS \(.*\))$/\1/p' "$here/targets.cmake" |
        tr ' ' '\n')
    failed=0
    echo "Fuzzing ${#targets[@]} targets for ${seconds}s each (logs in $build/logs)"
    for name in "${targets[@]}"; do
        run_one "$name" "$build/bin/fuzz_$name" "$here/corpus/$name" "$build" "$seconds" ||
            failed=1
    done
    exit $failed
    ;;
one)
    binary=$2
    name=$(basename "$binary")
    name=${name#fuzz_}
    if [[ ! -x "$binary" ]]; then
        echo "SKIPPED: $binary is not built (make fuzz builds the fuzz targets)"
        exit $skip_code
    fi
    # A fresh copy of the seeds each time, so that a test run takes the same bounded time.
    work=${4:?}
    rm -rf "${work:?}/corpus/$name" "${work:?}/artifacts/$name"
    run_one "$name" "$binary" "$3" "$work" "$5"
    ;;
*)
    echo "usage: $0 all FUZZ_BUILD_DIR SECONDS | one BINARY SEED_DIR WORK_DIR SECONDS" >&2
    exit 2
    ;;
esac
