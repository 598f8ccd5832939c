// Terminals as a user sees them: keys typed into a TerminalView run in a real sandbox-server
// shell, the PTY follows the view's size, and a cut connection comes back with what was
// printed meanwhile, full-screen programs included.
#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "models/terminal/terminalemulation.h"
#include "tests/support/faultproxy.h"
#include "tests/support/testserver.h"
#include "widgets/shell/terminalpane.h"
#include "widgets/shell/terminaltab.h"
#include "widgets/terminal/terminalview.h"

#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

namespace {

bool screenHasLine(const TerminalView *view, const QString &line) {
    const QStringList lines = view->emulation()->screenText().split(QLatin1Char('\n'));
    for (const QString &l : lines) {
        if (l.trimmed() == line)
            return true;
    }
    return false;
}

// Typing before the shell's first prompt would be echoed twice (by the tty, then by readline).
bool atPrompt(const TerminalView *view) {
    const QString text = view->emulation()->screenText().trimmed();
    return text.endsWith(QLatin1Char('$')) || text.endsWith(QLatin1Char('#'));
}

void typeLine(TerminalView *view, const QString &text) {
    QTRY_VERIFY_WITH_TIMEOUT(atPrompt(view), 10000);
    QTest::keyClicks(view, text);
    QTest::keyClick(view, Qt::Key_Return);
}

void learnExtensions(SandboxClient *client) {
    auto *job = new GetContextJob(client);
    QSignalSpy done(job, &ApiJob::finished);
    job->start();
    QVERIFY(done.wait(10000));
}

} // namespace

