// The MCP tab against a real sandbox-server in front of real MCP servers (server-everything and
// server-filesystem over stdio, installed by npm into the build folder): tools listed with their
// schemas and hints, the generated form filled and called with Ctrl+Enter, results shown as
// text, a sum, an inline image and a JSON tree, tool errors marked, a destructive tool called
// only after the user agrees, the raw JSON editor checked before sending, history with Run
// again and a curl command that holds no secret and works, and a sandbox without MCP.
#include "client/sandboxclient.h"
#include "models/mcp/jsontreemodel.h"
#include "models/mcp/mcpexplorer.h"
#include "models/mcp/mcphistorymodel.h"
#include "models/mcp/mcptoollistmodel.h"
#include "tests/server/mcptestsupport.h"
#include "tests/support/scriptedprompts.h"
#include "tests/support/testserver.h"
#include "widgets/mcp/mcpformview.h"
#include "widgets/mcp/mcpresultview.h"
#include "widgets/mcp/mcptab.h"
#include "widgets/workspace/tabregistry.h"

#include <QAbstractItemModelTester>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

const QString kApiKey = u"mcp-tab-key-7f3a9c1e"_s;

} // namespace

class TestMcpTab final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_workspace;
    TestServer m_server;
    std::unique_ptr<SandboxClient> m_client;
    ScriptedPrompts m_prompts;
    QString m_everything;

    std::unique_ptr<McpTab> shownTab(const QString &server = u"everything"_s) {
        auto tab = std::make_unique<McpTab>(m_client.get());
        tab->setPrompts(&m_prompts);
        tab->resize(1300, 850);
        tab->show();
        if (!QTest::qWaitForWindowExposed(tab.get()))
            return nullptr;
        // The first listing starts the server: node, then MCP's initialize.
        const auto ready = [&] {
            return tab->explorer()->serversState() == McpExplorer::State::Ready;
        };
        if (!QTest::qWaitFor(ready, 15000))
            return nullptr;
        tab->selectServer(server);
        const auto listed = [&] {
            return tab->explorer()->toolsState() != McpExplorer::State::Loading;
        };
        if (!QTest::qWaitFor(listed, 60000))
            return nullptr;
        return tab;
    }
    // Calls the current tool through the tab and waits for its result.
    static bool callAndWait(McpTab *tab) {
        QSignalSpy done(tab->explorer(), &McpExplorer::callFinished);
        if (!tab->callCurrent())
            return false;
        return done.wait(60000);
    }
    static QLineEdit *field(McpTab *tab, const QString &path) {
        return qobject_cast<QLineEdit *>(tab->formView()->input(path));
    }
    qsizetype callsSent(const QString &tool) {
        return m_server.stderrText().count(QByteArray("tools/call '" + tool.toUtf8() + "' sent"));
    }

private Q_SLOTS:
    void initTestCase();
    void toolsAreListedWithTheirSchemasAndHints();
    void echoFormFillsAndCallsWithCtrlEnter();
    void missingRequiredFieldIsNamedAndNothingSent();
    void sumOfTwoNumbersIsShown();
    void tinyImageIsShownInline();
    void structuredContentIsATree();
    void toolErrorIsMarked();
    void destructiveToolAsksFirstAndRefusalSendsNothing();
    void jsonEditorIsCheckedBeforeSending();
    void historyRunsAgainAndCopiesAWorkingCurl();
    void tabIsRegistered();
    void sandboxWithoutMcpSaysSo();
};

