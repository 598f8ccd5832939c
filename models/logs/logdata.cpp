#include "models/logs/logdata.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QStandardPaths>
#include <QTimer>
#include <QUuid>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kReadChunk = 4 * 1024 * 1024;
constexpr int kProgressMs = 50;
constexpr int kFollowMs = 500;

// Line lengths (terminator included) of the complete lines in data, whose first line started
// lineStart bytes before data; returns the bytes of the line still open at its end.
qint64 scanLines(const char *data, qint64 size, qint64 carried, std::vector<qint64> *lengths) {
    const char *p = data;
    const char *end = data + size;
    qint64 open = carried;
    while (p < end) {
        const void *nl = std::memchr(p, '\n', size_t(end - p));
        if (!nl) {
            open += end - p;
            break;
        }
        const char *at = static_cast<const char *>(nl);
        lengths->push_back(open + (at - p) + 1);
        open = 0;
        p = at + 1;
    }
    return open;
}

bool readFully(int fd, char *into, qint64 size, qint64 offset) {
    while (size > 0) {
        const ssize_t n = ::pread(fd, into, size_t(size), offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        into += n;
        size -= n;
        offset += n;
    }
    return true;
}

QString systemError(int error) {
    return QString::fromLocal8Bit(std::strerror(error));
}

} // namespace

LogData::LogData(QObject *parent)
    : QObject(parent) {}

LogData::~LogData() {
    stopWorker();
    closeStorage();
}

void LogData::closeStorage() {
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

bool LogData::openSpool() {
    stopWorker();
    closeStorage();
    const QString folder =
        QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + u"/logs"_s;
    QDir().mkpath(folder);
    const QString file = folder + u"/spool-"_s + QUuid::createUuid().toString(QUuid::Id128);
    m_fd = ::open(QFile::encodeName(file).constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (m_fd < 0) {
        m_error = tr("Cannot keep the log in %1: %2").arg(folder, systemError(errno));
        return false;
    }
    // Unlinked at once: the bytes live as long as the descriptor, never longer.
    ::unlink(QFile::encodeName(file).constData());
    m_spool = true;
    m_path.clear();
    return true;
}

bool LogData::openFile(const QString &path, bool follow) {
    stopWorker();
    closeStorage();
    m_spool = false;
    m_path = path;
    m_fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0) {
        m_error = tr("Cannot open %1: %2").arg(path, systemError(errno));
        return false;
    }
    struct stat st {};
    ::fstat(m_fd, &st);
    m_inode = quint64(st.st_ino);
    {
        std::unique_lock lock(m_lock);
        m_index.clear();
    }
    m_lines = m_tail = m_size = 0;
    m_indexedOnce = false;
    startIndexing(0, qint64(st.st_size));
    if (follow && !m_follow) {
        m_follow = new QTimer(this);
        m_follow->setInterval(kFollowMs);
        connect(m_follow, &QTimer::timeout, this, &LogData::poll);
        m_follow->start();
    }
    return true;
}

void LogData::append(QByteArrayView bytes) {
    if (bytes.isEmpty() || m_fd < 0 || !m_spool)
        return;
    const char *p = bytes.data();
    qint64 left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(m_fd, p, size_t(left));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            // What did reach the disk stays readable; the rest is reported, not hidden.
            const QString message =
                tr("The log could not be kept on disk: %1").arg(systemError(errno));
            bytes = bytes.first(bytes.size() - left);
            if (m_error != message) {
                m_error = message;
                Q_EMIT failed(message);
            }
            break;
        }
        p += n;
        left -= n;
    }
    if (bytes.isEmpty())
        return;
    std::vector<qint64> lengths;
    const qint64 open = scanLines(bytes.data(), bytes.size(), m_tail, &lengths);
    const qint64 firstChanged = m_lines;
    {
        std::unique_lock lock(m_lock);
        m_index.addLines(lengths);
    }
    m_lines += qint64(lengths.size());
    m_tail = open;
    m_size += bytes.size();
    Q_EMIT grew(firstChanged, lineCount());
}

void LogData::restart(const QString &why) {
    stopWorker();
    {
        std::unique_lock lock(m_lock);
        m_index.clear();
    }
    m_lines = m_tail = m_size = 0;
    m_error.clear();
    if (m_spool) {
        if (m_fd >= 0 && ::ftruncate(m_fd, 0) == 0)
            ::lseek(m_fd, 0, SEEK_SET);
        Q_EMIT reset(why);
        return;
    }
    Q_EMIT reset(why);
    if (!m_path.isEmpty() && !openFile(m_path, m_follow != nullptr))
        Q_EMIT failed(m_error);
}

qint64 LogData::lineCount() const {
    return m_lines + (m_tail > 0 ? 1 : 0);
}

qint64 LogData::byteSize() const {
    return m_size;
}

qint64 LogData::indexMemoryBytes() const {
    std::shared_lock lock(m_lock);
    return m_index.memoryBytes();
}

LogData::Snapshot LogData::snapshot() const {
    return {lineCount(), m_size};
}

QList<QByteArray> LogData::lines(qint64 first, qint64 count, qint64 maxBytes) const {
    QList<QByteArray> out;
    first = std::max<qint64>(0, first);
    count = std::min(count, lineCount() - first);
    if (count <= 0 || m_fd < 0)
        return out;
    const auto ranges = lineRanges(first, count);
    out.reserve(qsizetype(ranges.size()));
    for (const auto &[start, length] : ranges) {
        QByteArray bytes = readBytes(start, std::min(length, maxBytes));
        // A whole line read whole ends with its '\n'; the line still open has none.
        if (bytes.size() == length && bytes.endsWith('\n'))
            bytes.chop(1);
        out << bytes;
    }
    return out;
}

