#include "server/mcp/mcpconnection.h"

#include "server/core/activityevents.h"
#include "server/core/log.h"
#include "server/core/process.h"
#include "server/mcp/mcpprocess.h"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <unistd.h>

namespace sbx {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

// The newest revision we speak; a server answers with the one it chose, which we accept: the
// endpoints pass its tools and results through as they are.
constexpr const char *kProtocolVersion = "2025-11-25";
// Failures within this window count towards a crash loop.
constexpr auto kFailureWindow = std::chrono::seconds(60);
// Restarts are immediate up to this many failures in the window, then wait 1 s, 2 s, 4 s, ...
constexpr std::size_t kFreeRestarts = 2;
constexpr auto kMaxBackoff = std::chrono::seconds(60);
// tools/list pages gathered into one answer at most.
constexpr int kMaxPages = 100;
constexpr auto kStopGrace = std::chrono::seconds(2);
// initialize gets at least this long whatever the entry's timeout: a cold start (node loading
// its modules, npx fetching a package) is slower than any call should be.
constexpr auto kMinStartTimeout = std::chrono::milliseconds(30000);

std::string seconds(std::chrono::milliseconds ms) {
    return ms.count() % 1000 == 0 ? std::to_string(ms.count() / 1000) + " s"
                                  : std::to_string(ms.count()) + " ms";
}

} // namespace

HttpResponse failureResponse(const McpFailure &failure) {
    HttpResponse response = errorResponse(failure.status, failure.message);
    if (failure.retryAfter > 0)
        response.headers.emplace_back("Retry-After", std::to_string(failure.retryAfter));
    return response;
}

struct McpConnection::Gather {
    std::shared_ptr<McpProcess> process;
    json first;
    json tools = json::array();
    std::string cursor;
    std::set<std::string> cursors;
    int pages = 0;
    Listed done;
};

McpConnection::McpConnection(boost::asio::io_context &io, ActivityEvents &events,
                             McpServerSpec spec, std::string clientVersion)
    : m_io(io)
    , m_events(events)
    , m_spec(std::move(spec))
    , m_clientVersion(std::move(clientVersion)) {}

McpConnection::~McpConnection() = default;

std::string McpConnection::label() const {
    return "MCP server '" + m_spec.name + "'";
}

void McpConnection::whenReady(Ready then) {
    if (m_abandoned) {
        const McpFailure stopping{503, "the sandbox server is stopping"};
        return then(&stopping);
    }
    if (m_state == State::Ready)
        return then(nullptr);
    m_waiters.push_back(std::move(then));
    if (m_state == State::Starting)
        return;
    if (auto waiting = backoff()) {
        flushWaiters(&*waiting);
        return;
    }
    startProcess();
}

std::optional<McpFailure> McpConnection::backoff() {
    const auto now = Clock::now();
    while (!m_failures.empty() && now - m_failures.front() > kFailureWindow)
        m_failures.pop_front();
    if (m_failures.size() <= kFreeRestarts)
        return std::nullopt;
    const auto doublings = std::min<std::size_t>(m_failures.size() - kFreeRestarts - 1, 6);
    const auto delay =
        std::min<Clock::duration>(std::chrono::seconds(1) * (1 << doublings), kMaxBackoff);
    const auto next = m_failures.back() + delay;
    if (now >= next)
        return std::nullopt;
    const auto wait = std::chrono::duration_cast<std::chrono::seconds>(next - now).count() + 1;
    return McpFailure{503,
                      label() + " failed " + std::to_string(m_failures.size()) +
                          " times in the last minute (last: " + m_lastFailure +
                          "); it is started again on a request in " + std::to_string(wait) + " s",
                      static_cast<int>(wait)};
}

void McpConnection::recordFailure(const std::string &why) {
    m_failures.push_back(Clock::now());
    m_lastFailure = why;
    if (m_failures.size() == kFreeRestarts + 1) {
        log::warning("mcp " + m_spec.name + ": failed " + std::to_string(m_failures.size()) +
                     " times within a minute: further restarts wait (1 s, doubling to 60 s)");
        m_events.post("mcp_server_crash_loop",
                      label() + " failed " + std::to_string(m_failures.size()) +
                          " times within a minute; restarts back off",
                      {{"server", m_spec.name}, {"last_failure", why}});
    }
}

