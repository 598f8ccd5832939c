// Session restore as a user meets it: quit with terminals, a folder and a log open, start again
// and find them as they were; a terminal whose shell is gone comes back as a new one; with
// --no-restore nothing comes back.
#include "app/consolecontext.h"
#include "app/mainwindow.h"
#include "client/api/shelljobs.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/savedendpoints.h"
#include "models/session/sessionstore.h"
#include "models/terminal/terminalemulation.h"
#include "tests/support/testserver.h"
#include "widgets/files/filestab.h"
#include "widgets/logs/logview.h"
#include "widgets/logs/logwindow.h"
#include "widgets/shell/terminalpane.h"
#include "widgets/shell/terminaltab.h"
#include "widgets/terminal/terminalview.h"
#include "widgets/workspace/sandboxworkspace.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

bool atPrompt(const TerminalView *view) {
    const QString text = view->emulation()->screenText().trimmed();
    return text.endsWith(QLatin1Char('$')) || text.endsWith(QLatin1Char('#'));
}

TerminalTab *terminalsOf(MainWindow &window, const QString &id) {
    SandboxWorkspace *ws = window.workspace(id);
    return ws ? qobject_cast<TerminalTab *>(ws->tab(u"terminal"_s)) : nullptr;
}

} // namespace

class TestSession final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    TestServer m_server;
    ConsoleContext::Paths paths() const {
        return {m_dir.filePath(u"console.conf"_s), m_dir.filePath(u"data"_s),
                QStringLiteral(SBX_SERVER_BINARY), false};
    }

private Q_SLOTS:
    void initTestCase();
    void comesBackAsItWasLeft();
    void goneShellComesBackAsANewOne();
    void noRestoreStartsClean();
    void localSandboxTerminalComesBackAfterRestart();
};

