#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class QThread;

// Bytes of one output stream of a container: 1 stdout, 2 stderr (0 stdin).
struct LogPiece {
    int stream = 1;
    QByteArray bytes;
};

// Decodes the Engine API's multiplexed log stream (frames of [stream, 0, 0, 0, big-endian
// uint32 size] + payload) incrementally: headers and payloads may be split across chunks.
class LogFrameDecoder {
public:
    // The payload bytes this chunk carries, in order; adjacent bytes of one stream are merged.
    QList<LogPiece> feed(QByteArrayView chunk);
    // True while a header or payload has begun but not ended.
    bool midFrame() const { return !m_header.isEmpty() || m_remaining > 0; }

private:
    QByteArray m_header;
    int m_stream = 0;
    quint32 m_remaining = 0;
};

// A container's logs followed live (GET /containers/{id}/logs?follow=true) on a thread of its own.
// A container with a TTY sends a raw stream; any other sends multiplexed frames.
class EngineLogStream final : public QObject {
    Q_OBJECT
public:
    EngineLogStream(QString socketPath, QString containerId, bool tty, int tail = 200,
                    QObject *parent = nullptr);
    // Stops the stream and waits (at most about a second) for its thread.
    ~EngineLogStream() override;

    void start();
    void stop();
    bool isRunning() const;

Q_SIGNALS:
    // Decoded output, stdout and stderr interleaved as the engine sent them.
    void text(const QString &text);
    // The stream ended: the container stopped, stop() was called, or the engine failed.
    void ended(const QString &reason);

private:
    void run();

    QString m_socketPath;
    QString m_containerId;
    bool m_tty;
    int m_tail;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QThread *m_thread = nullptr;
};
