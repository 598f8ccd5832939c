#pragma once

#include <QElapsedTimer>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QUrl>

#include <deque>
#include <utility>

class QTcpSocket;

namespace sbxtest {

// A loopback TCP proxy in front of a real server that can cut, stall, slow, delay or silently
// drop connections, to inject network faults into tests.
class FaultProxy final : public QObject {
    Q_OBJECT
public:
    explicit FaultProxy(quint16 targetPort, QObject *parent = nullptr);
    ~FaultProxy() override;

    bool listen();
    quint16 port() const { return m_server.serverPort(); }
    // The target URL rewritten to go through the proxy.
    QUrl url() const;

    // Aborts every open connection, as a dropped network would.
    void cutAll();
    // While stalled, bytes are held in both directions; resuming delivers them.
    void setStalled(bool stalled);
    // New connections are accepted and closed at once.
    void setRefusing(bool refusing) { m_refusing = refusing; }
    // At most this many bytes per direction per 10 ms tick; 0 means unlimited.
    void setBytesPerTick(qint64 bytes) { m_bytesPerTick = bytes; }
    // Every byte arrives this long after it was sent, in each direction (a path's one-way
    // delay; 25 ms each way is a 50 ms round trip).
    void setLatency(int msEachWay) { m_latencyMs = msEachWay; }
    // A silent blackhole: nothing is delivered and nothing refused, closes included; new
    // connections are accepted but reach nothing. When it ends, what was held flows on, as TCP
    // retransmits it after a link comes back.
    void setBlackhole(bool on);
    // How much the proxy delivered to clients, over all connections (the body size on the wire).
    qint64 bytesToClients() const { return m_bytesToClients; }
    int connectionCount() const { return m_accepted; }
    int openConnections() const;
    // While recording, the first bytes each client sends (request line, headers, the body's
    // start) are kept, to check what the console put on the wire.
    void setRecording(bool recording) { m_recording = recording; }
    QList<QByteArray> recordedRequests() const;

Q_SIGNALS:
    void connectionAccepted();

private:
    // Bytes on their way in one direction, with when each piece is due (latency).
    struct Lane {
        QByteArray bytes;
        std::deque<std::pair<qint64, qint64>> due; // (due at ms, bytes)
        qint64 ready(qint64 now) const;
        void take(qint64 n);
    };
    struct Pipe {
        QPointer<QTcpSocket> client;
        QPointer<QTcpSocket> upstream;
        Lane toUpstream;
        Lane toClient;
        QByteArray recorded;
        bool clientClosed = false; // held while a blackhole lasts
        bool upstreamClosed = false;
        bool connectPending = false; // accepted in a blackhole: upstream not dialled yet
    };
    void onNewConnection();
    void pump(bool tick);
    void propagateCloses();

    QTcpServer m_server;
    quint16 m_targetPort;
    QList<Pipe *> m_pipes;
    bool m_stalled = false;
    bool m_refusing = false;
    bool m_recording = false;
    qint64 m_bytesPerTick = 0;
    int m_latencyMs = 0;
    bool m_blackhole = false;
    qint64 m_bytesToClients = 0;
    QElapsedTimer m_clock;
    int m_accepted = 0;
};

} // namespace sbxtest
