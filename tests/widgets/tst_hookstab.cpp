// The Hooks tab as a user drives it against a real sandbox-server with one env hook: the editor
// refuses bad input before sending anything, a new hook lands in its lane, the server's refusals
// show where they belong, delete asks naming the hook, and Run now shows output and exit code.
#include "client/api/hookjobs.h"
#include "client/sandboxclient.h"
#include "models/hookmodel.h"
#include "tests/support/jobs.h"
#include "tests/support/scriptedprompts.h"
#include "tests/support/testserver.h"
#include "widgets/hooks/hookeditor.h"
#include "widgets/hooks/hookstab.h"
#include "widgets/workspace/tabregistry.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QToolBar>
#include <QTreeView>
#include <QtTest>

#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

QList<SandboxHook> serverHooks(SandboxClient *client) {
    auto *job = new ListHooksJob(client);
    QList<SandboxHook> hooks;
    QObject::connect(job, &ListHooksJob::succeeded, job,
                     [&hooks](const QList<SandboxHook> &h) { hooks = h; });
    QSignalSpy done(job, &ApiJob::finished);
    job->start();
    if (!done.wait(20000))
        qWarning("listing hooks did not finish");
    QCoreApplication::processEvents();
    return hooks;
}

bool serverHas(SandboxClient *client, const QString &name) {
    const QList<SandboxHook> hooks = serverHooks(client);
    return std::any_of(hooks.begin(), hooks.end(),
                       [&name](const SandboxHook &h) { return h.name == name; });
}

QAction *toolbarAction(HooksTab *tab, const QString &text) {
    const QList<QAction *> actions = tab->findChild<QToolBar *>()->actions();
    for (QAction *action : actions) {
        if (action->text() == text)
            return action;
    }
    return nullptr;
}

// The tab shown, with its first listing done.
std::unique_ptr<HooksTab> shownTab(SandboxClient *client) {
    auto tab = std::make_unique<HooksTab>(client);
    tab->resize(900, 600);
    tab->show();
    if (!QTest::qWaitForWindowExposed(tab.get()))
        return nullptr;
    QSignalSpy refreshed(tab->model(), &HookModel::refreshed);
    if (tab->model()->rowCount() == 0 && !refreshed.wait(10000))
        return nullptr;
    return tab;
}

} // namespace

class TestHooksTab final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;

private Q_SLOTS:
    void initTestCase();
    void hooksTabFollowsFiles();
    void envHookIsShownReadOnlyWithTheReason();
    void editorRefusesInvalidInputBeforeSendingAndNewHookJoinsItsLane();
    void agentTimeoutIsShownAndKept_data();
    void agentTimeoutIsShownAndKept();
    void serverRefusalShowsUnderTheFieldItNames();
    void deleteAsksNamingTheHook();
    void runNowShowsOutputAndExitCode();
    void sandboxWithoutHooksApiSaysSo();
};

void TestHooksTab::initTestCase() {
    // Trial runs start shells; TestServer gives them an empty HOME of their own.
    const auto hook = uR"([{"name":"boot-marker","command":"true","priority":5}])"_s;
    QVERIFY2(m_server.start(TestServer::Options().set(u"SANDBOX_SHUTDOWN_HOOKS"_s, hook)),
             qPrintable(m_server.error()));
}

void TestHooksTab::hooksTabFollowsFiles() {
    TabRegistry registry;
    registerStandardTabs(registry);
    QStringList ids;
    for (const WorkspaceTab &tab : registry.tabs())
        ids << tab.id;
    QVERIFY(ids.indexOf(u"hooks"_s) > ids.indexOf(u"files"_s));
}

void TestHooksTab::envHookIsShownReadOnlyWithTheReason() {
    SandboxClient client({m_server.url(), {}}, {});
    auto tab = shownTab(&client);
    QVERIFY(tab);
    const QModelIndex lane = tab->model()->indexOfLane(5);
    QVERIFY(lane.isValid());
    QCOMPARE(lane.data().toString(), u"Priority 5 · 1 hook"_s);

    tab->selectHook(u"boot-marker"_s);
    QVERIFY(!toolbarAction(tab.get(), u"Delete"_s)->isEnabled());
    QVERIFY(toolbarAction(tab.get(), u"Delete"_s)->toolTip().contains(u"SANDBOX_SHUTDOWN_HOOKS"_s));
    int asked = 0;
    ScriptedPrompts prompts;
    prompts.confirmAnswer = [&asked](const ScriptedPrompts::Question &) {
        return ++asked > 0;
    };
    tab->setPrompts(&prompts);
    QTest::keyClick(tab->view(), Qt::Key_Delete);
    QCOMPARE(asked, 0);

    // Enter shows it, read-only, saying why.
    QTest::keyClick(tab->view(), Qt::Key_Return);
    QTRY_VERIFY(tab->editor());
    QCOMPARE(tab->editor()->mode(), HookEditorDialog::Mode::View);
    QVERIFY(tab->editor()->nameEdit()->isReadOnly());
    QVERIFY(tab->editor()->findChild<QLabel *>(u"readOnlyReason"_s));
    tab->editor()->reject();
    QVERIFY(serverHas(&client, u"boot-marker"_s));
}

