#pragma once

#include "client/api/mcpjobs.h"
#include "models/mcp/toolform.h"

#include <QPointer>
#include <QWidget>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTreeView;

namespace sbx {

class McpExplorer;
class McpFormView;
class McpResultView;
class SandboxClient;
class TabRegistry;
class UserPrompts;

// The MCP tab: the sandbox's MCP servers and their tools (with their annotation hints), a form
// generated from the chosen tool's inputSchema with a raw JSON editor beside it, Call
// (Ctrl+Enter) showing the result, and this session's calls with Run again and Copy as curl.
// Arguments are checked against the schema before anything is sent; a tool that may destroy
// (needsConfirmation) is called only after the user agrees.
class McpTab final : public QWidget {
    Q_OBJECT
public:
    explicit McpTab(SandboxClient *client, QWidget *parent = nullptr);
    ~McpTab() override;

    void setPrompts(UserPrompts *prompts);

    void refresh();
    void selectServer(const QString &server);
    void selectTool(const QString &name);
    // Checks the arguments (the form's, or the JSON editor's when it is showing), asks before a
    // destructive tool, and sends. False when nothing was sent (the reason is shown).
    bool callCurrent();
    // The selected history entry: call it again (asking again if destructive), or copy it.
    bool rerunSelected();
    QString copySelectedAsCurl();
    // Shows the JSON editor (true) or the form, carrying the arguments across.
    void showJsonEditor(bool json);

    McpExplorer *explorer() const { return m_explorer; }
    McpFormView *formView() const { return m_form; }
    McpResultView *resultView() const { return m_result; }
    QPlainTextEdit *jsonEditor() const { return m_json; }
    QTreeView *toolList() const { return m_toolList; }
    QTreeView *historyList() const { return m_historyList; }
    QComboBox *serverBox() const { return m_serverBox; }
    QPushButton *callButton() const { return m_callButton; }
    const McpTool *currentTool() const;
    // Shown above the form: why the last call was not sent, and the tab's state line.
    QString problemText() const;
    QString stateText() const;
    // Shown when the sandbox has no /v1/mcp API.
    bool showsNoMcpApi() const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    void onServersChanged();
    void onToolsChanged();
    void onCallFinished(quint64 id);
    void showTool(const McpTool *tool);
    // The arguments to send, or nullopt with the problems shown.
    std::optional<McpJson> argumentsToSend();
    bool confirmAndCall(const McpTool &tool, const McpJson &arguments);
    void showProblems(const QList<FormProblem> &problems);
    void updateButtons();

    QPointer<SandboxClient> m_client;
    UserPrompts *m_prompts = nullptr;
    McpExplorer *m_explorer;
    QComboBox *m_serverBox;
    QLabel *m_state;
    QLabel *m_noMcp;
    QTreeView *m_toolList;
    QTreeView *m_historyList;
    QPushButton *m_rerun;
    QPushButton *m_copyCurl;
    QLabel *m_toolTitle;
    QLabel *m_toolDescription;
    QHBoxLayout *m_badges;
    QTabWidget *m_editors;
    McpFormView *m_form;
    QPlainTextEdit *m_json;
    QLabel *m_problems;
    QPushButton *m_callButton;
    QPushButton *m_cancel;
    McpResultView *m_result;
    QString m_toolName;
    bool m_refreshed = false;
};

void registerMcpTab(TabRegistry &registry);

} // namespace sbx
