// The WebSocket terminal (/v1/shell/ws) of a real sandbox-server: session id and ready frames,
// input and output, resize, pings and pongs, several clients on one session, re-attach with
// replay (terminal-replay) and the alternate screen, bad frames, the end of a session.
#include "tests/server/httptestclient.h"
#include "tests/server/shelltestclient.h"
#include "tests/support/testserver.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

QJsonObject frame(const QString &type, const QJsonValue &data) {
    return {{QStringLiteral("type"), type}, {QStringLiteral("data"), data}};
}

} // namespace

class TestServerShell final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void newSessionSendsIdThenReady();
    void typedCommandShowsOutput();
    void resizeReachesThePty();
    void pingsIdleClientsAndAcceptsBothPongShapes();
    void utf8IsNeverSplitAndInvalidBytesAreReplaced();
    void twoClientsShareOneSession();
    void reattachReplaysRecentOutput();
    void alternateScreenSurvivesReattach();
    void unknownSessionIsRefused();
    void badFramesGetErrorFrames();
    void oversizedFrameClosesOnlyThatSocket();
    void shellExitSendsExitFrameAndCloses();
    void deletedSessionClosesItsSockets();

private:
    TestServer m_server;
};

void TestServerShell::initTestCase() {
    QVERIFY2(m_server.start(TestServer::withArgs({u"--ws-ping-interval"_s, u"2"_s})),
             qPrintable(m_server.error()));
}

void TestServerShell::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerShell::newSessionSendsIdThenReady() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    QVERIFY(client.waitFor([&] { return client.frames().size() >= 2; }));
    QCOMPARE(client.frames().at(0).value(QStringLiteral("type")).toString(),
             QStringLiteral("session_id"));
    QVERIFY(!client.sessionId().isEmpty());
    QCOMPARE(client.frames().at(1).value(QStringLiteral("type")).toString(),
             QStringLiteral("ready"));
    QCOMPARE(client.frames().at(1).value(QStringLiteral("data")).toString(),
             QStringLiteral("Terminal ready"));
}

void TestServerShell::typedCommandShowsOutput() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    client.input(QStringLiteral("echo hel''lo\r"));
    QVERIFY2(client.waitForOutput(QStringLiteral("hello\r\n")), qPrintable(client.output()));
}

void TestServerShell::resizeReachesThePty() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    client.resize(123, 37);
    client.input(QStringLiteral("stty size\r"));
    QVERIFY2(client.waitForOutput(QStringLiteral("37 123")), qPrintable(client.output()));
}

void TestServerShell::pingsIdleClientsAndAcceptsBothPongShapes() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    // The suite's server pings clients silent for 2 s.
    QVERIFY(client.waitForType(QStringLiteral("ping"), 10000));
    const QJsonValue stamp =
        client.framesOfType(QStringLiteral("ping")).first().value(QStringLiteral("timestamp"));
    QVERIFY(stamp.isDouble());
    QVERIFY(stamp.toDouble() > 1.6e12);
    client.send(
        {{QStringLiteral("type"), QStringLiteral("pong")}, {QStringLiteral("timestamp"), stamp}});
    client.send(frame(QStringLiteral("pong"), QJsonObject{{QStringLiteral("timestamp"), stamp}}));
    client.input(QStringLiteral("echo after-$((20+3))\r"));
    QVERIFY(client.waitForOutput(QStringLiteral("after-23")));
    QVERIFY(client.framesOfType(QStringLiteral("error")).isEmpty());
}

void TestServerShell::utf8IsNeverSplitAndInvalidBytesAreReplaced() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    // The euro sign's last byte comes in a later read than its first two.
    client.input(QStringLiteral(
        "printf 'cut-\\342\\202'; sleep 0.3; printf '\\254-end bad-\\377-end\\n'\r"));
    QVERIFY2(client.waitForOutput(QStringLiteral("bad-\uFFFD-end")), qPrintable(client.output()));
    QVERIFY(client.output().contains(QStringLiteral("cut-\u20AC-end")));
}

