// The traffic recorder against a real sandbox-server: exchanges appear as they happen with status
// and timing; no API key, JWT, ticket or secret-named value is anywhere in the entries, their curl
// commands or the HAR; the HAR has what HAR 1.2 requires; terminal output is summarised per
// second; the ring and its byte budget hold; a closed inspector keeps no headers or bodies; file
// transfers are counted, never buffered.
#include "client/api/bashjobs.h"
#include "client/api/filejobs.h"
#include "client/api/filetransfer.h"
#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "client/streams/terminalchannel.h"
#include "client/traffic/redaction.h"
#include "client/traffic/trafficexport.h"
#include "client/traffic/trafficrecorder.h"
#include "tests/support/jobs.h"
#include "tests/support/testjwt.h"
#include "tests/support/testserver.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

QList<TrafficEntry> entriesOf(const TrafficRecorder &recorder) {
    QList<TrafficEntry> out;
    for (int i = 0; i < recorder.size(); ++i)
        out << recorder.at(i);
    return out;
}

// Everything the recorder holds or renders, as one text: URLs, headers, bodies, errors, the curl
// command of each entry and the HAR of all.
QByteArray everything(const TrafficRecorder &recorder) {
    QByteArray all;
    const QList<TrafficEntry> entries = entriesOf(recorder);
    for (const TrafficEntry &e : entries) {
        all += e.url.toUtf8() + '\n' + e.path.toUtf8() + '\n' + e.error.toUtf8() + '\n';
        for (const RawHeaders *headers : {&e.requestHeaders, &e.responseHeaders}) {
            for (const auto &[name, value] : *headers)
                all += name + ": " + value + '\n';
        }
        all += e.request.kept + '\n' + e.response.kept + '\n';
        all += curlCommand(e).toUtf8() + '\n';
    }
    return all + harDocument(entries, u"test"_s);
}

const TrafficEntry *lastWithPath(const TrafficRecorder &recorder, const QString &path,
                                 TrafficKind kind = TrafficKind::Http) {
    for (int i = recorder.size() - 1; i >= 0; --i) {
        if (recorder.at(i).path == path && recorder.at(i).kind == kind)
            return &recorder.at(i);
    }
    return nullptr;
}

// A terminal opened and live, then detached (its frames recorded meanwhile).
bool openTerminal(SandboxClient *client, bool ticket) {
    TerminalChannel channel(client);
    QByteArray printed;
    QObject::connect(&channel, &TerminalChannel::output, &channel,
                     [&printed](const QByteArray &bytes) { printed += bytes; });
    channel.setUseTicket(ticket);
    channel.open();
    if (!QTest::qWaitFor([&] { return channel.state() == TerminalChannel::State::Live; }, 10000))
        return false;
    channel.resize(100, 30);
    channel.sendInput("echo h''i\r");
    if (!QTest::qWaitFor([&] { return printed.contains("hi\r\n"); }, 10000))
        return false;
    channel.detach();
    return QTest::qWaitFor([&] { return channel.state() == TerminalChannel::State::Idle; }, 5000);
}

} // namespace

class TestTraffic final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;
    std::unique_ptr<TrafficRecorder> m_recorder;
    std::unique_ptr<SandboxClient> m_client;

private Q_SLOTS:
    void initTestCase();
    void init();
    void contextExchangeIsRecordedAsItHappens();
    void apiKeyTicketAndSecretFieldsAreNeverRecorded();
    void jwtsAreNeverRecorded();
    void harHasWhatHar12Requires();
    void terminalOutputIsSummarisedPerSecond();
    void ringAndBodyBudgetAreBounded();
    void closedInspectorKeepsNoHeadersOrBodies();
    void fileTransfersAreCountedNeverBuffered();
    void largeListingIsRecordedWithItsWholeSize();
};

void TestTraffic::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestTraffic::init() {
    m_client.reset();
    m_recorder = std::make_unique<TrafficRecorder>();
    m_recorder->setKeepDetails(true);
    m_client = std::make_unique<SandboxClient>(Endpoint{m_server.url(), {}}, Credentials{});
    m_client->setTrafficRecorder(m_recorder.get(), u"Test box"_s);
}