void McpConnection::flushWaiters(const McpFailure *failure) {
    auto waiters = std::move(m_waiters);
    m_waiters.clear();
    for (auto &waiter : waiters)
        waiter(failure);
}

void McpConnection::startProcess() {
    std::erase_if(m_stopping, [](const auto &process) { return process->ended(); });
    const auto fail = [this](const std::string &why) {
        log::warning("mcp " + m_spec.name + ": " + why);
        recordFailure(why);
        const McpFailure failure{503, "cannot start " + label() + ": " + why};
        flushWaiters(&failure);
    };
    std::optional<std::string> program;
    if (m_spec.command.find('/') == std::string::npos) {
        program = findExecutable(m_spec.command);
    } else {
        fs::path path(m_spec.command);
        if (path.is_relative())
            path = fs::path(m_spec.workingDirectory) / path;
        if (::access(path.c_str(), X_OK) == 0)
            program = path.string();
    }
    if (!program)
        return fail("'" + m_spec.command + "' is not an executable" +
                    (m_spec.command.find('/') == std::string::npos ? " found on PATH" : ""));
    McpLaunch launch;
    launch.name = m_spec.name;
    launch.program = *program;
    launch.argv.push_back(m_spec.command);
    launch.argv.insert(launch.argv.end(), m_spec.args.begin(), m_spec.args.end());
    // The server's environment has its secrets taken out already (server/core/secretenv).
    launch.environment = environmentWith(m_spec.environment);
    launch.workingDirectory = m_spec.workingDirectory;
    std::string error;
    auto process = McpProcess::start(m_io, std::move(launch), error);
    if (!process)
        return fail(error);
    m_process = process;
    m_state = State::Starting;
    m_toolsKnown = false;
    McpProcess *raw = process.get();
    const std::weak_ptr<McpConnection> weak = weak_from_this();
    process->setNotificationHandler([weak, raw](const std::string &method, const json &params) {
        const auto self = weak.lock();
        if (!self || self->m_process.get() != raw)
            return;
        if (method == "notifications/tools/list_changed")
            self->m_toolsKnown = false;
        else if (method == "notifications/message" && params.is_object())
            log::debug("mcp " + self->m_spec.name + " log: " +
                       params.value("data", json())
                           .dump(-1, ' ', false, json::error_handler_t::replace)
                           .substr(0, 500));
    });
    process->setExitHandler([weak, raw](const std::string &why) {
        if (const auto self = weak.lock())
            self->processEnded(raw, why);
    });
    json params = {{"protocolVersion", kProtocolVersion},
                   {"capabilities", json::object()},
                   {"clientInfo", {{"name", "sandbox-server"}, {"version", m_clientVersion}}}};
    process->request("initialize", std::move(params), std::max(m_spec.timeout, kMinStartTimeout),
                     [weak, raw](RpcOutcome outcome) {
                         if (const auto self = weak.lock())
                             self->initialized(raw, std::move(outcome));
                     });
}

void McpConnection::initialized(McpProcess *process, RpcOutcome outcome) {
    if (m_process.get() != process)
        return;
    if (outcome.kind == RpcOutcome::Kind::Result && outcome.value.is_object()) {
        log::info("mcp " + m_spec.name + ": ready (protocol " +
                  outcome.value.value("protocolVersion", std::string("?")) + ")");
        m_process->notify("notifications/initialized", nullptr);
        m_state = State::Ready;
        flushWaiters(nullptr);
        return;
    }
    std::string why = failureOf("initialize", outcome).message;
    if (outcome.kind == RpcOutcome::Kind::Result)
        why = "it answered initialize with a result that is not an object";
    // Whatever it answered, the server could not be started: 503, as for a spawn failure.
    const McpFailure failure{503, "cannot start " + label() + ": " + why};
    log::warning("mcp " + m_spec.name + ": " + failure.message);
    recordFailure(why);
    // Its exit handler must not count it again; the next request starts another one.
    m_stopping.push_back(std::move(m_process));
    m_stopping.back()->stop(kStopGrace);
    m_state = State::Idle;
    flushWaiters(&failure);
}

