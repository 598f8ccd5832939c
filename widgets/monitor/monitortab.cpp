#include "widgets/monitor/monitortab.h"

#include "client/api/bashjobs.h"
#include "client/api/filetransfer.h"
#include "client/api/observejobs.h"
#include "client/providers/sandboxregistry.h"
#include "models/monitor/capturecontroller.h"
#include "models/monitor/monitorfigures.h"
#include "models/monitor/monitorpoller.h"
#include "models/monitor/observeeventmodel.h"
#include "models/monitor/processtablemodel.h"
#include "models/monitor/reportlistmodel.h"
#include "models/palette.h"
#include "widgets/common/userprompts.h"
#include "widgets/common/widgethelpers.h"
#include "widgets/workspace/tabregistry.h"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QDateTimeAxis>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QValueAxis>

#include <cmath>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = kMiB * 1024.0;

// An axis top a little above the largest value, on a round number, never 0.
double axisTop(double value, double floor) {
    const double top = std::max(value * 1.15, floor);
    const double step = std::pow(10.0, std::floor(std::log10(top)));
    return std::ceil(top / step) * step;
}

QLabel *title(const QString &text, QWidget *parent) {
    return new QLabel(u"<b>%1</b>"_s.arg(text.toHtmlEscaped()), parent);
}

} // namespace

