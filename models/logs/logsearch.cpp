#include "models/logs/logsearch.h"

#include "models/logs/logdata.h"
#include "models/logs/logtext.h"

#include <QTimer>

#include <algorithm>
#include <cstring>

namespace sbx {

namespace {

constexpr qint64 kChunkLines = 32768;
constexpr qint64 kChunkBytes = 8 * 1024 * 1024;
constexpr int kGrowthMs = 50;

// Marks the lines of a chunk that hold an escape, a carriage return or a backspace: their raw
// bytes are not their text, so they are matched on plainLogBytes() instead. (Other controls,
// rare in logs, are dropped from the text and could only hide a match that runs across them.)
void markDirty(const QByteArray &bytes, const std::vector<std::pair<qint64, qint64>> &ranges,
               qint64 base, char c, std::vector<char> *dirty) {
    const char *data = bytes.constData();
    const char *end = data + bytes.size();
    size_t line = 0;
    for (const char *p = data; p < end;) {
        const void *hit = std::memchr(p, c, size_t(end - p));
        if (!hit)
            break;
        const qint64 at = base + (static_cast<const char *>(hit) - data);
        while (line + 1 < ranges.size() && ranges[line + 1].first <= at)
            ++line;
        (*dirty)[line] = 1;
        // Nothing more to learn from this line.
        p = data + (ranges[line].first + ranges[line].second - base);
    }
}

// Matches lines [ranges) of one chunk read in bytes (which starts at byte base).
void matchChunk(const LogMatcher &matcher, const LogQuery &query, const QByteArray &bytes,
                const std::vector<std::pair<qint64, qint64>> &ranges, qint64 base, qint64 firstLine,
                std::vector<qint64> *found) {
    std::vector<char> dirty(ranges.size(), 0);
    markDirty(bytes, ranges, base, '\x1b', &dirty);
    markDirty(bytes, ranges, base, '\r', &dirty);
    markDirty(bytes, ranges, base, '\b', &dirty);
    std::vector<char> hit(ranges.size(), query.pattern.isEmpty() ? 1 : 0);
    const auto lineView = [&](size_t i) {
        const qint64 start = ranges[i].first - base;
        qint64 length = ranges[i].second;
        if (length > 0 && start + length <= bytes.size() && bytes[start + length - 1] == '\n')
            --length;
        return QByteArrayView(bytes.constData() + start, std::min(length, bytes.size() - start));
    };
    // Clean lines: one pass of the matcher over the whole chunk.
    qint64 from = query.pattern.isEmpty() ? bytes.size() : 0;
    size_t line = 0;
    while (from < bytes.size()) {
        const qint64 at = matcher.find(bytes, from);
        if (at < 0)
            break;
        while (line + 1 < ranges.size() && ranges[line + 1].first - base <= at)
            ++line;
        // A regex may run across a line end in a buffer of many lines: the line alone decides.
        if (!dirty[line] && (!query.regex || matcher.matches(lineView(line))))
            hit[line] = 1;
        from = ranges[line].first + ranges[line].second - base;
        if (line + 1 >= ranges.size())
            break;
    }
    const bool byLevel = query.minLevel != LogLevel::None;
    const bool invert = query.invert && !query.pattern.isEmpty();
    for (size_t i = 0; i < ranges.size(); ++i) {
        QByteArray plain;
        if (dirty[i] && (byLevel || !query.pattern.isEmpty()))
            plain = plainLogBytes(lineView(i));
        if (dirty[i] && !query.pattern.isEmpty())
            hit[i] = matcher.matches(plain) ? 1 : 0;
        if (bool(hit[i]) == invert)
            continue;
        if (byLevel &&
            classifyLevel(dirty[i] ? QByteArrayView(plain) : lineView(i)) < query.minLevel)
            continue;
        found->push_back(firstLine + qint64(i));
    }
}

} // namespace

LogSearch::LogSearch(LogData *data, QObject *parent)
    : QObject(parent)
    , m_data(data)
    , m_growth(new QTimer(this)) {
    m_growth->setSingleShot(true);
    m_growth->setInterval(kGrowthMs);
    connect(m_growth, &QTimer::timeout, this, [this] {
        if (isActive() && !m_stopped && !m_running && m_rescanFrom >= 0)
            scanFrom(std::min(m_scanned, m_rescanFrom));
    });
    connect(data, &LogData::grew, this, &LogSearch::onGrew);
    connect(data, &LogData::reset, this, [this] {
        if (!isActive())
            return;
        stopWorker();
        m_matches.clear();
        m_scanned = 0;
        Q_EMIT matchesChanged(0);
        scanFrom(0);
    });
}

LogSearch::~LogSearch() {
    stopWorker();
}

bool LogSearch::start(const LogQuery &query) {
    stopWorker();
    m_stopped = false;
    m_matches.clear();
    m_scanned = 0;
    m_error.clear();
    m_query = query;
    if (query.isEmpty()) {
        Q_EMIT matchesChanged(0);
        return true;
    }
    const LogMatcher probe(query);
    if (!query.pattern.isEmpty() && !probe.isValid()) {
        m_error = probe.errorText();
        m_query = {};
        Q_EMIT matchesChanged(0);
        return false;
    }
    Q_EMIT matchesChanged(0);
    scanFrom(0);
    return true;
}

bool LogSearch::isRunning() const {
    return m_running || m_growth->isActive();
}

void LogSearch::cancel() {
    stopWorker();
    m_stopped = true;
}

void LogSearch::onGrew(qint64 firstChanged, qint64) {
    if (!isActive() || m_stopped)
        return;
    m_rescanFrom = m_rescanFrom < 0 ? firstChanged : std::min(m_rescanFrom, firstChanged);
    // A fast stream grows thousands of times a second: it is searched in a few larger pieces,
    // not with a worker for each.
    if (!m_running && !m_growth->isActive())
        m_growth->start();
}

void LogSearch::scanFrom(qint64 line) {
    if (!m_data)
        return;
    const qint64 total = m_data->lineCount();
    if (line < m_scanned) {
        m_matches.truncate(line);
        m_scanned = line;
    }
    if (line >= total) {
        Q_EMIT finished();
        return;
    }
    m_running = true;
    m_rescanFrom = -1;
    const quint64 generation = ++m_generation;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancel = m_cancel;
    const LogQuery query = m_query;
    LogData *data = m_data;
    m_worker = std::thread([this, cancel, query, data, line, total, generation] {
        const LogMatcher matcher(query);
        std::vector<qint64> found;
        for (qint64 first = line; first < total && !cancel->load();) {
            // A chunk of whole lines, bounded in lines and (unless one line is longer) bytes.
            auto ranges = data->lineRanges(first, std::min(kChunkLines, total - first));
            qint64 bytes = 0;
            size_t take = 0;
            while (take < ranges.size() &&
                   (take == 0 || bytes + ranges[take].second <= kChunkBytes))
                bytes += ranges[take++].second;
            ranges.resize(take);
            const qint64 base = ranges.front().first;
            const QByteArray chunk = data->readBytes(base, bytes);
            found.clear();
            if (chunk.size() == bytes)
                matchChunk(matcher, query, chunk, ranges, base, first, &found);
            first += qint64(take);
            QMetaObject::invokeMethod(
                this,
                [this, generation, found, first, total] {
                    chunkDone(generation, found, first, total);
                },
                Qt::QueuedConnection);
        }
        QMetaObject::invokeMethod(
            this, [this, generation] { workerDone(generation); }, Qt::QueuedConnection);
    });
}

void LogSearch::chunkDone(quint64 generation, const std::vector<qint64> &found, qint64 scannedTo,
                          qint64 total) {
    if (generation != m_generation)
        return;
    for (const qint64 line : found)
        m_matches.append(line);
    m_scanned = scannedTo;
    Q_EMIT progress(scannedTo, total);
    if (!found.empty())
        Q_EMIT matchesChanged(m_matches.count());
}

void LogSearch::workerDone(quint64 generation) {
    if (generation != m_generation)
        return;
    if (m_worker.joinable())
        m_worker.join();
    m_running = false;
    const qint64 rescan = m_rescanFrom;
    if (rescan >= 0 || (m_data && m_scanned < m_data->lineCount())) {
        scanFrom(rescan >= 0 ? std::min(rescan, m_scanned) : m_scanned);
        return;
    }
    Q_EMIT finished();
}

void LogSearch::stopWorker() {
    m_growth->stop();
    if (m_cancel)
        m_cancel->store(true);
    if (m_worker.joinable())
        m_worker.join();
    m_running = false;
    ++m_generation; // results already posted by the stopped worker are dropped
}

} // namespace sbx
