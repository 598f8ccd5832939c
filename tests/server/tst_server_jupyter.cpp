// AIO's Jupyter API (/v1/jupyter/*) on a real sandbox-server and real IPython kernels: state
// across executions, rich output (a PNG), errors, timeouts that interrupt, a kernel killed
// under a request and replaced, sessions and their expiry and limit, parallel sessions, the
// kernel's environment, and a server without a kernel.
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTest>

#include <csignal>
#include <memory>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

const QByteArray kApiKey = "jupyter-key-4f0c9a7e21b3";

bool alive(qint64 pid) {
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && text.size() > close + 2 && text.at(close + 2) != 'Z';
}

// The text/plain of the execute_result among outputs.
QString resultText(const QJsonObject &data) {
    for (const QJsonValue &output : data.value("outputs"_L1).toArray()) {
        const QJsonObject o = output.toObject();
        if (o.value("output_type"_L1) == "execute_result"_L1)
            return o.value("data"_L1).toObject().value("text/plain"_L1).toString();
    }
    return {};
}

QString stdoutText(const QJsonObject &data) {
    QString text;
    for (const QJsonValue &output : data.value("outputs"_L1).toArray()) {
        const QJsonObject o = output.toObject();
        if (o.value("output_type"_L1) == "stream"_L1 && o.value("name"_L1) == "stdout"_L1)
            text += o.value("text"_L1).toString();
    }
    return text;
}

QJsonObject outputOfType(const QJsonObject &data, const QString &type) {
    for (const QJsonValue &output : data.value("outputs"_L1).toArray()) {
        if (output.toObject().value("output_type"_L1).toString() == type)
            return output.toObject();
    }
    return {};
}

} // namespace

class TestServerJupyter final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void stateIsKeptAcrossExecutions();
    void executeWithoutSessionMakesOne();
    void pngArrivesAsDisplayData();
    void exceptionGivesNameValueAndTraceback();
    void timeoutInterruptsAndKeepsState();
    void killedKernelIsReportedAndReplaced();
    void sessionsCreateListDelete();
    void parallelSessionsDoNotBlock();
    void kernelEnvironmentHasNoSecret();
    void idleSessionsExpireAndTheLimitHolds();
    void killedServerLeavesNoKernelBehind();
    void infoDescribesTheKernels();
    void badInputIsRefused();
    void noKernelIsAClearError();
    void groupIsListedAndCanBeLeftOut();

private:
    HttpResult call(TestServer &server, const QByteArray &method, const QString &path,
                    const QJsonObject &body = {}) {
        HeaderPairs headers{{"X-AIO-API-Key", kApiKey}};
        QByteArray bytes;
        if (method == "POST") {
            headers.append(std::pair<QByteArray, QByteArray>("Content-Type", "application/json"));
            bytes = QJsonDocument(body).toJson(QJsonDocument::Compact);
        }
        return request(method, server.url(path), headers, bytes, 90000);
    }
    // The data of a 200 answer; empty (and a warning) otherwise.
    QJsonObject run(const QString &code, const QString &session, QJsonObject extra = {}) {
        extra.insert("code"_L1, code);
        if (!session.isEmpty())
            extra.insert("session_id"_L1, session);
        const HttpResult result = call(m_server, "POST", u"/v1/jupyter/execute"_s, extra);
        if (result.status != 200)
            qWarning() << "execute" << result.status << result.body.left(600);
        return result.json().value("data"_L1).toObject();
    }
    QJsonObject sessions(TestServer &server) {
        return call(server, "GET", u"/v1/jupyter/sessions"_s)
            .json()
            .value("data"_L1)
            .toObject()
            .value("sessions"_L1)
            .toObject();
    }
    // An execute answered later, for requests in flight.
    std::unique_ptr<QNetworkReply> runLater(const QString &code, const QString &session) {
        QNetworkRequest req(m_server.url(u"/v1/jupyter/execute"_s));
        req.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
        req.setRawHeader("X-AIO-API-Key", kApiKey);
        req.setTransferTimeout(90000);
        return std::unique_ptr<QNetworkReply>(m_nam.post(
            req, QJsonDocument(QJsonObject{{"code"_L1, code}, {"session_id"_L1, session}})
                     .toJson(QJsonDocument::Compact)));
    }

    TestServer m_server;
    QNetworkAccessManager m_nam;
};