void McpConnection::processEnded(McpProcess *process, const std::string &why) {
    if (m_process.get() != process)
        return;
    m_stopping.push_back(std::move(m_process));
    m_state = State::Idle;
    m_toolsKnown = false;
    log::warning("mcp " + m_spec.name + ": " + why + "; the next request starts it again");
    m_events.post("mcp_server_exited", label() + " ended: " + why,
                  {{"server", m_spec.name}, {"pid", m_stopping.back()->pid()}});
    recordFailure(why);
}

// The text says what happened without naming the server; callers put that first.
McpFailure McpConnection::failureOf(const std::string &what, const RpcOutcome &outcome) const {
    switch (outcome.kind) {
    case RpcOutcome::Kind::Error: {
        const json &error = outcome.value;
        const int code = error.contains("code") && error["code"].is_number_integer()
                             ? error["code"].get<int>()
                             : 0;
        const std::string text = error.contains("message") && error["message"].is_string()
                                     ? error["message"].get<std::string>()
                                     : std::string("(no message)");
        // Invalid params is the caller's to fix; anything else is the MCP server's failure.
        return {code == -32602 ? 400 : 502, "it answered " + what + " with JSON-RPC error " +
                                                std::to_string(code) + ": " + text};
    }
    case RpcOutcome::Kind::Timeout:
        if (what == "initialize")
            return {504, "it gave " + outcome.message};
        return {504, "it gave " + outcome.message + " (\"timeout\" in its entry sets the bound, " +
                         seconds(m_spec.timeout) + " now)"};
    case RpcOutcome::Kind::Ended:
        return {502, "it ended before answering " + what + ": " + outcome.message};
    case RpcOutcome::Kind::Result:
        break;
    }
    return {502, "it answered " + what + " with something that is not a result"};
}

McpFailure McpConnection::requestFailure(const std::string &what, const RpcOutcome &outcome) const {
    McpFailure failure = failureOf(what, outcome);
    failure.message = label() + ": " + failure.message;
    if (outcome.kind == RpcOutcome::Kind::Ended)
        failure.message += "; the next request starts it again";
    return failure;
}

void McpConnection::listTools(Answer answer) {
    whenReady([self = shared_from_this(), answer = std::move(answer)](const McpFailure *failure) {
        if (failure)
            return answer(failureResponse(*failure));
        self->listAll([answer](const McpFailure *listFailure, json result) {
            if (listFailure)
                return answer(failureResponse(*listFailure));
            const std::size_t count = result["tools"].size();
            answer(
                envelopeResponse(200, true, std::to_string(count) + " tools", std::move(result)));
        });
    });
}

void McpConnection::listAll(Listed done) {
    if (!m_process) {
        const McpFailure failure{502, label() + " ended before tools/list could be sent"};
        return done(&failure, nullptr);
    }
    auto gather = std::make_shared<Gather>();
    gather->process = m_process;
    gather->done = std::move(done);
    nextPage(std::move(gather));
}

void McpConnection::nextPage(std::shared_ptr<Gather> gather) {
    json params = json::object();
    if (!gather->cursor.empty())
        params["cursor"] = gather->cursor;
    gather->process->request(
        "tools/list", std::move(params), m_spec.timeout,
        [self = shared_from_this(), gather](RpcOutcome outcome) {
            if (outcome.kind != RpcOutcome::Kind::Result) {
                const McpFailure failure = self->requestFailure("tools/list", outcome);
                return gather->done(&failure, nullptr);
            }
            json &result = outcome.value;
            if (!result.is_object() || !result.contains("tools") || !result["tools"].is_array()) {
                const McpFailure failure{502, self->label() +
                                                  " answered tools/list without a \"tools\" array"};
                return gather->done(&failure, nullptr);
            }
            for (json &tool : result["tools"])
                gather->tools.push_back(std::move(tool));
            const auto next = result.find("nextCursor");
            std::string cursor =
                next != result.end() && next->is_string() ? next->get<std::string>() : "";
            if (gather->pages++ == 0)
                gather->first = std::move(result);
            if (cursor.empty()) {
                json whole = std::move(gather->first);
                whole["tools"] = std::move(gather->tools);
                // Every page is in this answer: there is nothing left to ask for.
                whole["nextCursor"] = nullptr;
                if (self->m_process == gather->process)
                    self->knowTools(whole["tools"]);
                return gather->done(nullptr, std::move(whole));
            }
            if (gather->pages >= kMaxPages || !gather->cursors.insert(cursor).second) {
                const McpFailure failure{502, self->label() + " kept paging tools/list past " +
                                                  std::to_string(gather->pages) +
                                                  " pages (or repeated a cursor)"};
                return gather->done(&failure, nullptr);
            }
            gather->cursor = std::move(cursor);
            self->nextPage(gather);
        });
}

