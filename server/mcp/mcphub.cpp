#include "server/mcp/mcphub.h"

#include "server/core/log.h"
#include "server/mcp/mcpconnection.h"
#include "server/mcp/mcpinstaller.h"

#include <csignal>

namespace sbx {

namespace {

constexpr auto kReapGrace = std::chrono::seconds(2);

template <typename Map> std::string joinedNames(const Map &entries) {
    std::string names;
    for (const auto &[name, entry] : entries)
        names += (names.empty() ? "" : ", ") + name;
    return names.empty() ? std::string("none") : names;
}

} // namespace

McpHub::McpHub(boost::asio::io_context &io, ActivityEvents &events, McpConfig config,
               std::string clientVersion)
    : m_io(io)
    , m_events(events)
    , m_configErrors(std::move(config.errors))
    , m_clientVersion(std::move(clientVersion)) {
    for (McpServerSpec &spec : config.servers) {
        Entry entry;
        if (spec.problem.empty())
            entry.connection =
                std::make_shared<McpConnection>(m_io, m_events, spec, m_clientVersion);
        entry.spec = std::move(spec);
        const std::string name = entry.spec.name;
        m_entries[name] = std::move(entry);
    }
}

McpHub::~McpHub() = default;

void McpHub::addInstalled(McpServerSpec spec, std::string npm) {
    Entry entry;
    entry.installer = std::make_shared<McpInstaller>(m_io, m_events, *spec.install, std::move(npm));
    entry.connection = std::make_shared<McpConnection>(m_io, m_events, spec, m_clientVersion);
    entry.spec = std::move(spec);
    const std::string name = entry.spec.name;
    m_entries[name] = std::move(entry);
}

void McpHub::start() {
    m_signals = std::make_unique<boost::asio::signal_set>(m_io, SIGTERM, SIGINT);
    m_signals->async_wait([weak = weak_from_this()](const boost::system::error_code &ec, int) {
        if (const auto self = weak.lock(); self && !ec)
            self->beginStop();
    });
}

HttpResponse McpHub::servers(bool includeHidden) const {
    if (!m_configErrors.empty())
        return errorResponse(500,
                             "the MCP configuration cannot be used: " + m_configErrors.front() +
                                 " (fix it and restart the sandbox server)");
    nlohmann::json names = nlohmann::json::array();
    for (const auto &[name, entry] : m_entries) {
        if (includeHidden || !entry.spec.hidden)
            names.push_back(name);
    }
    return envelopeResponse(200, true, "MCP servers", std::move(names));
}

void McpHub::withServer(const std::string &server, Answer answer,
                        std::function<void(McpConnection &, Answer)> use) {
    if (m_stopping)
        return answer(errorResponse(503, "the sandbox server is stopping"));
    const auto found = m_entries.find(server);
    if (found == m_entries.end()) {
        if (!m_configErrors.empty())
            return answer(errorResponse(500, "no MCP server named '" + server +
                                                 "' is usable: the MCP configuration cannot be "
                                                 "used: " +
                                                 m_configErrors.front()));
        return answer(errorResponse(404, "No MCP server named '" + server +
                                             "' (configured: " + joinedNames(m_entries) + ")"));
    }
    Entry &entry = found->second;
    if (!entry.connection)
        return answer(errorResponse(entry.spec.problemStatus, entry.spec.problem));
    if (!entry.installer)
        return use(*entry.connection, std::move(answer));
    entry.installer->ensure([connection = entry.connection, answer = std::move(answer),
                             use = std::move(use)](const McpFailure *failure) mutable {
        if (failure)
            return answer(failureResponse(*failure));
        use(*connection, std::move(answer));
    });
}

void McpHub::listTools(const std::string &server, Answer answer) {
    withServer(server, std::move(answer), [](McpConnection &connection, Answer reply) {
        connection.listTools(std::move(reply));
    });
}

void McpHub::callTool(const std::string &server, std::string tool, nlohmann::json arguments,
                      Answer answer) {
    withServer(server, std::move(answer),
               [tool = std::move(tool), arguments = std::move(arguments)](McpConnection &connection,
                                                                          Answer reply) mutable {
                   connection.callTool(std::move(tool), std::move(arguments), std::move(reply));
               });
}

void McpHub::beginStop() {
    if (m_stopping)
        return;
    m_stopping = true;
    for (auto &[name, entry] : m_entries) {
        if (entry.installer)
            entry.installer->abandon();
        if (entry.connection)
            entry.connection->abandon("the sandbox server is stopping");
    }
    if (m_signals) {
        boost::system::error_code ignored;
        m_signals->cancel(ignored);
    }
}

void McpHub::shutdown() {
    beginStop();
    const auto deadline = std::chrono::steady_clock::now() + kReapGrace;
    for (auto &[name, entry] : m_entries) {
        if (entry.installer)
            entry.installer->join();
        if (entry.connection)
            entry.connection->reap(deadline);
    }
    // Asio objects must go while their I/O context still exists; route handlers keep this hub.
    m_entries.clear();
    m_signals.reset();
}

} // namespace sbx
