#include "widgets/files/filestab.h"

#include "client/api/filejobs.h"
#include "client/api/remotecommand.h"
#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "models/files/remotefilemodel.h"
#include "models/files/remotefilesortproxy.h"
#include "models/files/transferqueuemodel.h"
#include "widgets/common/errorrow.h"
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
#include <QDir>
#include <QDirIterator>
#include <QFileDialog>
#include <QHeaderView>
#include <QInputDialog>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QToolBar>
#include <QUuid>
#include <QVBoxLayout>

namespace {

QString joinPath(const QString &folder, const QString &name) {
    return folder.endsWith(QLatin1Char('/')) ? QString(folder + name)
                                             : QString(folder + QLatin1Char('/') + name);
}

QString parentOf(const QString &path) {
    const QString up = path.left(path.lastIndexOf(QLatin1Char('/')));
    return up.isEmpty() ? QStringLiteral("/") : up;
}

// "name (2).ext": the first free name for "keep both".
QString freeName(const QString &name, bool isDir,
                 const std::function<bool(const QString &)> &taken) {
    const QFileInfo info(name);
    const QString base = isDir ? name : info.completeBaseName();
    const QString suffix =
        isDir || info.suffix().isEmpty() ? QString() : QString(QLatin1Char('.') + info.suffix());
    QString out = name;
    for (int n = 2; taken(out); ++n)
        out = QStringLiteral("%1 (%2)%3").arg(base).arg(n).arg(suffix);
    return out;
}

} // namespace

