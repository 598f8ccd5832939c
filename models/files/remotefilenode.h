#pragma once

// RemoteFileModel's rows, shared by its two source files (listing, order); not for others.
#include "models/files/blockpool.h"
#include "models/files/collationkeys.h"
#include "models/files/nameindex.h"
#include "models/files/remotefilemodel.h"

#include <QCollator>
#include <QFuture>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace sbx {

struct RemoteFileModel::Node {
    RemoteFileInfo info;
    Node *parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;
    // A first listing's rows not inserted yet (kChunkRows a turn), already in byName.
    std::vector<std::unique_ptr<Node>> pending;
    // The children by name: a path is found a component at a time, O(depth).
    NameIndex<Node> byName;
    // Its name's place in its folder's last listing in collation order, -1 when it came from
    // elsewhere (a file change): see less().
    int rank = -1;
    bool listed = false;
    bool listing = false;
    bool stale = false; // asked to refresh while a listing ran: list again when it ends
    // Its children are a first listing's preview (rows cut from the body as it arrived): the
    // listing replaces them.
    bool previewed = false;
    QString error;
    // Its index in parent->children, kept up to date on every insertion and removal, so that
    // parent() and indexOf() cost O(1) instead of a scan of the siblings.
    int row = 0;
    // The refresh that last found it in its folder's listing (RemoteFileModel::m_refreshMark).
    quint32 seen = 0;
    // Counts changes to its children (rows, their facts): a refresh matched on a worker against
    // a snapshot of them applies its matches only if none happened since.
    quint32 version = 0;

    // A large listing's nodes lie in huge pages (a BlockPool, under a BlockPool::Bulk).
    static void *operator new(std::size_t size);
    static void operator delete(void *node, std::size_t size);
    static BlockPool &pool();
};

// How many rows ahead memory read at random is asked for (__builtin_prefetch): about as many
// misses as a core keeps in flight. The nodes lie where they were allocated, not in row order,
// so a pass over 100 000 rows in row order missed the cache once a row, or twice.
inline constexpr std::size_t kPrefetchRows = 8;

// Asks for the two cache lines of a node that passes over the rows read (its info, and its rank
// and marks further on).
template <typename Node> void prefetchNode(const Node &node) {
    __builtin_prefetch(&node.info);
    __builtin_prefetch(&node.rank);
}

// Frees what a listing leaves behind (100 000 nodes or keys, a large buffer) on a worker: on the
// GUI thread, or between the last row and the rows shown, that took milliseconds.
template <typename T> void releaseOnWorker(T &&spent) {
    auto doomed = std::make_shared<std::decay_t<T>>(std::forward<T>(spent));
    (void)QtConcurrent::run([doomed]() mutable { doomed.reset(); });
}

// A listing's rows as nodes, built where the listing was parsed or on a worker, ready to be
// adopted by their folder in one insertion.
struct RemoteFileModel::Built {
    std::vector<std::unique_ptr<Node>> nodes;
    NameIndex<Node> byName;
    // A refresh matched on the worker: per node, the row of its namesake in the snapshot (-1:
    // new) and whether their facts are the same; valid for the folder's version it was taken at.
    std::vector<int> matched;
    std::vector<bool> same;
    quint32 version = 0;
    bool hasMatches = false;
    // A partial refresh: nodes only for rows that are new (unranked, -1) or changed; the rows
    // found as they were, by their row in the snapshot.
    bool partial = false;
    std::vector<int> unchanged;
    SortKey key; // the order the nodes are in
};

// What a refresh compares of a row it replaces, taken on the GUI thread: so little that copying
// 100 000 of them stays short (whole RemoteFileInfos took 30 ms, most of it the memory's first
// touch). With the path, a row found as it was can be made again from its Facts alone.
struct RemoteFileModel::Facts {
    QString name;
    QString path;
    QString permissions;
    QDateTime modified;
    qint64 size = -1;
    bool isDirectory = false;
};

// NameIndex's way to the name of a Facts.
struct FactName {
    template <typename T> const QString &operator()(const T &facts) const { return facts.name; }
};

// A refresh's new rows up to this many are each inserted at their place, unranked.
inline constexpr std::size_t kPlacedRows = 64;

// A listing's nodes built as its rows arrive, on a worker (through a ListingSink), kept in
// collation order as they come so that little is left to sort once the last row is in.
struct RemoteFileModel::Growing {
    explicit Growing(SortKey sortKey)
        : key(sortKey) {}
    SortKey key;        // the order the rows will be in
    QCollator collator; // the default locale's, as the model's own; this worker's alone
    std::vector<std::unique_ptr<Node>> nodes;
    NameIndex<Node> byName;
    CollationKeys keys;               // per node
    std::vector<std::uint32_t> order; // node indices, the first `sorted` in collation order
    std::size_t sorted = 0;
    // A refresh's snapshot of the folder's rows at its start, matched as the rows come against
    // its index by name (built by indexOld() on a worker while the server reads the folder;
    // grow() waits for it). Per node, its namesake's row (-1: new) and whether they are alike.
    std::vector<Facts> old;
    NameIndex<const Facts, FactName> oldByName;
    QFuture<void> oldIndexed;
    std::vector<int> matched;
    std::vector<bool> same;
    quint32 version = 0;
    // A refresh is partial until more than kPlacedRows new rows came: a row found as it was gets
    // no node, no collation key and no place in byName, only its old row in `unchanged`; should
    // the refresh turn full, its node is made from its Facts. (Keeping the rows themselves for
    // that took 25 MB of fresh memory, 9 000 page faults, for 100 000 rows.)
    bool full = false;
    std::vector<int> unchanged;
    std::size_t fresh = 0;      // nodes with no namesake
    std::optional<Built> built; // once the rows were the whole listing
};

// The same entry, as far as a row shows (was: a RemoteFileInfo or its Facts).
template <typename Was> bool sameFacts(const Was &was, const RemoteFileInfo &f) {
    return was.isDirectory == f.isDirectory && was.size == f.size && was.modified == f.modified &&
           was.permissions == f.permissions;
}

} // namespace sbx
