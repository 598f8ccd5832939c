#include "widgets/mcp/mcptab.h"

#include "models/mcp/mcpexplorer.h"
#include "models/mcp/mcptoollistmodel.h"
#include "models/palette.h"
#include "widgets/common/userprompts.h"
#include "widgets/common/widgethelpers.h"
#include "widgets/mcp/mcpformview.h"
#include "widgets/mcp/mcpresultview.h"
#include "widgets/workspace/tabregistry.h"

#include <QClipboard>
#include <QComboBox>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

enum EditorPage { FormPage, JsonPage };

QString prettyJson(const McpJson &value) {
    return QString::fromStdString(value.dump(2, ' ', false, McpJson::error_handler_t::replace));
}

QLabel *badgeLabel(const ToolBadge &badge, QWidget *parent) {
    const Palette::Role role = badge.tone == ToolBadge::Tone::Safe      ? Palette::Role::TextSuccess
                               : badge.tone == ToolBadge::Tone::Caution ? Palette::Role::TextError
                                                                        : Palette::Role::TextMuted;
    auto *label = new QLabel(badge.text, parent);
    label->setObjectName(u"badge"_s);
    label->setToolTip(badge.tooltip);
    const QString color = Palette::color(role).name();
    label->setStyleSheet(u"#badge { color: %1; border: 1px solid %1; border-radius: 8px; "
                         "padding: 1px 7px; }"_s.arg(color));
    return label;
}

} // namespace