MonitorTab::MonitorTab(SandboxClient *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_poller(new MonitorPoller(client, this))
    , m_capture(new CaptureController(client, this))
    , m_processProxy(new QSortFilterProxyModel(this))
    , m_figures(new QLabel(this))
    , m_source(new QLabel(this))
    , m_error(makeErrorBox(this))
    , m_noApi(makeErrorBox(this))
    , m_notice(new QLabel(this))
    , m_captureState(new QLabel(this)) {
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures->setWordWrap(true);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures->setText(tr("Waiting for the first sample…"));
    auto *figuresRow = new QVBoxLayout;
    figuresRow->setSpacing(2);
    figuresRow->addWidget(m_figures);
    figuresRow->addWidget(m_source);

    auto *charts = new QHBoxLayout;
    charts->addWidget(makeChart(m_cpu, tr("CPU (% of one core)"), false));
    charts->addWidget(makeChart(m_memory, tr("Memory"), true));
    charts->addWidget(makeChart(m_disk, tr("Disk (workspace)"), true));

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(makeProcessPane());
    splitter->addWidget(makeSidePane());
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({650, 350});

    m_notice->setWordWrap(true);
    m_notice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notice->hide();
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(figuresRow);
    layout->addWidget(m_noApi);
    layout->addWidget(m_error);
    layout->addLayout(charts);
    layout->addWidget(m_notice);
    layout->addWidget(splitter, 1);

    connect(m_poller, &MonitorPoller::updated, this, &MonitorTab::onUpdated);
    connect(m_poller, &MonitorPoller::stateChanged, this, &MonitorTab::onStateChanged);
    connect(m_capture, &CaptureController::statusChanged, this, [this] {
        m_captureState->setText(MonitorFigures::capture(m_capture->status()));
        updateCaptureButtons();
    });
    connect(m_capture, &CaptureController::pendingChanged, this, &MonitorTab::updateCaptureButtons);
    connect(m_capture, &CaptureController::outcome, this, &MonitorTab::showNotice);
    m_captureState->setText(tr("Capture state not read yet"));
    updateCaptureButtons();
}

MonitorTab::~MonitorTab() = default;

QWidget *MonitorTab::makeChart(Chart &c, const QString &text, bool withLimit) {
    c.chart = new QChart;
    c.chart->setTitle(text);
    c.chart->legend()->hide();
    c.chart->setMargins(QMargins(2, 2, 2, 2));
    c.chart->setBackgroundRoundness(0);
    // Colours from the palette, so a dark theme gets a dark chart.
    const QPalette pal = palette();
    c.chart->setBackgroundBrush(pal.base());
    c.chart->setTitleBrush(pal.text());
    c.series = new QLineSeries(c.chart);
    c.chart->addSeries(c.series);
    // Wider than the theme's hairline (its colour is set by addSeries): a few minutes of
    // samples are a short stroke in 15.
    QPen line = c.series->pen();
    line.setWidthF(2.5);
    c.series->setPen(line);
    if (withLimit) {
        c.limit = new QLineSeries(c.chart);
        QPen pen(Palette::color(Palette::Role::TextError));
        pen.setStyle(Qt::DashLine);
        c.limit->setPen(pen);
        c.chart->addSeries(c.limit);
    }
    c.time = new QDateTimeAxis(c.chart);
    c.time->setFormat(u"HH:mm"_s);
    c.time->setTickCount(4);
    c.value = new QValueAxis(c.chart);
    c.value->setLabelFormat(u"%.0f"_s);
    c.value->setTickCount(3);
    for (QAbstractAxis *axis :
         {static_cast<QAbstractAxis *>(c.time), static_cast<QAbstractAxis *>(c.value)}) {
        axis->setLabelsBrush(pal.text());
        axis->setGridLineColor(pal.color(QPalette::Mid));
    }
    c.chart->addAxis(c.time, Qt::AlignBottom);
    c.chart->addAxis(c.value, Qt::AlignLeft);
    for (QLineSeries *series : {c.series, c.limit}) {
        if (series) {
            series->attachAxis(c.time);
            series->attachAxis(c.value);
        }
    }
    const QDateTime now = QDateTime::currentDateTime();
    c.time->setRange(now.addMSecs(-ResourceHistory::kWindowMs), now);
    c.value->setRange(0, 100);
    auto *view = new QChartView(c.chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(170);
    view->setMaximumHeight(230);
    return view;
}

QWidget *MonitorTab::makeProcessPane() {
    auto *pane = new QWidget(this);
    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *head = new QHBoxLayout;
    head->addWidget(title(tr("Processes"), pane));
    head->addStretch();
    const QList<std::pair<QString, QString>> signalNames{{u"TERM"_s, tr("Terminate (SIGTERM)")},
                                                         {u"KILL"_s, tr("Kill (SIGKILL)")},
                                                         {u"INT"_s, tr("Interrupt (SIGINT)")}};
    auto *menu = new QMenu(pane);
    for (const auto &[signal, label] : signalNames) {
        auto *button = new QPushButton(label, pane);
        button->setEnabled(false);
        head->addWidget(button);
        m_signalButtons.append(button);
        connect(button, &QPushButton::clicked, this, [this, s = signal] { signalSelected(s); });
        menu->addAction(label, this, [this, s = signal] { signalSelected(s); });
    }
    layout->addLayout(head);

    m_processProxy->setSourceModel(m_poller->processes());
    m_processProxy->setSortRole(ProcessTableModel::SortRole);
    m_processView = makeListView(tr("Processes"), pane);
    m_processView->setModel(m_processProxy);
    m_processView->setSortingEnabled(true);
    m_processView->sortByColumn(ProcessTableModel::RssColumn, Qt::DescendingOrder);
    // Every figure column as wide as its contents, so all ten fit beside the side pane.
    m_processView->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_processView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_processView, &QWidget::customContextMenuRequested, this,
            [this, menu](const QPoint &at) {
                if (selectedProcess())
                    menu->popup(m_processView->viewport()->mapToGlobal(at));
            });
    connect(m_processView->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        for (QPushButton *b : std::as_const(m_signalButtons))
            b->setEnabled(selectedProcess() != nullptr);
    });
    layout->addWidget(m_processView, 1);
    return pane;
}

