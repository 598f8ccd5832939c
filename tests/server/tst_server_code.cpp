// AIO's unified code API (/v1/code/*) on a real sandbox-server: python and javascript in fresh
// processes (streams apart, exit codes, tracebacks, a timeout that kills the process group),
// stateful python in a Jupyter kernel, the runtimes' real versions, and refusals.
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

bool alive(qint64 pid) {
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && text.size() > close + 2 && text.at(close + 2) != 'Z';
}

// What `program --version` prints, as the server reports it ("Python 3.11.7" -> "3.11.7").
QString versionOf(const QString &program) {
    QProcess process;
    process.start(program, {u"--version"_s});
    if (!process.waitForFinished(15000))
        return {};
    QString text = QString::fromUtf8(process.readAllStandardOutput()).trimmed();
    text = text.section(u' ', -1);
    return text.startsWith(u'v') ? text.mid(1) : text;
}

} // namespace

class TestServerCode final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void pythonRunsInAFreshProcess();
    void pythonErrorsCarryTheTraceback();
    void largeProgramsRun();
    void javascriptRunsThroughNode();
    void timeoutKillsTheProcessGroup();
    void statefulPythonKeepsStateInAKernel();
    void cwdIsWhereTheCodeRuns();
    void infoReportsTheRealRuntimes();
    void badRequestsAreRefused();
    void groupCanBeLeftOut();

private:
    HttpResult post(const QJsonObject &body, TestServer *server = nullptr) {
        return request("POST", (server ? *server : m_server).url(u"/v1/code/execute"_s),
                       {{"Content-Type", "application/json"}},
                       QJsonDocument(body).toJson(QJsonDocument::Compact), 90000);
    }
    QJsonObject execute(const QString &language, const QString &code, QJsonObject extra = {}) {
        extra.insert("language"_L1, language);
        extra.insert("code"_L1, code);
        const HttpResult result = post(extra);
        if (result.status != 200)
            qWarning() << "code/execute" << result.status << result.body.left(600);
        return result.json().value("data"_L1).toObject();
    }

    TestServer m_server;
    bool m_node = false;
    bool m_kernel = false;
};

void TestServerCode::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_node = !QStandardPaths::findExecutable(u"node"_s).isEmpty();
    m_kernel = !request("GET", m_server.url(u"/v1/jupyter/info"_s))
                    .json()
                    .value("data"_L1)
                    .toObject()
                    .value("available_kernels"_L1)
                    .toArray()
                    .isEmpty();
    if (QStandardPaths::findExecutable(u"python3"_s).isEmpty())
        QSKIP("no python3 on PATH");
}

void TestServerCode::pythonRunsInAFreshProcess() {
    const QJsonObject data = execute(
        u"python"_s, u"import sys\nprint('out')\nprint('err', file=sys.stderr)\nsys.exit(3)"_s);
    QCOMPARE(data.value("language"_L1).toString(), u"python"_s);
    QCOMPARE(data.value("status"_L1).toString(), u"error"_s);
    QCOMPARE(data.value("exit_code"_L1).toInt(-1), 3);
    QCOMPARE(data.value("stdout"_L1).toString(), u"out\n"_s);
    QCOMPARE(data.value("stderr"_L1).toString(), u"err\n"_s);
    QVERIFY(data.value("session_id"_L1).isNull());
    QCOMPARE(data.value("outputs"_L1).toArray().size(), 2);

    const QJsonObject ok = execute(u"python"_s, u"z = 1\nprint(z + 1)"_s);
    QCOMPARE(ok.value("status"_L1).toString(), u"ok"_s);
    QCOMPARE(ok.value("exit_code"_L1).toInt(-1), 0);
    QCOMPARE(ok.value("stdout"_L1).toString(), u"2\n"_s);
    // Stateless: the next run knows nothing of z.
    QCOMPARE(execute(u"python"_s, u"print(z)"_s).value("status"_L1).toString(), u"error"_s);
}