void McpConnection::knowTools(const json &tools) {
    m_tools.clear();
    for (const json &tool : tools) {
        if (tool.is_object() && tool.contains("name") && tool["name"].is_string())
            m_tools.insert(tool["name"].get<std::string>());
    }
    m_toolsKnown = true;
}

void McpConnection::callTool(std::string tool, json arguments, Answer answer) {
    whenReady([self = shared_from_this(), tool = std::move(tool), arguments = std::move(arguments),
               answer = std::move(answer)](const McpFailure *failure) mutable {
        if (failure)
            return answer(failureResponse(*failure));
        if (self->m_toolsKnown && self->m_tools.count(tool))
            return self->sendCall(tool, std::move(arguments), std::move(answer));
        // Unknown, or not known yet: ask, so that a missing tool is a 404 and not a call.
        self->listAll([self, tool, arguments = std::move(arguments),
                       answer = std::move(answer)](const McpFailure *listFailure, json) mutable {
            if (listFailure)
                return answer(failureResponse(*listFailure));
            if (!self->m_tools.count(tool)) {
                std::string names;
                for (const std::string &name : self->m_tools)
                    names += (names.empty() ? "" : ", ") + name;
                return answer(errorResponse(
                    404, self->label() + " has no tool '" + tool +
                             "' (its tools: " + (names.empty() ? "none" : names) + ")"));
            }
            self->sendCall(tool, std::move(arguments), std::move(answer));
        });
    });
}

void McpConnection::sendCall(const std::string &tool, json arguments, Answer answer) {
    if (!m_process)
        return answer(failureResponse({502, label() + " ended before the call could be sent"}));
    log::debug("mcp " + m_spec.name + ": tools/call '" + tool + "' sent");
    m_process->request(
        "tools/call", {{"name", tool}, {"arguments", std::move(arguments)}}, m_spec.timeout,
        [self = shared_from_this(), tool, answer = std::move(answer)](RpcOutcome outcome) {
            if (outcome.kind != RpcOutcome::Kind::Result)
                return answer(
                    failureResponse(self->requestFailure("tools/call '" + tool + "'", outcome)));
            json &result = outcome.value;
            if (!result.is_object())
                return answer(
                    failureResponse({502, self->label() + " answered tools/call '" + tool +
                                              "' with a result that is not an object"}));
            if (!result.contains("isError"))
                result["isError"] = false; // CallToolResult's default, written out as AIO does
            const bool isError = result["isError"] == true;
            answer(envelopeResponse(200, true,
                                    isError ? "Tool '" + tool + "' reported an error"
                                            : "Tool '" + tool + "' executed",
                                    std::move(result)));
        });
}

void McpConnection::abandon(const std::string &why) {
    m_abandoned = true;
    const McpFailure failure{503, why};
    flushWaiters(&failure);
    if (m_process)
        m_process->abandon(SIGTERM, why);
    for (const auto &process : m_stopping)
        process->abandon(SIGTERM, why);
}

void McpConnection::reap(std::chrono::steady_clock::time_point deadline) {
    if (m_process) {
        m_process->reap(deadline);
        m_process.reset();
    }
    for (const auto &process : m_stopping)
        process->reap(deadline);
    m_stopping.clear();
}

} // namespace sbx