QWidget *MonitorTab::makeSidePane() {
    auto *pane = new QWidget(this);
    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title(tr("Events"), pane));
    m_eventView = makeListView(tr("Events"), pane);
    m_eventView->setModel(m_poller->events());
    m_eventView->header()->setSectionResizeMode(ObserveEventModel::TimeColumn,
                                                QHeaderView::ResizeToContents);
    m_eventView->header()->setSectionResizeMode(ObserveEventModel::TypeColumn,
                                                QHeaderView::ResizeToContents);
    layout->addWidget(m_eventView, 1);

    auto *captureHead = new QHBoxLayout;
    captureHead->addWidget(title(tr("Capture"), pane));
    captureHead->addWidget(m_captureState, 1);
    layout->addLayout(captureHead);
    m_start = new QPushButton(tr("Start"), pane);
    m_start->setToolTip(tr("Record a sample every second on the sandbox until stopped"));
    m_stop = new QPushButton(tr("Stop"), pane);
    m_export = new QPushButton(tr("Export"), pane);
    m_export->setToolTip(
        tr("Write a report of the running or last session (or of now) on the sandbox"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_export);
    buttons->addStretch();
    layout->addLayout(buttons);
    connect(m_start, &QPushButton::clicked, this, [this] { m_capture->start(); });
    connect(m_stop, &QPushButton::clicked, this, [this] { m_capture->stop(); });
    connect(m_export, &QPushButton::clicked, this, [this] { m_capture->exportReport(); });

    auto *reportsHead = new QHBoxLayout;
    reportsHead->addWidget(title(tr("Reports"), pane));
    reportsHead->addStretch();
    m_download = new QPushButton(tr("Download…"), pane);
    m_delete = new QPushButton(tr("Delete"), pane);
    reportsHead->addWidget(m_download);
    reportsHead->addWidget(m_delete);
    layout->addLayout(reportsHead);
    m_reportView = makeListView(tr("Reports"), pane);
    m_reportView->setModel(m_capture->reports());
    // A listing that arrives resets the list: the report chosen stays chosen.
    auto *reports = m_capture->reports();
    connect(reports, &QAbstractItemModel::modelAboutToBeReset, this, [this, reports] {
        const ObserveReport *chosen = reports->report(m_reportView->currentIndex().row());
        m_chosenReport = chosen ? chosen->id : QString();
    });
    connect(reports, &QAbstractItemModel::modelReset, this, [this, reports] {
        if (const int row = reports->rowOf(m_chosenReport); row >= 0)
            m_reportView->setCurrentIndex(reports->index(row, 0));
    });
    m_reportView->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_reportView, 1);
    connect(m_download, &QPushButton::clicked, this, &MonitorTab::downloadSelectedReport);
    connect(m_delete, &QPushButton::clicked, this, &MonitorTab::deleteSelectedReport);
    connect(m_reportView, &QTreeView::doubleClicked, this, &MonitorTab::downloadSelectedReport);
    return pane;
}

PendingWork MonitorTab::pendingWork() const {
    PendingWork work;
    work.transfers = m_capture->isDownloading() ? 1 : 0;
    return work;
}

UserPrompts *MonitorTab::prompts() const {
    return m_prompts ? m_prompts : dialogPrompts();
}

const ObserveProcess *MonitorTab::selectedProcess() const {
    const QModelIndexList rows = m_processView->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return nullptr;
    return m_poller->processes()->process(m_processProxy->mapToSource(rows.first()).row());
}

bool MonitorTab::selectPid(qint64 pid) {
    const int row = m_poller->processes()->rowOfPid(pid);
    if (row < 0)
        return false;
    const QModelIndex at = m_processProxy->mapFromSource(m_poller->processes()->index(row, 0));
    m_processView->selectionModel()->select(at, QItemSelectionModel::ClearAndSelect |
                                                    QItemSelectionModel::Rows);
    m_processView->setCurrentIndex(at);
    return true;
}