void TestServerShell::twoClientsShareOneSession() {
    ShellTestClient first;
    QVERIFY(first.open(m_server.url()));
    QVERIFY(first.waitFor([&] { return !first.sessionId().isEmpty(); }));
    ShellTestClient second;
    QVERIFY(second.open(m_server.url(), first.sessionId()));
    QVERIFY(second.waitFor([&] { return !second.sessionId().isEmpty(); }));
    QCOMPARE(second.sessionId(), first.sessionId());
    second.input(QStringLiteral("echo shared-$((6*7))\r"));
    QVERIFY(first.waitForOutput(QStringLiteral("shared-42")));
    QVERIFY(second.waitForOutput(QStringLiteral("shared-42")));
    first.input(QStringLiteral("echo from-first-$((1+1))\r"));
    QVERIFY(second.waitForOutput(QStringLiteral("from-first-2")));
}

void TestServerShell::reattachReplaysRecentOutput() {
    const HttpResult sandbox = request("GET", m_server.url(QStringLiteral("/v1/sandbox")));
    QCOMPARE(sandbox.status, 200);
    const QJsonArray extensions = sandbox.json().value(QStringLiteral("extensions")).toArray();
    QVERIFY(extensions.contains(QStringLiteral("terminal-replay")));
    QVERIFY(extensions.contains(QStringLiteral("terminal-lagged")));

    QString id;
    {
        ShellTestClient client;
        QVERIFY(client.open(m_server.url()));
        client.input(QStringLiteral("echo before-$((50+5))\r"));
        QVERIFY(client.waitForOutput(QStringLiteral("before-55")));
        id = client.sessionId();
        client.close();
        QVERIFY(client.waitForClose());
    }
    ShellTestClient again;
    QVERIFY(again.open(m_server.url(), id));
    QVERIFY(again.waitForOutput(QStringLiteral("before-55")));
    QCOMPARE(again.sessionId(), id);
}

void TestServerShell::alternateScreenSurvivesReattach() {
    // A full-screen program in miniature: enters the alternate screen, repaints on SIGWINCH,
    // leaves on Enter.
    QFile script(m_server.workspace() + QStringLiteral("/fullscreen.sh"));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("trap 'echo REPAINT-$((2+3))' WINCH\n"
                 "printf '\\033[?1049hIN-ALT-%s\\n' $((3*3))\n"
                 "while :; do read -t 0.2 x && break; done\n"
                 "printf '\\033[?1049l'; echo LEFT-ALT-$((4*4))\n");
    script.close();
    QString id;
    {
        ShellTestClient client;
        QVERIFY(client.open(m_server.url()));
        client.input(QStringLiteral("bash fullscreen.sh\r"));
        QVERIFY(client.waitForOutput(QStringLiteral("IN-ALT-9")));
        id = client.sessionId();
        client.close();
        QVERIFY(client.waitForClose());
    }
    ShellTestClient again;
    QVERIFY(again.open(m_server.url(), id));
    QVERIFY(again.waitForOutput(QStringLiteral("IN-ALT-9")));
    QVERIFY(again.output().contains(QStringLiteral("\x1b[?1049h")));
    // The program is made to repaint: the PTY size changes and comes back (SIGWINCH).
    QVERIFY2(again.waitForOutput(QStringLiteral("REPAINT-5")), qPrintable(again.output()));
    again.input(QStringLiteral("\r"));
    QVERIFY2(again.waitForOutput(QStringLiteral("LEFT-ALT-16")), qPrintable(again.output()));
    const QString tail = again.output().mid(again.output().indexOf(QStringLiteral("IN-ALT-9")));
    QVERIFY(tail.contains(QStringLiteral("\x1b[?1049l")));
}

void TestServerShell::unknownSessionIsRefused() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url(), QStringLiteral("no-such-session")));
    QVERIFY(client.waitForClose());
    const auto errors = client.framesOfType(QStringLiteral("error"));
    QCOMPARE(errors.size(), 1);
    QVERIFY(errors.first()
                .value(QStringLiteral("data"))
                .toString()
                .contains(QStringLiteral("not found")));
    QCOMPARE(client.closeCode(), 4404);
}

