#pragma once

#include <QList>
#include <QString>

#include <functional>

class QObject;
class QWidget;

namespace sbx {

class ApiJob;
class LogSource;
class SandboxClient;
class SandboxRegistry;
class PreferencesHub;
class UserPrompts;
class NotificationCenter;

// Opens a log in the console's log window, a tab of its own: the source comes from open (asked
// again on Reconnect); key names the log so opening it twice shows the tab it has.
class LogOpener {
public:
    virtual ~LogOpener() = default;
    virtual void openLog(const QString &key, const QString &title,
                         std::function<LogSource *(QObject *parent)> open) = 0;
};

// Opens a shell session that runs already (an agent's) in the workspace's Terminal tab.
class ShellOpener {
public:
    virtual ~ShellOpener() = default;
    // False when the workspace has no terminal to open it in.
    virtual bool openShellSession(const QString &sessionId) = 0;
};

// The workspace's transfer queue, shown in the Files tab, for downloads that are not files of
// the sandbox (an observe report): make builds the job that writes localPath.
class TransferHost {
public:
    virtual ~TransferHost() = default;
    using JobMaker = std::function<ApiJob *(SandboxClient *client, const QString &localPath)>;
    // False when the workspace has no transfer queue (no Files tab).
    virtual bool queueDownload(const QString &label, const QString &localPath, JobMaker make) = 0;
};

// What a workspace tab gets to work with: the sandbox's client and the registry that lists it.
struct WorkspaceContext {
    SandboxClient *client = nullptr;
    SandboxRegistry *sandboxes = nullptr;
    QString sandboxId;
    PreferencesHub *preferences = nullptr;
    // Where the tab asks its questions; null: the dialogs.
    UserPrompts *prompts = nullptr;
    // Where a tab opens a log of its own (a file followed as a log); null: it cannot.
    LogOpener *logs = nullptr;
    // Where a tab opens a shell session in a terminal; null: it cannot.
    ShellOpener *shells = nullptr;
    // Where a tab queues a download; null: it saves by itself.
    TransferHost *transfers = nullptr;
    // Where a tab reports what finished (runs, transfers) for desktop notifications; may be null.
    NotificationCenter *notifications = nullptr;
};

struct WorkspaceTab {
    QString id;
    QString title;
    int order = 100; // lower first
    std::function<QWidget *(const WorkspaceContext &, QWidget *parent)> create;
    // Empty: every sandbox has the tab; else only those for which it returns true.
    std::function<bool(const WorkspaceContext &)> available = {};
    // Its icon in resources/icons (Icons::icon), empty for none.
    QString icon = {};
};

// A tab built as Tab(client, parent) that asks its questions through the context's prompts
// (Runs, Hooks, Monitor), and gets the sandbox, shell opener and transfer host when it takes
// them.
template <typename Tab>
WorkspaceTab clientTab(QString id, QString title, int order, QString icon = {}) {
    WorkspaceTab tab{std::move(id), std::move(title), order,
                     [](const WorkspaceContext &ctx, QWidget *parent) -> QWidget * {
                         auto *made = new Tab(ctx.client, parent);
                         made->setPrompts(ctx.prompts);
                         if constexpr (requires { made->setShellOpener(ctx.shells); })
                             made->setShellOpener(ctx.shells);
                         if constexpr (requires { made->setSandbox(ctx.sandboxes, ctx.sandboxId); })
                             made->setSandbox(ctx.sandboxes, ctx.sandboxId);
                         if constexpr (requires { made->setTransferHost(ctx.transfers); })
                             made->setTransferHost(ctx.transfers);
                         if constexpr (requires { made->setNotifications(ctx.notifications); })
                             made->setNotifications(ctx.notifications, ctx.sandboxId);
                         return made;
                     }};
    tab.icon = std::move(icon);
    return tab;
}

// The tabs a sandbox workspace shows. Each feature registers its tab from its own folder.
class TabRegistry final {
public:
    void add(WorkspaceTab tab);
    // Sorted by order, then registration.
    QList<WorkspaceTab> tabs() const { return m_tabs; }

private:
    QList<WorkspaceTab> m_tabs;
};

// The tabs of this layer: Overview and llms.txt.
void registerStandardTabs(TabRegistry &registry);

} // namespace sbx
