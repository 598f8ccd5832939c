// The lives of MCP servers behind /v1/mcp/* on a real sandbox-server: a crashed server is
// started again on the next request, a crash loop backs off and says so, a program that is not
// an MCP server and a malformed configuration give clear errors, the children's environment
// holds no server secret, and they end with the sandbox server. With no configuration and
// Node.js present, the filesystem server is installed with npm and offered on the workspace.
#include "tests/server/httptestclient.h"
#include "tests/server/mcptestsupport.h"
#include "tests/support/testserver.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

class TestServerMcpLifecycle final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void crashedServerIsStartedAgain();
    void crashLoopBacksOffAndSaysSo();
    void programThatIsNotAnMcpServerIsAClearError();
    void malformedConfigurationIsAClearError();
    void badEntriesAnswerForThemselves();
    void childEnvironmentHasNoServerSecret();
    void serverStopEndsTheMcpServers();
    void defaultFilesystemServerOnTheWorkspace();
    void explicitEmptyConfigurationOffersNoDefault();

private:
    static TestServer::Options withConfig(const QJsonObject &servers) {
        TestServer::Options options;
        options.set(u"SANDBOX_MCP_SERVERS"_s,
                    QString::fromUtf8(QJsonDocument(QJsonObject{{"mcpServers"_L1, servers}})
                                          .toJson(QJsonDocument::Compact)));
        return options;
    }
    static qint64 serverPid(TestServer &server) { return server.process().processId(); }

    QString m_script;
};

void TestServerMcpLifecycle::initTestCase() {
    QString why;
    m_script = installedEverythingServer(&why);
    if (m_script.isEmpty())
        QSKIP(qPrintable(u"server-everything cannot be installed: "_s + why));
}

void TestServerMcpLifecycle::crashedServerIsStartedAgain() {
    TestServer server;
    QVERIFY(server.start(withConfig({{"everything"_L1, everythingEntry(m_script)}})));
    const QJsonObject echo{{"message"_L1, u"one"_s}};
    QCOMPARE(callTool(server.url(), u"everything"_s, u"echo"_s, echo).status, 200);
    const QList<qint64> first = childProcesses(serverPid(server), "server-everything");
    QCOMPARE(first.size(), 1);

    QCOMPARE(::kill(static_cast<pid_t>(first.first()), SIGKILL), 0);
    // Gone from /proc once the sandbox server has reaped it, that is, noticed the crash.
    QTRY_VERIFY_WITH_TIMEOUT(!processExists(first.first()), 10000);
    const HttpResult again =
        callTool(server.url(), u"everything"_s, u"echo"_s, {{"message"_L1, u"two"_s}});
    QCOMPARE(again.status, 200);
    QCOMPARE(firstText(again.json()), u"Echo: two"_s);
    const QList<qint64> second = childProcesses(serverPid(server), "server-everything");
    QCOMPARE(second.size(), 1);
    QVERIFY(second.first() != first.first());
    QVERIFY(server.stderrText().contains("the next request starts it again"));
}

void TestServerMcpLifecycle::crashLoopBacksOffAndSaysSo() {
    // `false` exits at once: each start fails before initialize is answered.
    TestServer server;
    QVERIFY(server.start(withConfig({{"failing"_L1, QJsonObject{{"command"_L1, u"false"_s}}}})));
    const QUrl tools = server.url(u"/v1/mcp/failing/tools"_s);
    for (int i = 0; i < 3; ++i) {
        const HttpResult failed = request("GET", tools);
        QCOMPARE(failed.status, 503);
        QVERIFY2(failed.body.contains("cannot start") && failed.body.contains("exit code 1"),
                 failed.body.constData());
        QVERIFY(failed.header("Retry-After").isEmpty());
    }
    const HttpResult waiting = request("GET", tools);
    QCOMPARE(waiting.status, 503);
    QVERIFY2(waiting.body.contains("failed 3 times"), waiting.body.constData());
    QCOMPARE(waiting.header("Retry-After"), QByteArray("1"));
    QVERIFY(server.stderrText().contains("further restarts wait"));
    // Reported for /v1/sandbox/observe too.
    const HttpResult live = request("GET", server.url(u"/v1/sandbox/observe/live"_s));
    QVERIFY2(live.body.contains("mcp_server_crash_loop"), live.body.left(400).constData());
}

void TestServerMcpLifecycle::programThatIsNotAnMcpServerIsAClearError() {
    // cat sends our initialize back: to us a request we do not serve, and then our refusal,
    // which is a JSON-RPC error for our initialize.
    TestServer server;
    QVERIFY(server.start(
        withConfig({{"echoer"_L1, QJsonObject{{"command"_L1, u"cat"_s}}},
                    {"missing"_L1, QJsonObject{{"command"_L1, u"no-such-mcp-server"_s}}}})));
    const HttpResult echoer = request("GET", server.url(u"/v1/mcp/echoer/tools"_s));
    QCOMPARE(echoer.status, 503);
    QVERIFY2(echoer.body.contains("JSON-RPC error -32601"), echoer.body.constData());
    const HttpResult missing = callTool(server.url(), u"missing"_s, u"anything"_s, {{"x"_L1, 1}});
    QCOMPARE(missing.status, 503);
    QVERIFY2(missing.body.contains("no-such-mcp-server") && missing.body.contains("PATH"),
             missing.body.constData());
}