void TestTraffic::contextExchangeIsRecordedAsItHappens() {
    bool pendingWhenAppended = false;
    connect(m_recorder.get(), &TrafficRecorder::appended, this,
            [&] { pendingWhenAppended = !m_recorder->at(m_recorder->size() - 1).finished; });
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(runJob(new GetContextJob(m_client.get())).ok());
    QCOMPARE(m_recorder->size(), 1);
    QVERIFY2(pendingWhenAppended, "the exchange was listed only once it had ended");
    const TrafficEntry &e = m_recorder->at(0);
    QCOMPARE(e.kind, TrafficKind::Http);
    QCOMPARE(e.sandbox, u"Test box"_s);
    QCOMPARE(e.method, QByteArray("GET"));
    QCOMPARE(e.path, u"/v1/sandbox"_s);
    QCOMPARE(e.url, m_server.url(u"/v1/sandbox"_s).toString());
    QVERIFY(e.finished);
    QCOMPARE(e.status, 200);
    QCOMPARE(e.statusText, QByteArray("OK"));
    QVERIFY(e.error.isEmpty());
    QVERIFY(e.elapsedMs >= 0 && e.waitMs >= 0 && e.waitMs <= e.elapsedMs);
    QVERIFY(e.started.toMSecsSinceEpoch() >= before - 5);
    QVERIFY(e.detailsKept);
    QVERIFY(e.response.mimeType.contains("json"));
    QVERIFY(e.response.size > 0);
    QVERIFY(e.response.complete());
    QVERIFY(e.response.kept.contains("\"arch\""));
    bool userAgent = false, contentType = false;
    for (const auto &[name, value] : e.requestHeaders)
        userAgent |= name == "User-Agent" && value.startsWith("SandboxConsole/");
    for (const auto &[name, value] : e.responseHeaders)
        contentType |= name.compare("Content-Type", Qt::CaseInsensitive) == 0;
    QVERIFY(userAgent && contentType);

    // A refused connection is an entry that failed, with Status's words and no HTTP status.
    SandboxClient nowhere({QUrl(u"http://127.0.0.1:1"_s), {}}, {});
    nowhere.setTrafficRecorder(m_recorder.get(), u"Nowhere"_s);
    QVERIFY(!runJob(new GetContextJob(&nowhere)).ok());
    const TrafficEntry &failed = m_recorder->at(m_recorder->size() - 1);
    QVERIFY(failed.failed());
    QCOMPARE(failed.sandbox, u"Nowhere"_s);
    QVERIFY(!failed.error.isEmpty());
    QCOMPARE(m_recorder->sandboxes(), (QStringList{u"Test box"_s, u"Nowhere"_s}));
}

