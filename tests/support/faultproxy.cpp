#include "tests/support/faultproxy.h"

#include <QTcpSocket>
#include <QTimer>

namespace sbxtest {

using namespace Qt::StringLiterals;

namespace {
constexpr qint64 maxBuffered = 256 * 1024;
constexpr qsizetype maxRecorded = 4096;
} // namespace

qint64 FaultProxy::Lane::ready(qint64 now) const {
    qint64 n = 0;
    for (const auto &[at, size] : due) {
        if (at > now)
            break;
        n += size;
    }
    return qMin<qint64>(n, bytes.size());
}

void FaultProxy::Lane::take(qint64 n) {
    bytes.remove(0, n);
    while (n > 0 && !due.empty()) {
        auto &[at, size] = due.front();
        const qint64 used = qMin(n, size);
        size -= used;
        n -= used;
        if (size == 0)
            due.pop_front();
    }
}

FaultProxy::FaultProxy(quint16 targetPort, QObject *parent)
    : QObject(parent)
    , m_targetPort(targetPort) {
    m_clock.start();
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
        // A close on one side closes the other, after what is buffered was delivered (in a
        // blackhole, once it ends).
        connect(client, &QTcpSocket::disconnected, this, [this, pipe] {
            pipe->clientClosed = true;
            propagateCloses();
        });
        connect(pipe->upstream, &QTcpSocket::disconnected, this, [this, pipe] {
            pump(false);
            pipe->upstreamClosed = true;
            propagateCloses();
        });
        if (m_blackhole)
            pipe->connectPending = true;
        else
            pipe->upstream->connectToHost(QHostAddress::LocalHost, m_targetPort);
        Q_EMIT connectionAccepted();
    }
}

void FaultProxy::pump(bool tick) {
    const qint64 now = m_clock.elapsed();
    const auto fill = [this, now](Lane &lane, QTcpSocket *from, QByteArray *recorded) {
        if (!from || !from->isOpen() || lane.bytes.size() >= maxBuffered)
            return;
        const QByteArray bytes = from->read(maxBuffered - lane.bytes.size());
        if (bytes.isEmpty())
            return;
        if (recorded && m_recording && recorded->size() < maxRecorded)
            *recorded += bytes.left(maxRecorded - recorded->size());
        lane.bytes += bytes;
        lane.due.emplace_back(now + m_latencyMs, bytes.size());
    };
    for (Pipe *p : std::as_const(m_pipes)) {
        fill(p->toUpstream, p->client, &p->recorded);
        fill(p->toClient, p->upstream, nullptr);
    }
    // A slowed or delayed link moves bytes on the ticker only, so that its rate and delay hold
    // however often data arrives.
    if (m_stalled || m_blackhole || ((m_bytesPerTick > 0 || m_latencyMs > 0) && !tick))
        return;
    auto move = [this, now](Lane &lane, QTcpSocket *to) -> qint64 {
        const qint64 ready = lane.ready(now);
        if (!to || ready == 0 || to->state() != QAbstractSocket::ConnectedState)
            return 0;
        const qint64 n = m_bytesPerTick > 0 ? qMin<qint64>(m_bytesPerTick, ready) : ready;
        const qint64 written = to->write(lane.bytes.constData(), n);
        if (written > 0)
            lane.take(written);
        return qMax<qint64>(0, written);
    };
    for (Pipe *p : std::as_const(m_pipes)) {
        move(p->toUpstream, p->upstream);
        m_bytesToClients += move(p->toClient, p->client);
    }
    propagateCloses();
}

void FaultProxy::propagateCloses() {
    if (m_blackhole)
        return;
    for (Pipe *p : std::as_const(m_pipes)) {
        if (p->clientClosed && p->upstream &&
            p->upstream->state() != QAbstractSocket::UnconnectedState)
            p->upstream->disconnectFromHost();
        if (p->upstreamClosed && p->toClient.bytes.isEmpty() && p->client &&
            p->client->state() != QAbstractSocket::UnconnectedState)
            p->client->disconnectFromHost();
    }
}

void FaultProxy::setStalled(bool stalled) {
    m_stalled = stalled;
    if (!stalled)
        pump(true);
}

void FaultProxy::setBlackhole(bool on) {
    m_blackhole = on;
    if (on)
        return;
    for (Pipe *p : std::as_const(m_pipes)) {
        if (p->connectPending && p->upstream) {
            p->connectPending = false;
            p->upstream->connectToHost(QHostAddress::LocalHost, m_targetPort);
        }
    }
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
