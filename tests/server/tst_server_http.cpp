// HTTP behaviour of sandbox-server a client sees: enveloped 404/405, malformed input refused
// with a 4xx without killing the process, keep-alive, one stdout line, graceful SIGTERM, and
// idle connections that cannot lock honest clients out (connection cap, header timeout).
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QProcess>
#include <QTcpSocket>
#include <QTest>

#include <arpa/inet.h>
#include <cerrno>
#include <memory>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

// Plain descriptors: a thousand QTcpSockets would cost the test more than the server.
class RawConnections final {
public:
    RawConnections() = default;
    ~RawConnections() { closeAll(); }
    RawConnections(const RawConnections &) = delete;
    RawConnections &operator=(const RawConnections &) = delete;

    // Opens up to count connections that send nothing; returns how many connected.
    int open(quint16 port, int count) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const timeval bound{2, 0};
        int opened = 0;
        for (int i = 0; i < count; ++i) {
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (fd < 0)
                break;
            ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &bound, sizeof bound);
            if (::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0) {
                ::close(fd);
                continue;
            }
            m_fds.push_back(fd);
            ++opened;
        }
        return opened;
    }
    // True once the server closed connection i (end of file or reset).
    bool closedByServer(std::size_t i) const {
        pollfd entry{m_fds.at(i), POLLIN, 0};
        if (::poll(&entry, 1, 0) <= 0)
            return false;
        char byte = 0;
        return ::recv(m_fds.at(i), &byte, 1, MSG_DONTWAIT) <= 0;
    }
    void closeAll() {
        for (int fd : m_fds)
            ::close(fd);
        m_fds.clear();
    }

private:
    std::vector<int> m_fds;
};

// As many descriptors as this process may have: the soft limit raised to the hard one.
rlim_t raiseOwnDescriptorLimit() {
    rlimit limit{};
    ::getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
    ::getrlimit(RLIMIT_NOFILE, &limit);
    return limit.rlim_cur;
}

// A POST whose header the server has read (it answered 100 Continue) and whose body is still
// to come: a request in progress.
bool startPendingPost(QTcpSocket &socket, quint16 port) {
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(5000))
        return false;
    socket.write("POST /tickets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 "Content-Length: 2\r\nExpect: 100-continue\r\n\r\n");
    QByteArray received;
    QDeadlineTimer deadline(10000);
    while (!received.contains("\r\n\r\n") && !deadline.hasExpired()) {
        if (socket.waitForReadyRead(static_cast<int>(qMax<qint64>(1, deadline.remainingTime()))))
            received += socket.readAll();
        else if (socket.state() != QAbstractSocket::ConnectedState)
            break;
    }
    return received.startsWith("HTTP/1.1 100 Continue");
}

// Sends the pending POST's body; the status of its response (0 if none).
int finishPendingPost(QTcpSocket &socket) {
    socket.write("{}");
    QByteArray received;
    QDeadlineTimer deadline(10000);
    while (!received.contains("\r\n\r\n") && !deadline.hasExpired()) {
        if (socket.waitForReadyRead(static_cast<int>(qMax<qint64>(1, deadline.remainingTime()))))
            received += socket.readAll();
        else if (socket.state() != QAbstractSocket::ConnectedState)
            break;
    }
    return rawStatus(received);
}

} // namespace

class TestServerHttp final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void notFoundIsEnveloped();
    void wrongMethodIsEnveloped();
    void malformedRequests_data();
    void malformedRequests();
    void hugeHeader();
    void invalidJsonBody();
    void bodyTooLarge();
    void truncatedRequest();
    void keepAlive();
    void slowClientsDoNotBlockOthers();
    void stateDirCreated();
    void stdoutIsOneLine();
    void helpAndVersion();
    void unknownArgument();
    void portInUse();
    void sigtermWithOpenConnectionExitsZero();
    void idleConnectionsDoNotLockOutClients();
    void outOfDescriptorsEvictsIdle();
    void busyConnectionsAreNeverEvicted();
    void silentConnectionsTimeOutFirst();

private:
    void verifyStillServing();

    TestServer m_server;
};

void TestServerHttp::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestServerHttp::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerHttp::verifyStillServing() {
    QCOMPARE(m_server.process().state(), QProcess::Running);
    const HttpResult result = request("GET", m_server.url(QStringLiteral("/v1/sandbox")));
    QCOMPARE(result.status, 200);
}

void TestServerHttp::notFoundIsEnveloped() {
    const HttpResult result = request("GET", m_server.url(QStringLiteral("/v1/nothing/here")));
    QCOMPARE(result.status, 404);
    QString why;
    QVERIFY2(isErrorEnvelope(result.body, &why), qPrintable(why));
    QVERIFY(result.header("Content-Type").startsWith("application/json"));
}

