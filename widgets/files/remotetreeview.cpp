#include "widgets/files/remotetreeview.h"

#include "models/files/remotefilemodel.h"

#include <QDrag>
#include <QDragEnterEvent>
#include <QMimeData>

namespace sbx {

using namespace Qt::StringLiterals;

QString RemoteTreeView::dropFolderAt(const QPoint &pos) const {
    const QModelIndex at = indexAt(pos);
    if (!at.isValid())
        return static_cast<RemoteFileModel *>(model())->rootPath();
    if (at.data(RemoteFileModel::IsDirectoryRole).toBool())
        return at.data(RemoteFileModel::PathRole).toString();
    const QString path = at.data(RemoteFileModel::PathRole).toString();
    const QString folder = path.left(path.lastIndexOf(QLatin1Char('/')));
    return folder.isEmpty() ? u"/"_s : folder;
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

namespace {
// Local files from the desktop; not the tree's own remote items dragged back onto it.
bool carriesLocalFiles(const QMimeData *data) {
    return data->hasUrls() && !data->hasFormat(QString::fromLatin1(RemoteFileModel::kMimeType));
}
} // namespace

void RemoteTreeView::dragEnterEvent(QDragEnterEvent *event) {
    if (carriesLocalFiles(event->mimeData())) {
        event->acceptProposedAction();
        return;
    }
    QTreeView::dragEnterEvent(event);
}

void RemoteTreeView::dragMoveEvent(QDragMoveEvent *event) {
    if (!carriesLocalFiles(event->mimeData())) {
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
    if (!carriesLocalFiles(event->mimeData())) {
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

void RemoteTreeView::startDrag(Qt::DropActions supportedActions) {
    if (!m_dragData)
        return;
    const QModelIndexList rows = selectionModel()->selectedRows();
    QMimeData *carried = m_dragData(rows);
    if (!carried)
        return;
    auto *drag = new QDrag(this);
    drag->setMimeData(carried);
    drag->exec(supportedActions & Qt::CopyAction, Qt::CopyAction);
}

} // namespace sbx
