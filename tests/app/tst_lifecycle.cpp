// Sandbox lifecycle from the console's list, as a user drives it: create local sandboxes, pause
// and resume one, stop and delete several at once with one confirmation, read a sandbox's log.
#include "app/consolecontext.h"
#include "app/mainwindow.h"
#include "app/sandboxactions.h"
#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/localsandboxes.h"
#include "client/providers/processtree.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/secretstore.h"
#include "models/logs/logdata.h"
#include "models/sandboxlistmodel.h"
#include "tests/support/scriptedprompts.h"
#include "widgets/dialogs/newsandboxdialog.h"
#include "widgets/logs/logview.h"
#include "widgets/sandboxlist/sandboxlistview.h"
#include "widgets/workspace/sandboxworkspace.h"

#include <QAction>
#include <QLineEdit>
#include <QRadioButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

SandboxState stateOf(const ConsoleContext &context, const QString &id) {
    const int row = context.sandboxList()->rowOf(id);
    return row < 0 ? SandboxState::Stopped
                   : static_cast<SandboxState>(context.sandboxList()
                                                   ->index(row, 0)
                                                   .data(SandboxListModel::StateRole)
                                                   .toInt());
}

} // namespace

class TestLifecycle final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    ConsoleContext::Paths paths(const QString &name) const {
        ConsoleContext::Paths p{m_dir.filePath(name + u".conf"_s),
                                m_dir.filePath(name + u"-data"_s),
                                QStringLiteral(SBX_SERVER_BINARY), false};
        // No container engine in this suite: tests/engine covers it against podman.
        p.engineSocket = m_dir.filePath(u"no-engine.sock"_s);
        return p;
    }

private Q_SLOTS:
    void createPauseResumeStopAndDeleteFromTheList();
    void declinedConfirmationChangesNothing();
    void newSandboxDialogChecksTheForm();
};

void TestLifecycle::createPauseResumeStopAndDeleteFromTheList() {
    ConsoleContext context(paths(u"life"_s));
    MainWindow window(&context);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    SandboxActions *actions = window.lifecycle();
    ScriptedPrompts prompts;
    context.setPrompts(&prompts);
    QStringList asked;
    prompts.confirmAnswer = [&asked](const ScriptedPrompts::Question &q) {
        asked << q.text;
        return true;
    };

    // A console-made workspace, and a folder the user picked.
    NewSandboxRequest alpha;
    alpha.options.name = u"alpha"_s;
    alpha.options.initHook = u"echo init-hook-ran"_s;
    QSignalSpy created(actions, &SandboxActions::created);
    actions->create(alpha);
    QCOMPARE(created.size(), 1);
    const QString alphaId = created.takeFirst().at(0).toString();
    QTemporaryDir picked;
    QFile keep(picked.filePath(u"keep.txt"_s));
    QVERIFY(keep.open(QIODevice::WriteOnly));
    keep.close();
    NewSandboxRequest beta;
    beta.options.name = u"beta"_s;
    beta.options.workspace = picked.path();
    actions->create(beta);
    const QString betaId = created.takeFirst().at(0).toString();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(context, alphaId), SandboxState::Online, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(context, betaId), SandboxState::Online, 20000);
    // A local sandbox's key is made anew at each start: nothing to copy once.
    QVERIFY(prompts.secretsShown.isEmpty());
    const QString alphaFolder = context.local()->workspace(alphaId);
    QVERIFY(QFileInfo(alphaFolder).isDir());
    QCOMPARE(context.local()->workspace(betaId), picked.path());

    // The log shows the server's output, startup hook included.
    window.selectSandbox(alphaId);
    QVERIFY(actions->action(LifecycleAction::Logs)->isEnabled());
    actions->action(LifecycleAction::Logs)->trigger();
    SandboxWorkspace *ws = window.workspace(alphaId);
    auto *log = qobject_cast<LogView *>(ws->tab(u"logs"_s));
    QVERIFY(log);
    QCOMPARE(ws->findChild<QTabWidget *>()->currentWidget(), log);
    const auto logText = [log] {
        return QString::fromUtf8(log->data()->lines(0, log->data()->lineCount()).join('\n'));
    };
    QTRY_VERIFY_WITH_TIMEOUT(logText().contains(u"init-hook-ran"_s), 10000);

    // Pause freezes the server; only Resume (and Stop) are offered then. Keys work while
    // the list has focus.
    QVERIFY(actions->action(LifecycleAction::Pause)->isEnabled());
    QVERIFY(!actions->action(LifecycleAction::Resume)->isEnabled());
    window.activateWindow();
    window.sandboxView()->setFocus();
    QTRY_VERIFY(window.sandboxView()->hasFocus());
    QTest::keyClick(window.sandboxView(), Qt::Key_P, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(context, alphaId), SandboxState::Paused, 10000);
    // SIGSTOP is delivered when the kernel next schedules the server: on a busy machine /proc
    // may show it running for a moment after the kill() returned.
    QTRY_COMPARE_WITH_TIMEOUT(processState(context.local()->processId(alphaId)), 'T', 5000);
    QTRY_VERIFY(actions->action(LifecycleAction::Resume)->isEnabled());
    QVERIFY(!actions->action(LifecycleAction::Pause)->isEnabled());
    actions->action(LifecycleAction::Resume)->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(context, alphaId), SandboxState::Online, 10000);

    // Both selected: one confirmation names both, then both stop.
    auto *list = window.sandboxView();
    list->selectionModel()->select(
        context.sandboxList()->index(context.sandboxList()->rowOf(alphaId), 0),
        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    list->selectionModel()->select(
        context.sandboxList()->index(context.sandboxList()->rowOf(betaId), 0),
        QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QCOMPARE(list->selectedIds().size(), 2);
    QVERIFY(actions->action(LifecycleAction::Stop)->isEnabled());
    QVERIFY(!actions->action(LifecycleAction::Logs)->isEnabled()); // one sandbox's view
    actions->action(LifecycleAction::Stop)->trigger();
    QCOMPARE(asked.size(), 1);
    QVERIFY(asked.first().contains(u"alpha"_s));
    QVERIFY(asked.first().contains(u"beta"_s));
    QVERIFY(asked.first().contains(u"shutdown hooks"_s));
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(context, alphaId), SandboxState::Stopped, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(context, betaId), SandboxState::Stopped, 20000);
    QTRY_VERIFY(actions->action(LifecycleAction::Start)->isEnabled());

    // Delete: the confirmation says which folder goes and which stays.
    asked.clear();
    actions->action(LifecycleAction::Delete)->trigger();
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.first().contains(u"is deleted: "_s + alphaFolder), qPrintable(asked.first()));
    QVERIFY2(asked.first().contains(u"is kept: "_s + picked.path()), qPrintable(asked.first()));
    QTRY_COMPARE_WITH_TIMEOUT(context.sandboxList()->rowOf(alphaId), -1, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(context.sandboxList()->rowOf(betaId), -1, 20000);
    QVERIFY(!QFileInfo::exists(alphaFolder));
    QVERIFY(QFileInfo::exists(picked.filePath(u"keep.txt"_s)));
}

