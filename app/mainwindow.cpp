#include "app/mainwindow.h"

#include "app/appearance.h"
#include "app/consolecontext.h"
#include "app/credits.h"
#include "app/desktopnotifier.h"
#include "app/enginesdialog.h"
#include "app/keychainstore.h"
#include "app/sandboxactions.h"
#include "client/providers/sandboxregistry.h"
#include "models/sandboxlistmodel.h"
#include "models/session/sessionstore.h"
#include "models/webentries/webentrycache.h"
#include "models/webentries/webentryopener.h"
#include "widgets/common/icons.h"
#include "widgets/common/userprompts.h"
#include "widgets/common/widgethelpers.h"
#include "widgets/dialogs/preferencesdialog.h"
#include "widgets/dialogs/sandboxdialog.h"
#include "widgets/dialogs/shortcutsdialog.h"
#include "widgets/files/filestab.h"
#include "widgets/logs/logwindow.h"
#include "widgets/sandboxlist/sandboxlistview.h"
#include "widgets/sandboxlist/webentriesmenu.h"
#include "widgets/shell/terminaltab.h"
#include "widgets/traffic/trafficdock.h"
#include "widgets/workspace/sandboxworkspace.h"

#include <QAction>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

MainWindow::MainWindow(ConsoleContext *context, QWidget *parent)
    : QMainWindow(parent)
    , m_context(context)
    , m_list(new SandboxListView(context->sandboxList(), this))
    , m_stack(new QStackedWidget(this))
    , m_placeholder(new QLabel(tr("Select a sandbox on the left, create one with "
                                  "Ctrl+Shift+N or add one by address with Ctrl+N."),
                               this))
    , m_secretsStatus(new QLabel(this)) {
    setWindowTitle(tr("Sandbox Console"));
    setObjectName(u"mainWindow"_s);

    m_placeholder->setAlignment(Qt::AlignCenter);
    m_stack->addWidget(m_placeholder);

    auto *splitter = new QSplitter(this);
    splitter->setObjectName(u"mainSplitter"_s);
    splitter->addWidget(m_list);
    splitter->addWidget(m_stack);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({380, 900});
    setCentralWidget(splitter);
    statusBar()->addPermanentWidget(m_secretsStatus);

    buildActions();
    m_notifier = new DesktopNotifier(statusBar(), this);
    connect(context->notifications(), &NotificationCenter::notify, m_notifier,
            &DesktopNotifier::show);
    context->notifications()->setWindowActive([this] {
        // The log window counts as the console too.
        return isActiveWindow() || (m_logWindow && m_logWindow->isActiveWindow());
    });
    m_list->setAccessibleName(tr("Sandboxes"));
    connect(m_list->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MainWindow::onSelectionChanged);
    connect(context->sandboxList(), &QAbstractItemModel::rowsRemoved, this,
            &MainWindow::onRowsRemoved);
    connect(context->sandboxList(), &QAbstractItemModel::dataChanged, this,
            &MainWindow::updateActions);
    connect(context->secrets(), &KeychainSecretStore::persistenceKnown, this,
            &MainWindow::updateSecretsStatus);
    const QList<SandboxProvider *> providers = context->registry()->providers();
    for (SandboxProvider *provider : providers) {
        auto show = [this](const QString &, const QString &message) {
            statusBar()->showMessage(message, 15000);
        };
        connect(provider, &SandboxProvider::actionFailed, this, show);
        connect(provider, &SandboxProvider::actionNote, this, show);
        // A provider that has something to say about itself (an engine that is not there).
        if (provider->status().isEmpty())
            continue;
        auto *status = new QLabel(this);
        statusBar()->addPermanentWidget(status);
        auto showStatus = [status, name = provider->displayName()](const QString &text) {
            status->setText(tr("%1: %2").arg(name, text));
        };
        showStatus(provider->status());
        connect(provider, &SandboxProvider::statusChanged, this, showStatus);
    }
    connect(m_list, &QTreeView::customContextMenuRequested, this, [this](const QPoint &pos) {
        QMenu menu(this);
        menu.addActions(m_lifecycle->lifecycleActions());
        menu.addAction(m_webEntries->menuAction());
        menu.addSeparator();
        menu.addActions({m_editAction, m_refreshAction});
        menu.addSeparator();
        menu.addActions({m_lifecycle->newAction(), m_addAction});
        menu.exec(m_list->viewport()->mapToGlobal(pos));
    });
    updateSecretsStatus(context->secrets()->isPersistent());

    const QSettings *settings = context->settings();
    if (!restoreGeometry(settings->value(u"window/geometry"_s).toByteArray()))
        resize(1280, 800);
    splitter->restoreState(settings->value(u"window/splitter"_s).toByteArray());
    updateActions();
}

