// AIO's /v1/mcp/* on a real sandbox-server in front of a real MCP server
// (@modelcontextprotocol/server-everything over stdio, installed by npm into the build folder):
// servers from the configuration file, tools with their schemas passed through, calls with
// text, image and structured results, tool errors, unknown names, concurrent calls, timeouts.
#include "tests/server/httptestclient.h"
#include "tests/server/mcptestsupport.h"
#include "tests/support/testserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

class TestServerMcp final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void serversAreListedFromTheConfigFile();
    void toolsCarryTheirSchemas();
    void echoReturnsItsText();
    void sumIsReturned();
    void imageContentCarriesBase64AndMimeType();
    void structuredContentPassesThrough();
    void toolErrorIsASuccessfulAnswer();
    void unknownServerOrToolIs404();
    void argumentsMustBeAnObject();
    void twoCallsInFlightBothAnswer();
    void otherEndpointsAnswerWhileASlowToolRuns();
    void callPastItsTimeoutIs504();
    void endpointsAreListedAndCanBeTurnedOff();

private:
    QJsonObject tools(const QString &server) {
        const HttpResult result =
            request("GET", m_server.url(u"/v1/mcp/"_s + server + u"/tools"_s), {}, {}, 60000);
        if (result.status != 200)
            qWarning() << "tools of" << server << result.status << result.body.left(400);
        return result.json().value("data"_L1).toObject();
    }
    QJsonObject tool(const QString &name) {
        for (const QJsonValue &t : tools(u"everything"_s).value("tools"_L1).toArray()) {
            if (t.toObject().value("name"_L1).toString() == name)
                return t.toObject();
        }
        return {};
    }
    // An asynchronous call, for overlapping ones.
    // With --verbose the server logs each call it sends on: the rendezvous for "it is running".
    qsizetype callsSent(const QString &tool) {
        const QByteArray line = "tools/call '" + tool.toUtf8() + "' sent";
        return m_server.stderrText().count(line);
    }
    QNetworkReply *startCall(const QString &tool, const QJsonObject &arguments) {
        QNetworkRequest req(m_server.url(u"/v1/mcp/everything/tools/"_s + tool));
        req.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
        req.setTransferTimeout(60000);
        return m_nam.post(req, QJsonDocument(arguments).toJson(QJsonDocument::Compact));
    }

    QTemporaryDir m_workspace;
    TestServer m_server;
    QNetworkAccessManager m_nam;
};

void TestServerMcp::initTestCase() {
    QString why;
    const QString script = installedEverythingServer(&why);
    if (script.isEmpty())
        QSKIP(qPrintable(u"server-everything cannot be installed: "_s + why));
    QVERIFY(m_workspace.isValid());
    const QString state = m_workspace.filePath(u".sandbox-server"_s);
    QVERIFY(QDir().mkpath(state));
    const QJsonObject servers{
        {"everything"_L1, everythingEntry(script)},
        {"quiet"_L1, everythingEntry(script, {{"hidden"_L1, true}})},
        {"slow"_L1, everythingEntry(script, {{"timeout"_L1, 1}})},
    };
    QFile config(state + u"/mcp-servers.json"_s);
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(QJsonDocument(QJsonObject{{"mcpServers"_L1, servers}}).toJson());
    config.close();
    TestServer::Options options;
    options.workspace = m_workspace.path();
    options.extraArgs = {u"--verbose"_s};
    QVERIFY2(m_server.start(options), qPrintable(m_server.error()));
}

