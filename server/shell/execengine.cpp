#include "server/shell/execengine.h"

#include "server/shell/shellsession.h"
#include "server/shell/textutil.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <csignal>

namespace sbx {

namespace {

namespace asio = boost::asio;
using nlohmann::json;
using TimePoint = SteadyClock::time_point;

constexpr auto kReadyTimeout = std::chrono::seconds(30);
// After ^C (hard_timeout) or SIGTERM (kill), how long a program gets before SIGKILL.
constexpr auto kKillGrace = std::chrono::seconds(2);
constexpr auto kDefaultWait = std::chrono::seconds(30);

TimePoint after(TimePoint from, std::optional<double> seconds) {
    if (!seconds || *seconds < 0)
        return TimePoint::max();
    const double capped = std::min(*seconds, 1e7);
    return from +
           std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(capped));
}

// Registers a timer as the session's watcher for as long as a request waits.
class Watch final {
public:
    explicit Watch(ShellSession &session)
        : m_session(session)
        , m_timer(session.io()) {
        m_session.watch(&m_timer);
    }
    ~Watch() { m_session.unwatch(&m_timer); }
    Watch(const Watch &) = delete;
    Watch &operator=(const Watch &) = delete;

    // Until the session changes or the deadline passes.
    asio::awaitable<void> until(TimePoint deadline) {
        m_timer.expires_at(deadline);
        boost::system::error_code ec;
        co_await m_timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }

private:
    ShellSession &m_session;
    asio::steady_timer m_timer;
};

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

HttpResponse ok(std::string message, json data) {
    return envelopeResponse(200, true, std::move(message), std::move(data));
}

asio::awaitable<void> execFlow(std::shared_ptr<ShellSession> session, ExecRequest request,
                               Responder reply) {
    Watch watch(*session);
    const TimePoint begin = SteadyClock::now();
    // Typing before the startup files ran would echo the line twice and race the first prompt.
    const TimePoint readyBy = begin + kReadyTimeout;
    while (!session->ready() && session->ended() == SessionEnd::None &&
           SteadyClock::now() < readyBy)
        co_await watch.until(readyBy);
    if (session->ended() != SessionEnd::None) {
        reply(errorResponse(404, "Session " + session->id() + " ended"));
        co_return;
    }
    if (!session->ready()) {
        reply(errorResponse(503, "The shell of session " + session->id() +
                                     " has shown no prompt yet; try again"));
        co_return;
    }
    if (!session->idle()) {
        const std::string holder = session->foregroundHolder();
        const CommandRecord &current = session->command();
        std::string what = !holder.empty() ? holder + " holds the terminal"
                           : current.command.empty()
                               ? std::string("a command typed in the terminal is running")
                               : "`" + current.command + "` is running";
        reply(ok("Not run: " + what +
                     ". Use /v1/shell/view, /v1/shell/wait, /v1/shell/write "
                     "or /v1/shell/kill on this session, or exec in another one",
                 execResult(*session, request.command, "running", false, request.truncate)));
        co_return;
    }
    const std::string line = request.execDir
                                 ? "cd " + shellQuote(*request.execDir) + " && " + request.command
                                 : request.command;
    const std::uint64_t seq = session->typeCommand(request.command, line);
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
