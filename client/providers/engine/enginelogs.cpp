#include "client/providers/engine/enginelogs.h"

#include "client/providers/engine/engineapi.h"

#include <QMutex>
#include <QThread>
#include <QtEndian>

#include <atomic>

namespace sbx {

using namespace Qt::StringLiterals;

QList<LogPiece> LogFrameDecoder::feed(QByteArrayView chunk) {
    QList<LogPiece> pieces;
    while (!chunk.isEmpty()) {
        if (m_remaining == 0) {
            const qsizetype take = qMin<qsizetype>(8 - m_header.size(), chunk.size());
            m_header.append(chunk.first(take));
            chunk = chunk.sliced(take);
            if (m_header.size() < 8)
                break;
            m_stream = static_cast<unsigned char>(m_header.at(0));
            m_remaining = qFromBigEndian<quint32>(m_header.constData() + 4);
            m_header.clear();
            continue;
        }
        const qsizetype take = qMin<qsizetype>(qsizetype(m_remaining), chunk.size());
        if (!pieces.isEmpty() && pieces.last().stream == m_stream)
            pieces.last().bytes.append(chunk.first(take));
        else
            pieces.append({m_stream, chunk.first(take).toByteArray()});
        m_remaining -= quint32(take);
        chunk = chunk.sliced(take);
    }
    return pieces;
}

// What the stream's thread and its owner share. The owner may go first: the thread then stops
// posting and ends at its next cancel check.
struct EngineLogStream::Shared {
    std::atomic<bool> cancel = false;
    QMutex mutex;
    EngineLogStream *owner = nullptr; // guarded by mutex

    // Runs f on the owner's thread, unless the owner is gone (its posted events go with it).
    template <typename F> void post(F f) {
        QMutexLocker lock(&mutex);
        if (owner)
            QMetaObject::invokeMethod(
                owner, [owner = owner, f = std::move(f)] { f(owner); }, Qt::QueuedConnection);
    }
};

void EngineLogStream::follow(const std::shared_ptr<Shared> &shared, const EngineEndpoint &endpoint,
                             const QString &path, bool tty) {
    LogFrameDecoder frames;
    const auto deliver = [&shared](QByteArray bytes) {
        if (!bytes.isEmpty())
            shared->post([bytes](EngineLogStream *owner) { Q_EMIT owner->bytes(bytes); });
    };
    const auto onBody = [&](QByteArrayView chunk) {
        if (tty) {
            deliver(chunk.toByteArray());
            return true;
        }
        // stdout and stderr interleaved as the engine sent them; the reader decodes UTF-8.
        QByteArray bytes;
        for (const LogPiece &piece : frames.feed(chunk))
            bytes += piece.bytes;
        deliver(bytes);
        return true;
    };
    const EngineResponse response = performEngineRequest(
        endpoint, EngineRequest::get(path, /*timeoutMs=*/0), &shared->cancel, onBody);

    QString reason;
    if (response.cancelled)
        reason = tr("Stopped following the logs");
    else if (!response.ok())
        reason = tr("Logs unavailable: %1").arg(response.status().message);
    else if (!response.transportError.isEmpty())
        reason = response.transportError;
    else
        reason = tr("The container stopped");
    shared->post([reason](EngineLogStream *owner) { Q_EMIT owner->ended(reason); });
}

EngineLogStream::EngineLogStream(EngineEndpoint endpoint, QString containerId, bool tty, int tail,
                                 QObject *parent)
    : LogSource(parent)
    , m_endpoint(std::move(endpoint))
    , m_containerId(std::move(containerId))
    , m_tty(tty)
    , m_tail(tail)
    , m_shared(std::make_shared<Shared>()) {
    m_shared->owner = this;
}

EngineLogStream::~EngineLogStream() {
    {
        QMutexLocker lock(&m_shared->mutex);
        m_shared->owner = nullptr;
    }
    stop();
    if (m_thread) {
        // Deleted once it has finished; calling deleteLater twice is safe.
        connect(m_thread, &QThread::finished, m_thread, &QObject::deleteLater);
        if (m_thread->isFinished())
            m_thread->deleteLater();
    }
}

void EngineLogStream::start() {
    if (m_thread)
        return;
    // timestamps: each line starts with the engine's RFC 3339 time of it, which the log view
    // reads for "go to time" as it reads any log's.
    const QString path = u"/containers/%1/logs?follow=true&stdout=1&stderr=1&timestamps=1&tail=%2"_s
                             .arg(m_containerId)
                             .arg(m_tail < 0 ? u"all"_s : QString::number(m_tail));
    m_thread = QThread::create(&EngineLogStream::follow, m_shared, m_endpoint, path, m_tty);
    m_thread->start();
}

void EngineLogStream::stop() {
    m_shared->cancel.store(true);
}

bool EngineLogStream::isRunning() const {
    return m_thread && m_thread->isRunning();
}

} // namespace sbx