void MonitorTab::signalSelected(const QString &signal) {
    const ObserveProcess *p = selectedProcess();
    if (!p || !m_client)
        return;
    const qint64 pid = p->pid;
    const QString comm = p->comm;
    const QString name = u"SIG"_s + signal;
    if (!prompts()->confirm(
            this, tr("Send %1").arg(name),
            tr("Send %1 to process %2 (%3) in the sandbox?").arg(name).arg(pid).arg(comm),
            tr("Send %1").arg(name)))
        return;
    BashExecJob *job = makeSignalProcessJob(m_client, pid, signal);
    if (!job)
        return;
    connect(job, &BashExecJob::succeeded, this, [this, pid, comm, name](const BashCommandState &s) {
        // Each exec made a session of its own: it has served its purpose.
        if (!s.sessionId.isEmpty())
            BashActionJob::closeSession(m_client, s.sessionId)->start();
        if (s.exitCode.value_or(-1) == 0) {
            showNotice(tr("Sent %1 to %2 (%3).").arg(name).arg(pid).arg(comm), true);
            m_poller->pollNow();
        } else {
            const QString why = s.stderrText.trimmed();
            showNotice(tr("Could not send %1 to %2 (%3): %4")
                           .arg(name)
                           .arg(pid)
                           .arg(comm, why.isEmpty()
                                          ? tr("kill exited with %1").arg(s.exitCode.value_or(-1))
                                          : why),
                       false);
        }
    });
    connect(job, &Job::failed, this, [this, pid, name](const Status &status) {
        showNotice(tr("Could not send %1 to %2: %3").arg(name).arg(pid).arg(status.message), false);
    });
    job->start();
}

void MonitorTab::downloadSelectedReport() {
    const QModelIndex at = m_reportView->currentIndex();
    const ObserveReport *report = m_capture->reports()->report(at.row());
    if (!report)
        return;
    const QString id = report->id;
    const QString suggested = QDir::home().filePath(id + u".jsonl.gz"_s);
    const auto path = prompts()->askSaveFile(this, tr("Save observe report"), suggested);
    if (!path)
        return;
    const auto make = [id](SandboxClient *client, const QString &local) -> ApiJob * {
        return makeReportDownloadJob(client, id, local);
    };
    if (m_transfers && m_transfers->queueDownload(tr("observe report %1").arg(id), *path, make))
        showNotice(tr("Downloading report %1 to %2: its progress is in the Files tab's "
                      "transfers.")
                       .arg(id, *path),
                   true);
    else
        m_capture->downloadReport(id, *path);
}

void MonitorTab::deleteSelectedReport() {
    const QModelIndex at = m_reportView->currentIndex();
    const ObserveReport *report = m_capture->reports()->report(at.row());
    if (!report)
        return;
    const QString id = report->id;
    if (prompts()->confirm(this, tr("Delete report"),
                           tr("Delete observe report %1 from the sandbox?").arg(id), tr("Delete")))
        m_capture->deleteReport(id);
}

QList<int> MonitorTab::chartPointCounts() const {
    return {static_cast<int>(m_cpu.series->count()), static_cast<int>(m_memory.series->count()),
            static_cast<int>(m_disk.series->count())};
}

QString MonitorTab::figuresText() const {
    return m_figures->text();
}

QString MonitorTab::sourceText() const {
    return m_source->text();
}

QString MonitorTab::captureText() const {
    return m_captureState->text();
}

QString MonitorTab::noticeText() const {
    return m_notice->isHidden() ? QString() : m_notice->text();
}

bool MonitorTab::showsNoObserveApi() const {
    return !m_noApi->isHidden();
}

void MonitorTab::showNotice(const QString &text, bool ok) {
    m_notice->setStyleSheet(
        Palette::textStyle(ok ? Palette::Role::TextSuccess : Palette::Role::TextError));
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
}

void MonitorTab::onUpdated() {
    const ObserveSnapshot &s = m_poller->snapshot();
    QStringList parts{MonitorFigures::cpu(s), MonitorFigures::memory(s), MonitorFigures::disk(s)};
    if (const QString oom = MonitorFigures::oom(s); !oom.isEmpty())
        parts << oom;
    m_figures->setText(parts.join(u"  ·  "_s));
    m_source->setText(MonitorFigures::source(s));
    // The snapshot's mode tells when a session started or ended elsewhere (an agent, ends_at).
    if (s.mode != m_lastMode) {
        if (!m_lastMode.isEmpty())
            m_capture->refresh();
        m_lastMode = s.mode;
    }
    updateCharts();
}

