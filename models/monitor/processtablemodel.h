#pragma once

#include "client/api/observejobs.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

namespace sbx {

// The sandbox's processes as the last live snapshot listed them. Rows keep their place by pid
// across refreshes (updated in place, new ones appended, gone ones removed), so a selection or a
// persistent index survives a poll. SortRole gives numbers for a QSortFilterProxyModel.
class ProcessTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        PidColumn,
        CommandColumn,
        UserColumn,
        RssColumn,
        CpuColumn,
        ThreadsColumn,
        FdsColumn,
        StateColumn,
        UptimeColumn,
        PpidColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, PidRole };

    explicit ProcessTableModel(QObject *parent = nullptr);

    void update(const QList<ObserveProcess> &processes);
    void clear();
    const ObserveProcess *process(int row) const;
    // -1 when the pid is not listed. O(1).
    int rowOfPid(qint64 pid) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void reindex();

    QList<ObserveProcess> m_rows;
    QHash<qint64, int> m_rowOfPid;
};

} // namespace sbx
