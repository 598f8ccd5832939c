// AIO's pipe-based command API (/v1/bash/*) on a real sandbox-server: stdout and stderr apart,
// byte offsets across hundreds of megabytes, long-poll, exit codes, signals, hard_timeout,
// stdin, sessions, retention, resuming after a cut connection, and refusals of bad input.
#include "tests/server/httptestclient.h"
#include "tests/support/faultproxy.h"
#include "tests/support/testserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <csignal>
#include <memory>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

// Running, not gone and not a zombie waiting for init to reap it.
bool alive(pid_t pid) {
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && text.size() > close + 2 && text.at(close + 2) != 'Z';
}

struct Output {
    QByteArray out;
    QByteArray err;
    qint64 offset = 0;
    qint64 errOffset = 0;
    QString status;
    QJsonValue exitCode;
};

} // namespace

class TestServerBash final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void syncExecKeepsStreamsApart();
    void largeOutputArrivesCompleteAndInOrder();
    void multiByteTextSurvivesChunking();
    void longPollWakesOnOutput();
    void killSendsTheChosenSignal();
    void hardTimeoutKillsTheProcessGroup();
    void inputReachesTheProcess();
    void environmentAndWorkingDirectory();
    void sessionsListShowsTheCurrentCommand();
    void resumesFromOffsetsAfterACutConnection();
    void finishedOutputIsKeptForTheRetentionTime();
    void badInputIsRefused();
    void endpointsAreListedAsAio();
    void serverStopEndsRunningCommands();
    void commandsLeftByAKilledServerEndAtTheNextStart();
    void commandOutputIsNotAWorkspaceChange();

private:
    QJsonObject call(TestServer &server, const QString &path, const QJsonObject &body,
                     int expectStatus = 200) {
        const HttpResult result =
            request("POST", server.url(path), {{"Content-Type", "application/json"}},
                    QJsonDocument(body).toJson(QJsonDocument::Compact), 60000);
        if (result.status != expectStatus)
            qWarning() << path << "status" << result.status << result.body.left(400);
        return result.status == expectStatus ? result.json() : QJsonObject{};
    }
    QJsonObject post(const QString &path, const QJsonObject &body, int expectStatus = 200) {
        return call(m_server, path, body, expectStatus);
    }
    QJsonObject data(const QString &path, const QJsonObject &body) {
        return post(path, body).value("data"_L1).toObject();
    }
    QJsonObject startAsync(const QString &command, QJsonObject extra = {}) {
        extra.insert("command"_L1, command);
        extra.insert("async_mode"_L1, true);
        return data(u"/v1/bash/exec"_s, extra);
    }
    // One /v1/bash/output answer.
    Output outputOnce(TestServer &server, const QJsonObject &run, qint64 offset, qint64 errOffset,
                      bool wait = true) {
        const QJsonObject d = call(server, u"/v1/bash/output"_s,
                                   {{"session_id"_L1, run.value("session_id"_L1)},
                                    {"command_id"_L1, run.value("command_id"_L1)},
                                    {"offset"_L1, offset},
                                    {"stderr_offset"_L1, errOffset},
                                    {"wait"_L1, wait}})
                                  .value("data"_L1)
                                  .toObject();
        Output o;
        o.out = d.value("stdout"_L1).toString().toUtf8();
        o.err = d.value("stderr"_L1).toString().toUtf8();
        o.offset = d.value("offset"_L1).toInteger(-1);
        o.errOffset = d.value("stderr_offset"_L1).toInteger(-1);
        const QJsonObject command = d.value("command"_L1).toObject();
        o.status = command.value("status"_L1).toString();
        o.exitCode = command.value("exit_code"_L1);
        return o;
    }
    // Follows a run to its end as a client would, calling sink with each stdout piece.
    Output follow(const QJsonObject &run, const std::function<void(const QByteArray &)> &sink = {},
                  int *responses = nullptr) {
        Output total;
        for (int i = 0; i < 100000; ++i) {
            const Output o = outputOnce(m_server, run, total.offset, total.errOffset);
            if (o.offset < total.offset || o.status.isEmpty()) {
                total.status = u"broken"_s;
                return total;
            }
            if (sink)
                sink(o.out);
            else
                total.out += o.out;
            total.err += o.err;
            total.offset = o.offset;
            total.errOffset = o.errOffset;
            total.status = o.status;
            total.exitCode = o.exitCode;
            if (responses)
                ++*responses;
            if (o.status != "running"_L1 && o.out.isEmpty() && o.err.isEmpty())
                return total;
        }
        return total;
    }

    TestServer m_server;
};

