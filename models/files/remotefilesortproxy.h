#pragma once

#include <QCollator>
#include <QPointer>
#include <QSortFilterProxyModel>

namespace sbx {

class RemoteFileModel;

// The order of a file manager over RemoteFileModel: folders first, then the column's own order
// (locale-aware names, sizes and dates by value). Over a RemoteFileModel, rows are read without
// QVariants and names compared by the ranks the model computed with the listing: sorting
// 100 000 rows is then integer comparisons.
class RemoteFileSortProxy final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setSourceModel(QAbstractItemModel *model) override;

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QPointer<RemoteFileModel> m_files;
    QCollator m_collator; // the default locale's, as the model's ranks
};

} // namespace sbx
