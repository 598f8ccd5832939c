#pragma once

#include "server/core/http.h"
#include "server/mcp/mcpconfig.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace sbx {

class ActivityEvents;
class McpConnection;
class McpInstaller;

// The MCP servers behind /v1/mcp/*: the configuration, one McpConnection per usable entry,
// the installer of the default server, and their stop with the sandbox server. I/O thread
// only, except shutdown().
class McpHub final : public std::enable_shared_from_this<McpHub> {
public:
    using Answer = std::function<void(HttpResponse)>;

    McpHub(boost::asio::io_context &io, ActivityEvents &events, McpConfig config,
           std::string clientVersion);
    ~McpHub();
    McpHub(const McpHub &) = delete;
    McpHub &operator=(const McpHub &) = delete;

    // Offers a server that is installed with npm before its first start (the default).
    void addInstalled(McpServerSpec spec, std::string npm);
    // Watches SIGTERM/SIGINT, as the HTTP server does, to let go of the children at once.
    void start();

    HttpResponse servers(bool includeHidden) const;
    void listTools(const std::string &server, Answer answer);
    void callTool(const std::string &server, std::string tool, nlohmann::json arguments,
                  Answer answer);

    // A shutdown step, after the I/O loop ended: reaps every child (SIGKILL after 2 s) and
    // drops every Asio object while the I/O context still exists.
    void shutdown();

private:
    struct Entry {
        McpServerSpec spec;
        std::shared_ptr<McpConnection> connection;
        std::shared_ptr<McpInstaller> installer;
    };
    // Answers the request itself when the server cannot be used; else calls use.
    void withServer(const std::string &server, Answer answer,
                    std::function<void(McpConnection &, Answer)> use);
    void beginStop();

    boost::asio::io_context &m_io;
    ActivityEvents &m_events;
    std::vector<std::string> m_configErrors;
    std::string m_clientVersion;
    std::map<std::string, Entry> m_entries;
    std::unique_ptr<boost::asio::signal_set> m_signals;
    bool m_stopping = false;
};

} // namespace sbx
