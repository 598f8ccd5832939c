#include "client/api/filetransfer.h"

#include "client/api/envelope.h"
#include "client/sandboxclient.h"

#include <QFileInfo>
#include <QNetworkReply>

#include <cerrno>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr int kMaxResumes = 5;
constexpr int kTransferSilenceMs = 60000;
// Bounds what the network thread reads ahead of our writes; unbounded (Qt's default), a fast
// server fills memory with the whole file while the disk catches up.
constexpr qint64 kDownloadReadBuffer = 4 << 20;
// Bytes per copy out of the reply; each read tells the network thread it may read on.
constexpr qsizetype kDownloadSlice = 256 << 10;
// What may wait for the writer thread; past it the GUI thread leaves bytes in the reply, whose
// bounded buffer then holds the network back.
constexpr qint64 kWriterQueueLimit = 8 << 20;

QString partPath(const QString &target) {
    return target + u".part"_s;
}

} // namespace

// Writes a download's blocks to its open `.part` descriptor on a thread of its own, in order;
// wake() runs on the writer thread when room frees up, a write failed, or finish() is done.
class PartWriter final {
public:
    PartWriter(int fd, std::function<void()> wake)
        : m_fd(fd)
        , m_wake(std::move(wake))
        , m_thread([this] { run(); }) {}
    ~PartWriter() {
        {
            const std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_ready.notify_one();
        m_thread.join();
    }
    PartWriter(const PartWriter &) = delete;
    PartWriter &operator=(const PartWriter &) = delete;

    bool full() const {
        const std::lock_guard lock(m_mutex);
        return m_queued >= kWriterQueueLimit;
    }
    // An empty block to fill: a recycled one (no fresh pages per block) or a new one.
    QByteArray block() {
        const std::lock_guard lock(m_mutex);
        if (m_spare.empty())
            return QByteArray(kDownloadSlice, Qt::Uninitialized);
        QByteArray spare = std::move(m_spare.back());
        m_spare.pop_back();
        spare.resize(kDownloadSlice);
        return spare;
    }
    void write(QByteArray bytes) { push({Op::Write, std::move(bytes)}); }
    // Back to an empty file (a resume the server answered with the whole file).
    void truncate() { push({Op::Truncate, {}}); }
    void finish() { push({Op::Finish, {}}); }
    QString error() const {
        const std::lock_guard lock(m_mutex);
        return m_error;
    }
    bool finished() const {
        const std::lock_guard lock(m_mutex);
        return m_finished;
    }

private:
    struct Op {
        enum Kind { Write, Truncate, Finish } kind;
        QByteArray bytes;
    };

    void push(Op op) {
        {
            const std::lock_guard lock(m_mutex);
            m_queued += op.bytes.size();
            m_finished = false;
            m_ops.push_back(std::move(op));
        }
        m_ready.notify_one();
    }

    bool writeAll(const QByteArray &bytes) {
        for (qsizetype done = 0; done < bytes.size();) {
            const ssize_t n = ::write(m_fd, bytes.constData() + done,
                                      static_cast<std::size_t>(bytes.size() - done));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return false;
            done += n;
        }
        return true;
    }

    void run() {
        for (;;) {
            Op op;
            bool failedBefore = false;
            {
                std::unique_lock lock(m_mutex);
                m_ready.wait(lock, [this] { return m_stop || !m_ops.empty(); });
                if (m_stop)
                    return;
                op = std::move(m_ops.front());
                m_ops.pop_front();
                failedBefore = !m_error.isEmpty();
            }
            QString error;
            if (!failedBefore && op.kind == Op::Write && !writeAll(op.bytes))
                error = qt_error_string(errno);
            if (!failedBefore && op.kind == Op::Truncate &&
                (::ftruncate(m_fd, 0) != 0 || ::lseek(m_fd, 0, SEEK_SET) < 0))
                error = qt_error_string(errno);
            bool wake = !error.isEmpty() || op.kind == Op::Finish;
            {
                const std::lock_guard lock(m_mutex);
                wake = wake || (m_queued >= kWriterQueueLimit &&
                                m_queued - op.bytes.size() < kWriterQueueLimit);
                m_queued -= op.bytes.size();
                if (m_error.isEmpty())
                    m_error = error;
                if (op.kind == Op::Finish)
                    m_finished = true;
                if (op.kind == Op::Write && m_spare.size() < 4 &&
                    op.bytes.capacity() >= kDownloadSlice &&
                    op.bytes.capacity() <= 2 * kDownloadSlice)
                    m_spare.push_back(std::move(op.bytes));
            }
            if (wake)
                m_wake();
        }
    }

    const int m_fd;
    const std::function<void()> m_wake;
    mutable std::mutex m_mutex;
    std::condition_variable m_ready;
    std::deque<Op> m_ops;
    std::vector<QByteArray> m_spare;
    qint64 m_queued = 0;
    QString m_error;
    bool m_finished = false;
    bool m_stop = false;
    std::thread m_thread; // last: starts once the members it uses exist
};

UploadJob::UploadJob(SandboxClient *client, const QString &localPath, const QString &remotePath)
    : ApiJob(client,
             [&] {
                 ApiRequest r;
                 r.verb = "POST";
                 r.path = u"v1/file/upload"_s;
                 r.idempotent = false;
                 r.timeoutMs = kTransferSilenceMs;
                 MultipartForm form;
                 form.fields.append({"path", remotePath.toUtf8()});
                 form.fileField = "file";
                 // The name is the target's, percent-encoded: the header is not the place for raw
                 // newlines or quotes, and the path field is what decides where the file goes.
                 form.fileName = QUrl::toPercentEncoding(QFileInfo(remotePath).fileName());
                 form.localPath = localPath;
                 r.form = std::move(form);
                 return r;
             }())
    , m_localPath(localPath)
    , m_remotePath(remotePath) {}

Status UploadJob::preflight() {
    QFile file(m_localPath);
    if (!file.open(QIODevice::ReadOnly))
        return Status::error(Status::Kind::Validation,
                             tr("Cannot read %1: %2").arg(m_localPath, file.errorString()));
    m_size = file.size();
    return Status::success();
}

Status UploadJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok()) {
        s.message = tr("Upload to %1 failed: %2").arg(m_remotePath, s.message);
        return s;
    }
    const qint64 stored = jsonInt(envelope.data, "file_size", -1);
    if (stored >= 0 && stored != m_size)
        return Status::error(Status::Kind::BadResponse,
                             tr("Upload to %1: the sandbox stored %2 bytes of %3")
                                 .arg(m_remotePath)
                                 .arg(stored)
                                 .arg(m_size));
    return Status::success();
}

