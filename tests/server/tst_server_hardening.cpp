// What an adversary with or without credentials could do to sandbox-server, each fault found
// by the hardening review: hostile JSON (deep, wide, overflowing), bodies that hold memory,
// secrets readable from the sandbox, credentials that would fail open.
#include "tests/server/httptestclient.h"
#include "tests/server/shelltestclient.h"
#include "tests/support/testjwt.h"
#include "tests/support/testserver.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpSocket>
#include <QTest>

#include <memory>
#include <vector>

using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

// The server's peak resident memory so far, in bytes (VmHWM), 0 if unreadable.
qint64 peakResidentBytes(qint64 pid) {
    QFile status(u"/proc/%1/status"_s.arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return 0;
}

QByteArray nested(qsizetype depth) {
    return QByteArray(depth, '[') + QByteArray(depth, ']');
}

} // namespace

class TestServerHardening final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void deepTerminalFrameIsRefused();
    void pongNeverEchoesStructure();
    void numberOverflowIsAnswered();
    void deepBodyCostsLittleMemory();
    void wideBodyCostsLittleMemory();
    void fieldRoutesTakeSmallBodies();
    void bodyBudgetRefusesWhenFull();
    void secretsAreNotReadableFromTheSandbox();
    void emptyCredentialRefusesToStart_data();
    void emptyCredentialRefusesToStart();

private:
    HttpResult post(const QString &path, const QByteArray &body, int timeoutMs = 60000) {
        return request("POST", m_server.url(path), {{"Content-Type", "application/json"}}, body,
                       timeoutMs);
    }
    void verifyStillServing() {
        QCOMPARE(m_server.process().state(), QProcess::Running);
        QCOMPARE(request("GET", m_server.url(u"/v1/sandbox"_s)).status, 200);
    }
    // Posts a hostile body to file/write: refused as FastAPI does, the server's peak memory
    // grows by less than 4x the body, and it keeps serving.
    void refusedWithinMemory(const QByteArray &body, const QString &why);
    // The first detail entry of a FastAPI 422.
    static QJsonObject firstDetail(const HttpResult &result) {
        return result.json().value(u"detail"_s).toArray().at(0).toObject();
    }

    TestServer m_server;
};

void TestServerHardening::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestServerHardening::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerHardening::deepTerminalFrameIsRefused() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    QVERIFY(client.waitForType(u"ready"_s));
    // 200 KB, far under the frame limit: it used to overflow the stack while echoed back.
    client.sendRaw(QString::fromLatin1(R"({"type":"ping","timestamp":)" + nested(100000) + "}"));
    QVERIFY(client.waitFor([&] {
        for (const QJsonObject &frame : client.framesOfType(u"error"_s)) {
            if (frame.value(u"data"_s).toString().contains(u"nested deeper"_s))
                return true;
        }
        return false;
    }));
    // The terminal and the server both live on.
    client.input(u"echo alive-$((40+2))\n"_s);
    QVERIFY2(client.waitForOutput(u"alive-42"_s), qPrintable(client.output()));
    verifyStillServing();
}

void TestServerHardening::pongNeverEchoesStructure() {
    ShellTestClient client;
    QVERIFY(client.open(m_server.url()));
    QVERIFY(client.waitForType(u"ready"_s));
    client.sendRaw(uR"({"type":"ping","timestamp":{"a":[1,2,3]}})"_s);
    client.sendRaw(uR"({"type":"ping","timestamp":1234567})"_s);
    QVERIFY(client.waitFor([&] { return client.framesOfType(u"pong"_s).size() == 2; }));
    const QList<QJsonObject> pongs = client.framesOfType(u"pong"_s);
    QVERIFY(pongs.at(0).value(u"timestamp"_s).isNull());
    QCOMPARE(pongs.at(1).value(u"timestamp"_s).toInteger(), 1234567);
}

