#include "widgets/files/filestab.h"

#include "client/api/filewatch.h"
#include "models/files/fileeventmodel.h"
#include "widgets/files/fileeventsview.h"

#include "widgets/common/userprompts.h"

#include "client/api/filejobs.h"
#include "client/api/remotefilelog.h"
#include "client/sandboxclient.h"
#include "models/files/remotefilemodel.h"
#include "models/files/transferqueuemodel.h"
#include "models/notifications/notificationcenter.h"
#include "widgets/common/errorrow.h"
#include "widgets/common/icons.h"
#include "widgets/common/preferences.h"
#include "widgets/common/widgethelpers.h"
#include "widgets/files/dragout.h"
#include "widgets/files/fileviewer.h"
#include "widgets/files/remotetreeview.h"
#include "widgets/files/transferpanel.h"
#include "widgets/workspace/tabregistry.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QCoreApplication>
#include <QFileDialog>
#include <QHeaderView>
#include <QJsonObject>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QToolBar>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

QString parentOf(const QString &path) {
    const QString up = path.left(path.lastIndexOf(u'/'));
    return up.isEmpty() ? u"/"_s : up;
}

} // namespace

FilesTab::FilesTab(SandboxClient *client, PreferencesHub *preferences, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_ops(new RemoteFileOperations(client, this))
    , m_view(new RemoteTreeView(this))
    , m_panel(new TransferPanel(m_ops->transfers(), this))
    , m_path(new QLineEdit(this))
    , m_errorRow(new ErrorRow(this))
    , m_events(new FileEventModel(this))
    , m_eventsView(new FileEventsView(m_events, this)) {
    updateWatchState();
    // The model keeps its rows in the header's order itself: no sorting proxy.
    m_view->setModel(m_ops->model());
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RemoteFileModel::NameColumn, Qt::AscendingOrder);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setDragEnabled(true);
    m_view->setAcceptDrops(true);
    m_view->setDropIndicatorShown(true);
    m_view->setUniformRowHeights(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setExpandsOnDoubleClick(true);
    m_view->header()->setSectionResizeMode(RemoteFileModel::NameColumn, QHeaderView::Stretch);
    m_view->header()->setStretchLastSection(false);
    m_view->setDragDataFactory([this](const QModelIndexList &rows) { return dragData(rows); });
    m_path->setPlaceholderText(tr("/path/in/the/sandbox"));
    m_path->setAccessibleName(tr("Folder"));
    m_view->setAccessibleName(tr("Files in the sandbox"));
    m_path->setToolTip(tr("Type a folder and press Enter (Ctrl+L)"));

    m_ops->setConflictResolver(
        [this](const QString &name, bool *applyToAll) { return askConflict(name, applyToAll); });
    connect(m_ops, &RemoteFileOperations::failed, this, [this](const Status &status) {
        m_errorRow->showError(status.message, m_ops->sudoOffered());
    });
    connect(m_ops, &RemoteFileOperations::errorCleared, m_errorRow, &ErrorRow::clear);
    connect(m_ops, &RemoteFileOperations::operationFinished, this, &FilesTab::operationFinished);
    connect(m_ops, &RemoteFileOperations::contextLoaded, this,
            [this](const QString &, const QString &workspace) {
                if (folder().isEmpty())
                    setFolder(m_restoreFolder.isEmpty() ? workspace : m_restoreFolder);
            });
    connect(m_errorRow, &ErrorRow::sudoRequested, this, &FilesTab::retryWithSudo);

    auto *toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setIconSize(Icons::kToolBarSize);
    toolbar
        ->addAction(Icons::icon(u"home"_s), tr("Home"), this, [this] { setFolder(m_ops->home()); })
        ->setToolTip(tr("The sandbox user's home folder"));
    toolbar
        ->addAction(Icons::icon(u"workspace"_s), tr("Workspace"), this,
                    [this] { setFolder(m_ops->workspace()); })
        ->setToolTip(tr("The sandbox's workspace folder"));
    QAction *up = toolbar->addAction(Icons::icon(u"go-up"_s), tr("Up"), this, &FilesTab::goUp);
    up->setShortcut(QKeySequence(u"Alt+Up"_s));
    QAction *refresh = toolbar->addAction(Icons::icon(u"refresh"_s), tr("Refresh"), this,
                                          [this] { model()->refresh(); });
    refresh->setToolTip(tr("List this folder again (F5)"));
    toolbar->addSeparator();
    toolbar->addAction(Icons::icon(u"new-folder"_s), tr("New folder"), this, &FilesTab::newFolder)
        ->setToolTip(tr("F7"));
    toolbar->addAction(Icons::icon(u"upload"_s), tr("Upload…"), this,
                       [this] { uploadChosen(folder()); });
    toolbar->addAction(Icons::icon(u"download"_s), tr("Download…"), this,
                       &FilesTab::downloadSelected);
    toolbar->addAction(Icons::icon(u"edit"_s), tr("Rename…"), this, &FilesTab::renameSelected)
        ->setToolTip(tr("F2"));
    toolbar->addAction(Icons::icon(u"delete"_s), tr("Delete"), this, &FilesTab::deleteSelected)
        ->setToolTip(tr("Delete key; asks first"));
    QAction *copy = toolbar->addAction(Icons::icon(u"copy"_s), tr("Copy path"), this, [this] {
        QGuiApplication::clipboard()->setText(selectedPath().isEmpty() ? folder() : selectedPath());
    });
    // Icon only (a low priority action's label is hidden beside icons): with every label the
    // row was wider than the tab in a 1280 px window and hid Delete behind the extension button.
    for (QAction *iconOnly : {up, refresh, copy})
        iconOnly->setPriority(QAction::LowPriority);

    // The tree and, beside it, what changed in it (file watch).
    auto *top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(m_view);
    top->addWidget(m_eventsView);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_panel);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(toolbar);
    layout->addWidget(m_path);
    layout->addWidget(m_errorRow);
    layout->addWidget(split, 1);

    connect(m_path, &QLineEdit::returnPressed, this,
            [this] { setFolder(m_path->text().trimmed()); });
    // Each new root gets a watch of its own once it is listed.
    connect(model(), &RemoteFileModel::folderListed, this, [this](const QString &path) {
        if (path == model()->rootPath() && (!m_watch || m_watch->path() != path))
            watchRoot(path);
    });
    connect(m_eventsView, &FileEventsView::revealRequested, this, &FilesTab::reveal);
    connect(m_eventsView, &FileEventsView::openAsLogRequested, this, &FilesTab::openAsLog);
    connect(m_view, &RemoteTreeView::localFilesDropped, this, &FilesTab::upload);
    connect(m_view, &QTreeView::activated, this, &FilesTab::openSelected);
    connect(m_view, &QWidget::customContextMenuRequested, this, &FilesTab::showContextMenu);
    connect(m_panel, &TransferPanel::showRemote, this,
            [this](const QString &remote) { setFolder(parentOf(remote)); });
    addLocalShortcut(this, QKeySequence::Refresh, tr("Refresh the folder"),
                     [this] { model()->refresh(); });
    addLocalShortcut(this, QKeySequence(u"Ctrl+L"_s), tr("Go to a path"), [this] {
        m_path->setFocus();
        m_path->selectAll();
    });
    addLocalShortcut(m_view, QKeySequence::Delete, tr("Delete the selected files"),
                     [this] { deleteSelected(); });
    addLocalShortcut(m_view, QKeySequence(Qt::Key_F2), tr("Rename"), [this] { renameSelected(); });
    // F7 as in WinSCP and Total Commander; Ctrl+Shift+N belongs to the window (new sandbox).
    addLocalShortcut(this, QKeySequence(Qt::Key_F7), tr("New folder"), [this] { newFolder(); });
    if (preferences) {
        transfers()->setMaxParallel(preferences->current().parallelTransfers);
        connect(preferences, &PreferencesHub::changed, this,
                [this](const Preferences &p) { transfers()->setMaxParallel(p.parallelTransfers); });
    }
}

