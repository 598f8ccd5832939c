// Shutdown hooks on a real sandbox-server: /v1/sandbox/hooks (FastAPI 422s, register, list,
// replace, delete), SANDBOX_SHUTDOWN_HOOKS (read-only hooks, refusal to start when invalid),
// API hooks that survive a restart, and the run at SIGTERM/SIGINT: lanes by priority in
// parallel (proven by a rendezvous), timeouts killing the whole process group, one log block
// per hook without its command.
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

QUrl endpoint(const TestServer &server, const QString &path) {
    QUrl url = server.url();
    const qsizetype query = path.indexOf(u'?');
    url.setPath(query < 0 ? path : path.left(query));
    if (query >= 0)
        url.setQuery(path.mid(query + 1));
    return url;
}

HttpResult postHook(const TestServer &server, const QByteArray &body) {
    return request("POST", endpoint(server, u"/v1/sandbox/hooks"_s),
                   {{"Content-Type", "application/json"}}, body);
}

HttpResult postHook(const TestServer &server, const QJsonObject &hook) {
    return postHook(server, QJsonDocument(hook).toJson(QJsonDocument::Compact));
}

HttpResult deleteHook(const TestServer &server, const QString &name) {
    return request("DELETE", endpoint(server, u"/v1/sandbox/hooks/"_s + name));
}

// The `data` list of GET /v1/sandbox/hooks; fails the test (empty list) on anything else.
QJsonArray listHooks(const TestServer &server) {
    const HttpResult result = request("GET", endpoint(server, u"/v1/sandbox/hooks"_s));
    if (result.status != 200 || !result.json().value(u"success"_s).toBool())
        return {};
    return result.json().value(u"data"_s).toArray();
}

QStringList names(const QJsonArray &hooks) {
    QStringList result;
    for (const QJsonValue &hook : hooks)
        result << hook[u"name"_s].toString();
    return result;
}

QByteArray readFile(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A zombie counts as gone: nothing runs any more, only its parent has not collected it.
bool processRuns(qint64 pid) {
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && text.mid(close + 2, 1) != "Z";
}

// Sends a signal and waits (bounded) for the server to exit; its exit code, -1 otherwise.
int stopWith(TestServer &server, int signalNumber) {
    QProcess &process = server.process();
    ::kill(static_cast<pid_t>(process.processId()), signalNumber);
    if (!process.waitForFinished(60000))
        return -1;
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

QJsonObject hook(const QString &name, const QString &command, int priority, double timeout) {
    return QJsonObject{{u"name"_s, name},
                       {u"command"_s, command},
                       {u"priority"_s, priority},
                       {u"timeout"_s, timeout}};
}

} // namespace

class TestServerShutdownHooks final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void validation_data();
    void validation();
    void boundariesAreAccepted();
    void listEventOtherThanShutdownIs422();
    void registerListReplaceDelete();
    void environmentHooksAreReadOnly();
    void invalidEnvironmentRefusesToStart_data();
    void invalidEnvironmentRefusesToStart();
    void apiHooksSurviveRestart();
    void lanesRunInOrderAndTimeoutsKillTheGroup();
    void sigintRunsHooksToo();

private:
    // For the validation rows, which must leave it without hooks.
    TestServer m_server;
};