FilesTab::FilesTab(SandboxClient *client, PreferencesHub *preferences, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_model(new RemoteFileModel(client, this))
    , m_proxy(new RemoteFileSortProxy(this))
    , m_transfers(new TransferQueueModel(client, this))
    , m_view(new RemoteTreeView(this))
    , m_panel(new TransferPanel(m_transfers, this))
    , m_path(new QLineEdit(this))
    , m_errorRow(new ErrorRow(this)) {
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
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setExpandsOnDoubleClick(true);
    m_view->header()->setSectionResizeMode(RemoteFileModel::NameColumn, QHeaderView::Stretch);
    m_view->header()->setStretchLastSection(false);
    m_view->setDragDataFactory([this](const QModelIndexList &rows) { return dragData(rows); });
    m_path->setPlaceholderText(QStringLiteral("/path/in/the/sandbox"));
    m_path->setToolTip(QStringLiteral("Type a folder and press Enter (Ctrl+L)"));

    connect(m_errorRow, &ErrorRow::sudoRequested, this, &FilesTab::retryWithSudo);

    auto *toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolbar->addAction(QStringLiteral("Home"), this, [this] { setFolder(m_home); })
        ->setToolTip(QStringLiteral("The sandbox user's home folder"));
    toolbar->addAction(QStringLiteral("Workspace"), this, [this] { setFolder(m_workspace); })
        ->setToolTip(QStringLiteral("The sandbox's workspace folder"));
    toolbar->addAction(QStringLiteral("Up"), this, &FilesTab::goUp)
        ->setShortcut(QKeySequence(QStringLiteral("Alt+Up")));
    toolbar->addAction(QStringLiteral("Refresh"), this, [this] { m_model->refresh(); })
        ->setToolTip(QStringLiteral("List this folder again (F5)"));
    toolbar->addSeparator();
    toolbar->addAction(QStringLiteral("New folder"), this, &FilesTab::newFolder)
        ->setToolTip(QStringLiteral("F7"));
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
    toolbar->addAction(QStringLiteral("Rename…"), this, &FilesTab::renameSelected)
        ->setToolTip(QStringLiteral("F2"));
    toolbar->addAction(QStringLiteral("Delete"), this, &FilesTab::deleteSelected)
        ->setToolTip(QStringLiteral("Delete key; asks first"));
    toolbar->addAction(QStringLiteral("Copy path"), this, [this] {
        QGuiApplication::clipboard()->setText(selectedPath().isEmpty() ? folder() : selectedPath());
    });

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
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
    connect(m_view, &RemoteTreeView::localFilesDropped, this, &FilesTab::upload);
    connect(m_view, &QTreeView::activated, this, &FilesTab::openSelected);
    connect(m_view, &QWidget::customContextMenuRequested, this, &FilesTab::showContextMenu);
    connect(m_model, &RemoteFileModel::listingFailed, this,
            [this](const QString &path, const Status &status) {
                // Refused as root too: nothing more to offer.
                if (m_model->sudo()) {
                    showError(status);
                    return;
                }
                showError(status, [this, path] {
                    m_model->setSudo(true);
                    refreshFolder(path);
                });
            });
    connect(m_panel, &TransferPanel::showRemote, this,
            [this](const QString &remote) { setFolder(parentOf(remote)); });
    connect(m_transfers, &TransferQueueModel::transferFinished, this,
            [this](int row, TransferQueueModel::State state) {
                const QModelIndex at = m_transfers->index(row, 0);
                const QString remote = at.data(TransferQueueModel::RemotePathRole).toString();
                const bool upload = at.data(TransferQueueModel::DirectionRole).toInt() ==
                                    int(TransferQueueModel::Direction::Upload);
                if (state == TransferQueueModel::State::Done && upload) {
                    if (m_sudoMoves.contains(remote)) {
                        const QString target = m_sudoMoves.take(remote);
                        runCommand(
                            [this, remote, target](bool) {
                                return new RemoteCommandJob(
                                    m_client,
                                    QStringLiteral("mv -f -- %1 %2")
                                        .arg(shellQuote(remote), shellQuote(target)),
                                    QStringLiteral("move the upload into %1").arg(target));
                            },
                            parentOf(target), true);
                    } else {
                        refreshFolder(parentOf(remote));
                    }
                } else if (state == TransferQueueModel::State::Failed) {
                    Status status = Status::error(Status::Kind::Server, m_transfers->error(row));
                    status.errorType = at.data(TransferQueueModel::ErrorTypeRole).toString();
                    const QString local = at.data(TransferQueueModel::LocalPathRole).toString();
                    std::function<void()> retry;
                    if (upload)
                        retry = [this, local, remote] {
                            retryUploadWithSudo(local, remote);
                        };
                    else if (!at.data(TransferQueueModel::SudoRole).toBool())
                        retry = [this, local, remote] {
                            enqueueDownloads({{remote, local}}, false, true);
                        };
                    showError(status, retry);
                }
            });
    addLocalShortcut(this, QKeySequence::Refresh, [this] { m_model->refresh(); });
    addLocalShortcut(this, QKeySequence(QStringLiteral("Ctrl+L")), [this] {
        m_path->setFocus();
        m_path->selectAll();
    });
    addLocalShortcut(m_view, QKeySequence::Delete, [this] { deleteSelected(); });
    addLocalShortcut(m_view, QKeySequence(Qt::Key_F2), [this] { renameSelected(); });
    // F7 as in WinSCP and Total Commander; Ctrl+Shift+N belongs to the window (new sandbox).
    addLocalShortcut(this, QKeySequence(Qt::Key_F7), [this] { newFolder(); });
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

int FilesTab::unsavedViewers() const {
    int count = 0;
    const auto viewers = findChildren<FileViewer *>();
    for (const FileViewer *viewer : viewers)
        count += viewer->isModified() ? 1 : 0;
    return count;
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
        m_contextKnown = true;
        if (folder().isEmpty())
            setFolder(m_workspace);
    });
    connect(job, &ApiJob::failed, this, [this](const Status &s) {
        m_started = false; // the next visit asks again (the sandbox may still be starting)
        showError(s);
    });
    job->start();
}

void FilesTab::setFolder(const QString &path) {
    if (path.isEmpty())
        return;
    m_errorRow->clear();
    m_model->setSudo(false); // sudo was granted for the folder that refused, not for every one
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

QStringList FilesTab::selectedPaths() const {
    QStringList paths;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows)
        paths << row.data(RemoteFileModel::PathRole).toString();
    return paths;
}

bool FilesTab::canSudo() const {
    return m_contextKnown && m_client && sudoAvailable(m_client->extensions());
}

void FilesTab::showError(const Status &status, std::function<void()> retryWithSudo) {
    const bool offer =
        status.errorType == QLatin1String("permission_denied") && retryWithSudo && canSudo();
    m_sudoRetry = offer ? std::move(retryWithSudo) : std::function<void()>();
    m_errorRow->showError(status.message, offer);
}

QString FilesTab::errorText() const {
    return m_errorRow->text();
}

bool FilesTab::sudoOffered() const {
    return m_errorRow->sudoOffered();
}

