// GET/HEAD /v1/file/download on a real sandbox-server: identical bytes with Content-Length,
// Content-Disposition for hostile names, 0-byte files, the download-range extension (ETag,
// Last-Modified, Range, If-Range, 416), errors, and change_policy=abort before (409) and during
// the transfer (the connection ends short of Content-Length).
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTcpSocket>
#include <QTest>
#include <QUrlQuery>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

QByteArray randomBytes(qsizetype size) {
    QByteArray bytes(size, Qt::Uninitialized);
    for (qsizetype i = 0; i < size; ++i)
        bytes[i] = static_cast<char>(QRandomGenerator::global()->generate() & 0xFF);
    return bytes;
}

} // namespace

class TestServerFilesDownload final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void identicalBytesAndHeaders();
    void emptyFile();
    void hostileNames();
    void head();
    void rangeAndIfRange();
    void unsatisfiableRange();
    void errors();
    void abortWhenChangedBeforeHeaders();
    void abortWhenChangedDuringTransfer();
    void extensionIsListed();
    void noExtensionsAnswersAsAio();

private:
    QString path(const QString &relative) const { return m_root + u'/' + relative; }
    void makeFile(const QString &full, const QByteArray &bytes) {
        QFile file(full);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(bytes), bytes.size());
    }
    QUrl downloadUrl(const QString &file, const QString &policy = {}, const QUrl &base = {}) const {
        QUrl url = base.isEmpty() ? m_server.url() : base;
        url.setPath(u"/v1/file/download"_s);
        QUrlQuery query;
        // Fully encoded, so that '+', '&' and newlines in names survive.
        query.addQueryItem(u"path"_s, QString::fromLatin1(QUrl::toPercentEncoding(file)));
        if (!policy.isEmpty())
            query.addQueryItem(u"change_policy"_s, policy);
        url.setQuery(query);
        return url;
    }
    HttpResult get(const QString &file, const HeaderPairs &headers = {},
                   const QString &policy = {}) {
        return request("GET", downloadUrl(file, policy), headers);
    }

    TestServer m_server;
    QString m_root;
};

void TestServerFilesDownload::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_root = m_server.workspace() + u"/downloads-suite"_s;
    QVERIFY(QDir().mkpath(m_root));
}

void TestServerFilesDownload::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerFilesDownload::identicalBytesAndHeaders() {
    const QByteArray bytes = randomBytes(3 * 1024 * 1024 + 11);
    makeFile(path(u"data.bin"_s), bytes);
    const HttpResult result = get(path(u"data.bin"_s));
    QCOMPARE(result.status, 200);
    QCOMPARE(result.header("Content-Length"), QByteArray::number(bytes.size()));
    QCOMPARE(result.header("Content-Type"), QByteArray("application/octet-stream"));
    QVERIFY(result.body == bytes);
    QCOMPARE(result.header("Content-Disposition"),
             QByteArray("attachment; filename=\"data.bin\"; filename*=UTF-8''data.bin"));
    QCOMPARE(result.header("Accept-Ranges"), QByteArray("bytes"));
    QVERIFY(result.header("ETag").startsWith('"'));
    QVERIFY(result.header("Last-Modified").endsWith(" GMT"));
    // Relative paths are taken against the workspace, as in the JSON routes.
    QCOMPARE(get(u"downloads-suite/data.bin"_s).body.size(), bytes.size());
}

void TestServerFilesDownload::emptyFile() {
    makeFile(path(u"empty"_s), {});
    const HttpResult result = get(path(u"empty"_s));
    QCOMPARE(result.status, 200);
    QCOMPARE(result.header("Content-Length"), QByteArray("0"));
    QVERIFY(result.body.isEmpty());
}

void TestServerFilesDownload::hostileNames() {
    const QStringList hostile = {u"with space.txt"_s, u"\u00fcnic\u00f8de \u2603.txt"_s,
                                 u"quote'\"s.txt"_s,  u"new\nline.txt"_s,
                                 u"-leading-dash"_s,  u"a+b&c=d%20?.txt"_s};
    for (const QString &name : hostile) {
        makeFile(path(name), name.toUtf8());
        const HttpResult result = get(path(name));
        QVERIFY2(result.status == 200, qPrintable(name));
        QCOMPARE(result.body, name.toUtf8());
        const QByteArray disposition = result.header("Content-Disposition");
        QVERIFY(!disposition.contains('\n'));
        const qsizetype star = disposition.indexOf("filename*=UTF-8''");
        QVERIFY(star > 0);
        QCOMPARE(QUrl::fromPercentEncoding(disposition.mid(star + 17)), name);
    }
}

