#include "models/traffic/trafficmodel.h"

#include "client/traffic/trafficrecorder.h"
#include "models/palette.h"
#include "models/traffic/trafficformat.h"

#include <QLocale>

namespace sbx {

using namespace Qt::StringLiterals;

TrafficModel::TrafficModel(TrafficRecorder *recorder, QObject *parent)
    : QAbstractTableModel(parent)
    , m_recorder(recorder) {
    connect(recorder, &TrafficRecorder::aboutToAppend, this, [this] {
        const int row = m_recorder->size();
        beginInsertRows({}, row, row);
    });
    connect(recorder, &TrafficRecorder::appended, this, [this] { endInsertRows(); });
    connect(recorder, &TrafficRecorder::aboutToDrop, this,
            [this](int count) { beginRemoveRows({}, 0, count - 1); });
    connect(recorder, &TrafficRecorder::dropped, this, [this] { endRemoveRows(); });
    connect(recorder, &TrafficRecorder::changed, this,
            [this](int row) { Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1)); });
    connect(recorder, &TrafficRecorder::aboutToClear, this, [this] { beginResetModel(); });
    connect(recorder, &TrafficRecorder::cleared, this, [this] { endResetModel(); });
    // The recorder may go first at shutdown: no row then refers to its entries.
    connect(recorder, &QObject::destroyed, this, [this] {
        beginResetModel();
        endResetModel();
    });
}

TrafficModel::~TrafficModel() = default;

TrafficRecorder *TrafficModel::recorder() const {
    return m_recorder.data();
}

const TrafficEntry *TrafficModel::entry(int row) const {
    if (!m_recorder || row < 0 || row >= m_recorder->size())
        return nullptr;
    return &m_recorder->at(row);
}

int TrafficModel::rowOf(quint64 serial) const {
    return m_recorder ? m_recorder->indexOf(serial) : -1;
}

int TrafficModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() || !m_recorder ? 0 : m_recorder->size();
}

int TrafficModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TrafficModel::data(const QModelIndex &index, int role) const {
    const TrafficEntry *e = index.isValid() ? entry(index.row()) : nullptr;
    if (!e)
        return {};
    const auto column = static_cast<Column>(index.column());
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Time:
            return QLocale().toString(e->started.toLocalTime().time(), u"HH:mm:ss.zzz"_s);
        case Sandbox:
            return e->sandbox;
        case Method:
            return QString::fromLatin1(e->kind == TrafficKind::Socket ? "WS" : e->method);
        case Path:
            return TrafficFormat::path(*e);
        case Status:
            return TrafficFormat::status(*e);
        case Duration:
            return e->isMessage() || !e->finished ? QString()
                                                  : TrafficFormat::duration(e->elapsedMs);
        case Sent:
            return e->request.size == 0 ? QString() : TrafficFormat::size(e->request.size);
        case Received:
            return e->response.size == 0 ? QString() : TrafficFormat::size(e->response.size);
        case ColumnCount:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        if (column == Path || column == Method)
            return e->url;
        if (column == Status)
            return e->error.isEmpty() ? QString::fromLatin1(e->statusText) : e->error;
        return {};
    case Qt::TextAlignmentRole:
        if (column == Status || column == Duration || column == Sent || column == Received)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (e->failed() || e->status >= 400)
            return Palette::color(Palette::Role::TextError);
        if (!e->finished && !e->isMessage())
            return Palette::color(Palette::Role::TextMuted);
        return {};
    case SerialRole:
        return QVariant::fromValue(e->serial);
    default:
        return {};
    }
}

QVariant TrafficModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (static_cast<Column>(section)) {
    case Time:
        return tr("Time");
    case Sandbox:
        return tr("Sandbox");
    case Method:
        return tr("Method");
    case Path:
        return tr("Path");
    case Status:
        return tr("Status");
    case Duration:
        return tr("Duration");
    case Sent:
        return tr("Sent");
    case Received:
        return tr("Received");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace sbx
