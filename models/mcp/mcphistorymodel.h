#pragma once

#include "client/api/mcpjobs.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>

namespace sbx {

class SandboxClient;

// One call of a tool made from the MCP tab, with what came of it.
struct McpCall {
    enum class Outcome { Running, Ok, ToolError, Failed, Cancelled };
    quint64 id = 0;
    QString server;
    QString tool;
    McpJson arguments = McpJson::object();
    QDateTime at; // local time it was sent
    Outcome outcome = Outcome::Running;
    QString error; // Failed: why, from Status
    qint64 elapsedMs = -1;
    McpCallResult result;
};

// "Copy as curl" for a call: the same POST, as a shell command. The credentials are the
// environment variables the traffic inspector's commands use ($SANDBOX_API_KEY for a key sent
// as X-AIO-API-Key, $SANDBOX_JWT for a Bearer token), never the client's secret, and secrets in
// the arguments (a field named token, password, ...) are masked as the inspector masks them.
QString mcpCurlCommand(const SandboxClient &client, const QString &server, const QString &tool,
                       const McpJson &arguments);

// The calls of this session, newest first, at most kMaxCalls (the oldest drop off). Never saved:
// arguments may hold secrets.
class McpHistoryModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, ToolColumn, OutcomeColumn, DurationColumn, ColumnCount };
    enum Role { IdRole = Qt::UserRole + 1 };
    static constexpr int kMaxCalls = 100;

    explicit McpHistoryModel(QObject *parent = nullptr);

    // Adds a running call at the top; its id.
    quint64 add(const QString &server, const QString &tool, const McpJson &arguments);
    void finish(quint64 id, McpCall::Outcome outcome, const McpCallResult &result,
                const QString &error, qint64 elapsedMs);
    const McpCall *call(int row) const;
    const McpCall *callById(quint64 id) const;
    int rowOf(quint64 id) const;
    static QString outcomeText(const McpCall &call);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<McpCall> m_calls; // newest first: a linear rowOf over at most kMaxCalls rows
    quint64 m_nextId = 1;
};

} // namespace sbx
