#pragma once

#include "client/api/observejobs.h"

#include <QAbstractTableModel>
#include <QList>

namespace sbx {

// The sandbox's exported observe reports, newest first. Set as a whole after a list call (only
// on an action, never on a timer), and a row removed when its delete succeeds.
class ReportListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { CreatedColumn, SizeColumn, SessionColumn, ReasonColumn, ColumnCount };
    enum Role { IdRole = Qt::UserRole + 1 };

    explicit ReportListModel(QObject *parent = nullptr);

    void setReports(QList<ObserveReport> reports);
    void remove(const QString &id);
    const ObserveReport *report(int row) const;
    int rowOf(const QString &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<ObserveReport> m_rows;
};

} // namespace sbx