void TestMcpTab::initTestCase() {
    QString why;
    m_everything = installedEverythingServer(&why);
    if (m_everything.isEmpty())
        QSKIP(qPrintable(u"server-everything cannot be installed: "_s + why));
    const QString filesystem = installedFilesystemServer(&why);
    if (filesystem.isEmpty())
        QSKIP(qPrintable(u"server-filesystem cannot be installed: "_s + why));
    QVERIFY(m_workspace.isValid());
    const QString state = m_workspace.filePath(u".sandbox-server"_s);
    QVERIFY(QDir().mkpath(state));
    const QJsonObject servers{
        {"everything"_L1, everythingEntry(m_everything)},
        {"filesystem"_L1, filesystemEntry(filesystem, {QDir(m_workspace.path()).canonicalPath()})},
    };
    QFile config(state + u"/mcp-servers.json"_s);
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(QJsonDocument(QJsonObject{{"mcpServers"_L1, servers}}).toJson());
    config.close();
    TestServer::Options options = TestServer::withApiKey(kApiKey);
    options.workspace = m_workspace.path();
    options.extraArgs = {u"--verbose"_s};
    QVERIFY2(m_server.start(options), qPrintable(m_server.error()));
    m_client = std::make_unique<SandboxClient>(Endpoint{m_server.url(), {}},
                                               Credentials{Credentials::Kind::ApiKey, kApiKey});
}