void TestServerShutdownHooks::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestServerShutdownHooks::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerShutdownHooks::validation_data() {
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QStringList>("fields");
    QTest::addColumn<QString>("type");

    const QByteArray name65(65, 'n');
    const QByteArray command4097(4097, 'x');
    QTest::newRow("name missing") << QByteArray(R"({"command":"true"})") << QStringList{u"name"_s}
                                  << u"missing"_s;
    QTest::newRow("name empty") << QByteArray(R"({"name":"","command":"true"})")
                                << QStringList{u"name"_s} << u"string_pattern_mismatch"_s;
    QTest::newRow("name 65 chars") << QByteArray(R"({"name":")" + name65 + R"(","command":"true"})")
                                   << QStringList{u"name"_s} << u"string_too_long"_s;
    QTest::newRow("name with space") << QByteArray(R"({"name":"a b","command":"true"})")
                                     << QStringList{u"name"_s} << u"string_pattern_mismatch"_s;
    QTest::newRow("name with slash") << QByteArray(R"({"name":"a/b","command":"true"})")
                                     << QStringList{u"name"_s} << u"string_pattern_mismatch"_s;
    QTest::newRow("name not ascii") << QByteArray(R"({"name":"caf\u00e9","command":"true"})")
                                    << QStringList{u"name"_s} << u"string_pattern_mismatch"_s;
    QTest::newRow("name not a string") << QByteArray(R"({"name":5,"command":"true"})")
                                       << QStringList{u"name"_s} << u"string_type"_s;
    QTest::newRow("command missing")
        << QByteArray(R"({"name":"x"})") << QStringList{u"command"_s} << u"missing"_s;
    QTest::newRow("command empty") << QByteArray(R"({"name":"x","command":""})")
                                   << QStringList{u"command"_s} << u"string_too_short"_s;
    QTest::newRow("command 4097 chars")
        << QByteArray(R"({"name":"x","command":")" + command4097 + R"("})")
        << QStringList{u"command"_s} << u"string_too_long"_s;
    QTest::newRow("timeout zero") << QByteArray(R"({"name":"x","command":"true","timeout":0})")
                                  << QStringList{u"timeout"_s} << u"greater_than"_s;
    QTest::newRow("timeout negative")
        << QByteArray(R"({"name":"x","command":"true","timeout":-2.5})")
        << QStringList{u"timeout"_s} << u"greater_than"_s;
    QTest::newRow("timeout a string")
        << QByteArray(R"({"name":"x","command":"true","timeout":"ten"})")
        << QStringList{u"timeout"_s} << u"float_type"_s;
    QTest::newRow("timeout over an hour")
        << QByteArray(R"({"name":"x","command":"true","timeout":3601})")
        << QStringList{u"timeout"_s} << u"less_than_equal"_s;
    QTest::newRow("priority fractional")
        << QByteArray(R"({"name":"x","command":"true","priority":1.5})")
        << QStringList{u"priority"_s} << u"int_type"_s;
    QTest::newRow("priority a string")
        << QByteArray(R"({"name":"x","command":"true","priority":"5"})")
        << QStringList{u"priority"_s} << u"int_type"_s;
    QTest::newRow("event startup")
        << QByteArray(R"({"name":"x","command":"true","event":"startup"})")
        << QStringList{u"event"_s} << u"literal_error"_s;
    QTest::newRow("three at once")
        << QByteArray(R"({"name":"bad name","timeout":0})")
        << QStringList{u"name"_s, u"command"_s, u"timeout"_s} << QString();
}

void TestServerShutdownHooks::validation() {
    QFETCH(QByteArray, body);
    QFETCH(QStringList, fields);
    QFETCH(QString, type);

    const HttpResult result = postHook(m_server, body);
    QCOMPARE(result.status, 422);
    const QJsonArray detail = result.json().value(u"detail"_s).toArray();
    QCOMPARE(detail.size(), fields.size());
    for (qsizetype i = 0; i < fields.size(); ++i) {
        QCOMPARE(detail[i][u"loc"_s].toArray(), QJsonArray({u"body"_s, fields[i]}));
        QVERIFY(!detail[i][u"msg"_s].toString().isEmpty());
        if (!type.isEmpty())
            QCOMPARE(detail[i][u"type"_s].toString(), type);
    }
    // A refused hook is not registered.
    const HttpResult list = request("GET", endpoint(m_server, u"/v1/sandbox/hooks"_s));
    QCOMPARE(list.status, 200);
    QCOMPARE(list.json().value(u"data"_s).toArray().size(), 0);
}

