#include "client/traffic/trafficrecorder.h"

#include "client/traffic/redaction.h"

#include <QUrlQuery>

#include <algorithm>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kSummaryNs = 1'000'000'000; // frames are summarised per second
constexpr qint64 kEntryOverhead = 64;        // per header or body kept, for the budget
constexpr qsizetype kMaxLearned = 64;        // values learned from masked fields, newest kept

TrafficAuth authOf(const TrafficRequest &request) {
    for (const auto &[name, value] : request.headers) {
        if (name.compare("X-AIO-API-Key", Qt::CaseInsensitive) == 0)
            return TrafficAuth::ApiKeyHeader;
        if (name.compare("Authorization", Qt::CaseInsensitive) == 0 && value.startsWith("Bearer "))
            return TrafficAuth::Bearer;
    }
    if (request.url.hasQuery() && QUrlQuery(request.url).hasQueryItem(u"ticket"_s))
        return TrafficAuth::TicketQuery;
    return TrafficAuth::None;
}

qint64 detailCost(const TrafficEntry &e) {
    if (!e.detailsKept)
        return 0;
    qint64 bytes = e.request.kept.size() + e.response.kept.size() + 2 * kEntryOverhead;
    for (const RawHeaders *headers : {&e.requestHeaders, &e.responseHeaders}) {
        for (const auto &[name, value] : *headers)
            bytes += name.size() + value.size() + kEntryOverhead;
    }
    return bytes;
}

qint64 elapsedMs(qint64 fromNs, qint64 toNs) {
    return (toNs - fromNs) / 1'000'000;
}

} // namespace

bool isTextualBody(const QByteArray &mimeType, const QByteArray &bytes) {
    const QByteArray m = mimeType.toLower();
    if (m.startsWith("text/") || m.contains("json") || m.contains("xml") ||
        m.contains("javascript") || m.contains("x-www-form-urlencoded") || m.contains("yaml"))
        return true;
    return m.isEmpty() && !bytes.contains('\0');
}

TrafficRecorder::TrafficRecorder(QObject *parent)
    : QObject(parent) {
    m_clock.start();
    m_bucketTimer.setSingleShot(true);
    connect(&m_bucketTimer, &QTimer::timeout, this, &TrafficRecorder::closeExpiredBuckets);
}

TrafficRecorder::~TrafficRecorder() = default;

void TrafficRecorder::setLimits(const Limits &limits) {
    m_limits = limits;
    m_limits.maxEntries = std::max(1, m_limits.maxEntries);
    m_limits.bodyBound = std::max(0, m_limits.bodyBound);
    if (size() > m_limits.maxEntries)
        dropOldest(size() - m_limits.maxEntries);
    enforceBudget();
}

void TrafficRecorder::setKeepDetails(bool keep) {
    if (keep == m_keepDetails)
        return;
    m_keepDetails = keep;
    if (keep)
        return;
    for (TrafficEntry &e : m_ring)
        stripDetails(e);
    m_detailBytes = 0;
    m_stripFrom = m_nextSerial;
    Q_EMIT detailsDropped();
}

int TrafficRecorder::indexOf(quint64 serial) const {
    if (m_ring.empty() || serial < m_ring.front().serial || serial > m_ring.back().serial)
        return -1;
    // Serials in the ring are consecutive: entries only leave from the front.
    return static_cast<int>(serial - m_ring.front().serial);
}

TrafficEntry *TrafficRecorder::find(quint64 serial) {
    const int index = indexOf(serial);
    return index < 0 ? nullptr : &m_ring[static_cast<size_t>(index)];
}

qint64 TrafficRecorder::approximateBytes() const {
    qint64 bytes = m_detailBytes;
    for (const TrafficEntry &e : m_ring) {
        bytes += qint64(sizeof(TrafficEntry)) +
                 2 * (e.url.capacity() + e.path.capacity() + e.error.capacity()) +
                 e.method.capacity() + e.statusText.capacity() + e.messageType.capacity() +
                 e.request.mimeType.capacity() + e.response.mimeType.capacity();
    }
    return bytes;
}

