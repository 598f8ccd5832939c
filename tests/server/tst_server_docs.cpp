// GET /v1/docs: the route table as an HTML page, behind the same authentication as every other
// route, answering HEAD too (the console probes its web entries with HEAD).
#include "server/api/docspage.h"
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace sbxtest;

namespace {

const QString kKey = QStringLiteral("docs-test-key-5b1e");

HeaderPairs withKey() {
    return {{"X-AIO-API-Key", kKey.toUtf8()}};
}

// "METHOD /path" of every row of the page's table.
QSet<QString> tableRoutes(const QByteArray &html) {
    static const QRegularExpression row(QStringLiteral(
        R"(<tr><td class="method">([A-Z]+)</td><td class="path"><code>([^<]+)</code>)"));
    QSet<QString> routes;
    auto it = row.globalMatch(QString::fromUtf8(html));
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        routes.insert(match.captured(1) + QLatin1Char(' ') + match.captured(2));
    }
    return routes;
}

} // namespace

class TestServerDocs final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void servesHtmlWithTitle();
    void listsEveryRoute();
    void headAnswersWithoutBody();
    void sameAuthenticationAsTheOtherRoutes();
    void ticketOpensThePageOnce();
    void escapesWhatItShows();

private:
    TestServer m_server;
};

void TestServerDocs::initTestCase() {
    QVERIFY2(m_server.start(TestServer::withApiKey(kKey)), qPrintable(m_server.error()));
}

void TestServerDocs::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerDocs::servesHtmlWithTitle() {
    const HttpResult page = request("GET", m_server.url(QStringLiteral("/v1/docs")), withKey());
    QCOMPARE(page.status, 200);
    QCOMPARE(page.header("Content-Type"), QByteArray("text/html; charset=utf-8"));
    QVERIFY(page.body.startsWith("<!DOCTYPE html>"));
    QVERIFY2(page.body.contains("<title>sandbox-server 0.1.0 API</title>"), page.body.left(400));
    QVERIFY(page.body.contains("<meta charset=\"utf-8\">"));
    QVERIFY(page.body.trimmed().endsWith("</html>"));
    // Nothing in it runs, and a ticket in its address is not handed on.
    QVERIFY(page.header("Content-Security-Policy").contains("default-src 'none'"));
    QCOMPARE(page.header("Referrer-Policy"), QByteArray("no-referrer"));
    QVERIFY(!page.body.contains("<script"));
}

void TestServerDocs::listsEveryRoute() {
    const HttpResult page = request("GET", m_server.url(QStringLiteral("/v1/docs")), withKey());
    QCOMPARE(page.status, 200);
    const QSet<QString> routes = tableRoutes(page.body);
    // Every endpoint the agents' manual lists, from the same table...
    const QString llms = QString::fromUtf8(
        request("GET", m_server.url(QStringLiteral("/llms.txt")), withKey()).body);
    static const QRegularExpression endpoint(
        QStringLiteral(R"(^- ([A-Z]+) (/\S+?)(?: \(WebSocket\))?: )"),
        QRegularExpression::MultilineOption);
    int listed = 0;
    auto it = endpoint.globalMatch(llms);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        const QString route = match.captured(1) + QLatin1Char(' ') + match.captured(2);
        QVERIFY2(routes.contains(route), qPrintable(route));
        ++listed;
    }
    QVERIFY2(listed > 30, qPrintable(QString::number(listed)));
    // ...and the ones without a summary, which the manual leaves out.
    QVERIFY(routes.contains(QStringLiteral("HEAD /v1/file/download")));
    QVERIFY(routes.contains(QStringLiteral("GET /v1/docs")));
    QVERIFY(routes.contains(QStringLiteral("GET /v1/shell/ws")));
    QVERIFY(page.body.contains("<span class=\"kind\">WebSocket</span>"));
    // Each with its one line.
    QVERIFY(page.body.contains("mint a one-time ticket for ?ticket="));
    // Backticked names as code.
    QVERIFY(page.body.contains("<code>extensions</code>"));
}

