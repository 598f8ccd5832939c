// POST /v1/file/upload on a real sandbox-server: multipart in either part order, large files
// intact, empty files, hostile names, a target folder, cut and malformed uploads leaving
// nothing behind, a target on another file system, and flat server memory during 200 MiB.
#include "tests/server/httptestclient.h"
#include "tests/support/localfiles.h"
#include "tests/support/testserver.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QHttpMultiPart>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <sys/stat.h>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

struct UploadResult {
    int status = 0;
    QJsonObject json;
    QByteArray body;
};

} // namespace

class TestServerFilesUpload final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void fileFirstAndPathFirst();
    void largeFileArrivesIdentical();
    void emptyFile();
    void hostileNames();
    void folderTargetUsesTheFilename();
    void missingParentIsNotFound();
    void chunkedThenSizedOnOneConnection();
    void cutUploadLeavesNothing();
    void malformedMultipartLeavesNothing();
    void targetOnAnotherFileSystem();
    void memoryStaysFlat();

private:
    QString path(const QString &relative) const { return m_root + u'/' + relative; }
    QString stagingFolder() const { return m_server.workspace() + u"/.sandbox-server/uploads"_s; }
    QStringList staged() const {
        return QDir(stagingFolder()).entryList(QDir::Files | QDir::Hidden | QDir::System);
    }
    QByteArray contents(const QString &full) {
        QFile file(full);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
    }
    // `source` is streamed from disk by QNAM; `whileRunning` is called every 20 ms.
    UploadResult upload(QIODevice *source, const QByteArray &filename,
                        std::optional<QString> target, bool fileFirst,
                        const std::function<void()> &whileRunning = {}) {
        auto *multi = new QHttpMultiPart(QHttpMultiPart::FormDataType);
        QHttpPart filePart;
        filePart.setHeader(QNetworkRequest::ContentDispositionHeader,
                           QByteArray("form-data; name=\"file\"; filename=\"" + filename + "\""));
        filePart.setHeader(QNetworkRequest::ContentTypeHeader,
                           QByteArrayLiteral("application/octet-stream"));
        filePart.setBodyDevice(source);
        QHttpPart pathPart;
        pathPart.setHeader(QNetworkRequest::ContentDispositionHeader,
                           QByteArrayLiteral("form-data; name=\"path\""));
        if (target)
            pathPart.setBody(target->toUtf8());
        if (target && !fileFirst)
            multi->append(pathPart);
        multi->append(filePart);
        if (target && fileFirst)
            multi->append(pathPart);
        QUrl url = m_server.url(u"/v1/file/upload"_s);
        QNetworkAccessManager manager;
        QNetworkReply *reply = manager.post(QNetworkRequest(url), multi);
        multi->setParent(reply);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer sampler;
        if (whileRunning) {
            QObject::connect(&sampler, &QTimer::timeout, &loop, whileRunning);
            sampler.start(20);
        }
        QTimer::singleShot(120000, &loop, &QEventLoop::quit);
        if (!reply->isFinished())
            loop.exec();
        UploadResult result;
        result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        result.body = reply->readAll();
        result.json = QJsonDocument::fromJson(result.body).object();
        delete reply;
        return result;
    }
    UploadResult uploadBytes(const QByteArray &bytes, const QByteArray &filename,
                             std::optional<QString> target, bool fileFirst = true) {
        QTemporaryDir dir;
        QFile file(dir.filePath(u"source"_s));
        if (!file.open(QIODevice::ReadWrite) || file.write(bytes) != bytes.size())
            return {};
        file.seek(0);
        return upload(&file, filename, std::move(target), fileFirst);
    }
    bool isSuccess(const UploadResult &result, const QString &target, qint64 size) {
        const QJsonObject data = result.json[u"data"_s].toObject();
        const bool ok = result.status == 200 && result.json[u"success"_s] == QJsonValue(true) &&
                        data[u"file_path"_s].toString() == target &&
                        data[u"file_size"_s].toInteger() == size &&
                        data[u"success"_s] == QJsonValue(true);
        if (!ok)
            qWarning() << result.status << result.body;
        return ok;
    }

    TestServer m_server;
    QString m_root;
};