void TestServerShutdownHooks::boundariesAreAccepted() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    const QString name64 = QString(63, u'n') + u'_';
    const QString command4096 = u"true "_s + QString(4091, u'x');
    QCOMPARE(command4096.size(), 4096);
    QJsonObject body{{u"name"_s, name64}, {u"command"_s, command4096}, {u"timeout"_s, 3600}};
    const HttpResult result = postHook(server, body);
    QCOMPARE(result.status, 200);
    QCOMPARE(result.json()[u"data"_s][u"name"_s].toString(), name64);
    // Fractional seconds and negative priorities are valid too.
    const HttpResult other = postHook(server, QByteArray(R"({"name":"Aa0-_","command":"true",)"
                                                         R"("timeout":0.25,"priority":-3})"));
    QCOMPARE(other.status, 200);
    QCOMPARE(other.json()[u"data"_s][u"timeout"_s].toDouble(), 0.25);
    QCOMPARE(names(listHooks(server)), QStringList({u"Aa0-_"_s, name64}));
    QCOMPARE(server.stop(), 0);
}

void TestServerShutdownHooks::listEventOtherThanShutdownIs422() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    const HttpResult wrong = request("GET", endpoint(server, u"/v1/sandbox/hooks?event=startup"_s));
    QCOMPARE(wrong.status, 422);
    QCOMPARE(wrong.json()[u"detail"_s][0][u"loc"_s].toArray(),
             QJsonArray({u"query"_s, u"event"_s}));
    const HttpResult right =
        request("GET", endpoint(server, u"/v1/sandbox/hooks?event=shutdown"_s));
    QCOMPARE(right.status, 200);
    QVERIFY(right.json()[u"data"_s].isArray());
    QCOMPARE(server.stop(), 0);
}

void TestServerShutdownHooks::registerListReplaceDelete() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));

    const HttpResult first =
        postHook(server, QJsonObject{{u"name"_s, u"b-hook"_s}, {u"command"_s, u"echo b"_s}});
    QCOMPARE(first.status, 200);
    QVERIFY(first.json()[u"success"_s].toBool());
    const QJsonObject defaults{{u"name"_s, u"b-hook"_s},    {u"event"_s, u"shutdown"_s},
                               {u"command"_s, u"echo b"_s}, {u"timeout"_s, 10},
                               {u"priority"_s, 100},        {u"source"_s, u"api"_s}};
    QCOMPARE(first.json()[u"data"_s].toObject(), defaults);
    QCOMPARE(postHook(server, hook(u"c"_s, u"echo c"_s, 5, 2.5)).status, 200);
    QCOMPARE(postHook(server, hook(u"a_hook"_s, u"echo a"_s, 5, 1)).status, 200);

    // By priority, then name.
    QJsonArray hooks = listHooks(server);
    QCOMPARE(names(hooks), QStringList({u"a_hook"_s, u"c"_s, u"b-hook"_s}));
    QCOMPARE(hooks[2].toObject(), defaults);
    QCOMPARE(hooks[1][u"timeout"_s].toDouble(), 2.5);

    // The same name replaces.
    const HttpResult replaced = postHook(server, hook(u"b-hook"_s, u"echo bb"_s, 1, 3));
    QCOMPARE(replaced.status, 200);
    hooks = listHooks(server);
    QCOMPARE(names(hooks), QStringList({u"b-hook"_s, u"a_hook"_s, u"c"_s}));
    QCOMPARE(hooks[0][u"command"_s].toString(), u"echo bb"_s);

    const HttpResult removed = deleteHook(server, u"b-hook"_s);
    QCOMPARE(removed.status, 200);
    QVERIFY(removed.json()[u"success"_s].toBool());
    QCOMPARE(names(listHooks(server)), QStringList({u"a_hook"_s, u"c"_s}));

    const HttpResult again = deleteHook(server, u"b-hook"_s);
    QCOMPARE(again.status, 404);
    QString why;
    QVERIFY2(isErrorEnvelope(again.body, &why), qPrintable(why));

    const HttpResult sandbox = request("GET", endpoint(server, u"/v1/sandbox"_s));
    QVERIFY(sandbox.json()[u"extensions"_s].toArray().contains(u"shutdown-hooks"_s));
    QCOMPARE(server.stop(), 0);
}

