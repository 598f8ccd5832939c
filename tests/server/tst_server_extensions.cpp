// The route extension points later issues build on, exercised through sandbox-server-extdemo
// (the real server plus tests/server/extdemo): a streaming body route beyond the 8 MiB JSON
// limit, a WebSocket route behind auth (key, ticket), async routes answered from a worker, a
// declared extension in GET /v1/sandbox, and a WebSocket closed cleanly when the server stops.
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTest>
#include <QWebSocket>

using namespace sbxtest;

namespace {

const QByteArray kApiKey = QByteArrayLiteral("ext-demo-key-91c2");

// The real server plus tests/server/extdemo, behind an API key.
bool startDemo(TestServer &server) {
    TestServer::Options options = TestServer::withApiKey(QString::fromUtf8(kApiKey));
    options.binary = QStringLiteral(SBX_EXTDEMO_BINARY);
    return server.start(options);
}

QUrl wsUrl(const TestServer &server, const QString &path, const QString &query = {}) {
    return server.url(path, query, true);
}

// Opens a WebSocket and waits (bounded) for it to connect or fail.
bool openSocket(QWebSocket &socket, const QNetworkRequest &request) {
    QSignalSpy connected(&socket, &QWebSocket::connected);
    QSignalSpy disconnected(&socket, &QWebSocket::disconnected);
    socket.open(request);
    QDeadlineTimer deadline(10000);
    while (connected.isEmpty() && disconnected.isEmpty() && !deadline.hasExpired())
        connected.wait(200);
    return !connected.isEmpty();
}

QString echo(QWebSocket &socket, const QString &text) {
    QSignalSpy received(&socket, &QWebSocket::textMessageReceived);
    socket.sendTextMessage(text);
    if (!received.wait(10000))
        return {};
    return received.first().first().toString();
}

} // namespace

class TestServerExtensions final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void streamingRouteTakesBodyBeyondJsonLimit();
    void streamingRouteIsGuarded();
    void webSocketWithKey();
    void webSocketWithTicketOnce();
    void webSocketWithoutCredentialsRefused();
    void plainGetOnWebSocketRoute();
    void asyncRouteAnswersFromWorker();
    void asyncRouteWithoutAnswerIs500();
    void declaredExtensionIsListed();
    void stopClosesOpenWebSocket();

private:
    TestServer m_server;
};

void TestServerExtensions::initTestCase() {
    QVERIFY2(startDemo(m_server), qPrintable(m_server.error()));
}

void TestServerExtensions::cleanupTestCase() {
    // stopClosesOpenWebSocket stopped it already.
    QVERIFY(!m_server.stderrText().contains(kApiKey));
}

void TestServerExtensions::streamingRouteTakesBodyBeyondJsonLimit() {
    QByteArray body(20 * 1024 * 1024, '\0');
    quint32 sum = 0;
    for (qsizetype i = 0; i < body.size(); ++i) {
        body[i] = static_cast<char>((i * 31 + 7) & 0xff);
        sum += static_cast<unsigned char>(body[i]);
    }
    const HttpResult result =
        request("POST", m_server.url(QStringLiteral("/test/stream-sum")),
                {{"X-AIO-API-Key", kApiKey}, {"Content-Type", "application/octet-stream"}}, body);
    QCOMPARE(result.status, 200);
    QCOMPARE(result.json().value(QStringLiteral("bytes")).toInteger(), body.size());
    QCOMPARE(static_cast<quint32>(result.json().value(QStringLiteral("sum")).toInteger()), sum);
}

void TestServerExtensions::streamingRouteIsGuarded() {
    const HttpResult result =
        request("POST", m_server.url(QStringLiteral("/test/stream-sum")),
                {{"Content-Type", "application/octet-stream"}}, QByteArray(1024, 'x'));
    QCOMPARE(result.status, 401);
    QVERIFY(isErrorEnvelope(result.body));
}

void TestServerExtensions::webSocketWithKey() {
    QWebSocket socket;
    QNetworkRequest request(wsUrl(m_server, QStringLiteral("/test/echo")));
    request.setRawHeader("X-AIO-API-Key", kApiKey);
    QVERIFY(openSocket(socket, request));
    QCOMPARE(echo(socket, QStringLiteral("hello")), QStringLiteral("hello"));
    QCOMPARE(echo(socket, QStringLiteral("twice")), QStringLiteral("twice"));
    socket.close();
}

