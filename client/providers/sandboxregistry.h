#pragma once

#include "client/providers/sandboxprovider.h"
#include "client/transport/status.h"

#include <QHash>
#include <QObject>

#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <optional>

#include <memory>

namespace sbx {

class ProbeJob;
class SandboxClient;
class TrafficRecorder;
struct ProbeResult;

// What the last probe of a sandbox said.
struct SandboxHealth {
    bool probed = false;
    Status status;
    qint64 latencyMs = -1;
    QString version;
    // From /v1/sandbox/observe/live after each good probe, where the sandbox has it.
    std::optional<double> cpuPct; // % of one core
    std::optional<qint64> memBytes;
    bool noObserve = false; // it answered 404: not asked again
};

// Every sandbox of every provider with its connection: owns one SandboxClient per sandbox
// (views and workspaces borrow it) and the poll that probes the running ones.
class SandboxRegistry final : public QObject {
    Q_OBJECT
public:
    explicit SandboxRegistry(QObject *parent = nullptr);
    ~SandboxRegistry() override;

    // Providers are borrowed; sandboxes follow their signals.
    void addProvider(SandboxProvider *provider);
    // Its sandboxes leave the list (removed() for each); the provider may then be destroyed.
    void removeProvider(SandboxProvider *provider);
    QList<SandboxProvider *> providers() const;
    SandboxProvider *provider(const QString &providerId) const;

    // Ids in the order their sandboxes appeared.
    QStringList ids() const { return m_order; }
    bool contains(const QString &id) const { return m_sandboxes.contains(id); }
    SandboxEntry entry(const QString &id) const;
    // The provider that lists the sandbox, or null.
    SandboxProvider *providerOf(const QString &id) const;
    SandboxClient *client(const QString &id) const;
    // The one traffic record of every sandbox's client, each entry under the sandbox's name.
    TrafficRecorder *traffic() const { return m_traffic; }
    SandboxHealth health(const QString &id) const;
    // The provider's state, refined by the probe for a running sandbox.
    SandboxState state(const QString &id) const;
    // Why the sandbox is in its state, empty when nothing is wrong.
    QString lastError(const QString &id) const;
    LifecycleActions actions(const QString &id) const;
    // Its provider's figures (SandboxProvider::readResourceFigures): for a sandbox whose server
    // has no observe endpoints.
    bool hasResourceFigures(const QString &id) const;
    void readResourceFigures(const QString &id, QObject *context, ResourceFiguresDone done);

    void setPollInterval(int ms);
    int pollInterval() const;
    // Probes every running sandbox now (the refresh action; also the timer's tick).
    void probeAll();
    void probe(const QString &id);

Q_SIGNALS:
    void added(const QString &id);
    // Its entry, health or actions changed.
    void changed(const QString &id);
    // Emitted once the sandbox is gone from ids().
    void removed(const QString &id);
    // The state a person sees changed (after changed()).
    void stateChanged(const QString &id, SandboxState state);

private:
    struct Sandbox;
    void onAdded(SandboxProvider *provider, const SandboxEntry &entry);
    void onChanged(const SandboxEntry &entry);
    void onRemoved(const QString &id);
    void onProbeFinished(const QString &id, const Status &status, const ProbeResult &result);
    void askUsage(const QString &id);
    void askProviderUsage(const QString &id);
    void setUsage(const QString &id, std::optional<double> cpuPct, std::optional<qint64> memBytes);
    SandboxState stateOf(const Sandbox &sandbox) const;
    void publish(const QString &id, SandboxState before);

    // Lookups by id are O(1); m_order keeps the order of arrival for the list.
    QHash<QString, std::shared_ptr<Sandbox>> m_sandboxes;
    QStringList m_order;
    QList<QPointer<SandboxProvider>> m_providers;
    QTimer m_timer;
    TrafficRecorder *m_traffic;
};

} // namespace sbx
