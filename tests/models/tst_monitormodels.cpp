// The Monitor's models fed from a real sandbox-server's /v1/sandbox/observe/live: a child that
// holds 300 MB shows in the process table and in the history's memory, rows keep their identity
// across polls, and sorting by RSS and CPU is numeric. The event model deduplicates and puts the
// newest first; the history keeps 15 minutes.
#include "client/api/bashjobs.h"
#include "client/api/observejobs.h"
#include "client/sandboxclient.h"
#include "models/monitor/monitorpoller.h"
#include "models/monitor/observeeventmodel.h"
#include "models/monitor/processtablemodel.h"
#include "models/monitor/resourcehistory.h"
#include "tests/support/testserver.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kBig = 300LL * 1024 * 1024;

qint64 pidIn(const QString &path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return file.readAll().trimmed().toLongLong();
}

} // namespace

class TestMonitorModels final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;
    std::unique_ptr<SandboxClient> m_client;
    QTemporaryDir m_dir;
    std::unique_ptr<MonitorPoller> m_poller;
    qint64 m_bigPid = 0;
    qint64 m_busyPid = 0;

    // Starts command in the sandbox, async, and waits (bounded) for the pid it writes to marker.
    qint64 startChild(const QString &command, const QString &marker);

private Q_SLOTS:
    void initTestCase();
    void bigChildShowsInTableAndHistory();
    void rowsKeepIdentityAcrossPolls();
    void sortingIsNumeric();
    void eventModelDeduplicatesNewestFirst();
    void historyKeepsTheWindow();
    void cleanupTestCase();
};

qint64 TestMonitorModels::startChild(const QString &command, const QString &marker) {
    BashExecRequest request;
    request.command = command;
    request.asyncMode = true;
    auto *job = new BashExecJob(m_client.get(), request);
    QSignalSpy started(job, &BashExecJob::succeeded);
    job->start();
    if (!started.wait(15000))
        return 0;
    // The child writes its pid once it holds what it was started for.
    return QTest::qWaitFor([&marker] { return pidIn(marker) > 0; }, 30000) ? pidIn(marker) : 0;
}

void TestMonitorModels::initTestCase() {
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_client = std::make_unique<SandboxClient>(Endpoint{m_server.url(), {}}, Credentials{});
    m_poller = std::make_unique<MonitorPoller>(m_client.get());
    m_poller->setIntervalMs(300);
}

