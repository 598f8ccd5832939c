#pragma once

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QUrl>

class QTcpSocket;

namespace sbxtest {

// A loopback TCP proxy in front of a real server that can cut, stall or slow connections, to
// inject network faults into tests.
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
    int connectionCount() const { return m_accepted; }
    int openConnections() const;
    // While recording, the first bytes each client sends (request line, headers, the body's
    // start) are kept, to check what the console put on the wire.
    void setRecording(bool recording) { m_recording = recording; }
    QList<QByteArray> recordedRequests() const;

Q_SIGNALS:
    void connectionAccepted();

private:
    struct Pipe {
        QPointer<QTcpSocket> client;
        QPointer<QTcpSocket> upstream;
        QByteArray toUpstream;
        QByteArray toClient;
        QByteArray recorded;
    };
    void onNewConnection();
    void pump(bool tick);

    QTcpServer m_server;
    quint16 m_targetPort;
    QList<Pipe *> m_pipes;
    bool m_stalled = false;
    bool m_refusing = false;
    bool m_recording = false;
    qint64 m_bytesPerTick = 0;
    int m_accepted = 0;
};

} // namespace sbxtest
