// The client's jobs against a real sandbox-server on loopback, and against peers that misbehave.
#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "tests/support/testjwt.h"
#include "tests/support/testserver.h"

#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

// The outcome of one job, collected through its signals.
struct Outcome {
    int finished = 0;
    int succeeded = 0;
    Status status;
};

template <typename Job> Outcome run(Job *job) {
    auto outcome = std::make_shared<Outcome>();
    QObject::connect(job, &ApiJob::finished, [outcome] { ++outcome->finished; });
    QObject::connect(job, &Job::succeeded, [outcome] { ++outcome->succeeded; });
    QObject::connect(job, &ApiJob::failed, [outcome](const Status &s) { outcome->status = s; });
    QSignalSpy done(job, &ApiJob::finished);
    job->start();
    if (!done.wait(20000))
        qWarning("job did not finish");
    QCoreApplication::processEvents(); // let succeeded/failed, emitted after finished, arrive
    return *outcome;
}

Endpoint endpointOf(const TestServer &server) {
    return Endpoint{server.url(), {}};
}

// A loopback peer that answers every request with fixed bytes, or never answers.
class CannedPeer final : public QObject {
public:
    explicit CannedPeer(QByteArray reply)
        : m_reply(std::move(reply)) {
        m_server.listen(QHostAddress::LocalHost);
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                ++connections;
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    socket->readAll();
                    if (m_reply.isNull())
                        return; // stall: never answer
                    socket->write(m_reply);
                    socket->disconnectFromHost();
                });
            }
        });
    }
    QUrl url() const { return QUrl(u"http://127.0.0.1:%1"_s.arg(m_server.serverPort())); }
    int connections = 0;

private:
    QTcpServer m_server;
    QByteArray m_reply;
};

QString messages;
QtMessageHandler previousHandler = nullptr;
void captureMessages(QtMsgType type, const QMessageLogContext &context, const QString &text) {
    messages += text + QLatin1Char('\n');
    previousHandler(type, context, text);
}

} // namespace

class TestClientIntegration final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void contextAndLlmsTxt();
    void probeMeasuresLatency();
    void apiKeyAcceptedAndRefused();
    void jwtAcceptedExpiredAndForgedRefused();
    void ticketIsMintedAndWorksOnce();
    void connectionRefusedSaysWhere();
    void garbageServerIsBadResponse();
    void droppedConnectionIsRetriedThenReported();
    void stalledServerTimesOut();
    void abortEmitsOnlyFinished();
    void cleanupTestCase();

private:
    TestRsaKey m_key;
};

void TestClientIntegration::initTestCase() {
    previousHandler = qInstallMessageHandler(captureMessages);
    m_key = generateRsaKey();
}

void TestClientIntegration::contextAndLlmsTxt() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    SandboxClient client(endpointOf(server), {});
    auto *job = new GetContextJob(&client);
    SandboxContext context;
    connect(job, &GetContextJob::succeeded, this,
            [&context](const SandboxContext &c) { context = c; });
    const Outcome o = run(job);
    QCOMPARE(o.finished, 1);
    QVERIFY2(o.status.ok(), qPrintable(o.status.message));
    QCOMPARE(o.succeeded, 1);
    QVERIFY(!context.version.isEmpty());
    QVERIFY(!context.os.isEmpty());
    QVERIFY(!context.arch.isEmpty());
    QVERIFY2(context.occupiedPorts.contains(QString::number(server.port())),
             qPrintable(context.occupiedPorts.join(QLatin1Char(','))));

    auto *llms = new GetLlmsTxtJob(&client);
    QString text;
    connect(llms, &GetLlmsTxtJob::succeeded, this, [&text](const QString &t) { text = t; });
    QVERIFY(run(llms).status.ok());
    QVERIFY(text.contains(u"System Environment"_s));
    QVERIFY(text.contains(u"/v1/sandbox"_s));
}

void TestClientIntegration::probeMeasuresLatency() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    SandboxClient client(endpointOf(server), {});
    auto *job = new ProbeJob(&client);
    ProbeResult result{-1, {}, {}};
    connect(job, &ProbeJob::succeeded, this, [&result](const ProbeResult &r) { result = r; });
    QVERIFY(run(job).status.ok());
    QVERIFY(result.latencyMs >= 0);
    QVERIFY(!result.version.isEmpty());
}