void FilesTab::retryWithSudo() {
    m_errorRow->clear();
    if (auto retry = std::exchange(m_sudoRetry, {}))
        retry();
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
    setFolder(parentOf(current));
}

void FilesTab::showContextMenu(const QPoint &pos) {
    const QModelIndex at = m_view->indexAt(pos);
    QMenu menu(this);
    if (at.isValid() && !at.data(RemoteFileModel::IsDirectoryRole).toBool())
        menu.addAction(QStringLiteral("Open"), this, [this, at] { openSelected(at); });
    if (at.isValid() && at.data(RemoteFileModel::IsDirectoryRole).toBool())
        menu.addAction(QStringLiteral("Open folder"), this,
                       [this, at] { setFolder(at.data(RemoteFileModel::PathRole).toString()); });
    menu.addAction(QStringLiteral("Download…"), this, &FilesTab::downloadSelected);
    menu.addAction(QStringLiteral("Upload here…"), this, [this, pos] {
        const QString target = m_view->dropFolderAt(pos);
        const QStringList files =
            QFileDialog::getOpenFileNames(this, QStringLiteral("Upload files"));
        QList<QUrl> urls;
        for (const QString &f : files)
            urls << QUrl::fromLocalFile(f);
        if (!urls.isEmpty())
            upload(urls, target);
    });
    menu.addSeparator();
    menu.addAction(QStringLiteral("New folder…"), this, &FilesTab::newFolder);
    if (at.isValid()) {
        menu.addAction(QStringLiteral("Rename…"), this, &FilesTab::renameSelected);
        menu.addAction(QStringLiteral("Delete…"), this, &FilesTab::deleteSelected);
        menu.addAction(QStringLiteral("Copy path"), this, [this] {
            QGuiApplication::clipboard()->setText(selectedPaths().join(QLatin1Char('\n')));
        });
    }
    menu.addSeparator();
    menu.addAction(QStringLiteral("Refresh"), this, [this] { m_model->refresh(); });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void FilesTab::openSelected(const QModelIndex &index) {
    if (!index.isValid() || index.data(RemoteFileModel::IsDirectoryRole).toBool())
        return; // folders expand
    const QString path = index.data(RemoteFileModel::PathRole).toString();
    const qint64 size = index.data(RemoteFileModel::SizeRole).toLongLong();
    if (size > maxViewerSize) {
        showError(Status::error(
            Status::Kind::Validation,
            QStringLiteral("%1 is %2: the viewer opens files up to %3. Use Download… instead.")
                .arg(path, QLocale().formattedDataSize(size),
                     QLocale().formattedDataSize(maxViewerSize))));
        return;
    }
    openViewer(path);
}

FileViewer *FilesTab::openViewer(const QString &path) {
    auto *viewer = new FileViewer(m_client, path, canSudo(), this);
    viewer->setWindowFlag(Qt::Window);
    connect(viewer, &FileViewer::saved, this, [this, path] { refreshFolder(parentOf(path)); });
    viewer->show();
    return viewer;
}

void FilesTab::runCommand(std::function<RemoteCommandJob *(bool sudo)> make,
                          const QString &folderToRefresh, bool sudo) {
    RemoteCommandJob *job = make(sudo);
    job->setSudo(sudo);
    connect(job, &RemoteCommandJob::succeeded, this,
            [this, folderToRefresh] { refreshFolder(folderToRefresh); });
    connect(job, &RemoteCommandJob::failed, this,
            [this, make, folderToRefresh, sudo](const Status &s) {
                showError(
                    s, sudo ? std::function<void()>() : [this, make, folderToRefresh] {
                        runCommand(make, folderToRefresh, true);
                    });
            });
    connect(job, &RemoteCommandJob::finished, this, &FilesTab::operationFinished);
    job->start();
}

void FilesTab::createFolder(const QString &name) {
    const QString target = joinPath(folder(), name);
    runCommand([this, target](bool) { return RemoteCommandJob::makeDirectory(m_client, target); },
               folder());
}

void FilesTab::newFolder() {
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, QStringLiteral("New folder"), QStringLiteral("Name:"),
                              QLineEdit::Normal, QString(), &ok)
            .trimmed();
    if (ok && !name.isEmpty())
        createFolder(name);
}

