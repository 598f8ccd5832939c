// The Monitor tab against a real sandbox-server: the charts draw the server's samples, the
// figures say their source, a process is signalled only after a confirmation naming it (and
// really ends), a capture runs from start to a downloaded and deleted report, and a sandbox
// without observe says so.
#include "client/api/bashjobs.h"
#include "client/sandboxclient.h"
#include "models/files/transferqueuemodel.h"
#include "models/monitor/capturecontroller.h"
#include "models/monitor/monitorpoller.h"
#include "models/monitor/processtablemodel.h"
#include "models/monitor/reportlistmodel.h"
#include "tests/support/scriptedprompts.h"
#include "tests/support/testserver.h"
#include "widgets/monitor/monitortab.h"
#include "widgets/workspace/tabregistry.h"

#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QProcess>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <csignal>
#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

qint64 pidIn(const QString &path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return file.readAll().trimmed().toLongLong();
}

// Alive and not a zombie waiting for its parent.
bool running(qint64 pid) {
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype paren = text.lastIndexOf(')');
    return paren > 0 && text.mid(paren + 2, 1) != "Z";
}

} // namespace

class TestMonitorTab final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;
    std::unique_ptr<SandboxClient> m_client;
    QTemporaryDir m_dir;
    ScriptedPrompts m_prompts;

    std::unique_ptr<MonitorTab> shownTab() {
        auto tab = std::make_unique<MonitorTab>(m_client.get());
        tab->setPrompts(&m_prompts);
        tab->poller()->setIntervalMs(300);
        tab->resize(1300, 850);
        tab->show();
        if (!QTest::qWaitForWindowExposed(tab.get()))
            return nullptr;
        return tab;
    }
    // A `sleep` in the sandbox whose pid is known.
    qint64 startSleeper(const QString &name);
    // The ids of the sandbox's bash sessions that are open.
    QSet<QString> openBashSessions();

private Q_SLOTS:
    void initTestCase();
    void chartsDrawTheServersSamples();
    void refusingTheConfirmationSendsNothing();
    void killingAfterConfirmingEndsTheProcess();
    void captureToDownloadedAndDeletedReport();
    void sandboxWithoutObserveSaysSo();
};

qint64 TestMonitorTab::startSleeper(const QString &name) {
    const QString marker = m_dir.filePath(name);
    BashExecRequest request;
    request.command = u"sh -c 'echo $$ > %1; exec sleep 300'"_s.arg(marker);
    auto *job = new BashExecJob(m_client.get(), request);
    QSignalSpy started(job, &BashExecJob::succeeded);
    job->start();
    if (!started.wait(15000))
        return 0;
    return QTest::qWaitFor([&marker] { return pidIn(marker) > 0; }, 30000) ? pidIn(marker) : 0;
}

QSet<QString> TestMonitorTab::openBashSessions() {
    auto *job = new ListBashSessionsJob(m_client.get());
    QSet<QString> open;
    connect(job, &ListBashSessionsJob::succeeded, this, [&open](const QList<BashSessionInfo> &all) {
        for (const BashSessionInfo &s : all)
            if (s.status != u"closed"_s)
                open.insert(s.id);
    });
    QSignalSpy done(job, &Job::finished);
    job->start();
    if (!done.wait(15000))
        open.insert(u"(no answer)"_s);
    return open;
}

// Sends the report download into a real transfer queue, as the workspace does with the Files
// tab's.
class QueueHost final : public TransferHost {
public:
    explicit QueueHost(SandboxClient *client)
        : queue(client) {}
    bool queueDownload(const QString &label, const QString &localPath, JobMaker make) override {
        queue.enqueueFetch(label, localPath, std::move(make));
        return true;
    }
    TransferQueueModel queue;
};

void TestMonitorTab::initTestCase() {
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_client = std::make_unique<SandboxClient>(Endpoint{m_server.url(), {}}, Credentials{});
}

void TestMonitorTab::chartsDrawTheServersSamples() {
    auto tab = shownTab();
    QVERIFY(tab);
    QVERIFY(tab->poller()->isActive());
    QTRY_VERIFY_WITH_TIMEOUT(tab->poller()->polls() >= 3, 15000);
    const QList<int> points = tab->chartPointCounts();
    // The first scan of a baseline has no CPU figure; memory and disk have every sample.
    QVERIFY2(points.at(0) > 0, qPrintable(QString::number(points.at(0))));
    QVERIFY(points.at(1) >= 3);
    QVERIFY(points.at(2) >= 3);
    QCOMPARE(points.at(1), tab->poller()->history().size());
    QVERIFY2(tab->sourceText().contains(u"sum over the sandbox's processes"_s),
             qPrintable(tab->sourceText()));
    QVERIFY2(tab->figuresText().contains(u"(no limit)"_s), qPrintable(tab->figuresText()));
    QVERIFY(tab->figuresText().contains(u"Disk "_s));
    // Polling runs only while the tab is shown.
    tab->hide();
    QVERIFY(!tab->poller()->isActive());
    const int polls = tab->poller()->polls();
    tab->show();
    QVERIFY(tab->poller()->isActive());
    QTRY_VERIFY(tab->poller()->polls() > polls);
}

