#pragma once

#include "client/streams/terminalchannel.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSize>
#include <QString>

namespace sbx {

class SandboxClient;
class TerminalEmulation;
class TerminalPredictor;

// One shell as the console holds it (Konsole's Session): a TerminalChannel feeding one
// TerminalEmulation that any number of views show; their input goes to the channel and the
// smallest of their grids sizes the PTY.
class TerminalSession final : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultColumns = 80;
    static constexpr int kDefaultRows = 24;

    // An empty sessionId opens a new session in the sandbox; otherwise attaches to that one.
    explicit TerminalSession(SandboxClient *client, const QString &sessionId = {},
                             QObject *parent = nullptr);
    // Closes the socket; the shell lives on in the sandbox (terminate() ends it).
    ~TerminalSession() override;

    TerminalChannel *channel() const { return m_channel; }
    TerminalEmulation *emulation() const { return m_emulation; }
    // Local echo for a far sandbox; its round trip follows the channel's pings.
    TerminalPredictor *predictor() const { return m_predictor; }
    QString sessionId() const { return m_channel->sessionId(); }
    bool isRunning() const;
    // Why the shell ended, empty while it runs: a view attached afterwards shows it as well.
    QString endReason() const { return m_endReason; }

    // A view is any object that shows the emulation, used only as a key. Destroying it
    // detaches it.
    void attachView(QObject *view);
    void detachView(QObject *view);
    int viewCount() const { return int(m_viewSizes.size()); }
    // The grid a view has room for. The PTY gets the smallest columns and the smallest rows of
    // the views that told theirs, as tmux and Konsole do: every view then shows all of it.
    void setViewSize(QObject *view, int cols, int rows);
    // Columns by rows of the PTY and the emulation.
    QSize size() const { return m_size; }

    // Returns false when the input could not be sent (not live).
    bool sendInput(const QByteArray &bytes);
    // Opens a fresh shell in place of one that ended (a banner's "New session"): every view
    // of this session shows the new one.
    void startNew();
    // Ends the shell in the sandbox, then closes the socket.
    void terminate();

Q_SIGNALS:
    void sizeChanged(int cols, int rows);

private:
    void negotiateSize();

    QPointer<SandboxClient> m_client;
    TerminalChannel *m_channel;
    TerminalEmulation *m_emulation;
    TerminalPredictor *m_predictor;
    // Views by key; an invalid size until the view told one.
    QHash<QObject *, QSize> m_viewSizes;
    QSize m_size{kDefaultColumns, kDefaultRows};
    QString m_endReason;
};

} // namespace sbx
