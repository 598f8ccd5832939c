#include "widgets/files/filestab.h"

#include "client/api/filejobs.h"
#include "client/api/remotecommand.h"
#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "models/remotefilemodel.h"
#include "models/remotefilesortproxy.h"
#include "models/transferqueuemodel.h"
#include "widgets/common/preferences.h"
#include "widgets/common/widgethelpers.h"
#include "widgets/workspace/tabregistry.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDir>
#include <QDirIterator>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QToolBar>
#include <QVBoxLayout>

#include <optional>

namespace {

QString joinPath(const QString &folder, const QString &name) {
    return folder.endsWith(QLatin1Char('/')) ? QString(folder + name)
                                             : QString(folder + QLatin1Char('/') + name);
}

} // namespace

QString RemoteTreeView::dropFolderAt(const QPoint &pos) const {
    const QModelIndex at = indexAt(pos);
    if (!at.isValid())
        return static_cast<RemoteFileModel *>(
                   static_cast<QSortFilterProxyModel *>(model())->sourceModel())
            ->rootPath();
    if (at.data(RemoteFileModel::IsDirectoryRole).toBool())
        return at.data(RemoteFileModel::PathRole).toString();
    const QString path = at.data(RemoteFileModel::PathRole).toString();
    return path.left(path.lastIndexOf(QLatin1Char('/')));
}

void RemoteTreeView::highlight(const QModelIndex &index) {
    m_highlighted = index.sibling(index.row(), 0);
    // The drop target folder is shown selected while dragging, so the user sees where files go.
    if (m_highlighted.isValid())
        selectionModel()->select(m_highlighted,
                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    else
        selectionModel()->clearSelection();
}

void RemoteTreeView::dragEnterEvent(QDragEnterEvent *event) {
    if (event->mimeData()->hasUrls()) {
        event->acceptProposedAction();
        return;
    }
    QTreeView::dragEnterEvent(event);
}

void RemoteTreeView::dragMoveEvent(QDragMoveEvent *event) {
    if (!event->mimeData()->hasUrls()) {
        QTreeView::dragMoveEvent(event);
        return;
    }
    const QModelIndex at = indexAt(event->position().toPoint());
    highlight(at.isValid() && at.data(RemoteFileModel::IsDirectoryRole).toBool() ? at
                                                                                 : at.parent());
    event->acceptProposedAction();
}

void RemoteTreeView::dragLeaveEvent(QDragLeaveEvent *event) {
    highlight({});
    QTreeView::dragLeaveEvent(event);
}

void RemoteTreeView::dropEvent(QDropEvent *event) {
    if (!event->mimeData()->hasUrls()) {
        QTreeView::dropEvent(event);
        return;
    }
    QList<QUrl> local;
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl &url : urls) {
        if (url.isLocalFile())
            local << url;
    }
    const QString folder = dropFolderAt(event->position().toPoint());
    highlight({});
    event->acceptProposedAction();
    if (!local.isEmpty())
        Q_EMIT localFilesDropped(local, folder);
}

