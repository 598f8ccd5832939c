// One file transfer through the client layer: `upload LOCAL REMOTE` (UploadJob) or
// `download REMOTE LOCAL` (DownloadJob) against BASE_URL. Does nothing else, so the VmHWM it
// prints at the end is the peak of that transfer. bench/files/run.sh compares it with curl.
// `qt-upload LOCAL REMOTE` sends the same multipart body through a bare QNetworkAccessManager,
// without the client layer: what Qt's HTTP stack alone achieves.
#include "client/api/filetransfer.h"
#include "client/sandboxclient.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHttpMultiPart>
#include <QNetworkAccessManager>
#include <QNetworkReply>

#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

// Peak resident set of this process in KiB, from /proc/self/status.
qint64 vmHwmKb() {
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

template <typename Job> int run(Job *job, const char *mode, QElapsedTimer *clock) {
    int rc = 1;
    qint64 bytes = 0;
    QObject::connect(job, &Job::succeeded, job, [&](qint64 size) {
        rc = 0;
        bytes = size;
    });
    QObject::connect(job, &Job::failed, job, [&](const Status &s) {
        std::fprintf(stderr, "%s failed: %s\n", mode, qPrintable(s.message));
    });
    QObject::connect(job, &Job::finished, qApp, &QCoreApplication::quit, Qt::QueuedConnection);
    clock->start();
    job->start();
    QCoreApplication::exec();
    const double seconds = clock->nsecsElapsed() / 1e9;
    if (rc == 0)
        std::printf("%s bytes=%lld seconds=%.3f MBps=%.1f vmhwm_kb=%lld\n", mode,
                    static_cast<long long>(bytes), seconds, bytes / 1e6 / seconds,
                    static_cast<long long>(vmHwmKb()));
    return rc;
}

// Runs the event loop until a bare Qt upload ends and prints its figures.
int awaitUpload(const char *mode, QNetworkReply *reply, const QElapsedTimer &clock, qint64 bytes) {
    QObject::connect(reply, &QNetworkReply::finished, qApp, &QCoreApplication::quit);
    QCoreApplication::exec();
    const double seconds = clock.nsecsElapsed() / 1e9;
    const int code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->error() != QNetworkReply::NoError || code != 200) {
        std::fprintf(stderr, "%s failed: HTTP %d %s\n", mode, code,
                     qPrintable(reply->errorString()));
        return 1;
    }
    std::printf("%s bytes=%lld seconds=%.3f MBps=%.1f vmhwm_kb=%lld\n", mode,
                static_cast<long long>(bytes), seconds, bytes / 1e6 / seconds,
                static_cast<long long>(vmHwmKb()));
    return 0;
}

int qtUpload(const QUrl &base, const QString &local, const QString &remote) {
    QNetworkAccessManager nam;
    auto *multipart = new QHttpMultiPart(QHttpMultiPart::FormDataType);
    QHttpPart pathPart;
    pathPart.setHeader(QNetworkRequest::ContentDispositionHeader,
                       QVariant(u"form-data; name=\"path\""_s));
    pathPart.setBody(remote.toUtf8());
    multipart->append(pathPart);
    QHttpPart filePart;
    filePart.setHeader(QNetworkRequest::ContentDispositionHeader,
                       QVariant(u"form-data; name=\"file\"; filename=\"f\""_s));
    filePart.setHeader(QNetworkRequest::ContentTypeHeader, QVariant(u"application/octet-stream"_s));
    auto *file = new QFile(local, multipart);
    if (!file->open(QIODevice::ReadOnly))
        return 1;
    const qint64 bytes = file->size();
    filePart.setBodyDevice(file);
    multipart->append(filePart);
    QElapsedTimer clock;
    clock.start();
    QNetworkReply *reply =
        nam.post(QNetworkRequest(base.resolved(QUrl(u"v1/file/upload"_s))), multipart);
    multipart->setParent(reply);
    return awaitUpload("qt-upload", reply, clock, bytes);
}

// The same body handed to QNetworkAccessManager as one QBuffer: the prefix, the file mapped (not
// copied) right after it and the suffix, contiguous in memory, so that Qt may take the body as
// a byte array instead of reading a device in small pieces. An experiment on Qt's upload path.
int qtUploadMapped(const QUrl &base, const QString &local, const QString &remote) {
    const int fd = ::open(QFile::encodeName(local).constData(), O_RDONLY);
    struct stat st {};
    if (fd < 0 || ::fstat(fd, &st) != 0)
        return 1;
    const QByteArray boundary = "sbxbench0123456789";
    const QByteArray prefix =
        "--" + boundary + "\r\nContent-Disposition: form-data; name=\"path\"\r\n\r\n" +
        remote.toUtf8() + "\r\n--" + boundary +
        "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f\"\r\n"
        "Content-Type: application/octet-stream\r\n\r\n";
    const QByteArray suffix = "\r\n--" + boundary + "--\r\n";
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const auto up = [page](std::size_t n) {
        return (n + page - 1) / page * page;
    };
    const auto size = static_cast<std::size_t>(st.st_size);
    const std::size_t head = up(static_cast<std::size_t>(prefix.size()));
    const std::size_t total = head + up(size) + up(static_cast<std::size_t>(suffix.size())) + page;
    auto *region = static_cast<char *>(
        ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (region == MAP_FAILED || ::mmap(region + head, size, PROT_READ | PROT_WRITE,
                                       MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED)
        return 1;
    ::close(fd);
    char *body = region + head - prefix.size();
    std::memcpy(body, prefix.constData(), static_cast<std::size_t>(prefix.size()));
    std::memcpy(region + head + size, suffix.constData(), static_cast<std::size_t>(suffix.size()));
    const qsizetype bodySize = prefix.size() + static_cast<qsizetype>(size) + suffix.size();
    QByteArray raw = QByteArray::fromRawData(body, bodySize);
    QBuffer buffer(&raw);
    buffer.open(QIODevice::ReadOnly);
    QNetworkAccessManager nam;
    QNetworkRequest request(base.resolved(QUrl(u"v1/file/upload"_s)));
    request.setHeader(QNetworkRequest::ContentTypeHeader,
                      QByteArray("multipart/form-data; boundary=" + boundary));
    QElapsedTimer clock;
    clock.start();
    QNetworkReply *reply = nam.post(request, &buffer);
    const int rc = awaitUpload("qt-upload-mapped", reply, clock, static_cast<qint64>(size));
    ::munmap(region, total);
    return rc;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QString mode = args.value(1);
    if (args.size() != 5 || (mode != u"upload"_s && mode != u"download"_s &&
                             mode != u"qt-upload"_s && mode != u"qt-upload-mapped"_s)) {
        std::fprintf(stderr, "usage: bench-file-transfer upload BASE_URL LOCAL REMOTE\n"
                             "       bench-file-transfer download BASE_URL REMOTE LOCAL\n"
                             "       bench-file-transfer qt-upload BASE_URL LOCAL REMOTE\n");
        return 2;
    }
    if (mode == u"qt-upload"_s)
        return qtUpload(QUrl(args.at(2)), args.at(3), args.at(4));
    if (mode == u"qt-upload-mapped"_s)
        return qtUploadMapped(QUrl(args.at(2)), args.at(3), args.at(4));
    SandboxClient client({QUrl(args.at(2)), {}}, {});
    QElapsedTimer clock;
    if (mode == u"upload"_s)
        return run(new UploadJob(&client, args.at(3), args.at(4)), "upload", &clock);
    return run(new DownloadJob(&client, args.at(3), args.at(4)), "download", &clock);
}
