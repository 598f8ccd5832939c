// POST /v1/shell/exec and /v1/shell/view as server-sent events (Accept: text/event-stream,
// AIO section 14.1) on a real sandbox-server: frames read as they arrive through
// QNetworkReply, the end frame, exit codes through view afterwards, keepalives, the plain JSON
// refusal of a busy session, readers that vanish, HTTP/1.0 and a server stop.
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTcpSocket>
#include <QTest>

#include <memory>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

constexpr int kStreamTimeoutMs = 30000;

struct SseFrame {
    bool comment = false;
    QByteArray text;    // the comment, or the data lines joined by '\n'
    QJsonObject data;   // data parsed as JSON
    bool named = false; // had an event: or id: line
    qint64 atMs = 0;    // since the request was sent
    int read = 0;       // the readyRead it completed in (1-based)
};

// One POST read incrementally: frames are split off as each readyRead brings bytes.
class SseStream final {
public:
    SseStream(QNetworkAccessManager &manager, const QUrl &url, const QJsonObject &body,
              bool eventStream = true) {
        QNetworkRequest request(url);
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
        if (eventStream)
            request.setRawHeader("Accept", "text/event-stream");
        m_clock.start();
        m_reply.reset(manager.post(request, QJsonDocument(body).toJson(QJsonDocument::Compact)));
        QObject::connect(m_reply.get(), &QNetworkReply::readyRead, [this] { onReadyRead(); });
        QObject::connect(m_reply.get(), &QNetworkReply::finished, [this] {
            onReadyRead();
            m_finished = true;
        });
    }

    bool waitFinished(int timeoutMs = kStreamTimeoutMs) {
        return QTest::qWaitFor([this] { return m_finished; }, timeoutMs);
    }
    bool waitForFrames(qsizetype count, int timeoutMs = kStreamTimeoutMs) {
        return QTest::qWaitFor([&] { return m_frames.size() >= count || m_finished; }, timeoutMs) &&
               m_frames.size() >= count;
    }
    // The first data frame with key, or nullptr.
    const SseFrame *firstWith(const QString &key) const {
        for (const SseFrame &frame : m_frames) {
            if (!frame.comment && frame.data.contains(key))
                return &frame;
        }
        return nullptr;
    }
    QString output() const {
        QString text;
        for (const SseFrame &frame : m_frames)
            text += frame.data.value(u"output"_s).toString();
        return text;
    }
    qsizetype count(const QString &key) const {
        qsizetype n = 0;
        for (const SseFrame &frame : m_frames)
            n += !frame.comment && frame.data.contains(key) ? 1 : 0;
        return n;
    }

    QNetworkReply &reply() { return *m_reply; }
    const QList<SseFrame> &frames() const { return m_frames; }
    const QByteArray &body() const { return m_body; }
    bool finished() const { return m_finished; }
    QByteArray header(const QByteArray &name) const { return m_reply->rawHeader(name); }
    int status() const {
        return m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    }

private:
    void onReadyRead() {
        // An aborted reply is closed: nothing more to read.
        if (!m_reply->isOpen())
            return;
        const QByteArray bytes = m_reply->readAll();
        if (bytes.isEmpty())
            return;
        ++m_reads;
        m_body += bytes;
        m_pending += bytes;
        qsizetype end = 0;
        while ((end = m_pending.indexOf("\n\n")) >= 0) {
            const QByteArray block = m_pending.left(end);
            m_pending.remove(0, end + 2);
            SseFrame frame;
            frame.atMs = m_clock.elapsed();
            frame.read = m_reads;
            QList<QByteArray> data;
            bool comment = true;
            for (const QByteArray &line : block.split('\n')) {
                if (line.startsWith(':')) {
                    frame.text = line.mid(1).trimmed();
                    continue;
                }
                comment = false;
                if (line.startsWith("data:"))
                    data.append(line.mid(line.startsWith("data: ") ? 6 : 5));
                else
                    frame.named = true;
            }
            frame.comment = comment;
            if (!comment) {
                frame.text = data.join('\n');
                frame.data = QJsonDocument::fromJson(frame.text).object();
            }
            m_frames.append(frame);
        }
    }

    std::unique_ptr<QNetworkReply> m_reply;
    QElapsedTimer m_clock;
    QByteArray m_body;
    QByteArray m_pending;
    QList<SseFrame> m_frames;
    int m_reads = 0;
    bool m_finished = false;
};

