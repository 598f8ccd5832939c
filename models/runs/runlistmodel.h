#pragma once

#include <QAbstractTableModel>
#include <QList>

class QTimer;

namespace sbx {

class BashRun;

// The runs of one sandbox in this session, newest first: command, state, exit code, duration,
// start time. It owns the runs; durations of running ones tick once a second.
class RunListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { CommandColumn, StateColumn, DurationColumn, StartedColumn, ColumnCount };
    enum Role { RunRole = Qt::UserRole + 1, ActiveRole };

    explicit RunListModel(QObject *parent = nullptr);
    ~RunListModel() override;

    // Takes the run (not started) and puts it first.
    void add(BashRun *run);
    BashRun *run(int row) const;
    int rowOf(const BashRun *run) const;
    int activeCount() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "1.2 s", "3 min 4 s", "2 h 05 min".
    static QString formatDuration(qint64 ms);

private:
    void runChanged(BashRun *run);
    void tick();

    QList<BashRun *> m_runs;
    QTimer *m_ticker;
};

} // namespace sbx
