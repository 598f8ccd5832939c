#include "models/traffic/trafficfiltermodel.h"

#include "models/traffic/trafficmodel.h"

namespace sbx {

using namespace Qt::StringLiterals;

TrafficStatusClass statusClassOf(const TrafficEntry &e) {
    if (e.isMessage() || !e.finished)
        return TrafficStatusClass::All;
    if (e.status == 0)
        return TrafficStatusClass::Failed;
    if (e.status >= 500)
        return TrafficStatusClass::ServerError;
    if (e.status >= 400)
        return TrafficStatusClass::ClientError;
    if (e.status >= 300)
        return TrafficStatusClass::Redirect;
    // 101: a socket that opened counts as success.
    return TrafficStatusClass::Success;
}

TrafficFilterModel::TrafficFilterModel(TrafficModel *source, QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_source(source) {
    setSourceModel(source);
}

void TrafficFilterModel::setSandbox(const QString &name) {
    if (name == m_sandbox)
        return;
    m_sandbox = name;
    invalidateRowsFilter();
}

void TrafficFilterModel::setMethod(const QByteArray &method) {
    if (method == m_method)
        return;
    m_method = method;
    invalidateRowsFilter();
}

void TrafficFilterModel::setStatusClass(TrafficStatusClass statusClass) {
    if (statusClass == m_statusClass)
        return;
    m_statusClass = statusClass;
    invalidateRowsFilter();
}

void TrafficFilterModel::setText(const QString &text) {
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    invalidateRowsFilter();
}

const TrafficEntry *TrafficFilterModel::entry(int row) const {
    const QModelIndex source = mapToSource(index(row, 0));
    return source.isValid() ? m_source->entry(source.row()) : nullptr;
}

QList<TrafficEntry> TrafficFilterModel::shownEntries() const {
    QList<TrafficEntry> out;
    const int rows = rowCount();
    out.reserve(rows);
    for (int row = 0; row < rows; ++row) {
        if (const TrafficEntry *e = entry(row))
            out.append(*e);
    }
    return out;
}

bool TrafficFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const {
    if (sourceParent.isValid())
        return false;
    const TrafficEntry *e = m_source->entry(sourceRow);
    if (!e)
        return false;
    if (!m_sandbox.isEmpty() && e->sandbox != m_sandbox)
        return false;
    if (!m_method.isEmpty()) {
        const bool socket = e->kind != TrafficKind::Http;
        if (m_method == "WS" ? !socket : (socket || e->method != m_method))
            return false;
    }
    if (m_statusClass != TrafficStatusClass::All && statusClassOf(*e) != m_statusClass)
        return false;
    if (m_text.isEmpty())
        return true;
    const auto has = [this](const QString &s) {
        return s.contains(m_text, Qt::CaseInsensitive);
    };
    return has(e->url) || has(e->path) || has(e->sandbox) || has(QString::fromLatin1(e->method)) ||
           has(e->error) || has(QString::fromLatin1(e->statusText)) ||
           has(QString::fromLatin1(e->messageType)) ||
           (e->status > 0 && has(QString::number(e->status)));
}

} // namespace sbx