void TestServerCode::pythonErrorsCarryTheTraceback() {
    const QJsonObject data = execute(u"python"_s, u"def f():\n    return 1 / 0\nf()"_s);
    QCOMPARE(data.value("status"_L1).toString(), u"error"_s);
    const QJsonArray traceback = data.value("traceback"_L1).toArray();
    QVERIFY(traceback.size() >= 3);
    QCOMPARE(traceback.first().toString(), u"Traceback (most recent call last):"_s);
    QCOMPARE(traceback.last().toString(), u"ZeroDivisionError: division by zero"_s);
    const QJsonArray outputs = data.value("outputs"_L1).toArray();
    QCOMPARE(outputs.last().toObject().value("ename"_L1).toString(), u"ZeroDivisionError"_s);
}

void TestServerCode::largeProgramsRun() {
    // Larger than one command-line argument may be: the program goes through stdin.
    const QString code = u"# "_s + QString(300 * 1024, u'x') + u"\nprint('big')\n"_s;
    QCOMPARE(execute(u"python"_s, code).value("stdout"_L1).toString(), u"big\n"_s);
}

void TestServerCode::javascriptRunsThroughNode() {
    if (!m_node)
        QSKIP("no node on PATH");
    const QJsonObject data =
        execute(u"javascript"_s, u"console.log(6 * 7); console.error('warn')"_s);
    QCOMPARE(data.value("language"_L1).toString(), u"javascript"_s);
    QCOMPARE(data.value("status"_L1).toString(), u"ok"_s);
    QCOMPARE(data.value("stdout"_L1).toString(), u"42\n"_s);
    QCOMPARE(data.value("stderr"_L1).toString(), u"warn\n"_s);
    QCOMPARE(data.value("exit_code"_L1).toInt(-1), 0);

    const QJsonObject thrown = execute(u"javascript"_s, u"throw new TypeError('bad thing')"_s);
    QCOMPARE(thrown.value("status"_L1).toString(), u"error"_s);
    QCOMPARE(thrown.value("exit_code"_L1).toInt(), 1);
    const QJsonArray outputs = thrown.value("outputs"_L1).toArray();
    QCOMPARE(outputs.last().toObject().value("ename"_L1).toString(), u"TypeError"_s);
    QCOMPARE(outputs.last().toObject().value("evalue"_L1).toString(), u"bad thing"_s);
}

void TestServerCode::timeoutKillsTheProcessGroup() {
    const QJsonObject data = execute(u"python"_s,
                                     u"import subprocess, time\n"
                                     "child = subprocess.Popen(['sleep', '100'])\n"
                                     "print(child.pid, flush=True)\n"
                                     "time.sleep(100)"_s,
                                     {{"timeout"_L1, 1}});
    QCOMPARE(data.value("status"_L1).toString(), u"timeout"_s);
    const qint64 child = data.value("stdout"_L1).toString().trimmed().toLongLong();
    QVERIFY(child > 0);
    // The program's own child went with it.
    QTRY_VERIFY_WITH_TIMEOUT(!alive(child), 5000);
    QCOMPARE(data.value("exit_code"_L1).toInt(), 128 + 9);
}

void TestServerCode::statefulPythonKeepsStateInAKernel() {
    if (!m_kernel)
        QSKIP("no IPython kernel on this machine");
    const QJsonObject first = execute(u"python"_s, u"y = 5"_s,
                                      {{"stateful"_L1, true}, {"session_id"_L1, "code-state"_L1}});
    QCOMPARE(first.value("status"_L1).toString(), u"ok"_s);
    QCOMPARE(first.value("session_id"_L1).toString(), u"code-state"_s);
    const QJsonObject second = execute(u"python"_s, u"print(y * 2)\ny / 0"_s,
                                       {{"stateful"_L1, true}, {"session_id"_L1, "code-state"_L1}});
    QCOMPARE(second.value("stdout"_L1).toString(), u"10\n"_s);
    QCOMPARE(second.value("status"_L1).toString(), u"error"_s);
    QVERIFY(!second.value("traceback"_L1).toArray().isEmpty());
    // It is a Jupyter session like any other.
    QVERIFY(request("GET", m_server.url(u"/v1/jupyter/sessions"_s))
                .json()
                .value("data"_L1)
                .toObject()
                .value("sessions"_L1)
                .toObject()
                .contains("code-state"_L1));
    // Without a session_id one is made and returned.
    const QJsonObject fresh = execute(u"python"_s, u"1"_s, {{"stateful"_L1, true}});
    QVERIFY(!fresh.value("session_id"_L1).toString().isEmpty());
}

