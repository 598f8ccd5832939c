#include "client/streams/terminalchannel.h"

#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "client/traffic/trafficrecorder.h"

#include <QTimer>
#include <QUrlQuery>
#include <QWebSocket>

#include <utility>

#include <nlohmann/json.hpp>

namespace sbx {

using namespace Qt::StringLiterals;

using nlohmann::json;

namespace {
const QString kReplayExtension = u"terminal-replay"_s;
}

TerminalChannel::TerminalChannel(SandboxClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_reconnectTimer(new QTimer(this))
    , m_connectTimer(new QTimer(this))
    , m_heartbeatTimer(new QTimer(this)) {
    m_reconnectTimer->setSingleShot(true);
    m_connectTimer->setSingleShot(true);
    connect(m_reconnectTimer, &QTimer::timeout, this, &TerminalChannel::startConnect);
    connect(m_connectTimer, &QTimer::timeout, this, [this] {
        // A handshake that hangs (a stalled network) counts as a failed attempt.
        if (m_socket)
            m_socket->abort();
    });
    connect(m_heartbeatTimer, &QTimer::timeout, this, &TerminalChannel::heartbeat);
    if (client)
        connect(client, &SandboxClient::reachabilityChanged, this,
                &TerminalChannel::onReachabilityChanged);
}

void TerminalChannel::onReachabilityChanged(bool reachable) {
    if (!reachable && m_state == State::Live && m_socket && m_lastHeard.isValid() &&
        m_lastHeard.elapsed() >= m_policy.pingMs) {
        // The list found the sandbox gone and this socket has been quiet too: do not wait out
        // the rest of the silence.
        dropConnection();
    } else if (reachable && m_state == State::Reconnecting && m_reconnectTimer->isActive()) {
        // Back: no need to sit out the backoff.
        m_reconnectTimer->stop();
        startConnect();
    }
}

TerminalChannel::~TerminalChannel() {
    if (m_socket) {
        endTraffic(tr("The terminal was closed"));
        m_socket->disconnect(this);
        m_socket->abort();
    }
}

bool TerminalChannel::canReplay() const {
    return m_client && m_client->hasExtension(kReplayExtension);
}

void TerminalChannel::setState(State state) {
    if (state == m_state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void TerminalChannel::open(const QString &sessionId) {
    m_sessionId = sessionId;
    m_attempt = 0;
    m_everLive = false;
    m_sessionGone = false;
    m_attachNew = false;
    m_exitCode = -1;
    m_detaching = false;
    startConnect();
}

void TerminalChannel::startConnect() {
    if (!m_client) {
        finish(tr("The sandbox was closed"));
        return;
    }
    setState(m_everLive ? State::Reconnecting : State::Connecting);
    if (!m_useTicket || m_client->credentials().isEmpty()) {
        connectSocket();
        return;
    }
    auto *job = new MintTicketJob(m_client);
    connect(job, &MintTicketJob::succeeded, this,
            [this](const Ticket &ticket) { connectSocket(ticket.ticket); });
    connect(job, &ApiJob::failed, this, [this](const Status &status) {
        if (m_everLive && status.transient())
            scheduleReconnect(status.message);
        else
            finish(tr("Could not open the terminal: %1").arg(status.message));
    });
    job->start();
}

void TerminalChannel::connectSocket(const QString &ticket) {
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        m_socket->deleteLater();
    }
    m_wasLive = false;
    m_socketFailed = false;
    m_socketError.clear();
    m_serverError.clear();
    m_socket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, this);
    m_socket->setMaxAllowedIncomingMessageSize(16 * 1024 * 1024);
    connect(m_socket, &QWebSocket::connected, this, &TerminalChannel::onConnected);
    connect(m_socket, &QWebSocket::textMessageReceived, this, &TerminalChannel::onFrame);
    connect(m_socket, &QWebSocket::disconnected, this, &TerminalChannel::onDisconnected);
    connect(m_socket, &QWebSocket::pong, this, [this](quint64 elapsedMs) {
        m_lastHeard.start();
        m_roundTripMs = int(elapsedMs);
    });
    // Qt 6.4 names this signal error(); errorString() is kept for classification only.
    connect(m_socket, qOverload<QAbstractSocket::SocketError>(&QWebSocket::error), this,
            [this](QAbstractSocket::SocketError) {
                m_socketFailed = true;
                m_socketError = m_socket ? m_socket->errorString() : QString();
            });

    QUrlQuery query;
    if (!m_sessionId.isEmpty() && !m_attachNew)
        query.addQueryItem(u"session_id"_s, m_sessionId);
    if (!ticket.isEmpty())
        query.addQueryItem(u"ticket"_s, ticket);
    const QUrl url = m_client->endpoint().resolveWebSocket(u"v1/shell/ws"_s, query);
    QNetworkRequest request =
        ticket.isEmpty() ? m_client->prepareRequest(url) : QNetworkRequest(url);
    beginTraffic(url, request);
    m_connectTimer->start(m_policy.connectTimeoutMs);
    m_socket->open(request);
}

void TerminalChannel::beginTraffic(const QUrl &url, const QNetworkRequest &request) {
    m_traffic = {};
    m_trafficOpen = false;
    TrafficRecorder *recorder = m_client->trafficRecorder();
    if (!recorder)
        return;
    TrafficRequest r;
    r.method = "GET";
    r.url = url;
    const QList<QByteArray> names = request.rawHeaderList();
    for (const QByteArray &name : names)
        r.headers.append({name, request.rawHeader(name)});
    m_traffic.serial = recorder->begin(m_client->trafficOrigin(), r, TrafficKind::Socket);
    m_traffic.sandbox = m_client->trafficName();
    m_traffic.path = url.path();
}

void TerminalChannel::recordFrame(TrafficDirection direction, const QByteArray &type, qint64 bytes,
                                  const std::function<QByteArray()> &frame) {
    TrafficRecorder *recorder = m_client ? m_client->trafficRecorder() : nullptr;
    if (!recorder || m_traffic.serial == 0)
        return;
    if (type == "output" || type == "input") {
        recorder->socketFrames(m_traffic, direction, type, bytes);
        return;
    }
    // The frame's bytes only for a recorder that keeps them: none are copied otherwise.
    recorder->socketMessage(m_traffic, m_client->trafficOrigin().secrets, direction, type,
                            recorder->keepsDetails() ? frame() : QByteArray(), bytes);
}

void TerminalChannel::endTraffic(const QString &failure) {
    TrafficRecorder *recorder = m_client ? m_client->trafficRecorder() : nullptr;
    if (!recorder || m_traffic.serial == 0)
        return;
    if (!m_trafficOpen) {
        TrafficResponse r;
        r.error = failure;
        recorder->finish(m_traffic.serial, m_client->trafficOrigin(), r);
    } else {
        const auto code = m_socket ? int(m_socket->closeCode()) : 0;
        const QByteArray note = "{\"close_code\":" + QByteArray::number(code) + '}';
        recorder->socketMessage(m_traffic, {}, TrafficDirection::Received, "close",
                                recorder->keepsDetails() ? note : QByteArray(), note.size());
        recorder->socketClosed(m_traffic);
    }
    m_traffic = {};
    m_trafficOpen = false;
}

void TerminalChannel::onConnected() {
    m_connectTimer->stop();
    if (TrafficRecorder *recorder = m_client ? m_client->trafficRecorder() : nullptr;
        recorder && m_traffic.serial != 0) {
        TrafficResponse r;
        r.status = 101;
        r.statusText = "Switching Protocols";
        recorder->finish(m_traffic.serial, m_client->trafficOrigin(), r);
        m_trafficOpen = true;
    }
    m_lastHeard.start();
    m_lastPing.invalidate();
    // Checked often, so that a silent link is noticed soon after deadAfterMs, not a ping later.
    m_heartbeatTimer->start(qBound(50, m_policy.pingMs / 10, 500));
    if (m_size.isValid())
        resize(m_size.width(), m_size.height());
}

void TerminalChannel::onFrame(const QString &text) {
    m_lastHeard.start();
    const std::string utf8 = text.toStdString();
    const json frame = json::parse(utf8, nullptr, false);
    const std::string type = frame.is_object() ? frame.value("type", "") : std::string();
    recordFrame(TrafficDirection::Received, QByteArray::fromStdString(type), qint64(utf8.size()),
                [&utf8] { return QByteArray::fromStdString(utf8); });
    if (!frame.is_object())
        return; // AIO sends one JSON object per frame; anything else is not ours to act on
    const json &data = frame.contains("data") ? frame["data"] : json();
    auto markLive = [this] {
        if (m_wasLive)
            return;
        m_wasLive = true;
        m_everLive = true;
        m_attempt = 0;
        setState(State::Live);
        if (m_client)
            m_client->reportReachable(true);
    };

    if (type == "output") {
        markLive();
        if (data.is_string())
            Q_EMIT output(QByteArray::fromStdString(data.get<std::string>()));
    } else if (type == "session_id") {
        const QString id =
            data.is_string() ? QString::fromStdString(data.get<std::string>()) : QString();
        const QString previous = m_sessionId;
        m_sessionId = id;
        m_attachNew = false;
        if (!previous.isEmpty() && previous == id) {
            if (canReplay())
                Q_EMIT replayStarting();
            else if (m_everLive)
                Q_EMIT notice(tr("Reconnected. This sandbox does not replay output, so "
                                 "anything printed while the connection was down is "
                                 "missing."));
            Q_EMIT sessionStarted(id, true);
        } else {
            if (!previous.isEmpty())
                Q_EMIT notice(tr("The session %1 is gone; this is a new session.").arg(previous));
            // Typed for the old session: the new one may be somewhere else entirely.
            m_pendingHeld = !previous.isEmpty() && !m_pending.isEmpty();
            Q_EMIT sessionStarted(id, false);
        }
        markLive();
        if (m_pendingHeld)
            Q_EMIT pendingHeld(m_pending);
        else
            sendPending();
    } else if (type == "ready") {
        markLive();
    } else if (type == "ping") {
        // Two shapes of pong exist in AIO's docs; sending both keys satisfies either server.
        json ts = frame.contains("timestamp") ? frame["timestamp"] : data;
        if (ts.is_object() && ts.contains("timestamp"))
            ts = ts["timestamp"];
        sendFrame(
            QByteArray::fromStdString(
                json{{"type", "pong"}, {"timestamp", ts}, {"data", {{"timestamp", ts}}}}.dump()),
            "pong");
    } else if (type == "lagged") {
        const qint64 dropped = data.is_object() ? data.value("dropped_bytes", qint64(0)) : 0;
        Q_EMIT lagged(dropped);
        Q_EMIT notice(tr("The connection fell behind: %1 KiB of output were skipped.")
                          .arg(qMax<qint64>(1, dropped / 1024)));
    } else if (type == "exit") {
        m_exitCode = data.is_object() ? data.value("exit_code", -1) : -1;
        m_sessionGone = true;
    } else if (type == "error") {
        m_serverError = data.is_string() ? QString::fromStdString(data.get<std::string>())
                                         : tr("the server reported an error");
        // A refusal before the session is reached is told once, by what follows it.
        if (m_wasLive)
            Q_EMIT notice(m_serverError);
    }
    // Other types are extensions this client does not know: ignored, as AIO clients do.
}

void TerminalChannel::onDisconnected() {
    m_connectTimer->stop();
    m_heartbeatTimer->stop();
    if (!m_socket)
        return;
    const auto code = m_socket->closeCode();
    const bool wasLive = m_wasLive;
    endTraffic(failureText());
    m_socket->deleteLater();
    m_socket = nullptr;
    if (m_detaching) {
        m_detaching = false;
        setState(State::Idle);
        return;
    }
    // Qt reports 1000 also for a socket that was cut without a close frame: only a close that
    // came with no socket error is the server ending the session.
    if (m_sessionGone ||
        (wasLive && !m_socketFailed && code == QWebSocketProtocol::CloseCodeNormal)) {
        finish(m_exitCode >= 0 ? tr("The session ended (exit status %1)").arg(m_exitCode)
                               : tr("The session ended"));
        return;
    }
    // The session ended while the link was down (a restarted server, an idle timeout): as
    // AIO's guidance for a failed reconnect says, a new one takes its place, and keys typed for
    // the old one wait for the user's word (pendingHeld).
    if (m_everLive && !wasLive && !m_attachNew &&
        (int(code) == kCloseSessionNotFound ||
         m_serverError.contains(QLatin1String("not found"), Qt::CaseInsensitive))) {
        m_attachNew = true;
        startConnect();
        return;
    }
    // A refused first attach (the session no longer exists) is final; so is any refusal before
    // the first success, where retrying would only repeat it.
    if (!m_serverError.isEmpty() && !wasLive) {
        finish(m_serverError);
        return;
    }
    if (!m_everLive) {
        finish(tr("Could not open the terminal: %1").arg(failureText()));
        return;
    }
    scheduleReconnect(failureText());
}

QString TerminalChannel::failureText() const {
    const QString address = m_client ? m_client->endpoint().displayAddress() : QString();
    // QWebSocket's errorString() can hold the URL, and so a ticket: never show it, only classify.
    const QString &raw = m_socketError;
    if (raw.contains(QLatin1String("401")) || raw.contains(QLatin1String("403")))
        return tr("%1 refused the credentials").arg(address);
    return tr("the connection to %1 was lost").arg(address);
}

void TerminalChannel::scheduleReconnect(const QString &why) {
    if (m_attempt >= m_policy.maxAttempts) {
        finish(tr("Gave up reconnecting after %1 attempts: %2").arg(m_attempt).arg(why));
        return;
    }
    const int delay = qMin(m_policy.maxDelayMs, m_policy.firstDelayMs * (1 << qMin(m_attempt, 10)));
    ++m_attempt;
    setState(State::Reconnecting);
    m_reconnectTimer->start(delay);
}

void TerminalChannel::finish(const QString &reason) {
    m_reconnectTimer->stop();
    if (!m_pending.isEmpty()) {
        Q_EMIT notice(tr("%n byte(s) typed while the connection was down were not sent.", nullptr,
                         int(m_pending.size())));
        discardPending();
    }
    setState(State::Ended);
    Q_EMIT ended(reason, m_exitCode);
}

void TerminalChannel::detach() {
    m_reconnectTimer->stop();
    if (!m_socket) {
        setState(State::Idle);
        return;
    }
    m_detaching = true;
    m_socket->close(QWebSocketProtocol::CloseCodeGoingAway);
}

void TerminalChannel::dropConnection() {
    m_socketFailed = true;
    if (m_socket)
        m_socket->abort();
}

bool TerminalChannel::sendInput(const QByteArray &utf8) {
    if (m_state == State::Live && m_socket && m_pending.isEmpty()) {
        sendFrame(
            QByteArray::fromStdString(
                json{{"type", "input"}, {"data", QString::fromUtf8(utf8).toStdString()}}.dump()),
            "input");
        return true;
    }
    const bool waiting = m_state == State::Connecting || m_state == State::Reconnecting ||
                         (m_state == State::Live && !m_pending.isEmpty());
    if (!waiting || m_pending.size() + utf8.size() > kMaxPendingBytes)
        return false;
    m_pending += utf8;
    Q_EMIT pendingChanged(m_pending);
    return true;
}

void TerminalChannel::sendPending() {
    if (m_pending.isEmpty() || m_state != State::Live || !m_socket)
        return;
    const QByteArray bytes = std::exchange(m_pending, {});
    m_pendingHeld = false;
    sendFrame(QByteArray::fromStdString(
                  json{{"type", "input"}, {"data", QString::fromUtf8(bytes).toStdString()}}.dump()),
              "input");
    Q_EMIT pendingChanged({});
}

void TerminalChannel::discardPending() {
    m_pendingHeld = false;
    if (m_pending.isEmpty())
        return;
    m_pending.clear();
    Q_EMIT pendingChanged({});
}

void TerminalChannel::resize(int cols, int rows) {
    if (cols <= 0 || rows <= 0)
        return;
    m_size = QSize(cols, rows);
    if (m_socket && m_socket->state() == QAbstractSocket::ConnectedState)
        sendFrame(QByteArray::fromStdString(
                      json{{"type", "resize"}, {"data", {{"cols", cols}, {"rows", rows}}}}.dump()),
                  "resize");
}

void TerminalChannel::sendFrame(const QByteArray &frame, const QByteArray &type) {
    if (!m_socket || m_socket->state() != QAbstractSocket::ConnectedState)
        return;
    m_socket->sendTextMessage(QString::fromUtf8(frame));
    recordFrame(TrafficDirection::Sent, type, frame.size(), [&frame] { return frame; });
}

void TerminalChannel::heartbeat() {
    if (!m_socket)
        return;
    if (m_lastHeard.isValid() && m_lastHeard.elapsed() >= m_policy.deadAfterMs) {
        // The peer went silent: TCP may not notice for minutes, so drop and reconnect, and let
        // the list check the sandbox now.
        dropConnection();
        if (m_client)
            m_client->reportLinkSilent();
        return;
    }
    if (!m_lastPing.isValid() || m_lastPing.elapsed() >= m_policy.pingMs) {
        m_lastPing.start();
        m_socket->ping();
    }
}

} // namespace sbx
