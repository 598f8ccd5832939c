// The sandbox's web entries against a real sandbox-server: which pages it serves (probed with
// HEAD, GET where HEAD is refused), and their addresses with a one-time ticket, never the key.
#include "client/api/sandboxjobs.h"
#include "client/api/webentry.h"
#include "client/sandboxclient.h"
#include "tests/support/browser.h"
#include "tests/support/faultproxy.h"
#include "tests/support/jobs.h"
#include "tests/support/testserver.h"

#include <QNetworkReply>
#include <QSignalSpy>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

Endpoint endpointAt(const QUrl &url) {
    return Endpoint{url, {}};
}

// The probe of every entry, by id.
QHash<QString, WebEntryProbe> probe(SandboxClient *client, Status *status = nullptr) {
    QList<WebEntryProbe> probes;
    const Status s = runJob(new WebEntryProbeJob(client), &probes);
    if (status)
        *status = s;
    QHash<QString, WebEntryProbe> byId;
    for (const WebEntryProbe &p : std::as_const(probes))
        byId.insert(p.id, p);
    return byId;
}

// Every request the proxy saw (bodiless: a request ends at its blank line), as sent.
QList<QByteArray> requestsSeen(const FaultProxy &proxy) {
    QList<QByteArray> requests;
    for (const QByteArray &bytes : proxy.recordedRequests()) {
        qsizetype start = 0;
        for (qsizetype end = bytes.indexOf("\r\n\r\n"); end >= 0;
             end = bytes.indexOf("\r\n\r\n", start)) {
            requests << bytes.mid(start, end - start);
            start = end + 4;
        }
    }
    return requests;
}

// "METHOD /path" of a request.
QString requestLine(const QByteArray &request) {
    const QList<QByteArray> words = request.left(request.indexOf("\r\n")).split(' ');
    return words.size() < 2 ? QString() : QString::fromLatin1(words[0] + ' ' + words[1]);
}

} // namespace

class TestClientWebEntry final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tableFollowsTheContract();
    void addressesWithAndWithoutTicket();
    void probeFindsTheDocsAndNoDesktop();
    void probeWithApiKey();
    void probeWithoutCredentialsOnAKeyedSandbox();
    void headRefusedFallsBackToGet();
    void ticketOpensTheDocsOnce();
    void unreachableSandboxFails();
    void abortEndsWithFinishedOnly();
};

void TestClientWebEntry::tableFollowsTheContract() {
    const QList<WebEntry> &entries = webEntries();
    QStringList ids, paths;
    for (const WebEntry &entry : entries) {
        ids << entry.id;
        paths << entry.path + (entry.query.isEmpty() ? QString() : u"?"_s + entry.query);
        QVERIFY(!webEntryLabel(entry).isEmpty());
        QCOMPARE(findWebEntry(entry.id), &entry);
    }
    QCOMPARE(ids,
             (QStringList{u"vnc"_s, u"code-server"_s, u"jupyter"_s, u"docs"_s, u"terminal"_s}));
    QCOMPARE(paths, (QStringList{u"vnc/index.html?autoconnect=true"_s, u"code-server/"_s,
                                 u"jupyter"_s, u"v1/docs"_s, u"terminal"_s}));
    QCOMPARE(findWebEntry(u"nope"_s), nullptr);
}

void TestClientWebEntry::addressesWithAndWithoutTicket() {
    const Endpoint plain = endpointAt(QUrl(u"http://127.0.0.1:8080"_s));
    const auto url = [](const Endpoint &e, const QString &id, const QString &ticket = {}) {
        return webEntryUrl(e, *findWebEntry(id), ticket).toString(QUrl::FullyEncoded);
    };
    QCOMPARE(url(plain, u"docs"_s), u"http://127.0.0.1:8080/v1/docs"_s);
    QCOMPARE(url(plain, u"docs"_s, u"T1"_s), u"http://127.0.0.1:8080/v1/docs?ticket=T1"_s);
    QCOMPARE(url(plain, u"code-server"_s, u"T1"_s),
             u"http://127.0.0.1:8080/code-server/?ticket=T1"_s);
    QCOMPARE(url(plain, u"vnc"_s), u"http://127.0.0.1:8080/vnc/index.html?autoconnect=true"_s);
    // aio-api.md 2.3 and 14.4: the page and its WebSocket each carry the ticket.
    QCOMPARE(url(plain, u"vnc"_s, u"T1"_s),
             u"http://127.0.0.1:8080/vnc/index.html?autoconnect=true&ticket=T1"
             u"&path=websockify%3Fticket%3DT1"_s);
    // A ticket is text to the URL, whatever it holds.
    QCOMPARE(url(plain, u"terminal"_s, u"a+b/c=&d"_s),
             u"http://127.0.0.1:8080/terminal?ticket=a%2Bb%2Fc%3D%26d"_s);

    // Behind a reverse proxy's path, noVNC's socket path is relative to the host: it gets the
    // prefix too.
    const Endpoint prefixed = endpointAt(QUrl(u"https://gateway.example/sandbox/7/"_s));
    QCOMPARE(url(prefixed, u"jupyter"_s, u"T2"_s),
             u"https://gateway.example/sandbox/7/jupyter?ticket=T2"_s);
    QCOMPARE(url(prefixed, u"vnc"_s),
             u"https://gateway.example/sandbox/7/vnc/index.html?autoconnect=true"
             u"&path=sandbox%2F7%2Fwebsockify"_s);
    QCOMPARE(url(prefixed, u"vnc"_s, u"T2"_s),
             u"https://gateway.example/sandbox/7/vnc/index.html?autoconnect=true&ticket=T2"
             u"&path=sandbox%2F7%2Fwebsockify%3Fticket%3DT2"_s);
}

