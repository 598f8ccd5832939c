#pragma once

#include "widgets/workspace/pendingwork.h"

#include <QPointer>
#include <QWidget>

class QAction;
class QLabel;
class QMenu;
class QTabWidget;
class QToolButton;

namespace sbx {

class SandboxClient;
class TerminalPane;
class TerminalSession;
class PreferencesHub;
class UserPrompts;

// The "Terminal" tab of a sandbox workspace: terminal tabs, each one terminal or two side by side.
class TerminalTab final : public QWidget, public PendingWorkSource, public SessionStateSource {
    Q_OBJECT
public:
    enum class Split {
        NewSession,  // a new shell beside the current one
        SameSession, // a second view of the current pane's shell
    };

    explicit TerminalTab(SandboxClient *client, PreferencesHub *preferences = nullptr,
                         QWidget *parent = nullptr);

    // Opens a terminal tab; an empty sessionId starts a new session.
    TerminalPane *openTerminal(const QString &sessionId = {});
    // Ends each session of the current tab once and closes it.
    void closeCurrent();
    // Adds a second pane beside the current one (none when the tab has two already: returns
    // the second).
    TerminalPane *splitCurrent(Split split = Split::NewSession);
    void renameCurrent(const QString &name);
    int terminalCount() const;
    PendingWork pendingWork() const override;
    // Each terminal tab's name and its panes' server sessions; restoring attaches to them again
    // (the server replays their output; a session that is gone gets a new one and a notice).
    QJsonObject sessionState() const override;
    void restoreSessionState(const QJsonObject &state) override;
    void restoreExpected() override { m_restoreExpected = true; }
    // Where its questions go (and its views'); null: the dialogs. Set before opening terminals.
    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }
    QList<TerminalPane *> panes() const;
    QTabWidget *tabs() const { return m_tabs; }
    // The toolbar's line about the current terminal's link: its round trip, local echo.
    QString linkText() const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    TerminalPane *makePane(TerminalSession *session, QWidget *page);
    // A session for the panes of page, deleted after it.
    TerminalSession *openSession(const QString &sessionId, QWidget *page);
    TerminalPane *splitWith(const QString &sessionId);
    // A restored session that is gone (the sandbox restarted, the shell exited) gets a new one
    // in its place, with one line that says so.
    void replaceIfGone(TerminalPane *pane, const QString &wanted);
    void updateTitle(QWidget *page);
    void fillSessionMenu();
    void askRename(int index);

    QPointer<SandboxClient> m_client;
    QPointer<PreferencesHub> m_preferences;
    UserPrompts *m_prompts = nullptr;
    QTabWidget *m_tabs;
    QMenu *m_sessionMenu;
    QLabel *m_link;
    int m_opened = 0;
    bool m_restoreExpected = false; // restored terminals are coming: no shell of our own at first
};

class TabRegistry;
// Registers the Terminal tab of each sandbox workspace.
void registerTerminalTab(TabRegistry &registry);

} // namespace sbx
