// The Runs tab and its BashRun against a real sandbox-server: a command's output streams into
// the log view with stderr lines marked and the exit code shown, input reaches it, Stop goes
// SIGINT, SIGTERM, SIGKILL saying each, history recalls commands, a run resumes after the
// network drops, an agent's session can be followed, and a sandbox without /v1/bash says so.
#include "client/api/bashrun.h"
#include "client/sandboxclient.h"
#include "models/logs/logdata.h"
#include "models/runs/runlistmodel.h"
#include "models/runs/sessionlistmodel.h"
#include "tests/support/faultproxy.h"
#include "tests/support/testserver.h"
#include "widgets/logs/logview.h"
#include "widgets/runs/runstab.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

QStringList logLines(LogView *view) {
    QStringList out;
    if (!view)
        return out;
    const LogData *data = view->data();
    for (const QByteArray &line : data->lines(0, data->lineCount()))
        out << QString::fromUtf8(line);
    return out;
}

bool finished(const BashRun *run) {
    return run && !run->active();
}

} // namespace

class TestRunsTab final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;
    std::unique_ptr<SandboxClient> m_client;
    QTemporaryDir m_dir;

    std::unique_ptr<RunsTab> shownTab() {
        auto tab = std::make_unique<RunsTab>(m_client.get());
        tab->resize(1000, 700);
        tab->show();
        if (!QTest::qWaitForWindowExposed(tab.get()))
            return nullptr;
        return tab;
    }

private Q_SLOTS:
    void initTestCase();
    void outputStreamsWithStderrMarkedAndTheExitCode();
    void outputIsInTheLogWhileItRuns();
    void inputReachesTheCommand();
    void stopEscalatesAndSaysEachSignal();
    void historyRecallsCommands();
    void badFieldsAreRefusedBeforeRunning();
    void runResumesAfterTheNetworkDrops();
    void agentSessionCanBeFollowed();
    void sandboxWithoutBashSaysSo();
};

void TestRunsTab::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_client = std::make_unique<SandboxClient>(Endpoint{m_server.url(), {}}, Credentials{});
}