// The server's end of the loopback connection to clientPort is still open: ESTABLISHED, or
// CLOSE_WAIT (the client closed, the server has not noticed yet).
bool serverEndOpen(quint16 serverPort, quint16 clientPort) {
    QFile table(u"/proc/net/tcp"_s);
    if (!table.open(QIODevice::ReadOnly))
        return false;
    const QByteArray local =
        ':' + QByteArray::number(serverPort, 16).toUpper().rightJustified(4, '0');
    const QByteArray remote =
        ':' + QByteArray::number(clientPort, 16).toUpper().rightJustified(4, '0');
    for (const QByteArray &line : table.readAll().split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 4)
            continue;
        if (fields[1].endsWith(local) && fields[2].endsWith(remote) &&
            (fields[3] == "01" || fields[3] == "08"))
            return true;
    }
    return false;
}

} // namespace

class TestServerShellSse final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void execStreamsOutputAsItArrives();
    void failingCommandEndsAndViewShowsItsExitCode();
    void plainRequestsStillAnswerJson();
    void viewStreamsKeepalivesUntilTheEnd();
    void viewOfAnIdleSessionEndsAtOnce();
    void busySessionAnswersPlainJson();
    void refusalsArePlainJson();
    void readerThatVanishesLeavesTheServerServing();
    void silentStreamNoticesAClosedReader();
    void http10StreamEndsWithTheConnection();
    void serverStopEndsOpenStreams();

private:
    HttpResult post(const QString &path, const QJsonObject &body) {
        return request("POST", m_server.url(path), {{"Content-Type", "application/json"}},
                       QJsonDocument(body).toJson(QJsonDocument::Compact), 60000);
    }
    QJsonObject data(const HttpResult &result) { return result.json().value(u"data"_s).toObject(); }
    QString newSession() {
        return data(post(u"/v1/shell/sessions/create"_s, {})).value(u"session_id"_s).toString();
    }
    QJsonObject view(const QString &id) { return data(post(u"/v1/shell/view"_s, {{u"id"_s, id}})); }

    TestServer m_server;
    QNetworkAccessManager m_manager;
};

void TestServerShellSse::initTestCase() {
    // A short keepalive interval keeps the view test fast.
    QVERIFY2(m_server.start(TestServer::Options().set(u"SBX_SSE_KEEPALIVE_MS"_s, u"150"_s)),
             qPrintable(m_server.error()));
}

void TestServerShellSse::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerShellSse::execStreamsOutputAsItArrives() {
    const QString id = newSession();
    QVERIFY(!id.isEmpty());
    SseStream stream(m_manager, m_server.url(u"/v1/shell/exec"_s),
                     {{u"id"_s, id},
                      {u"command"_s, u"for i in 1 2 3; do echo tick$i; sleep 0.2; done"_s},
                      {u"async_mode"_s, true}});
    QVERIFY(stream.waitFinished());
    QCOMPARE(stream.reply().error(), QNetworkReply::NoError);
    QCOMPARE(stream.status(), 200);
    QVERIFY2(stream.header("Content-Type") == "text/event-stream", stream.body().constData());
    QCOMPARE(stream.header("Cache-Control"), QByteArrayLiteral("no-cache"));
    QCOMPARE(stream.header("X-Accel-Buffering"), QByteArrayLiteral("no"));
    QVERIFY2(stream.body().startsWith(": connected\n\n"), stream.body().constData());

    const QList<SseFrame> &frames = stream.frames();
    QVERIFY(frames.size() >= 3);
    QVERIFY(frames.first().comment);
    QCOMPARE(frames.first().text, QByteArrayLiteral("connected"));
    for (const SseFrame &frame : frames)
        QVERIFY2(!frame.named, "frames carry no event: or id: line");
    // Everything after the comment is JSON data, the end frame last.
    for (qsizetype i = 1; i < frames.size(); ++i)
        QVERIFY2(!frames[i].comment && !frames[i].data.isEmpty(), frames[i].text.constData());
    const QJsonObject end = frames.last().data;
    QCOMPARE(end.value(u"end"_s), QJsonValue(true));
    QCOMPARE(end.value(u"message"_s).toString(), u"No more output"_s);
    QCOMPARE(stream.count(u"end"_s), 1);

    QCOMPARE(stream.output().remove(u'\r').trimmed(), u"tick1\ntick2\ntick3"_s);
    // The output came in pieces while the command ran: tick1 in a frame of its own, read
    // before the command printed tick3, well ahead of the end (two 0.2 s sleeps later).
    QVERIFY(stream.count(u"output"_s) >= 2);
    const SseFrame *first = stream.firstWith(u"output"_s);
    QVERIFY(first);
    const QString firstOutput = first->data.value(u"output"_s).toString();
    QVERIFY2(firstOutput.contains(u"tick1"_s), qPrintable(firstOutput));
    QVERIFY2(!firstOutput.contains(u"tick3"_s), qPrintable(firstOutput));
    QVERIFY(first->read < frames.last().read);
    QVERIFY2(frames.last().atMs - first->atMs >= 250,
             qPrintable(QString::number(frames.last().atMs - first->atMs)));

    // No exit code in the stream: view has it.
    const QJsonObject after = view(id);
    QCOMPARE(after.value(u"status"_s).toString(), u"completed"_s);
    QCOMPARE(after.value(u"exit_code"_s).toInt(-1), 0);
    QCOMPARE(after.value(u"output"_s).toString(), u"tick1\ntick2\ntick3"_s);
}

