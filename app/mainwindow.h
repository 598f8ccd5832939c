#pragma once

#include "widgets/workspace/pendingwork.h"
#include "widgets/workspace/tabregistry.h"

#include <QHash>
#include <QJsonObject>
#include <QMainWindow>
#include <QPointer>

class QAction;
class QLabel;
class QStackedWidget;

namespace sbx {

class LogWindow;
class SessionStore;
class DesktopNotifier;
class SandboxActions;
class SandboxListView;
class ConsoleContext;
class SandboxWorkspace;
class TrafficDock;
class WebEntriesMenu;

// The console's window: the sandbox list on the left, the selected sandbox's workspace on the
// right.
class MainWindow final : public QMainWindow, public LogOpener {
    Q_OBJECT
public:
    explicit MainWindow(ConsoleContext *context, QWidget *parent = nullptr);
    ~MainWindow() override;

    void selectSandbox(const QString &id);
    QString selectedSandbox() const;
    // The workspace of a sandbox, created on first use.
    SandboxWorkspace *workspace(const QString &id);
    SandboxListView *sandboxView() const { return m_list; }
    // The traffic inspector (View > Traffic inspector, Ctrl+Shift+I); closed at first.
    // The traffic inspector, made at its first use.
    TrafficDock *trafficDock();

    void addSandbox();
    void editSandbox();
    void showPreferences();
    void showEngines();
    // Session restore: with restore, brings back the last session's window, tabs, terminals
    // and logs (workspaces as they are first made) and returns the sandbox that was selected
    // (empty if gone or none); then keeps the session file up to date. Call once, after the
    // sandboxes are known.
    QString restoreSession(bool restore = true);
    QJsonObject sessionState() const;
    SessionStore *session() const { return m_session; }
    void showShortcuts();
    void showAbout();
    // The lifecycle actions of the list (new, start, pause, resume, stop, delete, logs).
    SandboxActions *lifecycle() const { return m_lifecycle; }
    // Open in Browser: the selected sandbox's web pages (Sandbox menu, toolbar, list menu).
    WebEntriesMenu *webEntries() const { return m_webEntries; }
    // Shows a sandbox's Logs tab.
    void showLogs(const QString &id);
    // The window of logs opened from local files (Open log…) or by tabs, made on first use.
    LogWindow *logWindow();
    void openLog(const QString &key, const QString &title,
                 std::function<LogSource *(QObject *parent)> open) override;
    // Running terminals in local sandboxes, which quitting would end.
    int openLocalTerminals() const;
    // Summed over the open workspaces; onlyEndingWithConsole: of sandboxes that stop with it.
    PendingWork pendingWork(bool onlyEndingWithConsole) const;
    // Uploads and downloads still queued or running, which quitting would cancel.
    int pendingTransfers() const;
    // Files edited in a viewer and not saved, which quitting would lose.
    int unsavedFiles() const;

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildActions();
    void updateActions();
    void onSelectionChanged();
    void onRowsRemoved();
    void updateSecretsStatus(bool persistent);

    ConsoleContext *m_context;
    LogWindow *m_logWindow = nullptr;
    SandboxListView *m_list;
    QStackedWidget *m_stack;
    QLabel *m_placeholder;
    QLabel *m_secretsStatus;
    QHash<QString, QPointer<SandboxWorkspace>> m_workspaces;
    SandboxActions *m_lifecycle = nullptr;
    WebEntriesMenu *m_webEntries = nullptr;
    TrafficDock *m_traffic = nullptr;
    QAction *m_inspector = nullptr; // View > Traffic inspector
    bool m_trafficSized = false;
    QAction *m_addAction = nullptr;
    QAction *m_editAction = nullptr;
    QAction *m_refreshAction = nullptr;
    QAction *m_preferencesAction = nullptr;
    QString m_appliedColours; // Preferences::colours last applied
    SessionStore *m_session = nullptr;
    DesktopNotifier *m_notifier = nullptr;
    QJsonObject m_restoring; // saved workspace states not applied yet, by sandbox id
};

} // namespace sbx
