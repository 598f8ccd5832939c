#pragma once

#include "widgets/workspace/pendingwork.h"

#include <QPointer>
#include <QWidget>

class QChart;
class QDateTimeAxis;
class QLabel;
class QLineSeries;
class QPushButton;
class QSortFilterProxyModel;
class QTreeView;
class QValueAxis;

namespace sbx {

class CaptureController;
class MonitorPoller;
class SandboxClient;
class TabRegistry;
class TransferHost;
class UserPrompts;
struct ObserveProcess;

// The Monitor tab: the sandbox's CPU, memory and disk over the last 15 minutes (polled from
// /v1/sandbox/observe/live while the tab is visible), the figures against their limits and
// where they come from, its processes (signalled after a confirmation), its events, and
// observe capture sessions with their reports.
class MonitorTab final : public QWidget, public PendingWorkSource {
    Q_OBJECT
public:
    explicit MonitorTab(SandboxClient *client, QWidget *parent = nullptr);
    ~MonitorTab() override;

    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }
    // Where report downloads are queued; none: the tab saves them itself.
    void setTransferHost(TransferHost *transfers) { m_transfers = transfers; }
    PendingWork pendingWork() const override;

    // Sends SIGTERM, SIGKILL or SIGINT ("TERM", "KILL", "INT") to the selected process once the
    // user confirms.
    void signalSelected(const QString &signal);
    // Selects the process row of pid; false when it is not listed.
    bool selectPid(qint64 pid);
    void downloadSelectedReport();
    void deleteSelectedReport();

    MonitorPoller *poller() const { return m_poller; }
    CaptureController *capture() const { return m_capture; }
    QTreeView *processView() const { return m_processView; }
    QTreeView *reportView() const { return m_reportView; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *stopButton() const { return m_stop; }
    QPushButton *exportButton() const { return m_export; }
    // Points drawn in the CPU, memory and disk charts.
    QList<int> chartPointCounts() const;
    QString figuresText() const;
    QString sourceText() const;
    QString captureText() const;
    // The outcome of the last action (a signal, a capture step).
    QString noticeText() const;
    bool showsNoObserveApi() const;

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    struct Chart {
        QChart *chart = nullptr;
        QLineSeries *series = nullptr;
        QLineSeries *limit = nullptr;
        QDateTimeAxis *time = nullptr;
        QValueAxis *value = nullptr;
    };
    QWidget *makeChart(Chart &chart, const QString &title, bool withLimit);
    QWidget *makeProcessPane();
    QWidget *makeSidePane();
    void onUpdated();
    void onStateChanged();
    void updateCharts();
    void updateCaptureButtons();
    void showNotice(const QString &text, bool ok);
    const ObserveProcess *selectedProcess() const;
    UserPrompts *prompts() const;

    QPointer<SandboxClient> m_client;
    UserPrompts *m_prompts = nullptr;
    TransferHost *m_transfers = nullptr;
    MonitorPoller *m_poller;
    CaptureController *m_capture;
    QSortFilterProxyModel *m_processProxy;
    QLabel *m_figures;
    QLabel *m_source;
    QLabel *m_error;
    QLabel *m_noApi;
    QLabel *m_notice;
    QLabel *m_captureState;
    Chart m_cpu;
    Chart m_memory;
    Chart m_disk;
    QTreeView *m_processView = nullptr;
    QTreeView *m_eventView = nullptr;
    QTreeView *m_reportView = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_export = nullptr;
    QPushButton *m_download = nullptr;
    QPushButton *m_delete = nullptr;
    QList<QPushButton *> m_signalButtons;
    QString m_lastMode;
};

void registerMonitorTab(TabRegistry &registry);

} // namespace sbx
