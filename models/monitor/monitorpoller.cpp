#include "models/monitor/monitorpoller.h"

#include "models/monitor/observeeventmodel.h"
#include "models/monitor/processtablemodel.h"

#include <QTimer>

namespace sbx {

MonitorPoller::MonitorPoller(SandboxClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_timer(new QTimer(this))
    , m_processes(new ProcessTableModel(this))
    , m_events(new ObserveEventModel(this)) {
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &MonitorPoller::poll);
}

MonitorPoller::~MonitorPoller() {
    if (m_job)
        m_job->abort();
}

void MonitorPoller::start() {
    if (m_active)
        return;
    m_active = true;
    // Shown again: a sandbox may have been updated meanwhile, so one call asks anew.
    m_noApi = false;
    m_fallbackWorks = false;
    m_failures = 0;
    Q_EMIT stateChanged();
    if (!m_job)
        poll();
}

void MonitorPoller::stop() {
    if (!m_active)
        return;
    m_active = false;
    m_timer->stop();
    m_again = false;
    ++m_generation;
    m_reading = false;
    if (m_job)
        m_job->abort();
    // The aborted job deletes itself later; a start() before that polls anew.
    m_job = nullptr;
    Q_EMIT stateChanged();
}

void MonitorPoller::pollNow() {
    if (!m_active)
        return;
    if (m_job || m_reading) {
        m_again = true;
        return;
    }
    m_timer->stop();
    poll();
}

int MonitorPoller::nextDelayMs() const {
    if (m_failures == 0)
        return m_intervalMs;
    const qint64 delay = qint64(m_intervalMs) << std::min(m_failures, 10);
    return static_cast<int>(std::min<qint64>(delay, kMaxBackoffMs));
}

void MonitorPoller::poll() {
    if (!m_active || !m_client || m_job || m_reading)
        return;
    if (m_noApi) {
        readFallback();
        return;
    }
    auto *job = new ObserveLiveJob(m_client, m_topRows);
    m_job = job;
    connect(job, &ObserveLiveJob::succeeded, this, &MonitorPoller::onSnapshot);
    connect(job, &ObserveLiveJob::failed, this, &MonitorPoller::onFailure);
    job->start();
}

void MonitorPoller::schedule() {
    if (!m_active)
        return;
    if (m_again) {
        m_again = false;
        QTimer::singleShot(0, this, &MonitorPoller::poll);
        return;
    }
    m_timer->start(nextDelayMs());
}

void MonitorPoller::onSnapshot(const ObserveSnapshot &snapshot) {
    m_job = nullptr;
    m_snapshot = snapshot;
    ++m_polls;
    m_history.append(snapshot);
    m_processes->update(snapshot.processes);
    m_events->add(snapshot.events);
    const bool recovered = m_failures > 0 || !m_error.isEmpty();
    m_failures = 0;
    m_error.clear();
    if (recovered)
        Q_EMIT stateChanged();
    Q_EMIT updated();
    schedule();
}

void MonitorPoller::onFailure(const Status &status) {
    m_job = nullptr;
    if (isNoObserveApi(status) && !m_noApi) {
        m_noApi = true;
        m_processes->clear();
        if (m_fallback) {
            readFallback();
            return;
        }
        m_active = false;
        m_timer->stop();
        m_processes->clear();
        Q_EMIT stateChanged();
        return;
    }
    ++m_failures;
    // Said once per distinct error, not once per retry.
    if (status.message != m_error) {
        m_error = status.message;
        Q_EMIT stateChanged();
    }
    schedule();
}

void MonitorPoller::readFallback() {
    const int generation = m_generation;
    m_reading = true;
    const bool reading =
        m_fallback &&
        m_fallback(this, [this, generation](const ResourceFigures &figures, const Status &status) {
            if (generation != m_generation)
                return;
            m_reading = false;
            if (!status.ok()) {
                // Not the observe API's 404 again: a failure to retry like any other.
                Status retry = status;
                if (retry.kind == Status::Kind::NotFound)
                    retry.kind = Status::Kind::Server;
                onFailure(retry);
                return;
            }
            ObserveSnapshot snapshot;
            snapshot.capturedAt = figures.at;
            snapshot.source = QString::fromLatin1(kFallbackSource);
            snapshot.cpuPct = figures.cpuPct;
            snapshot.memCurrentBytes = figures.memBytes;
            snapshot.memMaxBytes = figures.memLimitBytes;
            if (figures.memLimitBytes && *figures.memLimitBytes > 0)
                snapshot.memUsagePct =
                    100.0 * double(figures.memBytes) / double(*figures.memLimitBytes);
            snapshot.processCount = figures.processCount;
            const bool first = !m_fallbackWorks;
            m_fallbackWorks = true;
            if (first)
                Q_EMIT stateChanged();
            onSnapshot(snapshot);
        });
    if (reading)
        return;
    // Nothing to fall back on: the sandbox has no figures to show.
    m_reading = false;
    m_active = false;
    m_timer->stop();
    Q_EMIT stateChanged();
}

} // namespace sbx