void TestServerFilesUpload::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_root = m_server.workspace() + u"/uploads-suite"_s;
    QVERIFY(QDir().mkpath(m_root));
}

void TestServerFilesUpload::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerFilesUpload::fileFirstAndPathFirst() {
    UploadResult result = uploadBytes("file first", "a.txt", path(u"first.txt"_s), true);
    QVERIFY(isSuccess(result, path(u"first.txt"_s), 10));
    QCOMPARE(result.json[u"message"_s].toString().isEmpty(), false);
    QCOMPARE(contents(path(u"first.txt"_s)), QByteArray("file first"));
    result = uploadBytes("path first!", "b.txt", path(u"second.txt"_s), false);
    QVERIFY(isSuccess(result, path(u"second.txt"_s), 11));
    QCOMPARE(contents(path(u"second.txt"_s)), QByteArray("path first!"));
    // An existing file is replaced whole.
    result = uploadBytes("new", "c.txt", path(u"first.txt"_s), true);
    QVERIFY(isSuccess(result, path(u"first.txt"_s), 3));
    QCOMPARE(contents(path(u"first.txt"_s)), QByteArray("new"));
    QVERIFY(staged().isEmpty());
}

void TestServerFilesUpload::largeFileArrivesIdentical() {
    QTemporaryDir dir;
    const QString source = dir.filePath(u"big.bin"_s);
    QVERIFY(writeRandomFile(source, 20 * 1024 * 1024 + 17));
    QFile file(source);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const UploadResult result = upload(&file, "big.bin", path(u"big.bin"_s), true);
    QVERIFY(isSuccess(result, path(u"big.bin"_s), 20 * 1024 * 1024 + 17));
    QCOMPARE(sha256(path(u"big.bin"_s)), sha256(source));
    QVERIFY(staged().isEmpty());
    QFile::remove(path(u"big.bin"_s));
}

void TestServerFilesUpload::emptyFile() {
    const UploadResult result = uploadBytes({}, "empty", path(u"empty.txt"_s));
    QVERIFY(isSuccess(result, path(u"empty.txt"_s), 0));
    QVERIFY(QFile::exists(path(u"empty.txt"_s)));
    QCOMPARE(QFileInfo(path(u"empty.txt"_s)).size(), 0);
}

void TestServerFilesUpload::hostileNames() {
    const QStringList hostile = {u"with space.txt"_s, u"\u00fcnic\u00f8de \u2603.txt"_s,
                                 u"quote'\"s.txt"_s,  u"new\nline.txt"_s,
                                 u"-leading-dash"_s,  u"--"_s};
    for (const QString &name : hostile) {
        const UploadResult result = uploadBytes(name.toUtf8(), "x.bin", path(name), false);
        QVERIFY2(isSuccess(result, path(name), name.toUtf8().size()), qPrintable(name));
        QCOMPARE(contents(path(name)), name.toUtf8());
    }
}

void TestServerFilesUpload::folderTargetUsesTheFilename() {
    QVERIFY(QDir().mkpath(path(u"into"_s)));
    UploadResult result = uploadBytes("named", "report 2024.pdf", path(u"into"_s));
    QVERIFY(isSuccess(result, path(u"into/report 2024.pdf"_s), 5));
    // A filename with folders in it keeps only its last component.
    result = uploadBytes("base", "../../escape.txt", path(u"into/"_s));
    QVERIFY(isSuccess(result, path(u"into/escape.txt"_s), 4));
}

void TestServerFilesUpload::missingParentIsNotFound() {
    const UploadResult result = uploadBytes("x", "x", path(u"no/such/folder/x.txt"_s));
    QCOMPARE(result.status, 200);
    QCOMPARE(result.json[u"success"_s], QJsonValue(false));
    const QJsonObject data = result.json[u"data"_s].toObject();
    QCOMPARE(data[u"error_type"_s].toString(), u"not_found"_s);
    QCOMPARE(data[u"errno_name"_s].toString(), u"ENOENT"_s);
    QCOMPARE(data[u"operation"_s].toString(), u"upload"_s);
    QCOMPARE(data[u"path"_s].toString(), path(u"no/such/folder/x.txt"_s));
    QVERIFY(staged().isEmpty());
}