void TestClientIntegration::apiKeyAcceptedAndRefused() {
    const QString key = u"k3y-Th4t-Must-N0t-Leak"_s;
    TestServer server;
    QVERIFY2(server.start(TestServer::withApiKey(key)), qPrintable(server.error()));

    SandboxClient good(endpointOf(server), {Credentials::Kind::ApiKey, key});
    QVERIFY(run(new GetContextJob(&good)).status.ok());
    QVERIFY(run(new GetLlmsTxtJob(&good)).status.ok());

    const QString wrongKey = u"wr0ng-K3y-Also-Secret"_s;
    SandboxClient wrong(endpointOf(server), {Credentials::Kind::ApiKey, wrongKey});
    Outcome o = run(new GetContextJob(&wrong));
    QCOMPARE(o.status.kind, Status::Kind::Auth);
    QCOMPARE(o.status.httpStatus, 401);
    QVERIFY2(o.status.message.startsWith(u"Wrong API key"_s), qPrintable(o.status.message));
    QVERIFY(!o.status.message.contains(wrongKey));
    QVERIFY(!o.status.message.contains(key));

    SandboxClient none(endpointOf(server), {});
    o = run(new GetLlmsTxtJob(&none));
    QCOMPARE(o.status.kind, Status::Kind::Auth);
    QVERIFY(o.status.message.contains(u"requires authentication"_s));
    QVERIFY(!messages.contains(key));
    QVERIFY(!messages.contains(wrongKey));
    QVERIFY(!server.stderrText().contains(key.toUtf8()));
    QVERIFY(!server.stderrText().contains(wrongKey.toUtf8()));
}

void TestClientIntegration::jwtAcceptedExpiredAndForgedRefused() {
    TestServer server;
    TestServer::Options options;
    options.env.insert(u"JWT_PUBLIC_KEY"_s, QString::fromLatin1(m_key.publicPemBase64()));
    QVERIFY2(server.start(options), qPrintable(server.error()));
    const qint64 now = QDateTime::currentSecsSinceEpoch();

    const QString valid = QString::fromLatin1(makeJwt(m_key, {{u"exp"_s, double(now + 3600)}}));
    SandboxClient ok(endpointOf(server), {Credentials::Kind::Jwt, valid});
    Outcome o = run(new GetContextJob(&ok));
    QVERIFY2(o.status.ok(), qPrintable(o.status.message));

    const QString expired = QString::fromLatin1(makeJwt(m_key, {{u"exp"_s, double(now - 60)}}));
    SandboxClient old(endpointOf(server), {Credentials::Kind::Jwt, expired});
    o = run(new GetContextJob(&old));
    QCOMPARE(o.status.kind, Status::Kind::Auth);
    QVERIFY(o.status.message.contains(u"refused the JWT"_s));

    const QString forged =
        QString::fromLatin1(makeJwt(m_key, {{u"exp"_s, double(now + 3600)}}, "HS256"));
    SandboxClient forger(endpointOf(server), {Credentials::Kind::Jwt, forged});
    o = run(new GetContextJob(&forger));
    QCOMPARE(o.status.kind, Status::Kind::Auth);
    QVERIFY(!o.status.message.contains(forged));
}