void TestServerJupyter::initTestCase() {
    QVERIFY2(m_server.start(TestServer::withApiKey(QString::fromLatin1(kApiKey))),
             qPrintable(m_server.error()));
    const QJsonObject info =
        call(m_server, "GET", u"/v1/jupyter/info"_s).json().value("data"_L1).toObject();
    if (info.value("available_kernels"_L1).toArray().isEmpty())
        QSKIP(qPrintable(u"no IPython kernel on this machine: "_s +
                         info.value("problem"_L1).toString()));
}

void TestServerJupyter::stateIsKeptAcrossExecutions() {
    const QJsonObject first = run(u"x = 40 + 2\nprint('set')"_s, u"state"_s);
    QCOMPARE(first.value("status"_L1).toString(), u"ok"_s);
    QCOMPARE(first.value("session_id"_L1).toString(), u"state"_s);
    QCOMPARE(first.value("kernel_name"_L1).toString(), u"python3"_s);
    QCOMPARE(stdoutText(first), u"set\n"_s);
    QVERIFY(!first.value("msg_id"_L1).toString().isEmpty());
    QCOMPARE(first.value("code"_L1).toString(), u"x = 40 + 2\nprint('set')"_s);

    const QJsonObject second = run(u"x"_s, u"state"_s);
    QCOMPARE(second.value("status"_L1).toString(), u"ok"_s);
    QCOMPARE(resultText(second), u"42"_s);
    QCOMPARE(second.value("execution_count"_L1).toInt(),
             first.value("execution_count"_L1).toInt() + 1);
    // Every output carries AIO's JupyterOutput fields.
    const QJsonObject result = outputOfType(second, u"execute_result"_s);
    for (const char *field : {"output_type", "name", "text", "data", "metadata", "execution_count",
                              "ename", "evalue", "traceback"})
        QVERIFY2(result.contains(QLatin1StringView(field)), field);
}

void TestServerJupyter::executeWithoutSessionMakesOne() {
    const QJsonObject data = run(u"y = 1\ny + 1"_s, {});
    const QString id = data.value("session_id"_L1).toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(resultText(data), u"2"_s);
    QVERIFY(sessions(m_server).contains(id));
    QCOMPARE(resultText(run(u"y"_s, id)), u"1"_s);
    QCOMPARE(call(m_server, "DELETE", u"/v1/jupyter/sessions/"_s + id).status, 200);
}

void TestServerJupyter::pngArrivesAsDisplayData() {
    // A 3x2 RGB PNG written by hand (zlib, struct), no matplotlib needed.
    const QString code = uR"(import struct, zlib, hashlib
from IPython.display import Image, display
def chunk(kind, body):
    return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
rows = b''.join(b'\x00' + bytes([255, 0, 0] * 3) for _ in range(2))
png = (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 3, 2, 8, 2, 0, 0, 0))
       + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))
display(Image(data=png))
print(hashlib.sha256(png).hexdigest()))"_s;
    const QJsonObject data = run(code, u"png"_s);
    QCOMPARE(data.value("status"_L1).toString(), u"ok"_s);
    const QJsonObject display = outputOfType(data, u"display_data"_s);
    QVERIFY2(!display.isEmpty(), QJsonDocument(data).toJson().constData());
    // Jupyter's base64 may end in a newline (IPython's b2a_base64): whitespace is allowed.
    const QByteArray png = QByteArray::fromBase64(
        display.value("data"_L1).toObject().value("image/png"_L1).toString().toLatin1().trimmed(),
        QByteArray::AbortOnBase64DecodingErrors);
    QVERIFY(png.startsWith("\x89PNG\r\n\x1a\n"));
    QCOMPARE(png.mid(16, 8), QByteArray::fromHex("0000000300000002")); // IHDR: 3 x 2
    QCOMPARE(QString::fromLatin1(QCryptographicHash::hash(png, QCryptographicHash::Sha256).toHex()),
             stdoutText(data).trimmed());
}

void TestServerJupyter::exceptionGivesNameValueAndTraceback() {
    const QJsonObject data = run(u"def f():\n    return 1 / 0\nf()"_s, u"errors"_s);
    QCOMPARE(data.value("status"_L1).toString(), u"error"_s);
    const QJsonObject error = outputOfType(data, u"error"_s);
    QCOMPARE(error.value("ename"_L1).toString(), u"ZeroDivisionError"_s);
    QCOMPARE(error.value("evalue"_L1).toString(), u"division by zero"_s);
    const QJsonArray traceback = error.value("traceback"_L1).toArray();
    QVERIFY(traceback.size() >= 2);
    QVERIFY(QJsonDocument(traceback).toJson().contains("ZeroDivisionError"));
    // The session goes on.
    QCOMPARE(run(u"2 * 3"_s, u"errors"_s).value("status"_L1).toString(), u"ok"_s);
}

