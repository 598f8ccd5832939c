#include "tests/support/faultproxy.h"

#include <QTcpSocket>
#include <QTimer>

namespace sbxtest {

using namespace Qt::StringLiterals;

namespace {
constexpr qint64 maxBuffered = 256 * 1024;
constexpr qsizetype maxRecorded = 4096;
} // namespace

FaultProxy::FaultProxy(quint16 targetPort, QObject *parent)
    : QObject(parent)
    , m_targetPort(targetPort) {
    connect(&m_server, &QTcpServer::newConnection, this, &FaultProxy::onNewConnection);
    auto *ticker = new QTimer(this);
    connect(ticker, &QTimer::timeout, this, [this] { pump(true); });
    ticker->start(10);
}

FaultProxy::~FaultProxy() {
    cutAll();
}

bool FaultProxy::listen() {
    return m_server.listen(QHostAddress::LocalHost);
}

QUrl FaultProxy::url() const {
    return QUrl(u"http://127.0.0.1:%1"_s.arg(port()));
}

int FaultProxy::openConnections() const {
    int open = 0;
    for (const Pipe *p : m_pipes)
        open += (p->client && p->client->state() == QAbstractSocket::ConnectedState) ? 1 : 0;
    return open;
}

QList<QByteArray> FaultProxy::recordedRequests() const {
    QList<QByteArray> out;
    for (const Pipe *p : m_pipes) {
        if (!p->recorded.isEmpty())
            out << p->recorded;
    }
    return out;
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
        // Bounded buffers, so that a slowed or stalled link pushes back on the sender as a real
        // network would, instead of swallowing a whole file at once.
        client->setReadBufferSize(maxBuffered);
        pipe->upstream->setReadBufferSize(maxBuffered);
        auto readBoth = [this] {
            pump(false);
        };
        connect(client, &QTcpSocket::readyRead, this, readBoth);
        connect(pipe->upstream, &QTcpSocket::readyRead, this, readBoth);
        // A close on one side closes the other, after what is buffered was delivered.
        connect(client, &QTcpSocket::disconnected, this, [pipe] {
            if (pipe->upstream)
                pipe->upstream->disconnectFromHost();
        });
        connect(pipe->upstream, &QTcpSocket::disconnected, this, [this, pipe] {
            pump(false);
            if (pipe->client)
                pipe->client->disconnectFromHost();
        });
        pipe->upstream->connectToHost(QHostAddress::LocalHost, m_targetPort);
        Q_EMIT connectionAccepted();
    }
}

void FaultProxy::pump(bool tick) {
    for (Pipe *p : std::as_const(m_pipes)) {
        if (p->client && p->toUpstream.size() < maxBuffered) {
            const QByteArray bytes = p->client->read(maxBuffered - p->toUpstream.size());
            if (m_recording && p->recorded.size() < maxRecorded)
                p->recorded += bytes.left(maxRecorded - p->recorded.size());
            p->toUpstream += bytes;
        }
        if (p->upstream && p->toClient.size() < maxBuffered)
            p->toClient += p->upstream->read(maxBuffered - p->toClient.size());
    }
    // A slowed link moves bytes on the ticker only, so that its rate holds however often data
    // arrives.
    if (m_stalled || (m_bytesPerTick > 0 && !tick))
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
        pump(true);
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

} // namespace sbxtest
