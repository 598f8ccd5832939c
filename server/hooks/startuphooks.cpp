#include "server/hooks/startuphooks.h"

#include "server/core/log.h"
#include "server/core/process.h"

#include <chrono>
#include <cstdlib>

namespace sbx {

StartupHooks::StartupHooks(std::string workspace)
    : m_workspace(std::move(workspace)) {}

StartupHooks::~StartupHooks() {
    stop();
}

void StartupHooks::runBeforeListen() {
    runHook("RUN_HOOK_INIT", {});
    runHook("RUN_HOOK_PRE_SERVICES", {});
}

void StartupHooks::startPostReady(const std::string &serverUrl) {
    const char *command = std::getenv("RUN_HOOK_POST_READY");
    if (!command || !*command || m_postReady.joinable())
        return;
    m_postReady = std::thread(
        [this, serverUrl] { runHook("RUN_HOOK_POST_READY", {"SANDBOX_SERVER_URL=" + serverUrl}); });
}

void StartupHooks::stop() {
    m_cancel = true;
    if (m_postReady.joinable())
        m_postReady.join();
}

void StartupHooks::runHook(const char *variable, const std::vector<std::string> &extraEnvironment) {
    const char *command = std::getenv(variable);
    if (!command || !*command)
        return;
    // The command itself is not logged: docs advise against secrets in hooks, people do it anyway.
    log::info(std::string(variable) + ": starting");
    const auto started = std::chrono::steady_clock::now();
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", command};
    spec.workingDirectory = m_workspace;
    spec.extraEnvironment = extraEnvironment;
    spec.cancel = &m_cancel;
    const std::string prefix = std::string("[") + variable + "] ";
    const ProcessResult result = runProcess(
        spec, [&prefix](std::string_view line) { log::info(prefix + std::string(line)); });
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - started)
                        .count();
    const std::string took = " (" + std::to_string(ms) + " ms)";
    if (!result.started)
        log::error(std::string(variable) + ": could not start: " + result.error);
    else if (result.cancelled)
        log::warning(std::string(variable) + ": stopped because the server is stopping" + took);
    else if (result.exitCode == 0)
        log::info(std::string(variable) + ": finished with exit code 0" + took);
    else if (result.exitCode)
        log::error(std::string(variable) + ": failed with exit code " +
                   std::to_string(*result.exitCode) + took + "; the server goes on");
    else
        log::error(std::string(variable) + ": killed by signal " + std::to_string(result.signal) +
                   took + "; the server goes on");
}

} // namespace sbx
