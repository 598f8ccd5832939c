#include "widgets/shell/terminaltab.h"

#include "models/terminal/terminalpredictor.h"

#include "client/api/shelljobs.h"
#include "models/terminal/terminalsession.h"
#include "widgets/common/preferences.h"
#include "widgets/common/userprompts.h"
#include "widgets/common/widgethelpers.h"
#include "widgets/shell/terminalpane.h"
#include "widgets/terminal/terminalview.h"
#include "widgets/workspace/tabregistry.h"

#include <QApplication>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {
const char *kNameProperty = "sbxTerminalName";
// A split opens a new shell, as tmux, iTerm2 and Windows Terminal do; a second view of the
// same shell is the menu's other entry.
const QKeySequence kSplitShortcut(u"Ctrl+Shift+D"_s);

void applyPreferences(TerminalPane *pane, const Preferences &preferences) {
    TerminalView *view = pane->view();
    pane->session()->predictor()->setMode(
        TerminalPredictor::Mode(qBound(0, preferences.terminalPrediction, 2)));
    view->setScrollbackLines(preferences.scrollbackLines);
    view->setColorScheme(terminalColorScheme(preferences.terminalColorScheme));
    view->setTerminalFont(
        TerminalView::fontFor(preferences.terminalFontFamily, preferences.terminalFontSize));
}
} // namespace

TerminalTab::TerminalTab(SandboxClient *client, PreferencesHub *preferences, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_preferences(preferences)
    , m_tabs(new QTabWidget(this))
    , m_sessionMenu(new QMenu(this))
    , m_link(new QLabel(this)) {
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->setDocumentMode(true);
    auto *toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolbar->addAction(tr("New terminal"), this, [this] { openTerminal(); })
        ->setToolTip(tr("Open a new shell session (Ctrl+Shift+T)"));
    auto *split = new QToolButton(toolbar);
    split->setObjectName(u"terminalSplit"_s);
    split->setText(tr("Split"));
    split->setToolTip(tr("Open a new shell beside this one (%1); the arrow offers a second view "
                         "of this shell")
                          .arg(kSplitShortcut.toString(QKeySequence::NativeText)));
    auto *splitMenu = new QMenu(split);
    QAction *sameSession = splitMenu->addAction(tr("Same session"), this,
                                                [this] { splitCurrent(Split::SameSession); });
    sameSession->setObjectName(u"splitSameSession"_s);
    sameSession->setToolTip(
        tr("A second view of this shell: what you type in either shows in both"));
    QAction *newSession =
        splitMenu->addAction(tr("New session"), this, [this] { splitCurrent(Split::NewSession); });
    newSession->setObjectName(u"splitNewSession"_s);
    newSession->setToolTip(tr("A new shell beside this one"));
    // Shown in the menu; the shortcut itself is the tab's (below), active with the menu closed.
    newSession->setShortcut(kSplitShortcut);
    newSession->setShortcutContext(Qt::WidgetShortcut);
    splitMenu->setToolTipsVisible(true);
    split->setMenu(splitMenu);
    // Clicking Split does what it always did; the arrow opens the menu.
    split->setPopupMode(QToolButton::MenuButtonPopup);
    connect(split, &QToolButton::clicked, this, [this] { splitCurrent(Split::NewSession); });
    toolbar->addWidget(split);
    auto *sessions = new QToolButton(toolbar);
    sessions->setText(tr("Open session"));
    sessions->setToolTip(tr("Attach to a shell session already running in the sandbox"));
    sessions->setMenu(m_sessionMenu);
    sessions->setPopupMode(QToolButton::InstantPopup);
    toolbar->addWidget(sessions);
    // The link as the current terminal measures it, refreshed each second (pings come every
    // five): a far sandbox shows why keys are predicted.
    auto *spacer = new QWidget(toolbar);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    toolbar->addWidget(spacer);
    m_link->setObjectName(u"terminalLink"_s);
    toolbar->addWidget(m_link);
    auto *linkTimer = new QTimer(this);
    connect(linkTimer, &QTimer::timeout, this, [this] { m_link->setText(linkText()); });
    linkTimer->start(1000);
    connect(m_sessionMenu, &QMenu::aboutToShow, this, &TerminalTab::fillSessionMenu);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(toolbar);
    layout->addWidget(m_tabs, 1);

    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int index) {
        m_tabs->setCurrentIndex(index);
        closeCurrent();
    });
    connect(m_tabs->tabBar(), &QTabBar::tabBarDoubleClicked, this, &TerminalTab::askRename);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        QWidget *page = m_tabs->widget(index);
        if (page && page->property("sbxBell").toBool()) {
            page->setProperty("sbxBell", false);
            updateTitle(page);
        }
    });
    m_tabs->tabBar()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tabs->tabBar(), &QWidget::customContextMenuRequested, this,
            [this](const QPoint &pos) {
                const int index = m_tabs->tabBar()->tabAt(pos);
                if (index < 0)
                    return;
                QMenu menu(this);
                menu.addAction(tr("Rename…"), this, [this, index] { askRename(index); });
                menu.addAction(tr("Close"), this, [this, index] {
                    m_tabs->setCurrentIndex(index);
                    closeCurrent();
                });
                menu.exec(m_tabs->tabBar()->mapToGlobal(pos));
            });
    if (preferences) {
        connect(preferences, &PreferencesHub::changed, this, [this](const Preferences &p) {
            for (TerminalPane *pane : panes())
                applyPreferences(pane, p);
        });
    }
    addLocalShortcut(this, QKeySequence(u"Ctrl+Shift+T"_s), tr("New terminal"),
                     [this] { openTerminal(); });
    addLocalShortcut(this, QKeySequence(u"Ctrl+Shift+W"_s), tr("Close the terminal"),
                     [this] { closeCurrent(); });
    addLocalShortcut(this, kSplitShortcut, tr("Split the terminal"),
                     [this] { splitCurrent(Split::NewSession); });
}