void TrafficRecorder::clear() {
    Q_EMIT aboutToClear();
    m_ring.clear();
    m_buckets.clear();
    m_bucketTimer.stop();
    m_detailBytes = 0;
    m_stripFrom = m_nextSerial;
    Q_EMIT cleared();
}

TrafficEntry &TrafficRecorder::append(TrafficEntry entry) {
    if (size() >= m_limits.maxEntries)
        dropOldest(size() - m_limits.maxEntries + 1);
    entry.serial = m_nextSerial++;
    noteSandbox(entry.sandbox);
    Q_EMIT aboutToAppend();
    m_ring.push_back(std::move(entry));
    Q_EMIT appended();
    return m_ring.back();
}

void TrafficRecorder::dropOldest(int count) {
    count = std::min(count, size());
    if (count <= 0)
        return;
    Q_EMIT aboutToDrop(count);
    for (int i = 0; i < count; ++i) {
        m_detailBytes -= detailCost(m_ring.front());
        m_ring.pop_front();
    }
    if (!m_ring.empty())
        m_stripFrom = std::max(m_stripFrom, m_ring.front().serial);
    Q_EMIT dropped(count);
}

void TrafficRecorder::noteSandbox(const QString &name) {
    if (name.isEmpty() || (!m_sandboxes.isEmpty() && m_sandboxes.constLast() == name) ||
        m_sandboxes.contains(name))
        return;
    m_sandboxes.append(name);
    Q_EMIT sandboxSeen(name);
}

void TrafficRecorder::addDetails(TrafficEntry &entry, qint64 bytes) {
    entry.detailsKept = true;
    m_detailBytes += bytes;
}

void TrafficRecorder::stripDetails(TrafficEntry &entry) {
    if (!entry.detailsKept)
        return;
    m_detailBytes -= detailCost(entry);
    entry.detailsKept = false;
    entry.requestHeaders = {};
    entry.responseHeaders = {};
    entry.request.kept = {};
    entry.response.kept = {};
}

void TrafficRecorder::enforceBudget() {
    while (m_detailBytes > m_limits.detailBudget && !m_ring.empty()) {
        m_stripFrom = std::max(m_stripFrom, m_ring.front().serial);
        const int index = indexOf(m_stripFrom);
        if (index < 0)
            break;
        TrafficEntry &e = m_ring[static_cast<size_t>(index)];
        ++m_stripFrom;
        if (!e.detailsKept)
            continue;
        stripDetails(e);
        Q_EMIT changed(index);
    }
}

void TrafficRecorder::emitChanged(quint64 serial) {
    if (const int index = indexOf(serial); index >= 0)
        Q_EMIT changed(index);
}

QList<QByteArray> TrafficRecorder::secretsOf(const QList<QByteArray> &origin) const {
    return m_learned.isEmpty() ? origin : origin + m_learned;
}

QByteArray TrafficRecorder::keptBody(const QByteArray &body, const QByteArray &mimeType,
                                     const QList<QByteArray> &secrets) {
    if (body.isEmpty() || m_limits.bodyBound == 0)
        return {};
    // A body within the bound is shared with the caller's, not copied, unless redaction
    // changes it.
    QByteArray head = body.size() > m_limits.bodyBound ? body.left(m_limits.bodyBound) : body;
    const QList<QByteArray> all = secretsOf(secrets);
    if (!isTextualBody(mimeType, head))
        return Redaction::literal(std::move(head), all);
    QList<QByteArray> found;
    QByteArray kept = Redaction::text(std::move(head), all, &found);
    for (QByteArray &value : found) {
        if (secrets.contains(value) || m_learned.contains(value))
            continue;
        if (m_learned.size() >= kMaxLearned)
            m_learned.removeFirst();
        m_learned.append(std::move(value));
    }
    return kept;
}