void TestServerBash::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestServerBash::syncExecKeepsStreamsApart() {
    const QJsonObject d =
        data(u"/v1/bash/exec"_s, {{"command"_L1, "echo hi; echo oops >&2; exit 3"_L1}});
    QCOMPARE(d.value("status"_L1).toString(), u"completed"_s);
    QCOMPARE(d.value("exit_code"_L1).toInt(-1), 3);
    QCOMPARE(d.value("stdout"_L1).toString(), u"hi\n"_s);
    QCOMPARE(d.value("stderr"_L1).toString(), u"oops\n"_s);
    QCOMPARE(d.value("offset"_L1).toInteger(), 3);
    QCOMPARE(d.value("stderr_offset"_L1).toInteger(), 5);
    QVERIFY(!d.value("session_id"_L1).toString().isEmpty());
    QVERIFY(!d.value("command_id"_L1).toString().isEmpty());

    // max_output_length keeps the head and the tail, and says what it cut.
    const QJsonObject cut = data(
        u"/v1/bash/exec"_s, {{"command"_L1, "seq 1 100000"_L1}, {"max_output_length"_L1, 100}});
    const QString text = cut.value("stdout"_L1).toString();
    QVERIFY2(text.startsWith("1\n2\n3\n"_L1) && text.endsWith("99999\n100000\n"_L1),
             qPrintable(text));
    QVERIFY(text.contains("bytes truncated"_L1));
    QVERIFY(text.size() < 200);
}

void TestServerBash::largeOutputArrivesCompleteAndInOrder() {
    // About 200 MB of numbered lines on stdout, and some stderr beside it.
    const qint64 lines = 23'000'000;
    const QJsonObject run = startAsync(u"seq 1 %1; seq 1 50000 >&2"_s.arg(lines));
    QCOMPARE(run.value("status"_L1).toString(), u"running"_s);
    qint64 expected = 1;
    QByteArray partial;
    bool inOrder = true;
    qint64 maxResidentKiB = 0;
    int responses = 0;
    const Output total = follow(
        run,
        [&](const QByteArray &piece) {
            partial += piece;
            qsizetype start = 0;
            for (qsizetype nl; (nl = partial.indexOf('\n', start)) >= 0; start = nl + 1) {
                if (inOrder && partial.mid(start, nl - start).toLongLong() != expected)
                    inOrder = false;
                ++expected;
            }
            partial.remove(0, start);
            maxResidentKiB = std::max(maxResidentKiB, m_server.residentKiB());
        },
        &responses);
    QCOMPARE(total.status, u"completed"_s);
    QCOMPARE(total.exitCode.toInt(-1), 0);
    QVERIFY2(inOrder, "stdout lines arrived out of order or with gaps");
    QCOMPARE(expected - 1, lines);
    QVERIFY(partial.isEmpty());
    QVERIFY(total.offset > 190'000'000);
    QVERIFY(responses > 40); // it came in chunks, not in one answer
    QCOMPARE(total.err.count('\n'), 50000);
    QVERIFY(total.err.endsWith("49999\n50000\n"));
    // The output is on disk, not in the server's memory.
    QVERIFY2(maxResidentKiB < TestServer::memoryBoundKiB(80 * 1024),
             qPrintable(QString::number(maxResidentKiB)));
}

