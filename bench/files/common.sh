# Sourced by the files benchmarks: sets build, server_bin and bench_bin for the benchmark named
# $2 in the build folder $1 (default build/), and stops with a reason when one is missing.
build=$(cd "${1:-build}" && pwd)
server_bin="$build/bin/sandbox-server"
bench_bin="$build/bench/$2"
for f in "$server_bin" "$bench_bin"; do
    [[ -x $f ]] || { echo "missing $f (build sandbox-server and $2)" >&2; exit 2; }
done
command -v curl >/dev/null || { echo "curl is not installed" >&2; exit 2; }