void TestClientWebEntry::probeFindsTheDocsAndNoDesktop() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    SandboxClient client(endpointAt(server.url()), {});
    Status status;
    const QHash<QString, WebEntryProbe> found = probe(&client, &status);
    QVERIFY2(status.ok(), qPrintable(status.message));
    QCOMPARE(found.size(), webEntries().size());
    QVERIFY(found.value(u"docs"_s).served);
    QCOMPARE(found.value(u"docs"_s).httpStatus, 200);
    for (const QString &id : {u"vnc"_s, u"code-server"_s, u"jupyter"_s, u"terminal"_s}) {
        QVERIFY2(!found.value(id).served, qPrintable(id));
        QCOMPARE(found.value(id).httpStatus, 404);
    }
}

void TestClientWebEntry::probeWithApiKey() {
    const QString key = u"web-entry-key-81c4"_s;
    TestServer server;
    QVERIFY2(server.start(TestServer::withApiKey(key)), qPrintable(server.error()));
    FaultProxy proxy(server.port());
    QVERIFY(proxy.listen());
    proxy.setRecording(true);
    SandboxClient client(endpointAt(proxy.url()), {Credentials::Kind::ApiKey, key});
    Status status;
    const QHash<QString, WebEntryProbe> found = probe(&client, &status);
    QVERIFY2(status.ok(), qPrintable(status.message));
    QVERIFY(found.value(u"docs"_s).served);
    QCOMPARE(found.value(u"docs"_s).httpStatus, 200);
    QVERIFY(!found.value(u"vnc"_s).served);
    // The probe asks with HEAD, the key in a header and never in a URL.
    const QList<QByteArray> sent = requestsSeen(proxy);
    QCOMPARE(sent.size(), webEntries().size());
    const QByteArray header = "X-AIO-API-Key: " + key.toUtf8();
    QStringList lines;
    for (const QByteArray &request : sent) {
        lines << requestLine(request);
        QVERIFY2(lines.last().startsWith(u"HEAD "_s), qPrintable(lines.last()));
        QVERIFY(!lines.last().contains(key));
        QVERIFY(request.contains(header));
    }
    QVERIFY2(lines.contains(u"HEAD /v1/docs"_s), qPrintable(lines.join(u", "_s)));
    QVERIFY(lines.contains(u"HEAD /vnc/index.html?autoconnect=true"_s));
}

void TestClientWebEntry::probeWithoutCredentialsOnAKeyedSandbox() {
    TestServer server;
    QVERIFY2(server.start(TestServer::withApiKey(u"a-key-the-console-lacks"_s)),
             qPrintable(server.error()));
    SandboxClient client(endpointAt(server.url()), {});
    Status status;
    const QHash<QString, WebEntryProbe> found = probe(&client, &status);
    QVERIFY2(status.ok(), qPrintable(status.message));
    // Without credentials no ticket can open a refused page: none is offered.
    for (const WebEntryProbe &p : found) {
        QCOMPARE(p.httpStatus, 401);
        QVERIFY2(!p.served, qPrintable(p.id));
    }
    QVERIFY(webEntryServed(401, true));
    QVERIFY(webEntryServed(403, true));
    QVERIFY(!webEntryServed(401, false));
    QVERIFY(webEntryServed(302, false));
    QVERIFY(!webEntryServed(405, true));
    QVERIFY(!webEntryServed(502, true));
    QVERIFY(!webEntryServed(0, true));
}