MainWindow::~MainWindow() {
    // The context, and its notification centre, may outlive this window (tests).
    m_context->notifications()->setWindowActive({});
}

void MainWindow::buildActions() {
    auto make = [this](const QString &text, const QKeySequence &key, const QString &tip,
                       auto slot) {
        auto *action = new QAction(text, this);
        action->setShortcut(key);
        action->setToolTip(
            key.isEmpty() ? tip : tr("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    m_addAction = make(tr("&Add sandbox…"), QKeySequence::New,
                       tr("Connect to a sandbox by address"), &MainWindow::addSandbox);
    m_addAction->setIcon(Icons::icon(u"add-address"_s));
    m_lifecycle = new SandboxActions(m_context, m_list, this);
    connect(m_lifecycle, &SandboxActions::created, this, &MainWindow::selectSandbox);
    connect(m_lifecycle, &SandboxActions::logsRequested, this, &MainWindow::showLogs);
    m_webEntries =
        new WebEntriesMenu(m_context->registry(), new WebEntryCache(m_context->registry(), this),
                           new WebEntryOpener(m_context->registry(), this), this);
    connect(m_webEntries, &WebEntriesMenu::failed, this,
            [this](const QString &message) { statusBar()->showMessage(message, 15000); });
    m_editAction = make(tr("&Edit…"), QKeySequence(Qt::Key_F2),
                        tr("Change the address or credentials"), &MainWindow::editSandbox);
    m_editAction->setIcon(Icons::icon(u"edit"_s));
    // F2 renames in the Files tab; here it edits the sandbox selected in the list.
    m_editAction->setShortcut({});
    addLocalShortcut(m_list, QKeySequence(Qt::Key_F2), tr("Edit the sandbox"), [this] {
        if (m_editAction->isEnabled())
            m_editAction->trigger();
    });
    m_refreshAction =
        make(tr("Re&fresh status"), QKeySequence(u"Ctrl+R"_s), tr("Check every sandbox now"),
             [this] { m_context->registry()->probeAll(); });
    m_refreshAction->setIcon(Icons::icon(u"refresh"_s));
    m_preferencesAction = make(tr("&Preferences…"), QKeySequence(u"Ctrl+,"_s), tr("Preferences"),
                               &MainWindow::showPreferences);
    m_preferencesAction->setMenuRole(QAction::PreferencesRole);
    m_preferencesAction->setIcon(Icons::icon(u"preferences"_s));
    auto *openLog =
        make(tr("&Open log…"), QKeySequence(u"Ctrl+Shift+O"_s),
             tr("Open a log file from this computer"), [this] { logWindow()->askOpen(); });
    openLog->setObjectName(u"openLog"_s);
    openLog->setIcon(Icons::icon(u"logs"_s));
    auto *quit = make(tr("&Quit"), QKeySequence::Quit, tr("Quit"), &QWidget::close);
    quit->setIcon(Icons::icon(u"quit"_s));

    auto *engines = make(tr("Container en&gines…"), QKeySequence(),
                         tr("The container engines whose sandboxes are listed: this machine, "
                            "Docker contexts, engines over SSH or TLS"),
                         &MainWindow::showEngines);
    engines->setObjectName(u"showEngines"_s);

    QMenu *file = menuBar()->addMenu(tr("&Sandbox"));
    file->addActions({m_lifecycle->newAction(), m_addAction, engines});
    file->addSeparator();
    file->addActions(m_lifecycle->lifecycleActions());
    file->addAction(m_webEntries->menuAction());
    file->addSeparator();
    file->addActions({m_editAction, m_refreshAction});
    file->addSeparator();
    file->addAction(openLog);
    file->addSeparator();
    file->addAction(quit);
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_preferencesAction);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    // The dock is made at its first opening: building it costs the first frame ~6 ms.
    auto *inspector = m_inspector = new QAction(tr("&Traffic inspector"), this);
    inspector->setObjectName(u"toggleTrafficInspector"_s);
    inspector->setCheckable(true);
    inspector->setShortcut(QKeySequence(u"Ctrl+Shift+I"_s));
    inspector->setToolTip(tr("The console's API traffic with every sandbox (Ctrl+Shift+I)"));
    view->addAction(inspector);
    connect(inspector, &QAction::toggled, this, [this](bool open) {
        trafficDock()->setVisible(open);
        if (!open || m_trafficSized)
            return;
        m_trafficSized = true;
        // A dock's own size hint leaves the details pane a few lines: two fifths at first, once
        // the dock is laid out (before, the main window ignores the size).
        QTimer::singleShot(0, this,
                           [this] { resizeDocks({m_traffic}, {height() * 2 / 5}, Qt::Vertical); });
    });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    auto *shortcuts = make(tr("&Keyboard shortcuts"), QKeySequence(u"Ctrl+/"_s),
                           tr("Every keyboard shortcut, searchable"), &MainWindow::showShortcuts);
    shortcuts->setObjectName(u"showShortcuts"_s);
    shortcuts->setIcon(Icons::icon(u"keyboard"_s));
    auto *about =
        make(tr("&About Sandbox Console"), {}, tr("Version and licences"), &MainWindow::showAbout);
    about->setObjectName(u"showAbout"_s);
    about->setMenuRole(QAction::AboutRole);
    about->setIcon(Icons::icon(u"about"_s));
    help->addActions({shortcuts, about});

    QToolBar *toolbar = addToolBar(tr("Sandboxes"));
    toolbar->setObjectName(u"sandboxToolbar"_s);
    toolbar->setMovable(false);
    auto applyPreferences = [this, toolbar](const Preferences &p) {
        toolbar->setToolButtonStyle(p.toolBarIconsOnly ? Qt::ToolButtonIconOnly
                                                       : Qt::ToolButtonTextBesideIcon);
        if (p.colours != m_appliedColours) {
            m_appliedColours = p.colours;
            applyAppearance(p.colours);
        }
    };
    m_appliedColours = m_context->preferences().colours;
    applyPreferences(m_context->preferences());
    connect(m_context->preferencesHub(), &PreferencesHub::changed, this, applyPreferences);
    toolbar->setIconSize(Icons::kToolBarSize);
    toolbar->addActions({m_lifecycle->newAction(), m_addAction});
    toolbar->addSeparator();
    toolbar->addActions(m_lifecycle->lifecycleActions());
    toolbar->addAction(m_webEntries->menuAction());
    // The button shows the pages at once: it has nothing of its own to do when clicked.
    if (auto *button =
            qobject_cast<QToolButton *>(toolbar->widgetForAction(m_webEntries->menuAction())))
        button->setPopupMode(QToolButton::InstantPopup);
    toolbar->addSeparator();
    toolbar->addActions({m_editAction, m_refreshAction});
    const QList<QAction *> buttons = toolbar->actions();
    for (QAction *action : buttons)
        action->setIconText(toolBarText(action->text()));
}

QString MainWindow::selectedSandbox() const {
    return m_list->selectedId();
}

void MainWindow::selectSandbox(const QString &id) {
    const int row = m_context->sandboxList()->rowOf(id);
    if (row < 0)
        return;
    const QModelIndex index = m_context->sandboxList()->index(row, 0);
    m_list->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect |
                                                QItemSelectionModel::Rows);
    m_list->setCurrentIndex(index);
}

