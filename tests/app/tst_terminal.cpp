// Terminals as a user sees them: keys typed into a TerminalView run in a real sandbox-server
// shell, the PTY follows the view's size, a cut connection comes back with what was printed
// meanwhile, full-screen programs included, and a split shows the same shell or a new one.
#include "client/api/sandboxjobs.h"
#include "client/api/shelljobs.h"
#include "client/sandboxclient.h"
#include "models/terminal/terminalemulation.h"
#include "models/terminal/terminalpredictor.h"
#include "models/terminal/terminalsession.h"
#include "tests/support/faultproxy.h"
#include "tests/support/jobs.h"
#include "tests/support/testserver.h"
#include "widgets/common/preferences.h"
#include "widgets/shell/terminalpane.h"
#include "widgets/shell/terminaltab.h"
#include "widgets/terminal/terminalview.h"

#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

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

// The Split button's menu entry, as a user picks it.
void chooseSplit(TerminalTab &tab, const char *entry) {
    auto *button = tab.findChild<QToolButton *>(u"terminalSplit"_s);
    QVERIFY(button && button->menu());
    auto *action = button->menu()->findChild<QAction *>(QLatin1String(entry));
    QVERIFY(action);
    action->trigger();
}

// Shows the tab, whose first visit opens a terminal; that pane once its shell is live, else null.
TerminalPane *firstLivePane(TerminalTab &tab) {
    tab.resize(1000, 600);
    tab.show();
    if (!QTest::qWaitForWindowExposed(&tab) ||
        !QTest::qWaitFor([&] { return !tab.panes().isEmpty(); }))
        return nullptr;
    TerminalPane *pane = tab.panes().first();
    const bool live = QTest::qWaitFor(
        [pane] { return pane->channel()->state() == TerminalChannel::State::Live; }, 10000);
    return live ? pane : nullptr;
}

// A client whose connection runs through proxy, knowing the sandbox's extensions; else null.
std::unique_ptr<SandboxClient> clientThrough(FaultProxy &proxy) {
    if (!proxy.listen())
        return nullptr;
    auto client = std::make_unique<SandboxClient>(Endpoint{proxy.url(), {}}, Credentials{});
    return learnExtensions(client.get()) ? std::move(client) : nullptr;
}

// Shows pane and waits (bounded) for its shell; false when it did not come.
bool showLive(TerminalPane &pane) {
    pane.resize(800, 500);
    pane.show();
    return QTest::qWaitForWindowExposed(&pane) &&
           QTest::qWaitFor(
               [&pane] { return pane.channel()->state() == TerminalChannel::State::Live; }, 10000);
}

} // namespace

class TestTerminal final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;

private Q_SLOTS:
    void initTestCase();
    void typedEchoShowsOnScreen();
    void reconnectShowsWhatWasPrintedMeanwhile();
    void keysTypedWhileReconnectingWaitGreyed();
    void keysForAGoneSessionAskBeforeTheyGo();
    void predictedEchoOverASlowLink();
    void noPredictionInAFullScreenProgram();
    void alternateScreenSurvivesReattach();
    void terminalTabOpensClosesAndSplits();
    void splitSameSessionShowsOneShellInTwoViews();
    void sharedSessionEndsInBothPanesAndWithItsTab();
    void splitNewSessionOpensAnotherShell();
    void preferencesReachOpenTerminals();
};

void TestTerminal::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestTerminal::typedEchoShowsOnScreen() {
    SandboxClient client({m_server.url(), {}}, {});
    TerminalPane pane(&client);
    QVERIFY(showLive(pane));
    typeLine(pane.view(), u"echo hel''lo"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(screenHasLine(pane.view(), u"hello"_s),
                              qPrintable(pane.view()->emulation()->screenText()), 10000);

    // The PTY follows the view's size.
    QSignalSpy resized(pane.view(), &TerminalView::terminalSizeChanged);
    pane.resize(640, 400);
    QTRY_VERIFY_WITH_TIMEOUT(!resized.isEmpty(), 5000);
    const QString expected = u"%1 %2"_s.arg(pane.view()->rows()).arg(pane.view()->columns());
    typeLine(pane.view(), u"clear; stty size"_s);
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), expected), 10000);
}