void TestServerJupyter::timeoutInterruptsAndKeepsState() {
    QCOMPARE(run(u"kept = 7"_s, u"slow"_s).value("status"_L1).toString(), u"ok"_s);
    const QJsonObject stuck =
        run(u"print('looping', flush=True)\nwhile True: pass"_s, u"slow"_s, {{"timeout"_L1, 2}});
    QCOMPARE(stuck.value("status"_L1).toString(), u"timeout"_s);
    QCOMPARE(stdoutText(stuck), u"looping\n"_s); // the outputs so far
    // The kernel was interrupted, not replaced: it answers, with its variables.
    const QJsonObject after = run(u"kept"_s, u"slow"_s);
    QCOMPARE(after.value("status"_L1).toString(), u"ok"_s);
    QCOMPARE(resultText(after), u"7"_s);
    QCOMPARE(after.value("kernel_restarted"_L1).toBool(true), false);
}

void TestServerJupyter::killedKernelIsReportedAndReplaced() {
    const QJsonObject first = run(u"import os\nmarker = 'here'\nos.getpid()"_s, u"victim"_s);
    const qint64 pid = resultText(first).toLongLong();
    QVERIFY(pid > 0 && alive(pid));

    auto inFlight =
        runLater(u"import time\nprint('started', flush=True)\ntime.sleep(60)"_s, u"victim"_s);
    QTRY_COMPARE_WITH_TIMEOUT(
        sessions(m_server).value("victim"_L1).toObject().value("state"_L1).toString(), u"busy"_s,
        20000);
    QCOMPARE(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
    QSignalSpy finished(inFlight.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(30000));
    const QJsonObject died = QJsonDocument::fromJson(inFlight->readAll()).object();
    QCOMPARE(died.value("success"_L1).toBool(true), false);
    QVERIFY2(died.value("message"_L1).toString().contains("died"_L1),
             qPrintable(died.value("message"_L1).toString()));
    const QJsonObject diedData = died.value("data"_L1).toObject();
    QCOMPARE(diedData.value("status"_L1).toString(), u"error"_s);
    QCOMPARE(outputOfType(diedData, u"error"_s).value("ename"_L1).toString(), u"KernelDied"_s);

    const QJsonObject listed = sessions(m_server).value("victim"_L1).toObject();
    QCOMPARE(listed.value("state"_L1).toString(), u"dead"_s);
    QVERIFY2(listed.value("died"_L1).toString().contains("signal 9"_L1),
             qPrintable(listed.value("died"_L1).toString()));

    // The next request gets a fresh kernel and is told that the state is gone.
    const HttpResult next = call(
        m_server, "POST", u"/v1/jupyter/execute"_s,
        {{"code"_L1, u"import os\nprint(os.getpid())\nmarker"_s}, {"session_id"_L1, "victim"_L1}});
    QCOMPARE(next.status, 200);
    QVERIFY2(next.json().value("message"_L1).toString().contains("restarted"_L1),
             next.body.constData());
    const QJsonObject nextData = next.json().value("data"_L1).toObject();
    QCOMPARE(nextData.value("kernel_restarted"_L1).toBool(), true);
    QCOMPARE(outputOfType(nextData, u"error"_s).value("ename"_L1).toString(), u"NameError"_s);
    const qint64 newPid = stdoutText(nextData).trimmed().toLongLong();
    QVERIFY(newPid > 0 && newPid != pid);
    QCOMPARE(sessions(m_server).value("victim"_L1).toObject().value("state"_L1).toString(),
             u"idle"_s);
}

void TestServerJupyter::sessionsCreateListDelete() {
    QVERIFY(QDir(m_server.workspace()).mkpath(u"sub/dir"_s));
    const HttpResult created = call(m_server, "POST", u"/v1/jupyter/sessions/create"_s,
                                    {{"session_id"_L1, "made"_L1}, {"cwd"_L1, "sub/dir"_L1}});
    QCOMPARE(created.status, 200);
    const QJsonObject data = created.json().value("data"_L1).toObject();
    QCOMPARE(data.value("session_id"_L1).toString(), u"made"_s);
    QCOMPARE(data.value("kernel_name"_L1).toString(), u"python3"_s);
    QVERIFY(!data.value("message"_L1).toString().isEmpty());
    QCOMPARE(stdoutText(run(u"import os\nprint(os.getcwd())"_s, u"made"_s)),
             QDir(m_server.workspace()).filePath(u"sub/dir"_s) + u"\n"_s);
    // A cwd on a later execute moves the kernel there.
    QCOMPARE(stdoutText(run(u"print(os.getcwd())"_s, u"made"_s, {{"cwd"_L1, "sub"_L1}})),
             QDir(m_server.workspace()).filePath(u"sub"_s) + u"\n"_s);

    const QJsonObject again =
        call(m_server, "POST", u"/v1/jupyter/sessions/create"_s, {{"session_id"_L1, "made"_L1}})
            .json();
    QVERIFY2(again.value("message"_L1).toString().contains("exists"_L1),
             qPrintable(again.value("message"_L1).toString()));

    const QJsonObject listed = sessions(m_server).value("made"_L1).toObject();
    QCOMPARE(listed.value("kernel_name"_L1).toString(), u"python3"_s);
    QVERIFY(listed.value("last_used"_L1).toDouble() > 1.6e9); // epoch seconds
    QVERIFY(listed.value("age_seconds"_L1).isDouble());
    const qint64 pid = listed.value("pid"_L1).toInteger();
    QVERIFY(alive(pid));

    QCOMPARE(call(m_server, "DELETE", u"/v1/jupyter/sessions/made"_s).status, 200);
    QVERIFY(!sessions(m_server).contains("made"_L1));
    QTRY_VERIFY_WITH_TIMEOUT(!alive(pid), 10000);
    const HttpResult gone = call(m_server, "DELETE", u"/v1/jupyter/sessions/made"_s);
    QCOMPARE(gone.status, 404);
    QVERIFY(isErrorEnvelope(gone.body));

    for (const char *id : {"one", "two"})
        QCOMPARE(call(m_server, "POST", u"/v1/jupyter/sessions/create"_s,
                      {{"session_id"_L1, QLatin1StringView(id)}})
                     .status,
                 200);
    QVERIFY(sessions(m_server).contains("one"_L1));
    const HttpResult all = call(m_server, "DELETE", u"/v1/jupyter/sessions"_s);
    QCOMPARE(all.status, 200);
    QVERIFY(all.json().value("data"_L1).toObject().value("deleted"_L1).toInt() >= 2);
    QVERIFY(sessions(m_server).isEmpty());
}

void TestServerJupyter::parallelSessionsDoNotBlock() {
    for (const char *id : {"left", "right"})
        QCOMPARE(call(m_server, "POST", u"/v1/jupyter/sessions/create"_s,
                      {{"session_id"_L1, QLatin1StringView(id)}})
                     .status,
                 200);
    auto sleeping = runLater(u"import time\ntime.sleep(3)\nprint('left done')"_s, u"left"_s);
    QTRY_COMPARE_WITH_TIMEOUT(
        sessions(m_server).value("left"_L1).toObject().value("state"_L1).toString(), u"busy"_s,
        10000);
    // While the left cell sleeps: the right session runs, and other endpoints answer.
    QCOMPARE(stdoutText(run(u"print('right done')"_s, u"right"_s)), u"right done\n"_s);
    QCOMPARE(call(m_server, "GET", u"/v1/sandbox"_s).status, 200);
    QCOMPARE(call(m_server, "GET", u"/v1/jupyter/info"_s).status, 200);
    QVERIFY(!sleeping->isFinished());
    QSignalSpy finished(sleeping.get(), &QNetworkReply::finished);
    QVERIFY(sleeping->isFinished() || finished.wait(30000));
    const QJsonObject left = QJsonDocument::fromJson(sleeping->readAll()).object();
    QCOMPARE(stdoutText(left.value("data"_L1).toObject()), u"left done\n"_s);
}

void TestServerJupyter::kernelEnvironmentHasNoSecret() {
    const QJsonObject data = run(uR"(import os
print(any('%1' in value for value in os.environ.values()), 'SANDBOX_API_KEY' in os.environ)
print(b'%1' in open('/proc/%d/environ' % os.getppid(), 'rb').read(), 'HOME' in os.environ))"_s.arg(
                                     QString::fromLatin1(kApiKey)),
                                 u"env"_s);
    QCOMPARE(data.value("status"_L1).toString(), u"ok"_s);
    // The kernel reads its environment and its parent's, and finds no key in either.
    QCOMPARE(stdoutText(data), u"False False\nFalse True\n"_s);
}

