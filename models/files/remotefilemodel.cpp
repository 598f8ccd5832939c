#include "models/files/remotefilemodel.h"

#include "client/sandboxclient.h"
#include "models/files/remotefilenode.h"

#include <QCollator>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QMimeData>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <functional>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {
// From this many entries a listing's rows are built on a worker thread: below it the hop costs
// more than the building.
constexpr qsizetype kWorkerRows = 4096;
// Rows inserted per turn of the event loop. Since the model sorts itself (no proxy) inserting
// 100 000 at once takes the view about 5 ms and its next layout 20; in chunks, each turn's layout
// went over all the rows so far (60 ms in all for 100 000 in five).
constexpr std::size_t kChunkRows = 100000;
// A preview shows a few screens of a folder still arriving, once it has taken this long (a
// quick listing is shown whole, without a preview to replace); the listing then replaces it.
constexpr qsizetype kPreviewRows = 400;
constexpr qint64 kPreviewAfterMs = 150;

} // namespace

RemoteFileModel::RemoteFileModel(SandboxClient *client, QObject *parent)
    : QAbstractItemModel(parent)
    , m_client(client)
    , m_root(std::make_unique<Node>()) {
    // No root until setRootPath(): nothing is listed before someone asks for a folder.
    if (m_client)
        m_client->prepareDirectExchanges(); // listings and uploads go through libcurl
}

RemoteFileModel::~RemoteFileModel() = default;

void RemoteFileModel::setRootPath(const QString &path) {
    beginResetModel();
    m_root = std::make_unique<Node>();
    m_root->info.isDirectory = true;
    m_root->info.path = path;
    m_loading = 0;
    ++m_generation;
    endResetModel();
    list(m_root.get());
}

QString RemoteFileModel::rootPath() const {
    return m_root->info.path;
}