void TestServerHardening::numberOverflowIsAnswered() {
    // It used to drop the connection without a response.
    const HttpResult ticket = post(u"/tickets"_s, "1e999999");
    QCOMPARE(ticket.status, 400);
    QString why;
    QVERIFY2(isErrorEnvelope(ticket.body, &why), qPrintable(why));
    QVERIFY2(ticket.json().value(u"message"_s).toString().contains(u"too large"_s),
             ticket.body.constData());

    const HttpResult write =
        post(u"/v1/file/write"_s, R"({"file":"n.txt","content":"x","n":-1e999999})");
    QCOMPARE(write.status, 422);
    QCOMPARE(firstDetail(write).value(u"type"_s).toString(), u"json_invalid"_s);
    verifyStillServing();
}

void TestServerHardening::refusedWithinMemory(const QByteArray &body, const QString &why) {
    const qint64 pid = m_server.process().processId();
    const qint64 before = peakResidentBytes(pid);
    QVERIFY(before > 0);
    const HttpResult result = post(u"/v1/file/write"_s, body, 120000);
    QCOMPARE(result.status, 422);
    const QJsonObject detail = firstDetail(result);
    QCOMPARE(detail.value(u"type"_s).toString(), u"json_invalid"_s);
    const QString error = detail.value(u"ctx"_s).toObject().value(u"error"_s).toString();
    QVERIFY2(error.contains(why), result.body.constData());
    const qint64 grown = peakResidentBytes(pid) - before;
    qInfo("peak RSS grew by %lld MiB for a %lld MiB body", grown >> 20,
          static_cast<long long>(body.size()) >> 20);
    QVERIFY2(grown < 4 * body.size(), qPrintable(QString::number(grown >> 20)));
    verifyStillServing();
}

void TestServerHardening::deepBodyCostsLittleMemory() {
    // 60 MiB of '[' under file/write's 64 MiB limit once took the server to 2.35 GB.
    refusedWithinMemory(QByteArray(60 * 1024 * 1024, '['), u"nested deeper than 64"_s);
}

void TestServerHardening::wideBodyCostsLittleMemory() {
    // 8 MiB of small values: each costs far more as a parsed value than as text.
    QByteArray body = R"({"file":"wide.txt","content":"x","junk":[)";
    while (body.size() < 8 * 1024 * 1024)
        body += "1,";
    body += "1]}";
    refusedWithinMemory(body, u"more than 100000 values"_s);
    QVERIFY(!QFile::exists(m_server.workspace() + u"/wide.txt"_s));
}

void TestServerHardening::fieldRoutesTakeSmallBodies() {
    // A route of a few fields refuses a large body before reading it.
    QByteArray body = R"({"id":"s1","pad":")" + QByteArray(300 * 1024, 'a') + R"("})";
    QCOMPARE(post(u"/v1/shell/sessions/create"_s, body).status, 413);
    // Routes that carry content keep their room.
    body = R"({"file":"big.txt","content":")" + QByteArray(2 * 1024 * 1024, 'b') + R"("})";
    QCOMPARE(post(u"/v1/file/write"_s, body).status, 200);
    QCOMPARE(QFile(m_server.workspace() + u"/big.txt"_s).size(), 2 * 1024 * 1024);
}

void TestServerHardening::bodyBudgetRefusesWhenFull() {
    // Clients that announce 64 MiB bodies and send them slowly hold the server's budget.
    std::vector<std::unique_ptr<QTcpSocket>> holders;
    const QByteArray head = "POST /v1/file/write HTTP/1.1\r\nHost: x\r\n"
                            "Content-Type: application/json\r\nContent-Length: 67108864\r\n\r\n"
                            R"({"file":"slow.txt","content":")";
    for (int i = 0; i < 4; ++i) {
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QHostAddress::LocalHost, m_server.port());
        QVERIFY(socket->waitForConnected(5000));
        socket->write(head);
        QVERIFY(socket->waitForBytesWritten(5000));
        holders.push_back(std::move(socket));
    }
    // A small complete request is refused once the holders' headers are in (the server
    // reads them as they come; until then the probe is simply written).
    const QByteArray probe = "POST /v1/file/write HTTP/1.1\r\nHost: x\r\n"
                             "Content-Type: application/json\r\nContent-Length: 34\r\n\r\n"
                             R"({"file":"probe.txt","content":"p"})";
    QByteArray raw;
    QTRY_VERIFY_WITH_TIMEOUT((raw = rawExchange(m_server.port(), probe), rawStatus(raw) == 503),
                             15000);
    QVERIFY(isErrorEnvelope(rawBody(raw)));
    QVERIFY(raw.contains("Retry-After: 1"));
    // Once they give up, the budget is free again.
    holders.clear();
    QTRY_COMPARE_WITH_TIMEOUT(
        post(u"/v1/file/write"_s, R"({"file":"after.txt","content":"ok"})").status, 200, 15000);
}

