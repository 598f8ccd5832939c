#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <spawn.h>
#include <string>
#include <string_view>
#include <vector>

// Child processes for probes and hooks, spawned with posix_spawn: stdin is /dev/null, stdout
// and stderr go to a pipe we read (never to our stdout), no descriptor of ours leaks into them.
namespace sbx {

struct ProcessSpec {
    std::vector<std::string> argv;
    // Empty: the server's current directory.
    std::string workingDirectory;
    // "NAME=value" entries added to (or replacing in) the server's environment.
    std::vector<std::string> extraEnvironment;
    // Zero: no limit. On expiry the process group gets SIGKILL, or SIGTERM first and SIGKILL
    // timeoutGrace later when that is set.
    std::chrono::milliseconds timeout{0};
    std::chrono::milliseconds timeoutGrace{0};
    // Checked a few times a second; when set, the group gets SIGTERM, then SIGKILL.
    // After a SIGTERM (timeout or cancel), members of the group that outlive the process (a
    // background child ignoring SIGTERM) get SIGKILL when the grace ends.
    const std::atomic<bool> *cancel = nullptr;
};

struct ProcessResult {
    bool started = false;
    // Exit status when the process exited normally.
    std::optional<int> exitCode;
    // Signal number when a signal ended it.
    int signal = 0;
    bool timedOut = false;
    bool cancelled = false;
    // Why it could not start.
    std::string error;
};

// Called with each complete output line (stdout and stderr interleaved), without the newline.
using LineSink = std::function<void(std::string_view)>;

ProcessResult runProcess(const ProcessSpec &spec, const LineSink &onLine);
// Runs and returns at most maxOutput bytes of the combined output.
ProcessResult runCaptured(const ProcessSpec &spec, std::string &output,
                          std::size_t maxOutput = 64 * 1024);
// posix_spawn attributes for a child of ours: default SIGPIPE/SIGTERM/SIGINT, no blocked
// signal, a process group of its own (so a kill reaches what it starts). Destroy them after.
void initChildAttributes(posix_spawnattr_t &attributes);
// The server's environment with these "NAME=value" entries added or replacing, for a child.
std::vector<std::string> environmentWith(const std::vector<std::string> &extra);
// The first executable called name on PATH, as a path.
std::optional<std::string> findExecutable(std::string_view name);

} // namespace sbx