// A chunked body (Beast's parser) and then, on the same connection, one with a Content-Length
// read straight from the socket across several blocks: both files arrive whole, and each body is
// read exactly to its end, so the connection carries the next request.
void TestServerFilesUpload::chunkedThenSizedOnOneConnection() {
    const QByteArray boundary = "kEeP";
    const auto head = [&](const QString &target) -> QByteArray {
        return "--" + boundary + "\r\nContent-Disposition: form-data; name=\"path\"\r\n\r\n" +
               target.toUtf8() + "\r\n--" + boundary +
               "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f\"\r\n\r\n";
    };
    const QByteArray tail = "\r\n--" + boundary + "--\r\n";
    QByteArray small;
    for (int i = 0; i < 300; ++i)
        small += "\r\n--kEe" + QByteArray::number(i); // near misses of the delimiter
    // Near misses of the delimiter across the ends of the server's 1 MiB blocks.
    const QByteArray sizedHead = head(path(u"sized.bin"_s));
    QByteArray large = QByteArray(3 * 1024 * 1024 + 17, 'L');
    for (qsizetype end = 1024 * 1024; end < large.size(); end += 1024 * 1024)
        large.replace(end - sizedHead.size() - 4, 8, "\r\n--kEeQ");
    QByteArray chunked;
    const QByteArray first = head(path(u"chunked.bin"_s)) + small + tail;
    for (qsizetype at = 0; at < first.size(); at += 7) {
        const QByteArray piece = first.mid(at, 7);
        chunked += QByteArray::number(piece.size(), 16) + "\r\n" + piece + "\r\n";
    }
    chunked += "0\r\n\r\n";
    const QByteArray second = sizedHead + large + tail;

    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_server.port());
    QVERIFY(socket.waitForConnected(5000));
    QByteArray received;
    const auto awaitResponse = [&] {
        received.clear();
        QDeadlineTimer deadline(30000);
        while (completeResponseLength(received) < 0 && !deadline.hasExpired() &&
               socket.state() == QAbstractSocket::ConnectedState) {
            socket.waitForBytesWritten(0);
            if (socket.waitForReadyRead(200))
                received += socket.readAll();
        }
    };
    socket.write("POST /v1/file/upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; "
                 "boundary=" +
                 boundary + "\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked);
    awaitResponse();
    QCOMPARE(rawStatus(received), 200);
    QCOMPARE(contents(path(u"chunked.bin"_s)), small);
    socket.write("POST /v1/file/upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; "
                 "boundary=" +
                 boundary + "\r\nContent-Length: " + QByteArray::number(second.size()) +
                 "\r\n\r\n" + second);
    awaitResponse();
    QCOMPARE(rawStatus(received), 200);
    QVERIFY(contents(path(u"sized.bin"_s)) == large);
    QVERIFY(staged().isEmpty());
}

void TestServerFilesUpload::cutUploadLeavesNothing() {
    const QByteArray boundary = "cutcutcut";
    const QByteArray head = "--" + boundary +
                            "\r\nContent-Disposition: form-data; name=\"path\"\r\n\r\n" +
                            path(u"cut.bin"_s).toUtf8() + "\r\n--" + boundary +
                            "\r\nContent-Disposition: form-data; name=\"file\"; "
                            "filename=\"cut.bin\"\r\n\r\n";
    const qint64 total = head.size() + 4 * 1024 * 1024;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_server.port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write("POST /v1/file/upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; "
                 "boundary=" +
                 boundary + "\r\nContent-Length: " + QByteArray::number(total) + "\r\n\r\n" + head +
                 QByteArray(1024 * 1024, 'h'));
    // Rendezvous: the server has started staging the file part.
    QTRY_VERIFY_WITH_TIMEOUT(!staged().isEmpty(), 10000);
    socket.abort();
    QTRY_VERIFY_WITH_TIMEOUT(staged().isEmpty(), 10000);
    QVERIFY(!QFile::exists(path(u"cut.bin"_s)));
}

