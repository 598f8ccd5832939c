// The Hooks tab as a user drives it against a real sandbox-server with one env hook: the editor
// refuses bad input before sending anything, a new hook lands in its lane, the server's refusals
// show where they belong, delete asks naming the hook, and Run now shows output and exit code.
#include "client/api/hookjobs.h"
#include "client/sandboxclient.h"
#include "models/hookmodel.h"
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
    void initTestCase() {
        TestServer::Options options;
        // Trial runs start shells; TestServer gives them an empty HOME of their own.
        options.env.insert(QStringLiteral("SANDBOX_SHUTDOWN_HOOKS"),
                           QStringLiteral(R"([{"name":"boot-marker","command":"true",)"
                                          R"("priority":5}])"));
        QVERIFY2(m_server.start(options), qPrintable(m_server.error()));
    }

    void hooksTabFollowsFiles() {
        TabRegistry registry;
        registerStandardTabs(registry);
        QStringList ids;
        for (const WorkspaceTab &tab : registry.tabs())
            ids << tab.id;
        QVERIFY(ids.indexOf(QStringLiteral("hooks")) > ids.indexOf(QStringLiteral("files")));
    }

    void envHookIsShownReadOnlyWithTheReason() {
        SandboxClient client({m_server.url(), {}}, {});
        auto tab = shownTab(&client);
        QVERIFY(tab);
        const QModelIndex lane = tab->model()->indexOfLane(5);
        QVERIFY(lane.isValid());
        QCOMPARE(lane.data().toString(), QStringLiteral("Priority 5 · 1 hook"));

        tab->selectHook(QStringLiteral("boot-marker"));
        QVERIFY(!toolbarAction(tab.get(), QStringLiteral("Delete"))->isEnabled());
        QVERIFY(toolbarAction(tab.get(), QStringLiteral("Delete"))
                    ->toolTip()
                    .contains(QStringLiteral("SANDBOX_SHUTDOWN_HOOKS")));
        int asked = 0;
        ScriptedPrompts prompts;
        prompts.confirmAnswer = [confirm = [&asked](const QString &, const QString &) {
            return ++asked > 0;
        }](const ScriptedPrompts::Question &q) {
            return confirm(q.title, q.text);
        };
        tab->setPrompts(&prompts);
        QTest::keyClick(tab->view(), Qt::Key_Delete);
        QCOMPARE(asked, 0);

        // Enter shows it, read-only, saying why.
        QTest::keyClick(tab->view(), Qt::Key_Return);
        QTRY_VERIFY(tab->editor());
        QCOMPARE(tab->editor()->mode(), HookEditorDialog::Mode::View);
        QVERIFY(tab->editor()->nameEdit()->isReadOnly());
        QVERIFY(tab->editor()->findChild<QLabel *>(QStringLiteral("readOnlyReason")));
        tab->editor()->reject();
        QVERIFY(serverHas(&client, QStringLiteral("boot-marker")));
    }

    void editorRefusesInvalidInputBeforeSendingAndNewHookJoinsItsLane() {
        SandboxClient client({m_server.url(), {}}, {});
        auto tab = shownTab(&client);
        QVERIFY(tab);
        QSignalSpy traffic(&client, &SandboxClient::trafficLogged);

        QTest::keyClick(tab->view(), Qt::Key_Insert);
        QTRY_VERIFY(tab->editor());
        HookEditorDialog *editor = tab->editor();
        QCOMPARE(editor->mode(), HookEditorDialog::Mode::Add);
        QVERIFY(!editor->okButton()->isEnabled()); // empty form

        QTest::keyClicks(editor->nameEdit(), QStringLiteral("nightly backup!"));
        QTest::keyClicks(editor->commandEdit(), QStringLiteral("echo saved"));
        QVERIFY(!editor->okButton()->isEnabled());
        QVERIFY2(editor->fieldError(QStringLiteral("name")).contains(QStringLiteral("letters")),
                 qPrintable(editor->fieldError(QStringLiteral("name"))));
        editor->accept(); // as if OK could be pressed anyway
        QVERIFY(editor->isVisible());
        QVERIFY(!editor->isSaving());
        QCoreApplication::processEvents();
        QCOMPARE(traffic.count(), 0); // nothing was sent

        // The name of an existing hook is refused too: Add never replaces silently.
        editor->nameEdit()->setText(QStringLiteral("boot-marker"));
        QVERIFY(!editor->okButton()->isEnabled());
        QVERIFY(editor->fieldError(QStringLiteral("name")).contains(QStringLiteral("exists")));

        editor->nameEdit()->setText(QStringLiteral("nightly-backup"));
        QVERIFY(editor->fieldError(QStringLiteral("name")).isEmpty());
        editor->priorityEdit()->setValue(42);
        editor->timeoutEdit()->setValue(3);
        QVERIFY(editor->okButton()->isEnabled());
        QTest::mouseClick(editor->okButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!tab->editor(), 10000); // closed once the server took it

        QTRY_VERIFY_WITH_TIMEOUT(
            tab->model()->indexOfHook(QStringLiteral("nightly-backup")).isValid(), 10000);
        const QModelIndex added = tab->model()->indexOfHook(QStringLiteral("nightly-backup"));
        QCOMPARE(added.parent(), tab->model()->indexOfLane(42));
        QCOMPARE(added.parent().data().toString(), QStringLiteral("Priority 42 · 1 hook"));
        QTRY_COMPARE(tab->currentHook() ? tab->currentHook()->name : QString(),
                     QStringLiteral("nightly-backup"));
        QVERIFY(tab->view()->isExpanded(added.parent()));
        QVERIFY(serverHas(&client, QStringLiteral("nightly-backup")));
    }

    // The contract lets an agent register any timeout (0, less, a fraction, days): the editor
    // shows it as it is and saving another field does not rewrite it.
    void agentTimeoutIsShownAndKept_data() {
        QTest::addColumn<double>("timeout");
        QTest::newRow("zero") << 0.0;
        QTest::newRow("negative") << -1.0;
        QTest::newRow("fraction") << 0.05;
        QTest::newRow("beyond a day") << 200000.0;
    }
    void agentTimeoutIsShownAndKept() {
        QFETCH(double, timeout);
        SandboxClient client({m_server.url(), {}}, {});
        SandboxHook hook;
        hook.name = QStringLiteral("agent-hook");
        hook.command = QStringLiteral("sync");
        hook.timeoutSeconds = timeout;
        hook.priority = 7;
        HookEditorDialog editor(&client, hook, HookEditorDialog::Mode::Edit, {hook.name});
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QCOMPARE(QLocale().toDouble(editor.timeoutEdit()->cleanText()), timeout);
        QCOMPARE(editor.hook().timeoutSeconds, timeout);
        QVERIFY2(editor.fieldError(QStringLiteral("timeout")).isEmpty(),
                 qPrintable(editor.fieldError(QStringLiteral("timeout"))));

        editor.commandEdit()->moveCursor(QTextCursor::End);
        QTest::keyClicks(editor.commandEdit(), QStringLiteral(" && echo done"));
        QVERIFY2(editor.fieldError(QStringLiteral("timeout")).isEmpty(),
                 qPrintable(editor.fieldError(QStringLiteral("timeout"))));
        QVERIFY(editor.okButton()->isEnabled());
        QCOMPARE(editor.hook().timeoutSeconds, timeout);
        QCOMPARE(editor.hook().command, QStringLiteral("sync && echo done"));
    }

    void serverRefusalShowsUnderTheFieldItNames() {
        SandboxClient client({m_server.url(), {}}, {});
        auto tab = shownTab(&client);
        QVERIFY(tab);
        tab->addHook();
        QTRY_VERIFY(tab->editor());
        HookEditorDialog *editor = tab->editor();
        editor->nameEdit()->setText(QStringLiteral("too-long"));
        editor->commandEdit()->setPlainText(QStringLiteral("sleep 1"));
        // The form allows it; sandbox-server stops hooks at an hour and refuses more.
        editor->timeoutEdit()->setValue(5000);
        QVERIFY(editor->okButton()->isEnabled());
        editor->accept();
        QTRY_VERIFY_WITH_TIMEOUT(!editor->fieldError(QStringLiteral("timeout")).isEmpty(), 10000);
        QVERIFY(editor->isVisible());
        QVERIFY(editor->fieldError(QStringLiteral("name")).isEmpty());
        QVERIFY(!serverHas(&client, QStringLiteral("too-long")));

        // Editing the field clears the server's complaint; the fix goes through.
        editor->timeoutEdit()->setValue(60);
        QVERIFY(editor->fieldError(QStringLiteral("timeout")).isEmpty());
        editor->accept();
        QTRY_VERIFY_WITH_TIMEOUT(!tab->editor(), 10000);
        QVERIFY(serverHas(&client, QStringLiteral("too-long")));
    }

    void deleteAsksNamingTheHook() {
        SandboxClient client({m_server.url(), {}}, {});
        auto *add = new RegisterHookJob(&client, [] {
            SandboxHook h;
            h.name = QStringLiteral("goner");
            h.command = QStringLiteral("true");
            return h;
        }());
        QSignalSpy added(add, &ApiJob::finished);
        add->start();
        QVERIFY(added.wait(10000));
        auto tab = shownTab(&client);
        QVERIFY(tab);
        tab->selectHook(QStringLiteral("goner"));
        QString question;
        bool answer = false;
        ScriptedPrompts prompts;
        prompts.confirmAnswer = [confirm = [&](const QString &, const QString &text) {
            question = text;
            return answer;
        }](const ScriptedPrompts::Question &q) {
            return confirm(q.title, q.text);
        };
        tab->setPrompts(&prompts);
        QTest::keyClick(tab->view(), Qt::Key_Delete);
        QVERIFY2(question.contains(QStringLiteral("goner")), qPrintable(question));
        QVERIFY(serverHas(&client, QStringLiteral("goner")));

        answer = true;
        QTest::keyClick(tab->view(), Qt::Key_Delete);
        QTRY_VERIFY_WITH_TIMEOUT(!tab->model()->indexOfHook(QStringLiteral("goner")).isValid(),
                                 10000);
        QVERIFY(!serverHas(&client, QStringLiteral("goner")));
        QVERIFY(tab->errorText().isEmpty());
    }

    void runNowShowsOutputAndExitCode() {
        SandboxClient client({m_server.url(), {}}, {});
        auto *add = new RegisterHookJob(&client, [] {
            SandboxHook h;
            h.name = QStringLiteral("say-hello");
            h.command = QStringLiteral("echo hello-from-hook\nexit 4");
            h.timeoutSeconds = 5;
            return h;
        }());
        QSignalSpy added(add, &ApiJob::finished);
        add->start();
        QVERIFY(added.wait(10000));
        auto tab = shownTab(&client);
        QVERIFY(tab);
        QTRY_VERIFY(tab->model()->indexOfHook(QStringLiteral("say-hello")).isValid());
        tab->selectHook(QStringLiteral("say-hello"));

        QString question;
        ScriptedPrompts prompts;
        prompts.confirmAnswer = [confirm = [&question](const QString &, const QString &text) {
            question = text;
            return true;
        }](const ScriptedPrompts::Question &q) {
            return confirm(q.title, q.text);
        };
        tab->setPrompts(&prompts);
        QSignalSpy finished(tab.get(), &HooksTab::runFinished);
        toolbarAction(tab.get(), QStringLiteral("Run now"))->trigger();
        QVERIFY2(question.contains(QStringLiteral("real effects")), qPrintable(question));
        QVERIFY(finished.wait(30000));
        QVERIFY2(tab->runOutput().contains(QStringLiteral("hello-from-hook")),
                 qPrintable(tab->runOutput()));
        QVERIFY2(tab->runSummary().contains(QStringLiteral("exit code 4")),
                 qPrintable(tab->runSummary()));
        QVERIFY(tab->findChild<QPlainTextEdit *>(QStringLiteral("runOutput"))->isVisible());
    }

    void sandboxWithoutHooksApiSaysSo() {
        // Under a path prefix sandbox-server has no routes: a 404 on the hooks route, as an AIO
        // without the hooks API would answer.
        QUrl url = m_server.url();
        url.setPath(QStringLiteral("/no-hooks-here/"));
        SandboxClient client({url, {}}, {});
        QSignalSpy traffic(&client, &SandboxClient::trafficLogged);
        HooksTab tab(&client);
        QSignalSpy failed(tab.model(), &HookModel::refreshFailed);
        tab.show();
        QVERIFY(failed.wait(10000));
        QVERIFY(!tab.hasHooksApi());
        QVERIFY(tab.findChild<QLabel *>(QStringLiteral("noHooksApi"))->isVisible());
        QVERIFY(tab.findChild<QLabel *>(QStringLiteral("noHooksApi"))
                    ->text()
                    .contains(QStringLiteral("no hooks API")));
        QVERIFY(tab.errorText().isEmpty());
        QVERIFY(!toolbarAction(&tab, QStringLiteral("Add…"))->isEnabled());
        QCoreApplication::processEvents();
        QCOMPARE(traffic.count(), 1); // asked once, not in a loop
    }
};

QTEST_MAIN(TestHooksTab)
#include "tst_hookstab.moc"
