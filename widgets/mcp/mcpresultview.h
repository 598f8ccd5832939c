#pragma once

#include "models/mcp/mcphistorymodel.h"
#include "models/mcp/toolresult.h"

#include <QWidget>

class QLabel;
class QTreeView;
class QVBoxLayout;

namespace sbx {

class JsonTreeModel;
class UserPrompts;

// A tool call's result: a banner when the tool reported an error, its content in order (text
// selectable, images inline at their size, resource links, binaries with Save), and its
// structuredContent as a JSON tree.
class McpResultView final : public QWidget {
    Q_OBJECT
public:
    explicit McpResultView(QWidget *parent = nullptr);

    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }
    void showCall(const McpCall &call);
    void showMessage(const QString &text);
    void clear();

    // What a test observes.
    bool showsToolError() const;
    QString summaryText() const;
    // Every text shown in the content, joined by newlines.
    QString contentText() const;
    // The labels that show images, in order.
    QList<QLabel *> imageLabels() const;
    JsonTreeModel *structured() const { return m_structured; }
    QTreeView *structuredView() const { return m_tree; }

private:
    void addPart(const ResultPart &part);
    void save(const ResultPart &part);

    UserPrompts *m_prompts = nullptr;
    QLabel *m_banner;
    QLabel *m_summary;
    QWidget *m_content;
    QVBoxLayout *m_parts;
    JsonTreeModel *m_structured;
    QTreeView *m_tree;
    QWidget *m_structuredBox;
};

} // namespace sbx
