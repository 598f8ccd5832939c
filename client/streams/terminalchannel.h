#pragma once

#include "client/traffic/trafficrecorder.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QSize>

#include <functional>

class QNetworkRequest;
class QTimer;
class QUrl;
class QWebSocket;

namespace sbx {

class SandboxClient;

// One interactive terminal over AIO's /v1/shell/ws: speaks the JSON frames, answers pings,
// reconnects to the same session after an abnormal close, and says honestly what a reconnect
// may have lost when the server cannot replay.
class TerminalChannel final : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Connecting, Live, Reconnecting, Ended };
    Q_ENUM(State)

    struct ReconnectPolicy {
        int maxAttempts = 20;
        int firstDelayMs = 250;
        int maxDelayMs = 5000;
        int connectTimeoutMs = 10000;
        // A WebSocket ping this often; a socket that brings no frame and no pong for
        // deadAfterMs is taken for dead (TCP may not notice for minutes) and reconnected.
        int pingMs = 5000;
        int deadAfterMs = 10000;
    };

    explicit TerminalChannel(SandboxClient *client, QObject *parent = nullptr);
    ~TerminalChannel() override;

    // Opens a new session (empty id) or attaches to an existing one.
    void open(const QString &sessionId = {});
    // Closes the socket; the session keeps running on the server.
    void detach();
    // Drops the socket as a failing network would (tests, and "reconnect now").
    void dropConnection();
    // Sends the input, or while (re)connecting keeps it, in order, to send once the same session
    // is back (pendingInput()). False only when it is lost: the channel is idle or ended, or the
    // queue would pass kMaxPendingBytes.
    bool sendInput(const QByteArray &utf8);
    static constexpr qsizetype kMaxPendingBytes = 64 * 1024;
    // sandbox-server's close code for an attach to a session that does not exist.
    static constexpr int kCloseSessionNotFound = 4404;
    // Typed while not live, not sent yet.
    QByteArray pendingInput() const { return m_pending; }
    // Sends what waits, if live. When a different session came back (pendingHeld), the user's
    // answer: send what was typed to it, or drop it.
    void sendPending();
    void discardPending();
    void resize(int cols, int rows);
    void setPolicy(const ReconnectPolicy &policy) { m_policy = policy; }
    const ReconnectPolicy &policy() const { return m_policy; }
    // The last ping's round trip (ms), -1 before the first pong.
    int roundTripMs() const { return m_roundTripMs; }
    // Authenticate the socket with a one-time ticket in the URL instead of headers.
    void setUseTicket(bool useTicket) { m_useTicket = useTicket; }

    State state() const { return m_state; }
    QString sessionId() const { return m_sessionId; }
    // True when the server announced terminal-replay: a re-attach resends recent output.
    bool canReplay() const;
    int exitCode() const { return m_exitCode; }

Q_SIGNALS:
    void stateChanged(TerminalChannel::State state);
    // After the session_id frame. resumed: the same session as before a reconnect.
    void sessionStarted(const QString &sessionId, bool resumed);
    void output(const QByteArray &utf8);
    // The server is about to resend the session's recent output: clear the screen first.
    void replayStarting();
    // Something a person should know: output may be missing, a new session replaced the old one.
    void notice(const QString &text);
    void lagged(qint64 droppedBytes);
    // The input waiting to be sent changed (empty: all sent or dropped).
    void pendingChanged(const QByteArray &pending);
    // A new session replaced the one the pending input was typed for: it is kept until
    // sendPending() or discardPending().
    void pendingHeld(const QByteArray &pending);
    // The session is over (exit, deleted, or unreachable for good). exitCode -1 when unknown.
    void ended(const QString &reason, int exitCode);

private:
    void connectSocket(const QString &ticket = {});
    void startConnect();
    void onConnected();
    void onFrame(const QString &text);
    void onDisconnected();
    void scheduleReconnect(const QString &why);
    void finish(const QString &reason);
    void setState(State state);
    // type: the frame's "type", for the traffic inspector.
    void sendFrame(const QByteArray &frame, const QByteArray &type);
    void beginTraffic(const QUrl &url, const QNetworkRequest &request);
    // A frame for the traffic inspector: output and input are summarised per second.
    void recordFrame(TrafficDirection direction, const QByteArray &type, qint64 bytes,
                     const std::function<QByteArray()> &frame);
    void endTraffic(const QString &failure);
    void heartbeat();
    void onReachabilityChanged(bool reachable);
    QString failureText() const;

    QPointer<SandboxClient> m_client;
    QWebSocket *m_socket = nullptr;
    QTimer *m_reconnectTimer;
    QTimer *m_connectTimer;
    QTimer *m_heartbeatTimer;
    ReconnectPolicy m_policy;
    State m_state = State::Idle;
    QString m_sessionId;
    QSize m_size;
    bool m_useTicket = false;
    bool m_wasLive = false;  // this socket reached the session
    bool m_everLive = false; // some socket did: failures after that reconnect
    bool m_detaching = false;
    bool m_sessionGone = false;
    bool m_attachNew = false;    // the session was gone at a reconnect: ask for a new one
    bool m_socketFailed = false; // this socket ended with an error, not a close handshake
    QString m_socketError;
    QString m_serverError;
    int m_attempt = 0;
    int m_exitCode = -1;
    QElapsedTimer m_lastHeard; // since the last frame or pong of this socket
    QElapsedTimer m_lastPing;
    int m_roundTripMs = -1;
    QByteArray m_pending;
    bool m_pendingHeld = false;
    TrafficSocket m_traffic; // this socket's handshake in the inspector; serial 0: none
    bool m_trafficOpen = false;
};

} // namespace sbx
