#pragma once

#include "client/api/observejobs.h"

#include <QObject>
#include <QPointer>

namespace sbx {

class DownloadJob;
class ReportListModel;
class SandboxClient;

// The observe capture of one sandbox: its session state, start / stop / export, and the
// reports it made (listed, downloaded to a local file, deleted). Each action ends in outcome().
class CaptureController final : public QObject {
    Q_OBJECT
public:
    explicit CaptureController(SandboxClient *client, QObject *parent = nullptr);
    ~CaptureController() override;

    ReportListModel *reports() const { return m_reports; }
    const ObserveStatus &status() const { return m_status; }
    bool isDownloading() const { return !m_download.isNull(); }
    // Calls in flight (a view disables its buttons meanwhile).
    // Start, stop, export or delete still on their way (a refresh in the background is not).
    int pending() const { return m_pending; }

    // Asks the status and the report list again.
    void refresh();
    void start(const ObserveStartRequest &request = {});
    void stop();
    void exportReport();
    void deleteReport(const QString &id);
    void downloadReport(const QString &id, const QString &localPath);

Q_SIGNALS:
    void statusChanged();
    // The end of an action as a person reads it; ok false for a failure.
    void outcome(const QString &text, bool ok);
    void downloadFinished(const QString &localPath, bool ok);
    void pendingChanged();

private:
    void refreshStatus();
    void refreshReports();
    // Counts the job as pending until it finishes; failures are reported with `action`.
    // A background refresh (quiet) does not count: it must not disable the buttons under a
    // person's click.
    void track(ApiJob *job, const QString &action, bool quiet = false);

    QPointer<SandboxClient> m_client;
    ReportListModel *m_reports;
    ObserveStatus m_status;
    quint64 m_statusAsked = 0;
    QPointer<DownloadJob> m_download;
    int m_pending = 0;
};

} // namespace sbx
