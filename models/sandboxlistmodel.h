#pragma once

#include "client/api/sandboxtypes.h"
#include "client/providers/sandboxprovider.h"
#include "client/transport/status.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QPointer>

#include <memory>
#include <vector>

class QTimer;
class SandboxClient;
class ProbeJob;

// Every sandbox of every provider, one row each, with live state from a background probe.
// Owns one SandboxClient per sandbox; views and workspaces borrow it.
class SandboxListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        StateColumn,
        ProviderColumn,
        UrlColumn,
        VersionColumn,
        LatencyColumn,
        ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole + 1,
        StateRole,   // SandboxState as int
        DetailRole,  // why the state is what it is
        ActionsRole, // LifecycleActions as int
        ProviderIdRole,
        ExpiryWarningRole, // true when a JWT expires within five minutes
    };

    explicit SandboxListModel(QObject *parent = nullptr);
    ~SandboxListModel() override;

    // Providers are borrowed; rows follow their signals.
    void addProvider(SandboxProvider *provider);
    SandboxProvider *provider(const QString &providerId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    int rowOf(const QString &id) const;
    QString idAt(int row) const;
    SandboxEntry entry(const QString &id) const;
    SandboxState state(const QString &id) const;
    SandboxClient *client(const QString &id) const;
    QString lastError(const QString &id) const;

    void setPollInterval(int ms);
    int pollInterval() const;
    // Probes every running sandbox now (the refresh action; also the timer's tick).
    void probeAll();
    void probe(const QString &id);

Q_SIGNALS:
    // A sandbox's state changed (after the row's dataChanged).
    void stateChanged(const QString &id, SandboxState state);

private:
    struct Row;
    void onAdded(SandboxProvider *provider, const SandboxEntry &entry);
    void onChanged(const SandboxEntry &entry);
    void onRemoved(const QString &id);
    void onProbeFinished(const QString &id, const Status &status, const ProbeResult &result);
    SandboxState effectiveState(const Row &row) const;
    void rowChanged(int row, SandboxState before);

    std::vector<std::unique_ptr<Row>> m_rows;
    QList<QPointer<SandboxProvider>> m_providers;
    QTimer *m_timer;
};
