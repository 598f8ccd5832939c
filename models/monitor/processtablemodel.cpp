#include "models/monitor/processtablemodel.h"

#include <QLocale>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

bool sameRow(const ObserveProcess &a, const ObserveProcess &b) {
    return a.user == b.user && a.comm == b.comm && a.rssBytes == b.rssBytes &&
           a.cpuPct == b.cpuPct && a.threads == b.threads && a.fds == b.fds && a.state == b.state &&
           a.uptimeSec == b.uptimeSec && a.ppid == b.ppid;
}

QString uptimeText(double seconds) {
    const qint64 s = static_cast<qint64>(seconds);
    if (s < 60)
        return ProcessTableModel::tr("%1 s").arg(s);
    if (s < 3600)
        return ProcessTableModel::tr("%1 min %2 s").arg(s / 60).arg(s % 60);
    return ProcessTableModel::tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
}

} // namespace

ProcessTableModel::ProcessTableModel(QObject *parent)
    : QAbstractTableModel(parent) {}

void ProcessTableModel::update(const QList<ObserveProcess> &processes) {
    QHash<qint64, const ObserveProcess *> incoming;
    incoming.reserve(processes.size());
    for (const ObserveProcess &p : processes)
        incoming.insert(p.pid, &p);
    // Gone rows first, in runs from the bottom, so one removal signal covers a run.
    for (int i = static_cast<int>(m_rows.size()) - 1; i >= 0;) {
        if (incoming.contains(m_rows.at(i).pid)) {
            --i;
            continue;
        }
        int first = i;
        while (first > 0 && !incoming.contains(m_rows.at(first - 1).pid))
            --first;
        beginRemoveRows({}, first, i);
        m_rows.remove(first, i - first + 1);
        endRemoveRows();
        i = first - 1;
    }
    reindex();
    QList<const ObserveProcess *> added;
    for (const ObserveProcess &p : processes) {
        const int row = m_rowOfPid.value(p.pid, -1);
        if (row < 0) {
            added.append(&p);
        } else if (!sameRow(m_rows.at(row), p)) {
            m_rows[row] = p;
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        }
    }
    if (added.isEmpty())
        return;
    const int first = static_cast<int>(m_rows.size());
    beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
    for (const ObserveProcess *p : std::as_const(added)) {
        m_rowOfPid.insert(p->pid, static_cast<int>(m_rows.size()));
        m_rows.append(*p);
    }
    endInsertRows();
}

void ProcessTableModel::clear() {
    if (m_rows.isEmpty())
        return;
    beginRemoveRows({}, 0, static_cast<int>(m_rows.size()) - 1);
    m_rows.clear();
    m_rowOfPid.clear();
    endRemoveRows();
}

void ProcessTableModel::reindex() {
    m_rowOfPid.clear();
    for (int i = 0; i < m_rows.size(); ++i)
        m_rowOfPid.insert(m_rows.at(i).pid, i);
}

const ObserveProcess *ProcessTableModel::process(int row) const {
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row) : nullptr;
}

int ProcessTableModel::rowOfPid(qint64 pid) const {
    return m_rowOfPid.value(pid, -1);
}

int ProcessTableModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ProcessTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProcessTableModel::data(const QModelIndex &index, int role) const {
    const ObserveProcess *p = index.isValid() ? process(index.row()) : nullptr;
    if (!p)
        return {};
    if (role == PidRole)
        return p->pid;
    if (role == Qt::TextAlignmentRole)
        return index.column() == CommandColumn || index.column() == UserColumn
                   ? QVariant()
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        // Unknown figures sort below every known one.
        switch (index.column()) {
        case PidColumn:
            return p->pid;
        case CommandColumn:
            return p->comm;
        case UserColumn:
            return p->user;
        case RssColumn:
            return p->rssBytes;
        case CpuColumn:
            return p->cpuPct.value_or(-1.0);
        case ThreadsColumn:
            return p->threads.value_or(-1);
        case FdsColumn:
            return p->fds.value_or(-1);
        case StateColumn:
            return p->state;
        case UptimeColumn:
            return p->uptimeSec.value_or(-1.0);
        case PpidColumn:
            return p->ppid.value_or(-1);
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    const QString unknown = tr("–");
    switch (index.column()) {
    case PidColumn:
        return QString::number(p->pid);
    case CommandColumn:
        return p->comm;
    case UserColumn:
        return p->user;
    case RssColumn:
        return QLocale().formattedDataSize(p->rssBytes, 1, QLocale::DataSizeTraditionalFormat);
    case CpuColumn:
        return p->cpuPct ? tr("%1 %").arg(QLocale().toString(*p->cpuPct, 'f', 1)) : unknown;
    case ThreadsColumn:
        return p->threads ? QString::number(*p->threads) : unknown;
    case FdsColumn:
        return p->fds ? QString::number(*p->fds) : unknown;
    case StateColumn:
        return p->state;
    case UptimeColumn:
        return p->uptimeSec ? uptimeText(*p->uptimeSec) : unknown;
    case PpidColumn:
        return p->ppid ? QString::number(*p->ppid) : unknown;
    default:
        return {};
    }
}

QVariant ProcessTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PidColumn:
        return tr("PID");
    case CommandColumn:
        return tr("Command");
    case UserColumn:
        return tr("User");
    case RssColumn:
        return tr("Memory (RSS)");
    case CpuColumn:
        return tr("CPU");
    case ThreadsColumn:
        return tr("Threads");
    case FdsColumn:
        return tr("Files");
    case StateColumn:
        return tr("State");
    case UptimeColumn:
        return tr("Running for");
    case PpidColumn:
        return tr("Parent");
    default:
        return {};
    }
}

} // namespace sbx
