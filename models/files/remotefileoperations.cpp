#include "models/files/remotefileoperations.h"

#include "client/api/filejobs.h"
#include "client/api/remotecommand.h"
#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "models/files/remotefilemodel.h"
#include "models/files/transferqueuemodel.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QSet>
#include <QStandardPaths>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

const QString kUploadStaging = u"/tmp/.sandbox-console-upload-"_s;

QString joinPath(const QString &folder, const QString &name) {
    return folder.endsWith(u'/') ? QString(folder + name) : QString(folder + u'/' + name);
}

QString parentOf(const QString &path) {
    const QString up = path.left(path.lastIndexOf(u'/'));
    return up.isEmpty() ? u"/"_s : up;
}

// "name (2).ext": the first free name for "keep both".
QString freeName(const QString &name, bool isDir,
                 const std::function<bool(const QString &)> &taken) {
    const QFileInfo info(name);
    const QString base = isDir ? name : info.completeBaseName();
    const QString suffix =
        isDir || info.suffix().isEmpty() ? QString() : QString(u'.' + info.suffix());
    QString out = name;
    for (int n = 2; taken(out); ++n)
        out = u"%1 (%2)%3"_s.arg(base).arg(n).arg(suffix);
    return out;
}

// A new folder for one drag's local copies; folders of old drags are removed.
QString makeDragFolder() {
    const QString base =
        QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + u"/drag-out"_s;
    // A drop target copies the file when it is dropped; a day later nobody needs the copy.
    const QDateTime dayAgo = QDateTime::currentDateTime().addDays(-1);
    const QFileInfoList old = QDir(base).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QFileInfo &folder : old) {
        if (folder.lastModified() < dayAgo)
            QDir(folder.absoluteFilePath()).removeRecursively();
    }
    const QString folder = base + u'/' + QUuid::createUuid().toString(QUuid::WithoutBraces);
    QDir().mkpath(folder);
    return folder;
}

} // namespace

