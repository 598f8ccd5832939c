#pragma once

#include <QList>
#include <QString>

#include <functional>

class QWidget;

namespace sbx {

class SandboxClient;
class SandboxRegistry;
class PreferencesHub;
class UserPrompts;

// What a workspace tab gets to work with: the sandbox's client and the registry that lists it.
struct WorkspaceContext {
    SandboxClient *client = nullptr;
    SandboxRegistry *sandboxes = nullptr;
    QString sandboxId;
    PreferencesHub *preferences = nullptr;
    // Where the tab asks its questions; null: the dialogs.
    UserPrompts *prompts = nullptr;
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
