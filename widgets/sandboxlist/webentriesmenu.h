#pragma once

#include <QMenu>
#include <QString>

namespace sbx {

class SandboxRegistry;
class WebEntryCache;
class WebEntryOpener;

// "Open in Browser": the web entries one sandbox serves (WebEntryCache), each opening its page
// in the desktop's browser through WebEntryOpener. Served entries only; "Checking…" while the
// probe runs, "No web pages" when none is served.
class WebEntriesMenu final : public QMenu {
    Q_OBJECT
public:
    WebEntriesMenu(SandboxRegistry *registry, WebEntryCache *cache, WebEntryOpener *opener,
                   QWidget *parent = nullptr);

    // The sandbox whose pages it offers; empty for none. Probes nothing by itself: opening the
    // menu does.
    void setSandbox(const QString &sandboxId);
    QString sandbox() const { return m_sandboxId; }

Q_SIGNALS:
    // Opening a page or checking the pages failed; for the status bar.
    void failed(const QString &message);

private:
    void rebuild();
    void updateAction();
    void onCacheChanged(const QString &sandboxId);

    SandboxRegistry *m_registry;
    WebEntryCache *m_cache;
    WebEntryOpener *m_opener;
    QString m_sandboxId;
    bool m_reportFailure = false; // the menu asked for the probe that is running
};

} // namespace sbx
