// AIO startup hooks on sandbox-server: RUN_HOOK_INIT and RUN_HOOK_PRE_SERVICES before the
// listener opens, RUN_HOOK_POST_READY in the background once it serves; failures logged.
// Also the caps on what a client can pile up: shutdown hooks and REST shell sessions.
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

QByteArray readFile(const QString &path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

} // namespace

class TestServerHooks final : public QObject {
    Q_OBJECT

private slots:
    void startupHooksRunInOrderBeforeListening();
    void postReadyRunsWhileServing();
    void failingHooksAreLoggedAndServerServes();
    void stopEndsRunningPostReadyHook();
    void shutdownHooksAreCapped();
    void shellSessionsAreCapped();
};

void TestServerHooks::startupHooksRunInOrderBeforeListening() {
    TestServer server;
    TestServer::Options options;
    // Relative paths: hooks run in the workspace. Both also write to stdout, which must not
    // reach the server's own stdout.
    options.env.insert(
        QStringLiteral("RUN_HOOK_INIT"),
        QStringLiteral("echo init >> order.txt; pwd > cwd.txt; echo hook-stdout-init"));
    options.env.insert(QStringLiteral("RUN_HOOK_PRE_SERVICES"),
                       QStringLiteral("test -f cwd.txt && echo pre >> order.txt; "
                                      "echo hook-stderr-pre >&2"));
    QVERIFY2(server.start(options), qPrintable(server.error()));

    const QDir workspace(server.workspace());
    // start() returned on the listening line: both hooks have finished by then.
    QCOMPARE(readFile(workspace.filePath(QStringLiteral("order.txt"))), QByteArray("init\npre\n"));
    QCOMPARE(readFile(workspace.filePath(QStringLiteral("cwd.txt"))).trimmed(),
             QDir(server.workspace()).canonicalPath().toUtf8());

    const QByteArray log = server.stderrText();
    QVERIFY2(log.contains("[RUN_HOOK_INIT] hook-stdout-init"), log.constData());
    QVERIFY2(log.contains("[RUN_HOOK_PRE_SERVICES] hook-stderr-pre"), log.constData());
    QVERIFY(server.stdoutText().count('\n') == 1);
    QVERIFY(!server.stdoutText().contains("hook-stdout"));
    QCOMPARE(server.stop(), 0);
}

void TestServerHooks::postReadyRunsWhileServing() {
    TestServer server;
    TestServer::Options options;
    // The hook waits (bounded) for the test's "go" file, so it is still running while the
    // test checks that the server serves.
    options.env.insert(
        QStringLiteral("RUN_HOOK_POST_READY"),
        QStringLiteral("echo started > post-started; "
                       "for i in $(seq 1 400); do [ -f go ] && break; sleep 0.05; done; "
                       "echo \"$SANDBOX_SERVER_URL\" > post-ready.txt"));
    QVERIFY2(server.start(options), qPrintable(server.error()));
    const QDir workspace(server.workspace());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(workspace.filePath(QStringLiteral("post-started"))),
                             10000);
    QUrl target = server.url(QStringLiteral("/v1/sandbox"));
    QCOMPARE(request("GET", target).status, 200);
    QVERIFY(!QFile::exists(workspace.filePath(QStringLiteral("post-ready.txt"))));

    QFile go(workspace.filePath(QStringLiteral("go")));
    QVERIFY(go.open(QIODevice::WriteOnly));
    go.close();
    const QString marker = workspace.filePath(QStringLiteral("post-ready.txt"));
    QTRY_VERIFY_WITH_TIMEOUT(readFile(marker).endsWith('\n'), 10000);
    QCOMPARE(readFile(marker).trimmed(), server.url().toString().toUtf8());
    QTRY_VERIFY_WITH_TIMEOUT(
        server.stderrText().contains("RUN_HOOK_POST_READY: finished with exit code 0"), 10000);
    QCOMPARE(server.stdoutText().count('\n'), 1);
    QCOMPARE(server.stop(), 0);
}

void TestServerHooks::failingHooksAreLoggedAndServerServes() {
    TestServer server;
    TestServer::Options options;
    options.env.insert(QStringLiteral("RUN_HOOK_INIT"), QStringLiteral("exit 3"));
    options.env.insert(QStringLiteral("RUN_HOOK_PRE_SERVICES"),
                       QStringLiteral("no-such-command-for-sure-xyz"));
    options.env.insert(QStringLiteral("RUN_HOOK_POST_READY"), QStringLiteral("exit 4"));
    QVERIFY2(server.start(options), qPrintable(server.error()));

    const QByteArray log = server.stderrText();
    QVERIFY2(log.contains("RUN_HOOK_INIT: failed with exit code 3"), log.constData());
    QVERIFY2(log.contains("RUN_HOOK_PRE_SERVICES: failed with exit code 127"), log.constData());
    QTRY_VERIFY_WITH_TIMEOUT(
        server.stderrText().contains("RUN_HOOK_POST_READY: failed with exit code 4"), 10000);

    QUrl target = server.url(QStringLiteral("/llms.txt"));
    QCOMPARE(request("GET", target).status, 200);
    QCOMPARE(server.stop(), 0);
}

