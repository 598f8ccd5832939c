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
#include <QSignalBlocker>
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
    , m_tabs(new QTabWidget(this))
    , m_context{sandboxes->client(sandboxId),
                sandboxes,
                sandboxId,
                preferences,
                prompts,
                logs,
                this,
                this,
                notifications} {
    m_banner->setObjectName(u"stateBanner"_s);
    m_banner->setStyleSheet(Palette::bannerStyle(u"stateBanner"_s, false));
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->addWidget(m_bannerText, 1);
    bannerLayout->addWidget(m_retry);
    connect(m_retry, &QPushButton::clicked, this, [this] { m_sandboxes->probe(m_sandboxId); });

    m_tabs->setDocumentMode(true);
    const QList<WorkspaceTab> tabs = registry.tabs();
    for (const WorkspaceTab &tab : tabs) {
        if (tab.available && !tab.available(m_context))
            continue;
        auto *placeholder = new QWidget(m_tabs);
        placeholder->setProperty("sbxTabId", tab.id);
        m_tabs->addTab(placeholder, tab.icon.isEmpty() ? QIcon() : Icons::icon(tab.icon),
                       tab.title);
        m_pages.push_back({tab, nullptr});
    }
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (index >= 0 && !builtPage(index))
            build(index);
    });
    if (!m_pages.empty())
        build(m_tabs->currentIndex());

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

QWidget *SandboxWorkspace::build(int index) {
    Page &slot = m_pages.at(std::size_t(index));
    QWidget *page = slot.tab.create(m_context, m_tabs);
    page->setProperty("sbxTabId", slot.tab.id);
    page->setProperty("sbxTabTitle", slot.tab.title); // Help > Keyboard Shortcuts groups by it
    slot.page = page;
    // The page takes its placeholder's place; the tab in front stays in front.
    const int current = m_tabs->currentIndex();
    QWidget *placeholder = m_tabs->widget(index);
    const QSignalBlocker quiet(m_tabs);
    m_tabs->removeTab(index);
    m_tabs->insertTab(index, page, slot.tab.icon.isEmpty() ? QIcon() : Icons::icon(slot.tab.icon),
                      slot.tab.title);
    m_tabs->setCurrentIndex(current);
    delete placeholder;
    restoreBuilt(page);
    return page;
}

QWidget *SandboxWorkspace::tab(const QString &id) {
    for (int i = 0; i < int(m_pages.size()); ++i) {
        if (m_pages[std::size_t(i)].tab.id == id)
            return builtPage(i) ? builtPage(i) : build(i);
    }
    return nullptr;
}

void SandboxWorkspace::buildAllTabs() {
    for (int i = 0; i < int(m_pages.size()); ++i) {
        if (!builtPage(i))
            build(i);
    }
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
    for (const Page &slot : m_pages) {
        if (const auto *source = dynamic_cast<const PendingWorkSource *>(slot.page))
            work += source->pendingWork();
    }
    return work;
}

QJsonObject SandboxWorkspace::sessionState() const {
    // A restored state not given yet (the sandbox is not online, the tab not built) is still
    // what that tab has.
    QJsonObject tabs = m_pendingRestore;
    for (const Page &slot : m_pages) {
        const auto *source = dynamic_cast<const SessionStateSource *>(slot.page);
        if (source && !tabs.contains(slot.tab.id))
            tabs.insert(slot.tab.id, source->sessionState());
    }
    const QWidget *current = m_tabs->currentWidget();
    return {{u"tab"_s, current ? current->property("sbxTabId").toString() : QString()},
            {u"tabs"_s, tabs}};
}

void SandboxWorkspace::restoreSessionState(const QJsonObject &state) {
    m_pendingRestore = state.value(u"tabs"_s).toObject();
    showTab(state.value(u"tab"_s).toString());
    for (const Page &slot : m_pages) {
        if (slot.page)
            restoreBuilt(slot.page);
    }
    if (m_pendingRestore.isEmpty())
        return;
    // Terminals re-attach to the sandbox's sessions: a local sandbox that is still starting
    // has no address yet, so the tabs get their state once it is online.
    connect(m_sandboxes, &SandboxRegistry::stateChanged, this,
            [this](const QString &id, SandboxState now) {
                if (id == m_sandboxId && now == SandboxState::Online)
                    applyPendingRestore();
            });
}

void SandboxWorkspace::restoreBuilt(QWidget *page) {
    const QString id = page->property("sbxTabId").toString();
    auto *source = dynamic_cast<SessionStateSource *>(page);
    if (!source || !m_pendingRestore.contains(id))
        return;
    if (m_sandboxes->state(m_sandboxId) != SandboxState::Online) {
        source->restoreExpected();
        return;
    }
    const QJsonObject state = m_pendingRestore.take(id).toObject();
    source->restoreSessionState(state);
}

void SandboxWorkspace::applyPendingRestore() {
    for (const Page &slot : m_pages) {
        if (slot.page)
            restoreBuilt(slot.page);
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
