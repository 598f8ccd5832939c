#include "models/runs/runlistmodel.h"

#include "client/api/bashrun.h"

#include <QBrush>
#include <QColor>
#include <QLocale>
#include <QTimer>

namespace sbx {

using namespace Qt::StringLiterals;

RunListModel::RunListModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_ticker(new QTimer(this)) {
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, this, &RunListModel::tick);
}

RunListModel::~RunListModel() = default;

void RunListModel::add(BashRun *run) {
    run->setParent(this);
    beginInsertRows({}, 0, 0);
    m_runs.prepend(run);
    endInsertRows();
    connect(run, &BashRun::changed, this, [this, run] { runChanged(run); });
    m_ticker->start();
}

BashRun *RunListModel::run(int row) const {
    return row >= 0 && row < m_runs.size() ? m_runs.at(row) : nullptr;
}

int RunListModel::rowOf(const BashRun *run) const {
    return static_cast<int>(m_runs.indexOf(const_cast<BashRun *>(run)));
}

int RunListModel::activeCount() const {
    return static_cast<int>(
        std::count_if(m_runs.begin(), m_runs.end(), [](const BashRun *r) { return r->active(); }));
}

int RunListModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunListModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunListModel::data(const QModelIndex &index, int role) const {
    const BashRun *r = run(index.row());
    if (!r || !index.isValid())
        return {};
    if (role == RunRole)
        return QVariant::fromValue(const_cast<BashRun *>(r));
    if (role == ActiveRole)
        return r->active();
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case CommandColumn:
            return r->attached() ? tr("%1 (followed)").arg(r->state().command) : r->state().command;
        case StateColumn:
            return r->stateText();
        case DurationColumn:
            return r->startedAt().isValid() ? formatDuration(r->durationMs()) : QString();
        case StartedColumn:
            return QLocale().toString(r->startedAt().time(), QLocale::ShortFormat);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == StateColumn && !r->error().isEmpty())
        return r->error();
    if (role == Qt::ToolTipRole && index.column() == CommandColumn)
        return r->state().command;
    if (role == Qt::ForegroundRole && index.column() == StateColumn) {
        if (r->phase() == BashRun::Phase::Failed ||
            (r->phase() == BashRun::Phase::Finished && r->state().exitCode.value_or(0) != 0))
            return QBrush(QColor(0xc0, 0x30, 0x30));
    }
    return {};
}

QVariant RunListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CommandColumn:
        return tr("Command");
    case StateColumn:
        return tr("State");
    case DurationColumn:
        return tr("Duration");
    case StartedColumn:
        return tr("Started");
    default:
        return {};
    }
}

QString RunListModel::formatDuration(qint64 ms) {
    if (ms < 60'000)
        return tr("%1 s").arg(QLocale().toString(ms / 1000.0, 'f', 1));
    const qint64 s = ms / 1000;
    if (s < 3600)
        return tr("%1 min %2 s").arg(s / 60).arg(s % 60);
    return tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
}

void RunListModel::runChanged(BashRun *run) {
    const int row = rowOf(run);
    if (row >= 0)
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void RunListModel::tick() {
    bool any = false;
    for (int row = 0; row < m_runs.size(); ++row) {
        if (m_runs.at(row)->active()) {
            any = true;
            Q_EMIT dataChanged(index(row, DurationColumn), index(row, DurationColumn));
        }
    }
    if (!any)
        m_ticker->stop();
}

} // namespace sbx