void TestServerHttp::wrongMethodIsEnveloped() {
    const HttpResult result = request("DELETE", m_server.url(QStringLiteral("/v1/sandbox")));
    QCOMPARE(result.status, 405);
    QVERIFY(isErrorEnvelope(result.body));
    QVERIFY(result.header("Allow").contains("GET"));
    QCOMPARE(request("GET", m_server.url(QStringLiteral("/tickets"))).status, 405);
}

void TestServerHttp::malformedRequests_data() {
    QTest::addColumn<QByteArray>("bytes");
    QByteArray noise;
    for (int i = 0; i < 4096; ++i)
        noise.append(static_cast<char>((i * 7919 + 13) % 256));
    QTest::newRow("binary noise") << noise + "\r\n\r\n";
    QTest::newRow("not http") << QByteArray("HELLO THERE\r\n\r\n");
    QTest::newRow("bad version") << QByteArray("GET / HTTP/7.1\r\nHost: x\r\n\r\n");
    QTest::newRow("bad header line")
        << QByteArray("GET /v1/sandbox HTTP/1.1\r\nNo colon here\r\n\r\n");
    QTest::newRow("relative target") << QByteArray("GET v1/sandbox HTTP/1.1\r\nHost: x\r\n\r\n");
    QTest::newRow("bad content length")
        << QByteArray("POST /tickets HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n");
    QTest::newRow("bad chunk") << QByteArray(
        "POST /tickets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        "zz\r\nhello\r\n0\r\n\r\n");
}

void TestServerHttp::malformedRequests() {
    QFETCH(QByteArray, bytes);
    const QByteArray raw = rawExchange(m_server.port(), bytes);
    const int status = rawStatus(raw);
    QVERIFY2(status >= 400 && status < 500, raw.left(200).constData());
    QString why;
    QVERIFY2(isErrorEnvelope(rawBody(raw), &why), qPrintable(why));
    verifyStillServing();
}

void TestServerHttp::hugeHeader() {
    const QByteArray bytes =
        "GET /v1/sandbox HTTP/1.1\r\nHost: x\r\nX-Big: " + QByteArray(256 * 1024, 'a') + "\r\n\r\n";
    const QByteArray raw = rawExchange(m_server.port(), bytes);
    QCOMPARE(rawStatus(raw), 431);
    QVERIFY(isErrorEnvelope(rawBody(raw)));
    verifyStillServing();
}

void TestServerHttp::invalidJsonBody() {
    const HttpResult result =
        request("POST", m_server.url(QStringLiteral("/tickets")), {}, QByteArray("{\"not\": json"));
    QCOMPARE(result.status, 400);
    QString why;
    QVERIFY2(isErrorEnvelope(result.body, &why), qPrintable(why));
    QVERIFY(
        result.json().value(QStringLiteral("message")).toString().contains(QStringLiteral("JSON")));
    // An empty body or an object is fine.
    QCOMPARE(request("POST", m_server.url(QStringLiteral("/tickets")), {}, QByteArray("{}")).status,
             200);
    verifyStillServing();
}

void TestServerHttp::bodyTooLarge() {
    // Only the header: the server refuses by the announced length, without reading 9 MiB.
    const QByteArray bytes =
        "POST /tickets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 9437184\r\n\r\n{\"a\":";
    bool closed = false;
    const QByteArray raw = rawExchange(m_server.port(), bytes, false, 10000, &closed);
    QCOMPARE(rawStatus(raw), 413);
    QVERIFY(isErrorEnvelope(rawBody(raw)));
    QVERIFY(closed);
    verifyStillServing();
}

void TestServerHttp::truncatedRequest() {
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), m_server.port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write("POST /tickets HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"par");
    QVERIFY(socket.waitForBytesWritten(5000));
    socket.abort();
    verifyStillServing();
}

void TestServerHttp::keepAlive() {
    // Two requests pipelined on one connection; the second asks to close.
    const QByteArray bytes = "GET /llms.txt HTTP/1.1\r\nHost: x\r\n\r\n"
                             "GET /v1/sandbox HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    bool closed = false;
    const QByteArray raw = rawExchange(m_server.port(), bytes, false, 10000, &closed);
    QCOMPARE(raw.count("HTTP/1.1 200 OK"), 2);
    QVERIFY(raw.contains("text/plain"));
    QVERIFY(raw.contains("application/json"));
    QVERIFY(closed);
}

void TestServerHttp::slowClientsDoNotBlockOthers() {
    // Many connections stuck in the middle of a header (slowloris) hold no thread.
    std::vector<std::unique_ptr<QTcpSocket>> slow;
    for (int i = 0; i < 200; ++i) {
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QStringLiteral("127.0.0.1"), m_server.port());
        QVERIFY(socket->waitForConnected(5000));
        socket->write("GET /v1/sandbox HTTP/1.1\r\nHost: x\r\nX-Slow: ");
        QVERIFY(socket->waitForBytesWritten(5000));
        slow.push_back(std::move(socket));
    }
    verifyStillServing();
    // Each stuck one still gets its answer once it finishes its request.
    slow.front()->write("1\r\n\r\n");
    QVERIFY(slow.front()->waitForReadyRead(10000));
    QVERIFY(slow.front()->readAll().startsWith("HTTP/1.1 200 OK"));
}

