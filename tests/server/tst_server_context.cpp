// GET /v1/sandbox (AIO's flat SandboxResponse plus `extensions`) and GET /llms.txt as an
// agent or the console reads them from a real server.
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace sbxtest;

class TestServerContext final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void sandboxShape();
    void sandboxSystemFacts();
    void sandboxRuntimesAndTools();
    void occupiedPortsIncludeOwnPort();
    void versionsFollowTheListeningLine();
    void llmsTxtSections();
    void llmsTxtListsServedEndpoints();
    void headHasNoBody();

private:
    TestServer m_server;
    QJsonObject m_sandbox;
};

void TestServerContext::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    const HttpResult result = request("GET", m_server.url(QStringLiteral("/v1/sandbox")));
    QCOMPARE(result.status, 200);
    QVERIFY(result.header("Content-Type").startsWith("application/json"));
    m_sandbox = result.json();
    QVERIFY(!m_sandbox.isEmpty());
}

void TestServerContext::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerContext::sandboxShape() {
    // Flat: the context sits beside the envelope fields, not under data.
    QCOMPARE(m_sandbox.value(QStringLiteral("success")).toBool(), true);
    QVERIFY(m_sandbox.value(QStringLiteral("message")).isString());
    QVERIFY(m_sandbox.value(QStringLiteral("hint")).isNull());
    const QString data = m_sandbox.value(QStringLiteral("data")).toString();
    QVERIFY(data.contains(QStringLiteral("System Environment")));
    QVERIFY(data.contains(QLatin1Char('\n')));
    QVERIFY(m_sandbox.value(QStringLiteral("home_dir")).isString());
    QCOMPARE(m_sandbox.value(QStringLiteral("version")).toString(), QStringLiteral("0.1.0"));
    QCOMPARE(m_sandbox.value(QStringLiteral("workspace")).toString(),
             QDir(m_server.workspace()).canonicalPath());
    QVERIFY(m_sandbox.value(QStringLiteral("extensions")).isArray());
    const QJsonArray extensions = m_sandbox.value(QStringLiteral("extensions")).toArray();
    for (const QJsonValue &extension : extensions)
        QVERIFY(extension.isString());

    const QJsonObject detail = m_sandbox.value(QStringLiteral("detail")).toObject();
    QVERIFY(detail.value(QStringLiteral("system")).isObject());
    QVERIFY(detail.value(QStringLiteral("runtime")).isObject());
    QVERIFY(detail.value(QStringLiteral("utils")).isArray());
}

void TestServerContext::sandboxSystemFacts() {
    const QJsonObject system = m_sandbox.value(QStringLiteral("detail"))
                                   .toObject()
                                   .value(QStringLiteral("system"))
                                   .toObject();
    for (const char *field : {"os", "os_version", "arch", "user", "home_dir", "timezone"}) {
        const QJsonValue value = system.value(QLatin1String(field));
        QVERIFY2(value.isString() && !value.toString().isEmpty(), field);
    }
    QProcess uname;
    uname.start(QStringLiteral("uname"), {QStringLiteral("-m")});
    QVERIFY(uname.waitForFinished(10000));
    QCOMPARE(system.value(QStringLiteral("arch")).toString(),
             QString::fromUtf8(uname.readAllStandardOutput()).trimmed());
    QCOMPARE(system.value(QStringLiteral("home_dir")).toString(),
             m_sandbox.value(QStringLiteral("home_dir")).toString());
    QCOMPARE(system.value(QStringLiteral("workspace")).toString(),
             m_sandbox.value(QStringLiteral("workspace")).toString());
    QVERIFY(system.value(QStringLiteral("occupied_ports")).isArray());
}

void TestServerContext::sandboxRuntimesAndTools() {
    const QJsonObject detail = m_sandbox.value(QStringLiteral("detail")).toObject();
    const QJsonObject runtime = detail.value(QStringLiteral("runtime")).toObject();
    for (const char *group : {"python", "nodejs"}) {
        QVERIFY2(runtime.value(QLatin1String(group)).isArray(), group);
        const QJsonArray specs = runtime.value(QLatin1String(group)).toArray();
        for (const QJsonValue &spec : specs) {
            const QJsonObject object = spec.toObject();
            QVERIFY(object.value(QStringLiteral("ver")).isString() ||
                    object.value(QStringLiteral("ver")).isNull());
            QVERIFY(object.value(QStringLiteral("bin")).isString());
            QVERIFY(object.value(QStringLiteral("alias")).isArray());
        }
    }
    const QJsonArray utils = detail.value(QStringLiteral("utils")).toArray();
    bool sawGrep = false;
    for (const QJsonValue &category : utils) {
        const QJsonObject object = category.toObject();
        QVERIFY(!object.value(QStringLiteral("category")).toString().isEmpty());
        const QJsonArray tools = object.value(QStringLiteral("tools")).toArray();
        QVERIFY(!tools.isEmpty());
        for (const QJsonValue &tool : tools) {
            QVERIFY(!tool.toObject().value(QStringLiteral("name")).toString().isEmpty());
            QVERIFY(tool.toObject().value(QStringLiteral("description")).isString());
            if (tool.toObject().value(QStringLiteral("name")).toString() == QStringLiteral("grep"))
                sawGrep = true;
        }
    }
    // grep is on every Debian system the server runs on.
    QVERIFY(sawGrep);
}