void TestServerJupyter::idleSessionsExpireAndTheLimitHolds() {
    TestServer limited;
    TestServer::Options options = TestServer::withApiKey(QString::fromLatin1(kApiKey));
    options.extraArgs = {u"--jupyter-max-sessions"_s, u"1"_s};
    QVERIFY2(limited.start(options), qPrintable(limited.error()));
    const auto create = [this](TestServer &server, const char *id) {
        return call(server, "POST", u"/v1/jupyter/sessions/create"_s,
                    {{"session_id"_L1, QLatin1StringView(id)}});
    };
    QCOMPARE(create(limited, "a").status, 200);
    const HttpResult refused = create(limited, "b");
    QCOMPARE(refused.status, 429);
    QVERIFY(isErrorEnvelope(refused.body));
    QVERIFY2(refused.json().value("message"_L1).toString().contains("Too many"_L1),
             refused.body.constData());
    // An execute that would make a session is refused the same way.
    QCOMPARE(call(limited, "POST", u"/v1/jupyter/execute"_s, {{"code"_L1, "1"_L1}}).status, 429);
    QCOMPARE(call(limited, "DELETE", u"/v1/jupyter/sessions/a"_s).status, 200);
    QCOMPARE(create(limited, "b").status, 200);
    // A server that stops takes its kernels with it.
    const qint64 last = sessions(limited).value("b"_L1).toObject().value("pid"_L1).toInteger();
    QVERIFY(alive(last));
    QCOMPARE(limited.stop(), 0);
    QVERIFY(!alive(last));

    TestServer expiring;
    options.extraArgs = {u"--jupyter-idle-timeout"_s, u"2"_s};
    QVERIFY2(expiring.start(options), qPrintable(expiring.error()));
    QCOMPARE(create(expiring, "short").status, 200);
    const qint64 pid = sessions(expiring).value("short"_L1).toObject().value("pid"_L1).toInteger();
    QVERIFY(alive(pid));
    // Unused for 2 s, the session ends with its kernel.
    QTRY_VERIFY_WITH_TIMEOUT(sessions(expiring).isEmpty(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!alive(pid), 10000);
    QCOMPARE(call(expiring, "GET", u"/v1/jupyter/info"_s)
                 .json()
                 .value("data"_L1)
                 .toObject()
                 .value("session_timeout_seconds"_L1)
                 .toInt(),
             2);
}

void TestServerJupyter::killedServerLeavesNoKernelBehind() {
    // Kernel folders go under TMPDIR, and any server that starts sweeps those of dead servers:
    // a private one, so that servers of tests running in parallel do not sweep this one's.
    QTemporaryDir tmp(u"/tmp/sbxk-XXXXXX"_s);
    QVERIFY(tmp.isValid());
    TestServer::Options options = TestServer::withApiKey(QString::fromLatin1(kApiKey));
    options.set(u"TMPDIR"_s, tmp.path());
    auto server = std::make_unique<TestServer>();
    QVERIFY2(server->start(options), qPrintable(server->error()));
    const HttpResult answer =
        call(*server, "POST", u"/v1/jupyter/execute"_s,
             {{"code"_L1, u"import os, sys\nprint(os.getpid(), sys.argv[-1])"_s}});
    const QStringList printed =
        stdoutText(answer.json().value("data"_L1).toObject()).trimmed().split(u' ');
    QCOMPARE(printed.size(), 2);
    const qint64 pid = printed.first().toLongLong();
    const QString folder = QFileInfo(printed.last()).path(); // the connection file's folder
    QVERIFY(QFileInfo(folder).isDir());
    // Killed outright, the server cannot clean up: the kernel notices and ends itself ...
    server->kill();
    QTRY_VERIFY_WITH_TIMEOUT(!alive(pid), 15000);
    QVERIFY(QFileInfo(folder).isDir());
    // ... and the next server removes what was left.
    QVERIFY(folder.startsWith(tmp.path()));
    TestServer next;
    QVERIFY2(next.start(options), qPrintable(next.error()));
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo(folder).exists(), 10000);
}