TrafficDock *MainWindow::trafficDock() {
    if (!m_traffic) {
        m_traffic = new TrafficDock(m_context->registry()->traffic(), this);
        m_traffic->setPrompts(m_context->prompts());
        addDockWidget(Qt::BottomDockWidgetArea, m_traffic);
        m_traffic->hide();
        // Its own close button, too, unchecks the menu's entry.
        connect(m_traffic->toggleViewAction(), &QAction::toggled, m_inspector,
                &QAction::setChecked);
    }
    return m_traffic;
}

SandboxWorkspace *MainWindow::workspace(const QString &id) {
    if (auto existing = m_workspaces.value(id))
        return existing;
    if (!m_context->registry()->contains(id))
        return nullptr;
    auto *ws = new SandboxWorkspace(m_context->tabs(), m_context->registry(), id,
                                    m_context->preferencesHub(), m_context->prompts(), this,
                                    m_stack, m_context->notifications());
    m_stack->addWidget(ws);
    m_workspaces.insert(id, ws);
    // The last session's tabs of this sandbox, applied once, when its workspace is first made.
    if (m_restoring.contains(id))
        ws->restoreSessionState(m_restoring.take(id).toObject());
    return ws;
}

QString MainWindow::restoreSession(bool restore) {
    m_session = new SessionStore(m_context->sessionFile(), this);
    QString selected;
    if (restore) {
        const QJsonObject state = m_session->load();
        if (!m_session->loadError().isEmpty())
            statusBar()->showMessage(m_session->loadError(), 15000);
        if (!state.isEmpty()) {
            restoreGeometry(
                QByteArray::fromBase64(state.value(u"geometry"_s).toString().toLatin1()));
            if (auto *splitter = findChild<QSplitter *>(u"mainSplitter"_s))
                splitter->restoreState(
                    QByteArray::fromBase64(state.value(u"splitter"_s).toString().toLatin1()));
            m_restoring = state.value(u"workspaces"_s).toObject();
            const QString id = state.value(u"selected"_s).toString();
            if (m_context->registry()->contains(id))
                selected = id;
            const QJsonObject logs = state.value(u"logs"_s).toObject();
            if (!logs.value(u"files"_s).toArray().isEmpty())
                logWindow()->restoreSessionState(logs);
        }
    }
    m_session->setCapture([this] { return sessionState(); });
    m_session->start();
    return selected;
}

