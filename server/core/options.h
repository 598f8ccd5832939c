#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Command line of sandbox-server.
namespace sbx {

struct ServerOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;
    // Absolute once resolved by resolveDirectories().
    std::string workspace;
    std::string stateDir;
    // Shell sessions with no client attached and nothing but the shell running are ended
    // after this many seconds (--session-idle-timeout).
    unsigned sessionIdleTimeout = 24 * 60 * 60;
    // Seconds without a frame from a terminal client before the server pings it
    // (--ws-ping-interval).
    unsigned wsPingInterval = 30;
    // Seconds a finished /v1/bash command's output stays readable (--bash-retention).
    unsigned bashRetention = 3600;
    // Jupyter sessions unused this many seconds are shut down (--jupyter-idle-timeout).
    unsigned jupyterIdleTimeout = 30 * 60;
    // Jupyter sessions at most (--jupyter-max-sessions).
    unsigned jupyterMaxSessions = 16;
    // The Python interpreter (with ipykernel) for Jupyter kernels (--jupyter-python); empty:
    // Jupyter's kernelspecs, then python3 on PATH.
    std::string jupyterPython;
    // Open connections at most (--max-connections); 0: derived from RLIMIT_NOFILE at start.
    unsigned maxConnections = 0;
    // Seconds a new connection has to send its first request header (--header-timeout).
    unsigned headerTimeout = 15;
    // Only AIO's documented contract (--no-extensions): no extension is announced and the
    // behaviours behind them are off where a client could notice (Range on downloads). A peer
    // for clients' AIO-only paths.
    bool noExtensions = false;
    // Route groups not installed (--without): a peer standing in for an AIO server without them.
    std::vector<std::string> withoutGroups;
    // Where /v1/sandbox/observe takes its figures (--observe-source): "auto" (the cgroup only
    // when it is the sandbox's own), "cgroup" or "tree" (the server's process tree).
    std::string observeSource = "auto";
    bool verbose = false;
    bool help = false;
    bool version = false;
};

struct ParsedOptions {
    ServerOptions options;
    // Set when the command line is invalid; the text says what is wrong.
    std::optional<std::string> error;
};

ParsedOptions parseCommandLine(const std::vector<std::string> &args);
std::string helpText();
// Makes workspace and state dir absolute (defaults: current dir, <workspace>/.sandbox-server)
// and creates them. Returns an error text on failure.
std::optional<std::string> resolveDirectories(ServerOptions &options);

} // namespace sbx
