// RemoteFileModel's order: folders first, then the header's column; rows placed, moved and
// sorted so that no sorting proxy is needed.
#include "models/files/remotefilemodel.h"
#include "models/files/remotefilenode.h"

#include <algorithm>

namespace sbx {

bool RemoteFileModel::less(const Node &a, const Node &b, SortKey key, const QCollator &collator) {
    if (a.info.isDirectory != b.info.isDirectory)
        return a.info.isDirectory; // folders first, in either order
    const auto byName = [&] {
        // Ranks from one listing follow the collation; a row from a file change has none.
        if (a.rank >= 0 && b.rank >= 0)
            return a.rank < b.rank ? -1 : (a.rank > b.rank ? 1 : 0);
        return collator.compare(a.info.name, b.info.name);
    };
    const auto cmp = [](const auto &x, const auto &y) {
        return x < y ? -1 : (y < x ? 1 : 0);
    };
    int c = 0;
    switch (key.column) {
    case SizeColumn:
        c = cmp(a.info.size, b.info.size);
        break;
    case ModifiedColumn:
        c = cmp(a.info.modified, b.info.modified);
        break;
    case PermissionsColumn:
        c = a.info.permissions.compare(b.info.permissions);
        break;
    default:
        c = byName();
        break;
    }
    if (key.order == Qt::DescendingOrder)
        c = -c;
    if (c == 0 && key.column != NameColumn)
        c = byName();
    return c < 0;
}

int RemoteFileModel::rowFor(Node *folder, const Node &node) const {
    const auto &children = folder->children;
    const auto at = std::upper_bound(
        children.begin(), children.end(), node,
        [this](const Node &n, const auto &child) { return less(n, *child, m_sort, m_collator); });
    return static_cast<int>(at - children.begin());
}

void RemoteFileModel::place(Node *node) {
    Node *folder = node->parent;
    auto &children = folder->children;
    const int row = node->row;
    const int count = static_cast<int>(children.size());
    const auto lessThan = [this](const Node &a, const Node &b) {
        return less(a, b, m_sort, m_collator);
    };
    if ((row == 0 || !lessThan(*node, *children[static_cast<std::size_t>(row - 1)])) &&
        (row + 1 == count || !lessThan(*children[static_cast<std::size_t>(row + 1)], *node)))
        return; // still in order
    // Its place among the others (their numbers as if it were gone), by bisection.
    const auto other = [&](int i) -> const Node & {
        return *children[static_cast<std::size_t>(i < row ? i : i + 1)];
    };
    int lo = 0;
    int hi = count - 1;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (lessThan(*node, other(mid)))
            hi = mid;
        else
            lo = mid + 1;
    }
    const QModelIndex parentIndex = indexOf(folder);
    if (!beginMoveRows(parentIndex, row, row, parentIndex, lo > row ? lo + 1 : lo))
        return;
    std::unique_ptr<Node> moved = std::move(children[static_cast<std::size_t>(row)]);
    children.erase(children.begin() + row);
    children.insert(children.begin() + lo, std::move(moved));
    for (int i = std::min(row, lo); i <= std::max(row, lo); ++i)
        children[static_cast<std::size_t>(i)]->row = i;
    endMoveRows();
}

void RemoteFileModel::sortRows(Node *folder, bool deep) {
    auto &children = folder->children;
    std::stable_sort(children.begin(), children.end(), rowLess());
    for (std::size_t i = 0; i < children.size(); ++i)
        children[i]->row = static_cast<int>(i);
    if (!deep)
        return;
    for (const auto &child : children) {
        if (child->info.isDirectory && !child->children.empty())
            sortRows(child.get(), true);
    }
}

void RemoteFileModel::followNodes() {
    const QModelIndexList from = persistentIndexList();
    QModelIndexList to;
    to.reserve(from.size());
    for (const QModelIndex &index : from) {
        Node *node = nodeOf(index);
        to.append(createIndex(node->row, index.column(), node));
    }
    changePersistentIndexList(from, to);
}

void RemoteFileModel::resort(Node *folder) {
    const auto &children = folder->children;
    bool sorted = true;
    for (std::size_t i = 1; sorted && i < children.size(); ++i) {
        if (i + kPrefetchRows < children.size())
            prefetchNode(*children[i + kPrefetchRows]);
        sorted = !less(*children[i], *children[i - 1], m_sort, m_collator);
    }
    if (sorted)
        return;
    const QList<QPersistentModelIndex> parents =
        folder == m_root.get() ? QList<QPersistentModelIndex>()
                               : QList{QPersistentModelIndex(indexOf(folder))};
    Q_EMIT layoutAboutToBeChanged(parents, VerticalSortHint);
    sortRows(folder, false);
    followNodes();
    Q_EMIT layoutChanged(parents, VerticalSortHint);
}

void RemoteFileModel::flushPending(Node *node) {
    if (!node->pending.empty())
        insertPending(node, true);
    for (const auto &child : node->children) {
        if (child->info.isDirectory)
            flushPending(child.get());
    }
}

void RemoteFileModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= ColumnCount || (column == m_sort.column && order == m_sort.order))
        return; // the rows are kept in order: nothing to do
    m_sort = {column, order};
    // Rows still waiting to be inserted are inserted first: the order is the whole folder's.
    flushPending(m_root.get());
    Q_EMIT layoutAboutToBeChanged({}, VerticalSortHint);
    sortRows(m_root.get(), true);
    followNodes();
    Q_EMIT layoutChanged({}, VerticalSortHint);
}

} // namespace sbx
