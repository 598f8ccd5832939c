#pragma once

#include "models/mcp/jsonschema.h"
#include "models/mcp/mcphistorymodel.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

namespace sbx {

class McpCallToolJob;
class McpServersJob;
class McpToolListModel;
class McpToolsJob;
class SandboxClient;

// What the MCP tab works with, without a window: the sandbox's MCP servers, the tools of the
// chosen one (every page the server hands out), calls with their history, and "copy as curl".
// One call at a time; the tab asks before a destructive one (needsConfirmation), this does not.
class McpExplorer final : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Loading, Ready, Failed, NoMcpApi };

    explicit McpExplorer(SandboxClient *client, QObject *parent = nullptr);
    ~McpExplorer() override;

    void refreshServers();
    State serversState() const { return m_serversState; }
    const QStringList &servers() const { return m_servers; }
    QString serversError() const { return m_serversError; }

    // Lists the server's tools (it starts on first use, which may take a while).
    void selectServer(const QString &server);
    QString currentServer() const { return m_server; }
    State toolsState() const { return m_toolsState; }
    QString toolsError() const { return m_toolsError; }
    // Set when the server said it had more pages than it handed out.
    QString toolsNote() const { return m_toolsNote; }
    McpToolListModel *tools() const { return m_tools; }

    // The problems that keep these arguments from being sent to the tool (its schema's).
    static QList<FormProblem> check(const McpTool &tool, const McpJson &arguments);
    // Sends the call; its entry is the first of history(). False while one runs.
    bool call(const QString &server, const QString &tool, const McpJson &arguments);
    bool calling() const { return m_call != nullptr; }
    quint64 runningCall() const { return m_callId; }
    void cancel();
    McpHistoryModel *history() const { return m_history; }
    QString curlCommand(const McpCall &call) const;

Q_SIGNALS:
    void serversChanged();
    void toolsChanged();
    void callStarted(quint64 id);
    void callFinished(quint64 id);

private:
    void requestTools(const QString &cursor, int page);

    QPointer<SandboxClient> m_client;
    McpToolListModel *m_tools;
    McpHistoryModel *m_history;
    QStringList m_servers;
    State m_serversState = State::Idle;
    QString m_serversError;
    QString m_server;
    State m_toolsState = State::Idle;
    QString m_toolsError;
    QString m_toolsNote;
    QPointer<McpServersJob> m_serversJob;
    QPointer<McpToolsJob> m_toolsJob;
    QPointer<McpCallToolJob> m_call;
    quint64 m_callId = 0;
};

} // namespace sbx
