#include "models/files/remotefilesortproxy.h"

#include "models/files/remotefilemodel.h"

#include <QDateTime>

namespace sbx {

bool RemoteFileSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const {
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
        return QString::localeAwareCompare(left.data().toString(), right.data().toString()) < 0;
    }
}

} // namespace sbx