void TestServerShellSse::failingCommandEndsAndViewShowsItsExitCode() {
    const QString id = newSession();
    SseStream stream(m_manager, m_server.url(u"/v1/shell/exec"_s),
                     {{u"id"_s, id}, {u"command"_s, u"echo failing; sh -c 'exit 7'"_s}});
    QVERIFY(stream.waitFinished());
    QCOMPARE(stream.reply().error(), QNetworkReply::NoError);
    QVERIFY(!stream.frames().isEmpty());
    QCOMPARE(stream.frames().last().data.value(u"end"_s), QJsonValue(true));
    QVERIFY(stream.output().contains(u"failing"_s));
    const QJsonObject after = view(id);
    QCOMPARE(after.value(u"status"_s).toString(), u"completed"_s);
    QCOMPARE(after.value(u"exit_code"_s).toInt(-1), 7);
}

void TestServerShellSse::plainRequestsStillAnswerJson() {
    const QString id = newSession();
    for (const QByteArray &accept : {QByteArray(), QByteArrayLiteral("application/json")}) {
        HeaderPairs headers{{"Content-Type", "application/json"}};
        if (!accept.isEmpty())
            headers.append({"Accept", accept});
        const HttpResult exec =
            request("POST", m_server.url(u"/v1/shell/exec"_s), headers,
                    QJsonDocument(QJsonObject{{u"id"_s, id}, {u"command"_s, u"echo plain-json"_s}})
                        .toJson(QJsonDocument::Compact),
                    60000);
        QCOMPARE(exec.status, 200);
        QVERIFY(exec.header("Content-Type").startsWith("application/json"));
        QCOMPARE(data(exec).value(u"status"_s).toString(), u"completed"_s);
        QCOMPARE(data(exec).value(u"output"_s).toString(), u"plain-json"_s);
        QCOMPARE(data(exec).value(u"exit_code"_s).toInt(-1), 0);
        const HttpResult viewed =
            request("POST", m_server.url(u"/v1/shell/view"_s), headers,
                    QJsonDocument(QJsonObject{{u"id"_s, id}}).toJson(QJsonDocument::Compact));
        QVERIFY(viewed.header("Content-Type").startsWith("application/json"));
        QCOMPARE(data(viewed).value(u"output"_s).toString(), u"plain-json"_s);
    }
}

void TestServerShellSse::viewStreamsKeepalivesUntilTheEnd() {
    const QString id = newSession();
    // Waits for a file the test creates, so the command outlives the first keepalives.
    const QString flag = m_server.workspace() + u"/view-go"_s;
    const QJsonObject started = data(post(
        u"/v1/shell/exec"_s,
        {{u"id"_s, id},
         {u"command"_s,
          u"echo view-start; while [ ! -e '%1' ]; do sleep 0.05; done; echo view-done"_s.arg(flag)},
         {u"async_mode"_s, true}}));
    QCOMPARE(started.value(u"status"_s).toString(), u"running"_s);
    SseStream stream(m_manager, m_server.url(u"/v1/shell/view"_s), {{u"id"_s, id}});
    QVERIFY(QTest::qWaitFor([&] { return stream.count(u"keepalive"_s) >= 2 || stream.finished(); },
                            kStreamTimeoutMs));
    QVERIFY(!stream.finished());
    QCOMPARE(stream.header("Content-Type"), QByteArrayLiteral("text/event-stream"));
    QVERIFY(stream.frames().first().comment);
    QCOMPARE(stream.firstWith(u"keepalive"_s)->data.value(u"keepalive"_s), QJsonValue(true));
    // The view starts with what the command printed before the stream opened.
    QTRY_VERIFY_WITH_TIMEOUT(stream.output().contains(u"view-start"_s), kStreamTimeoutMs);
    QVERIFY(!stream.output().contains(u"view-done"_s));
    QFile go(flag);
    QVERIFY(go.open(QIODevice::WriteOnly));
    go.close();
    QVERIFY(stream.waitFinished());
    QCOMPARE(stream.reply().error(), QNetworkReply::NoError);
    QCOMPARE(stream.output().remove(u'\r').trimmed(), u"view-start\nview-done"_s);
    QCOMPARE(stream.frames().last().data.value(u"end"_s), QJsonValue(true));
    QCOMPARE(view(id).value(u"exit_code"_s).toInt(-1), 0);
}