void TestServerShell::badFramesGetErrorFrames() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    client.sendRaw(QStringLiteral("this is not json"));
    client.sendRaw(QStringLiteral("[1,2,3]"));
    client.send(frame(QStringLiteral("launch-missiles"), QStringLiteral("now")));
    client.send(frame(QStringLiteral("input"), 42));
    client.send(frame(QStringLiteral("resize"), QStringLiteral("big")));
    client.send(frame(QStringLiteral("resize"),
                      QJsonObject{{QStringLiteral("cols"), -1}, {QStringLiteral("rows"), 10}}));
    client.socket().sendBinaryMessage(QByteArrayLiteral("\x01\x02"));
    QVERIFY(
        client.waitFor([&] { return client.framesOfType(QStringLiteral("error")).size() >= 7; }));
    const auto errors = client.framesOfType(QStringLiteral("error"));
    QVERIFY(errors.at(2)
                .value(QStringLiteral("data"))
                .toString()
                .contains(QStringLiteral("launch-missiles")));
    client.input(QStringLiteral("echo still-$((9*9))\r"));
    QVERIFY(client.waitForOutput(QStringLiteral("still-81")));
    QVERIFY(!client.closed());
}

void TestServerShell::oversizedFrameClosesOnlyThatSocket() {
    ShellTestClient bystander;
    QVERIFY(bystander.open(m_server.url()));
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    QVERIFY(client.waitFor([&] { return !client.sessionId().isEmpty(); }));
    client.input(QString(4 * 1024 * 1024, QLatin1Char('x')));
    QVERIFY(client.waitForClose());
    QCOMPARE(client.closeCode(), 1009);
    bystander.input(QStringLiteral("echo alive-$((2*5))\r"));
    QVERIFY(bystander.waitForOutput(QStringLiteral("alive-10")));
    // The session itself survives its socket.
    ShellTestClient again;
    QVERIFY(again.open(m_server.url(), client.sessionId()));
    again.input(QStringLiteral("echo back-$((3+4))\r"));
    QVERIFY(again.waitForOutput(QStringLiteral("back-7")));
}

void TestServerShell::shellExitSendsExitFrameAndCloses() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    QVERIFY(client.waitFor([&] { return !client.sessionId().isEmpty(); }));
    client.input(QStringLiteral("echo bye-bye; exit 3\r"));
    QVERIFY(client.waitForClose());
    QVERIFY(client.output().contains(QStringLiteral("bye-bye")));
    const auto exits = client.framesOfType(QStringLiteral("exit"));
    QCOMPARE(exits.size(), 1);
    QCOMPARE(exits.first()
                 .value(QStringLiteral("data"))
                 .toObject()
                 .value(QStringLiteral("exit_code"))
                 .toInt(),
             3);
    QCOMPARE(client.closeCode(), 1000);
    const HttpResult list = request("GET", m_server.url(QStringLiteral("/v1/shell/sessions")));
    QVERIFY(!list.json()
                 .value(QStringLiteral("data"))
                 .toObject()
                 .value(QStringLiteral("sessions"))
                 .toObject()
                 .contains(client.sessionId()));
}

void TestServerShell::deletedSessionClosesItsSockets() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    QVERIFY(client.waitFor([&] { return !client.sessionId().isEmpty(); }));
    const HttpResult deleted =
        request("DELETE", m_server.url(QStringLiteral("/v1/shell/sessions/") + client.sessionId()));
    QCOMPARE(deleted.status, 200);
    QVERIFY(client.waitForClose());
    QCOMPARE(client.closeCode(), 1000);
    const auto errors = client.framesOfType(QStringLiteral("error"));
    QCOMPARE(errors.size(), 1);
    QVERIFY(errors.first()
                .value(QStringLiteral("data"))
                .toString()
                .contains(QStringLiteral("deleted")));
    const HttpResult again =
        request("DELETE", m_server.url(QStringLiteral("/v1/shell/sessions/") + client.sessionId()));
    QCOMPARE(again.status, 404);
    QVERIFY(isErrorEnvelope(again.body));
}

QTEST_GUILESS_MAIN(TestServerShell)
#include "tst_server_shell.moc"
