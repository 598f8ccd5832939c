#include "models/runs/sessionlistmodel.h"

#include "client/api/bashjobs.h"
#include "client/api/shelljobs.h"
#include "models/runs/runlistmodel.h"

#include <QLocale>

namespace sbx {

using namespace Qt::StringLiterals;

SessionListModel::SessionListModel(QObject *parent)
    : QAbstractTableModel(parent) {}

void SessionListModel::setClient(SandboxClient *client) {
    m_client = client;
}

void SessionListModel::refresh() {
    if (!m_client || m_pending > 0)
        return;
    m_pending = 2;
    m_incoming.clear();
    m_errors.clear();
    auto *bash = new ListBashSessionsJob(m_client);
    connect(bash, &ListBashSessionsJob::succeeded, this,
            [this](const QList<BashSessionInfo> &list) {
                QList<Row> rows;
                for (const BashSessionInfo &s : list)
                    rows.append({u"bash"_s, s.id, s.currentCommand, s.currentCommandId,
                                 s.workingDir, s.createdAt, s.lastUsedAt});
                take(std::move(rows));
            });
    connect(bash, &ListBashSessionsJob::failed, this, [this](const Status &status) {
        // A sandbox without /v1/bash lists shell sessions only; that is no error.
        if (status.kind != Status::Kind::NotFound)
            m_errors << status.message;
        finishOne();
    });
    auto *shell = new ListShellSessionsJob(m_client);
    connect(shell, &ListShellSessionsJob::succeeded, this,
            [this](const QList<ShellSessionInfo> &list) {
                QList<Row> rows;
                for (const ShellSessionInfo &s : list)
                    rows.append({u"shell"_s,
                                 s.id,
                                 s.currentCommand,
                                 {},
                                 s.workingDir,
                                 s.createdAt,
                                 s.lastUsedAt});
                take(std::move(rows));
            });
    connect(shell, &ListShellSessionsJob::failed, this, [this](const Status &status) {
        m_errors << status.message;
        finishOne();
    });
    bash->start();
    shell->start();
}

void SessionListModel::take(QList<Row> rows) {
    m_incoming.append(std::move(rows));
    finishOne();
}

void SessionListModel::finishOne() {
    if (--m_pending > 0)
        return;
    m_error = m_errors.size() == 2 ? m_errors.join(u"; "_s) : QString();
    // Rows that stay are updated in place, so a selection survives the refresh.
    for (int i = static_cast<int>(m_rows.size()) - 1; i >= 0; --i) {
        const Row &old = m_rows.at(i);
        const bool kept = std::any_of(m_incoming.begin(), m_incoming.end(), [&](const Row &r) {
            return r.kind == old.kind && r.id == old.id;
        });
        if (!kept) {
            beginRemoveRows({}, i, i);
            m_rows.removeAt(i);
            endRemoveRows();
        }
    }
    for (const Row &r : std::as_const(m_incoming)) {
        auto it = std::find_if(m_rows.begin(), m_rows.end(), [&](const Row &old) {
            return old.kind == r.kind && old.id == r.id;
        });
        if (it != m_rows.end()) {
            *it = r;
            const int i = static_cast<int>(it - m_rows.begin());
            Q_EMIT dataChanged(index(i, 0), index(i, ColumnCount - 1));
        } else {
            const int i = static_cast<int>(m_rows.size());
            beginInsertRows({}, i, i);
            m_rows.append(r);
            endInsertRows();
        }
    }
    m_incoming.clear();
    Q_EMIT refreshed();
}

const SessionListModel::Row *SessionListModel::row(int index) const {
    return index >= 0 && index < m_rows.size() ? &m_rows.at(index) : nullptr;
}

int SessionListModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int SessionListModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SessionListModel::data(const QModelIndex &index, int role) const {
    const Row *r = row(index.row());
    if (!r || !index.isValid())
        return {};
    switch (role) {
    case KindRole:
        return r->kind;
    case IdRole:
        return r->id;
    case CommandIdRole:
        return r->commandId;
    case CommandRole:
        return r->command;
    case Qt::ToolTipRole:
        return r->command.isEmpty() ? r->id : r->command;
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const QDateTime now = QDateTime::currentDateTime();
    switch (index.column()) {
    case KindColumn:
        return r->kind;
    case CommandColumn:
        return r->command.isEmpty() ? tr("(idle)") : r->command;
    case FolderColumn:
        return r->folder;
    case AgeColumn:
        return r->createdAt.isValid() ? RunListModel::formatDuration(r->createdAt.msecsTo(now))
                                      : QString();
    case LastUseColumn:
        return r->lastUsedAt.isValid()
                   ? tr("%1 ago").arg(RunListModel::formatDuration(r->lastUsedAt.msecsTo(now)))
                   : QString();
    case IdColumn:
        return r->id;
    default:
        return {};
    }
}

QVariant SessionListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KindColumn:
        return tr("Kind");
    case CommandColumn:
        return tr("Current command");
    case FolderColumn:
        return tr("Folder");
    case AgeColumn:
        return tr("Age");
    case LastUseColumn:
        return tr("Last use");
    case IdColumn:
        return tr("Session");
    default:
        return {};
    }
}

} // namespace sbx