void TestMcpTab::toolsAreListedWithTheirSchemasAndHints() {
    auto tab = shownTab();
    QVERIFY(tab);
    QAbstractItemModelTester tools(tab->explorer()->tools(),
                                   QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester history(tab->explorer()->history(),
                                     QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(tab->serverBox()->count(), 2);
    QCOMPARE(tab->serverBox()->itemText(0), u"everything"_s);
    QCOMPARE(tab->explorer()->toolsState(), McpExplorer::State::Ready);
    McpToolListModel *model = tab->explorer()->tools();
    for (const char *name : {"echo", "get-sum", "get-tiny-image", "get-structured-content"})
        QVERIFY2(model->rowOf(QLatin1String(name)) >= 0, name);
    const McpTool *sum = model->tool(u"get-sum"_s);
    QCOMPARE(sum->inputSchema.at("required"), McpJson::parse(R"(["a", "b"])"));
    QCOMPARE(model->index(model->rowOf(u"echo"_s), McpToolListModel::HintsColumn).data(),
             QVariant(u"read-only · idempotent"_s));
    QVERIFY2(tab->stateText().contains(u"tool(s)"_s), qPrintable(tab->stateText()));

    // The first tool is shown; choosing echo shows its form, its field described.
    tab->selectTool(u"echo"_s);
    QCOMPARE(tab->currentTool()->name, u"echo"_s);
    QLineEdit *message = field(tab.get(), u"message"_s);
    QVERIFY(message);
    QCOMPARE(message->toolTip(), u"Message to echo"_s);
    const QList<QLabel *> labels = tab->formView()->findChildren<QLabel *>();
    bool marked = false;
    for (const QLabel *label : labels)
        marked = marked || label->text() == u"message *"_s;
    QVERIFY2(marked, "the required field's label is marked");
    const QList<QLabel *> badges = tab->findChildren<QLabel *>(u"badge"_s);
    QStringList badgeTexts;
    for (const QLabel *b : badges)
        badgeTexts << b->text();
    QCOMPARE(badgeTexts, (QStringList{u"read-only"_s, u"idempotent"_s}));
}

void TestMcpTab::echoFormFillsAndCallsWithCtrlEnter() {
    auto tab = shownTab();
    QVERIFY(tab);
    tab->selectTool(u"echo"_s);
    QLineEdit *message = field(tab.get(), u"message"_s);
    QTest::keyClicks(message, u"hello from the form"_s);
    QSignalSpy done(tab->explorer(), &McpExplorer::callFinished);
    QTest::keyClick(message, Qt::Key_Return, Qt::ControlModifier);
    QVERIFY(done.wait(60000));
    const McpCall *call = tab->explorer()->history()->call(0);
    QCOMPARE(call->outcome, McpCall::Outcome::Ok);
    QCOMPARE(call->arguments, McpJson::parse(R"({"message": "hello from the form"})"));
    QCOMPARE(tab->resultView()->contentText(), u"Echo: hello from the form"_s);
    QVERIFY(!tab->resultView()->showsToolError());
    QVERIFY(tab->resultView()->summaryText().contains(u"1 content item"_s));
}

void TestMcpTab::missingRequiredFieldIsNamedAndNothingSent() {
    auto tab = shownTab();
    QVERIFY(tab);
    tab->selectTool(u"echo"_s);
    const qsizetype sent = callsSent(u"echo"_s);
    QVERIFY(!tab->callCurrent());
    QCOMPARE(tab->problemText(), u"Not sent. message: required"_s);
    QCOMPARE(tab->explorer()->history()->rowCount(), 0);
    QCOMPARE(callsSent(u"echo"_s), sent);
}

void TestMcpTab::sumOfTwoNumbersIsShown() {
    auto tab = shownTab();
    QVERIFY(tab);
    tab->selectTool(u"get-sum"_s);
    QTest::keyClicks(field(tab.get(), u"a"_s), u"2"_s);
    QTest::keyClicks(field(tab.get(), u"b"_s), u"three"_s);
    QVERIFY(!tab->callCurrent());
    QVERIFY2(tab->problemText().contains(u"b: must be a number"_s), qPrintable(tab->problemText()));
    field(tab.get(), u"b"_s)->clear();
    QTest::keyClicks(field(tab.get(), u"b"_s), u"3.5"_s);
    QVERIFY(callAndWait(tab.get()));
    QCOMPARE(tab->resultView()->contentText(), u"The sum of 2 and 3.5 is 5.5."_s);
}

void TestMcpTab::tinyImageIsShownInline() {
    // What the server sends, decoded here on its own, is what the tab must show.
    const HttpResult direct = callTool(m_server.url(), u"everything"_s, u"get-tiny-image"_s, {},
                                       {{"X-AIO-API-Key", kApiKey.toUtf8()}});
    QCOMPARE(direct.status, 200);
    QImage expected;
    for (const QJsonValue &item :
         direct.json().value("data"_L1).toObject().value("content"_L1).toArray()) {
        if (item.toObject().value("type"_L1).toString() == "image"_L1)
            expected = QImage::fromData(
                QByteArray::fromBase64(item.toObject().value("data"_L1).toString().toLatin1()));
    }
    QVERIFY(!expected.isNull());

    auto tab = shownTab();
    QVERIFY(tab);
    tab->selectTool(u"get-tiny-image"_s);
    QVERIFY(callAndWait(tab.get()));
    const QList<QLabel *> images = tab->resultView()->imageLabels();
    QCOMPARE(images.size(), 1);
    const QPixmap pixmap = images.front()->pixmap();
    QVERIFY(!pixmap.isNull());
    QCOMPARE(pixmap.size(), expected.size());
    QCOMPARE(pixmap.toImage().convertToFormat(QImage::Format_ARGB32),
             expected.convertToFormat(QImage::Format_ARGB32));
    QTRY_VERIFY(images.front()->isVisible()); // a layout shows new children queued
    QVERIFY(tab->resultView()->contentText().contains(u"image you requested"_s));
}

void TestMcpTab::structuredContentIsATree() {
    auto tab = shownTab();
    QVERIFY(tab);
    tab->selectTool(u"get-structured-content"_s);
    QVERIFY(!tab->callCurrent());
    QCOMPARE(tab->problemText(), u"Not sent. location: required"_s);
    auto *location = qobject_cast<QComboBox *>(tab->formView()->input(u"location"_s));
    QVERIFY(location);
    location->setCurrentIndex(location->findText(u"Chicago"_s));
    QVERIFY(callAndWait(tab.get()));
    JsonTreeModel *tree = tab->resultView()->structured();
    QAbstractItemModelTester tester(tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(tab->resultView()->structuredView()->isVisible());
    QStringList keys;
    for (int row = 0; row < tree->rowCount(); ++row)
        keys << tree->index(row, JsonTreeModel::KeyColumn).data().toString();
    // In the order the sandbox sent them (sandbox-server's JSON sorts keys; AIO keeps them).
    keys.sort();
    QCOMPARE(keys, (QStringList{u"conditions"_s, u"humidity"_s, u"temperature"_s}));
    QVERIFY(tab->resultView()->summaryText().contains(u"structured content"_s));
}

void TestMcpTab::toolErrorIsMarked() {
    auto tab = shownTab(u"filesystem"_s);
    QVERIFY(tab);
    QCOMPARE(tab->explorer()->toolsState(), McpExplorer::State::Ready);
    tab->selectTool(u"read_text_file"_s);
    // Outside the folders it may read, the server refuses: a tool error, not a failed call.
    QTest::keyClicks(field(tab.get(), u"path"_s), u"/etc/hostname"_s);
    QVERIFY(callAndWait(tab.get()));
    QCOMPARE(tab->explorer()->history()->call(0)->outcome, McpCall::Outcome::ToolError);
    QVERIFY(tab->resultView()->showsToolError());
    QVERIFY(tab->resultView()->summaryText().contains(u"Tool error"_s));
    QVERIFY2(tab->resultView()->contentText().contains(u"denied"_s, Qt::CaseInsensitive),
             qPrintable(tab->resultView()->contentText()));
    QCOMPARE(tab->explorer()->history()->index(0, McpHistoryModel::OutcomeColumn).data(),
             QVariant(u"tool error"_s));
}

void TestMcpTab::destructiveToolAsksFirstAndRefusalSendsNothing() {
    auto tab = shownTab(u"filesystem"_s);
    QVERIFY(tab);
    tab->selectTool(u"write_file"_s);
    QVERIFY(needsConfirmation(*tab->currentTool()));
    const QString target = QDir(m_workspace.path()).canonicalPath() + u"/written.txt"_s;
    QTest::keyClicks(field(tab.get(), u"path"_s), target);
    QTest::keyClicks(field(tab.get(), u"content"_s), u"from the MCP tab"_s);
    m_prompts.asked.clear();
    m_prompts.confirmAnswer = [](const ScriptedPrompts::Question &) {
        return false;
    };
    const qsizetype sent = callsSent(u"write_file"_s);
    QVERIFY(!tab->callCurrent());
    QCOMPARE(m_prompts.asked.size(), 1);
    QCOMPARE(m_prompts.asked.front().title, u"Call write_file?"_s);
    QVERIFY(m_prompts.asked.front().text.contains(u"destructiveHint"_s));
    QVERIFY(m_prompts.asked.front().text.contains(target));
    QCOMPARE(tab->problemText(), u"Not called: write_file was not confirmed."_s);
    QCOMPARE(tab->explorer()->history()->rowCount(), 0);
    QCOMPARE(callsSent(u"write_file"_s), sent);
    QVERIFY(!QFile::exists(target));

    m_prompts.confirmAnswer = [](const ScriptedPrompts::Question &) {
        return true;
    };
    QVERIFY(callAndWait(tab.get()));
    QCOMPARE(m_prompts.asked.size(), 2);
    QCOMPARE(tab->explorer()->history()->call(0)->outcome, McpCall::Outcome::Ok);
    QFile written(target);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(written.readAll(), "from the MCP tab"_ba);

    // A read-only tool asks nothing.
    tab->selectTool(u"list_allowed_directories"_s);
    QVERIFY(callAndWait(tab.get()));
    QCOMPARE(m_prompts.asked.size(), 2);
}

void TestMcpTab::jsonEditorIsCheckedBeforeSending() {
    auto tab = shownTab();
    QVERIFY(tab);
    tab->selectTool(u"get-sum"_s);
    QTest::keyClicks(field(tab.get(), u"a"_s), u"4"_s);
    tab->showJsonEditor(true);
    // The form's arguments carried across.
    QCOMPARE(McpJson::parse(tab->jsonEditor()->toPlainText().toStdString()),
             McpJson::parse(R"({"a": 4})"));
    tab->jsonEditor()->setPlainText(u"{\"a\": 4, \"b\": \"two\"}"_s);
    QVERIFY(!tab->callCurrent());
    QCOMPARE(tab->problemText(), u"Not sent. b: must be a number"_s);
    tab->jsonEditor()->setPlainText(u"{\"a\": 4, "_s);
    QVERIFY(!tab->callCurrent());
    QCOMPARE(tab->problemText(), u"Not sent. arguments: are not valid JSON"_s);
    QCOMPARE(tab->explorer()->history()->rowCount(), 0);
    tab->jsonEditor()->setPlainText(u"{\"a\": 4, \"b\": 0.5}"_s);
    QSignalSpy done(tab->explorer(), &McpExplorer::callFinished);
    QTest::keyClick(tab->jsonEditor(), Qt::Key_Return, Qt::ControlModifier);
    QVERIFY(done.wait(60000));
    QCOMPARE(tab->resultView()->contentText(), u"The sum of 4 and 0.5 is 4.5."_s);
    // Back to the form: the JSON's values fill it.
    tab->showJsonEditor(false);
    QCOMPARE(field(tab.get(), u"b"_s)->text(), u"0.5"_s);
}

void TestMcpTab::historyRunsAgainAndCopiesAWorkingCurl() {
    auto tab = shownTab();
    QVERIFY(tab);
    tab->selectTool(u"echo"_s);
    QTest::keyClicks(field(tab.get(), u"message"_s), u"say it twice"_s);
    QVERIFY(callAndWait(tab.get()));
    tab->selectTool(u"get-sum"_s);
    tab->historyList()->setCurrentIndex(tab->explorer()->history()->index(0, 0));
    QSignalSpy done(tab->explorer(), &McpExplorer::callFinished);
    QVERIFY(tab->rerunSelected());
    QVERIFY(done.wait(60000));
    QCOMPARE(tab->explorer()->history()->rowCount(), 2);
    const McpCall *again = tab->explorer()->history()->call(0);
    QCOMPARE(again->tool, u"echo"_s);
    QCOMPARE(again->arguments, McpJson::parse(R"({"message": "say it twice"})"));
    QCOMPARE(tab->currentTool()->name, u"echo"_s);
    QCOMPARE(field(tab.get(), u"message"_s)->text(), u"say it twice"_s);
    QCOMPARE(tab->resultView()->contentText(), u"Echo: say it twice"_s);

    tab->historyList()->setCurrentIndex(tab->explorer()->history()->index(0, 0));
    const QString curl = tab->copySelectedAsCurl();
    QCOMPARE(QGuiApplication::clipboard()->text(), curl);
    QVERIFY2(!curl.contains(kApiKey), qPrintable(curl));
    QVERIFY2(curl.contains(u"-H \"X-AIO-API-Key: $SANDBOX_API_KEY\""_s), qPrintable(curl));
    QVERIFY2(curl.contains(u"/v1/mcp/everything/tools/echo"_s), qPrintable(curl));
    // It works, with the key from the environment.
    QProcess shell;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"SANDBOX_API_KEY"_s, kApiKey);
    shell.setProcessEnvironment(env);
    shell.start(u"bash"_s, {u"-c"_s, curl});
    QVERIFY(shell.waitForFinished(30000));
    const QByteArray answer = shell.readAllStandardOutput();
    QVERIFY2(answer.contains("Echo: say it twice"), answer.constData());
}

void TestMcpTab::tabIsRegistered() {
    TabRegistry registry;
    registerStandardTabs(registry);
    bool found = false;
    for (const WorkspaceTab &tab : registry.tabs()) {
        if (tab.id == "mcp"_L1) {
            found = true;
            QCOMPARE(tab.title, u"MCP"_s);
            WorkspaceContext context;
            context.client = m_client.get();
            context.prompts = &m_prompts;
            std::unique_ptr<QWidget> made(tab.create(context, nullptr));
            QVERIFY(qobject_cast<McpTab *>(made.get()));
        }
    }
    QVERIFY(found);
}

void TestMcpTab::sandboxWithoutMcpSaysSo() {
    TestServer older;
    QVERIFY(older.start(TestServer::withArgs({u"--without"_s, u"mcp"_s})));
    SandboxClient client(Endpoint{older.url(), {}}, Credentials{});
    McpTab tab(&client);
    tab.setPrompts(&m_prompts);
    tab.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tab));
    QTRY_VERIFY_WITH_TIMEOUT(tab.showsNoMcpApi(), 15000);
    QCOMPARE(tab.serverBox()->count(), 0);
    QVERIFY(!tab.callButton()->isEnabled());
    QVERIFY(!tab.callCurrent());
}

QTEST_MAIN(TestMcpTab)
#include "tst_mcptab.moc"