void FilesTab::setLogOpener(LogOpener *logs) {
    m_logs = logs;
    m_eventsView->setCanOpenLogs(logs != nullptr);
}

FileWatch *FilesTab::watch() const {
    return m_watch;
}

void FilesTab::watchRoot(const QString &root) {
    delete m_watch;
    m_events->setRoot(root);
    m_watch = new FileWatch(m_client, root, this);
    connect(m_watch, &FileWatch::changes, this, [this](const QList<FileChange> &changes) {
        model()->applyChanges(changes);
        m_events->add(changes);
    });
    connect(m_watch, &FileWatch::overflowed, this, [this] {
        m_events->addOverflow();
        model()->refreshListed();
    });
    connect(m_watch, &FileWatch::stateChanged, this, &FilesTab::updateWatchState);
    m_watch->start();
    updateWatchState();
}

void FilesTab::updateWatchState() {
    if (!m_watch)
        return m_eventsView->setWatchState(tr("not watching yet"), false);
    switch (m_watch->state()) {
    case FileWatch::State::Starting:
        return m_eventsView->setWatchState(tr("starting the watch…"), false);
    case FileWatch::State::Live:
        return m_eventsView->setWatchState(tr("live: changes appear without a refresh"), true);
    case FileWatch::State::Reconnecting:
        return m_eventsView->setWatchState(tr("reconnecting (%1)").arg(m_watch->problem()), false);
    case FileWatch::State::Unavailable:
        return m_eventsView->setWatchState(m_watch->problem(), false);
    }
}

