#pragma once

#include "client/api/mcpjobs.h"

#include <QAbstractTableModel>
#include <QList>

namespace sbx {

// One annotation badge of a tool: "read-only", "destructive", ...
struct ToolBadge {
    enum class Tone { Safe, Caution, Neutral };
    QString text;
    QString tooltip;
    Tone tone = Tone::Neutral;
};

// Whether calling the tool asks first. MCP's defaults decide for a hint the tool leaves out:
// readOnlyHint false and destructiveHint true, so a tool that says nothing asks, and so does one
// marked destructiveHint true whatever else it says. A tool marked read-only, or writing but
// destructiveHint false, does not.
bool needsConfirmation(const McpTool &tool);
// The badges of a tool's annotations, in a fixed order.
QList<ToolBadge> toolBadges(const McpTool &tool);

// The tools of one MCP server, in the server's order: name (or title), and its hints.
class McpToolListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, HintsColumn, ColumnCount };
    enum Role { NameRole = Qt::UserRole + 1 };

    explicit McpToolListModel(QObject *parent = nullptr);

    void setTools(QList<McpTool> tools);
    // Appends the tools of a further page, skipping names already listed; how many were new.
    int appendTools(const QList<McpTool> &tools);
    const McpTool *tool(int row) const;
    const McpTool *tool(const QString &name) const;
    int rowOf(const QString &name) const;
    const QList<McpTool> &all() const { return m_tools; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<McpTool> m_tools;
    QHash<QString, int> m_rows; // name -> row
};

} // namespace sbx
