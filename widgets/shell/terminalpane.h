#pragma once

#include "client/streams/terminalchannel.h"
#include "models/terminal/terminalsession.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QFrame;

namespace sbx {

class SandboxClient;
class TerminalView;

// One view of a terminal session: a TerminalView on the session's emulation, with a banner
// for reconnecting, notices and a session that ended, which every pane of the session shows.
class TerminalPane final : public QWidget {
    Q_OBJECT
public:
    // Opens a session of its own: an empty sessionId starts a new one, otherwise attaches.
    TerminalPane(SandboxClient *client, const QString &sessionId = {}, QWidget *parent = nullptr);
    // Shows a session owned elsewhere (a TerminalTab's), perhaps beside another pane of it.
    explicit TerminalPane(TerminalSession *session, QWidget *parent = nullptr);
    ~TerminalPane() override;

    TerminalSession *session() const { return m_session; }
    TerminalView *view() const { return m_view; }
    TerminalChannel *channel() const;
    QString sessionId() const;
    QString title() const { return m_title; }
    bool isRunning() const;
    // The banner's text, empty when hidden.
    QString bannerText() const;
    // Opens a fresh session in place of this one (the banner's "New session").
    void startNewSession();
    // Ends the session on the server, then closes the socket.
    void terminateSession();

Q_SIGNALS:
    void titleChanged(const QString &title);

protected:
    void focusInEvent(QFocusEvent *event) override;

private:
    void onStateChanged(TerminalChannel::State state);
    void onPendingChanged(const QByteArray &pending);
    void updateOverlay();
    void onInput(const QByteArray &bytes);
    void showBanner(const QString &text, bool error, bool offerNewSession, bool offerReconnect);

    QPointer<TerminalSession> m_session;
    TerminalView *m_view;
    QFrame *m_banner;
    QLabel *m_bannerText;
    QPushButton *m_newSession;
    QPushButton *m_reconnect;
    QPushButton *m_dismiss;
    QPushButton *m_sendPending;
    QPushButton *m_discardPending;
    QString m_title;
};

} // namespace sbx