bool FilesTab::reveal(const QString &path) {
    const QModelIndex shown = model()->indexForPath(path);
    if (!shown.isValid())
        return false;
    for (QModelIndex up = shown.parent(); up.isValid(); up = up.parent())
        m_view->expand(up);
    m_view->setCurrentIndex(shown);
    m_view->scrollTo(shown);
    m_view->setFocus();
    return true;
}

RemoteFileModel *FilesTab::model() const {
    return m_ops->model();
}

TransferQueueModel *FilesTab::transfers() const {
    return m_ops->transfers();
}

void FilesTab::setNotifications(NotificationCenter *notifications, const QString &sandboxId) {
    m_notifications = notifications;
    // A batch is every transfer between an idle queue and the next: told once it drains.
    connect(transfers(), &TransferQueueModel::transferFinished, this,
            [this, sandboxId](int, TransferQueueModel::State state) {
                if (state == TransferQueueModel::State::Cancelled)
                    return; // the user's own doing
                ++m_batchFinished;
                m_batchFailed += state == TransferQueueModel::State::Failed;
                if (pendingTransfers() > 0)
                    return;
                if (m_notifications)
                    m_notifications->transfersFinished(sandboxId, m_batchFinished, m_batchFailed);
                m_batchFinished = m_batchFailed = 0;
            });
}

int FilesTab::pendingTransfers() const {
    int pending = 0;
    for (int row = 0; row < transfers()->rowCount(); ++row) {
        const auto state = transfers()->state(row);
        pending += state == TransferQueueModel::State::Queued ||
                   state == TransferQueueModel::State::Running;
    }
    return pending;
}

PendingWork FilesTab::pendingWork() const {
    PendingWork work;
    work.unsavedFiles = unsavedViewers();
    work.transfers = pendingTransfers();
    return work;
}

int FilesTab::unsavedViewers() const {
    int count = 0;
    const auto viewers = findChildren<FileViewer *>();
    for (const FileViewer *viewer : viewers)
        count += viewer->isModified() ? 1 : 0;
    return count;
}

void FilesTab::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    // The first visit opens the workspace, as the sandbox reports it; a visit after a failure
    // asks again (the sandbox may still be starting).
    m_ops->loadContext();
}

void FilesTab::setFolder(const QString &path) {
    if (path.isEmpty())
        return;
    m_path->setText(path);
    m_ops->openFolder(path);
}

QString FilesTab::folder() const {
    return model()->rootPath();
}

QJsonObject FilesTab::sessionState() const {
    // A tab not visited since the restart keeps the folder it was left in.
    const QString shown = folder();
    return {{u"folder"_s, shown.isEmpty() ? m_restoreFolder : shown}};
}

void FilesTab::restoreSessionState(const QJsonObject &state) {
    m_restoreFolder = state.value(u"folder"_s).toString();
}

QString FilesTab::selectedPath() const {
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? current.data(RemoteFileModel::PathRole).toString() : QString();
}