void TestHooksTab::editorRefusesInvalidInputBeforeSendingAndNewHookJoinsItsLane() {
    SandboxClient client({m_server.url(), {}}, {});
    auto tab = shownTab(&client);
    QVERIFY(tab);
    QSignalSpy traffic(&client, &SandboxClient::trafficLogged);

    QTest::keyClick(tab->view(), Qt::Key_Insert);
    QTRY_VERIFY(tab->editor());
    HookEditorDialog *editor = tab->editor();
    QCOMPARE(editor->mode(), HookEditorDialog::Mode::Add);
    QVERIFY(!editor->okButton()->isEnabled()); // empty form

    QTest::keyClicks(editor->nameEdit(), u"nightly backup!"_s);
    QTest::keyClicks(editor->commandEdit(), u"echo saved"_s);
    QVERIFY(!editor->okButton()->isEnabled());
    QVERIFY2(editor->fieldError(u"name"_s).contains(u"letters"_s),
             qPrintable(editor->fieldError(u"name"_s)));
    editor->accept(); // as if OK could be pressed anyway
    QVERIFY(editor->isVisible());
    QVERIFY(!editor->isSaving());
    QCoreApplication::processEvents();
    QCOMPARE(traffic.count(), 0); // nothing was sent

    // The name of an existing hook is refused too: Add never replaces silently.
    editor->nameEdit()->setText(u"boot-marker"_s);
    QVERIFY(!editor->okButton()->isEnabled());
    QVERIFY(editor->fieldError(u"name"_s).contains(u"exists"_s));

    editor->nameEdit()->setText(u"nightly-backup"_s);
    QVERIFY(editor->fieldError(u"name"_s).isEmpty());
    editor->priorityEdit()->setValue(42);
    editor->timeoutEdit()->setValue(3);
    QVERIFY(editor->okButton()->isEnabled());
    QTest::mouseClick(editor->okButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!tab->editor(), 10000); // closed once the server took it

    QTRY_VERIFY_WITH_TIMEOUT(tab->model()->indexOfHook(u"nightly-backup"_s).isValid(), 10000);
    const QModelIndex added = tab->model()->indexOfHook(u"nightly-backup"_s);
    QCOMPARE(added.parent(), tab->model()->indexOfLane(42));
    QCOMPARE(added.parent().data().toString(), u"Priority 42 · 1 hook"_s);
    QTRY_COMPARE(tab->currentHook() ? tab->currentHook()->name : QString(), u"nightly-backup"_s);
    QVERIFY(tab->view()->isExpanded(added.parent()));
    QVERIFY(serverHas(&client, u"nightly-backup"_s));
}

// The contract lets an agent register any timeout (0, less, a fraction, days): the editor
// shows it as it is and saving another field does not rewrite it.
void TestHooksTab::agentTimeoutIsShownAndKept_data() {
    QTest::addColumn<double>("timeout");
    QTest::newRow("zero") << 0.0;
    QTest::newRow("negative") << -1.0;
    QTest::newRow("fraction") << 0.05;
    QTest::newRow("beyond a day") << 200000.0;
}

void TestHooksTab::agentTimeoutIsShownAndKept() {
    QFETCH(double, timeout);
    SandboxClient client({m_server.url(), {}}, {});
    SandboxHook hook;
    hook.name = u"agent-hook"_s;
    hook.command = u"sync"_s;
    hook.timeoutSeconds = timeout;
    hook.priority = 7;
    HookEditorDialog editor(&client, hook, HookEditorDialog::Mode::Edit, {hook.name});
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    QCOMPARE(QLocale().toDouble(editor.timeoutEdit()->cleanText()), timeout);
    QCOMPARE(editor.hook().timeoutSeconds, timeout);
    QVERIFY2(editor.fieldError(u"timeout"_s).isEmpty(),
             qPrintable(editor.fieldError(u"timeout"_s)));

    editor.commandEdit()->moveCursor(QTextCursor::End);
    QTest::keyClicks(editor.commandEdit(), u" && echo done"_s);
    QVERIFY2(editor.fieldError(u"timeout"_s).isEmpty(),
             qPrintable(editor.fieldError(u"timeout"_s)));
    QVERIFY(editor.okButton()->isEnabled());
    QCOMPARE(editor.hook().timeoutSeconds, timeout);
    QCOMPARE(editor.hook().command, u"sync && echo done"_s);
}