void TestTerminal::reconnectShowsWhatWasPrintedMeanwhile() {
    FaultProxy proxy(m_server.port());
    const auto client = clientThrough(proxy);
    QVERIFY(client);
    TerminalPane pane(client.get());
    QVERIFY(showLive(pane));

    QTemporaryDir dir;
    const QString go = dir.filePath(u"go"_s);
    const QString done = dir.filePath(u"done"_s);
    typeLine(pane.view(), u"echo START$((1)); while [ ! -e %1 ]; do sleep 0.05; "
                          u"done; echo MARK$((6*7)); touch %2"_s.arg(go, done));
    // START1 is printed once the whole line, Enter included, reached the shell.
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), u"START1"_s), 10000);
    const int commandCopies = 1;

    proxy.setRefusing(true);
    proxy.cutAll();
    QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Reconnecting, 5000);
    QVERIFY2(pane.bannerText().contains(u"reconnecting"_s), qPrintable(pane.bannerText()));
    QFile(go).open(QIODevice::WriteOnly);
    QTRY_VERIFY2_WITH_TIMEOUT(QFileInfo::exists(done),
                              qPrintable(pane.view()->emulation()->screenText()), 10000);
    proxy.setRefusing(false);
    QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Live, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), u"MARK42"_s), 10000);
    // The replay rebuilt the screen: the command line is there once, not twice.
    QVERIFY2(pane.view()->emulation()->screenText().count(u"MARK$((6*7))"_s) == commandCopies,
             qPrintable(pane.view()->emulation()->screenText()));
    QVERIFY(pane.bannerText().isEmpty());
}

// Keys typed while the link is down are shown at the cursor, dimmed, with a word in the banner,
// and run once the session is back; nothing typed vanishes.
void TestTerminal::keysTypedWhileReconnectingWaitGreyed() {
    FaultProxy proxy(m_server.port());
    const auto client = clientThrough(proxy);
    QVERIFY(client);
    TerminalPane pane(client.get());
    QVERIFY(showLive(pane));
    QTRY_VERIFY_WITH_TIMEOUT(atPrompt(pane.view()), 10000);
    const QImage before = pane.view()->viewport()->grab().toImage();

    proxy.setRefusing(true);
    proxy.cutAll();
    QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Reconnecting, 5000);
    QTest::keyClicks(pane.view(), u"echo pend-$((3*3))"_s);
    QTest::keyClick(pane.view(), Qt::Key_Return);
    QCOMPARE(pane.view()->cursorOverlay().text, u"echo pend-$((3*3))\u21b5"_s);
    QVERIFY(!pane.view()->cursorOverlay().underline);
    QVERIFY2(pane.bannerText().contains(u"typed meanwhile will be sent"_s),
             qPrintable(pane.bannerText()));
    // Painted after the prompt, in a colour between the text's and the background's.
    const TerminalCursor cursor = pane.view()->emulation()->cursor();
    const QSizeF cell = pane.view()->cellSize();
    const QImage waiting = pane.view()->viewport()->grab().toImage();
    const QRect band(int((cursor.col + 1) * cell.width()), int(cursor.row * cell.height()),
                     int(8 * cell.width()), int(cell.height()));
    bool changed = false;
    for (int y = band.top(); y <= band.bottom() && !changed; ++y)
        for (int x = band.left(); x <= band.right() && !changed; ++x)
            changed =
                waiting.pixel(x * waiting.devicePixelRatio(), y * waiting.devicePixelRatio()) !=
                before.pixel(x * before.devicePixelRatio(), y * before.devicePixelRatio());
    QVERIFY2(changed, "the waiting keys are not drawn");

    proxy.setRefusing(false);
    QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Live, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), u"pend-9"_s), 10000);
    QVERIFY(pane.view()->cursorOverlay().text.isEmpty());
    QVERIFY(pane.bannerText().isEmpty());
}