void TestServerJupyter::infoDescribesTheKernels() {
    const HttpResult result = call(m_server, "GET", u"/v1/jupyter/info"_s);
    QCOMPARE(result.status, 200);
    const QJsonObject info = result.json().value("data"_L1).toObject();
    QCOMPARE(info.value("default_kernel"_L1).toString(), u"python3"_s);
    QVERIFY(info.value("available_kernels"_L1).toArray().contains(u"python3"_s));
    QCOMPARE(info.value("session_timeout_seconds"_L1).toInt(), 1800);
    QCOMPARE(info.value("max_sessions"_L1).toInt(), 16);
    QVERIFY(info.value("active_sessions"_L1).isDouble());
    QVERIFY(!info.value("description"_L1).toString().isEmpty());
    QVERIFY(!info.value("kernel_detection"_L1).toString().isEmpty());
}

void TestServerJupyter::badInputIsRefused() {
    const auto status = [this](const QJsonObject &body) {
        return call(m_server, "POST", u"/v1/jupyter/execute"_s, body).status;
    };
    QCOMPARE(status({}), 422);
    QCOMPARE(status({{"code"_L1, 1}}), 422);
    QCOMPARE(status({{"code"_L1, "1"_L1}, {"timeout"_L1, 0}}), 422);
    QCOMPARE(status({{"code"_L1, "1"_L1}, {"timeout"_L1, 301}}), 422);
    QCOMPARE(status({{"code"_L1, "1"_L1}, {"timeout"_L1, 1.5}}), 422);
    const HttpResult kernel = call(m_server, "POST", u"/v1/jupyter/execute"_s,
                                   {{"code"_L1, "1"_L1}, {"kernel_name"_L1, "python9"_L1}});
    QCOMPARE(kernel.status, 400);
    QVERIFY(isErrorEnvelope(kernel.body));
    QVERIFY(kernel.json().value("message"_L1).toString().contains("python3"_L1));
    QCOMPARE(status({{"code"_L1, "1"_L1}, {"cwd"_L1, "/no/such/folder"_L1}}), 400);
    QCOMPARE(call(m_server, "POST", u"/v1/jupyter/sessions/create"_s, {{"cwd"_L1, "/no/such"_L1}})
                 .status,
             400);
}