void TestServerShellSse::viewOfAnIdleSessionEndsAtOnce() {
    const QString id = newSession();
    QCOMPARE(data(post(u"/v1/shell/exec"_s, {{u"id"_s, id}, {u"command"_s, u"echo was-here"_s}}))
                 .value(u"status"_s)
                 .toString(),
             u"completed"_s);
    SseStream stream(m_manager, m_server.url(u"/v1/shell/view"_s), {{u"id"_s, id}});
    QVERIFY(stream.waitFinished());
    QCOMPARE(stream.reply().error(), QNetworkReply::NoError);
    QCOMPARE(stream.output().remove(u'\r').trimmed(), u"was-here"_s);
    QCOMPARE(stream.frames().last().data.value(u"end"_s), QJsonValue(true));
    QCOMPARE(stream.count(u"keepalive"_s), 0);
}

void TestServerShellSse::busySessionAnswersPlainJson() {
    const QString id = newSession();
    const QJsonObject started =
        data(post(u"/v1/shell/exec"_s,
                  {{u"id"_s, id}, {u"command"_s, u"sleep 60"_s}, {u"async_mode"_s, true}}));
    QCOMPARE(started.value(u"status"_s).toString(), u"running"_s);
    SseStream refused(m_manager, m_server.url(u"/v1/shell/exec"_s),
                      {{u"id"_s, id}, {u"command"_s, u"echo typed-by-mistake"_s}});
    QVERIFY(refused.waitFinished());
    QCOMPARE(refused.status(), 200);
    QVERIFY(refused.header("Content-Type").startsWith("application/json"));
    const QJsonObject body = QJsonDocument::fromJson(refused.body()).object();
    QCOMPARE(body.value(u"success"_s), QJsonValue(false));
    QCOMPARE(body.value(u"data"_s).toObject().value(u"status"_s).toString(), u"running"_s);
    QCOMPARE(body.value(u"data"_s).toObject().value(u"session_id"_s).toString(), id);
    QVERIFY(body.value(u"message"_s).toString().startsWith(u"Not run"_s));
    const QJsonObject killed = data(post(u"/v1/shell/kill"_s, {{u"id"_s, id}}));
    QCOMPARE(killed.value(u"status"_s).toString(), u"terminated"_s);
    QVERIFY(!view(id).value(u"output"_s).toString().contains(u"typed-by-mistake"_s));
}

void TestServerShellSse::refusalsArePlainJson() {
    SseStream missing(m_manager, m_server.url(u"/v1/shell/view"_s), {{u"id"_s, u"no-such"_s}});
    QVERIFY(missing.waitFinished());
    QCOMPARE(missing.status(), 404);
    QVERIFY(isErrorEnvelope(missing.body()));
    SseStream invalid(m_manager, m_server.url(u"/v1/shell/exec"_s), {{u"id"_s, 5}});
    QVERIFY(invalid.waitFinished());
    QCOMPARE(invalid.status(), 422);
    QVERIFY(QJsonDocument::fromJson(invalid.body()).object().value(u"detail"_s).isArray());
}