RemoteFileModel::Node *RemoteFileModel::nodeOf(const QModelIndex &index) const {
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex RemoteFileModel::indexOf(Node *node, int column) const {
    if (!node || node == m_root.get())
        return {};
    return createIndex(node->row, column, node);
}

QString RemoteFileModel::pathOf(const QModelIndex &index) const {
    return nodeOf(index)->info.path;
}

bool RemoteFileModel::isDirectory(const QModelIndex &index) const {
    return nodeOf(index)->info.isDirectory;
}

RemoteFileModel::Node *RemoteFileModel::nodeForPath(const QString &path) const {
    // From the root down by components, each a hash lookup among its folder's children:
    // O(depth). A trailing or doubled slash is no different.
    const QString &root = m_root->info.path;
    if (path == root)
        return m_root.get();
    if (root.isEmpty() || !path.startsWith(root))
        return nullptr;
    const QStringView rest = QStringView(path).mid(root.size());
    if (!root.endsWith(u'/') && !rest.startsWith(u'/'))
        return nullptr; // "/a/bc" is not below "/a/b"
    Node *node = m_root.get();
    for (const QStringView part : rest.tokenize(u'/', Qt::SkipEmptyParts)) {
        Node *child = node->byName.value(part);
        // A row still pending (a first listing inserted a chunk at a time) is not in the model.
        if (!child || child->row >= static_cast<int>(node->children.size()) ||
            node->children[static_cast<std::size_t>(child->row)].get() != child)
            return nullptr;
        node = child;
    }
    return node;
}

QModelIndex RemoteFileModel::indexForPath(const QString &path) const {
    Node *node = nodeForPath(path);
    return node ? indexOf(node) : QModelIndex();
}

bool RemoteFileModel::isLoading() const {
    return m_loading > 0;
}

QModelIndex RemoteFileModel::index(int row, int column, const QModelIndex &parent) const {
    Node *node = nodeOf(parent);
    if (row < 0 || column < 0 || column >= ColumnCount ||
        row >= static_cast<int>(node->children.size()))
        return {};
    return createIndex(row, column, node->children[static_cast<std::size_t>(row)].get());
}

QModelIndex RemoteFileModel::parent(const QModelIndex &child) const {
    if (!child.isValid())
        return {};
    return indexOf(nodeOf(child)->parent);
}

int RemoteFileModel::rowCount(const QModelIndex &parent) const {
    if (parent.column() > 0)
        return 0;
    return static_cast<int>(nodeOf(parent)->children.size());
}

int RemoteFileModel::columnCount(const QModelIndex &) const {
    return ColumnCount;
}

bool RemoteFileModel::hasChildren(const QModelIndex &parent) const {
    if (parent.column() > 0)
        return false;
    const Node *node = nodeOf(parent);
    // An unlisted folder may have children: the view shows an expander and asks fetchMore.
    return node->info.isDirectory &&
           (!node->listed || !node->children.empty() || !node->pending.empty());
}

bool RemoteFileModel::canFetchMore(const QModelIndex &parent) const {
    const Node *node = nodeOf(parent);
    return node->info.isDirectory && !node->listed && !node->listing;
}

void RemoteFileModel::fetchMore(const QModelIndex &parent) {
    if (canFetchMore(parent))
        list(nodeOf(parent));
}

void RemoteFileModel::list(Node *folder) {
    if (!m_client || folder->listing)
        return;
    folder->listing = true;
    ++m_loading;
    const QString path = folder->info.path;
    const quint64 generation = m_generation;
    const bool firstListing = !folder->listed && folder->children.empty();
    QElapsedTimer started;
    started.start();
    const auto preview = [this, path, generation, started](const QList<RemoteFileInfo> &rows) {
        if (started.elapsed() < kPreviewAfterMs)
            return;
        Node *node = generation == m_generation ? nodeForPath(path) : nullptr;
        if (node && node->listing && (node->previewed || node->children.empty()))
            showPreview(node, rows);
    };
    // The listing's nodes are built on a worker as its rows arrive (ListingSink); what is left
    // when the last one is in is a merge and the insertion. A sudo listing has no sink: it is
    // built whole once listed, below.
    auto growing = std::make_shared<Growing>(m_sort);
    ListingSink sink;
    if (!m_sudo) {
        if (!folder->children.empty() && !folder->previewed) {
            // A refresh: matched on the worker against the rows as they are now.
            growing->old = snapshot(*folder);
            growing->version = folder->version;
            // Indexed while the server reads the folder, before the first row can arrive.
            growing->oldIndexed = QtConcurrent::run([growing] { indexOld(*growing); });
        }
        sink = {[growing](QList<RemoteFileInfo> rows) { grow(*growing, std::move(rows)); },
                [growing](bool whole) {
                    if (whole)
                        growing->built = finish(*growing);
                    else
                        growing->nodes.clear(); // rows of no listing
                }};
    }
    const auto listed = [this, path, generation, growing](const QList<RemoteFileInfo> &files) {
        Node *node = generation == m_generation ? nodeForPath(path) : nullptr;
        if (!node || !node->listing) {
            if (growing->built)
                discard(std::move(growing->built->nodes));
            return; // the folder went away meanwhile
        }
        // The listing replaces its preview as a first listing: matching 100 000 rows against a
        // few hundred would only cost a refresh's stall.
        dropPreview(node);
        if (growing->built) {
            apply(node, std::move(*growing->built));
            return;
        }
        if (files.size() < kWorkerRows) {
            apply(node, build(files, m_sort));
            return;
        }
        // Building 100 000 nodes, their hash and their names' ranks took the GUI thread longer
        // than the listing took to arrive; on a worker it costs the GUI nothing.
        // A refresh is matched there too, against a snapshot of the rows: on the GUI thread the
        // 100 000 lookups by name stalled it 55-130 ms.
        std::vector<Facts> old = snapshot(*node);
        const quint32 version = node->version;
        const SortKey key = m_sort;
        auto *watcher = new QFutureWatcher<std::shared_ptr<Built>>(this);
        connect(watcher, &QFutureWatcher<std::shared_ptr<Built>>::finished, this,
                [this, watcher, path, generation] {
                    watcher->deleteLater();
                    const std::shared_ptr<Built> built = watcher->result();
                    Node *target = generation == m_generation ? nodeForPath(path) : nullptr;
                    if (target && target->listing)
                        apply(target, std::move(*built));
                    else
                        discard(std::move(built->nodes));
                });
        watcher->setFuture(QtConcurrent::run([files, old = std::move(old), version, key] {
            auto built = std::make_shared<Built>(build(files, key));
            if (!old.empty())
                match(*built, old, version);
            return built;
        }));
    };
    const auto failed = [this, path, generation](const Status &status) {
        if (generation != m_generation)
            return;
        if (Node *node = nodeForPath(path); node && node->listing) {
            dropPreview(node); // part of a listing that failed is no listing
            node->listing = false;
            node->listed = true;
            node->error = status.message;
            const QModelIndex at = indexOf(node);
            if (at.isValid())
                Q_EMIT dataChanged(at, indexOf(node, ColumnCount - 1));
            --m_loading;
        }
        Q_EMIT listingFailed(path, status);
    };
    startListing(m_client, path, {.sudo = m_sudo}, this, listed, failed,
                 firstListing ? std::function<void(const QList<RemoteFileInfo> &)>(preview)
                              : nullptr,
                 std::move(sink));
}

void RemoteFileModel::dropPreview(Node *folder) {
    if (!folder->previewed)
        return;
    folder->previewed = false;
    ++folder->version;
    if (folder->children.empty())
        return;
    beginRemoveRows(indexOf(folder), 0, int(folder->children.size()) - 1);
    // A previewed folder the user opened meanwhile stops counting as loading.
    for (const auto &child : folder->children) {
        if (child->info.isDirectory)
            dropListings(child.get());
    }
    folder->children.clear();
    folder->byName.clear();
    endRemoveRows();
}

void RemoteFileModel::showPreview(Node *folder, const QList<RemoteFileInfo> &rows) {
    const qsizetype room = kPreviewRows - qsizetype(folder->children.size());
    if (room <= 0)
        return;
    Built built = build(rows.first(qMin(room, rows.size())), m_sort);
    folder->previewed = true;
    for (auto &node : built.nodes) {
        if (folder->byName.contains(node->info.name))
            continue;
        node->rank = -1; // not this listing's rank yet: ordered by name as a change would be
        const int row = rowFor(folder, *node);
        insertAt(folder, std::move(node), row);
    }
}

namespace {
// Frees a vector on a worker when its buffer is large: glibc maps such a buffer on its own, and
// unmapping it waits for the other cores to drop it from their TLBs (under a virtual machine,
// 0.2-6 ms of the GUI thread for the 800 KB of a 100 000-row folder's emptied pending rows).
template <typename T> void freeElsewhere(std::vector<T> &vector) {
    constexpr std::size_t kMappedBytes = 128 * 1024;
    if (vector.capacity() * sizeof(T) < kMappedBytes) {
        std::vector<T>().swap(vector);
        return;
    }
    releaseOnWorker(std::exchange(vector, {}));
}
} // namespace

void RemoteFileModel::discard(std::vector<std::unique_ptr<Node>> nodes) {
    // 100 000 nodes take milliseconds to free: not on the GUI thread.
    if (nodes.size() >= static_cast<std::size_t>(kWorkerRows))
        releaseOnWorker(std::move(nodes));
}

void RemoteFileModel::adopt(Node *folder, std::vector<std::unique_ptr<Node>> nodes,
                            NameIndex<Node> byName) {
    for (const auto &node : nodes)
        node->parent = folder;
    const int first = static_cast<int>(folder->children.size());
    beginInsertRows(indexOf(folder), first, first + static_cast<int>(nodes.size()) - 1);
    // The built hash serves as it is when it holds every node (a first listing); a refresh's
    // new rows are added one by one.
    if (folder->children.empty() && byName.size() == static_cast<qsizetype>(nodes.size())) {
        folder->children = std::move(nodes);
        folder->byName = std::move(byName);
    } else {
        folder->children.reserve(folder->children.size() + nodes.size());
        for (auto &node : nodes) {
            node->row = static_cast<int>(folder->children.size());
            folder->byName.insert(node.get());
            folder->children.push_back(std::move(node));
        }
    }
    endInsertRows();
}

void RemoteFileModel::insertPending(Node *folder, bool all) {
    auto &pending = folder->pending;
    const std::size_t count = all ? pending.size() : std::min(kChunkRows, pending.size());
    if (count > 0) {
        const int first = static_cast<int>(folder->children.size());
        beginInsertRows(indexOf(folder), first, first + static_cast<int>(count) - 1);
        folder->children.reserve(folder->children.size() + pending.size());
        for (std::size_t i = 0; i < count; ++i) {
            auto &node = pending[i];
            node->parent = folder;
            node->row = static_cast<int>(folder->children.size());
            folder->children.push_back(std::move(node));
        }
        pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(count));
        endInsertRows();
    }
    if (!pending.empty()) {
        const QString path = folder->info.path;
        const quint64 generation = m_generation;
        QTimer::singleShot(0, this, [this, path, generation] {
            Node *node = generation == m_generation ? nodeForPath(path) : nullptr;
            if (node && node->listing && !node->pending.empty())
                insertPending(node);
        });
        return;
    }
    freeElsewhere(pending);
    finishListing(folder);
}

