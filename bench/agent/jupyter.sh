#!/usr/bin/env bash
# The round trip of `1+1` through POST /v1/jupyter/execute over HTTP (keep-alive, one session),
# median and p99 over N runs, beside the peer: jupyter_client's own execute-and-wait
# (KernelManager + BlockingKernelClient.execute_interactive) against the same kernelspec in the
# same run, the three taken in turns. All wait for the execute_reply and the kernel's idle
# status. With bench-code-roundtrip built, the console's own path is a contender too: a notebook
# cell `1+1` through NotebookRunner, NotebookModel and JupyterExecuteJob (no widget), timed inside
# that program from run() to the cell's end.
# Usage: bench/agent/jupyter.sh [build-dir] [runs]
set -euo pipefail
build=${1:-build}
runs=${2:-200}
server="$build/bin/sandbox-server"
[[ -x "$server" ]] || { echo "no $server: build the sandbox-server target first" >&2; exit 1; }

# An interpreter with jupyter_client (the peer); Debian's python3 when PATH's has none (pyenv).
peer=
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import jupyter_client, ipykernel' 2>/dev/null; then
    peer=$candidate
    break
  fi
done
[[ -n "$peer" ]] || { echo "no python3 with jupyter_client and ipykernel (apt install python3-jupyter-client python3-ipykernel)" >&2; exit 1; }

work=$(mktemp -d)
pid=
cleanup() {
  [[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/home"
HOME="$work/home" "$server" --workspace "$work/ws" >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 300); do
  grep -q listening "$work/out" 2>/dev/null && break
  sleep 0.1
done
url=$(sed -n 's/.*listening on //p' "$work/out")
[[ -n "$url" ]] || { echo "the server did not start" >&2; cat "$work/err" >&2; exit 1; }

# PYDEVD_DISABLE_FILE_VALIDATION: the peer's kernels start as quietly as the server's do.
console="$build/bench/bench-code-roundtrip"
[[ -x "$console" ]] || { echo "(no $console: build bench-code-roundtrip for the console's figure)" >&2; console=; }
HOME="$work/home" PYDEVD_DISABLE_FILE_VALIDATION=1 "$peer" - "$url" "$runs" "$console" <<'PY'
import http.client, json, os, statistics, subprocess, sys, tempfile, time, urllib.parse
from jupyter_client import KernelManager

url, runs, console = sys.argv[1], int(sys.argv[2]), sys.argv[3]
warmup = 20

def figures(name, samples):
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(round(0.99 * (len(samples) - 1))))]
    print(f"{name:<50} median {statistics.median(samples) * 1000:7.2f} ms   "
          f"p99 {p99 * 1000:7.2f} ms   ({len(samples)} runs)")

# Ours: one keep-alive connection, one session (created first, so that its start is not timed).
target = urllib.parse.urlparse(url)
connection = http.client.HTTPConnection(target.hostname, target.port)
def post(path, body):
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    answer = json.loads(connection.getresponse().read())
    if not answer.get("success"):
        raise SystemExit(f"{path}: {answer.get('message')}")
    return answer["data"]
post("/v1/jupyter/sessions/create", {"session_id": "bench"})
def info():
    connection.request("GET", "/v1/jupyter/info")
    json.loads(connection.getresponse().read())
def ours():
    data = post("/v1/jupyter/execute", {"code": "1+1", "session_id": "bench"})
    if data["status"] != "ok" or data["outputs"][-1]["data"]["text/plain"] != "2":
        raise SystemExit(f"unexpected answer: {data}")

# The peer: jupyter_client in-process, on the same kernelspec (python3): on its default tcp
# transport, and on ipc as sandbox-server uses.
managers = []
def peer(transport):
    options = {"transport": "ipc", "ip": tempfile.mkdtemp() + "/k"} if transport == "ipc" else {}
    manager = KernelManager(kernel_name="python3", **options)
    manager.start_kernel()
    managers.append(manager)
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    def execute():
        reply = client.execute_interactive("1+1", output_hook=lambda message: None, timeout=30)
        if reply["content"]["status"] != "ok":
            raise SystemExit(f"unexpected reply: {reply['content']}")
    return execute

# The console: its program runs one cell per line it reads and says how long it took (its own
# clock, so the pipe is not counted). Its first run starts its kernel session, in the warm-up.
timed = {}
if console:
    program = subprocess.Popen([console, url, "--serve"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, bufsize=1)
    def console_run():
        program.stdin.write("run\n")
        program.stdin.flush()
        ms = float(program.stdout.readline() or -1)
        if ms < 0:
            raise SystemExit("the console's cell did not answer 2")
        return ms / 1000
    timed["console, NotebookRunner + JupyterExecuteJob:"] = console_run

# Taken in turns, one of each per round, so that the machine's load (other jobs) weighs on all
# of them alike.
contenders = [("sandbox-server, POST /v1/jupyter/execute:", ours),
              ("peer, jupyter_client execute_interactive (tcp):", peer("tcp")),
              ("peer, jupyter_client execute_interactive (ipc):", peer("ipc")),
              # What the server adds: HTTP and a hop through the kernel thread, no kernel.
              ("sandbox-server, GET /v1/jupyter/info:", info)]
contenders[1:1] = list(timed.items())
samples = {name: [] for name, _ in contenders}
for i in range(warmup + runs):
    for name, run in contenders:
        start = time.perf_counter()
        measured = run()
        elapsed = measured if name in timed else time.perf_counter() - start
        if i >= warmup:
            samples[name].append(elapsed)
for name, _ in contenders:
    figures(name, samples[name])
# Rows of make bench's table (bench/lib/summary.sh): the console's path beside the faster peer.
def ms(name, q):
    values = sorted(samples[name])
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] * 1000
mine = next(iter(timed), contenders[0][0])
peer_name = "peer, jupyter_client execute_interactive (ipc):"
for label, q in (("median", 0.5), ("p99", 0.99)):
    print(f"@summary\tcell 1+1 round trip {label}, ms\t{ms(mine, q):.2f}\t"
          f"{ms(peer_name, q):.2f} (jupyter_client)\t{ms(mine, q) / ms(peer_name, q):.2f}x\t-\t-")
for manager in managers:
    manager.shutdown_kernel(now=True)
if console:
    program.stdin.close()
    program.wait()
sys.stdout.flush()
# jupyter_client's destructors log during interpreter shutdown and fail there.
os._exit(0)
PY