void TestServerMcp::serversAreListedFromTheConfigFile() {
    const HttpResult listed = request("GET", m_server.url(u"/v1/mcp/servers"_s));
    QCOMPARE(listed.status, 200);
    QCOMPARE(listed.json().value("success"_L1).toBool(), true);
    QCOMPARE(listed.json().value("data"_L1).toArray(), (QJsonArray{u"everything"_s, u"slow"_s}));
    const HttpResult all =
        request("GET", m_server.url(u"/v1/mcp/servers"_s, u"include_hidden=true"_s));
    QCOMPARE(all.json().value("data"_L1).toArray(),
             (QJsonArray{u"everything"_s, u"quiet"_s, u"slow"_s}));
    const HttpResult bad =
        request("GET", m_server.url(u"/v1/mcp/servers"_s, u"include_hidden=perhaps"_s));
    QCOMPARE(bad.status, 422);
}

void TestServerMcp::toolsCarryTheirSchemas() {
    const QJsonObject listed = tools(u"everything"_s);
    QVERIFY(listed.contains("nextCursor"_L1));
    QVERIFY(listed.value("nextCursor"_L1).isNull());
    QStringList names;
    for (const QJsonValue &t : listed.value("tools"_L1).toArray())
        names << t.toObject().value("name"_L1).toString();
    for (const char *name : {"echo", "get-sum", "get-tiny-image", "trigger-long-running-operation"})
        QVERIFY2(names.contains(QLatin1String(name)), qPrintable(names.join(u", "_s)));

    const QJsonObject echo = tool(u"echo"_s);
    const QJsonObject echoSchema = echo.value("inputSchema"_L1).toObject();
    QCOMPARE(echoSchema.value("type"_L1).toString(), u"object"_s);
    QCOMPARE(echoSchema.value("properties"_L1)
                 .toObject()
                 .value("message"_L1)
                 .toObject()
                 .value("type"_L1)
                 .toString(),
             u"string"_s);
    QCOMPARE(echoSchema.value("required"_L1).toArray(), QJsonArray{u"message"_s});
    // Passed through untouched: the schema's own keys, annotations, execution, title.
    QVERIFY(echoSchema.contains("$schema"_L1));
    QCOMPARE(echo.value("annotations"_L1).toObject().value("readOnlyHint"_L1).toBool(), true);
    QCOMPARE(echo.value("execution"_L1).toObject().value("taskSupport"_L1).toString(),
             u"forbidden"_s);
    QVERIFY(!echo.value("title"_L1).toString().isEmpty());

    const QJsonObject sumProperties =
        tool(u"get-sum"_s).value("inputSchema"_L1).toObject().value("properties"_L1).toObject();
    QCOMPARE(sumProperties.value("a"_L1).toObject().value("type"_L1).toString(), u"number"_s);
    QCOMPARE(sumProperties.value("b"_L1).toObject().value("type"_L1).toString(), u"number"_s);
    QVERIFY(tool(u"get-structured-content"_s).value("outputSchema"_L1).isObject());
}

void TestServerMcp::echoReturnsItsText() {
    const HttpResult result =
        callTool(m_server.url(), u"everything"_s, u"echo"_s, {{"message"_L1, u"héllo, MCP"_s}});
    QCOMPARE(result.status, 200);
    const QJsonObject body = result.json();
    QCOMPARE(body.value("success"_L1).toBool(), true);
    const QJsonObject data = body.value("data"_L1).toObject();
    QCOMPARE(data.value("isError"_L1).toBool(true), false);
    const QJsonObject first = data.value("content"_L1).toArray().first().toObject();
    QCOMPARE(first.value("type"_L1).toString(), u"text"_s);
    QCOMPARE(first.value("text"_L1).toString(), u"Echo: héllo, MCP"_s);
}

void TestServerMcp::sumIsReturned() {
    const HttpResult result =
        callTool(m_server.url(), u"everything"_s, u"get-sum"_s, {{"a"_L1, 2}, {"b"_L1, 3.5}});
    QCOMPARE(result.status, 200);
    QVERIFY2(firstText(result.json()).contains("5.5"_L1), result.body.constData());
}