FilesTab::FilesTab(SandboxClient *client, PreferencesHub *preferences, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_model(new RemoteFileModel(client, this))
    , m_proxy(new RemoteFileSortProxy(this))
    , m_transfers(new TransferQueueModel(client, this))
    , m_view(new RemoteTreeView(this))
    , m_path(new QLineEdit(this))
    , m_error(makeErrorBox(this)) {
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::DisplayRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RemoteFileModel::NameColumn, Qt::AscendingOrder);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setDragEnabled(true);
    m_view->setAcceptDrops(true);
    m_view->setDropIndicatorShown(true);
    m_view->setUniformRowHeights(true);
    m_view->header()->setSectionResizeMode(RemoteFileModel::NameColumn, QHeaderView::Stretch);
    m_view->header()->setStretchLastSection(false);
    m_path->setPlaceholderText(QStringLiteral("/path/in/the/sandbox"));

    auto *toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolbar->addAction(QStringLiteral("Home"), this, [this] { setFolder(m_home); })
        ->setToolTip(QStringLiteral("The sandbox user's home folder"));
    toolbar->addAction(QStringLiteral("Workspace"), this, [this] { setFolder(m_workspace); })
        ->setToolTip(QStringLiteral("The sandbox's workspace folder"));
    toolbar->addAction(QStringLiteral("Up"), this, &FilesTab::goUp)
        ->setShortcut(QKeySequence(QStringLiteral("Alt+Up")));
    toolbar->addAction(QStringLiteral("Refresh"), this, [this] { m_model->refresh(); });
    toolbar->addSeparator();
    toolbar->addAction(QStringLiteral("New folder"), this, &FilesTab::newFolder);
    toolbar->addAction(QStringLiteral("Upload…"), this, [this] {
        const QStringList files =
            QFileDialog::getOpenFileNames(this, QStringLiteral("Upload files"));
        QList<QUrl> urls;
        for (const QString &f : files)
            urls << QUrl::fromLocalFile(f);
        if (!urls.isEmpty())
            upload(urls, folder());
    });
    toolbar->addAction(QStringLiteral("Download…"), this, &FilesTab::downloadSelected);
    toolbar->addAction(QStringLiteral("Rename…"), this, &FilesTab::renameSelected);
    toolbar->addAction(QStringLiteral("Delete"), this, &FilesTab::deleteSelected);
    toolbar->addAction(QStringLiteral("Copy path"), this, [this] {
        QGuiApplication::clipboard()->setText(selectedPath().isEmpty() ? folder() : selectedPath());
    });

    auto *transferView = new QTreeView(this);
    transferView->setModel(m_transfers);
    transferView->setRootIsDecorated(false);
    transferView->header()->setSectionResizeMode(TransferQueueModel::NameColumn,
                                                 QHeaderView::Stretch);
    auto *transferBar = new QToolBar(this);
    transferBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    transferBar->addAction(QStringLiteral("Cancel"), this, [this, transferView] {
        m_transfers->cancel(transferView->currentIndex().row());
    });
    transferBar->addAction(QStringLiteral("Retry"), this, [this, transferView] {
        m_transfers->retry(transferView->currentIndex().row());
    });
    auto *transferPanel = new QWidget(this);
    auto *transferLayout = new QVBoxLayout(transferPanel);
    transferLayout->setContentsMargins(0, 0, 0, 0);
    transferLayout->addWidget(new QLabel(QStringLiteral("Transfers"), transferPanel));
    transferLayout->addWidget(transferBar);
    transferLayout->addWidget(transferView, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(transferPanel);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(toolbar);
    layout->addWidget(m_path);
    layout->addWidget(m_error);
    layout->addWidget(split, 1);

    connect(m_path, &QLineEdit::returnPressed, this,
            [this] { setFolder(m_path->text().trimmed()); });
    connect(m_view, &RemoteTreeView::localFilesDropped, this, &FilesTab::upload);
    connect(m_model, &RemoteFileModel::listingFailed, this,
            [this](const QString &, const QString &message) { showError(message); });
    connect(m_transfers, &TransferQueueModel::transferFinished, this,
            [this](int row, TransferQueueModel::State state) {
                const QString remote =
                    m_transfers->index(row, 0).data(TransferQueueModel::RemotePathRole).toString();
                if (state == TransferQueueModel::State::Done)
                    refreshFolder(remote.left(remote.lastIndexOf(QLatin1Char('/'))));
                else if (state == TransferQueueModel::State::Failed)
                    showError(m_transfers->error(row));
            });
    addLocalShortcut(this, QKeySequence::Refresh, [this] { m_model->refresh(); });
    if (preferences) {
        m_transfers->setMaxParallel(preferences->current().parallelTransfers);
        connect(preferences, &PreferencesHub::changed, this,
                [this](const Preferences &p) { m_transfers->setMaxParallel(p.parallelTransfers); });
    }
}

int FilesTab::pendingTransfers() const {
    int pending = 0;
    for (int row = 0; row < m_transfers->rowCount(); ++row) {
        const auto state = m_transfers->state(row);
        pending += state == TransferQueueModel::State::Queued ||
                   state == TransferQueueModel::State::Running;
    }
    return pending;
}

void FilesTab::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (m_started || !m_client)
        return;
    m_started = true;
    // The first visit opens the workspace, as the sandbox reports it.
    auto *job = new GetContextJob(m_client);
    connect(job, &GetContextJob::succeeded, this, [this](const SandboxContext &c) {
        m_home = c.homeDir;
        m_workspace = c.workspace.isEmpty() ? c.homeDir : c.workspace;
        if (folder().isEmpty())
            setFolder(m_workspace);
    });
    connect(job, &ApiJob::failed, this, [this](const Status &s) { showError(s.message); });
    job->start();
}