RawHeaders TrafficRecorder::keptHeaders(const RawHeaders &headers,
                                        const QList<QByteArray> &secrets) const {
    RawHeaders out;
    out.reserve(headers.size());
    const QList<QByteArray> all = secretsOf(secrets);
    for (const auto &[name, value] : headers)
        out.append({name, Redaction::headerValue(name, value, all)});
    return out;
}

quint64 TrafficRecorder::begin(const TrafficOrigin &origin, const TrafficRequest &request,
                               TrafficKind kind) {
    TrafficEntry e;
    e.kind = kind;
    e.started = QDateTime::currentDateTimeUtc();
    e.startNs = nowNs();
    e.sandbox = origin.sandbox;
    e.method = request.method;
    const QList<QByteArray> secrets = secretsOf(origin.secrets);
    e.url = Redaction::url(request.url, secrets);
    e.path = QString::fromUtf8(Redaction::literal(request.url.path().toUtf8(), secrets));
    e.auth = authOf(request);
    e.httpVersion = "HTTP/1.1";
    e.request.size = request.bodySize;
    e.request.mimeType = request.mimeType;
    e.request.streamed = request.streamed;
    qint64 cost = 0;
    if (m_keepDetails) {
        e.requestHeaders = keptHeaders(request.headers, origin.secrets);
        if (!request.streamed)
            e.request.kept = keptBody(request.body, request.mimeType, origin.secrets);
        e.detailsKept = true;
        cost = detailCost(e);
        e.detailsKept = false;
    }
    TrafficEntry &stored = append(std::move(e));
    const quint64 serial = stored.serial;
    if (cost > 0)
        addDetails(stored, cost);
    enforceBudget();
    return serial;
}

void TrafficRecorder::headersArrived(quint64 serial) {
    if (TrafficEntry *e = find(serial); e && e->waitMs < 0)
        e->waitMs = elapsedMs(e->startNs, nowNs());
}

void TrafficRecorder::progressed(quint64 serial, qint64 sent, qint64 received) {
    TrafficEntry *e = find(serial);
    if (!e || e->finished)
        return;
    // Qt reports (0, 0) once an upload is done: figures only grow.
    e->request.size = std::max(e->request.size, sent);
    e->response.size = std::max(e->response.size, received);
}

void TrafficRecorder::finish(quint64 serial, const TrafficOrigin &origin,
                             const TrafficResponse &response) {
    TrafficEntry *e = find(serial);
    if (!e || e->finished)
        return;
    e->finished = true;
    e->elapsedMs = elapsedMs(e->startNs, nowNs());
    if (e->waitMs < 0 && response.status > 0)
        e->waitMs = e->elapsedMs;
    e->status = response.status;
    e->statusText = response.statusText;
    if (!response.httpVersion.isEmpty())
        e->httpVersion = response.httpVersion;
    e->error = response.error;
    e->response.mimeType = response.mimeType;
    e->response.streamed = response.streamed;
    e->response.size =
        std::max({response.bodySize, e->response.size, qint64(response.body.size())});
    // An entry the budget already stripped stays stripped: its request is gone.
    if (m_keepDetails && serial >= m_stripFrom) {
        const qint64 before = detailCost(*e);
        e->responseHeaders = keptHeaders(response.headers, origin.secrets);
        if (!response.streamed)
            e->response.kept = keptBody(response.body, response.mimeType, origin.secrets);
        e->detailsKept = true;
        m_detailBytes += detailCost(*e) - before;
    }
    emitChanged(serial);
    enforceBudget();
}

void TrafficRecorder::abandon(quint64 serial, const QString &why) {
    TrafficEntry *e = find(serial);
    if (!e || e->finished)
        return;
    e->finished = true;
    e->elapsedMs = elapsedMs(e->startNs, nowNs());
    e->error = why;
    emitChanged(serial);
}

