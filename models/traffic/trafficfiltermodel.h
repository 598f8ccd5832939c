#pragma once

#include "client/traffic/trafficentry.h"

#include <QByteArray>
#include <QList>
#include <QSortFilterProxyModel>

namespace sbx {

class TrafficModel;

// Status classes the inspector filters by. Failed: no HTTP status at all (refused, timed out,
// cancelled). Socket messages belong to All only.
enum class TrafficStatusClass { All, Success, Redirect, ClientError, ServerError, Failed };

// The class of an entry's outcome; All for messages and exchanges still in flight.
TrafficStatusClass statusClassOf(const TrafficEntry &entry);

// The inspector's filters over a TrafficModel: sandbox, method ("WS" for socket traffic), status
// class and free text (in the URL, sandbox, method, status, error and message type).
class TrafficFilterModel final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TrafficFilterModel(TrafficModel *source, QObject *parent = nullptr);

    // Empty: every sandbox / method.
    void setSandbox(const QString &name);
    void setMethod(const QByteArray &method);
    void setStatusClass(TrafficStatusClass statusClass);
    void setText(const QString &text);

    // The entry of a row of this model, null for an invalid one.
    const TrafficEntry *entry(int row) const;
    // The entries shown, in order (what Export HAR writes).
    QList<TrafficEntry> shownEntries() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    TrafficModel *m_source;
    QString m_sandbox;
    QByteArray m_method;
    TrafficStatusClass m_statusClass = TrafficStatusClass::All;
    QString m_text;
};

} // namespace sbx
