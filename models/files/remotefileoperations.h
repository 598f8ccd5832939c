#pragma once

#include "client/transport/status.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QStringList>

#include <functional>
#include <optional>

namespace sbx {

class ApiJob;
class RemoteCommandJob;
class RemoteFileModel;
class SandboxClient;
class TransferQueueModel;
struct RemoteFileInfo;

// What to upload where: the remote folders to make first and the files to queue into them.
struct UploadPlan {
    QStringList folders;
    QList<QPair<QString, QString>> files; // local path, remote path
};

// One remote row a drag to the desktop would carry.
struct DragItem {
    QString path;
    bool isDirectory = false;
    qint64 size = -1;
};

// What a drag carries once prepared: the local copies being fetched, or why it was refused.
struct DragOut {
    Status status;
    QStringList localFiles;
};

// The file operations of one sandbox, without a window: uploads, downloads, drags out, make
// folder, rename and delete, with name conflicts, sudo staging and "retry with sudo".
class RemoteFileOperations final : public QObject {
    Q_OBJECT
public:
    enum class Conflict { Overwrite, KeepBoth, Skip, Cancel };
    // Asked when an uploaded or downloaded name already exists; *applyToAll answers the rest.
    using ConflictResolver = std::function<Conflict(const QString &name, bool *applyToAll)>;
    // Files larger than this open in the viewer only after Download…
    static constexpr qint64 kMaxViewerSize = 16 * 1024 * 1024;
    // Drags carry small files only; larger ones go through Download…
    static constexpr qint64 kMaxDragSize = 64 * 1024 * 1024;

    explicit RemoteFileOperations(SandboxClient *client, QObject *parent = nullptr);

    RemoteFileModel *model() const { return m_model; }
    TransferQueueModel *transfers() const { return m_transfers; }
    void setConflictResolver(ConflictResolver resolver) { m_resolveConflict = std::move(resolver); }

    // Asks the sandbox for its home and workspace (and whether it has sudo), unless it is known
    // or being asked already.
    void loadContext();
    bool contextKnown() const { return m_contextKnown; }
    const QString &home() const { return m_home; }
    const QString &workspace() const { return m_workspace; }
    // Whether the sandbox can run a refused operation again as root.
    bool canSudo() const;
    // The one rule for offering "retry with sudo": a permission denial, where sudo exists, and
    // not already as root.
    static bool offersSudo(const Status &status, bool sudoAvailable, bool alreadySudo = false);

    // Shows the tree below path, as the sandbox user (sudo was granted for one folder only).
    void openFolder(const QString &path);
    // Lists a folder again if the model shows it.
    void refreshFolder(const QString &path);

    // Uploads local files and folders (recursively, structure kept) into a remote folder. The
    // folders are walked on a worker thread.
    void upload(const QStringList &localPaths, const QString &remoteFolder);
    // Downloads remote files and folders (recursively, structure kept) into a local folder;
    // of each item only path and isDirectory are used.
    void download(const QList<RemoteFileInfo> &items, const QString &localFolder);
    // Starts fetching what a drag to the desktop carries into a fresh local folder; refuses
    // (status not ok, nothing queued) folders and files of kMaxDragSize or more.
    DragOut prepareDrag(const QList<DragItem> &items);
    void createFolder(const QString &parentFolder, const QString &name);
    void rename(const QString &from, const QString &newName);
    void remove(const QStringList &paths);
    // Shows a failure found outside these operations (a refused drag, a file too large to view).
    void report(const Status &status) { fail(status); }
    // Why a file may not open in the viewer, or ok.
    static Status viewerRefusal(const QString &path, qint64 size);

    // The retry of the last failure, if it was offered; taking it runs it as root.
    bool sudoOffered() const { return bool(m_sudoRetry); }
    void retryWithSudo();

    // The walk of UploadPlan; pure file-system reads, run on a worker thread. items are local
    // paths with the remote names their conflicts were settled to.
    static UploadPlan planUpload(const QList<QPair<QString, QString>> &items,
                                 const QString &remoteFolder);

Q_SIGNALS:
    void contextLoaded(const QString &home, const QString &workspace);
    // A failure to show; sudoOffered() says whether retryWithSudo() would run it as root.
    void failed(const Status &status);
    // The last failure is no longer current (a new folder, a retry).
    void errorCleared();
    // An upload's files are all queued (or none were left after its conflicts); count of files.
    void uploadQueued(int files);
    // A download's files are all queued; count of files.
    void downloadQueued(int files);
    // A make folder, rename or delete has finished (success or failure).
    void operationFinished();

private:
    // Shows a failure; retry runs the operation as root if the rule offers it.
    void fail(const Status &status, std::function<void()> retry = {});
    // Runs a remote command made by make(), refreshing folder when it succeeds.
    void runCommand(std::function<RemoteCommandJob *()> make, const QString &folder,
                    bool sudo = false);
    // Settles one name against the taken ones: what to do, and the name to use.
    Conflict settleName(QString *name, bool isDir,
                        const std::function<bool(const QString &)> &taken,
                        std::optional<Conflict> *forAll);
    void startUpload(const QList<QPair<QString, QString>> &items, const QString &remoteFolder);
    void queuePlan(const UploadPlan &plan, const QString &remoteFolder);
    void retryUploadWithSudo(const QString &local, const QString &target);
    void onTransferFinished(int row, int state);
    void enqueueDownloads(const QList<QPair<QString, QString>> &remoteToLocal, bool now = false,
                          bool sudo = false);

    QPointer<SandboxClient> m_client;
    RemoteFileModel *m_model;
    TransferQueueModel *m_transfers;
    ConflictResolver m_resolveConflict;
    std::function<void()> m_sudoRetry;
    QString m_home;
    QString m_workspace;
    bool m_contextKnown = false;
    QPointer<ApiJob> m_contextJob;
    // Uploads staged in /tmp for a "retry with sudo", and where sudo moves each one.
    QHash<QString, QString> m_sudoMoves;
};

} // namespace sbx
