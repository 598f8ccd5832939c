// The extension jupyter-interrupt on a real sandbox-server and IPython kernel: a busy loop is
// interrupted, its own execute answers with KeyboardInterrupt, the kernel keeps its variables
// and runs what was queued behind; an idle session says nothing ran, an unknown one is 404;
// the extension is announced, and a server with --no-extensions neither lists nor serves it.
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

QJsonObject outputOfType(const QJsonObject &data, const QString &type) {
    for (const QJsonValue &output : data.value("outputs"_L1).toArray()) {
        if (output.toObject().value("output_type"_L1).toString() == type)
            return output.toObject();
    }
    return {};
}

QString resultText(const QJsonObject &data) {
    return outputOfType(data, u"execute_result"_s)
        .value("data"_L1)
        .toObject()
        .value("text/plain"_L1)
        .toString();
}

QStringList extensionsOf(const HttpResult &context) {
    QStringList names;
    for (const QJsonValue &name : context.json().value("extensions"_L1).toArray())
        names << name.toString();
    return names;
}

} // namespace

class TestServerJupyterInterrupt final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void busyLoopIsInterruptedAndStateKept();
    void idleAndUnknownSessions();
    void extensionIsAnnouncedAndCanBeLeftOut();

private:
    HttpResult call(TestServer &server, const QByteArray &method, const QString &path,
                    const QJsonObject &body = {}) {
        HeaderPairs headers;
        QByteArray bytes;
        if (method == "POST") {
            headers.append(std::pair<QByteArray, QByteArray>("Content-Type", "application/json"));
            bytes = QJsonDocument(body).toJson(QJsonDocument::Compact);
        }
        return request(method, server.url(path), headers, bytes, 90000);
    }
    QJsonObject run(const QString &code, const QString &session) {
        return call(m_server, "POST", u"/v1/jupyter/execute"_s,
                    {{"code"_L1, code}, {"session_id"_L1, session}})
            .json()
            .value("data"_L1)
            .toObject();
    }
    std::unique_ptr<QNetworkReply> runLater(const QString &code, const QString &session,
                                            int timeout) {
        QNetworkRequest req(m_server.url(u"/v1/jupyter/execute"_s));
        req.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
        req.setTransferTimeout(200000);
        const QJsonObject body{
            {"code"_L1, code}, {"session_id"_L1, session}, {"timeout"_L1, timeout}};
        return std::unique_ptr<QNetworkReply>(
            m_nam.post(req, QJsonDocument(body).toJson(QJsonDocument::Compact)));
    }

    TestServer m_server;
    QNetworkAccessManager m_nam;
};

void TestServerJupyterInterrupt::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    const QJsonObject info =
        call(m_server, "GET", u"/v1/jupyter/info"_s).json().value("data"_L1).toObject();
    if (info.value("available_kernels"_L1).toArray().isEmpty())
        QSKIP(qPrintable(u"no IPython kernel on this machine: "_s +
                         info.value("problem"_L1).toString()));
}

void TestServerJupyterInterrupt::busyLoopIsInterruptedAndStateKept() {
    QCOMPARE(run(u"kept = 7"_s, u"loop"_s).value("status"_L1).toString(), u"ok"_s);
    // The marker says the loop runs in the kernel's user code, where SIGINT raises: before
    // that, ipykernel ignores it.
    const QString marker = QDir(m_server.workspace()).filePath(u"looping"_s);
    // A kernel starts in the workspace: the relative name lands there.
    auto loop = runLater(u"open('looping', 'w').close()\nwhile True: pass"_s, u"loop"_s, 180);
    auto queued = runLater(u"kept + 1"_s, u"loop"_s, 30);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 30000);
    QVERIFY(!loop->isFinished());

    const HttpResult interrupted = call(m_server, "POST", u"/v1/jupyter/sessions/loop/interrupt"_s);
    QCOMPARE(interrupted.status, 200);
    const QJsonObject data = interrupted.json().value("data"_L1).toObject();
    QCOMPARE(data.value("interrupted"_L1).toBool(), true);
    QCOMPARE(data.value("session_id"_L1).toString(), u"loop"_s);

    // The loop's own answer: an error (KeyboardInterrupt), not the 180 s timeout.
    if (!loop->isFinished())
        QVERIFY(QSignalSpy(loop.get(), &QNetworkReply::finished).wait(60000));
    const QJsonObject answer = QJsonDocument::fromJson(loop->readAll()).object();
    QCOMPARE(answer.value("success"_L1).toBool(), true);
    const QJsonObject loopData = answer.value("data"_L1).toObject();
    QCOMPARE(loopData.value("status"_L1).toString(), u"error"_s);
    QCOMPARE(outputOfType(loopData, u"error"_s).value("ename"_L1).toString(),
             u"KeyboardInterrupt"_s);

    // What waited behind it runs, in the same kernel, with its state.
    if (!queued->isFinished())
        QVERIFY(QSignalSpy(queued.get(), &QNetworkReply::finished).wait(30000));
    const QJsonObject next =
        QJsonDocument::fromJson(queued->readAll()).object().value("data"_L1).toObject();
    QCOMPARE(next.value("status"_L1).toString(), u"ok"_s);
    QCOMPARE(resultText(next), u"8"_s);
    QCOMPARE(next.value("kernel_restarted"_L1).toBool(true), false);
}

void TestServerJupyterInterrupt::idleAndUnknownSessions() {
    QCOMPARE(run(u"1"_s, u"idle"_s).value("status"_L1).toString(), u"ok"_s);
    const HttpResult idle = call(m_server, "POST", u"/v1/jupyter/sessions/idle/interrupt"_s);
    QCOMPARE(idle.status, 200);
    QCOMPARE(idle.json().value("data"_L1).toObject().value("interrupted"_L1).toBool(true), false);
    QVERIFY(idle.json().value("message"_L1).toString().contains("Nothing was running"_L1));
    // The kernel was not disturbed.
    QCOMPARE(resultText(run(u"2 + 2"_s, u"idle"_s)), u"4"_s);

    const HttpResult unknown = call(m_server, "POST", u"/v1/jupyter/sessions/nope/interrupt"_s);
    QCOMPARE(unknown.status, 404);
    QVERIFY(isErrorEnvelope(unknown.body));
}

void TestServerJupyterInterrupt::extensionIsAnnouncedAndCanBeLeftOut() {
    QVERIFY(extensionsOf(call(m_server, "GET", u"/v1/sandbox"_s)).contains(u"jupyter-interrupt"_s));
    QVERIFY(call(m_server, "GET", u"/llms.txt"_s)
                .body.contains("POST /v1/jupyter/sessions/{session_id}/interrupt"));

    TestServer plain;
    QVERIFY2(plain.start(TestServer::withArgs({u"--no-extensions"_s})), qPrintable(plain.error()));
    QVERIFY(!extensionsOf(call(plain, "GET", u"/v1/sandbox"_s)).contains(u"jupyter-interrupt"_s));
    QCOMPARE(call(plain, "POST", u"/v1/jupyter/sessions/any/interrupt"_s).status, 404);
    QCOMPARE(call(plain, "GET", u"/v1/jupyter/info"_s).status, 200); // AIO's part stays

    TestServer without;
    QVERIFY2(without.start(TestServer::withArgs({u"--without"_s, u"jupyter"_s})),
             qPrintable(without.error()));
    QVERIFY(!extensionsOf(call(without, "GET", u"/v1/sandbox"_s)).contains(u"jupyter-interrupt"_s));
}

QTEST_GUILESS_MAIN(TestServerJupyterInterrupt)
#include "tst_server_jupyter_interrupt.moc"