void TestServerShellSse::readerThatVanishesLeavesTheServerServing() {
    const QString id = newSession();
    {
        SseStream stream(
            m_manager, m_server.url(u"/v1/shell/exec"_s),
            {{u"id"_s, id},
             {u"command"_s, u"for i in $(seq 1 100); do echo gone$i; sleep 0.1; done"_s}});
        QTRY_VERIFY_WITH_TIMEOUT(stream.output().contains(u"gone1"_s), kStreamTimeoutMs);
        stream.reply().abort();
    }
    // Other requests, plain and streamed, are served while the command still runs.
    const HttpResult sessions = request("GET", m_server.url(u"/v1/shell/sessions"_s));
    QCOMPARE(sessions.status, 200);
    QCOMPARE(data(sessions)
                 .value(u"sessions"_s)
                 .toObject()
                 .value(id)
                 .toObject()
                 .value(u"current_command"_s),
             QJsonValue(u"for i in $(seq 1 100); do echo gone$i; sleep 0.1; done"_s));
    SseStream other(m_manager, m_server.url(u"/v1/shell/exec"_s), {{u"command"_s, u"echo next"_s}});
    QVERIFY(other.waitFinished());
    QCOMPARE(other.reply().error(), QNetworkReply::NoError);
    QCOMPARE(other.output().trimmed(), u"next"_s);
    QCOMPARE(data(post(u"/v1/shell/kill"_s, {{u"id"_s, id}})).value(u"status"_s).toString(),
             u"terminated"_s);
}

void TestServerShellSse::silentStreamNoticesAClosedReader() {
    const QString id = newSession();
    const QByteArray body =
        QJsonDocument(QJsonObject{{u"id"_s, id}, {u"command"_s, u"echo quiet-start; sleep 60"_s}})
            .toJson(QJsonDocument::Compact);
    QTcpSocket socket;
    socket.connectToHost(u"127.0.0.1"_s, m_server.port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write("POST /v1/shell/exec HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
                 "Content-Type: application/json\r\nContent-Length: " +
                 QByteArray::number(body.size()) + "\r\n\r\n" + body);
    QByteArray received;
    QVERIFY(QTest::qWaitFor(
        [&] {
            received += socket.readAll();
            return received.contains("quiet-start");
        },
        kStreamTimeoutMs));
    QVERIFY(received.contains("Transfer-Encoding: chunked"));
    const quint16 clientPort = socket.localPort();
    QVERIFY(serverEndOpen(m_server.port(), clientPort));
    // The command stays silent: only the writer's watch on the socket can see the close.
    socket.disconnectFromHost();
    QTRY_VERIFY_WITH_TIMEOUT(!serverEndOpen(m_server.port(), clientPort), 10000);
    QCOMPARE(data(post(u"/v1/shell/kill"_s, {{u"id"_s, id}})).value(u"status"_s).toString(),
             u"terminated"_s);
}

void TestServerShellSse::http10StreamEndsWithTheConnection() {
    const QString id = newSession();
    const QByteArray body =
        QJsonDocument(QJsonObject{{u"id"_s, id}}).toJson(QJsonDocument::Compact);
    bool closed = false;
    const QByteArray raw =
        rawExchange(m_server.port(),
                    "POST /v1/shell/view HTTP/1.0\r\nAccept: text/event-stream\r\n"
                    "Content-Type: application/json\r\nContent-Length: " +
                        QByteArray::number(body.size()) + "\r\n\r\n" + body,
                    false, 15000, &closed);
    QVERIFY(closed);
    QCOMPARE(rawStatus(raw), 200);
    const qsizetype headerEnd = raw.indexOf("\r\n\r\n");
    QVERIFY(headerEnd > 0);
    const QByteArray head = raw.left(headerEnd).toLower();
    QVERIFY(!head.contains("transfer-encoding"));
    QVERIFY(!head.contains("content-length"));
    QCOMPARE(raw.mid(headerEnd + 4),
             QByteArrayLiteral(
                 ": connected\n\ndata: {\"end\":true,\"message\":\"No more output\"}\n\n"));
}

void TestServerShellSse::serverStopEndsOpenStreams() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    QNetworkAccessManager manager;
    SseStream stream(manager, server.url(u"/v1/shell/exec"_s),
                     {{u"command"_s, u"echo before-stop; sleep 60"_s}});
    QTRY_VERIFY_WITH_TIMEOUT(stream.output().contains(u"before-stop"_s), kStreamTimeoutMs);
    QElapsedTimer clock;
    clock.start();
    server.terminate();
    QVERIFY(stream.waitFinished(10000));
    QCOMPARE(stream.frames().last().data.value(u"error"_s).toString(), u"Server stopping"_s);
    QCOMPARE(server.stop(), 0);
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
}

QTEST_GUILESS_MAIN(TestServerShellSse)
#include "tst_server_shell_sse.moc"