void TestServerShutdownHooks::environmentHooksAreReadOnly() {
    TestServer server;
    TestServer::Options options;
    // The hook records whether the variable (commands may hold secrets) reached it.
    options.env.insert(u"SANDBOX_SHUTDOWN_HOOKS"_s, uR"([{"name":"env-save","priority":7,
                            "command":"echo \"${SANDBOX_SHUTDOWN_HOOKS-unset}\" > env-ran"},
                           {"name":"env2","command":"true","timeout":3}])"_s);
    QVERIFY2(server.start(options), qPrintable(server.error()));

    const QJsonArray hooks = listHooks(server);
    QCOMPARE(names(hooks), QStringList({u"env-save"_s, u"env2"_s}));
    QCOMPARE(hooks[0][u"source"_s].toString(), u"env"_s);
    QCOMPARE(hooks[0][u"priority"_s].toInt(), 7);
    QCOMPARE(hooks[0][u"timeout"_s].toDouble(), 10.0);
    QCOMPARE(hooks[1][u"source"_s].toString(), u"env"_s);
    QCOMPARE(hooks[1][u"priority"_s].toInt(), 100);
    QCOMPARE(hooks[1][u"event"_s].toString(), u"shutdown"_s);

    QString why;
    const HttpResult removed = deleteHook(server, u"env-save"_s);
    QCOMPARE(removed.status, 403);
    QVERIFY2(isErrorEnvelope(removed.body, &why), qPrintable(why));
    QVERIFY(removed.json()[u"message"_s].toString().contains(u"environment"_s));

    const HttpResult replaced = postHook(server, hook(u"env-save"_s, u"true"_s, 1, 1));
    QCOMPARE(replaced.status, 409);
    QVERIFY2(isErrorEnvelope(replaced.body, &why), qPrintable(why));
    QVERIFY(replaced.json()[u"message"_s].toString().contains(u"environment"_s));
    QCOMPARE(listHooks(server), hooks);

    QCOMPARE(server.stop(), 0);
    QCOMPARE(readFile(QDir(server.workspace()).filePath(u"env-ran"_s)), QByteArray("unset\n"));
    QVERIFY(server.stderrText().contains("shutdown hook env-save (priority 7): exit code 0"));
}

void TestServerShutdownHooks::invalidEnvironmentRefusesToStart_data() {
    QTest::addColumn<QString>("value");
    QTest::addColumn<QByteArray>("named");
    // Every value holds a secret-looking command text that must not reach the log.
    QTest::newRow("not JSON") << uR"([{"name":"x","command":"curl -H sekrit-token)"_s
                              << QByteArray("not valid JSON");
    QTest::newRow("not an array") << uR"({"name":"x","command":"echo sekrit-token"})"_s
                                  << QByteArray("must be a JSON array");
    QTest::newRow("entry without command")
        << uR"([{"name":"ok","command":"echo sekrit-token"},{"name":"second"}])"_s
        << QByteArray("entry 2 (\"second\"): command: Field required");
    QTest::newRow("bad timeout")
        << uR"([{"name":"late","command":"echo sekrit-token","timeout":-1}])"_s
        << QByteArray("entry 1 (\"late\"): timeout:");
    QTest::newRow("bad name") << uR"([{"name":"no spaces","command":"echo sekrit-token"}])"_s
                              << QByteArray("entry 1: name:");
    QTest::newRow("same name twice")
        << uR"([{"name":"a","command":"echo sekrit-token"},{"name":"a","command":"true"}])"_s
        << QByteArray("entry 2 (\"a\"): name:");
}

