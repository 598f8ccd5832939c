// The engine provider's pure parts and its behaviour without an engine: always run.
#include "client/providers/engine/engineapi.h"
#include "client/providers/engine/enginecontainers.h"
#include "client/providers/engine/enginelogs.h"
#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/secretstore.h"
#include "tests/support/localfiles.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalServer>
#include <QLocalSocket>
#include <QPointer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;

using namespace Qt::StringLiterals;

namespace {

QByteArray frame(int stream, const QByteArray &payload) {
    QByteArray out(8, '\0');
    out[0] = char(stream);
    qToBigEndian<quint32>(quint32(payload.size()), out.data() + 4);
    return out + payload;
}

// Joins what the decoder gives per stream, fed in the given chunks.
QPair<QByteArray, QByteArray> decode(const QList<QByteArray> &chunks) {
    LogFrameDecoder decoder;
    QPair<QByteArray, QByteArray> out;
    for (const QByteArray &chunk : chunks) {
        for (const LogPiece &piece : decoder.feed(chunk))
            (piece.stream == 2 ? out.second : out.first) += piece.bytes;
    }
    return out;
}

} // namespace

class TestEngineParsing final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void framesWhole();
    void framesSplitAtEveryPoint();
    void framesLargerThan64KiB();
    void framesMidFrame();
    void containerList();
    void stateMapping();
    void statusDetail();
    void containerDetails();
    void containerStats();
    void createBody();
    void pullErrors();
    void names();
    void stopGrace();
    void socketFromDockerHost();
    void noEngine();
    void logStreamOverSocket_data();
    void logStreamOverSocket();
    void logStreamDeletedWhileFollowing();
    void tooOldEngineIsNamed();
    void refusedSocket();
};

void TestEngineParsing::framesWhole() {
    const QByteArray stream = frame(1, "hello\n") + frame(2, "oops\n") + frame(1, "world\n");
    LogFrameDecoder decoder;
    const QList<LogPiece> pieces = decoder.feed(stream);
    QCOMPARE(pieces.size(), 3);
    QCOMPARE(pieces[0].stream, 1);
    QCOMPARE(pieces[0].bytes, QByteArray("hello\n"));
    QCOMPARE(pieces[1].stream, 2);
    QCOMPARE(pieces[1].bytes, QByteArray("oops\n"));
    QCOMPARE(pieces[2].bytes, QByteArray("world\n"));
    QVERIFY(!decoder.midFrame());
}

void TestEngineParsing::framesSplitAtEveryPoint() {
    const QByteArray stream =
        frame(1, "first line\n") + frame(2, "an error\n") + frame(1, {}) + frame(1, "last");
    for (qsizetype split = 0; split <= stream.size(); ++split) {
        const auto [out, err] = decode({stream.left(split), stream.mid(split)});
        QCOMPARE(out, QByteArray("first line\nlast"));
        QCOMPARE(err, QByteArray("an error\n"));
    }
    QList<QByteArray> bytes;
    for (const char c : stream)
        bytes.append(QByteArray(1, c));
    const auto [out, err] = decode(bytes);
    QCOMPARE(out, QByteArray("first line\nlast"));
    QCOMPARE(err, QByteArray("an error\n"));
}

void TestEngineParsing::framesLargerThan64KiB() {
    const QByteArray big(70000 + 3, 'x');
    const QByteArray stream = frame(2, big) + frame(1, "after");
    const auto [out, err] = decode({stream.left(5), stream.mid(5, 40000), stream.mid(40005)});
    QCOMPARE(err.size(), big.size());
    QCOMPARE(out, QByteArray("after"));
}

void TestEngineParsing::framesMidFrame() {
    LogFrameDecoder decoder;
    QVERIFY(decoder.feed(frame(1, "abc").left(4)).isEmpty());
    QVERIFY(decoder.midFrame());
    const QList<LogPiece> pieces = decoder.feed(frame(1, "abc").mid(4, 6));
    QCOMPARE(pieces.size(), 1);
    QCOMPARE(pieces[0].bytes, QByteArray("ab"));
    QVERIFY(decoder.midFrame());
}

