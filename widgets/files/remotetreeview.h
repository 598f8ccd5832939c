#pragma once

#include <QTreeView>
#include <QUrl>

#include <functional>

class QMimeData;

namespace sbx {

// The file tree of the Files tab: accepts local files and folders dropped from the desktop,
// highlights the folder they would land in, and drags remote files out to the desktop.
class RemoteTreeView final : public QTreeView {
    Q_OBJECT
public:
    // Builds what a drag of the selected rows carries; null refuses the drag.
    using DragDataFactory = std::function<QMimeData *(const QModelIndexList &rows)>;

    using QTreeView::QTreeView;
    void setDragDataFactory(DragDataFactory factory) { m_dragData = std::move(factory); }
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
    void startDrag(Qt::DropActions supportedActions) override;

private:
    void highlight(const QModelIndex &index);
    QPersistentModelIndex m_highlighted;
    DragDataFactory m_dragData;
};

} // namespace sbx
