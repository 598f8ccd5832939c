// The real main window, driven as a user would: add a sandbox through the dialog, read its tabs.
#include "app/commandline.h"
#include "app/consolecontext.h"
#include "app/mainwindow.h"
#include "client/api/filetransfer.h"
#include "client/api/shelljobs.h"
#include "client/providers/localsandboxes.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/savedendpoints.h"
#include "client/traffic/trafficrecorder.h"
#include "models/files/transferqueuemodel.h"
#include "models/runs/sessionlistmodel.h"
#include "models/sandboxlistmodel.h"
#include "models/terminal/terminalcolorscheme.h"
#include "models/traffic/trafficfiltermodel.h"
#include "models/traffic/trafficmodel.h"
#include "tests/support/browser.h"
#include "tests/support/modal.h"
#include "tests/support/testserver.h"
#include "widgets/dialogs/preferencesdialog.h"
#include "widgets/dialogs/sandboxdialog.h"
#include "widgets/files/filestab.h"
#include "widgets/llms/llmstxtview.h"
#include "widgets/overview/contextview.h"
#include "widgets/runs/runstab.h"
#include "widgets/sandboxlist/sandboxlistview.h"
#include "widgets/sandboxlist/webentriesmenu.h"
#include "widgets/shell/terminalpane.h"
#include "widgets/shell/terminaltab.h"
#include "widgets/traffic/trafficdock.h"
#include "widgets/workspace/sandboxworkspace.h"

#include <QApplication>
#include <QComboBox>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFontComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QNetworkReply>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

#include <functional>
#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

QString readAll(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Stands in for the desktop's browser: QDesktopServices hands it the URLs it would open.
class UrlCatcher final : public QObject {
    Q_OBJECT
public:
    QList<QUrl> urls;
public Q_SLOTS:
    void open(const QUrl &url) { urls << url; }
};

// The menu's entries a person can pick: enabled, not a separator, without "Check again".
QStringList pickable(const QMenu *menu) {
    QStringList out;
    for (const QAction *a : menu->actions()) {
        if (!a->isSeparator() && a->isEnabled() && a->objectName() != u"webEntriesRefresh"_s)
            out << a->objectName();
    }
    return out;
}

} // namespace

class TestMainWindow final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    ConsoleContext::Paths paths(const QString &name) const {
        return {m_dir.filePath(name + u".conf"_s), m_dir.filePath(name + u"-data"_s),
                QStringLiteral(SBX_SERVER_BINARY), false};
    }

private Q_SLOTS:
    void addSandboxThroughDialogAndSeeOverview();
    void unreachableSandboxShowsErrorInWorkspace();
    void tabsAreBuiltWhenFirstShown();
    void refusedKeyFromTheEnvironmentIsNamedInTheBanner();
    void localSandboxIsConnectedAndFilled();
    void preferencesPersistPollInterval();
    void preferencesPersistTerminalLook();
    void actionsAndTabsHaveIcons();
    void trafficInspectorOpensWithCtrlShiftI();
    void openInBrowserOffersTheServedPages();
};

