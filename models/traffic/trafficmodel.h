#pragma once

#include <QAbstractTableModel>
#include <QPointer>

namespace sbx {

class TrafficRecorder;
struct TrafficEntry;

// The traffic inspector's list: the recorder's ring as rows, oldest first. Rows are inserted as
// entries are recorded, removed from the top as the ring drops them, and changed when an
// exchange finishes; the recorder owns the entries.
class TrafficModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Sandbox, Method, Path, Status, Duration, Sent, Received, ColumnCount };
    enum Role { SerialRole = Qt::UserRole + 1 };

    explicit TrafficModel(TrafficRecorder *recorder, QObject *parent = nullptr);
    ~TrafficModel() override;

    TrafficRecorder *recorder() const;
    // The entry of a row, null for an invalid one.
    const TrafficEntry *entry(int row) const;
    // The row of a recorded serial, -1 once it has left the ring. O(1).
    int rowOf(quint64 serial) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QPointer<TrafficRecorder> m_recorder;
};

} // namespace sbx
