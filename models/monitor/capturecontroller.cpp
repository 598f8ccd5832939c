#include "models/monitor/capturecontroller.h"

#include "client/api/filetransfer.h"
#include "models/monitor/monitorfigures.h"
#include "models/monitor/reportlistmodel.h"

namespace sbx {

CaptureController::CaptureController(SandboxClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_reports(new ReportListModel(this)) {}

CaptureController::~CaptureController() {
    if (m_download)
        m_download->abort();
}

void CaptureController::track(ApiJob *job, const QString &action, bool quiet) {
    if (!quiet) {
        ++m_pending;
        Q_EMIT pendingChanged();
        connect(job, &Job::finished, this, [this] {
            --m_pending;
            Q_EMIT pendingChanged();
        });
    }
    connect(job, &Job::failed, this, [this, action, quiet](const Status &status) {
        // A sandbox without observe: the poller says so once; background reads stay quiet.
        if (quiet && isNoObserveApi(status))
            return;
        Q_EMIT outcome(tr("%1 failed: %2").arg(action, status.message), false);
    });
    job->start();
}

void CaptureController::refresh() {
    refreshStatus();
    refreshReports();
}

void CaptureController::refreshStatus() {
    if (!m_client)
        return;
    auto *job = new ObserveStatusJob(m_client);
    // Answers can overtake each other on two connections: only the newest question's counts,
    // or a status read before a stop would undo the stop's.
    const quint64 asked = ++m_statusAsked;
    connect(job, &ObserveStatusJob::succeeded, this, [this, asked](const ObserveStatus &status) {
        if (asked != m_statusAsked)
            return;
        m_status = status;
        Q_EMIT statusChanged();
    });
    track(job, tr("Reading the capture state"), true);
}

void CaptureController::refreshReports() {
    if (!m_client)
        return;
    auto *job = new ObserveReportsJob(m_client);
    connect(job, &ObserveReportsJob::succeeded, this,
            [this](const QList<ObserveReport> &list) { m_reports->setReports(list); });
    track(job, tr("Listing the reports"), true);
}

void CaptureController::start(const ObserveStartRequest &request) {
    if (!m_client)
        return;
    auto *job = new ObserveStatusJob(m_client, request);
    connect(job, &ObserveStatusJob::succeeded, this, [this](const ObserveStatus &) {
        Q_EMIT outcome(tr("Capture started."), true);
        // The start result lacks the status's counters: ask for the whole of it.
        refreshStatus();
    });
    track(job, tr("Starting the capture"));
}

void CaptureController::stop() {
    if (!m_client)
        return;
    auto *job = new ObserveStopJob(m_client, m_status.sessionId);
    connect(job, &ObserveStopJob::succeeded, this, [this](const ObserveStopResult &result) {
        Q_EMIT outcome(!result.stopped      ? tr("No capture was running.")
                       : result.reportReady ? tr("Capture stopped; Export makes a report of it.")
                                            : tr("Capture stopped before its first sample."),
                       true);
        refreshStatus();
    });
    track(job, tr("Stopping the capture"));
}

void CaptureController::exportReport() {
    if (!m_client)
        return;
    auto *job = new ObserveReportJob(m_client, ObserveReportJob::Kind::Export);
    connect(job, &ObserveReportJob::succeeded, this, [this](const ObserveReport &report) {
        Q_EMIT outcome(
            tr("Exported report %1 (%2).").arg(report.id, MonitorFigures::size(report.sizeBytes)),
            true);
        refresh();
    });
    track(job, tr("Exporting a report"));
}

void CaptureController::deleteReport(const QString &id) {
    if (!m_client || id.isEmpty())
        return;
    auto *job = new ObserveReportJob(m_client, ObserveReportJob::Kind::Delete, id);
    connect(job, &ObserveReportJob::succeeded, this, [this, id](const ObserveReport &) {
        m_reports->remove(id);
        Q_EMIT outcome(tr("Deleted report %1.").arg(id), true);
        refreshStatus();
    });
    track(job, tr("Deleting report %1").arg(id));
}

void CaptureController::downloadReport(const QString &id, const QString &localPath) {
    if (!m_client || id.isEmpty() || localPath.isEmpty() || m_download)
        return;
    DownloadJob *job = makeReportDownloadJob(m_client, id, localPath);
    m_download = job;
    connect(job, &DownloadJob::succeeded, this, [this, localPath](qint64 size) {
        Q_EMIT outcome(
            tr("Saved the report to %1 (%2).").arg(localPath, MonitorFigures::size(size)), true);
        Q_EMIT downloadFinished(localPath, true);
    });
    connect(job, &Job::failed, this,
            [this, localPath](const Status &) { Q_EMIT downloadFinished(localPath, false); });
    track(job, tr("Downloading report %1").arg(id));
}

} // namespace sbx
