# Sourced by the files benchmarks: sets build, server_bin and bench_bin for the benchmark named
# $2 in the build folder $1 (default build/), and stops with a reason when one is missing.
build=$(cd "${1:-build}" && pwd)
server_bin="$build/bin/sandbox-server"
bench_bin="$build/bench/$2"
for f in "$server_bin" "$bench_bin"; do
    [[ -x $f ]] || { echo "missing $f (build sandbox-server and $2)" >&2; exit 2; }
done
command -v curl >/dev/null || { echo "curl is not installed" >&2; exit 2; }

# make_workspace NAME: a throw-away folder $tmp with $ws in it, removed at exit together with
# the server started there (its pid in $server_pid).
make_workspace() {
    tmp=$(mktemp -d "/tmp/$1.XXXXXX")
    ws="$tmp/workspace"
    mkdir -p "$ws"
    server_pid=
    trap cleanup EXIT
}
cleanup() {
    [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$tmp"
}

# start_server [ARGS...]: sandbox-server on a free port in $ws; sets url and server_pid.
start_server() {
    : >"$tmp/server.out"
    "$server_bin" --host 127.0.0.1 --port 0 --workspace "$ws" "$@" >"$tmp/server.out" \
        2>>"$tmp/server.err" &
    server_pid=$!
    url=
    for _ in $(seq 100); do
        line=$(head -n 1 "$tmp/server.out")
        if [[ $line == "sandbox-server listening on http://"* ]]; then
            url=${line#sandbox-server listening on }
            return 0
        fi
        sleep 0.1
    done
    echo "sandbox-server did not start; stderr:" >&2
    cat "$tmp/server.err" >&2
    exit 1
}