void TestMainWindow::addSandboxThroughDialogAndSeeOverview() {
    const QString key = u"gui-test-key-7f3a"_s;
    TestServer server;
    QVERIFY2(server.start(TestServer::withApiKey(key)), qPrintable(server.error()));

    ConsoleContext context(paths(u"add"_s));
    MainWindow window(&context);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    QString wrongOutcome, rightOutcome;
    bool everyMnemonicHasAField = true;
    onModal<SandboxDialog>([&](SandboxDialog *dialog) {
        // A label with a mnemonic and no buddy shows its '&' (it read "CA &file:").
        for (const QLabel *label : dialog->findChildren<QLabel *>())
            if (label->text().contains(u'&') && !label->buddy())
                everyMnemonicHasAField = false;
        QTest::keyClicks(dialog->nameEdit(), u"Agent box"_s);
        QTest::keyClicks(dialog->urlEdit(), server.url().toString());
        dialog->authCombo()->setCurrentIndex(
            dialog->authCombo()->findData(int(Credentials::Kind::ApiKey)));
        QTest::keyClicks(dialog->secretEdit(), u"wrong-key"_s);
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
    QVERIFY(everyMnemonicHasAField);
    QVERIFY2(wrongOutcome.contains(u"Wrong API key"_s), qPrintable(wrongOutcome));
    QVERIFY(!wrongOutcome.contains(u"wrong-key"_s));
    QVERIFY2(rightOutcome.contains(u"Connected"_s), qPrintable(rightOutcome));

    const QString id = window.selectedSandbox();
    QVERIFY(id.startsWith(u"saved:"_s));
    QCOMPARE(context.registry()->entry(id).name, u"Agent box"_s);
    QVERIFY(window.windowTitle().startsWith(u"Agent box"_s));
    QVERIFY(!window.windowTitle().contains(key));

    SandboxWorkspace *ws = window.workspace(id);
    QVERIFY(ws && ws->isVisible());
    auto *overview = qobject_cast<ContextView *>(ws->tab(u"overview"_s));
    QVERIFY(overview);
    QTRY_VERIFY_WITH_TIMEOUT(overview->isLoaded(), 10000);
    // Headed by the name it was given, with the server's version beside it.
    QVERIFY2(overview->title().startsWith(u"Agent box (version "_s), qPrintable(overview->title()));
    QVERIFY(!overview->fieldText(u"os"_s).isEmpty());
    QVERIFY(!overview->fieldText(u"arch"_s).isEmpty());
    QVERIFY(overview->fieldText(u"ports"_s).contains(QString::number(server.port())));
    QCOMPARE(overview->fieldText(u"workspace"_s), server.workspace());
    QTRY_COMPARE_WITH_TIMEOUT(context.registry()->state(id), SandboxState::Online, 10000);

    // llms.txt: rendered, searchable.
    auto *llms = qobject_cast<LlmsTxtView *>(ws->tab(u"llms"_s));
    QVERIFY(llms);
    ws->tabs()->setCurrentWidget(llms);
    QTRY_VERIFY_WITH_TIMEOUT(llms->isLoaded(), 10000);
    QVERIFY(llms->browser()->toPlainText().contains(u"System Environment"_s));
    QVERIFY(llms->find(u"/v1/sandbox"_s) > 0);
    QCOMPARE(llms->find(u"no-such-text-xyz"_s), 0);

    // An agent's shell session, listed in Runs > Sessions, opens in the Terminal tab.
    auto *create = new CreateShellSessionJob(context.registry()->client(id), u"agent-shell"_s);
    QSignalSpy created(create, &Job::finished);
    create->start();
    QVERIFY(created.wait(15000));
    auto *runs = qobject_cast<RunsTab *>(ws->tab(u"runs"_s));
    QVERIFY(runs);
    ws->tabs()->setCurrentWidget(runs);
    int shellRow = -1;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int r = 0; r < runs->sessions()->rowCount(); ++r) {
                if (runs->sessions()->row(r)->id == "agent-shell"_L1)
                    shellRow = r;
            }
            return shellRow >= 0;
        }(),
        15000);
    QCOMPARE(runs->sessions()->row(shellRow)->kind, u"shell"_s);
    auto *sessionList = runs->findChildren<QTreeView *>().at(1);
    sessionList->setCurrentIndex(runs->sessions()->index(shellRow, 0));
    runs->followSelectedSession();
    auto *terminals = qobject_cast<TerminalTab *>(ws->tab(u"terminal"_s));
    QVERIFY(terminals);
    QCOMPARE(ws->tabs()->currentWidget(), terminals);
    const QList<TerminalPane *> panes = terminals->panes();
    QVERIFY(std::any_of(panes.begin(), panes.end(),
                        [](TerminalPane *pane) { return pane->sessionId() == "agent-shell"_L1; }));

    // A download another tab queues (the Monitor's reports) runs in the Files tab's transfers.
    QFile served(QDir(server.workspace()).filePath(u"queued.txt"_s));
    QVERIFY(served.open(QIODevice::WriteOnly));
    served.write("queued through the workspace\n");
    served.close();
    auto *files = qobject_cast<FilesTab *>(ws->tab(u"files"_s));
    QVERIFY(files);
    const QString local = m_dir.filePath(u"queued-copy.txt"_s);
    const QString remote = served.fileName();
    QVERIFY(ws->queueDownload(u"a test download"_s, local,
                              [remote](SandboxClient *client, const QString &to) -> ApiJob * {
                                  return new DownloadJob(client, remote, to);
                              }));
    QCOMPARE(files->transfers()->rowCount(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(files->transfers()->state(0), TransferQueueModel::State::Done, 15000);
    QCOMPARE(readAll(local), u"queued through the workspace\n"_s);

    // The secret stays out of the settings file.
    context.settings()->sync();
    const QString settingsText = readAll(paths(u"add"_s).settingsFile);
    QVERIFY(settingsText.contains(u"Agent box"_s));
    QVERIFY(!settingsText.contains(key));
}

void TestMainWindow::unreachableSandboxShowsErrorInWorkspace() {
    ConsoleContext context(paths(u"down"_s));
    MainWindow window(&context);
    window.show();
    const QString id = context.saved()->add(
        {QString(), u"Down"_s, {QUrl(u"http://127.0.0.1:9"_s), {}}, {}, SandboxState::Online, {}});
    window.selectSandbox(id);
    auto *overview = qobject_cast<ContextView *>(window.workspace(id)->tab(u"overview"_s));
    QSignalSpy failed(overview, &ContextView::loadFailed);
    QVERIFY(failed.count() > 0 || failed.wait(10000));
    QVERIFY(failed.first().first().toString().contains(u"Connection refused"_s));
    QTRY_COMPARE(context.registry()->state(id), SandboxState::Unreachable);
    auto *banner = window.workspace(id)->findChild<QFrame *>(u"stateBanner"_s);
    QTRY_VERIFY(banner->isVisible());
}

void TestMainWindow::tabsAreBuiltWhenFirstShown() {
    ConsoleContext context(paths(u"lazy"_s));
    MainWindow window(&context);
    window.show();
    const QString id = context.saved()->add(
        {QString(), u"Lazy"_s, {QUrl(u"http://127.0.0.1:9"_s), {}}, {}, SandboxState::Online, {}});
    window.selectSandbox(id);
    SandboxWorkspace *ws = window.workspace(id);
    // Start-up builds only the tab in front; every tab is listed with its title all the same.
    QVERIFY(ws->findChild<ContextView *>());
    QVERIFY(!ws->findChild<FilesTab *>());
    QVERIFY(!ws->findChild<TerminalTab *>());
    const int files = [ws] {
        for (int i = 0; i < ws->tabs()->count(); ++i) {
            if (ws->tabs()->tabText(i) == u"Files"_s)
                return i;
        }
        return -1;
    }();
    QVERIFY(files > 0);
    QVERIFY(!ws->tabs()->tabIcon(files).isNull());
    // Clicking its tab builds it in place, in front.
    ws->tabs()->setCurrentIndex(files);
    auto *built = ws->findChild<FilesTab *>();
    QVERIFY(built);
    QCOMPARE(ws->tabs()->currentWidget(), built);
    QCOMPARE(ws->tabs()->indexOf(built), files);
    QCOMPARE(ws->tab(u"files"_s), built);
    // Asking for a tab builds it without bringing it to the front.
    auto *terminals = qobject_cast<TerminalTab *>(ws->tab(u"terminal"_s));
    QVERIFY(terminals);
    QCOMPARE(ws->tabs()->currentWidget(), built);
}

void TestMainWindow::refusedKeyFromTheEnvironmentIsNamedInTheBanner() {
    TestServer server;
    QVERIFY2(server.start(TestServer::withApiKey(u"the-right-key-123"_s)),
             qPrintable(server.error()));
    // Saved with a key in an earlier session; this session's store no longer has it.
    {
        ConsoleContext earlier(paths(u"envkey"_s));
        earlier.saved()->add({QString(),
                              u"Agent"_s,
                              {server.url(), {}},
                              {Credentials::Kind::ApiKey, u"old-key-456"_s},
                              SandboxState::Online,
                              {}});
    }
    ConsoleContext context(paths(u"envkey"_s));
    MainWindow window(&context);
    window.show();
    qputenv("SBX_TEST_REFUSED_KEY", "not-the-key-789");
    ConsoleOptions cli;
    cli.connectUrl = server.url().toString();
    cli.apiKeyEnv = u"SBX_TEST_REFUSED_KEY"_s;
    QString error;
    const QString id = connectFromCommandLine(context, cli, &error);
    QVERIFY2(!id.isEmpty(), qPrintable(error));
    window.selectSandbox(id);
    QTRY_COMPARE_WITH_TIMEOUT(context.registry()->state(id), SandboxState::AuthFailed, 10000);
    auto *banner = window.workspace(id)->findChild<QFrame *>(u"stateBanner"_s);
    QTRY_VERIFY(banner->isVisible());
    const QLabel *label = banner->findChild<QLabel *>();
    QTRY_VERIFY2_WITH_TIMEOUT(label->text().contains(u"SBX_TEST_REFUSED_KEY"_s),
                              qPrintable(label->text()), 10000);
    const QString text = label->text();
    QVERIFY2(!text.contains(u"keychain"_s), qPrintable(text));
    QVERIFY(!text.contains(u"not-the-key-789"_s));
    QCOMPARE(context.registry()->entry(id).credentials.secret, u"not-the-key-789"_s);
}

void TestMainWindow::localSandboxIsConnectedAndFilled() {
    ConsoleContext context(paths(u"local"_s));
    MainWindow window(&context);
    window.show();
    const QString id = context.local()->ensureDefault();
    window.selectSandbox(id);
    QTRY_COMPARE_WITH_TIMEOUT(context.registry()->state(id), SandboxState::Online, 20000);
    auto *overview = qobject_cast<ContextView *>(window.workspace(id)->tab(u"overview"_s));
    if (!overview->isLoaded())
        overview->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(overview->isLoaded(), 10000);
    QCOMPARE(overview->fieldText(u"workspace"_s), context.local()->workspace(id));
}

void TestMainWindow::preferencesPersistPollInterval() {
    {
        ConsoleContext context(paths(u"prefs"_s));
        MainWindow window(&context);
        onModal<PreferencesDialog>([](PreferencesDialog *dialog) {
            dialog->pollIntervalBox()->setValue(12);
            dialog->parallelTransfersBox()->setValue(3);
            dialog->accept();
        });
        window.showPreferences();
        QCOMPARE(context.registry()->pollInterval(), 12000);
    }
    ConsoleContext again(paths(u"prefs"_s));
    QCOMPARE(again.preferences().pollIntervalMs, 12000);
    QCOMPARE(again.preferences().parallelTransfers, 3);
    QCOMPARE(again.registry()->pollInterval(), 12000);
}

void TestMainWindow::preferencesPersistTerminalLook() {
    {
        ConsoleContext context(paths(u"prefs-terminal"_s));
        MainWindow window(&context);
        onModal<PreferencesDialog>([](PreferencesDialog *dialog) {
            // The default font is offered, fixed-pitch fonts only.
            QCOMPARE(dialog->terminalFontBox()->fontFilters(), QFontComboBox::MonospacedFonts);
            QCOMPARE(dialog->terminalSchemeBox()->currentData().toString(), u"dark"_s);
            QCOMPARE(dialog->terminalSchemeBox()->count(), int(terminalColorSchemes().size()));
            dialog->terminalSchemeBox()->setCurrentIndex(
                dialog->terminalSchemeBox()->findData(u"light"_s));
            dialog->terminalFontSizeBox()->setValue(19);
            QCOMPARE(dialog->terminalPredictionBox()->currentIndex(), 1); // adaptive
            dialog->terminalPredictionBox()->setCurrentIndex(0);
            dialog->accept();
        });
        window.showPreferences();
        QCOMPARE(context.preferences().terminalColorScheme, u"light"_s);
        QCOMPARE(context.preferences().terminalFontSize, 19);
        QCOMPARE(context.preferences().terminalPrediction, 0);
        // An untouched font stays "the default", so that it follows the system's.
        QCOMPARE(context.preferences().terminalFontFamily, QString());
    }
    ConsoleContext again(paths(u"prefs-terminal"_s));
    QCOMPARE(again.preferences().terminalColorScheme, u"light"_s);
    QCOMPARE(again.preferences().terminalFontSize, 19);
    PreferencesDialog dialog(again.preferences());
    QCOMPARE(dialog.terminalSchemeBox()->currentData().toString(), u"light"_s);
    QCOMPARE(dialog.terminalFontSizeBox()->value(), 19);
    QCOMPARE(again.preferences().terminalPrediction, 0);
    QCOMPARE(dialog.terminalPredictionBox()->currentIndex(), 0);
}

void TestMainWindow::actionsAndTabsHaveIcons() {
    ConsoleContext context(paths(u"icons"_s));
    MainWindow window(&context);
    window.show();
    auto *toolbar = window.findChild<QToolBar *>(u"sandboxToolbar"_s);
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
    QCOMPARE(withIcon, 11); // new, add, six lifecycle actions, open in browser, edit, refresh
    const QString id = context.saved()->add(
        {QString(), u"Icons"_s, {QUrl(u"http://127.0.0.1:9"_s), {}}, {}, SandboxState::Online, {}});
    window.selectSandbox(id);
    SandboxWorkspace *ws = window.workspace(id);
    QVERIFY(ws);
    for (const QString &tab : {u"terminal"_s, u"files"_s}) {
        const int index = ws->tabs()->indexOf(ws->tab(tab));
        QVERIFY2(index >= 0, qPrintable(tab));
        QVERIFY2(!ws->tabs()->tabIcon(index).isNull(), qPrintable(tab));
    }
}

void TestMainWindow::trafficInspectorOpensWithCtrlShiftI() {
    const QString key = u"inspector-window-key-42"_s;
    TestServer server;
    QVERIFY2(server.start(TestServer::withApiKey(key)), qPrintable(server.error()));
    ConsoleContext context(paths(u"inspector"_s));
    MainWindow window(&context);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(!window.findChild<TrafficDock *>()); // made at first use, not with the window
    TrafficDock *dock = window.trafficDock();
    QVERIFY(dock && dock->isHidden());
    TrafficRecorder *recorder = context.registry()->traffic();
    QVERIFY(!recorder->keepsDetails()); // closed at first: metadata only
    const QString id = context.saved()->add({QString(),
                                             u"Probed box"_s,
                                             {server.url(), {}},
                                             {Credentials::Kind::ApiKey, key},
                                             SandboxState::Online,
                                             {}});
    QTest::keyClick(&window, Qt::Key_I, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY(dock->isVisible());
    QVERIFY(recorder->keepsDetails());
    // The registry's probe of the sandbox is recorded under its name, with no key in it.
    context.registry()->probe(id);
    QTRY_VERIFY_WITH_TIMEOUT(dock->model()->rowCount() > 0, 10000);
    dock->sandboxFilter()->setCurrentIndex(dock->sandboxFilter()->findData(u"Probed box"_s));
    QTRY_VERIFY(dock->filter()->rowCount() > 0);
    QVERIFY(dock->selectRow(0));
    QVERIFY2(dock->headersText().contains(u"X-AIO-API-Key: •••"_s),
             qPrintable(dock->headersText()));
    QVERIFY(!dock->headersText().contains(key));
    bool inViewMenu = false;
    for (const QAction *action : window.findChildren<QAction *>()) {
        if (action->objectName() == u"toggleTrafficInspector"_s)
            inViewMenu = action->shortcut() == QKeySequence(u"Ctrl+Shift+I"_s);
    }
    QVERIFY(inViewMenu);
    QTest::keyClick(&window, Qt::Key_I, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY(dock->isHidden());
    QVERIFY(!recorder->keepsDetails());
}

void TestMainWindow::openInBrowserOffersTheServedPages() {
    const QString key = u"browser-menu-key-3f8b"_s;
    TestServer server;
    QVERIFY2(server.start(TestServer::withApiKey(key)), qPrintable(server.error()));
    UrlCatcher browser;
    QDesktopServices::setUrlHandler(u"http"_s, &browser, "open");
    ConsoleContext context(paths(u"browser"_s));
    MainWindow window(&context);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString id = context.saved()->add({QString(),
                                             u"Pages"_s,
                                             {server.url(), {}},
                                             {Credentials::Kind::ApiKey, key},
                                             SandboxState::Online,
                                             {}});
    window.selectSandbox(id);
    QTRY_COMPARE_WITH_TIMEOUT(context.registry()->state(id), SandboxState::Online, 10000);

    WebEntriesMenu *menu = window.webEntries();
    QVERIFY(menu);
    QCOMPARE(menu->sandbox(), id);
    QAction *openAction = menu->menuAction();
    QVERIFY(openAction->isEnabled());
    QVERIFY(!openAction->icon().isNull());
    QVERIFY(!menu->accessibleName().isEmpty());
    // Where the other sandbox actions are: the Sandbox menu (Alt+S, then B) and the toolbar.
    const QList<QAction *> bar = window.menuBar()->actions();
    QMenu *sandboxMenu = bar.first()->menu();
    QVERIFY(sandboxMenu && sandboxMenu->actions().contains(openAction));
    QVERIFY(openAction->text().contains(u"&B"_s));
    auto *toolbar = window.findChild<QToolBar *>(u"sandboxToolbar"_s);
    auto *button = qobject_cast<QToolButton *>(toolbar->widgetForAction(openAction));
    QVERIFY(button);
    QCOMPARE(button->popupMode(), QToolButton::InstantPopup);

    // Opening it probes the sandbox: "Checking…" first, then the one page sandbox-server serves.
    menu->popup(window.mapToGlobal(QPoint(40, 40)));
    QVERIFY(QTest::qWaitForWindowExposed(menu));
    const QList<QAction *> first = menu->actions();
    QVERIFY(!first.isEmpty());
    QVERIFY(pickable(menu).isEmpty()); // "Checking…", disabled, or already the answer
    QTRY_COMPARE_WITH_TIMEOUT(pickable(menu), QStringList{u"webEntry-docs"_s}, 10000);
    QAction *docs = menu->findChild<QAction *>(u"webEntry-docs"_s);
    QCOMPARE(docs->text(), u"API docs"_s);
    QVERIFY(!docs->toolTip().contains(key));

    // Picked from the keyboard: the browser gets the page with a ticket, never the key.
    menu->setActiveAction(docs);
    QTest::keyClick(menu, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(browser.urls.size(), 1, 10000);
    const QUrl url = browser.urls.first();
    QCOMPARE(url.path(), u"/v1/docs"_s);
    QVERIFY(QUrlQuery(url).hasQueryItem(u"ticket"_s));
    QVERIFY(!url.toString(QUrl::FullyEncoded).contains(key));
    QCOMPARE(browse(url).status, 200);

    // The list's context menu has it too.
    bool inContextMenu = false;
    QTimer::singleShot(0, this, [&] {
        QMenu *popup = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (popup = qobject_cast<QMenu *>(QApplication::activePopupWidget())) != nullptr, 5000);
        inContextMenu = popup->actions().contains(openAction);
        popup->close();
    });
    const QRect row = window.sandboxView()->visualRect(
        context.sandboxList()->index(context.sandboxList()->rowOf(id), 0));
    Q_EMIT window.sandboxView()->customContextMenuRequested(row.center());
    QVERIFY(inContextMenu);
    QDesktopServices::unsetUrlHandler(u"http"_s);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