void TestServerFilesUpload::malformedMultipartLeavesNothing() {
    auto send = [&](const QByteArray &contentType, const QByteArray &body) {
        return rawExchange(
            m_server.port(),
            "POST /v1/file/upload HTTP/1.1\r\nHost: x\r\nContent-Type: " + contentType +
                "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    };
    // A file part that never ends: the body stops before the closing boundary.
    QByteArray raw = send("multipart/form-data; boundary=zz",
                          "--zz\r\nContent-Disposition: form-data; name=\"path\"\r\n\r\n" +
                              path(u"bad.bin"_s).toUtf8() +
                              "\r\n--zz\r\nContent-Disposition: form-data; name=\"file\"; "
                              "filename=\"bad.bin\"\r\n\r\npartial data");
    QCOMPARE(rawStatus(raw), 400);
    QVERIFY(isErrorEnvelope(rawBody(raw)));
    // Part headers without a Content-Disposition.
    raw =
        send("multipart/form-data; boundary=zz", "--zz\r\nX-Nothing: 1\r\n\r\ndata\r\n--zz--\r\n");
    QCOMPARE(rawStatus(raw), 400);
    // Not multipart at all.
    raw = send("application/json", "{}");
    QCOMPARE(rawStatus(raw), 422);
    // No file part.
    raw = send("multipart/form-data; boundary=zz",
               "--zz\r\nContent-Disposition: form-data; name=\"path\"\r\n\r\n/tmp/x\r\n--zz--\r\n");
    QCOMPARE(rawStatus(raw), 422);
    QVERIFY(rawBody(raw).contains("\"file\""));
    QVERIFY(!QFile::exists(path(u"bad.bin"_s)));
    QVERIFY(staged().isEmpty());
}

void TestServerFilesUpload::targetOnAnotherFileSystem() {
    struct stat shm {};
    struct stat state {};
    if (::stat("/dev/shm", &shm) != 0 || ::stat(QFile::encodeName(stagingFolder()), &state) != 0 ||
        shm.st_dev == state.st_dev)
        QSKIP("no /dev/shm on a file system other than the workspace's: EXDEV cannot be shown");
    QTemporaryDir other(u"/dev/shm/sbx-upload-XXXXXX"_s);
    QVERIFY(other.isValid());
    const QString target = other.filePath(u"across.bin"_s);
    const UploadResult result = uploadBytes("across file systems", "a", target);
    QVERIFY(isSuccess(result, target, 19));
    QCOMPARE(contents(target), QByteArray("across file systems"));
    QCOMPARE(QDir(other.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{u"across.bin"_s});
    QVERIFY(staged().isEmpty());
}

void TestServerFilesUpload::memoryStaysFlat() {
    QTemporaryDir dir;
    const QString source = dir.filePath(u"huge.bin"_s);
    const qint64 size = 200LL * 1024 * 1024;
    QVERIFY(writeRandomFile(source, size));
    QFile file(source);
    QVERIFY(file.open(QIODevice::ReadOnly));
    qint64 peak = m_server.residentKiB();
    const UploadResult result = upload(&file, "huge.bin", path(u"huge.bin"_s), true,
                                       [&] { peak = qMax(peak, m_server.residentKiB()); });
    peak = qMax(peak, m_server.residentKiB());
    QVERIFY(isSuccess(result, path(u"huge.bin"_s), size));
    QCOMPARE(QFileInfo(path(u"huge.bin"_s)).size(), size);
    qInfo("server peak VmRSS during a 200 MiB upload: %lld KiB", peak);
    QVERIFY(peak > 0);
    QVERIFY(peak < TestServer::memoryBoundKiB(64 * 1024));
    QFile::remove(path(u"huge.bin"_s));
}

QTEST_GUILESS_MAIN(TestServerFilesUpload)
#include "tst_server_files_upload.moc"