void TestServerMcpLifecycle::malformedConfigurationIsAClearError() {
    QTemporaryDir workspace;
    QVERIFY(QDir().mkpath(workspace.filePath(u".sandbox-server"_s)));
    QFile file(workspace.filePath(u".sandbox-server/mcp-servers.json"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"mcpServers": {"x": {"command": "node", "env": {"TOKEN": "s3cr3t"}})");
    file.close();
    TestServer server;
    TestServer::Options options;
    options.workspace = workspace.path();
    QVERIFY2(server.start(options), qPrintable(server.error()));
    const HttpResult listed = request("GET", server.url(u"/v1/mcp/servers"_s));
    QCOMPARE(listed.status, 500);
    QString why;
    QVERIFY2(isErrorEnvelope(listed.body, &why), qPrintable(why));
    QVERIFY2(listed.body.contains("mcp-servers.json") && listed.body.contains("not valid JSON"),
             listed.body.constData());
    QVERIFY(!listed.body.contains("s3cr3t")); // the text is never quoted
    QCOMPARE(request("GET", server.url(u"/v1/mcp/x/tools"_s)).status, 500);
    // One clear log line, and the rest of the server is unaffected.
    const QByteArray logLine = "mcp: " + file.fileName().toUtf8() + " is not valid JSON";
    QVERIFY(server.stderrText().contains(logLine));
    QVERIFY(!server.stderrText().contains("s3cr3t"));
    QCOMPARE(request("GET", server.url(u"/v1/sandbox"_s)).status, 200);

    TestServer notTheForm;
    QVERIFY(notTheForm.start(
        TestServer::Options().set(u"SANDBOX_MCP_SERVERS"_s, u"{\"servers\": []}"_s)));
    const HttpResult form = request("GET", notTheForm.url(u"/v1/mcp/servers"_s));
    QCOMPARE(form.status, 500);
    QVERIFY2(form.body.contains("SANDBOX_MCP_SERVERS") && form.body.contains("mcpServers"),
             form.body.constData());
}

void TestServerMcpLifecycle::badEntriesAnswerForThemselves() {
    TestServer server;
    QVERIFY(server.start(withConfig({
        {"good"_L1, everythingEntry(m_script)},
        {"numeric"_L1, QJsonObject{{"command"_L1, 5}}},
        {"remote"_L1, QJsonObject{{"url"_L1, u"http://127.0.0.1:9/mcp"_s}}},
        {"off"_L1, QJsonObject{{"command"_L1, u"cat"_s}, {"disabled"_L1, true}}},
    })));
    const HttpResult listed = request("GET", server.url(u"/v1/mcp/servers"_s));
    QCOMPARE(listed.status, 200);
    QCOMPARE(listed.json().value("data"_L1).toArray(),
             (QJsonArray{u"good"_s, u"numeric"_s, u"remote"_s}));
    const HttpResult numeric = request("GET", server.url(u"/v1/mcp/numeric/tools"_s));
    QCOMPARE(numeric.status, 500);
    QVERIFY2(numeric.body.contains("\\\"command\\\" must be a non-empty string"),
             numeric.body.constData());
    const HttpResult remote = request("GET", server.url(u"/v1/mcp/remote/tools"_s));
    QCOMPARE(remote.status, 501);
    QVERIFY2(remote.body.contains("only stdio"), remote.body.constData());
    QCOMPARE(request("GET", server.url(u"/v1/mcp/off/tools"_s)).status, 404);
    QCOMPARE(request("GET", server.url(u"/v1/mcp/good/tools"_s), {}, {}, 60000).status, 200);
}

void TestServerMcpLifecycle::childEnvironmentHasNoServerSecret() {
    const QString key = u"mcp-suite-api-key-5f1c"_s;
    TestServer::Options options = withConfig(
        {{"everything"_L1,
          everythingEntry(m_script,
                          {{"env"_L1, QJsonObject{{"MCP_SUITE_MARK"_L1, u"configured"_s}}}})}});
    options.set(u"SANDBOX_API_KEY"_s, key);
    TestServer server;
    QVERIFY(server.start(options));
    const HeaderPairs auth{{"X-AIO-API-Key", key.toUtf8()}};
    QCOMPARE(request("GET", server.url(u"/v1/mcp/servers"_s)).status, 401);
    const HttpResult env = callTool(server.url(), u"everything"_s, u"get-env"_s, {}, auth);
    QCOMPARE(env.status, 200);
    const QJsonObject variables = QJsonDocument::fromJson(firstText(env.json()).toUtf8()).object();
    QVERIFY2(!variables.isEmpty(), env.body.left(300).constData());
    QCOMPARE(variables.value("MCP_SUITE_MARK"_L1).toString(), u"configured"_s);
    QVERIFY(!variables.contains("SANDBOX_API_KEY"_L1));
    QVERIFY(!variables.contains("SANDBOX_MCP_SERVERS"_L1));
    QVERIFY(!env.body.contains(key.toUtf8()));
    // Its working folder is the workspace.
    const QList<qint64> children = childProcesses(serverPid(server), "server-everything");
    QCOMPARE(children.size(), 1);
    QCOMPARE(QFile::symLinkTarget(u"/proc/%1/cwd"_s.arg(children.first())),
             QDir(server.workspace()).canonicalPath());
}

void TestServerMcpLifecycle::serverStopEndsTheMcpServers() {
    TestServer server;
    QVERIFY(server.start(
        withConfig({{"a"_L1, everythingEntry(m_script)}, {"b"_L1, everythingEntry(m_script)}})));
    QCOMPARE(callTool(server.url(), u"a"_s, u"echo"_s, {{"message"_L1, u"x"_s}}).status, 200);
    QCOMPARE(callTool(server.url(), u"b"_s, u"echo"_s, {{"message"_L1, u"x"_s}}).status, 200);
    const QList<qint64> children = childProcesses(serverPid(server), "server-everything");
    QCOMPARE(children.size(), 2);
    QCOMPARE(server.stop(), 0);
    for (const qint64 pid : children)
        QTRY_VERIFY_WITH_TIMEOUT(!processExists(pid), 5000);
}

void TestServerMcpLifecycle::defaultFilesystemServerOnTheWorkspace() {
    if (QStandardPaths::findExecutable(u"node"_s).isEmpty() ||
        QStandardPaths::findExecutable(u"npm"_s).isEmpty())
        QSKIP("node or npm is not on PATH: no default MCP server to test");
    TestServer server;
    TestServer::Options options;
    // npm's cache under the build folder: a later run installs without downloading. An
    // unreachable registry fails fast rather than after npm's minutes of retries.
    options.set(u"npm_config_cache"_s, npmCacheDir())
        .set(u"npm_config_fetch_retries"_s, u"1"_s)
        .set(u"npm_config_fetch_timeout"_s, u"30000"_s);
    QVERIFY(server.start(options));
    QFile file(server.workspace() + u"/note.txt"_s);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("written by the suite\n");
    file.close();

    const HttpResult listed = request("GET", server.url(u"/v1/mcp/servers"_s));
    QCOMPARE(listed.json().value("data"_L1).toArray(), QJsonArray{u"filesystem"_s});
    QVERIFY(request("GET", server.url(u"/llms.txt"_s)).body.contains("'filesystem'"));
    // The first request waits for npm (up to 40 s), then hears "still being installed".
    HttpResult tools;
    const QDeadlineTimer patience(200000);
    do {
        tools = request("GET", server.url(u"/v1/mcp/filesystem/tools"_s), {}, {}, 120000);
    } while (tools.status == 503 && tools.body.contains("still being installed") &&
             !patience.hasExpired());
    if (tools.status == 503 && tools.body.contains("installing the MCP server failed"))
        QSKIP(qPrintable(u"npm could not install server-filesystem: "_s +
                         QString::fromUtf8(tools.body.left(600))));
    if (tools.status == 503 && tools.body.contains("still being installed"))
        QSKIP("npm did not install server-filesystem within 200 s (a slow registry)");
    QCOMPARE(tools.status, 200);
    QVERIFY(QFile::exists(server.workspace() +
                          u"/.sandbox-server/mcp/npm/node_modules/@modelcontextprotocol/"
                          "server-filesystem/package.json"_s));
    const HttpResult allowed =
        callTool(server.url(), u"filesystem"_s, u"list_allowed_directories"_s);
    QCOMPARE(allowed.status, 200);
    QVERIFY2(firstText(allowed.json()).contains(QDir(server.workspace()).canonicalPath()),
             allowed.body.constData());
    const HttpResult read = callTool(server.url(), u"filesystem"_s, u"read_text_file"_s,
                                     {{"path"_L1, file.fileName()}});
    QCOMPARE(read.status, 200);
    QCOMPARE(firstText(read.json()), u"written by the suite\n"_s);
    // Outside the workspace the server refuses, as a tool error.
    const HttpResult outside = callTool(server.url(), u"filesystem"_s, u"read_text_file"_s,
                                        {{"path"_L1, u"/etc/hostname"_s}});
    QCOMPARE(outside.status, 200);
    QCOMPARE(outside.json().value("data"_L1).toObject().value("isError"_L1).toBool(), true);
}

void TestServerMcpLifecycle::explicitEmptyConfigurationOffersNoDefault() {
    TestServer server;
    QVERIFY(server.start(withConfig({})));
    const HttpResult listed = request("GET", server.url(u"/v1/mcp/servers"_s));
    QCOMPARE(listed.status, 200);
    QCOMPARE(listed.json().value("data"_L1).toArray(), QJsonArray{});
    QCOMPARE(request("GET", server.url(u"/v1/mcp/filesystem/tools"_s)).status, 404);
}

QTEST_GUILESS_MAIN(TestServerMcpLifecycle)
#include "tst_server_mcp_lifecycle.moc"