void TerminalTab::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    // The first visit opens a terminal; a sandbox nobody looks at gets no shell.
    if (m_tabs->count() == 0 && m_opened == 0 && !m_restoreExpected)
        openTerminal();
}

TerminalPane *TerminalTab::openTerminal(const QString &sessionId) {
    auto *page = new QSplitter(Qt::Horizontal, m_tabs);
    TerminalPane *pane = makePane(openSession(sessionId, page), page);
    ++m_opened;
    page->setProperty(kNameProperty, QString());
    connect(pane, &TerminalPane::titleChanged, page, [this, page] { updateTitle(page); });
    connect(pane->view(), &TerminalView::bell, page, [this, page] {
        // A bell in the tab being looked at is heard; elsewhere it marks that tab until visited.
        if (m_tabs->currentWidget() == page && isVisible()) {
            QApplication::beep();
            return;
        }
        page->setProperty("sbxBell", true);
        updateTitle(page);
    });
    const int index = m_tabs->addTab(page, tr("Terminal %1").arg(m_opened));
    page->setProperty("sbxDefaultName", m_tabs->tabText(index));
    if (QWidget *close = m_tabs->tabBar()->tabButton(index, QTabBar::RightSide))
        close->setAccessibleName(tr("Close %1").arg(m_tabs->tabText(index)));
    m_tabs->setCurrentIndex(index);
    pane->setFocus();
    return pane;
}

TerminalSession *TerminalTab::openSession(const QString &sessionId, QWidget *page) {
    // Owned by this tab, not by the page: it must outlive every view of its emulation, so it
    // goes once the page and its panes are gone (or after m_tabs, made first, in ~TerminalTab).
    auto *session = new TerminalSession(m_client, sessionId, this);
    connect(page, &QObject::destroyed, session, &QObject::deleteLater);
    return session;
}

TerminalPane *TerminalTab::makePane(TerminalSession *session, QWidget *page) {
    auto *pane = new TerminalPane(session, page);
    pane->view()->setPrompts(m_prompts);
    if (m_preferences)
        applyPreferences(pane, m_preferences->current());
    auto *splitter = static_cast<QSplitter *>(page);
    if (splitter->count() > 0) {
        // The splitter shows the pane before it places it, and the view reports its size when
        // shown: at Qt's placeholder width it would tell a shared session's shell two columns
        // and cut the other pane's screen to them. Half the page is what it will get.
        pane->resize(std::max(1, (splitter->width() - splitter->handleWidth()) / 2),
                     splitter->height());
    }
    splitter->addWidget(pane);
    return pane;
}