// The shell is gone when the link comes back: a new session takes its place and the banner asks
// whether the keys typed for the old one go to it; until the answer they stay on screen, waiting.
void TestTerminal::keysForAGoneSessionAskBeforeTheyGo() {
    FaultProxy proxy(m_server.port());
    const auto client = clientThrough(proxy);
    QVERIFY(client);
    SandboxClient direct({m_server.url(), {}}, {});
    TerminalPane pane(client.get());
    QVERIFY(showLive(pane));
    QTRY_VERIFY_WITH_TIMEOUT(atPrompt(pane.view()), 10000);
    const QString old = pane.sessionId();
    proxy.setRefusing(true);
    proxy.cutAll();
    QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Reconnecting, 5000);
    QTest::keyClicks(pane.view(), u"echo asked-$((5*5))"_s);
    QTest::keyClick(pane.view(), Qt::Key_Return);
    QVERIFY(runJob(new DeleteShellSessionJob(&direct, old)).ok());
    proxy.setRefusing(false);

    QTRY_VERIFY2_WITH_TIMEOUT(pane.bannerText().contains(u"send the 20 waiting byte"_s),
                              qPrintable(pane.bannerText()), 20000);
    QVERIFY(pane.sessionId() != old);
    QCOMPARE(pane.view()->cursorOverlay().text, u"echo asked-$((5*5))\u21b5"_s);
    QPushButton *send = nullptr;
    for (QPushButton *button : pane.findChildren<QPushButton *>())
        if (button->isVisible() && button->text() == TerminalPane::tr("Send them"))
            send = button;
    QVERIFY(send);
    QTRY_VERIFY_WITH_TIMEOUT(atPrompt(pane.view()), 10000); // the new shell's prompt
    send->click();
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), u"asked-25"_s), 10000);
    QVERIFY(pane.view()->cursorOverlay().text.isEmpty());
    QVERIFY(!send->isVisible());
}

// 100 ms each way: a typed character is on screen (underlined) before its echo could be, and
// goes once the echo confirms it; where the shell echoes something else (a readline binding
// turns q into Q), the server's text wins; a `read -s` prompt gets no guesses.
void TestTerminal::predictedEchoOverASlowLink() {
    FaultProxy proxy(m_server.port());
    const auto client = clientThrough(proxy);
    QVERIFY(client);
    proxy.setLatency(100);
    TerminalPane pane(client.get());
    QVERIFY(showLive(pane));
    TerminalPredictor *predictor = pane.session()->predictor();
    predictor->setMode(TerminalPredictor::Mode::Always);
    QTRY_VERIFY_WITH_TIMEOUT(atPrompt(pane.view()), 10000);
    const auto promptLine = [&pane] {
        const TerminalEmulation *e = pane.view()->emulation();
        return e->lineText(e->cursor().row);
    };
    const QString before = promptLine();

    QTest::keyClicks(pane.view(), u"ec"_s);
    // Painted now; the server's echo is at least 200 ms away.
    QCOMPARE(pane.view()->cursorOverlay().text, u"ec"_s);
    QVERIFY(pane.view()->cursorOverlay().underline);
    QCOMPARE(promptLine(), before);
    QTRY_COMPARE_WITH_TIMEOUT(pane.view()->cursorOverlay().text, QString(), 5000);
    QVERIFY2(promptLine().trimmed().endsWith(u"ec"_s), qPrintable(promptLine()));
    QTest::keyClicks(pane.view(), u"ho ok-$((2*4))"_s);
    QTest::keyClick(pane.view(), Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), u"ok-8"_s), 10000);
    QCOMPARE(predictor->mispredictions(), 0);

    // The shell's line editor turns a typed q into Q: the echo is not what was typed.
    typeLine(pane.view(), u"bind '\"q\": \"Q\"'; echo bound-$((1+1))"_s);
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), u"bound-2"_s), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(atPrompt(pane.view()), 10000);
    QTest::keyClick(pane.view(), Qt::Key_Q);
    QCOMPARE(pane.view()->cursorOverlay().text, u"q"_s);
    QTRY_VERIFY_WITH_TIMEOUT(promptLine().trimmed().endsWith(u'Q'), 5000);
    QCOMPARE(pane.view()->cursorOverlay().text, QString());
    QCOMPARE(predictor->mispredictions(), 1);
    QTest::keyClick(pane.view(), Qt::Key_Backspace);
    QTRY_VERIFY_WITH_TIMEOUT(atPrompt(pane.view()), 5000);

    typeLine(pane.view(), u"read -s secret; echo got-${#secret}"_s);
    QTRY_VERIFY_WITH_TIMEOUT(
        pane.view()->emulation()->shellPhase() == TerminalState::ShellPhase::Running, 5000);
    QTest::keyClicks(pane.view(), u"hunter2"_s);
    QCOMPARE(pane.view()->cursorOverlay().text, QString());
    QTest::keyClick(pane.view(), Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), u"got-7"_s), 10000);
    QVERIFY(!pane.view()->emulation()->screenText().contains(u"hunter2"_s));
}