void FilesTab::setFolder(const QString &path) {
    if (path.isEmpty())
        return;
    m_error->hide();
    m_path->setText(path);
    m_model->setRootPath(path);
}

QString FilesTab::folder() const {
    return m_model->rootPath();
}

QString FilesTab::selectedPath() const {
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? current.data(RemoteFileModel::PathRole).toString() : QString();
}

void FilesTab::showError(const QString &message) {
    m_error->setText(message);
    m_error->show();
}

void FilesTab::refreshFolder(const QString &path) {
    if (path == folder()) {
        m_model->refresh();
        return;
    }
    const QModelIndex at = m_model->indexForPath(path);
    if (at.isValid())
        m_model->refresh(at);
}

void FilesTab::goUp() {
    const QString current = folder();
    if (current.isEmpty() || current == QLatin1String("/"))
        return;
    const QString up = current.left(current.lastIndexOf(QLatin1Char('/')));
    setFolder(up.isEmpty() ? QStringLiteral("/") : up);
}

void FilesTab::upload(const QList<QUrl> &urls, const QString &remoteFolder) {
    // Names that exist already are settled first: overwrite, keep both (renamed), or skip.
    auto *list = new ListFilesJob(m_client, remoteFolder);
    connect(list, &ListFilesJob::succeeded, this,
            [this, urls, remoteFolder](const QList<RemoteFileInfo> &existing) {
                QSet<QString> taken;
                for (const RemoteFileInfo &f : existing)
                    taken.insert(f.name);
                QList<QPair<QString, QString>> items;
                std::optional<Conflict> forAll;
                for (const QUrl &url : urls) {
                    const QFileInfo info(url.toLocalFile());
                    QString name = info.fileName();
                    if (taken.contains(name)) {
                        bool applyToAll = false;
                        const Conflict choice = forAll ? *forAll : askConflict(name, &applyToAll);
                        if (applyToAll)
                            forAll = choice;
                        if (choice == Conflict::Cancel)
                            return;
                        if (choice == Conflict::Skip)
                            continue;
                        if (choice == Conflict::KeepBoth) {
                            const QString base = info.isDir() ? name : info.completeBaseName();
                            const QString suffix = info.isDir() || info.suffix().isEmpty()
                                                       ? QString()
                                                       : QLatin1Char('.') + info.suffix();
                            for (int n = 2; taken.contains(name); ++n)
                                name = QStringLiteral("%1 (%2)%3").arg(base).arg(n).arg(suffix);
                        }
                    }
                    taken.insert(name);
                    items.append({info.absoluteFilePath(), name});
                }
                startUpload(items, remoteFolder);
            });
    connect(list, &ApiJob::failed, this, [this](const Status &s) { showError(s.message); });
    list->start();
}

FilesTab::Conflict FilesTab::askConflict(const QString &name, bool *applyToAll) {
    if (m_resolveConflict)
        return m_resolveConflict(name, applyToAll);
    QMessageBox box(QMessageBox::Question, QStringLiteral("Name already taken"),
                    QStringLiteral("“%1” already exists in this folder.").arg(name),
                    QMessageBox::NoButton, this);
    QPushButton *overwrite =
        box.addButton(QStringLiteral("Overwrite"), QMessageBox::DestructiveRole);
    QPushButton *both = box.addButton(QStringLiteral("Keep both"), QMessageBox::AcceptRole);
    QPushButton *skip = box.addButton(QStringLiteral("Skip"), QMessageBox::RejectRole);
    box.addButton(QMessageBox::Cancel);
    auto *all = new QCheckBox(QStringLiteral("Apply to all"), &box);
    box.setCheckBox(all);
    box.setDefaultButton(both);
    box.exec();
    *applyToAll = all->isChecked();
    if (box.clickedButton() == overwrite)
        return Conflict::Overwrite;
    if (box.clickedButton() == both)
        return Conflict::KeepBoth;
    if (box.clickedButton() == skip)
        return Conflict::Skip;
    return Conflict::Cancel;
}