void TestHooksTab::serverRefusalShowsUnderTheFieldItNames() {
    SandboxClient client({m_server.url(), {}}, {});
    auto tab = shownTab(&client);
    QVERIFY(tab);
    tab->addHook();
    QTRY_VERIFY(tab->editor());
    HookEditorDialog *editor = tab->editor();
    editor->nameEdit()->setText(u"too-long"_s);
    editor->commandEdit()->setPlainText(u"sleep 1"_s);
    // The form allows it; sandbox-server stops hooks at an hour and refuses more.
    editor->timeoutEdit()->setValue(5000);
    QVERIFY(editor->okButton()->isEnabled());
    editor->accept();
    QTRY_VERIFY_WITH_TIMEOUT(!editor->fieldError(u"timeout"_s).isEmpty(), 10000);
    QVERIFY(editor->isVisible());
    QVERIFY(editor->fieldError(u"name"_s).isEmpty());
    QVERIFY(!serverHas(&client, u"too-long"_s));

    // Editing the field clears the server's complaint; the fix goes through.
    editor->timeoutEdit()->setValue(60);
    QVERIFY(editor->fieldError(u"timeout"_s).isEmpty());
    editor->accept();
    QTRY_VERIFY_WITH_TIMEOUT(!tab->editor(), 10000);
    QVERIFY(serverHas(&client, u"too-long"_s));
}

void TestHooksTab::deleteAsksNamingTheHook() {
    SandboxClient client({m_server.url(), {}}, {});
    SandboxHook hook;
    hook.name = u"goner"_s;
    hook.command = u"true"_s;
    QVERIFY(runJob(new RegisterHookJob(&client, hook)).ok());
    auto tab = shownTab(&client);
    QVERIFY(tab);
    tab->selectHook(u"goner"_s);
    QString question;
    bool answer = false;
    ScriptedPrompts prompts;
    prompts.confirmAnswer = [&](const ScriptedPrompts::Question &q) {
        question = q.text;
        return answer;
    };
    tab->setPrompts(&prompts);
    QTest::keyClick(tab->view(), Qt::Key_Delete);
    QVERIFY2(question.contains(u"goner"_s), qPrintable(question));
    QVERIFY(serverHas(&client, u"goner"_s));

    answer = true;
    QTest::keyClick(tab->view(), Qt::Key_Delete);
    QTRY_VERIFY_WITH_TIMEOUT(!tab->model()->indexOfHook(u"goner"_s).isValid(), 10000);
    QVERIFY(!serverHas(&client, u"goner"_s));
    QVERIFY(tab->errorText().isEmpty());
}

void TestHooksTab::runNowShowsOutputAndExitCode() {
    SandboxClient client({m_server.url(), {}}, {});
    SandboxHook hook;
    hook.name = u"say-hello"_s;
    hook.command = u"echo hello-from-hook\nexit 4"_s;
    hook.timeoutSeconds = 5;
    QVERIFY(runJob(new RegisterHookJob(&client, hook)).ok());
    auto tab = shownTab(&client);
    QVERIFY(tab);
    QTRY_VERIFY(tab->model()->indexOfHook(u"say-hello"_s).isValid());
    tab->selectHook(u"say-hello"_s);

    QString question;
    ScriptedPrompts prompts;
    prompts.confirmAnswer = [&question](const ScriptedPrompts::Question &q) {
        question = q.text;
        return true;
    };
    tab->setPrompts(&prompts);
    QSignalSpy finished(tab.get(), &HooksTab::runFinished);
    toolbarAction(tab.get(), u"Run now"_s)->trigger();
    QVERIFY2(question.contains(u"real effects"_s), qPrintable(question));
    QVERIFY(finished.wait(30000));
    QVERIFY2(tab->runOutput().contains(u"hello-from-hook"_s), qPrintable(tab->runOutput()));
    QVERIFY2(tab->runSummary().contains(u"exit code 4"_s), qPrintable(tab->runSummary()));
    QVERIFY(tab->findChild<QPlainTextEdit *>(u"runOutput"_s)->isVisible());
}

void TestHooksTab::sandboxWithoutHooksApiSaysSo() {
    // Under a path prefix sandbox-server has no routes: a 404 on the hooks route, as an AIO
    // without the hooks API would answer.
    QUrl url = m_server.url(u"/no-hooks-here/"_s);
    SandboxClient client({url, {}}, {});
    QSignalSpy traffic(&client, &SandboxClient::trafficLogged);
    HooksTab tab(&client);
    QSignalSpy failed(tab.model(), &HookModel::refreshFailed);
    tab.show();
    QVERIFY(failed.wait(10000));
    QVERIFY(!tab.hasHooksApi());
    QVERIFY(tab.findChild<QLabel *>(u"noHooksApi"_s)->isVisible());
    QVERIFY(tab.findChild<QLabel *>(u"noHooksApi"_s)->text().contains(u"no hooks API"_s));
    QVERIFY(tab.errorText().isEmpty());
    QVERIFY(!toolbarAction(&tab, u"Add…"_s)->isEnabled());
    QCoreApplication::processEvents();
    QCOMPARE(traffic.count(), 1); // asked once, not in a loop
}

QTEST_MAIN(TestHooksTab)
#include "tst_hookstab.moc"