void TestServerHooks::stopEndsRunningPostReadyHook() {
    TestServer server;
    TestServer::Options options;
    options.env.insert(
        QStringLiteral("RUN_HOOK_POST_READY"),
        QStringLiteral("touch running; for i in $(seq 1 1200); do sleep 0.05; done"));
    QVERIFY2(server.start(options), qPrintable(server.error()));
    QTRY_VERIFY_WITH_TIMEOUT(
        QFile::exists(QDir(server.workspace()).filePath(QStringLiteral("running"))), 10000);
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(server.stop(), 0);
    // The hook would run for a minute; stopping must not wait for it.
    QVERIFY2(timer.elapsed() < 15000, QByteArray::number(timer.elapsed()).constData());
    QVERIFY(server.stderrText().contains(
        "RUN_HOOK_POST_READY: stopped because the server is stopping"));
}

void TestServerHooks::shutdownHooksAreCapped() {
    TestServer server;
    TestServer::Options options;
    options.env.insert(u"SANDBOX_SHUTDOWN_HOOKS"_s, uR"([{"name":"from-env","command":"true"}])"_s);
    QVERIFY2(server.start(options), qPrintable(server.error()));
    QUrl hooks = server.url(u"/v1/sandbox/hooks"_s);
    auto post = [&](const QString &name) {
        const QJsonObject hook{{u"name"_s, name}, {u"command"_s, u"true"_s}};
        return request("POST", hooks, {{"Content-Type", "application/json"}},
                       QJsonDocument(hook).toJson(QJsonDocument::Compact));
    };
    // The environment's hook counts: 99 more fill the 100.
    for (int i = 0; i < 99; ++i)
        QCOMPARE(post(u"hook-%1"_s.arg(i)).status, 200);
    const HttpResult refused = post(u"one-too-many"_s);
    QCOMPARE(refused.status, 429);
    QString why;
    QVERIFY2(isErrorEnvelope(refused.body, &why), qPrintable(why));
    QVERIFY2(refused.json().value(u"message"_s).toString().contains(u"100"_s),
             refused.body.constData());
    // Replacing a registered hook adds none and stays allowed; a deletion makes room.
    QCOMPARE(post(u"hook-0"_s).status, 200);
    QUrl first = hooks;
    first.setPath(u"/v1/sandbox/hooks/hook-1"_s);
    QCOMPARE(request("DELETE", first).status, 200);
    QCOMPARE(post(u"one-too-many"_s).status, 200);
    const HttpResult list = request("GET", hooks);
    QCOMPARE(list.json().value(u"data"_s).toArray().size(), 100);
    QCOMPARE(server.stop(), 0);
}

void TestServerHooks::shellSessionsAreCapped() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    QUrl create = server.url(u"/v1/shell/sessions/create"_s);
    QUrl stats = server.url(u"/v1/shell/sessions/stats"_s);
    const int max =
        request("GET", stats).json().value(u"data"_s).toObject().value(u"max_sessions"_s).toInt();
    QCOMPARE(max, 100);
    for (int i = 0; i < max; ++i) {
        const HttpResult created = request("POST", create, {}, QByteArray("{}"));
        QVERIFY2(created.status == 200, created.body.constData());
    }
    const HttpResult refused = request("POST", create, {}, QByteArray("{}"));
    QCOMPARE(refused.status, 429);
    QString why;
    QVERIFY2(isErrorEnvelope(refused.body, &why), qPrintable(why));
    QVERIFY2(refused.json().value(u"message"_s).toString().contains(u"100"_s),
             refused.body.constData());
    // The server still serves, and an exec without a session is refused the same way.
    QUrl exec = server.url(u"/v1/shell/exec"_s);
    QCOMPARE(request("POST", exec, {}, QByteArray(R"({"command":"true"})")).status, 429);
    QUrl all = server.url(u"/v1/shell/sessions"_s);
    QCOMPARE(request("DELETE", all).status, 200);
    QCOMPARE(request("POST", create, {}, QByteArray("{}")).status, 200);
    QCOMPARE(server.stop(), 0);
}

QTEST_GUILESS_MAIN(TestServerHooks)
#include "tst_server_hooks.moc"
