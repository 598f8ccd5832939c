#pragma once

#include "client/transport/status.h"

#include <QHash>
#include <QModelIndexList>
#include <QPointer>
#include <QUrl>
#include <QWidget>

#include <functional>
#include <optional>

class ErrorRow;
class FileViewer;
struct RemoteFileInfo;
class QLineEdit;
class QMimeData;
class QSortFilterProxyModel;
class RemoteCommandJob;
class RemoteFileModel;
class RemoteTreeView;
class SandboxClient;
class TransferPanel;
class TransferQueueModel;
class PreferencesHub;

// The Files tab of a sandbox workspace: a lazy remote tree with a path bar, uploads by drag and
// drop, downloads (files and folders), drags to the desktop, a text viewer, and the transfer queue.
class FilesTab final : public QWidget {
    Q_OBJECT
public:
    enum class Conflict { Overwrite, KeepBoth, Skip, Cancel };
    // Asked when an uploaded or downloaded name already exists; *applyToAll answers the rest.
    using ConflictResolver = std::function<Conflict(const QString &name, bool *applyToAll)>;
    // Files larger than this open in the viewer only after Download…
    static constexpr qint64 maxViewerSize = 16 * 1024 * 1024;

    explicit FilesTab(SandboxClient *client, PreferencesHub *preferences = nullptr,
                      QWidget *parent = nullptr);
    // Replaces the question shown on name conflicts (tests answer it themselves).
    void setConflictResolver(ConflictResolver resolver) { m_resolveConflict = std::move(resolver); }
    // Replaces the delete confirmation (tests answer it themselves).
    void setConfirmer(std::function<bool(const QString &question)> confirm) {
        m_confirm = std::move(confirm);
    }

    void setFolder(const QString &path);
    QString folder() const;
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

    RemoteFileModel *model() const { return m_model; }
    TransferQueueModel *transfers() const { return m_transfers; }
    TransferPanel *transferPanel() const { return m_panel; }
    RemoteTreeView *view() const { return m_view; }
    // Transfers queued or running, which quitting would cancel.
    int pendingTransfers() const;
    // Open viewers with edits not saved, which quitting would lose.
    int unsavedViewers() const;
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
    void openSelected(const QModelIndex &index);
    void showContextMenu(const QPoint &pos);
    // Shows a failure; a permission denial offers retryWithSudo where the sandbox has sudo.
    void showError(const Status &status, std::function<void()> retryWithSudo = {});
    bool canSudo() const;
    // Runs a remote command made by make(sudo), refreshing folder when it succeeds.
    void runCommand(std::function<RemoteCommandJob *(bool sudo)> make, const QString &folder,
                    bool sudo = false);
    // Uploads local items under the given remote names (conflicts already settled).
    void startUpload(const QList<QPair<QString, QString>> &items, const QString &remoteFolder);
    // Settles one name against the taken ones; empty means skip, nullopt-like Cancel stops all.
    Conflict settleName(QString *name, bool isDir,
                        const std::function<bool(const QString &)> &taken,
                        std::optional<Conflict> *forAll);
    Conflict askConflict(const QString &name, bool *applyToAll);
    void refreshFolder(const QString &path);
    void retryUploadWithSudo(const QString &local, const QString &target);
    // sudo: as root, for files the sandbox user may not read (staged through /tmp).
    void enqueueDownloads(const QList<QPair<QString, QString>> &remoteToLocal, bool now = false,
                          bool sudo = false);

    QPointer<SandboxClient> m_client;
    RemoteFileModel *m_model;
    QSortFilterProxyModel *m_proxy;
    TransferQueueModel *m_transfers;
    RemoteTreeView *m_view;
    TransferPanel *m_panel;
    QLineEdit *m_path;
    ErrorRow *m_errorRow;
    std::function<void()> m_sudoRetry;
    QString m_home;
    QString m_workspace;
    bool m_started = false;
    bool m_contextKnown = false;
    ConflictResolver m_resolveConflict;
    std::function<bool(const QString &)> m_confirm;
    // Uploads staged in /tmp for a "retry with sudo", and where sudo moves each one.
    QHash<QString, QString> m_sudoMoves;
};

class TabRegistry;
// Registers the Files tab of each sandbox workspace.
void registerFilesTab(TabRegistry &registry);