void FilesTab::rename(const QString &from, const QString &newName) {
    const QString parentFolder = parentOf(from);
    const QString to = joinPath(parentFolder, newName);
    runCommand([this, from, to](bool) { return RemoteCommandJob::rename(m_client, from, to); },
               parentFolder);
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
    if (ok && !name.isEmpty())
        rename(from, name);
}

void FilesTab::remove(const QStringList &paths) {
    runCommand([this, paths](bool) { return RemoteCommandJob::remove(m_client, paths); },
               parentOf(paths.value(0)));
}

void FilesTab::deleteSelected() {
    const QStringList paths = selectedPaths();
    if (paths.isEmpty())
        return;
    const QString question =
        QStringLiteral("Delete these from the sandbox? This cannot be undone.\n\n") +
        paths.join(QLatin1Char('\n'));
    const bool yes = m_confirm ? m_confirm(question)
                               : QMessageBox::question(this, QStringLiteral("Delete"), question) ==
                                     QMessageBox::Yes;
    if (yes)
        remove(paths);
}

FilesTab::Conflict FilesTab::settleName(QString *name, bool isDir,
                                        const std::function<bool(const QString &)> &taken,
                                        std::optional<Conflict> *forAll) {
    if (!taken(*name))
        return Conflict::Overwrite; // nothing to settle: the name is free
    bool applyToAll = false;
    const Conflict choice = *forAll ? **forAll : askConflict(*name, &applyToAll);
    if (applyToAll)
        *forAll = choice;
    if (choice == Conflict::KeepBoth)
        *name = freeName(*name, isDir, taken);
    return choice;
}

void FilesTab::upload(const QList<QUrl> &urls, const QString &remoteFolder) {
    // Names that exist already are settled first: overwrite, keep both (renamed), or skip.
    auto *list = new ListFilesJob(m_client, remoteFolder);
    connect(list, &ListFilesJob::succeeded, this,
            [this, urls, remoteFolder](const QList<RemoteFileInfo> &existing) {
                QSet<QString> names;
                for (const RemoteFileInfo &f : existing)
                    names.insert(f.name);
                const auto taken = [&names](const QString &n) {
                    return names.contains(n);
                };
                QList<QPair<QString, QString>> items;
                std::optional<Conflict> forAll;
                for (const QUrl &url : urls) {
                    const QFileInfo info(url.toLocalFile());
                    QString name = info.fileName();
                    const Conflict choice = settleName(&name, info.isDir(), taken, &forAll);
                    if (choice == Conflict::Cancel)
                        return;
                    if (choice == Conflict::Skip)
                        continue;
                    names.insert(name);
                    items.append({info.absoluteFilePath(), name});
                }
                startUpload(items, remoteFolder);
            });
    connect(list, &ApiJob::failed, this, [this](const Status &s) { showError(s); });
    list->start();
}

FilesTab::Conflict FilesTab::askConflict(const QString &name, bool *applyToAll) {
    if (m_resolveConflict)
        return m_resolveConflict(name, applyToAll);
    QMessageBox box(QMessageBox::Question, QStringLiteral("Name already taken"),
                    QStringLiteral("“%1” already exists there.").arg(name), QMessageBox::NoButton,
                    this);
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
    connect(mkdir, &RemoteCommandJob::failed, this, [this](const Status &s) { showError(s); });
    mkdir->start();
}

void FilesTab::retryUploadWithSudo(const QString &local, const QString &target) {
    // AIO's upload has no sudo: the file goes to /tmp as the sandbox user, then sudo moves it.
    const QString staging = QStringLiteral("/tmp/.sandbox-console-upload-") +
                            QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_sudoMoves.insert(staging, target);
    m_transfers->enqueueUpload(local, staging);
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
    const QString target = QFileDialog::getExistingDirectory(this, QStringLiteral("Download to"));
    if (!target.isEmpty())
        download(items, target);
}

