#include "models/files/remotefilesortproxy.h"

#include "models/files/remotefilemodel.h"

#include <QDateTime>

namespace sbx {

void RemoteFileSortProxy::setSourceModel(QAbstractItemModel *model) {
    m_files = qobject_cast<RemoteFileModel *>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

bool RemoteFileSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const {
    if (!m_files) {
        // Another model: its roles and display text.
        const bool leftDir = left.data(RemoteFileModel::IsDirectoryRole).toBool();
        const bool rightDir = right.data(RemoteFileModel::IsDirectoryRole).toBool();
        if (leftDir != rightDir)
            return sortOrder() == Qt::AscendingOrder ? leftDir : rightDir;
        switch (left.column()) {
        case RemoteFileModel::SizeColumn:
            return left.data(RemoteFileModel::SizeRole).toLongLong() <
                   right.data(RemoteFileModel::SizeRole).toLongLong();
        case RemoteFileModel::ModifiedColumn:
            return left.data(RemoteFileModel::ModifiedRole).toDateTime() <
                   right.data(RemoteFileModel::ModifiedRole).toDateTime();
        default:
            return m_collator.compare(left.data().toString(), right.data().toString()) < 0;
        }
    }
    const RemoteFileInfo &a = m_files->fileInfo(left);
    const RemoteFileInfo &b = m_files->fileInfo(right);
    if (a.isDirectory != b.isDirectory)
        return sortOrder() == Qt::AscendingOrder ? a.isDirectory : b.isDirectory;
    switch (left.column()) {
    case RemoteFileModel::SizeColumn:
        return a.size < b.size;
    case RemoteFileModel::ModifiedColumn:
        return a.modified < b.modified;
    case RemoteFileModel::NameColumn: {
        // Both ranked: from the same listing, so their order is the collation's.
        const int leftRank = m_files->nameRank(left);
        const int rightRank = m_files->nameRank(right);
        if (leftRank >= 0 && rightRank >= 0)
            return leftRank < rightRank;
        return m_collator.compare(a.name, b.name) < 0;
    }
    default:
        return m_collator.compare(left.data().toString(), right.data().toString()) < 0;
    }
}

} // namespace sbx
