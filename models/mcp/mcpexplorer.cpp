#include "models/mcp/mcpexplorer.h"

#include "client/api/mcpjobs.h"
#include "client/sandboxclient.h"
#include "models/mcp/mcptoollistmodel.h"

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// A server that hands out the same cursor for ever must not keep the tab listing.
constexpr int kMaxPages = 50;

} // namespace

McpExplorer::McpExplorer(SandboxClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_tools(new McpToolListModel(this))
    , m_history(new McpHistoryModel(this)) {}

McpExplorer::~McpExplorer() {
    for (Job *job : {static_cast<Job *>(m_serversJob.data()), static_cast<Job *>(m_toolsJob.data()),
                     static_cast<Job *>(m_call.data())}) {
        if (job)
            job->abort();
    }
}

void McpExplorer::refreshServers() {
    if (!m_client || m_serversJob)
        return;
    m_serversState = State::Loading;
    Q_EMIT serversChanged();
    auto *job = new McpServersJob(m_client);
    m_serversJob = job;
    connect(job, &McpServersJob::succeeded, this, [this](const QStringList &servers) {
        m_servers = servers;
        m_serversError.clear();
        m_serversState = State::Ready;
        Q_EMIT serversChanged();
    });
    connect(job, &McpServersJob::failed, this, [this](const Status &status) {
        m_servers.clear();
        m_serversState = isNoMcpApi(status) ? State::NoMcpApi : State::Failed;
        m_serversError = status.message;
        Q_EMIT serversChanged();
    });
    job->start();
}

void McpExplorer::selectServer(const QString &server) {
    if (m_toolsJob)
        m_toolsJob->abort();
    m_server = server;
    m_tools->setTools({});
    m_toolsError.clear();
    m_toolsNote.clear();
    m_toolsState = server.isEmpty() ? State::Idle : State::Loading;
    Q_EMIT toolsChanged();
    if (!server.isEmpty())
        requestTools({}, 1);
}

void McpExplorer::requestTools(const QString &cursor, int page) {
    if (!m_client)
        return;
    auto *job = new McpToolsJob(m_client, m_server, cursor);
    m_toolsJob = job;
    const QString server = m_server;
    connect(job, &McpToolsJob::succeeded, this, [this, server, page](const McpToolList &list) {
        if (server != m_server)
            return;
        const int added = m_tools->appendTools(list.tools);
        // AIO gathers every page itself and answers nextCursor null; a server that pages is
        // followed while each page brings new tools.
        if (!list.nextCursor.isEmpty() && (added > 0 || page == 1) && page < kMaxPages)
            return requestTools(list.nextCursor, page + 1);
        if (!list.nextCursor.isEmpty())
            m_toolsNote = tr("The server has more tools than it listed: it pages, and the next "
                             "page brought nothing new.");
        m_toolsState = State::Ready;
        Q_EMIT toolsChanged();
    });
    connect(job, &McpToolsJob::failed, this, [this, server](const Status &status) {
        if (server != m_server)
            return;
        m_toolsState = State::Failed;
        m_toolsError = status.message;
        Q_EMIT toolsChanged();
    });
    job->start();
}

QList<FormProblem> McpExplorer::check(const McpTool &tool, const McpJson &arguments) {
    if (!arguments.is_object())
        return {{{}, tr("must be a JSON object of the tool's parameters")}};
    return validateArguments(tool.inputSchema, arguments);
}

bool McpExplorer::call(const QString &server, const QString &tool, const McpJson &arguments) {
    if (!m_client || m_call || server.isEmpty() || tool.isEmpty())
        return false;
    const quint64 id = m_history->add(server, tool, arguments);
    auto *job = new McpCallToolJob(m_client, server, tool, arguments);
    m_call = job;
    m_callId = id;
    connect(job, &McpCallToolJob::succeeded, this, [this, id, job](const McpCallResult &result) {
        m_history->finish(id, result.isError ? McpCall::Outcome::ToolError : McpCall::Outcome::Ok,
                          result, {}, job->elapsedMs());
        m_call = nullptr;
        Q_EMIT callFinished(id);
    });
    connect(job, &McpCallToolJob::failed, this, [this, id, job](const Status &status) {
        m_history->finish(id, McpCall::Outcome::Failed, {}, status.message, job->elapsedMs());
        m_call = nullptr;
        Q_EMIT callFinished(id);
    });
    job->start();
    Q_EMIT callStarted(id);
    return true;
}

void McpExplorer::cancel() {
    if (!m_call)
        return;
    McpCallToolJob *job = m_call;
    m_call = nullptr;
    job->abort();
    m_history->finish(m_callId, McpCall::Outcome::Cancelled, {}, {}, -1);
    Q_EMIT callFinished(m_callId);
}

QString McpExplorer::curlCommand(const McpCall &call) const {
    if (!m_client)
        return {};
    return mcpCurlCommand(*m_client, call.server, call.tool, call.arguments);
}

} // namespace sbx
