#include "client/api/remotefilelog.h"

#include "client/api/apijob.h"
#include "client/api/filejobs.h"
#include "client/api/filetransfer.h"
#include "client/sandboxclient.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTimer>
#include <QUrl>
#include <QUuid>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kOverlap = 64;
constexpr qint64 kPiece = 4 * 1024 * 1024;

// GET /v1/file/download with a Range: the bytes [from, from + size) or fewer at the end; 416
// when the file is shorter than from.
class RangeReadJob final : public ApiJob {
    Q_OBJECT
public:
    RangeReadJob(SandboxClient *client, const QString &path, qint64 from, qint64 size)
        : ApiJob(client, [&] {
            ApiRequest r = ApiRequest::get(u"v1/file/download"_s);
            r.query.addQueryItem(u"path"_s, QString::fromLatin1(QUrl::toPercentEncoding(path)));
            r.headers.append({"Range", "bytes=" + QByteArray::number(from) + '-' +
                                           QByteArray::number(from + size - 1)});
            return r;
        }()) {}
Q_SIGNALS:
    void succeeded(const QByteArray &bytes, bool partial);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override {
        m_bytes = body;
        m_partial = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 206;
        return Status::success();
    }
    void emitSucceeded() override { Q_EMIT succeeded(m_bytes, m_partial); }
    // A poll comes again anyway: no retries behind its back.
    bool shouldRetry(const Status &) override { return false; }

private:
    QByteArray m_bytes;
    bool m_partial = false;
};

QByteArray withoutCr(QByteArray bytes) {
    bytes.replace("\r\n", "\n");
    return bytes;
}

} // namespace

RemoteFileLog::RemoteFileLog(SandboxClient *client, QString path, QObject *parent)
    : LogSource(parent)
    , m_client(client)
    , m_path(std::move(path))
    , m_timer(new QTimer(this)) {
    m_timer->setSingleShot(true);
    m_timer->setInterval(kDefaultPollMs);
    connect(m_timer, &QTimer::timeout, this, &RemoteFileLog::poll);
}

RemoteFileLog::~RemoteFileLog() = default;

void RemoteFileLog::setPollInterval(int ms) {
    m_timer->setInterval(ms);
}

bool RemoteFileLog::usesRange() const {
    return m_client && m_client->hasExtension(u"download-range"_s);
}

void RemoteFileLog::start() {
    poll();
}

void RemoteFileLog::schedule() {
    if (!m_ended)
        m_timer->start();
}

void RemoteFileLog::fail(const QString &why) {
    m_ended = true;
    m_timer->stop();
    Q_EMIT ended(why);
}

void RemoteFileLog::poll() {
    if (m_busy || m_ended)
        return;
    if (!m_client) {
        fail(tr("The sandbox is gone"));
        return;
    }
    if (usesRange())
        readRange();
    else if (!m_downloaded)
        downloadWhole();
    else
        readLines();
}

void RemoteFileLog::accept(const QByteArray &bytes) {
    if (bytes.isEmpty())
        return;
    m_have += bytes.size();
    m_tailKept = bytes.size() >= kOverlap ? bytes.right(kOverlap)
                                          : QByteArray(m_tailKept + bytes).right(kOverlap);
    // What AIO's line reads are compared with: the last whole line and what follows it.
    QByteArray open = m_open + bytes;
    const qsizetype lastEnd = open.lastIndexOf('\n');
    if (lastEnd >= 0) {
        const QByteArray whole = open.left(lastEnd);
        m_lines += whole.count('\n') + 1;
        m_lastLine = whole.mid(whole.lastIndexOf('\n') + 1);
        open = open.mid(lastEnd + 1);
    }
    m_open = open;
    Q_EMIT this->bytes(bytes);
}

void RemoteFileLog::startOver(const QString &why) {
    m_have = 0;
    m_tailKept.clear();
    m_lines = 0;
    m_lastLine.clear();
    m_open.clear();
    m_downloaded = false;
    Q_EMIT restarted(why);
}