TerminalPane *TerminalTab::splitCurrent(Split split) {
    auto *page = qobject_cast<QSplitter *>(m_tabs->currentWidget());
    if (!page)
        return openTerminal();
    if (page->count() >= 2)
        return qobject_cast<TerminalPane *>(page->widget(1));
    TerminalSession *session = nullptr;
    if (split == Split::SameSession) {
        // The pane with the focus is the current one; before any has it, the first.
        TerminalPane *current = nullptr;
        for (QWidget *w = QApplication::focusWidget(); w && !current; w = w->parentWidget())
            current = qobject_cast<TerminalPane *>(w);
        if (!current || current->parentWidget() != page)
            current = qobject_cast<TerminalPane *>(page->widget(0));
        session = current ? current->session() : nullptr;
    }
    if (!session)
        session = openSession({}, page);
    TerminalPane *pane = makePane(session, page);
    page->setSizes({1, 1});
    pane->setFocus();
    return pane;
}

TerminalPane *TerminalTab::splitWith(const QString &sessionId) {
    auto *page = qobject_cast<QSplitter *>(m_tabs->currentWidget());
    if (!page || page->count() >= 2)
        return nullptr;
    TerminalPane *pane = makePane(openSession(sessionId, page), page);
    page->setSizes({1, 1});
    return pane;
}

QJsonObject TerminalTab::sessionState() const {
    QJsonArray terminals;
    for (int i = 0; i < m_tabs->count(); ++i) {
        const auto *page = qobject_cast<const QSplitter *>(m_tabs->widget(i));
        if (!page)
            continue;
        QJsonArray sessions;
        for (int p = 0; p < page->count(); ++p) {
            const auto *pane = qobject_cast<const TerminalPane *>(page->widget(p));
            sessions.append(pane ? pane->sessionId() : QString());
        }
        terminals.append(QJsonObject{{u"name"_s, page->property(kNameProperty).toString()},
                                     {u"sessions"_s, sessions}});
    }
    return {{u"terminals"_s, terminals}, {u"current"_s, m_tabs->currentIndex()}};
}

void TerminalTab::replaceIfGone(TerminalPane *pane, const QString &wanted) {
    TerminalSession *session = pane->session();
    TerminalChannel *channel = session->channel();
    // Until the first answer: a session_id frame means it is there; an end means it is gone.
    auto *watch = new QObject(session);
    connect(channel, &TerminalChannel::sessionStarted, watch, &QObject::deleteLater);
    connect(channel, &TerminalChannel::ended, watch, [watch, session, channel, wanted] {
        watch->deleteLater();
        auto *tell = new QObject(session);
        connect(channel, &TerminalChannel::sessionStarted, tell, [tell, channel, wanted] {
            tell->deleteLater();
            // Through the channel's own notice, which every pane of the session shows.
            Q_EMIT channel->notice(
                tr("The session %1 is gone; this is a new session.").arg(wanted));
        });
        session->startNew();
    });
}

void TerminalTab::restoreSessionState(const QJsonObject &state) {
    m_restoreExpected = false;
    const QJsonArray terminals = state.value(u"terminals"_s).toArray();
    for (const QJsonValue &value : terminals) {
        const QJsonObject terminal = value.toObject();
        const QJsonArray sessions = terminal.value(u"sessions"_s).toArray();
        const QString first = sessions.isEmpty() ? QString() : sessions.at(0).toString();
        TerminalPane *pane = openTerminal(first);
        if (!first.isEmpty())
            replaceIfGone(pane, first);
        if (const QString name = terminal.value(u"name"_s).toString(); !name.isEmpty())
            renameCurrent(name);
        if (sessions.size() > 1) {
            const QString second = sessions.at(1).toString();
            if (!second.isEmpty() && second == first)
                splitCurrent(Split::SameSession);
            else if (TerminalPane *beside = splitWith(second); beside && !second.isEmpty())
                replaceIfGone(beside, second);
        }
    }
    if (m_tabs->count() > 0)
        m_tabs->setCurrentIndex(
            std::clamp(state.value(u"current"_s).toInt(), 0, m_tabs->count() - 1));
}

QString TerminalTab::linkText() const {
    QWidget *page = m_tabs->currentWidget();
    TerminalPane *pane = page ? page->findChild<TerminalPane *>() : nullptr;
    if (!pane || !pane->session())
        return {};
    // Only for a live link: while it reconnects the banner says why, and an old figure would
    // only mislead.
    const int rtt = pane->channel()->roundTripMs();
    if (rtt < 0 || pane->channel()->state() != TerminalChannel::State::Live)
        return {};
    const QString figure = rtt == 0 ? tr("under 1 ms") : tr("%1 ms").arg(rtt);
    const bool predicting = pane->session()->predictor()->active();
    return predicting ? tr("Round trip %1 · local echo on").arg(figure)
                      : tr("Round trip %1").arg(figure);
}