void RemoteFileModel::apply(Node *folder, Built built) {
    // Matched on the worker against rows that have not changed since: no lookups here.
    const bool matched = built.hasMatches && built.version == folder->version;
    if (built.partial && !matched) {
        // Rows changed while the refresh ran, and the rows it found unchanged were only counted
        // by their row then: listed again.
        discard(std::move(built.nodes));
        folder->stale = true;
        finishListing(folder);
        return;
    }
    folder->error.clear();
    ++folder->version;
    if (folder->children.empty()) {
        // A first listing: the built nodes become the folder's rows as they are, a chunk a turn.
        folder->byName = std::move(built.byName);
        folder->pending = std::move(built.nodes);
        if (!(built.key == m_sort)) {
            // The order changed while it was built: sorted again, still out of the model.
            std::stable_sort(
                folder->pending.begin(), folder->pending.end(),
                [this](const auto &a, const auto &b) { return less(*a, *b, m_sort, m_collator); });
            for (std::size_t i = 0; i < folder->pending.size(); ++i)
                folder->pending[i]->row = static_cast<int>(i);
        }
        insertPending(folder);
        return;
    }
    const QModelIndex parentIndex = indexOf(folder);
    // Rows that stay are found by name, updated in place (announced once, as one range, when
    // any changed) and marked; the built twin is dropped. New ones are inserted at the end.
    const quint32 mark = ++m_refreshMark;
    std::vector<std::unique_ptr<Node>> fresh;
    std::vector<std::unique_ptr<Node>> twins;
    twins.reserve(built.nodes.size());
    int firstChanged = -1;
    int lastChanged = -1;
    // Rows a partial refresh found as they were: built into no node, marked by their row.
    const auto &unchanged = built.unchanged;
    for (std::size_t k = 0; k < unchanged.size(); ++k) {
        if (k + kPrefetchRows < unchanged.size())
            prefetchNode(*folder->children[static_cast<std::size_t>(unchanged[k + kPrefetchRows])]);
        folder->children[static_cast<std::size_t>(unchanged[k])]->seen = mark;
    }
    freeElsewhere(built.unchanged);
    for (std::size_t j = 0; j < built.nodes.size(); ++j) {
        auto &node = built.nodes[j];
        const RemoteFileInfo &f = node->info;
        Node *child = nullptr;
        if (!matched)
            child = folder->byName.value(f.name);
        else if (built.matched[j] >= 0)
            child = folder->children[static_cast<std::size_t>(built.matched[j])].get();
        if (!child) {
            fresh.push_back(std::move(node));
            continue;
        }
        child->seen = mark;
        // This listing's ranks: the order they give the rows that stay is the one they had. A
        // partial refresh ranked only the rows it built: the others keep theirs.
        if (!built.partial)
            child->rank = node->rank;
        const RemoteFileInfo &was = child->info;
        if (matched ? bool(built.same[j]) : sameFacts(was, f)) {
            twins.push_back(std::move(node));
            continue;
        }
        if (was.isDirectory != f.isDirectory) {
            // What was listed below it is no folder's any more.
            dropListings(child);
            child->children.clear();
            child->pending.clear();
            child->byName.clear();
            ++child->version;
            child->listed = false;
        }
        child->info = f;
        firstChanged = firstChanged < 0 ? child->row : qMin(firstChanged, child->row);
        lastChanged = qMax(lastChanged, child->row);
        twins.push_back(std::move(node));
    }
    discard(std::move(twins));
    if (firstChanged >= 0)
        Q_EMIT dataChanged(index(firstChanged, 0, parentIndex),
                           index(lastChanged, ColumnCount - 1, parentIndex));
    // Rows that went away (not marked), as ranges from the bottom so that rows above keep their
    // numbers. Each range costs O(rows): the vector's erase and renumbering the rows after it.
    auto &children = folder->children;
    const auto gone = [&](int row) {
        return children[static_cast<std::size_t>(row)]->seen != mark;
    };
    for (int last = static_cast<int>(children.size()) - 1; last >= 0; --last) {
        if (last >= static_cast<int>(kPrefetchRows))
            prefetchNode(*children[static_cast<std::size_t>(last) - kPrefetchRows]);
        if (!gone(last))
            continue;
        int first = last;
        while (first > 0 && gone(first - 1))
            --first;
        beginRemoveRows(parentIndex, first, last);
        for (int row = first; row <= last; ++row) {
            Node *goner = children[static_cast<std::size_t>(row)].get();
            if (goner->info.isDirectory)
                dropListings(goner);
            folder->byName.remove(goner->info.name);
        }
        children.erase(children.begin() + first, children.begin() + last + 1);
        for (std::size_t row = static_cast<std::size_t>(first); row < children.size(); ++row)
            children[row]->row = static_cast<int>(row);
        endRemoveRows();
        last = first;
    }
    // A few new rows go where the order wants them; many are appended and sorted in with
    // the rest, one layout change instead of a renumbering per row.
    if (fresh.size() <= kPlacedRows) {
        for (auto &node : fresh) {
            const int row = rowFor(folder, *node);
            insertAt(folder, std::move(node), row);
        }
    } else {
        adopt(folder, std::move(fresh), {});
    }
    // Changed facts or this listing's ranks may have moved rows.
    resort(folder);
    finishListing(folder);
}

