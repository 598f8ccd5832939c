// The REST shell API (/v1/shell/*) of a real sandbox-server: sessions shared with the WebSocket
// terminal, exec (shared state, exit codes, a program holding the terminal, timeouts), view,
// wait, write, kill, FastAPI-shaped 422s, 404s in the envelope, idle reaping and shutdown.
#include "tests/server/httptestclient.h"
#include "tests/server/shelltestclient.h"
#include "tests/support/testserver.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

// A zombie counts as gone: nothing runs any more, only its parent has not collected it.
bool processRuns(int pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && text.mid(close + 2, 1) != "Z";
}

} // namespace

class TestServerShellRest final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void sessionListShowsTerminalSession();
    void execSharesTheTerminalsShell();
    void execWithoutIdCreatesSession();
    void exitCodes();
    void execDoesNotTypeIntoARunningProgram();
    void hardTimeoutStopsTheCommand();
    void timeoutAndNoChangeTimeoutAnswerEarly();
    void writeWaitViewKill();
    void createWithIdAndExecDir();
    void validationErrorsAreFastApiShaped();
    void unknownSessionIs404();
    void statsCountSessions();
    void deleteAllSessions();
    void idleSessionsAreReaped();
    void stopClosesSocketsAndKillsShells();

private:
    HttpResult post(const QString &path, const QJsonObject &body) {
        return request("POST", m_server.url(path), {{"Content-Type", "application/json"}},
                       QJsonDocument(body).toJson(QJsonDocument::Compact), 60000);
    }
    QJsonObject data(const HttpResult &result) {
        return result.json().value(QStringLiteral("data")).toObject();
    }
    QJsonObject exec(const QJsonObject &body) {
        return data(post(QStringLiteral("/v1/shell/exec"), body));
    }
    QJsonObject sessionsMap() {
        return data(request("GET", m_server.url(QStringLiteral("/v1/shell/sessions"))))
            .value(QStringLiteral("sessions"))
            .toObject();
    }

    TestServer m_server;
};

void TestServerShellRest::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestServerShellRest::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerShellRest::sessionListShowsTerminalSession() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    QVERIFY(client.waitFor([&] { return !client.sessionId().isEmpty(); }));
    const QJsonObject info = sessionsMap().value(client.sessionId()).toObject();
    QVERIFY(!info.isEmpty());
    QCOMPARE(info.value(QStringLiteral("working_dir")).toString(), m_server.workspace());
    for (const char *field : {"created_at", "last_used_at", "status"})
        QVERIFY2(info.value(QLatin1String(field)).isString(), field);
    QVERIFY(info.value(QStringLiteral("age_seconds")).isDouble());
    QVERIFY(info.contains(QStringLiteral("current_command")));
}

void TestServerShellRest::execSharesTheTerminalsShell() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    QVERIFY(client.waitFor([&] { return !client.sessionId().isEmpty(); }));
    const QString id = client.sessionId();
    QJsonObject result =
        exec({{u"command"_s, u"cd /tmp && export SBX_MARK=shared"_s}, {u"id"_s, id}});
    QCOMPARE(result.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(result.value(QStringLiteral("session_id")).toString(), id);
    result = exec({{u"command"_s, u"pwd; echo $SBX_MARK"_s}, {u"id"_s, id}});
    QCOMPARE(result.value(QStringLiteral("output")).toString(), QStringLiteral("/tmp\nshared"));
    QCOMPARE(result.value(QStringLiteral("exit_code")).toInt(), 0);
    // Attached terminals see exec'd commands run.
    QVERIFY(client.waitForOutput(QStringLiteral("pwd; echo $SBX_MARK")));
    QVERIFY(client.waitForOutput(QStringLiteral("/tmp\r\nshared")));
    QCOMPARE(sessionsMap().value(id).toObject().value(QStringLiteral("working_dir")).toString(),
             QStringLiteral("/tmp"));
}

