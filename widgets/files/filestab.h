#pragma once

#include "models/files/remotefileoperations.h"
#include "widgets/workspace/pendingwork.h"

#include "models/notifications/notificationcenter.h"
#include <QModelIndexList>

#include <QPointer>
#include <QUrl>
#include <QWidget>

#include <functional>

class QLineEdit;
class QMimeData;

namespace sbx {

class LogOpener;

class ErrorRow;
class FileViewer;
struct RemoteFileInfo;
class RemoteFileModel;
class RemoteTreeView;
class SandboxClient;
class TransferPanel;
class UserPrompts;
class TransferQueueModel;
class PreferencesHub;
class FileEventModel;
class FileEventsView;
class FileWatch;

// The Files tab of a sandbox workspace: a lazy remote tree with a path bar, uploads by drag and
// drop, downloads (files and folders), drags to the desktop, a text viewer, and the transfer queue.
// The operations themselves are RemoteFileOperations'; the tab lays out, asks and shows.
class FilesTab final : public QWidget, public PendingWorkSource, public SessionStateSource {
    Q_OBJECT
public:
    using Conflict = RemoteFileOperations::Conflict;
    using ConflictResolver = RemoteFileOperations::ConflictResolver;
    // Files larger than this open in the viewer only after Download…
    static constexpr qint64 kMaxViewerSize = RemoteFileOperations::kMaxViewerSize;

    explicit FilesTab(SandboxClient *client, PreferencesHub *preferences = nullptr,
                      QWidget *parent = nullptr);
    // Where its questions go (conflicts, delete, names); null: the dialogs.
    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }
    // Where "Open as log" opens a followed file; none: the entry is not offered.
    void setLogOpener(LogOpener *logs);
    // Where a finished batch of transfers is reported (a notification in the background).
    void setNotifications(NotificationCenter *notifications, const QString &sandboxId);
    // Follows the remote file as a log in the log window.
    void openAsLog(const QString &path);

    void setFolder(const QString &path);
    QString folder() const;
    // The folder shown, for session restore; restoring opens it at the first visit.
    QJsonObject sessionState() const override;
    void restoreSessionState(const QJsonObject &state) override;
    // Uploads local files and folders (recursively, structure kept) into a remote folder.
    void upload(const QList<QUrl> &urls, const QString &remoteFolder);
    // Downloads remote files and folders (recursively, structure kept) into a local folder;
    // of each item only path and isDirectory are used.
    void download(const QList<RemoteFileInfo> &items, const QString &localFolder);
    // What a drag of these rows to the desktop carries; null (with the reason shown) for folders
    // and files of 64 MiB or more, which go through Download…
    QMimeData *dragData(const QModelIndexList &rows);
    // Opens a remote text file in the viewer (read-only until Edit).
    FileViewer *openViewer(const QString &path);
    void createFolder(const QString &name);
    void rename(const QString &from, const QString &newName);
    void remove(const QStringList &paths);

    RemoteFileOperations *operations() const { return m_ops; }
    RemoteFileModel *model() const;
    TransferQueueModel *transfers() const;
    TransferPanel *transferPanel() const { return m_panel; }
    RemoteTreeView *view() const { return m_view; }
    FileEventsView *eventsView() const { return m_eventsView; }
    FileEventModel *events() const { return m_events; }
    // The watch of the folder shown, null before the first listing.
    FileWatch *watch() const;
    // Selects the file in the tree when its folder is listed there.
    bool reveal(const QString &path);
    // Transfers queued or running, which quitting would cancel.
    int pendingTransfers() const;
    // Open viewers with edits not saved, which quitting would lose.
    int unsavedViewers() const;
    PendingWork pendingWork() const override;
    // The error shown above the tree, empty when none.
    QString errorText() const;
    // Whether the error offers "Retry with sudo", and taking that offer.
    bool sudoOffered() const;
    void retryWithSudo();

Q_SIGNALS:
    // Every operation the tab started has finished (success or failure); for tests.
    void operationFinished();

protected:
    void showEvent(QShowEvent *event) override;

private:
    QString selectedPath() const;
    QStringList selectedPaths() const;
    void goUp();
    void newFolder();
    void renameSelected();
    void deleteSelected();
    void downloadSelected();
    void uploadChosen(const QString &remoteFolder);
    void openSelected(const QModelIndex &index);
    void showContextMenu(const QPoint &pos);
    Conflict askConflict(const QString &name, bool *applyToAll);
    UserPrompts *prompts() const;
    void watchRoot(const QString &root);
    void updateWatchState();

    QPointer<SandboxClient> m_client;
    LogOpener *m_logs = nullptr;
    RemoteFileOperations *m_ops;
    RemoteTreeView *m_view;
    TransferPanel *m_panel;
    QLineEdit *m_path;
    ErrorRow *m_errorRow;
    FileEventModel *m_events;
    FileEventsView *m_eventsView;
    QPointer<FileWatch> m_watch;
    UserPrompts *m_prompts = nullptr;
    QString m_restoreFolder; // the restored session's folder, opened at the first visit
    QPointer<NotificationCenter> m_notifications;
    int m_batchFinished = 0;
    int m_batchFailed = 0;
};

class TabRegistry;
// Registers the Files tab of each sandbox workspace.
void registerFilesTab(TabRegistry &registry);

} // namespace sbx