void TestMonitorModels::bigChildShowsInTableAndHistory() {
    QAbstractItemModelTester tester(m_poller->processes(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QString marker = m_dir.filePath(u"big-ready"_s);
    m_bigPid =
        startChild(u"python3 -c \"import os, time; b = bytearray(b'x') * (300*1024*1024); "
                   "open('%1', 'w').write(str(os.getpid())); time.sleep(120)\""_s.arg(marker),
                   marker);
    QVERIFY(m_bigPid > 0);
    m_poller->start();
    ProcessTableModel *table = m_poller->processes();
    QTRY_VERIFY_WITH_TIMEOUT(table->rowOfPid(m_bigPid) >= 0, 15000);
    const ObserveProcess *big = table->process(table->rowOfPid(m_bigPid));
    QCOMPARE(big->comm, u"python3"_s);
    QVERIFY2(big->rssBytes >= kBig, qPrintable(QString::number(big->rssBytes)));
    QCOMPARE(
        table->index(table->rowOfPid(m_bigPid), ProcessTableModel::PidColumn).data().toString(),
        QString::number(m_bigPid));
    // The server's own threads are not the sandbox's: its source is the process tree here.
    QCOMPARE(m_poller->snapshot().source, u"process_tree"_s);
    QVERIFY(!m_poller->snapshot().memMaxBytes.has_value());
    const ResourceHistory &history = m_poller->history();
    QTRY_VERIFY(history.size() >= 2);
    QVERIFY2(history.last().memBytes >= kBig, qPrintable(QString::number(history.last().memBytes)));
    QVERIFY(history.memoryPoints(1024.0 * 1024.0).constLast().y() >= 300.0);
    QVERIFY(history.last().diskTotalBytes > 0);
}

void TestMonitorModels::rowsKeepIdentityAcrossPolls() {
    QVERIFY(m_bigPid > 0);
    ProcessTableModel *table = m_poller->processes();
    QAbstractItemModelTester tester(table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QHash<qint64, QPersistentModelIndex> before;
    for (int row = 0; row < table->rowCount(); ++row)
        before.insert(table->process(row)->pid, QPersistentModelIndex(table->index(row, 0)));
    QSignalSpy removed(table, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(table, &QAbstractItemModel::modelReset);
    const int polls = m_poller->polls();
    QTRY_VERIFY_WITH_TIMEOUT(m_poller->polls() >= polls + 3, 15000);
    QCOMPARE(reset.count(), 0);
    const QPersistentModelIndex big = before.value(m_bigPid);
    QVERIFY(big.isValid());
    QCOMPARE(big.data(ProcessTableModel::PidRole).toLongLong(), m_bigPid);
    // Every row still listed is where its persistent index says, whatever left meanwhile.
    for (auto it = before.cbegin(); it != before.cend(); ++it) {
        if (it.value().isValid())
            QCOMPARE(it.value().data(ProcessTableModel::PidRole).toLongLong(), it.key());
        else
            QCOMPARE(table->rowOfPid(it.key()), -1);
    }
}

void TestMonitorModels::sortingIsNumeric() {
    const QString marker = m_dir.filePath(u"busy-ready"_s);
    m_busyPid =
        startChild(u"timeout 60 sh -c 'echo $$ > %1; while :; do :; done'"_s.arg(marker), marker);
    QVERIFY(m_busyPid > 0);
    ProcessTableModel *table = m_poller->processes();
    QTRY_VERIFY_WITH_TIMEOUT(table->rowOfPid(m_busyPid) >= 0 &&
                                 table->process(table->rowOfPid(m_busyPid))->cpuPct.value_or(0) >
                                     30,
                             20000);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(table);
    proxy.setSortRole(ProcessTableModel::SortRole);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(proxy.rowCount() >= 3);

    proxy.sort(ProcessTableModel::RssColumn, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, 0).data(ProcessTableModel::PidRole).toLongLong(), m_bigPid);
    for (int row = 1; row < proxy.rowCount(); ++row) {
        const QVariant above =
            proxy.index(row - 1, ProcessTableModel::RssColumn).data(ProcessTableModel::SortRole);
        const QVariant here =
            proxy.index(row, ProcessTableModel::RssColumn).data(ProcessTableModel::SortRole);
        QCOMPARE(here.typeId(), QMetaType::LongLong);
        QVERIFY(above.toLongLong() >= here.toLongLong());
    }

    proxy.sort(ProcessTableModel::CpuColumn, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, 0).data(ProcessTableModel::PidRole).toLongLong(), m_busyPid);
    for (int row = 1; row < proxy.rowCount(); ++row) {
        const double above = proxy.index(row - 1, ProcessTableModel::CpuColumn)
                                 .data(ProcessTableModel::SortRole)
                                 .toDouble();
        const double here = proxy.index(row, ProcessTableModel::CpuColumn)
                                .data(ProcessTableModel::SortRole)
                                .toDouble();
        QVERIFY(above >= here);
    }
    ::kill(static_cast<pid_t>(m_busyPid), SIGKILL);
    // Gone from the sandbox, gone from the table at the next poll.
    QTRY_COMPARE_WITH_TIMEOUT(table->rowOfPid(m_busyPid), -1, 15000);
}

void TestMonitorModels::eventModelDeduplicatesNewestFirst() {
    ObserveEventModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // The server's own events, repeated by every poll, are listed once each.
    QTRY_VERIFY(m_poller->polls() >= 2);
    model.add(m_poller->snapshot().events);
    const int fromServer = model.rowCount();
    QCOMPARE(model.add(m_poller->snapshot().events), 0);
    QCOMPARE(model.rowCount(), fromServer);

    const QDateTime t0 = QDateTime::currentDateTimeUtc();
    const ObserveEvent older{t0.addSecs(-10), u"memory_high"_s, u"first"_s};
    const ObserveEvent newer{t0, u"oom_kill"_s, u"second"_s};
    QCOMPARE(model.add({older, newer}), 2);
    QCOMPARE(model.event(0)->message, u"second"_s);
    QCOMPARE(model.event(1)->message, u"first"_s);
    // The same list again (the next poll) adds nothing; a later event goes on top.
    QCOMPARE(model.add({older, newer}), 0);
    const ObserveEvent latest{t0.addSecs(5), u"oom_kill"_s, u"third"_s};
    QCOMPARE(model.add({older, newer, latest}), 1);
    QCOMPARE(model.rowCount(), fromServer + 3);
    QCOMPARE(model.index(0, ObserveEventModel::MessageColumn).data().toString(), u"third"_s);
    QCOMPARE(model.index(0, ObserveEventModel::TypeColumn).data().toString(), u"oom_kill"_s);
}

void TestMonitorModels::historyKeepsTheWindow() {
    ResourceHistory history;
    const QDateTime t0 = QDateTime::currentDateTimeUtc();
    for (int minute = 0; minute <= 20; ++minute)
        history.append(ResourceHistory::Sample{t0.addSecs(minute * 60), 5.0 * minute,
                                               qint64(minute) * 1024, std::nullopt, 1, 2});
    // 15 minutes back from the newest (minute 20): minutes 5 to 20.
    QCOMPARE(history.size(), 16);
    QCOMPARE(history.at(0).time, t0.addSecs(5 * 60));
    QCOMPARE(history.cpuPoints().size(), 16);
    QCOMPARE(history.maxCpu(), 100.0);
    QCOMPARE(history.maxMemory(), 20 * 1024);
    // A sample without a CPU figure is left out of the CPU line, not drawn as 0.
    history.append(ResourceHistory::Sample{t0.addSecs(21 * 60), std::nullopt, 0, {}, 1, 2});
    QCOMPARE(history.cpuPoints().size(), 15);
    QCOMPARE(history.memoryPoints(1).size(), 16);
}

void TestMonitorModels::cleanupTestCase() {
    m_poller.reset();
    for (qint64 pid : {m_bigPid, m_busyPid}) {
        if (pid > 0)
            ::kill(static_cast<pid_t>(pid), SIGKILL);
    }
}

QTEST_MAIN(TestMonitorModels)
#include "tst_monitormodels.moc"
