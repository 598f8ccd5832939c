#pragma once

#include "server/core/http.h"
#include "server/mcp/mcpconfig.h"

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sbx {

class ActivityEvents;
class McpProcess;
struct RpcOutcome;

// Why a request for an MCP server cannot be answered, as the HTTP answer will say it.
struct McpFailure {
    int status = 503;
    std::string message;
    // Seconds for Retry-After; 0: none.
    int retryAfter = 0;
};

HttpResponse failureResponse(const McpFailure &failure);

// One configured MCP server: started on first use, initialized, restarted on the next request
// after it ended (a crash loop waits, with backoff, and says so), and its tool names cached so
// that an unknown tool is a 404 rather than a call. I/O thread only.
class McpConnection final : public std::enable_shared_from_this<McpConnection> {
public:
    using Answer = std::function<void(HttpResponse)>;

    McpConnection(boost::asio::io_context &io, ActivityEvents &events, McpServerSpec spec,
                  std::string clientVersion);
    ~McpConnection();
    McpConnection(const McpConnection &) = delete;
    McpConnection &operator=(const McpConnection &) = delete;

    const McpServerSpec &spec() const { return m_spec; }
    // Every page of tools/list as one ListToolsResult (nextCursor null).
    void listTools(Answer answer);
    // tools/call; a result with isError true is a successful answer.
    void callTool(std::string tool, nlohmann::json arguments, Answer answer);
    // The sandbox server stops: waiters are answered, the process gets SIGTERM.
    void abandon(const std::string &why);
    // After the I/O loop ended: waits for the process (SIGKILL past the deadline) and drops it.
    void reap(std::chrono::steady_clock::time_point deadline);

private:
    using Ready = std::function<void(const McpFailure *)>;
    using Listed = std::function<void(const McpFailure *, nlohmann::json)>;
    struct Gather;

    void whenReady(Ready then);
    void startProcess();
    void initialized(McpProcess *process, RpcOutcome outcome);
    void processEnded(McpProcess *process, const std::string &why);
    void flushWaiters(const McpFailure *failure);
    void recordFailure(const std::string &why);
    std::optional<McpFailure> backoff();
    void listAll(Listed done);
    void nextPage(std::shared_ptr<Gather> gather);
    void knowTools(const nlohmann::json &tools);
    void sendCall(const std::string &tool, nlohmann::json arguments, Answer answer);
    McpFailure failureOf(const std::string &what, const RpcOutcome &outcome) const;
    McpFailure requestFailure(const std::string &what, const RpcOutcome &outcome) const;
    std::string label() const;

    enum class State { Idle, Starting, Ready };

    boost::asio::io_context &m_io;
    ActivityEvents &m_events;
    McpServerSpec m_spec;
    std::string m_clientVersion;
    State m_state = State::Idle;
    std::shared_ptr<McpProcess> m_process;
    std::vector<Ready> m_waiters;
    // Start failures and crashes in the last minute, oldest first.
    std::deque<std::chrono::steady_clock::time_point> m_failures;
    std::string m_lastFailure;
    bool m_abandoned = false;
    // Tool names of the running process; unknown after notifications/tools/list_changed.
    std::set<std::string> m_tools;
    bool m_toolsKnown = false;
    // Processes being stopped (initialize failed) still to reap at shutdown.
    std::vector<std::shared_ptr<McpProcess>> m_stopping;
};

} // namespace sbx