void TestTerminal::noPredictionInAFullScreenProgram() {
    const QString vi = QStandardPaths::findExecutable(u"vi"_s);
    if (vi.isEmpty())
        QSKIP("no vi here (packaging/install-deps.sh installs vim-tiny)");
    FaultProxy proxy(m_server.port());
    const auto client = clientThrough(proxy);
    QVERIFY(client);
    proxy.setLatency(100);
    TerminalPane pane(client.get());
    QVERIFY(showLive(pane));
    pane.session()->predictor()->setMode(TerminalPredictor::Mode::Always);
    typeLine(pane.view(), u"vi -u NONE"_s);
    QTRY_VERIFY_WITH_TIMEOUT(pane.view()->emulation()->altScreen(), 10000);
    QTest::keyClicks(pane.view(), u"ihello"_s);
    QCOMPARE(pane.view()->cursorOverlay().text, QString());
    QTest::keyClick(pane.view(), Qt::Key_Escape);
    QTest::keyClicks(pane.view(), u":q!"_s);
    QTest::keyClick(pane.view(), Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(!pane.view()->emulation()->altScreen(), 10000);
}

void TestTerminal::alternateScreenSurvivesReattach() {
    FaultProxy proxy(m_server.port());
    const auto client = clientThrough(proxy);
    QVERIFY(client);
    TerminalPane pane(client.get());
    QVERIFY(showLive(pane));
    typeLine(pane.view(), u"echo PRIMARY$((1+1))"_s);
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(pane.view(), u"PRIMARY2"_s), 10000);
    // A full-screen program in miniature: enter the alternate screen, draw, wait for a key.
    typeLine(pane.view(), u"printf '\\033[?1049h\\033[2J\\033[HFULL%sSCREEN' -; "
                          u"read x; printf '\\033[?1049l'"_s);
    QTRY_VERIFY_WITH_TIMEOUT(pane.view()->emulation()->altScreen(), 10000);
    QTRY_VERIFY(screenHasLine(pane.view(), u"FULL-SCREEN"_s));

    proxy.cutAll();
    QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Reconnecting, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(pane.channel()->state(), TerminalChannel::State::Live, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(pane.view()->emulation()->altScreen(), 10000);
    QTRY_VERIFY(screenHasLine(pane.view(), u"FULL-SCREEN"_s));

    QTest::keyClick(pane.view(), Qt::Key_Return); // the program ends
    QTRY_VERIFY_WITH_TIMEOUT(!pane.view()->emulation()->altScreen(), 10000);
    QTRY_VERIFY(screenHasLine(pane.view(), u"PRIMARY2"_s));
}

void TestTerminal::terminalTabOpensClosesAndSplits() {
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
    tab.renameCurrent(u"builds"_s);
    QCOMPARE(tab.tabs()->tabText(1), u"builds"_s);
    QTest::keyClick(&tab, Qt::Key_W, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(tab.tabs()->count(), 1);

    // Attaching to a running session from a second view shows the same shell.
    TerminalPane *again = tab.openTerminal(first->sessionId());
    QTRY_COMPARE_WITH_TIMEOUT(again->channel()->state(), TerminalChannel::State::Live, 10000);
    QCOMPARE(again->sessionId(), first->sessionId());
    typeLine(first->view(), u"echo SHARED$((2*3))"_s);
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(again->view(), u"SHARED6"_s), 10000);

    // A bell in a tab not looked at marks that tab until it is visited.
    QCOMPARE(tab.tabs()->currentIndex(), 1);
    first->channel()->sendInput("clear; printf '\\a'\r");
    QTRY_VERIFY_WITH_TIMEOUT(tab.tabs()->tabText(0).startsWith(u"🔔"_s), 10000);
    tab.tabs()->setCurrentIndex(0);
    QVERIFY(!tab.tabs()->tabText(0).startsWith(u"🔔"_s));
}

void TestTerminal::splitSameSessionShowsOneShellInTwoViews() {
    SandboxClient client({m_server.url(), {}}, {});
    TerminalTab tab(&client);
    TerminalPane *a = firstLivePane(tab);
    QVERIFY(a);
    chooseSplit(tab, "splitSameSession");
    QCOMPARE(tab.panes().size(), 2);
    auto *page = qobject_cast<QSplitter *>(tab.tabs()->currentWidget());
    QVERIFY(page);
    auto *b = qobject_cast<TerminalPane *>(page->widget(1));
    QVERIFY(b && b != a);
    QCOMPARE(b->session(), a->session());
    QCOMPARE(b->sessionId(), a->sessionId());
    QCOMPARE(tab.terminalCount(), 1); // one shell, two views

    // Typed in either view, shown in both.
    typeLine(a->view(), u"echo split-$((6*7))"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(screenHasLine(b->view(), u"split-42"_s),
                              qPrintable(b->view()->emulation()->screenText()), 10000);
    QVERIFY(screenHasLine(a->view(), u"split-42"_s));
    b->view()->setFocus();
    typeLine(b->view(), u"echo from-b-$((2*4))"_s);
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(a->view(), u"from-b-8"_s), 10000);

    // The shell gets the smaller view's size, and both views show all of it.
    page->setSizes({700, 300});
    TerminalSession *session = a->session();
    QTRY_VERIFY_WITH_TIMEOUT(b->view()->fitColumns() < a->view()->fitColumns(), 5000);
    const QSize smaller(std::min(a->view()->fitColumns(), b->view()->fitColumns()),
                        std::min(a->view()->fitRows(), b->view()->fitRows()));
    QTRY_COMPARE_WITH_TIMEOUT(session->size(), smaller, 5000);
    QCOMPARE(a->view()->columns(), smaller.width());
    QCOMPARE(b->view()->columns(), smaller.width());
    typeLine(a->view(), u"clear; stty size"_s);
    const QString sttySize = u"%1 %2"_s.arg(smaller.height()).arg(smaller.width());
    QTRY_VERIFY2_WITH_TIMEOUT(screenHasLine(a->view(), sttySize),
                              qPrintable(a->view()->emulation()->screenText()), 10000);

    // Closing one view leaves the other working, at its own size again.
    delete b;
    QCOMPARE(tab.panes().size(), 1);
    QCOMPARE(session->viewCount(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(session->size(), QSize(a->view()->fitColumns(), a->view()->fitRows()),
                              5000);
    QVERIFY(a->view()->fitColumns() > smaller.width());
    QVERIFY(a->isRunning());
    typeLine(a->view(), u"clear; echo still-$((3+4))"_s);
    QTRY_VERIFY_WITH_TIMEOUT(screenHasLine(a->view(), u"still-7"_s), 10000);
}

void TestTerminal::sharedSessionEndsInBothPanesAndWithItsTab() {
    SandboxClient client({m_server.url(), {}}, {});
    TerminalTab tab(&client);
    TerminalPane *a = firstLivePane(tab);
    QVERIFY(a);
    TerminalPane *b = tab.splitCurrent(TerminalTab::Split::SameSession);
    QCOMPARE(b->session(), a->session());
    // A shell that exits shows its end in every pane of it, with the offer of a new one.
    typeLine(a->view(), u"exit 5"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!a->bannerText().isEmpty(), 10000);
    QVERIFY2(a->bannerText().contains(u"ended"_s), qPrintable(a->bannerText()));
    QCOMPARE(b->bannerText(), a->bannerText());
    QCOMPARE(tab.terminalCount(), 0);
    const QString endedId = a->sessionId();
    b->startNewSession();
    QTRY_COMPARE_WITH_TIMEOUT(a->channel()->state(), TerminalChannel::State::Live, 10000);
    QVERIFY(a->sessionId() != endedId);
    QCOMPARE(b->sessionId(), a->sessionId());
    QTRY_VERIFY(a->bannerText().isEmpty());
    QTRY_VERIFY(b->bannerText().isEmpty());

    // Closing the tab ends the shell both panes showed.
    const QString id = a->sessionId();
    QTRY_VERIFY_WITH_TIMEOUT(shellSessionIds(&client).contains(id), 10000);
    tab.closeCurrent();
    QCOMPARE(tab.tabs()->count(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!shellSessionIds(&client).contains(id), 10000);
}

void TestTerminal::splitNewSessionOpensAnotherShell() {
    SandboxClient client({m_server.url(), {}}, {});
    TerminalTab tab(&client);
    TerminalPane *a = firstLivePane(tab);
    QVERIFY(a);
    chooseSplit(tab, "splitNewSession");
    QCOMPARE(tab.panes().size(), 2);
    auto *page = qobject_cast<QSplitter *>(tab.tabs()->currentWidget());
    auto *b = qobject_cast<TerminalPane *>(page->widget(1));
    QVERIFY(b && b->session() != a->session());
    QTRY_COMPARE_WITH_TIMEOUT(b->channel()->state(), TerminalChannel::State::Live, 10000);
    QVERIFY(b->sessionId() != a->sessionId());
    QTRY_COMPARE_WITH_TIMEOUT(tab.terminalCount(), 2, 10000);
    // The shortcut is the menu's "New session", as Split was before it had a menu.
    QTest::keyClick(&tab, Qt::Key_T, Qt::ControlModifier | Qt::ShiftModifier);
    TerminalPane *c = tab.panes().last();
    QTRY_COMPARE_WITH_TIMEOUT(c->channel()->state(), TerminalChannel::State::Live, 10000);
    QTest::keyClick(c->view(), Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
    auto *third = qobject_cast<QSplitter *>(tab.tabs()->currentWidget());
    QCOMPARE(third->count(), 2);
    auto *d = qobject_cast<TerminalPane *>(third->widget(1));
    QVERIFY(d->session() != c->session());
    QTRY_COMPARE_WITH_TIMEOUT(d->channel()->state(), TerminalChannel::State::Live, 10000);
    QVERIFY(d->sessionId() != c->sessionId());
}

void TestTerminal::preferencesReachOpenTerminals() {
    SandboxClient client({m_server.url(), {}}, {});
    PreferencesHub hub;
    Preferences chosen;
    chosen.terminalColorScheme = u"xterm"_s;
    hub.set(chosen);
    TerminalTab tab(&client, &hub);
    TerminalPane *a = firstLivePane(tab);
    QVERIFY(a);
    QCOMPARE(a->view()->colorScheme().id, u"xterm"_s);
    QCOMPARE(a->session()->predictor()->mode(), TerminalPredictor::Mode::Adaptive);
    chosen.terminalColorScheme = u"light"_s;
    chosen.terminalFontSize = 17;
    chosen.scrollbackLines = 1234;
    chosen.terminalPrediction = 2;
    hub.set(chosen);
    QCOMPARE(a->view()->colorScheme().id, u"light"_s);
    QCOMPARE(a->view()->terminalFont().pointSizeF(), 17.0);
    QCOMPARE(a->view()->emulation()->scrollbackLimit(), 1234);
    QCOMPARE(a->session()->predictor()->mode(), TerminalPredictor::Mode::Always);
    // The toolbar names the round trip once a ping came back, and that local echo is on.
    auto *link = tab.findChild<QLabel *>(u"terminalLink"_s);
    QVERIFY(link);
    QTRY_VERIFY_WITH_TIMEOUT(link->text().contains(u"local echo on"_s), 8000);
    QVERIFY2(QRegularExpression(u"^Round trip (under 1|[1-9][0-9]*) ms · local echo on$"_s)
                 .match(link->text())
                 .hasMatch(),
             qPrintable(link->text()));
    // A terminal opened afterwards starts with them.
    TerminalPane *b = tab.openTerminal();
    QCOMPARE(b->view()->colorScheme().id, u"light"_s);
    QCOMPARE(b->view()->terminalFont().pointSizeF(), 17.0);
    QCOMPARE(b->session()->predictor()->mode(), TerminalPredictor::Mode::Always);
}

QTEST_MAIN(TestTerminal)
#include "tst_terminal.moc"
