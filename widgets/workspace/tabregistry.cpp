#include "widgets/workspace/tabregistry.h"

#include "client/providers/sandboxregistry.h"
#include "widgets/code/codetab.h"
#include "widgets/files/filestab.h"
#include "widgets/hooks/hookstab.h"
#include "widgets/llms/llmstxtview.h"
#include "widgets/logs/logview.h"
#include "widgets/mcp/mcptab.h"
#include "widgets/monitor/monitortab.h"
#include "widgets/overview/contextview.h"
#include "widgets/runs/runstab.h"
#include "widgets/shell/terminaltab.h"

#include <algorithm>

#include <QCoreApplication>

namespace sbx {

using namespace Qt::StringLiterals;

void TabRegistry::add(WorkspaceTab tab) {
    auto at = std::upper_bound(m_tabs.begin(), m_tabs.end(), tab.order,
                               [](int order, const WorkspaceTab &t) { return order < t.order; });
    m_tabs.insert(at, std::move(tab));
}

void registerStandardTabs(TabRegistry &registry) {
    registry.add({u"overview"_s, QCoreApplication::translate("sbx::ContextView", "Overview"), 10,
                  [](const WorkspaceContext &ctx, QWidget *parent) -> QWidget * {
                      auto *view = new ContextView(ctx.client, parent);
                      if (SandboxRegistry *sandboxes = ctx.sandboxes) {
                          const QString id = ctx.sandboxId;
                          view->setSandboxName(sandboxes->entry(id).name);
                          // A saved sandbox can be renamed while its workspace is open.
                          QObject::connect(sandboxes, &SandboxRegistry::changed, view,
                                           [view, sandboxes, id](const QString &changed) {
                                               if (changed == id)
                                                   view->setSandboxName(sandboxes->entry(id).name);
                                           });
                      }
                      return view;
                  }});
    registry.add({u"llms"_s, QCoreApplication::translate("sbx::LlmsTxtView", "llms.txt"), 20,
                  [](const WorkspaceContext &ctx, QWidget *parent) -> QWidget * {
                      return new LlmsTxtView(ctx.client, parent);
                  }});
    registerTerminalTab(registry);
    registerFilesTab(registry);
    registerRunsTab(registry);
    registerCodeTab(registry);
    registerHooksTab(registry);
    registerMcpTab(registry);
    registerMonitorTab(registry);
    registerLogsTab(registry);
}

} // namespace sbx
