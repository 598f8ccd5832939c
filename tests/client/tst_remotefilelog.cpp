// RemoteFileLog on a real sandbox-server: a file followed as it grows, is truncated and is
// replaced, both with the download-range extension and with AIO's documented endpoints only
// (a client that knows no extension: the download once, then /v1/file/read).
#include "client/api/remotefilelog.h"
#include "client/sandboxclient.h"
#include "tests/support/jobs.h"
#include "tests/support/localfiles.h"
#include "tests/support/testserver.h"

#include <QFile>
#include <QSignalSpy>
#include <QtTest>

#include <cstdio>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

bool writeText(const QString &path, const QByteArray &text, QIODevice::OpenMode mode) {
    QFile f(path);
    return f.open(mode) && f.write(text) == text.size();
}

// What a follower has been told: the bytes since the last restart, and the restarts.
struct Followed {
    QByteArray bytes;
    QStringList restarts;
    QString ended;
};

void collect(RemoteFileLog *log, Followed *into) {
    QObject::connect(log, &LogSource::bytes, log,
                     [into](const QByteArray &b) { into->bytes += b; });
    QObject::connect(log, &LogSource::restarted, log, [into](const QString &why) {
        into->restarts << why;
        into->bytes.clear();
    });
    QObject::connect(log, &LogSource::ended, log,
                     [into](const QString &why) { into->ended = why; });
}

} // namespace

class TestRemoteFileLog final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;
    TestServer m_aioOnly; // --no-extensions: AIO's documented contract only
    void followGrowTruncateReplace(TestServer &server, bool knowsExtensions);

private Q_SLOTS:
    void initTestCase();
    void withDownloadRange();
    void withAioEndpointsOnly();
    void againstAServerWithoutExtensions();
    void largeFileArrivesWhole();
    void missingFileEndsWithAReason();
};

void TestRemoteFileLog::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    QVERIFY2(m_aioOnly.start(TestServer::withArgs({u"--no-extensions"_s})),
             qPrintable(m_aioOnly.error()));
}

void TestRemoteFileLog::followGrowTruncateReplace(TestServer &server, bool knowsExtensions) {
    const QString path = server.workspace() + (knowsExtensions ? u"/range.log"_s : u"/aio.log"_s);
    QVERIFY(writeText(path, "one\ntwo\nthr", QIODevice::WriteOnly));
    SandboxClient client({server.url(), {}}, {});
    // Learns what the sandbox announces (none from a --no-extensions server), or nothing.
    if (knowsExtensions || &server == &m_aioOnly)
        QVERIFY(learnExtensions(&client));
    const bool announced = client.hasExtension(u"download-range"_s);
    QCOMPARE(announced, knowsExtensions && &server == &m_server);
    knowsExtensions = announced;
    QStringList paths;
    connect(&client, &SandboxClient::trafficLogged, this,
            [&paths](const TrafficRecord &r) { paths << r.method + u' ' + r.path; });
    RemoteFileLog log(&client, path);
    log.setPollInterval(100);
    QCOMPARE(log.usesRange(), knowsExtensions);
    Followed seen;
    collect(&log, &seen);
    log.start();
    QTRY_COMPARE_WITH_TIMEOUT(seen.bytes, QByteArray("one\ntwo\nthr"), 10000);

    // Grows: the rest of the open line, then more lines.
    QVERIFY(writeText(path, "ee\nfour\n", QIODevice::Append));
    QTRY_COMPARE_WITH_TIMEOUT(seen.bytes, QByteArray("one\ntwo\nthree\nfour\n"), 10000);
    QVERIFY(seen.restarts.isEmpty());

    // Truncated (copy-truncate rotation): said, and read again from the start.
    QVERIFY(writeText(path, "fresh\n", QIODevice::WriteOnly | QIODevice::Truncate));
    QTRY_COMPARE_WITH_TIMEOUT(seen.restarts.size(), 1, 10000);
    QVERIFY2(seen.restarts.first().contains(u"truncated"_s), qPrintable(seen.restarts.first()));
    QTRY_COMPARE_WITH_TIMEOUT(seen.bytes, QByteArray("fresh\n"), 10000);

    // Replaced by a longer, different file (rotation by rename): never spliced.
    QVERIFY(writeText(path + u".new"_s, "another file, longer than before\nline 2\n",
                      QIODevice::WriteOnly));
    QVERIFY(std::rename(QFile::encodeName(path + u".new"_s).constData(),
                        QFile::encodeName(path).constData()) == 0);
    QTRY_COMPARE_WITH_TIMEOUT(seen.restarts.size(), 2, 10000);
    QVERIFY2(seen.restarts.last().contains(u"replaced"_s), qPrintable(seen.restarts.last()));
    QTRY_COMPARE_WITH_TIMEOUT(seen.bytes, QByteArray("another file, longer than before\nline 2\n"),
                              10000);
    QVERIFY(seen.ended.isEmpty());

    // Which endpoints it used: only AIO's documented ones without the extension.
    const QStringList used = QStringList(paths).filter(u"/v1/"_s);
    QVERIFY(!used.isEmpty());
    for (const QString &p : used) {
        const bool documented = p == u"GET /v1/file/download"_s || p == u"POST /v1/file/read"_s ||
                                p.startsWith(u"GET /v1/sandbox"_s);
        QVERIFY2(documented, qPrintable(p));
    }
    QCOMPARE(used.contains(u"POST /v1/file/read"_s), !knowsExtensions);
}

void TestRemoteFileLog::withDownloadRange() {
    followGrowTruncateReplace(m_server, true);
}

void TestRemoteFileLog::withAioEndpointsOnly() {
    followGrowTruncateReplace(m_server, false);
}

void TestRemoteFileLog::againstAServerWithoutExtensions() {
    // The server announces nothing and ignores Range, as far as AIO's contract says.
    followGrowTruncateReplace(m_aioOnly, false);
}

void TestRemoteFileLog::largeFileArrivesWhole() {
    // Bigger than one Range piece (4 MiB): read piece after piece, identical.
    const QString path = m_server.workspace() + u"/large.log"_s;
    QByteArray text;
    for (int i = 0; text.size() < 9 * 1024 * 1024; ++i)
        text += "line " + QByteArray::number(i) + " with some words to make it longer\n";
    QVERIFY(writeText(path, text, QIODevice::WriteOnly));
    SandboxClient client({m_server.url(), {}}, {});
    QVERIFY(learnExtensions(&client));
    RemoteFileLog log(&client, path);
    Followed seen;
    collect(&log, &seen);
    log.start();
    QTRY_COMPARE_WITH_TIMEOUT(seen.bytes.size(), text.size(), 20000);
    QVERIFY(seen.bytes == text);
    QVERIFY(seen.restarts.isEmpty());
}

void TestRemoteFileLog::missingFileEndsWithAReason() {
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileLog log(&client, m_server.workspace() + u"/no-such.log"_s);
    Followed seen;
    collect(&log, &seen);
    log.start();
    QTRY_VERIFY_WITH_TIMEOUT(!seen.ended.isEmpty(), 10000);
    QVERIFY2(seen.ended.contains(u"no-such.log"_s), qPrintable(seen.ended));
}

QTEST_GUILESS_MAIN(TestRemoteFileLog)
#include "tst_remotefilelog.moc"