void TestClientWebEntry::headRefusedFallsBackToGet() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    FaultProxy proxy(server.port());
    QVERIFY(proxy.listen());
    proxy.setRecording(true);
    // Under this prefix "terminal" and "jupyter" land on a streamed GET route, which answers
    // HEAD with 405; the GET then says 404 (no such report).
    QUrl base = proxy.url();
    base.setPath(u"/v1/sandbox/observe/reports/"_s);
    SandboxClient client(endpointAt(base), {});
    Status status;
    const QHash<QString, WebEntryProbe> found = probe(&client, &status);
    QVERIFY2(status.ok(), qPrintable(status.message));
    QCOMPARE(found.value(u"terminal"_s).httpStatus, 404);
    QVERIFY(!found.value(u"terminal"_s).served);
    QCOMPARE(found.value(u"docs"_s).httpStatus, 404); // two segments: no route at all
    QStringList lines;
    for (const QByteArray &request : requestsSeen(proxy))
        lines << requestLine(request);
    QVERIFY2(lines.contains(u"HEAD /v1/sandbox/observe/reports/terminal"_s),
             qPrintable(lines.join(u", "_s)));
    QVERIFY2(lines.contains(u"GET /v1/sandbox/observe/reports/terminal"_s),
             qPrintable(lines.join(u", "_s)));
    QVERIFY(!lines.contains(u"GET /v1/sandbox/observe/reports/v1/docs"_s));
}

void TestClientWebEntry::ticketOpensTheDocsOnce() {
    const QString key = u"docs-ticket-key-2d9f"_s;
    TestServer server;
    QVERIFY2(server.start(TestServer::withApiKey(key)), qPrintable(server.error()));
    SandboxClient client(endpointAt(server.url()), {Credentials::Kind::ApiKey, key});
    Ticket ticket;
    const Status minted = runJob(new MintTicketJob(&client), &ticket);
    QVERIFY2(minted.ok(), qPrintable(minted.message));
    const QUrl url = webEntryUrl(client.endpoint(), *findWebEntry(u"docs"_s), ticket.ticket);
    QVERIFY(url.query().contains(u"ticket="_s + ticket.ticket));
    QVERIFY(!url.toString().contains(key));
    QVERIFY(!url.query().contains(u"api_key"_s));

    const BrowserAnswer first = browse(url);
    QCOMPARE(first.status, 200);
    QVERIFY(first.contentType.startsWith("text/html"));
    QVERIFY(first.body.contains("<title>"));
    // Spent: a copied address opens nothing.
    QCOMPARE(browse(url).status, 401);
    // And without any ticket, nothing either.
    QCOMPARE(browse(webEntryUrl(client.endpoint(), *findWebEntry(u"docs"_s))).status, 401);
}

void TestClientWebEntry::unreachableSandboxFails() {
    SandboxClient client(endpointAt(QUrl(u"http://127.0.0.1:9"_s)), {});
    Status status;
    const QHash<QString, WebEntryProbe> found = probe(&client, &status);
    QVERIFY(found.isEmpty());
    QCOMPARE(status.kind, Status::Kind::Network);
    QVERIFY2(!status.message.isEmpty(), "a message a person can act on");
}

void TestClientWebEntry::abortEndsWithFinishedOnly() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    FaultProxy proxy(server.port());
    QVERIFY(proxy.listen());
    proxy.setStalled(true); // the checks are in flight when the probe is aborted
    SandboxClient client(endpointAt(proxy.url()), {});
    auto *job = new WebEntryProbeJob(&client);
    QSignalSpy finished(job, &Job::finished);
    QSignalSpy failed(job, &Job::failed);
    QSignalSpy succeeded(job, &WebEntryProbeJob::succeeded);
    QSignalSpy destroyed(job, &QObject::destroyed);
    QSignalSpy accepted(&proxy, &FaultProxy::connectionAccepted);
    job->start();
    QVERIFY(accepted.wait());
    job->abort();
    QCOMPARE(finished.count(), 1);
    QCOMPARE(job->status().kind, Status::Kind::Cancelled);
    QVERIFY(destroyed.wait());
    // The held requests reach the server now; their answers go nowhere.
    proxy.setStalled(false);
    QVERIFY(runJob(new GetContextJob(&client)).ok());
    QCOMPARE(finished.count(), 1);
    QCOMPARE(failed.count(), 0);
    QCOMPARE(succeeded.count(), 0);
}

QTEST_GUILESS_MAIN(TestClientWebEntry)
#include "tst_webentry.moc"