void TestTraffic::apiKeyTicketAndSecretFieldsAreNeverRecorded() {
    const QString key = u"inspector-api-key-6d2f19"_s;
    const QByteArray envSecret = "sk-env-value-0c4e77";
    const QByteArray commandSecret = "tok-in-command-5a1b";
    const QString wrongKey = u"wrong-key-ffee0099"_s;
    TestServer secured;
    QVERIFY2(secured.start(TestServer::withApiKey(key)), qPrintable(secured.error()));
    SandboxClient client({secured.url(), {}}, {Credentials::Kind::ApiKey, key});
    client.setTrafficRecorder(m_recorder.get(), u"Secured"_s);

    QVERIFY(runJob(new GetContextJob(&client)).ok());
    Ticket ticket;
    QVERIFY(runJob(new MintTicketJob(&client), &ticket).ok());
    QVERIFY(ticket.ticket.size() >= 8);
    // A command with a secret in its environment and in its text, whose output prints both.
    BashExecRequest exec;
    exec.command = u"export GITHUB_TOKEN=%1; echo \"$OPENAI_API_KEY $GITHUB_TOKEN\""_s.arg(
        QString::fromLatin1(commandSecret));
    exec.environment.insert(u"OPENAI_API_KEY"_s, QString::fromLatin1(envSecret));
    exec.asyncMode = false;
    BashCommandState state;
    QVERIFY(runJob(new BashExecJob(&client, exec), &state).ok());
    BashOutputChunk chunk;
    QVERIFY(
        runJob(new BashOutputJob(&client, state.sessionId, state.commandId, 0, 0, 2), &chunk).ok());
    QVERIFY2(chunk.stdoutBytes.contains(envSecret), chunk.stdoutBytes.constData());
    QVERIFY(openTerminal(&client, false));
    QVERIFY(openTerminal(&client, true));
    SandboxClient wrong({secured.url(), {}}, {Credentials::Kind::ApiKey, wrongKey});
    wrong.setTrafficRecorder(m_recorder.get(), u"Wrong"_s);
    QCOMPARE(runJob(new GetContextJob(&wrong)).kind, Status::Kind::Auth);

    const QByteArray all = everything(*m_recorder);
    for (const QByteArray &secret :
         {key.toUtf8(), ticket.ticket.toUtf8(), envSecret, commandSecret, wrongKey.toUtf8()})
        QVERIFY2(!all.contains(secret), secret.constData());
    QVERIFY(all.contains(Redaction::mask()));

    const TrafficEntry *context = lastWithPath(*m_recorder, u"/v1/sandbox"_s);
    QVERIFY(context);
    const QString curl = curlCommand(*context);
    QVERIFY2(curl.contains(u"-H \"X-AIO-API-Key: $SANDBOX_API_KEY\""_s), qPrintable(curl));
    // Every ticket the terminal minted is masked in the reply and in the socket's URL.
    int tickets = 0, ticketSockets = 0;
    for (const TrafficEntry &e : entriesOf(*m_recorder)) {
        if (e.path == u"/tickets"_s && e.status == 200) {
            ++tickets;
            QVERIFY2(
                e.response.kept.contains(QByteArray("\"ticket\":\"" + Redaction::mask() + '"')),
                e.response.kept.constData());
        }
        if (e.kind == TrafficKind::Socket && e.auth == TrafficAuth::TicketQuery) {
            ++ticketSockets;
            QVERIFY2(e.url.contains(u"ticket="_s + Redaction::maskText()), qPrintable(e.url));
            QVERIFY(curlCommand(e).contains(u"ticket=$SANDBOX_TICKET"_s));
        }
    }
    QCOMPARE(tickets, 2);
    QCOMPARE(ticketSockets, 1);
}

void TestTraffic::jwtsAreNeverRecorded() {
    const TestRsaKey rsa = generateRsaKey();
    TestServer server;
    TestServer::Options options;
    options.set(u"JWT_PUBLIC_KEY"_s, QString::fromLatin1(rsa.publicPemBase64()));
    QVERIFY2(server.start(options), qPrintable(server.error()));
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QByteArray token = makeJwt(rsa, {{u"exp"_s, double(now + 3600)}});
    SandboxClient withToken({server.url(), {}},
                            {Credentials::Kind::Jwt, QString::fromLatin1(token)});
    withToken.setTrafficRecorder(m_recorder.get(), u"Token"_s);
    SandboxClient signing({server.url(), {}},
                          {Credentials::Kind::SignedJwt, QString::fromLatin1(rsa.privatePem)});
    signing.setTrafficRecorder(m_recorder.get(), u"Signed"_s);
    QVERIFY(runJob(new GetContextJob(&withToken)).ok());
    QVERIFY(runJob(new GetContextJob(&signing)).ok());
    QVERIFY(openTerminal(&withToken, false));
    QVERIFY(openTerminal(&signing, true));

    const QByteArray all = everything(*m_recorder);
    QVERIFY(!all.contains(token));
    for (const QByteArray &line : pemBodyLines(rsa.privatePem))
        QVERIFY(!all.contains(line));
    // The token the console signed itself is a JWT too: no JWT-shaped text is anywhere.
    QVERIFY2(!all.contains("eyJ"), all.constData());
    const TrafficEntry *context = lastWithPath(*m_recorder, u"/v1/sandbox"_s);
    QVERIFY(context);
    QCOMPARE(context->auth, TrafficAuth::Bearer);
    QVERIFY2(curlCommand(*context).contains(u"-H \"Authorization: Bearer $SANDBOX_JWT\""_s),
             qPrintable(curlCommand(*context)));
}

