#pragma once

#include "server/jupyter/kernelspecs.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sbx {

class ActivityEvents;

struct KernelHubConfig {
    KernelSearch search;
    // A new session's kernel starts here unless the request names a cwd.
    std::string workspace;
    // Sessions unused this long are shut down (--jupyter-idle-timeout).
    std::chrono::seconds idleTimeout{30 * 60};
    // Sessions at most, dead ones included (--jupyter-max-sessions).
    std::size_t maxSessions = 16;
    // Output held per execution; past it outputs are dropped and counted.
    std::size_t maxOutputBytes = 16 * 1024 * 1024;
    // A kernel that has not answered kernel_info in this time is killed.
    std::chrono::seconds startTimeout{60};
};

struct JupyterExecuteCall {
    // Empty: a new session with a generated id.
    std::string sessionId;
    std::string code;
    std::chrono::milliseconds timeout{30'000};
    // Empty: the session's kernel, or the default one for a new session.
    std::string kernelName;
    // Absolute; empty: where the session's kernel already is (a new one: the workspace).
    std::string cwd;
};

struct JupyterExecuteResult {
    // Above 0 when the code did not run: the HTTP status of the refusal, message says why.
    int refusal = 0;
    // False when the kernel died under the code or the session was deleted: data still holds
    // the outputs so far.
    bool success = true;
    std::string message;
    std::string sessionId;
    std::string kernelName;
    // ok, error or timeout.
    std::string status;
    std::string msgId;
    std::optional<int> executionCount;
    nlohmann::json outputs = nlohmann::json::array();
    // The session's kernel had died and was started again for this code: its state is lost.
    bool kernelRestarted = false;
    bool sessionCreated = false;
};

struct JupyterSessionResult {
    int refusal = 0;
    std::string message;
    std::string sessionId;
    std::string kernelName;
    bool created = false;
};

struct JupyterSessionRow {
    std::string id;
    std::string kernelName;
    std::chrono::system_clock::time_point createdAt;
    std::chrono::system_clock::time_point lastUsed;
    // starting, idle, busy or dead.
    std::string state;
    std::string cwd;
    int pid = 0;
    int executions = 0;
    // Why the kernel died, when state is dead.
    std::string died;
};

// What an interrupt found: no such session, nothing running, or the running code interrupted.
struct JupyterInterruptResult {
    bool found = false;
    bool interrupted = false;
};

struct JupyterHubInfo {
    KernelCatalog catalog;
    std::size_t sessions = 0;
    std::chrono::seconds idleTimeout{0};
    std::size_t maxSessions = 0;
};

// Jupyter sessions, each an IPython kernel of its own speaking the Jupyter protocol over
// ZeroMQ (ipc sockets). One thread owns every kernel: it polls all their sockets, pidfds and
// output pipes at once, takes commands from a queue (woken through an eventfd) and hands each
// completion to `post`, which the caller points at its executor, so no I/O thread ever waits
// on a kernel. Executions of one session run one at a time, in order; sessions run in
// parallel. Every method may be called from any thread; each calls its `done` exactly once
// through `post` (not at all after stop()).
class KernelHub final {
public:
    using Post = std::function<void(std::function<void()>)>;

    KernelHub(KernelHubConfig config, Post post, ActivityEvents *events = nullptr);
    // Stops the hub if stop() was not called.
    ~KernelHub();
    KernelHub(const KernelHub &) = delete;
    KernelHub &operator=(const KernelHub &) = delete;

    void execute(JupyterExecuteCall call, std::function<void(JupyterExecuteResult)> done);
    // Starts a session's kernel and answers once it is ready (or could not start). An existing
    // session is answered at once.
    void createSession(std::string id, std::string kernelName, std::string cwd,
                       std::function<void(JupyterSessionResult)> done);
    void sessions(std::function<void(std::vector<JupyterSessionRow>)> done);
    void info(std::function<void(JupyterHubInfo)> done);
    // Shuts the session's kernel down; false when there is no such session.
    void deleteSession(std::string id, std::function<void(bool)> done);
    // How many sessions were deleted.
    void deleteAll(std::function<void(std::size_t)> done);
    // Interrupts the session's running code as a timeout does (SIGINT to the kernel's group, or
    // interrupt_request for `interrupt_mode: message`), without answering it: the execution
    // ends with the kernel's own KeyboardInterrupt error. Queued executions then run.
    void interrupt(std::string id, std::function<void(JupyterInterruptResult)> done);
    // Shuts every kernel down (shutdown_request, SIGKILL after a grace) and joins the thread.
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace sbx