void TestServerShutdownHooks::invalidEnvironmentRefusesToStart() {
    QFETCH(QString, value);
    QFETCH(QByteArray, named);
    TestServer server;
    TestServer::Options options;
    options.env.insert(u"SANDBOX_SHUTDOWN_HOOKS"_s, value);
    QVERIFY(!server.start(options));
    // start() returns once the process is gone, or with the process about to go.
    QVERIFY(server.process().state() == QProcess::NotRunning ||
            server.process().waitForFinished(10000));
    QCOMPARE(server.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(server.process().exitCode(), 2);
    const QByteArray log = server.stderrText();
    QVERIFY2(log.contains("SANDBOX_SHUTDOWN_HOOKS"), log.constData());
    QVERIFY2(log.contains(named), log.constData());
    QVERIFY2(log.contains("refusing to start"), log.constData());
    QVERIFY2(!log.contains("sekrit"), log.constData());
    QVERIFY(!server.stdoutText().contains("listening"));
}

void TestServerShutdownHooks::apiHooksSurviveRestart() {
    QTemporaryDir workspace;
    QVERIFY(workspace.isValid());
    const QString kept = QDir(workspace.path()).filePath(u"kept.txt"_s);
    TestServer::Options options;
    options.workspace = workspace.path();
    {
        TestServer server;
        QVERIFY2(server.start(options), qPrintable(server.error()));
        QCOMPARE(postHook(server, hook(u"keep"_s, u"echo kept >> kept.txt"_s, 3, 4)).status, 200);
        QCOMPARE(server.stop(), 0);
    }
    QCOMPARE(readFile(kept), QByteArray("kept\n"));
    // Commands may hold secrets: the saved list is readable by its owner only.
    const QString saved = QDir(workspace.path()).filePath(u".sandbox-server/shutdown-hooks.json"_s);
    QVERIFY(QFile::exists(saved));
    QVERIFY(!(QFile::permissions(saved) & (QFile::ReadGroup | QFile::ReadOther)));
    {
        TestServer server;
        QVERIFY2(server.start(options), qPrintable(server.error()));
        const QJsonArray hooks = listHooks(server);
        QCOMPARE(hooks.size(), 1);
        QCOMPARE(hooks[0].toObject(), (QJsonObject{{u"name"_s, u"keep"_s},
                                                   {u"event"_s, u"shutdown"_s},
                                                   {u"command"_s, u"echo kept >> kept.txt"_s},
                                                   {u"timeout"_s, 4},
                                                   {u"priority"_s, 3},
                                                   {u"source"_s, u"api"_s}}));
        QCOMPARE(deleteHook(server, u"keep"_s).status, 200);
        QCOMPARE(server.stop(), 0);
    }
    // Deleted: it did not run at that stop, and the next start does not list it.
    QCOMPARE(readFile(kept), QByteArray("kept\n"));
    {
        TestServer server;
        QVERIFY2(server.start(options), qPrintable(server.error()));
        QCOMPARE(listHooks(server), QJsonArray());
        QCOMPARE(server.stop(), 0);
    }
    // A damaged list is not silently dropped: the server says which file and does not start.
    QFile damaged(saved);
    QVERIFY(damaged.open(QIODevice::WriteOnly | QIODevice::Truncate));
    damaged.write(R"({"hooks":[{"name":"half")");
    damaged.close();
    TestServer server;
    QVERIFY(!server.start(options));
    QVERIFY(server.process().state() == QProcess::NotRunning ||
            server.process().waitForFinished(10000));
    QCOMPARE(server.process().exitCode(), 2);
    QVERIFY2(server.stderrText().contains(saved.toUtf8()), server.stderrText().constData());
}

void TestServerShutdownHooks::lanesRunInOrderAndTimeoutsKillTheGroup() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    const QDir workspace(server.workspace());

    // A and B (priority 10) each mark that they started and wait (up to 20 s) for the other's
    // mark: both see it only if they run at the same time. Each command starts with a comment
    // the log must not show.
    const auto partner = [](const QString &self, const QString &other) {
        return u": cmd-secret; touch %1.marker; i=0; "
               "while [ ! -f %2.marker ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; "
               "[ -f %2.marker ] && echo ok > %1.ok; echo %1-output-line"_s.arg(self, other);
    };
    QCOMPARE(postHook(server, hook(u"A"_s, partner(u"a"_s, u"b"_s), 10, 30)).status, 200);
    QCOMPARE(postHook(server, hook(u"B"_s, partner(u"b"_s, u"a"_s), 10, 30)).status, 200);
    // D (priority 50) outlives its 1 s timeout with a child that ignores SIGTERM: the group
    // gets SIGTERM, then SIGKILL. It notes whether lane 10 had finished when it started.
    QCOMPARE(
        postHook(server, hook(u"D"_s,
                              u": cmd-secret; [ -f a.ok ] && [ -f b.ok ] && echo yes > d.after; "
                              "echo $$ > d.shpid; (trap '' TERM; exec sleep 30) & echo $! > d.pid; "
                              "echo D-started; wait; echo done > d.done"_s,
                              50, 1))
            .status,
        200);
    // C (priority 200) checks that both lanes before it are over: A and B wrote their results
    // and D's shell is gone.
    QCOMPARE(postHook(server, hook(u"C"_s,
                                   u": cmd-secret; if [ -f a.ok ] && [ -f b.ok ] && "
                                   "[ -s d.shpid ] && ! kill -0 $(cat d.shpid) 2>/dev/null; "
                                   "then echo yes > c.result; else echo no > c.result; fi"_s,
                                   200, 10))
                 .status,
             200);
    // F fails, G talks more than the log keeps.
    QCOMPARE(postHook(server, hook(u"F"_s, u"echo to-stderr >&2; exit 3"_s, 200, 10)).status, 200);
    QCOMPARE(postHook(server, hook(u"G"_s,
                                   u"i=0; while [ $i -lt 3000 ]; do "
                                   "echo \"line-$i-................................\"; "
                                   "i=$((i+1)); done"_s,
                                   200, 30))
                 .status,
             200);

    QCOMPARE(stopWith(server, SIGTERM), 0);

    QCOMPARE(readFile(workspace.filePath(u"a.ok"_s)), QByteArray("ok\n"));
    QCOMPARE(readFile(workspace.filePath(u"b.ok"_s)), QByteArray("ok\n"));
    QCOMPARE(readFile(workspace.filePath(u"d.after"_s)), QByteArray("yes\n"));
    QCOMPARE(readFile(workspace.filePath(u"c.result"_s)), QByteArray("yes\n"));
    QVERIFY(!QFile::exists(workspace.filePath(u"d.done"_s)));
    bool pidOk = false;
    const qint64 sleepPid = readFile(workspace.filePath(u"d.pid"_s)).trimmed().toLongLong(&pidOk);
    QVERIFY(pidOk && sleepPid > 1);
    QTRY_VERIFY_WITH_TIMEOUT(!processRuns(sleepPid), 5000);

    const QByteArray log = server.stderrText();
    const auto at = [&log](const char *text) {
        return log.indexOf(text);
    };
    QVERIFY2(at("shutdown hook A (priority 10): exit code 0") >= 0, log.constData());
    QVERIFY2(at("shutdown hook B (priority 10): exit code 0") >= 0, log.constData());
    QVERIFY2(at("[hook A] a-output-line") >= 0, log.constData());
    QVERIFY2(at("shutdown hook D (priority 50): killed after timeout 1s") >= 0, log.constData());
    QVERIFY2(at("[hook D] D-started") >= 0, log.constData());
    QVERIFY2(at("shutdown hook C (priority 200): exit code 0") >= 0, log.constData());
    QVERIFY2(at("shutdown hook F (priority 200): exit code 3") >= 0, log.constData());
    QVERIFY2(at("[hook F] to-stderr") >= 0, log.constData());
    QVERIFY(at("shutdown hook A (priority 10)") < at("shutdown hook D (priority 50)"));
    QVERIFY(at("shutdown hook D (priority 50)") < at("shutdown hook C (priority 200)"));
    // G's output is bounded: its end is kept, its beginning dropped, and the log says so.
    QVERIFY2(at("[hook G] line-2999-") >= 0, log.constData());
    QVERIFY(at("[hook G] line-0-") < 0);
    QVERIFY(at("earlier bytes of output not kept") >= 0);
    QVERIFY(!log.contains("cmd-secret"));
    QCOMPARE(server.stdoutText().count('\n'), 1);
}

void TestServerShutdownHooks::sigintRunsHooksToo() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    QCOMPARE(postHook(server, hook(u"on-int"_s, u"echo \"$SANDBOX_HOOK_NAME\" > int-ran"_s, 1, 5))
                 .status,
             200);
    QCOMPARE(stopWith(server, SIGINT), 0);
    QCOMPARE(readFile(QDir(server.workspace()).filePath(u"int-ran"_s)), QByteArray("on-int\n"));
}

QTEST_GUILESS_MAIN(TestServerShutdownHooks)
#include "tst_server_shutdownhooks.moc"