void TestTraffic::harHasWhatHar12Requires() {
    QVERIFY(runJob(new GetContextJob(m_client.get())).ok());
    QVERIFY(runJob(new WriteFileJob(m_client.get(), m_server.workspace() + u"/har.txt"_s,
                                    "some text", false))
                .ok());
    QVERIFY(openTerminal(m_client.get(), false));
    QJsonParseError error;
    const QJsonDocument doc =
        QJsonDocument::fromJson(harDocument(entriesOf(*m_recorder), u"1.0"_s), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonObject log = doc.object().value(u"log"_s).toObject();
    QCOMPARE(log.value(u"version"_s).toString(), u"1.2"_s);
    QVERIFY(!log.value(u"creator"_s).toObject().value(u"name"_s).toString().isEmpty());
    QVERIFY(log.value(u"creator"_s).toObject().value(u"version"_s).isString());
    const QJsonArray entries = log.value(u"entries"_s).toArray();
    QVERIFY(entries.size() >= 3);
    bool post = false, socket = false;
    for (const QJsonValue &value : entries) {
        const QJsonObject e = value.toObject();
        QVERIFY(QDateTime::fromString(e.value(u"startedDateTime"_s).toString(), Qt::ISODateWithMs)
                    .isValid());
        QVERIFY(e.value(u"time"_s).isDouble());
        QVERIFY(e.value(u"cache"_s).isObject());
        const QJsonObject t = e.value(u"timings"_s).toObject();
        for (const QString &k : {u"send"_s, u"wait"_s, u"receive"_s})
            QVERIFY2(t.value(k).isDouble() && t.value(k).toDouble() >= 0, qPrintable(k));
        QCOMPARE(e.value(u"time"_s).toDouble(), t.value(u"send"_s).toDouble() +
                                                    t.value(u"wait"_s).toDouble() +
                                                    t.value(u"receive"_s).toDouble());
        const QJsonObject req = e.value(u"request"_s).toObject();
        for (const QString &k : {u"method"_s, u"url"_s, u"httpVersion"_s})
            QVERIFY2(req.value(k).isString(), qPrintable(k));
        for (const QString &k : {u"cookies"_s, u"headers"_s, u"queryString"_s})
            QVERIFY2(req.value(k).isArray(), qPrintable(k));
        QVERIFY(req.value(u"headersSize"_s).isDouble() && req.value(u"bodySize"_s).isDouble());
        const QJsonObject res = e.value(u"response"_s).toObject();
        QVERIFY(res.value(u"status"_s).isDouble());
        for (const QString &k : {u"statusText"_s, u"httpVersion"_s, u"redirectURL"_s})
            QVERIFY2(res.value(k).isString(), qPrintable(k));
        QVERIFY(res.value(u"cookies"_s).isArray() && res.value(u"headers"_s).isArray());
        const QJsonObject content = res.value(u"content"_s).toObject();
        QVERIFY(content.value(u"size"_s).isDouble() && content.value(u"mimeType"_s).isString());
        QVERIFY(res.value(u"headersSize"_s).isDouble() && res.value(u"bodySize"_s).isDouble());
        if (req.value(u"method"_s).toString() == u"POST"_s) {
            post = true;
            const QJsonObject data = req.value(u"postData"_s).toObject();
            QVERIFY(data.value(u"mimeType"_s).toString().contains(u"json"_s));
            QVERIFY(data.value(u"text"_s).toString().contains(u"some text"_s));
        }
        if (e.contains(u"_webSocketMessages"_s)) {
            socket = true;
            QCOMPARE(res.value(u"status"_s).toInt(), 101);
            QVERIFY(!e.value(u"_webSocketMessages"_s).toArray().isEmpty());
        }
    }
    QVERIFY(post && socket);
}

void TestTraffic::terminalOutputIsSummarisedPerSecond() {
    TerminalChannel channel(m_client.get());
    int outputFrames = 0;
    QByteArray printed;
    connect(&channel, &TerminalChannel::output, this, [&](const QByteArray &bytes) {
        ++outputFrames;
        printed += bytes;
    });
    channel.open();
    QTRY_COMPARE_WITH_TIMEOUT(channel.state(), TerminalChannel::State::Live, 10000);
    channel.resize(120, 40);
    // Output spread over about three seconds, in many frames.
    QVERIFY(channel.sendInput("for i in $(seq 1 30); do echo line-$i; sleep 0.1; done\r"));
    QTRY_VERIFY_WITH_TIMEOUT(printed.contains("line-30"), 20000);
    channel.detach();
    QTRY_COMPARE_WITH_TIMEOUT(channel.state(), TerminalChannel::State::Idle, 5000);

    int summaries = 0, summarised = 0;
    qint64 lastStart = -1;
    bool sessionId = false, resize = false, input = false;
    for (const TrafficEntry &e : entriesOf(*m_recorder)) {
        if (e.kind == TrafficKind::SocketFrames && e.direction == TrafficDirection::Received) {
            QCOMPARE(e.messageType, QByteArray("output"));
            QVERIFY(e.finished); // the socket's close ends its summaries
            QVERIFY(e.response.kept.isEmpty());
            ++summaries;
            summarised += e.frames;
            // One summary per second: each starts at least a second after the one before.
            if (lastStart >= 0)
                QVERIFY(e.startNs - lastStart >= 1'000'000'000);
            lastStart = e.startNs;
        }
        input |= e.kind == TrafficKind::SocketFrames && e.direction == TrafficDirection::Sent &&
                 e.messageType == "input";
        sessionId |= e.kind == TrafficKind::SocketMessage && e.messageType == "session_id" &&
                     e.response.kept.contains("session_id");
        resize |= e.kind == TrafficKind::SocketMessage && e.messageType == "resize" &&
                  e.request.kept.contains("\"cols\":120");
    }
    QCOMPARE(summarised, outputFrames);
    QVERIFY2(outputFrames > summaries && summaries >= 2,
             qPrintable(u"%1 frames in %2 summaries"_s.arg(outputFrames).arg(summaries)));
    QVERIFY(sessionId && resize && input);
    const TrafficEntry *socket = lastWithPath(*m_recorder, u"/v1/shell/ws"_s, TrafficKind::Socket);
    QVERIFY(socket);
    QCOMPARE(socket->status, 101);
}

void TestTraffic::ringAndBodyBudgetAreBounded() {
    TrafficRecorder::Limits limits;
    limits.maxEntries = 40;
    m_recorder->setLimits(limits);
    for (int i = 0; i < limits.maxEntries + 100; ++i)
        QVERIFY(runJob(new GetContextJob(m_client.get())).ok());
    QCOMPARE(m_recorder->size(), limits.maxEntries);
    QCOMPARE(m_recorder->at(0).serial, quint64(101));
    QCOMPARE(m_recorder->at(limits.maxEntries - 1).serial, quint64(limits.maxEntries + 100));

    // Bodies: each kept to its bound, all of them within the budget, the newest kept.
    const QString file = m_server.workspace() + u"/big.txt"_s;
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray(20000, 'x'));
    out.close();
    limits.maxEntries = 1000;
    limits.bodyBound = 4096;
    limits.detailBudget = 48 * 1024;
    m_recorder->setLimits(limits);
    for (int i = 0; i < 30; ++i) {
        QVERIFY(runJob(new ReadFileJob(m_client.get(), file)).ok());
        QVERIFY(m_recorder->detailBytes() <= limits.detailBudget);
    }
    const TrafficEntry &newest = m_recorder->at(m_recorder->size() - 1);
    QVERIFY(newest.detailsKept);
    QCOMPARE(newest.response.kept.size(), limits.bodyBound);
    QVERIFY(newest.response.size > 20000);
    QVERIFY(!m_recorder->at(m_recorder->size() - 30).detailsKept);
    QVERIFY(m_recorder->at(m_recorder->size() - 30).response.size > 20000);
}

void TestTraffic::closedInspectorKeepsNoHeadersOrBodies() {
    QVERIFY(runJob(new GetContextJob(m_client.get())).ok());
    QVERIFY(m_recorder->at(0).detailsKept);
    QVERIFY(m_recorder->detailBytes() > 0);
    QSignalSpy dropped(m_recorder.get(), &TrafficRecorder::detailsDropped);
    m_recorder->setKeepDetails(false); // the dock was closed
    QCOMPARE(dropped.size(), 1);
    QCOMPARE(m_recorder->detailBytes(), 0);
    QVERIFY(runJob(new WriteFileJob(m_client.get(), m_server.workspace() + u"/closed.txt"_s,
                                    "written while closed", false))
                .ok());
    QVERIFY(runJob(new GetContextJob(m_client.get())).ok());
    QVERIFY(openTerminal(m_client.get(), false));
    QCOMPARE(m_recorder->detailBytes(), 0);
    for (const TrafficEntry &e : entriesOf(*m_recorder)) {
        QVERIFY(!e.detailsKept);
        QVERIFY(e.requestHeaders.isEmpty() && e.responseHeaders.isEmpty());
        QVERIFY(e.request.kept.isEmpty() && e.response.kept.isEmpty());
    }
    // The metadata stays: what, where, the outcome and the sizes.
    const TrafficEntry *write = lastWithPath(*m_recorder, u"/v1/file/write"_s);
    QVERIFY(write);
    QCOMPARE(write->status, 200);
    QVERIFY(write->request.size > 0 && write->response.size > 0);
    QVERIFY(curlCommand(*write).contains(u"--data-binary @request-body.bin"_s));
}

void TestTraffic::fileTransfersAreCountedNeverBuffered() {
    QTemporaryDir local;
    const QByteArray bytes(3 * 1024 * 1024 + 17, 'd');
    QFile source(local.filePath(u"up.bin"_s));
    QVERIFY(source.open(QIODevice::WriteOnly));
    source.write(bytes);
    source.close();
    const QString remote = m_server.workspace() + u"/up.bin"_s;
    QVERIFY(runJob(new UploadJob(m_client.get(), source.fileName(), remote)).ok());
    QVERIFY(runJob(new DownloadJob(m_client.get(), remote, local.filePath(u"down.bin"_s))).ok());
    const TrafficEntry *up = lastWithPath(*m_recorder, u"/v1/file/upload"_s);
    const TrafficEntry *down = lastWithPath(*m_recorder, u"/v1/file/download"_s);
    QVERIFY(up && down);
    QVERIFY(up->request.streamed && up->request.kept.isEmpty());
    QVERIFY2(up->request.size > bytes.size(), qPrintable(QString::number(up->request.size)));
    QVERIFY(up->response.complete() && !up->response.kept.isEmpty());
    QVERIFY(down->response.streamed && down->response.kept.isEmpty());
    QCOMPARE(down->response.size, qint64(bytes.size()));
    QVERIFY(down->detailsKept && !down->responseHeaders.isEmpty());
}

// A listing's answer is read by libcurl straight into the parser (DirectExchange): the inspector
// still sees the exchange, with the answer's whole size and its first bytes to the bound.
void TestTraffic::largeListingIsRecordedWithItsWholeSize() {
    const QString folder = m_server.workspace() + u"/listed"_s;
    QVERIFY(QDir().mkpath(folder));
    for (int i = 0; i < 3000; ++i)
        QVERIFY(QFile(folder + u"/file-%1.txt"_s.arg(i)).open(QIODevice::WriteOnly));
    TrafficRecorder::Limits limits = m_recorder->limits();
    limits.bodyBound = 4096;
    m_recorder->setLimits(limits);
    m_client->setCompression(false); // so that the size recorded is the text's
    auto *list = new ListFilesJob(m_client.get(), folder);
    qsizetype rows = -1;
    connect(list, &ListFilesJob::succeeded, this,
            [&rows](const QList<RemoteFileInfo> &files) { rows = files.size(); });
    QVERIFY(runJob(list).ok());
    QCOMPARE(rows, 3000);
    const TrafficEntry *e = lastWithPath(*m_recorder, u"/v1/file/list"_s);
    QVERIFY(e);
    QVERIFY(e->finished);
    QCOMPARE(e->status, 200);
    QVERIFY(e->error.isEmpty());
    QVERIFY(!e->response.streamed);
    QCOMPARE(e->response.covered, qint64(limits.bodyBound)); // a part of it, and it says so
    QVERIFY2(e->response.size > 3000 * 100, qPrintable(QString::number(e->response.size)));
    QCOMPARE(e->response.kept.size(), limits.bodyBound);
    QVERIFY(e->response.kept.startsWith("{"));
    QVERIFY(e->response.kept.contains("file-"));
    QVERIFY(!e->responseHeaders.isEmpty());
}

QTEST_GUILESS_MAIN(TestTraffic)
#include "tst_traffic.moc"
