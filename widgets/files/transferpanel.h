#pragma once

#include <QWidget>

#include <functional>

class QLabel;
class QTreeView;

namespace sbx {

class TransferQueueModel;

// The Files tab's transfer queue: progress, rate, ETA and the reason of each failure, with
// cancel, retry, "show in folder" and clearing what is finished.
class TransferPanel final : public QWidget {
    Q_OBJECT
public:
    explicit TransferPanel(TransferQueueModel *model, QWidget *parent = nullptr);
    // Opens a local folder for "show in folder" (a file manager; tests record it instead).
    void setLocalFolderOpener(std::function<void(const QString &folder)> opener) {
        m_openLocal = std::move(opener);
    }
    QTreeView *view() const { return m_view; }
    // "Show in folder" for a row: a download's local folder, an upload's remote one.
    void showInFolder(int row);

Q_SIGNALS:
    // An upload's remote file, to be shown in the tree.
    void showRemote(const QString &remotePath);

private:
    void updateSummary();
    int currentRow() const;

    TransferQueueModel *m_model;
    QTreeView *m_view;
    QLabel *m_summary;
    std::function<void(const QString &)> m_openLocal;
};

} // namespace sbx