void TestServerBash::multiByteTextSurvivesChunking() {
    // 9 MB of two-byte characters crosses several chunk ends; none may be split or replaced.
    const QJsonObject run = startAsync(u"yes 'é€😀' | head -c 9000000 | head -n -1"_s);
    const Output total = follow(run);
    QCOMPARE(total.status, u"completed"_s);
    const QString text = QString::fromUtf8(total.out);
    QVERIFY(!text.contains(QChar::ReplacementCharacter));
    QVERIFY(text.count(u'\n') > 100000);
    QVERIFY(text.startsWith(u"é€😀\n"_s));
    const QStringList rows = text.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(QSet<QString>(rows.begin(), rows.end()).size(), 1);
}

void TestServerBash::longPollWakesOnOutput() {
    QTemporaryDir dir;
    const QString go = dir.filePath(u"go"_s);
    const QJsonObject run =
        startAsync(u"echo first; while [ ! -e '%1' ]; do sleep 0.02; done; echo second"_s.arg(go));
    Output first = outputOnce(m_server, run, 0, 0);
    if (first.out.isEmpty())
        first = outputOnce(m_server, run, 0, 0);
    QCOMPARE(first.out, QByteArray("first\n"));
    QCOMPARE(first.status, u"running"_s);

    // Without wait the answer is immediate and empty.
    const Output none = outputOnce(m_server, run, first.offset, 0, false);
    QVERIFY(none.out.isEmpty());
    QCOMPARE(none.offset, first.offset);

    // A waiting request is answered when the output arrives, not at its timeout.
    QNetworkAccessManager nam;
    QNetworkRequest req(m_server.url(u"/v1/bash/output"_s));
    req.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    QElapsedTimer clock;
    clock.start();
    QNetworkReply *reply =
        nam.post(req, QJsonDocument(QJsonObject{{"session_id"_L1, run.value("session_id"_L1)},
                                                {"command_id"_L1, run.value("command_id"_L1)},
                                                {"offset"_L1, first.offset},
                                                {"wait"_L1, true},
                                                {"wait_timeout"_L1, 60}})
                          .toJson());
    QSignalSpy finished(reply, &QNetworkReply::finished);
    QVERIFY(!finished.wait(300)); // still waiting: nothing new yet
    QFile(go).open(QIODevice::WriteOnly);
    QVERIFY(finished.wait(10000));
    QVERIFY(clock.elapsed() < 30000);
    const QJsonObject d =
        QJsonDocument::fromJson(reply->readAll()).object().value("data"_L1).toObject();
    QVERIFY(d.value("stdout"_L1).toString().startsWith("second"_L1));
    reply->deleteLater();
}

void TestServerBash::killSendsTheChosenSignal() {
    const QJsonObject run =
        startAsync(u"trap 'echo got INT; exit 7' INT; echo ready; while :; do sleep 0.05; done"_s);
    QTRY_VERIFY(outputOnce(m_server, run, 0, 0, false).out == "ready\n");
    const QJsonObject killed =
        data(u"/v1/bash/kill"_s,
             {{"session_id"_L1, run.value("session_id"_L1)}, {"signal"_L1, "SIGINT"_L1}});
    QCOMPARE(killed.value("command_ids"_L1).toArray().size(), 1);
    const Output total = follow(run);
    QCOMPARE(total.status, u"killed"_s);
    QVERIFY(total.out.contains("got INT"));
    QCOMPARE(total.exitCode.toInt(-1), 7);

    const QJsonObject hard = startAsync(u"trap '' TERM INT; echo ready; sleep 60"_s);
    QTRY_VERIFY(outputOnce(m_server, hard, 0, 0, false).out == "ready\n");
    data(u"/v1/bash/kill"_s,
         {{"session_id"_L1, hard.value("session_id"_L1)}, {"signal"_L1, "SIGKILL"_L1}});
    const Output end = follow(hard);
    QCOMPARE(end.status, u"killed"_s);
    QCOMPARE(end.exitCode.toInt(-1), 128 + SIGKILL);

    // Nothing running: a clear answer, not an error.
    const QJsonObject again =
        post(u"/v1/bash/kill"_s, {{"session_id"_L1, hard.value("session_id"_L1)}});
    QCOMPARE(again.value("success"_L1).toBool(), true);
    QVERIFY(again.value("data"_L1).toObject().value("command_ids"_L1).toArray().isEmpty());
}