void TestRunsTab::outputStreamsWithStderrMarkedAndTheExitCode() {
    auto tab = shownTab();
    QVERIFY(tab);
    QAbstractItemModelTester tester(tab->runs(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTest::keyClicks(tab->commandField(), u"echo out; echo err >&2; echo more; exit 4"_s);
    QTest::keyClick(tab->commandField(), Qt::Key_Return);
    BashRun *run = tab->currentRun();
    QVERIFY(run);
    QTRY_VERIFY_WITH_TIMEOUT(finished(run), 15000);
    QCOMPARE(run->stateText(), u"exit 4"_s);
    QCOMPARE(tab->runs()->rowCount(), 1);
    QCOMPARE(tab->runs()->index(0, RunListModel::StateColumn).data().toString(), u"exit 4"_s);
    QVERIFY(tab->headerText().contains(u"exit 4"_s));
    LogView *view = tab->logViewOf(run);
    QTRY_COMPARE(view->data()->lineCount(), 3);
    const QStringList lines = logLines(view);
    QCOMPARE(lines.at(0), u"out"_s);
    QVERIFY2(lines.contains(u"\x1b[31merr\x1b[0m"_s), qPrintable(lines.join(u'|')));
    QVERIFY(lines.contains(u"more"_s));
    QVERIFY(!tab->stopButton()->isEnabled());
}

void TestRunsTab::outputIsInTheLogWhileItRuns() {
    auto tab = shownTab();
    QVERIFY(tab);
    const QString go = m_dir.filePath(u"go-running"_s);
    tab->runCommand(
        u"seq 1 500 | sed 's/^/line /'; echo 'needle here'; while [ ! -e '%1' ]; do sleep 0.02; done"_s
            .arg(go));
    BashRun *run = tab->currentRun();
    LogView *view = tab->logViewOf(run);
    QTRY_COMPARE_WITH_TIMEOUT(view->data()->lineCount(), 501, 15000);
    QVERIFY(run->active());
    QCOMPARE(logLines(view).last(), u"needle here"_s);
    QVERIFY(tab->stopButton()->isEnabled());
    QVERIFY(tab->headerText().contains(u"running"_s));
    QFile(go).open(QIODevice::WriteOnly);
    QTRY_VERIFY_WITH_TIMEOUT(finished(run), 15000);
    QCOMPARE(run->stateText(), u"exit 0"_s);
}

void TestRunsTab::inputReachesTheCommand() {
    auto tab = shownTab();
    QVERIFY(tab);
    tab->runCommand(u"read -r name; echo \"hello $name\""_s);
    BashRun *run = tab->currentRun();
    QTRY_VERIFY(run->phase() == BashRun::Phase::Running);
    QVERIFY(tab->inputField()->isEnabled());
    QTest::keyClicks(tab->inputField(), u"Ada"_s);
    QTest::keyClick(tab->inputField(), Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(finished(run), 15000);
    QCOMPARE(logLines(tab->logViewOf(run)), QStringList{u"hello Ada"_s});
}

void TestRunsTab::stopEscalatesAndSaysEachSignal() {
    auto tab = shownTab();
    QVERIFY(tab);
    tab->runCommand(
        u"trap 'echo INT' INT; trap 'echo TERM' TERM; echo ready; while :; do sleep 0.05; done"_s);
    BashRun *run = tab->currentRun();
    QTRY_VERIFY_WITH_TIMEOUT(logLines(tab->logViewOf(run)).contains(u"ready"_s), 15000);
    QCOMPARE(tab->stopButton()->text(), u"Stop (SIGINT)"_s);
    QTest::mouseClick(tab->stopButton(), Qt::LeftButton);
    QTRY_VERIFY(tab->noticeText().contains(u"Sent SIGINT"_s));
    QTRY_VERIFY(logLines(tab->logViewOf(run)).contains(u"INT"_s));
    QVERIFY(run->active());
    QCOMPARE(tab->stopButton()->text(), u"Stop (SIGTERM)"_s);
    tab->stopCurrent();
    QTRY_VERIFY(tab->noticeText().contains(u"Sent SIGTERM"_s));
    QTRY_VERIFY(logLines(tab->logViewOf(run)).contains(u"TERM"_s));
    QCOMPARE(tab->stopButton()->text(), u"Kill (SIGKILL)"_s);
    tab->stopCurrent();
    QTRY_VERIFY_WITH_TIMEOUT(finished(run), 15000);
    QCOMPARE(run->state().status, u"killed"_s);
    QCOMPARE(run->stateText(), u"stopped (exit 137)"_s);
}

void TestRunsTab::historyRecallsCommands() {
    auto tab = shownTab();
    QVERIFY(tab);
    tab->runCommand(u"echo first"_s);
    tab->runCommand(u"echo second"_s);
    QLineEdit *field = tab->commandField();
    field->setFocus();
    QTest::keyClick(field, Qt::Key_Up);
    QCOMPARE(field->text(), u"echo second"_s);
    QTest::keyClick(field, Qt::Key_Up);
    QCOMPARE(field->text(), u"echo first"_s);
    QTest::keyClick(field, Qt::Key_Down);
    QCOMPARE(field->text(), u"echo second"_s);
    QTest::keyClick(field, Qt::Key_Down);
    QCOMPARE(field->text(), QString());
    // Re-run repeats the current run with its folder and environment.
    QTRY_VERIFY_WITH_TIMEOUT(finished(tab->currentRun()), 15000);
    tab->rerunCurrent();
    QCOMPARE(tab->runs()->rowCount(), 3);
    QCOMPARE(tab->currentRun()->state().command, u"echo second"_s);
}

void TestRunsTab::badFieldsAreRefusedBeforeRunning() {
    auto tab = shownTab();
    QVERIFY(tab);
    tab->environmentField()->setText(u"=oops"_s);
    tab->runCommand(u"true"_s);
    QCOMPARE(tab->runs()->rowCount(), 0);
    tab->environmentField()->setText(u"GREETING='hi there' N=2"_s);
    tab->folderField()->setText(u"relative/dir"_s);
    tab->runCommand(u"true"_s);
    QCOMPARE(tab->runs()->rowCount(), 0);
    tab->folderField()->setText(m_dir.path());
    tab->runCommand(u"echo \"$GREETING $N $PWD\""_s);
    BashRun *run = tab->currentRun();
    QVERIFY(run);
    QTRY_VERIFY2_WITH_TIMEOUT(finished(run), qPrintable(run->stateText() + run->error()), 15000);
    QCOMPARE(logLines(tab->logViewOf(run)), QStringList{u"hi there 2 %1"_s.arg(m_dir.path())});
}

void TestRunsTab::runResumesAfterTheNetworkDrops() {
    FaultProxy proxy(m_server.port());
    QVERIFY(proxy.listen());
    SandboxClient viaProxy({proxy.url(), {}}, {});
    const QString go = m_dir.filePath(u"go-resume"_s);
    BashExecRequest request;
    request.command =
        u"echo first; echo e1 >&2; while [ ! -e '%1' ]; do sleep 0.02; done; echo second; echo e2 >&2"_s
            .arg(go);
    BashRun run(&viaProxy, request);
    run.setRetryDelays({100, 200});
    QByteArray log;
    connect(&run, &BashRun::bytes, this, [&log](const QByteArray &b) { log += b; });
    QStringList notices;
    connect(&run, &BashRun::notice, this, [&notices](const QString &n) { notices << n; });
    run.start();
    QTRY_VERIFY_WITH_TIMEOUT(log.contains("e1"), 15000);
    proxy.setRefusing(true);
    proxy.cutAll();
    QTRY_COMPARE_WITH_TIMEOUT(run.phase(), BashRun::Phase::Reconnecting, 15000);
    QVERIFY(!notices.isEmpty() && notices.last().contains(u"Connection lost"_s));
    QFile(go).open(QIODevice::WriteOnly);
    proxy.setRefusing(false);
    QTRY_VERIFY_WITH_TIMEOUT(!run.active(), 20000);
    QCOMPARE(run.phase(), BashRun::Phase::Finished);
    QVERIFY(notices.last().contains(u"Connection back"_s));
    // Everything once, nothing twice.
    QCOMPARE(log, QByteArray("first\n\x1b[31me1\x1b[0m\nsecond\n\x1b[31me2\x1b[0m\n"));
}

void TestRunsTab::agentSessionCanBeFollowed() {
    // The agent: a command in a session of its own, started past the console.
    const QString go = m_dir.filePath(u"go-agent"_s);
    BashExecRequest request;
    request.command =
        u"echo agent step 1; while [ ! -e '%1' ]; do sleep 0.02; done; echo agent done"_s.arg(go);
    request.sessionId = u"agent-7"_s;
    BashRun agent(m_client.get(), request);
    agent.start();
    QTRY_COMPARE(agent.phase(), BashRun::Phase::Running);

    auto tab = shownTab();
    QVERIFY(tab);
    QAbstractItemModelTester tester(tab->sessions(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    SessionListModel *sessions = tab->sessions();
    int row = -1;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int i = 0; i < sessions->rowCount(); ++i) {
                if (sessions->row(i)->id == "agent-7"_L1 && !sessions->row(i)->commandId.isEmpty())
                    row = i;
            }
            return row >= 0;
        }(),
        15000);
    QCOMPARE(sessions->row(row)->kind, u"bash"_s);
    QVERIFY(sessions->index(row, SessionListModel::CommandColumn)
                .data()
                .toString()
                .startsWith(u"echo agent step 1"_s));
    auto *list = tab->findChildren<QTreeView *>().at(1);
    list->setCurrentIndex(sessions->index(row, 0));
    tab->followSelectedSession();
    BashRun *followed = tab->currentRun();
    QVERIFY(followed && followed->attached());
    QTRY_VERIFY_WITH_TIMEOUT(logLines(tab->logViewOf(followed)).contains(u"agent step 1"_s), 15000);
    QFile(go).open(QIODevice::WriteOnly);
    QTRY_VERIFY_WITH_TIMEOUT(finished(followed), 15000);
    QCOMPARE(logLines(tab->logViewOf(followed)), (QStringList{u"agent step 1"_s, u"agent done"_s}));
}

void TestRunsTab::sandboxWithoutBashSaysSo() {
    TestServer older;
    QVERIFY(older.start(TestServer::withArgs({u"--without"_s, u"bash"_s})));
    SandboxClient client({older.url(), {}}, {});
    RunsTab tab(&client);
    tab.show();
    tab.runCommand(u"echo hi"_s);
    QTRY_VERIFY_WITH_TIMEOUT(finished(tab.currentRun()), 15000);
    QCOMPARE(tab.currentRun()->phase(), BashRun::Phase::Failed);
    QVERIFY(tab.currentRun()->noBashApi());
    QVERIFY(tab.showsNoBashApi());
    QVERIFY(tab.headerText().contains(u"no /v1/bash"_s));
    // Its shell sessions are still listed.
    QTRY_VERIFY(!tab.sessions()->isRefreshing());
    QVERIFY(tab.sessions()->error().isEmpty());
}

QTEST_MAIN(TestRunsTab)
#include "tst_runstab.moc"