void TestMonitorTab::refusingTheConfirmationSendsNothing() {
    const qint64 pid = startSleeper(u"sleeper-refused"_s);
    QVERIFY(pid > 0);
    auto tab = shownTab();
    QVERIFY(tab);
    QTRY_VERIFY_WITH_TIMEOUT(tab->selectPid(pid), 15000);
    m_prompts.asked.clear();
    m_prompts.confirmAnswer = [](const ScriptedPrompts::Question &) {
        return false;
    };
    tab->signalSelected(u"KILL"_s);
    QCOMPARE(m_prompts.asked.size(), 1);
    QVERIFY(m_prompts.asked.first().text.contains(QString::number(pid)));
    QVERIFY(m_prompts.asked.first().text.contains(u"sleep"_s));
    QVERIFY(m_prompts.asked.first().text.contains(u"SIGKILL"_s));
    // Two more polls later it is still there, in the sandbox and the table, and nothing was said.
    const int polls = tab->poller()->polls();
    QTRY_VERIFY_WITH_TIMEOUT(tab->poller()->polls() >= polls + 2, 15000);
    QVERIFY(running(pid));
    QVERIFY(tab->poller()->processes()->rowOfPid(pid) >= 0);
    QVERIFY(tab->noticeText().isEmpty());
    ::kill(static_cast<pid_t>(pid), SIGKILL);
}

void TestMonitorTab::killingAfterConfirmingEndsTheProcess() {
    const qint64 pid = startSleeper(u"sleeper-killed"_s);
    QVERIFY(pid > 0);
    auto tab = shownTab();
    QVERIFY(tab);
    QTRY_VERIFY_WITH_TIMEOUT(tab->selectPid(pid), 15000);
    m_prompts.asked.clear();
    m_prompts.confirmAnswer = [](const ScriptedPrompts::Question &) {
        return true;
    };
    const QSet<QString> sessionsBefore = openBashSessions();
    tab->signalSelected(u"TERM"_s);
    QCOMPARE(m_prompts.asked.size(), 1);
    QVERIFY(m_prompts.asked.first().text.contains(QString::number(pid)));
    QTRY_VERIFY_WITH_TIMEOUT(tab->noticeText().contains(u"Sent SIGTERM to %1"_s.arg(pid)), 15000);
    QTRY_VERIFY_WITH_TIMEOUT(!running(pid), 15000);
    QTRY_COMPARE_WITH_TIMEOUT(tab->poller()->processes()->rowOfPid(pid), -1, 15000);
    // The session the signal's exec made is closed again, not left behind.
    QTRY_COMPARE_WITH_TIMEOUT(openBashSessions(), sessionsBefore, 15000);
    // Signalling a process that is gone says why.
    const qint64 other = startSleeper(u"sleeper-gone"_s);
    QTRY_VERIFY_WITH_TIMEOUT(tab->selectPid(other), 15000);
    ::kill(static_cast<pid_t>(other), SIGKILL);
    QTRY_VERIFY(!running(other));
    tab->signalSelected(u"INT"_s);
    QTRY_VERIFY_WITH_TIMEOUT(tab->noticeText().startsWith(u"Could not send SIGINT"_s), 15000);
}

