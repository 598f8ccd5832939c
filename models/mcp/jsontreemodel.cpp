#include "models/mcp/jsontreemodel.h"

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype kShownChars = 300;

QString scalarText(const McpJson &v) {
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    return QString::fromStdString(v.dump(-1, ' ', false, McpJson::error_handler_t::replace));
}

} // namespace

JsonTreeModel::JsonTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Node>()) {}

JsonTreeModel::~JsonTreeModel() = default;

void JsonTreeModel::fill(Node *node, const McpJson &value) {
    node->container = value.is_structured();
    node->array = value.is_array();
    node->size = static_cast<qsizetype>(value.size());
    if (!node->container) {
        node->value = value;
        return;
    }
    int row = 0;
    for (const auto &[key, member] : value.items()) {
        auto child = std::make_unique<Node>();
        child->key =
            node->array ? u'[' + QString::fromStdString(key) + u']' : QString::fromStdString(key);
        child->parent = node;
        child->row = row++;
        fill(child.get(), member);
        node->children.push_back(std::move(child));
    }
}

void JsonTreeModel::setJson(const McpJson &value) {
    beginResetModel();
    m_root = std::make_unique<Node>();
    if (value.is_structured()) {
        fill(m_root.get(), value);
    } else if (!value.is_null()) {
        auto only = std::make_unique<Node>();
        only->parent = m_root.get();
        fill(only.get(), value);
        m_root->children.push_back(std::move(only));
    }
    endResetModel();
}

JsonTreeModel::Node *JsonTreeModel::nodeOf(const QModelIndex &index) const {
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

McpJson JsonTreeModel::jsonOf(const Node *node) {
    if (!node->container)
        return node->value;
    McpJson out = node->array ? McpJson::array() : McpJson::object();
    for (const auto &child : node->children) {
        if (node->array)
            out.push_back(jsonOf(child.get()));
        else
            out[child->key.toStdString()] = jsonOf(child.get());
    }
    return out;
}

QModelIndex JsonTreeModel::index(int row, int column, const QModelIndex &parent) const {
    if (!hasIndex(row, column, parent))
        return {};
    Node *p = nodeOf(parent);
    return createIndex(row, column, p->children[static_cast<std::size_t>(row)].get());
}

QModelIndex JsonTreeModel::parent(const QModelIndex &child) const {
    if (!child.isValid())
        return {};
    const Node *p = nodeOf(child)->parent;
    if (!p || p == m_root.get())
        return {};
    return createIndex(p->row, 0, const_cast<Node *>(p));
}

int JsonTreeModel::rowCount(const QModelIndex &parent) const {
    if (parent.column() > 0)
        return 0;
    return static_cast<int>(nodeOf(parent)->children.size());
}

int JsonTreeModel::columnCount(const QModelIndex &) const {
    return ColumnCount;
}

QVariant JsonTreeModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid())
        return {};
    const Node *n = nodeOf(index);
    if (role == JsonRole)
        return QString::fromStdString(
            jsonOf(n).dump(-1, ' ', false, McpJson::error_handler_t::replace));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    if (index.column() == KeyColumn)
        return n->key;
    if (n->container)
        return n->array ? tr("list of %n", nullptr, int(n->size))
                        : tr("object with %n field(s)", nullptr, int(n->size));
    const QString text = scalarText(n->value);
    if (role == Qt::DisplayRole && text.size() > kShownChars)
        return QString(text.left(kShownChars) + u'…');
    return text;
}

QVariant JsonTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == KeyColumn ? tr("Key") : tr("Value");
}

} // namespace sbx