RemoteFileOperations::RemoteFileOperations(SandboxClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_model(new RemoteFileModel(client, this))
    , m_transfers(new TransferQueueModel(client, this)) {
    connect(m_model, &RemoteFileModel::listingFailed, this,
            [this](const QString &path, const Status &status) {
                // Refused as root too: nothing more to offer.
                if (m_model->sudo()) {
                    fail(status);
                    return;
                }
                fail(status, [this, path] {
                    m_model->setSudo(true);
                    refreshFolder(path);
                });
            });
    connect(
        m_transfers, &TransferQueueModel::transferFinished, this,
        [this](int row, TransferQueueModel::State state) { onTransferFinished(row, int(state)); });
}

void RemoteFileOperations::loadContext() {
    if (!m_client || m_contextKnown || m_contextJob)
        return;
    auto *job = new GetContextJob(m_client);
    m_contextJob = job;
    connect(job, &GetContextJob::succeeded, this, [this](const SandboxContext &c) {
        m_home = c.homeDir;
        m_workspace = c.workspace.isEmpty() ? c.homeDir : c.workspace;
        m_contextKnown = true;
        Q_EMIT contextLoaded(m_home, m_workspace);
    });
    connect(job, &ApiJob::failed, this, [this](const Status &s) { fail(s); });
    job->start();
}

bool RemoteFileOperations::canSudo() const {
    // The extensions are known only once the context was read.
    return m_contextKnown && m_client && sudoAvailable(m_client->extensions());
}

bool RemoteFileOperations::offersSudo(const Status &status, bool sudoAvailable, bool alreadySudo) {
    return status.errorType == u"permission_denied"_s && sudoAvailable && !alreadySudo;
}

void RemoteFileOperations::openFolder(const QString &path) {
    if (path.isEmpty())
        return;
    m_sudoRetry = {};
    Q_EMIT errorCleared();
    m_model->setSudo(false); // sudo was granted for the folder that refused, not for every one
    m_model->setRootPath(path);
}

void RemoteFileOperations::refreshFolder(const QString &path) {
    if (path == m_model->rootPath()) {
        m_model->refresh();
        return;
    }
    const QModelIndex at = m_model->indexForPath(path);
    if (at.isValid())
        m_model->refresh(at);
}

void RemoteFileOperations::fail(const Status &status, std::function<void()> retry) {
    const bool offer = retry && offersSudo(status, canSudo());
    m_sudoRetry = offer ? std::move(retry) : std::function<void()>();
    Q_EMIT failed(status);
}

void RemoteFileOperations::retryWithSudo() {
    Q_EMIT errorCleared();
    if (auto retry = std::exchange(m_sudoRetry, {}))
        retry();
}

Status RemoteFileOperations::viewerRefusal(const QString &path, qint64 size) {
    if (size <= kMaxViewerSize)
        return Status::success();
    return Status::error(Status::Kind::Validation,
                         tr("%1 is %2: the viewer opens files up to %3. Use Download… instead.")
                             .arg(path, QLocale().formattedDataSize(size),
                                  QLocale().formattedDataSize(kMaxViewerSize)));
}

void RemoteFileOperations::runCommand(std::function<RemoteCommandJob *()> make,
                                      const QString &folder, bool sudo) {
    RemoteCommandJob *job = make();
    job->setSudo(sudo);
    connect(job, &RemoteCommandJob::succeeded, this, [this, folder] { refreshFolder(folder); });
    connect(job, &RemoteCommandJob::failed, this, [this, make, folder, sudo](const Status &s) {
        if (sudo)
            fail(s);
        else
            fail(s, [this, make, folder] { runCommand(make, folder, true); });
    });
    connect(job, &RemoteCommandJob::finished, this, &RemoteFileOperations::operationFinished);
    job->start();
}

void RemoteFileOperations::createFolder(const QString &parentFolder, const QString &name) {
    const QString target = joinPath(parentFolder, name);
    runCommand([this, target] { return RemoteCommandJob::makeDirectory(m_client, target); },
               parentFolder);
}

void RemoteFileOperations::rename(const QString &from, const QString &newName) {
    const QString parentFolder = parentOf(from);
    const QString to = joinPath(parentFolder, newName);
    runCommand([this, from, to] { return RemoteCommandJob::rename(m_client, from, to); },
               parentFolder);
}

void RemoteFileOperations::remove(const QStringList &paths) {
    runCommand([this, paths] { return RemoteCommandJob::remove(m_client, paths); },
               parentOf(paths.value(0)));
}

RemoteFileOperations::Conflict
RemoteFileOperations::settleName(QString *name, bool isDir,
                                 const std::function<bool(const QString &)> &taken,
                                 std::optional<Conflict> *forAll) {
    if (!taken(*name))
        return Conflict::Overwrite; // nothing to settle: the name is free
    bool applyToAll = false;
    Conflict choice = Conflict::Cancel; // nobody to ask: touch nothing
    if (*forAll)
        choice = **forAll;
    else if (m_resolveConflict)
        choice = m_resolveConflict(*name, &applyToAll);
    if (applyToAll)
        *forAll = choice;
    if (choice == Conflict::KeepBoth)
        *name = freeName(*name, isDir, taken);
    return choice;
}

void RemoteFileOperations::upload(const QStringList &localPaths, const QString &remoteFolder) {
    // Names that exist already are settled first: overwrite, keep both (renamed), or skip.
    auto *list = new ListFilesJob(m_client, remoteFolder);
    connect(list, &ListFilesJob::succeeded, this,
            [this, localPaths, remoteFolder](const QList<RemoteFileInfo> &existing) {
                QSet<QString> names;
                for (const RemoteFileInfo &f : existing)
                    names.insert(f.name);
                const auto taken = [&names](const QString &n) {
                    return names.contains(n);
                };
                QList<QPair<QString, QString>> items;
                std::optional<Conflict> forAll;
                for (const QString &path : localPaths) {
                    const QFileInfo info(path);
                    QString name = info.fileName();
                    const Conflict choice = settleName(&name, info.isDir(), taken, &forAll);
                    if (choice == Conflict::Cancel) {
                        Q_EMIT uploadQueued(0);
                        return;
                    }
                    if (choice == Conflict::Skip)
                        continue;
                    names.insert(name);
                    items.append({info.absoluteFilePath(), name});
                }
                startUpload(items, remoteFolder);
            });
    connect(list, &ApiJob::failed, this, [this](const Status &s) { fail(s); });
    list->start();
}

UploadPlan RemoteFileOperations::planUpload(const QList<QPair<QString, QString>> &items,
                                            const QString &remoteFolder) {
    UploadPlan plan;
    for (const auto &[localPath, name] : items) {
        const QFileInfo info(localPath);
        const QString target = joinPath(remoteFolder, name);
        if (!info.isDir()) {
            plan.files.append({info.absoluteFilePath(), target});
            continue;
        }
        plan.folders << target;
        const QDir root(info.absoluteFilePath());
        QDirIterator it(info.absoluteFilePath(),
                        QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QFileInfo entry(it.next());
            const QString remote =
                joinPath(target, root.relativeFilePath(entry.absoluteFilePath()));
            if (entry.isDir())
                plan.folders << remote;
            else
                plan.files.append({entry.absoluteFilePath(), remote});
        }
    }
    return plan;
}

void RemoteFileOperations::startUpload(const QList<QPair<QString, QString>> &items,
                                       const QString &remoteFolder) {
    // A dropped folder may hold a million files: the GUI thread never walks it.
    auto *watcher = new QFutureWatcher<UploadPlan>(this);
    connect(watcher, &QFutureWatcher<UploadPlan>::finished, this, [this, watcher, remoteFolder] {
        watcher->deleteLater();
        queuePlan(watcher->result(), remoteFolder);
    });
    watcher->setFuture(
        QtConcurrent::run([items, remoteFolder] { return planUpload(items, remoteFolder); }));
}

void RemoteFileOperations::queuePlan(const UploadPlan &plan, const QString &remoteFolder) {
    // Folders keep their structure: every remote folder is made first (one command), then the
    // files are queued into it.
    auto enqueueFiles = [this, files = plan.files] {
        for (const auto &[local, remote] : files)
            m_transfers->enqueueUpload(local, remote);
        Q_EMIT uploadQueued(int(files.size()));
    };
    if (plan.folders.isEmpty()) {
        enqueueFiles();
        return;
    }
    QStringList quoted;
    for (const QString &f : plan.folders)
        quoted << shellQuote(f);
    auto *mkdir = new RemoteCommandJob(m_client, u"mkdir -p -- "_s + quoted.join(u' '),
                                       tr("create the folders for the upload"));
    connect(mkdir, &RemoteCommandJob::succeeded, this, [this, enqueueFiles, remoteFolder] {
        refreshFolder(remoteFolder);
        enqueueFiles();
    });
    connect(mkdir, &RemoteCommandJob::failed, this, [this](const Status &s) { fail(s); });
    mkdir->start();
}

void RemoteFileOperations::retryUploadWithSudo(const QString &local, const QString &target) {
    // AIO's upload has no sudo: the file goes to /tmp as the sandbox user, then sudo moves it.
    const QString staging = kUploadStaging + QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_sudoMoves.insert(staging, target);
    m_transfers->enqueueUpload(local, staging);
}

void RemoteFileOperations::onTransferFinished(int row, int stateValue) {
    const auto state = TransferQueueModel::State(stateValue);
    const QModelIndex at = m_transfers->index(row, 0);
    const QString remote = at.data(TransferQueueModel::RemotePathRole).toString();
    const bool upload = at.data(TransferQueueModel::DirectionRole).toInt() ==
                        int(TransferQueueModel::Direction::Upload);
    if (state == TransferQueueModel::State::Done && upload) {
        if (!m_sudoMoves.contains(remote)) {
            refreshFolder(parentOf(remote));
            return;
        }
        const QString target = m_sudoMoves.take(remote);
        runCommand(
            [this, remote, target] {
                return new RemoteCommandJob(
                    m_client, u"mv -f -- %1 %2"_s.arg(shellQuote(remote), shellQuote(target)),
                    tr("move the upload into %1").arg(target));
            },
            parentOf(target), true);
        return;
    }
    if (state != TransferQueueModel::State::Failed)
        return;
    Status status = Status::error(Status::Kind::Server, m_transfers->error(row));
    status.errorType = at.data(TransferQueueModel::ErrorTypeRole).toString();
    const QString local = at.data(TransferQueueModel::LocalPathRole).toString();
    std::function<void()> retry;
    if (at.data(TransferQueueModel::FetchRole).toBool())
        retry = [this, local] {
            // By its file, not its row: rows move as finished transfers are cleared.
            for (int r = 0; r < m_transfers->rowCount(); ++r) {
                const QModelIndex i = m_transfers->index(r, 0);
                if (i.data(TransferQueueModel::LocalPathRole).toString() == local &&
                    m_transfers->state(r) == TransferQueueModel::State::Failed)
                    m_transfers->retry(r);
            }
        };
    else if (upload)
        retry = [this, local, remote] {
            retryUploadWithSudo(local, remote);
        };
    else if (!at.data(TransferQueueModel::SudoRole).toBool())
        retry = [this, local, remote] {
            enqueueDownloads({{remote, local}}, false, true);
        };
    fail(status, retry);
}

void RemoteFileOperations::download(const QList<RemoteFileInfo> &items,
                                    const QString &localFolder) {
    // Local names that exist are settled like uploads: overwrite, keep both or skip.
    std::optional<Conflict> forAll;
    const QDir into(localFolder);
    QSet<QString> claimed; // names given to earlier items of this batch
    const auto taken = [&into, &claimed](const QString &n) {
        return claimed.contains(n) || into.exists(n);
    };
    int files = 0;
    for (const RemoteFileInfo &item : items) {
        const QString &remote = item.path;
        QString name = remote.section(u'/', -1);
        const Conflict choice = settleName(&name, item.isDirectory, taken, &forAll);
        if (choice == Conflict::Cancel)
            break;
        if (choice == Conflict::Skip)
            continue;
        claimed.insert(name);
        const QString local = into.filePath(name);
        if (!item.isDirectory) {
            enqueueDownloads({{remote, local}});
            ++files;
            continue;
        }
        // A folder: one recursive listing, then its folders made here and its files queued.
        const bool sudo = m_model->sudo();
        startListing(
            m_client, remote, {.recursive = true, .sudo = sudo}, this,
            [this, remote, local, sudo](const QList<RemoteFileInfo> &listed) {
                QDir().mkpath(local);
                QList<QPair<QString, QString>> pairs;
                const QString prefix = remote + u'/';
                for (const RemoteFileInfo &f : listed) {
                    if (!f.path.startsWith(prefix))
                        continue;
                    const QString to = QDir(local).filePath(f.path.mid(prefix.size()));
                    if (f.isDirectory)
                        QDir().mkpath(to);
                    else
                        pairs.append({f.path, to});
                }
                enqueueDownloads(pairs, false, sudo);
                Q_EMIT downloadQueued(int(pairs.size()));
            },
            [this](const Status &s) { fail(s); });
    }
    if (files > 0)
        Q_EMIT downloadQueued(files);
}

void RemoteFileOperations::enqueueDownloads(const QList<QPair<QString, QString>> &remoteToLocal,
                                            bool now, bool sudo) {
    for (const auto &[remote, local] : remoteToLocal) {
        QDir().mkpath(QFileInfo(local).absolutePath());
        m_transfers->enqueueDownload(remote, local, now, sudo);
    }
}

DragOut RemoteFileOperations::prepareDrag(const QList<DragItem> &items) {
    DragOut out;
    for (const DragItem &item : items) {
        if (item.isDirectory) {
            out.status = Status::error(
                Status::Kind::Validation,
                tr("%1 is a folder: drag out files only, or use Download… for folders.")
                    .arg(item.path));
            return out;
        }
        if (item.size >= kMaxDragSize) {
            out.status = Status::error(Status::Kind::Validation,
                                       tr("%1 is %2: drags to the desktop carry files under %3. "
                                          "Use Download… for larger files.")
                                           .arg(item.path, QLocale().formattedDataSize(item.size),
                                                QLocale().formattedDataSize(kMaxDragSize)));
            return out;
        }
    }
    if (items.isEmpty())
        return out;
    const QDir folder(makeDragFolder());
    QList<QPair<QString, QString>> pairs;
    for (const DragItem &item : items) {
        const QString local = folder.filePath(item.path.section(u'/', -1));
        out.localFiles << local;
        pairs.append({item.path, local});
    }
    // Fetching starts now, ahead of the queue, so that the files are there when the drop asks.
    enqueueDownloads(pairs, true);
    return out;
}

} // namespace sbx
