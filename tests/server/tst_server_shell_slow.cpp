// A terminal client that stops reading (a raw socket that upgrades and then reads nothing)
// while its session prints 50 MB: the server's memory stays bounded, another session's client
// keeps getting its output, and the stalled client gets a lagged frame when it reads again.
#include "tests/server/httptestclient.h"
#include "tests/server/shelltestclient.h"
#include "tests/support/testserver.h"

#include <QFile>
#include <QJsonDocument>
#include <QTcpSocket>
#include <QTest>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

// Takes one complete server frame (unmasked) off the front of buffer; continuation frames are
// joined into message. False when buffer holds no complete frame yet.
bool takeMessage(QByteArray &buffer, QByteArray &message, QByteArray &partial) {
    while (true) {
        if (buffer.size() < 2)
            return false;
        const auto b0 = static_cast<quint8>(buffer[0]);
        quint64 length = static_cast<quint8>(buffer[1]) & 0x7f;
        qsizetype header = 2;
        if (length == 126) {
            if (buffer.size() < 4)
                return false;
            length = (static_cast<quint8>(buffer[2]) << 8) | static_cast<quint8>(buffer[3]);
            header = 4;
        } else if (length == 127) {
            if (buffer.size() < 10)
                return false;
            length = 0;
            for (int i = 0; i < 8; ++i)
                length = (length << 8) | static_cast<quint8>(buffer[2 + i]);
            header = 10;
        }
        if (static_cast<quint64>(buffer.size() - header) < length)
            return false;
        partial += buffer.mid(header, static_cast<qsizetype>(length));
        buffer.remove(0, header + static_cast<qsizetype>(length));
        if (b0 & 0x80) {
            message = partial;
            partial.clear();
            return true;
        }
    }
}

} // namespace

class TestServerShellSlow final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void stalledClientLagsWithoutStallingOthers();

private:
    HttpResult post(const QString &path, const QJsonObject &body, int timeoutMs = 15000) {
        return request("POST", m_server.url(path), {{"Content-Type", "application/json"}},
                       QJsonDocument(body).toJson(QJsonDocument::Compact), timeoutMs);
    }

    TestServer m_server;
};

void TestServerShellSlow::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestServerShellSlow::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerShellSlow::stalledClientLagsWithoutStallingOthers() {
    QTcpSocket raw;
    // Qt stops taking bytes from the kernel once this much is unread: the client stalls.
    raw.setReadBufferSize(64 * 1024);
    raw.connectToHost(m_server.url().host(), m_server.port());
    QVERIFY(raw.waitForConnected(10000));
    raw.write("GET /v1/shell/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
              "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
              "Sec-WebSocket-Version: 13\r\n\r\n");
    QByteArray buffer;
    QByteArray partial;
    QByteArray message;
    QString sessionId;
    QVERIFY(QTest::qWaitFor(
        [&] {
            buffer += raw.readAll();
            if (!buffer.startsWith("HTTP/1.1 101"))
                return false;
            const qsizetype end = buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return false;
            QByteArray frames = buffer.mid(end + 4);
            while (takeMessage(frames, message, partial)) {
                const QJsonObject frame = QJsonDocument::fromJson(message).object();
                if (frame.value(u"type"_s) == u"session_id"_s)
                    sessionId = frame.value(u"data"_s).toString();
            }
            return !sessionId.isEmpty();
        },
        10000));
    buffer = buffer.mid(buffer.indexOf("\r\n\r\n") + 4);
    partial.clear();

    ShellTestClient other;
    QVERIFY(other.open(m_server.url()));
    QVERIFY(other.waitForType(u"ready"_s));

    // From here on the raw socket is not read until the flood is over.
    const HttpResult started = post(
        u"/v1/shell/exec"_s,
        {{u"id"_s, sessionId},
         {u"command"_s, u"yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c 50000000; echo"_s},
         {u"async_mode"_s, true}});
    QCOMPARE(started.status, 200);
    other.input(u"echo meanwhile-$((7*6))\r"_s);
    QVERIFY(other.waitForOutput(u"meanwhile-42"_s, 20000));
    const HttpResult waited =
        post(u"/v1/shell/wait"_s, {{u"id"_s, sessionId}, {u"seconds"_s, 240}}, 250000);
    QCOMPARE(waited.json().value(u"data"_s).toObject().value(u"status"_s).toString(),
             u"completed"_s);
    const qint64 rss = m_server.residentKiB();
    qInfo("server VmRSS after 50 MB through a stalled client: %lld KiB", rss);
    QVERIFY(rss > 0);
    // 12 MB here; 50 MB more would be kept if the server buffered for the stalled client.
    QVERIFY(rss < TestServer::memoryBoundKiB(100 * 1024));

    // Reading again: whatever the kernel buffered, then the lagged frame, then output.
    qint64 dropped = -1;
    bool outputAfterLag = false;
    QVERIFY(QTest::qWaitFor(
        [&] {
            buffer += raw.readAll();
            while (takeMessage(buffer, message, partial)) {
                const QJsonObject frame = QJsonDocument::fromJson(message).object();
                const QString type = frame.value(u"type"_s).toString();
                if (type == u"lagged"_s)
                    dropped =
                        frame.value(u"data"_s).toObject().value(u"dropped_bytes"_s).toInteger();
                else if (type == u"output"_s && dropped > 0)
                    outputAfterLag = true;
            }
            return outputAfterLag;
        },
        60000));
    QVERIFY(dropped > 1024 * 1024);
}

QTEST_GUILESS_MAIN(TestServerShellSlow)
#include "tst_server_shell_slow.moc"
