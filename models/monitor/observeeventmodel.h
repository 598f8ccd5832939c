#pragma once

#include "client/api/observejobs.h"

#include <QAbstractTableModel>
#include <QList>
#include <QSet>

namespace sbx {

// The sandbox's recent events (OOM kills, sessions, ...), newest first. Each live poll repeats
// the server's newest 50; only those not seen before are inserted, at the top. Bounded.
class ObserveEventModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, TypeColumn, MessageColumn, ColumnCount };
    enum Role { TypeRole = Qt::UserRole + 1, TimeRole };

    static constexpr int kMaxEvents = 500;

    explicit ObserveEventModel(QObject *parent = nullptr);

    // Events in any order; returns how many were new.
    int add(const QList<ObserveEvent> &events);
    void clear();
    const ObserveEvent *event(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    static QString keyOf(const ObserveEvent &event);

    QList<ObserveEvent> m_rows; // newest first
    QSet<QString> m_keys;
};

} // namespace sbx
