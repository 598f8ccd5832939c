#pragma once

#include <QSortFilterProxyModel>

namespace sbx {

// The order of a file manager over RemoteFileModel: folders first, then the column's own order
// (locale-aware names, sizes and dates by value).
class RemoteFileSortProxy final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};

} // namespace sbx