DownloadJob::DownloadJob(SandboxClient *client, const QString &remotePath, const QString &localPath,
                         bool abortOnChange)
    : DownloadJob(
          client,
          [&] {
              ApiRequest r = ApiRequest::get(u"v1/file/download"_s);
              r.query.addQueryItem(u"path"_s,
                                   QString::fromLatin1(QUrl::toPercentEncoding(remotePath)));
              r.query.addQueryItem(u"change_policy"_s, abortOnChange ? u"abort"_s : u"ignore"_s);
              return r;
          }(),
          remotePath, localPath) {
    m_abortOnChange = abortOnChange;
}

DownloadJob::DownloadJob(SandboxClient *client, ApiRequest request, const QString &label,
                         const QString &localPath)
    : ApiJob(client,
             [&] {
                 request.timeoutMs = kTransferSilenceMs;
                 request.streamedResponse = true;
                 return std::move(request);
             }())
    , m_remotePath(label)
    , m_localPath(localPath)
    , m_abortOnChange(false)
    , m_part(partPath(localPath)) {}

DownloadJob::~DownloadJob() {
    // Joined before QObject's destructor drops the wake-ups it may still have posted.
    m_writer.reset();
    if (!m_committed)
        discardPart();
}

void DownloadJob::discardPart() {
    m_writer.reset();
    if (m_part.isOpen())
        m_part.close();
    QFile::remove(m_part.fileName());
}