void TestServerContext::occupiedPortsIncludeOwnPort() {
    const QJsonArray ports = m_sandbox.value(QStringLiteral("detail"))
                                 .toObject()
                                 .value(QStringLiteral("system"))
                                 .toObject()
                                 .value(QStringLiteral("occupied_ports"))
                                 .toArray();
    QStringList values;
    for (const QJsonValue &port : ports) {
        QVERIFY(port.isString());
        values << port.toString();
    }
    QVERIFY2(values.contains(QString::number(m_server.port())),
             qPrintable(values.join(QLatin1Char(','))));
}

// The listening line comes before the version probes: the first answer may lack versions, and
// they arrive in the background without a restart.
void TestServerContext::versionsFollowTheListeningLine() {
    const auto pythonVersion = [this]() -> QJsonValue {
        const QJsonObject sandbox =
            request("GET", m_server.url(QStringLiteral("/v1/sandbox"))).json();
        const QJsonArray python = sandbox.value(QStringLiteral("detail"))
                                      .toObject()
                                      .value(QStringLiteral("runtime"))
                                      .toObject()
                                      .value(QStringLiteral("python"))
                                      .toArray();
        for (const QJsonValue &spec : python) {
            if (spec.toObject()
                    .value(QStringLiteral("alias"))
                    .toArray()
                    .contains(QStringLiteral("python3")))
                return spec.toObject().value(QStringLiteral("ver"));
        }
        return QJsonValue::Undefined;
    };
    if (pythonVersion().isUndefined())
        QSKIP("no python3 on PATH: no version to wait for");
    QTRY_VERIFY_WITH_TIMEOUT(pythonVersion().isString(), 30000);
    QVERIFY(!pythonVersion().toString().isEmpty());
}

void TestServerContext::llmsTxtSections() {
    const HttpResult result = request("GET", m_server.url(QStringLiteral("/llms.txt")));
    QCOMPARE(result.status, 200);
    QCOMPARE(result.header("Content-Type"), QByteArray("text/plain; charset=utf-8"));
    const QString text = QString::fromUtf8(result.body);
    QVERIFY(text.contains(QStringLiteral("System Environment (v0.1.0)")));
    QVERIFY(text.contains(QStringLiteral("Development Environment")));
    QVERIFY(text.contains(QStringLiteral("Available Tools")));
    QVERIFY(text.indexOf(QStringLiteral("System Environment")) <
            text.indexOf(QStringLiteral("Development Environment")));
    QVERIFY(text.indexOf(QStringLiteral("Development Environment")) <
            text.indexOf(QStringLiteral("Available Tools")));
    // Generated from the same facts as the context. A background refresh (ports change as
    // other programs come and go) may fall between two requests: a few tries, then it must hold.
    bool same = false;
    for (int attempt = 0; attempt < 3 && !same; ++attempt) {
        const QString data = request("GET", m_server.url(QStringLiteral("/v1/sandbox")))
                                 .json()
                                 .value(QStringLiteral("data"))
                                 .toString();
        same = !data.isEmpty() &&
               QString::fromUtf8(request("GET", m_server.url(QStringLiteral("/llms.txt"))).body)
                   .contains(data);
    }
    QVERIFY(same);
}

void TestServerContext::llmsTxtListsServedEndpoints() {
    const QString text =
        QString::fromUtf8(request("GET", m_server.url(QStringLiteral("/llms.txt"))).body);
    QVERIFY(text.contains(QStringLiteral("GET /v1/sandbox")));
    QVERIFY(text.contains(QStringLiteral("GET /llms.txt")));
    QVERIFY(text.contains(QStringLiteral("POST /tickets")));
    QVERIFY(text.contains(QStringLiteral("POST /v1/shell/exec")));
    QVERIFY(text.contains(QStringLiteral("POST /v1/file/upload")));
    QVERIFY(text.contains(QStringLiteral("POST /v1/jupyter/execute")));
    QVERIFY(text.contains(QStringLiteral("GET /v1/mcp/servers")));
    // Only what is served.
    QVERIFY(!text.contains(QStringLiteral("/v1/browser")));
    QVERIFY(!text.contains(QStringLiteral("/v1/nodejs")));
}

void TestServerContext::headHasNoBody() {
    bool sameLength = false;
    for (int attempt = 0; attempt < 3 && !sameLength; ++attempt) {
        const HttpResult head = request("HEAD", m_server.url(QStringLiteral("/llms.txt")));
        QCOMPARE(head.status, 200);
        QVERIFY(head.body.isEmpty());
        const HttpResult get = request("GET", m_server.url(QStringLiteral("/llms.txt")));
        // Equal unless a background refresh fell between the two requests.
        sameLength = head.header("Content-Length").toLongLong() == get.body.size();
    }
    QVERIFY(sameLength);
}

QTEST_GUILESS_MAIN(TestServerContext)
#include "tst_server_context.moc"