void TestServerCode::cwdIsWhereTheCodeRuns() {
    QVERIFY(QDir(m_server.workspace()).mkpath(u"work"_s));
    const QString expected = QDir(m_server.workspace()).filePath(u"work"_s) + u"\n"_s;
    QCOMPARE(execute(u"python"_s, u"import os\nprint(os.getcwd())"_s, {{"cwd"_L1, "work"_L1}})
                 .value("stdout"_L1)
                 .toString(),
             expected);
    QCOMPARE(execute(u"python"_s, u"import os\nprint(os.getcwd())"_s).value("stdout"_L1).toString(),
             m_server.workspace() + u"\n"_s);
}

void TestServerCode::infoReportsTheRealRuntimes() {
    const HttpResult result = request("GET", m_server.url(u"/v1/code/info"_s));
    QCOMPARE(result.status, 200);
    const QJsonArray languages =
        result.json().value("data"_L1).toObject().value("languages"_L1).toArray();
    QHash<QString, QJsonObject> byName;
    for (const QJsonValue &language : languages)
        byName.insert(language.toObject().value("language"_L1).toString(), language.toObject());
    QVERIFY(byName.contains(u"python"_s));
    const QJsonObject python = byName.value(u"python"_s);
    QCOMPARE(python.value("runtime_version"_L1).toString(), versionOf(u"python3"_s));
    QCOMPARE(python.value("default_timeout"_L1).toInt(), 30);
    QCOMPARE(python.value("max_timeout"_L1).toInt(), 300);
    QVERIFY(!python.value("description"_L1).toString().isEmpty());
    QCOMPARE(python.value("details"_L1).toObject().value("stateful"_L1).toBool(), m_kernel);
    QCOMPARE(byName.contains(u"javascript"_s), m_node);
    if (m_node)
        QCOMPARE(byName.value(u"javascript"_s).value("runtime_version"_L1).toString(),
                 versionOf(u"node"_s));
}

void TestServerCode::badRequestsAreRefused() {
    const HttpResult language = post({{"language"_L1, "cobol"_L1}, {"code"_L1, "1"_L1}});
    QCOMPARE(language.status, 422);
    const QJsonObject detail = language.json().value("detail"_L1).toArray().first().toObject();
    QCOMPARE(detail.value("loc"_L1).toArray().last().toString(), u"language"_s);
    QVERIFY(detail.value("msg"_L1).toString().contains("python"_L1));
    QCOMPARE(post({{"code"_L1, "1"_L1}}).status, 422);
    QCOMPARE(post({{"language"_L1, "python"_L1}}).status, 422);
    QCOMPARE(post({{"language"_L1, "python"_L1}, {"code"_L1, "1"_L1}, {"timeout"_L1, 0}}).status,
             422);
    QCOMPARE(post({{"language"_L1, "python"_L1}, {"code"_L1, "1"_L1}, {"timeout"_L1, 301}}).status,
             422);
    const HttpResult stateful =
        post({{"language"_L1, "javascript"_L1}, {"code"_L1, "1"_L1}, {"stateful"_L1, true}});
    QCOMPARE(stateful.status, 400);
    QVERIFY(isErrorEnvelope(stateful.body));
    QCOMPARE(
        post({{"language"_L1, "python"_L1}, {"code"_L1, "1"_L1}, {"cwd"_L1, "/no/such"_L1}}).status,
        400);
}

void TestServerCode::groupCanBeLeftOut() {
    QVERIFY(request("GET", m_server.url(u"/llms.txt"_s)).body.contains("POST /v1/code/execute"));
    TestServer without;
    QVERIFY(without.start(TestServer::withArgs({u"--without"_s, u"code"_s})));
    QCOMPARE(request("GET", without.url(u"/v1/code/info"_s)).status, 404);
    QCOMPARE(post({{"language"_L1, "python"_L1}, {"code"_L1, "1"_L1}}, &without).status, 404);
    // The jupyter group stays.
    QCOMPARE(request("GET", without.url(u"/v1/jupyter/info"_s)).status, 200);
}

QTEST_GUILESS_MAIN(TestServerCode)
#include "tst_server_code.moc"