void TestServerFilesDownload::head() {
    makeFile(path(u"head.bin"_s), QByteArray(1000, 'h'));
    const HttpResult result = request("HEAD", downloadUrl(path(u"head.bin"_s)));
    QCOMPARE(result.status, 200);
    QCOMPARE(result.header("Content-Length"), QByteArray("1000"));
    QVERIFY(result.body.isEmpty());
    QVERIFY(!result.header("ETag").isEmpty());
    // The connection stays usable after a HEAD.
    QCOMPARE(get(path(u"head.bin"_s)).body.size(), 1000);
}

void TestServerFilesDownload::rangeAndIfRange() {
    const QByteArray bytes = randomBytes(1000);
    makeFile(path(u"range.bin"_s), bytes);
    const HttpResult whole = get(path(u"range.bin"_s));
    const QByteArray etag = whole.header("ETag");
    const QByteArray modified = whole.header("Last-Modified");

    HttpResult part = get(path(u"range.bin"_s), {{"Range", "bytes=100-"}});
    QCOMPARE(part.status, 206);
    QCOMPARE(part.header("Content-Range"), QByteArray("bytes 100-999/1000"));
    QCOMPARE(part.header("Content-Length"), QByteArray("900"));
    QVERIFY(part.body == bytes.mid(100));
    part = get(path(u"range.bin"_s), {{"Range", "bytes=10-19"}});
    QCOMPARE(part.status, 206);
    QVERIFY(part.body == bytes.mid(10, 10));
    part = get(path(u"range.bin"_s), {{"Range", "bytes=-5"}});
    QCOMPARE(part.header("Content-Range"), QByteArray("bytes 995-999/1000"));
    QVERIFY(part.body == bytes.right(5));

    // If-Range with the current ETag or date resumes; the file is the one the client has.
    part = get(path(u"range.bin"_s), {{"Range", "bytes=500-"}, {"If-Range", etag}});
    QCOMPARE(part.status, 206);
    QVERIFY(part.body == bytes.mid(500));
    part = get(path(u"range.bin"_s), {{"Range", "bytes=500-"}, {"If-Range", modified}});
    QCOMPARE(part.status, 206);

    // The file changes: a stale If-Range gets the whole new file, never a splice.
    const QByteArray changed = randomBytes(1200);
    makeFile(path(u"range.bin"_s), changed);
    part = get(path(u"range.bin"_s), {{"Range", "bytes=500-"}, {"If-Range", etag}});
    QCOMPARE(part.status, 200);
    QVERIFY(part.body == changed);
    QVERIFY(part.header("ETag") != etag);
}

void TestServerFilesDownload::unsatisfiableRange() {
    makeFile(path(u"small.bin"_s), "0123456789");
    const HttpResult result = get(path(u"small.bin"_s), {{"Range", "bytes=10-"}});
    QCOMPARE(result.status, 416);
    QCOMPARE(result.header("Content-Range"), QByteArray("bytes */10"));
    QVERIFY(isErrorEnvelope(result.body));
    makeFile(path(u"zero.bin"_s), {});
    QCOMPARE(get(path(u"zero.bin"_s), {{"Range", "bytes=0-"}}).status, 416);
}

void TestServerFilesDownload::errors() {
    HttpResult result = get(path(u"missing.bin"_s));
    QCOMPARE(result.status, 404);
    QJsonObject envelope = result.json();
    QCOMPARE(envelope[u"success"_s], QJsonValue(false));
    QCOMPARE(envelope[u"data"_s][u"error_type"_s].toString(), u"not_found"_s);
    QCOMPARE(envelope[u"data"_s][u"errno_name"_s].toString(), u"ENOENT"_s);
    QCOMPARE(envelope[u"data"_s][u"operation"_s].toString(), u"download"_s);
    result = get(m_root);
    QCOMPARE(result.status, 400);
    QCOMPARE(result.json()[u"data"_s][u"error_type"_s].toString(), u"invalid_target"_s);
    QCOMPARE(result.json()[u"data"_s][u"errno_name"_s].toString(), u"EISDIR"_s);
    QUrl url = m_server.url(u"/v1/file/download"_s);
    result = request("GET", url);
    QCOMPARE(result.status, 422);
    QCOMPARE(result.json()[u"detail"_s][0][u"loc"_s].toArray(),
             QJsonArray({u"query"_s, u"path"_s}));
    QCOMPARE(get(path(u"small.bin"_s), {}, u"sometimes"_s).status, 422);
}