McpTab::McpTab(SandboxClient *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_explorer(new McpExplorer(client, this))
    , m_serverBox(new QComboBox(this))
    , m_state(new QLabel(this))
    , m_noMcp(makeErrorBox(this))
    , m_toolList(makeListView(tr("Tools"), this))
    , m_historyList(makeListView(tr("Call history"), this))
    , m_rerun(new QPushButton(tr("Run again"), this))
    , m_copyCurl(new QPushButton(tr("Copy as curl"), this))
    , m_toolTitle(new QLabel(this))
    , m_toolDescription(new QLabel(this))
    , m_badges(new QHBoxLayout)
    , m_editors(new QTabWidget(this))
    , m_form(new McpFormView)
    , m_json(new QPlainTextEdit(this))
    , m_problems(makeErrorBox(this))
    , m_callButton(new QPushButton(tr("Call"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_result(new McpResultView(this)) {
    auto *refresh = new QPushButton(tr("Refresh"), this);
    refresh->setToolTip(tr("List the servers and their tools again (F5)"));
    m_serverBox->setMinimumContentsLength(16);
    m_serverBox->setAccessibleName(tr("MCP server"));
    m_serverBox->setToolTip(tr("The sandbox's MCP servers (GET /v1/mcp/servers)"));
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Server:"), this));
    top->addWidget(m_serverBox);
    top->addWidget(refresh);
    top->addWidget(m_state, 1);

    m_toolList->setModel(m_explorer->tools());
    m_toolList->header()->setStretchLastSection(true);
    m_toolList->header()->setSectionResizeMode(McpToolListModel::NameColumn,
                                               QHeaderView::ResizeToContents);
    m_historyList->setModel(m_explorer->history());
    m_historyList->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_historyList->setToolTip(tr("This session's calls: select one to see its result"));
    m_rerun->setToolTip(tr("Call the selected entry's tool again with its arguments"));
    m_copyCurl->setToolTip(tr("Copy the selected call as a curl command. Credentials are read "
                              "from $SANDBOX_API_KEY or $SANDBOX_JWT, never copied."));
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("<b>Tools</b>"), left));
    leftLayout->addWidget(m_toolList, 3);
    auto *historyTitle = new QHBoxLayout;
    historyTitle->addWidget(new QLabel(tr("<b>History</b>"), left), 1);
    historyTitle->addWidget(m_rerun);
    historyTitle->addWidget(m_copyCurl);
    leftLayout->addLayout(historyTitle);
    leftLayout->addWidget(m_historyList, 2);

    m_toolTitle->setTextFormat(Qt::RichText);
    m_toolTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_toolDescription->setWordWrap(true);
    m_toolDescription->setTextFormat(Qt::PlainText);
    m_toolDescription->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(m_toolTitle);
    titleRow->addLayout(m_badges);
    titleRow->addStretch();
    auto *formScroll = new QScrollArea(this);
    formScroll->setWidgetResizable(true);
    formScroll->setFrameShape(QFrame::NoFrame);
    formScroll->setWidget(m_form);
    m_json->setPlaceholderText(tr("The arguments as a JSON object, e.g. {\"message\": \"hi\"}"));
    m_json->setTabChangesFocus(true);
    m_editors->addTab(formScroll, tr("Form"));
    m_editors->addTab(m_json, tr("JSON"));
    m_editors->setTabToolTip(JsonPage, tr("Edit the arguments as JSON; they are checked against "
                                          "the tool's schema before they are sent"));
    m_callButton->setDefault(true);
    m_callButton->setToolTip(tr("Call the tool with these arguments (Ctrl+Enter)"));
    auto *callRow = new QHBoxLayout;
    callRow->addStretch();
    callRow->addWidget(m_cancel);
    callRow->addWidget(m_callButton);

    auto *toolPane = new QWidget(this);
    auto *toolLayout = new QVBoxLayout(toolPane);
    toolLayout->setContentsMargins(0, 0, 0, 0);
    toolLayout->addLayout(titleRow);
    toolLayout->addWidget(m_toolDescription);
    toolLayout->addWidget(m_editors, 1);
    toolLayout->addWidget(m_problems);
    toolLayout->addLayout(callRow);

    auto *right = new QSplitter(Qt::Vertical, this);
    right->addWidget(toolPane);
    right->addWidget(m_result);
    // Most forms are a few fields; the result is what is read, so it gets the larger share.
    right->setStretchFactor(0, 2);
    right->setStretchFactor(1, 3);
    right->setSizes({280, 520});
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 5);
    splitter->setSizes({340, 860});

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_noMcp);
    layout->addWidget(splitter, 1);

    connect(refresh, &QPushButton::clicked, this, &McpTab::refresh);
    connect(m_serverBox, &QComboBox::activated, this,
            [this](int index) { selectServer(m_serverBox->itemText(index)); });
    connect(m_explorer, &McpExplorer::serversChanged, this, &McpTab::onServersChanged);
    connect(m_explorer, &McpExplorer::toolsChanged, this, &McpTab::onToolsChanged);
    connect(m_explorer, &McpExplorer::callStarted, this, [this](quint64 id) {
        m_historyList->setCurrentIndex(m_explorer->history()->index(0, 0));
        if (const McpCall *call = m_explorer->history()->callById(id))
            m_result->showCall(*call);
        updateButtons();
    });
    connect(m_explorer, &McpExplorer::callFinished, this, &McpTab::onCallFinished);
    connect(m_toolList->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) { showTool(m_explorer->tools()->tool(index.row())); });
    connect(m_historyList->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                if (const McpCall *call = m_explorer->history()->call(index.row()))
                    m_result->showCall(*call);
                updateButtons();
            });
    connect(m_editors, &QTabWidget::currentChanged, this,
            [this](int page) { showJsonEditor(page == JsonPage); });
    connect(m_callButton, &QPushButton::clicked, this, &McpTab::callCurrent);
    connect(m_cancel, &QPushButton::clicked, m_explorer, &McpExplorer::cancel);
    connect(m_rerun, &QPushButton::clicked, this, &McpTab::rerunSelected);
    connect(m_copyCurl, &QPushButton::clicked, this, &McpTab::copySelectedAsCurl);
    connect(m_form, &McpFormView::edited, m_problems, &QWidget::hide);
    addLocalShortcut(this, QKeySequence(u"Ctrl+Return"_s), tr("Call the tool"),
                     [this] { callCurrent(); });
    addLocalShortcut(this, QKeySequence(u"Ctrl+Enter"_s), tr("Call the tool"),
                     [this] { callCurrent(); });
    addLocalShortcut(this, QKeySequence(Qt::Key_F5), tr("Reload the tools"),
                     [this] { McpTab::refresh(); });
    showTool(nullptr);
}