void TestSession::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestSession::comesBackAsItWasLeft() {
    const QString folder = m_server.workspace() + u"/restored-folder"_s;
    QVERIFY(QDir().mkpath(folder));
    const QString logPath = m_dir.filePath(u"agent.log"_s);
    {
        QFile log(logPath);
        QVERIFY(log.open(QIODevice::WriteOnly));
        for (int i = 0; i < 500; ++i)
            log.write("line " + QByteArray::number(i) + "\n");
    }
    QString id;
    QString sessionId;
    {
        ConsoleContext context(paths());
        id = context.saved()->add(
            {QString(), u"Restored"_s, {m_server.url(), {}}, {}, SandboxState::Online, {}});
        MainWindow window(&context);
        QVERIFY(window.restoreSession().isEmpty()); // nothing saved yet
        window.resize(1100, 700);
        window.show();
        window.selectSandbox(id);
        TerminalTab *terminals = terminalsOf(window, id);
        QVERIFY(terminals);
        TerminalPane *pane = terminals->openTerminal();
        terminals->renameCurrent(u"build"_s);
        QTRY_VERIFY_WITH_TIMEOUT(!pane->sessionId().isEmpty() && atPrompt(pane->view()), 15000);
        sessionId = pane->sessionId();
        QTest::keyClicks(pane->view(), u"echo restored-$((6*7))"_s);
        QTest::keyClick(pane->view(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(pane->view()->emulation()->screenText().contains(u"restored-42"_s),
                                 10000);
        auto *files = qobject_cast<FilesTab *>(window.workspace(id)->tab(u"files"_s));
        window.workspace(id)->showTab(u"files"_s);
        QTRY_VERIFY_WITH_TIMEOUT(!files->folder().isEmpty(), 10000);
        files->setFolder(folder);
        QTRY_COMPARE_WITH_TIMEOUT(files->folder(), folder, 10000);
        LogView *log = window.logWindow()->openFile(logPath);
        // Once the file is indexed that far, the user goes to line 322 (0-based 321).
        QTRY_VERIFY_WITH_TIMEOUT((log->goToLine(321), log->currentLine() == 321), 10000);
        QVERIFY(window.session()->flush());
        QVERIFY(window.session()->writeError().isEmpty());
        // The console quits (a crash would leave the last periodic snapshot, the same file).
    }
    // The session file names sessions, folders and files, never the sandbox's credentials.
    QFile saved(m_dir.filePath(u"session.json"_s));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const QByteArray text = saved.readAll();
    QVERIFY(text.contains(sessionId.toUtf8()));

    ConsoleContext context(paths());
    MainWindow window(&context);
    QCOMPARE(window.restoreSession(), id);
    window.show();
    window.selectSandbox(id);
    QCOMPARE(window.workspace(id)->tabs()->currentWidget(), window.workspace(id)->tab(u"files"_s));
    // The Terminal tab is not built until it is needed; a save meanwhile keeps its terminals.
    QVERIFY(!window.workspace(id)->findChild<TerminalTab *>());
    QVERIFY(window.session()->flush());
    {
        QFile again(m_dir.filePath(u"session.json"_s));
        QVERIFY(again.open(QIODevice::ReadOnly));
        QVERIFY(again.readAll().contains(sessionId.toUtf8()));
    }
    TerminalTab *terminals = terminalsOf(window, id);
    QTRY_COMPARE_WITH_TIMEOUT(terminals->panes().size(), 1, 15000); // once the sandbox is online
    TerminalPane *pane = terminals->panes().first();
    QCOMPARE(terminals->tabs()->tabText(0), u"build"_s);
    // The same shell, its output replayed by the server.
    QTRY_COMPARE_WITH_TIMEOUT(pane->sessionId(), sessionId, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(pane->view()->emulation()->screenText().contains(u"restored-42"_s),
                             10000);
    auto *files = qobject_cast<FilesTab *>(window.workspace(id)->tab(u"files"_s));
    QTRY_COMPARE_WITH_TIMEOUT(files->folder(), folder, 10000);
    QCOMPARE(window.logWindow()->tabs()->count(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(window.logWindow()->view(0)->currentLine(), qint64(321), 10000);
    pane->session()->terminate();
}

void TestSession::goneShellComesBackAsANewOne() {
    QString id;
    QString sessionId;
    {
        ConsoleContext context(paths());
        MainWindow window(&context);
        window.restoreSession(false);
        id = context.saved()->add(
            {QString(), u"Gone"_s, {m_server.url(), {}}, {}, SandboxState::Online, {}});
        window.show();
        window.selectSandbox(id);
        TerminalPane *pane = terminalsOf(window, id)->openTerminal();
        QTRY_VERIFY_WITH_TIMEOUT(!pane->sessionId().isEmpty(), 15000);
        sessionId = pane->sessionId();
        QVERIFY(window.session()->flush());
        // The shell ends while the console is away.
        auto *end = new DeleteShellSessionJob(context.registry()->client(id), sessionId);
        QSignalSpy ended(end, &ApiJob::finished);
        end->start();
        QVERIFY(ended.wait(10000));
    }
    ConsoleContext context(paths());
    MainWindow window(&context);
    window.restoreSession();
    window.show();
    window.selectSandbox(id);
    TerminalTab *terminals = terminalsOf(window, id);
    QTRY_COMPARE_WITH_TIMEOUT(terminals->panes().size(), 1, 15000);
    TerminalPane *pane = terminals->panes().first();
    // Asked for the old one, refused, and given a new one in its place.
    QTRY_VERIFY_WITH_TIMEOUT(!pane->sessionId().isEmpty() && pane->sessionId() != sessionId, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(pane->isRunning(), 10000);
    // One line says what happened.
    QTRY_VERIFY_WITH_TIMEOUT(pane->bannerText().contains(sessionId), 10000);
    pane->session()->terminate();
}

void TestSession::noRestoreStartsClean() {
    ConsoleContext context(paths());
    MainWindow window(&context);
    QVERIFY(window.restoreSession(false).isEmpty());
    QVERIFY(!window.findChild<LogWindow *>() || window.logWindow()->tabs()->count() == 0);
    const QList<QString> ids = context.registry()->ids();
    for (const QString &id : ids) {
        if (TerminalTab *terminals = terminalsOf(window, id))
            QCOMPARE(terminals->panes().size(), 0);
    }
}

void TestSession::localSandboxTerminalComesBackAfterRestart() {
    // The local sandbox stops with the console: its shells are gone at the next start, and its
    // server has no address until it is up again. The terminal waits for it, then is new.
    QTemporaryDir dir;
    const ConsoleContext::Paths local{dir.filePath(u"console.conf"_s), dir.filePath(u"data"_s),
                                      QStringLiteral(SBX_SERVER_BINARY), false};
    QString id;
    QString sessionId;
    {
        ConsoleContext context(local);
        MainWindow window(&context);
        window.restoreSession();
        id = context.startDefaultLocal();
        window.show();
        window.selectSandbox(id);
        QTRY_COMPARE_WITH_TIMEOUT(context.registry()->state(id), SandboxState::Online, 20000);
        // As a user does: the tab's first visit opens the terminal, and it stays in front.
        window.workspace(id)->showTab(u"terminal"_s);
        QTRY_COMPARE_WITH_TIMEOUT(terminalsOf(window, id)->panes().size(), 1, 10000);
        TerminalPane *pane = terminalsOf(window, id)->panes().first();
        QTRY_VERIFY_WITH_TIMEOUT(pane->isRunning() && !pane->sessionId().isEmpty(), 15000);
        sessionId = pane->sessionId();
        QVERIFY(window.session()->flush());
    }
    ConsoleContext context(local);
    MainWindow window(&context);
    const QString restored = window.restoreSession();
    QCOMPARE(restored, id);
    context.startDefaultLocal();
    window.show();
    window.selectSandbox(id);
    TerminalTab *terminals = terminalsOf(window, id);
    QTRY_COMPARE_WITH_TIMEOUT(terminals->panes().size(), 1, 20000);
    TerminalPane *pane = terminals->panes().first();
    QTRY_VERIFY_WITH_TIMEOUT(
        pane->isRunning() && !pane->sessionId().isEmpty() && pane->sessionId() != sessionId, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(pane->bannerText().contains(sessionId), 10000);
    // Only the restored terminal: the tab in front did not open one of its own meanwhile.
    QCOMPARE(terminals->tabs()->count(), 1);
}

QTEST_MAIN(TestSession)
#include "tst_session.moc"