QByteArray LogData::line(qint64 index, qint64 maxBytes) const {
    const QList<QByteArray> one = lines(index, 1, maxBytes);
    return one.isEmpty() ? QByteArray() : one.first();
}

qint64 LogData::lineLength(qint64 index) const {
    if (index < 0 || index >= lineCount())
        return 0;
    if (index == m_lines)
        return m_tail;
    std::shared_lock lock(m_lock);
    return m_index.range(index).second - 1;
}

qint64 LogData::lineAt(qint64 offset) const {
    std::shared_lock lock(m_lock);
    if (offset >= m_index.endOffset() && m_tail > 0)
        return m_lines;
    return std::min(m_index.lineAt(offset), std::max<qint64>(0, lineCount() - 1));
}

qint64 LogData::lineStart(qint64 index) const {
    if (index >= lineCount())
        return m_size;
    std::shared_lock lock(m_lock);
    return m_index.range(index).first;
}

std::vector<std::pair<qint64, qint64>> LogData::lineRanges(qint64 first, qint64 count) const {
    std::shared_lock lock(m_lock);
    auto out = m_index.ranges(first, count);
    const qint64 got = qint64(out.size());
    const qint64 tail = m_tail.load();
    if (got < count && first + got == m_index.lineCount() && tail > 0)
        out.emplace_back(m_index.endOffset(), tail);
    return out;
}

QByteArray LogData::readBytes(qint64 offset, qint64 size) const {
    if (size <= 0 || m_fd < 0)
        return {};
    QByteArray out(size, Qt::Uninitialized);
    if (!readFully(m_fd, out.data(), size, offset))
        return {};
    return out;
}

void LogData::startIndexing(qint64 from, qint64 to) {
    if (to <= from) {
        if (!m_indexedOnce) {
            m_indexedOnce = true;
            Q_EMIT indexed();
        }
        return;
    }
    m_indexing = true;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancel = m_cancel;
    const int fd = m_fd;
    const qint64 carried = m_tail;
    m_tail = 0; // shown again when the worker is done
    m_worker = std::thread([this, cancel, fd, from, to, carried] {
        std::vector<char> buffer(static_cast<size_t>(kReadChunk));
        std::vector<qint64> lengths;
        qint64 open = carried;
        QElapsedTimer sincePost;
        sincePost.start();
        QString error;
        for (qint64 at = from + carried; at < to && !cancel->load(); at += kReadChunk) {
            const qint64 n = std::min(kReadChunk, to - at);
            if (!readFully(fd, buffer.data(), n, at)) {
                error = tr("Reading the log failed: %1").arg(systemError(errno));
                break;
            }
            lengths.clear();
            open = scanLines(buffer.data(), n, open, &lengths);
            qint64 lines = 0;
            {
                std::unique_lock lock(m_lock);
                m_index.addLines(lengths);
                lines = m_index.lineCount();
            }
            if (sincePost.elapsed() >= kProgressMs) {
                sincePost.restart();
                const qint64 done = at + n;
                QMetaObject::invokeMethod(
                    this,
                    [this, cancel, lines, done, to] {
                        if (!cancel->load())
                            indexerProgress(lines, done, to);
                    },
                    Qt::QueuedConnection);
            }
        }
        QMetaObject::invokeMethod(
            this,
            [this, cancel, to, open, error] {
                if (!cancel->load())
                    indexerDone(to, open, error);
            },
            Qt::QueuedConnection);
    });
}

void LogData::indexerProgress(qint64 lines, qint64 done, qint64 total) {
    const qint64 firstChanged = m_lines;
    m_lines = lines;
    {
        std::shared_lock lock(m_lock);
        m_size = m_index.endOffset();
    }
    Q_EMIT indexProgress(done, total);
    Q_EMIT grew(firstChanged, lineCount());
}

void LogData::indexerDone(qint64 end, qint64 tail, const QString &error) {
    if (m_worker.joinable())
        m_worker.join();
    const bool first = !m_indexedOnce;
    m_indexedOnce = true;
    m_indexing = false;
    const qint64 firstChanged = m_lines;
    {
        std::shared_lock lock(m_lock);
        m_lines = m_index.lineCount();
    }
    m_tail = tail;
    m_size = end;
    if (!error.isEmpty()) {
        m_error = error;
        Q_EMIT failed(error);
    }
    Q_EMIT indexProgress(end, end);
    Q_EMIT grew(firstChanged, lineCount());
    if (first)
        Q_EMIT indexed();
}

void LogData::poll() {
    if (m_indexing || m_path.isEmpty())
        return;
    struct stat st {};
    if (::stat(QFile::encodeName(m_path).constData(), &st) != 0) {
        // Gone for now (a rotation in progress): keep what is shown, look again later.
        return;
    }
    if (quint64(st.st_ino) != m_inode) {
        restart(tr("The file was replaced; showing the new one from its start"));
        return;
    }
    if (qint64(st.st_size) < m_size) {
        restart(tr("The file was truncated; showing it again from its start"));
        return;
    }
    if (qint64(st.st_size) > m_size) {
        qint64 from = 0;
        {
            std::shared_lock lock(m_lock);
            from = m_index.endOffset();
        }
        startIndexing(from, qint64(st.st_size));
    }
}

void LogData::stopWorker() {
    if (m_cancel)
        m_cancel->store(true);
    if (m_worker.joinable())
        m_worker.join();
    m_indexing = false;
}

} // namespace sbx