McpTab::~McpTab() = default;

void McpTab::setPrompts(UserPrompts *prompts) {
    m_prompts = prompts;
    m_result->setPrompts(prompts);
}

void McpTab::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (!m_refreshed)
        refresh();
}

void McpTab::refresh() {
    m_refreshed = true;
    m_explorer->refreshServers();
}

void McpTab::onServersChanged() {
    const McpExplorer::State state = m_explorer->serversState();
    m_noMcp->setVisible(state == McpExplorer::State::NoMcpApi ||
                        state == McpExplorer::State::Failed);
    if (state == McpExplorer::State::Loading) {
        m_state->setText(tr("Listing the MCP servers…"));
        return;
    }
    if (state == McpExplorer::State::NoMcpApi) {
        m_noMcp->setText(tr("This sandbox has no MCP API: GET /v1/mcp/servers answered 404 "
                            "(a sandbox-server started with --without mcp, or a server without "
                            "AIO's /v1/mcp endpoints)."));
        m_state->clear();
    } else if (state == McpExplorer::State::Failed) {
        m_noMcp->setText(
            tr("The MCP servers could not be listed: %1").arg(m_explorer->serversError()));
        m_state->clear();
    }
    const QString previous = m_explorer->currentServer();
    m_serverBox->clear();
    m_serverBox->addItems(m_explorer->servers());
    if (state != McpExplorer::State::Ready)
        return m_explorer->selectServer({});
    if (m_explorer->servers().isEmpty()) {
        m_state->setText(tr("The sandbox offers no MCP server. sandbox-server reads them from "
                            ".sandbox-server/mcp-servers.json or SANDBOX_MCP_SERVERS."));
        return m_explorer->selectServer({});
    }
    const QString next =
        m_explorer->servers().contains(previous) ? previous : m_explorer->servers().front();
    selectServer(next);
}

void McpTab::selectServer(const QString &server) {
    m_serverBox->setCurrentIndex(m_serverBox->findText(server));
    m_explorer->selectServer(server);
}

void McpTab::onToolsChanged() {
    switch (m_explorer->toolsState()) {
    case McpExplorer::State::Loading:
        m_state->setText(tr("Listing the tools of %1 (a server starts on first use; it may be "
                            "installed first)…")
                             .arg(m_explorer->currentServer()));
        return;
    case McpExplorer::State::Failed:
        m_state->setText(tr("The tools of %1 could not be listed: %2")
                             .arg(m_explorer->currentServer(), m_explorer->toolsError()));
        m_state->setStyleSheet(Palette::textStyle(Palette::Role::TextError));
        showTool(nullptr);
        return;
    case McpExplorer::State::Ready: {
        m_state->setStyleSheet({});
        const int count = m_explorer->tools()->rowCount();
        m_state->setText(
            tr("%n tool(s)", nullptr, count) +
            (m_explorer->toolsNote().isEmpty() ? QString() : u" · "_s + m_explorer->toolsNote()));
        const int row = qMax(0, m_explorer->tools()->rowOf(m_toolName));
        if (count > 0)
            m_toolList->setCurrentIndex(m_explorer->tools()->index(row, 0));
        return;
    }
    default:
        showTool(nullptr);
        return;
    }
}

void McpTab::selectTool(const QString &name) {
    const int row = m_explorer->tools()->rowOf(name);
    if (row >= 0)
        m_toolList->setCurrentIndex(m_explorer->tools()->index(row, 0));
}

const McpTool *McpTab::currentTool() const {
    return m_explorer->tools()->tool(m_toolName);
}