void TestEngineParsing::containerList() {
    QString error;
    const QList<EngineContainer> list =
        parseSandboxContainers(fixture("engine/containers.json"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(list.size(), 4); // nginx is not a sandbox; a non-object row is skipped
    QCOMPARE(list[0].name, u"sbx-one"_s);
    QVERIFY(list[0].managed);
    QCOMPARE(list[0].hostPort, 40000);
    QCOMPARE(engineEntryId(list[0].id), u"engine:3f1c2a9b8d7e"_s);
    QCOMPARE(sandboxStateForContainer(list[0].state), SandboxState::Online);
    QCOMPARE(containerEndpoint(list[0].hostIp, list[0].hostPort).baseUrl,
             QUrl(u"http://127.0.0.1:40000/"_s));

    QCOMPARE(list[1].name, u"aio-by-hand"_s);
    QVERIFY(!list[1].managed);
    QCOMPARE(list[1].hostPort, 0);
    QCOMPARE(sandboxStateForContainer(list[1].state), SandboxState::Stopped);
    QVERIFY(!containerEndpoint(list[1].hostIp, list[1].hostPort).isValid());

    QCOMPARE(sandboxStateForContainer(list[2].state), SandboxState::Paused);
    // Published on every address: reached on loopback.
    QCOMPARE(containerEndpoint(list[2].hostIp, list[2].hostPort).baseUrl,
             QUrl(u"http://127.0.0.1:40002/"_s));
    QCOMPARE(sandboxStateForContainer(list[3].state), SandboxState::Starting);

    parseSandboxContainers("<html>", &error);
    QVERIFY(!error.isEmpty());
    error.clear();
    QVERIFY(parseSandboxContainers("[]", &error).isEmpty());
    QVERIFY(error.isEmpty());
}

void TestEngineParsing::stateMapping() {
    QCOMPARE(sandboxStateForContainer(u"created"_s), SandboxState::Stopped);
    QCOMPARE(sandboxStateForContainer(u"exited"_s), SandboxState::Stopped);
    QCOMPARE(sandboxStateForContainer(u"dead"_s), SandboxState::Stopped);
    QCOMPARE(sandboxStateForContainer(u"removing"_s), SandboxState::Stopping);
}

void TestEngineParsing::statusDetail() {
    QCOMPARE(containerStatusDetail(u"Exited (137) 2 seconds ago"_s), u"Exited (137)"_s);
    QCOMPARE(containerStatusDetail(u"Exited (0) About a minute ago"_s), u"Exited (0)"_s);
    QCOMPARE(containerStatusDetail(u"Up 3 minutes"_s), QString());
    QCOMPARE(containerStatusDetail(u"Up 5 minutes (Paused)"_s), QString());
    QCOMPARE(containerStatusDetail(u"Created"_s), u"Created, not started"_s);
}

void TestEngineParsing::containerStats() {
    // Docker fills precpu_stats: 0.5 s of CPU over 4 s of four CPUs' time is half a core. The
    // file cache counts out of memory, as `docker stats` shows it.
    ResourceFigures figures;
    ContainerCpuSample sample;
    QString error;
    QVERIFY(parseContainerStats(fixture("engine/stats-docker.json"), std::nullopt, &figures,
                                &sample, &error));
    QVERIFY(figures.cpuPct.has_value());
    QCOMPARE(qRound(*figures.cpuPct * 10), 500);
    QCOMPARE(figures.memBytes, qint64(314572800 - 10485760));
    QCOMPARE(figures.memLimitBytes.value_or(0), qint64(1) << 30);
    QCOMPARE(figures.processCount.value_or(0), 7);
    QCOMPARE(figures.at, QDateTime(QDate(2026, 12, 1), QTime(10, 0, 2), Qt::UTC));
    QCOMPARE(sample.cpuNs, qint64(2500000000));
    QCOMPARE(sample.onlineCpus, 4);

    // podman (as captured from podman 4.3) leaves precpu empty: no CPU figure from one reading,
    // then one from the change since the previous.
    const QByteArray podman = fixture("engine/stats-podman.json");
    QVERIFY(parseContainerStats(podman, std::nullopt, &figures, &sample, &error));
    QVERIFY(!figures.cpuPct.has_value());
    QCOMPARE(figures.memBytes, 561152);
    QCOMPARE(figures.processCount.value_or(0), 1);
    ContainerCpuSample earlier = sample;
    earlier.cpuNs -= 100'000'000;        // 0.1 s of the container's CPU
    earlier.systemNs -= 2'000'000'000LL; // in 1 s of two CPUs
    QVERIFY(parseContainerStats(podman, earlier, &figures, &sample, &error));
    QVERIFY(figures.cpuPct.has_value());
    QCOMPARE(qRound(*figures.cpuPct), 10);
    // A reading that is not newer gives no figure rather than a negative or infinite one.
    QVERIFY(parseContainerStats(podman, sample, &figures, &sample, &error));
    QVERIFY(!figures.cpuPct.has_value());

    QVERIFY(!parseContainerStats("<html>busy</html>", std::nullopt, &figures, &sample, &error));
    QVERIFY(error.contains(u"unreadable container stats"_s));
    QVERIFY(!parseContainerStats(R"({"message":"no such container"})", std::nullopt, &figures,
                                 &sample, &error));
}

void TestEngineParsing::containerDetails() {
    EngineContainerDetails details;
    QVERIFY(parseContainerDetails(fixture("engine/inspect.json"), &details, nullptr));
    QCOMPARE(details.apiKey, u"0123456789abcdef"_s);
    QVERIFY(!details.jwt);
    QVERIFY(!details.tty);
    QCOMPARE(details.hostPort, 40000);
    QString error;
    QVERIFY(!parseContainerDetails("[1]", &details, &error));
    QVERIFY(!error.isEmpty());
}

void TestEngineParsing::createBody() {
    SandboxCreateOptions options;
    options.image = u"localhost/img:1"_s;
    options.initHook = u"echo 'a b'"_s;
    const QJsonObject body =
        QJsonDocument::fromJson(containerCreateBody(options, u"k3y"_s)).object();
    QCOMPARE(body.value(u"Image").toString(), u"localhost/img:1"_s);
    const QJsonArray env = body.value(u"Env").toArray();
    QVERIFY(env.contains(u"SANDBOX_API_KEY=k3y"_s));
    QVERIFY(env.contains(u"RUN_HOOK_INIT=echo 'a b'"_s));
    QCOMPARE(env.size(), 2); // hooks left empty are not set
    QCOMPARE(body.value(u"Labels").toObject().value(u"io.sandbox-console.managed").toString(),
             u"true"_s);
    QVERIFY(body.value(u"ExposedPorts").toObject().contains(u"8080/tcp"));
    const QJsonObject binding = body.value(u"HostConfig")
                                    .toObject()
                                    .value(u"PortBindings")
                                    .toObject()
                                    .value(u"8080/tcp")
                                    .toArray()
                                    .first()
                                    .toObject();
    QCOMPARE(binding.value(u"HostIp").toString(), u"127.0.0.1"_s);
    QCOMPARE(binding.value(u"HostPort").toString(), QString());

    options.auth = SandboxCreateOptions::Auth::Jwt;
    const QJsonArray jwtEnv = QJsonDocument::fromJson(containerCreateBody(options, u"cGVt"_s))
                                  .object()
                                  .value(u"Env")
                                  .toArray();
    QVERIFY(jwtEnv.contains(u"JWT_PUBLIC_KEY=cGVt"_s));
}

void TestEngineParsing::pullErrors() {
    QCOMPARE(pullStreamError("{\"status\":\"Pulling from x\"}\r\n{\"status\":\"Done\"}\r\n"),
             QString());
    QCOMPARE(pullStreamError("{\"status\":\"Pulling\"}\n{\"errorDetail\":{\"message\":\"manifest "
                             "unknown\"},\"error\":\"manifest unknown\"}\n"),
             u"manifest unknown"_s);
    QCOMPARE(pullStreamError("{\"error\":\"denied\"}"), u"denied"_s);
    QCOMPARE(pullStreamError("garbage"), QString());
}

void TestEngineParsing::names() {
    QVERIFY(isValidContainerName(u"sbx-1.test_a"_s));
    QVERIFY(!isValidContainerName(u"-x"_s));
    QVERIFY(!isValidContainerName(u"a b"_s));
    QVERIFY(!isValidContainerName(u"a/b"_s));
    QVERIFY(!isValidContainerName(QString()));
}

void TestEngineParsing::stopGrace() {
    QCOMPARE(stopGraceSeconds({}), 10);
    QCOMPARE(stopGraceSeconds({{100, 10}}), 20);
    // One lane: parallel hooks last as long as the longest.
    QCOMPARE(stopGraceSeconds({{100, 10}, {100, 30}}), 40);
    // Lanes run one after another.
    QCOMPARE(stopGraceSeconds({{10, 5}, {100, 10}, {100, 2.5}, {200, 1}}), 5 + 10 + 1 + 10);
    QCOMPARE(stopGraceSeconds({{1, 2.2}}, 0), 3);
    // A hook with no usable timeout counts as AIO's default of 10 s.
    QCOMPARE(stopGraceSeconds({{1, 0}, {2, -3}}, 0), 20);
}

void TestEngineParsing::socketFromDockerHost() {
    const QByteArray saved = qgetenv("DOCKER_HOST");
    QTemporaryDir dir;
    const QString socket = dir.filePath(u"d.sock"_s);
    qputenv("DOCKER_HOST", "unix://" + socket.toUtf8());
    QCOMPARE(defaultEngineSocket(), socket);
    qputenv("DOCKER_HOST", "tcp://10.0.0.1:2375");
    QVERIFY(defaultEngineSocket() != socket);
    if (saved.isNull())
        qunsetenv("DOCKER_HOST");
    else
        qputenv("DOCKER_HOST", saved);
}

// No engine: the list stays empty, one status says why, and the GUI thread never blocks.
void TestEngineParsing::noEngine() {
    QTemporaryDir dir;
    const QString socket = dir.filePath(u"absent.sock"_s);
    MemorySecretStore secrets;
    EngineSandboxes provider(&secrets, socket);
    provider.setPollInterval(50);
    QSignalSpy status(&provider, &EngineSandboxes::statusChanged);
    QSignalSpy added(&provider, &SandboxProvider::sandboxAdded);
    QVERIFY(status.wait(5000));
    QVERIFY(!provider.isEngineReachable());
    QVERIFY2(provider.status().contains(socket), qPrintable(provider.status()));
    // Polls go on without repeating the status.
    QTest::qWait(500);
    QCOMPARE(status.size(), 1);
    QCOMPARE(added.size(), 0);
    QVERIFY(provider.sandboxes().isEmpty());

    QSignalSpy failed(&provider, &SandboxProvider::actionFailed);
    SandboxCreateOptions options;
    options.image = u"img"_s;
    options.name = u"bad name"_s;
    provider.create(options);
    QCOMPARE(failed.size(), 1);
    QVERIFY(failed.first().at(1).toString().contains(u"bad name"_s));
}

// The whole log path over a real Unix socket: chunked HTTP from a stand-in engine, frames
// and a UTF-8 character split across writes, then the end of the stream.
void TestEngineParsing::logStreamOverSocket_data() {
    QTest::addColumn<bool>("tty");
    QTest::newRow("multiplexed") << false;
    QTest::newRow("tty") << true;
}

void TestEngineParsing::logStreamOverSocket() {
    QFETCH(bool, tty);
    QTemporaryDir dir;
    QLocalServer server;
    QVERIFY(server.listen(dir.filePath(u"engine.sock"_s)));
    const QByteArray euro = "\xe2\x82\xac"; // one character, three bytes
    const QByteArray body =
        tty ? QByteArray("line one\nprice 5" + euro + "\n")
            : QByteArray(frame(1, "line one\n") + frame(2, "price 5" + euro.left(1)) +
                         frame(2, euro.mid(1) + "\n"));
    QByteArray request;
    connect(&server, &QLocalServer::newConnection, this, [&] {
        QLocalSocket *socket = server.nextPendingConnection();
        connect(socket, &QLocalSocket::readyRead, socket, [&, socket] {
            request += socket->readAll();
            if (!request.contains("\r\n\r\n"))
                return;
            socket->write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
            // Chunks cut through a frame header and through the euro sign.
            for (const QByteArray &part : {body.left(5), body.mid(5, 14), body.mid(19)}) {
                socket->write(QByteArray::number(part.size(), 16) + "\r\n" + part + "\r\n");
                socket->flush();
            }
            socket->write("0\r\n\r\n");
            socket->disconnectFromServer();
        });
    });
    EngineLogStream logs(unixEngineEndpoint(server.fullServerName()), u"abc123"_s, tty, 50);
    // Raw bytes: a character cut between two frames is whole once the pieces are joined.
    QByteArray bytes;
    connect(&logs, &EngineLogStream::bytes, this, [&bytes](const QByteArray &b) { bytes += b; });
    QSignalSpy ended(&logs, &EngineLogStream::ended);
    logs.start();
    QVERIFY(ended.wait(10000));
    QCOMPARE(QString::fromUtf8(bytes), u"line one\nprice 5\u20ac\n"_s);
    QCOMPARE(ended.first().first().toString(), u"The container stopped"_s);
    QVERIFY2(request.startsWith("GET /v1.41/containers/abc123/logs?follow=true&stdout=1&"
                                "stderr=1&timestamps=1&tail=50 "),
             request.constData());
}

// Closing a log view while the container is quiet: the stream object goes at once (no wait
// on the GUI thread), and its thread hangs up by itself soon after.
void TestEngineParsing::logStreamDeletedWhileFollowing() {
    QTemporaryDir dir;
    QLocalServer server;
    QVERIFY(server.listen(dir.filePath(u"engine.sock"_s)));
    QPointer<QLocalSocket> peer;
    QByteArray request;
    connect(&server, &QLocalServer::newConnection, this, [&] {
        peer = server.nextPendingConnection();
        connect(peer, &QLocalSocket::readyRead, peer, [&] {
            request += peer->readAll();
            if (request.contains("\r\n\r\n"))
                peer->write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
                            QByteArray::number(frame(1, "hello\n").size(), 16) + "\r\n" +
                            frame(1, "hello\n") + "\r\n");
        });
    });
    auto *logs =
        new EngineLogStream(unixEngineEndpoint(server.fullServerName()), u"abc"_s, false, 10);
    QString text;
    connect(logs, &EngineLogStream::bytes, this,
            [&text](const QByteArray &b) { text += QString::fromUtf8(b); });
    logs->start();
    QTRY_COMPARE_WITH_TIMEOUT(text, u"hello\n"_s, 10000);
    QVERIFY(peer);
    QSignalSpy hungUp(peer.data(), &QLocalSocket::disconnected);
    QElapsedTimer clock;
    clock.start();
    delete logs;
    QVERIFY2(clock.elapsed() < 100, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(hungUp.wait(5000));
}

// A socket file with nothing listening is told apart from a missing one.
// What an engine older than the console's API version answers, as Docker 19.03 words it.
void TestEngineParsing::tooOldEngineIsNamed() {
    EngineResponse response;
    response.httpStatus = 400;
    response.body =
        R"({"message":"client version 1.41 is too new. Maximum supported API version is 1.40"})";
    const Status status = response.status();
    QCOMPARE(status.kind, Status::Kind::BadResponse);
    QVERIFY2(status.message.contains(u"too old for the console"_s), qPrintable(status.message));
    QVERIFY(status.message.contains(u"Maximum supported API version is 1.40"_s));
    // Any other refusal keeps the engine's own words.
    response.body = R"({"message":"invalid reference format"})";
    QCOMPARE(response.status().message, u"invalid reference format"_s);
    QCOMPARE(response.status().kind, Status::Kind::Validation);
}

void TestEngineParsing::refusedSocket() {
    QTemporaryDir dir;
    const QString socket = dir.filePath(u"dead.sock"_s);
    QFile file(socket);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    EngineApi api(unixEngineEndpoint(socket));
    bool done = false;
    EngineResponse response;
    api.send(EngineRequest::get(u"/_ping"_s), this, [&](const EngineResponse &r) {
        response = r;
        done = true;
    });
    QVERIFY(!done); // never answered on the caller's stack
    QTRY_VERIFY_WITH_TIMEOUT(done, 10000);
    QCOMPARE(response.httpStatus, 0);
    QCOMPARE(response.status().kind, Status::Kind::Network);
    QVERIFY2(response.status().message.contains(u"refuses"_s) ||
                 response.status().message.contains(u"failed"_s),
             qPrintable(response.status().message));

    // The same exchange as a job: finished, then failed with the same Status.
    EngineJob *job = api.call(EngineRequest::get(u"/_ping"_s));
    QSignalSpy finished(job, &Job::finished);
    QSignalSpy failed(job, &Job::failed);
    QSignalSpy succeeded(job, &EngineJob::succeeded);
    job->start();
    QVERIFY(finished.wait(10000));
    QCOMPARE(failed.size(), 1);
    QCOMPARE(succeeded.size(), 0);
    QCOMPARE(failed.first().first().value<Status>().kind, Status::Kind::Network);
}

QTEST_GUILESS_MAIN(TestEngineParsing)
#include "tst_engineparsing.moc"