void RemoteFileLog::readRange() {
    const qint64 overlap = std::min(kOverlap, m_have);
    const qint64 from = m_have - overlap;
    auto *job = new RangeReadJob(m_client, m_path, from, overlap + kPiece);
    m_busy = true;
    connect(job, &RangeReadJob::succeeded, this,
            [this, overlap](const QByteArray &bytes, bool partial) {
                m_busy = false;
                // A server that ignores Range sends the whole file: keep only what is new.
                const QByteArray got = partial ? bytes : bytes.mid(m_have - overlap);
                if (got.left(overlap) != m_tailKept.right(overlap)) {
                    // Shorter than what was read: truncated; else other bytes: replaced.
                    startOver(
                        got.size() < overlap
                            ? tr("The file was truncated; showing it again from its start")
                            : tr("The file was replaced; showing the new one from its start"));
                    QTimer::singleShot(0, this, &RemoteFileLog::poll);
                    return;
                }
                accept(got.mid(overlap));
                // A full piece: there is more to read now.
                if (got.size() == overlap + kPiece)
                    QTimer::singleShot(0, this, &RemoteFileLog::poll);
                else
                    schedule();
            });
    connect(job, &ApiJob::failed, this, [this](const Status &status) {
        m_busy = false;
        if (status.httpStatus == 416) { // shorter than what was read: truncated
            startOver(tr("The file was truncated; showing it again from its start"));
            QTimer::singleShot(0, this, &RemoteFileLog::poll);
            return;
        }
        if (status.kind == Status::Kind::NotFound && m_have > 0) {
            // Gone for a moment while it is rotated: look again later.
            schedule();
            return;
        }
        fail(tr("Cannot follow %1: %2").arg(m_path, status.message));
    });
    job->start();
}

void RemoteFileLog::downloadWhole() {
    const QString folder =
        QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + u"/logs"_s;
    QDir().mkpath(folder);
    const QString local = folder + u"/remote-"_s + QUuid::createUuid().toString(QUuid::Id128);
    auto *job = new DownloadJob(m_client, m_path, local, /*abortOnChange=*/false);
    m_busy = true;
    connect(job, &DownloadJob::succeeded, this, [this, local] {
        m_busy = false;
        m_downloaded = true;
        emitFile(local);
        schedule();
    });
    connect(job, &ApiJob::failed, this, [this](const Status &status) {
        m_busy = false;
        fail(tr("Cannot follow %1: %2").arg(m_path, status.message));
    });
    job->start();
}

void RemoteFileLog::emitFile(const QString &local) {
    QFile file(local);
    if (file.open(QIODevice::ReadOnly)) {
        while (!file.atEnd())
            accept(file.read(kPiece));
    }
    file.remove();
}

void RemoteFileLog::readLines() {
    // From the last whole line: it must read as it did, else the file is not the same any more.
    const qint64 from = std::max<qint64>(0, m_lines - 1);
    auto *job = new ReadFileJob(m_client, m_path, int(from));
    m_busy = true;
    connect(job, &ReadFileJob::succeeded, this, [this](const QString &content) {
        m_busy = false;
        const QByteArray text = withoutCr(content.toUtf8());
        const QByteArray known = withoutCr(m_lines > 0 ? m_lastLine + '\n' + m_open : m_open);
        if (!text.startsWith(known)) {
            startOver(text.size() < known.size()
                          ? tr("The file was truncated; showing it again from its start")
                          : tr("The file was replaced; showing the new one from its start"));
            QTimer::singleShot(0, this, &RemoteFileLog::poll);
            return;
        }
        accept(text.mid(known.size()));
        schedule();
    });
    connect(job, &ApiJob::failed, this, [this](const Status &status) {
        m_busy = false;
        if (status.kind == Status::Kind::NotFound && m_have > 0) {
            schedule(); // rotated: the new one comes
            return;
        }
        fail(tr("Cannot follow %1: %2").arg(m_path, status.message));
    });
    job->start();
}

} // namespace sbx

#include "remotefilelog.moc"