QStringList FilesTab::selectedPaths() const {
    QStringList paths;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows)
        paths << row.data(RemoteFileModel::PathRole).toString();
    return paths;
}

QString FilesTab::errorText() const {
    return m_errorRow->text();
}

bool FilesTab::sudoOffered() const {
    return m_errorRow->sudoOffered() && m_ops->sudoOffered();
}

void FilesTab::retryWithSudo() {
    m_ops->retryWithSudo();
}

void FilesTab::goUp() {
    const QString current = folder();
    if (current.isEmpty() || current == u"/"_s)
        return;
    setFolder(parentOf(current));
}

void FilesTab::openAsLog(const QString &path) {
    if (!m_logs || !m_client)
        return;
    QPointer<SandboxClient> client = m_client;
    const QString title = path.section(QLatin1Char('/'), -1);
    // The key holds the sandbox's address: the same path in two sandboxes is two logs.
    m_logs->openLog(m_client->endpoint().displayAddress() + path, title,
                    [client, path](QObject *parent) -> LogSource * {
                        return client ? new RemoteFileLog(client, path, parent) : nullptr;
                    });
}

void FilesTab::showContextMenu(const QPoint &pos) {
    const QModelIndex at = m_view->indexAt(pos);
    QMenu menu(this);
    if (at.isValid() && !at.data(RemoteFileModel::IsDirectoryRole).toBool()) {
        menu.addAction(tr("Open"), this, [this, at] { openSelected(at); });
        if (m_logs)
            menu.addAction(tr("Open as log (follow)"), this, [this, at] {
                openAsLog(at.data(RemoteFileModel::PathRole).toString());
            });
    }
    if (at.isValid() && at.data(RemoteFileModel::IsDirectoryRole).toBool())
        menu.addAction(tr("Open folder"), this,
                       [this, at] { setFolder(at.data(RemoteFileModel::PathRole).toString()); });
    menu.addAction(tr("Download…"), this, &FilesTab::downloadSelected);
    menu.addAction(tr("Upload here…"), this,
                   [this, pos] { uploadChosen(m_view->dropFolderAt(pos)); });
    menu.addSeparator();
    menu.addAction(tr("New folder…"), this, &FilesTab::newFolder);
    if (at.isValid()) {
        menu.addAction(tr("Rename…"), this, &FilesTab::renameSelected);
        menu.addAction(tr("Delete…"), this, &FilesTab::deleteSelected);
        menu.addAction(tr("Copy path"), this, [this] {
            QGuiApplication::clipboard()->setText(selectedPaths().join(u'\n'));
        });
    }
    menu.addSeparator();
    menu.addAction(tr("Refresh"), this, [this] { model()->refresh(); });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void FilesTab::openSelected(const QModelIndex &index) {
    if (!index.isValid() || index.data(RemoteFileModel::IsDirectoryRole).toBool())
        return; // folders expand
    const QString path = index.data(RemoteFileModel::PathRole).toString();
    const Status refusal = RemoteFileOperations::viewerRefusal(
        path, index.data(RemoteFileModel::SizeRole).toLongLong());
    if (!refusal.ok()) {
        m_ops->report(refusal);
        return;
    }
    openViewer(path);
}

FileViewer *FilesTab::openViewer(const QString &path) {
    auto *viewer = new FileViewer(m_client, path, m_ops->canSudo(), this);
    viewer->setPrompts(m_prompts);
    viewer->setWindowFlag(Qt::Window);
    connect(viewer, &FileViewer::saved, this,
            [this, path] { m_ops->refreshFolder(parentOf(path)); });
    viewer->show();
    return viewer;
}

void FilesTab::createFolder(const QString &name) {
    m_ops->createFolder(folder(), name);
}

void FilesTab::newFolder() {
    const QString name =
        prompts()->askText(this, tr("New folder"), tr("Name:")).value_or(QString());
    if (!name.trimmed().isEmpty())
        createFolder(name.trimmed());
}

void FilesTab::rename(const QString &from, const QString &newName) {
    m_ops->rename(from, newName);
}

void FilesTab::renameSelected() {
    const QString from = selectedPath();
    if (from.isEmpty())
        return;
    const QString name = prompts()
                             ->askText(this, tr("Rename"), tr("New name:"), from.section(u'/', -1))
                             .value_or(QString());
    if (!name.trimmed().isEmpty())
        rename(from, name.trimmed());
}

void FilesTab::remove(const QStringList &paths) {
    m_ops->remove(paths);
}

void FilesTab::deleteSelected() {
    const QStringList paths = selectedPaths();
    if (paths.isEmpty())
        return;
    const QString question =
        tr("Delete these from the sandbox? This cannot be undone.\n\n") + paths.join(u'\n');
    if (prompts()->confirm(this, tr("Delete"), question, tr("&Delete")))
        remove(paths);
}

void FilesTab::upload(const QList<QUrl> &urls, const QString &remoteFolder) {
    QStringList paths;
    for (const QUrl &url : urls)
        paths << url.toLocalFile();
    m_ops->upload(paths, remoteFolder);
}

void FilesTab::uploadChosen(const QString &remoteFolder) {
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Upload files"));
    if (!files.isEmpty())
        m_ops->upload(files, remoteFolder);
}

FilesTab::Conflict FilesTab::askConflict(const QString &name, bool *applyToAll) {
    // In the order of Conflict: Overwrite, KeepBoth, Skip; Cancel is the prompt's own.
    const int answer = prompts()->choose(
        this, tr("Name already taken"), tr("“%1” already exists there.").arg(name),
        {tr("Overwrite"), tr("Keep both"), tr("Skip")}, applyToAll);
    switch (answer) {
    case 0:
        return Conflict::Overwrite;
    case 1:
        return Conflict::KeepBoth;
    case 2:
        return Conflict::Skip;
    default:
        return Conflict::Cancel;
    }
}

UserPrompts *FilesTab::prompts() const {
    return m_prompts ? m_prompts : dialogPrompts();
}

void FilesTab::downloadSelected() {
    QList<RemoteFileInfo> items;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows) {
        RemoteFileInfo item;
        item.path = row.data(RemoteFileModel::PathRole).toString();
        item.isDirectory = row.data(RemoteFileModel::IsDirectoryRole).toBool();
        items << item;
    }
    if (items.isEmpty())
        return;
    const QString target = QFileDialog::getExistingDirectory(this, tr("Download to"));
    if (!target.isEmpty())
        download(items, target);
}