void TestServerMcp::imageContentCarriesBase64AndMimeType() {
    const HttpResult result = callTool(m_server.url(), u"everything"_s, u"get-tiny-image"_s);
    QCOMPARE(result.status, 200);
    QJsonObject image;
    for (const QJsonValue &item :
         result.json().value("data"_L1).toObject().value("content"_L1).toArray()) {
        if (item.toObject().value("type"_L1).toString() == "image"_L1)
            image = item.toObject();
    }
    QVERIFY2(!image.isEmpty(), result.body.left(300).constData());
    QCOMPARE(image.value("mimeType"_L1).toString(), u"image/png"_s);
    const QByteArray png = QByteArray::fromBase64(image.value("data"_L1).toString().toLatin1(),
                                                  QByteArray::AbortOnBase64DecodingErrors);
    QVERIFY(png.startsWith("\x89PNG\r\n\x1a\n"));
}

void TestServerMcp::structuredContentPassesThrough() {
    const HttpResult result = callTool(m_server.url(), u"everything"_s, u"get-structured-content"_s,
                                       {{"location"_L1, u"Chicago"_s}});
    QCOMPARE(result.status, 200);
    const QJsonObject structured =
        result.json().value("data"_L1).toObject().value("structuredContent"_L1).toObject();
    QVERIFY2(structured.contains("temperature"_L1), result.body.constData());
}

void TestServerMcp::toolErrorIsASuccessfulAnswer() {
    // server-everything validates arguments itself and answers a CallToolResult with isError.
    const HttpResult result =
        callTool(m_server.url(), u"everything"_s, u"get-sum"_s, {{"a"_L1, u"two"_s}});
    QCOMPARE(result.status, 200);
    QCOMPARE(result.json().value("success"_L1).toBool(), true);
    QCOMPARE(result.json().value("data"_L1).toObject().value("isError"_L1).toBool(), true);
    QVERIFY2(firstText(result.json()).contains("Invalid"_L1), result.body.constData());
}

void TestServerMcp::unknownServerOrToolIs404() {
    const HttpResult server =
        request("GET", m_server.url(u"/v1/mcp/nowhere/tools"_s), {}, {}, 60000);
    QCOMPARE(server.status, 404);
    QString why;
    QVERIFY2(isErrorEnvelope(server.body, &why), qPrintable(why));
    QVERIFY2(server.body.contains("nowhere") && server.body.contains("everything"),
             server.body.constData());
    QCOMPARE(callTool(m_server.url(), u"nowhere"_s, u"echo"_s).status, 404);

    const HttpResult tool = callTool(m_server.url(), u"everything"_s, u"no-such-tool"_s);
    QCOMPARE(tool.status, 404);
    QVERIFY2(isErrorEnvelope(tool.body, &why), qPrintable(why));
    // The message names the tool and what the server does have.
    QVERIFY2(tool.body.contains("no-such-tool") && tool.body.contains("echo"),
             tool.body.constData());
}

void TestServerMcp::argumentsMustBeAnObject() {
    QUrl url = m_server.url(u"/v1/mcp/everything/tools/echo"_s);
    QCOMPARE(request("POST", url, {{"Content-Type", "application/json"}}, "[1, 2]").status, 422);
    QCOMPARE(request("POST", url, {{"Content-Type", "application/json"}}, "{oops").status, 422);
    // No body is the empty object (AIO's default): echo then reports its missing argument.
    const HttpResult empty = request("POST", url, {{"Content-Type", "application/json"}});
    QCOMPARE(empty.status, 200);
    QCOMPARE(empty.json().value("data"_L1).toObject().value("isError"_L1).toBool(), true);
}