void RemoteFileModel::dropListings(Node *node) {
    if (node->listing) {
        node->listing = false;
        --m_loading;
    }
    for (const auto &child : node->children) {
        if (child->info.isDirectory)
            dropListings(child.get());
    }
}

void RemoteFileModel::finishListing(Node *folder) {
    folder->listing = false;
    folder->listed = true;
    --m_loading;
    Q_EMIT folderListed(folder->info.path);
    if (folder->stale) {
        folder->stale = false;
        list(folder);
    }
}

void RemoteFileModel::applyChanges(const QList<FileChange> &changes) {
    for (const FileChange &change : changes)
        applyChange(change);
}

void RemoteFileModel::applyChange(const FileChange &change) {
    const auto folderOf = [this](const QString &path) -> Node * {
        const qsizetype slash = path.lastIndexOf(u'/');
        return slash < 0 ? nullptr : nodeForPath(slash == 0 ? u"/"_s : path.left(slash));
    };
    if (change.type == "rename"_L1 && !change.oldPath.isEmpty()) {
        if (Node *old = nodeForPath(change.oldPath); old && old != m_root.get())
            removeNode(old);
    }
    Node *node = nodeForPath(change.path);
    if (node == m_root.get())
        node = nullptr; // the shown folder itself is no row
    if (change.type == "remove"_L1) {
        if (node)
            removeNode(node);
        return;
    }
    if (node) {
        ++node->parent->version;
        RemoteFileInfo &info = node->info;
        if (change.size >= 0 && !change.isDirectory)
            info.size = change.size;
        if (change.modified.isValid())
            info.modified = change.modified;
        const QModelIndex parentIndex = indexOf(node->parent);
        Q_EMIT dataChanged(index(node->row, 0, parentIndex),
                           index(node->row, ColumnCount - 1, parentIndex));
        place(node);
        return;
    }
    Node *folder = folderOf(change.path);
    if (!folder)
        return; // its folder is not in the model: listing it later shows the file
    if (folder->listing) {
        folder->stale = true;
        return;
    }
    if (!folder->listed)
        return;
    RemoteFileInfo info;
    info.name = change.path.mid(change.path.lastIndexOf(u'/') + 1);
    info.path = change.path;
    info.isDirectory = change.isDirectory;
    info.size = change.isDirectory ? -1 : change.size;
    info.modified = change.modified;
    insertNode(folder, info);
}

