#include "models/monitor/reportlistmodel.h"

#include "models/monitor/monitorfigures.h"

#include <QLocale>

#include <algorithm>

namespace sbx {

ReportListModel::ReportListModel(QObject *parent)
    : QAbstractTableModel(parent) {}

void ReportListModel::setReports(QList<ObserveReport> reports) {
    std::stable_sort(
        reports.begin(), reports.end(),
        [](const ObserveReport &a, const ObserveReport &b) { return a.createdAt > b.createdAt; });
    beginResetModel();
    m_rows = std::move(reports);
    endResetModel();
}

void ReportListModel::remove(const QString &id) {
    const int row = rowOf(id);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
}

const ObserveReport *ReportListModel::report(int row) const {
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row) : nullptr;
}

int ReportListModel::rowOf(const QString &id) const {
    // O(n): a sandbox keeps a handful of reports.
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).id == id)
            return i;
    }
    return -1;
}

int ReportListModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ReportListModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReportListModel::data(const QModelIndex &index, int role) const {
    const ObserveReport *r = index.isValid() ? report(index.row()) : nullptr;
    if (!r)
        return {};
    if (role == IdRole)
        return r->id;
    if (role == Qt::ToolTipRole)
        return r->path.isEmpty() ? r->id : r->path;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case CreatedColumn:
        return QLocale().toString(r->createdAt.toLocalTime(), QLocale::ShortFormat);
    case SizeColumn:
        return MonitorFigures::size(r->sizeBytes);
    case SessionColumn:
        return r->sessionId.isEmpty() ? tr("(live snapshot)") : r->sessionId;
    case ReasonColumn:
        return r->reason;
    default:
        return {};
    }
}

QVariant ReportListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CreatedColumn:
        return tr("Created");
    case SizeColumn:
        return tr("Size");
    case SessionColumn:
        return tr("Session");
    case ReasonColumn:
        return tr("Reason");
    default:
        return {};
    }
}

} // namespace sbx