void TestServerJupyter::noKernelIsAClearError() {
    TestServer server;
    TestServer::Options options = TestServer::withApiKey(QString::fromLatin1(kApiKey));
    options.extraArgs = {u"--jupyter-python"_s, u"/no/such/python3"_s};
    QVERIFY2(server.start(options), qPrintable(server.error()));
    const QJsonObject info =
        call(server, "GET", u"/v1/jupyter/info"_s).json().value("data"_L1).toObject();
    QVERIFY(info.value("available_kernels"_L1).toArray().isEmpty());
    QVERIFY(info.value("problem"_L1).toString().contains("/no/such/python3"_L1));
    const HttpResult refused =
        call(server, "POST", u"/v1/jupyter/execute"_s, {{"code"_L1, "1"_L1}});
    QCOMPARE(refused.status, 503);
    QVERIFY(isErrorEnvelope(refused.body));
    QVERIFY2(refused.json().value("message"_L1).toString().contains("No Jupyter kernel"_L1),
             refused.body.constData());
    QCOMPARE(call(server, "POST", u"/v1/jupyter/sessions/create"_s).status, 503);
    QCOMPARE(server.stop(), 0); // and nothing crashed
}

void TestServerJupyter::groupIsListedAndCanBeLeftOut() {
    const HttpResult llms = call(m_server, "GET", u"/llms.txt"_s);
    for (const char *endpoint :
         {"POST /v1/jupyter/execute", "GET /v1/jupyter/info", "GET /v1/jupyter/sessions",
          "POST /v1/jupyter/sessions/create", "DELETE /v1/jupyter/sessions",
          "DELETE /v1/jupyter/sessions/{session_id}"})
        QVERIFY2(llms.body.contains(endpoint), endpoint);

    TestServer without;
    TestServer::Options options = TestServer::withApiKey(QString::fromLatin1(kApiKey));
    options.extraArgs = {u"--without"_s, u"jupyter"_s};
    QVERIFY2(without.start(options), qPrintable(without.error()));
    QCOMPARE(call(without, "GET", u"/v1/jupyter/info"_s).status, 404);
    QVERIFY(!call(without, "GET", u"/llms.txt"_s).body.contains("/v1/jupyter/"));
}

QTEST_GUILESS_MAIN(TestServerJupyter)
#include "tst_server_jupyter.moc"
