#pragma once

// RemoteFileModel's rows, shared by its two source files (listing, order); not for others.
#include "models/files/remotefilemodel.h"

#include <QHash>

#include <memory>
#include <vector>

namespace sbx {

struct RemoteFileModel::Node {
    RemoteFileInfo info;
    Node *parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;
    // A first listing's rows not inserted yet (kChunkRows a turn), already in byName.
    std::vector<std::unique_ptr<Node>> pending;
    // The children by name: a path is found a component at a time, O(depth).
    QHash<QString, Node *> byName;
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
};

// A listing's rows as nodes, built where the listing was parsed or on a worker, ready to be
// adopted by their folder in one insertion.
struct RemoteFileModel::Built {
    std::vector<std::unique_ptr<Node>> nodes;
    QHash<QString, Node *> byName;
    // A refresh matched on the worker: per node, the row of its namesake in the snapshot (-1:
    // new) and whether their facts are the same; valid for the folder's version it was taken at.
    std::vector<int> matched;
    std::vector<bool> same;
    quint32 version = 0;
    bool hasMatches = false;
    SortKey key; // the order the nodes are in
};

} // namespace sbx