void TestClientIntegration::ticketIsMintedAndWorksOnce() {
    const QString key = u"ticket-minting-key"_s;
    TestServer server;
    QVERIFY2(server.start(TestServer::withApiKey(key)), qPrintable(server.error()));
    SandboxClient client(endpointOf(server), {Credentials::Kind::ApiKey, key});
    auto *job = new MintTicketJob(&client);
    Ticket ticket;
    connect(job, &MintTicketJob::succeeded, this, [&ticket](const Ticket &t) { ticket = t; });
    const Outcome o = run(job);
    QVERIFY2(o.status.ok(), qPrintable(o.status.message));
    QVERIFY(!ticket.ticket.isEmpty());
    QVERIFY(ticket.expiresInSeconds > 0);

    // The ticket stands in for the credentials on a URL, once.
    SandboxClient anonymous(endpointOf(server), {});
    auto withTicket = [&] {
        ApiRequest r = ApiRequest::get(u"v1/sandbox"_s);
        r.query.addQueryItem(u"ticket"_s, ticket.ticket);
        r.idempotent = false;
        return r;
    };
    class RawJob final : public ApiJob {
    public:
        using ApiJob::ApiJob;
        Status parseReply(const QByteArray &, QNetworkReply *) override {
            return Status::success();
        }
        void emitSucceeded() override {}
    };
    auto *first = new RawJob(&anonymous, withTicket());
    QSignalSpy firstDone(first, &ApiJob::finished);
    first->start();
    QVERIFY(firstDone.wait());
    QVERIFY2(first->status().ok(), qPrintable(first->status().message));
    auto *second = new RawJob(&anonymous, withTicket());
    Status secondStatus;
    connect(second, &ApiJob::failed, this, [&secondStatus](const Status &s) { secondStatus = s; });
    QSignalSpy secondDone(second, &ApiJob::finished);
    second->start();
    QVERIFY(secondDone.wait());
    QCoreApplication::processEvents();
    QCOMPARE(secondStatus.kind, Status::Kind::Auth);
    QVERIFY(!secondStatus.message.contains(ticket.ticket));
}

void TestClientIntegration::connectionRefusedSaysWhere() {
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const quint16 port = closed.serverPort();
    closed.close();
    SandboxClient client({QUrl(u"http://127.0.0.1:%1"_s.arg(port)), {}}, {});
    const Outcome o = run(new ProbeJob(&client));
    QCOMPARE(o.status.kind, Status::Kind::Network);
    QCOMPARE(o.status.message,
             u"Connection refused at http://127.0.0.1:%1: is the sandbox running?"_s.arg(port));
}

void TestClientIntegration::garbageServerIsBadResponse() {
    CannedPeer peer("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                    "11\r\n\r\n{\"version\":");
    SandboxClient client({peer.url(), {}}, {});
    const Outcome o = run(new GetContextJob(&client));
    QCOMPARE(o.status.kind, Status::Kind::BadResponse);
    QVERIFY2(o.status.message.contains(u"invalid JSON"_s), qPrintable(o.status.message));
    QCOMPARE(o.succeeded, 0);
}

void TestClientIntegration::droppedConnectionIsRetriedThenReported() {
    CannedPeer peer(QByteArray("")); // accepts, reads, closes without a byte
    SandboxClient client({peer.url(), {}}, {});
    auto *job = new GetContextJob(&client);
    int attempts = 0;
    connect(job, &ApiJob::finished, this, [job, &attempts] { attempts = job->attempts(); });
    const Outcome o = run(job);
    QCOMPARE(o.status.kind, Status::Kind::Network);
    QVERIFY2(o.status.message.contains(u"closed the connection"_s), qPrintable(o.status.message));
    QCOMPARE(attempts, 3); // the retry table: two retries for an idempotent read
    QVERIFY(peer.connections >= 3);
}

void TestClientIntegration::stalledServerTimesOut() {
    CannedPeer peer{QByteArray()};
    SandboxClient client({peer.url(), {}}, {});
    const Outcome o = run(new ProbeJob(&client, 300));
    QCOMPARE(o.status.kind, Status::Kind::Timeout);
    QVERIFY(o.status.message.startsWith(u"No answer from"_s));
}

void TestClientIntegration::abortEmitsOnlyFinished() {
    CannedPeer peer{QByteArray()};
    SandboxClient client({peer.url(), {}}, {});
    auto *job = new GetContextJob(&client);
    int finished = 0, failed = 0, succeeded = 0;
    connect(job, &ApiJob::finished, this, [&finished] { ++finished; });
    connect(job, &ApiJob::failed, this, [&failed] { ++failed; });
    connect(job, &GetContextJob::succeeded, this, [&succeeded] { ++succeeded; });
    QSignalSpy destroyed(job, &QObject::destroyed);
    job->start();
    QTRY_COMPARE(peer.connections, 1);
    job->abort();
    QVERIFY(destroyed.wait());
    QCOMPARE(finished, 1);
    QCOMPARE(failed, 0);
    QCOMPARE(succeeded, 0);
}

void TestClientIntegration::cleanupTestCase() {
    qInstallMessageHandler(previousHandler);
}

QTEST_GUILESS_MAIN(TestClientIntegration)
#include "tst_integration.moc"
