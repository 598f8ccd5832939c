#pragma once

// Asio 1.74 uses std::exchange without including <utility>.
#include <utility>

#include "server/core/router.h"

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace sbx {

class SessionRegistry;
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

// An exec request checked: the session to run in and what to run, or the answer refusing it
// (a FastAPI 422 for bad fields, 404 for an unknown session, 400 for a missing exec_dir with
// strict).
struct ExecTarget {
    std::shared_ptr<ShellSession> session;
    ExecRequest request;
    std::optional<HttpResponse> refusal;
};
// Reads a ShellExecRequest body (BodyPolicy::Fields); creates a session when it names none.
ExecTarget resolveExec(HttpRequest &request, SessionRegistry &sessions);

struct ExecStart {
    // The typed command's record (CommandRecord::seq); 0 when nothing was typed.
    std::uint64_t seq = 0;
    // Not typed: the session ended, or its shell never showed a prompt.
    std::optional<HttpResponse> refusal;
    // Not typed because a program or a command holds the session: the answer's message.
    std::optional<std::string> busy;
};
// Waits (bounded) for the session's first prompt, then types the command unless the session
// is busy. The first step of every exec, plain or streamed.
boost::asio::awaitable<ExecStart> beginExec(std::shared_ptr<ShellSession> session,
                                            const ExecRequest &request);

// exec, wait and kill on a session without blocking the I/O thread: each request is a
// coroutine sleeping on the session's change notifications and its own deadlines, and it
// answers through its Responder.
void startExec(std::shared_ptr<ShellSession> session, ExecRequest request, Responder reply);
void startWait(std::shared_ptr<ShellSession> session, WaitRequest request, Responder reply);
void startKill(std::shared_ptr<ShellSession> session, Responder reply);

// ShellCommandResult of the session's current command for an exec of command; output and
// console only withOutput.
nlohmann::json execResult(const ShellSession &session, const std::string &command,
                          const std::string &status, bool withOutput, bool truncate);
// ShellViewResult of the session's current or last command.
nlohmann::json viewResult(const ShellSession &session);
// A command's output as REST answers carry it: no trailing newlines, optionally truncated.
std::string commandOutput(const std::string &output, bool truncate);

} // namespace sbx
