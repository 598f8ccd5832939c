#include "models/mcp/mcphistorymodel.h"

#include "client/sandboxclient.h"
#include "client/traffic/redaction.h"
#include "client/traffic/trafficexport.h"
#include "client/traffic/trafficrecorder.h"

#include <QLocale>

namespace sbx {

using namespace Qt::StringLiterals;

QString mcpCurlCommand(const SandboxClient &client, const QString &server, const QString &tool,
                       const McpJson &arguments) {
    const QList<QByteArray> secrets = client.trafficOrigin().secrets;
    TrafficEntry entry;
    entry.kind = TrafficKind::Http;
    entry.method = "POST";
    entry.url = Redaction::url(client.endpoint().resolve(mcpToolPath(server, tool)), secrets);
    entry.detailsKept = true;
    entry.requestHeaders.push_back({"Content-Type", "application/json"});
    if (!client.credentials().isEmpty()) {
        // The header is the mask; curlCommand writes it as the variable's name.
        if (client.credentials().kind == Credentials::Kind::ApiKey) {
            entry.auth = TrafficAuth::ApiKeyHeader;
            entry.requestHeaders.push_back({"X-AIO-API-Key", Redaction::mask()});
        } else {
            entry.auth = TrafficAuth::Bearer;
            entry.requestHeaders.push_back({"Authorization", "Bearer " + Redaction::mask()});
        }
    }
    const QByteArray body = Redaction::text(
        QByteArray::fromStdString((arguments.is_object() ? arguments : McpJson::object())
                                      .dump(-1, ' ', false, McpJson::error_handler_t::replace)),
        secrets);
    entry.request.kept = body;
    entry.request.size = body.size();
    entry.request.covered = body.size(); // the whole (redacted) body: curl sends it as it is
    entry.request.mimeType = "application/json";
    return curlCommand(entry);
}

McpHistoryModel::McpHistoryModel(QObject *parent)
    : QAbstractTableModel(parent) {}

quint64 McpHistoryModel::add(const QString &server, const QString &tool, const McpJson &arguments) {
    if (m_calls.size() >= kMaxCalls) {
        const int last = static_cast<int>(m_calls.size()) - 1;
        beginRemoveRows({}, last, last);
        m_calls.removeLast();
        endRemoveRows();
    }
    McpCall call;
    call.id = m_nextId++;
    call.server = server;
    call.tool = tool;
    call.arguments = arguments;
    call.at = QDateTime::currentDateTime();
    beginInsertRows({}, 0, 0);
    m_calls.prepend(std::move(call));
    endInsertRows();
    return m_calls.front().id;
}

void McpHistoryModel::finish(quint64 id, McpCall::Outcome outcome, const McpCallResult &result,
                             const QString &error, qint64 elapsedMs) {
    const int row = rowOf(id);
    if (row < 0)
        return;
    McpCall &call = m_calls[row];
    call.outcome = outcome;
    call.result = result;
    call.error = error;
    call.elapsedMs = elapsedMs;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

const McpCall *McpHistoryModel::call(int row) const {
    return row >= 0 && row < m_calls.size() ? &m_calls.at(row) : nullptr;
}

const McpCall *McpHistoryModel::callById(quint64 id) const {
    return call(rowOf(id));
}

int McpHistoryModel::rowOf(quint64 id) const {
    for (int row = 0; row < m_calls.size(); ++row) {
        if (m_calls.at(row).id == id)
            return row;
    }
    return -1;
}

QString McpHistoryModel::outcomeText(const McpCall &call) {
    switch (call.outcome) {
    case McpCall::Outcome::Running:
        return tr("running");
    case McpCall::Outcome::Ok:
        return tr("ok");
    case McpCall::Outcome::ToolError:
        return tr("tool error");
    case McpCall::Outcome::Failed:
        return tr("failed: %1").arg(call.error);
    case McpCall::Outcome::Cancelled:
        return tr("cancelled");
    }
    return {};
}

int McpHistoryModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_calls.size());
}

int McpHistoryModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant McpHistoryModel::data(const QModelIndex &index, int role) const {
    const McpCall *c = call(index.row());
    if (!c || !index.isValid())
        return {};
    if (role == IdRole)
        return c->id;
    if (role == Qt::ToolTipRole && index.column() == ToolColumn)
        return QString::fromStdString(
            c->arguments.dump(2, ' ', false, McpJson::error_handler_t::replace));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        return QLocale().toString(c->at.time(), QLocale::ShortFormat);
    case ToolColumn:
        return QString(c->server + u" / "_s + c->tool);
    case OutcomeColumn:
        return outcomeText(*c);
    case DurationColumn:
        return c->elapsedMs < 0 ? QString() : tr("%1 ms").arg(c->elapsedMs);
    default:
        return {};
    }
}

QVariant McpHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case ToolColumn:
        return tr("Tool");
    case OutcomeColumn:
        return tr("Outcome");
    case DurationColumn:
        return tr("Took");
    default:
        return {};
    }
}

} // namespace sbx
