#include "models/files/remotefilemodel.h"

#include "client/sandboxclient.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QMimeData>
#include <QTimer>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {
// Rows inserted per turn of the event loop: small enough that a 100 000-entry folder never
// stalls the GUI, large enough that it fills in well under a second.
constexpr int kBatchSize = 2000;
} // namespace

struct RemoteFileModel::Node {
    RemoteFileInfo info;
    Node *parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;
    QList<RemoteFileInfo> pending; // listed, not yet inserted
    bool listed = false;
    bool listing = false;
    bool stale = false; // asked to refresh while a listing ran: list again when it ends
    QString error;
    // Its index in parent->children, kept up to date on every insertion and removal, so that
    // parent() and indexOf() cost O(1) instead of a scan of the siblings.
    int row = 0;
    // The refresh that last found it in its folder's listing (RemoteFileModel::m_refreshMark).
    quint32 seen = 0;
};

RemoteFileModel::RemoteFileModel(SandboxClient *client, QObject *parent)
    : QAbstractItemModel(parent)
    , m_client(client)
    , m_root(std::make_unique<Node>()) {
    // No root until setRootPath(): nothing is listed before someone asks for a folder.
}

RemoteFileModel::~RemoteFileModel() = default;

void RemoteFileModel::setRootPath(const QString &path) {
    beginResetModel();
    m_root = std::make_unique<Node>();
    m_root->info.isDirectory = true;
    m_root->info.path = path;
    m_loading = 0;
    m_byPath.clear();
    m_byPath.insert(path, m_root.get());
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
    // O(1) for a path as the model holds it (pathOf()); anything else (a trailing slash, a
    // doubled one) falls back to a walk by components, O(depth x siblings).
    if (Node *node = m_byPath.value(path))
        return node;
    const QModelIndex walked = walkToPath(path);
    return walked.isValid() ? nodeOf(walked) : nullptr;
}

void RemoteFileModel::forget(Node *node) {
    for (const auto &child : node->children)
        forget(child.get());
    const auto it = m_byPath.constFind(node->info.path);
    if (it != m_byPath.cend() && it.value() == node)
        m_byPath.erase(it);
}

QModelIndex RemoteFileModel::indexForPath(const QString &path) const {
    Node *node = nodeForPath(path);
    return node ? indexOf(node) : QModelIndex();
}

