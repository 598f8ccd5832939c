#include "models/mcp/mcptoollistmodel.h"

#include <QCoreApplication>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// lupdate files a free tr() under the enclosing class or namespace: one named context instead.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(sbx::McpToolListModel)
};

} // namespace

bool needsConfirmation(const McpTool &tool) {
    const McpToolAnnotations &a = tool.annotations;
    if (a.destructive == true)
        return true;
    return a.readOnly != true && a.destructive != false;
}

QList<ToolBadge> toolBadges(const McpTool &tool) {
    const McpToolAnnotations &a = tool.annotations;
    QList<ToolBadge> badges;
    if (a.readOnly == true)
        badges.push_back({Text::tr("read-only"),
                          Text::tr("The tool says it changes nothing (readOnlyHint)"),
                          ToolBadge::Tone::Safe});
    if (needsConfirmation(tool)) {
        badges.push_back(
            {Text::tr("destructive"),
             a.destructive == true
                 ? Text::tr("The tool says it may delete or overwrite (destructiveHint); "
                            "calling it asks first")
                 : Text::tr("The tool does not say it is read-only or harmless: MCP's "
                            "defaults count it as destructive, so calling it asks first"),
             ToolBadge::Tone::Caution});
    } else if (a.readOnly != true) {
        badges.push_back({Text::tr("writes"),
                          Text::tr("The tool changes things, but says it does not destroy "
                                   "(destructiveHint false)"),
                          ToolBadge::Tone::Neutral});
    }
    if (a.idempotent == true)
        badges.push_back({Text::tr("idempotent"),
                          Text::tr("Calling it again with the same arguments changes nothing more "
                                   "(idempotentHint)"),
                          ToolBadge::Tone::Neutral});
    if (a.openWorld == true)
        badges.push_back({Text::tr("open world"),
                          Text::tr("The tool reaches beyond the sandbox: the web, other services "
                                   "(openWorldHint)"),
                          ToolBadge::Tone::Neutral});
    return badges;
}

McpToolListModel::McpToolListModel(QObject *parent)
    : QAbstractTableModel(parent) {}

void McpToolListModel::setTools(QList<McpTool> tools) {
    beginResetModel();
    m_tools.clear();
    m_rows.clear();
    endResetModel();
    appendTools(tools);
}

int McpToolListModel::appendTools(const QList<McpTool> &tools) {
    QList<McpTool> fresh;
    for (const McpTool &t : tools) {
        bool seen = m_rows.contains(t.name);
        for (const McpTool &f : fresh)
            seen = seen || f.name == t.name;
        if (!seen)
            fresh.append(t);
    }
    if (fresh.isEmpty())
        return 0;
    const int first = static_cast<int>(m_tools.size());
    beginInsertRows({}, first, first + static_cast<int>(fresh.size()) - 1);
    for (McpTool &t : fresh) {
        m_rows.insert(t.name, static_cast<int>(m_tools.size()));
        m_tools.append(std::move(t));
    }
    endInsertRows();
    return static_cast<int>(fresh.size());
}

const McpTool *McpToolListModel::tool(int row) const {
    return row >= 0 && row < m_tools.size() ? &m_tools.at(row) : nullptr;
}

const McpTool *McpToolListModel::tool(const QString &name) const {
    return tool(rowOf(name));
}

int McpToolListModel::rowOf(const QString &name) const {
    return m_rows.value(name, -1);
}

int McpToolListModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_tools.size());
}

int McpToolListModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant McpToolListModel::data(const QModelIndex &index, int role) const {
    const McpTool *t = tool(index.row());
    if (!t || !index.isValid())
        return {};
    if (role == NameRole)
        return t->name;
    if (index.column() == NameColumn) {
        if (role == Qt::DisplayRole)
            return t->name;
        if (role == Qt::ToolTipRole)
            return t->title.isEmpty() ? t->description : t->title + u"\n\n"_s + t->description;
        return {};
    }
    const QList<ToolBadge> badges = toolBadges(*t);
    if (role == Qt::DisplayRole) {
        QStringList words;
        for (const ToolBadge &b : badges)
            words << b.text;
        return words.join(u" · "_s);
    }
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        for (const ToolBadge &b : badges)
            lines << b.text + u": "_s + b.tooltip;
        return lines.join(u'\n');
    }
    return {};
}

QVariant McpToolListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == NameColumn ? Text::tr("Tool") : Text::tr("Hints");
}

} // namespace sbx