void MonitorTab::updateCharts() {
    const ResourceHistory &h = m_poller->history();
    if (h.isEmpty())
        return;
    const QDateTime newest = h.last().time;
    for (Chart *c : {&m_cpu, &m_memory, &m_disk})
        c->time->setRange(newest.addMSecs(-ResourceHistory::kWindowMs), newest);
    // Points are replaced, never the series: a chart per second would cost more than the poll.
    m_cpu.series->replace(h.cpuPoints());
    m_cpu.value->setRange(0, axisTop(h.maxCpu(), 10));

    const ResourceHistory::Sample &last = h.last();
    const qint64 top = std::max(h.maxMemory(), last.memMaxBytes.value_or(0));
    const bool gib = top > 2 * qint64(kGiB);
    const double unit = gib ? kGiB : kMiB;
    m_memory.chart->setTitle(gib ? tr("Memory (GB)") : tr("Memory (MB)"));
    m_memory.series->replace(h.memoryPoints(unit));
    QList<QPointF> limit;
    if (last.memMaxBytes) {
        const double y = double(*last.memMaxBytes) / unit;
        limit = {{double(newest.addMSecs(-ResourceHistory::kWindowMs).toMSecsSinceEpoch()), y},
                 {double(newest.toMSecsSinceEpoch()), y}};
    }
    m_memory.limit->replace(limit);
    m_memory.value->setRange(0, axisTop(double(top) / unit, 1));

    m_disk.chart->setTitle(tr("Disk, workspace (GB)"));
    m_disk.series->replace(h.diskPoints(kGiB));
    QList<QPointF> total;
    if (last.diskTotalBytes > 0) {
        const double y = double(last.diskTotalBytes) / kGiB;
        total = {{double(newest.addMSecs(-ResourceHistory::kWindowMs).toMSecsSinceEpoch()), y},
                 {double(newest.toMSecsSinceEpoch()), y}};
    }
    m_disk.limit->replace(total);
    m_disk.value->setRange(0, axisTop(double(last.diskTotalBytes) / kGiB, 1));
}

void MonitorTab::setSandbox(SandboxRegistry *sandboxes, const QString &id) {
    if (!sandboxes)
        return;
    QPointer<SandboxRegistry> registry(sandboxes);
    m_poller->setFallback([registry, id](QObject *context, ResourceFiguresDone done) {
        if (!registry || !registry->hasResourceFigures(id))
            return false;
        registry->readResourceFigures(id, context, std::move(done));
        return true;
    });
}

void MonitorTab::onStateChanged() {
    if (m_poller->usesFallback()) {
        m_noApi->setText(tr("This sandbox has no observe API (/v1/sandbox/observe answered 404): "
                            "CPU and memory come from the container engine instead; processes, "
                            "disk, events and captures need the observe API."));
        m_noApi->show();
    } else if (m_poller->noObserveApi()) {
        m_noApi->setText(
            tr("This sandbox has no observe API (/v1/sandbox/observe answered 404), so "
               "there is nothing to monitor here."));
        m_noApi->show();
        m_figures->setText(tr("No figures"));
        m_source->clear();
    } else {
        m_noApi->hide();
    }
    const QString error = m_poller->error();
    m_error->setText(error.isEmpty() ? QString()
                                     : tr("Monitoring paused: %1 (retrying)").arg(error));
    m_error->setVisible(!error.isEmpty());
    updateCaptureButtons();
}

void MonitorTab::updateCaptureButtons() {
    const bool observe = !m_poller->noObserveApi();
    const bool usable = observe && m_capture->pending() == 0;
    const bool running = m_capture->status().running;
    m_start->setEnabled(usable && !running);
    m_stop->setEnabled(usable && running);
    m_export->setEnabled(usable);
    m_download->setEnabled(observe && !m_capture->isDownloading());
    m_delete->setEnabled(observe);
    if (!observe)
        m_captureState->setText(tr("Captures need the observe API"));
}

void MonitorTab::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    m_poller->start();
    m_capture->refresh();
}

void MonitorTab::hideEvent(QHideEvent *event) {
    QWidget::hideEvent(event);
    m_poller->stop();
}

void registerMonitorTab(TabRegistry &registry) {
    registry.add(clientTab<MonitorTab>(
        u"monitor"_s, QCoreApplication::translate("sbx::MonitorTab", "Monitor"), 65, u"monitor"_s));
}

} // namespace sbx
