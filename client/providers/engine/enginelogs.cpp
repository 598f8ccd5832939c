#include "client/providers/engine/enginelogs.h"

#include "client/providers/engine/engineapi.h"

#include <QStringDecoder>
#include <QThread>
#include <QtEndian>

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

EngineLogStream::EngineLogStream(QString socketPath, QString containerId, bool tty, int tail,
                                 QObject *parent)
    : QObject(parent)
    , m_socketPath(std::move(socketPath))
    , m_containerId(std::move(containerId))
    , m_tty(tty)
    , m_tail(tail)
    , m_cancel(std::make_shared<std::atomic<bool>>(false)) {}

EngineLogStream::~EngineLogStream() {
    stop();
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
}

void EngineLogStream::start() {
    if (m_thread)
        return;
    m_thread = QThread::create([this] { run(); });
    m_thread->start();
}

void EngineLogStream::stop() {
    m_cancel->store(true);
}

bool EngineLogStream::isRunning() const {
    return m_thread && m_thread->isRunning();
}

void EngineLogStream::run() {
    LogFrameDecoder frames;
    // One decoder per stream: a UTF-8 sequence may be split across frames of its own stream.
    QStringDecoder out(QStringDecoder::Utf8);
    QStringDecoder err(QStringDecoder::Utf8);
    const auto deliver = [this](QString text) {
        if (text.isEmpty())
            return;
        QMetaObject::invokeMethod(
            this, [this, text = std::move(text)] { Q_EMIT this->text(text); },
            Qt::QueuedConnection);
    };
    const auto onBody = [&](QByteArrayView chunk) {
        if (m_tty) {
            deliver(out(chunk));
            return true;
        }
        QString text;
        for (const LogPiece &piece : frames.feed(chunk))
            text += piece.stream == 2 ? err(piece.bytes) : out(piece.bytes);
        deliver(text);
        return true;
    };
    const QString path = QStringLiteral("/containers/%1/logs?follow=true&stdout=1&stderr=1&tail=%2")
                             .arg(m_containerId)
                             .arg(m_tail < 0 ? QStringLiteral("all") : QString::number(m_tail));
    const EngineResponse response = performEngineRequest(
        m_socketPath, EngineRequest::get(path, /*timeoutMs=*/0), m_cancel.get(), onBody);

    QString reason;
    if (response.cancelled)
        reason = QStringLiteral("Stopped following the logs");
    else if (!response.ok())
        reason = QStringLiteral("Logs unavailable: ") + response.errorMessage();
    else if (!response.transportError.isEmpty())
        reason = response.transportError;
    else
        reason = QStringLiteral("The container stopped");
    QMetaObject::invokeMethod(
        this, [this, reason] { Q_EMIT ended(reason); }, Qt::QueuedConnection);
}
