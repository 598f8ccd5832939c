#include "widgets/sandboxlist/webentriesmenu.h"

#include "client/api/webentry.h"
#include "client/providers/sandboxregistry.h"
#include "client/sandboxclient.h"
#include "models/webentries/webentrycache.h"
#include "models/webentries/webentryopener.h"
#include "widgets/common/icons.h"

#include <QDesktopServices>

namespace sbx {

using namespace Qt::StringLiterals;

WebEntriesMenu::WebEntriesMenu(SandboxRegistry *registry, WebEntryCache *cache,
                               WebEntryOpener *opener, QWidget *parent)
    : QMenu(tr("Open in &Browser"), parent)
    , m_registry(registry)
    , m_cache(cache)
    , m_opener(opener) {
    setObjectName(u"webEntriesMenu"_s);
    setIcon(Icons::icon(u"browser"_s));
    setAccessibleName(tr("Open in Browser"));
    menuAction()->setObjectName(u"openInBrowser"_s);
    menuAction()->setToolTip(tr("Open a page the sandbox serves (desktop, editor, Jupyter, API "
                                "docs, terminal) in your web browser"));
    menuAction()->setStatusTip(menuAction()->toolTip());
    connect(this, &QMenu::aboutToShow, this, [this] {
        m_reportFailure = true;
        m_cache->request(m_sandboxId);
        rebuild();
    });
    connect(m_cache, &WebEntryCache::changed, this, &WebEntriesMenu::onCacheChanged);
    connect(m_registry, &SandboxRegistry::stateChanged, this, [this](const QString &id) {
        if (id == m_sandboxId)
            updateAction();
    });
    connect(
        m_opener, &WebEntryOpener::urlReady, this,
        [](const QString &, const QString &, const QUrl &url) { QDesktopServices::openUrl(url); });
    connect(m_opener, &WebEntryOpener::failed, this,
            [this](const QString &, const QString &, const QString &message) {
                Q_EMIT failed(message);
            });
    rebuild();
    updateAction();
}

void WebEntriesMenu::setSandbox(const QString &sandboxId) {
    if (sandboxId == m_sandboxId)
        return;
    m_sandboxId = sandboxId;
    m_reportFailure = false;
    rebuild();
    updateAction();
}

void WebEntriesMenu::updateAction() {
    const bool online =
        !m_sandboxId.isEmpty() && m_registry->state(m_sandboxId) == SandboxState::Online;
    menuAction()->setEnabled(online);
}

void WebEntriesMenu::onCacheChanged(const QString &sandboxId) {
    if (sandboxId != m_sandboxId)
        return;
    const WebEntryAvailability now = m_cache->availability(sandboxId);
    if (now.state == WebEntryAvailability::State::Failed && m_reportFailure) {
        m_reportFailure = false;
        Q_EMIT failed(tr("Could not check the web pages of %1: %2")
                          .arg(m_registry->entry(sandboxId).name, now.error.message));
    }
    rebuild();
}

void WebEntriesMenu::rebuild() {
    clear();
    const WebEntryAvailability now = m_cache->availability(m_sandboxId);
    const auto note = [this](const QString &text) {
        QAction *a = addAction(text);
        a->setEnabled(false);
        return a;
    };
    switch (now.state) {
    case WebEntryAvailability::State::Offline:
        note(m_sandboxId.isEmpty() ? tr("No sandbox selected") : tr("Checking…"));
        return;
    case WebEntryAvailability::State::Checking:
        note(tr("Checking…"));
        return;
    case WebEntryAvailability::State::Failed:
        note(tr("Could not check: %1").arg(now.error.message))->setToolTip(now.error.message);
        break;
    case WebEntryAvailability::State::Known: {
        const SandboxClient *client = m_registry->client(m_sandboxId);
        for (const QString &id : now.served) {
            const WebEntry *entry = findWebEntry(id);
            if (!entry || !client)
                continue;
            QAction *a = addAction(webEntryLabel(*entry));
            a->setObjectName(u"webEntry-"_s + id);
            // The address without any ticket: one is minted at the click.
            const QString address = webEntryUrl(client->endpoint(), *entry).toDisplayString();
            a->setToolTip(tr("Open %1 in your web browser").arg(address));
            a->setStatusTip(a->toolTip());
            const QString sandboxId = m_sandboxId;
            connect(a, &QAction::triggered, this,
                    [this, sandboxId, id] { m_opener->open(sandboxId, id); });
        }
        if (now.served.isEmpty())
            note(tr("No web pages"));
        break;
    }
    }
    addSeparator();
    QAction *again = addAction(tr("Check &again"));
    again->setObjectName(u"webEntriesRefresh"_s);
    again->setToolTip(tr("Ask the sandbox again which pages it serves"));
    connect(again, &QAction::triggered, this, [this] {
        m_reportFailure = true;
        m_cache->refresh(m_sandboxId);
    });
}

} // namespace sbx