void TestServerFilesDownload::abortWhenChangedBeforeHeaders() {
    // sandbox-server-filestest: the real server plus a seam that appends to files named
    // *.change-before-headers between opening them and sending the headers.
    TestServer seam;
    TestServer::Options options;
    options.binary = QStringLiteral(SBX_FILESTEST_BINARY);
    options.workspace = m_server.workspace();
    QVERIFY2(seam.start(options), qPrintable(seam.error()));
    const QString file = path(u"moving.change-before-headers"_s);
    makeFile(file, "version one");
    HttpResult result = request("GET", downloadUrl(file, u"abort"_s, seam.url()));
    QCOMPARE(result.status, 409);
    QCOMPARE(result.json()[u"success"_s], QJsonValue(false));
    QVERIFY(result.json()[u"message"_s].toString().contains(u"changed"_s));
    QCOMPARE(result.json()[u"data"_s][u"path"_s].toString(), file);
    // With the default policy the same change is not an error.
    result = request("GET", downloadUrl(file, {}, seam.url()));
    QCOMPARE(result.status, 200);
    // A file nothing touches downloads with abort.
    QCOMPARE(get(path(u"small.bin"_s), {}, u"abort"_s).status, 200);
}

void TestServerFilesDownload::abortWhenChangedDuringTransfer() {
    const QString file = path(u"large.bin"_s);
    {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        const QByteArray block = randomBytes(1024 * 1024);
        for (int i = 0; i < 64; ++i)
            QCOMPARE(out.write(block), block.size());
    }
    const qint64 size = 64LL * 1024 * 1024;
    QTcpSocket socket;
    // A small read buffer: the socket stops taking bytes, so the server blocks mid-file.
    socket.setReadBufferSize(64 * 1024);
    socket.connectToHost(QHostAddress::LocalHost, m_server.port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write(
        "GET " +
        downloadUrl(file, u"abort"_s).toEncoded(QUrl::RemoveScheme | QUrl::RemoveAuthority) +
        " HTTP/1.1\r\nHost: x\r\n\r\n");
    QByteArray received;
    QDeadlineTimer deadline(30000);
    qsizetype headerEnd = -1;
    while (!deadline.hasExpired() && (headerEnd < 0 || received.size() <= headerEnd + 4)) {
        socket.waitForReadyRead(100);
        received += socket.readAll();
        headerEnd = received.indexOf("\r\n\r\n");
    }
    QVERIFY(headerEnd > 0);
    QCOMPARE(rawStatus(received), 200);
    const QByteArray lengthLine = "Content-Length: " + QByteArray::number(size);
    QVERIFY(received.left(headerEnd).contains(lengthLine));
    // The first chunk is here: change the file under the transfer.
    {
        QFile out(file);
        QVERIFY(out.open(QIODevice::Append));
        QCOMPARE(out.write("changed"), 7);
    }
    qint64 body = received.size() - headerEnd - 4;
    while (!deadline.hasExpired() && socket.state() == QAbstractSocket::ConnectedState) {
        socket.waitForReadyRead(100);
        body += socket.readAll().size();
    }
    body += socket.readAll().size();
    QCOMPARE(socket.state(), QAbstractSocket::UnconnectedState);
    qInfo("received %lld of %lld bytes before the server closed", body, size);
    QVERIFY(body < size);
}

void TestServerFilesDownload::extensionIsListed() {
    QUrl url = m_server.url(u"/v1/sandbox"_s);
    const QJsonArray extensions = request("GET", url).json()[u"extensions"_s].toArray();
    QVERIFY(extensions.contains(u"download-range"_s));
}

// --no-extensions: the peer of clients' AIO-only paths announces nothing and sends whole files.
void TestServerFilesDownload::noExtensionsAnswersAsAio() {
    TestServer plain;
    TestServer::Options options = TestServer::withArgs({u"--no-extensions"_s});
    options.workspace = m_server.workspace();
    QVERIFY2(plain.start(options), qPrintable(plain.error()));
    const QJsonArray extensions =
        request("GET", plain.url(u"/v1/sandbox"_s)).json()[u"extensions"_s].toArray();
    QVERIFY2(extensions.isEmpty(), QJsonDocument(extensions).toJson().constData());
    const QByteArray bytes = randomBytes(1000);
    makeFile(path(u"plain.bin"_s), bytes);
    const HttpResult whole = request("GET", downloadUrl(path(u"plain.bin"_s), {}, plain.url()),
                                     {{"Range", "bytes=100-"}});
    QCOMPARE(whole.status, 200);
    QVERIFY(whole.body == bytes);
    QCOMPARE(plain.stop(), 0);
}

QTEST_GUILESS_MAIN(TestServerFilesDownload)
#include "tst_server_files_download.moc"