void TestServerDocs::headAnswersWithoutBody() {
    const HttpResult get = request("GET", m_server.url(QStringLiteral("/v1/docs")), withKey());
    const HttpResult head = request("HEAD", m_server.url(QStringLiteral("/v1/docs")), withKey());
    QCOMPARE(head.status, 200);
    QVERIFY(head.body.isEmpty());
    QCOMPARE(head.header("Content-Type"), QByteArray("text/html; charset=utf-8"));
    QCOMPARE(head.header("Content-Length").toLongLong(), get.body.size());
    // On the wire too: the headers and not one byte after them.
    const QByteArray raw =
        rawExchange(m_server.port(),
                    "HEAD /v1/docs HTTP/1.1\r\nHost: x\r\nX-AIO-API-Key: " + kKey.toUtf8() +
                        "\r\nConnection: close\r\n\r\n",
                    false);
    QCOMPARE(rawStatus(raw), 200);
    QVERIFY(raw.endsWith("\r\n\r\n"));
    // Other GET routes answer HEAD the same way.
    const HttpResult sandbox =
        request("HEAD", m_server.url(QStringLiteral("/v1/sandbox")), withKey());
    QCOMPARE(sandbox.status, 200);
    QVERIFY(sandbox.body.isEmpty());
}

void TestServerDocs::sameAuthenticationAsTheOtherRoutes() {
    for (const char *method : {"GET", "HEAD"}) {
        const HttpResult docs = request(method, m_server.url(QStringLiteral("/v1/docs")));
        const HttpResult sandbox = request(method, m_server.url(QStringLiteral("/v1/sandbox")));
        QCOMPARE(docs.status, 401);
        QCOMPARE(docs.status, sandbox.status);
    }
    const HttpResult wrong = request("GET", m_server.url(QStringLiteral("/v1/docs")),
                                     {{"X-AIO-API-Key", "not-the-key"}});
    QCOMPARE(wrong.status, 401);
    QVERIFY(!wrong.body.contains("<html"));
    const HttpResult bearer = request("GET", m_server.url(QStringLiteral("/v1/docs")),
                                      {{"Authorization", "Bearer " + kKey.toUtf8()}});
    QCOMPARE(bearer.status, 200);
}

void TestServerDocs::ticketOpensThePageOnce() {
    const HttpResult minted = request("POST", m_server.url(QStringLiteral("/tickets")), withKey());
    QCOMPARE(minted.status, 200);
    const QString ticket = minted.json().value(QStringLiteral("ticket")).toString();
    QVERIFY(!ticket.isEmpty());
    const QUrl url = m_server.url(QStringLiteral("/v1/docs"), QStringLiteral("ticket=") + ticket);
    const HttpResult first = request("GET", url);
    QCOMPARE(first.status, 200);
    QVERIFY(first.body.contains("<title>"));
    QCOMPARE(request("GET", url).status, 401);
}

void TestServerDocs::escapesWhatItShows() {
    QCOMPARE(sbx::escapeHtml("<a href=\"x\">Tom & Jerry's</a>"),
             std::string("&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"));
    sbx::DocsPageInput input;
    input.version = "1.0<b>";
    input.authMechanisms = "none & more";
    input.routes = {{"GET", "/v1/<x>/{id}", "reads `<script>` & more", sbx::RouteKind::Buffered},
                    {"POST", "/v1/y", "an odd ` tick <i>", sbx::RouteKind::Async}};
    const std::string html = sbx::renderDocsPage(input);
    QVERIFY(html.find("<title>sandbox-server 1.0&lt;b&gt; API</title>") != std::string::npos);
    QVERIFY(html.find("/v1/&lt;x&gt;/{id}") != std::string::npos);
    QVERIFY(html.find("reads <code>&lt;script&gt;</code> &amp; more") != std::string::npos);
    QVERIFY(html.find("an odd ` tick &lt;i&gt;") != std::string::npos);
    QVERIFY(html.find("none &amp; more") != std::string::npos);
    QVERIFY(html.find("<script>") == std::string::npos);
    QVERIFY(html.find("<i>") == std::string::npos);
}

QTEST_GUILESS_MAIN(TestServerDocs)
#include "tst_server_docs.moc"