void TerminalTab::closeCurrent() {
    QWidget *page = m_tabs->currentWidget();
    if (!page)
        return;
    // Closing a terminal ends its shell, as closing a terminal window does; sessions others
    // opened are only ever attached to through "Open session".
    // Two panes may show one session: it ends once.
    QList<TerminalSession *> sessions;
    for (TerminalPane *pane : page->findChildren<TerminalPane *>())
        if (pane->session() && !sessions.contains(pane->session()))
            sessions.append(pane->session());
    for (TerminalSession *session : std::as_const(sessions))
        session->terminate();
    m_tabs->removeTab(m_tabs->indexOf(page));
    page->deleteLater();
}

void TerminalTab::renameCurrent(const QString &name) {
    QWidget *page = m_tabs->currentWidget();
    if (!page)
        return;
    page->setProperty(kNameProperty, name.trimmed());
    updateTitle(page);
}

void TerminalTab::askRename(int index) {
    if (index < 0)
        return;
    m_tabs->setCurrentIndex(index);
    UserPrompts *prompts = m_prompts ? m_prompts : dialogPrompts();
    if (const auto name =
            prompts->askText(this, tr("Rename terminal"), tr("Name:"), m_tabs->tabText(index)))
        renameCurrent(*name);
}

void TerminalTab::updateTitle(QWidget *page) {
    const int index = m_tabs->indexOf(page);
    if (index < 0)
        return;
    // A name the user gave wins over the title the shell sets.
    QString title = page->property(kNameProperty).toString();
    if (title.isEmpty()) {
        const auto *pane = page->findChild<TerminalPane *>();
        title = pane && !pane->title().isEmpty() ? pane->title()
                                                 : page->property("sbxDefaultName").toString();
    }
    const bool rang = page->property("sbxBell").toBool();
    m_tabs->setTabText(index, (rang ? u"🔔 "_s : QString()) + title.left(40));
    m_tabs->setTabToolTip(index, title);
}

void TerminalTab::fillSessionMenu() {
    m_sessionMenu->clear();
    QAction *loading = m_sessionMenu->addAction(tr("Reading sessions…"));
    loading->setEnabled(false);
    if (!m_client)
        return;
    auto *job = new ListShellSessionsJob(m_client);
    connect(job, &ListShellSessionsJob::succeeded, m_sessionMenu,
            [this](const QList<ShellSessionInfo> &sessions) {
                m_sessionMenu->clear();
                QStringList open;
                for (const TerminalPane *pane : panes())
                    open << pane->sessionId();
                for (const ShellSessionInfo &s : sessions) {
                    QString text = s.id + u"  —  "_s + s.workingDir;
                    if (!s.currentCommand.isEmpty())
                        text += u"  ("_s + s.currentCommand + QLatin1Char(')');
                    QAction *a = m_sessionMenu->addAction(text, this,
                                                          [this, id = s.id] { openTerminal(id); });
                    a->setEnabled(!open.contains(s.id));
                }
                if (sessions.isEmpty())
                    m_sessionMenu->addAction(tr("No sessions are running"))->setEnabled(false);
            });
    connect(job, &ApiJob::failed, m_sessionMenu, [this](const Status &status) {
        m_sessionMenu->clear();
        m_sessionMenu->addAction(status.message)->setEnabled(false);
    });
    job->start();
}

PendingWork TerminalTab::pendingWork() const {
    PendingWork work;
    work.shells = terminalCount();
    return work;
}

int TerminalTab::terminalCount() const {
    // Shells, not views: two panes of one session are one terminal running.
    QList<const TerminalSession *> running;
    for (const TerminalPane *pane : panes())
        if (pane->isRunning() && !running.contains(pane->session()))
            running.append(pane->session());
    return int(running.size());
}

QList<TerminalPane *> TerminalTab::panes() const {
    return m_tabs->findChildren<TerminalPane *>();
}

void registerTerminalTab(TabRegistry &registry) {
    registry.add({u"terminal"_s,
                  QCoreApplication::translate("sbx::TerminalTab", "Terminal"),
                  30,
                  [](const WorkspaceContext &ctx, QWidget *parent) -> QWidget * {
                      auto *tab = new TerminalTab(ctx.client, ctx.preferences, parent);
                      tab->setPrompts(ctx.prompts);
                      return tab;
                  },
                  {},
                  u"terminal"_s});
}

} // namespace sbx