void TestServerExtensions::webSocketWithTicketOnce() {
    const HttpResult minted = request("POST", m_server.url(QStringLiteral("/tickets")),
                                      {{"Authorization", "Bearer " + kApiKey}});
    QCOMPARE(minted.status, 200);
    const QString query =
        QStringLiteral("ticket=") + minted.json().value(QStringLiteral("ticket")).toString();
    QWebSocket first;
    QVERIFY(
        openSocket(first, QNetworkRequest(wsUrl(m_server, QStringLiteral("/test/echo"), query))));
    QCOMPARE(echo(first, QStringLiteral("ticket")), QStringLiteral("ticket"));
    first.close();
    QWebSocket second;
    QVERIFY(
        !openSocket(second, QNetworkRequest(wsUrl(m_server, QStringLiteral("/test/echo"), query))));
}

void TestServerExtensions::webSocketWithoutCredentialsRefused() {
    QWebSocket socket;
    QVERIFY(!openSocket(socket, QNetworkRequest(wsUrl(m_server, QStringLiteral("/test/echo")))));
    const QByteArray raw = rawExchange(
        m_server.port(),
        "GET /test/echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        false);
    QCOMPARE(rawStatus(raw), 401);
}

void TestServerExtensions::plainGetOnWebSocketRoute() {
    const HttpResult result =
        request("GET", m_server.url(QStringLiteral("/test/echo")), {{"X-AIO-API-Key", kApiKey}});
    QCOMPARE(result.status, 426);
    QVERIFY(isErrorEnvelope(result.body));
}

void TestServerExtensions::asyncRouteAnswersFromWorker() {
    const HttpResult result = request("GET", m_server.url(QStringLiteral("/test/async/42")),
                                      {{"X-AIO-API-Key", kApiKey}});
    QCOMPARE(result.status, 200);
    QCOMPARE(result.json().value(QStringLiteral("n")).toString(), QStringLiteral("42"));
}

void TestServerExtensions::asyncRouteWithoutAnswerIs500() {
    const HttpResult result = request("GET", m_server.url(QStringLiteral("/test/async-dropped")),
                                      {{"X-AIO-API-Key", kApiKey}});
    QCOMPARE(result.status, 500);
    QVERIFY(isErrorEnvelope(result.body));
    // The connection and the server go on.
    QCOMPARE(
        request("GET", m_server.url(QStringLiteral("/test/async/7")), {{"X-AIO-API-Key", kApiKey}})
            .status,
        200);
}

void TestServerExtensions::declaredExtensionIsListed() {
    const HttpResult sandbox =
        request("GET", m_server.url(QStringLiteral("/v1/sandbox")), {{"X-AIO-API-Key", kApiKey}});
    // The demo group's among the real groups' (the shell's terminal-replay, ...).
    const QJsonArray extensions = sandbox.json().value(QStringLiteral("extensions")).toArray();
    QVERIFY(extensions.contains(QStringLiteral("demo-extension")));
    QVERIFY(extensions.contains(QStringLiteral("terminal-replay")));
    const QByteArray llms =
        request("GET", m_server.url(QStringLiteral("/llms.txt")), {{"X-AIO-API-Key", kApiKey}})
            .body;
    QVERIFY(llms.contains("GET /test/echo (WebSocket)"));
    QVERIFY(llms.contains("POST /test/stream-sum"));
    QVERIFY(llms.contains("demo-extension"));
}

void TestServerExtensions::stopClosesOpenWebSocket() {
    QWebSocket socket;
    QNetworkRequest request(wsUrl(m_server, QStringLiteral("/test/echo")));
    request.setRawHeader("X-AIO-API-Key", kApiKey);
    QVERIFY(openSocket(socket, request));
    QSignalSpy disconnected(&socket, &QWebSocket::disconnected);
    // The client must keep running its event loop to answer the server's close frame.
    m_server.terminate();
    QTRY_VERIFY_WITH_TIMEOUT(!disconnected.isEmpty(), 10000);
    QCOMPARE(socket.closeCode(), QWebSocketProtocol::CloseCodeGoingAway);
    QCOMPARE(m_server.stop(), 0);
}

QTEST_GUILESS_MAIN(TestServerExtensions)
#include "tst_server_extensions.moc"
