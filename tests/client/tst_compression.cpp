// Compressed answers over a slow link: sandbox-server gzips JSON and text above 1 KiB when asked,
// the console asks (Qt's default Accept-Encoding) and decodes; what crossed the wire is counted
// by the proxy in between, the bytes the server put on the connection.
#include "client/api/filejobs.h"
#include "client/sandboxclient.h"
#include "tests/support/faultproxy.h"
#include "tests/support/testserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QtEndian>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {
constexpr int kFiles = 10000;

struct Answer {
    QByteArray body; // as the application sees it (decoded)
    QByteArray encoding;
    qint64 wireBytes = 0;
};
} // namespace

class TestCompression final : public QObject {
    Q_OBJECT
    TestServer m_server;
    QString m_folder;

    // One POST through a fresh proxy; acceptEncoding empty: Qt's own header.
    Answer post(const QString &path, const QByteArray &json, const QByteArray &acceptEncoding) {
        FaultProxy proxy(m_server.port());
        if (!proxy.listen())
            return {};
        proxy.setLatency(25);
        QNetworkAccessManager network;
        QNetworkRequest request(QUrl(proxy.url().toString() + path));
        request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
        if (!acceptEncoding.isEmpty())
            request.setRawHeader("Accept-Encoding", acceptEncoding);
        QNetworkReply *reply = network.post(request, json);
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!done.wait(30000))
            return {};
        Answer answer{reply->readAll(), reply->rawHeader("Content-Encoding"), 0};
        QTest::qWait(0);
        answer.wireBytes = proxy.bytesToClients();
        reply->deleteLater();
        return answer;
    }
    QByteArray listBody() const {
        return QJsonDocument(QJsonObject{{u"path"_s, m_folder}}).toJson(QJsonDocument::Compact);
    }

private Q_SLOTS:
    void initTestCase();
    void listingArrivesGzipped();
    void identityAndRefusalsAreHonoured();
    void consoleRowsAreTheSame();
    void firstRowsBeforeTheBodyIsWhole();
    void smallAnswersAndDownloadsStayAsTheyAre();
};

void TestCompression::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_folder = m_server.workspace() + u"/many"_s;
    QVERIFY(QDir().mkpath(m_folder));
    for (int i = 0; i < kFiles; ++i) {
        QFile file(m_folder + u"/file-%1.txt"_s.arg(i, 5, 10, QChar(u'0')));
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
}

// Qt asks for gzip by itself and decodes it: the application gets the same JSON, the wire
// carries a small part of it.
void TestCompression::listingArrivesGzipped() {
    const Answer zipped = post(u"/v1/file/list"_s, listBody(), {});
    const Answer plain = post(u"/v1/file/list"_s, listBody(), "identity");
    QCOMPARE(zipped.encoding, QByteArray("gzip"));
    QVERIFY(plain.encoding.isEmpty());
    QCOMPARE(zipped.body, plain.body);
    const QJsonArray files =
        QJsonDocument::fromJson(zipped.body).object()[u"data"_s].toObject()[u"files"_s].toArray();
    QCOMPARE(files.size(), kFiles);
    qInfo("listing of %d files: %lld bytes plain, %lld on the wire gzipped (%.1fx)", kFiles,
          plain.wireBytes, zipped.wireBytes, double(plain.wireBytes) / double(zipped.wireBytes));
    QVERIFY(plain.wireBytes > plain.body.size());
    QVERIFY2(zipped.wireBytes * 10 < plain.wireBytes,
             qPrintable(u"%1 vs %2"_s.arg(zipped.wireBytes).arg(plain.wireBytes)));
}

void TestCompression::identityAndRefusalsAreHonoured() {
    QCOMPARE(post(u"/v1/file/list"_s, listBody(), "gzip;q=0, deflate;q=0").encoding, QByteArray());
    QCOMPARE(post(u"/v1/file/list"_s, listBody(), "deflate").encoding, QByteArray("deflate"));
    QCOMPARE(post(u"/v1/file/list"_s, listBody(), "*;q=0.5").encoding, QByteArray("gzip"));
    // Qt decodes only what it asked for itself: a zlib stream, read here with qUncompress
    // (which wants the plain length in front).
    const Answer deflated = post(u"/v1/file/list"_s, listBody(), "deflate");
    const Answer plain = post(u"/v1/file/list"_s, listBody(), "identity");
    QByteArray framed(4, '\0');
    qToBigEndian(quint32(plain.body.size()), framed.data());
    QCOMPARE(qUncompress(framed + deflated.body), plain.body);
}