void TrafficRecorder::socketMessage(const TrafficSocket &socket, const QList<QByteArray> &secrets,
                                    TrafficDirection direction, const QByteArray &type,
                                    const QByteArray &frame, qint64 size) {
    TrafficEntry e;
    e.kind = TrafficKind::SocketMessage;
    e.started = QDateTime::currentDateTimeUtc();
    e.startNs = nowNs();
    e.sandbox = socket.sandbox;
    e.method = "WS";
    e.path = socket.path;
    if (const TrafficEntry *handshake = find(socket.serial))
        e.url = handshake->url;
    e.direction = direction;
    e.messageType = type;
    e.socketSerial = socket.serial;
    e.finished = true;
    e.elapsedMs = 0;
    TrafficBody &body = direction == TrafficDirection::Sent ? e.request : e.response;
    body.size = size;
    body.mimeType = "application/json";
    qint64 cost = 0;
    if (m_keepDetails) {
        body.kept = keptBody(frame, body.mimeType, secrets);
        e.detailsKept = true;
        cost = detailCost(e);
        e.detailsKept = false;
    }
    TrafficEntry &stored = append(std::move(e));
    if (cost > 0)
        addDetails(stored, cost);
    enforceBudget();
}

void TrafficRecorder::socketFrames(const TrafficSocket &socket, TrafficDirection direction,
                                   const QByteArray &type, qint64 bytes) {
    const quint64 key = socket.serial * 2 + (direction == TrafficDirection::Received ? 1 : 0);
    const qint64 now = nowNs();
    const auto it = m_buckets.find(key);
    if (it != m_buckets.end()) {
        TrafficEntry *e = find(it->serial);
        if (e && now - it->startNs < kSummaryNs) {
            ++e->frames;
            (direction == TrafficDirection::Sent ? e->request : e->response).size += bytes;
            e->elapsedMs = elapsedMs(it->startNs, now);
            return;
        }
        if (e) {
            e->finished = true;
            emitChanged(it->serial);
        }
        m_buckets.erase(it);
    }
    TrafficEntry e;
    e.kind = TrafficKind::SocketFrames;
    e.started = QDateTime::currentDateTimeUtc();
    e.startNs = now;
    e.sandbox = socket.sandbox;
    e.method = "WS";
    e.path = socket.path;
    if (const TrafficEntry *handshake = find(socket.serial))
        e.url = handshake->url;
    e.direction = direction;
    e.messageType = type;
    e.socketSerial = socket.serial;
    e.frames = 1;
    e.elapsedMs = 0;
    (direction == TrafficDirection::Sent ? e.request : e.response).size = bytes;
    const quint64 serial = append(std::move(e)).serial;
    m_buckets.insert(key, {serial, now});
    if (!m_bucketTimer.isActive())
        m_bucketTimer.start(static_cast<int>(kSummaryNs / 1'000'000));
}

void TrafficRecorder::socketClosed(const TrafficSocket &socket) {
    for (const quint64 key : {socket.serial * 2, socket.serial * 2 + 1}) {
        const Bucket bucket = m_buckets.take(key);
        if (TrafficEntry *e = bucket.serial ? find(bucket.serial) : nullptr) {
            e->finished = true;
            emitChanged(bucket.serial);
        }
    }
}

void TrafficRecorder::closeExpiredBuckets() {
    const qint64 now = nowNs();
    qint64 nextEnd = -1;
    for (auto it = m_buckets.begin(); it != m_buckets.end();) {
        const qint64 end = it->startNs + kSummaryNs;
        if (end > now) {
            nextEnd = nextEnd < 0 ? end : std::min(nextEnd, end);
            ++it;
            continue;
        }
        if (TrafficEntry *e = find(it->serial)) {
            e->finished = true;
            emitChanged(it->serial);
        }
        it = m_buckets.erase(it);
    }
    if (nextEnd >= 0)
        m_bucketTimer.start(static_cast<int>((nextEnd - now) / 1'000'000) + 1);
}

} // namespace sbx
