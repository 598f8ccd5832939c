#pragma once

#include "client/api/observejobs.h"
#include "client/providers/sandboxprovider.h"
#include "models/monitor/resourcehistory.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QTimer;

namespace sbx {

class ObserveEventModel;
class ProcessTableModel;
class SandboxClient;

// Polls /v1/sandbox/observe/live while active (one call in flight at most, the next one an
// interval after the last answer) and feeds the history, the process table and the events.
// A 404 means the sandbox has no observe API: it polls the fallback (an engine's container
// stats) where there is one, else says so and stops. Other failures are shown once and retried
// with a growing delay.
class MonitorPoller final : public QObject {
    Q_OBJECT
public:
    static constexpr int kIntervalMs = 1000;
    static constexpr int kMaxBackoffMs = 30000;

    explicit MonitorPoller(SandboxClient *client, QObject *parent = nullptr);
    ~MonitorPoller() override;

    // Reads the sandbox's figures from elsewhere; false when there are none for it.
    using Fallback = std::function<bool(QObject *context, ResourceFiguresDone done)>;
    // The snapshot's source while the fallback is read.
    static constexpr auto kFallbackSource = "engine_stats";

    void setFallback(Fallback fallback) { m_fallback = std::move(fallback); }
    void start();
    void stop();
    // Polls at once (after a process was signalled), or right after the call in flight.
    void pollNow();
    bool isActive() const { return m_active; }
    void setIntervalMs(int ms) { m_intervalMs = ms; }
    void setTopRows(int rows) { m_topRows = rows; }

    bool noObserveApi() const { return m_noApi; }
    // No observe API, and the figures come from the fallback.
    bool usesFallback() const { return m_noApi && m_fallbackWorks; }
    // The last failure as a person reads it; "" while polls succeed.
    QString error() const { return m_error; }
    bool hasSnapshot() const { return m_polls > 0; }
    const ObserveSnapshot &snapshot() const { return m_snapshot; }
    const ResourceHistory &history() const { return m_history; }
    ProcessTableModel *processes() const { return m_processes; }
    ObserveEventModel *events() const { return m_events; }
    int polls() const { return m_polls; }
    // The delay before the next attempt after failures in a row.
    int nextDelayMs() const;

Q_SIGNALS:
    // A snapshot arrived and every model has taken it.
    void updated();
    // Active, error or no-API changed.
    void stateChanged();

private:
    void poll();
    void schedule();
    void onSnapshot(const ObserveSnapshot &snapshot);
    void onFailure(const Status &status);
    void readFallback();

    QPointer<SandboxClient> m_client;
    QTimer *m_timer;
    QPointer<ObserveLiveJob> m_job;
    ResourceHistory m_history;
    ProcessTableModel *m_processes;
    ObserveEventModel *m_events;
    ObserveSnapshot m_snapshot;
    QString m_error;
    int m_intervalMs = kIntervalMs;
    int m_topRows = 50;
    int m_failures = 0;
    int m_polls = 0;
    bool m_active = false;
    bool m_noApi = false;
    bool m_again = false;
    Fallback m_fallback;
    bool m_fallbackWorks = false;
    bool m_reading = false; // a fallback reading in flight
    int m_generation = 0;   // a reading answered after stop() belongs to an older one
};

} // namespace sbx