class TestTerminal final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_server.start(), qPrintable(m_server.error())); }

    void typedEchoShowsOnScreen() {
        SandboxClient client({m_server.url(), {}}, {});
        TerminalPane pane(&client);
        pane.resize(800, 500);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Live, 10000);
        typeLine(pane.view(), QStringLiteral("echo hel''lo"));
        QTRY_VERIFY2_WITH_TIMEOUT(screenHasLine(pane.view(), QStringLiteral("hello")),
                                  qPrintable(pane.view()->emulation()->screenText()), 10000);

        // The PTY follows the view's size.
        QSignalSpy resized(pane.view(), &TerminalView::terminalSizeChanged);
        pane.resize(640, 400);
        QTRY_VERIFY_WITH_TIMEOUT(!resized.isEmpty(), 5000);
        const QString expected =
            QStringLiteral("%1 %2").arg(pane.view()->rows()).arg(pane.view()->columns());
        typeLine(pane.view(), QStringLiteral("clear; stty size"));
        QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), expected), 10000);
    }

    void reconnectShowsWhatWasPrintedMeanwhile() {
        FaultProxy proxy(m_server.port());
        QVERIFY(proxy.listen());
        SandboxClient client({proxy.url(), {}}, {});
        learnExtensions(&client);
        TerminalPane pane(&client);
        pane.resize(800, 500);
        pane.show();
        QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Live, 10000);

        QTemporaryDir dir;
        const QString go = dir.filePath(QStringLiteral("go"));
        const QString done = dir.filePath(QStringLiteral("done"));
        typeLine(pane.view(), QStringLiteral("echo START$((1)); while [ ! -e %1 ]; do sleep 0.05; "
                                             "done; echo MARK$((6*7)); touch %2")
                                  .arg(go, done));
        // START1 is printed once the whole line, Enter included, reached the shell.
        QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), QStringLiteral("START1")), 10000);
        const int commandCopies = 1;

        proxy.setRefusing(true);
        proxy.cutAll();
        QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Reconnecting,
                                  5000);
        QVERIFY2(pane.bannerText().contains(QStringLiteral("reconnecting")),
                 qPrintable(pane.bannerText()));
        QFile(go).open(QIODevice::WriteOnly);
        QTRY_VERIFY2_WITH_TIMEOUT(QFileInfo::exists(done),
                                  qPrintable(pane.view()->emulation()->screenText()), 10000);
        proxy.setRefusing(false);
        QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Live, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), QStringLiteral("MARK42")), 10000);
        // The replay rebuilt the screen: the command line is there once, not twice.
        QVERIFY2(pane.view()->emulation()->screenText().count(QStringLiteral("MARK$((6*7))")) ==
                     commandCopies,
                 qPrintable(pane.view()->emulation()->screenText()));
        QVERIFY(pane.bannerText().isEmpty());
    }

    void alternateScreenSurvivesReattach() {
        FaultProxy proxy(m_server.port());
        QVERIFY(proxy.listen());
        SandboxClient client({proxy.url(), {}}, {});
        learnExtensions(&client);
        TerminalPane pane(&client);
        pane.resize(800, 500);
        pane.show();
        QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Live, 10000);
        typeLine(pane.view(), QStringLiteral("echo PRIMARY$((1+1))"));
        QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), QStringLiteral("PRIMARY2")), 10000);
        // A full-screen program in miniature: enter the alternate screen, draw, wait for a key.
        typeLine(pane.view(), QStringLiteral("printf '\\033[?1049h\\033[2J\\033[HFULL%sSCREEN' -; "
                                             "read x; printf '\\033[?1049l'"));
        QTRY_VERIFY_WITH_TIMEOUT(pane.view()->emulation()->altScreen(), 10000);
        QTRY_VERIFY(screenHasLine(pane.view(), QStringLiteral("FULL-SCREEN")));

        proxy.cutAll();
        QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Reconnecting,
                                  5000);
        QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Live, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(pane.view()->emulation()->altScreen(), 10000);
        QTRY_VERIFY(screenHasLine(pane.view(), QStringLiteral("FULL-SCREEN")));

        QTest::keyClick(pane.view(), Qt::Key_Return); // the program ends
        QTRY_VERIFY_WITH_TIMEOUT(!pane.view()->emulation()->altScreen(), 10000);
        QTRY_VERIFY(screenHasLine(pane.view(), QStringLiteral("PRIMARY2")));
    }

    void terminalTabOpensClosesAndSplits() {
        SandboxClient client({m_server.url(), {}}, {});
        TerminalTab tab(&client);
        tab.resize(900, 600);
        tab.show(); // the first visit opens a terminal
        QTRY_COMPARE(tab.panes().size(), 1);
        TerminalPane *first = tab.panes().first();
        QTRY_COMPARE_WITH_TIMEOUT(tab.terminalCount(), 1, 10000);
        TerminalPane *second = tab.splitCurrent();
        QVERIFY(second);
        QCOMPARE(tab.tabs()->count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(second->channel()->state(), TerminalChannel::State::Live, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(first->channel()->state(), TerminalChannel::State::Live, 10000);
        QVERIFY(second->sessionId() != first->sessionId());

        QTest::keyClick(&tab, Qt::Key_T, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(tab.tabs()->count(), 2);
        tab.renameCurrent(QStringLiteral("builds"));
        QCOMPARE(tab.tabs()->tabText(1), QStringLiteral("builds"));
        QTest::keyClick(&tab, Qt::Key_W, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(tab.tabs()->count(), 1);

        // Attaching to a running session from a second view shows the same shell.
        TerminalPane *again = tab.openTerminal(first->sessionId());
        QTRY_COMPARE_WITH_TIMEOUT(again->channel()->state(), TerminalChannel::State::Live, 10000);
        QCOMPARE(again->sessionId(), first->sessionId());
        typeLine(first->view(), QStringLiteral("echo SHARED$((2*3))"));
        QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(again->view(), QStringLiteral("SHARED6")), 10000);

        // A bell in a tab not looked at marks that tab until it is visited.
        QCOMPARE(tab.tabs()->currentIndex(), 1);
        first->channel()->sendInput("clear; printf '\\a'\r");
        QTRY_VERIFY_WITH_TIMEOUT(tab.tabs()->tabText(0).startsWith(QStringLiteral("🔔")), 10000);
        tab.tabs()->setCurrentIndex(0);
        QVERIFY(!tab.tabs()->tabText(0).startsWith(QStringLiteral("🔔")));
    }
};

QTEST_MAIN(TestTerminal)
#include "tst_terminal.moc"