void RemoteFileModel::insertNode(Node *folder, const RemoteFileInfo &info) {
    if (info.name.isEmpty() || folder->byName.contains(info.name))
        return;
    // A folder that appears empty-handed is listed when opened, as any other.
    auto node = std::make_unique<Node>();
    node->info = info;
    const int row = rowFor(folder, *node);
    insertAt(folder, std::move(node), row);
}

void RemoteFileModel::insertAt(Node *folder, std::unique_ptr<Node> node, int row) {
    ++folder->version;
    beginInsertRows(indexOf(folder), row, row);
    node->parent = folder;
    folder->byName.insert(node.get());
    auto &children = folder->children;
    children.insert(children.begin() + row, std::move(node));
    for (std::size_t i = static_cast<std::size_t>(row); i < children.size(); ++i)
        children[i]->row = static_cast<int>(i);
    endInsertRows();
}

void RemoteFileModel::removeNode(Node *node) {
    Node *folder = node->parent;
    if (!folder)
        return;
    const int row = node->row;
    ++folder->version;
    beginRemoveRows(indexOf(folder), row, row);
    dropListings(node);
    folder->byName.remove(node->info.name);
    folder->children.erase(folder->children.begin() + row);
    for (std::size_t i = static_cast<std::size_t>(row); i < folder->children.size(); ++i)
        folder->children[i]->row = static_cast<int>(i);
    endRemoveRows();
}

