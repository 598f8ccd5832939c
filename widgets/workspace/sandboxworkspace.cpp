#include "widgets/workspace/sandboxworkspace.h"

#include "widgets/files/filestab.h"
#include "widgets/shell/terminaltab.h"

#include "client/providers/sandboxregistry.h"
#include "models/files/transferqueuemodel.h"
#include "models/palette.h"
#include "widgets/common/icons.h"
#include "widgets/workspace/tabregistry.h"

#include <QHBoxLayout>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>

#include <QVBoxLayout>
#include <utility>

namespace sbx {

using namespace Qt::StringLiterals;

SandboxWorkspace::SandboxWorkspace(const TabRegistry &registry, SandboxRegistry *sandboxes,
                                   const QString &sandboxId, PreferencesHub *preferences,
                                   UserPrompts *prompts, LogOpener *logs, QWidget *parent,
                                   NotificationCenter *notifications)
    : QWidget(parent)
    , m_sandboxes(sandboxes)
    , m_sandboxId(sandboxId)
    , m_banner(new QFrame(this))
    , m_bannerText(new QLabel(m_banner))
    , m_retry(new QPushButton(tr("Retry now"), m_banner))
    , m_tabs(new QTabWidget(this)) {
    m_banner->setObjectName(u"stateBanner"_s);
    m_banner->setStyleSheet(Palette::bannerStyle(u"stateBanner"_s, false));
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->addWidget(m_bannerText, 1);
    bannerLayout->addWidget(m_retry);
    connect(m_retry, &QPushButton::clicked, this, [this] { m_sandboxes->probe(m_sandboxId); });

    m_tabs->setDocumentMode(true);
    const WorkspaceContext context{sandboxes->client(sandboxId),
                                   sandboxes,
                                   sandboxId,
                                   preferences,
                                   prompts,
                                   logs,
                                   this,
                                   this,
                                   notifications};
    const QList<WorkspaceTab> tabs = registry.tabs();
    for (const WorkspaceTab &tab : tabs) {
        if (tab.available && !tab.available(context))
            continue;
        QWidget *page = tab.create(context, m_tabs);
        page->setProperty("sbxTabId", tab.id);
        page->setProperty("sbxTabTitle", tab.title); // Help > Keyboard Shortcuts groups by it
        m_tabs->addTab(page, tab.icon.isEmpty() ? QIcon() : Icons::icon(tab.icon), tab.title);
    }

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_banner);
    layout->addWidget(m_tabs, 1);

    connect(sandboxes, &SandboxRegistry::changed, this, [this](const QString &id) {
        if (id == m_sandboxId)
            updateBanner();
    });
    updateBanner();
}

QWidget *SandboxWorkspace::tab(const QString &id) const {
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->widget(i)->property("sbxTabId").toString() == id)
            return m_tabs->widget(i);
    }
    return nullptr;
}

bool SandboxWorkspace::openShellSession(const QString &sessionId) {
    auto *terminals = qobject_cast<TerminalTab *>(tab(u"terminal"_s));
    if (!terminals)
        return false;
    terminals->openTerminal(sessionId);
    m_tabs->setCurrentWidget(terminals);
    return true;
}

bool SandboxWorkspace::queueDownload(const QString &label, const QString &localPath,
                                     JobMaker make) {
    auto *files = qobject_cast<FilesTab *>(tab(u"files"_s));
    if (!files)
        return false;
    files->transfers()->enqueueFetch(label, localPath, std::move(make));
    return true;
}

bool SandboxWorkspace::showTab(const QString &id) {
    QWidget *page = tab(id);
    if (page)
        m_tabs->setCurrentWidget(page);
    return page;
}

PendingWork SandboxWorkspace::pendingWork() const {
    PendingWork work;
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (const auto *source = dynamic_cast<const PendingWorkSource *>(m_tabs->widget(i)))
            work += source->pendingWork();
    }
    return work;
}

QJsonObject SandboxWorkspace::sessionState() const {
    // Until the sandbox came online the restored tabs wait: what they had is still theirs.
    QJsonObject tabs = m_pendingRestore;
    for (int i = 0; m_pendingRestore.isEmpty() && i < m_tabs->count(); ++i) {
        QWidget *page = m_tabs->widget(i);
        if (const auto *source = dynamic_cast<const SessionStateSource *>(page))
            tabs.insert(page->property("sbxTabId").toString(), source->sessionState());
    }
    const QWidget *current = m_tabs->currentWidget();
    return {{u"tab"_s, current ? current->property("sbxTabId").toString() : QString()},
            {u"tabs"_s, tabs}};
}

void SandboxWorkspace::restoreSessionState(const QJsonObject &state) {
    showTab(state.value(u"tab"_s).toString());
    m_pendingRestore = state.value(u"tabs"_s).toObject();
    if (m_pendingRestore.isEmpty())
        return;
    // Terminals re-attach to the sandbox's sessions: a local sandbox that is still starting
    // has no address yet, so the tabs get their state once it is online.
    if (m_sandboxes->state(m_sandboxId) == SandboxState::Online) {
        applyPendingRestore();
        return;
    }
    for (int i = 0; i < m_tabs->count(); ++i) {
        QWidget *page = m_tabs->widget(i);
        if (auto *source = dynamic_cast<SessionStateSource *>(page);
            source && m_pendingRestore.contains(page->property("sbxTabId").toString()))
            source->restoreExpected();
    }
    auto *once = new QObject(this);
    connect(m_sandboxes, &SandboxRegistry::stateChanged, once,
            [this, once](const QString &id, SandboxState now) {
                if (id != m_sandboxId || now != SandboxState::Online)
                    return;
                once->deleteLater();
                applyPendingRestore();
            });
}

void SandboxWorkspace::applyPendingRestore() {
    const QJsonObject tabs = std::exchange(m_pendingRestore, {});
    for (int i = 0; i < m_tabs->count(); ++i) {
        QWidget *page = m_tabs->widget(i);
        const QString id = page->property("sbxTabId").toString();
        if (auto *source = dynamic_cast<SessionStateSource *>(page); source && tabs.contains(id))
            source->restoreSessionState(tabs.value(id).toObject());
    }
}

void SandboxWorkspace::updateBanner() {
    const SandboxState state = m_sandboxes->state(m_sandboxId);
    const QString why = m_sandboxes->lastError(m_sandboxId);
    QString text;
    switch (state) {
    case SandboxState::Online:
        m_banner->hide();
        return;
    case SandboxState::Starting:
        text = tr("Connecting…");
        break;
    case SandboxState::AuthFailed:
        text = tr("<b>Authentication failed.</b> ");
        break;
    case SandboxState::Unreachable:
        text = tr("<b>Unreachable.</b> ");
        break;
    case SandboxState::Paused:
        text = tr("<b>Paused.</b> Every process in this sandbox is frozen; requests "
                  "wait until it is resumed (Resume in the sandbox list). ");
        break;
    case SandboxState::Stopping:
        text = tr("<b>Stopping.</b> Its shutdown hooks run before it exits. ");
        break;
    case SandboxState::Stopped:
        text = tr("<b>Stopped.</b> Start it from the sandbox list. ");
        break;
    default:
        text = tr("<b>%1.</b> ").arg(sandboxStateName(state).toHtmlEscaped());
        break;
    }
    text += why.toHtmlEscaped();
    m_bannerText->setText(text);
    m_retry->setVisible(state == SandboxState::AuthFailed || state == SandboxState::Unreachable);
    m_banner->show();
}

} // namespace sbx