void TestServerHardening::secretsAreNotReadableFromTheSandbox() {
    const QByteArray key = "key-7c1e0b5f9a2d4e8b";
    const TestRsaKey rsa = generateRsaKey();
    const QByteArray hookSecret = "hook-secret-5d2a91";
    TestServer server;
    TestServer::Options options;
    options.env.insert(u"SANDBOX_API_KEY"_s, QString::fromLatin1(key));
    options.env.insert(u"JWT_PUBLIC_KEY"_s, QString::fromLatin1(rsa.publicPemBase64()));
    options.env.insert(
        u"SANDBOX_SHUTDOWN_HOOKS"_s,
        QString::fromLatin1(R"([{"name":"h","command":"echo )" + hookSecret + R"("}])"));
    QVERIFY2(server.start(options), qPrintable(server.error()));

    QUrl exec = server.url(u"/v1/shell/exec"_s);
    // What any program in the sandbox can read of its server: $PPID is the server.
    const QJsonObject command{
        {u"command"_s, uR"(tr '\0' '\n' </proc/$PPID/environ; tr '\0' ' ' </proc/$PPID/cmdline;)"
                       uR"( echo; echo "own: $SANDBOX_API_KEY $JWT_PUBLIC_KEY")"_s}};
    const HttpResult result =
        request("POST", exec, {{"Content-Type", "application/json"}, {"X-AIO-API-Key", key}},
                QJsonDocument(command).toJson(QJsonDocument::Compact), 60000);
    QCOMPARE(result.status, 200);
    const QByteArray output =
        result.json().value(u"data"_s).toObject().value(u"output"_s).toString().toUtf8();
    // The read worked: the rest of the environment and the command line are there.
    QVERIFY2(output.contains("HOME="), output.constData());
    QVERIFY2(output.contains("sandbox-server"), output.constData());
    QVERIFY2(!output.contains(key), output.constData());
    QVERIFY2(!output.contains(hookSecret), output.constData());
    QVERIFY2(!output.contains("SANDBOX_API_KEY="), output.constData());
    QVERIFY2(!output.contains("JWT_PUBLIC_KEY="), output.constData());
    QVERIFY2(!output.contains("SANDBOX_SHUTDOWN_HOOKS="), output.constData());
    for (const QByteArray &line : pemBodyLines(rsa.publicPem))
        QVERIFY2(!output.contains(line), output.constData());
    QVERIFY2(!output.contains(rsa.publicPemBase64().left(40)), output.constData());
    QCOMPARE(server.stop(), 0);
}

void TestServerHardening::emptyCredentialRefusesToStart_data() {
    QTest::addColumn<QString>("variable");
    QTest::addColumn<QString>("value");
    QTest::newRow("empty key") << u"SANDBOX_API_KEY"_s << QString();
    QTest::newRow("blank key") << u"SANDBOX_API_KEY"_s << u"  "_s;
    QTest::newRow("empty jwt key") << u"JWT_PUBLIC_KEY"_s << QString();
    QTest::newRow("not base64") << u"JWT_PUBLIC_KEY"_s << u"%%%"_s;
}

void TestServerHardening::emptyCredentialRefusesToStart() {
    QFETCH(QString, variable);
    QFETCH(QString, value);
    TestServer server;
    TestServer::Options options;
    options.env.insert(variable, value);
    // Before: a warning, then a server that anyone could use.
    QVERIFY(!server.start(options));
    QCOMPARE(server.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(server.process().exitCode(), 2);
    const QList<QByteArray> lines = server.stderrText().trimmed().split('\n');
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines.first().contains(variable.toLatin1()), lines.first().constData());
    QVERIFY(server.stdoutText().isEmpty());
}

QTEST_GUILESS_MAIN(TestServerHardening)
#include "tst_server_hardening.moc"
