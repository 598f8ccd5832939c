#pragma once

#include "client/api/filejobs.h"
#include "client/api/filewatch.h"
#include "models/files/nameindex.h"

#include <QAbstractItemModel>
#include <QCollator>
#include <QHash>
#include <QPointer>

#include <memory>
#include <vector>

namespace sbx {

class SandboxClient;

// A sandbox's file tree, listed lazily as in KDE's KDirModel: an unlisted folder has children,
// fetchMore() lists it once; a large listing's rows are built (and a refresh matched) on a
// worker and inserted 20 000 a turn of the event loop, so that a huge folder never blocks the
// GUI. Each folder finds its children by name in a hash. The model keeps its rows in the view's
// sort order itself (folders first), so that no sorting proxy re-sorts 100 000 rows per chunk.
class RemoteFileModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, SizeColumn, ModifiedColumn, PermissionsColumn, ColumnCount };
    enum Role { PathRole = Qt::UserRole + 1, IsDirectoryRole, SizeRole, ModifiedRole };
    static constexpr auto kMimeType = "application/x-sandbox-console-remote-files";

    explicit RemoteFileModel(SandboxClient *client, QObject *parent = nullptr);
    ~RemoteFileModel() override;

    // Shows the tree below path (the model's invisible root) and lists it.
    void setRootPath(const QString &path);
    QString rootPath() const;
    QString pathOf(const QModelIndex &index) const;
    bool isDirectory(const QModelIndex &index) const;
    // The index of a path already in the model, or invalid.
    QModelIndex indexForPath(const QString &path) const;
    // Lists a folder again, keeping the rows (and so expansion and selection) of what stayed.
    void refresh(const QModelIndex &folder = {});
    // Changes the sandbox reported (file watch), applied where their folder is listed: rows
    // appear, update (a growing file's size), go and move without a listing. A folder whose
    // listing is on its way lists again once it ends, so nothing between is missed.
    void applyChanges(const QList<FileChange> &changes);
    // Lists every listed folder again (after the watch lost events).
    void refreshListed();
    // True while a folder's listing or its batches are still arriving.
    bool isLoading() const;
    // Lists as root from now on (after the user chose "retry with sudo"): through exec, since
    // AIO's list has no `sudo`.
    void setSudo(bool sudo) { m_sudo = sudo; }
    bool sudo() const { return m_sudo; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    // Orders every listed folder: folders first, then the column's own order (locale-aware
    // names, sizes and dates by value), names breaking ties. Rows that arrive later take their
    // place in it.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sort.column; }
    Qt::SortOrder sortOrder() const { return m_sort.order; }
    QStringList mimeTypes() const override;
    QMimeData *mimeData(const QModelIndexList &indexes) const override;
    Qt::DropActions supportedDropActions() const override { return Qt::CopyAction; }
    Qt::DropActions supportedDragActions() const override { return Qt::CopyAction; }

Q_SIGNALS:
    void folderListed(const QString &path);
    void listingFailed(const QString &path, const Status &status);

private:
    struct Node;
    struct Built;
    struct Growing;
    struct Facts;
    struct SortKey {
        int column = NameColumn;
        Qt::SortOrder order = Qt::AscendingOrder;
        bool operator==(const SortKey &) const = default;
    };
    // Whether a goes above b among siblings; compares names by their ranks where both have one.
    static bool less(const Node &a, const Node &b, SortKey key, const QCollator &collator);
    // less() in the model's current order, over the children's pointers.
    auto rowLess() const {
        return [this](const auto &a, const auto &b) {
            return less(*a, *b, m_sort, m_collator);
        };
    }
    // Sorts folder's rows (and, if deep, those of every listed folder below), without
    // announcing it: the caller wraps it in a layout change.
    void sortRows(Node *folder, bool deep);
    // Sorts one folder's rows and announces it, when they are out of order.
    void resort(Node *folder);
    // Moves a row whose facts changed to where the order wants it.
    void place(Node *node);
    // Where a new row goes among folder's children.
    int rowFor(Node *folder, const Node &node) const;
    Node *nodeOf(const QModelIndex &index) const;
    // The node of a path in the model (the root's included), or null: O(depth) hash lookups.
    Node *nodeForPath(const QString &path) const;
    QModelIndex indexOf(Node *node, int column = 0) const;
    void list(Node *folder);
    // A listing's nodes, unparented; pure, so that it can run on a worker
    // (remotefilebuild.cpp): build() at once, or grow() as rows arrive and then
    // finish().
    static Built build(const QList<RemoteFileInfo> &files, SortKey key);
    static void grow(Growing &growing, QList<RemoteFileInfo> rows);
    static Built finish(Growing &growing);
    // Indexes a refresh's snapshot by name, for grow() to match rows as they come.
    static void indexOld(Growing &growing);
    // Gives a node to every row a partial refresh kept without one: too many new rows came.
    static void growFull(Growing &growing);
    // A row's node, collation key and place, and for a refresh its namesake (was, or null).
    static void addNode(Growing &growing, RemoteFileInfo &&info, std::size_t hash,
                        const Facts *was);
    // Sorts the rows that arrived since the last time and merges them into those sorted.
    static void sortArrived(Growing &growing);
    // Matches a refresh's built nodes with a snapshot of the folder's rows; pure, for a worker.
    static void match(Built &built, const std::vector<Facts> &old, quint32 version);
    // The folder's rows as a refresh compares them, in row order.
    static std::vector<Facts> snapshot(const Node &folder);
    void apply(Node *folder, Built built);
    // The first rows of a first listing, placed in order while the rest arrives.
    void showPreview(Node *folder, const QList<RemoteFileInfo> &rows);
    void dropPreview(Node *folder);
    // Inserts the next chunk of a first listing's rows, or all of them.
    void insertPending(Node *folder, bool all = false);
    void flushPending(Node *node);
    // After rows moved: every persistent index follows its node.
    void followNodes();
    void adopt(Node *folder, std::vector<std::unique_ptr<Node>> nodes, NameIndex<Node> byName);
    void discard(std::vector<std::unique_ptr<Node>> nodes);
    void finishListing(Node *folder);
    // Listings in flight below node (node's own included) that will never be applied.
    void dropListings(Node *node);
    void applyChange(const FileChange &change);
    void insertNode(Node *folder, const RemoteFileInfo &info);
    void insertAt(Node *folder, std::unique_ptr<Node> node, int row);
    void removeNode(Node *node);

    QPointer<SandboxClient> m_client;
    std::unique_ptr<Node> m_root;
    quint64 m_generation = 0;  // counts setRootPath(): a listing of an older root is dropped
    quint32 m_refreshMark = 0; // counts refreshes; a row not marked by one went away
    int m_loading = 0;
    bool m_sudo = false;
    SortKey m_sort;
    QCollator m_collator; // the default locale's, as the listings' ranks
};

} // namespace sbx