QModelIndex RemoteFileModel::walkToPath(const QString &path) const {
    // Walk down from the root by path components: the tree mirrors the paths.
    QString rest = path;
    const QString root = m_root->info.path;
    if (rest == root)
        return {};
    if (!rest.startsWith(root))
        return {};
    rest = rest.mid(root.size());
    const QStringList parts = rest.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    Node *node = m_root.get();
    for (const QString &part : parts) {
        Node *next = nullptr;
        for (const auto &child : node->children) {
            if (child->info.name == part) {
                next = child.get();
                break;
            }
        }
        if (!next)
            return {};
        node = next;
    }
    return indexOf(node);
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
           (!node->listed || !node->children.empty() || !node->pending.isEmpty());
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
    const auto listed = [this, path](const QList<RemoteFileInfo> &files) {
        Node *node = m_byPath.value(path);
        if (!node)
            return; // the folder went away meanwhile
        apply(node, files);
    };
    const auto failed = [this, path](const Status &status) {
        if (Node *node = m_byPath.value(path)) {
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
    startListing(m_client, path, {.sudo = m_sudo}, this, listed, failed);
}

void RemoteFileModel::apply(Node *folder, const QList<RemoteFileInfo> &files) {
    folder->error.clear();
    if (folder->children.empty()) {
        // A first listing: nothing to remove or update, so no hashes of 100 000 names on the
        // GUI thread; the list is shared, not copied.
        folder->pending = files;
        insertBatch(folder);
        return;
    }
    const QModelIndex parentIndex = indexOf(folder);
    // Rows that stay are found through m_byPath, which exists anyway, so no hash of 100 000
    // names is built on the GUI thread; each is updated in place (announced only when it
    // changed) and marked. New ones queue for batched insertion.
    const quint32 mark = ++m_refreshMark;
    folder->pending.clear();
    for (const RemoteFileInfo &f : files) {
        Node *child = m_byPath.value(f.path);
        if (!child || child->parent != folder) {
            folder->pending.append(f);
            continue;
        }
        child->seen = mark;
        const RemoteFileInfo &was = child->info;
        if (was.isDirectory == f.isDirectory && was.size == f.size && was.modified == f.modified &&
            was.permissions == f.permissions && was.name == f.name)
            continue;
        if (was.isDirectory != f.isDirectory) {
            // What was listed below it is no folder's any more.
            for (const auto &grandchild : child->children)
                forget(grandchild.get());
            child->children.clear();
            child->listed = false;
        }
        child->info = f;
        Q_EMIT dataChanged(index(child->row, 0, parentIndex),
                           index(child->row, ColumnCount - 1, parentIndex));
    }
    // Rows that went away (not marked), as ranges from the bottom so that rows above keep their
    // numbers. Each range costs O(rows): the vector's erase and renumbering the rows after it.
    auto &children = folder->children;
    const auto gone = [&](int row) {
        return children[static_cast<std::size_t>(row)]->seen != mark;
    };
    for (int last = static_cast<int>(children.size()) - 1; last >= 0; --last) {
        if (!gone(last))
            continue;
        int first = last;
        while (first > 0 && gone(first - 1))
            --first;
        beginRemoveRows(parentIndex, first, last);
        for (int row = first; row <= last; ++row)
            forget(children[static_cast<std::size_t>(row)].get());
        children.erase(children.begin() + first, children.begin() + last + 1);
        for (std::size_t row = static_cast<std::size_t>(first); row < children.size(); ++row)
            children[row]->row = static_cast<int>(row);
        endRemoveRows();
        last = first;
    }
    insertBatch(folder);
}

void RemoteFileModel::insertBatch(Node *folder) {
    const int count = static_cast<int>(qMin<qsizetype>(kBatchSize, folder->pending.size()));
    if (count > 0) {
        const int first = static_cast<int>(folder->children.size());
        beginInsertRows(indexOf(folder), first, first + count - 1);
        for (int i = 0; i < count; ++i) {
            auto node = std::make_unique<Node>();
            node->info = folder->pending.at(i);
            node->parent = folder;
            node->row = static_cast<int>(folder->children.size());
            m_byPath.insert(node->info.path, node.get());
            folder->children.push_back(std::move(node));
        }
        folder->pending.remove(0, count);
        endInsertRows();
    }
    if (!folder->pending.isEmpty()) {
        const QString path = folder->info.path;
        QTimer::singleShot(0, this, [this, path] {
            if (Node *node = m_byPath.value(path))
                insertBatch(node);
        });
        return;
    }
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
        if (Node *old = nodeForPath(change.oldPath))
            removeNode(old);
    }
    Node *node = nodeForPath(change.path);
    if (change.type == "remove"_L1) {
        if (node)
            removeNode(node);
        return;
    }
    if (node) {
        RemoteFileInfo &info = node->info;
        if (change.size >= 0 && !change.isDirectory)
            info.size = change.size;
        if (change.modified.isValid())
            info.modified = change.modified;
        const QModelIndex parentIndex = indexOf(node->parent);
        Q_EMIT dataChanged(index(node->row, 0, parentIndex),
                           index(node->row, ColumnCount - 1, parentIndex));
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
    const int row = static_cast<int>(folder->children.size());
    beginInsertRows(indexOf(folder), row, row);
    auto node = std::make_unique<Node>();
    node->info = info;
    node->parent = folder;
    node->row = row;
    // A folder that appears empty-handed is listed when opened, as any other.
    m_byPath.insert(info.path, node.get());
    folder->children.push_back(std::move(node));
    endInsertRows();
}

void RemoteFileModel::removeNode(Node *node) {
    Node *folder = node->parent;
    if (!folder)
        return;
    const int row = node->row;
    beginRemoveRows(indexOf(folder), row, row);
    forget(node);
    folder->children.erase(folder->children.begin() + row);
    for (std::size_t i = static_cast<std::size_t>(row); i < folder->children.size(); ++i)
        folder->children[i]->row = static_cast<int>(i);
    endRemoveRows();
}

void RemoteFileModel::refreshListed() {
    QList<QString> folders;
    for (auto it = m_byPath.cbegin(); it != m_byPath.cend(); ++it) {
        if (it.value()->info.isDirectory && it.value()->listed)
            folders.append(it.key());
    }
    for (const QString &path : std::as_const(folders)) {
        if (Node *node = m_byPath.value(path))
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