void FilesTab::download(const QList<RemoteFileInfo> &items, const QString &localFolder) {
    // Local names that exist are settled like uploads: overwrite, keep both or skip.
    std::optional<Conflict> forAll;
    const QDir into(localFolder);
    QSet<QString> claimed; // names given to earlier items of this batch
    const auto taken = [&into, &claimed](const QString &n) {
        return claimed.contains(n) || into.exists(n);
    };
    for (const RemoteFileInfo &item : items) {
        const QString &remote = item.path;
        const bool isDir = item.isDirectory;
        QString name = remote.section(QLatin1Char('/'), -1);
        const Conflict choice = settleName(&name, isDir, taken, &forAll);
        if (choice == Conflict::Cancel)
            return;
        if (choice == Conflict::Skip)
            continue;
        claimed.insert(name);
        const QString local = into.filePath(name);
        if (!isDir) {
            enqueueDownloads({{remote, local}});
            continue;
        }
        // A folder: one recursive listing, then its folders made here and its files queued.
        startListing(
            m_client, remote, {.recursive = true, .sudo = m_model->sudo()}, this,
            [this, remote, local](const QList<RemoteFileInfo> &files) {
                QDir().mkpath(local);
                QList<QPair<QString, QString>> pairs;
                const QString prefix = remote + QLatin1Char('/');
                for (const RemoteFileInfo &f : files) {
                    if (!f.path.startsWith(prefix))
                        continue;
                    const QString relative = f.path.mid(prefix.size());
                    const QString to = QDir(local).filePath(relative);
                    if (f.isDirectory)
                        QDir().mkpath(to);
                    else
                        pairs.append({f.path, to});
                }
                enqueueDownloads(pairs, false, m_model->sudo());
            },
            [this](const Status &s) { showError(s); });
    }
}

void FilesTab::enqueueDownloads(const QList<QPair<QString, QString>> &remoteToLocal, bool now,
                                bool sudo) {
    for (const auto &[remote, local] : remoteToLocal) {
        QDir().mkpath(QFileInfo(local).absolutePath());
        m_transfers->enqueueDownload(remote, local, now, sudo);
    }
}

QMimeData *FilesTab::dragData(const QModelIndexList &rows) {
    QModelIndexList names;
    QStringList localFiles;
    const QString dragFolder = RemoteDragData::makeDragFolder();
    QList<QPair<QString, QString>> pairs;
    for (const QModelIndex &row : rows) {
        const QModelIndex name = row.sibling(row.row(), RemoteFileModel::NameColumn);
        const QString path = name.data(RemoteFileModel::PathRole).toString();
        if (name.data(RemoteFileModel::IsDirectoryRole).toBool()) {
            showError(Status::error(
                Status::Kind::Validation,
                QStringLiteral("%1 is a folder: drag out files only, or use Download… for "
                               "folders.")
                    .arg(path)));
            QDir(dragFolder).removeRecursively();
            return nullptr;
        }
        const qint64 size = name.data(RemoteFileModel::SizeRole).toLongLong();
        if (size >= RemoteDragData::maxFileSize) {
            showError(Status::error(
                Status::Kind::Validation,
                QStringLiteral("%1 is %2: drags to the desktop carry files under %3. Use "
                               "Download… for larger files.")
                    .arg(path, QLocale().formattedDataSize(size),
                         QLocale().formattedDataSize(RemoteDragData::maxFileSize))));
            QDir(dragFolder).removeRecursively();
            return nullptr;
        }
        names << name;
        const QString local = QDir(dragFolder).filePath(path.section(QLatin1Char('/'), -1));
        localFiles << local;
        pairs.append({path, local});
    }
    if (names.isEmpty()) {
        QDir(dragFolder).removeRecursively();
        return nullptr;
    }
    auto *carried = new RemoteDragData(m_transfers, localFiles);
    // Proxy rows map to the model's, whose mimeData describes the remote items.
    QModelIndexList sourceRows;
    for (const QModelIndex &name : std::as_const(names))
        sourceRows << (name.model() == m_proxy ? m_proxy->mapToSource(name) : name);
    std::unique_ptr<QMimeData> remote(m_model->mimeData(sourceRows));
    if (remote)
        carried->setData(QString::fromLatin1(RemoteFileModel::mimeType),
                         remote->data(QString::fromLatin1(RemoteFileModel::mimeType)));
    // Fetching starts now, ahead of the queue, so that the files are there when the drop asks.
    enqueueDownloads(pairs, true);
    return carried;
}

void registerFilesTab(TabRegistry &registry) {
    registry.add({QStringLiteral("files"), QStringLiteral("Files"), 40,
                  [](const WorkspaceContext &ctx, QWidget *parent) -> QWidget * {
                      return new FilesTab(ctx.client, ctx.preferences, parent);
                  }});
}