void TestServerShellRest::execWithoutIdCreatesSession() {
    const QJsonObject result = exec({{u"command"_s, u"echo made-$((1+2))"_s}});
    QCOMPARE(result.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    // Only the command's output: no echoed command line, no prompt, no marker.
    QCOMPARE(result.value(QStringLiteral("output")).toString(), QStringLiteral("made-3"));
    const QString id = result.value(QStringLiteral("session_id")).toString();
    QVERIFY(!id.isEmpty());
    QVERIFY(sessionsMap().contains(id));
    const QJsonArray console = result.value(QStringLiteral("console")).toArray();
    QCOMPARE(console.size(), 1);
    QCOMPARE(console.first().toObject().value(QStringLiteral("command")).toString(),
             QStringLiteral("echo made-$((1+2))"));
}

void TestServerShellRest::exitCodes() {
    QJsonObject result = exec({{u"command"_s, u"false"_s}});
    QCOMPARE(result.value(QStringLiteral("exit_code")).toInt(), 1);
    const QString id = result.value(QStringLiteral("session_id")).toString();
    result = exec({{u"command"_s, u"(exit 42)"_s}, {u"id"_s, id}});
    QCOMPARE(result.value(QStringLiteral("exit_code")).toInt(), 42);
    result = exec({{u"command"_s, u"true"_s}, {u"id"_s, id}});
    QCOMPARE(result.value(QStringLiteral("exit_code")).toInt(), 0);
}

void TestServerShellRest::execDoesNotTypeIntoARunningProgram() {
    QJsonObject started = exec({{u"command"_s, u"sleep 100"_s}, {u"async_mode"_s, true}});
    QCOMPARE(started.value(QStringLiteral("status")).toString(), QStringLiteral("running"));
    const QString id = started.value(QStringLiteral("session_id")).toString();
    QVERIFY(QTest::qWaitFor(
        [&] {
            return sessionsMap().value(id).toObject().value(QStringLiteral("current_command")) ==
                   QStringLiteral("sleep 100");
        },
        10000));
    // Right after the fork the terminal's holder is still called bash, until it execs sleep:
    // every try is refused all the same, and one soon names sleep.
    HttpResult refused;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     refused = post(QStringLiteral("/v1/shell/exec"),
                                    {{u"command"_s, u"echo typed-by-mistake"_s}, {u"id"_s, id}});
                     return refused.status != 200 || refused.json()
                                                         .value(QStringLiteral("message"))
                                                         .toString()
                                                         .contains(QStringLiteral("sleep"));
                 },
                 10000),
             refused.body.constData());
    QCOMPARE(refused.status, 200);
    QCOMPARE(data(refused).value(QStringLiteral("status")).toString(), QStringLiteral("running"));
    // Had the line been typed, the terminal would have echoed it into the sleep's output.
    ShellTestClient watcher;
    QVERIFY(watcher.open(m_server.url(), id));
    watcher.input(QStringLiteral("visible-probe"));
    QVERIFY(watcher.waitForOutput(QStringLiteral("visible-probe")));
    const QJsonObject view = data(post(QStringLiteral("/v1/shell/view"), {{u"id"_s, id}}));
    QCOMPARE(view.value(QStringLiteral("status")).toString(), QStringLiteral("running"));
    QVERIFY(
        view.value(QStringLiteral("output")).toString().contains(QStringLiteral("visible-probe")));
    QVERIFY(!view.value(QStringLiteral("output"))
                 .toString()
                 .contains(QStringLiteral("typed-by-mistake")));
    QVERIFY(!watcher.output().contains(QStringLiteral("typed-by-mistake")));
    const QJsonObject killed = data(post(QStringLiteral("/v1/shell/kill"), {{u"id"_s, id}}));
    QCOMPARE(killed.value(QStringLiteral("status")).toString(), QStringLiteral("terminated"));
    watcher.input(QStringLiteral("\x15"));
    const QJsonObject after = exec({{u"command"_s, u"echo free-again"_s}, {u"id"_s, id}});
    QCOMPARE(after.value(QStringLiteral("output")).toString(), QStringLiteral("free-again"));
}

