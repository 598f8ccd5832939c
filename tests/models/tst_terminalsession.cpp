// TerminalSession against a real sandbox-server shell: what the shell prints reaches the
// emulation, input from any view reaches the shell, and the PTY takes the smallest grid of the
// views attached, again when one goes.
#include "client/sandboxclient.h"
#include "models/terminal/terminalemulation.h"
#include "models/terminal/terminalsession.h"
#include "tests/support/testserver.h"

#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <memory>

using namespace sbx;
using namespace sbxtest;

using namespace Qt::StringLiterals;

namespace {

bool screenHasLine(const TerminalEmulation *emulation, const QString &line) {
    const QStringList lines = emulation->screenText().split(u'\n');
    return std::any_of(lines.cbegin(), lines.cend(),
                       [&line](const QString &l) { return l.trimmed() == line; });
}

bool atPrompt(const TerminalEmulation *emulation) {
    const QString text = emulation->screenText().trimmed();
    return text.endsWith(u'$') || text.endsWith(u'#');
}

} // namespace

class TestTerminalSession final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;

private Q_SLOTS:
    void initTestCase();
    void outputReachesTheEmulationAndInputTheShell();
    void ptyTakesTheSmallestViewAndFollowsADetach();
    void newShellReplacesAnEndedOne();
};

void TestTerminalSession::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestTerminalSession::outputReachesTheEmulationAndInputTheShell() {
    SandboxClient client({m_server.url(), {}}, {});
    TerminalSession session(&client);
    QObject first;
    QObject second;
    session.attachView(&first);
    session.attachView(&second);
    QCOMPARE(session.viewCount(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(session.channel()->state(), TerminalChannel::State::Live, 10000);
    QVERIFY(session.isRunning());
    QVERIFY(!session.sessionId().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(atPrompt(session.emulation()), 10000);
    QVERIFY(session.sendInput("echo sess-$((6*7))\r"));
    QTRY_VERIFY2_WITH_TIMEOUT(screenHasLine(session.emulation(), u"sess-42"_s),
                              qPrintable(session.emulation()->screenText()), 10000);
}

void TestTerminalSession::ptyTakesTheSmallestViewAndFollowsADetach() {
    SandboxClient client({m_server.url(), {}}, {});
    TerminalSession session(&client);
    QCOMPARE(session.size(), QSize(80, 24));
    auto wide = std::make_unique<QObject>();
    QObject narrow;
    QObject unsized; // attached, never told its size: it does not count
    session.attachView(wide.get());
    session.attachView(&narrow);
    session.attachView(&unsized);
    QSignalSpy sized(&session, &TerminalSession::sizeChanged);
    session.setViewSize(wide.get(), 120, 30);
    session.setViewSize(&narrow, 70, 40);
    QCOMPARE(session.size(), QSize(70, 30));
    QCOMPARE(session.emulation()->columns(), 70);
    QCOMPARE(session.emulation()->rows(), 30);
    QCOMPARE(sized.count(), 2);

    QTRY_COMPARE_WITH_TIMEOUT(session.channel()->state(), TerminalChannel::State::Live, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(atPrompt(session.emulation()), 10000);
    session.sendInput("clear; stty size\r");
    QTRY_VERIFY2_WITH_TIMEOUT(screenHasLine(session.emulation(), u"30 70"_s),
                              qPrintable(session.emulation()->screenText()), 10000);

    // The narrow view goes: the PTY grows to the one left.
    session.detachView(&narrow);
    QCOMPARE(session.viewCount(), 2);
    QCOMPARE(session.size(), QSize(120, 30));
    QTRY_VERIFY_WITH_TIMEOUT(atPrompt(session.emulation()), 10000);
    session.sendInput("clear; stty size\r");
    QTRY_VERIFY2_WITH_TIMEOUT(screenHasLine(session.emulation(), u"30 120"_s),
                              qPrintable(session.emulation()->screenText()), 10000);

    // A destroyed view detaches itself; with no view that has a size the PTY keeps its own.
    wide.reset();
    QCOMPARE(session.viewCount(), 1);
    QCOMPARE(session.size(), QSize(120, 30));
}

void TestTerminalSession::newShellReplacesAnEndedOne() {
    SandboxClient client({m_server.url(), {}}, {});
    TerminalSession session(&client);
    QTRY_COMPARE_WITH_TIMEOUT(session.channel()->state(), TerminalChannel::State::Live, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(atPrompt(session.emulation()), 10000);
    const QString firstId = session.sessionId();
    session.sendInput("exit 3\r");
    QTRY_COMPARE_WITH_TIMEOUT(session.channel()->state(), TerminalChannel::State::Ended, 10000);
    QVERIFY(!session.isRunning());
    QVERIFY2(session.endReason().contains(u"3"_s), qPrintable(session.endReason()));

    session.startNew();
    QVERIFY(session.endReason().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(session.channel()->state(), TerminalChannel::State::Live, 10000);
    QVERIFY(session.sessionId() != firstId);
    QTRY_VERIFY_WITH_TIMEOUT(atPrompt(session.emulation()), 10000);
    session.sendInput("echo again-$((1+1))\r");
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(session.emulation(), u"again-2"_s), 10000);

    session.terminate();
    QTRY_VERIFY_WITH_TIMEOUT(!session.isRunning(), 10000);
}

QTEST_MAIN(TestTerminalSession)
#include "tst_terminalsession.moc"