QJsonObject MainWindow::sessionState() const {
    // Workspaces not made since the restart keep what they had.
    QJsonObject workspaces = m_restoring;
    for (auto it = m_workspaces.cbegin(); it != m_workspaces.cend(); ++it) {
        if (it.value())
            workspaces.insert(it.key(), it.value()->sessionState());
    }
    QJsonObject state{{u"geometry"_s, QString::fromLatin1(saveGeometry().toBase64())},
                      {u"selected"_s, m_list->selectedId()},
                      {u"workspaces"_s, workspaces}};
    if (const auto *splitter = findChild<QSplitter *>(u"mainSplitter"_s))
        state.insert(u"splitter"_s, QString::fromLatin1(splitter->saveState().toBase64()));
    if (m_logWindow)
        state.insert(u"logs"_s, m_logWindow->sessionState());
    return state;
}

void MainWindow::onSelectionChanged() {
    const QString id = selectedSandbox();
    if (id.isEmpty()) {
        m_stack->setCurrentWidget(m_placeholder);
    } else if (SandboxWorkspace *ws = workspace(id)) {
        m_stack->setCurrentWidget(ws);
    }
    updateActions();
}

void MainWindow::onRowsRemoved() {
    // A removed sandbox's workspace holds a client that is going away with its row.
    for (auto it = m_workspaces.begin(); it != m_workspaces.end();) {
        if (!m_context->registry()->contains(it.key())) {
            if (it.value())
                it.value()->deleteLater();
            it = m_workspaces.erase(it);
        } else {
            ++it;
        }
    }
    onSelectionChanged();
}

void MainWindow::updateActions() {
    const QString id = selectedSandbox();
    const LifecycleActions actions = m_context->registry()->actions(id);
    m_editAction->setEnabled(actions.testFlag(LifecycleAction::Edit));
    m_lifecycle->update();
    // One sandbox's pages: with several selected, none.
    m_webEntries->setSandbox(m_list->selectedIds().size() == 1 ? id : QString());
    const SandboxEntry entry = m_context->registry()->entry(id);
    setWindowTitle(entry.name.isEmpty() ? tr("Sandbox Console")
                                        : tr("%1 — Sandbox Console").arg(entry.name));
}

void MainWindow::updateSecretsStatus(bool persistent) {
    m_secretsStatus->setText(persistent ? tr("Secrets: system keychain")
                                        : tr("Secrets: this session only (no keychain running)"));
    m_secretsStatus->setToolTip(persistent ? QString()
                                           : tr("No keychain service answered, so API keys and "
                                                "JWTs you enter are kept in memory and forgotten "
                                                "when the console quits."));
}

void MainWindow::addSandbox() {
    SandboxDialog dialog(this);
    dialog.setPrompts(m_context->prompts());
    dialog.setSecretsSessionOnly(!m_context->secrets()->isPersistent());
    if (dialog.exec() != QDialog::Accepted)
        return;
    selectSandbox(m_context->addSaved(dialog.entry()));
}

