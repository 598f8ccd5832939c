#pragma once

#include "widgets/workspace/tabregistry.h"

#include "client/providers/sandboxprovider.h"
#include "widgets/workspace/pendingwork.h"

#include <QJsonObject>
#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QTabWidget;
class QFrame;

namespace sbx {

class SandboxRegistry;
class TabRegistry;
class PreferencesHub;
class UserPrompts;
class LogOpener;
class NotificationCenter;

// One sandbox's workspace: a state banner above the registered tabs. A tab's page is built the
// first time it is shown or asked for (tab()): building all ten took most of start-up.
class SandboxWorkspace final : public QWidget, public ShellOpener, public TransferHost {
    Q_OBJECT
public:
    SandboxWorkspace(const TabRegistry &registry, SandboxRegistry *sandboxes,
                     const QString &sandboxId, PreferencesHub *preferences = nullptr,
                     UserPrompts *prompts = nullptr, LogOpener *logs = nullptr,
                     QWidget *parent = nullptr, NotificationCenter *notifications = nullptr);

    QString sandboxId() const { return m_sandboxId; }
    QTabWidget *tabs() const { return m_tabs; }
    // Opens the session in a new terminal of the Terminal tab and shows it.
    bool openShellSession(const QString &sessionId) override;
    // Queues it in the Files tab's transfers (which need not be in front).
    bool queueDownload(const QString &label, const QString &localPath, JobMaker make) override;
    // The tab widget registered under id, built now if it was not yet; null when none.
    QWidget *tab(const QString &id);
    // Builds every tab not built yet (Help > Keyboard Shortcuts lists what they offer).
    void buildAllTabs();
    // Brings a tab to the front; false when this sandbox has no such tab.
    bool showTab(const QString &id);
    // What its tabs would lose or end if the console quit now.
    PendingWork pendingWork() const;
    // The tab in front and each SessionStateSource tab's state, for session restore.
    QJsonObject sessionState() const;
    void restoreSessionState(const QJsonObject &state);

private:
    // A tab's page, built in place of its placeholder at first use.
    QWidget *build(int index);
    QWidget *builtPage(int index) const { return m_pages.at(std::size_t(index)).page; }
    void updateBanner();
    // Gives each built tab its restored state once the sandbox is online.
    void applyPendingRestore();
    void restoreBuilt(QWidget *page);

    SandboxRegistry *m_sandboxes;
    QString m_sandboxId;
    QFrame *m_banner;
    QLabel *m_bannerText;
    QPushButton *m_retry;
    QTabWidget *m_tabs;
    WorkspaceContext m_context;
    struct Page {
        WorkspaceTab tab;
        QWidget *page = nullptr; // null until built
    };
    std::vector<Page> m_pages; // in the tab widget's order
    // Restored tab states not given yet: the sandbox is not online, or the tab is not built.
    QJsonObject m_pendingRestore;
};

} // namespace sbx