void TestMonitorTab::captureToDownloadedAndDeletedReport() {
    auto tab = shownTab();
    QVERIFY(tab);
    CaptureController *capture = tab->capture();
    QTRY_VERIFY_WITH_TIMEOUT(capture->pending() == 0 && tab->startButton()->isEnabled(), 15000);
    QVERIFY(!tab->stopButton()->isEnabled());
    const int reportsBefore = capture->reports()->rowCount();
    QTest::mouseClick(tab->startButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(capture->status().running, 15000);
    QTRY_VERIFY(tab->captureText().startsWith(u"Capture running since"_s));
    QTRY_VERIFY(tab->stopButton()->isEnabled());
    QVERIFY(!tab->startButton()->isEnabled());
    // A sample is written before stopping, so the report has one.
    QTRY_VERIFY_WITH_TIMEOUT(tab->poller()->snapshot().mode == "capture"_L1, 15000);
    QTest::mouseClick(tab->stopButton(), Qt::LeftButton);
    QTRY_VERIFY2_WITH_TIMEOUT(!capture->status().running,
                              qPrintable(tab->noticeText() + u" / "_s + tab->captureText() +
                                         u" / session "_s + capture->status().sessionId),
                              15000);
    QTRY_VERIFY(tab->captureText().startsWith(u"No capture running"_s));
    QTRY_VERIFY(tab->exportButton()->isEnabled());
    QTest::mouseClick(tab->exportButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(tab->noticeText().startsWith(u"Exported report"_s), 15000);
    QTRY_COMPARE_WITH_TIMEOUT(capture->reports()->rowCount(), reportsBefore + 1, 15000);
    const QString id = capture->reports()->report(0)->id;
    QVERIFY(!id.isEmpty());

    tab->reportView()->setCurrentIndex(capture->reports()->index(0, 0));
    const QString local = m_dir.filePath(u"report.jsonl.gz"_s);
    m_prompts.fileAnswer = local;
    QSignalSpy downloaded(capture, &CaptureController::downloadFinished);
    tab->downloadSelectedReport();
    QVERIFY(downloaded.wait(15000));
    QCOMPARE(downloaded.first().at(1).toBool(), true);
    QVERIFY(QFile::exists(local));
    QProcess gzip;
    gzip.start(u"gzip"_s, {u"-t"_s, local});
    QVERIFY(gzip.waitForFinished(15000));
    QCOMPARE(gzip.exitCode(), 0);
    QVERIFY(!QFile::exists(local + u".part"_s));

    // In a workspace the download goes into the transfer queue, where it shows and finishes.
    QueueHost host(m_client.get());
    tab->setTransferHost(&host);
    const QString queued = m_dir.filePath(u"queued.jsonl.gz"_s);
    m_prompts.fileAnswer = queued;
    QSignalSpy transferred(&host.queue, &TransferQueueModel::transferFinished);
    tab->downloadSelectedReport();
    QCOMPARE(host.queue.rowCount(), 1);
    QVERIFY2(tab->noticeText().contains(u"Files tab"_s), qPrintable(tab->noticeText()));
    QCOMPARE(host.queue.index(0, TransferQueueModel::NameColumn).data().toString(),
             u"↓ queued.jsonl.gz"_s);
    QVERIFY(host.queue.index(0, 0).data(TransferQueueModel::FetchRole).toBool());
    QVERIFY(transferred.wait(15000));
    QCOMPARE(host.queue.state(0), TransferQueueModel::State::Done);
    QCOMPARE(QFileInfo(queued).size(), QFileInfo(local).size());
    QVERIFY(host.queue.index(0, TransferQueueModel::ProgressColumn)
                .data()
                .toString()
                .contains(QLocale().formattedDataSize(QFileInfo(local).size())));
    tab->setTransferHost(nullptr);

    m_prompts.confirmAnswer = [](const ScriptedPrompts::Question &) {
        return true;
    };
    m_prompts.asked.clear();
    tab->deleteSelectedReport();
    QCOMPARE(m_prompts.asked.size(), 1);
    QVERIFY(m_prompts.asked.first().text.contains(id));
    QTRY_COMPARE_WITH_TIMEOUT(capture->reports()->rowOf(id), -1, 15000);
    // Asked again, the server no longer lists it.
    QSignalSpy relisted(capture->reports(), &QAbstractItemModel::modelReset);
    capture->refresh();
    QVERIFY(relisted.wait(15000));
    QCOMPARE(capture->reports()->rowOf(id), -1);
    QCOMPARE(capture->reports()->rowCount(), reportsBefore);
}

void TestMonitorTab::sandboxWithoutObserveSaysSo() {
    TestServer older;
    QVERIFY(older.start(TestServer::withArgs({u"--without"_s, u"observe"_s})));
    SandboxClient client({older.url(), {}}, {});
    MonitorTab tab(&client);
    tab.setPrompts(&m_prompts);
    tab.show();
    QTRY_VERIFY_WITH_TIMEOUT(tab.showsNoObserveApi(), 15000);
    QVERIFY(tab.poller()->noObserveApi());
    QVERIFY(!tab.poller()->isActive());
    QVERIFY(!tab.startButton()->isEnabled());
    QCOMPARE(tab.chartPointCounts(), (QList<int>{0, 0, 0}));
}

QTEST_MAIN(TestMonitorTab)
#include "tst_monitortab.moc"