void MainWindow::editSandbox() {
    const QString id = selectedSandbox();
    const std::optional<SandboxEntry> entry = m_context->savedSandbox(id);
    if (!entry)
        return;
    SandboxDialog dialog(this);
    dialog.setPrompts(m_context->prompts());
    dialog.setSecretsSessionOnly(!m_context->secrets()->isPersistent());
    dialog.setEntry(*entry);
    if (dialog.exec() == QDialog::Accepted)
        m_context->updateSaved(dialog.entry());
}

void MainWindow::showLogs(const QString &id) {
    selectSandbox(id);
    if (SandboxWorkspace *ws = workspace(id))
        ws->showTab(u"logs"_s);
}

LogWindow *MainWindow::logWindow() {
    if (!m_logWindow)
        m_logWindow = new LogWindow(m_context->prompts(), this);
    return m_logWindow;
}

void MainWindow::openLog(const QString &key, const QString &title,
                         std::function<LogSource *(QObject *parent)> open) {
    logWindow()->openLog(key, title, std::move(open));
}

void MainWindow::showEngines() {
    EnginesDialog dialog(m_context->engines(), m_context->prompts(), this);
    dialog.exec();
}

void MainWindow::showPreferences() {
    PreferencesDialog dialog(m_context->preferences(), this);
    if (dialog.exec() == QDialog::Accepted)
        m_context->setPreferences(dialog.preferences());
}

void MainWindow::showShortcuts() {
    // The workspaces' tabs and the log window hold most shortcuts: make sure they exist so that
    // the list is whole even before they were first shown.
    logWindow();
    for (SandboxWorkspace *ws : std::as_const(m_workspaces)) {
        if (ws)
            ws->buildAllTabs();
    }
    ShortcutsDialog dialog(collectShortcuts({this, m_logWindow}), this);
    dialog.exec();
}

void MainWindow::showAbout() {
    AboutDialog dialog(QCoreApplication::applicationVersion(), libraryCredits(), this);
    dialog.exec();
}

PendingWork MainWindow::pendingWork(bool onlyEndingWithConsole) const {
    PendingWork work;
    for (auto it = m_workspaces.cbegin(); it != m_workspaces.cend(); ++it) {
        if (!it.value())
            continue;
        const SandboxProvider *provider = m_context->registry()->providerOf(it.key());
        if (onlyEndingWithConsole && !(provider && provider->stopsWithConsole()))
            continue;
        work += it.value()->pendingWork();
    }
    return work;
}

int MainWindow::openLocalTerminals() const {
    return pendingWork(true).shells;
}

int MainWindow::unsavedFiles() const {
    return pendingWork(false).unsavedFiles;
}

int MainWindow::pendingTransfers() const {
    return pendingWork(false).transfers;
}

void MainWindow::closeEvent(QCloseEvent *event) {
    UserPrompts *prompts = m_context->prompts();
    const QString title = tr("Quit Sandbox Console");
    const int unsaved = unsavedFiles();
    if (unsaved > 0 &&
        !prompts->confirm(this, title,
                          tr("%n file(s) open in a viewer have changes that are not saved. "
                             "Quitting loses them.",
                             nullptr, unsaved),
                          tr("&Discard and quit"))) {
        event->ignore();
        return;
    }
    // Quitting cancels transfers (nothing half-written stays: downloads are .part until done,
    // uploads are staged by the server), but the user should decide.
    const int transfers = pendingTransfers();
    if (transfers > 0 &&
        !prompts->confirm(
            this, title,
            tr("%n transfer(s) have not finished. Quitting cancels them.", nullptr, transfers),
            tr("&Quit"))) {
        event->ignore();
        return;
    }
    // Local sandboxes stop with the console, and their shells with them: ask first. Sessions of
    // other sandboxes keep running where they are.
    const int terminals = openLocalTerminals();
    if (terminals > 0 &&
        !prompts->confirm(this, title,
                          tr("%n terminal(s) open in sandboxes that stop with the console. "
                             "Quitting stops them and ends their shells.",
                             nullptr, terminals),
                          tr("&Quit"))) {
        event->ignore();
        return;
    }
    if (m_session)
        m_session->flush();
    QSettings *settings = m_context->settings();
    settings->setValue(u"window/geometry"_s, saveGeometry());
    if (auto *splitter = findChild<QSplitter *>(u"mainSplitter"_s))
        settings->setValue(u"window/splitter"_s, splitter->saveState());
    settings->sync();
    event->accept();
}

} // namespace sbx