void FilesTab::download(const QList<RemoteFileInfo> &items, const QString &localFolder) {
    m_ops->download(items, localFolder);
}

QMimeData *FilesTab::dragData(const QModelIndexList &rows) {
    QModelIndexList names;
    QList<DragItem> items;
    for (const QModelIndex &row : rows) {
        const QModelIndex name = row.sibling(row.row(), RemoteFileModel::NameColumn);
        names << name;
        items.append({name.data(RemoteFileModel::PathRole).toString(),
                      name.data(RemoteFileModel::IsDirectoryRole).toBool(),
                      name.data(RemoteFileModel::SizeRole).toLongLong()});
    }
    const DragOut out = m_ops->prepareDrag(items);
    if (!out.status.ok())
        m_ops->report(out.status);
    if (out.localFiles.isEmpty())
        return nullptr;
    auto *carried = new RemoteDragData(transfers(), out.localFiles);
    std::unique_ptr<QMimeData> remote(model()->mimeData(names));
    if (remote)
        carried->setData(QString::fromLatin1(RemoteFileModel::kMimeType),
                         remote->data(QString::fromLatin1(RemoteFileModel::kMimeType)));
    return carried;
}

void registerFilesTab(TabRegistry &registry) {
    registry.add({u"files"_s,
                  QCoreApplication::translate("sbx::FilesTab", "Files"),
                  40,
                  [](const WorkspaceContext &ctx, QWidget *parent) -> QWidget * {
                      auto *tab = new FilesTab(ctx.client, ctx.preferences, parent);
                      tab->setPrompts(ctx.prompts);
                      tab->setLogOpener(ctx.logs);
                      tab->setNotifications(ctx.notifications, ctx.sandboxId);
                      return tab;
                  },
                  {},
                  u"files"_s});
}

} // namespace sbx
