#pragma once

#include "client/api/apijob.h"

#include <nlohmann/json.hpp>

#include <QDateTime>
#include <QList>
#include <QMetaType>

#include <optional>

namespace sbx {

class BashExecJob;
class DownloadJob;

// One file system of an observe snapshot (the workspace's, on sandbox-server).
struct ObserveDisk {
    QString path;
    qint64 usedBytes = 0;
    qint64 totalBytes = 0;
    qint64 freeBytes = 0;
    double usagePct = 0;
    std::optional<qint64> inodeUsed;
    std::optional<qint64> inodeTotal;
    std::optional<double> inodeUsagePct;
};

// One row of top_processes. Optional fields are null where the sandbox could not read them.
struct ObserveProcess {
    qint64 pid = 0;
    QString user;
    QString comm;
    qint64 rssBytes = 0;
    std::optional<double> cpuPct; // % of one core; null for a process seen mid-way
    std::optional<int> threads;
    std::optional<int> fds;
    QString state;
    std::optional<double> uptimeSec;
    std::optional<qint64> ppid;
};

// One of recent_events. Its type set is open (AIO documents none).
struct ObserveEvent {
    QDateTime ts;
    QString type;
    QString message;
};

// GET /v1/sandbox/observe/live, typed. source is sandbox-server's ("cgroup" or "process_tree");
// empty from a server that does not say.
struct ObserveSnapshot {
    QDateTime capturedAt;
    QString mode;
    QString source;
    std::optional<qint64> processCount;
    std::optional<double> cpuPct;
    qint64 cpuUsageUsec = 0;
    std::optional<qint64> cpuPeriods;
    std::optional<qint64> cpuThrottled;
    std::optional<qint64> cpuThrottledUsec;
    qint64 memCurrentBytes = 0;
    std::optional<qint64> memMaxBytes; // null: no limit known
    std::optional<double> memUsagePct;
    std::optional<qint64> oom;
    std::optional<qint64> oomKill;
    QList<ObserveDisk> disks;
    QList<ObserveProcess> processes;
    QList<ObserveEvent> events;
};

// GET /v1/sandbox/observe/status (also what start answers: running, with its session).
struct ObserveStatus {
    QString mode = QStringLiteral("off");
    bool running = false;
    QString sessionId;
    QDateTime startedAt;
    QDateTime endsAt;
    QDateTime lastSampleAt;
    double intervalSeconds = 0;
    int reportCount = 0;
};

struct ObserveStopResult {
    QString sessionId;
    bool stopped = false;
    bool reportReady = false;
};

// An exported report (ObservationReportInfo / ObservationExportResult).
struct ObserveReport {
    QString id;
    QString sessionId;
    QString reason;
    QDateTime createdAt;
    QString path;
    qint64 sizeBytes = 0;
};

struct ObserveStartRequest {
    QString mode = QStringLiteral("capture");
    double intervalSeconds = 1;
    double durationSeconds = 0; // 0: until stopped
};

enum class ObserveSort { Rss, Cpu };

// Whether a failed observe call means the sandbox has no observe API (a 404 on the route).
bool isNoObserveApi(const Status &status);

// Parsers of the envelope's data, exposed for fixture tests.
ObserveSnapshot parseObserveSnapshot(const nlohmann::json &data);
ObserveStatus parseObserveStatus(const nlohmann::json &data);
ObserveReport parseObserveReport(const nlohmann::json &data);

// The one mechanism of every /v1/sandbox/observe call: the envelope is unwrapped here and its
// data handed to the subclass, which keeps the typed result its succeeded() carries.
class ObserveJob : public ApiJob {
    Q_OBJECT
protected:
    ObserveJob(SandboxClient *client, ApiRequest request);
    Status parseReply(const QByteArray &body, QNetworkReply *reply) final;
    virtual Status parseData(const nlohmann::json &data) = 0;
};

// GET /v1/sandbox/observe/live?top_rows=N&sort=rss|cpu (sort is sandbox-server's; AIO ignores it).
class ObserveLiveJob final : public ObserveJob {
    Q_OBJECT
public:
    ObserveLiveJob(SandboxClient *client, int topRows, ObserveSort sort = ObserveSort::Rss);
Q_SIGNALS:
    void succeeded(const sbx::ObserveSnapshot &snapshot);

protected:
    Status parseData(const nlohmann::json &data) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_snapshot); }
    // The poller backs off and retries itself; a retry here would hide an outage from it.
    bool shouldRetry(const Status &) override { return false; }

private:
    ObserveSnapshot m_snapshot;
};

// GET /v1/sandbox/observe/status, and POST start (answered as the status of its session).
class ObserveStatusJob final : public ObserveJob {
    Q_OBJECT
public:
    explicit ObserveStatusJob(SandboxClient *client);
    ObserveStatusJob(SandboxClient *client, const ObserveStartRequest &start);
Q_SIGNALS:
    void succeeded(const sbx::ObserveStatus &status);

protected:
    Status parseData(const nlohmann::json &data) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_status); }

private:
    ObserveStatus m_status;
    bool m_started = false;
};

// POST /v1/sandbox/observe/stop; an empty sessionId stops the running session.
class ObserveStopJob final : public ObserveJob {
    Q_OBJECT
public:
    explicit ObserveStopJob(SandboxClient *client, const QString &sessionId = {});
Q_SIGNALS:
    void succeeded(const sbx::ObserveStopResult &result);

protected:
    Status parseData(const nlohmann::json &data) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_result); }

private:
    ObserveStopResult m_result;
};

// POST /v1/sandbox/observe/export (kind Export) or DELETE .../reports/{id} (kind Delete): both
// answer one report.
class ObserveReportJob final : public ObserveJob {
    Q_OBJECT
public:
    enum class Kind { Export, Delete };
    // Export: id is the session to export (empty: the running or last one). Delete: the report.
    ObserveReportJob(SandboxClient *client, Kind kind, const QString &id = {});
Q_SIGNALS:
    void succeeded(const sbx::ObserveReport &report);

protected:
    Status parseData(const nlohmann::json &data) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_report); }

private:
    ObserveReport m_report;
};

// GET /v1/sandbox/observe/reports.
class ObserveReportsJob final : public ObserveJob {
    Q_OBJECT
public:
    explicit ObserveReportsJob(SandboxClient *client);
Q_SIGNALS:
    void succeeded(const QList<sbx::ObserveReport> &reports);

protected:
    Status parseData(const nlohmann::json &data) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_reports); }

private:
    QList<ObserveReport> m_reports;
};

// GET /v1/sandbox/observe/reports/{id} streamed to localPath through the file download's
// machinery (a .part file written off the GUI thread, renamed when complete).
DownloadJob *makeReportDownloadJob(SandboxClient *client, const QString &reportId,
                                   const QString &localPath);

// POST /v1/bash/exec, sync: `kill -SIGNAL PID` inside the sandbox. signal is TERM, KILL or INT;
// anything else gives nullptr.
BashExecJob *makeSignalProcessJob(SandboxClient *client, qint64 pid, const QString &signal);

} // namespace sbx

Q_DECLARE_METATYPE(sbx::ObserveSnapshot)
Q_DECLARE_METATYPE(sbx::ObserveStatus)
Q_DECLARE_METATYPE(sbx::ObserveReport)