Status DownloadJob::preflight() {
    m_bodyStarted = false;
    m_finishing = false;
    if (m_part.isOpen())
        return Status::success(); // a resume appends to what is there
    if (!m_part.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return Status::error(
            Status::Kind::Validation,
            tr("Cannot write %1: %2").arg(m_part.fileName(), m_part.errorString()));
    m_writer = std::make_unique<PartWriter>(m_part.handle(), [this] {
        QMetaObject::invokeMethod(this, &DownloadJob::onWriterEvent, Qt::QueuedConnection);
    });
    return Status::success();
}

void DownloadJob::prepareReply(QNetworkReply *reply) {
    m_reply = reply;
    // Before the request leaves: set on the first body bytes, the bound came after the network
    // thread had already queued whatever it read meanwhile (over 200 MB measured against a
    // sendfile server), and Qt then counted those bytes against the bound as freed.
    reply->setReadBufferSize(kDownloadReadBuffer);
}

bool DownloadJob::startBody(QNetworkReply *reply) {
    m_bodyStarted = true;
    const int http = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const qint64 length = reply->header(QNetworkRequest::ContentLengthHeader).toLongLong();
    const QByteArray etag = reply->rawHeader("ETag");
    if (http == 206) {
        // Content-Range: bytes START-END/TOTAL; we asked to continue at m_received.
        const QByteArray range = reply->rawHeader("Content-Range");
        const qint64 start = range.mid(6).split('-').value(0).toLongLong();
        if (start != m_received) {
            failWith(Status::error(
                Status::Kind::BadResponse,
                tr("Download of %1: the server resumed at the wrong offset").arg(m_remotePath)));
            return false;
        }
        m_expected = m_received + length;
        return true;
    }
    // A full body: the first attempt, or a resume the server refused because the file changed.
    if (m_received > 0 && m_abortOnChange) {
        failWith(Status::error(Status::Kind::Conflict,
                               tr("%1 changed during the download").arg(m_remotePath)));
        return false;
    }
    // Only when there is something to drop: on ext4, truncating a file to 0 makes its close()
    // start writing back all of it (auto_da_alloc), inside the download's time.
    if (m_received > 0)
        m_writer->truncate();
    m_received = 0;
    m_expected = reply->header(QNetworkRequest::ContentLengthHeader).isValid() ? length : -1;
    m_etag = etag;
    return true;
}

void DownloadJob::queue(QByteArray bytes) {
    if (bytes.isEmpty())
        return;
    m_received += bytes.size();
    m_writer->write(std::move(bytes));
}

void DownloadJob::onBodyData(QNetworkReply *reply) {
    if (!m_bodyStarted && !startBody(reply))
        return;
    readBody(reply);
}

void DownloadJob::readBody(QNetworkReply *reply) {
    if (const QString error = m_writer->error(); !error.isEmpty()) {
        failWith(Status::error(Status::Kind::Validation,
                               tr("Cannot write %1: %2").arg(m_part.fileName(), error)));
        return;
    }
    // Into recycled blocks: readAll()'s fresh allocation per chunk measured 3-5x slower.
    while (!m_writer->full()) {
        QByteArray block = m_writer->block();
        const qint64 n = reply->read(block.data(), block.size());
        if (n <= 0)
            return;
        block.resize(n);
        queue(std::move(block));
    }
}

void DownloadJob::onWriterEvent() {
    if (!m_writer)
        return;
    if (m_finishing) {
        if (const QString error = m_writer->error(); !error.isEmpty()) {
            m_finishing = false;
            finishParse(Status::error(Status::Kind::Validation,
                                      tr("Cannot write %1: %2").arg(m_part.fileName(), error)));
        } else if (m_writer->finished()) {
            m_finishing = false;
            finishParse(commit());
        }
        return;
    }
    if (m_reply && m_bodyStarted)
        readBody(m_reply);
}

Status DownloadJob::parseReply(const QByteArray &, QNetworkReply *) {
    // parseReplyAsync takes every body: its bytes go through the writer thread.
    return Status::error(Status::Kind::BadResponse, tr("Unexpected download reply"));
}

bool DownloadJob::parseReplyAsync(const QByteArray &body) {
    // A failed start has already reported itself.
    if (!m_bodyStarted && !startBody(m_reply))
        return true;
    queue(body);
    if (m_expected >= 0 && m_received != m_expected) {
        // What arrived is still written, in order, before a resumed attempt appends.
        finishParse(
            Status::error(Status::Kind::Network, tr("The download of %1 ended at %2 of %3 bytes")
                                                     .arg(m_remotePath)
                                                     .arg(m_received)
                                                     .arg(m_expected)));
        return true;
    }
    m_finishing = true;
    m_writer->finish();
    return true;
}

Status DownloadJob::commit() {
    m_writer.reset();
    m_part.close();
    std::error_code ec;
    std::filesystem::rename(m_part.fileName().toStdString(), m_localPath.toStdString(), ec);
    if (ec)
        return Status::error(
            Status::Kind::Validation,
            tr("Cannot save %1: %2").arg(m_localPath, QString::fromStdString(ec.message())));
    m_committed = true;
    return Status::success();
}

bool DownloadJob::shouldRetry(const Status &status) {
    if (!status.transient())
        return false;
    const bool canResume = client() && client()->hasExtension(u"download-range"_s) &&
                           !m_etag.isEmpty() && m_received > 0;
    ApiRequest &request = mutableRequest();
    request.headers.clear();
    if (canResume) {
        if (m_resumes >= kMaxResumes)
            return false;
        ++m_resumes;
        request.headers.append({"Range", "bytes=" + QByteArray::number(m_received) + '-'});
        request.headers.append({"If-Range", m_etag});
        return true;
    }
    return ApiJob::shouldRetry(status);
}

} // namespace sbx
