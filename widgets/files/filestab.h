#pragma once

#include <QPointer>
#include <QTreeView>
#include <QUrl>
#include <QWidget>

#include <functional>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class RemoteFileModel;
class SandboxClient;
class TransferQueueModel;
class PreferencesHub;

// The file tree of the Files tab: accepts local files and folders dropped from the desktop and
// highlights the folder they would land in.
class RemoteTreeView final : public QTreeView {
    Q_OBJECT
public:
    using QTreeView::QTreeView;
    // The remote folder a drop at pos lands in: the folder under the cursor, or the one holding
    // the file under it, or the root.
    QString dropFolderAt(const QPoint &pos) const;

Q_SIGNALS:
    void localFilesDropped(const QList<QUrl> &urls, const QString &folder);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dragLeaveEvent(QDragLeaveEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void highlight(const QModelIndex &index);
    QPersistentModelIndex m_highlighted;
};

// The Files tab of a sandbox workspace: a lazy remote tree with a path bar, uploads by drag and
// drop, downloads, and the transfer queue.
class FilesTab final : public QWidget {
    Q_OBJECT
public:
    enum class Conflict { Overwrite, KeepBoth, Skip, Cancel };
    // Asked when an uploaded name already exists; *applyToAll answers the rest the same way.
    using ConflictResolver = std::function<Conflict(const QString &name, bool *applyToAll)>;

    explicit FilesTab(SandboxClient *client, PreferencesHub *preferences = nullptr,
                      QWidget *parent = nullptr);
    // Replaces the question shown on name conflicts (tests answer it themselves).
    void setConflictResolver(ConflictResolver resolver) { m_resolveConflict = std::move(resolver); }

    void setFolder(const QString &path);
    QString folder() const;
    // Uploads local files and folders (recursively, structure kept) into a remote folder.
    void upload(const QList<QUrl> &urls, const QString &remoteFolder);
    RemoteFileModel *model() const { return m_model; }
    TransferQueueModel *transfers() const { return m_transfers; }
    RemoteTreeView *view() const { return m_view; }
    // Transfers queued or running, which quitting would cancel.
    int pendingTransfers() const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    QString selectedPath() const;
    void goUp();
    void newFolder();
    void renameSelected();
    void deleteSelected();
    void downloadSelected();
    void showError(const QString &message);
    // Uploads local items under the given remote names (conflicts already settled).
    void startUpload(const QList<QPair<QString, QString>> &items, const QString &remoteFolder);
    Conflict askConflict(const QString &name, bool *applyToAll);
    void refreshFolder(const QString &path);

    QPointer<SandboxClient> m_client;
    RemoteFileModel *m_model;
    QSortFilterProxyModel *m_proxy;
    TransferQueueModel *m_transfers;
    RemoteTreeView *m_view;
    QLineEdit *m_path;
    QLabel *m_error;
    QString m_home;
    QString m_workspace;
    bool m_started = false;
    ConflictResolver m_resolveConflict;
};

class TabRegistry;
// Registers the Files tab of each sandbox workspace.
void registerFilesTab(TabRegistry &registry);