void TestServerHttp::stateDirCreated() {
    QVERIFY(QDir(m_server.workspace()).exists(QStringLiteral(".sandbox-server")));
}

void TestServerHttp::stdoutIsOneLine() {
    const QByteArray expected =
        "sandbox-server listening on http://127.0.0.1:" + QByteArray::number(m_server.port()) +
        "\n";
    QCOMPARE(m_server.stdoutText(), expected);
}

void TestServerHttp::helpAndVersion() {
    QProcess help;
    help.start(QStringLiteral(SBX_SERVER_BINARY), {QStringLiteral("--help")});
    QVERIFY(help.waitForFinished(10000));
    QCOMPARE(help.exitCode(), 0);
    const QByteArray text = help.readAllStandardOutput();
    QVERIFY(text.contains("does NOT isolate untrusted"));
    QVERIFY(text.contains("--workspace"));
    QVERIFY(text.contains("--state-dir"));

    QProcess version;
    version.start(QStringLiteral(SBX_SERVER_BINARY), {QStringLiteral("--version")});
    QVERIFY(version.waitForFinished(10000));
    QCOMPARE(version.exitCode(), 0);
    QCOMPARE(version.readAllStandardOutput(), QByteArray("sandbox-server 0.1.0\n"));
}

void TestServerHttp::unknownArgument() {
    QProcess process;
    process.start(QStringLiteral(SBX_SERVER_BINARY), {QStringLiteral("--frobnicate")});
    QVERIFY(process.waitForFinished(10000));
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardOutput().isEmpty());
    QVERIFY(process.readAllStandardError().contains("--frobnicate"));
}

void TestServerHttp::portInUse() {
    TestServer second;
    TestServer::Options options;
    options.extraArgs = {QStringLiteral("--port"), QString::number(m_server.port())};
    QVERIFY(!second.start(options));
    QVERIFY2(second.stderrText().contains("cannot listen"), second.stderrText().constData());
    QCOMPARE(second.process().exitCode(), 1);
}

