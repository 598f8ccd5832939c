#pragma once

#include "client/providers/engine/enginecontexts.h"
#include "client/providers/sandboxprovider.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QObject>
#include <QString>

#include <memory>

class QThread;

namespace sbx {

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
class EngineLogStream final : public LogSource {
    Q_OBJECT
public:
    EngineLogStream(EngineEndpoint endpoint, QString containerId, bool tty, int tail = 200,
                    QObject *parent = nullptr);
    // Stops the stream without waiting: its thread ends on its own (within about a second).
    ~EngineLogStream() override;

    // bytes() carries stdout and stderr interleaved as the engine sent them; ended() says the
    // container stopped, stop() was called, or the engine failed.
    void start() override;
    void stop();
    bool isRunning() const;

private:
    struct Shared;
    // The stream's thread: one GET .../logs?follow=true, decoded, posted to the owner if any.
    static void follow(const std::shared_ptr<Shared> &shared, const EngineEndpoint &endpoint,
                       const QString &path, bool tty);

    EngineEndpoint m_endpoint;
    QString m_containerId;
    bool m_tty;
    int m_tail;
    // Outlives this object while the thread still runs.
    std::shared_ptr<Shared> m_shared;
    QThread *m_thread = nullptr;
};

} // namespace sbx