void RemoteFileModel::refreshListed() {
    QList<QString> folders;
    const std::function<void(const Node *)> collect = [&](const Node *node) {
        if (node->info.isDirectory && node->listed)
            folders.append(node->info.path);
        for (const auto &child : node->children)
            collect(child.get());
    };
    collect(m_root.get());
    for (const QString &path : std::as_const(folders)) {
        if (Node *node = nodeForPath(path))
            refresh(indexOf(node));
    }
}

void RemoteFileModel::refresh(const QModelIndex &folder) {
    Node *node = nodeOf(folder);
    if (!node->info.isDirectory)
        return;
    if (node->listing) {
        node->stale = true; // what changed after that listing began must not be missed
        return;
    }
    list(node);
}

QVariant RemoteFileModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node *node = nodeOf(index);
    const RemoteFileInfo &f = node->info;
    switch (role) {
    case PathRole:
        return f.path;
    case IsDirectoryRole:
        return f.isDirectory;
    case SizeRole:
        return f.size;
    case ModifiedRole:
        return f.modified;
    case Qt::ToolTipRole:
        return node->error.isEmpty() ? f.path : f.path + QLatin1Char('\n') + node->error;
    case Qt::TextAlignmentRole:
        return index.column() == SizeColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                            : QVariant();
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return f.name;
        case SizeColumn:
            return f.isDirectory || f.size < 0 ? QString() : QLocale().formattedDataSize(f.size);
        case ModifiedColumn:
            return f.modified.isValid()
                       ? QLocale().toString(f.modified.toLocalTime(), QLocale::ShortFormat)
                       : QString();
        case PermissionsColumn:
            return f.permissions;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant RemoteFileModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case SizeColumn:
        return tr("Size");
    case ModifiedColumn:
        return tr("Modified");
    case PermissionsColumn:
        return tr("Permissions");
    default:
        return {};
    }
}

Qt::ItemFlags RemoteFileModel::flags(const QModelIndex &index) const {
    if (!index.isValid())
        return Qt::ItemIsDropEnabled;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled;
    if (nodeOf(index)->info.isDirectory)
        f |= Qt::ItemIsDropEnabled;
    return f;
}

QStringList RemoteFileModel::mimeTypes() const {
    return {QString::fromLatin1(kMimeType), u"text/uri-list"_s};
}

QMimeData *RemoteFileModel::mimeData(const QModelIndexList &indexes) const {
    // Describes remote items; a drop on the desktop needs local files, which the Files tab
    // fetches through the transfer queue before the drop completes.
    QJsonArray items;
    QStringList paths;
    for (const QModelIndex &index : indexes) {
        if (index.column() != NameColumn)
            continue;
        const RemoteFileInfo &f = nodeOf(index)->info;
        items.append(QJsonObject{{u"path"_s, f.path},
                                 {u"name"_s, f.name},
                                 {u"isDirectory"_s, f.isDirectory},
                                 {u"size"_s, static_cast<double>(f.size)}});
        paths << f.path;
    }
    auto *mime = new QMimeData;
    mime->setData(QString::fromLatin1(kMimeType),
                  QJsonDocument(items).toJson(QJsonDocument::Compact));
    mime->setText(paths.join(QLatin1Char('\n')));
    return mime;
}

} // namespace sbx