void TestServerMcp::twoCallsInFlightBothAnswer() {
    // The longer one goes first; if the calls were taken one at a time it would answer first.
    const QString slowTool = u"trigger-long-running-operation"_s;
    const qsizetype before = callsSent(slowTool);
    std::unique_ptr<QNetworkReply> longer(
        startCall(slowTool, {{"duration"_L1, 3}, {"steps"_L1, 3}}));
    QTRY_COMPARE_WITH_TIMEOUT(callsSent(slowTool), before + 1, 30000);
    std::unique_ptr<QNetworkReply> shorter(
        startCall(u"trigger-long-running-operation"_s, {{"duration"_L1, 1}, {"steps"_L1, 1}}));
    QSignalSpy shorterDone(shorter.get(), &QNetworkReply::finished);
    QVERIFY(shorterDone.wait(30000));
    QVERIFY(!longer->isFinished());
    QSignalSpy longerDone(longer.get(), &QNetworkReply::finished);
    QVERIFY(longer->isFinished() || longerDone.wait(30000));
    const QJsonObject first = QJsonDocument::fromJson(shorter->readAll()).object();
    const QJsonObject second = QJsonDocument::fromJson(longer->readAll()).object();
    // Each answer is its own request's (matched by JSON-RPC id).
    QVERIFY2(firstText(first).contains("Duration: 1 seconds"_L1), qPrintable(firstText(first)));
    QVERIFY2(firstText(second).contains("Duration: 3 seconds"_L1), qPrintable(firstText(second)));
}

void TestServerMcp::otherEndpointsAnswerWhileASlowToolRuns() {
    const QString slowTool = u"trigger-long-running-operation"_s;
    const qsizetype before = callsSent(slowTool);
    std::unique_ptr<QNetworkReply> slow(startCall(slowTool, {{"duration"_L1, 4}, {"steps"_L1, 2}}));
    QTRY_COMPARE_WITH_TIMEOUT(callsSent(slowTool), before + 1, 30000);
    QCOMPARE(request("GET", m_server.url(u"/v1/sandbox"_s)).status, 200);
    QCOMPARE(request("GET", m_server.url(u"/v1/mcp/servers"_s)).status, 200);
    const HttpResult echo =
        callTool(m_server.url(), u"everything"_s, u"echo"_s, {{"message"_L1, u"meanwhile"_s}});
    QCOMPARE(echo.status, 200);
    QCOMPARE(firstText(echo.json()), u"Echo: meanwhile"_s);
    QVERIFY(!slow->isFinished());
    QSignalSpy done(slow.get(), &QNetworkReply::finished);
    QVERIFY(done.wait(30000));
    QCOMPARE(slow->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
}

void TestServerMcp::callPastItsTimeoutIs504() {
    // "slow" has "timeout": 1 in its entry.
    const HttpResult late = callTool(m_server.url(), u"slow"_s, u"trigger-long-running-operation"_s,
                                     {{"duration"_L1, 3}, {"steps"_L1, 1}});
    QCOMPARE(late.status, 504);
    QString why;
    QVERIFY2(isErrorEnvelope(late.body, &why), qPrintable(why));
    QVERIFY2(late.body.contains("within 1 s"), late.body.constData());
    // The server lives on and its late answer is dropped: the next call gets its own answer.
    const HttpResult next =
        callTool(m_server.url(), u"slow"_s, u"echo"_s, {{"message"_L1, u"after"_s}});
    QCOMPARE(next.status, 200);
    QCOMPARE(firstText(next.json()), u"Echo: after"_s);
}

void TestServerMcp::endpointsAreListedAndCanBeTurnedOff() {
    const HttpResult llms = request("GET", m_server.url(u"/llms.txt"_s));
    for (const char *endpoint : {"GET /v1/mcp/servers", "GET /v1/mcp/{server}/tools",
                                 "POST /v1/mcp/{server}/tools/{tool}"})
        QVERIFY2(llms.body.contains(endpoint), endpoint);

    TestServer without;
    QVERIFY(without.start(TestServer::withArgs({u"--without"_s, u"mcp"_s})));
    QCOMPARE(request("GET", without.url(u"/v1/mcp/servers"_s)).status, 404);
    QVERIFY(!request("GET", without.url(u"/llms.txt"_s)).body.contains("/v1/mcp/"));
}

QTEST_GUILESS_MAIN(TestServerMcp)
#include "tst_server_mcp.moc"
