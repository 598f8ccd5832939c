#include "tests/support/faultproxy.h"

#include <QTcpSocket>
#include <QTimer>

FaultProxy::FaultProxy(quint16 targetPort, QObject *parent)
    : QObject(parent)
    , m_targetPort(targetPort) {
    connect(&m_server, &QTcpServer::newConnection, this, &FaultProxy::onNewConnection);
    auto *ticker = new QTimer(this);
    connect(ticker, &QTimer::timeout, this, &FaultProxy::pump);
    ticker->start(10);
}

FaultProxy::~FaultProxy() {
    cutAll();
}

bool FaultProxy::listen() {
    return m_server.listen(QHostAddress::LocalHost);
}

QUrl FaultProxy::url() const {
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port()));
}

int FaultProxy::openConnections() const {
    int open = 0;
    for (const Pipe *p : m_pipes)
        open += (p->client && p->client->state() == QAbstractSocket::ConnectedState) ? 1 : 0;
    return open;
}

void FaultProxy::onNewConnection() {
    while (QTcpSocket *client = m_server.nextPendingConnection()) {
        ++m_accepted;
        if (m_refusing) {
            client->abort();
            client->deleteLater();
            continue;
        }
        auto *pipe = new Pipe;
        pipe->client = client;
        pipe->upstream = new QTcpSocket(this);
        m_pipes.append(pipe);
        auto readBoth = [this, pipe] {
            if (pipe->client)
                pipe->toUpstream += pipe->client->readAll();
            if (pipe->upstream)
                pipe->toClient += pipe->upstream->readAll();
            pump();
        };
        connect(client, &QTcpSocket::readyRead, this, readBoth);
        connect(pipe->upstream, &QTcpSocket::readyRead, this, readBoth);
        // A close on one side closes the other, after what is buffered was delivered.
        connect(client, &QTcpSocket::disconnected, this, [pipe] {
            if (pipe->upstream)
                pipe->upstream->disconnectFromHost();
        });
        connect(pipe->upstream, &QTcpSocket::disconnected, this, [this, pipe] {
            pump();
            if (pipe->client)
                pipe->client->disconnectFromHost();
        });
        pipe->upstream->connectToHost(QHostAddress::LocalHost, m_targetPort);
        Q_EMIT connectionAccepted();
    }
}

void FaultProxy::pump() {
    if (m_stalled)
        return;
    auto move = [this](QByteArray &buffer, QTcpSocket *to) {
        if (!to || buffer.isEmpty() || to->state() != QAbstractSocket::ConnectedState)
            return;
        const qint64 n =
            m_bytesPerTick > 0 ? qMin<qint64>(m_bytesPerTick, buffer.size()) : buffer.size();
        const qint64 written = to->write(buffer.constData(), n);
        if (written > 0)
            buffer.remove(0, written);
    };
    for (Pipe *p : std::as_const(m_pipes)) {
        move(p->toUpstream, p->upstream);
        move(p->toClient, p->client);
    }
}

void FaultProxy::setStalled(bool stalled) {
    m_stalled = stalled;
    if (!stalled)
        pump();
}

void FaultProxy::cutAll() {
    for (Pipe *p : std::as_const(m_pipes)) {
        // Queued signals of these sockets must not reach the lambdas that hold p.
        if (p->client)
            p->client->disconnect(this);
        if (p->upstream)
            p->upstream->disconnect(this);
        if (p->client) {
            p->client->abort();
            p->client->deleteLater();
        }
        if (p->upstream) {
            p->upstream->abort();
            p->upstream->deleteLater();
        }
        delete p;
    }
    m_pipes.clear();
}