void McpTab::showTool(const McpTool *tool) {
    while (QLayoutItem *item = m_badges->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_problems->hide();
    m_toolName = tool ? tool->name : QString();
    if (!tool) {
        m_toolTitle->setText(tr("<b>No tool selected</b>"));
        m_toolDescription->clear();
        m_form->clear();
        m_json->clear();
        updateButtons();
        return;
    }
    QString title = u"<b>%1</b>"_s.arg(tool->displayName().toHtmlEscaped());
    if (!tool->title.isEmpty() && tool->title != tool->name)
        title += u" &nbsp;<code>%1</code>"_s.arg(tool->name.toHtmlEscaped());
    m_toolTitle->setText(title);
    m_toolDescription->setText(tool->description);
    m_toolDescription->setVisible(!tool->description.isEmpty());
    for (const ToolBadge &badge : toolBadges(*tool))
        m_badges->addWidget(badgeLabel(badge, this));
    const FormField form = formFromSchema(tool->inputSchema);
    const FormValue value = initialValue(form);
    m_form->setForm(form, value);
    m_json->setPlainText(prettyJson(argumentsFrom(form, value, nullptr)));
    const bool formless = form.kind == FormKind::Json;
    m_editors->setTabEnabled(FormPage, !formless);
    m_editors->setTabToolTip(FormPage,
                             formless ? tr("No form: %1").arg(form.jsonReason) : QString());
    m_editors->setCurrentIndex(formless ? JsonPage : FormPage);
    updateButtons();
}

void McpTab::showJsonEditor(bool json) {
    if (m_editors->currentIndex() != (json ? JsonPage : FormPage)) {
        m_editors->setCurrentIndex(json ? JsonPage : FormPage); // comes back here once
        return;
    }
    const FormField &form = m_form->form();
    if (json) {
        m_json->setPlainText(prettyJson(argumentsFrom(form, m_form->value(), nullptr)));
        return;
    }
    const QByteArray text = m_json->toPlainText().toUtf8();
    const McpJson parsed = text.trimmed().isEmpty()
                               ? McpJson::object()
                               : McpJson::parse(text.begin(), text.end(), nullptr, false);
    if (!parsed.is_object()) {
        showProblems({{{}, tr("is not a JSON object: fix it before going back to the form")}});
        const QSignalBlocker blocker(m_editors);
        m_editors->setCurrentIndex(JsonPage);
        return;
    }
    m_form->setValue(valueFromJson(form, parsed));
    QStringList unknown;
    for (const auto &[key, v] : parsed.items()) {
        bool known = false;
        for (const FormField &f : form.fields)
            known = known || f.key.toStdString() == key;
        if (!known)
            unknown << QString::fromStdString(key);
    }
    if (!unknown.isEmpty())
        showProblems({{{},
                       tr("the form has no field for %1: edit it in the JSON editor")
                           .arg(unknown.join(u", "_s))}});
}

std::optional<McpJson> McpTab::argumentsToSend() {
    const McpTool *tool = currentTool();
    if (!tool)
        return std::nullopt;
    QList<FormProblem> problems;
    McpJson arguments;
    if (m_editors->currentIndex() == JsonPage) {
        const QByteArray text = m_json->toPlainText().toUtf8();
        arguments = text.trimmed().isEmpty()
                        ? McpJson::object()
                        : McpJson::parse(text.begin(), text.end(), nullptr, false);
        if (arguments.is_discarded()) {
            showProblems({{{}, tr("are not valid JSON")}});
            return std::nullopt;
        }
    } else {
        arguments = argumentsFrom(m_form->form(), m_form->value(), &problems);
    }
    problems += McpExplorer::check(*tool, arguments);
    if (!problems.isEmpty()) {
        showProblems(problems);
        return std::nullopt;
    }
    return arguments;
}

void McpTab::showProblems(const QList<FormProblem> &problems) {
    QStringList lines;
    for (const FormProblem &p : problems)
        lines << p.text();
    m_problems->setText(tr("Not sent. %1").arg(lines.join(u"; "_s)));
    m_problems->show();
}

bool McpTab::confirmAndCall(const McpTool &tool, const McpJson &arguments) {
    const QString server = m_explorer->currentServer();
    if (needsConfirmation(tool)) {
        const QString why =
            tool.annotations.destructive == true
                ? tr("it says it may delete or overwrite (destructiveHint)")
                : tr("it does not say it is read-only or harmless, and MCP's defaults then "
                     "count it as destructive");
        const QString text = tr("%1 on %2 may change or delete things: %3.\n\nCall it with "
                                "these arguments?\n\n%4")
                                 .arg(tool.name, server, why, prettyJson(arguments));
        UserPrompts *prompts = m_prompts ? m_prompts : dialogPrompts();
        if (!prompts->confirm(this, tr("Call %1?").arg(tool.name), text, tr("Call"))) {
            m_problems->setText(tr("Not called: %1 was not confirmed.").arg(tool.name));
            m_problems->show();
            return false;
        }
    }
    m_problems->hide();
    return m_explorer->call(server, tool.name, arguments);
}

bool McpTab::callCurrent() {
    const McpTool *tool = currentTool();
    if (!tool || m_explorer->calling())
        return false;
    const auto arguments = argumentsToSend();
    return arguments && confirmAndCall(*tool, *arguments);
}

bool McpTab::rerunSelected() {
    const McpCall *call = m_explorer->history()->call(m_historyList->currentIndex().row());
    if (!call || m_explorer->calling())
        return false;
    const McpCall again = *call;
    if (again.server != m_explorer->currentServer()) {
        m_problems->setText(tr("Select the server %1 to run this call again.").arg(again.server));
        m_problems->show();
        return false;
    }
    selectTool(again.tool);
    const McpTool *tool = currentTool();
    if (!tool || tool->name != again.tool) {
        m_problems->setText(tr("%1 has no tool %2 any more.").arg(again.server, again.tool));
        m_problems->show();
        return false;
    }
    m_form->setValue(valueFromJson(m_form->form(), again.arguments));
    m_json->setPlainText(prettyJson(again.arguments));
    return confirmAndCall(*tool, again.arguments);
}

QString McpTab::copySelectedAsCurl() {
    const McpCall *call = m_explorer->history()->call(m_historyList->currentIndex().row());
    if (!call)
        return {};
    const QString text = m_explorer->curlCommand(*call);
    QGuiApplication::clipboard()->setText(text);
    m_state->setText(tr("Copied as curl: it reads the credentials from the environment."));
    return text;
}

void McpTab::onCallFinished(quint64 id) {
    const McpCall *shown = m_explorer->history()->call(m_historyList->currentIndex().row());
    if (shown && shown->id == id)
        m_result->showCall(*shown);
    updateButtons();
}

void McpTab::updateButtons() {
    const bool calling = m_explorer->calling();
    m_callButton->setEnabled(!m_toolName.isEmpty() && !calling);
    m_cancel->setEnabled(calling);
    const bool selected =
        m_explorer->history()->call(m_historyList->currentIndex().row()) != nullptr;
    m_rerun->setEnabled(selected && !calling);
    m_copyCurl->setEnabled(selected);
}

QString McpTab::problemText() const {
    return m_problems->isHidden() ? QString() : m_problems->text();
}

QString McpTab::stateText() const {
    return m_state->text();
}

bool McpTab::showsNoMcpApi() const {
    return !m_noMcp->isHidden() && m_explorer->serversState() == McpExplorer::State::NoMcpApi;
}

void registerMcpTab(TabRegistry &registry) {
    registry.add(clientTab<McpTab>(u"mcp"_s, QCoreApplication::translate("sbx::McpTab", "MCP"), 55,
                                   u"plug"_s));
}

} // namespace sbx
