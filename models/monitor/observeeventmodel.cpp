#include "models/monitor/observeeventmodel.h"

#include <QLocale>

#include <algorithm>

namespace sbx {

using namespace Qt::StringLiterals;

ObserveEventModel::ObserveEventModel(QObject *parent)
    : QAbstractTableModel(parent) {}

QString ObserveEventModel::keyOf(const ObserveEvent &event) {
    // Events carry no id: time, type and message together name one.
    return QString::number(event.ts.toMSecsSinceEpoch()) + u'\x1f' + event.type + u'\x1f' +
           event.message;
}

int ObserveEventModel::add(const QList<ObserveEvent> &events) {
    QList<ObserveEvent> fresh;
    for (const ObserveEvent &e : events) {
        const QString key = keyOf(e);
        if (m_keys.contains(key))
            continue;
        m_keys.insert(key);
        fresh.append(e);
    }
    if (fresh.isEmpty())
        return 0;
    std::stable_sort(fresh.begin(), fresh.end(),
                     [](const ObserveEvent &a, const ObserveEvent &b) { return a.ts > b.ts; });
    // An event older than the newest shown still goes to the top: it is new to this view, and
    // the rows already shown must not move under a reader.
    beginInsertRows({}, 0, static_cast<int>(fresh.size()) - 1);
    m_rows = fresh + m_rows;
    endInsertRows();
    if (m_rows.size() > kMaxEvents) {
        beginRemoveRows({}, kMaxEvents, static_cast<int>(m_rows.size()) - 1);
        for (qsizetype i = kMaxEvents; i < m_rows.size(); ++i)
            m_keys.remove(keyOf(m_rows.at(i)));
        m_rows.resize(kMaxEvents);
        endRemoveRows();
    }
    return static_cast<int>(fresh.size());
}

void ObserveEventModel::clear() {
    if (m_rows.isEmpty())
        return;
    beginRemoveRows({}, 0, static_cast<int>(m_rows.size()) - 1);
    m_rows.clear();
    m_keys.clear();
    endRemoveRows();
}

const ObserveEvent *ObserveEventModel::event(int row) const {
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row) : nullptr;
}

int ObserveEventModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ObserveEventModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ObserveEventModel::data(const QModelIndex &index, int role) const {
    const ObserveEvent *e = index.isValid() ? event(index.row()) : nullptr;
    if (!e)
        return {};
    switch (role) {
    case TypeRole:
        return e->type;
    case TimeRole:
        return e->ts;
    case Qt::ToolTipRole:
        return e->message;
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case TimeColumn:
        return QLocale().toString(e->ts.toLocalTime(), u"HH:mm:ss"_s);
    case TypeColumn:
        return e->type;
    case MessageColumn:
        return e->message;
    default:
        return {};
    }
}

QVariant ObserveEventModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case TypeColumn:
        return tr("Event");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

} // namespace sbx