void FilesTab::startUpload(const QList<QPair<QString, QString>> &items,
                           const QString &remoteFolder) {
    // Folders keep their structure: every remote folder is made first (one command), then the
    // files are queued into it.
    QStringList folders;
    QList<QPair<QString, QString>> files;
    for (const auto &[localPath, name] : items) {
        const QFileInfo info(localPath);
        const QString target = joinPath(remoteFolder, name);
        if (!info.isDir()) {
            files.append({info.absoluteFilePath(), target});
            continue;
        }
        folders << target;
        QDirIterator it(info.absoluteFilePath(),
                        QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QFileInfo entry(it.next());
            const QString remote = joinPath(
                target, QDir(info.absoluteFilePath()).relativeFilePath(entry.absoluteFilePath()));
            if (entry.isDir())
                folders << remote;
            else
                files.append({entry.absoluteFilePath(), remote});
        }
    }
    auto enqueueFiles = [this, files] {
        for (const auto &[local, remote] : files)
            m_transfers->enqueueUpload(local, remote);
    };
    if (folders.isEmpty()) {
        enqueueFiles();
        return;
    }
    QStringList quoted;
    for (const QString &f : std::as_const(folders))
        quoted << shellQuote(f);
    auto *mkdir = new RemoteCommandJob(
        m_client, QStringLiteral("mkdir -p -- ") + quoted.join(QLatin1Char(' ')),
        QStringLiteral("create the folders for the upload"));
    connect(mkdir, &RemoteCommandJob::succeeded, this, [this, enqueueFiles, remoteFolder] {
        refreshFolder(remoteFolder);
        enqueueFiles();
    });
    connect(mkdir, &RemoteCommandJob::failed, this,
            [this](const Status &s) { showError(s.message); });
    mkdir->start();
}

void FilesTab::newFolder() {
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, QStringLiteral("New folder"), QStringLiteral("Name:"),
                              QLineEdit::Normal, QString(), &ok)
            .trimmed();
    if (!ok || name.isEmpty())
        return;
    const QString target = joinPath(folder(), name);
    auto *job = RemoteCommandJob::makeDirectory(m_client, target);
    connect(job, &RemoteCommandJob::succeeded, this, [this] { m_model->refresh(); });
    connect(job, &RemoteCommandJob::failed, this,
            [this](const Status &s) { showError(s.message); });
    job->start();
}

void FilesTab::renameSelected() {
    const QString from = selectedPath();
    if (from.isEmpty())
        return;
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, QStringLiteral("Rename"), QStringLiteral("New name:"),
                              QLineEdit::Normal, from.section(QLatin1Char('/'), -1), &ok)
            .trimmed();
    if (!ok || name.isEmpty())
        return;
    const QString parentFolder = from.left(from.lastIndexOf(QLatin1Char('/')));
    auto *job = RemoteCommandJob::rename(m_client, from, joinPath(parentFolder, name));
    connect(job, &RemoteCommandJob::succeeded, this,
            [this, parentFolder] { refreshFolder(parentFolder); });
    connect(job, &RemoteCommandJob::failed, this,
            [this](const Status &s) { showError(s.message); });
    job->start();
}

void FilesTab::deleteSelected() {
    QStringList paths;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows)
        paths << row.data(RemoteFileModel::PathRole).toString();
    if (paths.isEmpty())
        return;
    if (QMessageBox::question(
            this, QStringLiteral("Delete"),
            QStringLiteral("Delete these from the sandbox? This cannot be undone.\n\n") +
                paths.join(QLatin1Char('\n'))) != QMessageBox::Yes)
        return;
    auto *job = RemoteCommandJob::remove(m_client, paths);
    connect(job, &RemoteCommandJob::succeeded, this, [this] { m_model->refresh(); });
    connect(job, &RemoteCommandJob::failed, this,
            [this](const Status &s) { showError(s.message); });
    job->start();
}

void FilesTab::downloadSelected() {
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    const QString target = QFileDialog::getExistingDirectory(this, QStringLiteral("Download to"));
    if (target.isEmpty())
        return;
    for (const QModelIndex &row : rows) {
        if (row.data(RemoteFileModel::IsDirectoryRole).toBool())
            continue; // folders come with a later stage of the Files tab
        const QString remote = row.data(RemoteFileModel::PathRole).toString();
        m_transfers->enqueueDownload(remote,
                                     QDir(target).filePath(remote.section(QLatin1Char('/'), -1)));
    }
}

void registerFilesTab(TabRegistry &registry) {
    registry.add({QStringLiteral("files"), QStringLiteral("Files"), 40,
                  [](const WorkspaceContext &ctx, QWidget *parent) -> QWidget * {
                      return new FilesTab(ctx.client, ctx.preferences, parent);
                  }});
}
