#pragma once

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace sbx {

// Runs AIO's startup hooks (RUN_HOOK_INIT, RUN_HOOK_PRE_SERVICES, RUN_HOOK_POST_READY) with
// /bin/sh -c in the workspace. Their output goes to the log with a prefix; a failing hook is
// logged with its exit code and never stops the server.
class StartupHooks final {
public:
    explicit StartupHooks(std::string workspace);
    ~StartupHooks();
    StartupHooks(const StartupHooks &) = delete;
    StartupHooks &operator=(const StartupHooks &) = delete;

    // RUN_HOOK_INIT then RUN_HOOK_PRE_SERVICES, blocking: they run before the listener opens.
    void runBeforeListen();
    // RUN_HOOK_POST_READY on its own thread; serverUrl reaches it as SANDBOX_SERVER_URL.
    void startPostReady(const std::string &serverUrl);
    // Ends a still running POST_READY hook (SIGTERM, then SIGKILL) and joins its thread.
    void stop();

private:
    void runHook(const char *variable, const std::vector<std::string> &extraEnvironment);

    const std::string m_workspace;
    std::atomic<bool> m_cancel{false};
    std::thread m_postReady;
};

} // namespace sbx