void TestLifecycle::declinedConfirmationChangesNothing() {
    ConsoleContext context(paths(u"decline"_s));
    MainWindow window(&context);
    SandboxActions *actions = window.lifecycle();
    ScriptedPrompts prompts;
    prompts.confirmAnswer = [](const ScriptedPrompts::Question &) {
        return false;
    };
    context.setPrompts(&prompts);
    NewSandboxRequest r;
    r.options.name = u"gamma"_s;
    QSignalSpy created(actions, &SandboxActions::created);
    actions->create(r);
    const QString id = created.takeFirst().at(0).toString();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(context, id), SandboxState::Online, 20000);
    window.selectSandbox(id);
    actions->action(LifecycleAction::Delete)->trigger();
    actions->action(LifecycleAction::Stop)->trigger();
    QCOMPARE(stateOf(context, id), SandboxState::Online);
    QVERIFY(context.sandboxList()->rowOf(id) >= 0);
}

void TestLifecycle::newSandboxDialogChecksTheForm() {
    QSettings settings(m_dir.filePath(u"dialog.conf"_s), QSettings::IniFormat);
    MemorySecretStore secrets;
    LocalSandboxes local(&settings, {QStringLiteral(SBX_SERVER_BINARY), m_dir.path()});
    EngineSandboxes engine(&secrets, u"/nowhere.sock"_s);
    NewSandboxDialog dialog(u"sandbox-1"_s, {&local, &engine});
    QVERIFY(dialog.problem().isEmpty());
    QCOMPARE(dialog.request().providerId, local.id());
    const auto radios = dialog.findChildren<QRadioButton *>();
    for (QRadioButton *radio : radios) {
        if (radio->text().contains(u"Container"_s))
            QVERIFY(!radio->isEnabled()); // the engine is not there
    }
    NewSandboxRequest r;
    r.options.name = QString();
    dialog.setRequest(r);
    QVERIFY(dialog.problem().contains(u"name"_s));
    r.options.name = u"ok"_s;
    r.options.workspace = m_dir.filePath(u"does-not-exist"_s);
    dialog.setRequest(r);
    QVERIFY(dialog.problem().contains(u"existing folder"_s));
    r.providerId = engine.id();
    r.options.name = u"bad name!"_s;
    r.options.image = u"img"_s;
    dialog.setRequest(r);
    QVERIFY(dialog.problem().contains(u"container name"_s));
    r.options.name = u"good-name"_s;
    r.options.initHook = u"echo hi"_s;
    dialog.setRequest(r);
    QVERIFY(dialog.problem().isEmpty());
    QCOMPARE(dialog.request().options.initHook, u"echo hi"_s);
    auto *publish = dialog.findChild<QLineEdit *>(u"publishAddress"_s);
    QVERIFY(publish);
    QVERIFY(publish->isHidden()); // this machine's engine publishes on its loopback

    // An engine on another host asks where to publish, its address first.
    EngineEndpoint far;
    QString why;
    QVERIFY(parseEngineHost(u"tcp://192.0.2.7:2376"_s, &far, &why));
    far.name = u"lab"_s;
    far.tls = true;
    EngineSandboxes remote(&secrets, far);
    NewSandboxDialog remoteDialog(u"sandbox-2"_s, {&local, &remote});
    publish = remoteDialog.findChild<QLineEdit *>(u"publishAddress"_s);
    r.providerId = remote.id();
    remoteDialog.setRequest(r);
    QVERIFY(!publish->isHidden());
    QCOMPARE(publish->text(), u"192.0.2.7"_s);
    QCOMPARE(remoteDialog.request().options.publishAddress, u"192.0.2.7"_s);
    publish->setText(u"build-host"_s);
    QVERIFY2(remoteDialog.problem().contains(u"IP address"_s), qPrintable(remoteDialog.problem()));
    const auto radios2 = remoteDialog.findChildren<QRadioButton *>();
    QVERIFY(std::any_of(radios2.cbegin(), radios2.cend(), [](const QRadioButton *b) {
        return b->text().contains(u"Container on lab (tcp://192.0.2.7:2376)"_s);
    }));
}

QTEST_MAIN(TestLifecycle)
#include "tst_lifecycle.moc"
