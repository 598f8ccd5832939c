#pragma once

#include "server/core/router.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace sbx {

class ShellSession;

inline constexpr std::size_t kTruncateChars = 30000;

struct ExecRequest {
    std::string command;
    // Absolute; checked by the caller. The command line becomes `cd DIR && COMMAND`.
    std::optional<std::string> execDir;
    bool asyncMode = false;
    std::optional<double> timeout;
    std::optional<double> noChangeTimeout;
    std::optional<double> hardTimeout;
    bool truncate = true;
};

struct WaitRequest {
    std::optional<double> seconds;
    std::optional<double> maxWaitSeconds;
};

// exec, wait and kill on a session without blocking the I/O thread: each request is a
// coroutine sleeping on the session's change notifications and its own deadlines, and it
// answers through its Responder.
void startExec(std::shared_ptr<ShellSession> session, ExecRequest request, Responder reply);
void startWait(std::shared_ptr<ShellSession> session, WaitRequest request, Responder reply);
void startKill(std::shared_ptr<ShellSession> session, Responder reply);

// ShellViewResult of the session's current or last command.
nlohmann::json viewResult(const ShellSession &session);
// A command's output as REST answers carry it: no trailing newlines, optionally truncated.
std::string commandOutput(const std::string &output, bool truncate);

} // namespace sbx
