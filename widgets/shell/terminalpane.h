#pragma once

#include "client/streams/terminalchannel.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QFrame;
class SandboxClient;
class TerminalView;

// One terminal: a TerminalView wired to a TerminalChannel, with a banner for reconnecting,
// notices and a session that ended.
class TerminalPane final : public QWidget {
    Q_OBJECT
public:
    // An empty sessionId opens a new session; otherwise attaches to that one.
    TerminalPane(SandboxClient *client, const QString &sessionId = {}, QWidget *parent = nullptr);
    ~TerminalPane() override;

    TerminalView *view() const { return m_view; }
    TerminalChannel *channel() const { return m_channel; }
    QString sessionId() const { return m_channel->sessionId(); }
    QString title() const { return m_title; }
    bool isRunning() const;
    // The banner's text, empty when hidden.
    QString bannerText() const;
    // Opens a fresh session in this pane (the banner's "New session").
    void startNewSession();
    // Ends the session on the server, then closes the socket.
    void terminateSession();

Q_SIGNALS:
    void titleChanged(const QString &title);

protected:
    void focusInEvent(QFocusEvent *event) override;

private:
    void onStateChanged(TerminalChannel::State state);
    void showBanner(const QString &text, bool error, bool offerNewSession, bool offerReconnect);

    QPointer<SandboxClient> m_client;
    TerminalChannel *m_channel;
    TerminalView *m_view;
    QFrame *m_banner;
    QLabel *m_bannerText;
    QPushButton *m_newSession;
    QPushButton *m_reconnect;
    QPushButton *m_dismiss;
    QString m_title;
};