// The console's own job, through the same link: the rows it shows are the server's.
void TestCompression::consoleRowsAreTheSame() {
    FaultProxy proxy(m_server.port());
    QVERIFY(proxy.listen());
    proxy.setLatency(25);
    SandboxClient client({proxy.url(), {}}, {});
    auto *job = new ListFilesJob(&client, m_folder);
    QSignalSpy listed(job, &ListFilesJob::succeeded);
    job->start();
    QVERIFY(listed.wait(30000));
    const auto files = listed.first().first().value<QList<RemoteFileInfo>>();
    QCOMPARE(files.size(), kFiles);
    QStringList names;
    for (const RemoteFileInfo &f : files)
        names << f.name;
    names.sort();
    QCOMPARE(names.first(), u"file-00000.txt"_s);
    QCOMPARE(names.last(), u"file-09999.txt"_s);
    QVERIFY2(proxy.bytesToClients() < 200 * 1024,
             qPrintable(QString::number(proxy.bytesToClients())));
}

// Over a slow link (4 KiB per 10 ms) the first rows are there long before the last byte.
void TestCompression::firstRowsBeforeTheBodyIsWhole() {
    FaultProxy proxy(m_server.port());
    QVERIFY(proxy.listen());
    proxy.setLatency(25);
    proxy.setBytesPerTick(4096);
    SandboxClient client({proxy.url(), {}}, {});
    auto *job = new ListFilesJob(&client, m_folder);
    QSignalSpy listed(job, &ListFilesJob::succeeded);
    int previewed = 0;
    int batches = 0;
    bool beforeTheEnd = false;
    connect(job, &ListFilesJob::rowsArriving, this, [&](const QList<RemoteFileInfo> &rows) {
        if (batches++ == 0)
            beforeTheEnd = listed.isEmpty();
        previewed += int(rows.size());
    });
    job->start();
    QVERIFY(listed.wait(30000));
    QVERIFY(beforeTheEnd);
    QVERIFY2(batches >= 2, qPrintable(QString::number(batches)));
    // The first rows only: past them the bytes are kept, not scanned.
    QCOMPARE(previewed, int(ListFilesJob::kPreviewRows));
    QCOMPARE(listed.first().first().value<QList<RemoteFileInfo>>().size(), kFiles);
}

void TestCompression::smallAnswersAndDownloadsStayAsTheyAre() {
    const Answer small =
        post(u"/v1/file/list"_s,
             QJsonDocument(QJsonObject{{u"path"_s, QString(m_server.workspace() + u"/none"_s)}})
                 .toJson(QJsonDocument::Compact),
             "gzip");
    QVERIFY(small.body.size() < 1024);
    QVERIFY(small.encoding.isEmpty());
    // A file download is the file's bytes, whatever its type: Range and lengths stay true.
    const QString json = m_server.workspace() + u"/data.json"_s;
    QFile file(json);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(64 * 1024, '{'));
    file.close();
    QNetworkAccessManager network;
    QNetworkRequest request(m_server.url(u"/v1/file/download"_s, u"path="_s + json));
    request.setRawHeader("Accept-Encoding", "gzip");
    request.setRawHeader("Range", "bytes=10-19");
    QNetworkReply *reply = network.get(request);
    QSignalSpy done(reply, &QNetworkReply::finished);
    QVERIFY(done.wait(10000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 206);
    QVERIFY(reply->rawHeader("Content-Encoding").isEmpty());
    QCOMPARE(reply->readAll(), QByteArray(10, '{'));
    reply->deleteLater();
}

QTEST_GUILESS_MAIN(TestCompression)
#include "tst_compression.moc"
