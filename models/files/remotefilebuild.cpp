// RemoteFileModel's listings turned into nodes, off the GUI thread: at once (build) or as the
// rows arrive (grow, then finish), and a refresh's matching against the rows it replaces.
#include "models/files/remotefilemodel.h"
#include "models/files/remotefilenode.h"

#include <algorithm>

namespace sbx {

namespace {
// Rows sorted among themselves and merged into the sorted ones once they are this many, or an
// eighth of those: a few merges in all, and at the end an eighth at most left to sort.
constexpr std::size_t kMergeRows = 4096;
constexpr std::size_t kAhead = kPrefetchRows;
// Past this many, what a listing leaves behind is freed on another thread.
constexpr std::size_t kFreeElsewhereRows = 4096;
// From this many rows on, a listing's nodes are taken from the node pool's huge pages.
constexpr std::size_t kPooledRows = 2048;

// Rows' name hashes (NameIndex::hashOf), in order, their names' text asked for a few ahead.
template <typename Rows> std::vector<std::size_t> nameHashes(const Rows &rows) {
    const auto count = static_cast<std::size_t>(rows.size());
    std::vector<std::size_t> hashes(count);
    for (std::size_t i = 0; i < count; ++i) {
        if (i + kAhead < count)
            __builtin_prefetch(rows[i + kAhead].name.constData());
        hashes[i] = NameIndex<RemoteFileInfo>::hashOf(rows[i].name);
    }
    return hashes;
}
} // namespace

BlockPool &RemoteFileModel::Node::pool() {
    // Never destroyed: a model may free its nodes after static destruction began.
    static auto *nodes = new BlockPool(sizeof(Node));
    return *nodes;
}

void *RemoteFileModel::Node::operator new(std::size_t size) {
    return size == sizeof(Node) ? pool().allocate() : ::operator new(size);
}

void RemoteFileModel::Node::operator delete(void *node, std::size_t size) {
    if (size == sizeof(Node))
        pool().release(node);
    else
        ::operator delete(node, size);
}

void RemoteFileModel::sortArrived(Growing &g) {
    if (g.sorted == g.order.size())
        return;
    const auto byKey = [&g](std::uint32_t a, std::uint32_t b) {
        return g.keys.compare(a, b) < 0;
    };
    const auto middle = g.order.begin() + static_cast<std::ptrdiff_t>(g.sorted);
    // Stable both: equal names keep the order they came in, as one sort of them all would.
    std::stable_sort(middle, g.order.end(), byKey);
    std::inplace_merge(g.order.begin(), middle, g.order.end(), byKey);
    g.sorted = g.order.size();
}

namespace {
template <typename Growing> void awaitOldIndex(Growing &g) {
    if (g.oldIndexed.isValid()) {
        g.oldIndexed.waitForFinished(); // runs it here if no thread took it yet
        g.oldIndexed = {};
    }
}
} // namespace

void RemoteFileModel::indexOld(Growing &g) {
    const std::size_t count = g.old.size();
    const std::vector<std::size_t> hashes = nameHashes(g.old);
    g.oldByName.reserve(static_cast<qsizetype>(count));
    for (std::size_t i = 0; i < count; ++i) {
        if (i + kAhead < count)
            g.oldByName.prefetch(hashes[i + kAhead]);
        g.oldByName.insert(&g.old[i], hashes[i]);
    }
}

void RemoteFileModel::addNode(Growing &g, RemoteFileInfo &&info, std::size_t hash,
                              const Facts *was) {
    auto node = std::make_unique<Node>();
    node->info = std::move(info);
    // A name twice in one listing would leave a row no lookup finds: the first one wins.
    if (!g.byName.insert(node.get(), hash))
        return;
    if (!g.old.empty()) {
        g.matched.push_back(was ? static_cast<int>(was - g.old.data()) : -1);
        g.same.push_back(was && sameFacts(*was, node->info));
        g.fresh += was ? 0 : 1;
    }
    // The names' collation keys, so that sorting compares bytes where a
    // QString::localeAwareCompare took microseconds (100 000 rows stalled the GUI seconds).
    g.keys.append(node->info.name);
    g.order.push_back(static_cast<std::uint32_t>(g.nodes.size()));
    g.nodes.push_back(std::move(node));
}

void RemoteFileModel::growFull(Growing &g) {
    g.full = true;
    for (const int oldRow : g.unchanged) {
        const Facts &was = g.old[static_cast<std::size_t>(oldRow)];
        RemoteFileInfo info;
        info.name = was.name;
        info.path = was.path;
        info.isDirectory = was.isDirectory;
        info.size = was.size;
        info.modified = was.modified;
        info.permissions = was.permissions;
        addNode(g, std::move(info), NameIndex<Node>::hashOf(was.name), &was);
    }
    g.unchanged = {};
}

void RemoteFileModel::grow(Growing &g, QList<RemoteFileInfo> rows) {
    awaitOldIndex(g);
    const bool refresh = !g.old.empty();
    const bool partial = refresh && !g.full;
    const std::size_t need = g.nodes.size() + static_cast<std::size_t>(rows.size());
    std::optional<BlockPool::Bulk> pooled;
    if (std::max(need, g.old.size()) >= kPooledRows)
        pooled.emplace();
    // A refresh most likely has as many rows again. Here, not on the GUI thread when the
    // refresh starts: the table's first touch took 16 ms for 100 000 rows. Reserved before the
    // rows so that no insert below moves the table under the slots prefetched.
    g.byName.reserve(static_cast<qsizetype>(partial ? need : std::max(need, g.old.size())));
    if (g.nodes.capacity() < need) {
        // Doubling: rows come a few hundred at a time.
        const std::size_t room = std::max(need, 2 * g.nodes.capacity());
        g.nodes.reserve(room);
        g.keys.reserve(room);
        g.order.reserve(room);
    }
    // Rows no one else holds are moved, not copied: each copy and its free touched three
    // reference counts. Shared ones (a listing's rows kept by its signal) are copied here.
    rows.detach();
    const auto count = static_cast<std::size_t>(rows.size());
    const std::vector<std::size_t> hashes = nameHashes(rows);
    // The index's slots, and a refresh's old rows and their names, are read at random: asked for
    // a few rows ahead.
    for (std::size_t i = 0; i < std::min(kAhead, count); ++i)
        g.byName.prefetch(hashes[i]);
    for (std::size_t i = 0; i < count; ++i) {
        if (i + kAhead < count)
            g.byName.prefetch(hashes[i + kAhead]);
        if (refresh)
            g.oldByName.readAhead(hashes, i, kAhead);
        RemoteFileInfo &info = rows[qsizetype(i)];
        if (info.name.isEmpty())
            continue;
        const Facts *was = refresh ? g.oldByName.value(info.name, hashes[i]) : nullptr;
        if (partial && was && sameFacts(*was, info)) {
            g.unchanged.push_back(static_cast<int>(was - g.old.data()));
            continue;
        }
        addNode(g, std::move(info), hashes[i], was);
    }
    if (partial && g.fresh > kPlacedRows)
        growFull(g);
    if (g.order.size() - g.sorted >= std::max(kMergeRows, g.sorted / 8))
        sortArrived(g);
}

RemoteFileModel::Built RemoteFileModel::finish(Growing &g) {
    awaitOldIndex(g); // a listing of no rows never waited in grow()
    sortArrived(g);
    // Ranks in collation order (equal names equal ranks), so that less() compares integers.
    int rank = -1;
    for (std::size_t i = 0; i < g.order.size(); ++i) {
        if (i == 0 || g.keys.compare(g.order[i - 1], g.order[i]) != 0)
            ++rank;
        g.nodes[g.order[i]]->rank = rank;
    }
    // Then the rows in the model's order, so that a first listing is appended as it is. By
    // name up (the Files tab's default) that is the collation order with folders first.
    const SortKey byName{};
    if (g.key == byName) {
        std::stable_partition(g.order.begin(), g.order.end(),
                              [&g](std::uint32_t i) { return g.nodes[i]->info.isDirectory; });
    } else {
        std::stable_sort(g.order.begin(), g.order.end(), [&g](std::uint32_t a, std::uint32_t b) {
            return less(*g.nodes[a], *g.nodes[b], g.key, g.collator);
        });
    }
    Built built;
    built.nodes.reserve(g.order.size());
    const bool refresh = !g.old.empty();
    if (refresh) {
        built.matched.reserve(g.order.size());
        built.same.reserve(g.order.size());
    }
    for (const std::uint32_t i : g.order) {
        g.nodes[i]->row = static_cast<int>(built.nodes.size());
        built.nodes.push_back(std::move(g.nodes[i]));
        if (refresh) {
            built.matched.push_back(g.matched[i]);
            built.same.push_back(g.same[i]);
        }
    }
    if (refresh) {
        built.version = g.version;
        built.hasMatches = true;
        built.partial = !g.full;
        if (built.partial) {
            // Ranks among a few rows mean nothing among the folder's: the new ones are compared
            // by name until a listing ranks them all.
            for (const auto &node : built.nodes)
                node->rank = -1;
            built.unchanged = std::move(g.unchanged);
        }
    }
    built.byName = std::move(g.byName);
    built.key = g.key;
    g.nodes.clear();
    // 100 000 keys took 5 ms to free, on the way from the last row to the rows shown: freed on
    // another thread instead, with a refresh's snapshot and its index. The
    // rest of g is spent with it.
    if (g.keys.size() + g.old.size() >= kFreeElsewhereRows) {
        struct Leftovers {
            CollationKeys keys;
            NameIndex<const Facts, FactName> oldByName;
            std::vector<Facts> old;
        };
        releaseOnWorker(Leftovers{std::move(g.keys), std::move(g.oldByName), std::move(g.old)});
    }
    return built;
}

RemoteFileModel::Built RemoteFileModel::build(const QList<RemoteFileInfo> &files, SortKey key) {
    Growing growing(key);
    grow(growing, files);
    return finish(growing);
}

std::vector<RemoteFileModel::Facts> RemoteFileModel::snapshot(const Node &folder) {
    std::vector<Facts> facts;
    facts.reserve(folder.children.size());
    const auto &children = folder.children;
    for (std::size_t i = 0; i < children.size(); ++i) {
        // 12 ms of GUI time for 100 000 rows before the nodes were asked for ahead.
        if (i + kAhead < children.size())
            __builtin_prefetch(&children[i + kAhead]->info);
        if (i + kAhead / 2 < children.size()) // its reference count, which the copy raises
            __builtin_prefetch(children[i + kAhead / 2]->info.name.constData(), 1);
        const RemoteFileInfo &f = children[i]->info;
        facts.push_back({f.name, f.path, f.permissions, f.modified, f.size, f.isDirectory});
    }
    return facts;
}

void RemoteFileModel::match(Built &built, const std::vector<Facts> &old, quint32 version) {
    built.matched.assign(built.nodes.size(), -1);
    built.same.assign(built.nodes.size(), false);
    // Each lookup reads an old name, its slot, its node and the node's name, all at random:
    // 100 000 of them one miss after another took 50 ms; asked for ahead instead.
    const std::size_t count = old.size();
    const std::vector<std::size_t> hashes = nameHashes(old);
    const NameIndex<Node> &index = built.byName;
    for (std::size_t i = 0; i < count; ++i) {
        index.readAhead(hashes, i, kAhead);
        const Node *node = index.value(old[i].name, hashes[i]);
        if (!node)
            continue;
        const auto at = static_cast<std::size_t>(node->row);
        built.matched[at] = static_cast<int>(i);
        built.same[at] = sameFacts(old[i], node->info);
    }
    built.version = version;
    built.hasMatches = true;
}

} // namespace sbx