void TestServerShellRest::hardTimeoutStopsTheCommand() {
    QElapsedTimer clock;
    clock.start();
    const QJsonObject result = exec({{u"command"_s, u"sleep 60"_s}, {u"hard_timeout"_s, 1}});
    QCOMPARE(result.value(QStringLiteral("status")).toString(), QStringLiteral("hard_timeout"));
    QVERIFY(clock.elapsed() < 20000);
    const QString id = result.value(QStringLiteral("session_id")).toString();
    const QJsonObject after = exec({{u"command"_s, u"echo next-$((5*5))"_s}, {u"id"_s, id}});
    QCOMPARE(after.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(after.value(QStringLiteral("output")).toString(), QStringLiteral("next-25"));
}

void TestServerShellRest::timeoutAndNoChangeTimeoutAnswerEarly() {
    QJsonObject result = exec({{u"command"_s, u"sleep 3; echo late"_s}, {u"timeout"_s, 0.3}});
    QCOMPARE(result.value(QStringLiteral("status")).toString(), QStringLiteral("running"));
    const QString id = result.value(QStringLiteral("session_id")).toString();
    const QJsonObject waited =
        data(post(QStringLiteral("/v1/shell/wait"), {{u"id"_s, id}, {u"seconds"_s, 30}}));
    QCOMPARE(waited.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(data(post(QStringLiteral("/v1/shell/view"), {{u"id"_s, id}}))
                 .value(QStringLiteral("output"))
                 .toString(),
             QStringLiteral("late"));
    result = exec(
        {{u"command"_s, u"echo first; sleep 3"_s}, {u"id"_s, id}, {u"no_change_timeout"_s, 1}});
    QCOMPARE(result.value(QStringLiteral("status")).toString(),
             QStringLiteral("no_change_timeout"));
    QCOMPARE(result.value(QStringLiteral("output")).toString(), QStringLiteral("first"));
}

void TestServerShellRest::writeWaitViewKill() {
    QJsonObject result =
        exec({{u"command"_s, u"echo ready; read line; echo got-$line"_s}, {u"async_mode"_s, true}});
    const QString id = result.value(QStringLiteral("session_id")).toString();
    QCOMPARE(data(post(QStringLiteral("/v1/shell/wait"), {{u"id"_s, id}, {u"seconds"_s, 0}}))
                 .value(QStringLiteral("status"))
                 .toString(),
             QStringLiteral("running"));
    // Written once the command runs, as an agent reading the screen would. Written while the
    // shell was still taking the command line, the input was lost now and then under load
    // (wait then timed out with the command running): a server race to fix, see issue notes.
    QTRY_VERIFY_WITH_TIMEOUT(data(post(QStringLiteral("/v1/shell/view"), {{u"id"_s, id}}))
                                 .value(QStringLiteral("output"))
                                 .toString()
                                 .contains(u"ready"_s),
                             10000);
    const HttpResult written =
        post(QStringLiteral("/v1/shell/write"),
             {{u"id"_s, id}, {u"input"_s, u"abc"_s}, {u"press_enter"_s, true}});
    QCOMPARE(written.status, 200);
    QVERIFY(data(written).value(QStringLiteral("status")).isString());
    QCOMPARE(data(post(QStringLiteral("/v1/shell/wait"), {{u"id"_s, id}, {u"seconds"_s, 30}}))
                 .value(QStringLiteral("status"))
                 .toString(),
             QStringLiteral("completed"));
    const QJsonObject view = data(post(QStringLiteral("/v1/shell/view"), {{u"id"_s, id}}));
    // The terminal echoes what `read` was typed, as it would on screen, when the input arrives
    // after `read` started; before that, the shell had echo off and only the answer shows.
    const QString output = view.value(QStringLiteral("output")).toString();
    QVERIFY2(output == QStringLiteral("ready\ngot-abc") ||
                 output == QStringLiteral("ready\nabc\ngot-abc"),
             qPrintable(output));
    QCOMPARE(view.value(QStringLiteral("session_id")).toString(), id);
    QCOMPARE(view.value(QStringLiteral("command")).toString(),
             QStringLiteral("echo ready; read line; echo got-$line"));
    QCOMPARE(view.value(QStringLiteral("exit_code")).toInt(), 0);
    // Nothing runs: kill reports the last command.
    const QJsonObject idle = data(post(QStringLiteral("/v1/shell/kill"), {{u"id"_s, id}}));
    QCOMPARE(idle.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    // A program that ignores nothing is stopped; its status is terminated.
    exec({{u"command"_s, u"sleep 100"_s}, {u"id"_s, id}, {u"async_mode"_s, true}});
    const QJsonObject killed = data(post(QStringLiteral("/v1/shell/kill"), {{u"id"_s, id}}));
    QCOMPARE(killed.value(QStringLiteral("status")).toString(), QStringLiteral("terminated"));
    QVERIFY(killed.contains(QStringLiteral("returncode")));
    QCOMPARE(killed.value(QStringLiteral("exit_code")), killed.value(QStringLiteral("returncode")));
}

void TestServerShellRest::createWithIdAndExecDir() {
    QTemporaryDir dir;
    HttpResult created = post(QStringLiteral("/v1/shell/sessions/create"),
                              {{u"id"_s, u"named-session"_s}, {u"exec_dir"_s, dir.path()}});
    QCOMPARE(created.status, 200);
    QCOMPARE(data(created).value(QStringLiteral("session_id")).toString(),
             QStringLiteral("named-session"));
    QCOMPARE(data(created).value(QStringLiteral("working_dir")).toString(), dir.path());
    created = post(QStringLiteral("/v1/shell/sessions/create"), {{u"id"_s, u"named-session"_s}});
    QCOMPARE(data(created).value(QStringLiteral("session_id")).toString(),
             QStringLiteral("named-session"));
    const HttpResult empty = post(QStringLiteral("/v1/shell/sessions/create"), QJsonObject{});
    QCOMPARE(empty.status, 200);
    QVERIFY(!data(empty).value(QStringLiteral("session_id")).toString().isEmpty());

    QJsonObject result =
        exec({{u"command"_s, u"pwd"_s}, {u"id"_s, u"named-session"_s}, {u"exec_dir"_s, u"/"_s}});
    QCOMPARE(result.value(QStringLiteral("output")).toString(), QStringLiteral("/"));
    const HttpResult strict =
        post(QStringLiteral("/v1/shell/exec"), {{u"command"_s, u"pwd"_s},
                                                {u"id"_s, u"named-session"_s},
                                                {u"exec_dir"_s, u"/no/such/dir"_s},
                                                {u"strict"_s, true}});
    QCOMPARE(strict.status, 400);
    QVERIFY(isErrorEnvelope(strict.body));
    result = exec({{u"command"_s, u"pwd"_s},
                   {u"id"_s, u"named-session"_s},
                   {u"exec_dir"_s, u"/no/such/dir"_s}});
    QCOMPARE(result.value(QStringLiteral("output")).toString(), QStringLiteral("/"));
}

void TestServerShellRest::validationErrorsAreFastApiShaped() {
    auto firstError = [](const HttpResult &result) {
        return result.json().value(QStringLiteral("detail")).toArray().first().toObject();
    };
    HttpResult result = post(QStringLiteral("/v1/shell/exec"), {{u"id"_s, u"x"_s}});
    QCOMPARE(result.status, 422);
    QJsonObject error = firstError(result);
    QCOMPARE(error.value(QStringLiteral("loc")).toArray(),
             QJsonArray({QStringLiteral("body"), QStringLiteral("command")}));
    QCOMPARE(error.value(QStringLiteral("type")).toString(), QStringLiteral("missing"));
    QVERIFY(!error.value(QStringLiteral("msg")).toString().isEmpty());

    result =
        post(QStringLiteral("/v1/shell/exec"), {{u"command"_s, 5}, {u"async_mode"_s, u"maybe"_s}});
    QCOMPARE(result.status, 422);
    QCOMPARE(result.json().value(QStringLiteral("detail")).toArray().size(), 2);
    QCOMPARE(firstError(result).value(QStringLiteral("type")).toString(),
             QStringLiteral("string_type"));

    result = request("POST", m_server.url(QStringLiteral("/v1/shell/view")),
                     {{"Content-Type", "application/json"}}, "{not json");
    QCOMPARE(result.status, 422);
    QCOMPARE(firstError(result).value(QStringLiteral("type")).toString(),
             QStringLiteral("json_invalid"));

    result = post(QStringLiteral("/v1/shell/write"), {{u"id"_s, u"x"_s}, {u"input"_s, u"y"_s}});
    QCOMPARE(result.status, 422);
    QCOMPARE(firstError(result).value(QStringLiteral("loc")).toArray().last().toString(),
             QStringLiteral("press_enter"));

    result = post(QStringLiteral("/v1/shell/exec"),
                  {{u"command"_s, u"pwd"_s}, {u"exec_dir"_s, u"rel/dir"_s}});
    QCOMPARE(result.status, 422);
    QCOMPARE(firstError(result).value(QStringLiteral("loc")).toArray().last().toString(),
             QStringLiteral("exec_dir"));
}

void TestServerShellRest::unknownSessionIs404() {
    for (const char *path :
         {"/v1/shell/view", "/v1/shell/wait", "/v1/shell/kill", "/v1/shell/exec"}) {
        const HttpResult result =
            post(QLatin1String(path), {{u"id"_s, u"nope"_s}, {u"command"_s, u"true"_s}});
        QCOMPARE(result.status, 404);
        QVERIFY2(isErrorEnvelope(result.body), path);
    }
    const HttpResult deleted =
        request("DELETE", m_server.url(QStringLiteral("/v1/shell/sessions/nope")));
    QCOMPARE(deleted.status, 404);
}

void TestServerShellRest::statsCountSessions() {
    exec({{u"command"_s, u"true"_s}});
    const QJsonObject stats =
        data(request("GET", m_server.url(QStringLiteral("/v1/shell/sessions/stats"))));
    QVERIFY(stats.value(QStringLiteral("total_sessions")).toInt() >= 1);
    QCOMPARE(stats.value(QStringLiteral("total_sessions")).toInt(),
             stats.value(QStringLiteral("active_sessions")).toInt() +
                 stats.value(QStringLiteral("idle_sessions")).toInt());
    QVERIFY(stats.value(QStringLiteral("max_sessions")).toInt() > 0);
    QCOMPARE(stats.value(QStringLiteral("session_timeout")).toInt(), 86400);
    QVERIFY(stats.value(QStringLiteral("usage_ratio")).toDouble() > 0);
}

void TestServerShellRest::deleteAllSessions() {
    exec({{u"command"_s, u"true"_s}});
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    QVERIFY(client.waitFor([&] { return !client.sessionId().isEmpty(); }));
    const HttpResult deleted =
        request("DELETE", m_server.url(QStringLiteral("/v1/shell/sessions")));
    QCOMPARE(deleted.status, 200);
    QVERIFY(client.waitForClose());
    QVERIFY(sessionsMap().isEmpty());
}

void TestServerShellRest::idleSessionsAreReaped() {
    TestServer server;
    QVERIFY2(server.start(TestServer::withArgs({u"--session-idle-timeout"_s, u"1"_s})),
             qPrintable(server.error()));
    QUrl base = server.url();
    auto list = [&] {
        QUrl u = base;
        u.setPath(QStringLiteral("/v1/shell/sessions"));
        return request("GET", u)
            .json()
            .value(QStringLiteral("data"))
            .toObject()
            .value(QStringLiteral("sessions"))
            .toObject();
    };
    ShellTestClient attached;
    QVERIFY(attached.open(base));
    QVERIFY(attached.waitFor([&] { return !attached.sessionId().isEmpty(); }));
    QUrl create = base;
    create.setPath(QStringLiteral("/v1/shell/sessions/create"));
    const HttpResult created =
        request("POST", create, {{"Content-Type", "application/json"}}, "{}");
    const QString idle = created.json()
                             .value(QStringLiteral("data"))
                             .toObject()
                             .value(QStringLiteral("session_id"))
                             .toString();
    QVERIFY(list().contains(idle));
    QVERIFY(QTest::qWaitFor([&] { return !list().contains(idle); }, 15000));
    // A session with a terminal attached stays.
    QVERIFY(list().contains(attached.sessionId()));
    QCOMPARE(server.stop(), 0);
}

void TestServerShellRest::stopClosesSocketsAndKillsShells() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    ShellTestClient client;
    QVERIFY(client.open(server.url()));
    client.input(QStringLiteral("echo pid=$$; sleep 1000 & echo bg=$!\r"));
    static const QRegularExpression pids(QStringLiteral("pid=(\\d+)\r\n(?:.*\r\n)?bg=(\\d+)\r"));
    QRegularExpressionMatch match;
    QVERIFY(client.waitFor([&] { return (match = pids.match(client.output())).hasMatch(); }));
    const int shell = match.captured(1).toInt();
    const int background = match.captured(2).toInt();
    QVERIFY(shell > 0);
    QVERIFY(background > 0);
    QCOMPARE(server.stop(), 0);
    QVERIFY(client.waitForClose());
    QCOMPARE(client.closeCode(), 1001);
    QVERIFY(QTest::qWaitFor([&] { return !processRuns(shell) && !processRuns(background); }, 5000));
}

QTEST_GUILESS_MAIN(TestServerShellRest)
#include "tst_server_shell_rest.moc"
