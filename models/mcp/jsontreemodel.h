#pragma once

#include "client/api/mcpjobs.h"

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace sbx {

// A JSON value as a tree of key and value (a tool's structuredContent), in the order it came.
// Built once per value; objects and arrays show their size, long strings are cut in the view
// and whole in the tooltip.
class JsonTreeModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueColumn, ColumnCount };
    // The node's value as compact JSON text.
    enum Role { JsonRole = Qt::UserRole + 1 };

    explicit JsonTreeModel(QObject *parent = nullptr);
    ~JsonTreeModel() override;

    // Replaces the tree. An object or array shows its members at the top level; any other value
    // is one row.
    void setJson(const McpJson &value);
    void clear() { setJson(McpJson()); }
    bool isEmpty() const { return m_root->children.empty(); }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Node {
        QString key;
        McpJson value; // scalars only; containers keep their children instead
        bool container = false;
        bool array = false;
        qsizetype size = 0;
        Node *parent = nullptr;
        int row = 0;
        std::vector<std::unique_ptr<Node>> children;
    };
    static void fill(Node *node, const McpJson &value);
    Node *nodeOf(const QModelIndex &index) const;
    static McpJson jsonOf(const Node *node);

    std::unique_ptr<Node> m_root;
};

} // namespace sbx
