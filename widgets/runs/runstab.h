#pragma once

#include "models/notifications/notificationcenter.h"
#include <QHash>

#include <QPointer>
#include <QStringList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTimer;
class QTreeView;

namespace sbx {

class BashRun;
class LogView;
class RunListModel;
class SandboxClient;
class SessionListModel;
class ShellOpener;
class TabRegistry;
class UserPrompts;

// The Runs tab: commands run through /v1/bash with their output streaming into a log view, the
// list of this session's runs, and the sandbox's shell and bash sessions (what an agent runs).
class RunsTab final : public QWidget {
    Q_OBJECT
public:
    explicit RunsTab(SandboxClient *client, QWidget *parent = nullptr);
    ~RunsTab() override;

    // Where a run that ends is reported (a notification while the console is in the background).
    void setNotifications(NotificationCenter *notifications, const QString &sandboxId) {
        m_notifications = notifications;
        m_sandboxId = sandboxId;
    }
    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }
    // Where a shell session of the Sessions list opens (the Terminal tab); null: it cannot.
    void setShellOpener(ShellOpener *shells) { m_shells = shells; }

    // Runs the command line as typed, with the folder and environment fields. The new run
    // becomes current.
    void runCommand(const QString &command);
    void runTyped();
    // Stops the current run, one signal further each time.
    void stopCurrent();
    void rerunCurrent();
    void sendInput();
    // Follows the current command of the selected bash session as a run; a shell session
    // opens in the Terminal tab.
    void followSelectedSession();
    void setCurrent(BashRun *run);

    BashRun *currentRun() const;
    LogView *logViewOf(BashRun *run) const;
    RunListModel *runs() const { return m_runs; }
    SessionListModel *sessions() const { return m_sessions; }
    QLineEdit *commandField() const { return m_command; }
    QLineEdit *folderField() const { return m_folder; }
    QLineEdit *environmentField() const { return m_environment; }
    QLineEdit *inputField() const { return m_input; }
    QPushButton *stopButton() const { return m_stop; }
    // The line above the current run's log: state, exit code, duration, bytes.
    QString headerText() const;
    QString noticeText() const;
    // Shown when the sandbox has no /v1/bash API.
    bool showsNoBashApi() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void addRun(BashRun *run);
    void showNotice(const QString &text);
    void updateHeader();
    void historyStep(int direction);

    QPointer<SandboxClient> m_client;
    UserPrompts *m_prompts = nullptr;
    ShellOpener *m_shells = nullptr;
    RunListModel *m_runs;
    SessionListModel *m_sessions;
    QLineEdit *m_command;
    QLineEdit *m_folder;
    QLineEdit *m_environment;
    QLabel *m_formError;
    QLabel *m_noBash;
    QTreeView *m_runList;
    QTreeView *m_sessionList;
    QLabel *m_sessionsState;
    QLabel *m_header;
    QLabel *m_notice;
    QPushButton *m_stop;
    QPushButton *m_rerun;
    QLineEdit *m_input;
    QPushButton *m_send;
    QStackedWidget *m_logs;
    QLabel *m_empty;
    QPointer<BashRun> m_current;
    // Runs live as long as the tab (the run list owns them), so plain keys are safe.
    QHash<const BashRun *, LogView *> m_views;
    QHash<const BashRun *, QString> m_notices; // the last notice of each
    QTimer *m_sessionTimer;
    // Typed commands of this session, oldest first; never saved, as they may hold secrets.
    QStringList m_history;
    int m_historyPos = 0;
    QPointer<NotificationCenter> m_notifications;
    QString m_sandboxId;
};

void registerRunsTab(TabRegistry &registry);

} // namespace sbx