void TestServerHttp::sigtermWithOpenConnectionExitsZero() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    QTcpSocket idle;
    idle.connectToHost(QStringLiteral("127.0.0.1"), server.port());
    QVERIFY(idle.waitForConnected(5000));
    // A keep-alive connection after one answered request, then idle.
    idle.write("GET /llms.txt HTTP/1.1\r\nHost: x\r\n\r\n");
    QVERIFY(idle.waitForReadyRead(5000));
    QCOMPARE(server.stop(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(idle.state(), QAbstractSocket::UnconnectedState, 5000);
    QVERIFY(server.stderrText().contains("SIGTERM"));
}

void TestServerHttp::idleConnectionsDoNotLockOutClients() {
    // 256 descriptors for the server, a thousand idle connections against it: the honest
    // request must still be answered, and a request in progress must survive the flood.
    TestServer server;
    TestServer::Options options;
    options.maxOpenFiles = 256;
    QVERIFY2(server.start(options), qPrintable(server.error()));
    const rlim_t ownLimit = raiseOwnDescriptorLimit();
    const int wanted = static_cast<int>(qMin<rlim_t>(1000, ownLimit > 100 ? ownLimit - 100 : 0));
    QVERIFY2(wanted >= 300, "this test process may not open 300 descriptors");

    QTcpSocket pending;
    QVERIFY(startPendingPost(pending, server.port()));
    RawConnections idle;
    QCOMPARE(idle.open(server.port(), wanted), wanted);

    QElapsedTimer timer;
    timer.start();
    QUrl target = server.url(QStringLiteral("/v1/sandbox"));
    const HttpResult honest = request("GET", target, {}, {}, 5000);
    const qint64 elapsed = timer.elapsed();
    qInfo("GET /v1/sandbox with %d idle connections at a 256-descriptor limit: %lld ms", wanted,
          elapsed);
    QVERIFY2(honest.status == 200, qPrintable(honest.networkError));
    // The longest idle gave way; the request in progress did not.
    QTRY_VERIFY_WITH_TIMEOUT(idle.closedByServer(0), 5000);
    QCOMPARE(finishPendingPost(pending), 200);

    idle.closeAll();
    QCOMPARE(server.process().state(), QProcess::Running);
    for (int i = 0; i < 20; ++i)
        QCOMPARE(request("GET", target, {}, {}, 5000).status, 200);
    QCOMPARE(server.stop(), 0);
}

void TestServerHttp::outOfDescriptorsEvictsIdle() {
    // A cap above the descriptor limit: accept runs out of descriptors (EMFILE) and the
    // longest idle connection must give up its own rather than the listener stalling.
    TestServer server;
    TestServer::Options options;
    options.maxOpenFiles = 256;
    options.extraArgs = {QStringLiteral("--max-connections"), QStringLiteral("5000")};
    QVERIFY2(server.start(options), qPrintable(server.error()));
    raiseOwnDescriptorLimit();
    RawConnections idle;
    QCOMPARE(idle.open(server.port(), 400), 400);
    QUrl target = server.url(QStringLiteral("/v1/sandbox"));
    QElapsedTimer timer;
    timer.start();
    const HttpResult honest = request("GET", target, {}, {}, 5000);
    qInfo("GET /v1/sandbox past the descriptor limit (EMFILE): %lld ms", timer.elapsed());
    QVERIFY2(honest.status == 200, qPrintable(honest.networkError));
    QTRY_VERIFY_WITH_TIMEOUT(idle.closedByServer(0), 5000);
    idle.closeAll();
    QCOMPARE(request("GET", target, {}, {}, 5000).status, 200);
    QCOMPARE(server.stop(), 0);
}

void TestServerHttp::busyConnectionsAreNeverEvicted() {
    // At the cap with every connection in the middle of a request, a newcomer is told to
    // come back (503 in the envelope) and nobody's request is cut.
    TestServer server;
    QVERIFY2(server.start(TestServer::withArgs({u"--max-connections"_s, u"2"_s})),
             qPrintable(server.error()));
    QTcpSocket first;
    QTcpSocket second;
    QVERIFY(startPendingPost(first, server.port()));
    QVERIFY(startPendingPost(second, server.port()));
    const QByteArray raw =
        rawExchange(server.port(), "GET /v1/sandbox HTTP/1.1\r\nHost: x\r\n\r\n", true, 5000);
    QCOMPARE(rawStatus(raw), 503);
    QString why;
    QVERIFY2(isErrorEnvelope(rawBody(raw), &why), qPrintable(why));
    QCOMPARE(finishPendingPost(first), 200);
    QCOMPARE(finishPendingPost(second), 200);
    // Both are idle keep-alive connections now: a newcomer takes the place of one.
    QUrl target = server.url(QStringLiteral("/v1/sandbox"));
    QCOMPARE(request("GET", target, {}, {}, 5000).status, 200);
    QCOMPARE(server.stop(), 0);
}

void TestServerHttp::silentConnectionsTimeOutFirst() {
    // A connection that never sent a request is closed after --header-timeout; one that did
    // is kept alive for the (longer) keep-alive time.
    TestServer server;
    QVERIFY2(server.start(TestServer::withArgs({u"--header-timeout"_s, u"1"_s})),
             qPrintable(server.error()));
    QTcpSocket silent;
    silent.connectToHost(QStringLiteral("127.0.0.1"), server.port());
    QVERIFY(silent.waitForConnected(5000));
    QTcpSocket served;
    served.connectToHost(QStringLiteral("127.0.0.1"), server.port());
    QVERIFY(served.waitForConnected(5000));
    served.write("GET /llms.txt HTTP/1.1\r\nHost: x\r\n\r\n");
    QVERIFY(served.waitForReadyRead(5000));
    QVERIFY(served.readAll().startsWith("HTTP/1.1 200 OK"));

    QTRY_COMPARE_WITH_TIMEOUT(silent.state(), QAbstractSocket::UnconnectedState, 10000);
    QCOMPARE(served.state(), QAbstractSocket::ConnectedState);
    served.write("GET /llms.txt HTTP/1.1\r\nHost: x\r\n\r\n");
    QVERIFY(served.waitForReadyRead(5000));
    QVERIFY(served.readAll().startsWith("HTTP/1.1 200 OK"));
    QCOMPARE(server.stop(), 0);
}

QTEST_GUILESS_MAIN(TestServerHttp)
#include "tst_server_http.moc"