void TestServerBash::hardTimeoutKillsTheProcessGroup() {
    QTemporaryDir dir;
    const QString pidFile = dir.filePath(u"child"_s);
    const QJsonObject d =
        data(u"/v1/bash/exec"_s, {{"command"_L1, u"sleep 60 & echo $! > '%1'; wait"_s.arg(pidFile)},
                                  {"hard_timeout"_L1, 0.5}});
    QCOMPARE(d.value("status"_L1).toString(), u"timed_out"_s);
    QCOMPARE(d.value("exit_code"_L1).toInt(-1), 128 + SIGKILL);
    QFile file(pidFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const pid_t child = file.readAll().trimmed().toInt();
    QVERIFY(child > 0);
    // The background child went with its group (it may linger as a zombie of init briefly).
    QTRY_VERIFY_WITH_TIMEOUT(!alive(child), 5000);
}

void TestServerBash::inputReachesTheProcess() {
    const QJsonObject run = startAsync(u"read a; read b; echo \"got:$a+$b\""_s);
    data(u"/v1/bash/write"_s,
         {{"session_id"_L1, run.value("session_id"_L1)}, {"input"_L1, "hello\n"_L1}});
    data(u"/v1/bash/write"_s, {{"session_id"_L1, run.value("session_id"_L1)},
                               {"command_id"_L1, run.value("command_id"_L1)},
                               {"input"_L1, "world\n"_L1}});
    const Output total = follow(run);
    QCOMPARE(total.out, QByteArray("got:hello+world\n"));
    QCOMPARE(total.status, u"completed"_s);
    // Once it ended there is nobody to write to.
    post(u"/v1/bash/write"_s,
         {{"session_id"_L1, run.value("session_id"_L1)}, {"input"_L1, "late\n"_L1}}, 409);
}

void TestServerBash::environmentAndWorkingDirectory() {
    QTemporaryDir dir;
    const QJsonObject d = data(u"/v1/bash/exec"_s, {{"command"_L1, "echo \"$FOO:$PWD\""_L1},
                                                    {"env"_L1, QJsonObject{{"FOO"_L1, "bar"_L1}}},
                                                    {"exec_dir"_L1, dir.path()}});
    QCOMPARE(d.value("stdout"_L1).toString(), u"bar:%1\n"_s.arg(dir.path()));
    // exec_dir became the session's default; env was for that command only.
    const QJsonObject next =
        data(u"/v1/bash/exec"_s, {{"command"_L1, "echo \"$FOO:$PWD\""_L1},
                                  {"session_id"_L1, d.value("session_id"_L1)}});
    QCOMPARE(next.value("stdout"_L1).toString(), u":%1\n"_s.arg(dir.path()));
    // The server's secrets are not in a command's environment.
    TestServer secured;
    QVERIFY(secured.start(TestServer::withApiKey(u"k-7f3a-secret"_s)));
    const HttpResult env =
        request("POST", secured.url(u"/v1/bash/exec"_s),
                {{"Content-Type", "application/json"}, {"X-AIO-API-Key", "k-7f3a-secret"}},
                R"({"command":"env; cat /proc/$PPID/environ | tr '\\0' '\\n'"})");
    QCOMPARE(env.status, 200);
    QVERIFY(!env.body.contains("k-7f3a-secret"));
}

void TestServerBash::sessionsListShowsTheCurrentCommand() {
    const QJsonObject created =
        data(u"/v1/bash/sessions/create"_s, {{"session_id"_L1, "agent-1"_L1}});
    QCOMPARE(created.value("session_id"_L1).toString(), u"agent-1"_s);
    QCOMPARE(created.value("status"_L1).toString(), u"ready"_s);
    const QJsonObject run = startAsync(u"sleep 60"_s, {{"session_id"_L1, "agent-1"_L1}});
    const HttpResult list = request("GET", m_server.url(u"/v1/bash/sessions"_s));
    QCOMPARE(list.status, 200);
    QJsonObject mine;
    for (const QJsonValue &v : list.json().value("data"_L1).toArray()) {
        if (v.toObject().value("session_id"_L1) == "agent-1"_L1)
            mine = v.toObject();
    }
    QCOMPARE(mine.value("current_command"_L1).toString(), u"sleep 60"_s);
    QCOMPARE(mine.value("command_count"_L1).toInt(), 1);
    QVERIFY(!mine.value("created_at"_L1).toString().isEmpty());
    QVERIFY(!mine.value("working_dir"_L1).toString().isEmpty());

    const QJsonObject closed = data(u"/v1/bash/sessions/agent-1/close"_s, {});
    QCOMPARE(closed.value("status"_L1).toString(), u"closed"_s);
    post(u"/v1/bash/output"_s, {{"session_id"_L1, "agent-1"_L1}}, 404);
    post(u"/v1/bash/sessions/agent-1/close"_s, {}, 404);
    Q_UNUSED(run);
}

void TestServerBash::resumesFromOffsetsAfterACutConnection() {
    QTemporaryDir dir;
    const QString go = dir.filePath(u"go"_s);
    const QJsonObject run = startAsync(
        u"echo first; while [ ! -e '%1' ]; do sleep 0.02; done; echo second; echo e >&2"_s.arg(go));
    FaultProxy proxy(m_server.port());
    QVERIFY(proxy.listen());
    QTRY_VERIFY(outputOnce(m_server, run, 0, 0, false).out == "first\n");
    // A long-poll in flight when the network drops (a raw socket: QNAM would quietly retry).
    const QByteArray body = QJsonDocument(QJsonObject{{"session_id"_L1, run.value("session_id"_L1)},
                                                      {"command_id"_L1, run.value("command_id"_L1)},
                                                      {"offset"_L1, 6},
                                                      {"wait"_L1, true}})
                                .toJson(QJsonDocument::Compact);
    QTcpSocket lost;
    lost.connectToHost(QHostAddress::LocalHost, proxy.port());
    QVERIFY(lost.waitForConnected(5000));
    lost.write("POST /v1/bash/output HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               "Content-Length: " +
               QByteArray::number(body.size()) + "\r\n\r\n" + body);
    QTRY_COMPARE(proxy.openConnections(), 1);
    QVERIFY(!lost.waitForReadyRead(300)); // the server holds it: nothing new yet
    proxy.cutAll();
    QTRY_COMPARE(lost.state(), QAbstractSocket::UnconnectedState);
    QFile(go).open(QIODevice::WriteOnly);
    // Resuming from the same offsets gives exactly what was missed.
    QByteArray out;
    QByteArray err;
    qint64 offset = 6;
    for (int i = 0; i < 50; ++i) {
        const Output o = outputOnce(m_server, run, offset, err.size());
        out += o.out;
        err += o.err;
        offset = o.offset;
        if (o.status != "running"_L1 && o.out.isEmpty() && o.err.isEmpty())
            break;
    }
    QCOMPARE(out, QByteArray("second\n"));
    QCOMPARE(err, QByteArray("e\n"));
}

void TestServerBash::finishedOutputIsKeptForTheRetentionTime() {
    TestServer brief;
    QVERIFY(brief.start(TestServer::withArgs({u"--bash-retention"_s, u"1"_s})));
    const QJsonObject d = call(brief, u"/v1/bash/exec"_s, {{"command"_L1, "echo kept"_L1}})
                              .value("data"_L1)
                              .toObject();
    const QJsonObject ask{{"session_id"_L1, d.value("session_id"_L1)},
                          {"command_id"_L1, d.value("command_id"_L1)}};
    QCOMPARE(call(brief, u"/v1/bash/output"_s, ask)
                 .value("data"_L1)
                 .toObject()
                 .value("stdout"_L1)
                 .toString(),
             u"kept\n"_s);
    QTRY_VERIFY_WITH_TIMEOUT(request("POST", brief.url(u"/v1/bash/output"_s),
                                     {{"Content-Type", "application/json"}},
                                     QJsonDocument(ask).toJson())
                                     .status == 404,
                             15000);
    // Its files went with it.
    QTRY_COMPARE(QDir(brief.workspace() + u"/.sandbox-server/bash"_s).entryList(QDir::Files).size(),
                 0);
}

void TestServerBash::badInputIsRefused() {
    post(u"/v1/bash/exec"_s, {}, 422);
    post(u"/v1/bash/exec"_s, {{"command"_L1, "true"_L1}, {"env"_L1, "FOO=1"_L1}}, 422);
    post(u"/v1/bash/exec"_s, {{"command"_L1, "true"_L1}, {"env"_L1, QJsonObject{{"A"_L1, 1}}}},
         422);
    post(u"/v1/bash/exec"_s, {{"command"_L1, "true"_L1}, {"exec_dir"_L1, "relative/dir"_L1}}, 400);
    post(u"/v1/bash/exec"_s, {{"command"_L1, "true"_L1}, {"hard_timeout"_L1, -1}}, 422);
    post(u"/v1/bash/output"_s, {{"session_id"_L1, "no-such-session"_L1}}, 404);
    const QJsonObject d = data(u"/v1/bash/exec"_s, {{"command"_L1, "true"_L1}});
    post(u"/v1/bash/output"_s,
         {{"session_id"_L1, d.value("session_id"_L1)}, {"command_id"_L1, "nope"_L1}}, 404);
    post(u"/v1/bash/output"_s, {{"session_id"_L1, d.value("session_id"_L1)}, {"offset"_L1, -5}},
         422);
    post(u"/v1/bash/kill"_s,
         {{"session_id"_L1, d.value("session_id"_L1)}, {"signal"_L1, "SIGSEGV"_L1}}, 422);
    post(u"/v1/bash/sessions/create"_s, {{"exec_dir"_L1, "/no/such/dir"_L1}}, 400);
    const HttpResult garbage = request("POST", m_server.url(u"/v1/bash/exec"_s),
                                       {{"Content-Type", "application/json"}}, "{\"command\": [1,");
    QVERIFY(garbage.status >= 400 && garbage.status < 500);
    // An offset past the end is an empty answer at the end, not an error.
    const Output past = outputOnce(m_server, d, 1'000'000, 0, false);
    QVERIFY(past.out.isEmpty());
    QCOMPARE(past.offset, 0);
    // The server still serves.
    QCOMPARE(
        data(u"/v1/bash/exec"_s, {{"command"_L1, "echo alive"_L1}}).value("stdout"_L1).toString(),
        u"alive\n"_s);
}

void TestServerBash::endpointsAreListedAsAio() {
    const HttpResult llms = request("GET", m_server.url(u"/llms.txt"_s));
    QCOMPARE(llms.status, 200);
    for (const char *endpoint :
         {"POST /v1/bash/exec", "POST /v1/bash/output", "POST /v1/bash/write", "POST /v1/bash/kill",
          "GET /v1/bash/sessions", "POST /v1/bash/sessions/create", "/close"})
        QVERIFY2(llms.body.contains(endpoint), endpoint);
    const HttpResult sandbox = request("GET", m_server.url(u"/v1/sandbox"_s));
    const QJsonArray extensions = sandbox.json().value("extensions"_L1).toArray();
    for (const QJsonValue &e : extensions)
        QVERIFY2(!e.toString().contains("bash"_L1), qPrintable(e.toString()));
}

void TestServerBash::serverStopEndsRunningCommands() {
    TestServer server;
    QVERIFY(server.start());
    QTemporaryDir dir;
    const QString pidFile = dir.filePath(u"pid"_s);
    const QJsonObject run = call(server, u"/v1/bash/exec"_s,
                                 {{"command"_L1, u"echo $$ > '%1'; exec sleep 100"_s.arg(pidFile)},
                                  {"async_mode"_L1, true}})
                                .value("data"_L1)
                                .toObject();
    QTRY_VERIFY(QFileInfo(pidFile).size() > 0);
    QFile file(pidFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const pid_t pid = file.readAll().trimmed().toInt();
    QVERIFY(alive(pid));
    // A long-poll waiting on it must not hold the stop back either.
    QNetworkAccessManager nam;
    QNetworkRequest req(server.url(u"/v1/bash/output"_s));
    req.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    std::unique_ptr<QNetworkReply> waiting(
        nam.post(req, QJsonDocument(QJsonObject{{"session_id"_L1, run.value("session_id"_L1)},
                                                {"wait"_L1, true},
                                                {"wait_timeout"_L1, 120}})
                          .toJson()));
    QTRY_VERIFY(server.stderrText().size() > 0);
    QCOMPARE(server.stop(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!alive(pid), 5000);
}

void TestServerBash::commandsLeftByAKilledServerEndAtTheNextStart() {
    QTemporaryDir workspace;
    TestServer::Options options;
    options.workspace = workspace.path();
    TestServer crashed;
    QVERIFY(crashed.start(options));
    QTemporaryDir dir;
    const QString leaderFile = dir.filePath(u"leader"_s);
    const QString childFile = dir.filePath(u"child"_s);
    // A command whose shell is still there, with a child of its own in the background.
    call(crashed, u"/v1/bash/exec"_s,
         {{"command"_L1,
           u"sleep 301 & echo $! > '%1'; echo $$ > '%2'; sleep 300"_s.arg(childFile, leaderFile)},
          {"async_mode"_L1, true}});
    const auto pidIn = [](const QString &path) {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? pid_t(file.readAll().trimmed().toInt()) : 0;
    };
    QTRY_VERIFY(pidIn(leaderFile) > 0 && pidIn(childFile) > 0);
    const pid_t leader = pidIn(leaderFile);
    const pid_t child = pidIn(childFile);
    crashed.kill();
    // Nothing stopped them: SIGKILL gives the server no chance.
    QVERIFY(alive(leader));
    QVERIFY(alive(child));
    TestServer next;
    QVERIFY(next.start(options));
    QTRY_VERIFY_WITH_TIMEOUT(!alive(leader) && !alive(child), 10000);
}

void TestServerBash::commandOutputIsNotAWorkspaceChange() {
    // The state folder (command output files) sits in the workspace: a watch of the workspace
    // must not report it, or every run would flood a file tree with events.
    const QJsonObject watch =
        data(u"/v1/file/watch"_s, {{"path"_L1, m_server.workspace()}, {"debounce"_L1, 50}});
    const QString id = watch.value("watcher_id"_L1).toString();
    QVERIFY(!id.isEmpty());
    data(u"/v1/bash/exec"_s, {{"command"_L1, "seq 1 1000; seq 1 10 >&2; touch visible.txt"_L1}});
    QStringList paths;
    qint64 cursor = 0;
    for (int i = 0; i < 20 && !paths.contains(m_server.workspace() + u"/visible.txt"_s); ++i) {
        const QJsonObject batch =
            post(u"/v1/file/watch/%1/poll"_s.arg(id), {{"cursor"_L1, cursor}, {"timeout"_L1, 5}});
        cursor = batch.value("cursor"_L1).toInteger(cursor);
        for (const QJsonValue &e : batch.value("events"_L1).toArray())
            paths << e.toObject().value("path"_L1).toString();
    }
    QVERIFY2(paths.contains(m_server.workspace() + u"/visible.txt"_s),
             qPrintable(paths.join(u',')));
    for (const QString &p : std::as_const(paths))
        QVERIFY2(!p.contains(u"/.sandbox-server"_s), qPrintable(p));
    QCOMPARE(request("DELETE", m_server.url(u"/v1/file/watch/"_s + id)).status, 200);
}

QTEST_GUILESS_MAIN(TestServerBash)
#include "tst_server_bash.moc"
