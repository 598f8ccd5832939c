#include "server/shell/execengine.h"

#include "server/core/bodyfields.h"
#include "server/shell/sessionregistry.h"
#include "server/shell/sessionwatch.h"
#include "server/shell/shellsession.h"
#include "server/shell/textutil.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <csignal>
#include <filesystem>

namespace sbx {

namespace {

namespace asio = boost::asio;
using nlohmann::json;

constexpr auto kReadyTimeout = std::chrono::seconds(30);
constexpr auto kDefaultWait = std::chrono::seconds(30);

std::string shellQuote(const std::string &text) {
    std::string quoted = "'";
    for (char c : text) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    return quoted + "'";
}

HttpResponse ok(std::string message, json data) {
    return envelopeResponse(200, true, std::move(message), std::move(data));
}

asio::awaitable<void> execFlow(std::shared_ptr<ShellSession> session, ExecRequest request,
                               Responder reply) {
    const TimePoint begin = SteadyClock::now();
    const ExecStart start = co_await beginExec(session, request);
    if (start.refusal) {
        reply(*start.refusal);
        co_return;
    }
    if (start.busy) {
        reply(ok(*start.busy,
                 execResult(*session, request.command, "running", false, request.truncate)));
        co_return;
    }
    Watch watch(*session);
    const std::uint64_t seq = start.seq;
    if (request.asyncMode) {
        reply(ok("Command started",
                 execResult(*session, request.command, "running", false, request.truncate)));
        co_return;
    }
    const TimePoint timeoutAt = after(begin, request.timeout);
    const TimePoint hardAt = after(begin, request.hardTimeout);
    const double noChange =
        request.noChangeTimeout.value_or(static_cast<double>(session->noChangeTimeout()));
    TimePoint killAt = TimePoint::max();
    bool interrupted = false;
    while (true) {
        CommandRecord &record = session->command();
        const bool mine = record.seq == seq;
        if (!mine || record.finished || session->ended() != SessionEnd::None) {
            const std::string status = interrupted ? "hard_timeout"
                                       : mine      ? record.status
                                                   : std::string("completed");
            reply(ok("Command " + status,
                     execResult(*session, request.command, status, mine, request.truncate)));
            co_return;
        }
        const TimePoint now = SteadyClock::now();
        if (!interrupted && now >= hardAt) {
            // What a user would press first; SIGKILL follows if it is ignored.
            interrupted = true;
            record.status = "hard_timeout";
            session->write("\x03");
            killAt = now + kKillGrace;
        } else if (interrupted && now >= killAt) {
            session->signalForeground(SIGKILL);
            reply(ok("Command hard_timeout", execResult(*session, request.command, "hard_timeout",
                                                        true, request.truncate)));
            co_return;
        }
        const TimePoint quietAt =
            after(record.lastOutputAt, noChange > 0 ? std::optional(noChange) : std::nullopt);
        if (!interrupted && now >= timeoutAt) {
            reply(ok("Command still running",
                     execResult(*session, request.command, "running", true, request.truncate)));
            co_return;
        }
        if (!interrupted && now >= quietAt) {
            reply(ok("No new output for " + std::to_string(static_cast<long long>(noChange)) +
                         " s; the command keeps running",
                     execResult(*session, request.command, "no_change_timeout", true,
                                request.truncate)));
            co_return;
        }
        TimePoint next = std::min({killAt, interrupted ? TimePoint::max() : timeoutAt,
                                   interrupted ? TimePoint::max() : quietAt,
                                   interrupted ? TimePoint::max() : hardAt});
        co_await watch.until(next);
    }
}

asio::awaitable<void> waitFlow(std::shared_ptr<ShellSession> session, WaitRequest request,
                               Responder reply) {
    Watch watch(*session);
    const TimePoint begin = SteadyClock::now();
    TimePoint deadline =
        std::min(after(begin, request.seconds), after(begin, request.maxWaitSeconds));
    if (!request.seconds && !request.maxWaitSeconds)
        deadline = begin + kDefaultWait;
    const std::uint64_t seq = session->command().seq;
    while (true) {
        const CommandRecord &record = session->command();
        const bool done =
            record.seq != seq || record.finished || session->ended() != SessionEnd::None;
        if (done || SteadyClock::now() >= deadline) {
            json data = json::object();
            data["status"] = done ? (record.seq == seq ? record.status : std::string("completed"))
                                  : std::string("running");
            reply(ok(done ? "Command finished" : "Still running", std::move(data)));
            co_return;
        }
        co_await watch.until(deadline);
    }
}

asio::awaitable<void> killFlow(std::shared_ptr<ShellSession> session, Responder reply) {
    Watch watch(*session);
    auto result = [&](const std::string &status, bool withCode) {
        const CommandRecord &record = session->command();
        json data = json::object();
        data["status"] = status;
        const json code =
            withCode && record.finished && record.exitCode ? json(*record.exitCode) : json(nullptr);
        data["exit_code"] = code;
        data["returncode"] = code;
        return data;
    };
    if (session->idle()) {
        reply(ok("Nothing is running", result(session->command().status, true)));
        co_return;
    }
    const std::uint64_t seq = session->command().seq;
    if (!session->command().finished)
        session->command().status = "terminated";
    // A builtin loop runs in the shell itself: interrupt it as a user would.
    if (!session->signalForeground(SIGTERM))
        session->write("\x03");
    const TimePoint begin = SteadyClock::now();
    bool killed = false;
    while (true) {
        const CommandRecord &record = session->command();
        const bool done =
            record.seq != seq || record.finished || session->ended() != SessionEnd::None;
        const TimePoint now = SteadyClock::now();
        if (done || now >= begin + 2 * kKillGrace) {
            reply(ok(done ? "Process terminated" : "Signals sent; the process has not ended yet",
                     result("terminated", done)));
            co_return;
        }
        if (!killed && now >= begin + kKillGrace) {
            killed = true;
            session->signalForeground(SIGKILL);
        }
        co_await watch.until(killed ? begin + 2 * kKillGrace : begin + kKillGrace);
    }
}

template <typename Flow> void spawn(std::shared_ptr<ShellSession> session, Flow flow) {
    asio::io_context &io = session->io();
    asio::co_spawn(io, std::move(flow), asio::detached);
}

} // namespace

json execResult(const ShellSession &session, const std::string &command, const std::string &status,
                bool withOutput, bool truncate) {
    const CommandRecord &record = session.command();
    json data = json::object();
    data["session_id"] = session.id();
    data["command"] = command;
    data["status"] = status;
    if (withOutput) {
        const std::string output = commandOutput(record.output, truncate);
        data["output"] = output;
        json entry = json::object();
        entry["ps1"] = record.ps1;
        entry["command"] = command;
        entry["output"] = output;
        data["console"] = json::array({entry});
    } else {
        data["output"] = nullptr;
        data["console"] = nullptr;
    }
    data["exit_code"] =
        status == "completed" && record.exitCode ? json(*record.exitCode) : json(nullptr);
    return data;
}

ExecTarget resolveExec(HttpRequest &request, SessionRegistry &sessions) {
    ExecTarget target;
    BodyFields body(request);
    ExecRequest &exec = target.request;
    const auto command = body.string("command", true);
    const auto id = body.string("id");
    const auto dir = body.string("exec_dir");
    const bool strict = body.boolean("strict").value_or(false);
    exec.asyncMode = body.boolean("async_mode").value_or(false);
    exec.timeout = body.number("timeout");
    exec.noChangeTimeout = body.number("no_change_timeout", true);
    exec.hardTimeout = body.number("hard_timeout");
    exec.truncate = body.boolean("truncate").value_or(true);
    body.boolean("preserve_symlinks");
    if (dir && !std::filesystem::path(*dir).is_absolute())
        body.fail({"body", "exec_dir"}, "value_error", "exec_dir must be an absolute path");
    if (!body.ok()) {
        target.refusal = body.refusal();
        return target;
    }
    exec.command = *command;
    if (dir) {
        std::error_code ec;
        if (std::filesystem::is_directory(*dir, ec))
            exec.execDir = dir;
        else if (strict) {
            target.refusal = errorResponse(400, "exec_dir does not exist: " + *dir);
            return target;
        }
    }
    if (id) {
        target.session = sessions.find(*id);
        if (!target.session)
            target.refusal = errorResponse(404, "Session " + *id + " not found");
    } else {
        CreateResult created = sessions.create(std::nullopt, std::nullopt);
        if (!created.session)
            target.refusal = errorResponse(created.status, created.error);
        target.session = std::move(created.session);
    }
    return target;
}

asio::awaitable<ExecStart> beginExec(std::shared_ptr<ShellSession> session,
                                     const ExecRequest &request) {
    ExecStart start;
    Watch watch(*session);
    // Typing before the startup files ran would echo the line twice and race the first prompt.
    const TimePoint readyBy = SteadyClock::now() + kReadyTimeout;
    while (!session->ready() && session->ended() == SessionEnd::None &&
           SteadyClock::now() < readyBy)
        co_await watch.until(readyBy);
    if (session->ended() != SessionEnd::None) {
        start.refusal = errorResponse(404, "Session " + session->id() + " ended");
        co_return start;
    }
    if (!session->ready()) {
        start.refusal = errorResponse(503, "The shell of session " + session->id() +
                                               " has shown no prompt yet; try again");
        co_return start;
    }
    if (!session->idle()) {
        const std::string holder = session->foregroundHolder();
        const CommandRecord &current = session->command();
        std::string what = !holder.empty() ? holder + " holds the terminal"
                           : current.command.empty()
                               ? std::string("a command typed in the terminal is running")
                               : "`" + current.command + "` is running";
        start.busy = "Not run: " + what +
                     ". Use /v1/shell/view, /v1/shell/wait, /v1/shell/write "
                     "or /v1/shell/kill on this session, or exec in another one";
        co_return start;
    }
    const std::string line = request.execDir
                                 ? "cd " + shellQuote(*request.execDir) + " && " + request.command
                                 : request.command;
    start.seq = session->typeCommand(request.command, line);
    co_return start;
}

std::string commandOutput(const std::string &output, bool truncate) {
    std::string text = output;
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    return truncate ? truncateChars(std::move(text), kTruncateChars) : text;
}

void startExec(std::shared_ptr<ShellSession> session, ExecRequest request, Responder reply) {
    auto flow = execFlow(session, std::move(request), std::move(reply));
    spawn(std::move(session), std::move(flow));
}

void startWait(std::shared_ptr<ShellSession> session, WaitRequest request, Responder reply) {
    auto flow = waitFlow(session, request, std::move(reply));
    spawn(std::move(session), std::move(flow));
}

void startKill(std::shared_ptr<ShellSession> session, Responder reply) {
    auto flow = killFlow(session, std::move(reply));
    spawn(std::move(session), std::move(flow));
}

json viewResult(const ShellSession &session) {
    const CommandRecord &record = session.command();
    json data = json::object();
    const std::string output = commandOutput(record.output, true);
    data["output"] = output;
    data["session_id"] = session.id();
    data["status"] = record.status;
    data["command"] = record.command.empty() ? json(nullptr) : json(record.command);
    data["exit_code"] = record.finished && record.exitCode ? json(*record.exitCode) : json(nullptr);
    if (record.seq > 0) {
        json entry = json::object();
        entry["ps1"] = record.ps1;
        entry["command"] = record.command;
        entry["output"] = output;
        data["console"] = json::array({entry});
    } else {
        data["console"] = nullptr;
    }
    return data;
}

} // namespace sbx
