// The real main window, driven as a user would: add a sandbox through the dialog, read its tabs.
#include "app/commandline.h"
#include "app/consolecontext.h"
#include "app/mainwindow.h"
#include "client/providers/localsandboxes.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/savedendpoints.h"
#include "models/sandboxlistmodel.h"
#include "tests/support/testserver.h"
#include "widgets/dialogs/preferencesdialog.h"
#include "widgets/dialogs/sandboxdialog.h"
#include "widgets/llms/llmstxtview.h"
#include "widgets/overview/contextview.h"
#include "widgets/workspace/sandboxworkspace.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QToolBar>
#include <QTreeView>
#include <QtTest>

#include <functional>

using namespace sbx;
using namespace sbxtest;

namespace {

// Runs fn on the next modal dialog of type T once it is shown, while the caller's exec() blocks.
template <typename T> void onModal(std::function<void(T *)> fn) {
    QTimer::singleShot(0, qApp, [fn] {
        T *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (dialog = qobject_cast<T *>(QApplication::activeModalWidget())) != nullptr, 5000);
        fn(dialog);
    });
}

QString readAll(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestMainWindow final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    ConsoleContext::Paths paths(const QString &name) const {
        return {m_dir.filePath(name + QStringLiteral(".conf")),
                m_dir.filePath(name + QStringLiteral("-data")), QStringLiteral(SBX_SERVER_BINARY),
                false};
    }

private Q_SLOTS:
    void addSandboxThroughDialogAndSeeOverview() {
        const QString key = QStringLiteral("gui-test-key-7f3a");
        TestServer server;
        TestServer::Options options;
        options.env.insert(QStringLiteral("SANDBOX_API_KEY"), key);
        QVERIFY2(server.start(options), qPrintable(server.error()));

        ConsoleContext context(paths(QStringLiteral("add")));
        MainWindow window(&context);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QString wrongOutcome, rightOutcome;
        onModal<SandboxDialog>([&](SandboxDialog *dialog) {
            QTest::keyClicks(dialog->nameEdit(), QStringLiteral("Agent box"));
            QTest::keyClicks(dialog->urlEdit(), server.url().toString());
            dialog->authCombo()->setCurrentIndex(
                dialog->authCombo()->findData(int(Credentials::Kind::ApiKey)));
            QTest::keyClicks(dialog->secretEdit(), QStringLiteral("wrong-key"));
            QSignalSpy tested(dialog, &SandboxDialog::testFinished);
            QTest::mouseClick(dialog->testButton(), Qt::LeftButton);
            QVERIFY(tested.wait(10000));
            wrongOutcome = dialog->testOutcome();
            dialog->secretEdit()->clear();
            QTest::keyClicks(dialog->secretEdit(), key);
            QTest::mouseClick(dialog->testButton(), Qt::LeftButton);
            QVERIFY(tested.wait(10000));
            rightOutcome = dialog->testOutcome();
            dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        });
        window.addSandbox();
        QVERIFY2(wrongOutcome.contains(QStringLiteral("Wrong API key")), qPrintable(wrongOutcome));
        QVERIFY(!wrongOutcome.contains(QStringLiteral("wrong-key")));
        QVERIFY2(rightOutcome.contains(QStringLiteral("Connected")), qPrintable(rightOutcome));

        const QString id = window.selectedSandbox();
        QVERIFY(id.startsWith(QStringLiteral("saved:")));
        QCOMPARE(context.registry()->entry(id).name, QStringLiteral("Agent box"));
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("Agent box")));
        QVERIFY(!window.windowTitle().contains(key));

        SandboxWorkspace *ws = window.workspace(id);
        QVERIFY(ws && ws->isVisible());
        auto *overview = qobject_cast<ContextView *>(ws->tab(QStringLiteral("overview")));
        QVERIFY(overview);
        QTRY_VERIFY_WITH_TIMEOUT(overview->isLoaded(), 10000);
        QVERIFY(!overview->fieldText(QStringLiteral("os")).isEmpty());
        QVERIFY(!overview->fieldText(QStringLiteral("arch")).isEmpty());
        QVERIFY(
            overview->fieldText(QStringLiteral("ports")).contains(QString::number(server.port())));
        QCOMPARE(overview->fieldText(QStringLiteral("workspace")), server.workspace());
        QTRY_COMPARE_WITH_TIMEOUT(context.registry()->state(id), SandboxState::Online, 10000);

        // llms.txt: rendered, searchable.
        auto *llms = qobject_cast<LlmsTxtView *>(ws->tab(QStringLiteral("llms")));
        QVERIFY(llms);
        ws->tabs()->setCurrentWidget(llms);
        QTRY_VERIFY_WITH_TIMEOUT(llms->isLoaded(), 10000);
        QVERIFY(llms->browser()->toPlainText().contains(QStringLiteral("System Environment")));
        QVERIFY(llms->find(QStringLiteral("/v1/sandbox")) > 0);
        QCOMPARE(llms->find(QStringLiteral("no-such-text-xyz")), 0);

        // The secret stays out of the settings file.
        context.settings()->sync();
        const QString settingsText = readAll(paths(QStringLiteral("add")).settingsFile);
        QVERIFY(settingsText.contains(QStringLiteral("Agent box")));
        QVERIFY(!settingsText.contains(key));
    }

    void unreachableSandboxShowsErrorInWorkspace() {
        ConsoleContext context(paths(QStringLiteral("down")));
        MainWindow window(&context);
        window.show();
        const QString id = context.saved()->add({QString(),
                                                 QStringLiteral("Down"),
                                                 {QUrl(QStringLiteral("http://127.0.0.1:9")), {}},
                                                 {},
                                                 SandboxState::Online,
                                                 {}});
        window.selectSandbox(id);
        auto *overview =
            qobject_cast<ContextView *>(window.workspace(id)->tab(QStringLiteral("overview")));
        QSignalSpy failed(overview, &ContextView::loadFailed);
        QVERIFY(failed.count() > 0 || failed.wait(10000));
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("Connection refused")));
        QTRY_COMPARE(context.registry()->state(id), SandboxState::Unreachable);
        auto *banner = window.workspace(id)->findChild<QFrame *>(QStringLiteral("stateBanner"));
        QTRY_VERIFY(banner->isVisible());
    }

    void refusedKeyFromTheEnvironmentIsNamedInTheBanner() {
        TestServer server;
        TestServer::Options options;
        options.env.insert(QStringLiteral("SANDBOX_API_KEY"), QStringLiteral("the-right-key-123"));
        QVERIFY2(server.start(options), qPrintable(server.error()));
        // Saved with a key in an earlier session; this session's store no longer has it.
        {
            ConsoleContext earlier(paths(QStringLiteral("envkey")));
            earlier.saved()->add({QString(),
                                  QStringLiteral("Agent"),
                                  {server.url(), {}},
                                  {Credentials::Kind::ApiKey, QStringLiteral("old-key-456")},
                                  SandboxState::Online,
                                  {}});
        }
        ConsoleContext context(paths(QStringLiteral("envkey")));
        MainWindow window(&context);
        window.show();
        qputenv("SBX_TEST_REFUSED_KEY", "not-the-key-789");
        ConsoleOptions cli;
        cli.connectUrl = server.url().toString();
        cli.apiKeyEnv = QStringLiteral("SBX_TEST_REFUSED_KEY");
        QString error;
        const QString id = connectFromCommandLine(context, cli, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        window.selectSandbox(id);
        QTRY_COMPARE_WITH_TIMEOUT(context.registry()->state(id), SandboxState::AuthFailed, 10000);
        auto *banner = window.workspace(id)->findChild<QFrame *>(QStringLiteral("stateBanner"));
        QTRY_VERIFY(banner->isVisible());
        const QLabel *label = banner->findChild<QLabel *>();
        QTRY_VERIFY2_WITH_TIMEOUT(label->text().contains(QStringLiteral("SBX_TEST_REFUSED_KEY")),
                                  qPrintable(label->text()), 10000);
        const QString text = label->text();
        QVERIFY2(!text.contains(QStringLiteral("keychain")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("not-the-key-789")));
        QCOMPARE(context.registry()->entry(id).credentials.secret,
                 QStringLiteral("not-the-key-789"));
    }

    void localSandboxIsConnectedAndFilled() {
        ConsoleContext context(paths(QStringLiteral("local")));
        MainWindow window(&context);
        window.show();
        const QString id = context.local()->ensureDefault();
        window.selectSandbox(id);
        QTRY_COMPARE_WITH_TIMEOUT(context.registry()->state(id), SandboxState::Online, 20000);
        auto *overview =
            qobject_cast<ContextView *>(window.workspace(id)->tab(QStringLiteral("overview")));
        if (!overview->isLoaded())
            overview->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(overview->isLoaded(), 10000);
        QCOMPARE(overview->fieldText(QStringLiteral("workspace")), context.local()->workspace(id));
    }

    void preferencesPersistPollInterval() {
        {
            ConsoleContext context(paths(QStringLiteral("prefs")));
            MainWindow window(&context);
            onModal<PreferencesDialog>([](PreferencesDialog *dialog) {
                dialog->pollIntervalBox()->setValue(12);
                dialog->parallelTransfersBox()->setValue(3);
                dialog->accept();
            });
            window.showPreferences();
            QCOMPARE(context.registry()->pollInterval(), 12000);
        }
        ConsoleContext again(paths(QStringLiteral("prefs")));
        QCOMPARE(again.preferences().pollIntervalMs, 12000);
        QCOMPARE(again.preferences().parallelTransfers, 3);
        QCOMPARE(again.registry()->pollInterval(), 12000);
    }

    void actionsAndTabsHaveIcons() {
        ConsoleContext context(paths(QStringLiteral("icons")));
        MainWindow window(&context);
        window.show();
        auto *toolbar = window.findChild<QToolBar *>(QStringLiteral("sandboxToolbar"));
        QVERIFY(toolbar);
        int withIcon = 0;
        const QList<QAction *> actions = toolbar->actions();
        for (const QAction *action : actions) {
            if (action->isSeparator())
                continue;
            QVERIFY2(!action->icon().isNull(), qPrintable(action->text()));
            QVERIFY(!action->icon().pixmap(16).isNull());
            ++withIcon;
        }
        QCOMPARE(withIcon, 10); // new, add, six lifecycle actions, edit, refresh
        const QString id = context.saved()->add({QString(),
                                                 QStringLiteral("Icons"),
                                                 {QUrl(QStringLiteral("http://127.0.0.1:9")), {}},
                                                 {},
                                                 SandboxState::Online,
                                                 {}});
        window.selectSandbox(id);
        SandboxWorkspace *ws = window.workspace(id);
        QVERIFY(ws);
        for (const QString &tab : {QStringLiteral("terminal"), QStringLiteral("files")}) {
            const int index = ws->tabs()->indexOf(ws->tab(tab));
            QVERIFY2(index >= 0, qPrintable(tab));
            QVERIFY2(!ws->tabs()->tabIcon(index).isNull(), qPrintable(tab));
        }
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
